//! The storage's whole state: copying it with the index of its world or game (a clone, and a
//! restore that reuses the allocations of the world it overwrites) and rebuilding it from a
//! snapshot's parts.

use super::Storage;
#[cfg(feature = "serde")]
use super::TagPartition;
use crate::archetype::Archetype;
#[cfg(feature = "serde")]
use crate::archetype::TicksOf;
#[cfg(feature = "serde")]
use crate::entity::EntityLocation;
use crate::entity::{EntityIndex, EntityRecords, IdRecords};
#[cfg(feature = "serde")]
use crate::entity_set::EntitySet;
#[cfg(feature = "serde")]
use crate::mask::Bitmask;
use crate::tick::Tick;
#[cfg(feature = "serde")]
use alloc::vec::Vec;

/// The parts of a world or game, copied from those of another of the same type (`Source`): a
/// world's storage, or every sub-world of a game. A copy is two passes, so that a copy which
/// panics half-way finds every part's records still its own: first everything but the
/// records (the only pass that runs component code), then the records.
pub trait CopyParts<Source> {
    /// Copies everything but the records from `source`, reusing the allocations. If a
    /// component's `Clone` (or the `Drop` of a value it overwrites) panics, the part it was
    /// copying is left empty but for its records (see [`Storage::empty_but_records`]).
    fn copy_all_but_records(&mut self, source: &Source);

    /// Copies the records from `source`.
    fn copy_records(&mut self, source: &Source);

    /// Empties every part after a copy from `source` failed half-way, each left with `records`.
    fn empty_beyond(&mut self, source: &Source, records: &EntityRecords);
}

/// What a copy is made from: a world's storage, or every sub-world of a game, whose records
/// answer for its entities (a game's: the first sub-world's, which every other's match).
pub trait CopySource {
    /// The records the source's index reads.
    fn source_records(&self) -> &EntityRecords;
}

impl<T: Archetype + Clone> CopyParts<Storage<T>> for Storage<T> {
    #[inline]
    fn copy_all_but_records(&mut self, source: &Self) {
        self.copy_all_but_records(source);
    }

    #[inline]
    fn copy_records(&mut self, source: &Self) {
        (*self.records).clone_from(&source.records);
    }

    #[inline]
    fn empty_beyond(&mut self, source: &Self, records: &EntityRecords) {
        self.empty_but_records(source);
        (*self.records).clone_from(records);
    }
}

impl<T: Archetype> CopySource for Storage<T> {
    #[inline]
    fn source_records(&self) -> &EntityRecords {
        &self.records
    }
}

/// Makes `index` and `parts` an exact copy of `source_index` and `source` (tables, records,
/// change ticks, the structural change log, the caches), reusing the allocations: the clone
/// and restore of a world and of a game. The source's reservations are given back in the
/// index's one order (queued commands are not copied). If a component's `Clone` (or the
/// `Drop` of a value it overwrites) panics on the way, every part is left empty, with an
/// index that never issues a handle either copy issued (see
/// [`EntityIndex::empty_beyond`]).
pub(crate) fn copy_whole<P: CopyParts<S> + IdRecords, S: CopySource>(
    index: &mut EntityIndex,
    parts: &mut P,
    source_index: &EntityIndex,
    source: &S,
) {
    let guard = EmptyOnUnwind {
        index,
        parts,
        source_index,
        source,
    };
    guard.parts.copy_all_but_records(guard.source);
    guard.parts.copy_records(guard.source);
    guard.index.clone_from_with(source_index, &mut *guard.parts);
    guard.index.release_all_reserved(&mut *guard.parts);
    core::mem::forget(guard);
}

/// Empties the parts it guards, and their index beyond both copies' ids, when dropped: by a
/// panic in the middle of [`copy_whole`], which would otherwise leave some parts copied and
/// others not. The records are still the parts' own then (they are copied last).
struct EmptyOnUnwind<'a, P: CopyParts<S> + IdRecords, S: CopySource> {
    index: &'a mut EntityIndex,
    parts: &'a mut P,
    source_index: &'a EntityIndex,
    source: &'a S,
}

impl<P: CopyParts<S> + IdRecords, S: CopySource> Drop for EmptyOnUnwind<'_, P, S> {
    fn drop(&mut self) {
        let (index, records) = self.index.empty_beyond(
            self.parts.reference(),
            self.source_index,
            self.source.source_records(),
        );
        self.parts.empty_beyond(self.source, &records);
        *self.index = index;
    }
}

