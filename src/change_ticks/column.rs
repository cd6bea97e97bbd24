//! One tracked component's stamps in one table ([`TickColumn`]): each row's own, the shared
//! stamps of the rows last appended (its tail) and the pending range stamps of slice writes.

use alloc::vec::Vec;
use core::mem::ManuallyDrop;

use super::range_stamps::RangeStamps;
use super::{ChangedRows, RowStamps};
use crate::tick::Tick;

/// The stamps of one component in one table, kept together so a write touches one place
/// (opaque: the storage's).
///
/// Its `Drop` drops what it owns, compiled once in this crate: a table's array of columns is
/// the world's type, so the drop glue of owned fields would be compiled in every game's crate.
#[derive(Debug)]
pub struct TickColumn {
    /// The stamps of each row before the tail (empty unless tracked here).
    pub(super) rows: ManuallyDrop<Vec<RowStamps>>,
    /// The last rows, appended at one tick and not written since, sharing its stamps.
    pub(super) tail: Tail,
    /// The newest added stamp of `rows`.
    pub(super) newest_added: Tick,
    /// Runs of rows that count as written at a tick (slice views' writes).
    pub(super) range_stamps: ManuallyDrop<RangeStamps>,
    /// The newest stamp of the column, row or column.
    pub(super) newest: Tick,
}

/// The last `count` rows of a tick column: appended at `tick` (spawns, rows moved in at the
/// same tick) and not written one by one since. They count as stamped
/// [`RowStamps::at`]`(tick)` and hold no entry of their own until a row of the column must
/// (see [`TickColumn::spread`]): a batch spawn writes no stamp per row, and a table spawned
/// and never written row by row (a level's static scenery) never holds them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tail {
    pub(super) count: usize,
    pub(super) tick: Tick,
}

impl Tail {
    /// No rows.
    pub(super) const NONE: Tail = Tail {
        count: 0,
        tick: Tick(0),
    };

    /// The stamps each of its rows counts as having.
    #[inline(always)]
    pub(super) const fn stamps(self) -> RowStamps {
        RowStamps::at(self.tick)
    }
}

impl Drop for TickColumn {
    // The test inline (a world drops many columns that never held a row), the freeing not.
    #[inline]
    fn drop(&mut self) {
        if self.rows.capacity() != 0 || !self.range_stamps.is_empty() {
            self.release();
        }
    }
}

impl TickColumn {
    /// Frees the rows and the pending runs (see [`TickColumn`]'s `Drop`).
    fn release(&mut self) {
        drop(core::mem::take(&mut *self.rows));
        drop(core::mem::replace(
            &mut *self.range_stamps,
            RangeStamps::NONE,
        ));
    }
}

impl Clone for TickColumn {
    fn clone(&self) -> Self {
        Self {
            rows: self.rows.clone(),
            tail: self.tail,
            newest_added: self.newest_added,
            range_stamps: self.range_stamps.clone(),
            newest: self.newest,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Through the `Vec`: `ManuallyDrop`'s own `clone_from` would overwrite without freeing.
        Vec::clone_from(&mut self.rows, &source.rows);
        self.tail = source.tail;
        self.newest_added = source.newest_added;
        RangeStamps::clone_from(&mut self.range_stamps, &source.range_stamps);
        self.newest = source.newest;
    }
}

impl TickColumn {
    /// A column with no rows, its newest stamps at tick 0 (a table's ticks set them to
    /// "never": see [`never_stamped`](super::table_wide::never_stamped)).
    pub(super) const EMPTY: TickColumn = TickColumn {
        rows: ManuallyDrop::new(Vec::new()),
        tail: Tail::NONE,
        newest_added: Tick(0),
        range_stamps: ManuallyDrop::new(RangeStamps::NONE),
        newest: Tick(0),
    };

    /// How many rows the column has: its own stamps and its tail.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.rows.len() + self.tail.count
    }

    /// The stamps of `row` (one of the column's), its own or the tail's. Range stamps are the
    /// caller's to apply.
    #[inline(always)]
    pub(super) fn stamps_of(&self, row: usize) -> RowStamps {
        match self.rows.get(row) {
            Some(stamps) => *stamps,
            None => self.tail.stamps(),
        }
    }

    /// Gives every row of the tail its own stamps: before a row's stamps are handed out to
    /// write, or a run of rows is stamped, or rows are swapped.
    #[inline(always)]
    pub(super) fn spread(&mut self) {
        if self.tail.count != 0 {
            self.spread_tail();
        }
    }

    /// [`spread`](Self::spread) where the tail is most often one row, a lone spawn or
    /// migration about to be written or swapped into its segment: its stamps pushed inline.
    #[inline(always)]
    pub(super) fn spread_short(&mut self) {
        if self.tail.count == 1 {
            self.rows.push(self.tail.stamps());
            self.tail = Tail::NONE;
        } else {
            self.spread();
        }
    }

