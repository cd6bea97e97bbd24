//! [`TypedQueryRef`]: a typed query that only reads (`&C`, `Option<&C>`, [`Entity`]), over a
//! shared borrow of the world, so the loop can call the world's other `&self` methods
//! (`world.get_position(target)`) while it runs. A shared borrow cannot fill the query cache:
//! on a cache miss it scans the table list (`warm_query` fills the cache ahead).

use core::marker::PhantomData;

use super::filter::{ChangeFilter, QueryFilters, Verdict};
use super::{
    ComponentColumn, Fetch, RowAt, Run, RunTags, TypedTable, to_mask, visit_newer, visit_spans,
};
use crate::archetype::Archetype;
use crate::archetype::TicksOf;
use crate::change_ticks::{ChangedRows, TickCells};
use crate::entity::{Entity, EntityLocation};
use crate::mask::Bitmask;
use crate::storage::lending::LentTable;
use crate::storage::{RowTags, Storage};
use crate::tick::Tick;

/// A [`Fetch`] that borrows nothing mutably: `&C`, `Option<&C>`, [`Entity`], [`Target`](crate::Target)
/// terms, and tuples of them. Only these make a [`TypedQueryRef`], or read through a system's
/// query shared (`get`, `iter`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` writes a component: this form of the query only reads",
    note = "`typed_query_ref`, and a system's `Query::get` and `Query::iter`, read through a shared borrow; a query that writes uses `get_mut`, `iter_mut` or `for_each`"
)]
pub trait ReadOnlyFetch<T: TypedTable, M>: Fetch<T, M> {
    /// The (empty) columns such a fetch moves out of a view.
    #[doc(hidden)]
    fn nothing_taken<'v>() -> Self::Taken<'v>;

    /// A copy of `item` over a shorter borrow (an item of shared references is a copy; a
    /// generic item is not known to be, nor to be covariant): one item handed out again,
    /// as a `Target` term does for the siblings of one target.
    #[doc(hidden)]
    fn reborrow<'a, 'b: 'a>(item: &Self::Item<'b>) -> Self::Item<'a>;
}

impl<T: TypedTable> ReadOnlyFetch<T, ()> for Entity {
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &Entity) -> Entity {
        *item
    }
}

impl<T: ComponentColumn<C, M>, C: 'static, M> ReadOnlyFetch<T, M> for &C {
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &&'b C) -> &'a C {
        item
    }
}

impl<T: ComponentColumn<C, M>, C: 'static, M> ReadOnlyFetch<T, M> for Option<&C> {
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &Option<&'b C>) -> Option<&'a C> {
        *item
    }
}

/// A read-only typed query over a shared borrow of the world:
/// `world.typed_query_ref::<(Entity, &Position)>().with(A).without(B)`, then
/// [`for_each`](Self::for_each), [`iter`](Self::iter) or [`get`](Self::get). Items borrow the
/// world for as long as the query does, so they can be collected.
#[must_use = "a typed query does nothing until `for_each`, `iter` or `get` runs it"]
pub struct TypedQueryRef<'w, T: Archetype, Q> {
    storage: &'w Storage<T>,
    /// The tables lent to a system's query that runs beside others (they hold the ticks of its
    /// change filter), or `None`: the storage's own.
    lent: Option<&'w [LentTable<T>]>,
    filters: QueryFilters<T::Mask>,
    query: PhantomData<fn() -> Q>,
}

impl<T: Archetype, Q> Clone for TypedQueryRef<'_, T, Q> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Archetype, Q> Copy for TypedQueryRef<'_, T, Q> {}

impl<'w, T: TypedTable, Q> TypedQueryRef<'w, T, Q> {
    /// A query over `storage` that matches every entity holding the components `Q` requires
    /// (what `world.typed_query_ref()` returns).
    #[doc(hidden)]
    pub fn new(storage: &'w Storage<T>) -> Self {
        TypedQueryRef {
            storage,
            lent: None,
            filters: QueryFilters::NONE,
            query: PhantomData,
        }
    }

    /// A query over the tables lent from `storage` to a system's query.
    pub(crate) fn over_lent(storage: &'w Storage<T>, lent: &'w [LentTable<T>]) -> Self {
        TypedQueryRef {
            lent: Some(lent),
            ..Self::new(storage)
        }
    }

