//! Expansion snapshots of `ecs!` (macrotest): `expand/*.rs` must expand to exactly the
//! committed `expand/*.expanded.rs`. A missing snapshot fails instead of being written; to
//! create or refresh one, run `cargo expand` on the case (or temporarily switch this test
//! to `macrotest::expand`) and review the diff.

use std::process::Command;

/// The cargo-expand version the snapshots were made with (also pinned in `.ci/run`).
const CARGO_EXPAND_VERSION: &str = "1.0.127";

/// `cargo test` does all the set-up on a fresh machine: it installs the pinned cargo-expand
/// when it is missing (a one-time build of a few minutes).
fn ensure_cargo_expand() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| String::from("cargo"));
    let installed = Command::new(&cargo)
        .args(["expand", "--version"])
        .output()
        .is_ok_and(|output| {
            output.status.success()
                && String::from_utf8_lossy(&output.stdout).contains(CARGO_EXPAND_VERSION)
        });
    if installed {
        return;
    }
    eprintln!("installing cargo-expand {CARGO_EXPAND_VERSION} for the expansion snapshots");
    let status = Command::new(&cargo)
        .args([
            "install",
            "cargo-expand",
            "--version",
            CARGO_EXPAND_VERSION,
            "--locked",
        ])
        .status()
        .expect("run cargo install");
    assert!(status.success(), "cargo install cargo-expand failed");
}

#[test]
fn expand() {
    ensure_cargo_expand();
    macrotest::expand_without_refresh("expand/*.rs");
}
