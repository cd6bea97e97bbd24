//! The bodies of the cargo-fuzz targets, one module each, with a `run(data: &[u8])` that
//! panics on a finding. The targets in `fuzz_targets/` only hand libFuzzer's inputs to them;
//! `macro_tests/tests/fuzz_replay.rs` includes these files too and replays the seeds and the
//! committed corpus through them on stable (see `fuzz/README.md`).

pub mod multi_world_snapshot;
pub mod ops;
pub mod round_trip;
pub mod snapshot;
pub mod snapshot_json;
