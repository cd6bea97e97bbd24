//! libFuzzer's entry for the `snapshot_json` target; the body is `src/snapshot_json.rs` (see `fuzz/README.md`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| archetypal_fuzz::snapshot_json::run(data));
