//! The `snapshot` fuzz target's body: the input bytes are loaded as a postcard snapshot of an
//! `ecs!` world. Loading must return a sound world or an error: never a panic, a hang, or an
//! allocation sized by a declared length. A world that loads passes `check_invariants()`, saves
//! to at most the bytes it was read from and loads back to itself, and goes on working: a few
//! operations on it keep the invariants, change detection sees a write, and a schedule of
//! parameter systems runs on the memory it loaded (whatever last runs, cursors and placeholders
//! the input gave the systems of those names). The stable twin is
//! `macro_tests/tests/snapshot_mutations.rs`. The seed `saved_world_with_systems.postcard` is
//! [`seed_world`] saved (`macro_tests/tests/fuzz_replay.rs` checks it).
//!
//! `fuzz_targets/snapshot.rs` hands libFuzzer's inputs to [`run`];
//! `macro_tests/tests/fuzz_replay.rs` replays `fuzz/seeds/snapshot/` and
//! `fuzz/corpus/snapshot/` through it on stable. How to run and replay: `fuzz/README.md`.

use archetypal::{Changed, Entity, Local, ResMut, Schedule};
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

/// Counts the rows whose count changed since it last ran, into its local and the frame: its
/// memory (last run, kept values) is what the input loaded under its name.
fn tally(query: Query<&u32, Changed<u32>>, mut seen: Local<u64>, mut frame: ResMut<u64>) {
    *seen += query.iter().count() as u64;
    *frame = frame.wrapping_add(*seen);
}

/// Writes every label, with a local run count.
fn relabel(mut query: Query<(&mut String, &u32)>, mut runs: Local<u32>) {
    *runs = runs.wrapping_add(1);
    let runs = *runs;
    query.for_each(|(mut label, count)| {
        label.clear();
        label.push_str(if (count ^ runs) & 1 == 0 {
            "even"
        } else {
            "odd"
        });
    });
}

/// The systems run on every loaded world, under the names a saved world's memory has.
fn schedule() -> Schedule<SnapshotWorld> {
    let mut schedule = Schedule::new();
    schedule.add((tally, relabel));
    schedule
}

/// The world of the seed `saved_world_with_systems.postcard`: a few tables and tags, run by
/// [`schedule`] for two frames, so its snapshot holds what the systems remember.
pub fn seed_world() -> SnapshotWorld {
    let mut world = SnapshotWorld::new();
    let entities = world.spawn_entities(COUNT | LABEL | RED, 3);
    world.spawn(COUNT | PAIR | BLUE);
    world.spawn(MARKER | TARGET);
    world.set_target(entities[1], Target(Some(entities[0])));
    let mut schedule = schedule();
    for _ in 0..2 {
        schedule.run(&mut world);
        world.step();
        world.set_count(entities[2], 4);
    }
    world
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

    // Systems run on the memory the input gave them, and what they remember saves and loads.
    let mut schedule = schedule();
    for _ in 0..2 {
        schedule.run(&mut world);
        world.step();
    }
    world
        .check_invariants()
        .expect("a loaded world stays sound under its systems");
    let saved = postcard::to_allocvec(&world.snapshot()).expect("it saves");
    let again: SnapshotWorld = postcard::from_bytes(&saved).expect("it loads");
    assert_eq!(
        postcard::to_allocvec(&again.snapshot()).expect("it saves"),
        saved,
        "a world run by systems loads as another world"
    );
}
