//! Despawning: the bookkeeping that takes an entity out of the world (its id, tags, change
//! ticks, row and the rows around it), split from dropping its values, so a component `Drop`
//! that panics finds the world consistent, and a multi-world can let go of an entity in every
//! sub-world before any of its values is dropped.
//!
//! The loops of despawning (one entity and its cascade, a list of entities with its panic
//! guard) are written once, over [`Whole`]: an index and its [`Parts`], a world's storage or
//! every sub-world of a multi-world (`crate::multi_world`).

use super::Storage;
use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::entity::{Entity, EntityIndex, EntityLocation, IdRecords};
use crate::mask::Bitmask;
use alloc::vec::Vec;

/// What the despawn loops take entities out of: [`Whole`], an index and the parts it issues
/// into.
pub(crate) trait Despawn {
    /// The values one entity leaves behind, dropped by the caller once it is gone.
    type Values;
    /// The values a cascade gathers, dropped after its last entity is gone.
    type Gathered: Default;

    /// Whether `entity` is alive.
    fn is_alive(&self, entity: Entity) -> bool;

    /// Whether despawning `entity` cascades to other entities.
    fn has_cascading_sources(&self, entity: Entity) -> bool;

    /// Pushes the sources of `entity` in every `[cascade]` relation onto `stack`, relation by
    /// relation, each in link order.
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>);

    /// Takes `entity` out (see [`Storage::detach`]); `None` for a dead handle.
    fn detach(&mut self, entity: Entity) -> Option<Self::Values>;

    /// Takes `entity` out within a cascade (see [`Storage::detach_cascading`]), adding its
    /// values to `gathered`.
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut Self::Gathered);
}

/// The parts of a world or game as a despawn reaches them: a world's storage, or every
/// sub-world of a game at once. Each takes the rows of a live entity out, and has the index
/// that issued it free its id in every part's records, before any of its values is dropped.
pub trait Parts: IdRecords {
    /// The values one entity leaves in the parts.
    type Values;
    /// The values a cascade takes out of the parts.
    type Gathered: Default;

    /// Whether despawning `entity` cascades, by the relations of any part.
    fn has_cascading_sources(&self, entity: Entity) -> bool;

    /// Pushes the sources of `entity` in every part's `[cascade]` relations onto `stack`.
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>);

    /// Takes `entity`'s rows out of every part and has `index` free its id; its values, or
    /// `None` for a dead handle.
    fn detach(&mut self, index: &mut EntityIndex, entity: Entity) -> Option<Self::Values>;

    /// [`detach`](Self::detach) within a cascade, adding the values to `gathered` (nothing for
    /// a dead handle).
    fn detach_cascading(
        &mut self,
        index: &mut EntityIndex,
        entity: Entity,
        gathered: &mut Self::Gathered,
    );
}

/// A world or game as the despawn loops' target: its index and its parts.
pub(crate) struct Whole<'a, P> {
    pub(crate) index: &'a mut EntityIndex,
    pub(crate) parts: &'a mut P,
}

impl<P: Parts> Despawn for Whole<'_, P> {
    type Values = P::Values;
    type Gathered = P::Gathered;

    #[inline]
    fn is_alive(&self, entity: Entity) -> bool {
        self.parts.reference().is_alive(entity)
    }

    #[inline]
    fn has_cascading_sources(&self, entity: Entity) -> bool {
        self.parts.has_cascading_sources(entity)
    }

    #[inline]
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>) {
        self.parts.push_cascading_sources(entity, stack);
    }

    #[inline]
    fn detach(&mut self, entity: Entity) -> Option<P::Values> {
        self.parts.detach(self.index, entity)
    }

    #[inline]
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut P::Gathered) {
        self.parts.detach_cascading(self.index, entity, gathered);
    }
}

/// A world's storage: its one part, whose records the index frees in the middle of the
/// row's removal (where the record is still in cache).
impl<T: Archetype> Parts for Storage<T> {
    type Values = T::Removed;
    type Gathered = Vec<T::Removed>;

    #[inline]
    fn has_cascading_sources(&self, entity: Entity) -> bool {
        // A constant: a world without cascading relations never looks.
        !T::CASCADE.is_empty() && Storage::has_cascading_sources(self, entity)
    }

    #[inline]
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>) {
        Storage::push_cascading_sources(self, entity, stack);
    }

    #[inline]
    fn detach(&mut self, index: &mut EntityIndex, entity: Entity) -> Option<T::Removed> {
        Storage::detach(self, entity, Some(index))
    }

    #[inline]
    fn detach_cascading(
        &mut self,
        index: &mut EntityIndex,
        entity: Entity,
        gathered: &mut Vec<T::Removed>,
    ) {
        // A push rather than `extend` of the `Option`: no iterator code compiled for it.
        if let Some(removed) = Storage::detach_cascading(self, entity, Some(index)) {
            gathered.push(removed);
        }
    }
}