    /// Makes rows up to `end` (exclusive) the column's own, before they are handed out to
    /// write: the tail spread if they reach it.
    #[inline(always)]
    pub(super) fn own_rows(&mut self, end: usize) {
        if self.rows.len() < end {
            self.spread_short();
        }
    }

    /// Stamps `row` written at `tick`, if the column has that row (an accessor's write). A row
    /// of the tail appended at `tick` already counts as written at it (a value set in the frame
    /// its entity was spawned or its component added): nothing to store.
    #[inline(always)]
    pub(super) fn write_row(&mut self, row: usize, tick: Tick) {
        if let Some(stamps) = self.rows.get_mut(row) {
            stamps.changed = tick;
            self.newest = tick;
        } else if self.tail.tick != tick {
            self.stamp_tail_row(row, tick);
        }
    }

    /// [`write_row`](Self::write_row) of a row of the tail (or beyond the column) at another
    /// tick: the tail spread first. Out of line: the accessor's common case is a row of its own.
    #[inline(never)]
    fn stamp_tail_row(&mut self, row: usize, tick: Tick) {
        self.spread_short();
        if let Some(stamps) = self.rows.get_mut(row) {
            stamps.changed = tick;
            self.newest = tick;
        }
    }

    /// [`spread`](Self::spread)'s work, once per tail at most: out of line.
    #[cold]
    #[inline(never)]
    fn spread_tail(&mut self) {
        let rows = self.len();
        self.rows.resize(rows, self.tail.stamps());
        self.tail = Tail::NONE;
    }

    /// A change filter's per-row test over this one column: its rows' added stamps (`added`)
    /// or write stamps against `since`, the tail's decided once.
    #[inline]
    pub(super) fn changed_rows<M, C>(&self, since: Tick, added: bool) -> ChangedRows<'_, M, C> {
        ChangedRows::Column {
            stamps: &self.rows,
            since,
            added,
            tail: self.tail.stamps().tick(added).is_newer_than(since),
        }
    }

    /// Appends `count` rows written and added at `now`, the current tick: no stamp is newer.
    /// They join a tail of the same tick, else start a new one (the old one given its own
    /// stamps).
    #[inline]
    pub(super) fn push_now(&mut self, count: usize, now: Tick) {
        if self.tail.count != 0 && self.tail.tick == now {
            self.tail.count += count;
        } else {
            self.spread();
            self.tail = Tail { count, tick: now };
        }
        self.newest = now;
        self.newest_added = now;
    }

    /// Removes `row`'s stamps, moving the last row's into its place, and returns them (its
    /// pending range stamp included).
    #[inline]
    pub(super) fn take(&mut self, row: usize) -> RowStamps {
        if !self.range_stamps.is_empty() {
            self.take_through_runs(row)
        } else if self.tail.count == 0 {
            self.rows.swap_remove(row)
        } else {
            // The last row is the tail's: `row` takes its stamps, the tail loses one.
            let last = self.tail.stamps();
            self.tail.count -= 1;
            match self.rows.get_mut(row) {
                Some(stamps) => core::mem::replace(stamps, last),
                None => last,
            }
        }
    }

    /// [`take`](Self::take) while slice writes are pending (rare, kept out of the migration's
    /// path): the row's write stamp through the runs, and the runs made to follow the last
    /// row into `row`.
    #[cold]
    #[inline(never)]
    fn take_through_runs(&mut self, row: usize) -> RowStamps {
        self.spread();
        let stamps = self.rows[row];
        let changed = self.range_stamps.stamp_of(row, stamps.changed);
        let last = self.rows.len() - 1;
        self.range_stamps.before_swap(row, last, &mut self.rows);
        self.rows.swap_remove(row);
        self.range_stamps.truncate(self.rows.len());
        stamps.written_at(changed)
    }

    /// Appends a row stamped `stamps`.
    #[inline]
    pub(super) fn push(&mut self, stamps: RowStamps) {
        self.spread();
        self.rows.push(stamps);
        self.note_newest(stamps);
    }

    /// Raises the column's newest stamps to `stamps` where they are newer.
    #[inline]
    fn note_newest(&mut self, stamps: RowStamps) {
        if stamps.changed.is_newer_than(self.newest) {
            self.newest = stamps.changed;
        }
        if stamps.added.is_newer_than(self.newest_added) {
            self.newest_added = stamps.added;
        }
    }

    /// Takes `stamps` as its rows' own (a loaded snapshot's, one per row, no range stamp
    /// pending, no tail), its newest stamps the newest of them.
    #[cfg(feature = "serde")]
    pub(super) fn load(&mut self, stamps: Vec<RowStamps>) {
        for &row_stamps in &stamps {
            self.note_newest(row_stamps);
        }
        *self.rows = stamps;
        self.tail = Tail::NONE;
    }
}
