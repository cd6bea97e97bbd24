//! Disabled entities: a disabled entity lives in the tables whose mask also holds
//! [`Bitmask::DISABLED`] (the mask's top bit, which no component takes), one per set of
//! components, so every query form, which excludes that bit unless it asks for it
//! (`QueryMasks::new`), skips it when it matches tables: no test per row, and a world that
//! never disables has no such table. Disabling or enabling moves the row to the twin table
//! (every column moved, nothing added or dropped, no hook, no change stamp); the entity keeps
//! its handle, components, tags and links.

use super::Storage;
use crate::archetype::Archetype;
use crate::edges::Change;
use crate::entity::Entity;
use crate::mask::Bitmask;
use alloc::vec::Vec;

impl<T: Archetype> Storage<T> {
    /// Disables `entity`: every query skips it (typed queries, the `for_each` family,
    /// `query_entities`, counts, systems' queries) unless it asks for
    /// [`Bitmask::DISABLED`], while it keeps its handle, components, tags and links, and
    /// lookups by handle (`get_<c>`, `component_mask`) still find it. One row move; no hook
    /// fires and nothing is stamped changed. `true` if the entity is alive (disabled now,
    /// whether or not it was before), `false` for a dead, stale or never-issued handle.
    pub fn disable(&mut self, entity: Entity) -> bool {
        self.set_disabled(entity, true)
    }

    /// Enables a disabled `entity` again: queries find it as before, with everything it had.
    /// `true` if the entity is alive (enabled now), `false` for a dead, stale or never-issued
    /// handle.
    pub fn enable(&mut self, entity: Entity) -> bool {
        self.set_disabled(entity, false)
    }

    /// Whether `entity` is alive and disabled (`false` for a dead, stale or never-issued
    /// handle).
    #[inline]
    pub fn is_disabled(&self, entity: Entity) -> bool {
        self.locate_with(entity, T::Mask::DISABLED).is_some()
    }

    /// Disables `entity` and every entity below it in the relation `relation` (its sources,
    /// theirs, and so on: a whole subtree of `CHILD_OF` in one call). The number of entities
    /// disabled (0 for a dead handle; only `entity` when `relation` is no relation's bit).
    pub fn disable_tree(&mut self, relation: T::Mask, entity: Entity) -> usize {
        self.set_tree_disabled(relation, entity, true)
    }

    /// Enables `entity` and every entity below it in the relation `relation`, as
    /// [`disable_tree`](Self::disable_tree) disabled them. The number of entities enabled.
    pub fn enable_tree(&mut self, relation: T::Mask, entity: Entity) -> usize {
        self.set_tree_disabled(relation, entity, false)
    }

    fn set_tree_disabled(&mut self, relation: T::Mask, entity: Entity, disabled: bool) -> usize {
        if !self.is_alive(entity) {
            return 0;
        }
        // Gathered first: the walk borrows the relation while the rows move.
        let subtree: Vec<Entity> = core::iter::once(entity)
            .chain(self.descendants(relation, entity))
            .collect();
        for &member in &subtree {
            self.set_disabled(member, disabled);
        }
        subtree.len()
    }

    /// Moves the live `entity` to the twin of its table with or without the disabled bit.
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        let current = self.tables[location.table()].mask();
        if current.contains(T::Mask::DISABLED) == disabled {
            return true;
        }
        let next = if disabled {
            current | T::Mask::DISABLED
        } else {
            current & !T::Mask::DISABLED
        };
        let destination = self.table_of(next);
        // An empty removal: every column moves, none is parked, nothing is recorded.
        self.migrate(
            entity,
            location,
            destination,
            Change::Remove(T::Mask::EMPTY),
            next,
        );
        true
    }
}
