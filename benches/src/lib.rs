//! Benchmarks of archetypal against its peers (filled by the benchmarks issue).
