//! Values dropped by code compiled once in this crate.
//!
//! A type's drop glue is generic code too: a game's crate compiles it for every type its world
//! holds, the runtime's own (the entity records, the caches and their maps, the tag segments,
//! the change log) included, although none of those depends on more of the world than its mask
//! type. [`Dropped`] keeps such a value out of the glue's sight (`ManuallyDrop`) and drops it
//! through [`DropHere::drop_here`], compiled here: once for a type of the runtime, once per
//! mask width for one over the mask (the function for its width, chosen by `Bitmask::pick`).
//! Each type's impl is beside the type, so this module knows none of them.

use core::mem::ManuallyDrop;
use core::ops::{Deref, DerefMut};

/// A value of the runtime's, dropped by [`DropHere::drop_here`]; dereferences to it.
pub struct Dropped<X: DropHere>(ManuallyDrop<X>);

/// A type [`Dropped`] can hold: how it is dropped, by a function compiled in this crate.
pub trait DropHere: Default {
    /// Drops `value` (leaving a default behind, which owns nothing).
    fn drop_here(value: &mut ManuallyDrop<Self>);
}

/// [`DropHere::drop_here`] of a type with a default that owns nothing: the value taken out and
/// dropped.
#[inline]
pub(crate) fn drop_value<X: Default>(value: &mut ManuallyDrop<X>) {
    drop(core::mem::take(&mut **value));
}

impl<X: DropHere> Dropped<X> {
    /// Holds `value`.
    #[inline]
    pub fn new(value: X) -> Self {
        Dropped(ManuallyDrop::new(value))
    }
}

impl<X: DropHere> Drop for Dropped<X> {
    #[inline]
    fn drop(&mut self) {
        X::drop_here(&mut self.0);
    }
}

impl<X: DropHere> Deref for Dropped<X> {
    type Target = X;

    #[inline]
    fn deref(&self) -> &X {
        &self.0
    }
}

impl<X: DropHere> DerefMut for Dropped<X> {
    #[inline]
    fn deref_mut(&mut self) -> &mut X {
        &mut self.0
    }
}

impl<'a, X: DropHere> IntoIterator for &'a Dropped<X>
where
    &'a X: IntoIterator,
{
    type Item = <&'a X as IntoIterator>::Item;
    type IntoIter = <&'a X as IntoIterator>::IntoIter;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        (&**self).into_iter()
    }
}

impl<X: DropHere> Default for Dropped<X> {
    #[inline]
    fn default() -> Self {
        Dropped::new(X::default())
    }
}

impl<X: DropHere + Clone> Clone for Dropped<X> {
    fn clone(&self) -> Self {
        Dropped::new((*self.0).clone())
    }

    fn clone_from(&mut self, source: &Self) {
        (*self.0).clone_from(&source.0);
    }
}

impl<X: DropHere + core::fmt::Debug> core::fmt::Debug for Dropped<X> {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (*self.0).fmt(formatter)
    }
}
