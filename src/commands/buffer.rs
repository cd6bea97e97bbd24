//! Where a world's queued commands wait: [`CommandBuffer`], the commands in order and the
//! values of the queued spawns they refer to (staged column by column, see [`SpawnStaging`]),
//! kept between frames; and [`apply_queued`], which applies them.

use alloc::vec::{Drain, Vec};

use super::staging::SpawnStaging;
use super::{CommandReport, QueuedCommand};
use crate::archetype::Archetype;
use crate::entity::Entity;

/// A world's queued commands, in order, and the values of its queued spawns with values
/// (`queue_spawn`), staged column by column ([`SpawnStaging`]): a spawn command says only how
/// many of them it spawns. Applying empties both and keeps their memory, so a game that
/// queues spawns every frame allocates for them once. `world.queued_commands()` shows it:
/// it dereferences to the commands, and [`spawns`](Self::spawns) lists the staged spawns.
pub struct CommandBuffer<C: QueuedCommand> {
    commands: Vec<C>,
    staged: C::Staging,
}

/// What a command buffer stages queued spawns in: a world's [`SpawnStaging`], or `()`.
#[doc(hidden)]
pub trait Staging: Default {
    /// Whether nothing is staged.
    fn is_empty(&self) -> bool;
    /// Drops everything staged, keeping the memory.
    fn clear(&mut self);
    /// Puts what is staged back in the order queued, after a panic cut an apply short.
    fn reorder(&mut self);
}

impl Staging for () {
    fn is_empty(&self) -> bool {
        true
    }
    fn clear(&mut self) {}
    fn reorder(&mut self) {}
}

impl<C: QueuedCommand> Default for CommandBuffer<C> {
    fn default() -> Self {
        Self {
            commands: Vec::new(),
            staged: Default::default(),
        }
    }
}

impl<C: QueuedCommand> CommandBuffer<C> {
    /// The staged values of queued spawns.
    pub fn staged(&self) -> &C::Staging {
        &self.staged
    }

    /// Queues `command` last.
    pub(crate) fn push(&mut self, command: C) {
        self.commands.push(command);
    }

    /// The last command, to extend a run of spawns.
    pub(crate) fn last_mut(&mut self) -> Option<&mut C> {
        self.commands.last_mut()
    }

    /// The staged values, to stage more.
    pub(crate) fn staged_mut(&mut self) -> &mut C::Staging {
        &mut self.staged
    }

    /// An empty buffer (it allocates nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Drops every command and staged value, keeping the memory.
    #[doc(hidden)]
    pub fn clear(&mut self) {
        self.commands.clear();
        self.staged.clear();
    }

    /// Whether no command is queued.
    #[doc(hidden)]
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.staged.is_empty()
    }
}

impl<C: QueuedCommand<Staging = SpawnStaging<T>>, T: Archetype> CommandBuffer<C> {
    /// Each queued spawn with values: its reserved handle and its builder's mask, grouped by
    /// mask, in the order queued within each.
    pub fn spawns(&self) -> impl Iterator<Item = (Entity, T::Mask)> + '_ {
        self.staged.spawns()
    }
}

impl<C: QueuedCommand> core::ops::Deref for CommandBuffer<C> {
    type Target = [C];

    /// The queued commands, in order.
    fn deref(&self) -> &[C] {
        &self.commands
    }
}

/// Applies the commands queued in `world` (the buffer `queue` picks out of it) in the order
/// queued, each with `apply` (which a spawn command takes its staged values from), and
/// empties the buffer: a world's `apply_commands`. If `apply` panics (a component's
/// `Default` or `Drop`), the commands before are applied and the ones after it go back into
/// the buffer with their staged values, so nothing queued is lost and every handle a queued
/// spawn reserved stays held by it.
#[inline]
pub fn apply_queued<W, C: QueuedCommand>(
    world: &mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C>,
    mut apply: impl FnMut(&mut W, C, &mut C::Staging, &mut CommandReport),
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
        staged: &mut taken.staged,
    };
    for command in applying.rest.by_ref() {
        apply(applying.world, command, applying.staged, &mut report);
    }
    drop(applying);
    // The emptied buffers go back, so a game queueing every frame allocates once (values
    // staged for no command, which only a command pushed by hand leaves, are dropped).
    taken.staged.clear();
    let emptied = queue(world);
    if emptied.is_empty() {
        *emptied = taken;
    }
    report
}

