//! Systems written as a game writes them: `split_mut()` borrows the world apart, so one loop
//! over the components queues commands, sends events and updates resources, with no Vec in
//! between.

use archetypal::{CommandReport, Entity, EventCursor, Schedule};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Target(pub Entity);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Aim {
    pub x: f32,
    pub y: f32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Died {
    pub entity: Entity,
}

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Score {
    pub kills: u32,
}

archetypal::ecs! {
    World {
        position: Position => POSITION,
        health: Health => HEALTH,
        target: Target => TARGET,
        aim: Aim => AIM,
    }
    Tags {
        stunned => STUNNED,
    }
    Events {
        died: Died,
    }
    Resources {
        score: Score,
    }
}

fn report(applied: usize, skipped: usize) -> CommandReport {
    CommandReport { applied, skipped }
}

/// Ships with the given health values.
fn ships(world: &mut World, healths: &[i32]) -> Vec<Entity> {
    healths
        .iter()
        .map(|&health| {
            let entity = world.spawn(POSITION | HEALTH);
            world.set_health(entity, Health(health));
            entity
        })
        .collect()
}

#[test]
fn one_loop_queues_commands_sends_events_and_updates_resources() {
    let mut world = World::new();
    let entities = ships(&mut world, &[5, 0, -3, 7]);
    let mut parts = world.split_mut();
    parts
        .components
        .typed_query::<(Entity, &Health)>()
        .for_each(|(entity, health)| {
            if health.0 <= 0 {
                parts.commands.queue_despawn(entity);
                parts.events.died.send(Died { entity });
                parts.resources.score.kills += 1;
            }
        });
    assert_eq!(parts.resources.score.kills, 2);
    assert!(
        parts.components.is_alive(entities[1]),
        "queued, not applied"
    );

    assert_eq!(world.apply_commands(), report(2, 0));
    assert_eq!(world.entity_count(), 2);
    assert!(!world.is_alive(entities[1]) && !world.is_alive(entities[2]));
    let mut cursor = EventCursor::default();
    let died: Vec<Entity> = world
        .events
        .died
        .consume(&mut cursor)
        .into_iter()
        .map(|event| event.entity)
        .collect();
    assert_eq!(died, vec![entities[1], entities[2]]);
    assert_eq!(world.resources.score.kills, 2);
    world.check_invariants().unwrap();
}

#[test]
fn commands_queued_in_a_loop_target_rows_of_the_same_loop() {
    let mut world = World::new();
    let entities = ships(&mut world, &[1, 2, 3]);
    let mut parts = world.split_mut();
    parts
        .components
        .for_each_mut(POSITION | HEALTH, 0, |entity, table, row| {
            table.health[row].0 *= 10;
            parts.commands.queue_set_position(
                entity,
                Position {
                    x: table.health[row].0 as f32,
                    y: 0.0,
                },
            );
            parts.commands.queue_remove_components(entity, HEALTH);
            parts.commands.queue_add_stunned(entity);
        });
    assert_eq!(world.apply_commands(), report(9, 0));
    for (index, &entity) in entities.iter().enumerate() {
        let expected = (index as f32 + 1.0) * 10.0;
        assert_eq!(world.get_position(entity).map(|p| p.x), Some(expected));
        assert!(!world.has_health(entity), "removed after the loop");
        assert!(world.has_stunned(entity));
    }
    world.check_invariants().unwrap();
}

#[test]
fn dead_handles_met_inside_a_loop_are_skipped_not_a_panic() {
    let mut world = World::new();
    let entities = ships(&mut world, &[1, 2]);
    let dead = world.spawn(POSITION);
    world.despawn(dead);
    let mut parts = world.split_mut();
    parts
        .components
        .for_each(POSITION | HEALTH, 0, |entity, _, _| {
            parts.commands.queue_despawn(dead);
            parts.commands.queue_set_health(dead, Health(9));
            parts.commands.queue_despawn(entity);
            // The second despawn of the same row is skipped when applied.
            parts.commands.queue_despawn(entity);
        });
    assert_eq!(parts.components.get_health(dead), None);
    assert_eq!(world.apply_commands(), report(2, 6));
    assert!(entities.iter().all(|&entity| !world.is_alive(entity)));
    world.check_invariants().unwrap();
}

#[test]
fn spawns_queued_in_a_loop_reserve_handles_that_come_alive_when_applied() {
    let mut world = World::new();
    let entities = ships(&mut world, &[1, 2, 3]);
    world.despawn(entities[1]);
    let mut parts = world.split_mut();
    let mut spawned = Vec::new();
    parts.components.for_each(HEALTH, 0, |_, table, row| {
        let child = parts.commands.queue_spawn_entities(POSITION, 1)[0];
        parts.commands.queue_set_health(child, table.health[row]);
        spawned.push(child);
    });
    assert_eq!(
        spawned[0],
        Entity::new(entities[1].id, 1),
        "a freed id comes back first"
    );
    assert_eq!(spawned[1], Entity::new(3, 0), "then a fresh one");
    // A spawn made meanwhile, outside the loop, takes neither reserved id.
    let direct = parts.components.spawn(POSITION);
    assert!(!spawned.contains(&direct));
    assert!(
        spawned
            .iter()
            .all(|&child| !parts.components.is_alive(child))
    );

    assert_eq!(world.apply_commands(), report(4, 0));
    for (&child, health) in spawned.iter().zip([1, 3]) {
        assert!(world.is_alive(child));
        assert_eq!(world.get_health(child), Some(&Health(health)));
    }
    world.check_invariants().unwrap();
}

#[test]
fn parts_issue_the_same_handles_as_the_world_itself() {
    // Two worlds, one program: one queues through its parts, the other through the world.
    let mut split = World::new();
    let mut whole = World::new();
    for world in [&mut split, &mut whole] {
        let entities = world.spawn_entities(POSITION, 6);
        world.despawn(entities[4]);
        world.despawn(entities[1]);
    }
    let from_parts = {
        let mut parts = split.split_mut();
        let mut handles = parts.commands.queue_spawn_entities(HEALTH, 3);
        parts.components.despawn(handles[0]);
        handles.push(parts.components.spawn(HEALTH));
        handles.extend(parts.commands.queue_spawn_entities(HEALTH, 1));
        handles
    };
    let mut from_world = whole.commands().queue_spawn_entities(HEALTH, 3);
    whole.despawn(from_world[0]);
    from_world.push(whole.spawn(HEALTH));
    from_world.extend(whole.commands().queue_spawn_entities(HEALTH, 1));
    assert_eq!(from_parts, from_world);
    assert_eq!(split.apply_commands(), whole.apply_commands());
    assert_eq!(
        split.entities().collect::<Vec<_>>(),
        whole.entities().collect::<Vec<_>>()
    );
    assert!(
        split
            .entity_index()
            .same_ids(split.records(), whole.entity_index(), whole.records())
    );
    assert_eq!(split.spawn(POSITION), whole.spawn(POSITION));
    split.check_invariants().unwrap();
}

#[test]
fn cleared_reservations_made_through_parts_come_back() {
    let mut world = World::new();
    let reserved = world.split_mut().commands.queue_spawn_entities(POSITION, 2);
    world.clear_commands();
    assert!(reserved.iter().all(|&entity| !world.is_alive(entity)));
    let again = world.spawn_entities(POSITION, 2);
    assert!(
        again
            .iter()
            .all(|new| reserved.iter().any(|old| old.id == new.id)),
        "released ids are recycled"
    );
    assert!(reserved.iter().all(|&entity| !world.is_alive(entity)));
    world.check_invariants().unwrap();
}

#[test]
fn a_clone_after_a_split_matches_a_clone_of_an_unsplit_twin() {
    let mut split = World::new();
    let mut whole = World::new();
    split.spawn_entities(POSITION, 3);
    whole.spawn_entities(POSITION, 3);
    split.split_mut().commands.queue_spawn_entities(POSITION, 2);
    whole.commands().queue_spawn_entities(POSITION, 2);
    let mut split_copy = split.clone();
    let mut whole_copy = whole.clone();
    assert_eq!(
        split_copy.spawn_entities(HEALTH, 4),
        whole_copy.spawn_entities(HEALTH, 4)
    );
    split_copy.check_invariants().unwrap();
    // Clearing gives the reservations back in the same order on both.
    split.clear_commands();
    whole.clear_commands();
    assert_eq!(
        split.spawn_entities(HEALTH, 3),
        whole.spawn_entities(HEALTH, 3)
    );
    assert!(
        split
            .entity_index()
            .same_ids(split.records(), whole.entity_index(), whole.records())
    );
}

#[test]
fn the_world_keeps_its_own_methods_and_derefs_to_its_components() {
    fn count_healthy(components: &WorldComponents) -> usize {
        components.query_entities(HEALTH).count()
    }
    fn heal_all(components: &mut WorldComponents) {
        components.for_each_mut(HEALTH, 0, |_, table, row| table.health[row].0 += 1);
    }
    let mut world = World::new();
    let entities = ships(&mut world, &[1, 2]);
    heal_all(&mut world);
    assert_eq!(count_healthy(&world), 2);
    // A nested call reaches the world through `DerefMut` first: read, then write.
    let health = *world.get_health(entities[1]).unwrap();
    world.set_health(entities[0], health);
    assert_eq!(world.get_health(entities[0]), Some(&Health(3)));
    let first = world.query_entities(HEALTH).next().unwrap();
    assert!(world.mark_changed(first, HEALTH));
    world.despawn(first);
    assert_eq!(world.entity_count(), 1);
}

#[test]
fn a_scheduled_system_starts_with_split_mut() {
    fn reap(world: &mut World) {
        let WorldParts {
            components,
            mut commands,
            events,
            resources,
        } = world.split_mut();
        components.for_each(HEALTH, STUNNED, |entity, table, row| {
            if table.health[row].0 <= 0 {
                commands.queue_despawn(entity);
                events.died.send(Died { entity });
                resources.score.kills += 1;
            }
        });
        world.apply_commands();
    }
    let mut world = World::new();
    let entities = ships(&mut world, &[0, 4, -1]);
    world.add_stunned(entities[2]);
    let mut schedule = Schedule::new();
    schedule.push("reap", reap).unwrap();
    schedule.run(&mut world);
    assert!(!world.is_alive(entities[0]));
    assert!(world.is_alive(entities[1]) && world.is_alive(entities[2]));
    assert_eq!(world.resources.score.kills, 1);
    assert_eq!(world.events.died.len(), 1);
}

/// A ship at `(x, y)` and a turret at the origin aiming at it.
fn ship_and_turret(world: &mut World, x: f32, y: f32) -> (Entity, Entity) {
    let ship = world.spawn(POSITION | HEALTH);
    world.set_position(ship, Position { x, y });
    let turret = world.spawn(POSITION | TARGET | AIM);
    world.set_target(turret, Target(ship));
    (ship, turret)
}

#[test]
fn turrets_aim_at_their_targets_in_one_loop() {
    let mut world = World::new();
    let (_, turret) = ship_and_turret(&mut world, 3.0, 4.0);
    let (dead_ship, orphan) = ship_and_turret(&mut world, 1.0, 1.0);
    world.despawn(dead_ship);
    // A turret aiming at another turret: not on the read side.
    let (_, chained) = ship_and_turret(&mut world, 5.0, 5.0);
    world.set_target(chained, Target(turret));

    let (mut turrets, others) = world
        .split_tables(TARGET | AIM | POSITION, 0, POSITION, TARGET)
        .unwrap();
    assert_eq!(turrets.len(), 3);
    turrets.for_each_mut(|_, table, row| {
        if let Some(target) = others.get_position(table.target[row].0) {
            let own = table.position[row];
            table.aim[row] = Aim {
                x: target.x - own.x,
                y: target.y - own.y,
            };
        }
    });
    assert!(!others.contains(turret), "turrets are on the written side");
    assert_eq!(
        others.get_health(dead_ship),
        None,
        "a dead handle reads nothing"
    );
    assert_eq!(world.get_aim(turret), Some(&Aim { x: 3.0, y: 4.0 }));
    assert_eq!(world.get_aim(orphan), Some(&Aim::default()));
    assert_eq!(world.get_aim(chained), Some(&Aim::default()));
}

#[test]
fn overlapping_table_filters_are_an_error_not_a_panic() {
    let mut world = World::new();
    ship_and_turret(&mut world, 1.0, 1.0);
    let overlap = world.split_tables(AIM, 0, POSITION, 0).err().unwrap();
    assert_eq!(overlap.read_include, POSITION);
    assert!(overlap.to_string().contains("may overlap"));
    // A tag does not choose the table, so it cannot make the sides disjoint.
    assert!(
        world
            .split_tables(POSITION | STUNNED, 0, POSITION, STUNNED)
            .is_err()
    );
    // The same filters are refused in an empty world: the answer never depends on contents.
    assert!(World::new().split_tables(AIM, 0, POSITION, 0).is_err());
    assert!(World::new().split_tables(AIM, 0, POSITION, AIM).is_ok());
    assert!(
        world.split_tables(POSITION, AIM, AIM, 0).is_ok(),
        "either side may exclude"
    );
}

#[test]
fn homing_missiles_read_targets_and_queue_commands_in_one_loop() {
    let mut world = World::new();
    let (ship, missile) = ship_and_turret(&mut world, 2.0, 0.0);
    let (gone, lost_missile) = ship_and_turret(&mut world, 9.0, 9.0);
    world.despawn(gone);
    world.add_stunned(missile);
    let (_, stunned_out) = ship_and_turret(&mut world, 7.0, 7.0);
    world.step();

    let mut parts = world.split_mut();
    let (mut missiles, targets) = parts
        .components
        .split_tables(TARGET | POSITION, 0, POSITION, TARGET)
        .unwrap();
    missiles.for_each_mut(|entity, table, row| {
        let Some(target) = targets.get_position(table.target[row].0) else {
            parts.commands.queue_despawn(entity);
            return;
        };
        let position = &mut table.position[row];
        position.x += (target.x - position.x) / 2.0;
        if (target.x - position.x).abs() < 1.5 {
            parts.events.died.send(Died {
                entity: table.target[row].0,
            });
            parts.resources.score.kills += 1;
        }
    });
    assert_eq!(world.apply_commands(), report(1, 0));
    assert!(!world.is_alive(lost_missile));
    assert_eq!(world.get_position(missile).map(|p| p.x), Some(1.0));
    assert_eq!(world.resources.score.kills, 1);
    assert_eq!(world.events.died.collect(), vec![Died { entity: ship }]);
    let mut moved: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, world.last_tick())
        .iter()
        .collect();
    moved.sort();
    let mut expected = vec![missile, stunned_out];
    expected.sort();
    assert_eq!(
        moved, expected,
        "the written side is stamped; the read side is not"
    );

    // With a tag filter on the written side, only the matching rows are visited; the view
    // reaches every row of their table, and cannot see which it wrote, so the whole table
    // is reported changed (never a missed write).
    world.step();
    let (mut unstunned, _) = world
        .split_tables(TARGET | POSITION, STUNNED, POSITION, TARGET)
        .unwrap();
    let mut visited = Vec::new();
    unstunned.for_each_mut(|entity, table, _| {
        visited.push(entity);
        // A write to another row of the table, through the same view.
        table
            .position
            .iter_mut()
            .for_each(|position| position.y += 1.0);
    });
    assert_eq!(visited, vec![stunned_out]);
    assert_eq!(world.get_position(missile).map(|p| p.y), Some(1.0));
    let mut changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, world.last_tick())
        .iter()
        .collect();
    changed.sort();
    assert_eq!(changed, expected, "the stunned missile was written too");
}

