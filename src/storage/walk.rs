//! The one table walk every query form goes through: a query's masks opened once
//! ([`QueryMasks`]: the components a table must hold and must not, the tags a row must carry
//! and must not), the query cache's entry for them, and the matching non-empty tables, each
//! with the runs of rows the tag filter selects and where each run sits among the table's tag
//! segments ([`RunTags`]). [`Walk`] over `&self` (scanning the tables on a cache miss, which
//! `&self` cannot fill), [`WalkMut`] over `&mut self` (filling it).

use core::ops::Range;

use super::Storage;
use super::tag_partition::{Runs, TagPartition};
use crate::archetype::{Archetype, TicksOf};
use crate::entity::Entity;
use crate::mask::Bitmask;

/// A query's masks, opened once: component bits pick tables (through the query cache), tag
/// bits pick rows inside them (segments of the table's [`TagPartition`], contiguous row
/// ranges, so a tag filter costs what a table filter costs: a few ranges per table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct QueryMasks<M> {
    /// Components a table must hold: the query cache's key.
    pub(super) include: M,
    /// Components a table must not hold.
    pub(super) exclude: M,
    /// Tags a row must and must not carry.
    pub(super) tags: TagFilter<M>,
}

impl<M: Bitmask> QueryMasks<M> {
    /// Splits a query's `include` / `exclude` masks into their component and tag halves. A
    /// query that does not ask for [`Bitmask::DISABLED`] excludes the tables holding it (the
    /// disabled entities): a test per table it already makes, so a world that never disables
    /// pays nothing per row, nor per table. The bit in `include` asks for the disabled
    /// entities only; in both `include` and `exclude` (a query that could match nothing
    /// otherwise), for enabled and disabled entities alike.
    #[inline(always)]
    pub(super) fn new<T: Archetype<Mask = M>>(include: M, exclude: M) -> Self {
        let either = include & exclude & M::DISABLED;
        QueryMasks {
            include: include & !T::TAGS & !either,
            exclude: ((exclude & !T::TAGS) | (M::DISABLED & !include)) & !either,
            tags: TagFilter::new::<T>(include, exclude),
        }
    }

    /// Whether a table holding `include` is walked: it has rows and no excluded component.
    #[inline(always)]
    pub(super) fn keeps<T: Archetype<Mask = M>>(self, table: &T) -> bool {
        !table.is_empty() && !table.mask().intersects(self.exclude)
    }

    /// Whether a table of mask `mask` matches the component half (empty or not).
    #[inline]
    pub(super) fn matches_mask(self, mask: M) -> bool {
        mask.matches(self.include, self.exclude)
    }
}

/// The tag half of a query: the tags a row must have and those it must not. With neither,
/// it selects every row of a table (one run).
#[derive(Clone, Copy, Debug)]
pub(super) struct TagFilter<M> {
    include: M,
    exclude: M,
}

impl<M: Bitmask> TagFilter<M> {
    /// The tag bits of a query's masks.
    #[inline]
    pub(super) fn new<T: Archetype<Mask = M>>(include: M, exclude: M) -> Self {
        TagFilter {
            include: include & T::TAGS,
            exclude: exclude & T::TAGS,
        }
    }

    /// Whether the filter holds no tag: it selects every row.
    #[inline]
    pub(super) fn is_empty(self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    /// Whether `row` of a table whose segments are `partition` (`None` in a world without
    /// tags) passes the filter.
    #[inline]
    pub(super) fn accepts_row(self, partition: Option<&TagPartition<M>>, row: usize) -> bool {
        self.is_empty()
            || partition
                .is_some_and(|partition| partition.tags_of(row).matches(self.include, self.exclude))
    }

    /// The rows of a table of `rows` rows, whose partition is `partition`, that the filter
    /// selects: all of them without a tag in the filter (a world without tags keeps no
    /// partition), else the matching segments.
    #[inline]
    pub(super) fn runs_of(self, rows: usize, partition: &TagPartition<M>) -> Runs<'_, M> {
        if self.is_empty() {
            Runs::whole(rows)
        } else {
            partition.runs(self.include, self.exclude)
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// The walk over the non-empty tables matching `include` / `exclude`, shared: the query
    /// cache's tables when it holds `include`, else a scan of every table's mask.
    #[inline]
    pub(super) fn walk(&self, include: T::Mask, exclude: T::Mask) -> Walk<'_, T> {
        let masks = QueryMasks::new::<T>(include, exclude);
        Walk {
            tables: &self.tables,
            partitions: &self.partitions,
            cached: self.queries.get(masks.include).map(<[usize]>::iter),
            next_scan: 0,
            masks,
        }
    }

    /// The walk over the non-empty tables matching `include` / `exclude`, mutably, with their
    /// change ticks (fills the query cache on a miss).
    // Inlined into the `for_each` family (inlined into their callers): the masks stay
    // constants there.
    #[inline(always)]
    pub(super) fn walk_mut(&mut self, include: T::Mask, exclude: T::Mask) -> WalkMut<'_, T> {
        let masks = QueryMasks::new::<T>(include, exclude);
        let indices = self.queries.get_or_insert(masks.include);
        WalkMut {
            tables: &mut self.tables,
            ticks: &mut self.ticks,
            partitions: &self.partitions,
            indices: indices.iter(),
            next_index: 0,
            masks,
        }
    }

