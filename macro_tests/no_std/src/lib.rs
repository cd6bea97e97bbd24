//! A `#![no_std]` game crate using archetypal with `default-features = false`: it compiles
//! only if the crate and the code `ecs!` generates name nothing of `std`, and, since it
//! defines the panic handler a `#![no_std]` program provides, it fails to build ("duplicate
//! lang item `panic_impl`") if any dependency links `std`.
//!
//! `cargo test` (which needs `std` for the test harness only; archetypal stays without it)
//! runs the same frame on the host.
//!
//! CI: `cargo build` and `cargo test --manifest-path macro_tests/no_std/Cargo.toml`, with and
//! without `--features serde`.

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use archetypal::{CommandReport, Entity, EventCursor, ecs};

/// Where an entity is.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// How fast it moves.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Velocity {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// A name: an `alloc` type in a component.
#[derive(Default, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Name(pub String);

/// Scratch data nobody watches.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Scratch(pub u32);

/// Two entities collided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collision {
    /// One of the two.
    pub a: Entity,
    /// The other.
    pub b: Entity,
}

ecs! {
    World {
        /// Where the entity is.
        position: Position => POSITION,
        /// How fast it moves.
        velocity: Velocity => VELOCITY,
        /// What it is called.
        name: Name => NAME,
        /// Nobody watches it: no change ticks.
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        /// Steered by the player.
        player => PLAYER,
    }
    Relations {
        /// Part of another entity: despawned with it.
        child_of / children => CHILD_OF [cascade],
    }
    Events {
        /// Two entities collided.
        collision: Collision,
    }
    Resources {
        /// Seconds per frame.
        delta_time: f32,
        /// Where the collision reader is.
        collisions_seen: EventCursor,
    }
}

/// What [`frame`] observed, for the host test to check.
#[derive(Debug, PartialEq)]
pub struct Observed {
    /// Where the moving entity ended.
    pub position: Option<Position>,
    /// Collisions read through the resources' cursor.
    pub collisions: usize,
    /// What `apply_commands` reported.
    pub report: CommandReport,
    /// Entities alive after the cascade despawn.
    pub alive: usize,
    /// Whether a rollback restored the moved position.
    pub rolled_back: bool,
}

/// One frame of a game, touching every block: spawns, components, an untracked one, a tag, a
/// relation with a cascading despawn, events with a cursor, queued commands through
/// `split_mut` (the entity reserver), change detection, a clone and a rollback.
pub fn frame() -> Observed {
    let mut world = World::new();
    world.resources.delta_time = 0.5;
    let hero = world.spawn(POSITION | VELOCITY | NAME | PLAYER);
    world.set_velocity(hero, Velocity { x: 2.0, y: 0.0 });
    world.set_name(hero, Name(String::from("hero")));
    let sword = world.spawn(POSITION | SCRATCH);
    world.set_child_of(sword, hero).expect("both alive");
    world.step();

    let before = world.clone();
    let delta_time = world.resources.delta_time;
    world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
        table.position[index].x += table.velocity[index].x * delta_time;
    });
    let moved: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, world.last_tick())
        .iter()
        .collect();
    assert_eq!(moved, [hero]);
    if let Some(scratch) = world.get_scratch_mut(sword) {
        scratch.0 += 1;
    }

    let mut parts = world.split_mut();
    for entity in parts.components.query_entities(POSITION | PLAYER) {
        parts.events.collision.send(Collision {
            a: entity,
            b: sword,
        });
        // Spawns queued through the parts reserve their handles while the components are
        // borrowed: the reserver's lock is the no_std one.
        let spawned = parts.commands.queue_spawn_entities(POSITION, 2);
        parts
            .commands
            .queue_set_position(spawned[0], Position { x: 9.0, y: 9.0 });
    }
    let collisions = parts
        .events
        .collision
        .consume(&mut parts.resources.collisions_seen)
        .into_iter()
        .count();
    let report = world.apply_commands();
    let position = world.get_position(hero).copied();

    let mut rolled = world.clone();
    rolled.restore(&before);
    let rolled_back = rolled.get_position(hero) == before.get_position(hero)
        && rolled.get_position(hero) != world.get_position(hero);

    assert!(world.has_player(hero));
    assert_eq!(world.get_children(hero), &[sword]);
    assert!(world.despawn(hero), "the cascade takes the sword too");
    assert!(!world.is_alive(sword));
    assert_eq!(
        world.get_position(hero),
        None,
        "a dead handle reads nothing"
    );
    Observed {
        position,
        collisions,
        report,
        alive: world.entity_count(),
        rolled_back,
    }
}

/// Saves a world to postcard and loads it back, all without std.
#[cfg(feature = "serde")]
pub fn snapshot_round_trip() -> bool {
    let mut world = World::new();
    let hero = world.spawn(POSITION | NAME | PLAYER);
    world.set_position(hero, Position { x: 1.0, y: 2.0 });
    world.set_name(hero, Name(String::from("hero")));
    let bytes: Vec<u8> = postcard::to_allocvec(&world.snapshot()).expect("serializes");
    let loaded: World = postcard::from_bytes(&bytes).expect("loads");
    loaded.get_position(hero) == world.get_position(hero)
        && loaded.get_name(hero) == world.get_name(hero)
        && loaded.has_player(hero)
}

/// A `#![no_std]` program provides its panic handler; with `std` anywhere in the dependency
/// graph this is a duplicate lang item and the build fails.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_without_std() {
        let observed = frame();
        assert_eq!(observed.position, Some(Position { x: 1.0, y: 0.0 }));
        assert_eq!(observed.collisions, 1);
        // The queued batch spawn and the queued write.
        assert_eq!(observed.report.applied, 2);
        assert_eq!(observed.report.skipped, 0);
        // The two queued spawns; the hero and its sword went in the cascade.
        assert_eq!(observed.alive, 2);
        assert!(observed.rolled_back);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn a_snapshot_without_std() {
        assert!(snapshot_round_trip());
    }
}
