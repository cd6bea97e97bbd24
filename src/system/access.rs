//! [`SystemAccess`]: what a system's parameter reads and writes, as bit sets a constant can
//! combine, so two parameters of one system that alias are refused when the program is built.
//! Components are counted per part ([`PartBits`]): a world has one, a multi-world game one per
//! sub-world, whose mask bits overlap (bit 0 of `Core` is not bit 0 of `Render`).

use crate::typed_query::TargetAccess;

/// The most parts (sub-worlds) a game's systems can take parameters from: `ecs!` refuses a game
/// with more.
pub const MAX_PARTS: usize = 8;

/// Component bits per part of a world: `bits[p]` holds part `p`'s mask bits (a world is part
/// 0; a game's sub-worlds are numbered in declaration order). Two sets meet only where one
/// part's bits do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartBits {
    /// Each part's bits.
    pub bits: [u128; MAX_PARTS],
}

impl PartBits {
    /// No component of any part.
    pub const NONE: PartBits = PartBits {
        bits: [0; MAX_PARTS],
    };

    /// `bits` in the part at `part`.
    pub const fn of(part: usize, bits: u128) -> PartBits {
        assert!(
            part < MAX_PARTS,
            "ecs!: a game's systems take parameters from at most 8 sub-worlds"
        );
        let mut set = PartBits::NONE;
        set.bits[part] = bits;
        set
    }

    /// The bits of either set.
    pub const fn or(self, other: PartBits) -> PartBits {
        let mut set = self;
        let mut part = 0;
        while part < MAX_PARTS {
            set.bits[part] |= other.bits[part];
            part += 1;
        }
        set
    }

    /// Whether the two sets share a bit of one part.
    pub const fn meets(self, other: PartBits) -> bool {
        let mut part = 0;
        while part < MAX_PARTS {
            if self.bits[part] & other.bits[part] != 0 {
                return true;
            }
            part += 1;
        }
        false
    }

    /// The bits of the part at `part`.
    pub const fn part(self, part: usize) -> u128 {
        self.bits[part]
    }
}

/// What one system parameter (or a whole system) borrows from the world: components, resources
/// and event channels read or written, and the world's command queue. Bits are the world's own:
/// a component's mask bit in its part ([`PartBits`]), a resource's or an event channel's place
/// in its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemAccess {
    /// Components read.
    pub components_read: PartBits,
    /// Components written.
    pub components_written: PartBits,
    /// Components whose change ticks are written or read (written components, and those of a
    /// change filter): a query's own while it runs beside others.
    pub ticks: PartBits,
    /// Whether the parameter is a query.
    pub query: bool,
    /// The part a query reads (0 in a world; a game's sub-world's place): its `query_include`,
    /// `query_exclude` and `targets` are that part's bits.
    pub query_part: usize,
    /// A query's components an entity must hold (tags left out: they pick rows, not tables),
    /// and the mask's top bit for a query of the disabled entities (`With<Disabled>`).
    pub query_include: u128,
    /// A query's components an entity must not hold, and the mask's top bit for a query that
    /// skips the disabled entities (any without `With<Disabled>` or `Allow<Disabled>`).
    pub query_exclude: u128,
    /// What a query's `Target` terms read from other entities, in tables of their own filter.
    pub targets: Option<TargetAccess>,
    /// Resources read.
    pub resources_read: u128,
    /// Resources written.
    pub resources_written: u128,
    /// Event channels read.
    pub events_read: u128,
    /// Event channels written.
    pub events_written: u128,
    /// Whether the parameter holds the command queue.
    pub commands: bool,
}

impl SystemAccess {
    /// Nothing from the world (a local, the system's ticks).
    pub const NONE: SystemAccess = SystemAccess {
        components_read: PartBits::NONE,
        components_written: PartBits::NONE,
        ticks: PartBits::NONE,
        query: false,
        query_part: 0,
        query_include: 0,
        query_exclude: 0,
        targets: None,
        resources_read: 0,
        resources_written: 0,
        events_read: 0,
        events_written: 0,
        commands: false,
    };