    filter_builders!();

    /// The include and exclude masks handed to the storage (the query's required components
    /// added).
    fn masks<M>(&self) -> (T::Mask, T::Mask)
    where
        Q: Fetch<T, M>,
    {
        self.filters
            .masks(to_mask(<Q as Fetch<T, M>>::ACCESS.required))
    }

    /// The tables matching `(include, exclude)`, with their ticks and tag test: the
    /// storage's, or the lent ones (the storage's tables, the lent ticks).
    fn tables(
        self,
        (include, exclude): (T::Mask, T::Mask),
    ) -> impl Iterator<Item = (&'w T, &'w TicksOf<T>, RowTags<'w, T>)> + 'w {
        let storage = self.storage;
        let (own, lent) = match self.lent {
            None => (Some(storage.typed_tables(include, exclude)), None),
            Some(lent) => (None, Some(lent)),
        };
        let lent = lent.into_iter().flatten().map(move |lent| {
            let (table, tags, _) = storage.lent_table(lent.index, include, exclude);
            (table, &lent.ticks, tags)
        });
        own.into_iter().flatten().chain(lent)
    }

    /// The table, ticks and row of a live `entity` of a table [`tables`](Self::tables)
    /// yields, whose tags match, and where the row sits among the table's tag segments.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn row(
        self,
        entity: Entity,
        (include, exclude): (T::Mask, T::Mask),
    ) -> Option<(&'w T, &'w TicksOf<T>, usize, RunTags<'w, T::Mask>)> {
        let Some(lent) = self.lent else {
            return self.storage.typed_row(entity, include, exclude);
        };
        let location = self.storage.records().location(entity)?;
        let position = lent
            .binary_search_by_key(&location.table(), |lent| lent.index)
            .ok()?;
        let lent = &lent[position];
        let (table, tags, _) = self.storage.lent_table(lent.index, include, exclude);
        let row = location.row();
        // The lent tables are the query's: the disabled bit was settled when they were lent.
        (table.mask().contains(include & T::COMPONENTS) && tags.matches(row)).then_some((
            table,
            &lent.ticks,
            row,
            tags.run_from(row),
        ))
    }

