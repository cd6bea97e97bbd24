//! Disabled entities from the user's side: `disable` / `enable` (and their subtree and queued
//! forms) park an entity out of every query form while it keeps its handle, components, tags
//! and links; a query that asks for `WorldMask::DISABLED` finds the disabled ones, and one
//! that allows them (`allow_disabled()`, `Allow<Disabled>`, the bit in both masks) finds both;
//! systems say so in their filters (`With<Disabled>`); no hook fires; clones, restores and
//! snapshots keep the state; stale handles answer false / 0.

use archetypal::system::SystemAccess;
use archetypal::{
    Allow, Bitmask, Disabled, Entity, Has, ResMut, Schedule, SystemContext, SystemParam, Target,
    With, Without, ecs,
};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub i32);
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log(pub Vec<String>);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Seen(pub usize);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        frozen => FROZEN,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
    Resources {
        log: Log,
        seen: Seen,
    }
    Hooks {
        on_add(POSITION) => position_added,
        on_remove(POSITION) => position_removed,
        on_despawn => despawned,
    }
}

fn position_added(world: &mut WorldParts<'_>, entity: Entity) {
    world.resources.log.0.push(format!("added {entity}"));
}

fn position_removed(world: &mut WorldParts<'_>, entity: Entity, _: &WorldRemoved) {
    world.resources.log.0.push(format!("removed {entity}"));
}

fn despawned(world: &mut WorldParts<'_>, entity: Entity, _: &WorldRemoved) {
    world.resources.log.0.push(format!("despawned {entity}"));
}

const DISABLED: WorldMask = WorldMask::DISABLED;

/// Ten movers (position 0..10, velocity 1), a few frozen; the ones at 2, 5 and 7 disabled.
fn movers() -> (World, Vec<Entity>, Vec<Entity>) {
    let mut world = World::new();
    let all: Vec<Entity> = (0..10)
        .map(|index| {
            let mut builder = EntityBuilder::new()
                .with_position(Position(index))
                .with_velocity(Velocity(1));
            if index % 3 == 0 {
                builder = builder.with_mask(FROZEN);
            }
            builder.spawn_one(&mut world)
        })
        .collect();
    world.apply_commands();
    world.resources.log.0.clear();
    let disabled = vec![all[2], all[5], all[7]];
    for &entity in &disabled {
        assert!(world.disable(entity));
    }
    world.check_invariants().unwrap();
    (world, all, disabled)
}

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort();
    entities
}

fn enabled(all: &[Entity], disabled: &[Entity]) -> Vec<Entity> {
    sorted(
        all.iter()
            .copied()
            .filter(|entity| !disabled.contains(entity))
            .collect(),
    )
}

#[allow(clippy::type_complexity)]
fn count_movers(movers: Query<(Entity, &mut Position, &Velocity)>, mut seen: ResMut<Seen>) {
    seen.0 = movers.count();
}

