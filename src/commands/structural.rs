//! The queued commands that do not depend on the component list: spawns and despawns
//! ([`LifecycleCommand`], a world's or a multi-world game's: a sub-world's entities are spawned
//! by the game) and changes of components, tags and links ([`StructuralCommand`], a world's or
//! a sub-world's). A generated command enum holds them beside its per-component `Set*`
//! variants.

use alloc::vec::Vec;

use super::CommandReport;
use crate::archetype::Archetype;
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::Storage;

/// A queued spawn or despawn (`queue_spawn`, `queue_spawn_entities`, `queue_despawn`,
/// `queue_despawn_entities`), or a multi-world game's disabling or enabling in every
/// sub-world (`queue_disable`, `queue_enable`: a world's are [`StructuralCommand`]s), applied
/// by `apply_commands`. `M` is what a spawn starts with besides its handles: a world's mask,
/// `()` for a multi-world game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LifecycleCommand<M> {
    /// Spawn the reserved `entities` with the components and tags of `mask` (a game's: with
    /// none, in every sub-world).
    SpawnEntities {
        /// Components and tags of the new entities.
        mask: M,
        /// The handles `queue_spawn_entities` returned.
        entities: Vec<Entity>,
    },
    /// Spawn the next `count` handles staged in the command buffer, each with the builder it
    /// was given ([`CommandBuffer::spawns`](crate::CommandBuffer::spawns)): consecutive
    /// `queue_spawn`s (of builders of one mask), applied as one batch.
    SpawnBuilt {
        /// Components and tags of the new entities.
        mask: M,
        /// How many queued spawns the command holds.
        count: usize,
    },
    /// Despawn the entity.
    Despawn(Entity),
    /// Despawn every entity of the list (those still alive), each counted.
    DespawnEntities(Vec<Entity>),
    /// Disable (`true`) or enable (`false`) the entity in every part: a game's, in every
    /// sub-world at once.
    SetDisabled(Entity, bool),
}

/// What queued spawns and despawns are applied to: a world (its index and storage) or a
/// multi-world game (its index and every sub-world), and where its queued spawns staged their
/// values.
pub(crate) trait LifecycleTarget {
    /// What a spawn command carries (see [`LifecycleCommand`]).
    type Spawn;
    /// Where the values of queued spawns wait.
    type Staging;

    /// Spawns the reserved `entities` still reserved; returns how many.
    fn spawn_reserved(&mut self, spawn: Self::Spawn, entities: &[Entity]) -> usize;

    /// Spawns the next `count` spawns staged in `staged` whose handles are still reserved;
    /// returns how many (the others are dropped with their values).
    fn spawn_staged(
        &mut self,
        spawn: Self::Spawn,
        count: usize,
        staged: &mut Self::Staging,
    ) -> usize;

    /// Despawns `entity` (its relations' policies apply); `false` for a dead handle.
    fn despawn(&mut self, entity: Entity) -> bool;

    /// Disables (`true`) or enables (`false`) `entity` in every part; `false` for a dead
    /// handle.
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool;
}

impl<M> LifecycleCommand<M> {
    /// Applies the command to `target`, counting it in `report` (each handle of a list, and
    /// each built spawn, counts once; a dead handle is skipped); a spawn with values takes
    /// them from `staged`.
    pub(crate) fn apply<L: LifecycleTarget<Spawn = M>>(
        self,
        target: &mut L,
        staged: &mut L::Staging,
        report: &mut CommandReport,
    ) {
        match self {
            LifecycleCommand::SpawnEntities { mask, entities } => {
                report.record(target.spawn_reserved(mask, &entities) == entities.len());
            }
            LifecycleCommand::SpawnBuilt { mask, count } => {
                let spawned = target.spawn_staged(mask, count, staged);
                report.applied += spawned;
                report.skipped += count - spawned;
            }
            LifecycleCommand::Despawn(entity) => report.record(target.despawn(entity)),
            LifecycleCommand::DespawnEntities(entities) => {
                for entity in entities {
                    report.record(target.despawn(entity));
                }
            }
            LifecycleCommand::SetDisabled(entity, disabled) => {
                report.record(target.set_disabled(entity, disabled));
            }
        }
    }
}

/// A queued change of an entity's components, tags or links (`queue_add_components`,
/// `queue_remove_components`, a tag's `queue_add_*` / `queue_remove_*`, a relation's
/// `queue_set_*` / `queue_remove_*`), applied by `apply_commands`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructuralCommand<M> {
    /// Add the components and tags of the mask.
    AddComponents(Entity, M),
    /// Remove the components and tags of the mask.
    RemoveComponents(Entity, M),
    /// Link `source` to `target` in the relation whose bit is `relation` (skipped if
    /// `relation` is no relation's bit).
    Link {
        /// The relation's bit.
        relation: M,
        /// The entity to link.
        source: Entity,
        /// Its new target.
        target: Entity,
    },
    /// Unlink `source` in the relation whose bit is `relation`.
    Unlink {
        /// The relation's bit.
        relation: M,
        /// The entity to unlink.
        source: Entity,
    },
    /// Disable (`true`) or enable (`false`) the entity.
    SetDisabled(Entity, bool),
    /// Disable (`true`) or enable (`false`) the entity and its subtree in the relation whose
    /// bit is `relation`.
    SetTreeDisabled {
        /// The relation's bit.
        relation: M,
        /// The subtree's root.
        entity: Entity,
        /// Disable or enable.
        disabled: bool,
    },
}

impl<M: Bitmask> StructuralCommand<M> {
    /// Applies the command to `storage`, counting it in `report` (skipped: a dead handle, a
    /// link that would make a cycle).
    #[doc(hidden)]
    pub fn apply<T: Archetype<Mask = M>>(
        self,
        storage: &mut Storage<T>,
        report: &mut CommandReport,
    ) {
        report.record(match self {
            StructuralCommand::AddComponents(entity, mask) => storage.add_components(entity, mask),
            StructuralCommand::RemoveComponents(entity, mask) => {
                storage.remove_components(entity, mask)
            }
            StructuralCommand::Link {
                relation,
                source,
                target,
            } => storage.link(relation, source, target).is_ok(),
            StructuralCommand::Unlink { relation, source } => {
                let alive = storage.is_alive(source);
                storage.unlink(relation, source);
                alive
            }
            StructuralCommand::SetDisabled(entity, true) => storage.disable(entity),
            StructuralCommand::SetDisabled(entity, false) => storage.enable(entity),
            StructuralCommand::SetTreeDisabled {
                relation,
                entity,
                disabled,
            } => {
                let count = if disabled {
                    storage.disable_tree(relation, entity)
                } else {
                    storage.enable_tree(relation, entity)
                };
                count > 0
            }
        });
    }
}
