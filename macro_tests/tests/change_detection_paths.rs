//! "A row is reported changed when the program wrote it", through every write path: typed
//! queries stamp the rows written through their `Mut` guards (not the rows only read), the
//! accessors stamp the row they hand out, and table views (which cannot see writes) stamp
//! every tracked column they hand out. `[untracked]` components are never reported.

use std::collections::BTreeSet;

use archetypal::{Entity, Mut, Tick};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Scratch(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        health: Health => HEALTH,
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        marked => MARKED,
    }
}

/// 100 entities in two tables (with and without SCRATCH), health = index, settled: nothing
/// counts as changed after the returned cursor.
fn settled() -> (World, Vec<Entity>, Tick) {
    let mut world = World::new();
    let mut entities = world.spawn_entities(POSITION | HEALTH, 50);
    entities.extend(world.spawn_entities(POSITION | HEALTH | SCRATCH, 50));
    for (index, &entity) in entities.iter().enumerate() {
        world.set_health(entity, Health(index as i32));
    }
    world.step();
    let cursor = world.current_tick();
    world.increment_tick();
    (world, entities, cursor)
}

fn changed(world: &World, mask: WorldMask, since: Tick) -> BTreeSet<Entity> {
    world
        .typed_query_ref::<Entity>()
        .changed_since(mask, since)
        .iter()
        .collect()
}

fn set(entities: impl IntoIterator<Item = Entity>) -> BTreeSet<Entity> {
    entities.into_iter().collect()
}

fn every_tenth(entities: &[Entity]) -> BTreeSet<Entity> {
    set(entities.iter().copied().step_by(10))
}

#[test]
fn a_typed_query_writing_ten_percent_of_rows_reports_exactly_those_rows() {
    let (mut world, entities, cursor) = settled();
    world
        .typed_query::<(&mut Health, &Position)>()
        .for_each(|(mut health, _)| {
            if health.0 % 10 == 0 {
                health.0 = -health.0;
            }
        });
    assert_eq!(changed(&world, HEALTH, cursor), every_tenth(&entities));
    assert!(
        changed(&world, POSITION, cursor).is_empty(),
        "read, not written"
    );

    // The same through the iterator and the changed-only pass.
    world.step();
    let cursor = world.current_tick();
    world.increment_tick();
    for mut health in world.typed_query::<&mut Health>().iter() {
        if health.0 % 10 == 5 {
            health.0 += 1;
        }
    }
    let expected = set(entities.iter().copied().skip(5).step_by(10));
    assert_eq!(changed(&world, HEALTH, cursor), expected);
    let mut redrawn = BTreeSet::new();
    let since = world.last_tick();
    world
        .typed_query::<(Entity, &mut Health)>()
        .changed_since(HEALTH, since)
        .for_each(|(entity, _)| {
            redrawn.insert(entity);
        });
    assert_eq!(redrawn, expected, "a health-bar system redraws only those");
}

#[test]
fn reading_through_a_guard_is_not_a_change() {
    let (mut world, _, cursor) = settled();
    let mut total = 0;
    world
        .typed_query::<&mut Health>()
        .for_each(|health| total += health.0);
    assert_eq!(total, (0..100).sum::<i32>());
    world
        .typed_query::<Option<&mut Health>>()
        .for_each(|health| total += health.map_or(0, |health| health.0));
    assert!(changed(&world, HEALTH, cursor).is_empty());
}

#[test]
fn a_guard_passed_on_as_mut_stamps_and_bypassing_does_not() {
    fn heal(health: &mut Health) {
        health.0 += 1;
    }
    fn heal_guard(mut health: Mut<'_, Health>) {
        health.0 += 1;
    }
    let (mut world, entities, cursor) = settled();
    world
        .typed_query::<(Entity, &mut Health)>()
        .for_each(|(entity, mut health)| match entity {
            e if e == entities[1] => heal(&mut health),
            e if e == entities[2] => heal(health.into_inner()),
            e if e == entities[3] => heal_guard(health.reborrow()),
            e if e == entities[4] => health.bypass_change_detection().0 = 0,
            e if e == entities[5] => health.set_changed(),
            _ => {}
        });
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set([entities[1], entities[2], entities[3], entities[5]])
    );
    assert_eq!(world.get_health(entities[3]), Some(&Health(4)));
    assert_eq!(
        world.get_health(entities[4]),
        Some(&Health(0)),
        "written, unreported"
    );
}

