//! Queries over the storage: the matching tables, and inside each the rows a tag filter
//! selects. Component bits pick tables (through the query cache); tag bits pick segments of
//! each table's [`TagPartition`], contiguous row ranges, so a tag filter costs what a table
//! filter costs: a few ranges per table, then the plain loop over slices.

#[cfg(feature = "parallel")]
use alloc::vec::Vec;
use core::ops::Range;

use super::Storage;
use super::column_iter::{ColumnSlices, ColumnSlicesMut, ColumnValues};
use super::tag_partition::{Runs, TagPartition};
use crate::change_ticks::{ChangedRows, RowStamps, TicksOf};
use crate::query_cache::QueryCache;
use crate::{Archetype, Bitmask, Entity, Tick};

/// How many chunks per rayon thread `par_for_each_mut` aims for, so uneven work still balances.
#[cfg(feature = "parallel")]
const CHUNKS_PER_THREAD: usize = 4;

impl<T: Archetype> Storage<T> {
    /// Fills the query cache for `include`, so `&self` queries on it skip non-matching tables.
    pub fn warm_query(&mut self, include: T::Mask) {
        let tables = &self.tables;
        self.queries
            .get_or_insert(include & !T::TAGS, tables.iter().map(Archetype::mask));
    }

    /// Non-empty tables holding every component of `include` and none of `exclude` (tag bits
    /// are not table properties and are ignored here). Uses the query cache when `include` is
    /// cached, else scans the tables (a `&self` query cannot fill it).
    pub fn matching_tables(&self, include: T::Mask, exclude: T::Mask) -> MatchingTables<'_, T> {
        MatchingTables {
            indices: self.matching_indices(include, exclude),
        }
    }

    /// The indices of the tables [`matching_tables`](Self::matching_tables) yields.
    fn matching_indices(&self, include: T::Mask, exclude: T::Mask) -> MatchingIndices<'_, T> {
        let include = include & !T::TAGS;
        MatchingIndices {
            tables: &self.tables,
            cached: self.queries.get(include).map(<[usize]>::iter),
            next_scan: 0,
            include,
            exclude: exclude & !T::TAGS,
        }
    }

    /// Mutable form of [`matching_tables`](Self::matching_tables); fills the cache on a miss.
    pub fn matching_tables_mut(
        &mut self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> MatchingTablesMut<'_, T> {
        matching_tables_mut(&mut self.tables, &mut self.queries, include, exclude)
    }

    /// The rows of table `table_index` that `filter` selects.
    #[inline]
    fn runs(&self, table_index: usize, filter: TagFilter<T::Mask>) -> Runs<'_, T::Mask> {
        filter.runs(&self.tables[table_index], &self.partitions[table_index])
    }

    /// Every entity with all components and tags of `include` and none of `exclude`.
    pub fn matching_entities(
        &self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> impl Iterator<Item = Entity> + '_ {
        let filter = TagFilter::new::<T>(include, exclude);
        self.matching_indices(include, exclude)
            .flat_map(move |table_index| {
                let entities = self.tables[table_index].entities();
                self.runs(table_index, filter)
                    .flat_map(move |run| entities[run].iter())
            })
            .copied()
    }

    /// Calls `f(entity, table, row)` for every entity matching `include` / `exclude`.
    pub fn for_each<F>(&self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &T, usize),
    {
        let filter = TagFilter::new::<T>(include, exclude);
        for table_index in self.matching_indices(include, exclude) {
            let table = &self.tables[table_index];
            let entities = table.entities();
            for run in self.runs(table_index, filter) {
                // Four rows per step: a row at a time, the loop (a bounds check and a load
                // per row for a closure reading one column) ran at 4.2 to 5.5 us over
                // tag_filter_read's 10,000 rows depending on where it fell against 64-byte
                // code boundaries, one build to the next; four per step, at 2.3 to 2.6.
                let mut index = run.start;
                let mut fours = entities[run].chunks_exact(4);
                for four in &mut fours {
                    f(four[0], table, index);
                    f(four[1], table, index + 1);
                    f(four[2], table, index + 2);
                    f(four[3], table, index + 3);
                    index += 4;
                }
                for &entity in fours.remainder() {
                    f(entity, table, index);
                    index += 1;
                }
            }
        }
    }

    /// Calls `f(entity, view, row)` for every entity matching `include` / `exclude`, with a
    /// mutable slice view of its table. The view can write any column of any row and the
    /// storage cannot see which, so every tracked column of each table visited is stamped as
    /// changed (a column stamp).
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[inline(always)]
    pub fn for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        let filter = TagFilter::new::<T>(include, exclude);
        let components = include & !T::TAGS;
        let excluded = exclude & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(components, self.tables.iter().map(Archetype::mask));
        let tick = self.tick;
        for &table_index in indices {
            let table = &mut self.tables[table_index];
            if table.is_empty() || table.mask().intersects(excluded) {
                continue;
            }
            // The view hands out every column of the whole table mutably (any row, not only
            // the rows a tag filter selects) and cannot see writes: report them all.
            self.ticks[table_index].stamp_columns(T::COMPONENTS, tick);
            let (entities, mut view) = table.view_mut(components);
            for run in filter.runs_of(entities.len(), &self.partitions[table_index]) {
                for (offset, &entity) in entities[run.clone()].iter().enumerate() {
                    f(entity, &mut view, run.start + offset);
                }
            }
        }
    }

    /// Parallel form of [`for_each_mut`](Self::for_each_mut): the matching rows are cut into
    /// chunks (several per thread, so one large table spreads over every thread too) and
    /// rayon runs `f` on the chunks. Each chunk is a view of its rows only, so `index` is
    /// relative to the view `f` receives, exactly as in `for_each_mut`.
    #[cfg(feature = "parallel")]
    pub fn par_for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, f: F)
    where
        T: Send,
        for<'a> T::ViewMut<'a>: Send,
        F: Fn(Entity, &mut T::ViewMut<'_>, usize) + Sync + Send,
    {
        use rayon::prelude::{IntoParallelIterator, ParallelIterator};

        // The views hand out every column mutably and cannot see writes: report them all.
        self.mark_columns_changed(include, exclude, T::COMPONENTS);
        let filter = TagFilter::new::<T>(include, exclude);
        let components = include & !T::TAGS;
        let excluded = exclude & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(components, self.tables.iter().map(Archetype::mask));
        let rows: usize = indices
            .iter()
            .filter(|&&index| !self.tables[index].mask().intersects(excluded))
            .flat_map(|&index| filter.runs(&self.tables[index], &self.partitions[index]))
            .map(|run| run.len())
            .sum();
        let chunk_rows = rows
            .div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD)
            .max(1);
        let mut chunks = Vec::new();
        // The tables and their partitions in lockstep, keeping the matching ones: views of
        // several tables at once, without `unsafe`.
        let mut wanted = indices.iter().copied().peekable();
        let tables = self.tables.iter_mut().zip(&self.partitions).enumerate();
        for (table_index, (table, partition)) in tables {
            if wanted.next_if_eq(&table_index).is_none()
                || table.is_empty()
                || table.mask().intersects(excluded)
            {
                continue;
            }
            let (entities, view) = table.view_mut(components);
            split_runs::<T>(
                entities,
                view,
                filter.runs_of(entities.len(), partition),
                |_, entities, view| {
                    let (mut entities, mut view) = (entities, view);
                    while entities.len() > chunk_rows {
                        let (head, tail) = T::split_view(view, chunk_rows);
                        chunks.push((&entities[..chunk_rows], head));
                        entities = &entities[chunk_rows..];
                        view = tail;
                    }
                    chunks.push((entities, view));
                },
            );
        }
        chunks.into_par_iter().for_each(|(entities, mut view)| {
            for (row, &entity) in entities.iter().enumerate() {
                f(entity, &mut view, row);
            }
        });
    }

    /// Calls `f(view)` once per non-empty table matching `include` / `exclude`. With tag bits
    /// in the masks, `f` gets one view per run of consecutive matching rows instead (rows of
    /// one tag signature are contiguous, so a few per table), and every row it sees matches.
    /// Every tracked column of the rows handed out is stamped as changed (a column stamp for
    /// a whole table).
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[inline(always)]
    pub fn for_each_table_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(&mut T::ViewMut<'_>),
    {
        let tick = self.tick;
        self.for_each_run_mut(include, exclude, |_, mut view, ticks, rows, table_rows| {
            // The view hands out every column of its rows mutably and cannot see writes:
            // report them all.
            ticks.stamp_rows_of_every_column(rows, table_rows, tick);
            f(&mut view);
        });
    }

    /// The table walk of [`for_each_table_mut`](Self::for_each_table_mut) and of typed queries
    /// ([`TypedQuery`](crate::TypedQuery)): calls `f(entities, view)` once per non-empty table
    /// matching `include` / `exclude`, or once per run of consecutive matching rows when the
    /// masks hold tag bits, so every row `f` sees matches. `f` also gets the table's change
    /// ticks, the rows of the table the run covers and the table's number of rows, to stamp
    /// what it writes.
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[inline(always)]
    pub fn for_each_run_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(&[Entity], T::ViewMut<'_>, &mut TicksOf<T>, Range<usize>, usize),
    {
        let filter = TagFilter::new::<T>(include, exclude);
        let components = include & !T::TAGS;
        let excluded = exclude & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(components, self.tables.iter().map(Archetype::mask));
        if filter.is_empty() {
            // No tag: one run per table, the whole of it. The common case, kept free of the
            // partition and the view splitting, since a world of many small tables pays this
            // loop's body per table.
            for &table_index in indices {
                let (Some(table), Some(ticks)) = (
                    self.tables.get_mut(table_index),
                    self.ticks.get_mut(table_index),
                ) else {
                    continue;
                };
                if table.is_empty() || table.mask().intersects(excluded) {
                    continue;
                }
                let (entities, view) = table.view_mut(components);
                f(entities, view, ticks, 0..entities.len(), entities.len());
            }
            return;
        }
        for &table_index in indices {
            let table = &mut self.tables[table_index];
            if table.is_empty() || table.mask().intersects(excluded) {
                continue;
            }
            let ticks = &mut self.ticks[table_index];
            let (entities, view) = table.view_mut(components);
            let runs = filter.runs_of(entities.len(), &self.partitions[table_index]);
            let table_rows = entities.len();
            split_runs::<T>(entities, view, runs, |run, entities, view| {
                f(entities, view, ticks, run, table_rows);
            });
        }
    }

    /// Every entity holding all components and tags of `include`.
    pub fn query_entities(&self, include: T::Mask) -> impl Iterator<Item = Entity> + '_ {
        self.matching_entities(include, T::Mask::EMPTY)
    }

    /// The first entity holding all components and tags of `include`.
    pub fn query_first_entity(&self, include: T::Mask) -> Option<Entity> {
        self.query_entities(include).next()
    }

    /// Every value of the column `column` picks, over all tables holding `bit`.
    pub fn column_values<C>(&self, bit: T::Mask, column: fn(&T) -> &[C]) -> ColumnValues<'_, T, C> {
        ColumnValues::new(self.matching_tables(bit, T::Mask::EMPTY), column)
    }

    /// One slice per table holding `bit`: the column `column` picks.
    pub fn column_slices<C>(&self, bit: T::Mask, column: fn(&T) -> &[C]) -> ColumnSlices<'_, T, C> {
        ColumnSlices::new(self.matching_tables(bit, T::Mask::EMPTY), column)
    }

    /// Mutable form of [`column_slices`](Self::column_slices); marks those columns changed.
    pub fn column_slices_mut<C>(
        &mut self,
        bit: T::Mask,
        column: fn(&mut T) -> &mut [C],
    ) -> ColumnSlicesMut<'_, T, C> {
        self.mark_columns_changed(bit, T::Mask::EMPTY, bit);
        ColumnSlicesMut::new(self.matching_tables_mut(bit, T::Mask::EMPTY), column)
    }

    // ----- change detection -----------------------------------------------------------------

    /// Stamps the tracked components of `mask` of a live entity as changed now (for writes
    /// made through a table view). `false` for a dead handle.
    pub fn mark_changed(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        self.ticks[location.table()].stamp(location.row(), mask, self.tick);
        true
    }

    /// Marks the tracked `columns` of every table matching `include` / `exclude` as changed
    /// now, in constant time per table: for writes through raw slices
    /// (`for_each_table_mut`, `for_each_mut`). Tag bits are ignored: a column stamp is a
    /// table-wide mark.
    pub fn mark_columns_changed(&mut self, include: T::Mask, exclude: T::Mask, columns: T::Mask) {
        let include = include & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(include, self.tables.iter().map(Archetype::mask));
        for &table_index in indices {
            if !self.tables[table_index]
                .mask()
                .intersects(exclude & !T::TAGS)
            {
                self.ticks[table_index].stamp_columns(columns, self.tick);
            }
        }
    }

    /// Calls `f(entity, view, row)` for every entity matching `include` / `exclude` one of
    /// whose tracked `include` components was written after `since`. Tables nobody wrote to
    /// since then are skipped whole.
    pub fn for_each_mut_changed_since<F>(
        &mut self,
        include: T::Mask,
        exclude: T::Mask,
        since: Tick,
        mut f: F,
    ) where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        let filter = TagFilter::new::<T>(include, exclude);
        let components = include & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(components, self.tables.iter().map(Archetype::mask));
        for &table_index in indices {
            let ticks = &self.ticks[table_index];
            let table = &mut self.tables[table_index];
            if table.mask().intersects(exclude & !T::TAGS)
                || !ticks.may_have_changed_since(components, since)
            {
                continue;
            }
            let (entities, mut view) = table.view_mut(components);
            let changed = ticks.changed_rows(components, since);
            for run in filter.runs_of(entities.len(), &self.partitions[table_index]) {
                // One row loop per kind of test, each specialised by the compiler.
                match &changed {
                    ChangedRows::All => visit_rows(entities, run, &mut view, &mut f, |_| true),
                    ChangedRows::Column { stamps, since } => {
                        visit_changed_rows(entities, stamps, *since, run, &mut view, &mut f)
                    }
                    any => visit_rows(entities, run, &mut view, &mut f, |row| any.contains(row)),
                }
            }
        }
    }

    /// Every entity holding all components and tags of `include`, one of whose tracked
    /// `include` components was written after `since`.
    pub fn query_entities_changed_since(
        &self,
        include: T::Mask,
        since: Tick,
    ) -> impl Iterator<Item = Entity> + '_ {
        let filter = TagFilter::new::<T>(include, T::Mask::EMPTY);
        let components = include & !T::TAGS;
        (0..self.tables.len())
            .filter(move |&table_index| {
                self.tables[table_index].mask().contains(components)
                    && self.ticks[table_index].may_have_changed_since(components, since)
            })
            .flat_map(move |table_index| {
                let changed = self.ticks[table_index].changed_rows(components, since);
                let entities = self.tables[table_index].entities();
                self.runs(table_index, filter)
                    .flatten()
                    .filter(move |&row| changed.contains(row))
                    .map(move |row| entities[row])
            })
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

    /// Whether a row with the tags `tags` passes the filter.
    #[inline]
    pub(super) fn accepts(self, tags: M) -> bool {
        tags.matches(self.include, self.exclude)
    }

    /// The rows of `table`, whose partition is `partition`, that the filter selects.
    #[inline]
    pub(super) fn runs<'a, T: Archetype<Mask = M>>(
        self,
        table: &T,
        partition: &'a TagPartition<M>,
    ) -> Runs<'a, M> {
        self.runs_of(table.len(), partition)
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

