//! Where a world's queued commands wait: [`CommandBuffer`], the commands in order and the
//! values of the queued spawns they refer to, kept between frames; and [`StagedSpawns`], the
//! values `apply_commands` has not spawned yet, from which each spawn command takes its own.

use alloc::vec::{Drain, Vec};

use super::CommandReport;
use crate::Entity;

/// A world's queued commands, in order, and the handles and values of its queued spawns
/// with values (`queue_spawn`), in the order queued: a spawn command says only how many of
/// them it spawns. Applying empties both and keeps their memory, so a game that queues
/// spawns every frame allocates for them once. `world.queued_commands()` shows it:
/// it dereferences to the commands, and [`spawns`](Self::spawns) lists the staged values.
/// `V` is the world's `EntityBuilder` (`()` for a sub-world, whose queue spawns nothing).
pub struct CommandBuffer<C, V = ()> {
    commands: Vec<C>,
    spawned: Vec<Entity>,
    values: Vec<V>,
}

impl<C, V> Default for CommandBuffer<C, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C, V> CommandBuffer<C, V> {
    /// An empty buffer (it allocates nothing).
    pub const fn new() -> Self {
        Self {
            commands: Vec::new(),
            spawned: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Each queued spawn with values, in the order queued: its reserved handle and the
    /// builder it was given.
    pub fn spawns(&self) -> impl ExactSizeIterator<Item = (Entity, &V)> {
        self.spawned.iter().copied().zip(&self.values)
    }

    /// Drops every command and staged value, keeping the memory.
    #[doc(hidden)]
    pub fn clear(&mut self) {
        self.commands.clear();
        self.spawned.clear();
        self.values.clear();
    }

    /// Queues `command` last.
    pub(crate) fn push(&mut self, command: C) {
        self.commands.push(command);
    }

    /// The last command, to extend a run of spawns.
    pub(crate) fn last_mut(&mut self) -> Option<&mut C> {
        self.commands.last_mut()
    }

    /// Stages the values of a queued spawn, after the ones already staged.
    pub(crate) fn stage(&mut self, entity: Entity, values: V) {
        self.spawned.push(entity);
        self.values.push(values);
    }

    fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.spawned.is_empty()
    }
}

impl<C, V> core::ops::Deref for CommandBuffer<C, V> {
    type Target = [C];

    /// The queued commands, in order.
    fn deref(&self) -> &[C] {
        &self.commands
    }
}

/// The staged spawns [`apply_queued`] has not spawned yet, in the order queued: each spawn
/// command takes the next ones.
pub struct StagedSpawns<'a, V> {
    spawned: &'a [Entity],
    values: Drain<'a, V>,
}

impl<'a, V> StagedSpawns<'a, V> {
    /// The next `count` staged spawns: their handles, and their values, in order. Values the
    /// caller does not take (it panicked, or skipped a handle) are dropped with the iterator,
    /// so the next command starts at its own.
    pub(crate) fn take(&mut self, count: usize) -> (&'a [Entity], TakenValues<'_, 'a, V>) {
        let (taken, rest) = self.spawned.split_at(count.min(self.spawned.len()));
        self.spawned = rest;
        let values = TakenValues {
            values: &mut self.values,
            left: taken.len(),
        };
        (taken, values)
    }
}

/// The values of the spawns [`StagedSpawns::take`] took, by value; the rest are dropped with
/// it.
pub(crate) struct TakenValues<'t, 'a, V> {
    values: &'t mut Drain<'a, V>,
    left: usize,
}

impl<V> Iterator for TakenValues<'_, '_, V> {
    type Item = V;

    #[inline]
    fn next(&mut self) -> Option<V> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.values.next()
    }
}

impl<V> Drop for TakenValues<'_, '_, V> {
    fn drop(&mut self) {
        // A plain loop over `next`, which is compiled anyway (not `for_each`'s fold).
        for value in self.by_ref() {
            drop(value);
        }
    }
}