#[test]
fn untracked_components_are_never_reported_whatever_the_path() {
    let (mut world, entities, cursor) = settled();
    world
        .typed_query::<&mut Scratch>()
        .for_each(|mut scratch| scratch.0 = 1);
    world.for_each_mut(SCRATCH, 0, |_, table, row| table.scratch[row].0 = 2);
    world.for_each_table_mut(SCRATCH, 0, |table| table.scratch[0].0 = 3);
    *world.get_scratch_mut(entities[70]).unwrap() = Scratch(4);
    assert!(changed(&world, SCRATCH, cursor).is_empty());
    assert_eq!(world.get_scratch(entities[50]), Some(&Scratch(3)));
}

#[test]
fn accessors_stamp_the_row_they_hand_out() {
    let (mut world, entities, cursor) = settled();
    world.get_health_mut(entities[7]).unwrap().0 = 70;
    if let Some(health) = world.get_health_mut(entities[8]) {
        health.0 = 80;
    }
    world.set_health(entities[9], Health(90));
    let _ = world.get_health(entities[10]);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set([entities[7], entities[8], entities[9]])
    );
}

#[test]
fn table_views_report_every_tracked_column_they_hand_out() {
    let (mut world, entities, cursor) = settled();
    // `for_each_mut` over the SCRATCH table: every row of it, every tracked column (the view
    // hands out `health` too), and nothing of the table it did not visit.
    world.for_each_mut(POSITION | SCRATCH, 0, |_, table, row| {
        table.position[row].0 += 1
    });
    let scratch_table = set(entities[50..].iter().copied());
    assert_eq!(changed(&world, POSITION, cursor), scratch_table);
    assert_eq!(changed(&world, HEALTH, cursor), scratch_table);

    let (mut world, entities, cursor) = settled();
    world.for_each_table_mut(POSITION, SCRATCH, |table| table.health[3].0 = 0);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities[..50].iter().copied())
    );

    let (mut world, entities, cursor) = settled();
    world.for_each_mut(HEALTH, 0, |_, table, row| table.health[row].0 += 1);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities.iter().copied())
    );

    let (mut world, entities, cursor) = settled();
    world.par_for_each_mut(HEALTH, SCRATCH, |_, table, row| table.health[row].0 += 1);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities[..50].iter().copied())
    );
}

#[test]
fn a_tag_filtered_table_view_reports_the_rows_it_hands_out() {
    let (mut world, entities, cursor) = settled();
    for &entity in &entities[10..13] {
        world.add_marked(entity);
    }
    world.add_marked(entities[40]);
    // One view per run of marked rows: only those rows are handed out, and reported.
    let mut rows = 0;
    world.for_each_table_mut(HEALTH | MARKED, 0, |table| {
        for health in table.health.iter_mut() {
            health.0 = -1;
            rows += 1;
        }
    });
    assert_eq!(rows, 4);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set([entities[10], entities[11], entities[12], entities[40]])
    );
}