fn move_all(mut movers: Query<(&mut Position, &Velocity)>) {
    movers.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

#[test]
fn every_query_form_skips_disabled_entities() {
    let (mut world, all, disabled) = movers();
    let expected = enabled(&all, &disabled);

    assert_eq!(sorted(world.query_entities(POSITION).collect()), expected);
    assert_eq!(sorted(world.query_entities(0).collect()), expected);
    let mut seen = Vec::new();
    world.for_each(POSITION, 0, |entity, _, _| seen.push(entity));
    assert_eq!(sorted(seen), expected);
    let mut seen = Vec::new();
    world.for_each_mut(POSITION, 0, |entity, _, _| seen.push(entity));
    assert_eq!(sorted(seen), expected);
    let rows = std::sync::atomic::AtomicUsize::new(0);
    world.par_for_each_mut(POSITION, 0, |_, _, _| {
        rows.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(rows.into_inner(), expected.len());
    let mut rows = 0;
    world.for_each_table_mut(POSITION, 0, |table| rows += table.position.len());
    assert_eq!(rows, expected.len());
    let tables: usize = world
        .matching_tables(POSITION, 0)
        .map(|table| table.entities.len())
        .sum();
    assert_eq!(tables, expected.len());

    // Tags do not change it: the frozen disabled entity is skipped by a tag query too.
    let frozen: Vec<Entity> = sorted(world.query_entities(FROZEN).collect());
    assert_eq!(frozen, sorted(vec![all[0], all[3], all[6], all[9]]));
    assert!(world.disable(all[3]));
    assert_eq!(
        sorted(world.query_entities(FROZEN).collect()),
        sorted(vec![all[0], all[6], all[9]])
    );
    assert!(world.enable(all[3]));

    // Typed queries: closures, iterators, counts, lookups by handle, mutable and not.
    let query = world.typed_query::<(Entity, &mut Position)>();
    assert_eq!(query.count(), expected.len());
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &Velocity)>()
        .for_each(|(entity, _)| seen.push(entity));
    assert_eq!(sorted(seen), expected);
    let seen: Vec<Entity> = world
        .typed_query::<(Entity, &mut Position)>()
        .iter()
        .map(|(entity, _)| entity)
        .collect();
    assert_eq!(sorted(seen), expected);
    assert!(world.typed_query::<&Position>().get(disabled[0]).is_none());
    assert!(world.typed_query::<&Position>().get(all[0]).is_some());
    assert_eq!(world.typed_query_ref::<&Position>().count(), expected.len());
    assert!(
        world
            .typed_query_ref::<&Position>()
            .get(disabled[1])
            .is_none()
    );
    let seen: Vec<Entity> = world.typed_query_ref::<Entity>().iter().collect();
    assert_eq!(sorted(seen), expected);

    // The split: neither side holds them.
    let (mut written, read) = world
        .split_tables(VELOCITY | HEALTH, 0, POSITION, HEALTH)
        .expect("HEALTH separates the sides");
    assert_eq!(written.len(), 0);
    let mut seen = Vec::new();
    read.for_each(|entity, _, _| seen.push(entity));
    assert_eq!(sorted(seen), expected);
    assert_eq!(read.get_position(disabled[0]), None);
    written.for_each_mut(|_, _, _| unreachable!("no table holds HEALTH"));

    // A system's queries, whole or lent.
    SystemContext::new().run(&mut world, count_movers);
    assert_eq!(world.resources.seen, Seen(expected.len()));
    SystemContext::new().run(&mut world, move_all);
    for (index, &entity) in all.iter().enumerate() {
        let moved = if disabled.contains(&entity) { 0 } else { 1 };
        assert_eq!(
            world.get_position(entity),
            Some(&Position(index as i32 + moved))
        );
    }
    world.check_invariants().unwrap();
}

#[test]
fn a_query_asking_for_disabled_finds_them() {
    let (mut world, _, disabled) = movers();
    assert_eq!(
        sorted(world.query_entities(POSITION | DISABLED).collect()),
        sorted(disabled.clone())
    );
    assert_eq!(
        sorted(world.query_entities(DISABLED).collect()),
        sorted(disabled.clone())
    );
    let mut seen = Vec::new();
    world.for_each_mut(VELOCITY | DISABLED, 0, |entity, table, row| {
        table.position[row].0 += 100;
        seen.push(entity);
    });
    assert_eq!(sorted(seen), sorted(disabled.clone()));
    let count = world.typed_query::<&mut Position>().with(DISABLED).count();
    assert_eq!(count, disabled.len());
    let found = world
        .typed_query::<&Position>()
        .with(DISABLED)
        .get(disabled[0])
        .copied();
    assert_eq!(found, Some(Position(102)));
    // A query excluding DISABLED is the default.
    assert_eq!(world.query_entities(POSITION).count(), 7);
    let mut count = 0;
    world.for_each(POSITION, DISABLED, |_, _, _| count += 1);
    assert_eq!(count, 7);
}

/// Typed queries let the disabled entities in beside the enabled ones with
/// `allow_disabled()`; `with(DISABLED)` and `without(DISABLED)` still decide alone.
#[test]
fn a_typed_query_allowing_disabled_finds_both() {
    let (mut world, all, disabled) = movers();
    let everyone = sorted(all.clone());
    assert_eq!(
        world.typed_query::<&Position>().allow_disabled().count(),
        10
    );
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &mut Position)>()
        .allow_disabled()
        .for_each(|(entity, mut position)| {
            position.0 += 100;
            seen.push(entity);
        });
    assert_eq!(sorted(seen), everyone);
    assert!(all.iter().all(|&e| world.get_position(e).unwrap().0 >= 100));
    let seen: Vec<Entity> = world
        .typed_query::<(Entity, &mut Position)>()
        .allow_disabled()
        .iter()
        .map(|(entity, _)| entity)
        .collect();
    assert_eq!(sorted(seen), everyone);
    for entity in [disabled[0], all[0]] {
        let mut query = world.typed_query::<&mut Position>().allow_disabled();
        query.get(entity).unwrap().0 += 1;
        assert!(
            world
                .typed_query_ref::<&Position>()
                .allow_disabled()
                .get(entity)
                .is_some()
        );
    }
    assert_eq!(world.get_position(disabled[0]), Some(&Position(103)));
    let shared = world.typed_query_ref::<Entity>().allow_disabled();
    assert_eq!(sorted(shared.iter().collect()), everyone);
    assert_eq!(
        world
            .typed_query_ref::<&Position>()
            .allow_disabled()
            .count(),
        10
    );

    // The other filters still hold: tags, components, change filters.
    let thawed = world
        .typed_query::<Entity>()
        .allow_disabled()
        .without(FROZEN)
        .count();
    assert_eq!(thawed, 6, "1, 2, 4, 5, 7, 8: three of them disabled");
    let tick = world.current_tick();
    world.step();
    world
        .typed_query::<&mut Position>()
        .allow_disabled()
        .for_each(|_| ());
    *world.get_position_mut(disabled[1]).unwrap() = Position(0);
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .allow_disabled()
        .changed_since(POSITION, tick)
        .iter()
        .collect();
    assert_eq!(changed, [disabled[1]]);

    // Naming the bit decides: with it, the disabled only; without it, the enabled only.
    let only = world
        .typed_query::<Entity>()
        .allow_disabled()
        .with(DISABLED);
    assert_eq!(only.count(), 3);
    let none = world
        .typed_query::<Entity>()
        .allow_disabled()
        .without(DISABLED);
    assert_eq!(none.count(), 7);
    world.check_invariants().unwrap();
}

/// The mask forms: the disabled bit in both the include and the exclude mask lets the
/// disabled entities in beside the enabled ones.
#[test]
fn the_mask_forms_take_both_with_the_bit_in_both_masks() {
    let (mut world, all, _) = movers();
    let everyone = sorted(all.clone());
    let mut seen = Vec::new();
    world.for_each(POSITION | DISABLED, DISABLED, |entity, _, _| {
        seen.push(entity)
    });
    assert_eq!(sorted(seen), everyone);
    let mut seen = Vec::new();
    world.for_each_mut(
        VELOCITY | DISABLED,
        DISABLED | FROZEN,
        |entity, table, row| {
            table.velocity[row].0 = 7;
            seen.push(entity);
        },
    );
    assert_eq!(seen.len(), 6, "the unfrozen, disabled or not");
    assert_eq!(world.get_velocity(all[2]), Some(&Velocity(7)));
    let rows: usize = world
        .matching_tables(DISABLED, DISABLED)
        .map(|table| table.entities.len())
        .sum();
    assert_eq!(rows, 10);
    let mut rows = 0;
    world.for_each_table_mut(POSITION | DISABLED, DISABLED, |table| {
        rows += table.position.len()
    });
    assert_eq!(rows, 10);
    // `query_entities` takes one mask: both are its two calls.
    let both: Vec<Entity> = world
        .query_entities(POSITION)
        .chain(world.query_entities(POSITION | DISABLED))
        .collect();
    assert_eq!(sorted(both), everyone);
}

#[allow(clippy::type_complexity)]
fn census(
    mut awake: Query<(Entity, &mut Position)>,
    mut asleep: Query<(Entity, &mut Position), With<Disabled>>,
    everyone: Query<(Entity, &Velocity), Allow<Disabled>>,
    mut log: ResMut<Log>,
) {
    awake.for_each(|(_, mut position)| position.0 += 1);
    asleep.for_each(|(_, mut position)| position.0 += 1000);
    let mut asleep_seen: Vec<Entity> = asleep.iter_mut().map(|(entity, _)| entity).collect();
    asleep_seen.sort();
    let mut everyone_seen: Vec<Entity> = everyone.iter().map(|(entity, _)| entity).collect();
    everyone_seen.sort();
    log.0.push(format!(
        "awake {} asleep {asleep_seen:?} everyone {} {everyone_seen:?}",
        awake.count(),
        everyone.count()
    ));
}

fn count_asleep(asleep: Query<Entity, With<Disabled>>, mut seen: ResMut<Seen>) {
    seen.0 = asleep.count();
}

fn nudge_everyone(mut everyone: Query<&mut Position, Allow<Disabled>>) {
    everyone.for_each(|mut position| position.0 -= 1);
}

/// A system's queries name the disabled entities in their filters: `With<Disabled>` for them
/// alone, `Allow<Disabled>` beside the enabled ones; whole (one query) or lent (several),
/// run by a schedule, in parallel or not.
#[test]
fn system_queries_ask_for_disabled_entities_in_their_filters() {
    for parallel in [false, true] {
        let (mut world, all, disabled) = movers();
        let mut schedule = Schedule::new();
        schedule.set_parallel(parallel);
        schedule.add(census).add(count_asleep).add(nudge_everyone);
        schedule.run(&mut world);
        let everyone = sorted(all.clone());
        assert_eq!(
            world.resources.log.0,
            [format!(
                "awake 7 asleep {:?} everyone 10 {everyone:?}",
                sorted(disabled.clone())
            )]
        );
        assert_eq!(world.resources.seen, Seen(3));
        for (index, &entity) in all.iter().enumerate() {
            let moved = if disabled.contains(&entity) { 1000 } else { 1 };
            assert_eq!(
                world.get_position(entity),
                Some(&Position(index as i32 + moved - 1)),
                "{parallel}"
            );
        }
        world.check_invariants().unwrap();
    }
}

/// `Has<Disabled>` tells each row whether its entity is disabled, in every query form that
/// lets disabled entities in (and is false everywhere in one that skips them).
#[test]
fn has_disabled_answers_per_row_in_every_form() {
    #[allow(clippy::type_complexity)]
    fn tally(
        mut everyone: Query<(Entity, Has<Disabled>, &mut Position), Allow<Disabled>>,
        asleep: Query<Has<Disabled>, With<Disabled>>,
        awake: Query<Has<Disabled>, Without<Health>>,
        mut log: ResMut<Log>,
    ) {
        everyone.for_each(|(_, disabled, mut position)| {
            if disabled {
                position.0 += 100;
            }
        });
        let listed: Vec<String> = everyone
            .iter_mut()
            .filter(|(_, disabled, _)| *disabled)
            .map(|(entity, _, _)| entity.to_string())
            .collect();
        log.0.push(listed.join(" "));
        log.0.push(format!(
            "asleep {} awake {}",
            asleep.iter().filter(|disabled| *disabled).count(),
            awake.iter().filter(|disabled| !*disabled).count(),
        ));
    }
    let (mut world, all, disabled) = movers();
    SystemContext::new().run(&mut world, tally);
    let mut names: Vec<Entity> = disabled.clone();
    names.sort_by_key(|entity| all.iter().position(|one| one == entity));
    let expected_list: Vec<String> = world
        .typed_query_ref::<Entity>()
        .allow_disabled()
        .iter()
        .filter(|&entity| world.is_disabled(entity))
        .map(|entity| entity.to_string())
        .collect();
    assert_eq!(expected_list.len(), 3);
    assert_eq!(
        world.resources.log.0,
        [expected_list.join(" "), "asleep 3 awake 7".to_string()]
    );
    for (index, &entity) in all.iter().enumerate() {
        let moved = if disabled.contains(&entity) { 100 } else { 0 };
        assert_eq!(
            world.get_position(entity),
            Some(&Position(index as i32 + moved))
        );
    }
    // typed_query and typed_query_ref: for_each, iter and get.
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, Has<Disabled>)>()
        .allow_disabled()
        .for_each(|(entity, is_disabled)| seen.push((entity, is_disabled)));
    let read: Vec<(Entity, bool)> = world
        .typed_query_ref::<(Entity, Has<Disabled>)>()
        .allow_disabled()
        .iter()
        .collect();
    assert_eq!(seen.len(), 10);
    assert_eq!(sorted_pairs(seen), sorted_pairs(read.clone()));
    for (entity, is_disabled) in read {
        assert_eq!(is_disabled, world.is_disabled(entity), "{entity}");
        let looked_up = world
            .typed_query_ref::<Has<Disabled>>()
            .allow_disabled()
            .get(entity);
        assert_eq!(looked_up, Some(is_disabled));
        let skipping = world.typed_query_ref::<Has<Disabled>>().get(entity);
        assert_eq!(skipping, (!is_disabled).then_some(false));
    }
}

