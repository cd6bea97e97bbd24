//! Despawning: the bookkeeping that takes an entity out of the world (its id, tags, change
//! ticks, row and the rows around it), split from dropping its values, so a component `Drop`
//! that panics finds the world consistent, and a multi-world can let go of an entity in every
//! sub-world before any of its values is dropped.

use super::Storage;
use crate::{Archetype, Bitmask, Entity, StructuralChange};
use alloc::vec::Vec;

impl<T: Archetype> Storage<T> {
    /// Despawns `entity`, dropping its components. `false` for a dead, stale or never-issued
    /// handle.
    ///
    /// Its relations' policies apply: by a `[cascade]` relation its sources are despawned too
    /// (recursively), by the others they are unlinked; it is unlinked from its own targets.
    pub(crate) fn despawn(&mut self, entity: Entity) -> bool {
        if !T::CASCADE.is_empty() && self.has_cascading_sources(entity) {
            return self.despawn_cascading(entity);
        }
        // The values are dropped here, once the world no longer knows the entity.
        self.detach(entity).is_some()
    }

    /// Despawns every live entity of `entities`; returns the ones actually despawned.
    ///
    /// A component `Drop` that panics does so after its entity is despawned, and the entities
    /// after it are despawned while the panic unwinds: the call despawns all it was given.
    pub(crate) fn despawn_entities(&mut self, entities: &[Entity]) -> Vec<Entity> {
        let mut despawning = Despawning {
            storage: self,
            rest: entities.iter(),
        };
        let mut despawned = Vec::new();
        for &entity in despawning.rest.by_ref() {
            if despawning.storage.despawn(entity) {
                despawned.push(entity);
            }
        }
        despawned
    }

    /// Takes `entity` out of the world (its links undone and logged, its sources unlinked
    /// whatever their relation's policy, its id freed, its tags, change ticks and row
    /// removed, the row moved into the hole relocated, the despawn logged) and returns the
    /// values of its row that need dropping, for the caller to drop. `None`, changing nothing,
    /// for a dead, stale or never-issued handle.
    #[must_use = "the entity's values are dropped with what this returns"]
    pub(crate) fn detach(&mut self, entity: Entity) -> Option<T::Removed> {
        if !T::RELATIONS.is_empty() && self.is_alive(entity) {
            // First, since unlinking its sources moves rows (their relation bit is cleared).
            self.unlink_all(entity, false);
        }
        self.detach_row(entity)
    }

    /// [`detach`](Self::detach) once the entity's links are undone: its id, tags, change ticks
    /// and row.
    pub(super) fn detach_row(&mut self, entity: Entity) -> Option<T::Removed> {
        let location = self.locate(entity)?;
        // First into the last tag segment of its table, where a `swap_remove` keeps the
        // segments whole.
        let location = self.leave_segment(location);
        self.allocator.free(entity);
        self.record(StructuralChange::Despawned { entity });
        self.ticks[location.table()].swap_remove(location.row());
        let table = &mut self.tables[location.table()];
        if location.row() + 1 < table.len() {
            if let Some(&moved) = table.entities().last() {
                // Alive: it holds a row.
                self.allocator.relocate(moved.id, location);
            }
        }
        Some(table.swap_remove(location.row()))
    }
}

/// The entities of a `despawn_entities` call not reached yet. Dropped with some left only when a
/// component `Drop` panicked: it despawns them on the way out, so the call is complete.
struct Despawning<'a, T: Archetype> {
    storage: &'a mut Storage<T>,
    rest: core::slice::Iter<'a, Entity>,
}

impl<T: Archetype> Drop for Despawning<'_, T> {
    fn drop(&mut self) {
        for &entity in &mut self.rest {
            self.storage.despawn(entity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::test_world::*;

    type TestStorage = Storage<TestWorldComponentArrays>;

    #[test]
    fn detach_takes_the_entity_out_before_its_values_are_dropped() {
        let mut storage = TestStorage::new();
        let first = storage.spawn(NUMBER | NAME | MARKED);
        let last = storage.spawn(NUMBER | NAME);
        let values = storage.detach(first);
        assert!(values.is_some());
        // The world is already whole while the values are still held.
        assert!(!storage.is_alive(first));
        assert!(storage.is_alive(last));
        assert_eq!(storage.matching_entities(MARKED, 0).count(), 0);
        storage.check_invariants().unwrap();
        drop(values);
        assert!(storage.detach(first).is_none(), "already despawned");
        assert!(storage.detach(Entity::new(9, 0)).is_none(), "never issued");
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
