//! [`Mut`]: what a typed query's `&mut C` element hands out. Reading through it stamps nothing;
//! the first mutable dereference stamps the row's change tick, so change detection reports the
//! rows a system wrote and only those (bevy's `Mut<T>` works the same way).

use core::cell::Cell;
use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::change_ticks::RowStamps;
use crate::tick::Tick;

/// A mutable borrow of one component of one row that records writes: [`DerefMut`] (`*health =
/// ..`, `health.0 -= 1`, `position.x += ..`, a `&mut self` method) stamps the row as changed at
/// the world's current tick; [`Deref`] (reads) does not.
///
/// Pass it on as `&mut C` with `&mut *guard` (a write borrow: stamps) or
/// [`into_inner`](Self::into_inner); write without reporting with
/// [`bypass_change_detection`](Self::bypass_change_detection).
pub struct Mut<'a, C> {
    value: &'a mut C,
    stamp: Stamp<'a>,
    tick: Tick,
}

/// Where a guard records a write.
#[derive(Clone, Copy)]
enum Stamp<'a> {
    /// An `[untracked]` component: nowhere.
    Untracked,
    /// The row's stamps.
    Row(&'a Cell<RowStamps>),
    /// The row's bit in its chunk's written-rows word: a typed query's `for_each` turns the
    /// word into row stamps once per chunk of 64 rows, or into one column stamp when every
    /// row of the table was written (so writing every row costs an `or` per row, not a store).
    Chunk(&'a Cell<u64>, u64),
}

impl<'a, C> Mut<'a, C> {
    /// A guard over `value` whose writes set the write stamp of `stamp` to `tick` (`None`:
    /// never stamped).
    #[inline]
    pub fn new(value: &'a mut C, stamp: Option<&'a Cell<RowStamps>>, tick: Tick) -> Self {
        let stamp = match stamp {
            Some(stamp) => Stamp::Row(stamp),
            None => Stamp::Untracked,
        };
        Mut { value, stamp, tick }
    }

    /// A guard over `value` whose writes set `bit` in `written` (the rows of a chunk written
    /// so far), for the caller to stamp later.
    #[doc(hidden)]
    #[inline]
    pub fn in_chunk(value: &'a mut C, written: &'a Cell<u64>, bit: u64, tick: Tick) -> Self {
        Mut {
            value,
            stamp: Stamp::Chunk(written, bit),
            tick,
        }
    }

    /// Stamps the row as changed without writing.
    #[inline]
    pub fn set_changed(&mut self) {
        match self.stamp {
            Stamp::Untracked => {}
            Stamp::Row(stamp) => stamp.set(stamp.get().written_at(self.tick)),
            Stamp::Chunk(written, bit) => written.set(written.get() | bit),
        }
    }

    /// The plain `&mut C`, for a function that takes one; the row is stamped as changed (the
    /// borrow can write, and nothing would see it).
    #[inline]
    pub fn into_inner(mut self) -> &'a mut C {
        self.set_changed();
        self.value
    }

    /// `&mut C` without stamping: a write through it is not reported as a change (for
    /// bookkeeping a change-detecting reader should not see).
    #[inline]
    pub fn bypass_change_detection(&mut self) -> &mut C {
        self.value
    }

    /// A shorter-lived guard over the same value and stamp (to hand to a function taking
    /// `Mut<C>` while keeping this one).
    #[inline]
    pub fn reborrow(&mut self) -> Mut<'_, C> {
        Mut {
            value: self.value,
            stamp: self.stamp,
            tick: self.tick,
        }
    }

    /// Whether a write through this guard (or an earlier one over the same row in this tick)
    /// has stamped the row at the current tick. Always `false` for an `[untracked]` component.
    #[inline]
    pub fn is_changed(&self) -> bool {
        match self.stamp {
            Stamp::Untracked => false,
            Stamp::Row(stamp) => stamp.get().changed == self.tick,
            Stamp::Chunk(written, bit) => written.get() & bit != 0,
        }
    }
}

impl<C> Deref for Mut<'_, C> {
    type Target = C;

    #[inline]
    fn deref(&self) -> &C {
        self.value
    }
}

impl<C> DerefMut for Mut<'_, C> {
    #[inline]
    fn deref_mut(&mut self) -> &mut C {
        self.set_changed();
        self.value
    }
}

impl<C> AsRef<C> for Mut<'_, C> {
    #[inline]
    fn as_ref(&self) -> &C {
        self.value
    }
}

impl<C: fmt::Debug> fmt::Debug for Mut<'_, C> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(formatter)
    }
}

impl<C: PartialEq> PartialEq<C> for Mut<'_, C> {
    fn eq(&self, other: &C) -> bool {
        *self.value == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn reads_do_not_stamp_writes_do() {
        let stamp = Cell::new(RowStamps::at(Tick(1)));
        let mut value = 5;
        let mut guard = Mut::new(&mut value, Some(&stamp), Tick(7));
        assert_eq!(*guard + 1, 6);
        assert_eq!(guard, 5);
        assert!(!guard.is_changed());
        assert_eq!(stamp.get().changed, Tick(1), "a read");
        *guard.bypass_change_detection() = 6;
        assert_eq!(stamp.get().changed, Tick(1), "bypassed");
        *guard += 1;
        assert_eq!(stamp.get().changed, Tick(7));
        assert_eq!(stamp.get().added, Tick(1), "a write keeps the added stamp");
        assert!(guard.is_changed());
        assert_eq!(value, 7);
    }

    #[test]
    fn into_inner_and_reborrow_stamp() {
        let stamp = Cell::new(RowStamps::at(Tick(1)));
        let mut value = String::new();
        let mut guard = Mut::new(&mut value, Some(&stamp), Tick(3));
        fn append(mut text: Mut<'_, String>) {
            text.push('a');
        }
        append(guard.reborrow());
        assert_eq!(stamp.get().changed, Tick(3));
        stamp.set(RowStamps::at(Tick(1)));
        guard.into_inner().push('b');
        assert_eq!(stamp.get().changed, Tick(3));
        assert_eq!(value, "ab");
    }

    #[test]
    fn chunk_guards_set_their_bit() {
        let written = Cell::new(0b100);
        let mut value = 1;
        let mut guard = Mut::in_chunk(&mut value, &written, 0b1, Tick(3));
        assert!(!guard.is_changed());
        let _ = *guard;
        assert_eq!(written.get(), 0b100, "a read");
        *guard = 2;
        assert!(guard.is_changed());
        assert_eq!(written.get(), 0b101);
    }

    #[test]
    fn untracked_guards_never_stamp() {
        let mut value = 1u8;
        let mut guard = Mut::new(&mut value, None, Tick(3));
        *guard = 2;
        guard.set_changed();
        assert!(!guard.is_changed());
        assert_eq!(value, 2);
    }
}
