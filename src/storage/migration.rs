//! Structural change: adding and removing components moves an entity's row to the table of
//! its new mask (one migration for many bits). The values the destination lacks wait past the
//! source table's last row and are dropped last, after the bookkeeping (the tags of the same
//! call included), so a component `Drop` that panics leaves the operation complete.

use super::{Storage, pair_mut};
use crate::archetype::{Archetype, drop_parked};
use crate::change_log::StructuralChange;
use crate::edges::Change;
use crate::entity::{Entity, EntityLocation};
use crate::mask::Bitmask;

impl<T: Archetype> Storage<T> {
    /// Adds the components of `mask` (default values) in one migration (the row moves to the
    /// table with them: O(the entity's components)); components already present keep their
    /// values, and nothing moves if it has them all. Tag bits of `mask` add the tags (no
    /// migration). The world's rules apply in the same migration: what the components require
    /// comes too, and the other members of their exclusive groups go. `false` for a dead,
    /// stale (id reused) or never-issued handle, or an addition the rules refuse (a member it
    /// displaces is required by a `[refuse]` requirement): nothing changes then.
    pub fn add_components(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        // Without rules nothing is removed by an addition: nothing is parked.
        let Some((_, parked)) = self.change_row(
            entity,
            location,
            Change::Add(mask & T::COMPONENTS),
            T::HOOKS.kept(),
        ) else {
            return false;
        };
        if !(mask & T::TAGS).is_empty() {
            self.add_tags(entity, mask);
        }
        self.drop_parked(parked);
        true
    }

    /// Removes the components of `mask` in one migration (the row moves to the table without
    /// them: O(the entity's components)), dropping their values; nothing moves if it has none
    /// of them. Tag bits of `mask` remove the tags (no migration). The world's rules apply in
    /// the same migration: the components requiring one removed go too. `false` for a dead,
    /// stale (id reused) or never-issued handle, or a removal the rules refuse (a `[refuse]`
    /// requirement of a component that stays): nothing changes then.
    pub fn remove_components(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        let Some((_, parked)) = self.change_row(
            entity,
            location,
            Change::Remove(mask & T::COMPONENTS),
            T::HOOKS.kept(),
        ) else {
            return false;
        };
        if !(mask & T::TAGS).is_empty() {
            self.remove_tags(entity, mask);
        }
        // Last: a component `Drop` that panics finds the tags removed too.
        self.drop_parked(parked);
        true
    }

    /// Applies `change` to the live `entity` at `location` (one migration, or none when the
    /// mask does not change, or the world's rules refuse it), drops the values it removed (but
    /// those of `keep` a removal hook waits for, kept aside for it), and returns the new
    /// location.
    pub(super) fn apply_change(
        &mut self,
        entity: Entity,
        location: EntityLocation,
        change: Change<T::Mask>,
        keep: T::Mask,
    ) -> EntityLocation {
        match self.change_row(entity, location, change, keep) {
            Some((location, parked)) => {
                self.drop_parked(parked);
                location
            }
            None => location,
        }
    }

    /// [`apply_change`](Self::apply_change), leaving the values the destination lacks parked
    /// (none without a migration) for the caller to drop with
    /// [`drop_parked`](Self::drop_parked) once its own bookkeeping is done; those of `keep`
    /// go to the removal's hooks instead, if one waits for it. The world's rules make of
    /// `change` the change really applied (`Rules::settle`, nothing without rules); `None`
    /// when they refuse it, and nothing changed.
    fn change_row(
        &mut self,
        entity: Entity,
        location: EntityLocation,
        change: Change<T::Mask>,
        keep: T::Mask,
    ) -> Option<(EntityLocation, Parked<T::Mask>)> {
        let current = self.tables[location.table()].mask();
        let change = T::RULES.settle(current, change)?;
        let next = change.apply(current);
        if next == current {
            return Some((location, Parked::NOTHING));
        }
        let source = location.table();
        let destination = self.destination(source, change);
        let (location, mut columns) = self.migrate(entity, location, destination, change, next);
        // Only the world's rules make a switch: without them its arms fold away.
        let switch = !T::RULES.is_empty() && matches!(change, Change::Switch(_));
        if matches!(change, Change::Remove(_)) || switch {
            let removed = current & !next;
            self.record_removed(entity, removed, |storage| {
                let mut values = T::removed(removed);
                let kept = columns & keep;
                storage.tables[source].keep_parked(kept, &mut values);
                columns &= !kept;
                values
            });
        }
        if switch {
            // A switch's removal first, then its addition: hooks read them in that order.
            self.record(StructuralChange::Added {
                entity,
                mask: next & !current,
            });
        }
        let parked = Parked {
            table: source,
            columns,
        };
        Some((location, parked))
    }

