//! Fuzz target: the input bytes are loaded as a postcard snapshot of an `ecs!` world. Loading
//! must return a sound world or an error: never a panic, a hang, or an allocation sized by a
//! declared length. A world that loads passes `check_invariants()`, saves to at most the bytes
//! it was read from and loads back to itself, and goes on working: a few operations on it keep
//! the invariants and change detection sees a write. The stable twin is `macro_tests/tests/snapshot_mutations.rs`.
//!
//! Run it (nightly, from the repository root), seeded with a saved world:
//!
//! ```sh
//! cargo install cargo-fuzz --locked
//! cargo +nightly fuzz run snapshot fuzz/corpus/snapshot fuzz/seeds/snapshot -- -max_total_time=600 -rss_limit_mb=256
//! ```

#![no_main]

use archetypal::Entity;
use libfuzzer_sys::fuzz_target;
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

fuzz_target!(|data: &[u8]| {
    let Ok((mut world, unread)) = postcard::take_from_bytes::<SnapshotWorld>(data) else {
        return;
    };
    world.check_invariants().expect("a loaded world is sound");
    let read = &data[..data.len() - unread.len()];
    let saved = postcard::to_allocvec(&world.snapshot()).expect("a loaded world saves");
    // postcard accepts overlong varints, so the input need not be the canonical encoding;
    // but it holds as many bytes as the canonical one or more, and the saved world loads back
    // to itself.
    assert!(
        saved.len() <= read.len(),
        "the saved world is larger than its input"
    );
    let again: SnapshotWorld = postcard::from_bytes(&saved).expect("a saved world loads");
    let resaved = postcard::to_allocvec(&again.snapshot()).expect("it saves");
    assert_eq!(resaved, saved, "a saved world loads as another world");

    // The loaded world works: spawn, change, despawn and step keep it sound, and change
    // detection sees the write.
    let entity = world.spawn(COUNT | RED);
    world.step();
    world.set_count(entity, 7);
    assert!(
        world
            .query_entities_changed_since(COUNT, world.last_tick())
            .any(|changed| changed == entity)
    );
    for other in world.get_all_entities().into_iter().take(8) {
        world.add_components(other, LABEL);
        world.remove_components(other, MARKER);
    }
    if let Some(first) = world.query_first_entity(0) {
        world.despawn(first);
    }
    world
        .check_invariants()
        .expect("a loaded world stays sound");
});
