//! Tag filters over tables whose rows are grouped by tag signature: every iteration form
//! selects exactly the matching rows at 1%, 50% and 99% of rows tagged, and the grouping
//! survives tagging through commands, despawns, migrations, batch spawns into an earlier
//! segment, clones and snapshots. Every entity carries its own id in `position.x`, so a row
//! moved the wrong way (columns swapped apart) shows as a value that no longer matches.

use std::collections::BTreeMap;

use archetypal::{Entity, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub u32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        stunned => STUNNED,
        player => PLAYER,
        selected => SELECTED,
    }
}

const TAGS: Mask = STUNNED | PLAYER | SELECTED;

/// The filters every test checks: tag-only, component and tag, include and exclude halves.
const FILTERS: [(Mask, Mask); 8] = [
    (POSITION, STUNNED),
    (POSITION | STUNNED, 0),
    (STUNNED, 0),
    (PLAYER, STUNNED),
    (STUNNED | PLAYER, SELECTED),
    (POSITION | VELOCITY, PLAYER | STUNNED),
    (HEALTH | SELECTED, 0),
    (POSITION, 0),
];

fn valid(world: &World) {
    if let Err(error) = world.check_invariants() {
        panic!("{error}");
    }
}

fn sorted<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut items: Vec<T> = items.into_iter().collect();
    items.sort();
    items
}

/// A fixed pseudo-random sequence (xorshift).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn percent(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Spawns `count` entities over two tables, `position.x` = their id, with `STUNNED` on about
/// `percent`% of them, `PLAYER` on about half and `SELECTED` on a fifth (added after the
/// spawn, in random order, as a game does).
fn populated(count: usize, percent: u64, seed: u64) -> World {
    let mut world = World::new();
    let mut random = Random(seed);
    let mut entities = Vec::new();
    for index in 0..count {
        let mask = if index % 3 == 0 {
            POSITION | VELOCITY | HEALTH
        } else {
            POSITION | VELOCITY
        };
        let entity = world.spawn(mask);
        world.set_position(
            entity,
            Position {
                x: entity.id as f32,
                y: 0.0,
            },
        );
        entities.push(entity);
    }
    for &entity in &entities {
        if random.percent(percent) {
            assert!(world.add_stunned(entity));
        }
        if random.percent(50) {
            assert!(world.add_player(entity));
        }
        if random.percent(20) {
            assert!(world.add_selected(entity));
        }
    }
    valid(&world);
    world
}

/// Every live entity's mask (components and tags), read through the per-entity accessors.
fn masks(world: &World) -> BTreeMap<Entity, Mask> {
    world
        .entities()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|entity| (entity, world.component_mask(entity).unwrap()))
        .collect()
}

fn expected(masks: &BTreeMap<Entity, Mask>, include: Mask, exclude: Mask) -> Vec<Entity> {
    masks
        .iter()
        .filter(|&(_, &mask)| mask & include == include && mask & exclude == 0)
        .map(|(&entity, _)| entity)
        .collect()
}

/// Every row still holds its own entity's values: `position.x` is the entity's id.
fn rows_hold_their_entities(world: &World) {
    for table in world.tables() {
        for (row, entity) in table.entities.iter().enumerate() {
            assert_eq!(
                table.position[row].x, entity.id as f32,
                "{entity} at row {row}"
            );
            assert_eq!(world.get_position(*entity), Some(&table.position[row]));
        }
    }
}

