//! What a table's ticks do per table rather than per row: a query's run, a stamp of many
//! rows, the hand-over of a whole-table stamp ([`TicksMut`], generic over the mask only and
//! compiled once per width here by `compiled_once!`), and the rare passes over every column
//! (the periodic clamp, the check of lengths, the first stamps: on the columns as a slice and
//! the mask widened to `u128`, not generic at all). Compiled in this crate rather than in every
//! game's; the per-row paths (spawn, despawn, swap, move, the stamp of a row) stay generic over
//! the world and inlined, where its own mask width and array length keep their loops short.

use core::cell::Cell;
use core::ops::Range;

use super::{TickCells, TickColumn, WholeTableStamp};
use crate::mask::Bitmask;
use crate::tick::Tick;

/// A table's ticks as the functions compiled once per mask width see them: the columns as a
/// slice, whatever the world's array.
pub struct TicksMut<'a, M> {
    pub(super) tracked: M,
    pub(super) columns: &'a mut [TickColumn],
    pub(super) whole: &'a mut Option<WholeTableStamp>,
}

impl<'a, M: Bitmask> TicksMut<'a, M> {
    /// The whole-table stamp handed to every tracked column's range stamps (see
    /// [`TableTicks::settle`](super::TableTicks::settle)).
    fn settle(mut self) {
        if let Some(whole) = self.whole.take() {
            self.add_runs(0..whole.rows, self.tracked, whole.tick);
        }
    }

    /// See [`TableTicks::row_cells`](super::TableTicks::row_cells).
    fn row_cells(mut self, bits: M, read_bits: M, rows: Range<usize>) -> TickCells<'a> {
        let mut cells = TickCells::empty();
        if self.tracked.intersects(read_bits) {
            if let Some(whole) = self.whole.take() {
                self.add_runs(0..whole.rows, self.tracked, whole.tick);
            }
        }
        for bit in (read_bits & bits & self.tracked).bits() {
            let column = &mut self.columns[bit as usize];
            column.spread();
            column.range_stamps.fold_all(&mut column.rows);
        }
        let mut columns = self.columns.iter_mut();
        let mut next = 0;
        for bit in (bits & self.tracked).bits() {
            let Some(column) = columns.nth(bit as usize - next) else {
                break;
            };
            next = bit as usize + 1;
            column.own_rows(rows.end);
            if let Some(stamps) = column.rows.get_mut(rows.clone()) {
                cells.push(bit, Cell::from_mut(stamps).as_slice_of_cells());
            }
        }
        cells
    }

    /// See [`TableTicks::note_row_writes`](super::TableTicks::note_row_writes).
    fn note_row_writes(self, bits: M, tick: Tick) {
        for bit in (bits & self.tracked).bits() {
            self.columns[bit as usize].newest = tick;
        }
    }

    /// See [`TableTicks::restamp`](super::TableTicks::restamp).
    fn restamp(mut self, rows: Range<usize>, table_rows: usize, bits: M, tick: Tick) {
        if rows.start == 0 && rows.end >= table_rows && bits.contains(self.tracked) {
            // Every row of every tracked column: one whole-table stamp, the newest yet. It
            // says everything the old one and the columns' pending runs (all within the rows,
            // all older) say: dropping them, rather than folding them in, keeps later despawns
            // and migrations on their fast path (tables that grow and shrink every frame).
            *self.whole = None;
            for bit in self.tracked.bits() {
                self.columns[bit as usize].range_stamps.clear();
            }
            if table_rows > 0 && !self.tracked.is_empty() {
                *self.whole = Some(WholeTableStamp {
                    rows: table_rows,
                    tick,
                });
            }
        } else {
            // A range stamp is added as the newest: an older whole-table stamp goes first.
            if let Some(whole) = self.whole.take() {
                self.add_runs(0..whole.rows, self.tracked, whole.tick);
            }
            self.add_runs(rows, bits, tick);
        }
    }

    /// A range stamp of `rows` into the tracked columns of `bits`.
    fn add_runs(&mut self, rows: Range<usize>, bits: M, tick: Tick) {
        for bit in (bits & self.tracked).bits() {
            let column = &mut self.columns[bit as usize];
            column.spread();
            let rows = rows.start..rows.end.min(column.rows.len());
            column.range_stamps.add(rows, tick, &mut column.rows);
            // A settled whole-table stamp can be older than a row written since.
            if tick.is_newer_than(column.newest) {
                column.newest = tick;
            }
        }
    }
}

/// [`TicksMut`]'s operations at each mask width (`at_u64`, `at_u128`): not generic, so
/// compiled here, and a game's crate only calls them.
macro_rules! compiled_once {
    ($($width:ident: $mask:ty),*) => {$(
        pub(super) mod $width {
            use core::ops::Range;

            use crate::change_ticks::TickCells;
            use crate::change_ticks::table_wide::TicksMut;
            use crate::tick::Tick;

            // Rare (once per table after a write of all its rows), and kept out of the
            // despawns and moves that may meet it.
            #[cold]
            #[inline(never)]
            pub(in crate::change_ticks) fn settle(ticks: TicksMut<'_, $mask>) {
                ticks.settle();
            }

            pub(in crate::change_ticks) fn row_cells(
                ticks: TicksMut<'_, $mask>,
                bits: $mask,
                read_bits: $mask,
                rows: Range<usize>,
            ) -> TickCells<'_> {
                ticks.row_cells(bits, read_bits, rows)
            }

            pub(in crate::change_ticks) fn note_row_writes(ticks: TicksMut<'_, $mask>, bits: $mask, tick: Tick) {
                ticks.note_row_writes(bits, tick);
            }

            pub(in crate::change_ticks) fn restamp(
                ticks: TicksMut<'_, $mask>,
                rows: Range<usize>,
                table_rows: usize,
                bits: $mask,
                tick: Tick,
            ) {
                ticks.restamp(rows, table_rows, bits, tick);
            }
        }
    )*};
}

compiled_once!(at_u64: u64, at_u128: u128);

/// Gives every one of `columns` (empty) the newest stamps `never`.
pub(super) fn never_stamped(columns: &mut [TickColumn], never: Tick) {
    for column in columns {
        column.newest = never;
        column.newest_added = never;
    }
}

/// See [`TableTicks::clamp`](super::TableTicks::clamp): the tracked columns of `tracked`.
pub(super) fn clamp(columns: &mut [TickColumn], tracked: u128, now: Tick) {
    for bit in tracked.bits() {
        let column = &mut columns[bit as usize];
        for stamps in column.rows.iter_mut() {
            *stamps = stamps.clamp_age(now);
        }
        column.tail.tick = column.tail.tick.clamp_age(now);
        column.range_stamps.clamp(now);
        column.newest = column.newest.clamp_age(now);
        column.newest_added = column.newest_added.clamp_age(now);
    }
}

/// See [`TableTicks::is_aligned`](super::TableTicks::is_aligned).
pub(super) fn is_aligned(columns: &[TickColumn], tracked: u128, rows: usize) -> bool {
    columns.iter().enumerate().all(|(bit, column)| {
        let expected = if tracked.contains(1 << bit) { rows } else { 0 };
        column.len() == expected
    })
}
