//! [`ParentsFirst`]: a typed query that visits the trees of a relation parents first, handing
//! each entity what its target's visit returned: a transform propagation in one pass.
//!
//! The walk starts at every entity without a target (the rows without the relation's bit,
//! table by table) and goes down each one's sources depth first, in link order, so an entity
//! comes after its target, its target's target, and so on up. Nothing is cached: the order is
//! read from the links as they are, so linking, unlinking and despawning cost nothing more.
//! Every table is lent at once (a child may live in any table), each with its columns cut as
//! `for_each` cuts them; an entity's row is reached through its record. A system's query walks
//! the same way over the columns lent to it (the storage shared beside them).

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::filter::{ChangeFilter, QueryFilters, RowTest, Verdict};
use super::{Fetch, RowAt, Run, SharedTable, TypedQuery, TypedTable, to_mask};
use crate::archetype::Archetype;
use crate::change_ticks::TickCells;
use crate::entity::Entity;
use crate::storage::Storage;
use crate::storage::lending::LentTable;
use crate::storage::parents_first::HierarchyIndex;
use crate::system::{QueryFilter, RelationOf};
use crate::tick::Tick;

/// A typed query over the trees of the relation `R` (a relation's name as a type,
/// `CHILD_OF`), parents first: `world.typed_query::<Q>().parents_first::<CHILD_OF>()`, or a
/// system's `query.parents_first::<CHILD_OF>()` (whose filter is `F`), then
/// [`for_each`](Self::for_each).
#[must_use = "a parents-first query does nothing until `for_each` runs it"]
pub struct ParentsFirst<'w, T: Archetype, Q, R, F = ()> {
    source: ParentsFirstSource<'w, T>,
    filters: QueryFilters<T::Mask>,
    /// The tick `F`'s change filters compare with (a system's last run).
    since: Tick,
    query: PhantomData<fn() -> Q>,
    /// The relation walked and the system's filter.
    walk: PhantomData<fn() -> (R, F)>,
}

/// The tables a parents-first walk borrows: the whole storage (`typed_query`, a system's only
/// query), or the storage shared and the columns lent to a system's query, stamped with
/// `tick`.
pub(crate) enum ParentsFirstSource<'w, T: Archetype> {
    Whole(&'w mut Storage<T>),
    Lent {
        storage: &'w Storage<T>,
        tables: &'w mut [LentTable<T>],
        tick: Tick,
    },
}

impl<'w, T: TypedTable, Q> TypedQuery<'w, T, Q> {
    /// The query's entities in the order of the relation `R`'s trees, parents first (flecs's
    /// `cascade`): each entity after its target, so a child can read what its parent's visit
    /// computed. See [`ParentsFirst::for_each`].
    pub fn parents_first<R>(self) -> ParentsFirst<'w, T, Q, R>
    where
        T: RelationOf<R>,
    {
        ParentsFirst {
            source: ParentsFirstSource::Whole(self.storage),
            filters: self.filters,
            since: Tick::ZERO,
            query: PhantomData,
            walk: PhantomData,
        }
    }
}

impl<'w, T: Archetype, Q, R, F> ParentsFirst<'w, T, Q, R, F> {
    /// A walk over `source` filtered by `F` alone, its change filters compared with `since`.
    pub(crate) fn new(source: ParentsFirstSource<'w, T>, since: Tick) -> Self {
        ParentsFirst {
            source,
            filters: QueryFilters::NONE,
            since,
            query: PhantomData,
            walk: PhantomData,
        }
    }
}

/// One level of the walk: the siblings left to visit, and what their target's visit returned
/// (`None` when the target is not one of the query's entities).
struct Level<'a, V> {
    siblings: core::slice::Iter<'a, Entity>,
    parent: Option<V>,
}

/// One table during the walk: its entities, and, when the query matches it, its columns and
/// the per-row change test.
struct Lent<'a, S, W, M> {
    entities: &'a [Entity],
    matched: Option<MatchedTable<'a, S, W, M>>,
}

/// A matching table's columns, cut as `for_each` cuts them, and its change filter's row test.
struct MatchedTable<'a, S, W, M> {
    slices: S,
    written: W,
    test: Option<RowTest<'a, M>>,
}

