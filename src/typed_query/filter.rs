//! Change filters of typed queries: only the rows one of whose given components was written
//! after a tick. A table nobody wrote to since then is skipped whole; a column stamp newer than
//! the tick takes every row; otherwise each row's stamps are compared.

use core::cell::Cell;

use crate::archetype::{Archetype, TicksOf};
use crate::change_ticks::{RowStamps, TableTicks, TickCells, TickColumns};
use crate::mask::Bitmask;
use crate::storage::RowTags;
use crate::tick::Tick;

/// "One of the tracked `components` was written (or added) after `since`": the change filter
/// of a typed query ([`TypedQuery::changed_since`](crate::TypedQuery::changed_since),
/// [`TypedQuery::added_since`](crate::TypedQuery::added_since)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeFilter<M> {
    /// The components watched (untracked ones never count as changed).
    pub components: M,
    /// The tick a row must have been written (or added) after.
    pub since: Tick,
    /// Whether the filter asks when the components were added rather than written.
    pub added: bool,
}

/// What a typed query under construction filters on: the components and tags rows must hold
/// (`with`, and the components a change filter watches), those they must not (`without`), the
/// change filter, and whether disabled entities are let in beside the enabled ones. Shared by
/// the mutable and the read-only builder.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QueryFilters<M> {
    include: M,
    exclude: M,
    pub(crate) change: Option<ChangeFilter<M>>,
    allow_disabled: bool,
}

impl<M: Bitmask> QueryFilters<M> {
    /// No filter: every entity holding the query's required components.
    pub(crate) const NONE: Self = QueryFilters {
        include: M::EMPTY,
        exclude: M::EMPTY,
        change: None,
        allow_disabled: false,
    };

    /// The masks handed to the storage: `include` (with the query's `required` components) and
    /// `exclude`. Letting disabled entities in is the disabled bit in both (see
    /// [`Bitmask::DISABLED`]), unless a mask names it already (`with(DISABLED)` asks for
    /// the disabled entities only, `without(DISABLED)` for the enabled ones).
    #[inline(always)]
    pub(crate) fn masks(&self, required: M) -> (M, M) {
        let named = (self.include | self.exclude).contains(M::DISABLED);
        let either = if self.allow_disabled && !named {
            M::DISABLED
        } else {
            M::EMPTY
        };
        (self.include | required | either, self.exclude | either)
    }

    /// Disabled entities too, beside the enabled ones.
    pub(crate) fn allow_disabled(mut self) -> Self {
        self.allow_disabled = true;
        self
    }

    pub(crate) fn with(mut self, mask: M) -> Self {
        self.include |= mask;
        self
    }

    pub(crate) fn without(mut self, mask: M) -> Self {
        self.exclude |= mask;
        self
    }

    /// A change filter replaces the previous one; its components must be held too.
    pub(crate) fn changed_since(mut self, mask: M, since: Tick) -> Self {
        self.include |= mask;
        self.change = Some(ChangeFilter::changed(mask, since));
        self
    }

