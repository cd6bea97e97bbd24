//! The forms of a typed query a system reaches for: `iter()` (find, any, break, adapters,
//! size hints), `get(entity)` through the same elements, the read-only `typed_query_ref`
//! over `&World` (so the loop can read other entities), and the change filter
//! `changed_since(mask, tick)`.

use std::collections::BTreeSet;

use archetypal::{Entity, Mut};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Target(pub Option<Entity>);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Scratch(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        target: Target => TARGET,
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        frozen => FROZEN,
    }
}

/// Three archetypes; entity `i` at position `i`, velocity 1. One of each frozen.
fn world() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let mut entities = Vec::new();
    for mask in [POSITION, POSITION | VELOCITY, POSITION | VELOCITY | SCRATCH] {
        for _ in 0..4 {
            let entity = world.spawn(mask);
            world.set_position(entity, Position(entities.len() as f32));
            if mask & VELOCITY != 0 {
                world.set_velocity(entity, Velocity(1.0));
            }
            entities.push(entity);
        }
    }
    world.add_frozen(entities[5]);
    world.step();
    (world, entities)
}

fn changed(world: &World, mask: WorldMask, since: archetypal::Tick) -> BTreeSet<Entity> {
    world
        .typed_query_ref::<Entity>()
        .changed_since(mask, since)
        .iter()
        .collect()
}

fn set(entities: impl IntoIterator<Item = Entity>) -> BTreeSet<Entity> {
    entities.into_iter().collect()
}

#[test]
fn iter_supports_find_any_break_and_adapters() {
    let (mut world, entities) = world();
    let found = world
        .typed_query::<(Entity, &Position)>()
        .iter()
        .find(|(_, position)| position.0 == 6.0)
        .map(|(entity, _)| entity);
    assert_eq!(found, Some(entities[6]));
    assert!(
        world
            .typed_query::<&Position>()
            .iter()
            .any(|position| position.0 == 11.0)
    );
    assert!(!world.typed_query::<&Velocity>().iter().any(|v| v.0 > 1.0));

    let mut visited = 0;
    for position in world.typed_query::<&Position>().iter() {
        visited += 1;
        if position.0 == 2.0 {
            break;
        }
    }
    assert_eq!(visited, 3, "the loop stopped at the third row");

    let sum: f32 = world
        .typed_query::<(&Position, &Velocity)>()
        .iter()
        .map(|(position, velocity)| position.0 * velocity.0)
        .sum();
    assert_eq!(sum, (4..12).sum::<i32>() as f32);

    let order: Vec<Entity> = world.typed_query::<Entity>().iter().collect();
    let mut for_each_order = Vec::new();
    world
        .typed_query::<Entity>()
        .for_each(|entity| for_each_order.push(entity));
    assert_eq!(order, for_each_order, "iter walks in for_each's order");
}