/// A world's or a game's `apply_commands()` when it declares hooks: the hooks of the changes
/// made since the last sync point run first (`run_hooks`), then the queued commands are
/// applied ([`apply_queued`]), then the hooks of what they changed, and so on until no command
/// is queued and no change waits (a hook may queue commands, and its commands may wake hooks).
/// `run_hooks` is told how many rounds of commands came before, which count as passes of
/// hooks (see `hooks::MAX_HOOK_PASSES`: a chain through queued commands that never settles
/// stops too). The report counts every command applied or skipped on the way.
pub fn apply_queued_with_hooks<W, C: QueuedCommand>(
    world: &mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C>,
    mut apply: impl FnMut(&mut W, C, &mut C::Staging, &mut CommandReport),
    run_hooks: fn(&mut W, u32),
) -> CommandReport {
    let mut report = CommandReport::default();
    let mut round = 0u32;
    loop {
        run_hooks(world, round);
        if queue(world).is_empty() {
            return report;
        }
        report.absorb(apply_queued(world, queue, &mut apply));
        round = round.saturating_add(1);
    }
}

/// The world and what [`apply_queued`] has not applied yet. Dropped with commands left only
/// when one panicked: they go back into the buffer, with the values staged for them.
struct Applying<'w, 'c, W, C: QueuedCommand> {
    world: &'w mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C>,
    rest: Drain<'c, C>,
    staged: &'c mut C::Staging,
}

impl<W, C: QueuedCommand> Drop for Applying<'_, '_, W, C> {
    fn drop(&mut self) {
        if self.rest.len() == 0 {
            // Every command was taken (the last may have panicked, dropping its own values).
            return;
        }
        // Pushed one by one: the drain's `next` and the vector's `push` are compiled anyway,
        // an `extend` from a drain would be one more instantiation per world (this runs only
        // after a panic).
        let buffer = (self.queue)(self.world);
        for command in &mut self.rest {
            buffer.commands.push(command);
        }
        self.staged.reorder();
        core::mem::swap(&mut buffer.staged, self.staged);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::VecDeque;

    /// A stand-in world for [`apply_queued`]: a buffer of commands (a number, or a spawn
    /// command `Spawn(n)` taking `n` staged values), and what applying saw.
    #[derive(Default)]
    struct Counter {
        queue: CommandBuffer<Command>,
        applied: Vec<u32>,
    }

    /// Staged values, taken from the front.
    #[derive(Default)]
    struct Values(VecDeque<u32>);

    impl Staging for Values {
        fn is_empty(&self) -> bool {
            self.0.is_empty()
        }
        fn clear(&mut self) {
            self.0.clear();
        }
        fn reorder(&mut self) {}
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Command {
        Number(u32),
        Spawn(usize),
    }

    impl QueuedCommand for Command {
        type Staging = Values;
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
                    // A run is taken whole before it is spawned, as `SpawnStaging` hands it.
                    let run: Vec<u32> = staged.0.drain(..count).collect();
                    for value in run {
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
                    counter.queue.staged_mut().0.push_back(next);
                    next += 1;
                }
            }
            counter.queue.push(command);
        }
    }

    /// The values staged in the counter's buffer, in order.
    fn staged_values(counter: &Counter) -> Vec<u32> {
        counter.queue.staged().0.iter().copied().collect()
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
            counter.queue.staged.0.capacity(),
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
    fn a_panic_in_the_last_command_leaves_an_empty_buffer() {
        let mut counter = Counter::default();
        queue(&mut counter, &[Command::Number(2), Command::Number(5)]);
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            apply_all(&mut counter, Some(5))
        }));
        assert!(unwound.is_err());
        assert!(counter.queue.is_empty());
        queue(&mut counter, &[Command::Number(6)]);
        apply_all(&mut counter, None);
        assert_eq!(counter.applied, vec![2, 6]);
    }
}