/// Checks every iteration form against the masks read per entity, for every filter.
fn filters_agree(world: &mut World) {
    let masks = masks(world);
    for (include, exclude) in FILTERS {
        let want = expected(&masks, include, exclude);
        let what = format!("({include:#b}, {exclude:#b})");

        let mut seen = Vec::new();
        world.for_each(include, exclude, |entity, table, index| {
            assert_eq!(table.entities[index], entity);
            seen.push(entity);
        });
        assert_eq!(sorted(seen), want, "for_each {what}");

        let mut seen = Vec::new();
        world.for_each_mut(include, exclude, |entity, view, index| {
            assert_eq!(view.entities[index], entity);
            seen.push(entity);
        });
        assert_eq!(sorted(seen), want, "for_each_mut {what}");

        // A write through each view: exactly the matching rows get it, in their own row.
        let mut seen = Vec::new();
        world.for_each_table_mut(include, exclude, |view| {
            assert_eq!(view.position.len(), view.entities.len());
            for (position, entity) in view.position.iter_mut().zip(view.entities.iter()) {
                assert_eq!(position.x, entity.id as f32, "view rows line up");
                position.y += 1.0;
            }
            seen.extend_from_slice(view.entities);
        });
        assert_eq!(sorted(seen), want, "for_each_table_mut {what}");
        for &entity in masks.keys() {
            let y = world.get_position(entity).unwrap().y;
            let written = want.binary_search(&entity).is_ok();
            assert_eq!(y, if written { 1.0 } else { 0.0 }, "{entity} {what}");
            world.get_position_mut(entity).unwrap().y = 0.0;
        }

        let mut seen = Vec::new();
        world
            .typed_query::<(Entity, &mut Position)>()
            .with(include)
            .without(exclude)
            .for_each(|(entity, position)| {
                assert_eq!(position.x, entity.id as f32);
                seen.push(entity);
            });
        assert_eq!(sorted(seen), want, "typed_query {what}");

        let from_builder: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .with(include)
            .without(exclude)
            .iter()
            .collect();
        assert_eq!(sorted(from_builder), want, "query().entities() {what}");
        assert_eq!(
            world
                .typed_query_ref::<Entity>()
                .with(include)
                .without(exclude)
                .count(),
            want.len()
        );

        let mut seen = Vec::new();
        world.for_each_mut(include, exclude, |entity, _, _| seen.push(entity));
        assert_eq!(sorted(seen), want, "query_mut().iter() {what}");

        let mut seen = Vec::new();
        world.par_for_each_mut(include, exclude, |entity, view, index| {
            assert_eq!(view.entities[index], entity);
            assert_eq!(view.position[index].x, entity.id as f32);
        });
        world.for_each(include, exclude, |entity, _, _| seen.push(entity));
        assert_eq!(sorted(seen), want, "par_for_each_mut {what}");

        if exclude == 0 {
            assert_eq!(
                sorted(world.query_entities(include)),
                want,
                "query_entities {what}"
            );
        }
    }
    assert_eq!(
        sorted(world.query_entities(STUNNED)),
        expected(&masks, STUNNED, 0)
    );
    assert_eq!(
        sorted(world.query_entities(PLAYER)),
        expected(&masks, PLAYER, 0)
    );
    assert_eq!(
        sorted(world.query_entities(SELECTED)),
        expected(&masks, SELECTED, 0)
    );
    for (&entity, &mask) in &masks {
        assert_eq!(world.has_stunned(entity), mask & STUNNED != 0);
        assert_eq!(world.has_player(entity), mask & PLAYER != 0);
        assert_eq!(world.has_selected(entity), mask & SELECTED != 0);
    }
    rows_hold_their_entities(world);
    valid(world);
}

#[test]
fn every_iteration_form_selects_exactly_the_tagged_rows_at_every_density() {
    for percent in [1, 50, 99] {
        let mut world = populated(600, percent, 0x5eed + percent);
        let stunned = world.query_entities(STUNNED).count();
        assert!(
            stunned > 0 && stunned < 600,
            "{percent}%: {stunned} stunned of 600"
        );
        assert_eq!(world.archetype_count(), 2, "tags create no tables");
        filters_agree(&mut world);
    }
}

#[test]
fn tags_changed_through_commands_keep_the_grouping() {
    let mut world = populated(300, 50, 7);
    let entities = world.entities().collect::<Vec<_>>();
    let mut random = Random(11);
    for &entity in &entities {
        match random.next() % 6 {
            0 => world.commands().queue_add_stunned(entity),
            1 => world.commands().queue_remove_stunned(entity),
            2 => world
                .commands()
                .queue_add_components(entity, HEALTH | SELECTED),
            3 => world
                .commands()
                .queue_remove_components(entity, HEALTH | PLAYER),
            4 => world.commands().queue_despawn(entity),
            _ => world.commands().queue_add_player(entity),
        }
    }
    // Commands on an entity despawned earlier in the same queue are skipped.
    world.commands().queue_add_stunned(entities[0]);
    world.commands().queue_despawn(entities[0]);
    world.commands().queue_add_player(entities[0]);
    world.apply_commands();
    valid(&world);
    assert!(!world.is_alive(entities[0]));
    filters_agree(&mut world);
}

