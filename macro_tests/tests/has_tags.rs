//! `Has<TAG>`: whether each row's entity carries a tag (or is linked in a relation), as a term of
//! every query form, checked row by row against `has_<tag>` over a world whose tables hold
//! several tag segments each: a system's queries (read, written, beside a `Target` term, with
//! a tag filter that cuts tables into runs, with `Changed`), a world's `typed_query` and
//! `typed_query_ref` (`for_each`, `iter`, `get`) and a parents-first walk.

use archetypal::{Changed, Entity, Has, ResMut, SystemContext, Target, With, Without, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Offset(pub i32);
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Seen(pub Vec<(Entity, bool)>);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        offset: Offset => OFFSET,
    }
    Tags {
        shielded => SHIELDED,
        frozen => FROZEN,
        boss => BOSS,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
    Resources {
        seen: Seen,
    }
}

/// A world of 300 entities over three tables, each entity with a pseudo-random set of the
/// three tags, a third of them children of earlier ones, then a shuffle of tags added and
/// removed, so every table holds several segments in no particular order.
fn mixed_world() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let tags = [SHIELDED, FROZEN, BOSS];
    let mut entities = Vec::new();
    for value in 0..300 {
        let mut mask = 0;
        for tag in tags {
            if next(2) == 0 {
                mask |= tag;
            }
        }
        let builder = match next(3) {
            0 => EntityBuilder::new().with_position(Position(value)),
            1 => EntityBuilder::new()
                .with_position(Position(value))
                .with_velocity(Velocity(1)),
            _ => EntityBuilder::new()
                .with_position(Position(value))
                .with_offset(Offset(value)),
        };
        let builder = builder.with_mask(mask);
        let builder = match (entities.len() as u64, next(3)) {
            (0, _) | (_, 1..) => builder,
            (spawned, 0) => builder.with_child_of(entities[next(spawned) as usize]),
        };
        entities.push(builder.spawn_one(&mut world));
    }
    for _ in 0..200 {
        let entity = entities[next(300) as usize];
        match next(4) {
            0 => world.add_shielded(entity),
            1 => world.remove_shielded(entity),
            2 => world.add_boss(entity),
            _ => world.remove_frozen(entity),
        };
    }
    world.check_invariants().unwrap();
    (world, entities)
}

/// What every query below must see: each entity the filter keeps, with whether it is shielded.
fn expected(
    world: &World,
    entities: &[Entity],
    keep: impl Fn(Entity) -> bool,
) -> Vec<(Entity, bool)> {
    let mut rows: Vec<(Entity, bool)> = entities
        .iter()
        .copied()
        .filter(|&entity| keep(entity))
        .map(|entity| (entity, world.has_shielded(entity)))
        .collect();
    rows.sort();
    rows
}

fn sorted(mut rows: Vec<(Entity, bool)>) -> Vec<(Entity, bool)> {
    rows.sort();
    rows
}

#[test]
fn has_a_tag_gives_each_rows_own_answer_in_a_worlds_queries() {
    let (mut world, entities) = mixed_world();
    let every = expected(&world, &entities, |_| true);
    assert!(every.iter().any(|&(_, shielded)| shielded));
    assert!(every.iter().any(|&(_, shielded)| !shielded));

    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, Has<SHIELDED>)>()
        .for_each(|row| seen.push(row));
    assert_eq!(sorted(seen), every, "typed_query for_each");
    let seen = world
        .typed_query::<(Entity, Has<SHIELDED>)>()
        .iter()
        .collect();
    assert_eq!(sorted(seen), every, "typed_query iter");

    // Written columns beside it, and a tag filter of another tag (runs start inside tables).
    let frozen = expected(&world, &entities, |entity| world.has_frozen(entity));
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &mut Position, Has<SHIELDED>)>()
        .with(FROZEN)
        .for_each(|(entity, mut position, shielded)| {
            position.0 += 1;
            seen.push((entity, shielded));
        });
    assert_eq!(sorted(seen), frozen, "typed_query with(FROZEN), written");
    let not_boss = expected(&world, &entities, |entity| !world.has_boss(entity));
    let seen = world
        .typed_query::<(Entity, Has<SHIELDED>)>()
        .without(BOSS)
        .iter()
        .collect();
    assert_eq!(sorted(seen), not_boss, "typed_query without(BOSS) iter");

    let mut seen = Vec::new();
    world
        .typed_query_ref::<(Entity, Has<SHIELDED>)>()
        .for_each(|row| seen.push(row));
    assert_eq!(sorted(seen), every, "typed_query_ref for_each");
    let seen = world
        .typed_query_ref::<(Entity, Has<SHIELDED>)>()
        .iter()
        .collect();
    assert_eq!(sorted(seen), every, "typed_query_ref iter");

    for &entity in &entities {
        let shielded = world.has_shielded(entity);
        let got = world
            .typed_query::<(&Position, Has<SHIELDED>)>()
            .get(entity)
            .map(|(_, has)| has);
        assert_eq!(got, Some(shielded), "typed_query get");
        let got = world.typed_query_ref::<Has<SHIELDED>>().get(entity);
        assert_eq!(got, Some(shielded), "typed_query_ref get");
    }

    // A relation is a tag too: `Has<CHILD_OF>` says whether the entity is linked.
    let mut linked = Vec::new();
    world
        .typed_query::<(Entity, Has<CHILD_OF>)>()
        .for_each(|row| linked.push(row));
    let mut expected_links: Vec<(Entity, bool)> = entities
        .iter()
        .map(|&entity| (entity, world.get_child_of(entity).is_some()))
        .collect();
    expected_links.sort();
    assert_eq!(sorted(linked), expected_links, "Has<CHILD_OF>");
    assert!(expected_links.iter().any(|&(_, linked)| linked));

    // A parents-first walk hands each entity its own answer too.
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, Has<SHIELDED>)>()
        .parents_first::<CHILD_OF>()
        .for_each(|_: Option<&()>, row| seen.push(row));
    assert_eq!(sorted(seen), every, "parents_first");
}