impl<T: Archetype + Clone> Storage<T> {
    /// Overwrites `self` with a copy of `source` but for the records, field by field, so the
    /// vectors (tables and their columns first) keep their allocations where they are large
    /// enough: the restore of a rollback. If a component's `Clone` (or the `Drop` of a value it
    /// overwrites) panics on the way, `self` is left empty but for its records, never
    /// half-copied (the caller's [`copy_whole`] then empties the records too). Destructured, so
    /// a field added later cannot be forgotten.
    pub(crate) fn copy_all_but_records(&mut self, source: &Self) {
        let guard = EmptyButRecordsOnUnwind {
            storage: self,
            source,
        };
        let Storage {
            // Copied last, by the caller: see `CopyParts`.
            records: _,
            tables,
            ticks,
            table_lookup,
            edges,
            queries,
            partitions,
            relations,
            target_spans,
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
        // Measured in this storage's rows: the copy measures its own.
        target_spans.clear();
        core::mem::forget(guard);
    }
}

/// Empties the storage it guards but for its records when dropped: by a panic in the middle of
/// a `copy_all_but_records`, which would otherwise leave some columns copied and others not.
struct EmptyButRecordsOnUnwind<'a, T: Archetype> {
    storage: &'a mut Storage<T>,
    source: &'a Storage<T>,
}

impl<T: Archetype> Drop for EmptyButRecordsOnUnwind<'_, T> {
    fn drop(&mut self) {
        self.storage.empty_but_records(self.source);
    }
}

impl<T: Archetype> Storage<T> {
    /// Empties this storage but for its records after a copy from `source` failed half-way:
    /// no table, the later of the two clocks (a write after the panic is newer than any tick
    /// read before), and its change log cleared but going on (cursors count the dropped
    /// entries as lost, and read what is recorded next). The records are the caller's to
    /// replace: see [`copy_whole`].
    pub(crate) fn empty_but_records(&mut self, source: &Self) {
        let later = |mine: Tick, theirs: Tick| {
            if theirs.is_newer_than(mine) {
                theirs
            } else {
                mine
            }
        };
        let mut emptied = Storage::new();
        emptied.records = core::mem::take(&mut self.records);
        emptied.tick = later(self.tick, source.tick);
        emptied.last_tick = later(self.last_tick, source.last_tick);
        emptied.change_log = core::mem::take(&mut self.change_log);
        emptied.change_log.clear();
        emptied.log_changes = self.log_changes;
        *self = emptied;
    }
}

impl<T: Archetype> Storage<T> {
    /// A storage from a snapshot's parts: the records (every row located at its index in
    /// `tables` and its row as given), the tables in their order (each with its entities set)
    /// and their change ticks (one per table, its rows' stamps as saved), one tag set per tag,
    /// and the ticks. Each table's rows join its tag partition in order; rows of one tag
    /// signature lie in one run in a saved table, and where they do not, the rows (with their
    /// stamps) are regrouped and located again, and the first such table's index is returned
    /// beside the storage, for the caller to refuse (a loaded world would otherwise iterate,
    /// and save its rows and their change ticks, in another order than the snapshot's). The
    /// caches are rebuilt: the edge graph as the tables are registered, the query cache empty
    /// (it fills on use); the change log is off.
    ///
    /// The caller checks the result with
    /// [`check_invariants`](Self::check_invariants) (duplicate table masks, rows of dead
    /// entities and the like are reported there, never a panic).
    #[cfg(feature = "serde")]
    pub(crate) fn from_snapshot_parts(
        mut records: EntityRecords,
        tables: Vec<T>,
        table_ticks: Vec<TicksOf<T>>,
        tags: Vec<EntitySet>,
        tick: Tick,
        last_tick: Tick,
    ) -> (Self, Option<usize>) {
        let mut storage = Storage::new();
        storage.tick = tick;
        storage.last_tick = last_tick;
        storage.tables.reserve(tables.len());
        let mut regrouped = None;
        for (mut table, mut ticks) in tables.into_iter().zip(table_ticks) {
            // A disabled entities' table keeps its bit.
            let mask = table.mask() & (T::COMPONENTS | T::Mask::DISABLED);
            let table_index = storage.edges.insert_table(mask, &storage.table_lookup);
            let mut partition = TagPartition::new();
            // A world without tags keeps no partition.
            let rows = if T::TAGS.is_empty() { 0 } else { table.len() };
            let mut rows_moved = false;
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
                let moved = partition.push(1, signature, &mut |a, b| {
                    table.swap_rows(a, b);
                    ticks.swap_rows(a, b);
                });
                rows_moved |= moved;
            }
            if rows_moved && regrouped.is_none() {
                regrouped = Some(table_index);
            }
            // The records located every row as the snapshot listed them; only a regrouping
            // by tags moves rows.
            if rows_moved {
                for (row, entity) in table.entities().iter().enumerate() {
                    records.set_location(entity.id, EntityLocation::new(table_index, row));
                }
            }
            storage.ticks.push(ticks);
            storage.partitions.push(partition);
            storage.table_lookup.insert(mask, table_index);
            storage.queries.table_created(mask, table_index);
            storage.tables.push(table);
        }
        *storage.records = records;
        (storage, regrouped)
    }
}
