//! The change ticks of one table: for every tracked component it holds, the tick each row was
//! last written at and the tick it was added at (spawned, or migrated in by adding it), plus
//! per column the newest stamp (so a changed-only query skips a table nobody wrote to) and a
//! range stamp (a write through a slice view marks a run of rows, or the whole column, in
//! constant time).
//!
//! A component declared `[untracked]` has no tick column at all: no memory, no stamping.

use alloc::{boxed::Box, vec::Vec};
use core::cell::Cell;
use core::ops::Range;

use crate::{Bitmask, MAX_TICK_AGE, Tick};

mod range_stamps;

use range_stamps::RangeStamps;

/// The change ticks of one table, indexed by component bit.
#[derive(Clone, Debug)]
pub struct TableTicks<M> {
    /// The tracked components this table holds.
    tracked: M,
    /// One entry per component bit, tracked here or not.
    columns: Box<[TickColumn]>,
    /// A write through a slice view of the whole table, kept here rather than in every
    /// column's range stamps, so a system visiting many small tables pays a store per table
    /// rather than one per tracked column. Readers take it into account; an operation that
    /// moves rows or reads stamps directly hands it to the columns first
    /// ([`settle`](Self::settle)).
    whole: Option<WholeTableStamp>,
}

/// Rows `0..rows` of every tracked column count as written at `tick` (unless their own stamp,
/// or a column's range stamp, is newer).
#[derive(Clone, Copy, Debug)]
struct WholeTableStamp {
    rows: usize,
    tick: Tick,
}

impl WholeTableStamp {
    /// Whether the stamp marks `row` as written after `since`.
    #[inline]
    fn marks(self, row: usize, since: Tick) -> bool {
        row < self.rows && self.tick.is_newer_than(since)
    }
}

/// One row's stamps of one component: when it was last written and when it was added
/// (spawned with it, or added by a migration). Side by side, so removing or moving a row (a
/// despawn, a migration) touches one place per component rather than two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowStamps {
    /// When the component was last written.
    pub changed: Tick,
    /// When the component was added to the row's entity.
    pub added: Tick,
}

impl RowStamps {
    /// A row written and added at `tick`.
    #[inline]
    pub const fn at(tick: Tick) -> Self {
        RowStamps {
            changed: tick,
            added: tick,
        }
    }

    /// The same stamps, written at `tick`.
    #[inline]
    pub const fn written_at(self, tick: Tick) -> Self {
        RowStamps {
            changed: tick,
            added: self.added,
        }
    }
}

/// The stamps of one component in one table, kept together so a write touches one place.
#[derive(Clone, Debug)]
struct TickColumn {
    /// Each row's stamps (empty unless tracked here).
    rows: Vec<RowStamps>,
    /// The newest of `added`.
    newest_added: Tick,
    /// Runs of rows that count as written at a tick (slice views' writes).
    range_stamps: RangeStamps,
    /// The newest stamp of the column, row or column.
    newest: Tick,
}

impl TickColumn {
    /// Removes `row`'s stamps, moving the last row's into its place, and returns them (its
    /// pending range stamp included).
    #[inline]
    fn take(&mut self, row: usize) -> RowStamps {
        if self.range_stamps.is_empty() {
            self.rows.swap_remove(row)
        } else {
            self.take_through_runs(row)
        }
    }

    /// [`take`](Self::take) while slice writes are pending (rare, kept out of the migration's
    /// path): the row's write stamp through the runs, and the runs made to follow the last
    /// row into `row`.
    #[cold]
    #[inline(never)]
    fn take_through_runs(&mut self, row: usize) -> RowStamps {
        let stamps = self.rows[row];
        let changed = self.range_stamps.stamp_of(row, stamps.changed);
        let last = self.rows.len() - 1;
        self.range_stamps.before_swap(row, last, &mut self.rows);
        self.rows.swap_remove(row);
        self.range_stamps.truncate(self.rows.len());
        stamps.written_at(changed)
    }

    /// Appends a row written and added at `now`, the current tick: no stamp is newer.
    #[inline]
    fn push_now(&mut self, now: Tick) {
        self.rows.push(RowStamps::at(now));
        self.newest = now;
        self.newest_added = now;
    }

    /// Appends a row stamped `stamps`.
    #[inline]
    fn push(&mut self, stamps: RowStamps) {
        self.rows.push(stamps);
        if stamps.changed.is_newer_than(self.newest) {
            self.newest = stamps.changed;
        }
        if stamps.added.is_newer_than(self.newest_added) {
            self.newest_added = stamps.added;
        }
    }
}

impl<M: Bitmask> TableTicks<M> {
    /// The ticks of an empty table whose tracked components are `tracked`, in a world of
    /// `bit_count` component bits, created at tick `now`.
    pub fn new(tracked: M, bit_count: usize, now: Tick) -> Self {
        // "Never stamped" is a stamp as old as stamps get: clamping keeps it that old, so it
        // cannot come around and look new when the tick wraps.
        let never = Tick(now.0.wrapping_sub(MAX_TICK_AGE));
        TableTicks {
            tracked,
            columns: (0..bit_count)
                .map(|_| TickColumn {
                    rows: Vec::new(),
                    newest_added: never,
                    range_stamps: RangeStamps::NONE,
                    newest: never,
                })
                .collect(),
            whole: None,
        }
    }

    /// Marks every row of every tracked column as written at `tick`, the newest tick yet (a
    /// slice view of the whole table, `rows` rows): one store when the table's previous
    /// whole-table stamp covered the same rows, as it does for a system writing the same
    /// tables every frame.
    #[inline]
    pub fn stamp_table(&mut self, rows: usize, tick: Tick) {
        match &mut self.whole {
            Some(whole) if whole.rows == rows => whole.tick = tick,
            // Nothing tracked (an `[untracked]` world): nothing to stamp.
            _ if self.tracked.is_empty() => {}
            _ => self.restamp_table(rows, tick),
        }
    }

