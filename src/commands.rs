//! The command queue's generic half: where queued commands wait ([`CommandBuffer`]), the
//! queue a world lends to queue into it with what a queued spawn takes its handles from
//! ([`CommandQueue`]), the `queue_*` methods that do not depend on the component list, the
//! commands they queue ([`LifecycleCommand`], [`StructuralCommand`]), the loop that applies a
//! buffer ([`apply_queued`]), and what `apply_commands` reports. The command enum itself
//! depends on the component list and is generated (`WorldCommand`, holding these two and a
//! `Set*` variant per component), and so are the per-component `queue_*` methods.

use alloc::vec::Vec;

use crate::component_values::ComponentValues;
use crate::entity::{Entity, EntityIndex, EntityRecords, EntityReserver};
use crate::mask::Bitmask;
use crate::typed_query::TypedTable;

mod buffer;
mod builders;
mod staging;
mod structural;

pub use buffer::{CommandBuffer, Staging, apply_queued, apply_queued_with_hooks};
pub use builders::BuilderStaging;
pub use staging::SpawnStaging;
pub(crate) use structural::LifecycleTarget;
pub use structural::{LifecycleCommand, StructuralCommand};

/// A generated command enum that has a buffer of its own: a world's (`WorldCommand`) or a
/// multi-world game's (`GameCommand`), and where its queued spawns stage their values.
pub trait QueuedCommand {
    /// Where queued spawns stage their values: a world's [`SpawnStaging`], a game's
    /// [`BuilderStaging`].
    type Staging: Staging;
}

/// The command enum of one part, a world or a game's sub-world: it holds the part's
/// [`StructuralCommand`]s (`From`), beside its `Set*` variants.
pub trait PartCommand: Sized {
    /// The part's mask type.
    type Mask: Bitmask;

    /// A queued change of components, tags or links, as a command of the part.
    fn structural(command: StructuralCommand<Self::Mask>) -> Self;
}

/// A command enum that holds [`LifecycleCommand`]s, spawns and despawns: a world's or a
/// multi-world game's (a sub-world's does not: the game spawns).
pub trait SpawningCommand:
    QueuedCommand<Staging: StageSpawn<Self::Values, Spawn = Self::Spawn>>
{
    /// What a queued spawn with values holds: the world's or the game's `EntityBuilder`.
    type Values;
    /// What a spawn command carries besides its handles: a world's mask (the components and
    /// tags the entities start with), `()` for a game (its spawns start empty or with a
    /// builder's values).
    type Spawn: Copy + PartialEq;

    /// The command holding `command`.
    fn lifecycle(command: LifecycleCommand<Self::Spawn>) -> Self;

    /// The lifecycle command this is, if it is one.
    fn lifecycle_mut(&mut self) -> Option<&mut LifecycleCommand<Self::Spawn>>;
}

/// Where the values of queued spawns wait: a world's [`SpawnStaging`] (column by column) or
/// a game's [`BuilderStaging`] (the builders, in order).
pub trait StageSpawn<V>: Staging {
    /// What the spawn command of staged values carries (see [`SpawningCommand::Spawn`]).
    type Spawn;

    /// Stages a spawn of `values` with the handle `reserve` gives; returns what its command
    /// carries and the handle. If staging panics (a `Default`), nothing is staged or reserved.
    fn stage(&mut self, values: V, reserve: impl FnOnce() -> Entity) -> (Self::Spawn, Entity);
}

/// A command queue: a buffer of `B` commands (`WorldCommand`, `GameCommand`), borrowed to
/// queue `C` commands into it (the same type, or a sub-world's command that a game's command
/// holds), together with what reserves handles for queued spawns: the entity index itself
/// (a world's `commands()`, nothing else borrowed), a reserver it lent (the command part of
/// `split_mut()`, beside the component part), or nothing (a sub-world's queue: the game
/// spawns). A generated command part (`WorldCommands`, `CoreCommands`) dereferences to it:
/// the `queue_*` methods below are every world's, the per-component ones are generated
/// beside them.
pub struct CommandQueue<'a, C, B: QueuedCommand = C> {
    buffer: &'a mut CommandBuffer<B>,
    reserve: Reserve<'a>,
    queues: core::marker::PhantomData<fn(C)>,
}

enum Reserve<'a> {
    Index(&'a mut EntityIndex, &'a mut EntityRecords),
    Lent(EntityReserver),
    Nothing,
}

impl<'a, C, B: QueuedCommand + From<C>> CommandQueue<'a, C, B> {
    /// A queue whose spawns reserve straight from `index`, into the world's `records`.
    #[doc(hidden)]
    #[inline]
    pub fn new(
        buffer: &'a mut CommandBuffer<B>,
        index: &'a mut EntityIndex,
        records: &'a mut EntityRecords,
    ) -> Self {
        Self::with(buffer, Reserve::Index(index, records))
    }

