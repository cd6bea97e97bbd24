//! [`TypedQueryIter`]: a typed query as an `Iterator`, for `find`, `any`, an early `break` and
//! iterator adapters. It walks the tables like `for_each` but pops one row at a time off the
//! columns' slices (each item borrows its own element of the slice, as `slice::IterMut` does),
//! and tests tags per row.

use super::filter::{ChangeFilter, Verdict};
use super::{Fetch, Run, SharedTable, TypedTable};
use crate::change_ticks::TickCells;
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::lending::LentTable;
use crate::storage::{RowTags, Storage, TypedTablesMut, TypedWalk};
use crate::tick::Tick;

/// The iterator of [`TypedQuery::iter`](crate::TypedQuery::iter): the items of the matching
/// entities, table by table. `&mut C` elements are [`Mut`](crate::Mut) guards that stamp
/// the rows written through them.
pub struct TypedQueryIter<'w, T: TypedTable, Q: Fetch<T, M>, M> {
    tables: IterTables<'w, T>,
    tick: Tick,
    written: T::Mask,
    filter: Option<ChangeFilter<T::Mask>>,
    current: Option<Current<'w, T, Q, M>>,
    /// Rows not yet visited in the current table and the tables left (an upper bound on the
    /// items left; exact when nothing filters rows).
    remaining: usize,
    exact: bool,
}

/// Where the iterator's tables come from: a walk over the storage, or the tables lent to a
/// query (see `storage/lending.rs`).
enum IterTables<'w, T: TypedTable> {
    Storage(TypedTablesMut<'w, T>),
    Lent {
        storage: &'w Storage<T>,
        tables: core::slice::IterMut<'w, LentTable<T>>,
        include: T::Mask,
        exclude: T::Mask,
    },
}

/// The table being walked.
struct Current<'w, T: TypedTable, Q: Fetch<T, M>, M> {
    entities: &'w [Entity],
    row: usize,
    rows: usize,
    slices: Q::Slices<'w>,
    cells: TickCells<'w>,
    verdict: Verdict,
    /// The table's tag test.
    tags: RowTags<'w, T>,
}

impl<'w, T: TypedTable, Q: Fetch<T, M>, M> TypedQueryIter<'w, T, Q, M> {
    pub(super) fn new(
        walk: TypedWalk<'w, T>,
        written: T::Mask,
        filter: Option<ChangeFilter<T::Mask>>,
    ) -> Self {
        let remaining = walk.tables.remaining_rows();
        TypedQueryIter {
            exact: !walk.tables.filters_tags() && filter.is_none(),
            tables: IterTables::Storage(walk.tables),
            tick: walk.tick,
            written,
            filter,
            current: None,
            remaining,
        }
    }

    /// The iterator over the tables lent to a query (`include` / `exclude` its masks).
    pub(super) fn over_lent(
        storage: &'w Storage<T>,
        tables: core::slice::IterMut<'w, LentTable<T>>,
        (include, exclude): (T::Mask, T::Mask),
        written: T::Mask,
        filter: Option<ChangeFilter<T::Mask>>,
        tick: Tick,
    ) -> Self {
        let remaining = tables
            .as_slice()
            .iter()
            .map(|lent| storage.tables()[lent.index].len())
            .sum();
        let filters_tags = (include | exclude).intersects(T::TAGS);
        TypedQueryIter {
            exact: !filters_tags && filter.is_none(),
            tables: IterTables::Lent {
                storage,
                tables,
                include,
                exclude,
            },
            tick,
            written,
            filter,
            current: None,
            remaining,
        }
    }

    /// Starts on the next matching table; `false` when there is none left.
    fn next_table(&mut self) -> bool {
        loop {
            let (entities, mut view, shared, mask, ticks, tags) = match &mut self.tables {
                IterTables::Storage(walk) => {
                    let Some(walked) = walk.next() else {
                        return false;
                    };
                    let tags = RowTags::of_walked(&walked);
                    let (table, ticks) = (walked.table, walked.ticks);
                    let mask = table.mask();
                    let (entities, view) = table.view_mut(mask);
                    (entities, view, None, mask, ticks, tags)
                }
                IterTables::Lent {
                    storage,
                    tables,
                    include,
                    exclude,
                } => {
                    let Some(lent) = tables.next() else {
                        return false;
                    };
                    let storage: &'w Storage<T> = storage;
                    let (table, tags, _) = storage.lent_table(lent.index, *include, *exclude);
                    let entities = table.entities();
                    let view = lent.columns.view_with(entities, self.written);
                    let mask = table.mask();
                    (
                        entities,
                        view,
                        Some(SharedTable::of(storage, table)),
                        mask,
                        &mut lent.ticks,
                        tags,
                    )
                }
            };
            let rows = entities.len();
            let verdict = ChangeFilter::verdict(self.filter, ticks);
            if verdict == Verdict::Skip {
                self.remaining -= rows;
                continue;
            }
            ticks.note_row_writes(self.written, self.tick);
            let (watched, watched_added) = ChangeFilter::watched(self.filter);
            let cells = ticks.row_cells(self.written | watched | watched_added, watched, 0..rows);
            let run = Run {
                entities,
                first_row: 0,
                stamps: &cells,
                mask,
                tick: self.tick,
                storage: shared.as_ref().map(|shared| shared.storage),
                tags: tags.run_from(0),
            };
            let taken = Q::take(&mut view);
            let columns = match shared {
                Some(shared) => shared.columns,
                None => T::share(view),
            };
            let slices = Q::slices(taken, &columns, &run);
            self.current = Some(Current {
                entities,
                row: 0,
                rows,
                slices,
                cells,
                verdict,
                tags,
            });
            return true;
        }
    }
}

impl<'w, T: TypedTable, Q: Fetch<T, M>, M> Iterator for TypedQueryIter<'w, T, Q, M> {
    type Item = Q::Item<'w>;

    fn next(&mut self) -> Option<Q::Item<'w>> {
        loop {
            if let Some(current) = &mut self.current {
                while let Some((_, rest)) = current.entities.split_first() {
                    current.entities = rest;
                    let row = current.row;
                    current.row += 1;
                    self.remaining -= 1;
                    let item = Q::pop(&mut current.slices)?;
                    let changed =
                        match current
                            .verdict
                            .rows(self.filter, &current.cells, current.rows)
                        {
                            None => true,
                            Some(test) => test.passes(row),
                        };
                    if changed && current.tags.matches(row) {
                        return Some(item);
                    }
                }
                self.current = None;
            }
            if !self.next_table() {
                return None;
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let lower = if self.exact { self.remaining } else { 0 };
        (lower, Some(self.remaining))
    }
}

impl<'w, T: TypedTable, Q: Fetch<T, M>, M> core::iter::FusedIterator
    for TypedQueryIter<'w, T, Q, M>
{
}