    /// [`stamp_table`](Self::stamp_table) over rows its previous stamp did not cover.
    fn restamp_table(&mut self, rows: usize, tick: Tick) {
        if rows >= self.rows() {
            // The new stamp covers every row and is the newest: the old one and the columns'
            // pending runs (all within the rows, all older) say nothing it does not. Dropping
            // them, rather than folding them in, keeps later despawns and migrations on their
            // fast path (a system writing tables that grow and shrink every frame).
            self.whole = None;
            for bit in self.tracked.bits() {
                self.columns[bit as usize].range_stamps = RangeStamps::NONE;
            }
        } else {
            self.settle();
        }
        if rows > 0 && !self.tracked.is_empty() {
            self.whole = Some(WholeTableStamp { rows, tick });
        }
    }

    /// Hands the whole-table stamp to every tracked column's range stamps (before rows move,
    /// before a column's stamps are read directly, before an older-looking run is added).
    #[inline]
    fn settle(&mut self) {
        if let Some(whole) = self.whole.take() {
            self.add_runs(0..whole.rows, self.tracked, whole.tick);
        }
    }

    /// Whether there is a whole-table stamp and it covers every row of the table.
    #[inline]
    fn whole_covers_all(&self) -> bool {
        self.whole.is_some_and(|whole| whole.rows >= self.rows())
    }

    /// Whether the whole-table stamp marks `row` of a tracked component of `bits` as
    /// written after `since`.
    #[inline]
    fn whole_marks(&self, row: usize, bits: M, since: Tick) -> bool {
        self.whole
            .is_some_and(|whole| whole.marks(row, since) && self.tracked.intersects(bits))
    }

    /// The number of rows of the table (any tracked column's length; 0 when none is tracked).
    #[inline]
    fn rows(&self) -> usize {
        self.tracked
            .bits()
            .next()
            .map_or(0, |bit| self.columns[bit as usize].rows.len())
    }

    /// The tracked components of this table.
    pub fn tracked(&self) -> M {
        self.tracked
    }

    /// Appends `count` rows written at `tick` (a spawn).
    pub fn push_rows(&mut self, count: usize, tick: Tick) {
        for bit in self.tracked.bits() {
            let column = &mut self.columns[bit as usize];
            column
                .rows
                .resize(column.rows.len() + count, RowStamps::at(tick));
            column.newest = tick;
            column.newest_added = tick;
        }
    }

    /// Removes `row`, moving the last row into its place (as the table does).
    pub fn swap_remove(&mut self, row: usize) {
        if self.whole_covers_all() {
            // Every row is covered, the last one (moved into `row`) too: the stamp stays exact
            // over the rows left, so despawns after a system's write need not fold it.
            let rows_left = self.rows().saturating_sub(1);
            if let Some(whole) = &mut self.whole {
                whole.rows = rows_left;
            }
        } else {
            self.settle();
        }
        for bit in self.tracked.bits() {
            self.columns[bit as usize].take(row);
        }
    }

    /// Exchanges the stamps of rows `a` and `b` (the table swapped them).
    pub fn swap_rows(&mut self, a: usize, b: usize) {
        // Two rows under a stamp covering every row stay under it.
        if !self.whole_covers_all() {
            self.settle();
        }
        for bit in self.tracked.bits() {
            let column = &mut self.columns[bit as usize];
            column.range_stamps.before_swap(a, b, &mut column.rows);
            column.rows.swap(a, b);
        }
    }

    /// Moves `row` to the end of `destination` (a migration): a component both tables track
    /// keeps its stamp, one only the destination tracks was just added and is stamped `tick`.
    /// One pass per kind of column, each visiting only the columns of that kind.
    #[inline]
    pub fn move_row(&mut self, row: usize, destination: &mut Self, tick: Tick) {
        // The destination's rows only grow past its whole-table stamp: it stays valid.
        self.settle();
        let (from, to) = (self.tracked, destination.tracked);
        for bit in (from & to).bits() {
            let stamps = self.columns[bit as usize].take(row);
            destination.columns[bit as usize].push(stamps);
        }
        for bit in (to & !from).bits() {
            destination.columns[bit as usize].push_now(tick);
        }
        for bit in (from & !to).bits() {
            self.columns[bit as usize].take(row);
        }
    }

    /// Stamps the tracked components of `bits` at `row` with `tick`.
    #[inline]
    pub fn stamp(&mut self, row: usize, bits: M, tick: Tick) {
        let bits = bits & self.tracked;
        if bits.is_single_bit() {
            // The common case (`get_*_mut`, `set_*`): one component, no loop.
            self.stamp_bit(row, bits.trailing_zeros() as usize, tick);
        } else {
            for bit in bits.bits() {
                self.stamp_bit(row, bit as usize, tick);
            }
        }
    }

    /// Stamps one component, `bit` (a single component's mask), at `row`: the accessors' path.
    /// With `bit` a constant, the column index is folded at compile time; an untracked or
    /// absent component has an empty column and is left alone.
    #[inline]
    pub fn stamp_component(&mut self, row: usize, bit: M, tick: Tick) {
        let index = bit.trailing_zeros() as usize;
        if let Some(column) = self.columns.get_mut(index) {
            if let Some(stamps) = column.rows.get_mut(row) {
                stamps.changed = tick;
                column.newest = tick;
            }
        }
    }

    #[inline]
    fn stamp_bit(&mut self, row: usize, index: usize, tick: Tick) {
        let column = &mut self.columns[index];
        if let Some(stamps) = column.rows.get_mut(row) {
            stamps.changed = tick;
        }
        column.newest = tick;
    }

