//! Range stamps: a write through a slice view marks a run of rows of a tick column as written
//! in constant time, instead of storing a tick per row. A few runs stay pending per column, so
//! systems that each write their own runs every frame (the rows with a tag, the rows without
//! it) never touch the row stamps; a run is folded into them only when one of its rows swaps
//! with a row outside it, when the column's stamps are read directly, or when a newer run
//! needs its place.

use alloc::boxed::Box;
use core::ops::Range;

use super::RowStamps;
use crate::tick::Tick;

/// Runs kept pending per column.
const PENDING: usize = 4;

/// The pending runs of one tick column: none until a slice view first writes part of the
/// column (most columns never see one), then a few, kept on the heap so a tick column stays
/// small (a table holds one per component of the world).
#[derive(Debug)]
pub(super) struct RangeStamps {
    runs: Option<Box<Runs>>,
}

impl Clone for RangeStamps {
    fn clone(&self) -> Self {
        Self {
            runs: self.runs.clone(),
        }
    }

    // Reuses the box when both have runs (a derived `clone_from` would allocate a new one).
    fn clone_from(&mut self, source: &Self) {
        match (&mut self.runs, &source.runs) {
            (Some(runs), Some(source_runs)) => **runs = (**source_runs).clone(),
            (runs, source_runs) => *runs = source_runs.clone(),
        }
    }
}

/// A few pending runs.
#[derive(Clone, Debug)]
struct Runs {
    /// `runs[..len]` are pending, none empty.
    runs: [RangeStamp; PENDING],
    len: usize,
}

/// The rows `start..end` count as written at `tick`, unless their own stamp is newer.
#[derive(Clone, Copy, Debug)]
struct RangeStamp {
    start: usize,
    end: usize,
    tick: Tick,
}

impl RangeStamp {
    #[inline]
    fn contains(&self, row: usize) -> bool {
        self.start <= row && row < self.end
    }

    /// Writes the run's tick into the row stamps it covers, where newer.
    fn fold(&self, stamps: &mut [RowStamps]) {
        if let Some(stamps) = stamps.get_mut(self.start..self.end) {
            for stamp in stamps {
                if self.tick.is_newer_than(stamp.changed) {
                    stamp.changed = self.tick;
                }
            }
        }
    }
}

impl RangeStamps {
    /// No pending run.
    pub(super) const NONE: RangeStamps = RangeStamps { runs: None };

    /// Whether no run is pending (the common case: every row's stamp is its own).
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.runs.as_ref().is_none_or(|runs| runs.is_empty())
    }

    /// The stamp a row whose own stamp is `own` counts as written at.
    #[inline]
    pub(super) fn stamp_of(&self, row: usize, own: Tick) -> Tick {
        self.runs
            .as_ref()
            .map_or(own, |runs| runs.stamp_of(row, own))
    }

    /// Whether a pending run is newer than `since`.
    #[inline]
    pub(super) fn any_newer_than(&self, since: Tick) -> bool {
        self.runs
            .as_ref()
            .is_some_and(|runs| runs.any_newer_than(since))
    }

    /// Whether a pending run newer than `since` covers every row of a column of `rows` rows.
    #[inline]
    pub(super) fn all_newer_than(&self, rows: usize, since: Tick) -> bool {
        self.runs
            .as_ref()
            .is_some_and(|runs| runs.all_newer_than(rows, since))
    }

    /// Marks `rows` of the column with row stamps `stamps` as written at `tick`, the newest
    /// tick yet (see [`Runs::add`]).
    #[inline]
    pub(super) fn add(&mut self, rows: Range<usize>, tick: Tick, stamps: &mut [RowStamps]) {
        self.runs
            .get_or_insert_with(|| Box::new(Runs::NONE))
            .add(rows, tick, stamps);
    }

    /// Folds every pending run into `stamps` (before they are read directly).
    pub(super) fn fold_all(&mut self, stamps: &mut [RowStamps]) {
        if let Some(runs) = &mut self.runs {
            runs.fold_all(stamps);
        }
    }

    /// Drops every pending run without folding it (a newer stamp covers them all), keeping
    /// the allocation for the column's next slice write.
    #[inline]
    pub(super) fn clear(&mut self) {
        if let Some(runs) = &mut self.runs {
            runs.len = 0;
        }
    }

    /// Readies the runs for rows `a` and `b` trading places (see [`Runs::before_swap`]).
    #[inline]
    pub(super) fn before_swap(&mut self, a: usize, b: usize, stamps: &mut [RowStamps]) {
        if let Some(runs) = &mut self.runs {
            runs.before_swap(a, b, stamps);
        }
    }

    /// Cuts the runs to a column that shrank to `rows` rows.
    #[inline]
    pub(super) fn truncate(&mut self, rows: usize) {
        if let Some(runs) = &mut self.runs {
            runs.truncate(rows);
        }
    }

    /// Ages the runs' ticks as [`Tick::clamp_age`] does.
    pub(super) fn clamp(&mut self, now: Tick) {
        if let Some(runs) = &mut self.runs {
            runs.clamp(now);
        }
    }
}

