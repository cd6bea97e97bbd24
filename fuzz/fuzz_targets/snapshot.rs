//! libFuzzer's entry for the `snapshot` target; the body is `src/snapshot.rs` (see `fuzz/README.md`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| archetypal_fuzz::snapshot::run(data));
