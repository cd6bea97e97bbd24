//! libFuzzer's entry for the `game_snapshot` target; the body is `src/game_snapshot.rs` (see `fuzz/README.md`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| archetypal_fuzz::game_snapshot::run(data));
