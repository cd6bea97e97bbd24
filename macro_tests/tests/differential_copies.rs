//! Copies behave identically: a world, its `clone()`, a world `restore`d from it and its JSON
//! and postcard snapshot round trips issue the same handles in the same order under any
//! sequence of calls afterwards (rollback netcode re-simulates from a copy and needs that).

use archetypal::ecs;

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Velocity(pub i32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Tags {
        marked => MARKED,
    }
}

fn json_copy(world: &World) -> World {
    serde_json::from_str(&serde_json::to_string(&world.snapshot()).unwrap()).unwrap()
}

fn postcard_copy(world: &World) -> World {
    postcard::from_bytes(&postcard::to_allocvec(&world.snapshot()).unwrap()).unwrap()
}

fn restored_copy(world: &World) -> World {
    let mut restored = World::new();
    restored.spawn_entities(POSITION, 3);
    restored.restore(world);
    restored
}

/// Queued spawns reserve handles from the free list and fresh ids; a copy gives them back as
/// `clear_commands` does in the original, so every copy spawns the same handles next.
#[test]
fn reservations_come_back_in_the_same_order_in_every_copy() {
    let mut world = World::new();
    let spawned = world.spawn_entities(POSITION, 8);
    for &entity in &[spawned[5], spawned[1], spawned[6], spawned[3]] {
        world.despawn(entity);
    }
    world.queue_spawn_entities(VELOCITY, 2);
    world.queue_add_components(spawned[0], VELOCITY);
    world.queue_spawn_entities(POSITION, 3);
    let copies = [
        ("clone", world.clone()),
        ("restore", restored_copy(&world)),
        ("json", json_copy(&world)),
        ("postcard", postcard_copy(&world)),
    ];
    world.clear_commands();
    let expected: Vec<_> = (0..8).map(|_| world.spawn(POSITION)).collect();
    for (name, mut copy) in copies {
        let issued: Vec<_> = (0..8).map(|_| copy.spawn(POSITION)).collect();
        assert_eq!(
            issued, expected,
            "{name} issues other handles than the original"
        );
    }
}
