#!/bin/sh
# Runs a cargo command with every loop aligned to 64 bytes, in its own target directory, so
# a benchmark measures the code and not where its hot loop happened to land:
#   benches/aligned.sh cargo run -p benches --release --bin report
#   benches/aligned.sh cargo bench -p benches -- simple_iter
# Without the pin a tight loop that crosses a 64-byte boundary in one build and not in the
# next moves a row by 10-20% (see benches/README.md, "A report that answers the same twice").
# The flag is LLVM's, not rustc's: it applies to the Rust contenders alike (flecs is C, built
# by its own compiler).
set -e
cd "$(dirname "$0")/.."
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C llvm-args=-align-loops=64"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/aligned}"
exec "$@"
