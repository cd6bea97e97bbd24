//! What `ecs!` generates, rendered: this module invokes it on a small example world, so every
//! generated item shows here with its doc comment and its real signature, as `cargo doc` shows
//! them in a game's own crate.
//!
//! It exists only in the documentation (`#[cfg(doc)]`): it is not part of the crate's API and
//! cannot be used from code. The invocation is:
//!
//! ```text
//! ecs! {
//!     World {
//!         /// Where the entity is.
//!         position: Position => POSITION,
//!         /// How fast it moves.
//!         velocity: Velocity => VELOCITY,
//!         /// Hit points.
//!         health: Health => HEALTH,
//!         /// Scratch data nobody watches: no change ticks.
//!         scratch: Scratch => SCRATCH [untracked],
//!     }
//!     Tags {
//!         /// Steered by the player.
//!         player => PLAYER,
//!         /// Does not move.
//!         frozen => FROZEN,
//!     }
//!     Relations {
//!         /// Part of another entity: despawning the parent despawns its children.
//!         child_of / children => CHILD_OF [cascade],
//!         /// Belongs to another entity: despawning the owner sets its belongings free.
//!         owned_by / belongings => OWNED_BY,
//!     }
//!     Events {
//!         /// Two entities collided.
//!         collision: Collision,
//!     }
//!     Resources {
//!         /// Seconds since the last frame.
//!         delta_time: f32,
//!         /// The game's score.
//!         score: u64,
//!     }
//! }
//! ```
//!
//! Where to look:
//! - [`World`]: the world and all its methods (spawn, despawn, `get_position`,
//!   `set_position`, queries, tags, relations (`set_child_of`, `get_children`,
//!   `split_child_of`), events, commands, ticks, `split_mut`, `restore`;
//!   `snapshot` and `from_snapshot` with the feature `serde`, `par_for_each_mut` with
//!   `parallel`). The per-component methods are on [`WorldComponents`], which the world
//!   dereferences to, and the others on [`Storage`](crate::Storage), which `WorldComponents`
//!   dereferences to; the queue methods are on [`WorldCommands`] and
//!   [`CommandQueue`](crate::CommandQueue).
//! - [`WorldComponentArrays`] (one archetype table), [`WorldComponentArraysMut`] (a table's
//!   slices, handed to closures), [`WorldEntityBuilder`], [`WorldResources`], [`WorldEvents`],
//!   [`WorldCommands`] and [`WorldCommand`] (queued structural changes), [`WorldParts`]
//!   (`split_mut()`), [`WorldRowsMut`] (every entity's components by handle, lent beside the
//!   links by `split_child_of()`), and the mask constants ([`POSITION`], [`PLAYER`](const@PLAYER),
//!   [`CHILD_OF`](const@CHILD_OF), ...).
//!
//! The items a feature adds (`snapshot`, `from_snapshot` and the `Serialize` / `Deserialize`
//! impls with `serde`, `par_for_each_mut` with `parallel`) say so first in their doc comment:
//! the feature is decided inside archetypal when `ecs!` expands, so the generated items carry
//! no `#[cfg]` for docs.rs to mark (the runtime's own feature-gated items are marked).
//!
//! The short names (`ComponentArrays`, `EntityBuilder`, `Mask`, `COMPONENT_COUNT`, ...) are
//! aliases of the prefixed items above, re-exported from a hidden module, so only the prefixed
//! items are listed.

use crate::ecs;

/// Where an entity is (a component of the example world).
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// How fast an entity moves (a component of the example world).
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Velocity {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// Hit points (a component of the example world).
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Health(pub i32);

/// Per-frame scratch data (an `[untracked]` component of the example world).
#[derive(Default, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Scratch(pub u32);

/// Two entities collided (an event of the example world).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Collision {
    /// One of the two.
    pub a: crate::Entity,
    /// The other.
    pub b: crate::Entity,
}

ecs! {
    World {
        /// Where the entity is.
        position: Position => POSITION,
        /// How fast it moves.
        velocity: Velocity => VELOCITY,
        /// Hit points.
        health: Health => HEALTH,
        /// Scratch data nobody watches: no change ticks.
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        /// Steered by the player.
        player => PLAYER,
        /// Does not move.
        frozen => FROZEN,
    }
    Relations {
        /// Part of another entity: despawning the parent despawns its children.
        child_of / children => CHILD_OF [cascade],
        /// Belongs to another entity: despawning the owner sets its belongings free.
        owned_by / belongings => OWNED_BY,
    }
    Events {
        /// Two entities collided.
        collision: Collision,
    }
    Resources {
        /// Seconds since the last frame.
        delta_time: f32,
        /// The game's score.
        score: u64,
    }
}