/// Despawns `entity`, dropping its values. `false` for a dead, stale or never-issued handle.
///
/// Its relations' policies apply: by a `[cascade]` relation its sources are despawned too
/// (recursively), by the others they are unlinked; it is unlinked from its own targets.
pub(crate) fn despawn<D: Despawn>(target: &mut D, entity: Entity) -> bool {
    if target.has_cascading_sources(entity) {
        return despawn_cascading(target, entity);
    }
    // The values are dropped here, once the world no longer knows the entity.
    target.detach(entity).is_some()
}

/// Despawns `entity` and, by the `[cascade]` relations, its sources recursively (depth first,
/// pre-order); the sources of the other relations are unlinked. Every entity is taken out
/// before any value is dropped. `false` for a dead handle.
pub(crate) fn despawn_cascading<D: Despawn>(target: &mut D, entity: Entity) -> bool {
    if !target.is_alive(entity) {
        return false;
    }
    let mut stack = vec![entity];
    let mut gathered = D::Gathered::default();
    while let Some(next) = stack.pop() {
        // Reached twice through two cascading relations: taken out already.
        if !target.is_alive(next) {
            continue;
        }
        let first = stack.len();
        target.push_cascading_sources(next, &mut stack);
        // Popped in link order, relation by relation: pre-order.
        stack[first..].reverse();
        target.detach_cascading(next, &mut gathered);
    }
    // Last, with the world consistent: a component `Drop` that panics finds it so.
    drop(gathered);
    true
}

/// Despawns every live entity of `entities`; returns the ones actually despawned.
///
/// A component `Drop` that panics does so after its entity is despawned, and the entities
/// after it are despawned while the panic unwinds: the call despawns all it was given.
pub(crate) fn despawn_entities<D: Despawn>(target: &mut D, entities: &[Entity]) -> Vec<Entity> {
    let mut despawning = Despawning {
        target,
        rest: entities.iter(),
    };
    let mut despawned = Vec::new();
    for &entity in despawning.rest.by_ref() {
        if despawn(despawning.target, entity) {
            despawned.push(entity);
        }
    }
    despawned
}

impl<T: Archetype> Storage<T> {
    /// Despawns `entity`, issued by `index`, dropping its components: see [`despawn`].
    pub(crate) fn despawn(&mut self, index: &mut EntityIndex, entity: Entity) -> bool {
        despawn(&mut Whole { index, parts: self }, entity)
    }

    /// Despawns every live entity of `entities`: see [`despawn_entities`].
    pub(crate) fn despawn_entities(
        &mut self,
        index: &mut EntityIndex,
        entities: &[Entity],
    ) -> Vec<Entity> {
        despawn_entities(&mut Whole { index, parts: self }, entities)
    }

    /// Takes `entity`'s row out of the storage (its links undone and logged, its sources
    /// unlinked whatever their relation's policy, its tags, change ticks and row removed, the
    /// row moved into the hole relocated, the despawn logged) and returns the values of its row
    /// that need dropping, for the caller to drop. `index`, when this storage's records are
    /// the only ones it writes (a world's), frees the id; a game's index frees it once every
    /// sub-world has let go of the row. `None`, changing nothing, for a dead, stale or
    /// never-issued handle.
    #[must_use = "the entity's values are dropped with what this returns"]
    pub(crate) fn detach(
        &mut self,
        entity: Entity,
        index: Option<&mut EntityIndex>,
    ) -> Option<T::Removed> {
        if !T::RELATIONS.is_empty() && self.is_alive(entity) {
            // First, since unlinking its sources moves rows (their relation bit is cleared).
            self.unlink_all(entity, false);
        }
        self.detach_row(entity, index)
    }

    /// [`detach`](Self::detach) once the entity's links are undone: its tags, change ticks and
    /// row.
    pub(super) fn detach_row(
        &mut self,
        entity: Entity,
        index: Option<&mut EntityIndex>,
    ) -> Option<T::Removed> {
        let location = self.locate(entity)?;
        Some(self.detach_row_at(entity, location, index))
    }

    /// Where a game's despawn will find a later sub-world's row of `entity`, read before its
    /// first sub-world checks the handle and lets go of its own row (so the reads of the
    /// sub-worlds' records overlap): `None` if this storage's relations may move the row first
    /// (see [`detach`](Self::detach)), then found again. Meaningless for a dead handle, which
    /// the first sub-world turns away.
    #[inline]
    pub(crate) fn locate_for_detach(&self, entity: Entity) -> Option<EntityLocation> {
        if T::RELATIONS.is_empty() {
            self.records.claimed_location(entity)
        } else {
            None
        }
    }

    /// [`detach`](Self::detach) without a storage's index (a game's first sub-world, whose
    /// check of the handle is the game's): the row's removal inlined into the game's despawn
    /// when no relation can move rows first.
    #[must_use = "the entity's values are dropped with what this returns"]
    #[inline]
    pub(crate) fn detach_first(&mut self, entity: Entity) -> Option<T::Removed> {
        if !T::RELATIONS.is_empty() {
            return self.detach(entity, None);
        }
        let location = self.locate(entity)?;
        Some(self.detach_row_at(entity, location, None))
    }