    /// Marks every row of the tracked columns of `bits` as written at `tick` (raw slice
    /// writes), in constant time.
    pub fn stamp_columns(&mut self, bits: M, tick: Tick) {
        // The rows cut to each column's length: all of them.
        self.stamp_rows(0..usize::MAX, bits, tick);
    }

    /// Whether any tracked component of `bits` may have changed in some row after `since`:
    /// `false` lets a changed-only query skip the table.
    #[inline]
    pub fn may_have_changed_since(&self, bits: M, since: Tick) -> bool {
        self.whole_marks(0, bits, since)
            || (bits & self.tracked)
                .bits()
                .any(|bit| self.columns[bit as usize].newest.is_newer_than(since))
    }

    /// Whether any tracked component of `bits` at `row` was written after `since`.
    #[inline]
    pub fn changed_since(&self, row: usize, bits: M, since: Tick) -> bool {
        self.whole_marks(row, bits, since)
            || (bits & self.tracked).bits().any(|bit| {
                let column = &self.columns[bit as usize];
                column
                    .range_stamps
                    .stamp_of(row, column.rows[row].changed)
                    .is_newer_than(since)
            })
    }

    /// A per-row test of "written after `since`" for the tracked components of `bits`, set up
    /// once per table so the row loop of a changed-only query is a slice read.
    #[inline]
    pub fn changed_rows(&self, bits: M, since: Tick) -> ChangedRows<'_, M> {
        let bits = bits & self.tracked;
        if self.whole_marks(0, bits, since) {
            // The whole-table stamp is newer: every row it covers changed.
            return if self.whole_covers_all() {
                ChangedRows::All
            } else {
                ChangedRows::Any {
                    ticks: self,
                    bits,
                    since,
                }
            };
        }
        if bits.is_single_bit() {
            let column = &self.columns[bits.trailing_zeros() as usize];
            if !column.range_stamps.any_newer_than(since) {
                ChangedRows::Column {
                    stamps: &column.rows,
                    since,
                }
            } else if column.range_stamps.all_newer_than(column.rows.len(), since) {
                ChangedRows::All
            } else {
                // A run of rows counts as changed: each row asks its own stamp and the run's.
                ChangedRows::Any {
                    ticks: self,
                    bits,
                    since,
                }
            }
        } else {
            ChangedRows::Any {
                ticks: self,
                bits,
                since,
            }
        }
    }

    /// The row stamps of the tracked components of `bits` over `rows`, as cells to write:
    /// shared references that can still be written, so [`Mut`](crate::Mut) guards stamp rows
    /// without a second mutable borrow. The write stamps of `read_bits` are made exact first
    /// (a pending range stamp folded into the rows, so a change filter can read them); other
    /// pending range stamps stay pending (a guard's stamp, at the current tick, is never
    /// older). Components of `bits` this table does not track get empty columns.
    #[inline]
    pub fn row_cells(&mut self, bits: M, read_bits: M, rows: Range<usize>) -> TickCells<'_> {
        let mut cells = TickCells::empty();
        if self.tracked.intersects(read_bits) {
            self.settle();
        }
        for bit in (read_bits & bits & self.tracked).bits() {
            let column = &mut self.columns[bit as usize];
            column.range_stamps.fold_all(&mut column.rows);
        }
        let mut columns = self.columns.iter_mut();
        let mut next = 0;
        for bit in (bits & self.tracked).bits() {
            let Some(column) = columns.nth(bit as usize - next) else {
                break;
            };
            next = bit as usize + 1;
            if let Some(stamps) = column.rows.get_mut(rows.clone()) {
                cells.push(bit, Cell::from_mut(stamps).as_slice_of_cells());
            }
        }
        cells
    }

    /// Whether a tracked component of `bits` may have been added to some row after `since`:
    /// `false` lets an added-only query skip the table.
    #[inline]
    pub fn may_have_added_since(&self, bits: M, since: Tick) -> bool {
        (bits & self.tracked)
            .bits()
            .any(|bit| self.columns[bit as usize].newest_added.is_newer_than(since))
    }

    /// Whether a tracked component of `bits` was added to `row` after `since`.
    #[inline]
    pub fn added_since(&self, row: usize, bits: M, since: Tick) -> bool {
        (bits & self.tracked).bits().any(|bit| {
            self.columns[bit as usize].rows[row]
                .added
                .is_newer_than(since)
        })
    }

    /// A per-row test of "added after `since`" for the tracked components of `bits`, set up
    /// once per table (as [`changed_rows`](Self::changed_rows)).
    #[inline]
    pub fn added_rows(&self, bits: M, since: Tick) -> ChangedRows<'_, M> {
        let bits = bits & self.tracked;
        if bits.is_single_bit() {
            ChangedRows::AddedColumn {
                stamps: &self.columns[bits.trailing_zeros() as usize].rows,
                since,
            }
        } else {
            ChangedRows::AnyAdded {
                ticks: self,
                bits,
                since,
            }
        }
    }

    /// Records that rows of the tracked components of `bits` may be stamped at `tick` through
    /// [`row_cells`](Self::row_cells) (which cannot see the column summary), so a changed-only
    /// query does not skip this table.
    pub fn note_row_writes(&mut self, bits: M, tick: Tick) {
        for bit in (bits & self.tracked).bits() {
            self.columns[bit as usize].newest = tick;
        }
    }

    /// Whether a range stamp newer than `since` marks every row of a tracked component of
    /// `bits` as changed (then a changed-only query takes every row without reading stamps).
    #[inline]
    pub fn column_changed_since(&self, bits: M, since: Tick) -> bool {
        (self.whole_covers_all() && self.whole_marks(0, bits, since))
            || (bits & self.tracked).bits().any(|bit| {
                let column = &self.columns[bit as usize];
                column.range_stamps.all_newer_than(column.rows.len(), since)
            })
    }

    /// Stamps the tracked components of `bits` as written at `tick` over `rows` (a slice
    /// view's rows), in constant time when the column's pending range stamp is the same run
    /// (a system iterating the same rows every frame) or within it.
    #[inline]
    pub fn stamp_rows(&mut self, rows: Range<usize>, bits: M, tick: Tick) {
        if rows.start == 0 && bits.contains(self.tracked) {
            let table_rows = self.rows();
            if rows.end >= table_rows {
                // Every row of every tracked column: one whole-table stamp.
                self.stamp_table(table_rows, tick);
                return;
            }
        }
        // A range stamp is added as the newest: an older whole-table stamp goes first.
        self.settle();
        self.add_runs(rows, bits, tick);
    }

    /// [`stamp_rows`](Self::stamp_rows) for a caller that knows the table has `table_rows`
    /// rows (a table walk), which saves looking it up once per table.
    // Always inlined: its common case, a system writing the same whole tables every frame, is
    // a compare and a store into the previous whole-table stamp, cheaper than the call (a walk
    // over many small tables pays it per table).
    #[inline(always)]
    pub fn stamp_rows_of_table(
        &mut self,
        rows: Range<usize>,
        table_rows: usize,
        bits: M,
        tick: Tick,
    ) {
        debug_assert!(self.tracked.is_empty() || self.rows() == table_rows);
        let every_row = rows.start == 0 && rows.end >= table_rows;
        match &mut self.whole {
            Some(whole) if every_row && whole.rows == table_rows && bits.contains(self.tracked) => {
                whole.tick = tick;
            }
            _ => self.restamp_rows_of_table(rows, table_rows, bits, tick),
        }
    }

    /// [`stamp_rows_of_table`](Self::stamp_rows_of_table) without a whole-table stamp to
    /// renew.
    #[inline(never)]
    fn restamp_rows_of_table(
        &mut self,
        rows: Range<usize>,
        table_rows: usize,
        bits: M,
        tick: Tick,
    ) {
        if rows.start == 0 && rows.end >= table_rows && bits.contains(self.tracked) {
            // Every row of every tracked column: one whole-table stamp.
            self.stamp_table(table_rows, tick);
        } else {
            self.settle();
            self.add_runs(rows, bits, tick);
        }
    }

    /// [`stamp_rows`](Self::stamp_rows) into the columns' range stamps.
    fn add_runs(&mut self, rows: Range<usize>, bits: M, tick: Tick) {
        for bit in (bits & self.tracked).bits() {
            let column = &mut self.columns[bit as usize];
            let rows = rows.start..rows.end.min(column.rows.len());
            column.range_stamps.add(rows, tick, &mut column.rows);
            // A settled whole-table stamp can be older than a row written since.
            if tick.is_newer_than(column.newest) {
                column.newest = tick;
            }
        }
    }

    /// Moves every stamp older than [`MAX_TICK_AGE`] up to that age, so no
    /// stamp lives long enough to wrap around and look new. The world calls it periodically.
    pub fn clamp(&mut self, now: Tick) {
        if let Some(whole) = &mut self.whole {
            whole.tick = whole.tick.clamp_age(now);
        }
        for bit in self.tracked.bits() {
            let column = &mut self.columns[bit as usize];
            for stamps in &mut column.rows {
                stamps.changed = stamps.changed.clamp_age(now);
                stamps.added = stamps.added.clamp_age(now);
            }
            column.range_stamps.clamp(now);
            column.newest = column.newest.clamp_age(now);
            column.newest_added = column.newest_added.clamp_age(now);
        }
    }

    /// Whether the tick columns fit a table of `rows` rows: one stamp per row for each tracked
    /// component, none for the others.
    pub fn is_aligned(&self, rows: usize) -> bool {
        self.columns.iter().enumerate().all(|(bit, column)| {
            let expected = if self.tracked.contains(M::bit(bit as u32)) {
                rows
            } else {
                0
            };
            column.rows.len() == expected
        })
    }
}