#[test]
fn despawns_and_migrations_keep_every_row_in_its_segment() {
    let mut world = populated(400, 50, 99);
    let mut random = Random(5);
    for step in 0..600 {
        let live = world.entities().collect::<Vec<_>>();
        let entity = live[(random.next() % live.len() as u64) as usize];
        let tags_before = world.component_mask(entity).unwrap() & TAGS;
        match step % 5 {
            0 => {
                assert!(world.despawn(entity));
                let replacement = world.spawn(POSITION | VELOCITY | (tags_before & PLAYER));
                world.set_position(
                    replacement,
                    Position {
                        x: replacement.id as f32,
                        y: 0.0,
                    },
                );
            }
            1 => {
                assert!(world.add_health(entity));
                assert_eq!(world.component_mask(entity).unwrap() & TAGS, tags_before);
            }
            2 => {
                world.remove_health(entity);
                assert_eq!(world.component_mask(entity).unwrap() & TAGS, tags_before);
            }
            3 => {
                // A component and a tag in one call: one migration, then the tag.
                assert!(world.add_components(entity, HEALTH | STUNNED));
                assert_eq!(
                    world.component_mask(entity).unwrap() & TAGS,
                    tags_before | STUNNED
                );
            }
            _ => {
                assert!(world.remove_components(entity, VELOCITY | PLAYER));
                assert_eq!(
                    world.component_mask(entity).unwrap() & TAGS,
                    tags_before & !PLAYER
                );
            }
        }
        valid(&world);
        if step % 100 == 0 {
            rows_hold_their_entities(&world);
        }
    }
    filters_agree(&mut world);
}

#[test]
fn a_batch_spawned_into_an_earlier_segment_gets_each_entity_its_own_values() {
    let mut world = World::new();
    let first = world.spawn_batch(POSITION | STUNNED, 4, |_, _| {});
    let later = world.spawn_batch(POSITION | PLAYER, 3, |_, _| {});
    let last = world.spawn_batch(POSITION | SELECTED, 2, |_, _| {});
    // Five more stunned rows must move before the PLAYER and SELECTED segments.
    let mut next = 0.0;
    let batch = world.spawn_batch(POSITION | STUNNED, 5, |table, row| {
        table.position[row] = Position { x: next, y: 1.0 };
        next += 1.0;
    });
    valid(&world);
    for (index, &entity) in batch.iter().enumerate() {
        assert_eq!(
            world.get_position(entity),
            Some(&Position {
                x: index as f32,
                y: 1.0
            }),
            "the init call of the n-th spawn writes the n-th entity's row"
        );
        assert!(world.has_stunned(entity));
    }
    for &entity in first.iter().chain(&later).chain(&last) {
        assert_eq!(world.get_position(entity), Some(&Position::default()));
    }
    assert_eq!(
        sorted(world.query_entities(STUNNED)),
        sorted(first.iter().chain(&batch).copied())
    );
    assert_eq!(
        sorted(world.query_entities(PLAYER)),
        sorted(later.iter().copied())
    );
    // The stunned rows are one contiguous view.
    let mut views = 0;
    world.for_each_table_mut(STUNNED, 0, |view| {
        views += 1;
        assert_eq!(view.entities.len(), 9);
    });
    assert_eq!(views, 1);
}

#[test]
fn typed_writes_under_a_tag_filter_are_stamped_on_exactly_those_rows() {
    let (mut world, since) = after_a_frame(21);
    let mut written = Vec::new();
    world
        .typed_query::<(Entity, &mut Velocity)>()
        .with(STUNNED)
        .without(SELECTED)
        .for_each(|(entity, mut velocity)| {
            velocity.x += 1.0;
            written.push(entity);
        });
    assert!(!written.is_empty());
    assert_eq!(
        velocity_changed_since(&world, since),
        sorted(written),
        "changed rows: exactly the filtered ones"
    );
}

