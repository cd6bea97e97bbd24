//! Change detection: writes stamp the written component's row with the current tick; changed
//! queries visit the rows stamped after a tick. `[untracked]` components are never stamped.

use std::collections::BTreeSet;

use archetypal::{Entity, Tick};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Scratch(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        frozen => FROZEN,
    }
}

fn changed(world: &mut World, include: WorldMask, exclude: WorldMask) -> BTreeSet<Entity> {
    let since = world.last_tick();
    world
        .typed_query_ref::<Entity>()
        .changed_since(include, since)
        .without(exclude)
        .iter()
        .collect()
}

fn set(entities: &[Entity]) -> BTreeSet<Entity> {
    entities.iter().copied().collect()
}

/// A world whose spawn frame has ended, so nothing counts as changed.
fn settled(count: usize) -> (World, Vec<Entity>) {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | VELOCITY | SCRATCH, count);
    world.step();
    assert!(changed(&mut world, POSITION, 0).is_empty());
    (world, entities)
}

#[test]
fn spawns_count_as_changes_until_the_frame_ends() {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | VELOCITY, 3);
    assert_eq!(changed(&mut world, POSITION, 0), set(&entities));
    world.step();
    assert!(changed(&mut world, POSITION, 0).is_empty());
    assert!(world.current_tick().is_newer_than(world.last_tick()));
}

#[test]
fn every_write_path_stamps_only_its_component_and_row() {
    let (mut world, entities) = settled(6);
    *world.get_position_mut(entities[0]).unwrap() = Position(1);
    world.set_position(entities[1], Position(2));
    if let Some(position) = world.get_position_mut(entities[2]) {
        position.0 = 3;
    }
    world.set_velocity(entities[3], Velocity(4));
    let _ = world.get_position(entities[4]);
    assert_eq!(changed(&mut world, POSITION, 0), set(&entities[..3]));
    assert_eq!(changed(&mut world, VELOCITY, 0), set(&entities[3..4]));
    assert_eq!(
        changed(&mut world, POSITION | VELOCITY, 0),
        set(&entities[..4]),
        "any included component"
    );
    world.step();
    assert!(changed(&mut world, POSITION | VELOCITY, 0).is_empty());
}

#[test]
fn untracked_components_never_report_changes() {
    let (mut world, entities) = settled(2);
    world.set_scratch(entities[0], Scratch(5));
    *world.get_scratch_mut(entities[1]).unwrap() = Scratch(6);
    assert!(changed(&mut world, SCRATCH, 0).is_empty());
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(SCRATCH, Tick::ZERO)
            .iter()
            .count(),
        0
    );
    assert_eq!(
        world.get_scratch(entities[0]),
        Some(&Scratch(5)),
        "the write itself works"
    );
}

#[test]
fn exclude_and_tag_masks_filter_changed_queries() {
    let (mut world, entities) = settled(4);
    world.add_frozen(entities[0]);
    world.remove_velocity(entities[3]);
    for &entity in &entities {
        if let Some(position) = world.get_position_mut(entity) {
            position.0 += 1;
        }
    }
    assert_eq!(changed(&mut world, POSITION, FROZEN), set(&entities[1..]));
    assert_eq!(
        changed(&mut world, POSITION, FROZEN | VELOCITY),
        set(&entities[3..])
    );
    assert_eq!(
        changed(&mut world, POSITION | FROZEN, 0),
        set(&entities[..1])
    );
}

#[test]
fn migration_stamps_the_added_component_and_keeps_the_others() {
    let (mut world, entities) = settled(2);
    world.remove_velocity(entities[0]);
    world.step();
    world.add_velocity(entities[0]);
    assert_eq!(
        changed(&mut world, VELOCITY, 0),
        set(&entities[..1]),
        "added now"
    );
    assert!(
        changed(&mut world, POSITION, 0).is_empty(),
        "moved, not written"
    );
    world.check_invariants().unwrap();
}

