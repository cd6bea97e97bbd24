//! [`Versioned`]: a value that can say it has not changed since it was last asked, so what was
//! worked out from it (a `Target` term's spans of siblings) can be kept until it changes.

use core::num::NonZeroU64;
use core::ops::{Deref, DerefMut};
use core::sync::atomic::{AtomicU64, Ordering};

use crate::dropped::{DropHere, Dropped};

/// The last version handed out, process-wide: versions are never reused, so two values with
/// the same version hold the same contents (one was cloned from the other, or both are one).
static LAST_VERSION: AtomicU64 = AtomicU64::new(0);

/// A runtime value ([`Dropped`]) with a version: any `&mut` access clears it, and
/// [`version`](Self::version) draws a fresh one, from a process-wide counter, when it is
/// clear. So equal versions mean equal contents, whatever was copied or overwritten in
/// between, and no path that changes the value can forget to say so. Reading costs nothing.
pub(crate) struct Versioned<X: DropHere> {
    value: Dropped<X>,
    /// 0: changed since the last version was drawn (or never drawn).
    version: AtomicU64,
}

impl<X: DropHere> Versioned<X> {
    /// Holds `value`, with no version yet.
    pub(crate) fn new(value: X) -> Self {
        Versioned {
            value: Dropped::new(value),
            version: AtomicU64::new(0),
        }
    }

    /// The value's version: the same as the last call's if the value was not reached through
    /// `&mut` since, a new one otherwise. (Two threads that draw at once store one of their
    /// two draws: a cache made under the other finds it out of date, which costs a rebuild,
    /// never a wrong answer.)
    pub(crate) fn version(&self) -> NonZeroU64 {
        let current = self.version.load(Ordering::Relaxed);
        if let Some(version) = NonZeroU64::new(current) {
            return version;
        }
        let drawn = LAST_VERSION.fetch_add(1, Ordering::Relaxed) + 1;
        self.version.store(drawn, Ordering::Relaxed);
        NonZeroU64::new(drawn).expect("2^64 versions are never drawn")
    }
}

impl<X: DropHere> Deref for Versioned<X> {
    type Target = X;

    #[inline]
    fn deref(&self) -> &X {
        &self.value
    }
}

impl<X: DropHere> DerefMut for Versioned<X> {
    /// Clears the version: the caller may change the value.
    #[inline]
    fn deref_mut(&mut self) -> &mut X {
        *self.version.get_mut() = 0;
        &mut self.value
    }
}

impl<X: DropHere> Default for Versioned<X> {
    fn default() -> Self {
        Versioned::new(X::default())
    }
}

impl<X: DropHere + Clone> Clone for Versioned<X> {
    /// The same contents keep the same version.
    fn clone(&self) -> Self {
        Versioned {
            value: self.value.clone(),
            version: AtomicU64::new(self.version.load(Ordering::Relaxed)),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Cleared first: if the value's `clone_from` panics half-way, the old version does not
        // vouch for what is left.
        *self.version.get_mut() = 0;
        self.value.clone_from(&source.value);
        *self.version.get_mut() = source.version.load(Ordering::Relaxed);
    }
}

impl<X: DropHere + core::fmt::Debug> core::fmt::Debug for Versioned<X> {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.value.fmt(formatter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[derive(Clone, Default, Debug, PartialEq)]
    struct Numbers(Vec<u32>);

    impl DropHere for Numbers {
        fn drop_here(value: &mut core::mem::ManuallyDrop<Self>) {
            crate::dropped::drop_value(value);
        }
    }

    #[test]
    fn a_version_holds_until_the_value_is_reached_mutably() {
        let mut numbers = Versioned::new(Numbers(alloc::vec![1, 2]));
        let first = numbers.version();
        assert_eq!(numbers.version(), first);
        assert_eq!(numbers.0.len(), 2); // reading keeps it
        assert_eq!(numbers.version(), first);
        numbers.0.push(3);
        let second = numbers.version();
        assert_ne!(second, first);
        assert_eq!(numbers.version(), second);
    }

    #[test]
    fn equal_versions_mean_equal_contents_across_copies() {
        let mut original = Versioned::new(Numbers(alloc::vec![1]));
        let version = original.version();
        let mut copy = original.clone();
        assert_eq!(copy.version(), version);
        // Each changed its own way: neither may keep or share a version.
        original.0.push(2);
        copy.0.push(3);
        let (a, b) = (original.version(), copy.version());
        assert!(a != version && b != version && a != b);
        // Overwritten in place by the other: its version comes along with its contents.
        copy.clone_from(&original);
        assert_eq!(copy.version(), a);
        // Overwritten through `&mut`: no version vouches for it until one is drawn again.
        *copy = Numbers(alloc::vec![9]);
        assert!(copy.version() != a);
    }

    #[test]
    fn a_taken_value_leaves_a_default_without_its_version() {
        let mut numbers = Versioned::new(Numbers(alloc::vec![4]));
        let version = numbers.version();
        let taken = core::mem::take(&mut numbers);
        assert_eq!(taken.version(), version);
        assert_ne!(numbers.version(), version);
        assert!(numbers.0.is_empty());
    }
}
