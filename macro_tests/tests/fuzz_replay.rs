//! The fuzz targets' bodies on stable: every file of each target's seeds (`fuzz/seeds/<target>/`)
//! and committed corpus (`fuzz/corpus/<target>/`) is run through the target's `run`, which
//! panics on a finding, so a body that no longer builds against the crate, a reference model
//! that no longer agrees with the world, or a fixed bug coming back fails `cargo test` without
//! nightly or libFuzzer. Each of those folders must hold an input, so an emptied or moved one
//! fails too. How to run the fuzzer and add a finding: `fuzz/README.md`.

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

#[path = "../../fuzz/src/multi_world_snapshot.rs"]
mod multi_world_snapshot;
#[path = "../../fuzz/src/ops.rs"]
mod ops;
#[path = "../../fuzz/src/round_trip.rs"]
mod round_trip;
#[path = "../../fuzz/src/snapshot.rs"]
mod snapshot;
#[path = "../../fuzz/src/snapshot_json.rs"]
mod snapshot_json;

/// The inputs of `target`: the files of its seed and corpus folders, in name order, each with
/// its path from the repository root. Neither folder may be missing or empty.
fn inputs(target: &str) -> Vec<(String, PathBuf)> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut files = Vec::new();
    for folder in ["seeds", "corpus"] {
        let dir = fuzz.join(folder).join(target);
        let entries =
            fs::read_dir(&dir).unwrap_or_else(|error| panic!("fuzz/{folder}/{target}/: {error}"));
        let before = files.len();
        for entry in entries {
            let entry = entry.expect("a readable folder");
            let path = entry.path();
            if path.is_file() {
                let name = format!("fuzz/{folder}/{target}/{}", entry.file_name().display());
                files.push((name, path));
            }
        }
        assert!(
            files.len() > before,
            "fuzz/{folder}/{target}/ holds no input"
        );
    }
    files.sort();
    files
}

/// Runs every input of `target` through `run`, and fails naming each input that panicked.
fn replay(target: &str, run: fn(&[u8])) {
    let files = inputs(target);
    let mut failed = Vec::new();
    for (name, path) in &files {
        let data = fs::read(path).expect("a readable input");
        if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            failed.push(name.as_str());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} `{target}` inputs failed (their panics are printed above):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

#[test]
fn ops_inputs_agree_with_the_model() {
    replay("ops", ops::run);
}

#[test]
fn snapshot_inputs_load_soundly() {
    replay("snapshot", snapshot::run);
}

#[test]
fn snapshot_json_inputs_load_soundly() {
    replay("snapshot_json", snapshot_json::run);
}

#[test]
fn game_snapshot_inputs_load_soundly() {
    replay("multi_world_snapshot", multi_world_snapshot::run);
}

/// `path` (from the repository's `fuzz/seeds/`) holds `saved`, rewritten first under
/// `REFRESH_FUZZ_SEEDS`; what fails names the command that refreshes it.
fn check_seed(path: &str, what: &str, saved: Vec<u8>) {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(path);
    if std::env::var_os("REFRESH_FUZZ_SEEDS").is_some() {
        fs::write(&full, &saved).unwrap();
    }
    assert_eq!(
        fs::read(&full).ok(),
        Some(saved),
        "fuzz/seeds/{path} is not {what} saved; refresh it with \
         `REFRESH_FUZZ_SEEDS=1 cargo test -p macro_tests --test fuzz_replay`"
    );
}

/// The seeds of worlds whose systems remember (format 5 saves it) are their seed worlds as the
/// crate saves them today, so a change of the format shows here.
#[test]
fn the_world_snapshot_seeds_with_systems_are_the_seed_worlds_saved() {
    check_seed(
        "snapshot/saved_world_with_systems.postcard",
        "snapshot::seed_world()",
        postcard::to_allocvec(&snapshot::seed_world().snapshot()).unwrap(),
    );
    check_seed(
        "snapshot_json/saved_world_with_systems.json",
        "snapshot_json::seed_world()",
        serde_json::to_vec(&snapshot_json::seed_world().snapshot()).unwrap(),
    );
}

/// The seed is the snapshot of `seed_game()` as the crate saves it today, so a change of the
/// game's format shows here, with the command that refreshes the seed.
#[test]
fn the_game_snapshot_seed_is_the_seed_game_saved() {
    check_seed(
        "multi_world_snapshot/saved_game.postcard",
        "seed_game()",
        postcard::to_allocvec(&multi_world_snapshot::seed_game().snapshot()).unwrap(),
    );
}

/// Every seed is a saved world or game, and loads: a change of the format that leaves one
/// behind (refused, so it no longer reaches past the loader's first checks) shows here.
#[test]
fn every_snapshot_seed_loads() {
    let seeds = |target: &str| {
        inputs(target)
            .into_iter()
            .filter(|(name, _)| name.starts_with("fuzz/seeds/"))
            .map(|(name, path)| (name, fs::read(path).expect("a readable seed")))
    };
    for (name, data) in seeds("snapshot") {
        let loaded = postcard::from_bytes::<snapshot::SnapshotWorld>(&data);
        assert!(loaded.is_ok(), "{name}: {loaded:?}", loaded = loaded.err());
    }
    for (name, data) in seeds("snapshot_json") {
        let loaded = serde_json::from_slice::<snapshot_json::JsonWorld>(&data);
        assert!(loaded.is_ok(), "{name}: {loaded:?}", loaded = loaded.err());
    }
    for (name, data) in seeds("multi_world_snapshot") {
        let loaded = postcard::from_bytes::<multi_world_snapshot::SnapshotGame>(&data);
        assert!(loaded.is_ok(), "{name}: {loaded:?}", loaded = loaded.err());
    }
}
