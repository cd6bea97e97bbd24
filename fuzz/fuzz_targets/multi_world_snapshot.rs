//! libFuzzer's entry for the `multi_world_snapshot` target; the body is
//! `src/multi_world_snapshot.rs` (see `fuzz/README.md`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| archetypal_fuzz::multi_world_snapshot::run(data));