    /// The access of two parameters together.
    pub const fn and(self, other: SystemAccess) -> SystemAccess {
        SystemAccess {
            components_read: self
                .components_read
                .or(other.components_read)
                .or(target_reads(self))
                .or(target_reads(other)),
            components_written: self.components_written.or(other.components_written),
            ticks: self.ticks.or(other.ticks),
            query: self.query || other.query,
            query_part: 0,
            // A system's queries together match whatever one of them matches, and their
            // targets' reads join the reads.
            query_include: 0,
            query_exclude: 0,
            targets: None,
            resources_read: self.resources_read | other.resources_read,
            resources_written: self.resources_written | other.resources_written,
            events_read: self.events_read | other.events_read,
            events_written: self.events_written | other.events_written,
            commands: self.commands || other.commands,
        }
    }

    /// Whether two parameters of one system cannot be handed out together: two queries that may
    /// match one table (of one part, where no component one requires is excluded by the other)
    /// where one writes a component the other reads or writes, or both use one component's
    /// change ticks; one parameter writing a resource or event channel the other borrows; both
    /// taking the command queue.
    pub const fn conflicts_with(self, other: SystemAccess) -> bool {
        let tables_may_overlap = !(self.query
            && other.query
            && (self.query_part != other.query_part
                || (self.query_include & other.query_exclude)
                    | (other.query_include & self.query_exclude)
                    != 0));
        (tables_may_overlap && self.shares_columns_with(other))
            || self.targets_meet_writes_of(other)
            || other.targets_meet_writes_of(self)
            || self.shares_singletons_with(other)
    }

    /// Whether this parameter's `Target` terms read a component `other` (a query of the same
    /// part) writes, in a table both could match. A query compared with itself: whether its
    /// terms read what it writes, in its own tables.
    pub const fn targets_meet_writes_of(self, other: SystemAccess) -> bool {
        match self.targets {
            Some(targets) if other.query && other.query_part == self.query_part => targets.meets(
                other.components_written.part(self.query_part),
                other.query_include,
                other.query_exclude,
            ),
            _ => false,
        }
    }

    /// Whether two systems cannot run at the same time: they use one component (one writing it)
    /// or one component's change ticks, a resource or channel one of them writes, or both the
    /// command queue. Whole systems' access: which tables they match is not compared.
    pub const fn conflicts_with_system(self, other: SystemAccess) -> bool {
        self.shares_columns_with(other) || self.shares_singletons_with(other)
    }

    /// Whether one writes a resource or event channel the other reads or writes, or both take
    /// the command queue.
    const fn shares_singletons_with(self, other: SystemAccess) -> bool {
        overlaps(
            self.resources_read,
            self.resources_written,
            other.resources_read,
            other.resources_written,
        ) || overlaps(
            self.events_read,
            self.events_written,
            other.events_read,
            other.events_written,
        ) || (self.commands && other.commands)
    }

    /// Whether one writes a component the other reads or writes, or both use one component's
    /// change ticks.
    const fn shares_columns_with(self, other: SystemAccess) -> bool {
        self.components_written
            .meets(other.components_read.or(other.components_written))
            || other.components_written.meets(self.components_read)
            || self.ticks.meets(other.ticks)
    }
}

/// The components `access`'s `Target` terms read, in its query's part.
const fn target_reads(access: SystemAccess) -> PartBits {
    match access.targets {
        Some(targets) => PartBits::of(access.query_part, targets.reads),
        None => PartBits::NONE,
    }
}

/// Whether one side writes what the other reads or writes.
const fn overlaps(read: u128, written: u128, other_read: u128, other_written: u128) -> bool {
    written & (other_read | other_written) != 0 || other_written & read != 0
}