#[test]
fn tag_filtered_views_every_frame_report_their_rows_across_tag_flips() {
    let (mut world, entities, _) = settled();
    for &entity in entities.iter().step_by(3) {
        world.add_marked(entity);
    }
    // `settled` gave each entity its index as health; the health system adds 1 to unmarked.
    let mut expected_health: std::collections::BTreeMap<Entity, i32> = (0..)
        .zip(&entities)
        .map(|(index, &entity)| (entity, index))
        .collect();
    for frame in 0..4 {
        // Between frames a few entities change sides (rows swap between the runs).
        if frame > 0 {
            world.remove_marked(entities[3 * frame]);
            world.add_marked(entities[3 * frame + 1]);
        }
        let marked: BTreeSet<Entity> = world.query_entities(MARKED).collect();
        let unmarked: BTreeSet<Entity> = set(entities.iter().copied())
            .difference(&marked)
            .copied()
            .collect();
        let before_health = world.current_tick();
        world.increment_tick();
        world.for_each_table_mut(HEALTH, MARKED, |table| {
            table.health.iter_mut().for_each(|health| health.0 += 1)
        });
        let before_position = world.current_tick();
        world.increment_tick();
        world.for_each_table_mut(POSITION | MARKED, 0, |table| {
            table
                .position
                .iter_mut()
                .for_each(|position| position.0 += 1)
        });
        // Entities changing sides after the writes move rows in and out of the written
        // runs: what was written stays reported, and only that.
        let leaving = *marked.iter().next().unwrap();
        let joining = *unmarked.iter().next().unwrap();
        world.remove_marked(leaving);
        world.add_marked(joining);
        // The position system wrote the marked runs after the health system's tick, so a
        // cursor taken between them sees exactly those; one taken before sees both systems'.
        assert_eq!(
            changed(&world, POSITION | HEALTH, before_position),
            marked,
            "frame {frame}"
        );
        assert_eq!(
            changed(&world, HEALTH, before_health),
            set(entities.iter().copied()),
            "the views hand out every column of their rows"
        );
        for &entity in &unmarked {
            *expected_health.get_mut(&entity).unwrap() += 1;
        }
        for (&entity, &health) in &expected_health {
            assert_eq!(world.get_health(entity), Some(&Health(health)));
        }
        // A typed query's change filter reads the same stamps.
        let mut typed = BTreeSet::new();
        world
            .typed_query::<(Entity, &mut Health)>()
            .changed_since(POSITION, before_position)
            .for_each(|(entity, _)| {
                typed.insert(entity);
            });
        assert_eq!(typed, marked, "frame {frame}");
        world.step();
    }
}

#[test]
fn a_typed_get_stamps_only_when_written() {
    let (mut world, entities, cursor) = settled();
    {
        let mut query = world.typed_query::<&mut Health>();
        let health = query.get(entities[20]).unwrap();
        assert_eq!(health.0, 20);
        let mut health = query.get(entities[21]).unwrap();
        health.0 = 0;
    }
    assert_eq!(changed(&world, HEALTH, cursor), set([entities[21]]));
}

/// Writes through a typed query the rows `write` picks (by health, which is the index), and
/// checks that exactly those are reported: every pattern of written chunks (a `for_each` loop
/// records writes 64 rows at a time, and a whole table written becomes one column stamp).
fn check_pattern(count: usize, tags: &[usize], write: impl Fn(i32) -> bool) {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | HEALTH, count);
    for (index, &entity) in entities.iter().enumerate() {
        world.set_health(entity, Health(index as i32));
    }
    for &index in tags {
        world.add_marked(entities[index]);
    }
    world.step();
    let cursor = world.current_tick();
    world.increment_tick();
    let include = if tags.is_empty() { 0 } else { MARKED };
    let mut expected = BTreeSet::new();
    world
        .typed_query::<(Entity, &mut Health, &Position)>()
        .with(include)
        .for_each(|(entity, mut health, _)| {
            if write(health.0) {
                health.0 += 1000;
                expected.insert(entity);
            }
        });
    assert_eq!(changed(&world, HEALTH, cursor), expected, "{count} rows");
    assert!(changed(&world, POSITION, cursor).is_empty());
    world.check_invariants().unwrap();
}

#[test]
fn every_pattern_of_written_chunks_reports_exactly_the_rows_written() {
    // 131 and 197 end in a part-chunk whose length is not a multiple of four (after the
    // first chunk written whole, chunks go four rows per step).
    for count in [1, 63, 64, 65, 128, 131, 197, 200] {
        check_pattern(count, &[], |_| true);
        check_pattern(count, &[], |index| index < 66);
        check_pattern(count, &[], |index| index != 129 && index != 194);
        check_pattern(count, &[], |_| false);
        check_pattern(count, &[], |index| index < 130);
        check_pattern(count, &[], |index| (64..128).contains(&index));
        check_pattern(count, &[], |index| index as usize != count - 1);
        check_pattern(count, &[], |index| index != 0);
        check_pattern(count, &[], |index| index % 3 == 0);
    }
    // Runs of tagged rows: all written, or some.
    let tagged: Vec<usize> = (10..80).chain(150..200).collect();
    check_pattern(200, &tagged, |_| true);
    check_pattern(200, &tagged, |index| index % 2 == 0);
    check_pattern(200, &(0..200).collect::<Vec<_>>(), |_| true);
}

