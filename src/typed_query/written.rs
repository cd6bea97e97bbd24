//! [`WrittenColumn`]: a column a typed query writes, cut to a run's rows, and how it records
//! the rows its guards wrote (a bit per row of a chunk of [`CHUNK`] rows, stamped when the
//! chunk ends, or one column stamp when every row of the run was written); [`RowAt`], a row as
//! a loop over chunks hands it out.

use core::cell::Cell;

use super::Mut;
use super::access::bit_index;
use super::fetch::Run;
use crate::archetype::Archetype;
use crate::change_ticks::RowStamps;
use crate::tick::Tick;

/// Rows per chunk of a `for_each` loop: a written column records the rows written in a chunk
/// as bits of one word, then stamps them.
pub(crate) const CHUNK: usize = 64;

/// A row as [`Fetch::row`] takes it: its index in the run and its bit in its chunk's
/// written-rows word (a loop over a chunk can shift the bit along instead of computing it).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct RowAt {
    /// The row's index in the run.
    pub index: usize,
    /// `1 << (index % CHUNK)`.
    pub bit: u64,
}

impl RowAt {
    /// Row `index` of the run.
    #[inline]
    pub fn new(index: usize) -> Self {
        RowAt {
            index,
            bit: 1 << (index % CHUNK),
        }
    }

    /// Row `index` visited alone, out of order: its bit is the first of its own word, which
    /// [`Fetch::flush_row`] reads back once its item is gone.
    #[inline]
    pub fn alone(index: usize) -> Self {
        RowAt { index, bit: 1 }
    }

    /// The row `rows` further on in the same chunk (`index % CHUNK + rows < CHUNK`).
    #[inline]
    pub fn plus(self, rows: usize) -> Self {
        RowAt {
            index: self.index + rows,
            bit: self.bit << rows,
        }
    }
}

/// The slices of one written column: values, their row stamps (empty when untracked), the
/// tick a write stamps, and (in `for_each`) which rows were written.
#[doc(hidden)]
pub struct WrittenColumn<'r, C> {
    values: &'r mut [C],
    stamps: &'r [Cell<RowStamps>],
    tick: Tick,
    /// Rows from the start of the run that were all written (while every chunk so far was).
    written_prefix: usize,
    /// Whether every row so far was written (the prefix is not stamped yet: if the whole run
    /// ends up written, one column stamp may do).
    all_written: bool,
}

impl<'r, C> WrittenColumn<'r, C> {
    /// The column `values` of a component tracked or not, cut to the run's rows.
    #[inline]
    pub(super) fn new<T: Archetype>(
        values: &'r mut [C],
        tracked: bool,
        bit: u128,
        run: &Run<'r, '_, T>,
    ) -> Self {
        let rows = run.entities.len();
        WrittenColumn {
            values: &mut values[..rows],
            stamps: if tracked {
                &run.stamps.column(bit_index(bit))[..rows]
            } else {
                &[]
            },
            tick: run.tick,
            written_prefix: 0,
            all_written: true,
        }
    }

    /// The guard of `row` in a chunked loop: a write sets the row's bit in `chunk`, the word
    /// of the rows of this chunk written so far.
    #[inline]
    pub(super) fn row<'s>(
        &'s mut self,
        chunk: &'s Cell<u64>,
        row: RowAt,
        tracked: bool,
    ) -> Mut<'s, C> {
        let value = &mut self.values[row.index];
        if tracked {
            Mut::in_chunk(value, chunk, row.bit, self.tick)
        } else {
            Mut::new(value, None, self.tick)
        }
    }

    /// Stamps the rows written (the bits of `chunk`) in the chunk of `len` rows from `start`.
    #[inline]
    pub(super) fn flush(&mut self, chunk: &Cell<u64>, start: usize, len: usize, tracked: bool) {
        if !tracked {
            return;
        }
        let written = chunk.replace(0);
        let every_row = if len >= CHUNK {
            u64::MAX
        } else {
            (1 << len) - 1
        };
        if self.all_written && written == every_row {
            self.written_prefix = start + len;
            return;
        }
        let tick = self.tick;
        if self.all_written {
            // The first chunk not wholly written: the prefix gets its row stamps after all.
            self.all_written = false;
            stamp_all(&self.stamps[..self.written_prefix], tick);
        }
        let stamps = &self.stamps[start..start + len];
        if written == every_row {
            stamp_all(stamps, tick);
        } else {
            let mut rows = written;
            while rows != 0 {
                if let Some(stamp) = stamps.get(rows.trailing_zeros() as usize) {
                    stamp.set(stamp.get().written_at(tick));
                }
                rows &= rows - 1;
            }
        }
    }

    /// Stamps `row` if its guard (handed out at [`RowAt::alone`]) wrote it.
    #[inline]
    pub(super) fn flush_row(&mut self, chunk: &Cell<u64>, row: usize, tracked: bool) {
        if tracked && chunk.replace(0) != 0 {
            if let Some(stamp) = self.stamps.get(row) {
                stamp.set(stamp.get().written_at(self.tick));
            }
        }
    }

    /// Whether every row of the run was written and is not stamped yet: the caller stamps
    /// them all at once (a column stamp for a whole table).
    #[inline]
    pub(super) fn all_written(&self, tracked: bool) -> bool {
        tracked && self.all_written && self.written_prefix > 0
    }

    #[inline]
    pub(super) fn pop(&mut self, tracked: bool) -> Option<Mut<'r, C>> {
        let (value, rest) = core::mem::take(&mut self.values).split_first_mut()?;
        self.values = rest;
        let stamp = if tracked {
            let (stamp, rest) = self.stamps.split_first()?;
            self.stamps = rest;
            Some(stamp)
        } else {
            None
        };
        Some(Mut::new(value, stamp, self.tick))
    }
}

/// Stamps every row of `stamps` as written at `tick`.
#[inline]
fn stamp_all(stamps: &[Cell<RowStamps>], tick: Tick) {
    for stamp in stamps {
        stamp.set(stamp.get().written_at(tick));
    }
}
