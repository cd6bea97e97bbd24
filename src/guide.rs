//! The guide: how to use what `ecs!` generates, one chapter per job, every example doc-tested.
//!
//! The crate page (the README) has the quick start and a table of which method does which
//! job; [`example_generated`](crate::example_generated) renders every generated item with its
//! signature. These chapters say how the pieces fit together:
//!
//! - [`typed_queries`]: `typed_query::<(&mut A, &B)>()`, filters, `iter`, `get`, and the table
//!   loops (`for_each`, `for_each_mut`, `for_each_table_mut`) beside them.
//! - [`change_detection`]: which writes are reported, and the changed-only and added-only
//!   queries.
//! - [`tags_events_commands`]: markers that create no tables, event channels with cursors,
//!   commands queued while iterating, the structural change log.
//! - [`relations`]: exclusive, acyclic links between entities (`child_of / children`).
//! - [`systems`]: the world borrowed apart (`split_mut`, `split_tables`) and the `Schedule`.
//! - [`hooks`]: observers and hooks, code that runs when a component is added or removed, an
//!   entity spawned or despawned, a link made or undone.
//! - [`world_rules`]: the world's rules, required components and exclusive groups declared in
//!   `ecs!` and kept by every operation, and disabled entities, parked out of every query.
//! - [`multi_world`]: past 127 components and tags, sub-worlds sharing one set of entities.
//! - [`cloning`]: `World: Clone` and `restore`, for rollback.
//! - [`snapshots`]: saving and loading a world with serde (feature `serde`).
//! - [`rollback_netcode`]: a game under ggrs: save, load and the crate's checksum (feature
//!   `serde`).
//! - [`no_std`]: the crate without the standard library.
//! - [`panics`]: every panic there is, and what a panicking `Default`, `Clone` or `Drop`
//!   leaves behind.
//!
//! The modules hold only documentation: they define no items.

pub mod typed_queries {
    #![doc = include_str!("guide/typed_queries.md")]
}

pub mod change_detection {
    #![doc = include_str!("guide/change_detection.md")]
}

pub mod tags_events_commands {
    #![doc = include_str!("guide/tags_events_commands.md")]
}

pub mod relations {
    #![doc = include_str!("guide/relations.md")]
}

pub mod systems {
    #![doc = include_str!("guide/systems.md")]
}

pub mod hooks {
    #![doc = include_str!("guide/hooks.md")]
}

pub mod world_rules {
    #![doc = include_str!("guide/world_rules.md")]
}

pub mod multi_world {
    #![doc = include_str!("guide/multi_world.md")]
}

pub mod cloning {
    #![doc = include_str!("guide/cloning.md")]
}

// The snapshots chapter is rendered in every documentation build (`doc`); its examples
// are compiled and run only with the `serde` feature (on in `cargo test` at the workspace
// root, through macro_tests), since they need `World: Serialize + Deserialize`.
#[cfg(any(feature = "serde", doc))]
pub mod snapshots {
    #![doc = include_str!("guide/snapshots.md")]
}

// Like the snapshots chapter: rendered in every documentation build, its example (which uses
// the checksum, and ggrs, a dev-dependency) compiled and run only with the `serde` feature.
#[cfg(any(feature = "serde", doc))]
pub mod rollback_netcode {
    #![doc = include_str!("guide/rollback_netcode.md")]
}

pub mod no_std {
    #![doc = include_str!("guide/no_std.md")]
}

pub mod panics {
    #![doc = include_str!("guide/panics.md")]
}
