//! Tags in the storage. A tag is not a table property (tags create no tables, and tagging
//! never migrates), but each table keeps its rows grouped by tag signature
//! ([`TagPartition`]): tagging moves the row to its signature's segment inside its table, by
//! whole-row swaps. Membership is then the segment of the entity's row, and a tag filter
//! selects whole segments.

use super::Storage;
use super::tag_partition::TagPartition;
use super::walk::TagFilter;
use crate::archetype::{Archetype, TicksOf};
use crate::change_log::StructuralChange;
use crate::entity::{Entity, EntityLocation, EntityRecords};
use crate::mask::Bitmask;

impl<T: Archetype> Storage<T> {
    /// Adds the tags of `mask` to a live entity (never a migration); relation bits are left
    /// to linking. `false` for a dead handle.
    #[doc(hidden)]
    pub fn add_tags(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        let current = self.tags_at(location);
        let next = current | (mask & T::TAGS & !T::RELATIONS);
        if next != current {
            self.retag(location, next);
        }
        self.record(StructuralChange::Added {
            entity,
            mask: next & !current,
        });
        true
    }

    /// Removes the tags of `mask` from a live entity (relation bits are left to unlinking).
    /// `false` for a dead handle.
    #[doc(hidden)]
    pub fn remove_tags(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        let current = self.tags_at(location);
        let next = current & !(mask & T::TAGS & !T::RELATIONS);
        if next != current {
            self.retag(location, next);
        }
        let removed = current & !next;
        self.record_removed(entity, removed, |_| T::removed(removed));
        true
    }

    /// The tags a live entity has.
    #[doc(hidden)]
    #[inline]
    pub fn tag_mask(&self, entity: Entity) -> Option<T::Mask> {
        let location = self.locate(entity)?;
        Some(self.tags_at(location))
    }

    /// The entities holding every tag of `tags` (none when it holds no tag bit), table by
    /// table, in row order: disabled ones included (what a snapshot lists), so not through a
    /// query's walk, which skips them.
    #[doc(hidden)]
    pub fn tagged(&self, tags: T::Mask) -> impl Iterator<Item = Entity> + '_ {
        let tags = tags & T::TAGS;
        let filter = TagFilter::new::<T>(tags, T::Mask::EMPTY);
        let tables = self.tables.iter().zip(self.partitions.iter());
        (!tags.is_empty())
            .then(|| {
                tables.flat_map(move |(table, partition)| {
                    let entities = table.entities();
                    filter
                        .runs_of(table.len(), partition)
                        .flat_map(move |run| entities[run].iter().copied())
                })
            })
            .into_iter()
            .flatten()
    }

    // A world without tags keeps no partition: every row has no tag, every tag filter is
    // empty (so it selects whole tables), and its spawns, despawns and migrations skip the
    // bookkeeping below (`T::TAGS` is a constant: the branch folds away).

    /// The tags of the entity at `location`.
    #[inline]
    pub(super) fn tags_at(&self, location: EntityLocation) -> T::Mask {
        if T::TAGS.is_empty() {
            return T::Mask::EMPTY;
        }
        self.partitions[location.table()].tags_of(location.row())
    }

    /// Records `count` rows just appended to table `table_index`, of signature `tags`, and
    /// moves them into their segment. `true` when they moved (see [`TagPartition::push`]).
    #[inline]
    pub(super) fn join_segment(&mut self, table_index: usize, count: usize, tags: T::Mask) -> bool {
        if T::TAGS.is_empty() {
            return false;
        }
        let (partition, mut rows) = self.partition_mut(table_index);
        partition.push(count, tags, &mut |a, b| rows.swap(a, b))
    }

    /// Moves the row at `location` into the last segment of its table, where the table's
    /// `swap_remove` keeps the segments whole, and takes it out of the partition; returns
    /// where the row now is.
    #[inline]
    pub(super) fn leave_segment(&mut self, location: EntityLocation) -> EntityLocation {
        if T::TAGS.is_empty() {
            return location;
        }
        let (partition, mut rows) = self.partition_mut(location.table());
        let row = partition.remove(location.row(), &mut |a, b| rows.swap(a, b));
        EntityLocation::new(location.table(), row)
    }

    /// Repairs the partition after the table `swap_remove`d the row at `hole` (a migration
    /// out of it): the row that filled the hole goes back to the last segment.
    #[inline]
    pub(super) fn refill_segment(&mut self, hole: EntityLocation) {
        // The partition's removal of a row (see `TagPartition::remove`).
        self.leave_segment(hole);
    }

    /// Moves the row at `location` to the segment of signature `tags` in its table; returns
    /// the entity's new location.
    pub(super) fn retag(&mut self, location: EntityLocation, tags: T::Mask) -> EntityLocation {
        let table_index = location.table();
        let (partition, mut rows) = self.partition_mut(table_index);
        let row = partition.retag(location.row(), tags, &mut |a, b| rows.swap(a, b));
        EntityLocation::new(table_index, row)
    }

    /// The partition of table `table_index`, and the swap that carries out its row moves on
    /// the table, its change ticks and the entities' locations.
    #[inline]
    pub(super) fn partition_mut(
        &mut self,
        table_index: usize,
    ) -> (&mut TagPartition<T::Mask>, RowSwap<'_, T>) {
        let swap = RowSwap {
            table: &mut self.tables[table_index],
            ticks: &mut self.ticks[table_index],
            records: &mut self.records,
            table_index,
        };
        (&mut self.partitions[table_index], swap)
    }
}

/// Exchanges two rows of one table everywhere they are recorded: every column, the change
/// ticks and the two entities' locations.
pub(super) struct RowSwap<'a, T: Archetype> {
    table: &'a mut T,
    ticks: &'a mut TicksOf<T>,
    records: &'a mut EntityRecords,
    table_index: usize,
}

impl<T: Archetype> RowSwap<'_, T> {
    /// Exchanges rows `a` and `b`.
    #[inline]
    pub(super) fn swap(&mut self, a: usize, b: usize) {
        self.table.swap_rows(a, b);
        self.ticks.swap_rows(a, b);
        let entities = self.table.entities();
        let (first, second) = (entities[a], entities[b]);
        self.records
            .set_location(first.id, EntityLocation::new(self.table_index, a));
        self.records
            .set_location(second.id, EntityLocation::new(self.table_index, b));
    }
}
