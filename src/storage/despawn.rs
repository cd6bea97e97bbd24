//! Despawning: the bookkeeping that takes an entity out of the world (its id, tags, change
//! ticks, row and the rows around it), split from dropping its values, so a component `Drop`
//! that panics finds the world consistent, and a multi-world can let go of an entity in every
//! sub-world before any of its values is dropped.

use super::Storage;
use crate::{Archetype, Entity, StructuralChange};

impl<T: Archetype> Storage<T> {
    /// Despawns `entity`, dropping its components. `false` for a dead, stale or never-issued
    /// handle.
    pub fn despawn(&mut self, entity: Entity) -> bool {
        // The values are dropped here, once the world no longer knows the entity.
        self.detach(entity).is_some()
    }

    /// Despawns every live entity of `entities`; returns the ones actually despawned.
    ///
    /// Every entity is taken out before any value is dropped, so a component `Drop` that
    /// panics leaves them all despawned.
    pub fn despawn_entities(&mut self, entities: &[Entity]) -> Vec<Entity> {
        let mut despawned = Vec::new();
        let mut values = Vec::new();
        for &entity in entities {
            if let Some(row) = self.detach(entity) {
                despawned.push(entity);
                values.push(row);
            }
        }
        // A `Drop` that panics here still has the rest of `values` dropped by the unwinding.
        drop(values);
        despawned
    }

    /// Takes `entity` out of the world (its id is freed, its tags, change ticks and row
    /// removed, the row moved into the hole relocated, the despawn logged) and returns the
    /// values of its row for the caller to drop. `None`, changing nothing, for a dead, stale or
    /// never-issued handle.
    #[must_use = "the entity's values are dropped with what this returns"]
    pub fn detach(&mut self, entity: Entity) -> Option<T::Removed> {
        let location = self.locate(entity)?;
        self.allocator.free(entity);
        for set in &mut self.tags {
            set.remove(entity);
        }
        self.record(StructuralChange::Despawned { entity });
        self.ticks[location.table()].swap_remove(location.row());
        let table = &mut self.tables[location.table()];
        if location.row() + 1 < table.len() {
            if let Some(&moved) = table.entities().last() {
                self.allocator.set_location(moved.id, location);
            }
        }
        Some(table.swap_remove(location.row()))
    }
}
