//! The command queue's generic half: where queued commands wait ([`CommandQueue`]) and where
//! a queued spawn takes its handles from, the loop that applies them ([`apply_queued`]), and
//! what `apply_commands` reports. The command type itself depends on the component list and is
//! generated (`WorldCommand`), and so are the `queue_*` methods; applying a command is a call
//! to the world's own methods.

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

/// Applies the commands queued in `world` (the queue `queue` picks out of it) in the order
/// queued, each with `apply`, and empties the queue: a world's `apply_commands`. If `apply`
/// panics (a component's `Default` or `Drop`), the commands before are applied and the ones
/// after it go back into the queue, so nothing queued is lost and every handle a queued spawn
/// reserved stays held by it.
#[inline]
pub fn apply_queued<W, C>(
    world: &mut W,
    queue: fn(&mut W) -> &mut Vec<C>,
    mut apply: impl FnMut(&mut W, C, &mut CommandReport),
) -> CommandReport {
    let rest = core::mem::take(queue(world)).into_iter();
    let mut applying = Applying { world, queue, rest };
    let mut report = CommandReport::default();
    while let Some(command) = applying.rest.next() {
        apply(applying.world, command, &mut report);
    }
    report
}

/// The world and the commands [`apply_queued`] has not applied yet. Dropped with commands
/// left only when one panicked: they go back into the queue.
struct Applying<'w, W, C> {
    world: &'w mut W,
    queue: fn(&mut W) -> &mut Vec<C>,
    rest: alloc::vec::IntoIter<C>,
}

impl<W, C> Drop for Applying<'_, W, C> {
    fn drop(&mut self) {
        (self.queue)(self.world).extend(&mut self.rest);
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
