//! The `snapshot_json` fuzz target's body: the input bytes are loaded as a JSON snapshot of an
//! `ecs!` world, the text form whose columns hold each struct's fields by position (since
//! snapshot format 4, `src/snapshot/positional.rs`). Loading must return a sound world or an
//! error, never a panic or a hang. A world that loads passes `check_invariants()`, saves, loads
//! back to a world that saves to the same text, and goes on working, a schedule of parameter
//! systems included (on the memory the input gave them). The seed
//! `saved_world_with_systems.json` is [`seed_world`] saved (`macro_tests/tests/fuzz_replay.rs`
//! checks it).
//!
//! The components hold no floats: JSON cannot write the infinities an `f32` parsed from a large
//! number becomes, so a float column could load and then fail to load again, which is
//! serde_json's behaviour, not the snapshot's.
//!
//! `fuzz_targets/snapshot_json.rs` hands libFuzzer's inputs to [`run`];
//! `macro_tests/tests/fuzz_replay.rs` replays `fuzz/seeds/snapshot_json/` and
//! `fuzz/corpus/snapshot_json/` through it on stable. How to run and replay: `fuzz/README.md`.

use archetypal::{Changed, Entity, Local, ResMut, Schedule};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Marker;

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inner {
    pub level: u8,
    pub tag: Option<String>,
}

/// Nested structs, a tuple, an enum with a struct variant: every shape the positional form
/// rewrites.
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub hp: i32,
    pub inner: Inner,
    pub pair: (i16, u64),
    pub shape: Shape,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    #[default]
    Point,
    Around {
        x: i32,
        y: i32,
    },
    Labelled(String),
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Target(pub Option<Entity>);

archetypal::ecs! {
    JsonWorld {
        count: u32 => COUNT,
        stats: Stats => STATS,
        marker: Marker => MARKER,
        target: Target => TARGET,
    }
    Tags {
        red => RED,
    }
    Resources {
        frame: u64,
        focus: Option<Entity>,
    }
}

/// Counts the rows whose stats changed since it last ran, into its local and the frame.
fn tally(query: Query<&Stats, Changed<Stats>>, mut seen: Local<u64>, mut frame: ResMut<u64>) {
    *seen += query.iter().count() as u64;
    *frame = frame.wrapping_add(*seen);
}

/// Heals every unit, with a local run count.
fn heal(mut query: Query<(&mut Stats, &u32)>, mut runs: Local<i32>) {
    *runs = runs.wrapping_add(1);
    let runs = *runs;
    query.for_each(|(mut stats, _)| stats.hp = stats.hp.wrapping_add(runs));
}

/// The systems run on every loaded world, under the names a saved world's memory has.
fn schedule() -> Schedule<JsonWorld> {
    let mut schedule = Schedule::new();
    schedule.add((tally, heal));
    schedule
}

/// The world of the seed `saved_world_with_systems.json`: run by [`schedule`] for two frames,
/// so its snapshot holds what the systems remember.
pub fn seed_world() -> JsonWorld {
    let mut world = JsonWorld::new();
    let entities = world.spawn_entities(COUNT | STATS | RED, 2);
    world.spawn(STATS | MARKER);
    world.set_stats(
        entities[1],
        Stats {
            hp: 3,
            shape: Shape::Around { x: 1, y: -2 },
            ..Stats::default()
        },
    );
    let mut schedule = schedule();
    for _ in 0..2 {
        schedule.run(&mut world);
        world.step();
    }
    world
}

/// Loads `data` as a world and checks it, panicking at the first fault.
pub fn run(data: &[u8]) {
    let Ok(mut world) = serde_json::from_slice::<JsonWorld>(data) else {
        return;
    };
    world.check_invariants().expect("a loaded world is sound");
    let saved = serde_json::to_vec(&world.snapshot()).expect("a loaded world saves");
    let again: JsonWorld = serde_json::from_slice(&saved).expect("a saved world loads");
    let resaved = serde_json::to_vec(&again.snapshot()).expect("it saves");
    assert_eq!(resaved, saved, "a saved world loads as another world");

    let entity = world.spawn(COUNT | STATS | RED);
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
        world.add_components(other, MARKER);
        world.remove_components(other, TARGET);
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
    let saved = serde_json::to_vec(&world.snapshot()).expect("it saves");
    let again: JsonWorld = serde_json::from_slice(&saved).expect("it loads");
    assert_eq!(
        serde_json::to_vec(&again.snapshot()).expect("it saves"),
        saved,
        "a world run by systems loads as another world"
    );
}