    /// [`detach`](Self::detach) of the live `entity` found at `location` by
    /// [`locate_for_detach`](Self::locate_for_detach) (a game's later sub-worlds,
    /// its liveness proven by the first), or of any live entity with `None`.
    #[must_use = "the entity's values are dropped with what this returns"]
    #[inline]
    pub(crate) fn detach_alive(
        &mut self,
        entity: Entity,
        location: Option<EntityLocation>,
    ) -> Option<T::Removed> {
        let Some(location) = location else {
            return self.detach(entity, None);
        };
        debug_assert_eq!(self.locate(entity), Some(location), "{entity} moved");
        Some(self.detach_row_at(entity, location, None))
    }

    /// [`detach_row`](Self::detach_row) of the live `entity`, whose row is at `location`.
    /// Always inlined: into `detach_row` (its body there, as before) and into a game's
    /// despawn for its later sub-worlds, where a call cost more than the row's removal saved.
    #[inline(always)]
    fn detach_row_at(
        &mut self,
        entity: Entity,
        location: EntityLocation,
        index: Option<&mut EntityIndex>,
    ) -> T::Removed {
        // What the entity had, if a hook waits for its despawn (a constant test: a world
        // without removal hooks never looks).
        let hooked = if !T::HOOKS.waits_for_despawns() {
            None
        } else {
            let components = self.tables[location.table()].mask() & T::COMPONENTS;
            let had = components | self.tags_at(location);
            T::HOOKS.waits_for_despawn(had).then_some(had)
        };
        // First into the last tag segment of its table, where a `swap_remove` keeps the
        // segments whole.
        let location = self.leave_segment(location);
        if let Some(index) = index {
            // Here, where its record is still in cache (freeing after the row moves cost a
            // tenth of a despawn).
            index.free(entity, &mut *self.records);
        }
        self.log(StructuralChange::Despawned { entity });
        self.ticks[location.table()].swap_remove(location.row());
        let table = &mut self.tables[location.table()];
        if location.row() + 1 < table.len() {
            if let Some(&moved) = table.entities().last() {
                // Alive: it holds a row.
                self.records.relocate(moved.id, location);
            }
        }
        let Some(had) = hooked else {
            return table.swap_remove(location.row());
        };
        // The values its hooks read are kept aside with the despawn, until they ran: its
        // `on_remove` hooks, then its `on_despawn`.
        let (dropped, kept) = table.swap_remove_keeping(location.row(), T::HOOKS.kept(), had);
        self.keep_despawn_for_hooks(entity, had, kept);
        dropped
    }
}

/// The entities of a `despawn_entities` call not reached yet. Dropped with some left only when a
/// component `Drop` panicked: it despawns them on the way out, so the call is complete.
struct Despawning<'a, 'e, D: Despawn> {
    target: &'a mut D,
    rest: core::slice::Iter<'e, Entity>,
}

impl<D: Despawn> Drop for Despawning<'_, '_, D> {
    fn drop(&mut self) {
        for &entity in &mut self.rest {
            despawn(self.target, entity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::test_world::*;

    type TestStorage = crate::storage::tests::TestStorage<TestWorldComponentArrays>;

    #[test]
    fn detach_takes_the_entity_out_before_its_values_are_dropped() {
        let mut storage = TestStorage::new();
        let first = storage.spawn(NUMBER | NAME | MARKED);
        let last = storage.spawn(NUMBER | NAME);
        let mut whole = Whole {
            index: &mut storage.index,
            parts: &mut storage.storage,
        };
        let values = Despawn::detach(&mut whole, first);
        assert!(values.is_some());
        // The world is already whole while the values are still held.
        assert!(!storage.is_alive(first));
        assert!(storage.is_alive(last));
        assert_eq!(storage.matching_entities(MARKED, 0).count(), 0);
        storage.check_invariants().unwrap();
        drop(values);
        let mut whole = Whole {
            index: &mut storage.index,
            parts: &mut storage.storage,
        };
        assert!(
            Despawn::detach(&mut whole, first).is_none(),
            "already despawned"
        );
        assert!(
            Despawn::detach(&mut whole, Entity::new(9, 0)).is_none(),
            "never issued"
        );
        storage.check_invariants().unwrap();
    }

    #[test]
    fn despawn_entities_skips_the_dead_and_reports_the_rest() {
        let mut storage = TestStorage::new();
        let entities: Vec<Entity> = (0..4).map(|_| storage.spawn(NUMBER)).collect();
        storage.despawn(entities[1]);
        let despawned = storage.despawn_entities(&[entities[0], entities[1], entities[3]]);
        assert_eq!(despawned, vec![entities[0], entities[3]]);
        assert_eq!(storage.entities().collect::<Vec<_>>(), vec![entities[2]]);
        storage.check_invariants().unwrap();
    }
}