    /// [`walk_mut`](Self::walk_mut) as a closure call per table: the form of the `for_each`
    /// family's hot loops. The same tables in the same order; it reaches each by index
    /// rather than by splitting it off the rest, which a walk over many small tables pays per
    /// table (the iterator cannot lend tables by index without `unsafe`).
    #[inline(always)]
    pub(super) fn walk_mut_each(
        &mut self,
        include: T::Mask,
        exclude: T::Mask,
        mut f: impl FnMut(WalkedTable<'_, T>),
    ) {
        let masks = QueryMasks::new::<T>(include, exclude);
        let indices = self.queries.get_or_insert(masks.include);
        for &index in indices {
            let (Some(table), Some(ticks)) =
                (self.tables.get_mut(index), self.ticks.get_mut(index))
            else {
                continue;
            };
            if masks.keeps(table) {
                f(WalkedTable {
                    index,
                    table,
                    ticks,
                    partitions: &self.partitions,
                    tags: masks.tags,
                });
            }
        }
    }
}

/// The shared walk (`Storage::walk`): per matching non-empty table, its index, the table
/// and the runs of rows the tag filter selects.
pub(super) struct Walk<'a, T: Archetype> {
    tables: &'a [T],
    partitions: &'a [TagPartition<T::Mask>],
    cached: Option<core::slice::Iter<'a, usize>>,
    next_scan: usize,
    masks: QueryMasks<T::Mask>,
}

impl<'a, T: Archetype> Iterator for Walk<'a, T> {
    type Item = (usize, &'a T, Runs<'a, T::Mask>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let index = match &mut self.cached {
                Some(indices) => *indices.next()?,
                None => {
                    let index = self.next_scan;
                    let table = self.tables.get(index)?;
                    self.next_scan += 1;
                    if !table.mask().contains(self.masks.include) {
                        continue;
                    }
                    index
                }
            };
            let table = &self.tables[index];
            if self.masks.keeps(table) {
                let runs = self
                    .masks
                    .tags
                    .runs_of(table.len(), &self.partitions[index]);
                return Some((index, table, runs));
            }
        }
    }
}

/// The mutable walk (`Storage::walk_mut`): per matching non-empty table, a
/// [`WalkedTable`]. Walks the cached (ascending) table indices and the tables and their ticks
/// in lockstep, splitting each matching table off the front of the rest, so it reaches it
/// without touching the others and without `unsafe`.
pub struct WalkMut<'a, T: Archetype> {
    /// The tables from `next_index` on (and their ticks): slices rather than slice iterators,
    /// whose length is a division by the element's size at every step.
    tables: &'a mut [T],
    ticks: &'a mut [TicksOf<T>],
    partitions: &'a [TagPartition<T::Mask>],
    indices: core::slice::Iter<'a, usize>,
    next_index: usize,
    masks: QueryMasks<T::Mask>,
}

/// One table of a [`WalkMut`]: its index, the table and its change ticks, mutably, and its tag
/// segments.
pub struct WalkedTable<'a, T: Archetype> {
    /// The table's index in the storage.
    pub index: usize,
    /// The table.
    pub table: &'a mut T,
    /// The table's change ticks.
    pub ticks: &'a mut TicksOf<T>,
    /// Every table's tag segments (looked up only when asked: most walks name no tag).
    partitions: &'a [TagPartition<T::Mask>],
    tags: TagFilter<T::Mask>,
}

