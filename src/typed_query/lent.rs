//! [`LentQuery`]: a typed query over lent columns (see `storage/lending.rs`): the storage
//! shared, the columns the query writes (and the change ticks it writes or watches) moved out
//! of its tables into its own. Several of them run over one storage at once: a system's
//! queries, or the queries of systems run at the same time. The same loops as [`TypedQuery`](super::TypedQuery)
//! (`for_each`, `iter`, `get`, `count`), reading every other column from the shared tables.

use core::marker::PhantomData;

use super::filter::QueryFilters;
use super::{Fetch, SharedTable, TypedQueryIter, TypedTable, row_item, to_mask, visit_run};
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::Storage;
use crate::storage::lending::LentTable;
use crate::storage::{WalkedRun, split_runs};
use crate::tick::Tick;

/// A typed query over the storage, shared, and the columns lent to it.
pub struct LentQuery<'w, T: TypedTable, Q> {
    pub(crate) storage: &'w Storage<T>,
    pub(crate) tables: &'w mut [LentTable<T>],
    pub(crate) filters: QueryFilters<T::Mask>,
    pub(crate) tick: Tick,
    pub(crate) query: PhantomData<fn() -> Q>,
}

impl<'w, T: TypedTable, Q> LentQuery<'w, T, Q> {
    /// A query over `tables`, lent from `storage` for it, stamping writes with `tick`.
    pub(crate) fn new(storage: &'w Storage<T>, tables: &'w mut [LentTable<T>], tick: Tick) -> Self {
        LentQuery {
            storage,
            tables,
            filters: QueryFilters::NONE,
            tick,
            query: PhantomData,
        }
    }

    filter_builders!();

    /// The masks a table and a row must match (the query's required components added).
    fn masks<M>(&self) -> (T::Mask, T::Mask, T::Mask)
    where
        Q: Fetch<T, M>,
    {
        let access = <Q as Fetch<T, M>>::ACCESS;
        let (include, exclude) = self.filters.masks(to_mask(access.required));
        (include, exclude, to_mask::<T::Mask>(access.writes))
    }

    /// As [`TypedQuery::for_each`](super::TypedQuery::for_each): every matching entity, table by table, in table order.
    #[inline]
    pub fn for_each<M, F>(self, mut f: F)
    where
        Q: Fetch<T, M>,
        F: for<'s> FnMut(Q::Item<'s>),
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let (include, exclude, written) = self.masks::<M>();
        let filter = self.filters.change;
        let tick = self.tick;
        for lent in self.tables.iter_mut() {
            let (table, tags, runs) = self.storage.lent_table(lent.index, include, exclude);
            let entities = table.entities();
            let table_rows = entities.len();
            let view = lent.columns.view_with(entities, written);
            let ticks = &mut lent.ticks;
            split_runs::<T>(entities, view, runs, |rows, run_entities, run_view| {
                let run = WalkedRun {
                    entities: run_entities,
                    tags: tags.run_from(rows.start),
                    rows,
                    table_rows,
                };
                visit_run::<T, Q, M, F>(
                    run,
                    run_view,
                    ticks,
                    Some(SharedTable::of(self.storage, table)),
                    (filter, written, tick),
                    &mut f,
                );
            });
        }
    }

    /// As [`TypedQuery::iter`](super::TypedQuery::iter).
    pub fn iter<M>(self) -> TypedQueryIter<'w, T, Q, M>
    where
        Q: Fetch<T, M>,
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let (include, exclude, written) = self.masks::<M>();
        TypedQueryIter::over_lent(
            self.storage,
            self.tables.iter_mut(),
            (include, exclude),
            written,
            self.filters.change,
            self.tick,
        )
    }

    /// As [`TypedQuery::into_get`](super::TypedQuery::into_get): the item of `entity`, if it is alive and matches.
    pub fn into_get<M>(self, entity: Entity) -> Option<Q::Item<'w>>
    where
        Q: Fetch<T, M>,
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let (include, exclude, written) = self.masks::<M>();
        let location = self.storage.records().location(entity)?;
        let position = self
            .tables
            .binary_search_by_key(&location.table(), |lent| lent.index)
            .ok()?;
        let lent = &mut self.tables[position];
        let (table, tags, _) = self.storage.lent_table(lent.index, include, exclude);
        let row = location.row();
        if !table.mask().contains(include & T::COMPONENTS) || !tags.matches(row) {
            return None;
        }
        let entities = table.entities();
        let view = lent.columns.view_with(entities, written);
        row_item::<T, Q, M>(
            entities,
            view,
            &mut lent.ticks,
            (row, tags.run_from(row)),
            Some(SharedTable::of(self.storage, table)),
            (self.filters.change, written, self.tick),
        )
    }

    /// As [`TypedQuery::count`](super::TypedQuery::count).
    pub fn count<M>(self) -> usize
    where
        Q: Fetch<T, M>,
    {
        let (include, exclude, _) = self.masks::<M>();
        self.tables
            .iter()
            .map(|lent| {
                let (table, tags, runs) = self.storage.lent_table(lent.index, include, exclude);
                match self.filters.change {
                    None => runs.map(|run| run.len()).sum(),
                    Some(filter) => filter.count_rows(table.len(), &lent.ticks, tags),
                }
            })
            .sum()
    }
}
