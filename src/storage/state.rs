//! The storage's whole state: cloning it (a world clone, and a restore that reuses the
//! allocations of the world it overwrites) and rebuilding it from a snapshot's parts.

use super::Storage;
#[cfg(feature = "serde")]
use super::TagPartition;
use crate::EntityAllocator;
#[cfg(feature = "serde")]
use crate::change_ticks::TicksOf;
use crate::entity::{EntityIndex, EntityRecords};
#[cfg(feature = "serde")]
use crate::entity_set::EntitySet;
use crate::{Archetype, Tick};
#[cfg(feature = "serde")]
use crate::{Bitmask, EntityLocation};
#[cfg(feature = "serde")]
use alloc::vec::Vec;

/// An exact copy: tables, allocator, change ticks, the structural change log, and the caches
/// (the edge graph and the query cache), so the clone behaves exactly as the original would.
impl<T: Archetype + Clone> Clone for Storage<T> {
    fn clone(&self) -> Self {
        let mut storage = Storage::new();
        storage.clone_from(self);
        storage
    }

    /// Overwrites `self` with a copy of `source`, field by field, so the vectors (tables and
    /// their columns first) keep their allocations where they are large enough: the restore of
    /// a rollback. If a component's `Clone` (or the `Drop` of a value it overwrites) panics on
    /// the way, `self` is left empty, never half-copied, with an allocator that never issues a
    /// handle either storage issued (see
    /// [`EntityAllocator::empty_beyond`](crate::EntityAllocator::empty_beyond)), its clock and
    /// its change log going on. Destructured, so a field added later cannot be forgotten.
    fn clone_from(&mut self, source: &Self) {
        let mut guard = EmptyOnUnwind {
            storage: self,
            source,
            done: false,
        };
        let Storage {
            allocator,
            tables,
            ticks,
            table_lookup,
            edges,
            queries,
            partitions,
            relations,
            tick,
            last_tick,
            change_log,
            log_changes,
            hooks,
        } = &mut *guard.storage;
        // First: the one copy that runs component code (`Clone`, and `Drop` of the values
        // overwritten), so a panic finds every other field still this storage's own.
        tables.clone_from(&source.tables);
        ticks.clone_from(&source.ticks);
        table_lookup.clone_from(&source.table_lookup);
        edges.clone_from(&source.edges);
        queries.clone_from(&source.queries);
        partitions.clone_from(&source.partitions);
        relations.clone_from(&source.relations);
        *tick = source.tick;
        *last_tick = source.last_tick;
        change_log.clone_from(&source.change_log);
        *log_changes = source.log_changes;
        // As queued commands: a copy starts with no change waiting for its hooks.
        hooks.clear();
        allocator.clone_from(&source.allocator);
        guard.done = true;
    }
}

/// Empties the storage it guards when dropped before `done` is set: by a panic in the middle of
/// a `clone_from`, which would otherwise leave some columns copied and others not. What the
/// consumers of the storage hold stays meaningful: the emptied storage issues none of the
/// handles either storage issued, its clock is the later of the two (a write after the panic
/// is newer than any tick read before), and its change log goes on (cleared: cursors count
/// the dropped entries as lost, and read what is recorded next).
struct EmptyOnUnwind<'a, T: Archetype> {
    storage: &'a mut Storage<T>,
    source: &'a Storage<T>,
    done: bool,
}