/// The row stamps of a few columns of one table as cells (see [`TableTicks::row_cells`]),
/// found by component bit. Up to [`TickCells::INLINE`] columns live inline; more spill to the
/// heap (only a query naming that many tracked components pays an allocation).
pub struct TickCells<'a> {
    bits: u128,
    inline: [&'a [Cell<RowStamps>]; TickCells::INLINE],
    spilled: Vec<&'a [Cell<RowStamps>]>,
}

impl<'a> TickCells<'a> {
    /// How many columns are held without allocating.
    pub const INLINE: usize = 16;

    /// No columns: every component reads as an empty column.
    #[inline]
    pub fn empty() -> Self {
        TickCells {
            bits: 0,
            inline: [&[]; TickCells::INLINE],
            spilled: Vec::new(),
        }
    }

    /// Adds the column of component bit `bit`, above every bit added before.
    #[inline]
    fn push(&mut self, bit: u32, stamps: &'a [Cell<RowStamps>]) {
        let rank = self.bits.count_ones() as usize;
        self.bits |= 1 << bit;
        match self.inline.get_mut(rank) {
            Some(slot) => *slot = stamps,
            None => self.spilled.push(stamps),
        }
    }

    /// The stamps of component bit `bit`, empty if the column is not held.
    #[inline]
    pub fn column(&self, bit: u32) -> &'a [Cell<RowStamps>] {
        if bit >= u128::BITS || self.bits & (1 << bit) == 0 {
            return &[];
        }
        let rank = (self.bits & ((1 << bit) - 1)).count_ones() as usize;
        match self.inline.get(rank) {
            Some(stamps) => stamps,
            None => self
                .spilled
                .get(rank - TickCells::INLINE)
                .copied()
                .unwrap_or(&[]),
        }
    }
}