#[test]
fn has_a_tag_gives_each_rows_own_answer_in_a_systems_queries() {
    fn read(mut query: Query<(Entity, Has<SHIELDED>)>, mut seen: ResMut<Seen>) {
        query.for_each(|row| seen.0.push(row));
    }
    fn written(mut query: Query<(Entity, &mut Position, Has<SHIELDED>)>, mut seen: ResMut<Seen>) {
        query.for_each(|(entity, mut position, shielded)| {
            position.0 += 1;
            seen.0.push((entity, shielded));
        });
    }
    fn filtered(
        mut query: Query<(Entity, &mut Velocity, Has<SHIELDED>), With<FROZEN>>,
        mut seen: ResMut<Seen>,
    ) {
        query.for_each(|(entity, _, shielded)| seen.0.push((entity, shielded)));
    }
    #[allow(clippy::type_complexity)]
    fn beside_a_target(
        mut query: Query<(
            Entity,
            &mut Offset,
            Has<SHIELDED>,
            Target<CHILD_OF, &Position, Without<Offset>>,
        )>,
        mut seen: ResMut<Seen>,
    ) {
        query.for_each(|(entity, _, shielded, _)| seen.0.push((entity, shielded)));
    }
    fn changed(
        mut query: Query<(Entity, Has<SHIELDED>), Changed<Position>>,
        mut seen: ResMut<Seen>,
    ) {
        query.for_each(|row| seen.0.push(row));
    }
    fn iterated(query: Query<(Entity, Has<SHIELDED>), Without<BOSS>>, mut seen: ResMut<Seen>) {
        seen.0.extend(query.iter());
        let first = seen.0.first().copied();
        if let Some((entity, shielded)) = first {
            assert_eq!(query.get(entity).map(|(_, has)| has), Some(shielded));
        }
    }

    let (mut world, entities) = mixed_world();
    let run = |world: &mut World, system: &mut dyn FnMut(&mut World)| {
        world.resources.seen.0.clear();
        system(world);
        sorted(std::mem::take(&mut world.resources.seen.0))
    };
    let every = expected(&world, &entities, |_| true);
    let seen = run(&mut world, &mut |world| {
        SystemContext::new().run(world, read);
    });
    assert_eq!(seen, every, "read");
    let seen = run(&mut world, &mut |world| {
        SystemContext::new().run(world, written);
    });
    assert_eq!(seen, every, "written");
    let keep = |entity| world.has_frozen(entity) && world.get_velocity(entity).is_some();
    let frozen_movers = expected(&world, &entities, keep);
    assert!(!frozen_movers.is_empty());
    let seen = run(&mut world, &mut |world| {
        SystemContext::new().run(world, filtered);
    });
    assert_eq!(seen, frozen_movers, "With<FROZEN>");
    let turrets = expected(&world, &entities, |entity| {
        world.get_offset(entity).is_some()
    });
    let seen = run(&mut world, &mut |world| {
        SystemContext::new().run(world, beside_a_target);
    });
    assert_eq!(seen, turrets, "beside a Target term");
    let not_boss = expected(&world, &entities, |entity| !world.has_boss(entity));
    let seen = run(&mut world, &mut |world| {
        SystemContext::new().run(world, iterated);
    });
    assert_eq!(seen, not_boss, "iter, Without<BOSS>");

    // `Changed<Position>`: a first run sees every entity; then only the ones written since.
    let mut context = SystemContext::new();
    let seen = run(&mut world, &mut |world| {
        context.run(world, changed);
    });
    assert_eq!(seen, every, "Changed, first run");
    world.step();
    let moved: Vec<Entity> = entities.iter().copied().step_by(7).collect();
    for &entity in &moved {
        world.set_position(entity, Position(-1));
    }
    let seen = run(&mut world, &mut |world| {
        context.run(world, changed);
    });
    assert_eq!(
        seen,
        expected(&world, &moved, |_| true),
        "Changed, after writes"
    );
}