fn sorted_pairs(mut pairs: Vec<(Entity, bool)>) -> Vec<(Entity, bool)> {
    pairs.sort();
    pairs
}

/// `get`, `get_mut` and `has` by handle through a system's query, and a `Target` term that
/// allows a disabled target.
#[test]
fn lookups_and_target_terms_follow_the_filter() {
    let mut world = World::new();
    let parent = EntityBuilder::new()
        .with_position(Position(50))
        .spawn_one(&mut world);
    let child = EntityBuilder::new()
        .with_position(Position(1))
        .with_child_of(parent)
        .spawn_one(&mut world);
    world.apply_commands();
    world.resources.log.0.clear();
    assert!(world.disable(parent));

    fn look(
        mut asleep: Query<&mut Position, With<Disabled>>,
        everyone: Query<Entity, Allow<Disabled>>,
        mut log: ResMut<Log>,
    ) {
        let mut seen: Vec<Entity> = everyone.iter().collect();
        seen.sort();
        let [parent, child] = [seen[0], seen[1]];
        asleep.get_mut(parent).unwrap().0 += 1;
        log.0.push(format!(
            "{} {} {} {}",
            asleep.get_mut(child).is_none(),
            everyone.get(child).is_some() && everyone.get(parent).is_some(),
            everyone.has::<Disabled, _>(parent),
            everyone.has::<Disabled, _>(child),
        ));
    }
    #[allow(clippy::type_complexity)]
    fn read_parents(
        children: Query<(
            Target<CHILD_OF, &Position>,
            Target<CHILD_OF, &Position, Allow<Disabled>>,
        )>,
        mut log: ResMut<Log>,
    ) {
        for (skipped, allowed) in children.iter() {
            log.0.push(format!("{skipped:?} {allowed:?}"));
        }
    }
    SystemContext::new().run(&mut world, look);
    SystemContext::new().run(&mut world, read_parents);
    assert_eq!(
        world.resources.log.0,
        ["true true true false", "None Some(Position(51))"]
    );
    assert_eq!(world.get_position(child), Some(&Position(1)));
    world.check_invariants().unwrap();
}

