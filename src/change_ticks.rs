//! The change ticks of one table: for every tracked component it holds, the tick each row was
//! last written at and the tick it was added at (spawned, or migrated in by adding it), plus
//! per column the newest stamp (so a changed-only query skips a table nobody wrote to) and a
//! range stamp (a write through a slice view marks a run of rows, or the whole column, in
//! constant time). The rows a batch spawn appends share one stamp (a column's tail) until one
//! of them is written alone: a spawn writes no stamp per row.
//!
//! A component declared `[untracked]` has no tick column at all: no memory, no stamping.

#[cfg(feature = "serde")]
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;
use core::ops::{IndexMut, Range};

use crate::mask::{Bitmask, over_mask};
use crate::tick::{MAX_TICK_AGE, Tick};

mod column;
mod range_stamps;
mod readers;
mod table_wide;

pub use column::TickColumn;
pub use readers::{ChangedRows, TickCells};
pub(crate) use readers::{ReadStamps, for_each_newer};
use table_wide::{TicksMut, at_u64, at_u128, clamp, is_aligned, never_stamped};

/// The change ticks of one table, indexed by component bit.
#[derive(Debug)]
pub struct TableTicks<M, C> {
    /// The tracked components this table holds.
    tracked: M,
    /// One entry per component bit, tracked here or not.
    columns: C,
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

/// The rows a write covers, as a writer hands them to [`TableTicks::stamp`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// One row (an accessor, `mark_changed`, `get_disjoint_mut`).
    Row(usize),
    /// `rows` of a table of `table_rows` rows (a view of a run of rows, or of the whole
    /// table: see [`Written::table`]).
    Rows {
        /// The rows written.
        rows: Range<usize>,
        /// How many rows the table has.
        table_rows: usize,
    },
}

impl Written {
    /// Every row of a table of `rows` rows.
    #[inline(always)]
    pub fn table(rows: usize) -> Self {
        Written::Rows {
            rows: 0..rows,
            table_rows: rows,
        }
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
    /// The added stamp (`added`) or the write stamp: what a change filter compares.
    #[inline(always)]
    pub const fn tick(self, added: bool) -> Tick {
        if added { self.added } else { self.changed }
    }

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

    /// Both stamps aged as [`Tick::clamp_age`] does: the periodic pass the world runs over a
    /// table's stamp columns.
    #[inline]
    pub const fn clamp_age(self, now: Tick) -> Self {
        RowStamps {
            changed: self.changed.clamp_age(now),
            added: self.added.clamp_age(now),
        }
    }
}

/// The columns of a table's change ticks, one per component bit of the world: implemented by
/// the arrays `ecs!` names as [`Archetype::TickColumns`](crate::archetype::Archetype::TickColumns).
pub trait TickColumns:
    IndexMut<usize, Output = TickColumn>
    + AsRef<[TickColumn]>
    + AsMut<[TickColumn]>
    + Clone
    + fmt::Debug
    + Send
    + Sync
    + 'static
{
    /// Every column empty, never stamped (see [`TickColumn::EMPTY`]).
    fn empty() -> Self;
}

impl<const BITS: usize> TickColumns for [TickColumn; BITS] {
    #[inline]
    fn empty() -> Self {
        [const { TickColumn::EMPTY }; BITS]
    }
}

// `clone_from` field by field, so a world's `restore` reuses every tick column's allocation
// (a derived `clone_from` is `*self = source.clone()`).
impl<M: Copy, C: Clone> Clone for TableTicks<M, C> {
    fn clone(&self) -> Self {
        Self {
            tracked: self.tracked,
            columns: self.columns.clone(),
            whole: self.whole,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.tracked = source.tracked;
        self.columns.clone_from(&source.columns);
        self.whole = source.whole;
    }
}

impl<M: Bitmask, C: TickColumns> TableTicks<M, C> {
    /// The ticks of an empty table whose tracked components are `tracked`, created at tick
    /// `now`.
    pub fn new(tracked: M, now: Tick) -> Self {
        // "Never stamped" is a stamp as old as stamps get: clamping keeps it that old, so it
        // cannot come around and look new when the tick wraps.
        let never = Tick(now.0.wrapping_sub(MAX_TICK_AGE));
        let mut columns = C::empty();
        never_stamped(columns.as_mut(), never);
        TableTicks {
            tracked,
            columns,
            whole: None,
        }
    }

    /// Hands the whole-table stamp to every tracked column's range stamps (before rows move,
    /// before a column's stamps are read directly, before an older-looking run is added).
    #[inline]
    fn settle(&mut self) {
        if self.whole.is_some() {
            M::pick::<Settle>(at_u64::settle, at_u128::settle)(self.view_mut());
        }
    }