#[test]
fn raw_slice_writes_are_marked_by_hand_or_by_the_slice_iterators() {
    let (mut world, entities) = settled(3);
    world.for_each_mut(POSITION, 0, |_, table, index| table.position[index].0 = 7);
    assert_eq!(
        changed(&mut world, POSITION | VELOCITY, 0),
        set(&entities),
        "a table view reports every column it hands out"
    );
    world.step();
    assert!(world.mark_changed(entities[1], POSITION));
    assert_eq!(changed(&mut world, POSITION, 0), set(&entities[1..2]));
    world.step();

    world.for_each_table_mut(VELOCITY, 0, |table| table.velocity[0] = Velocity(9));
    assert_eq!(
        changed(&mut world, VELOCITY, 0),
        set(&entities),
        "a table view stamps every column it hands out"
    );
    assert_eq!(changed(&mut world, POSITION, 0), set(&entities));
}

#[test]
fn a_reader_scheduled_before_the_writer_sees_the_change_next_frame() {
    let (mut world, entities) = settled(2);
    let mut reader_cursor = world.current_tick();
    let mut seen_per_frame = Vec::new();
    for frame in 0..3 {
        // The reader runs first in the frame and keeps its own cursor.
        let mut seen = BTreeSet::new();
        world
            .typed_query::<(Entity, &mut Position)>()
            .changed_since(POSITION, reader_cursor)
            .for_each(|(entity, _)| {
                seen.insert(entity);
            });
        reader_cursor = world.current_tick();
        world.increment_tick();
        seen_per_frame.push(seen);
        // The writer runs after it.
        if frame == 0 {
            world.set_position(entities[1], Position(1));
        }
        world.step();
    }
    assert_eq!(
        seen_per_frame,
        vec![BTreeSet::new(), set(&entities[1..2]), BTreeSet::new()]
    );
}

#[test]
fn query_entities_changed_since_uses_any_tick() {
    let (mut world, entities) = settled(3);
    let before = world.current_tick();
    world.increment_tick();
    world.set_position(entities[2], Position(3));
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, before)
        .iter()
        .collect();
    assert_eq!(changed, vec![entities[2]]);
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(POSITION, world.current_tick())
            .iter()
            .count(),
        0
    );
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(POSITION | FROZEN, before)
            .iter()
            .count(),
        0
    );
}

#[test]
fn dead_handles_are_refused_by_mark_changed() {
    let (mut world, entities) = settled(1);
    world.despawn(entities[0]);
    let recycled = world.spawn(POSITION);
    world.step();
    assert!(!world.mark_changed(entities[0], POSITION), "stale");
    assert!(!world.mark_changed(Entity::default(), POSITION));
    assert!(!world.mark_changed(Entity::new(500, 0), POSITION));
    assert!(
        changed(&mut world, POSITION, 0).is_empty(),
        "the recycled id was not stamped"
    );
    assert!(world.mark_changed(recycled, POSITION));
    world.check_invariants().unwrap();
}

/// What a changed-only (or added-only) `for_each` visits, through a query that reads
/// (`typed_query_ref`) and one that writes what it visits (`typed_query`, whose guards stamp
/// each row as it goes).
fn visited(world: &mut World, added: bool, since: Tick) -> [BTreeSet<Entity>; 2] {
    let mut read = BTreeSet::new();
    let query = world.typed_query_ref::<Entity>();
    let query = if added {
        query.added_since(POSITION, since)
    } else {
        query.changed_since(POSITION, since)
    };
    query.for_each(|entity| {
        assert!(read.insert(entity), "a row visited twice");
    });
    let mut written = BTreeSet::new();
    let query = world.typed_query::<(Entity, &mut Position)>();
    let query = if added {
        query.added_since(POSITION, since)
    } else {
        query.changed_since(POSITION, since)
    };
    query.for_each(|(entity, mut position)| {
        position.0 += 1;
        assert!(written.insert(entity), "a row visited twice");
    });
    [read, written]
}

