//! The command queue's generic half: where queued commands wait ([`CommandQueue`]) and where
//! a queued spawn takes its handles from, and what `apply_commands` reports. The command type
//! itself depends on the component list and is generated (`WorldCommand`), and so are the
//! `queue_*` methods; applying a command is a call to the world's own methods.

use alloc::vec::Vec;

use crate::entity::{Entity, EntityAllocator, EntityReserver};

/// A world's queued commands, borrowed together with what reserves handles for queued
/// spawns: the allocator itself (the world's `commands()`, nothing else borrowed), a reserver
/// it lent (the command part of `split_mut()`, beside the component part), or nothing (a
/// sub-world of a multi-world, whose entities are spawned by the whole).
pub struct CommandQueue<'a, C> {
    commands: &'a mut Vec<C>,
    reserve: Reserve<'a>,
}

enum Reserve<'a> {
    Allocator(&'a mut EntityAllocator),
    Lent(EntityReserver),
    Nothing,
}

impl<'a, C> CommandQueue<'a, C> {
    /// A queue whose spawns reserve straight from `allocator`.
    #[inline]
    pub fn new(commands: &'a mut Vec<C>, allocator: &'a mut EntityAllocator) -> Self {
        Self {
            commands,
            reserve: Reserve::Allocator(allocator),
        }
    }

    /// A queue whose spawns reserve through `reserver`, while the allocator is borrowed
    /// elsewhere.
    #[inline]
    pub fn lent(commands: &'a mut Vec<C>, reserver: EntityReserver) -> Self {
        Self {
            commands,
            reserve: Reserve::Lent(reserver),
        }
    }

    /// A queue that holds no spawns (a sub-world's: the multi-world spawns).
    #[inline]
    pub fn without_spawns(commands: &'a mut Vec<C>) -> Self {
        Self {
            commands,
            reserve: Reserve::Nothing,
        }
    }

    /// Queues `command` last.
    #[inline]
    pub fn push(&mut self, command: C) {
        self.commands.push(command);
    }

    /// Reserves `count` handles for a queued spawn: not alive until the spawn is applied, and
    /// no other spawn takes their ids.
    ///
    /// # Panics
    /// On a queue made by [`without_spawns`](Self::without_spawns) (generated code never
    /// calls it there).
    #[inline]
    pub fn reserve(&mut self, count: usize) -> Vec<Entity> {
        match &mut self.reserve {
            Reserve::Allocator(allocator) => (0..count).map(|_| allocator.reserve()).collect(),
            Reserve::Lent(reserver) => reserver.reserve(count),
            Reserve::Nothing => panic!("a sub-world's command queue holds no spawns"),
        }
    }
}

/// How many queued commands `apply_commands` applied and how many it skipped because their
/// entity was no longer alive (or never spawned).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CommandReport {
    /// Commands that took effect.
    pub applied: usize,
    /// Commands skipped, never a panic: their target died before they were applied.
    pub skipped: usize,
}

impl CommandReport {
    /// Counts one command.
    pub fn record(&mut self, applied: bool) {
        if applied {
            self.applied += 1;
        } else {
            self.skipped += 1;
        }
    }

    /// Adds another report's counts to this one (a multi-world sums its sub-worlds').
    pub fn absorb(&mut self, other: CommandReport) {
        self.applied += other.applied;
        self.skipped += other.skipped;
    }

    /// Number of commands counted.
    pub fn total(&self) -> usize {
        self.applied + self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_applied_and_skipped() {
        let mut report = CommandReport::default();
        report.record(true);
        report.record(false);
        report.record(true);
        assert_eq!(
            report,
            CommandReport {
                applied: 2,
                skipped: 1
            }
        );
        assert_eq!(report.total(), 3);
    }

    #[test]
    fn absorb_adds_both_counts() {
        let mut report = CommandReport {
            applied: 2,
            skipped: 1,
        };
        report.absorb(CommandReport {
            applied: 3,
            skipped: 4,
        });
        assert_eq!(report.applied, 5);
        assert_eq!(report.skipped, 5);
    }
}