impl Runs {
    /// No pending run.
    const NONE: Runs = Runs {
        runs: [RangeStamp {
            start: 0,
            end: 0,
            tick: Tick(0),
        }; PENDING],
        len: 0,
    };

    /// Whether no run is pending (the common case: every row's stamp is its own).
    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn pending(&self) -> &[RangeStamp] {
        &self.runs[..self.len]
    }

    /// The stamp a row whose own stamp is `own` counts as written at.
    #[inline]
    fn stamp_of(&self, row: usize, own: Tick) -> Tick {
        self.pending()
            .iter()
            .filter(|run| run.contains(row))
            .fold(own, |stamp, run| {
                if run.tick.is_newer_than(stamp) {
                    run.tick
                } else {
                    stamp
                }
            })
    }

    /// Whether a pending run is newer than `since`.
    #[inline]
    fn any_newer_than(&self, since: Tick) -> bool {
        self.pending()
            .iter()
            .any(|run| run.tick.is_newer_than(since))
    }

    /// Whether a pending run newer than `since` covers every row of a column of `rows` rows.
    #[inline]
    fn all_newer_than(&self, rows: usize, since: Tick) -> bool {
        self.pending()
            .iter()
            .any(|run| run.start == 0 && run.end >= rows && run.tick.is_newer_than(since))
    }

    /// Marks `rows` of the column with row stamps `stamps` as written at `tick`, the newest
    /// tick yet: the runs it covers are dropped, and it takes a free place or the oldest
    /// run's, which is folded into `stamps` first.
    #[inline]
    fn add(&mut self, rows: Range<usize>, tick: Tick, stamps: &mut [RowStamps]) {
        if self.len == 1 && self.runs[0].start == rows.start && self.runs[0].end == rows.end {
            // The same rows as the one pending run (a system writing the same table every
            // frame, paid per table visited): the newer tick replaces it, nothing to fold or
            // drop.
            self.runs[0].tick = tick;
        } else if !rows.is_empty() {
            self.insert(rows, tick, stamps);
        }
    }

    /// [`add`](Self::add) of a run that is not the one pending run.
    fn insert(&mut self, rows: Range<usize>, tick: Tick, stamps: &mut [RowStamps]) {
        let mut index = 0;
        while index < self.len {
            let run = self.runs[index];
            if rows.start <= run.start && run.end <= rows.end {
                self.remove(index);
            } else {
                index += 1;
            }
        }
        if self.len == PENDING {
            let oldest = (1..PENDING).fold(0, |oldest, index| {
                if self.runs[oldest].tick.is_newer_than(self.runs[index].tick) {
                    index
                } else {
                    oldest
                }
            });
            self.runs[oldest].fold(stamps);
            self.remove(oldest);
        }
        self.runs[self.len] = RangeStamp {
            start: rows.start,
            end: rows.end,
            tick,
        };
        self.len += 1;
    }

