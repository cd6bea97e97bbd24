//! The queued commands that do not depend on the component list: spawns and despawns
//! ([`LifecycleCommand`], a world's only: a multi-world's sub-worlds are spawned by the whole)
//! and changes of components, tags and links ([`StructuralCommand`]). A generated command enum
//! holds one variant for each, beside its per-component `Set*` variants, and applies them with
//! `apply`.

use alloc::vec::Vec;

use super::{CommandReport, SpawnStaging};
use crate::archetype::Archetype;
use crate::entity::{Entity, EntityIndex};
use crate::mask::Bitmask;
use crate::storage::Storage;

/// A queued spawn or despawn (`queue_spawn`, `queue_spawn_entities`, `queue_despawn`,
/// `queue_despawn_entities`), applied by the world's `apply_commands`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LifecycleCommand<M> {
    /// Spawn the reserved `entities` with the components and tags of `mask`.
    SpawnEntities {
        /// Components and tags of the new entities.
        mask: M,
        /// The handles `queue_spawn_entities` returned.
        entities: Vec<Entity>,
    },
    /// Spawn the next `count` handles staged in the command buffer, each with the builder it
    /// was given ([`CommandBuffer::spawns`](crate::CommandBuffer::spawns)): consecutive
    /// `queue_spawn`s of builders of one mask, applied as one batch.
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
}

impl<M: Bitmask> LifecycleCommand<M> {
    /// Applies the command to `storage`, whose entities `index` issues, counting it in `report` (each handle of a list, and
    /// each built spawn, counts once; a dead handle is skipped); a spawn with values takes
    /// them from `staged`.
    #[doc(hidden)]
    pub fn apply<T: Archetype<Mask = M>>(
        self,
        index: &mut EntityIndex,
        storage: &mut Storage<T>,
        staged: &mut SpawnStaging<T>,
        report: &mut CommandReport,
    ) {
        match self {
            LifecycleCommand::SpawnEntities { mask, entities } => {
                report.record(storage.spawn_reserved(index, mask, &entities) == entities.len());
            }
            LifecycleCommand::SpawnBuilt { mask, count } => {
                let spawned = staged
                    .take(mask, count, |run, links| {
                        storage.spawn_staged(index, mask, run, links)
                    })
                    .unwrap_or(0);
                report.applied += spawned;
                report.skipped += count - spawned;
            }
            LifecycleCommand::Despawn(entity) => report.record(storage.despawn(index, entity)),
            LifecycleCommand::DespawnEntities(entities) => {
                for entity in entities {
                    report.record(storage.despawn(index, entity));
                }
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
        });
    }
}