impl<T: Archetype> Drop for EmptyOnUnwind<'_, T> {
    fn drop(&mut self) {
        if !self.done {
            self.storage.empty_beyond(self.source);
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// Empties this storage after a copy from `source` failed half-way (see `EmptyOnUnwind`):
    /// no table, an allocator that issues none of the handles either storage issued, the
    /// later of the two clocks, and its change log cleared but going on.
    pub(crate) fn empty_beyond(&mut self, source: &Self) {
        let later = |mine: Tick, theirs: Tick| {
            if theirs.is_newer_than(mine) {
                theirs
            } else {
                mine
            }
        };
        let mut emptied = Storage::new();
        *emptied.allocator = self.allocator.empty_beyond(&source.allocator);
        emptied.tick = later(self.tick, source.tick);
        emptied.last_tick = later(self.last_tick, source.last_tick);
        emptied.change_log = core::mem::take(&mut self.change_log);
        emptied.change_log.clear();
        emptied.log_changes = self.log_changes;
        *self = emptied;
    }

    /// Empties a multi-world's sub-world after a copy of its game failed half-way: as
    /// [`empty_beyond`](Self::empty_beyond), but with `records`, the game's index's emptied
    /// records, which every sub-world keeps alike.
    pub(crate) fn empty_beyond_with(&mut self, source: &Self, records: &EntityRecords) {
        self.empty_beyond(source);
        *self.allocator = EntityAllocator {
            index: EntityIndex::default(),
            records: records.clone(),
        };
    }
}

impl<T: Archetype> Storage<T> {
    /// Gives back every handle reserved for a queued spawn, in ascending id order (see
    /// [`EntityAllocator::release_all_reserved`](crate::EntityAllocator::release_all_reserved)):
    /// none of them becomes alive. `clear_commands` and a world clone call it. Returns how
    /// many.
    pub(crate) fn release_all_reserved(&mut self) -> usize {
        self.allocator.release_all_reserved()
    }

    /// A storage from a snapshot's parts: the allocator (every row located at its index in
    /// `tables` and its row as given), the tables in their order (each with its entities set),
    /// one tag set per tag, and the ticks. Each table's rows are regrouped by tag signature
    /// (and the moved rows located again). The caches are rebuilt: the edge graph as the
    /// tables are registered, the query cache empty (it fills on use). Every loaded row is
    /// stamped as written at `tick`, like a spawn; the change log is off.
    ///
    /// The caller checks the result with
    /// [`check_invariants`](Self::check_invariants) (duplicate table masks, rows of dead
    /// entities and the like are reported there, never a panic).
    #[cfg(feature = "serde")]
    pub(crate) fn from_snapshot_parts(
        mut allocator: EntityAllocator,
        tables: Vec<T>,
        tags: Vec<EntitySet>,
        tick: Tick,
        last_tick: Tick,
    ) -> Self {
        let mut storage = Storage::new();
        storage.tick = tick;
        storage.last_tick = last_tick;
        storage.tables.reserve(tables.len());
        for mut table in tables {
            let mask = table.mask() & T::COMPONENTS;
            let table_index = storage.edges.insert_table(mask, &storage.table_lookup);
            let mut partition = TagPartition::new();
            // A world without tags keeps no partition.
            let rows = if T::TAGS.is_empty() { 0 } else { table.len() };
            for row in 0..rows {
                // Rows join the partition one by one; the swaps touch only rows before `row`.
                let entity = table.entities()[row];
                let signature = T::TAGS
                    .bits()
                    .zip(&tags)
                    .filter(|(_, set)| set.contains(entity))
                    .fold(T::Mask::EMPTY, |signature, (bit, _)| {
                        signature | T::Mask::bit(bit)
                    });
                partition.push(1, signature, &mut |a, b| table.swap_rows(a, b));
            }
            // The allocator located every row as the snapshot listed them; only a regrouping
            // by tags moves rows.
            if rows > 0 {
                for (row, entity) in table.entities().iter().enumerate() {
                    allocator.set_location(entity.id, EntityLocation::new(table_index, row));
                }
            }
            let mut ticks = TicksOf::<T>::new(mask & T::TRACKED, tick);
            ticks.push_rows(table.len(), tick);
            storage.ticks.push(ticks);
            storage.partitions.push(partition);
            storage.table_lookup.insert(mask, table_index);
            storage.queries.table_created(mask, table_index);
            storage.tables.push(table);
        }
        *storage.allocator = allocator;
        storage
    }
}