impl<'a, T: Archetype> WalkedTable<'a, T> {
    /// The runs of rows of the table the query's tag filter selects.
    #[inline(always)]
    pub(super) fn runs(&self) -> Runs<'a, T::Mask> {
        match self.partitions.get(self.index) {
            Some(partition) if !self.tags.is_empty() => {
                self.tags.runs_of(self.table.len(), partition)
            }
            _ => Runs::whole(self.table.len()),
        }
    }

    /// The table's tag segments and the query's tag filter.
    #[inline]
    pub(super) fn tag_test(&self) -> (Option<&'a TagPartition<T::Mask>>, TagFilter<T::Mask>) {
        (self.partition(), self.tags)
    }

    /// The table's tag segments (`None` in a world without tags).
    #[inline(always)]
    pub(super) fn partition(&self) -> Option<&'a TagPartition<T::Mask>> {
        self.partitions.get(self.index)
    }
}

/// One run of rows of a walked table, as [`Storage::for_each_run_mut`] hands it out and a
/// typed query visits it (a lent query builds its own).
pub struct WalkedRun<'a, T: Archetype> {
    /// The run's entities.
    pub entities: &'a [Entity],
    /// The rows of the table the run covers.
    pub rows: Range<usize>,
    /// How many rows the table has.
    pub table_rows: usize,
    /// Where the run sits among the table's tag segments.
    pub tags: RunTags<'a, T::Mask>,
}

impl<'a, T: Archetype> Iterator for WalkMut<'a, T> {
    type Item = WalkedTable<'a, T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let index = *self.indices.next()?;
            let skip = index - self.next_index;
            self.next_index = index + 1;
            let (table, tables) = core::mem::take(&mut self.tables)
                .get_mut(skip..)?
                .split_first_mut()?;
            self.tables = tables;
            let (ticks, all_ticks) = core::mem::take(&mut self.ticks)
                .get_mut(skip..)?
                .split_first_mut()?;
            self.ticks = all_ticks;
            if self.masks.keeps(table) {
                return Some(WalkedTable {
                    index,
                    table,
                    ticks,
                    partitions: self.partitions,
                    tags: self.masks.tags,
                });
            }
        }
    }
}

impl<T: Archetype> WalkMut<'_, T> {
    /// Whether the query names a tag (then rows of a matching table may not match).
    pub fn filters_tags(&self) -> bool {
        !self.masks.tags.is_empty()
    }

    /// How many rows the tables not yet returned hold (tags and change filters aside).
    pub fn remaining_rows(&self) -> usize {
        let tables = &*self.tables;
        self.indices
            .as_slice()
            .iter()
            .filter_map(|&index| tables.get(index - self.next_index))
            .filter(|table| !table.mask().intersects(self.masks.exclude))
            .map(Archetype::len)
            .sum()
    }
}

/// Cuts a table's view into the views of `runs` (ascending, disjoint row ranges) and calls
/// `f(run, entities, view)` for each. A run covering the whole table gets the view as it is.
#[inline]
pub(crate) fn split_runs<'v, T: Archetype>(
    entities: &'v [Entity],
    view: T::ViewMut<'v>,
    runs: impl Iterator<Item = Range<usize>>,
    mut f: impl FnMut(Range<usize>, &'v [Entity], T::ViewMut<'v>),
) {
    let mut rest = view;
    let mut offset = 0;
    for run in runs {
        if run.start == 0 && run.end == entities.len() {
            f(run, entities, rest);
            return;
        }
        let (_, from_start) = T::split_view(rest, run.start - offset);
        let (piece, after) = T::split_view(from_start, run.len());
        f(run.clone(), &entities[run.clone()], piece);
        rest = after;
        offset = run.end;
    }
}

/// Where a run's rows sit among their table's tag segments (rows of one signature are
/// contiguous): what a [`Has`](crate::Has) term of a tag reads.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct RunTags<'r, M> {
    /// The table's segments (`None` in a world without tags).
    partition: Option<&'r TagPartition<M>>,
    /// The run's first row in the table.
    table_row: usize,
}

impl<'r, M: Bitmask> RunTags<'r, M> {
    /// The run starting at row `table_row` of a table whose segments are `partition`.
    #[inline]
    pub(crate) fn new(partition: Option<&'r TagPartition<M>>, table_row: usize) -> Self {
        RunTags {
            partition,
            table_row,
        }
    }

    /// The tags of the run's row `row` and how many rows from it on (at least one) carry the
    /// same: the rest of its segment.
    #[inline]
    pub(crate) fn at(self, row: usize) -> (M, usize) {
        match self.partition {
            None => (M::EMPTY, usize::MAX),
            Some(partition) => {
                let row = self.table_row + row;
                let (tags, end) = partition.segment_at(row);
                (tags, end - row)
            }
        }
    }
}