/// Two written columns record their rows apart: one written on every row (so its chunks go
/// four rows per step), the other on some.
#[test]
fn two_written_columns_report_their_own_rows() {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | HEALTH, 301);
    world.step();
    let cursor = world.current_tick();
    world.increment_tick();
    let mut index = 0;
    world
        .typed_query::<(&mut Health, &mut Position)>()
        .for_each(|(mut health, mut position)| {
            health.0 += 1;
            if index % 5 == 3 || index == 300 {
                position.0 += 1;
            }
            index += 1;
        });
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities.iter().copied())
    );
    let written = entities
        .iter()
        .enumerate()
        .filter(|&(index, _)| index % 5 == 3 || index == 300)
        .map(|(_, &entity)| entity);
    assert_eq!(changed(&world, POSITION, cursor), set(written));
    world.check_invariants().unwrap();
}

#[test]
fn a_whole_table_written_is_reported_and_later_migrants_are_not() {
    let (mut world, entities, cursor) = settled();
    world
        .typed_query::<&mut Health>()
        .without(SCRATCH)
        .for_each(|mut health| health.0 += 1);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities[..50].iter().copied())
    );
    // An entity of the other table moves into the written one afterwards: its own stamp
    // (old) comes with it, so it is not reported.
    world.remove_scratch(entities[60]);
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities[..50].iter().copied())
    );
}

/// A table view of a whole table is one stamp per table (not one per column): writes after
/// it, rows spawned after it, rows moved by despawns and migrations, and views every frame
/// must all still be reported exactly.
#[test]
fn whole_table_views_every_frame_stay_exact_across_writes_spawns_despawns_and_moves() {
    let (mut world, entities, cursor) = settled();
    world.for_each_table_mut(POSITION, 0, |table| {
        table
            .position
            .iter_mut()
            .for_each(|position| position.0 += 1)
    });
    let after_view = world.current_tick();
    world.increment_tick();
    assert_eq!(
        changed(&world, HEALTH, cursor),
        set(entities.iter().copied())
    );
    assert!(changed(&world, HEALTH, after_view).is_empty());

    // A row written after the view, a row spawned after it, a despawn (the table's last row
    // takes the hole) and a migration out of the table.
    world.get_health_mut(entities[49]).unwrap().0 = -1;
    let newcomer = world.spawn_entities(POSITION | HEALTH, 1)[0];
    assert!(world.despawn(entities[3]));
    world.set_scratch(entities[20], Scratch(1));
    let alive = || {
        entities
            .iter()
            .copied()
            .filter(|&entity| entity != entities[3])
            .chain([newcomer])
    };
    assert_eq!(
        changed(&world, HEALTH, after_view),
        set([entities[49], newcomer])
    );
    assert_eq!(changed(&world, POSITION, after_view), set([newcomer]));
    assert_eq!(changed(&world, HEALTH, cursor), set(alive()));

    // Next frame: a view of the tables without SCRATCH only, twice (the same rows: the stamp
    // just moves on), then a changed-only pass sees exactly those rows.
    let before_second = world.current_tick();
    world.increment_tick();
    for _ in 0..2 {
        world.for_each_table_mut(HEALTH, SCRATCH, |table| table.health[0].0 += 1);
    }
    let without_scratch: BTreeSet<Entity> = alive()
        .filter(|&entity| !world.has_components(entity, SCRATCH))
        .collect();
    assert_eq!(changed(&world, POSITION, before_second), without_scratch);
    let mut visited = BTreeSet::new();
    world
        .typed_query::<(Entity, &mut Health)>()
        .changed_since(HEALTH, before_second)
        .for_each(|(entity, _)| {
            visited.insert(entity);
        });
    assert_eq!(visited, without_scratch);
    // A typed change filter reads the same stamps.
    let mut typed = BTreeSet::new();
    world
        .typed_query::<(Entity, &Health)>()
        .changed_since(HEALTH, before_second)
        .for_each(|(entity, _)| {
            typed.insert(entity);
        });
    assert_eq!(typed, without_scratch);
}
