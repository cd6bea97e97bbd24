//! libFuzzer's entry for the `ops` target; the body is `src/ops.rs` (see `fuzz/README.md`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| archetypal_fuzz::ops::run(data));
