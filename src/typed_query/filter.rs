//! Change filters of typed queries: only the rows one of whose given components was written
//! after a tick. A table nobody wrote to since then is skipped whole; a column stamp newer than
//! the tick takes every row; otherwise each row's stamps are compared.

use core::cell::Cell;

use crate::change_ticks::{TableTicks, TickCells};
use crate::{Archetype, Bitmask, Entity, RowTags, Tick};

/// "One of the tracked `components` was written after `since`": the change filter of a typed
/// query ([`TypedQuery::changed_since`](crate::TypedQuery::changed_since)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeFilter<M> {
    /// The components watched (untracked ones never count as changed).
    pub components: M,
    /// The tick a row must have been written after.
    pub since: Tick,
}

/// What a change filter says about a whole table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// No row can pass: skip the table.
    Skip,
    /// Every row passes (no filter, or a column stamp marks them all).
    All,
    /// Test each row.
    Rows,
}

impl<M: Bitmask> ChangeFilter<M> {
    /// Rows one of whose tracked `components` was written after `since`.
    pub fn changed(components: M, since: Tick) -> Self {
        ChangeFilter { components, since }
    }

    /// The verdict of `filter` (if any) on a table with change ticks `ticks`.
    #[inline]
    pub(crate) fn verdict(filter: Option<Self>, ticks: &TableTicks<M>) -> Verdict {
        match filter {
            None => Verdict::All,
            Some(filter) if !ticks.may_have_changed_since(filter.components, filter.since) => {
                Verdict::Skip
            }
            Some(filter) if ticks.column_changed_since(filter.components, filter.since) => {
                Verdict::All
            }
            Some(_) => Verdict::Rows,
        }
    }

    /// Whether `row` of the table with ticks `ticks` passes.
    #[inline]
    pub(crate) fn row_passes(&self, ticks: &TableTicks<M>, row: usize) -> bool {
        ticks.changed_since(row, self.components, self.since)
    }

    /// How many rows of a table pass this filter and the tag test.
    pub(crate) fn count_rows<T: Archetype<Mask = M>>(
        &self,
        entities: &[Entity],
        ticks: &TableTicks<M>,
        tags: RowTags<'_, T>,
    ) -> usize {
        if Self::verdict(Some(*self), ticks) == Verdict::Skip {
            return 0;
        }
        let changed = ticks.changed_rows(self.components, self.since);
        entities
            .iter()
            .enumerate()
            .filter(|&(row, &entity)| changed.contains(row) && tags.matches(entity))
            .count()
    }
}

impl Verdict {
    /// The per-row test of a table whose verdict is `self`, reading the stamps through
    /// `cells` (which hold the filter's columns over the run's `rows` rows); `None` when every
    /// row passes.
    #[inline]
    pub(crate) fn rows<'a, M: Bitmask>(
        self,
        filter: Option<ChangeFilter<M>>,
        cells: &'a TickCells<'a>,
        rows: usize,
    ) -> Option<RowTest<'a, M>> {
        let filter = filter.filter(|_| self == Verdict::Rows)?;
        let since = filter.since;
        if filter.components.is_single_bit() {
            let stamps = cells.column(filter.components.trailing_zeros());
            if let Some(stamps) = stamps.get(..rows) {
                return Some(RowTest::One { stamps, since });
            }
        }
        Some(RowTest::Any {
            cells,
            components: filter.components,
            since,
        })
    }
}

/// The per-row test of a change filter over stamp cells.
pub(crate) enum RowTest<'a, M> {
    /// One watched column: compare its stamps.
    One {
        stamps: &'a [Cell<Tick>],
        since: Tick,
    },
    /// Several watched columns: any of them.
    Any {
        cells: &'a TickCells<'a>,
        components: M,
        since: Tick,
    },
}

impl<M: Bitmask> RowTest<'_, M> {
    /// Whether `row` passes.
    #[inline]
    pub(crate) fn passes(&self, row: usize) -> bool {
        match *self {
            RowTest::One { stamps, since } => stamps[row].get().is_newer_than(since),
            RowTest::Any {
                cells,
                components,
                since,
            } => components.bits().any(|bit| {
                cells
                    .column(bit)
                    .get(row)
                    .is_some_and(|stamp| stamp.get().is_newer_than(since))
            }),
        }
    }
}
