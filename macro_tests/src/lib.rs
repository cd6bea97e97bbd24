//! A downstream crate for archetypal's integration tests: `tests/` use `ecs!` exactly as a game
//! would, `ui/` holds compile-fail cases and `expand/` the expansion snapshots.