/// Cuts a table's view into the views of `runs` (ascending, disjoint row ranges) and calls
/// `f(run, entities, view)` for each. A run covering the whole table gets the view as it is.
#[inline]
pub(super) fn split_runs<'v, T: Archetype>(
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

/// The cached indices of the tables holding every component of `include` (filling the cache
/// on a miss), from the storage's fields.
pub(super) fn matching_indices<'a, T: Archetype>(
    tables: &[T],
    queries: &'a mut QueryCache<T::Mask>,
    include: T::Mask,
) -> &'a [usize] {
    queries.get_or_insert(include & !T::TAGS, tables.iter().map(Archetype::mask))
}

/// Calls `f(entity, view, row)` for every row of `run` that `keep` accepts.
#[inline]
fn visit_rows<V>(
    entities: &[Entity],
    run: Range<usize>,
    view: &mut V,
    f: &mut impl FnMut(Entity, &mut V, usize),
    keep: impl Fn(usize) -> bool,
) {
    for row in run {
        if keep(row) {
            f(entities[row], view, row);
        }
    }
}

/// Calls `f(entity, view, row)` for every row of `run` whose write stamp in `stamps` is newer
/// than `since`: the rows, entities and stamps walked together, cut to the run once, so the
/// row loop has no bounds check (the common changed-only scan: one watched component).
#[inline]
fn visit_changed_rows<V>(
    entities: &[Entity],
    stamps: &[RowStamps],
    since: Tick,
    run: Range<usize>,
    view: &mut V,
    f: &mut impl FnMut(Entity, &mut V, usize),
) {
    let (Some(entities), Some(stamps)) = (entities.get(run.clone()), stamps.get(run.clone()))
    else {
        return;
    };
    for ((row, &entity), stamp) in run.zip(entities).zip(stamps) {
        if stamp.changed.is_newer_than(since) {
            f(entity, view, row);
        }
    }
}

