//! The command queue's generic half: where queued commands wait ([`CommandBuffer`]), the
//! queue a world lends to queue into it with what a queued spawn takes its handles from
//! ([`CommandQueue`]), the `queue_*` methods that do not depend on the component list, the
//! commands they queue ([`LifecycleCommand`], [`StructuralCommand`]), the loop that applies a
//! buffer ([`apply_queued`]), and what `apply_commands` reports. The command enum itself
//! depends on the component list and is generated (`WorldCommand`, holding these two and a
//! `Set*` variant per component), and so are the per-component `queue_*` methods.

use alloc::vec::Vec;

use crate::archetype::Archetype;
use crate::builder::EntityValues;
use crate::entity::{Entity, EntityIndex, EntityRecords, EntityReserver};
use crate::mask::Bitmask;

mod buffer;
mod staging;
mod structural;

pub use buffer::{CommandBuffer, Staging, apply_queued};
pub use staging::SpawnStaging;
pub(crate) use staging::StagedRun;
pub use structural::{LifecycleCommand, StructuralCommand};

/// A generated command enum (`WorldCommand`): the mask type its commands carry. It holds the
/// [`StructuralCommand`]s (`From`), and a world's (not a sub-world's) the
/// [`LifecycleCommand`]s too ([`SpawningCommand`]).
pub trait QueuedCommand {
    /// The world's mask type.
    type Mask: Bitmask;
    /// Where queued spawns stage their values: the world's [`SpawnStaging`] (`()` for a
    /// sub-world, whose queue spawns nothing).
    type Staging: Staging;
}

/// A world's command enum, which holds [`LifecycleCommand`]s: spawns and despawns. A
/// sub-world's does not (the multi-world spawns).
pub trait SpawningCommand: QueuedCommand {
    /// The world's `EntityBuilder`: what a queued spawn with values holds.
    type Values: EntityValues<Archetype: Archetype<Mask = Self::Mask>>;

    /// The command holding `command`.
    fn lifecycle(command: LifecycleCommand<Self::Mask>) -> Self;

    /// The lifecycle command this is, if it is one.
    fn lifecycle_mut(&mut self) -> Option<&mut LifecycleCommand<Self::Mask>>;
}

/// A world's command buffer, borrowed together with what reserves handles for queued
/// spawns: the entity index itself (the world's `commands()`, nothing else borrowed), a reserver
/// it lent (the command part of `split_mut()`, beside the component part), or nothing (a
/// sub-world of a multi-world, whose entities are spawned by the whole). A world's command
/// part (`WorldCommands`) dereferences to it: the `queue_*` methods below are every world's,
/// the per-component ones are generated beside them.
pub struct CommandQueue<'a, C: QueuedCommand> {
    buffer: &'a mut CommandBuffer<C>,
    reserve: Reserve<'a>,
}

enum Reserve<'a> {
    Index(&'a mut EntityIndex, &'a mut EntityRecords),
    Lent(EntityReserver),
    Nothing,
}

impl<'a, C: QueuedCommand> CommandQueue<'a, C> {
    /// A queue whose spawns reserve straight from `index`, into the world's `records`.
    #[doc(hidden)]
    #[inline]
    pub fn new(
        buffer: &'a mut CommandBuffer<C>,
        index: &'a mut EntityIndex,
        records: &'a mut EntityRecords,
    ) -> Self {
        Self {
            buffer,
            reserve: Reserve::Index(index, records),
        }
    }

    /// A queue whose spawns reserve through `reserver`, while the index is borrowed
    /// elsewhere.
    #[doc(hidden)]
    #[inline]
    pub fn lent(buffer: &'a mut CommandBuffer<C>, reserver: EntityReserver) -> Self {
        Self {
            buffer,
            reserve: Reserve::Lent(reserver),
        }
    }

    /// A queue that holds no spawns (a sub-world's: the multi-world spawns).
    #[doc(hidden)]
    #[inline]
    pub fn without_spawns(buffer: &'a mut CommandBuffer<C>) -> Self {
        Self {
            buffer,
            reserve: Reserve::Nothing,
        }
    }

    /// Queues `command` last.
    #[doc(hidden)]
    #[inline]
    pub fn push(&mut self, command: C) {
        self.buffer.push(command);
    }

    /// Reserves `count` handles for a queued spawn: not alive until the spawn is applied, and
    /// no other spawn takes their ids.
    ///
    /// # Panics
    /// On a queue made by [`without_spawns`](Self::without_spawns) (generated code never
    /// calls it there).
    #[doc(hidden)]
    #[inline]
    pub fn reserve(&mut self, count: usize) -> Vec<Entity> {
        match &mut self.reserve {
            Reserve::Index(index, records) => (0..count).map(|_| index.reserve(*records)).collect(),
            Reserve::Lent(reserver) => reserver.reserve(count),
            Reserve::Nothing => panic!("a sub-world's command queue holds no spawns"),
        }
    }
}