#[test]
fn get_disjoint_mut_hands_out_distinct_live_rows() {
    let mut world = World::new();
    let ships = ships(&mut world, &[10, 20, 30]);
    let other_table = world.spawn(HEALTH);
    world.set_health(other_table, Health(40));
    world.step();

    let [a, b] = world.get_disjoint_health_mut([ships[2], ships[0]]).unwrap();
    core::mem::swap(a, b);
    assert_eq!(world.get_health(ships[0]), Some(&Health(30)));
    assert_eq!(world.get_health(ships[2]), Some(&Health(10)));
    let [x, y, z] = world
        .get_disjoint_health_mut([other_table, ships[1], ships[0]])
        .unwrap();
    assert_eq!(
        (x.0, y.0, z.0),
        (40, 20, 30),
        "across tables, in the order asked"
    );
    x.0 += 1;

    let mut changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(HEALTH, world.last_tick())
        .iter()
        .collect();
    changed.sort();
    let mut expected = vec![ships[0], ships[1], ships[2], other_table];
    expected.sort();
    assert_eq!(changed, expected, "every row handed out is stamped");

    let dead = world.spawn(HEALTH);
    world.despawn(dead);
    assert!(
        world
            .get_disjoint_health_mut([ships[0], ships[0]])
            .is_none(),
        "repeated"
    );
    assert!(
        world.get_disjoint_health_mut([ships[0], dead]).is_none(),
        "dead"
    );
    assert!(
        world.get_disjoint_aim_mut([ships[0], ships[1]]).is_none(),
        "lacks the component"
    );
    assert!(world.get_disjoint_health_mut::<0>([]).is_some());
    // Inside a split world, beside the other parts.
    let parts = world.split_mut();
    if let Some([first, second]) = parts
        .components
        .get_disjoint_position_mut([ships[0], ships[1]])
    {
        first.x = 1.0;
        second.x = 2.0;
        parts.resources.score.kills = 2;
    }
    assert_eq!(world.get_position(ships[1]).map(|p| p.x), Some(2.0));
}