    fn remove(&mut self, index: usize) {
        self.runs[index] = self.runs[self.len - 1];
        self.len -= 1;
    }

    /// Folds every pending run into `stamps` (before they are read directly).
    fn fold_all(&mut self, stamps: &mut [RowStamps]) {
        for run in self.pending() {
            run.fold(stamps);
        }
        self.len = 0;
    }

    /// Readies the runs for rows `a` and `b` trading places. A run holding both, or neither,
    /// still covers the same stamps. A run holding one of them stays when the row coming in
    /// was written no earlier than the run (a row just spawned into a table whose rows were
    /// all written this frame, joining its tag segment): the row going out takes the run's
    /// stamp along, one store. Any other run is folded into every row it covers.
    #[inline]
    fn before_swap(&mut self, a: usize, b: usize, stamps: &mut [RowStamps]) {
        let mut index = 0;
        while index < self.len {
            let run = self.runs[index];
            let (inside, outside) = match (run.contains(a), run.contains(b)) {
                (true, false) => (a, b),
                (false, true) => (b, a),
                _ => {
                    index += 1;
                    continue;
                }
            };
            let coming_in = stamps.get(outside).map(|stamp| stamp.changed);
            match (coming_in, stamps.get_mut(inside)) {
                (Some(coming_in), Some(going_out)) if !run.tick.is_newer_than(coming_in) => {
                    if run.tick.is_newer_than(going_out.changed) {
                        going_out.changed = run.tick;
                    }
                    index += 1;
                }
                _ => {
                    run.fold(stamps);
                    self.remove(index);
                }
            }
        }
    }

    /// Cuts the runs to a column that shrank to `rows` rows.
    #[inline]
    fn truncate(&mut self, rows: usize) {
        let mut index = 0;
        while index < self.len {
            let run = &mut self.runs[index];
            run.end = run.end.min(rows);
            if run.start >= run.end {
                self.remove(index);
            } else {
                index += 1;
            }
        }
    }