impl Reserve<'_> {
    /// Reserves one handle for a queued spawn, as [`CommandQueue::reserve`]`(1)` without the
    /// `Vec`.
    ///
    /// # Panics
    /// On a queue made by [`CommandQueue::without_spawns`].
    #[inline]
    fn one(&mut self) -> Entity {
        match self {
            Reserve::Index(index, records) => index.reserve(*records),
            Reserve::Lent(reserver) => reserver.reserve_one(),
            Reserve::Nothing => panic!("a sub-world's command queue holds no spawns"),
        }
    }
}

impl<C: QueuedCommand + From<StructuralCommand<C::Mask>>> CommandQueue<'_, C> {
    /// Queues adding the components and tags of `mask` to `entity` (O(1)); applied as
    /// `add_components`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_add_components(&mut self, entity: Entity, mask: C::Mask) {
        self.push(StructuralCommand::AddComponents(entity, mask).into());
    }

    /// Queues removing the components and tags of `mask` from `entity` (O(1)); applied as
    /// `remove_components`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_remove_components(&mut self, entity: Entity, mask: C::Mask) {
        self.push(StructuralCommand::RemoveComponents(entity, mask).into());
    }
}

// `V` and `T` rather than `C::Values`, so rustdoc shows these methods on a world's command
// part.
impl<C, V, T> CommandQueue<'_, C>
where
    C: SpawningCommand<Values = V, Staging = SpawnStaging<T>>,
    V: EntityValues<Archetype = T>,
    T: Archetype<Mask = C::Mask>,
{
    /// Queues a spawn of `count` entities with the components and tags of `mask`, and returns
    /// their handles now, so later queued commands can target them: O(`count`). They are not
    /// alive until `apply_commands` (`is_alive` is `false`, getters give `None`), and no other
    /// spawn takes their ids.
    #[inline]
    pub fn queue_spawn_entities(&mut self, mask: C::Mask, count: usize) -> Vec<Entity> {
        let entities = self.reserve(count);
        self.push(C::lifecycle(LifecycleCommand::SpawnEntities {
            mask,
            entities: entities.clone(),
        }));
        entities
    }

    /// Queues a spawn of one entity with the builder's components, tags and links (the
    /// world's `EntityBuilder`), and returns its handle now, so later queued commands can
    /// target it: O(1). It is not alive until `apply_commands` (`is_alive` is `false`, getters
    /// give `None`), and no other spawn takes its id. The builder's values wait in the
    /// world's command buffer, column by column in a table per builder mask, whose memory is
    /// kept between frames; a run of consecutive queued spawns of one mask is one command,
    /// applied as one batch, as `spawn_batch` spawns (`apply_commands` counts each spawn). A
    /// target of `with_<relation>` that is not alive when the entity spawns leaves it
    /// unlinked. A component of the builder's mask it holds no value for (`with_mask`) is
    /// default-initialised here: if its `Default` panics, nothing is queued or reserved.
    #[inline]
    pub fn queue_spawn(&mut self, builder: V) -> Entity {
        let mask = builder.mask();
        let reserve = &mut self.reserve;
        let entity = self.buffer.staged_mut().stage(builder, || reserve.one());
        match self.buffer.last_mut().and_then(C::lifecycle_mut) {
            Some(LifecycleCommand::SpawnBuilt {
                mask: last_mask,
                count,
            }) if *last_mask == mask => *count += 1,
            _ => self.push(C::lifecycle(LifecycleCommand::SpawnBuilt {
                mask,
                count: 1,
            })),
        }
        entity
    }

    /// Queues a despawn of `entity` (O(1)); skipped and counted by `apply_commands` if
    /// `entity` is dead by then (or was never alive).
    #[inline]
    pub fn queue_despawn(&mut self, entity: Entity) {
        self.push(C::lifecycle(LifecycleCommand::Despawn(entity)));
    }

    /// Queues a despawn of every entity of `entities`, as one command (O(its length), copying
    /// the list); applying it counts each handle, as if queued one by one (dead, stale and
    /// never-issued ones are skipped).
    #[inline]
    pub fn queue_despawn_entities(&mut self, entities: &[Entity]) {
        self.push(C::lifecycle(LifecycleCommand::DespawnEntities(
            entities.to_vec(),
        )));
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
