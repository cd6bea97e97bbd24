//! [`SystemAccess`]: what a system's parameter reads and writes, as bit sets a constant can
//! combine, so two parameters of one system that alias are refused when the program is built.

/// What one system parameter (or a whole system) borrows from the world: components, resources
/// and event channels read or written, and the world's command queue. Bits are the world's own:
/// a component's mask bit, a resource's or an event channel's place in its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemAccess {
    /// Components read.
    pub components_read: u128,
    /// Components written.
    pub components_written: u128,
    /// Whether the parameter borrows the component storage (a query): a system lends it to one
    /// query, so two queries of one system conflict whatever they read.
    pub storage: bool,
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
        components_read: 0,
        components_written: 0,
        storage: false,
        resources_read: 0,
        resources_written: 0,
        events_read: 0,
        events_written: 0,
        commands: false,
    };

    /// The access of two parameters together.
    pub const fn and(self, other: SystemAccess) -> SystemAccess {
        SystemAccess {
            components_read: self.components_read | other.components_read,
            components_written: self.components_written | other.components_written,
            storage: self.storage || other.storage,
            resources_read: self.resources_read | other.resources_read,
            resources_written: self.resources_written | other.resources_written,
            events_read: self.events_read | other.events_read,
            events_written: self.events_written | other.events_written,
            commands: self.commands || other.commands,
        }
    }

    /// Whether two parameters of one system cannot be handed out together: both are queries
    /// (a system lends the storage to one), one writes a resource or event channel the other
    /// borrows, or both take the command queue.
    pub const fn conflicts_with(self, other: SystemAccess) -> bool {
        (self.storage && other.storage)
            || overlaps(
                self.resources_read,
                self.resources_written,
                other.resources_read,
                other.resources_written,
            )
            || overlaps(
                self.events_read,
                self.events_written,
                other.events_read,
                other.events_written,
            )
            || (self.commands && other.commands)
    }
}

/// Whether one side writes what the other reads or writes.
const fn overlaps(read: u128, written: u128, other_read: u128, other_written: u128) -> bool {
    written & (other_read | other_written) != 0 || other_written & read != 0
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

/// The message of a conflict between the parameters at `first` and `second` (counted from 1;
/// systems take up to 8): a constant can panic with one string, not format one.
pub const fn conflict_message(first: usize, second: usize) -> &'static str {
    macro_rules! messages {
        ($( ($a:literal, $b:literal) )*) => {
            match (first, second) {
                $( ($a, $b) => concat!(
                    "parameters ", $a, " and ", $b, " of this system conflict: they are two \
                     queries (a system takes one `Query`: put every element in it), or borrow one \
                     resource or event channel that one of them writes (`ResMut`, `EventWriter`), \
                     or both take the command queue"
                ), )*
                _ => "two parameters of this system conflict",
            }
        };
    }
    messages! {
        (1, 2) (1, 3) (1, 4) (1, 5) (1, 6) (1, 7) (1, 8)
        (2, 3) (2, 4) (2, 5) (2, 6) (2, 7) (2, 8)
        (3, 4) (3, 5) (3, 6) (3, 7) (3, 8)
        (4, 5) (4, 6) (4, 7) (4, 8)
        (5, 6) (5, 7) (5, 8)
        (6, 7) (6, 8)
        (7, 8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const READ_A: SystemAccess = SystemAccess {
        resources_read: 1,
        ..SystemAccess::NONE
    };
    const WRITE_A: SystemAccess = SystemAccess {
        resources_written: 1,
        ..SystemAccess::NONE
    };
    const WRITE_B: SystemAccess = SystemAccess {
        resources_written: 2,
        ..SystemAccess::NONE
    };
    const QUERY: SystemAccess = SystemAccess {
        components_read: 4,
        storage: true,
        ..SystemAccess::NONE
    };

    #[test]
    fn two_reads_share_and_a_write_conflicts() {
        assert!(!READ_A.conflicts_with(READ_A));
        assert!(READ_A.conflicts_with(WRITE_A));
        assert!(WRITE_A.conflicts_with(READ_A));
        assert!(!WRITE_A.conflicts_with(WRITE_B));
        assert!(QUERY.conflicts_with(QUERY), "one query per system");
        assert!(!QUERY.conflicts_with(WRITE_A));
        let events = SystemAccess {
            events_written: 8,
            ..SystemAccess::NONE
        };
        let reader = SystemAccess {
            events_read: 8,
            ..SystemAccess::NONE
        };
        assert!(events.conflicts_with(reader));
        assert!(!reader.conflicts_with(reader), "two readers of one channel");
        let commands = SystemAccess {
            commands: true,
            ..SystemAccess::NONE
        };
        assert!(commands.conflicts_with(commands));
    }

    #[test]
    fn the_first_conflict_names_its_parameters() {
        assert_eq!(first_conflict(&[READ_A, WRITE_B, QUERY]), None);
        let (first, second) = first_conflict(&[WRITE_B, READ_A, QUERY, WRITE_A]).unwrap();
        assert_eq!((first, second), (2, 4));
        assert!(conflict_message(first, second).starts_with("parameters 2 and 4 of this system"));
        assert!(conflict_message(7, 8).starts_with("parameters 7 and 8 "));
        let combined = READ_A.and(WRITE_B).and(QUERY);
        assert_eq!(
            (
                combined.resources_read,
                combined.resources_written,
                combined.storage
            ),
            (1, 2, true)
        );
    }
}
