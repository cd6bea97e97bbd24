//! The `ecs!` macro, split by concern: `ecs.rs` parses the input and dispatches; every other
//! file holds one family of internal `#[doc(hidden)]` rules (`__ecs_accessors!`,
//! `__ecs_commands!`, ...), reached as `$crate::__ecs_*!`.

mod accessors;
mod builder;
mod clone;
mod commands;
mod ecs;
mod events;
mod game;
mod hooks;
mod relations;
mod resources;
mod snapshot;
mod split;
mod tables;
mod tags;
mod typed_queries;
mod world;
