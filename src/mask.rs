//! Component masks: one bit per component (and per tag), `u64` up to 63 bits, `u128` up to 127
//! (the top bit marks the tables of disabled entities: [`Bitmask::DISABLED`]).
//!
//! `ecs!` picks the width at compile time through [`MaskWidth`], so a world's mask constants stay
//! plain integers (`0`, `POSITION | VELOCITY`) and the runtime is generic over [`Bitmask`].
//!
//! Generic code is compiled in the game's crate, for its world; code that needs no more of the
//! world than its mask would be compiled there too, once per world, although there are only
//! two mask types. So the module that owns such code writes it as two functions that are not
//! generic, one per width (`at_u64::f`, `at_u128::f`), compiled here once each, and generic
//! code calls the one for its mask, which [`Bitmask::pick`] chooses: a game's crate compiles
//! the call alone.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// The width of the widest mask: a world declares one bit fewer (components, tags and
/// relations), the top bit marking disabled entities' tables ([`Bitmask::DISABLED`]).
pub const MAX_MASK_BITS: usize = 128;

/// An unsigned integer used as a set of component bits: `u64` or `u128`, the only two a world's
/// mask can be, and the only two that implement it (the runtime compiles its code over the
/// mask once for each, see `pick`; no other crate can name that method's trait, so none can
/// implement it).
pub trait Bitmask:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// The set of every bit.
    const ALL: Self;
    /// How many bits the type holds.
    const CAPACITY: u32;
    /// The top bit, which no component, tag or relation takes: set in the mask of the tables
    /// that hold disabled entities (a world's `DISABLED`), so every query that does not ask for
    /// it skips them when it matches tables. In a query's include mask it asks for the
    /// disabled entities only; in both its include and its exclude mask
    /// (`for_each(POSITION | DISABLED, DISABLED, ..)`), for enabled and disabled alike.
    const DISABLED: Self;

    /// The set holding only bit `index`.
    fn bit(index: u32) -> Self;
    /// Number of bits set.
    fn count_ones(self) -> u32;
    /// Index of the lowest bit set (`CAPACITY` when empty).
    fn trailing_zeros(self) -> u32;
    /// The mask folded into 64 bits, for hashing.
    fn fold_to_u64(self) -> u64;
    /// Whether exactly one bit is set (cheaper than `count_ones() == 1` without `popcnt`).
    fn is_single_bit(self) -> bool;
    /// The set without its lowest bit (`self & (self - 1)`; empty stays empty).
    fn without_lowest_bit(self) -> Self;
    /// The same bits in a `u128`: the key of the mask-keyed maps, whose code is then written
    /// (and compiled) once for both widths, in this crate rather than in every game's.
    fn widen(self) -> u128;
    /// The bits of `wide` that fit this type (all of them for a mask made by
    /// [`widen`](Self::widen)).
    fn narrow(wide: u128) -> Self;
    /// Of `at_u64` and `at_u128`, one value written for each mask width (a function that is
    /// not generic, compiled once per width in this crate), the one for this mask: generic
    /// code calls through it, and the choice folds away in every instance.
    #[doc(hidden)]
    fn pick<F: OverMask>(at_u64: F::Of<u64>, at_u128: F::Of<u128>) -> F::Of<Self>;

    /// Whether every bit of `other` is set in `self`.
    #[inline]
    fn contains(self, other: Self) -> bool {
        self & other == other
    }

    /// Whether `self` and `other` share a bit.
    #[inline]
    fn intersects(self, other: Self) -> bool {
        self & other != Self::EMPTY
    }

    /// Whether `self` (a table's or a row's mask) passes a query filter: every bit of
    /// `include` set and none of `exclude`.
    #[inline]
    fn matches(self, include: Self, exclude: Self) -> bool {
        self.contains(include) && !self.intersects(exclude)
    }

    /// Whether no bit is set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// The indices of the bits set, lowest first.
    #[inline]
    fn bits(self) -> Bits<Self> {
        Bits { remaining: self }
    }
}

