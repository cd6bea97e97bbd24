//! Compile-fail and compile-pass cases for `ecs!`, pinned with trybuild.
//!
//! `ui/*.rs` must fail to compile with exactly the message in the `.stderr` next to them;
//! `ui/pass/*.rs` must compile. Regenerate pinned output with `TRYBUILD=overwrite` and
//! read every changed `.stderr` before committing it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