/// A populated world after one frame, and the tick its next writes are newer than.
fn after_a_frame(seed: u64) -> (World, archetypal::Tick) {
    let mut world = populated(300, 50, seed);
    world.step();
    let since = world.current_tick();
    world.increment_tick();
    (world, since)
}

/// The entities whose velocity changed after `since`, sorted.
fn velocity_changed_since(world: &World, since: archetypal::Tick) -> Vec<Entity> {
    sorted(
        world
            .typed_query_ref::<Entity>()
            .changed_since(VELOCITY, since)
            .iter(),
    )
}

#[test]
fn clones_and_snapshots_keep_tags_and_filters() {
    let mut world = populated(250, 50, 42);
    let mut copy = world.clone();
    valid(&copy);
    assert_eq!(masks(&copy), masks(&world));
    filters_agree(&mut copy);

    let text = serde_json::to_string(&world.snapshot()).unwrap();
    let mut loaded: World = serde_json::from_str(&text).unwrap();
    valid(&loaded);
    assert_eq!(masks(&loaded), masks(&world));
    for (table, saved) in loaded.tables().iter().zip(world.tables()) {
        assert_eq!(table.entities, saved.entities, "row order is kept");
    }
    filters_agree(&mut loaded);

    // A restore over a world whose tags moved since.
    let earlier = world.clone();
    for entity in world.entities().collect::<Vec<_>>() {
        world.add_stunned(entity);
    }
    world.restore(&earlier);
    assert_eq!(masks(&world), masks(&earlier));
    filters_agree(&mut world);
}

/// Tagging moves rows inside their table by swaps: each row's change ticks (when it was
/// written, when its components were added) move with it, so change and added filters still
/// name the right entities afterwards.
#[test]
fn row_swaps_carry_the_written_and_added_ticks() {
    let mut world = World::new();
    let early = world.spawn_entities(POSITION, 6);
    world.step();
    let since = world.current_tick();
    world.increment_tick();
    let late = world.spawn_entities(POSITION, 6);
    // Writes to two early rows after `since`.
    world.set_position(early[1], Position { x: 1.0, y: 0.0 });
    world.set_position(early[4], Position { x: 4.0, y: 0.0 });
    // Tag every other entity of both halves: rows swap across the table.
    for (index, &entity) in early.iter().chain(&late).enumerate() {
        if index % 2 == 0 {
            world.add_stunned(entity);
        }
    }
    world.remove_stunned(early[0]);
    valid(&world);

    let added: Vec<Entity> = world
        .typed_query::<Entity>()
        .added_since(POSITION, since)
        .iter()
        .collect();
    assert_eq!(
        sorted(added),
        sorted(late.iter().copied()),
        "added since the second frame"
    );
    let changed: Vec<Entity> = world
        .typed_query::<Entity>()
        .changed_since(POSITION, since)
        .iter()
        .collect();
    let mut expected: Vec<Entity> = late.clone();
    expected.extend([early[1], early[4]]);
    assert_eq!(
        sorted(changed),
        sorted(expected),
        "written since the second frame"
    );
}

#[test]
fn table_views_under_a_tag_filter_are_stamped_on_their_rows_only() {
    let (mut world, since) = after_a_frame(23);
    // Views are stamped before any is handed out: the rows of every run, and no other row.
    let mut handed = Vec::new();
    world.for_each_table_mut(VELOCITY | STUNNED, SELECTED, |view| {
        handed.extend_from_slice(view.entities);
    });
    assert!(!handed.is_empty());
    assert_eq!(
        velocity_changed_since(&world, since),
        sorted(handed.clone()),
        "changed rows: exactly the ones the views held"
    );
    assert_eq!(
        sorted(handed),
        sorted(
            world
                .query_entities(VELOCITY | STUNNED)
                .filter(|&entity| { !world.has_selected(entity) })
        ),
    );
}
