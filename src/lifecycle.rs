//! What changes the set of live entities of a world: spawning, despawning, reserving handles
//! for queued spawns, and ending a frame. A world's component part holds its entity index
//! beside its storage, and its generated methods call these with both (`__private::lifecycle`);
//! a sub-world of a multi-world, whose entities its game's index issues, has none of them.

use alloc::vec::Vec;

use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::commands::{
    CommandBuffer, CommandQueue, CommandReport, LifecycleCommand, LifecycleTarget, QueuedCommand,
    SpawnStaging,
};
use crate::entity::{Entity, EntityIndex, EntityReserver, IdRecords};
use crate::storage::despawn::Whole;
use crate::storage::staged::PlaceBuilt;
use crate::storage::state::copy_whole;
use crate::storage::{Storage, place_or_free};

/// Spawns one entity with the components of `mask`, default-initialised, and its tags.
#[inline]
pub fn spawn<T: Archetype>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    mask: T::Mask,
) -> Entity {
    storage.spawn(index, mask)
}

/// Spawns `count` entities with the components and tags of `mask`, then calls `init(view, row)`
/// for each new row.
#[inline]
pub fn spawn_batch<T: Archetype, F>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    mask: T::Mask,
    count: usize,
    init: F,
) -> Vec<Entity>
where
    F: FnMut(&mut T::ViewMut<'_>, usize),
{
    storage.spawn_batch(index, mask, count, init)
}

/// Spawns `count` entities issued by `index` with the builder's `values` in `parts` (a world's
/// storage, or every sub-world of a game), each a copy (the last takes the originals: an
/// `EntityBuilder`'s spawn); then links each to the targets `values` holds. The first copy is
/// made before any handle is issued, so a value whose type is not `Clone` panics with nothing
/// spawned; with `count` at most 1, nothing is copied.
#[inline]
pub fn spawn_built<V, P: PlaceBuilt<V> + IdRecords>(
    index: &mut EntityIndex,
    parts: &mut P,
    count: usize,
    values: V,
) -> Vec<Entity> {
    let first_copy = (count > 1).then(|| P::copy_built(&values));
    let entities = index.allocate_many(count, parts);
    place_or_free(index, parts, &entities, |parts| {
        parts.place_built(&entities, first_copy, values);
    });
    entities
}

/// Spawns one entity with the builder's `values`, moved (an `EntityBuilder`'s `spawn_one`):
/// [`spawn_built`] without its batch's `Vec`, each value pushed from where `values` holds it
/// (see `PlaceBuilt::place_one`).
#[inline]
pub fn spawn_one<V>(
    index: &mut EntityIndex,
    parts: &mut (impl PlaceBuilt<V> + IdRecords),
    mut values: V,
) -> Entity {
    let entity = index.allocate(parts);
    // The guard's own copy of the handle: `entity` stays out of memory.
    let guarded = [entity];
    place_or_free(index, parts, &guarded, |parts| {
        parts.place_one(entity, &mut values);
    });
    entity
}

/// Despawns `entity` (its relations' policies apply); `false` for a dead handle.
#[inline]
pub fn despawn<T: Archetype>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    entity: Entity,
) -> bool {
    storage.despawn(index, entity)
}

/// Despawns every live entity of `entities`; returns the ones despawned.
#[inline]
pub fn despawn_entities<T: Archetype>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    entities: &[Entity],
) -> Vec<Entity> {
    storage.despawn_entities(index, entities)
}

/// Applies a queued spawn or despawn to the world whose entities `index` issues (a world's
/// `apply_commands`); a spawn with values takes them from `staged`.
#[inline]
pub fn apply_lifecycle<T: Archetype>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    command: LifecycleCommand<T::Mask>,
    staged: &mut SpawnStaging<T>,
    report: &mut CommandReport,
) {
    command.apply(
        &mut Whole {
            index,
            parts: storage,
        },
        staged,
        report,
    );
}

/// A world as queued spawns and despawns reach it: its index and its storage.
impl<T: Archetype> LifecycleTarget for Whole<'_, Storage<T>> {
    type Spawn = T::Mask;
    type Staging = SpawnStaging<T>;

    #[inline]
    fn spawn_reserved(&mut self, mask: T::Mask, entities: &[Entity]) -> usize {
        self.parts.spawn_reserved(self.index, mask, entities)
    }

    #[inline]
    fn spawn_staged(&mut self, mask: T::Mask, count: usize, staged: &mut SpawnStaging<T>) -> usize {
        staged
            .take(mask, count, |mut run, links| {
                self.parts.spawn_staged(self.index, mask, run.rows(), links)
            })
            .unwrap_or(0)
    }

    #[inline]
    fn despawn(&mut self, entity: Entity) -> bool {
        self.parts.despawn(self.index, entity)
    }
}

/// The world's command queue over `buffer`, its spawns reserving straight from `index`.
#[inline]
pub fn command_queue<'a, T: Archetype, C: QueuedCommand>(
    index: &'a mut EntityIndex,
    storage: &'a mut Storage<T>,
    buffer: &'a mut CommandBuffer<C>,
) -> CommandQueue<'a, C> {
    CommandQueue::new(buffer, index, storage.records_mut())
}

/// Lends a reserver of `index` for queued spawns made while the storage is borrowed elsewhere
/// (a world's command part, beside its component part).
#[inline]
pub fn entity_reserver<T: Archetype>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
) -> EntityReserver {
    index.lend_reserver(storage.records_mut())
}

/// Gives back every handle reserved for a queued spawn, in ascending id order (see
/// [`EntityIndex::release_all_reserved`]): none of them becomes alive. `clear_commands`
/// calls it.
#[inline]
pub fn release_all_reserved<T: Archetype>(index: &mut EntityIndex, storage: &mut Storage<T>) {
    index.release_all_reserved(storage.records_mut());
}

/// Makes `index` and `storage` a copy of `source_index` and `source`, reusing the
/// allocations, the source's reservations given back (a world's `clone_from` and `restore`,
/// once its queue is cleared): see `storage::state::copy_whole`.
#[inline]
pub fn clone_from<T: Archetype + Clone>(
    index: &mut EntityIndex,
    storage: &mut Storage<T>,
    source_index: &EntityIndex,
    source: &Storage<T>,
) {
    copy_whole(index, storage, source_index, source);
}

/// Ends a frame: the current tick becomes the last one and the tick advances.
#[inline]
pub fn end_frame<T: Archetype>(storage: &mut Storage<T>) {
    storage.end_frame();
}

/// The oldest change a declared hook waits for, taken: a world's generated `run_hooks` runs
/// its hooks.
#[inline]
pub fn next_hooked_change<T: Archetype>(
    storage: &mut Storage<T>,
) -> Option<StructuralChange<T::Mask>> {
    storage.next_hooked_change()
}