#[test]
fn query_entities_changed_reports_writes_since_the_last_step() {
    let mut world = World::new();
    let ships = ships(&mut world, &[1, 2, 3]);
    world.step();
    assert_eq!(changed_this_frame(&world, HEALTH).len(), 0);
    world.set_health(ships[1], Health(5));
    world.add_stunned(ships[1]);
    assert_eq!(changed_this_frame(&world, HEALTH), vec![ships[1]]);
    assert_eq!(changed_this_frame(&world, HEALTH | STUNNED), vec![ships[1]]);
    assert_eq!(changed_this_frame(&world, POSITION).len(), 0);
    world.step();
    assert_eq!(changed_this_frame(&world, HEALTH).len(), 0);
}

#[test]
fn a_cloned_builder_is_a_prefab() {
    let prefab = EntityBuilder::new()
        .with_health(Health(3))
        .with_position(Position { x: 1.0, y: 2.0 });
    let first = prefab.clone().spawn(&mut World::new(), 1);
    let mut world = World::new();
    let many = prefab.clone().spawn(&mut world, 4);
    let one = prefab.spawn_one(&mut world);
    assert_eq!(first.len(), 1);
    for &entity in many.iter().chain([&one]) {
        assert_eq!(world.get_health(entity), Some(&Health(3)));
        assert_eq!(
            world.get_position(entity),
            Some(&Position { x: 1.0, y: 2.0 })
        );
    }
}