macro_rules! impl_bitmask {
    ($($int:ty => |$at_u64:pat_param, $at_u128:pat_param| $picked:ident),*) => {$(
        impl Bitmask for $int {
            const EMPTY: Self = 0;
            const ALL: Self = <$int>::MAX;
            const CAPACITY: u32 = <$int>::BITS;
            const DISABLED: Self = 1 << (<$int>::BITS - 1);

            #[inline]
            fn bit(index: u32) -> Self {
                1 << index
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$int>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$int>::trailing_zeros(self)
            }
            #[inline]
            fn fold_to_u64(self) -> u64 {
                (self as u128 ^ (self as u128 >> 64)) as u64
            }
            #[inline]
            fn is_single_bit(self) -> bool {
                self.is_power_of_two()
            }
            #[inline]
            fn without_lowest_bit(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn widen(self) -> u128 {
                self as u128
            }
            #[inline]
            fn narrow(wide: u128) -> Self {
                wide as $int
            }
            #[inline]
            fn pick<F: OverMask>($at_u64: F::Of<u64>, $at_u128: F::Of<u128>) -> F::Of<Self> {
                $picked
            }
        }
    )*};
}

impl_bitmask!(u64 => |at_u64, _| at_u64, u128 => |_, at_u128| at_u128);

/// A type over a mask, named without it: `F::Of<M>` is, for one `F`, the type of a function
/// over `M` (`fn(&mut EdgeGraph<M>, M, &TableLookup) -> usize`). What [`Bitmask::pick`] picks
/// between.
pub trait OverMask {
    /// The type over the mask `M`.
    type Of<M: Bitmask>;
}

/// Declares, for each `Name = a type written with the mask M;` (docs first), `Name`: that type
/// named without its mask (an [`OverMask`]), for [`Bitmask::pick`].
macro_rules! over_mask {
    ($($(#[$doc:meta])* $name:ident = $over:ty;)*) => {$(
        $(#[$doc])*
        enum $name {}

        impl $crate::mask::OverMask for $name {
            type Of<M: $crate::mask::Bitmask> = $over;
        }
    )*};
}

pub(crate) use over_mask;

/// Iterator over the indices of the bits set in a mask, lowest first.
#[derive(Clone, Debug)]
pub struct Bits<M> {
    remaining: M,
}

impl<M: Bitmask> Iterator for Bits<M> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.remaining.is_empty() {
            return None;
        }
        let index = self.remaining.trailing_zeros();
        self.remaining = self.remaining.without_lowest_bit();
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.remaining.count_ones() as usize;
        (count, Some(count))
    }
}

/// Chooses a world's mask type: `MaskWidth<true>` (63 bits or fewer, the top bit kept for
/// [`Bitmask::DISABLED`]) is `u64`, `MaskWidth<false>` is `u128`.
///
/// Generated code writes `<MaskWidth<{ BITS < 64 }> as SelectMask>::Mask`.
pub struct MaskWidth<const FITS_IN_U64: bool>;

/// See [`MaskWidth`].
pub trait SelectMask {
    /// The chosen mask type.
    type Mask: Bitmask;
}

impl SelectMask for MaskWidth<true> {
    type Mask = u64;
}

impl SelectMask for MaskWidth<false> {
    type Mask = u128;
}

/// The mask bit of index `index`, as a `u128` (0 past bit 127): the generated mask constants
/// cast it to the world's mask type, which drops it past that type's width (`ecs!`'s own check
/// then reports the world as too wide, in its words, rather than an overflow).
#[doc(hidden)]
pub const fn mask_bit(index: u32) -> u128 {
    match 1u128.checked_shl(index) {
        Some(bit) => bit,
        None => 0,
    }
}

/// Every bit below `count`, as a `u128` (all of them from 128 up); cast to a `u64` mask, every
/// bit from 64 up.
#[doc(hidden)]
pub const fn low_bits(count: u32) -> u128 {
    match mask_bit(count) {
        0 => !0,
        past_last => past_last - 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_bits_and_low_bits_cast_to_either_width() {
        assert_eq!(mask_bit(0), 1);
        assert_eq!(mask_bit(127), 1 << 127);
        assert_eq!(mask_bit(128), 0, "past u128");
        assert_eq!(mask_bit(64) as u64, 0, "past u64 once cast");
        assert_eq!(low_bits(0), 0);
        assert_eq!(low_bits(3), 0b111);
        assert_eq!(low_bits(128), !0);
        assert_eq!(low_bits(64) as u64, !0);
        assert_eq!(low_bits(70) as u64, !0, "every u64 bit once cast");
        assert_eq!(low_bits(70), (1 << 70) - 1);
    }
    use alloc::vec::Vec;

    #[test]
    fn set_operations() {
        let a: u64 = 0b0101;
        assert!(a.contains(0b0100));
        assert!(!a.contains(0b0110));
        assert!(a.intersects(0b0110));
        assert!(!a.intersects(0b1010));
        assert!(a.matches(0b0100, 0b1010));
        assert!(!a.matches(0b0110, 0));
        assert!(!a.matches(0b0001, 0b0100));
        assert!(0u64.is_empty());
        assert!(0b100u64.is_single_bit());
        assert!(!0b101u64.is_single_bit());
        assert!(!0u128.is_single_bit());
        assert!((1u128 << 100).is_single_bit());
        assert_eq!(<u64 as Bitmask>::bit(3), 8);
        assert_eq!(<u128 as Bitmask>::bit(127), 1u128 << 127);
        assert_eq!(0b1100u64.without_lowest_bit(), 0b1000);
        assert_eq!((1u128 << 127 | 1 << 64).without_lowest_bit(), 1 << 127);
        assert_eq!(0u64.without_lowest_bit(), 0);
    }

    #[test]
    fn bits_lists_set_indices_in_order() {
        let mask: u128 = (1 << 0) | (1 << 5) | (1 << 64) | (1 << 127);
        assert_eq!(mask.bits().collect::<Vec<_>>(), vec![0, 5, 64, 127]);
        assert_eq!(mask.bits().size_hint(), (4, Some(4)));
        assert_eq!(0u64.bits().count(), 0);
    }

    #[test]
    fn widening_and_narrowing_round_trip() {
        assert_eq!((1u64 << 63).widen(), 1u128 << 63);
        assert_eq!(u64::narrow((1u64 << 63).widen()), 1 << 63);
        let wide: u128 = 1 << 127 | 1;
        assert_eq!(u128::narrow(wide.widen()), wide);
    }

    #[test]
    fn folding_keeps_high_bits_distinct() {
        let low: u128 = 1;
        let high: u128 = 1 << 70;
        assert_ne!(low.fold_to_u64(), high.fold_to_u64());
        assert_eq!(7u64.fold_to_u64(), 7);
    }

    #[test]
    fn width_selection() {
        fn width<M: Bitmask>() -> u32 {
            M::CAPACITY
        }
        assert_eq!(width::<<MaskWidth<true> as SelectMask>::Mask>(), 64);
        assert_eq!(width::<<MaskWidth<false> as SelectMask>::Mask>(), 128);
    }
}