fn access_of<P: SystemParam<World, M>, M>() -> SystemAccess {
    P::ACCESS
}

/// A query of the disabled entities and one skipping them match different tables, so one
/// system may write the same component through both; a query allowing them meets both.
/// The filters read nothing.
#[test]
fn the_disabled_filters_in_a_systems_access() {
    let skipping = access_of::<Query<'_, &mut Position>, _>();
    let only = access_of::<Query<'_, &mut Position, With<Disabled>>, _>();
    let allowing = access_of::<Query<'_, &mut Position, Allow<Disabled>>, _>();
    assert!(!skipping.conflicts_with(only));
    assert!(skipping.conflicts_with(allowing));
    assert!(only.conflicts_with(allowing));
    for access in [only, allowing] {
        assert_eq!(access.components_read, skipping.components_read);
        assert_eq!(access.components_written, skipping.components_written);
        assert_eq!(access.ticks, skipping.ticks);
    }
    // `Without<FROZEN>` beside `With<Disabled>`: still apart from the skipping query.
    let frozen_asleep =
        access_of::<Query<'_, &mut Position, (With<Disabled>, Without<FROZEN>)>, _>();
    assert!(!skipping.conflicts_with(frozen_asleep));
}

#[test]
fn a_disabled_entity_keeps_everything_and_enable_restores_it() {
    let mut world = World::new();
    let parent = world.spawn(POSITION);
    let child = EntityBuilder::new()
        .with_position(Position(4))
        .with_health(Health(9))
        .with_child_of(parent)
        .with_mask(FROZEN)
        .spawn_one(&mut world);
    world.apply_commands();
    world.resources.log.0.clear();
    let before = world.component_mask(child);

    assert!(world.disable(child));
    assert!(world.is_disabled(child));
    assert!(world.disable(child), "disabling twice is fine");
    assert!(world.is_alive(child));
    // Lookups by handle still find it; its mask is its components and tags.
    assert_eq!(world.get_position(child), Some(&Position(4)));
    assert_eq!(world.get_health(child), Some(&Health(9)));
    assert_eq!(world.component_mask(child), before);
    assert!(world.has_components(child, POSITION | FROZEN | DISABLED));
    assert_eq!(world.get_child_of(child), Some(parent));
    assert_eq!(world.get_children(parent), &[child]);
    // Writes by handle and structural changes keep it disabled.
    world.get_position_mut(child).unwrap().0 = 5;
    assert!(world.set_velocity(child, Velocity(2)));
    assert!(world.remove_components(child, HEALTH));
    assert!(world.is_disabled(child));
    assert_eq!(world.query_entities(VELOCITY).count(), 0);
    world.check_invariants().unwrap();

    assert!(world.enable(child));
    assert!(!world.is_disabled(child));
    assert!(world.enable(child), "enabling twice is fine");
    assert_eq!(world.get_position(child), Some(&Position(5)));
    assert_eq!(world.get_velocity(child), Some(&Velocity(2)));
    assert_eq!(
        world.component_mask(child),
        Some(POSITION | VELOCITY | FROZEN | CHILD_OF)
    );
    assert_eq!(world.get_child_of(child), Some(parent));
    assert_eq!(world.query_entities(VELOCITY).collect::<Vec<_>>(), [child]);
    assert_eq!(world.query_entities(FROZEN).collect::<Vec<_>>(), [child]);
    world.check_invariants().unwrap();

    // Only the structural changes made while it was disabled ran hooks: disabling and
    // enabling run none.
    world.apply_commands();
    assert_eq!(world.resources.log.0, Vec::<String>::new());
}