#[test]
fn changed_and_added_scans_visit_exactly_the_stamped_rows_of_a_long_table() {
    // 100 rows of one table: the scans compare them 32 at a time (rows 0..96), then one by one.
    let (mut world, entities) = settled(100);
    let rows = [0, 1, 30, 31, 32, 33, 63, 64, 65, 95, 96, 98, 99];
    for row in rows {
        world.set_position(entities[row], Position(row as i32));
    }
    let expected: Vec<Entity> = rows.iter().map(|&row| entities[row]).collect();
    let since = world.last_tick();
    let [read, written] = visited(&mut world, false, since);
    assert_eq!(read, set(&expected));
    assert_eq!(
        written,
        set(&expected),
        "the guards' own stamps hide no later row"
    );
    assert_eq!(
        visited(&mut world, false, since),
        [set(&expected), set(&expected)],
        "rows written again at the same tick are the same rows"
    );
    assert!(
        visited(&mut world, true, since)
            .iter()
            .all(BTreeSet::is_empty)
    );

    // Rows 40..100 of one table added after the first 40, at every offset of a block.
    let mut world = World::new();
    world.spawn_entities(POSITION | VELOCITY | SCRATCH, 40);
    world.step();
    let since = world.last_tick();
    let added = world.spawn_entities(POSITION | VELOCITY | SCRATCH, 60);
    assert_eq!(visited(&mut world, true, since), [set(&added), set(&added)]);
    assert_eq!(
        visited(&mut world, false, since),
        [set(&added), set(&added)]
    );
    world.step();
    let since = world.last_tick();
    assert!(
        visited(&mut world, true, since)
            .iter()
            .all(BTreeSet::is_empty)
    );
}

/// The entities of `mask` stamped after `since`: written (`added` false) or added.
fn stamped_after(world: &World, mask: WorldMask, added: bool, since: Tick) -> BTreeSet<Entity> {
    let query = world.typed_query_ref::<Entity>();
    let query = if added {
        query.added_since(mask, since)
    } else {
        query.changed_since(mask, since)
    };
    query.iter().collect()
}

#[test]
fn a_value_set_in_the_frame_its_row_arrived_reads_as_written_then_and_later_writes_move_it() {
    let mut world = World::new();
    let older = world.spawn_entities(POSITION, 2);
    world.step();

    // Frame A: a lone spawn, then its value; a component added to an older entity, then its
    // value (a migration, then a write, at one tick).
    let frame_a = world.last_tick();
    let lone = world.spawn(POSITION);
    assert!(world.set_position(lone, Position(1)));
    assert!(world.add_components(older[0], VELOCITY));
    assert!(world.set_velocity(older[0], Velocity(7)));
    assert_eq!(world.get_position(lone), Some(&Position(1)));
    assert_eq!(world.get_velocity(older[0]), Some(&Velocity(7)));
    for added in [false, true] {
        assert_eq!(
            stamped_after(&world, POSITION, added, frame_a),
            set(&[lone])
        );
        assert_eq!(
            stamped_after(&world, VELOCITY, added, frame_a),
            set(&[older[0]])
        );
    }
    world.step();

    // Frame B: the lone entity written again (a newer write, the same arrival); a batch of
    // five spawned, the middle one written at its own spawn tick.
    let frame_b = world.last_tick();
    assert!(world.set_position(lone, Position(2)));
    let batch = world.spawn_entities(POSITION, 5);
    assert!(world.set_position(batch[2], Position(3)));
    let mut written_in_b = set(&batch);
    written_in_b.insert(lone);
    assert_eq!(
        stamped_after(&world, POSITION, false, frame_b),
        written_in_b
    );
    assert_eq!(stamped_after(&world, POSITION, true, frame_b), set(&batch));
    let mut added_since_a = set(&batch);
    added_since_a.insert(lone);
    assert_eq!(
        stamped_after(&world, POSITION, true, frame_a),
        added_since_a
    );
    assert!(stamped_after(&world, VELOCITY, false, frame_b).is_empty());
    world.step();

    // Frame C: one row of the batch written: it alone reads as written since B.
    let frame_c = world.last_tick();
    assert!(world.set_position(batch[2], Position(4)));
    assert_eq!(
        stamped_after(&world, POSITION, false, frame_c),
        set(&[batch[2]])
    );
    assert!(stamped_after(&world, POSITION, true, frame_c).is_empty());
    assert_eq!(world.get_position(batch[2]), Some(&Position(4)));
    world.check_invariants().unwrap();
}
