//! The single-entity accessors (`get_*`, `get_*_mut`, `has_*`) through every kind of
//! handle that must not reach a row: despawned, recycled (the id's next holder), reserved by a
//! queued spawn, never issued, hand-made with a free id's next generation, and alive in a
//! table that lacks the component. The lookup folds the id's liveness into the table index and
//! the "table holds the component" check into the row's bounds check on the column, so these
//! are the cases those folds must still refuse. Writes stamp tracked components only.

use archetypal::{Entity, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Seed(pub u32);

ecs! {
    Arena {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        seed: Seed => SEED [untracked],
    }
}

/// Every accessor refuses `entity` for every component, and writes nothing.
fn refused_everywhere(world: &mut Arena, entity: Entity) {
    assert_eq!(world.get_position(entity), None, "{entity}");
    assert_eq!(world.get_velocity(entity), None, "{entity}");
    assert_eq!(world.get_seed(entity), None, "{entity}");
    assert_eq!(world.get_position_mut(entity), None, "{entity}");
    assert_eq!(world.get_velocity_mut(entity), None, "{entity}");
    assert_eq!(world.get_seed_mut(entity), None, "{entity}");
    assert!(!world.has_position(entity), "{entity}");
}

/// A world whose every row holds a distinct position, velocity and seed.
fn filled_arena(count: usize) -> (Arena, Vec<Entity>) {
    let mut world = Arena::new();
    let entities = world.spawn_batch(POSITION | VELOCITY | SEED, count, |table, row| {
        table.position[row] = Position(row as f32);
        table.velocity[row] = Velocity(-(row as f32));
        table.seed[row] = Seed(row as u32);
    });
    (world, entities)
}

#[test]
fn despawned_and_recycled_handles_never_reach_the_new_holder() {
    let (mut world, entities) = filled_arena(8);
    let victim = entities[3];
    assert!(world.despawn(victim));
    refused_everywhere(&mut world, victim);
    // The id comes back one generation later, holding other values in another row.
    let holder = world.spawn(POSITION | VELOCITY);
    assert_eq!(holder.id, victim.id);
    assert_ne!(holder.generation, victim.generation);
    *world.get_position_mut(holder).unwrap() = Position(99.0);
    refused_everywhere(&mut world, victim);
    assert_eq!(world.get_position(holder), Some(&Position(99.0)));
    // The row the despawn moved into the hole still answers to its own handle.
    let moved = entities[7];
    assert_eq!(world.get_position(moved), Some(&Position(7.0)));
    assert_eq!(world.get_seed(moved), Some(&Seed(7)));
    world.check_invariants().unwrap();
}

#[test]
fn a_hand_made_handle_of_a_free_id_is_refused() {
    let (mut world, entities) = filled_arena(4);
    let victim = entities[1];
    world.despawn(victim);
    // The free id's record already holds the generation its next holder gets.
    let next = Entity::new(victim.id, victim.generation + 1);
    refused_everywhere(&mut world, next);
    // Once issued, that very handle is the entity's.
    let holder = world.spawn(POSITION);
    assert_eq!(holder, next);
    assert_eq!(world.get_position(holder), Some(&Position(0.0)));
    // Never issued, or at a generation the id never reached.
    refused_everywhere(&mut world, Entity::new(4_000, 0));
    refused_everywhere(&mut world, Entity::new(entities[0].id, 7));
    refused_everywhere(&mut world, Entity::PLACEHOLDER);
    world.check_invariants().unwrap();
}

#[test]
fn reserved_handles_are_refused_until_their_spawn_is_applied() {
    let (mut world, entities) = filled_arena(3);
    world.despawn(entities[0]);
    // One recycled id and one fresh id, both reserved by a queued spawn.
    let reserved = world.commands().queue_spawn_entities(POSITION, 2);
    assert_eq!(reserved[0].id, entities[0].id);
    for &entity in &reserved {
        refused_everywhere(&mut world, entity);
    }
    world.apply_commands();
    for &entity in &reserved {
        assert_eq!(world.get_position(entity), Some(&Position(0.0)));
        assert_eq!(world.get_velocity(entity), None, "spawned without velocity");
    }
    world.check_invariants().unwrap();
}

#[test]
fn a_table_lacking_the_component_gives_none_not_a_neighbours_value() {
    let mut world = Arena::new();
    // Tables with the velocity column filled around a table without it.
    world.spawn_batch(POSITION | VELOCITY, 5, |table, row| {
        table.velocity[row] = Velocity(row as f32 + 1.0);
    });
    let bare = world.spawn_batch(POSITION, 5, |table, row| {
        table.position[row] = Position(row as f32);
    });
    for (row, &entity) in bare.iter().enumerate() {
        assert_eq!(world.get_position(entity), Some(&Position(row as f32)));
        assert_eq!(world.get_velocity(entity), None);
        assert_eq!(world.get_velocity_mut(entity), None);
        assert_eq!(world.get_seed_mut(entity), None);
        assert!(!world.has_velocity(entity));
    }
    // Removing a component takes the row to a table without it.
    let moved = bare[2];
    assert!(world.add_velocity(moved));
    assert!(world.get_velocity_mut(moved).is_some());
    assert_eq!(world.remove_velocity(moved), Some(Velocity(0.0)));
    assert_eq!(world.get_velocity_mut(moved), None);
    assert_eq!(world.get_position(moved), Some(&Position(2.0)));
    world.check_invariants().unwrap();
}

#[test]
fn writes_through_shuffled_handles_reach_their_own_rows_only() {
    let (mut world, entities) = filled_arena(1_000);
    // Every third entity despawned, the rest visited in a scrambled order.
    for &entity in entities.iter().step_by(3) {
        world.despawn(entity);
    }
    let mut order: Vec<usize> = (0..entities.len()).collect();
    order.sort_by_key(|&index| (index * 7_919) % entities.len());
    for &index in &order {
        let entity = entities[index];
        match world.get_position_mut(entity) {
            Some(position) => {
                assert_ne!(index % 3, 0, "{entity} was despawned");
                position.0 += 1_000.0;
            }
            None => assert_eq!(index % 3, 0, "{entity} is alive"),
        }
    }
    for (index, &entity) in entities.iter().enumerate() {
        if index % 3 == 0 {
            refused_everywhere(&mut world, entity);
        } else {
            assert_eq!(
                world.get_position(entity),
                Some(&Position(index as f32 + 1_000.0))
            );
            assert_eq!(world.get_seed(entity), Some(&Seed(index as u32)));
        }
    }
    world.check_invariants().unwrap();
}

#[test]
fn get_mut_stamps_tracked_components_only() {
    let (mut world, entities) = filled_arena(4);
    world.step();
    // A changed filter since `last_tick()` reports this frame's writes (since the last `step`).
    assert_eq!(changed_this_frame(&world, POSITION).len(), 0);
    world.get_position_mut(entities[2]).unwrap().0 = 5.0;
    world.get_seed_mut(entities[1]).unwrap().0 = 5;
    assert_eq!(changed_this_frame(&world, POSITION), vec![entities[2]]);
    assert_eq!(changed_this_frame(&world, VELOCITY).len(), 0);
    assert_eq!(changed_this_frame(&world, SEED).len(), 0, "untracked");
    world.step();
    assert_eq!(changed_this_frame(&world, POSITION).len(), 0);
    // A refused write stamps nothing.
    world.despawn(entities[0]);
    assert!(world.get_position_mut(entities[0]).is_none());
    assert!(world.get_velocity_mut(entities[0]).is_none());
    assert_eq!(changed_this_frame(&world, POSITION | VELOCITY).len(), 0);
    world.check_invariants().unwrap();
}

/// The entities one of whose components of `mask` was written since the last `step()`.
fn changed_this_frame(world: &Arena, mask: ArenaMask) -> Vec<Entity> {
    world
        .typed_query_ref::<Entity>()
        .changed_since(mask, world.last_tick())
        .iter()
        .collect()
}
