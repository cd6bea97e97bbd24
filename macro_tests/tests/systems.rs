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
                parts.commands.queue_despawn_entity(entity);
                parts.events.died.send(Died { entity });
                parts.resources.score.kills += 1;
            }
        });
    assert_eq!(parts.commands.command_count(), 2);
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
        .consume_died(&mut cursor)
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
        assert!(!world.entity_has_health(entity), "removed after the loop");
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
            parts.commands.queue_despawn_entity(dead);
            parts.commands.queue_set_health(dead, Health(9));
            parts.commands.queue_despawn_entity(entity);
            // The second despawn of the same row is skipped when applied.
            parts.commands.queue_despawn_entity(entity);
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
    let mut from_world = whole.queue_spawn_entities(HEALTH, 3);
    whole.despawn(from_world[0]);
    from_world.push(whole.spawn(HEALTH));
    from_world.extend(whole.queue_spawn_entities(HEALTH, 1));
    assert_eq!(from_parts, from_world);
    assert_eq!(split.apply_commands(), whole.apply_commands());
    assert_eq!(split.get_all_entities(), whole.get_all_entities());
    assert!(
        split
            .storage()
            .allocator()
            .same_ids(whole.storage().allocator())
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
    whole.queue_spawn_entities(POSITION, 2);
    let mut split_copy = split.clone();
    let mut whole_copy = whole.clone();
    assert_eq!(
        split_copy.spawn_entities(HEALTH, 4),
        whole_copy.spawn_entities(HEALTH, 4)
    );
    split_copy.check_invariants().unwrap();
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
    // Two-phase borrows still work on the world's own methods.
    world.set_health(entities[0], *world.get_health(entities[1]).unwrap());
    assert_eq!(world.get_health(entities[0]), Some(&Health(3)));
    world.despawn(world.query_first_entity(HEALTH).unwrap());
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
                commands.queue_despawn_entity(entity);
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
    assert_eq!(world.len_died(), 1);
}
