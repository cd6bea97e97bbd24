//! What changes the set of live entities of a world: spawning, despawning, reserving handles
//! for queued spawns, and ending a frame. A world's component part holds its entity index
//! beside its storage (an [`IndexedStorage`]), and its generated methods call these with it
//! (`__private::lifecycle`); a sub-world of a multi-world, whose entities its game's index
//! issues, holds a storage alone and has none of them.

use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};

use crate::archetype::Archetype;
use crate::commands::{
    CommandBuffer, CommandQueue, CommandReport, LifecycleCommand, LifecycleTarget, QueuedCommand,
    SpawnStaging,
};
use crate::component_values::ComponentValues;
use crate::entity::{Entity, EntityIndex, IdRecords};
use crate::hooks::HookedChange;
use crate::mask::Bitmask;
use crate::storage::despawn::Whole;
use crate::storage::staged::PlaceBuilt;
use crate::storage::state::copy_whole;
use crate::storage::{Storage, place_or_free};
use crate::typed_query::TypedTable;

/// A world's storage beside the index that issues its entities' handles: what a world's
/// component part holds, and what this module's functions take. It dereferences to the
/// storage, so the component part's methods reach the storage through it.
pub struct IndexedStorage<T: Archetype> {
    /// The index that issues, recycles and reserves the world's entity handles.
    pub index: EntityIndex,
    /// The world's storage.
    pub storage: Storage<T>,
}

impl<T: Archetype> Default for IndexedStorage<T> {
    #[inline]
    fn default() -> Self {
        IndexedStorage {
            index: EntityIndex::default(),
            storage: Storage::new(),
        }
    }
}

impl<T: Archetype> Deref for IndexedStorage<T> {
    type Target = Storage<T>;

    #[inline]
    fn deref(&self) -> &Storage<T> {
        &self.storage
    }
}

impl<T: Archetype> DerefMut for IndexedStorage<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Storage<T> {
        &mut self.storage
    }
}

/// Spawns one entity with the components of `mask`, default-initialised, and its tags.
#[inline]
pub fn spawn<T: Archetype>(world: &mut IndexedStorage<T>, mask: T::Mask) -> Entity {
    world.storage.spawn(&mut world.index, mask)
}

/// Spawns `count` entities with the components and tags of `mask`, default-initialised.
#[inline]
pub fn spawn_entities<T: Archetype>(
    world: &mut IndexedStorage<T>,
    mask: T::Mask,
    count: usize,
) -> Vec<Entity> {
    spawn_batch(world, mask, count, |_, _| {})
}

