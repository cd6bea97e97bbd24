//! The `snapshot` fuzz target's body: the input bytes are loaded as a postcard snapshot of an
//! `ecs!` world. Loading must return a sound world or an error: never a panic, a hang, or an
//! allocation sized by a declared length. A world that loads passes `check_invariants()`, saves
//! to at most the bytes it was read from and loads back to itself, and goes on working: a few
//! operations on it keep the invariants and change detection sees a write. The stable twin is
//! `macro_tests/tests/snapshot_mutations.rs`.
//!
//! `fuzz_targets/snapshot.rs` hands libFuzzer's inputs to [`run`];
//! `macro_tests/tests/fuzz_replay.rs` replays `fuzz/seeds/snapshot/` and
//! `fuzz/corpus/snapshot/` through it on stable. How to run and replay: `fuzz/README.md`.

use archetypal::Entity;
use serde::{Deserialize, Serialize};

/// Zero-sized: its values cost no input bytes, the cheapest way to declare a huge column.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Marker;

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Target(pub Option<Entity>);

archetypal::ecs! {
    SnapshotWorld {
        count: u32 => COUNT,
        label: String => LABEL,
        pair: (i16, f32) => PAIR,
        marker: Marker => MARKER,
        target: Target => TARGET,
    }
    Tags {
        red => RED,
        blue => BLUE,
    }
    Resources {
        frame: u64,
        focus: Option<Entity>,
    }
}

/// Loads `data` as a world and checks it, panicking at the first fault.
pub fn run(data: &[u8]) {
    let Some(mut world) = crate::round_trip::load_postcard::<SnapshotWorld>(
        data,
        |world| world.check_invariants().expect("a loaded world is sound"),
        |world| postcard::to_allocvec(&world.snapshot()).expect("a loaded world saves"),
    ) else {
        return;
    };

    // The loaded world works: spawn, change, despawn and step keep it sound, and change
    // detection sees the write.
    let entity = world.spawn(COUNT | RED);
    world.step();
    world.set_count(entity, 7);
    assert!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(COUNT, world.last_tick())
            .iter()
            .any(|changed| changed == entity)
    );
    for other in world.entities().collect::<Vec<_>>().into_iter().take(8) {
        world.add_components(other, LABEL);
        world.remove_components(other, MARKER);
    }
    let first = world.query_entities(0).next();
    if let Some(first) = first {
        world.despawn(first);
    }
    world
        .check_invariants()
        .expect("a loaded world stays sound");
}
