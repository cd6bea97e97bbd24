//! What changes the set of live entities: spawning, despawning, reserving handles for queued
//! spawns, and ending a frame. These are crate-private methods of [`Storage`], reached by
//! generated code through the functions below (`__private::lifecycle`), never by method syntax:
//! a world's component part dereferences to its storage, and a sub-world of a multi-world, whose
//! entities only the whole spawns and despawns, must not offer them.

use alloc::vec::Vec;

use super::Storage;
use crate::builder::EntityValues;
use crate::commands::{CommandBuffer, CommandQueue, QueuedCommand};
use crate::{Archetype, Entity, EntityReserver};

/// Spawns one entity with the components of `mask`, default-initialised, and its tags.
#[inline]
pub fn spawn<T: Archetype>(storage: &mut Storage<T>, mask: T::Mask) -> Entity {
    storage.spawn(mask)
}

/// Spawns `count` entities with the components and tags of `mask`, then calls `init(view, row)`
/// for each new row.
#[inline]
pub fn spawn_batch<T: Archetype, F>(
    storage: &mut Storage<T>,
    mask: T::Mask,
    count: usize,
    init: F,
) -> Vec<Entity>
where
    F: FnMut(&mut T::ViewMut<'_>, usize),
{
    storage.spawn_batch(mask, count, init)
}

/// Spawns `count` entities with the builder's `values`, each a copy (the last takes the
/// originals: an `EntityBuilder`'s spawn); then links each to the targets `values` holds. The
/// first copy is made before any handle is issued, so a value whose type is not `Clone`
/// panics with nothing spawned; with `count` at most 1, nothing is copied.
#[inline]
pub fn spawn_built<T: Archetype, V: EntityValues<Archetype = T>>(
    storage: &mut Storage<T>,
    count: usize,
    values: V,
) -> Vec<Entity> {
    let first_copy = (count > 1).then(|| values.copy_held());
    let entities = storage.allocator.allocate_many(count);
    storage.place_built(&entities, true, first_copy, values);
    entities
}

/// Spawns one entity with the builder's `values`, moved (an `EntityBuilder`'s `spawn_one`):
/// [`spawn_built`] without its batch's `Vec`.
#[inline]
pub fn spawn_one<T: Archetype, V: EntityValues<Archetype = T>>(
    storage: &mut Storage<T>,
    values: V,
) -> Entity {
    let entity = storage.allocator.allocate();
    storage.place_built(&[entity], true, None, values);
    entity
}

/// Despawns `entity` (its relations' policies apply); `false` for a dead handle.
#[inline]
pub fn despawn<T: Archetype>(storage: &mut Storage<T>, entity: Entity) -> bool {
    storage.despawn(entity)
}

/// Despawns every live entity of `entities`; returns the ones despawned.
#[inline]
pub fn despawn_entities<T: Archetype>(
    storage: &mut Storage<T>,
    entities: &[Entity],
) -> Vec<Entity> {
    storage.despawn_entities(entities)
}

/// The world's command queue over `buffer`, reserving from the storage's allocator.
#[inline]
pub fn command_queue<'a, T: Archetype, C: QueuedCommand>(
    storage: &'a mut Storage<T>,
    buffer: &'a mut CommandBuffer<C>,
) -> CommandQueue<'a, C> {
    storage.command_queue(buffer)
}

/// Lends a reserver for queued spawns made while the storage is borrowed elsewhere.
#[inline]
pub fn entity_reserver<T: Archetype>(storage: &mut Storage<T>) -> EntityReserver {
    storage.entity_reserver()
}

/// Gives back every handle reserved for a queued spawn.
#[inline]
pub fn release_all_reserved<T: Archetype>(storage: &mut Storage<T>) {
    storage.release_all_reserved();
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
) -> Option<crate::StructuralChange<T::Mask>> {
    storage.next_hooked_change()
}