#[test]
fn disable_and_enable_fire_no_hook_and_stamp_nothing() {
    let mut world = World::new();
    let entity = world.spawn(POSITION | VELOCITY);
    world.apply_commands();
    world.resources.log.0.clear();
    world.step();
    let tick = world.current_tick();
    world.step();
    assert!(world.disable(entity));
    assert!(world.enable(entity));
    world.apply_commands();
    assert!(world.resources.log.0.is_empty());
    let changed = world
        .typed_query::<Entity>()
        .changed_since(POSITION, tick)
        .count();
    assert_eq!(changed, 0, "a move between tables is not a write");
    // A disabled entity despawns as any other, with its hooks.
    assert!(world.disable(entity));
    assert!(world.despawn(entity));
    world.apply_commands();
    assert_eq!(
        world.resources.log.0,
        [format!("removed {entity}"), format!("despawned {entity}")]
    );
    world.check_invariants().unwrap();
}

#[test]
fn a_subtree_is_disabled_and_enabled_in_one_call() {
    let mut world = World::new();
    let root = world.spawn(POSITION);
    let children: Vec<Entity> = (0..2)
        .map(|_| {
            EntityBuilder::new()
                .with_position(Position(1))
                .with_child_of(root)
                .spawn_one(&mut world)
        })
        .collect();
    let grandchild = EntityBuilder::new()
        .with_position(Position(2))
        .with_child_of(children[1])
        .spawn_one(&mut world);
    let other = world.spawn(POSITION);

    assert_eq!(world.disable_tree(CHILD_OF, root), 4);
    for entity in [root, children[0], children[1], grandchild] {
        assert!(world.is_disabled(entity));
    }
    assert_eq!(world.query_entities(POSITION).collect::<Vec<_>>(), [other]);
    world.check_invariants().unwrap();

    assert_eq!(world.enable_tree(CHILD_OF, children[1]), 2);
    assert_eq!(
        sorted(world.query_entities(POSITION).collect()),
        sorted(vec![children[1], grandchild, other])
    );
    assert_eq!(world.enable_tree(CHILD_OF, root), 4);
    assert_eq!(world.query_entities(POSITION).count(), 5);
    // A bit that is no relation's: the entity alone.
    assert_eq!(world.disable_tree(POSITION, root), 1);
    assert!(world.is_disabled(root) && !world.is_disabled(children[0]));
    // Despawning a disabled root cascades as ever.
    assert!(world.despawn(root));
    assert_eq!(world.query_entities(POSITION).collect::<Vec<_>>(), [other]);
    world.check_invariants().unwrap();
}