#[test]
fn iter_items_can_be_kept_and_written_together() {
    let (mut world, _) = world();
    let since = world.last_tick();
    // Items borrow the world, not the iterator: several guards alive at once. (Rows are in
    // table order, which tagging changes: the entities come with them.)
    let mut guards: Vec<(Entity, Mut<'_, Position>)> = world
        .typed_query::<(Entity, &mut Position)>()
        .with(VELOCITY)
        .iter()
        .collect();
    assert_eq!(guards.len(), 8);
    let (first, rest) = guards.split_first_mut().unwrap();
    let (added_to, zeroed) = (first.0, rest[1].0);
    let sum = first.1.0 + rest[0].1.0;
    first.1.0 += rest[0].1.0;
    rest[1].1.0 = -1.0;
    drop(guards);
    assert_eq!(world.get_position(added_to), Some(&Position(sum)));
    assert_eq!(world.get_position(zeroed), Some(&Position(-1.0)));
    assert_eq!(
        changed(&world, POSITION, since),
        set([added_to, zeroed]),
        "only the rows written through their guards"
    );
}

#[test]
fn size_hints_are_exact_unless_rows_are_filtered() {
    let (mut world, entities) = world();
    let mut iter = world.typed_query::<&Position>().iter();
    assert_eq!(iter.size_hint(), (12, Some(12)));
    iter.next();
    iter.next();
    assert_eq!(iter.size_hint(), (10, Some(10)));
    assert_eq!(iter.count(), 10);

    let iter = world.typed_query::<&Velocity>().without(SCRATCH).iter();
    assert_eq!(
        iter.size_hint(),
        (4, Some(4)),
        "excluded tables do not count"
    );

    let iter = world.typed_query::<&Velocity>().without(FROZEN).iter();
    assert_eq!(
        iter.size_hint(),
        (0, Some(8)),
        "a tag filter: an upper bound"
    );
    assert_eq!(iter.count(), 7);

    let since = world.current_tick();
    world.increment_tick();
    world.set_velocity(entities[9], Velocity(2.0));
    let iter = world
        .typed_query::<&Velocity>()
        .changed_since(VELOCITY, since)
        .iter();
    assert_eq!(iter.size_hint().0, 0);
    assert_eq!(iter.collect::<Vec<_>>(), vec![&Velocity(2.0)]);

    let mut empty = World::new();
    assert_eq!(
        empty.typed_query::<&Position>().iter().size_hint(),
        (0, Some(0))
    );
    assert_eq!(empty.typed_query::<&Position>().iter().next(), None);
}

#[test]
fn get_reads_and_writes_one_entity_through_the_same_elements() {
    let (mut world, entities) = world();
    let since = world.last_tick();
    {
        let mut query = world.typed_query::<(Entity, &mut Position, Option<&Velocity>)>();
        let (entity, position, velocity) = query.get(entities[1]).unwrap();
        assert_eq!(
            (entity, *position, velocity),
            (entities[1], Position(1.0), None)
        );
        let (_, mut position, velocity) = query.get(entities[6]).unwrap();
        assert_eq!(velocity, Some(&Velocity(1.0)));
        position.0 += 100.0;
    }
    assert_eq!(world.get_position(entities[6]), Some(&Position(106.0)));
    assert_eq!(
        changed(&world, POSITION, since),
        set([entities[6]]),
        "get stamps the row written, not the one only read"
    );

    // Filters apply: required components, with / without, tags.
    assert!(world.typed_query::<&Velocity>().get(entities[0]).is_none());
    assert!(
        world
            .typed_query::<&Position>()
            .without(SCRATCH)
            .get(entities[9])
            .is_none()
    );
    assert!(
        world
            .typed_query::<&Position>()
            .without(FROZEN)
            .get(entities[5])
            .is_none()
    );
    assert!(
        world
            .typed_query::<&Position>()
            .with(FROZEN)
            .get(entities[5])
            .is_some()
    );

    // Dead, stale and never-issued handles.
    world.despawn(entities[3]);
    let recycled = world.spawn(POSITION);
    assert_eq!(recycled.id, entities[3].id, "the id was recycled");
    let mut query = world.typed_query::<&mut Position>();
    assert!(query.get(entities[3]).is_none(), "stale handle");
    assert!(query.get(Entity::default()).is_none());
    assert!(query.get(Entity::new(9_999, 0)).is_none());
    assert_eq!(
        query.get(recycled).map(|position| *position),
        Some(Position(0.0))
    );
    world.check_invariants().unwrap();
}

#[test]
fn a_read_only_query_lets_the_loop_read_other_entities() {
    let (mut world, entities) = world();
    let chaser = world.spawn(POSITION | TARGET);
    world.set_target(chaser, Target(Some(entities[10])));
    let lost = world.spawn(POSITION | TARGET);
    world.set_target(lost, Target(Some(entities[3])));
    world.despawn(entities[3]);

    // `&World` inside the loop: the target's position, or None for a dead target.
    let mut distances = Vec::new();
    world
        .typed_query_ref::<(Entity, &Position, &Target)>()
        .for_each(|(entity, position, target)| {
            let target_position = target.0.and_then(|target| world.get_position(target));
            distances.push((entity, target_position.map(|t| t.0 - position.0)));
        });
    assert_eq!(distances, vec![(chaser, Some(10.0)), (lost, None)]);

    // Items borrow the world, so they can be collected and compared.
    let moving: Vec<(Entity, &Position)> = world
        .typed_query_ref::<(Entity, &Position)>()
        .with(VELOCITY)
        .without(FROZEN)
        .iter()
        .collect();
    assert_eq!(moving.len(), 7);
    assert!(
        moving
            .iter()
            .all(|&(entity, position)| { world.get_position(entity) == Some(position) })
    );

    let query = world.typed_query_ref::<(&Position, Option<&Velocity>)>();
    assert_eq!(
        query.get(entities[7]),
        Some((&Position(7.0), Some(&Velocity(1.0))))
    );
    assert_eq!(query.get(entities[0]), Some((&Position(0.0), None)));
    assert_eq!(query.get(entities[3]), None, "despawned");
    assert_eq!(query.count(), 13);
    assert_eq!(
        world.typed_query_ref::<&Velocity>().without(FROZEN).count(),
        7
    );
}

#[test]
fn a_read_only_query_agrees_with_and_without_the_query_cache() {
    let (mut world, _) = world();
    let cold: Vec<f32> = world
        .typed_query_ref::<&Position>()
        .with(SCRATCH)
        .iter()
        .map(|position| position.0)
        .collect();
    world.warm_query(POSITION | SCRATCH);
    let mut warm = Vec::new();
    world
        .typed_query_ref::<&Position>()
        .with(SCRATCH)
        .for_each(|position| warm.push(position.0));
    assert_eq!(cold, vec![8.0, 9.0, 10.0, 11.0]);
    assert_eq!(cold, warm);
}

#[test]
fn changed_since_visits_only_rows_written_after_the_cursor() {
    let (mut world, entities) = world();
    let cursor = world.current_tick();
    world.increment_tick();
    world.set_position(entities[2], Position(20.0));
    *world.get_position_mut(entities[9]).unwrap() = Position(90.0);
    world.set_velocity(entities[4], Velocity(3.0));
    world.set_scratch(entities[10], Scratch(1)); // untracked: never a change

    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &Position)>()
        .changed_since(POSITION, cursor)
        .for_each(|(entity, position)| seen.push((entity, position.0)));
    assert_eq!(seen, vec![(entities[2], 20.0), (entities[9], 90.0)]);

    let either: BTreeSet<Entity> = world
        .typed_query::<Entity>()
        .changed_since(POSITION | VELOCITY, cursor)
        .iter()
        .collect();
    // Rows holding both, one of which was written (entities[2] has no velocity).
    assert_eq!(either, set([entities[4], entities[9]]));

    assert_eq!(
        world
            .typed_query::<&Scratch>()
            .changed_since(SCRATCH, cursor)
            .count(),
        0,
        "untracked components never count as changed"
    );
    assert_eq!(
        world
            .typed_query_ref::<&Position>()
            .changed_since(POSITION, cursor)
            .iter()
            .map(|position| position.0)
            .collect::<Vec<_>>(),
        vec![20.0, 90.0]
    );
    assert_eq!(
        world
            .typed_query_ref::<&Position>()
            .changed_since(POSITION, cursor)
            .count(),
        2
    );
    assert!(
        world
            .typed_query::<&Position>()
            .changed_since(POSITION, cursor)
            .get(entities[1])
            .is_none(),
        "get applies the change filter"
    );
    assert!(
        world
            .typed_query_ref::<&Position>()
            .changed_since(POSITION, cursor)
            .get(entities[9])
            .is_some()
    );

    // The next window starts at the tick recorded now.
    let cursor = world.current_tick();
    world.increment_tick();
    assert_eq!(
        world
            .typed_query::<&Position>()
            .changed_since(POSITION, cursor)
            .count(),
        0
    );
    // A whole-table write (a table view) marks every row of the tables it handed out.
    world.for_each_table_mut(POSITION | SCRATCH, 0, |table| table.position[0].0 += 1.0);
    let marked: BTreeSet<Entity> = world
        .typed_query::<Entity>()
        .changed_since(POSITION, cursor)
        .iter()
        .collect();
    assert_eq!(marked, set(entities[8..12].iter().copied()));
}