    /// The ticks as the functions compiled once per mask width see them.
    #[inline]
    fn view_mut(&mut self) -> TicksMut<'_, M> {
        TicksMut {
            tracked: self.tracked,
            columns: self.columns.as_mut(),
            whole: &mut self.whole,
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
            .map_or(0, |bit| self.columns[bit as usize].len())
    }

    /// The tracked components of this table.
    pub fn tracked(&self) -> M {
        self.tracked
    }

    /// Moves the tick columns of the tracked components of `bits` out, into ticks of their own
    /// that track only them (a system's query writes or watches them while other systems use
    /// the rest of the table). The whole-table stamp is handed to the columns first, so each
    /// carries its own stamps. [`take_back`](Self::take_back) returns them.
    pub(crate) fn lend(&mut self, bits: M) -> Self {
        self.settle();
        let bits = bits & self.tracked;
        let mut lent = TableTicks {
            tracked: bits,
            columns: C::empty(),
            whole: None,
        };
        for bit in bits.bits() {
            core::mem::swap(
                &mut self.columns[bit as usize],
                &mut lent.columns[bit as usize],
            );
        }
        lent
    }

    /// Takes back the columns [`lend`](Self::lend) moved out, with what was stamped on them
    /// meanwhile.
    pub(crate) fn take_back(&mut self, mut lent: Self) {
        lent.settle();
        for bit in lent.tracked.bits() {
            core::mem::swap(
                &mut self.columns[bit as usize],
                &mut lent.columns[bit as usize],
            );
        }
    }

    /// Appends `count` rows written at `tick` (a spawn).
    /// A batch joins or starts each column's tail: no stamp is written per row.
    pub fn push_rows(&mut self, count: usize, tick: Tick) {
        for bit in self.tracked.bits() {
            self.columns[bit as usize].push_now(count, tick);
        }
    }

    /// Removes `row`, moving the last row into its place (as the table does). Inlined into the
    /// despawn, its one caller: a call was a tenth of its cost, paid once per sub-world.
    #[inline(always)]
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
            if a.min(b) >= column.rows.len() {
                // Both rows are the tail's, stamped alike and under no run: nothing moves.
                continue;
            }
            column.own_rows(a.max(b) + 1);
            column.range_stamps.before_swap(a, b, &mut column.rows);
            column.rows.swap(a, b);
        }
    }

    /// Moves `row` to the end of `destination` (a migration): a component both tables track
    /// keeps its stamp, one only the destination tracks was just added and is stamped `tick`.
    /// One pass per kind of column, each visiting only the columns of that kind.
    // Always inlined into the migration (its one caller): the call's register saves and
    // spills were a large part of its cost.
    #[inline(always)]
    pub fn move_row(&mut self, row: usize, destination: &mut Self, tick: Tick) {
        // The destination's rows only grow past its whole-table stamp: it stays valid.
        self.settle();
        let (from, to) = (self.tracked, destination.tracked);
        for bit in (from & to).bits() {
            let stamps = self.columns[bit as usize].take(row);
            destination.columns[bit as usize].push(stamps);
        }
        for bit in (to & !from).bits() {
            destination.columns[bit as usize].push_now(1, tick);
        }
        for bit in (from & !to).bits() {
            self.columns[bit as usize].take(row);
        }
    }

    /// Whether any tracked component of `bits` may have changed in some row after `since`:
    /// `false` lets a changed-only query skip the table.
    #[inline]
    pub fn may_have_changed_since(&self, bits: M, since: Tick) -> bool {
        if self.whole_marks(0, bits, since) {
            return true;
        }
        for bit in (bits & self.tracked).bits() {
            if self.columns[bit as usize].newest.is_newer_than(since) {
                return true;
            }
        }
        false
    }

    /// Whether any tracked component of `bits` at `row` was written after `since`.
    #[inline]
    pub fn changed_since(&self, row: usize, bits: M, since: Tick) -> bool {
        if self.whole_marks(row, bits, since) {
            return true;
        }
        for bit in (bits & self.tracked).bits() {
            let column = &self.columns[bit as usize];
            let stamp = column
                .range_stamps
                .stamp_of(row, column.stamps_of(row).changed);
            if stamp.is_newer_than(since) {
                return true;
            }
        }
        false
    }

