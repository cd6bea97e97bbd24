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
pub use crate::commands::{StagedSpawns, apply_queued};
pub use crate::mask::{low_bits, mask_bit};
pub use crate::storage::lifecycle;
pub use crate::world_check::{WorldNames, check_sub_worlds, check_world};

/// The column operations the generated `Archetype` impl fans out per component.
pub mod column {
    pub use crate::column::*;
}

/// Whether a type is `Clone`, asked where the type is concrete (generated code): the builder's
/// `spawn(world, count)` clones the values it holds, and a component type need not be `Clone`
/// for the others to be batch-spawned. `(&CloneProbe::<T>::new()).cloner()` resolves to
/// [`IsClone::cloner`] (`Some(T::clone)`) when `T: Clone`, and otherwise, one auto-reference
/// later, to [`NotClone::cloner`] (`None`).
pub struct CloneProbe<T>(core::marker::PhantomData<fn() -> T>);

impl<T> CloneProbe<T> {
    /// A probe for `T`.
    #[inline]
    pub const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<T> Default for CloneProbe<T> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

/// A copy of a value an `EntityBuilder` holds, made with `cloner` (its type's `Clone`, as
/// [`CloneProbe`] found it).
///
/// # Panics
/// If the builder holds a value and its type is not `Clone` (`cloner` is `None`); the
/// message names the component `field`.
#[inline]
pub fn clone_held<C>(held: &Option<C>, cloner: Option<fn(&C) -> C>, field: &str) -> Option<C> {
    let value = held.as_ref()?;
    match cloner {
        Some(clone) => Some(clone(value)),
        None => panic!(
            "EntityBuilder::spawn: the builder holds a `{field}`, whose type is not Clone; spawn these entities one at a time with `spawn_one`"
        ),
    }
}

/// The probe's answer for a `Clone` type.
pub trait IsClone<T> {
    /// `T::clone`.
    fn cloner(&self) -> Option<fn(&T) -> T>;
}

impl<T: Clone> IsClone<T> for CloneProbe<T> {
    #[inline]
    fn cloner(&self) -> Option<fn(&T) -> T> {
        Some(T::clone)
    }
}

/// The probe's answer for any other type.
pub trait NotClone<T> {
    /// `None`: `T` cannot be cloned.
    fn cloner(&self) -> Option<fn(&T) -> T>;
}

impl<T> NotClone<T> for &CloneProbe<T> {
    #[inline]
    fn cloner(&self) -> Option<fn(&T) -> T> {
        None
    }
}

#[cfg(test)]
mod clone_probe_tests {
    use super::{CloneProbe, IsClone as _, NotClone as _, clone_held};

    struct Unique;

    // The borrow is what lets the fallback answer for a type that is not `Clone`.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn finds_clone_only_where_it_is() {
        let clone = (&CloneProbe::<u32>::new()).cloner().expect("u32 is Clone");
        assert_eq!(clone(&7), 7);
        assert!((&CloneProbe::<Unique>::new()).cloner().is_none());
    }

    #[test]
    fn clone_held_copies_what_is_held() {
        let cloner = Some(<u32 as Clone>::clone as fn(&u32) -> u32);
        assert_eq!(clone_held(&Some(5), cloner, "speed"), Some(5));
        assert_eq!(clone_held::<u32>(&None, cloner, "speed"), None);
        // Nothing held: nothing to clone, whatever the type.
        assert!(clone_held::<Unique>(&None, None, "sound").is_none());
    }

    #[test]
    #[should_panic(expected = "the builder holds a `sound`, whose type is not Clone")]
    fn clone_held_refuses_a_value_that_cannot_be_cloned() {
        clone_held(&Some(Unique), None, "sound");
    }
}