/// Which parts a system's queries share with one another (each lent the columns it writes),
/// rather than taking whole: a part two of its queries read, or one whose query has a `Target`
/// term (which reads the part's storage beside the query's written columns).
pub const fn lent_parts(accesses: &[SystemAccess]) -> [bool; MAX_PARTS] {
    let mut queries = [0usize; MAX_PARTS];
    let mut lent = [false; MAX_PARTS];
    let mut index = 0;
    while index < accesses.len() {
        let access = accesses[index];
        if access.query {
            queries[access.query_part] += 1;
            lent[access.query_part] |= queries[access.query_part] > 1 || access.targets.is_some();
        }
        index += 1;
    }
    lent
}

/// The first conflict among a system's parameters, in parameter order: the positions of the
/// two parameters, counted from 1.
pub const fn first_conflict(accesses: &[SystemAccess]) -> Option<(usize, usize)> {
    let mut second = 1;
    while second < accesses.len() {
        let mut first = 0;
        while first < second {
            if accesses[first].conflicts_with(accesses[second]) {
                return Some((first + 1, second + 1));
            }
            first += 1;
        }
        second += 1;
    }
    None
}

/// The first conflict among systems stated to run together ([`together`](crate::together)),
/// in order: the positions of the two systems, counted from 1. A whole-world system (`None`)
/// conflicts with every other, and a system that queues commands must be the last.
pub const fn first_system_conflict(accesses: &[Option<SystemAccess>]) -> Option<(usize, usize)> {
    let mut second = 1;
    while second < accesses.len() {
        let mut first = 0;
        while first < second {
            let clash = match (accesses[first], accesses[second]) {
                (Some(first), Some(second)) => {
                    first.conflicts_with_system(second) || first.commands
                }
                _ => true,
            };
            if clash {
                return Some((first + 1, second + 1));
            }
            first += 1;
        }
        second += 1;
    }
    None
}

/// Literal messages per pair of positions: a constant can panic with one string, not format
/// one.
macro_rules! pair_messages {
    ($first:ident, $second:ident, $head:literal, $tail:literal) => {
        pair_messages!(@pairs $first, $second, $head, $tail,
            (1, 2) (1, 3) (1, 4) (1, 5) (1, 6) (1, 7) (1, 8)
            (2, 3) (2, 4) (2, 5) (2, 6) (2, 7) (2, 8)
            (3, 4) (3, 5) (3, 6) (3, 7) (3, 8)
            (4, 5) (4, 6) (4, 7) (4, 8)
            (5, 6) (5, 7) (5, 8)
            (6, 7) (6, 8)
            (7, 8))
    };
    (@pairs $first:ident, $second:ident, $head:literal, $tail:literal, $( ($a:literal, $b:literal) )*) => {
        match ($first, $second) {
            $( ($a, $b) => concat!($head, $a, " and ", $b, $tail), )*
            _ => concat!($head, "of more than 8", $tail),
        }
    };
}

/// The message of a conflict between the parameters at `first` and `second` (counted from 1;
/// systems take up to 8).
pub const fn conflict_message(first: usize, second: usize) -> &'static str {
    pair_messages!(
        first,
        second,
        "parameters ",
        " of this system conflict: two queries that may match one entity where one writes a \
         component the other reads or writes (exclude from one a component the other \
         requires: `Without<C>`), or that both filter on one component's changes; a \
         `Target` term reading what the other query writes (its own filter must keep them \
         apart); one resource or event channel that one of them writes (`ResMut`, `EventWriter`); or the \
         command queue twice"
    )
}

/// The message of a conflict between the systems at `first` and `second` of a
/// [`together`](crate::together) group (counted from 1).
pub const fn together_message(first: usize, second: usize) -> &'static str {
    pair_messages!(
        first,
        second,
        "systems ",
        " stated to run together conflict: one writes a component, resource or event channel \
         the other reads or writes, both filter on one component's changes, both queue \
         commands, one takes the whole world (`fn(&mut World)`), or the first queues commands \
         (a system that queues commands comes last)"
    )
}

#[cfg(test)]
mod tests;