    /// A per-row test of "written after `since`" for the tracked components of `bits`, set up
    /// once per table so the row loop of a changed-only query is a slice read.
    #[inline]
    pub fn changed_rows(&self, bits: M, since: Tick) -> ChangedRows<'_, M, C> {
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
                column.changed_rows(since, false)
            } else if column.range_stamps.all_newer_than(column.len(), since) {
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
        self.fill_row_cells(&mut cells, bits, read_bits, rows);
        cells
    }

    /// [`row_cells`](Self::row_cells) written into `cells` (empty) where they lie: a query's
    /// `get` builds them in its own frame, since moving the freshly written cells cost more
    /// than the rest of the lookup (a store-forwarding stall on the copy).
    #[inline(always)]
    pub fn fill_row_cells<'a>(
        &'a mut self,
        cells: &mut TickCells<'a>,
        bits: M,
        read_bits: M,
        rows: Range<usize>,
    ) {
        // One written component and no change filter (a query's `get` of one `&mut C`, most
        // loops): its column's cells, inline, with nothing to fold first.
        if read_bits.is_empty() && bits.is_single_bit() {
            if self.tracked.intersects(bits) {
                let bit = bits.trailing_zeros();
                let column = &mut self.columns.as_mut()[bit as usize];
                column.own_rows(rows.end);
                if let Some(stamps) = column.rows.get_mut(rows) {
                    cells.push(bit, Cell::from_mut(stamps).as_slice_of_cells());
                }
            }
            return;
        }
        let row_cells = M::pick::<RowCells>(at_u64::row_cells, at_u128::row_cells);
        *cells = row_cells(self.view_mut(), bits, read_bits, rows);
    }

    /// Whether a tracked component of `bits` may have been added to some row after `since`:
    /// `false` lets an added-only query skip the table.
    #[inline]
    pub fn may_have_added_since(&self, bits: M, since: Tick) -> bool {
        for bit in (bits & self.tracked).bits() {
            if self.columns[bit as usize].newest_added.is_newer_than(since) {
                return true;
            }
        }
        false
    }

    /// Whether a tracked component of `bits` was added to `row` after `since`.
    #[inline]
    pub fn added_since(&self, row: usize, bits: M, since: Tick) -> bool {
        for bit in (bits & self.tracked).bits() {
            if self.columns[bit as usize]
                .stamps_of(row)
                .added
                .is_newer_than(since)
            {
                return true;
            }
        }
        false
    }

    /// A per-row test of "added after `since`" for the tracked components of `bits`, set up
    /// once per table (as [`changed_rows`](Self::changed_rows)).
    #[inline]
    pub fn added_rows(&self, bits: M, since: Tick) -> ChangedRows<'_, M, C> {
        let bits = bits & self.tracked;
        if bits.is_single_bit() {
            self.columns[bits.trailing_zeros() as usize].changed_rows(since, true)
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
    #[inline]
    pub fn note_row_writes(&mut self, bits: M, tick: Tick) {
        if bits.is_empty() {
            return;
        }
        if bits.is_single_bit() {
            if self.tracked.intersects(bits) {
                self.columns.as_mut()[bits.trailing_zeros() as usize].newest = tick;
            }
            return;
        }
        let note_row_writes =
            M::pick::<NoteRowWrites>(at_u64::note_row_writes, at_u128::note_row_writes);
        note_row_writes(self.view_mut(), bits, tick);
    }

    /// Whether a range stamp newer than `since` marks every row of a tracked component of
    /// `bits` as changed (then a changed-only query takes every row without reading stamps).
    #[inline]
    pub fn column_changed_since(&self, bits: M, since: Tick) -> bool {
        if self.whole_covers_all() && self.whole_marks(0, bits, since) {
            return true;
        }
        for bit in (bits & self.tracked).bits() {
            let column = &self.columns[bit as usize];
            if column.range_stamps.all_newer_than(column.len(), since) {
                return true;
            }
        }
        false
    }

    /// The one stamping policy: records a write at `tick` to the tracked components of `bits`
    /// over the rows `written` covers. Every writer calls it: accessors and `mark_changed` with
    /// a row, views with the rows they hand out, a typed query with the run every row of which
    /// it wrote. How the write is kept is decided here:
    /// - one row: its row stamps;
    /// - every row of every tracked column (`bits` holding them all: [`Bitmask::ALL`] for a
    ///   view handing out every column): one whole-table stamp, renewed in place when the
    ///   previous one covered the same rows (a system writing the same tables every frame);
    /// - any other rows: a range stamp per column (constant time; see `range_stamps`).
    // Always inlined: with `written` and `bits` known at the call, only one arm is left, and the
    // common cases (one constant component, a whole table renewed) are a few instructions.
    #[inline(always)]
    pub fn stamp(&mut self, written: Written, bits: M, tick: Tick) {
        match written {
            Written::Row(row) => self.stamp_row(row, bits, tick),
            Written::Rows { rows, table_rows } => {
                debug_assert!(self.tracked.is_empty() || self.rows() == table_rows);
                let every_row = rows.start == 0 && rows.end >= table_rows;
                match &mut self.whole {
                    Some(whole)
                        if every_row && whole.rows == table_rows && bits.contains(self.tracked) =>
                    {
                        whole.tick = tick;
                    }
                    _ => self.restamp(rows, table_rows, bits, tick),
                }
            }
        }
    }

    /// [`stamp`](Self::stamp) of one row. With `bits` a constant single component (an
    /// accessor), the column index folds at compile time and the tracked mask is not read: an
    /// untracked or absent component has no row stamps and is left alone.
    #[inline(always)]
    fn stamp_row(&mut self, row: usize, bits: M, tick: Tick) {
        if bits.is_single_bit() {
            self.stamp_cell(bits.trailing_zeros() as usize, row, tick);
        } else {
            for bit in (bits & self.tracked).bits() {
                self.stamp_cell(bit as usize, row, tick);
            }
        }
    }

    /// Stamps `row` of the column of component bit `index` (see [`TickColumn::write_row`]).
    #[inline(always)]
    fn stamp_cell(&mut self, index: usize, row: usize, tick: Tick) {
        if let Some(column) = self.columns.as_mut().get_mut(index) {
            column.write_row(row, tick);
        }
    }

    /// [`stamp`](Self::stamp) of rows without a whole-table stamp to renew in place.
    #[inline]
    fn restamp(&mut self, rows: Range<usize>, table_rows: usize, bits: M, tick: Tick) {
        let restamp = M::pick::<Restamp>(at_u64::restamp, at_u128::restamp);
        restamp(self.view_mut(), rows, table_rows, bits, tick);
    }

    /// Moves every stamp older than [`MAX_TICK_AGE`] up to that age, so no
    /// stamp lives long enough to wrap around and look new. The world calls it periodically.
    pub fn clamp(&mut self, now: Tick) {
        if let Some(whole) = &mut self.whole {
            whole.tick = whole.tick.clamp_age(now);
        }
        clamp(self.columns.as_mut(), self.tracked.widen(), now);
    }

    /// Every row's stamps of the tracked component of bit index `bit`, as readers see them: its
    /// own write stamp, or a pending range or whole-table stamp covering it where that is
    /// newer. What a snapshot saves (feature `serde`): the effective stamps, not how they are
    /// kept, so two worlds that answer every change query alike save alike.
    #[cfg(feature = "serde")]
    pub(crate) fn effective_stamps(&self, bit: u32) -> impl Iterator<Item = RowStamps> + '_ {
        let column = &self.columns[bit as usize];
        let whole = self.whole.filter(|_| self.tracked.intersects(M::bit(bit)));
        let tail = core::iter::repeat_n(column.tail.stamps(), column.tail.count);
        column
            .rows
            .iter()
            .copied()
            .chain(tail)
            .enumerate()
            .map(move |(row, own)| {
                let mut changed = column.range_stamps.stamp_of(row, own.changed);
                if let Some(whole) = whole {
                    if row < whole.rows && whole.tick.is_newer_than(changed) {
                        changed = whole.tick;
                    }
                }
                own.written_at(changed)
            })
    }

    /// Gives the tracked component of bit index `bit` the row stamps `stamps` (a loaded
    /// snapshot's, one per row of the table, no range stamp pending), its newest stamps the
    /// newest of them.
    #[cfg(feature = "serde")]
    pub(crate) fn load_column(&mut self, bit: u32, stamps: Vec<RowStamps>) {
        self.columns[bit as usize].load(stamps);
    }

    /// Whether the tick columns fit a table of `rows` rows: one stamp per row for each tracked
    /// component, none for the others.
    pub fn is_aligned(&self, rows: usize) -> bool {
        is_aligned(self.columns.as_ref(), self.tracked.widen(), rows)
    }
}

// The bodies of the table-wide operations (`table_wide`), named without their mask.
over_mask! {
    /// [`TableTicks::settle`]'s body.
    Settle = fn(TicksMut<'_, M>);
    /// [`TableTicks::row_cells`]'s body.
    RowCells = fn(TicksMut<'_, M>, M, M, Range<usize>) -> TickCells<'_>;
    /// [`TableTicks::note_row_writes`]'s body.
    NoteRowWrites = fn(TicksMut<'_, M>, M, Tick);
    /// [`TableTicks::restamp`]'s body.
    Restamp = fn(TicksMut<'_, M>, Range<usize>, usize, M, Tick);
}

#[cfg(test)]
mod tests;