/// See [`TableTicks::changed_rows`].
pub enum ChangedRows<'a, M> {
    /// The column was marked changed as a whole.
    All,
    /// One tracked column: compare its rows' write stamps.
    Column {
        /// The column's row stamps.
        stamps: &'a [RowStamps],
        /// The query's tick.
        since: Tick,
    },
    /// One tracked column: compare its rows' added stamps.
    AddedColumn {
        /// The column's row stamps.
        stamps: &'a [RowStamps],
        /// The query's tick.
        since: Tick,
    },
    /// Several (or no) tracked columns: any of them.
    Any {
        /// The table's ticks.
        ticks: &'a TableTicks<M>,
        /// The tracked components asked about.
        bits: M,
        /// The query's tick.
        since: Tick,
    },
    /// Several (or no) tracked columns: any of them added after the tick.
    AnyAdded {
        /// The table's ticks.
        ticks: &'a TableTicks<M>,
        /// The tracked components asked about.
        bits: M,
        /// The query's tick.
        since: Tick,
    },
}

impl<M: Bitmask> ChangedRows<'_, M> {
    /// Whether `row` was written after the query's tick.
    #[inline]
    pub fn contains(&self, row: usize) -> bool {
        match *self {
            ChangedRows::All => true,
            ChangedRows::Column { stamps, since } => stamps[row].changed.is_newer_than(since),
            ChangedRows::AddedColumn { stamps, since } => stamps[row].added.is_newer_than(since),
            ChangedRows::Any { ticks, bits, since } => ticks.changed_since(row, bits, since),
            ChangedRows::AnyAdded { ticks, bits, since } => ticks.added_since(row, bits, since),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u64 = 0b001;
    const B: u64 = 0b010;
    const UNTRACKED: u64 = 0b100;

    fn ticks(tracked: u64) -> TableTicks<u64> {
        TableTicks::new(tracked, 3, Tick(1))
    }

    #[test]
    fn spawned_rows_count_as_changed_at_their_tick() {
        let mut table = ticks(A | B);
        table.push_rows(2, Tick(5));
        assert!(table.changed_since(0, A, Tick(4)));
        assert!(!table.changed_since(1, A | B, Tick(5)), "strictly newer");
        assert!(table.may_have_changed_since(B, Tick(4)));
        assert!(!table.may_have_changed_since(B, Tick(5)));
        assert!(table.is_aligned(2));
    }

    #[test]
    fn untracked_components_have_no_column_and_never_change() {
        let mut table = ticks(A);
        table.push_rows(3, Tick(9));
        table.stamp(0, UNTRACKED, Tick(10));
        table.stamp_columns(UNTRACKED, Tick(10));
        assert!(!table.changed_since(0, UNTRACKED, Tick(1)));
        assert!(!table.may_have_changed_since(UNTRACKED, Tick(1)));
        assert!(table.columns[2].rows.is_empty());
        assert!(table.is_aligned(3));
    }

    #[test]
    fn stamps_are_per_row_and_per_component() {
        let mut table = ticks(A | B);
        table.push_rows(3, Tick(1));
        table.stamp(1, A, Tick(4));
        assert!(table.changed_since(1, A, Tick(3)));
        assert!(!table.changed_since(1, B, Tick(3)));
        assert!(!table.changed_since(0, A, Tick(3)));
        assert!(table.changed_since(1, A | B, Tick(3)), "any of the bits");
        assert!(table.may_have_changed_since(A, Tick(3)));
        assert!(!table.may_have_changed_since(B, Tick(3)));
    }

    #[test]
    fn changed_rows_agrees_with_changed_since() {
        let mut table = ticks(A | B);
        table.push_rows(4, Tick(1));
        table.stamp(1, A, Tick(5));
        table.stamp(2, B, Tick(5));
        for bits in [A, B, A | B, UNTRACKED, A | UNTRACKED] {
            let rows = table.changed_rows(bits, Tick(4));
            for row in 0..4 {
                assert_eq!(
                    rows.contains(row),
                    table.changed_since(row, bits, Tick(4)),
                    "{bits} {row}"
                );
            }
        }
        table.stamp_columns(A, Tick(6));
        assert!((0..4).all(|row| table.changed_rows(A, Tick(5)).contains(row)));
    }

    #[test]
    fn stamping_one_component_skips_untracked_ones() {
        let mut table = ticks(A);
        table.push_rows(2, Tick(1));
        table.stamp_component(1, A, Tick(3));
        table.stamp_component(1, UNTRACKED, Tick(3));
        assert!(table.changed_since(1, A, Tick(2)));
        assert!(!table.changed_since(0, A, Tick(2)));
        assert!(!table.may_have_changed_since(UNTRACKED, Tick(2)));
    }

    #[test]
    fn column_stamps_mark_every_row() {
        let mut table = ticks(A | B);
        table.push_rows(3, Tick(1));
        table.stamp_columns(B, Tick(7));
        assert!((0..3).all(|row| table.changed_since(row, B, Tick(6))));
        assert!((0..3).all(|row| !table.changed_since(row, A, Tick(6))));
    }

    /// The rows of `table` whose component `bit` changed after `since`, through each reader.
    fn changed(table: &TableTicks<u64>, bit: u64, since: Tick, rows: usize) -> Vec<usize> {
        let by_row: Vec<usize> = (0..rows)
            .filter(|&row| table.changed_since(row, bit, since))
            .collect();
        let rows_test = table.changed_rows(bit, since);
        let by_test: Vec<usize> = (0..rows).filter(|&row| rows_test.contains(row)).collect();
        assert_eq!(by_row, by_test, "changed_since and changed_rows agree");
        by_row
    }

    #[test]
    fn range_stamps_mark_their_rows_only() {
        let mut table = ticks(A | B);
        table.push_rows(6, Tick(1));
        table.stamp_rows(2..4, A, Tick(5));
        assert_eq!(changed(&table, A, Tick(4), 6), vec![2, 3]);
        assert!(changed(&table, B, Tick(4), 6).is_empty());
        assert!(!table.column_changed_since(A, Tick(4)), "not every row");
        // The same run again (a system every frame), then a wider one, then a narrower one.
        table.stamp_rows(2..4, A, Tick(6));
        assert_eq!(changed(&table, A, Tick(5), 6), vec![2, 3]);
        table.stamp_rows(1..5, A, Tick(7));
        assert_eq!(changed(&table, A, Tick(5), 6), vec![1, 2, 3, 4]);
        table.stamp_rows(4..6, A, Tick(8));
        assert_eq!(changed(&table, A, Tick(6), 6), vec![1, 2, 3, 4, 5]);
        assert_eq!(changed(&table, A, Tick(7), 6), vec![4, 5]);
        // A row's own newer stamp wins over the run's.
        table.stamp(5, A, Tick(9));
        assert_eq!(changed(&table, A, Tick(8), 6), vec![5]);
    }

    #[test]
    fn more_runs_than_kept_pending_fold_the_oldest() {
        let mut table = ticks(A);
        table.push_rows(8, Tick(1));
        // Two systems writing their own runs every frame, then more runs than stay pending.
        for frame in 0..3 {
            table.stamp_rows(0..3, A, Tick(10 + 2 * frame));
            table.stamp_rows(3..8, A, Tick(11 + 2 * frame));
        }
        assert_eq!(
            changed(&table, A, Tick(13), 8),
            vec![0, 1, 2, 3, 4, 5, 6, 7]
        );
        assert_eq!(changed(&table, A, Tick(14), 8), vec![3, 4, 5, 6, 7]);
        for (offset, row) in (0..6).enumerate() {
            table.stamp_rows(row..row + 1, A, Tick(20 + offset as u32));
        }
        assert_eq!(changed(&table, A, Tick(21), 8), vec![2, 3, 4, 5]);
        assert_eq!(changed(&table, A, Tick(16), 8), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(
            changed(&table, A, Tick(14), 8),
            vec![0, 1, 2, 3, 4, 5, 6, 7]
        );
    }

    #[test]
    fn range_stamps_follow_rows_that_swap_or_leave() {
        let mut table = ticks(A);
        table.push_rows(5, Tick(1));
        table.stamp_rows(0..2, A, Tick(5));
        // Row 1 (stamped) and row 3 (not) trade places: the stamps go with them.
        table.swap_rows(1, 3);
        assert_eq!(changed(&table, A, Tick(4), 5), vec![0, 3]);
        table.stamp_rows(3..5, A, Tick(6));
        // Both in the run: nothing to fold, the run still covers them.
        table.swap_rows(3, 4);
        assert_eq!(changed(&table, A, Tick(5), 5), vec![3, 4]);
        // The last row (in the run) moves into row 0 (not in it).
        table.swap_remove(0);
        assert_eq!(changed(&table, A, Tick(5), 4), vec![0, 3]);
        assert_eq!(changed(&table, A, Tick(4), 4), vec![0, 3]);
        // A migration carries the run's stamp along.
        let mut destination = ticks(A);
        table.move_row(3, &mut destination, Tick(7));
        assert!(destination.changed_since(0, A, Tick(5)));
        assert!(table.is_aligned(3) && destination.is_aligned(1));
    }

    #[test]
    fn read_cells_see_range_stamps() {
        let mut table = ticks(A | B);
        table.push_rows(4, Tick(1));
        table.stamp_rows(1..3, A | B, Tick(5));
        let cells = table.row_cells(A | B, A, 0..4);
        let read: Vec<Tick> = cells
            .column(0)
            .iter()
            .map(|stamp| stamp.get().changed)
            .collect();
        assert_eq!(
            read,
            vec![Tick(1), Tick(5), Tick(5), Tick(1)],
            "folded for reading"
        );
        // B was only asked for writing: its run stays pending, and still counts.
        assert_eq!(changed(&table, B, Tick(4), 4), vec![1, 2]);
    }

    #[test]
    fn a_column_stamp_does_not_cover_rows_that_arrive_later() {
        let mut marked = ticks(A);
        let mut other = ticks(A);
        marked.push_rows(1, Tick(1));
        other.push_rows(1, Tick(1));
        marked.stamp_columns(A, Tick(3));
        other.move_row(0, &mut marked, Tick(4));
        assert!(
            marked.changed_since(0, A, Tick(2)),
            "the row present at the mark"
        );
        assert!(
            !marked.changed_since(1, A, Tick(2)),
            "the migrant keeps its own stamp"
        );
        marked.push_rows(1, Tick(5));
        assert!(marked.changed_since(0, A, Tick(2)));
        assert!(!marked.changed_since(1, A, Tick(2)));
        assert!(
            marked.changed_since(2, A, Tick(4)),
            "spawned after the mark, stamped itself"
        );
        assert!(marked.is_aligned(3));
    }

    #[test]
    fn a_whole_table_stamp_marks_every_tracked_column_until_rows_arrive() {
        let mut table = ticks(A | B);
        table.push_rows(3, Tick(1));
        table.stamp_rows(0..3, A | B | UNTRACKED, Tick(4));
        assert!(
            table.whole.is_some(),
            "every row of every tracked column: one stamp"
        );
        for bits in [A, B, A | B] {
            assert_eq!(changed(&table, bits, Tick(3), 3), [0, 1, 2]);
            assert!(table.may_have_changed_since(bits, Tick(3)));
            assert!(table.column_changed_since(bits, Tick(3)));
            assert!(
                !table.may_have_changed_since(bits, Tick(4)),
                "strictly newer"
            );
        }
        assert!(!table.may_have_changed_since(UNTRACKED, Tick(0)));
        table.push_rows(1, Tick(2));
        assert_eq!(
            changed(&table, A, Tick(3), 4),
            [0, 1, 2],
            "the new row is not covered"
        );
        assert!(!table.column_changed_since(A, Tick(3)));
        assert!(table.is_aligned(4));
    }

    #[test]
    fn restamping_the_same_rows_moves_the_tick_and_other_rows_settle_first() {
        let mut table = ticks(A | B);
        table.push_rows(2, Tick(1));
        table.stamp_columns(A | B, Tick(3));
        table.stamp_columns(A | B, Tick(5));
        assert_eq!(changed(&table, A | B, Tick(4), 2), [0, 1]);
        table.push_rows(1, Tick(1));
        table.stamp_rows(0..3, A | B, Tick(7));
        assert_eq!(changed(&table, B, Tick(6), 3), [0, 1, 2]);
        // A run of some rows only: the whole-table stamp goes to the columns first.
        table.stamp_rows(1..2, A, Tick(9));
        assert!(table.whole.is_none());
        assert_eq!(changed(&table, A, Tick(8), 3), [1]);
        assert_eq!(changed(&table, B, Tick(6), 3), [0, 1, 2]);
    }

    #[test]
    fn a_settled_whole_table_stamp_keeps_newer_row_writes() {
        let mut table = ticks(A);
        let mut destination = ticks(A);
        table.push_rows(4, Tick(1));
        table.stamp_columns(A, Tick(2));
        table.stamp(3, A, Tick(6));
        // Row 3 moves into row 0's place: the stamps settle first, and keep row 3's newer
        // write and the column's newest stamp.
        table.move_row(0, &mut destination, Tick(7));
        assert_eq!(changed(&table, A, Tick(5), 3), [0]);
        assert!(table.may_have_changed_since(A, Tick(5)));
        assert_eq!(changed(&table, A, Tick(1), 3), [0, 1, 2]);
        assert!(
            destination.changed_since(0, A, Tick(1)),
            "the migrant keeps the stamp"
        );
        assert!(!destination.changed_since(0, A, Tick(2)));
    }

    #[test]
    fn a_whole_table_stamp_follows_swaps_reads_and_clamping() {
        let mut table = ticks(A);
        table.push_rows(3, Tick(1));
        table.stamp_columns(A, Tick(3));
        table.swap_rows(0, 2);
        assert_eq!(changed(&table, A, Tick(2), 3), [0, 1, 2]);
        table.stamp_columns(A, Tick(4));
        let cells = table.row_cells(A, A, 0..3);
        assert!(
            cells
                .column(0)
                .iter()
                .all(|stamp| stamp.get().changed == Tick(4)),
            "stamps read directly see the whole-table stamp"
        );
        table.stamp_columns(A, Tick(5));
        table.swap_remove(0);
        assert_eq!(changed(&table, A, Tick(4), 2), [0, 1]);
        table.stamp_columns(A, Tick(6));
        let now = Tick(6 + MAX_TICK_AGE + 10);
        table.clamp(now);
        assert!(!table.may_have_changed_since(A, Tick(now.0.wrapping_sub(MAX_TICK_AGE))));
    }

    #[test]
    fn despawns_and_swaps_under_a_whole_table_stamp_keep_it_exact() {
        // Covering every row: kept (not folded into the columns), shrunk with the table, so a
        // row pushed after the despawn is not covered.
        let mut table = ticks(A | B);
        table.push_rows(4, Tick(1));
        table.stamp(3, B, Tick(6));
        table.stamp_columns(A | B, Tick(4));
        table.swap_remove(1);
        table.swap_rows(0, 2);
        assert!(table.whole.is_some(), "no fold needed");
        assert_eq!(changed(&table, A, Tick(3), 3), [0, 1, 2]);
        assert_eq!(changed(&table, B, Tick(5), 3), [1], "row 3 went to 1");
        table.push_rows(1, Tick(2));
        assert_eq!(changed(&table, A, Tick(3), 4), [0, 1, 2]);
        // Covering some rows only (rows pushed after the stamp): the last row, uncovered,
        // must not inherit the stamp of the row it replaces.
        table.swap_remove(0);
        assert_eq!(changed(&table, A, Tick(3), 3), [1, 2]);
        assert!(table.is_aligned(3));
    }

    #[test]
    fn a_whole_table_stamp_over_grown_rows_replaces_older_pending_stamps() {
        let mut table = ticks(A | B);
        table.push_rows(3, Tick(1));
        table.stamp_rows(1..2, A, Tick(3));
        table.stamp_columns(A | B, Tick(4));
        table.push_rows(2, Tick(5));
        table.stamp(4, B, Tick(7));
        table.stamp_columns(A | B, Tick(6));
        assert!(
            table
                .columns
                .iter()
                .all(|column| column.range_stamps.is_empty()),
            "the older runs are dropped, not folded"
        );
        assert_eq!(changed(&table, A, Tick(5), 5), [0, 1, 2, 3, 4]);
        assert_eq!(
            changed(&table, B, Tick(6), 5),
            [4],
            "a newer row write stays"
        );
        table.swap_remove(0);
        assert_eq!(changed(&table, B, Tick(6), 4), [0], "row 4 went to 0");
        assert!(table.is_aligned(4));
    }

    #[test]
    fn stamping_rows_of_a_known_table_size_agrees_with_stamp_rows() {
        for tracked in [0, A, A | B] {
            for bits in [A, A | B, A | B | UNTRACKED] {
                for rows in [0..4, 0..2, 1..4, 2..3, 0..usize::MAX] {
                    let mut looked_up = ticks(tracked);
                    let mut given = ticks(tracked);
                    for table in [&mut looked_up, &mut given] {
                        table.push_rows(4, Tick(1));
                        table.stamp_columns(A | B, Tick(2));
                    }
                    looked_up.stamp_rows(rows.clone(), bits, Tick(5));
                    given.stamp_rows_of_table(rows.clone(), 4, bits, Tick(5));
                    for (mask, since) in [(A, Tick(4)), (B, Tick(4)), (A | B, Tick(1))] {
                        assert_eq!(
                            changed(&looked_up, mask, since, 4),
                            changed(&given, mask, since, 4),
                            "tracked {tracked:#b}, bits {bits:#b}, rows {rows:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn swap_remove_keeps_stamps_with_their_rows() {
        let mut table = ticks(A);
        table.push_rows(3, Tick(1));
        table.stamp(2, A, Tick(8));
        table.swap_remove(0);
        assert!(
            table.changed_since(0, A, Tick(7)),
            "the last row moved into row 0"
        );
        assert!(!table.changed_since(1, A, Tick(7)));
        assert!(table.is_aligned(2));
    }

    #[test]
    fn row_cells_find_every_column_past_the_inline_ones() {
        let bits = 20;
        let all: u64 = (1 << bits) - 1;
        let mut table = TableTicks::new(all, bits, Tick(1));
        table.push_rows(3, Tick(2));
        for bit in 0..bits as u32 {
            table.stamp(1, 1 << bit, Tick(10 + bit));
        }
        let cells = table.row_cells(all & !(1 << 3), 0, 1..3);
        for bit in 0..bits as u32 {
            let column = cells.column(bit);
            if bit == 3 {
                assert!(column.is_empty(), "not asked for");
            } else {
                assert_eq!(column.len(), 2, "bit {bit}");
                assert_eq!(column[0].get().changed, Tick(10 + bit), "bit {bit}");
                assert_eq!(column[1].get(), RowStamps::at(Tick(2)));
            }
        }
        assert!(cells.column(40).is_empty() && cells.column(200).is_empty());
        cells.column(19)[1].set(RowStamps::at(Tick(2)).written_at(Tick(99)));
        assert!(
            table.changed_since(2, 1 << 19, Tick(98)),
            "written through the cell"
        );
    }

    #[test]
    fn added_ticks_follow_spawns_migrations_and_swap_removes() {
        let mut source = ticks(A);
        let mut destination = ticks(A | B);
        source.push_rows(2, Tick(2));
        source.stamp(0, A, Tick(5));
        assert!(!source.added_since(0, A, Tick(2)), "a write is not an add");
        assert!(source.may_have_added_since(A, Tick(1)));
        assert!(!source.may_have_added_since(A, Tick(2)));
        source.move_row(0, &mut destination, Tick(7));
        assert!(
            !destination.added_since(0, A, Tick(2)),
            "A kept its added tick"
        );
        assert!(destination.added_since(0, B, Tick(6)), "B was added now");
        assert!(destination.may_have_added_since(B, Tick(6)));
        assert!(destination.added_rows(B, Tick(6)).contains(0));
        assert!(!destination.added_rows(A | B, Tick(7)).contains(0));
        assert!(destination.added_rows(A | B, Tick(6)).contains(0));
        assert!(!source.added_since(0, A, Tick(1)) || source.is_aligned(1));
        let cells = destination.row_cells(B, 0, 0..1);
        assert_eq!(cells.column(1).len(), 1);
        assert_eq!(cells.column(1)[0].get().added, Tick(7));
        assert!(cells.column(0).is_empty(), "A's column was not asked for");
        assert!(source.is_aligned(1) && destination.is_aligned(1));
    }

    #[test]
    fn migration_keeps_shared_stamps_and_stamps_added_components() {
        let mut source = ticks(A);
        let mut destination = ticks(A | B);
        source.push_rows(2, Tick(1));
        source.stamp(0, A, Tick(3));
        source.move_row(0, &mut destination, Tick(6));
        assert!(destination.changed_since(0, A, Tick(2)));
        assert!(
            !destination.changed_since(0, A, Tick(3)),
            "A kept its stamp"
        );
        assert!(destination.changed_since(0, B, Tick(5)), "B was added now");
        assert!(source.is_aligned(1) && destination.is_aligned(1));
    }

    #[test]
    fn a_column_stamp_follows_a_migrating_row() {
        let mut source = ticks(A);
        let mut destination = ticks(A);
        source.push_rows(1, Tick(1));
        source.stamp_columns(A, Tick(4));
        source.move_row(0, &mut destination, Tick(6));
        assert!(destination.changed_since(0, A, Tick(3)));
        assert!(!destination.changed_since(0, A, Tick(4)));
    }

    #[test]
    fn unstamped_columns_stay_old_when_the_tick_wraps() {
        let mut table = TableTicks::new(A, 3, Tick(u32::MAX - 1));
        table.push_rows(1, Tick(u32::MAX - 1));
        let now = Tick(2);
        table.clamp(now);
        assert!(!table.changed_since(0, A, Tick(u32::MAX)));
        assert!(!table.may_have_changed_since(A, Tick(u32::MAX)));
    }

    #[test]
    fn clamping_keeps_ancient_stamps_old() {
        let mut table = ticks(A);
        table.push_rows(1, Tick(0));
        let now = Tick(MAX_TICK_AGE + 100);
        table.clamp(now);
        let since = Tick(now.0 - 1);
        assert!(!table.changed_since(0, A, since));
        assert!(!table.may_have_changed_since(A, since));
    }
}