impl<'w, T: TypedTable, Q, R, F> ParentsFirst<'w, T, Q, R, F>
where
    T: RelationOf<R>,
{
    /// Calls `f(parent, item)` for every entity the query matches, each after its target in
    /// `R` (and so after all its ancestors), and returns what its children get: `parent` is
    /// what `f` returned for the entity's target, or `None` when the entity has no target or
    /// its target is not one of the query's entities (it lacks a component, or a filter leaves
    /// it out). A transform propagation is one call:
    /// `|parent, (offset, mut position)| { *position = above(parent) + *offset; *position }`.
    ///
    /// The trees go depth first, each entity's sources in link order; the tops (the entities
    /// without a target) in table order, then row order. An entity the query does not match
    /// is not visited, but the walk goes on below it (its sources get `None`). `&mut C`
    /// elements are [`Mut`](crate::Mut) guards: only the rows written are stamped. O(entities
    /// without a target + the entities below them), one record lookup per entity below a top.
    pub fn for_each<M, FM, V, G>(self, mut f: G)
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
        G: for<'s, 'p> FnMut(Option<&'p V>, Q::Item<'s>) -> V,
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let access = <Q as Fetch<T, M>>::ACCESS;
        let filters = crate::system::add_filter::<T, F, FM>(self.filters, self.since);
        let (include, exclude) = filters.masks(to_mask(access.required));
        let written = to_mask::<T::Mask>(access.writes);
        let filter = filters.change;
        let relation = to_mask::<T::Mask>(<T as crate::system::TagOf<R>>::BIT);
        let (watched, watched_added) = ChangeFilter::watched(filter);
        let stamped = written | watched | watched_added;
        match self.source {
            ParentsFirstSource::Whole(storage) => {
                let parts = storage.parents_first_parts(relation, include, exclude);
                let index = parts.index;
                let tick = parts.tick;
                // The change ticks first (the row tests borrow them), then the columns.
                let mut cells = Vec::with_capacity(parts.tables.len());
                for (table, ticks) in parts.tables.iter().zip(parts.ticks.iter_mut()) {
                    let verdict = ChangeFilter::verdict(filter, ticks);
                    cells.push(
                        (index.matches_table(table) && verdict != Verdict::Skip).then(|| {
                            ticks.note_row_writes(written, tick);
                            (verdict, ticks.row_cells(stamped, watched, 0..table.len()))
                        }),
                    );
                }
                let mut tables: Vec<Lent<'_, Q::Slices<'_>, Q::Written, T::Mask>> =
                    Vec::with_capacity(cells.len());
                for (table_index, (table, cells)) in parts.tables.iter_mut().zip(&cells).enumerate()
                {
                    let Some((verdict, cells)) = cells else {
                        tables.push(Lent {
                            entities: table.entities(),
                            matched: None,
                        });
                        continue;
                    };
                    let (entities, mut view) = table.view_mut(include & !T::TAGS);
                    let taken = Q::take(&mut view);
                    let mask = T::view_mask(&view);
                    let columns = T::share(view);
                    let run = Run {
                        entities,
                        first_row: 0,
                        stamps: cells,
                        mask,
                        tick,
                        storage: None,
                        tags: index.run_tags(table_index),
                    };
                    tables.push(Lent {
                        entities,
                        matched: Some(MatchedTable {
                            slices: Q::slices(taken, &columns, &run),
                            written: Q::Written::default(),
                            test: verdict.rows(filter, cells, entities.len()),
                        }),
                    });
                }
                walk::<T, Q, M, V, G>(&mut tables, &index, &mut f);
            }
            ParentsFirstSource::Lent {
                storage,
                tables: lent,
                tick,
            } => {
                let index = storage.hierarchy_index(relation, include, exclude);
                // The lent ticks first (the row tests borrow them), then the lent columns.
                let mut cells: Vec<Option<(usize, Verdict, TickCells<'_>)>> =
                    Vec::with_capacity(lent.len());
                let mut lent_columns = Vec::with_capacity(lent.len());
                for LentTable {
                    index: table,
                    columns,
                    ticks,
                    ..
                } in lent.iter_mut()
                {
                    let rows = storage.tables()[*table].len();
                    let verdict = ChangeFilter::verdict(filter, ticks);
                    cells.push((verdict != Verdict::Skip).then(|| {
                        ticks.note_row_writes(written, tick);
                        (*table, verdict, ticks.row_cells(stamped, watched, 0..rows))
                    }));
                    lent_columns.push(columns);
                }
                // Every table of the storage, the query's own (the lent ones) with their
                // columns.
                let mut tables: Vec<Lent<'_, Q::Slices<'_>, Q::Written, T::Mask>> = storage
                    .tables()
                    .iter()
                    .map(|table| Lent {
                        entities: table.entities(),
                        matched: None,
                    })
                    .collect();
                for (columns, cells) in lent_columns.into_iter().zip(&cells) {
                    let Some((table_index, verdict, cells)) = cells else {
                        continue;
                    };
                    let table = &storage.tables()[*table_index];
                    let entities = table.entities();
                    let mut view = columns.view_with(entities, written);
                    let taken = Q::take(&mut view);
                    let shared = SharedTable::of(storage, table);
                    let run = Run {
                        entities,
                        first_row: 0,
                        stamps: cells,
                        mask: shared.mask,
                        tick,
                        storage: Some(storage),
                        tags: index.run_tags(*table_index),
                    };
                    tables[*table_index].matched = Some(MatchedTable {
                        slices: Q::slices(taken, &shared.columns, &run),
                        written: Q::Written::default(),
                        test: verdict.rows(filter, cells, entities.len()),
                    });
                }
                walk::<T, Q, M, V, G>(&mut tables, &index, &mut f);
            }
        }
    }
}