/// A parents-first walk skips a disabled entity and walks on below it: its children are
/// visited, handed `None` for it, as for any entity the query leaves out.
#[test]
fn a_parents_first_walk_passes_through_a_disabled_entity() {
    let mut world = World::new();
    let root = EntityBuilder::new()
        .with_position(Position(100))
        .spawn_one(&mut world);
    let middle = EntityBuilder::new()
        .with_position(Position(10))
        .with_child_of(root)
        .spawn_one(&mut world);
    let leaf = EntityBuilder::new()
        .with_position(Position(1))
        .with_child_of(middle)
        .spawn_one(&mut world);
    world.apply_commands();
    let walk = |world: &mut World| {
        let mut visits = Vec::new();
        world
            .typed_query::<(Entity, &Position)>()
            .parents_first::<CHILD_OF>()
            .for_each(|parent: Option<&i32>, (entity, position)| {
                let total = parent.copied().unwrap_or(0) + position.0;
                visits.push((entity, total));
                total
            });
        visits
    };
    assert_eq!(walk(&mut world), [(root, 100), (middle, 110), (leaf, 111)]);

    assert!(world.disable(middle));
    assert_eq!(walk(&mut world), [(root, 100), (leaf, 1)]);

    // Allowed, the disabled entity is visited in its place; asked for alone, it is a top.
    let mut visits = Vec::new();
    world
        .typed_query::<(Entity, &Position)>()
        .allow_disabled()
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&i32>, (entity, position)| {
            let total = parent.copied().unwrap_or(0) + position.0;
            visits.push((entity, total));
            total
        });
    assert_eq!(visits, [(root, 100), (middle, 110), (leaf, 111)]);
    // The same from systems: `Allow<Disabled>`, and `With<Disabled>`.
    fn allowing(mut nodes: Query<(Entity, &Position), Allow<Disabled>>, mut log: ResMut<Log>) {
        nodes
            .parents_first::<CHILD_OF>()
            .for_each(|parent: Option<&i32>, (entity, position)| {
                let total = parent.copied().unwrap_or(0) + position.0;
                log.0.push(format!("{entity} {total}"));
                total
            });
    }
    fn only_disabled(mut nodes: Query<(Entity, &Position), With<Disabled>>, mut log: ResMut<Log>) {
        nodes
            .parents_first::<CHILD_OF>()
            .for_each(|parent: Option<&i32>, (entity, position)| {
                let total = parent.copied().unwrap_or(0) + position.0;
                log.0.push(format!("{entity} {total}"));
                total
            });
    }
    world.resources.log.0.clear();
    SystemContext::new().run(&mut world, allowing);
    SystemContext::new().run(&mut world, only_disabled);
    assert_eq!(
        world.resources.log.0,
        [
            format!("{root} 100"),
            format!("{middle} 110"),
            format!("{leaf} 111"),
            format!("{middle} 10"),
        ]
    );
    assert!(world.enable(middle));
    assert_eq!(walk(&mut world), [(root, 100), (middle, 110), (leaf, 111)]);
}

