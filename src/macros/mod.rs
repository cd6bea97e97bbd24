//! The `ecs!` macro, split by concern: `ecs.rs` is the entry and dispatches, `parse.rs` turns
//! the input into its normal form once (and reports malformed input); every other file holds
//! one family of internal `#[doc(hidden)]` rules (`__ecs_accessors!`, `__ecs_commands!`, ...)
//! that match only the normal form, reached as `$crate::__ecs_*!`.

mod accessors;
mod builder;
mod clone;
mod commands;
mod ecs;
mod events;
mod hooks;
mod multi_world;
mod parse;
mod relations;
mod resources;
mod rules;
mod snapshot;
mod split;
mod tables;
mod tags;
mod typed_queries;
mod world;