    /// A queue whose spawns reserve through `reserver`, while the index is borrowed
    /// elsewhere.
    #[doc(hidden)]
    #[inline]
    pub fn lent(buffer: &'a mut CommandBuffer<B>, reserver: EntityReserver) -> Self {
        Self::with(buffer, Reserve::Lent(reserver))
    }

    #[inline]
    fn with(buffer: &'a mut CommandBuffer<B>, reserve: Reserve<'a>) -> Self {
        Self {
            buffer,
            reserve,
            queues: core::marker::PhantomData,
        }
    }

    /// The queue of one sub-world of a game, into this game's buffer: it holds no spawns.
    #[doc(hidden)]
    #[inline]
    pub fn part<P>(&mut self) -> CommandQueue<'_, P, B>
    where
        B: From<P>,
    {
        CommandQueue::with(self.buffer, Reserve::Nothing)
    }

    /// Queues `command` last.
    #[doc(hidden)]
    #[inline]
    pub fn push(&mut self, command: C) {
        self.buffer.push(command.into());
    }

    /// Reserves `count` handles for a queued spawn: not alive until the spawn is applied, and
    /// no other spawn takes their ids.
    ///
    /// # Panics
    /// On a sub-world's queue (made by [`part`](Self::part); generated code never calls it
    /// there).
    #[doc(hidden)]
    #[inline]
    pub fn reserve(&mut self, count: usize) -> Vec<Entity> {
        self.reserve.many(count)
    }
}

impl Reserve<'_> {
    /// Reserves `count` handles for a queued spawn ([`CommandQueue::reserve`]).
    ///
    /// # Panics
    /// On a sub-world's queue.
    fn many(&mut self, count: usize) -> Vec<Entity> {
        match self {
            Reserve::Index(index, records) => (0..count).map(|_| index.reserve(*records)).collect(),
            Reserve::Lent(reserver) => reserver.reserve(count),
            Reserve::Nothing => panic!("a sub-world's command queue holds no spawns"),
        }
    }

    /// Reserves one handle for a queued spawn, as [`CommandQueue::reserve`]`(1)` without the
    /// `Vec`.
    ///
    /// # Panics
    /// On a sub-world's queue.
    #[inline(always)]
    fn one(&mut self) -> Entity {
        match self {
            Reserve::Index(index, records) => index.reserve(*records),
            Reserve::Lent(reserver) => reserver.reserve_one(),
            Reserve::Nothing => panic!("a sub-world's command queue holds no spawns"),
        }
    }
}

// `M` rather than `C::Mask`, so rustdoc shows these methods on a generated command part.
impl<C: PartCommand<Mask = M>, M: Bitmask, B: QueuedCommand + From<C>> CommandQueue<'_, C, B> {
    /// Queues adding the components and tags of `mask` to `entity` (O(1)); applied as
    /// `add_components`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_add_components(&mut self, entity: Entity, mask: M) {
        self.push_structural(StructuralCommand::AddComponents(entity, mask));
    }

    /// Queues removing the components and tags of `mask` from `entity` (O(1)); applied as
    /// `remove_components`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_remove_components(&mut self, entity: Entity, mask: M) {
        self.push_structural(StructuralCommand::RemoveComponents(entity, mask));
    }

    /// Queues disabling `entity` (O(1)); applied as `disable`, skipped and counted if
    /// `entity` is dead by then.
    #[inline]
    pub fn queue_disable(&mut self, entity: Entity) {
        self.push_structural(StructuralCommand::SetDisabled(entity, true));
    }

    /// Queues enabling `entity` (O(1)); applied as `enable`, skipped and counted if `entity`
    /// is dead by then.
    #[inline]
    pub fn queue_enable(&mut self, entity: Entity) {
        self.push_structural(StructuralCommand::SetDisabled(entity, false));
    }

    /// Queues disabling `entity` and its subtree in the relation of bit `relation` (O(1));
    /// applied as `disable_tree` (the subtree as it is then), skipped and counted if `entity`
    /// is dead by then.
    #[inline]
    pub fn queue_disable_tree(&mut self, relation: M, entity: Entity) {
        self.push_structural(StructuralCommand::SetTreeDisabled {
            relation,
            entity,
            disabled: true,
        });
    }

    /// Queues enabling `entity` and its subtree in the relation of bit `relation` (O(1));
    /// applied as `enable_tree`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_enable_tree(&mut self, relation: M, entity: Entity) {
        self.push_structural(StructuralCommand::SetTreeDisabled {
            relation,
            entity,
            disabled: false,
        });
    }

    /// Queues linking `source` to `target` in the relation of bit `relation`: a relation's
    /// generated `queue_set_*`.
    #[doc(hidden)]
    #[inline]
    pub fn queue_link(&mut self, relation: M, source: Entity, target: Entity) {
        let link = StructuralCommand::Link {
            relation,
            source,
            target,
        };
        self.push_structural(link);
    }

    /// Queues unlinking `source` in the relation of bit `relation`: a relation's generated
    /// `queue_remove_*`.
    #[doc(hidden)]
    #[inline]
    pub fn queue_unlink(&mut self, relation: M, source: Entity) {
        self.push_structural(StructuralCommand::Unlink { relation, source });
    }

    #[inline]
    fn push_structural(&mut self, command: StructuralCommand<M>) {
        self.push(C::structural(command));
    }
}

