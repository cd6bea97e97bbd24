//! Support for generated code. Not part of the public API: reached only as
//! `$crate::__private` from inside `ecs!`.

// Generated code names `alloc`'s and `core`'s items through these, never `::std`, so it
// compiles in a `#![no_std]` crate (which may not have `alloc` in its own extern prelude).
pub extern crate alloc;
pub extern crate core;
pub use paste;
/// serde, for the snapshot code `ecs!` generates (users derive on their own types only).
#[cfg(feature = "serde")]
pub use serde;

pub use crate::builder::{EntityValues, Links};
pub use crate::change_ticks::TickColumn;
pub use crate::column::ColumnEdit;
pub use crate::commands::{Staging, apply_queued};
pub use crate::lifecycle::IndexedStorage;
pub use crate::mask::{low_bits, mask_bit};
pub use crate::world_check::{WorldNames, check_sub_worlds, check_world};

/// An event channel declared `[saved]` (`Events { hit: Hit [saved] }`): a snapshot keeps its
/// events (with the `serde` feature, its type must be serde too). Named by generated code
/// through `__ecs_event_saving!`.
pub struct SavedEvents;

/// An event channel declared without `[saved]`: a snapshot keeps only where its numbering
/// stands, and its event type need not be serde.
pub struct UnsavedEvents;

/// What a world's generated methods call to spawn, despawn, reserve handles for queued
/// spawns, copy the world and end a frame: each is one of these.
pub mod lifecycle {
    pub use crate::lifecycle::{
        clone_from, command_queue, despawn, despawn_entities, end_frame, lent_queue,
        next_hooked_change, release_all_reserved, spawn, spawn_batch, spawn_built, spawn_entities,
        spawn_one, spawn_values,
    };
}

/// What a world's generated `run_hooks` and `apply_commands` call when it declares hooks.
pub mod hooks {
    pub use crate::commands::apply_queued_with_hooks;
}

/// What a multi-world game's generated methods call: each is one of these.
pub mod multi_world {
    pub use crate::multi_world::{
        apply_commands, apply_commands_with_hooks, apply_lifecycle, check_invariants,
        clear_commands, clone_from, despawn, despawn_entities, end_frame, entity_reserver,
        hooks_pending, increment_tick, is_disabled, set_disabled, spawn, spawn_built,
        spawn_entities, spawn_one, spawn_values,
    };
}

/// The column operations the generated `Archetype` impl fans out per component.
pub mod column {
    pub use crate::column::*;
}

/// A value an `EntityBuilder` may hold, asked for a copy where its type is concrete (generated
/// code): the builder's `spawn(world, count)` clones the values it holds, and a component type
/// need not be `Clone` for the others to be batch-spawned. `(&CloneProbe(&held, "field"))
/// .cloned()` resolves to [`IsClone::cloned`] (a clone) when the type is `Clone`, and
/// otherwise, one auto-reference later, to [`NotClone::cloned`].
pub struct CloneProbe<'a, T>(pub &'a Option<T>, pub &'static str);

/// The probe's answer for a `Clone` type.
pub trait IsClone<T> {
    /// A clone of the value held, if any.
    fn cloned(&self) -> Option<T>;
}

impl<T: Clone> IsClone<T> for CloneProbe<'_, T> {
    #[inline]
    fn cloned(&self) -> Option<T> {
        self.0.clone()
    }
}

/// The probe's answer for any other type.
pub trait NotClone<T> {
    /// `None` when nothing is held.
    ///
    /// # Panics
    /// If a value is held: its type cannot be cloned (the message names the component).
    fn cloned(&self) -> Option<T>;
}

impl<T> NotClone<T> for &CloneProbe<'_, T> {
    #[inline]
    fn cloned(&self) -> Option<T> {
        match self.0 {
            None => None,
            Some(_) => panic!(
                "EntityBuilder::spawn: the builder holds a `{}`, whose type is not Clone; spawn these entities one at a time with `spawn_one`",
                self.1
            ),
        }
    }
}

#[cfg(test)]
mod clone_probe_tests {
    use super::{CloneProbe, IsClone as _, NotClone as _};

    struct Unique;

    // The borrow is what lets the fallback answer for a type that is not `Clone`.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn clones_only_what_can_be_cloned() {
        assert_eq!((&CloneProbe(&Some(7_u32), "speed")).cloned(), Some(7));
        assert_eq!((&CloneProbe::<u32>(&None, "speed")).cloned(), None);
        // Nothing held: nothing to clone, whatever the type.
        assert!((&CloneProbe::<Unique>(&None, "sound")).cloned().is_none());
    }

    #[allow(clippy::needless_borrow)]
    #[test]
    #[should_panic(expected = "the builder holds a `sound`, whose type is not Clone")]
    fn refuses_a_held_value_that_cannot_be_cloned() {
        let _ = (&CloneProbe(&Some(Unique), "sound")).cloned();
    }
}