#[test]
fn queue_despawn_entities_is_one_command_counting_each_handle() {
    let mut world = World::new();
    let ships = ships(&mut world, &[1, 2, 3]);
    world.despawn(ships[0]);
    world.commands().queue_despawn_entities(&ships);
    assert_eq!(world.command_count(), 1);
    assert_eq!(world.apply_commands(), report(2, 1));
    assert_eq!(world.entity_count(), 0);
    world.check_invariants().unwrap();
}

#[test]
fn commands_on_another_thread_reserve_while_the_components_spawn() {
    let mut world = World::new();
    let doomed = world.spawn_entities(POSITION, 500);
    let WorldParts {
        components,
        mut commands,
        ..
    } = world.split_mut();
    let (reserved, spawned) = std::thread::scope(|scope| {
        let reserving = scope.spawn(move || {
            (0..1_000)
                .flat_map(|_| commands.queue_spawn_entities(HEALTH, 1))
                .collect::<Vec<Entity>>()
        });
        let mut spawned = Vec::new();
        for &entity in &doomed {
            components.despawn(entity);
            spawned.push(components.spawn(POSITION));
            spawned.push(components.spawn(POSITION));
        }
        (reserving.join().unwrap(), spawned)
    });
    let mut ids: Vec<u32> = reserved.iter().chain(&spawned).map(|e| e.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2_000, "no id handed out twice");
    assert_eq!(world.apply_commands(), report(1_000, 0));
    assert_eq!(world.entity_count(), 2_000);
    assert!(reserved.iter().chain(&spawned).all(|&e| world.is_alive(e)));
    world.check_invariants().unwrap();
}

