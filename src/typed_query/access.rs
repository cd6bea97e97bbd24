//! [`QueryAccess`]: what a typed query reads and writes, combined element by element at
//! compile time, so a query that borrows a component mutably twice is refused before it runs.

/// The component's index in a mask (the column of its change ticks).
#[inline]
pub(super) const fn bit_index(bit: u128) -> u32 {
    bit.trailing_zeros()
}

/// The components a query reads and writes, as `u128` bit sets (so they can be combined in
/// constants), and whether its elements' borrows conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryAccess {
    /// Components borrowed shared.
    pub reads: u128,
    /// Components borrowed mutably.
    pub writes: u128,
    /// Components a table must hold to match (not the `Option` elements).
    pub required: u128,
    /// Whether a component is borrowed mutably by one element and borrowed again by another.
    pub conflicts: bool,
}

impl QueryAccess {
    /// No component at all (an [`Entity`](crate::Entity) element).
    pub const NONE: QueryAccess = QueryAccess {
        reads: 0,
        writes: 0,
        required: 0,
        conflicts: false,
    };

    /// A shared borrow of `bit`, required or optional.
    pub const fn read(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: bit,
            writes: 0,
            required: if required { bit } else { 0 },
            conflicts: false,
        }
    }

    /// A mutable borrow of `bit`, required or optional.
    pub const fn write(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: 0,
            writes: bit,
            required: if required { bit } else { 0 },
            conflicts: false,
        }
    }

    /// The access of two elements of one query: a conflict if either writes what the other
    /// touches.
    pub const fn and(self, other: QueryAccess) -> QueryAccess {
        let conflicts = self.conflicts
            || other.conflicts
            || self.writes & (other.reads | other.writes) != 0
            || other.writes & self.reads != 0;
        QueryAccess {
            reads: self.reads | other.reads,
            writes: self.writes | other.writes,
            required: self.required | other.required,
            conflicts,
        }
    }
}