    /// Ages the runs' ticks as [`Tick::clamp_age`] does.
    fn clamp(&mut self, now: Tick) {
        let len = self.len;
        for run in &mut self.runs[..len] {
            run.tick = run.tick.clamp_age(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// `count` rows written at tick 1 (added at tick 0: the runs never touch it).
    fn rows(count: usize) -> Vec<RowStamps> {
        vec![
            RowStamps {
                changed: Tick(1),
                added: Tick(0),
            };
            count
        ]
    }

    /// Every row's own write stamp.
    fn changed(stamps: &[RowStamps]) -> Vec<u32> {
        assert!(stamps.iter().all(|stamp| stamp.added == Tick(0)));
        stamps.iter().map(|stamp| stamp.changed.0).collect()
    }

    /// The stamp of every row, through the runs.
    fn effective(runs: &Runs, stamps: &[RowStamps]) -> Vec<u32> {
        stamps
            .iter()
            .enumerate()
            .map(|(row, own)| runs.stamp_of(row, own.changed).0)
            .collect()
    }

    #[test]
    fn runs_cover_their_rows_and_newer_own_stamps_win() {
        let mut stamps = rows(5);
        let mut runs = Runs::NONE;
        runs.add(1..3, Tick(5), &mut stamps);
        stamps[2].changed = Tick(6);
        assert_eq!(effective(&runs, &stamps), vec![1, 5, 6, 1, 1]);
        assert!(runs.any_newer_than(Tick(4)) && !runs.any_newer_than(Tick(5)));
        assert!(!runs.all_newer_than(5, Tick(4)));
        runs.add(0..5, Tick(7), &mut stamps);
        assert_eq!(runs.len, 1, "the covered run is dropped");
        assert!(runs.all_newer_than(5, Tick(6)));
        assert_eq!(changed(&stamps), vec![1, 1, 6, 1, 1]);
    }

    #[test]
    fn a_full_list_folds_its_oldest_run() {
        let mut stamps = rows(6);
        let mut runs = Runs::NONE;
        for row in 0..PENDING {
            runs.add(row..row + 1, Tick(10 + row as u32), &mut stamps);
        }
        assert_eq!(changed(&stamps), vec![1; 6], "all pending");
        runs.add(5..6, Tick(20), &mut stamps);
        assert_eq!(stamps[0].changed, Tick(10), "the oldest run was folded");
        assert_eq!(effective(&runs, &stamps), vec![10, 11, 12, 13, 1, 20]);
    }

    #[test]
    fn swaps_fold_only_runs_holding_one_of_the_rows() {
        let mut stamps = rows(6);
        let mut runs = Runs::NONE;
        runs.add(0..2, Tick(5), &mut stamps);
        runs.add(2..6, Tick(6), &mut stamps);
        runs.before_swap(3, 4, &mut stamps);
        assert_eq!(runs.len, 2, "both rows in one run, neither in the other");
        runs.before_swap(1, 2, &mut stamps);
        assert_eq!(runs.len, 0);
        assert_eq!(changed(&stamps), vec![5, 5, 6, 6, 6, 6]);
    }

    #[test]
    fn a_swap_with_a_row_written_since_keeps_the_run() {
        let mut stamps = rows(5);
        let mut runs = Runs::NONE;
        runs.add(0..4, Tick(5), &mut stamps);
        stamps[4].changed = Tick(7); // spawned after the run's write
        let mut expected = effective(&runs, &stamps);
        expected.swap(1, 4);
        runs.before_swap(1, 4, &mut stamps);
        stamps.swap(1, 4);
        assert_eq!(runs.len, 1, "kept, nothing folded");
        assert_eq!(effective(&runs, &stamps), expected);
        assert_eq!(
            changed(&stamps),
            vec![1, 7, 1, 1, 5],
            "only the row that left took the run's stamp"
        );
    }

    #[test]
    fn truncation_and_folding_keep_stamps() {
        let mut stamps = rows(4);
        let mut runs = Runs::NONE;
        runs.add(2..4, Tick(5), &mut stamps);
        runs.add(0..1, Tick(6), &mut stamps);
        runs.truncate(2);
        assert_eq!(runs.len, 1, "the run past the end is gone");
        stamps.truncate(2);
        runs.fold_all(&mut stamps);
        assert_eq!(changed(&stamps), vec![6, 1]);
        assert_eq!(runs.len, 0);
    }

    #[test]
    fn a_column_gets_runs_on_its_first_slice_write_only() {
        let mut stamps = rows(4);
        let mut column = RangeStamps::NONE;
        assert!(column.is_empty() && column.runs.is_none());
        column.fold_all(&mut stamps);
        column.before_swap(0, 3, &mut stamps);
        column.truncate(2);
        assert!(column.runs.is_none(), "nothing pending, nothing allocated");
        assert_eq!(column.stamp_of(1, Tick(1)), Tick(1));
        column.add(1..3, Tick(5), &mut stamps);
        assert!(!column.is_empty());
        assert!(column.any_newer_than(Tick(4)) && !column.all_newer_than(4, Tick(4)));
        assert_eq!(column.stamp_of(1, Tick(1)), Tick(5));
        column.fold_all(&mut stamps);
        assert!(column.is_empty(), "folded");
        assert_eq!(changed(&stamps), vec![1, 5, 5, 1]);
        column.add(0..2, Tick(6), &mut stamps);
        column.clear();
        assert!(
            column.is_empty() && column.runs.is_some(),
            "cleared, still allocated"
        );
        assert_eq!(changed(&stamps), vec![1, 5, 5, 1], "dropped, not folded");
    }
}
