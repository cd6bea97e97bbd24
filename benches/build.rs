//! Records the flags the benches were compiled with, so the report can say whether loop
//! alignment was pinned (`benches/aligned.sh`): a report built without it measures whichever
//! alignment each tight loop happened to get.

fn main() {
    // Cargo hands a build script the RUSTFLAGS of the build, separated by 0x1f.
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!(
        "cargo:rustc-env=BENCHES_RUSTFLAGS={}",
        flags.replace('\u{1f}', " ")
    );
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
}