    /// Drops the values a migration parked (its last step, after the caller's bookkeeping).
    fn drop_parked(&mut self, parked: Parked<T::Mask>) {
        if let Some(table) = self.tables.get_mut(parked.table) {
            drop_parked(table, parked.columns);
        }
    }

    /// The table reached from `table_index` by `change`: an edge when one is known, else the
    /// mask lookup (creating the table), remembered for next time.
    fn destination(&mut self, table_index: usize, change: Change<T::Mask>) -> usize {
        if let Some(destination) = self.edges.destination(table_index, change) {
            return destination;
        }
        let destination = self.table_of(change.apply(self.tables[table_index].mask()));
        self.edges.remember(table_index, change, destination);
        destination
    }

    /// Moves `entity`'s row from `from` to the end of table `to` (of mask `next`), fixes the
    /// locations of the entity and of the row moved into the hole, moves its change ticks,
    /// records an addition (the caller records a removal, whose hooks read the values it
    /// parked), and returns the entity's new location and the components the destination
    /// lacks.
    ///
    /// A component `Default` that panics does so before anything moved (nothing is done); the
    /// values the destination lacks stay parked in table `from` for the caller to drop after its
    /// bookkeeping, so a `Drop` that panics leaves the migration complete.
    pub(super) fn migrate(
        &mut self,
        entity: Entity,
        from: EntityLocation,
        to: usize,
        change: Change<T::Mask>,
        next: T::Mask,
    ) -> (EntityLocation, T::Mask) {
        let tags = self.tags_at(from);
        let location = EntityLocation::new(to, self.tables[to].len());
        let (source, destination) = pair_mut(&mut self.tables, from.table(), to);
        let parked = source.move_row(from.row(), destination);
        if !T::TRACKED.is_empty() {
            // An all-`[untracked]` world has no stamps to move.
            let (source_ticks, destination_ticks) = pair_mut(&mut self.ticks, from.table(), to);
            source_ticks.move_row(from.row(), destination_ticks, self.tick);
        }
        // Reached once: each mutable reach of the records clears their version.
        let records = &mut *self.records;
        records.set_location(entity.id, location);
        if let Some(&moved) = self.tables[from.table()].entities().get(from.row()) {
            records.set_location(moved.id, from);
        }
        // The source's last row filled the hole: back to its segment. The entity joins the
        // segment of its tags in the destination.
        self.refill_segment(from);
        let location = if self.join_segment(to, 1, tags) {
            self.locate(entity).unwrap_or(location)
        } else {
            location
        };
        if let Change::Add(_) = change {
            self.record(StructuralChange::Added {
                entity,
                mask: next & !self.tables[from.table()].mask(),
            });
        }
        (location, parked)
    }
}

/// The components whose values a migration parked past the last row of table `table` (see
/// [`Archetype::move_row`]).
struct Parked<M> {
    table: usize,
    columns: M,
}

impl<M: Bitmask> Parked<M> {
    const NOTHING: Parked<M> = Parked {
        table: 0,
        columns: M::EMPTY,
    };
}

#[cfg(test)]
mod tests {
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;

    #[test]
    fn one_call_moves_components_and_tags_together() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let entity = storage.spawn(NUMBER);
        assert!(storage.add_components(entity, NAME | MARKED));
        assert_eq!(storage.component_mask(entity), Some(NUMBER | NAME | MARKED));
        assert!(storage.remove_components(entity, NAME | MARKED));
        assert_eq!(storage.component_mask(entity), Some(NUMBER));
        storage.despawn(entity);
        assert!(!storage.add_components(entity, NAME), "dead");
        assert!(!storage.remove_components(entity, NUMBER | MARKED), "dead");
        storage.check_invariants().unwrap();
    }
}