#[test]
fn a_changed_filter_and_a_writer_in_one_query_see_the_previous_writes_only() {
    let (mut world, entities) = world();
    let cursor = world.current_tick();
    world.increment_tick();
    world.set_position(entities[6], Position(60.0));
    // Writes of this pass stamp the current tick; the filter compares with the cursor.
    let mut written = Vec::new();
    world
        .typed_query::<(Entity, &mut Position)>()
        .changed_since(POSITION, cursor)
        .for_each(|(entity, mut position)| {
            position.0 += 1.0;
            written.push(entity);
        });
    assert_eq!(written, vec![entities[6]]);
    assert_eq!(world.get_position(entities[6]), Some(&Position(61.0)));
}

#[test]
fn added_since_visits_rows_whose_components_arrived_after_the_cursor() {
    let (mut world, entities) = world();
    let cursor = world.current_tick();
    world.increment_tick();
    let spawned = world.spawn(POSITION | VELOCITY);
    world.add_velocity(entities[0]); // a migration adds VELOCITY, POSITION stays
    world.set_velocity(entities[1], Velocity(2.0)); // added by set_*
    world.set_velocity(entities[4], Velocity(3.0)); // written, it had one: not added
    world.set_position(entities[5], Position(50.0)); // written: not added
    world.add_scratch(entities[6]); // untracked: never reported

    let added_velocity: Vec<Entity> = world
        .typed_query::<Entity>()
        .added_since(VELOCITY, cursor)
        .iter()
        .collect();
    assert_eq!(
        set(added_velocity.clone()),
        set([entities[0], entities[1], spawned])
    );
    let mut via_for_each = Vec::new();
    world
        .typed_query::<(Entity, &mut Velocity)>()
        .added_since(VELOCITY, cursor)
        .for_each(|(entity, mut velocity)| {
            velocity.0 += 10.0;
            via_for_each.push(entity);
        });
    assert_eq!(via_for_each, added_velocity, "for_each and iter agree");
    assert_eq!(world.get_velocity(entities[1]), Some(&Velocity(12.0)));

    let added_position: BTreeSet<Entity> = world
        .typed_query_ref::<Entity>()
        .added_since(POSITION, cursor)
        .iter()
        .collect();
    assert_eq!(
        added_position,
        set([spawned]),
        "migrations keep the added tick"
    );
    assert_eq!(
        world
            .typed_query_ref::<&Velocity>()
            .added_since(VELOCITY, cursor)
            .count(),
        3
    );
    assert_eq!(
        world
            .typed_query::<&Scratch>()
            .added_since(SCRATCH, cursor)
            .count(),
        0
    );
    assert!(
        world
            .typed_query::<&Velocity>()
            .added_since(VELOCITY, cursor)
            .get(entities[4])
            .is_none()
    );
    assert!(
        world
            .typed_query_ref::<&Velocity>()
            .added_since(VELOCITY, cursor)
            .get(entities[0])
            .is_some()
    );

    // Removed and added again: added anew. The next window sees nothing older.
    let cursor = world.current_tick();
    world.increment_tick();
    assert_eq!(
        world
            .typed_query::<&Velocity>()
            .added_since(VELOCITY, cursor)
            .count(),
        0
    );
    world.remove_velocity(entities[9]);
    world.add_velocity(entities[9]);
    assert_eq!(
        world
            .typed_query::<Entity>()
            .added_since(VELOCITY, cursor)
            .iter()
            .collect::<Vec<_>>(),
        vec![entities[9]]
    );
    world.check_invariants().unwrap();
}