/// The matching tables of a query, from the storage's fields (so the caller can keep using its
/// other fields while it walks them).
fn matching_tables_mut<'a, T: Archetype>(
    tables: &'a mut [T],
    queries: &'a mut QueryCache<T::Mask>,
    include: T::Mask,
    exclude: T::Mask,
) -> MatchingTablesMut<'a, T> {
    let include = include & !T::TAGS;
    let indices = queries.get_or_insert(include, tables.iter().map(Archetype::mask));
    MatchingTablesMut {
        tables: tables.iter_mut(),
        indices: indices.iter(),
        next_index: 0,
        exclude: exclude & !T::TAGS,
    }
}

/// Indices of the tables matching a query; see [`Storage::matching_tables`].
struct MatchingIndices<'a, T: Archetype> {
    tables: &'a [T],
    cached: Option<core::slice::Iter<'a, usize>>,
    next_scan: usize,
    include: T::Mask,
    exclude: T::Mask,
}

impl<T: Archetype> Iterator for MatchingIndices<'_, T> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            let index = match &mut self.cached {
                Some(indices) => *indices.next()?,
                None => {
                    let index = self.next_scan;
                    let table = self.tables.get(index)?;
                    self.next_scan += 1;
                    if !table.mask().contains(self.include) {
                        continue;
                    }
                    index
                }
            };
            let table = &self.tables[index];
            if !table.is_empty() && !table.mask().intersects(self.exclude) {
                return Some(index);
            }
        }
    }
}