/// Visits every tree: each entity without a target (table by table, row by row), then the
/// entities below it, depth first.
#[inline]
fn walk<'a, T, Q, M, V, F>(
    tables: &mut [Lent<'_, Q::Slices<'_>, Q::Written, T::Mask>],
    index: &HierarchyIndex<'a, T>,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s, 'p> FnMut(Option<&'p V>, Q::Item<'s>) -> V,
{
    let mut levels: Vec<Level<'a, V>> = Vec::new();
    for table in 0..tables.len() {
        let entities = tables[table].entities;
        for rows in index.unlinked_rows(table, entities.len()) {
            for row in rows {
                let parent = visit::<T, Q, M, V, F>(&mut tables[table], index, table, row, None, f);
                let below = index.sources(entities[row]);
                if below.is_empty() {
                    continue;
                }
                levels.push(Level {
                    siblings: below.iter(),
                    parent,
                });
                descend::<T, Q, M, V, F>(&mut levels, tables, index, f);
            }
        }
    }
}

/// Visits the sources below the levels on `levels`, depth first, until it is empty.
#[inline]
fn descend<'a, T, Q, M, V, F>(
    levels: &mut Vec<Level<'a, V>>,
    tables: &mut [Lent<'_, Q::Slices<'_>, Q::Written, T::Mask>],
    index: &HierarchyIndex<'a, T>,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s, 'p> FnMut(Option<&'p V>, Q::Item<'s>) -> V,
{
    while let Some(level) = levels.last_mut() {
        let Some(&entity) = level.siblings.next() else {
            levels.pop();
            continue;
        };
        let value = match index.locate(entity) {
            Some(location) => match tables.get_mut(location.table()) {
                Some(table) => visit::<T, Q, M, V, F>(
                    table,
                    index,
                    location.table(),
                    location.row(),
                    level.parent.as_ref(),
                    f,
                ),
                None => None,
            },
            None => None,
        };
        let below = index.sources(entity);
        if !below.is_empty() {
            levels.push(Level {
                siblings: below.iter(),
                parent: value,
            });
        }
    }
}

/// Calls `f` with the item of `row` of `lent` (table `table`) and `parent`, if the query
/// matches the row, and stamps what it wrote; returns what `f` returned.
#[inline(always)]
fn visit<T, Q, M, V, F>(
    lent: &mut Lent<'_, Q::Slices<'_>, Q::Written, T::Mask>,
    index: &HierarchyIndex<'_, T>,
    table: usize,
    row: usize,
    parent: Option<&V>,
    f: &mut F,
) -> Option<V>
where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s, 'p> FnMut(Option<&'p V>, Q::Item<'s>) -> V,
{
    let matched = lent.matched.as_mut()?;
    if !index.tags_pass(table, row) || matched.test.as_ref().is_some_and(|test| !test.passes(row)) {
        return None;
    }
    if row >= lent.entities.len() {
        return None;
    }
    let value = f(
        parent,
        Q::row(&mut matched.slices, &matched.written, RowAt::alone(row)),
    );
    if Q::STAMPS {
        Q::flush_row(&mut matched.slices, &matched.written, row);
    }
    Some(value)
}
