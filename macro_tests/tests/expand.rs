//! Expansion snapshots of `ecs!` (macrotest): `expand/*.rs` must expand to exactly the
//! committed `expand/*.expanded.rs`. A missing snapshot fails instead of being written; to
//! create or refresh one, run `cargo expand` on the case (or temporarily switch this test
//! to `macrotest::expand`) and review the diff.

#[test]
fn expand() {
    macrotest::expand_without_refresh("expand/*.rs");
}