/// Applies the commands queued in `world` (the buffer `queue` picks out of it) in the order
/// queued, each with `apply` (which a spawn command takes its staged values from), and
/// empties the buffer: a world's `apply_commands`. If `apply` panics (a component's
/// `Default` or `Drop`), the commands before are applied and the ones after it go back into
/// the buffer with their staged values, so nothing queued is lost and every handle a queued
/// spawn reserved stays held by it.
#[inline]
pub fn apply_queued<W, C, V>(
    world: &mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C, V>,
    mut apply: impl FnMut(&mut W, C, &mut StagedSpawns<'_, V>, &mut CommandReport),
) -> CommandReport {
    let mut report = CommandReport::default();
    // The schedule applies after every system, mostly with nothing queued.
    if queue(world).is_empty() {
        return report;
    }
    let mut taken = core::mem::take(queue(world));
    let mut applying = Applying {
        world: &mut *world,
        queue,
        rest: taken.commands.drain(..),
        staged: StagedSpawns {
            spawned: &taken.spawned,
            values: taken.values.drain(..),
        },
    };
    for command in applying.rest.by_ref() {
        apply(applying.world, command, &mut applying.staged, &mut report);
    }
    drop(applying);
    // The emptied buffers go back, so a game queueing every frame allocates once.
    let emptied = queue(world);
    if emptied.is_empty() {
        taken.spawned.clear();
        *emptied = taken;
    }
    report
}

/// The world and what [`apply_queued`] has not applied yet. Dropped with commands left only
/// when one panicked: they go back into the buffer, with the values staged for them.
struct Applying<'w, 'c, W, C, V> {
    world: &'w mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C, V>,
    rest: Drain<'c, C>,
    staged: StagedSpawns<'c, V>,
}

impl<W, C, V> Drop for Applying<'_, '_, W, C, V> {
    fn drop(&mut self) {
        // Pushed one by one: the drains' `next` and the vectors' `push` are compiled anyway,
        // an `extend` from a drain would be one more instantiation per world (this runs only
        // after a panic).
        let buffer = (self.queue)(self.world);
        for command in &mut self.rest {
            buffer.commands.push(command);
        }
        buffer.spawned.extend_from_slice(self.staged.spawned);
        for values in &mut self.staged.values {
            buffer.values.push(values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in world for [`apply_queued`]: a buffer of commands (a number, or a spawn
    /// command `Spawn(n)` taking `n` staged values), and what applying saw.
    #[derive(Default)]
    struct Counter {
        queue: CommandBuffer<Command, u32>,
        applied: Vec<u32>,
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Command {
        Number(u32),
        Spawn(usize),
    }

    fn apply_all(counter: &mut Counter, panic_at: Option<u32>) -> CommandReport {
        apply_queued(
            counter,
            |counter| &mut counter.queue,
            |counter, command, staged, report| match command {
                Command::Number(number) => {
                    assert_ne!(Some(number), panic_at, "a command that panics");
                    counter.applied.push(number);
                    report.record(number % 2 == 0);
                }
                Command::Spawn(count) => {
                    let (entities, values) = staged.take(count);
                    assert_eq!(entities.len(), count);
                    for value in values {
                        assert_ne!(Some(value), panic_at, "a spawn that panics");
                        counter.applied.push(value);
                        report.record(true);
                    }
                }
            },
        )
    }

    fn queue(counter: &mut Counter, commands: &[Command]) {
        let mut next = 100;
        for &command in commands {
            if let Command::Spawn(count) = command {
                for _ in 0..count {
                    counter.queue.stage(Entity::new(next, 0), next);
                    next += 1;
                }
            }
            counter.queue.push(command);
        }
    }

    /// The values staged in the counter's buffer, in order.
    fn staged_values(counter: &Counter) -> Vec<u32> {
        counter.queue.spawns().map(|(_, &value)| value).collect()
    }

    #[test]
    fn apply_queued_applies_in_order_and_empties_the_queue() {
        let mut counter = Counter::default();
        queue(
            &mut counter,
            &[Command::Number(4), Command::Spawn(2), Command::Number(1)],
        );
        assert_eq!(staged_values(&counter), [100, 101]);
        let report = apply_all(&mut counter, None);
        assert_eq!(counter.applied, vec![4, 100, 101, 1]);
        assert!(counter.queue.is_empty());
        assert_eq!((report.applied, report.skipped), (3, 1));
    }

    #[test]
    fn apply_queued_keeps_the_emptied_buffers() {
        let mut counter = Counter::default();
        queue(&mut counter, &[Command::Spawn(40), Command::Number(2)]);
        apply_all(&mut counter, None);
        let kept = (
            counter.queue.commands.capacity(),
            counter.queue.values.capacity(),
        );
        assert!(kept.0 >= 1 && kept.1 >= 40, "kept {kept:?}");
    }

    #[test]
    fn apply_queued_puts_the_commands_after_a_panic_back() {
        let mut counter = Counter::default();
        queue(
            &mut counter,
            &[
                Command::Number(1),
                Command::Spawn(3),
                Command::Number(3),
                Command::Spawn(2),
            ],
        );
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            apply_all(&mut counter, Some(101))
        }));
        assert!(unwound.is_err());
        assert_eq!(counter.applied, vec![1, 100], "applied before the panic");
        assert_eq!(&counter.queue[..], [Command::Number(3), Command::Spawn(2)]);
        assert_eq!(
            staged_values(&counter),
            [103, 104],
            "the panicking spawn's values are dropped, the later ones kept for their command"
        );
        apply_all(&mut counter, None);
        assert_eq!(counter.applied, vec![1, 100, 3, 103, 104]);
    }

    #[test]
    fn a_taken_run_skips_the_values_left_unread() {
        let mut counter = Counter::default();
        queue(&mut counter, &[Command::Spawn(3), Command::Spawn(1)]);
        let mut firsts = Vec::new();
        apply_queued(
            &mut counter,
            |counter| &mut counter.queue,
            |_, _, staged, _| {
                let (_, mut values) = staged.take(if firsts.is_empty() { 3 } else { 1 });
                firsts.push(values.next());
            },
        );
        assert_eq!(firsts, [Some(100), Some(103)]);
    }
}