#[test]
fn the_written_side_also_walks_whole_tables_or_tag_segments() {
    let mut world = World::new();
    let mut turrets = Vec::new();
    for index in 0..6 {
        let (_, turret) = ship_and_turret(&mut world, index as f32, 0.0);
        turrets.push(turret);
    }
    world.add_stunned(turrets[1]);
    world.add_stunned(turrets[2]);
    world.add_stunned(turrets[4]);
    world.step();
    let (mut written, others) = world
        .split_tables(TARGET | AIM, STUNNED, POSITION, TARGET)
        .unwrap();
    let mut runs = Vec::new();
    written.for_each_table_mut(|table| {
        runs.push(table.entities.to_vec());
        for (aim, target) in table.aim.iter_mut().zip(table.target.iter()) {
            aim.x = others.get_position(target.0).map_or(-1.0, |p| p.x);
        }
    });
    // Rows are grouped by their tags inside a table: the unstunned turrets are one run.
    assert_eq!(runs.len(), 1, "one view for the segment of unstunned rows");
    let mut unstunned = runs.concat();
    unstunned.sort();
    assert_eq!(unstunned, vec![turrets[0], turrets[3], turrets[5]]);
    let aims: Vec<f32> = turrets
        .iter()
        .map(|&t| world.get_aim(t).unwrap().x)
        .collect();
    assert_eq!(aims, vec![0.0, 0.0, 0.0, 3.0, 0.0, 5.0]);
    let mut changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(AIM, world.last_tick())
        .iter()
        .collect();
    changed.sort();
    assert_eq!(
        changed,
        vec![turrets[0], turrets[3], turrets[5]],
        "only the runs are stamped"
    );

    // Without tags: one view per table, every row stamped.
    world.step();
    let (mut all, _) = world
        .split_tables(TARGET | AIM, 0, POSITION, TARGET)
        .unwrap();
    let mut tables = 0;
    all.for_each_table_mut(|table| {
        tables += 1;
        table.aim.iter_mut().for_each(|aim| aim.y = 1.0);
    });
    assert_eq!(tables, 1);
    assert_eq!(changed_this_frame(&world, AIM).len(), 6);
}