#[test]
fn queued_forms_apply_at_the_sync_point() {
    let mut world = World::new();
    let root = world.spawn(POSITION);
    let child = EntityBuilder::new()
        .with_child_of(root)
        .spawn_one(&mut world);
    let lone = world.spawn(POSITION);
    let doomed = world.spawn(POSITION);
    world.despawn(doomed);

    let mut commands = world.commands();
    commands.queue_disable(lone);
    commands.queue_disable_tree(CHILD_OF, root);
    commands.queue_disable(doomed);
    commands.queue_enable(doomed);
    commands.queue_disable_tree(CHILD_OF, doomed);
    assert!(
        !world.is_disabled(lone),
        "nothing happens before the sync point"
    );
    let report = world.apply_commands();
    assert_eq!((report.applied, report.skipped), (2, 3));
    assert!(world.is_disabled(lone) && world.is_disabled(root) && world.is_disabled(child));
    assert_eq!(world.query_entities(0).count(), 0);

    let mut commands = world.commands();
    commands.queue_enable(lone);
    commands.queue_enable_tree(CHILD_OF, root);
    let report = world.apply_commands();
    assert_eq!((report.applied, report.skipped), (2, 0));
    assert_eq!(world.query_entities(0).count(), 3);

    // From a loop over the world's parts, as a system would.
    let mut parts = world.split_mut();
    parts.components.for_each(POSITION, 0, |entity, _, _| {
        parts.commands.queue_disable(entity)
    });
    world.apply_commands();
    assert_eq!(world.query_entities(POSITION).count(), 0);
    assert_eq!(world.query_entities(POSITION | DISABLED).count(), 2);
    world.check_invariants().unwrap();
}

#[test]
fn stale_handles_answer_false_never_panic() {
    let mut world = World::new();
    let dead = world.spawn(POSITION);
    world.despawn(dead);
    let reused = world.spawn(POSITION);
    assert_eq!(reused.id, dead.id);
    let never = Entity {
        id: 1_000,
        generation: 0,
    };
    for handle in [dead, never] {
        assert!(!world.disable(handle));
        assert!(!world.enable(handle));
        assert!(!world.is_disabled(handle));
        assert_eq!(world.disable_tree(CHILD_OF, handle), 0);
        assert_eq!(world.enable_tree(CHILD_OF, handle), 0);
    }
    assert!(
        !world.is_disabled(reused),
        "the stale handle touched nothing"
    );
    world.check_invariants().unwrap();
}

/// A world with disabled entities, tagged and linked ones among them.
fn mixed_world() -> World {
    let (mut world, all, _) = movers();
    assert!(world.set_child_of(all[5], all[4]).is_ok());
    assert!(world.set_health(all[7], Health(3)));
    // A tagged disabled entity: the snapshot's tag lists name it too.
    assert!(world.disable(all[3]));
    world
}

fn assert_same_state(world: &World, other: &World) {
    let alive: Vec<Entity> = world.entities().collect();
    assert_eq!(alive, other.entities().collect::<Vec<_>>());
    for &entity in &alive {
        assert_eq!(world.is_disabled(entity), other.is_disabled(entity));
        assert_eq!(world.component_mask(entity), other.component_mask(entity));
        assert_eq!(world.get_position(entity), other.get_position(entity));
        assert_eq!(world.get_child_of(entity), other.get_child_of(entity));
    }
    assert_eq!(
        sorted(world.query_entities(POSITION).collect()),
        sorted(other.query_entities(POSITION).collect())
    );
    other.check_invariants().unwrap();
}