    pub(crate) fn added_since(mut self, mask: M, since: Tick) -> Self {
        self.include |= mask;
        self.change = Some(ChangeFilter::added(mask, since));
        self
    }
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
        ChangeFilter {
            components,
            since,
            added: false,
        }
    }

    /// Rows one of whose tracked `components` was added (spawned with it, or added to the
    /// entity) after `since`.
    pub fn added(components: M, since: Tick) -> Self {
        ChangeFilter {
            components,
            since,
            added: true,
        }
    }

    /// The write stamps and the added stamps the filter reads.
    #[inline]
    pub(crate) fn watched(filter: Option<Self>) -> (M, M) {
        match filter {
            None => (M::EMPTY, M::EMPTY),
            Some(filter) if filter.added => (M::EMPTY, filter.components),
            Some(filter) => (filter.components, M::EMPTY),
        }
    }

    /// The per-row test over a table's ticks (shared).
    #[inline]
    pub(crate) fn rows<'a, C: TickColumns>(
        &self,
        ticks: &'a TableTicks<M, C>,
    ) -> crate::change_ticks::ChangedRows<'a, M, C> {
        if self.added {
            ticks.added_rows(self.components, self.since)
        } else {
            ticks.changed_rows(self.components, self.since)
        }
    }

    /// The verdict of `filter` (if any) on a table with change ticks `ticks`.
    #[inline]
    pub(crate) fn verdict<C: TickColumns>(
        filter: Option<Self>,
        ticks: &TableTicks<M, C>,
    ) -> Verdict {
        match filter {
            None => Verdict::All,
            Some(filter) if filter.added => {
                if ticks.may_have_added_since(filter.components, filter.since) {
                    Verdict::Rows
                } else {
                    Verdict::Skip
                }
            }
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
    pub(crate) fn row_passes<C: TickColumns>(&self, ticks: &TableTicks<M, C>, row: usize) -> bool {
        if self.added {
            ticks.added_since(row, self.components, self.since)
        } else {
            ticks.changed_since(row, self.components, self.since)
        }
    }

    /// How many of a table's `rows` rows pass this filter and the tag test.
    pub(crate) fn count_rows<T: Archetype<Mask = M>>(
        &self,
        rows: usize,
        ticks: &TicksOf<T>,
        tags: RowTags<'_, T>,
    ) -> usize {
        if Self::verdict(Some(*self), ticks) == Verdict::Skip {
            return 0;
        }
        let changed = self.rows(ticks);
        (0..rows)
            .filter(|&row| changed.contains(row) && tags.matches(row))
            .count()
    }
}

impl Verdict {
    /// The per-row test of a table whose verdict is `self`, reading the stamps through
    /// `cells`, which hold the filter's columns over the run's `rows` rows; `None` when every
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
                return Some(RowTest::Column {
                    stamps,
                    since,
                    added: filter.added,
                });
            }
        }
        Some(RowTest::Any {
            cells,
            components: filter.components,
            since,
            added: filter.added,
        })
    }
}

/// The per-row test of a change filter over stamp cells.
pub(crate) enum RowTest<'a, M> {
    /// One watched column: compare its added stamps (`added`) or write stamps.
    Column {
        stamps: &'a [Cell<RowStamps>],
        since: Tick,
        added: bool,
    },
    /// Several watched columns: any of them.
    Any {
        cells: &'a TickCells<'a>,
        components: M,
        since: Tick,
        /// Whether the added stamps are compared (else the write stamps).
        added: bool,
    },
}

impl<M: Bitmask> RowTest<'_, M> {
    /// Whether `row` passes.
    #[inline]
    pub(crate) fn passes(&self, row: usize) -> bool {
        match *self {
            RowTest::Column {
                stamps,
                since,
                added,
            } => stamps[row].get().tick(added).is_newer_than(since),
            RowTest::Any {
                cells,
                components,
                since,
                added,
            } => {
                for bit in components.bits() {
                    if let Some(stamp) = cells.column(bit).get(row) {
                        if stamp.get().tick(added).is_newer_than(since) {
                            return true;
                        }
                    }
                }
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::QueryFilters;
    use crate::mask::Bitmask;

    const DISABLED: u64 = <u64 as Bitmask>::DISABLED;
    const REQUIRED: u64 = 0b0110;

    #[test]
    fn the_masks_handed_to_the_storage_say_what_to_do_with_disabled_entities() {
        let none = QueryFilters::<u64>::NONE;
        assert_eq!(
            none.masks(REQUIRED),
            (REQUIRED, 0),
            "skipped: the storage's default"
        );
        let allowed = none.allow_disabled();
        assert_eq!(
            allowed.masks(REQUIRED),
            (REQUIRED | DISABLED, DISABLED),
            "both"
        );
        // A mask that names the bit decides, in either order.
        let only = (REQUIRED | DISABLED, 0);
        assert_eq!(allowed.with(DISABLED).masks(REQUIRED), only);
        assert_eq!(none.with(DISABLED).allow_disabled().masks(REQUIRED), only);
        assert_eq!(
            allowed.without(DISABLED | 1).masks(REQUIRED),
            (REQUIRED, DISABLED | 1)
        );
        // The other filters are kept as they were.
        let tagged = allowed.with(0b1000).without(1);
        assert_eq!(tagged.masks(0), (0b1000 | DISABLED, 1 | DISABLED));
    }
}