/// The entities one of whose components of `mask` was written since the last `step()`.
fn changed_this_frame(world: &World, mask: WorldMask) -> Vec<Entity> {
    world
        .typed_query_ref::<Entity>()
        .changed_since(mask, world.last_tick())
        .iter()
        .collect()
}

/// The written side's view hands out every column of its tables, not only the filter's: a
/// value written through a column outside the include mask is reported changed too (the rule:
/// never missed), by both forms.
#[test]
fn the_written_side_reports_every_column_it_hands_out() {
    let mut world = World::new();
    let (ship, turret) = ship_and_turret(&mut world, 3.0, 4.0);
    for write_by_table in [false, true] {
        world.step();
        let (mut turrets, _) = world
            .split_tables(TARGET | POSITION, 0, POSITION, TARGET)
            .unwrap();
        if write_by_table {
            turrets.for_each_table_mut(|table| table.aim.fill(Aim { x: 1.0, y: 1.0 }));
        } else {
            turrets.for_each_mut(|_, table, row| table.aim[row] = Aim { x: 7.0, y: 7.0 });
        }
        assert_eq!(
            changed_this_frame(&world, AIM),
            [turret],
            "written through the view"
        );
        assert!(
            !changed_this_frame(&world, POSITION).contains(&ship),
            "the read side stamps nothing"
        );
    }
}