// `V` and `S` rather than `C::Values`, so rustdoc shows these methods on a generated command
// part.
impl<C, V, S> CommandQueue<'_, C>
where
    C: SpawningCommand<Values = V, Spawn = S>,
    S: Copy + PartialEq,
{
    /// Queues a spawn of `count` entities starting as `spawn` says (a world's mask; `()` for
    /// a game), and returns their handles now: a world's `queue_spawn_entities(mask, count)`
    /// and a game's `queue_spawn_entities(count)`.
    #[doc(hidden)]
    #[inline]
    pub fn queue_spawn_reserved(&mut self, spawn: S, count: usize) -> Vec<Entity> {
        let entities = self.reserve(count);
        self.push(C::lifecycle(LifecycleCommand::SpawnEntities {
            mask: spawn,
            entities: entities.clone(),
        }));
        entities
    }

    /// Queues a spawn of one entity with the builder's components, tags and links (the
    /// world's or the game's `EntityBuilder`), and returns its handle now, so later queued
    /// commands can target it: O(1). It is not alive until `apply_commands` (`is_alive` is
    /// `false`, getters give `None`), and no other spawn takes its id. The builder's values
    /// wait in the command buffer (a world's column by column, in a table per builder mask,
    /// whose memory is kept between frames); a run of consecutive queued spawns (of one mask)
    /// is one command, applied as one batch, as `spawn_batch` spawns (`apply_commands` counts
    /// each spawn). A target of `with_<relation>` that is not alive when the entity spawns
    /// leaves it unlinked. A component of the builder's mask it holds no value for
    /// (`with_mask`) is default-initialised here: if its `Default` panics, nothing is queued
    /// or reserved.
    #[inline(always)]
    pub fn queue_spawn(&mut self, builder: V) -> Entity {
        let reserve = &mut self.reserve;
        let (spawn, entity) = self.buffer.staged_mut().stage(builder, || reserve.one());
        self.push_built(spawn, 1);
        entity
    }

    /// Queues the spawn of the next `count` staged rows of `spawn`: one more run of the last
    /// command if it spawns the same, so consecutive spawns of one mask apply as one batch.
    #[inline]
    fn push_built(&mut self, spawn: S, count: usize) {
        match self.buffer.last_mut().and_then(C::lifecycle_mut) {
            Some(LifecycleCommand::SpawnBuilt { mask, count: run }) if *mask == spawn => {
                *run += count;
            }
            _ => self.push(C::lifecycle(LifecycleCommand::SpawnBuilt {
                mask: spawn,
                count,
            })),
        }
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

impl<C: SpawningCommand<Spawn = ()>> CommandQueue<'_, C> {
    /// Queues disabling (`true`) or enabling (`false`) `entity` in every sub-world of a
    /// game: its generated `queue_disable` and `queue_enable`.
    #[doc(hidden)]
    #[inline]
    pub fn queue_set_disabled(&mut self, entity: Entity, disabled: bool) {
        self.push(C::lifecycle(LifecycleCommand::SetDisabled(
            entity, disabled,
        )));
    }
}

impl<C, M, T> CommandQueue<'_, C>
where
    C: SpawningCommand<Spawn = M, Staging = SpawnStaging<T>>,
    M: Bitmask,
    T: crate::archetype::Archetype<Mask = M>,
{
    /// Queues a spawn of `count` entities with the components and tags of `mask`, and returns
    /// their handles now, so later queued commands can target them: O(`count`). They are not
    /// alive until `apply_commands` (`is_alive` is `false`, getters give `None`), and no other
    /// spawn takes their ids.
    #[inline]
    pub fn queue_spawn_entities(&mut self, mask: M, count: usize) -> Vec<Entity> {
        self.queue_spawn_reserved(mask, count)
    }

    /// Queues a spawn of one entity per tuple of `values` (`(Position, Velocity)`, in any
    /// order: each element finds its column by its type, as `spawn_values`'s do), and returns
    /// their handles now, so later queued commands can target them. Each value is moved once,
    /// into the queue's staging column, and `apply_commands` moves the run into the world's
    /// table with one append per column. Not alive until then (`is_alive` is `false`), and no
    /// other spawn takes their ids. If the iterator panics, nothing is queued or reserved.
    ///
    /// # Panics
    /// If the tuple names one component twice (before anything is queued).
    #[inline]
    pub fn queue_spawn_values<V, VM>(&mut self, values: impl IntoIterator<Item = V>) -> Vec<Entity>
    where
        T: TypedTable,
        V: ComponentValues<T, VM>,
    {
        let reserve = &mut self.reserve;
        let (mask, entities) = self
            .buffer
            .staged_mut()
            .stage_values(values, |count| reserve.many(count));
        let count = entities.len();
        if count > 0 {
            self.push_built(mask, count);
        }
        entities
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