#[test]
fn tag_filters_and_optional_writes_work_in_every_form() {
    let (mut world, entities) = world();
    let cursor = world.current_tick();
    world.increment_tick();
    // Read-only for_each under a tag filter.
    let mut frozen = Vec::new();
    world
        .typed_query_ref::<Entity>()
        .with(FROZEN)
        .for_each(|entity| frozen.push(entity));
    assert_eq!(frozen, vec![entities[5]]);
    // An optional written element through the iterator: stamps only where present and
    // written.
    for (entity, velocity) in world
        .typed_query::<(Entity, Option<&mut Velocity>)>()
        .without(FROZEN)
        .iter()
    {
        if let Some(mut velocity) = velocity
            && (entity == entities[7] || entity == entities[11])
        {
            velocity.0 = 9.0;
        }
    }
    assert_eq!(
        changed(&world, VELOCITY, cursor),
        set([entities[7], entities[11]])
    );
    // A change filter and a tag filter together, in for_each and iter.
    world.set_velocity(entities[5], Velocity(5.0));
    let mut seen = Vec::new();
    world
        .typed_query::<Entity>()
        .changed_since(VELOCITY, cursor)
        .without(FROZEN)
        .for_each(|entity| seen.push(entity));
    assert_eq!(seen, vec![entities[7], entities[11]]);
    let frozen_changed: Vec<Entity> = world
        .typed_query::<Entity>()
        .changed_since(VELOCITY, cursor)
        .with(FROZEN)
        .iter()
        .collect();
    assert_eq!(frozen_changed, vec![entities[5]]);
}
