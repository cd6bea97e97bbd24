//! The `multi_world_snapshot` fuzz target's body: the input bytes are loaded as a postcard snapshot
//! of a multi-world game (two sub-worlds with tags and relations, one allocator). Loading must
//! return a sound game or an error: never a panic, a hang, or an allocation sized by a declared
//! length. A game that loads passes `check_invariants()`, saves to at most the bytes it was read
//! from and loads back to itself, and goes on working: spawns, writes, links, migrations and
//! despawns across both sub-worlds keep the invariants, and change detection sees a write. The
//! stable twin is `macro_tests/tests/snapshot_mutations.rs`'s game mutants.
//!
//! `fuzz_targets/multi_world_snapshot.rs` hands libFuzzer's inputs to [`run`];
//! `macro_tests/tests/fuzz_replay.rs` replays `fuzz/seeds/multi_world_snapshot/` and
//! `fuzz/corpus/multi_world_snapshot/` through it on stable. How to run and replay:
//! `fuzz/README.md`.

use archetypal::Entity;
use serde::{Deserialize, Serialize};

/// Zero-sized: its values cost no input bytes, the cheapest way to declare a huge column.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Marker;

/// A component holding a handle, which a load must not let point outside the game.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Target(pub Option<Entity>);

archetypal::ecs! {
    SnapshotGame {
        Core {
            count: u32 => COUNT,
            label: String => LABEL,
            target: Target => TARGET,
        }
        Tags {
            red => RED,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Render {
            pair: (i16, f32) => PAIR,
            marker: Marker => MARKER,
        }
        Tags {
            hidden => HIDDEN,
        }
        Relations {
            owned_by / belongings => OWNED_BY,
        }
    }
    Resources {
        frame: u64,
        focus: Option<Entity>,
    }
}

/// A game with entities in both sub-worlds, tags, links in both, a recycled id and resources:
/// the seed `fuzz/seeds/multi_world_snapshot/saved_game.postcard` is its postcard snapshot.
pub fn seed_game() -> SnapshotGame {
    let mut game = SnapshotGame::new();
    let entities = game.spawn_entities(6);
    for (index, &entity) in entities.iter().enumerate() {
        game.core.set_count(entity, index as u32);
        if index % 2 == 0 {
            game.render.set_pair(entity, (index as i16, 0.5));
        }
    }
    game.core.set_label(entities[1], "one".to_string());
    game.core.set_target(entities[2], Target(Some(entities[3])));
    game.core.add_red(entities[0]);
    game.render.add_hidden(entities[4]);
    game.render.add_marker(entities[5]);
    game.core
        .set_child_of(entities[1], entities[0])
        .expect("alive, no cycle");
    game.render
        .set_owned_by(entities[5], entities[4])
        .expect("alive, no cycle");
    game.despawn(entities[3]);
    game.spawn();
    game.resources.frame = 3;
    game.resources.focus = Some(entities[4]);
    game.step();
    game
}

/// Loads `data` as a game and checks it, panicking at the first fault.
pub fn run(data: &[u8]) {
    let Some(mut game) = crate::round_trip::load_postcard::<SnapshotGame>(
        data,
        |game| game.check_invariants().expect("a loaded game is sound"),
        |game| postcard::to_allocvec(&game.snapshot()).expect("a loaded game saves"),
    ) else {
        return;
    };

    // The loaded game works: a spawn, writes in both sub-worlds, a link, migrations and
    // despawns keep it sound, and change detection sees the write.
    let entity = game.spawn();
    game.step();
    game.core.set_count(entity, 7);
    assert!(
        game.core
            .typed_query_ref::<Entity>()
            .changed_since(COUNT, game.core.last_tick())
            .iter()
            .any(|changed| changed == entity)
    );
    game.render.set_pair(entity, (1, 2.0));
    let others: Vec<Entity> = game.entities().take(8).collect();
    for &other in &others {
        game.core.add_red(other);
        game.render.remove_components(other, MARKER);
    }
    if let Some(&first) = others.first() {
        // A link may be refused (a cycle), never a panic.
        let _ = game.core.set_child_of(entity, first);
        let _ = game.render.set_owned_by(first, entity);
        game.despawn(first);
    }
    game.check_invariants().expect("a loaded game stays sound");
}