/// Iterator over the tables matching a query; see [`Storage::matching_tables`].
pub struct MatchingTables<'a, T: Archetype> {
    indices: MatchingIndices<'a, T>,
}

impl<'a, T: Archetype> Iterator for MatchingTables<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        let index = self.indices.next()?;
        Some(&self.indices.tables[index])
    }
}

/// Iterator over the tables matching a query, mutably; see [`Storage::matching_tables_mut`].
///
/// Walks the cached (ascending) table indices and the tables in lockstep, so it reaches each
/// matching table without touching the others and without `unsafe`.
pub struct MatchingTablesMut<'a, T: Archetype> {
    tables: core::slice::IterMut<'a, T>,
    indices: core::slice::Iter<'a, usize>,
    next_index: usize,
    exclude: T::Mask,
}

impl<'a, T: Archetype> Iterator for MatchingTablesMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        loop {
            let index = *self.indices.next()?;
            let table = self.tables.nth(index - self.next_index)?;
            self.next_index = index + 1;
            if !table.is_empty() && !table.mask().intersects(self.exclude) {
                return Some(table);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::test_world::*;
    use alloc::vec::Vec;

    /// What `for_each` should visit: every row of every table holding `include`, whose tags
    /// match, in table then row order.
    fn expected(
        storage: &Storage<TestWorldComponentArrays>,
        include: u64,
        exclude: u64,
    ) -> Vec<(Entity, usize)> {
        let mut rows = Vec::new();
        for table in storage.tables() {
            if !table.mask().contains(include & !MARKED) {
                continue;
            }
            for (index, &entity) in table.entities().iter().enumerate() {
                let marked = storage.has_components(entity, MARKED);
                let wanted = if include & MARKED != 0 {
                    marked
                } else {
                    exclude & MARKED == 0 || !marked
                };
                if wanted {
                    rows.push((entity, index));
                }
            }
        }
        rows
    }

    #[test]
    fn for_each_visits_every_row_of_runs_of_any_length_in_order() {
        // Tables of 0 to 9 and of 3 to 12 rows, every third entity tagged: whole tables and
        // tag runs of every length modulo four.
        for rows in 0..10 {
            let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
            let numbers: Vec<Entity> = (0..rows).map(|_| storage.spawn(NUMBER)).collect();
            let both: Vec<Entity> = (0..rows + 3)
                .map(|_| storage.spawn(NUMBER | FLAG))
                .collect();
            for (position, &entity) in numbers.iter().chain(&both).enumerate() {
                if position % 3 == 0 {
                    storage.add_tags(entity, MARKED);
                }
            }
            for (include, exclude) in [(NUMBER, 0), (NUMBER | MARKED, 0), (NUMBER, MARKED)] {
                let mut visited = Vec::new();
                storage.for_each(include, exclude, |entity, table, index| {
                    assert_eq!(table.entities()[index], entity);
                    visited.push((entity, index));
                });
                assert_eq!(
                    visited,
                    expected(&storage, include, exclude),
                    "{rows} rows, include {include:#b}, exclude {exclude:#b}"
                );
            }
        }
    }
}