    /// Calls `f(item)` for every matching entity, in the order of the mutable form.
    #[inline]
    pub fn for_each<M, F>(self, mut f: F)
    where
        Q: ReadOnlyFetch<T, M>,
        F: for<'s> FnMut(Q::Item<'s>),
    {
        let masks = self.masks::<M>();
        let filter = self.filters.change;
        let empty = TickCells::empty();
        for (table, ticks, tags) in self.tables(masks) {
            let verdict = ChangeFilter::verdict(filter, ticks);
            if verdict == Verdict::Skip {
                continue;
            }
            let entities = table.entities();
            let run = Run {
                entities,
                first_row: 0,
                stamps: &empty,
                mask: table.mask(),
                tick: Tick::ZERO,
                storage: Some(self.storage),
                tags: tags.run_from(0),
            };
            let mut slices = Q::slices(Q::nothing_taken(), &table.columns(), &run);
            let written = Q::Written::default();
            match filter.filter(|_| verdict == Verdict::Rows) {
                None if tags.is_empty() => {
                    visit_spans::<T, Q, M, F>(&mut slices, &written, 0..entities.len(), &mut f);
                }
                None => {
                    for row in 0..entities.len() {
                        if tags.matches(row) {
                            f(Q::row(&mut slices, &written, RowAt::new(row)));
                        }
                    }
                }
                Some(filter) => match filter.rows(ticks) {
                    // The common scan (one watched component, no tag test): see
                    // `visit_newer`.
                    ChangedRows::Column {
                        stamps,
                        since,
                        added,
                        tail,
                    } if tags.is_empty() => {
                        let stamps = stamps.get(..entities.len()).unwrap_or(stamps);
                        visit_newer::<T, Q, M, F, _>(
                            &mut slices,
                            &written,
                            stamps,
                            0,
                            since,
                            added,
                            &mut f,
                        );
                        // The column's tail, decided once.
                        if tail {
                            let rows = stamps.len()..entities.len();
                            visit_spans::<T, Q, M, F>(&mut slices, &written, rows, &mut f);
                        }
                    }
                    changed => {
                        for row in 0..entities.len() {
                            if changed.contains(row) && tags.matches(row) {
                                f(Q::row(&mut slices, &written, RowAt::new(row)));
                            }
                        }
                    }
                },
            }
        }
    }

    /// The matching entities' items as an iterator, each borrowing the world (not the query).
    pub fn iter<M>(self) -> impl Iterator<Item = Q::Item<'w>> + 'w
    where
        Q: ReadOnlyFetch<T, M> + 'w,
        M: 'w,
    {
        let masks = self.masks::<M>();
        let filter = self.filters.change;
        let storage = self.storage;
        self.tables(masks).flat_map(move |(table, ticks, tags)| {
            let verdict = ChangeFilter::verdict(filter, ticks);
            let entities = if verdict == Verdict::Skip {
                &[]
            } else {
                table.entities()
            };
            let run = Run {
                entities,
                first_row: 0,
                stamps: &TickCells::empty(),
                mask: table.mask(),
                tick: Tick::ZERO,
                storage: Some(storage),
                tags: tags.run_from(0),
            };
            let mut slices = Q::slices(Q::nothing_taken(), &table.columns(), &run);
            let changed = filter
                .filter(|_| verdict == Verdict::Rows)
                .map(|filter| filter.rows(ticks));
            (0..entities.len()).filter_map(move |row| {
                let item = Q::pop(&mut slices)?;
                let passes = changed.as_ref().is_none_or(|changed| changed.contains(row));
                (passes && tags.matches(row)).then_some(item)
            })
        })
    }

    /// The item of `entity`, if it is alive and matches the query; `None` otherwise.
    #[inline(always)]
    pub fn get<M>(self, entity: Entity) -> Option<Q::Item<'w>>
    where
        Q: ReadOnlyFetch<T, M>,
    {
        let found = self.row(entity, self.masks::<M>())?;
        self.item_at(found)
    }

    /// [`get`](Self::get) of `entity`, found at `location` (its location while the storage's
    /// records keep their version: a `Target` term's kept spans), with no lookup of the
    /// handle. A query over lent tables looks it up all the same.
    #[inline(always)]
    pub(crate) fn get_at<M>(self, entity: Entity, location: EntityLocation) -> Option<Q::Item<'w>>
    where
        Q: ReadOnlyFetch<T, M>,
    {
        if self.lent.is_some() {
            return self.get(entity);
        }
        let (include, exclude) = self.masks::<M>();
        let found = self.storage.typed_row_at(location, include, exclude)?;
        self.item_at(found)
    }

    /// The item of the row `found` (its table, ticks, row and tags), if it passes the change
    /// filter.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn item_at<M>(
        self,
        (table, ticks, row, tags): (&'w T, &'w TicksOf<T>, usize, RunTags<'w, T::Mask>),
    ) -> Option<Q::Item<'w>>
    where
        Q: ReadOnlyFetch<T, M>,
    {
        if let Some(filter) = self.filters.change {
            if !filter.row_passes(ticks, row) {
                return None;
            }
        }
        let run = Run {
            entities: &table.entities()[row..=row],
            first_row: row,
            stamps: &TickCells::empty(),
            mask: table.mask(),
            tick: Tick::ZERO,
            storage: Some(self.storage),
            tags,
        };
        let columns = table.columns();
        Q::pop(&mut Q::slices(Q::nothing_taken(), &columns, &run))
    }

    /// Number of matching entities.
    pub fn count<M>(self) -> usize
    where
        Q: Fetch<T, M>,
    {
        let (include, exclude) = self.masks::<M>();
        match (self.filters.change, self.lent) {
            (None, None) => self.storage.matching_entities(include, exclude).count(),
            (None, Some(lent)) => lent
                .iter()
                .map(|lent| {
                    let (_, _, runs) = self.storage.lent_table(lent.index, include, exclude);
                    runs.map(|run| run.len()).sum::<usize>()
                })
                .sum(),
            (Some(filter), _) => self
                .tables((include, exclude))
                .map(|(table, ticks, tags)| filter.count_rows(table.len(), ticks, tags))
                .sum(),
        }
    }
}
