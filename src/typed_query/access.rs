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
    /// What its `Target` terms read from other entities (their rows' relation targets).
    pub targets: Option<TargetAccess>,
}

/// What a query's `Target` terms read from its rows' relation targets: components, in the
/// tables of the entities that hold every component of `include` and none of `exclude`. A
/// target's row is read through the shared storage, so these reads are compared with what
/// is written, table by table, apart from the query's own rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetAccess {
    /// Components read from targets.
    pub reads: u128,
    /// Components a target must hold to be read.
    pub include: u128,
    /// Components a target must not hold to be read.
    pub exclude: u128,
}

impl TargetAccess {
    /// The reads of two terms: each term's filter holds only for its own reads, so what the
    /// two share is all that can be relied on.
    pub const fn or(self, other: TargetAccess) -> TargetAccess {
        TargetAccess {
            reads: self.reads | other.reads,
            include: self.include & other.include,
            exclude: self.exclude & other.exclude,
        }
    }

    /// Whether this reads a component that `written` holds, in a table of a query matching
    /// `include` / `exclude` (a table both could match: neither excludes what the other
    /// requires).
    pub const fn meets(self, written: u128, include: u128, exclude: u128) -> bool {
        self.reads & written != 0 && (self.include & exclude) | (include & self.exclude) == 0
    }

    /// Either side's reads, or both combined.
    pub const fn either(
        first: Option<TargetAccess>,
        second: Option<TargetAccess>,
    ) -> Option<TargetAccess> {
        match (first, second) {
            (Some(first), Some(second)) => Some(first.or(second)),
            (Some(only), None) | (None, Some(only)) => Some(only),
            (None, None) => None,
        }
    }
}

impl QueryAccess {
    /// No component at all (an [`Entity`](crate::Entity) element).
    pub const NONE: QueryAccess = QueryAccess {
        reads: 0,
        writes: 0,
        required: 0,
        conflicts: false,
        targets: None,
    };

    /// A shared borrow of `bit`, required or optional.
    pub const fn read(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: bit,
            writes: 0,
            required: if required { bit } else { 0 },
            conflicts: false,
            targets: None,
        }
    }

    /// A mutable borrow of `bit`, required or optional.
    pub const fn write(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: 0,
            writes: bit,
            required: if required { bit } else { 0 },
            conflicts: false,
            targets: None,
        }
    }

    /// Panics, in the constant a query's loops evaluate when the program is built, if the
    /// elements' borrows conflict: one message for every loop of every query form.
    pub const fn assert_borrows(self) {
        assert!(
            !self.conflicts,
            "a typed query borrows a component mutably twice, or mutably and shared at once"
        );
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
            targets: TargetAccess::either(self.targets, other.targets),
        }
    }
}