#[test]
fn clones_restores_and_snapshots_keep_the_state() {
    let world = mixed_world();
    let copy = world.clone();
    assert_same_state(&world, &copy);
    let mut restored = World::new();
    restored.restore(&world);
    assert_same_state(&world, &restored);

    let text = serde_json::to_string(&world.snapshot()).unwrap();
    assert!(text.contains("\"#disabled\":true"));
    let loaded: World = serde_json::from_str(&text).unwrap();
    assert_same_state(&world, &loaded);
    assert_eq!(serde_json::to_string(&loaded.snapshot()).unwrap(), text);
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let loaded: World = postcard::from_bytes(&bytes).unwrap();
    assert_same_state(&world, &loaded);

    // The checksum tells a disabled entity from an enabled one.
    let mut enabled = world.clone();
    let entity = enabled.query_entities(DISABLED).next().unwrap();
    assert!(enabled.enable(entity));
    assert_ne!(world.snapshot().checksum(), enabled.snapshot().checksum());
    assert!(enabled.disable(entity));
    // Same entities disabled, but it moved to the end of its table: the same state, a
    // different row order; the checksum answers for the state as stored.
    enabled.check_invariants().unwrap();

    // A world that never disabled writes no such entry.
    let plain = World::new();
    let text = serde_json::to_string(&plain.snapshot()).unwrap();
    assert!(!text.contains("#disabled"));
}

#[test]
fn a_misplaced_disabled_entry_is_refused() {
    let world = mixed_world();
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    // Moved after a column: refused with a message naming it.
    let moved = text.replacen("\"#disabled\":true,\"position\":", "\"position\":", 1);
    assert_ne!(moved, text);
    let broken = moved.replacen("]}", "],\"#disabled\":true}", 1);
    let error = serde_json::from_str::<World>(&broken)
        .err()
        .map(|error| error.to_string());
    assert!(
        error
            .as_deref()
            .is_some_and(|error| error.contains("#disabled")),
        "{error:?}"
    );
}

mod with_rules {
    use archetypal::{Bitmask, ecs};

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Position(pub i32);
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Velocity(pub i32);
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Idle;
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Moving;

    ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            idle: Idle => IDLE,
            moving: Moving => MOVING,
        }
        Rules {
            VELOCITY requires POSITION,
            exclusive(IDLE, MOVING),
        }
    }

    #[test]
    fn the_rules_hold_for_disabled_entities_and_keep_them_disabled() {
        let mut world = World::new();
        let unit = world.spawn(IDLE);
        assert!(world.disable(unit));
        // A requirement comes in the same migration, within the disabled tables.
        assert!(world.set_velocity(unit, Velocity(3)));
        assert_eq!(world.component_mask(unit), Some(IDLE | VELOCITY | POSITION));
        assert!(world.is_disabled(unit));
        // An exclusive switch.
        assert!(world.add_moving(unit));
        assert_eq!(
            world.component_mask(unit),
            Some(MOVING | VELOCITY | POSITION)
        );
        // Removing what is required removes its requirer.
        assert!(world.remove_components(unit, POSITION));
        assert_eq!(world.component_mask(unit), Some(MOVING));
        assert!(world.is_disabled(unit));
        assert_eq!(world.query_entities(MOVING).count(), 0);
        assert_eq!(
            world
                .query_entities(MOVING | WorldMask::DISABLED)
                .collect::<Vec<_>>(),
            [unit]
        );
        world.check_invariants().unwrap();
        assert!(world.enable(unit));
        assert_eq!(world.query_entities(MOVING).collect::<Vec<_>>(), [unit]);
        world.check_invariants().unwrap();
    }
}

mod in_a_game {
    use archetypal::{Bitmask, ecs};

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Position(pub i32);
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Sprite(pub u32);

    ecs! {
        Game {
            Core {
                position: Position => POSITION,
            }
            Render {
                sprite: Sprite => SPRITE,
            }
        }
    }

    /// A game has no game-wide `disable` yet: each sub-world's part disables the entity for
    /// that sub-world's queries (what the guide says).
    #[test]
    fn a_sub_world_disables_an_entity_for_its_own_queries() {
        let mut game = Game::new();
        let entity = game.spawn();
        assert!(game.core.add_components(entity, POSITION));
        assert!(game.render.add_components(entity, SPRITE));
        assert!(game.core.disable(entity));
        assert!(game.core.is_disabled(entity) && !game.render.is_disabled(entity));
        assert_eq!(game.core.query_entities(POSITION).count(), 0);
        assert_eq!(
            game.core
                .query_entities(POSITION | CoreMask::DISABLED)
                .count(),
            1
        );
        assert_eq!(game.render.query_entities(SPRITE).count(), 1);
        assert!(game.render.disable(entity));
        assert_eq!(game.render.query_entities(SPRITE).count(), 0);
        game.check_invariants().unwrap();
        let copy = game.clone();
        assert!(copy.core.is_disabled(entity) && copy.render.is_disabled(entity));
        assert!(game.despawn(entity));
        assert!(!game.core.disable(entity));
        game.check_invariants().unwrap();
    }
}