/// Spawns `count` entities with the components and tags of `mask`, then calls `init(view, row)`
/// for each new row.
#[inline]
pub fn spawn_batch<T: Archetype, F>(
    world: &mut IndexedStorage<T>,
    mask: T::Mask,
    count: usize,
    init: F,
) -> Vec<Entity>
where
    F: FnMut(&mut T::ViewMut<'_>, usize),
{
    let IndexedStorage { index, storage } = world;
    storage.spawn_batch(index, mask, count, init)
}

/// Spawns one entity per tuple of component values `values` yields, each value moved into its
/// column once (see `Storage::spawn_values`).
#[inline]
pub fn spawn_values<T: TypedTable, V: ComponentValues<T, M>, M>(
    world: &mut IndexedStorage<T>,
    values: impl IntoIterator<Item = V>,
) -> Vec<Entity> {
    let IndexedStorage { index, storage } = world;
    storage.spawn_values(index, values)
}

/// Spawns `count` entities with the builder's `values`, each a copy (the last takes the
/// originals): a world's `EntityBuilder::spawn`, `place_built` over its storage.
#[inline]
pub fn spawn_built<T: Archetype, V>(
    world: &mut IndexedStorage<T>,
    count: usize,
    values: V,
) -> Vec<Entity>
where
    Storage<T>: PlaceBuilt<V>,
{
    place_built(&mut world.index, &mut world.storage, count, values)
}

/// Spawns one entity with the builder's `values`, moved: a world's `EntityBuilder::spawn_one`,
/// `place_one` in its storage.
#[inline]
pub fn spawn_one<T: Archetype, V>(world: &mut IndexedStorage<T>, values: V) -> Entity
where
    Storage<T>: PlaceBuilt<V>,
{
    place_one(&mut world.index, &mut world.storage, values)
}

/// Spawns `count` entities issued by `index` with the builder's `values` in `parts` (a world's
/// storage, or every sub-world of a game), each a copy (the last takes the originals: an
/// `EntityBuilder`'s spawn); then links each to the targets `values` holds. The first copy is
/// made before any handle is issued, so a value whose type is not `Clone` panics with nothing
/// spawned; with `count` at most 1, nothing is copied.
#[inline]
pub(crate) fn place_built<V, P: PlaceBuilt<V> + IdRecords>(
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
/// [`place_built`] without its batch's `Vec`, each value pushed from where `values` holds it
/// (see `PlaceBuilt::place_one`).
#[inline]
pub(crate) fn place_one<V>(
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
pub fn despawn<T: Archetype>(world: &mut IndexedStorage<T>, entity: Entity) -> bool {
    world.storage.despawn(&mut world.index, entity)
}

/// Despawns every live entity of `entities`; returns the ones despawned.
#[inline]
pub fn despawn_entities<T: Archetype>(
    world: &mut IndexedStorage<T>,
    entities: &[Entity],
) -> Vec<Entity> {
    world.storage.despawn_entities(&mut world.index, entities)
}

impl<M: Bitmask> LifecycleCommand<M> {
    /// Applies the queued spawn or despawn to a world (its `apply_commands`); a spawn with
    /// values takes them from `staged`.
    #[doc(hidden)]
    #[inline]
    pub fn apply_to<T: Archetype<Mask = M>>(
        self,
        world: &mut IndexedStorage<T>,
        staged: &mut SpawnStaging<T>,
        report: &mut CommandReport,
    ) {
        let mut whole = Whole {
            index: &mut world.index,
            parts: &mut world.storage,
        };
        self.apply(&mut whole, staged, report);
    }
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

    #[inline]
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        if disabled {
            self.parts.disable(entity)
        } else {
            self.parts.enable(entity)
        }
    }
}

/// The world's command queue over `buffer`, its spawns reserving straight from its index.
#[inline]
pub fn command_queue<'a, T: Archetype, C: QueuedCommand>(
    world: &'a mut IndexedStorage<T>,
    buffer: &'a mut CommandBuffer<C>,
) -> CommandQueue<'a, C> {
    CommandQueue::new(buffer, &mut world.index, world.storage.records_mut())
}

/// The world's command queue over `buffer`, its spawns reserving through a reserver the
/// world's index lends, for while the storage is borrowed elsewhere (a world's command part,
/// beside its component part, in `split_mut()`).
#[inline]
pub fn lent_queue<'a, T: Archetype, C: QueuedCommand>(
    world: &mut IndexedStorage<T>,
    buffer: &'a mut CommandBuffer<C>,
) -> CommandQueue<'a, C> {
    let IndexedStorage { index, storage } = world;
    CommandQueue::lent(buffer, index.lend_reserver(storage.records_mut()))
}

/// Gives back every handle reserved for a queued spawn, in ascending id order (see
/// [`EntityIndex::release_all_reserved`]): none of them becomes alive. `clear_commands`
/// calls it.
#[inline]
pub fn release_all_reserved<T: Archetype>(world: &mut IndexedStorage<T>) {
    let IndexedStorage { index, storage } = world;
    index.release_all_reserved(storage.records_mut());
}

/// Makes `world` a copy of `source`, reusing the allocations, the source's reservations given
/// back (a world's `clone_from` and `restore`, once its queue is cleared): see
/// `storage::state::copy_whole`.
#[inline]
pub fn clone_from<T: Archetype + Clone>(world: &mut IndexedStorage<T>, source: &IndexedStorage<T>) {
    copy_whole(
        &mut world.index,
        &mut world.storage,
        &source.index,
        &source.storage,
    );
}

/// Ends a frame: the current tick becomes the last one and the tick advances.
#[inline]
pub fn end_frame<T: Archetype>(storage: &mut Storage<T>) {
    storage.end_frame();
}

/// The oldest change a declared hook waits for, taken with the values kept aside for its
/// hooks: a world's generated `run_hooks` runs its hooks. `round`: the rounds of commands its
/// sync point applied before (see `HookedChange`'s passes).
#[inline]
pub fn next_hooked_change<T: Archetype>(
    storage: &mut Storage<T>,
    round: u32,
) -> Option<HookedChange<T::Mask, T::Removed>> {
    storage.next_hooked_change(round)
}
