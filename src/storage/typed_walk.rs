//! The storage side of typed queries that are not a closure walk: the matching tables with
//! their change ticks as an iterator (a typed query's `iter()`), one entity's row (its
//! `get(entity)`), and the tag test a row must pass. Kept apart from the closure walk
//! ([`Storage::for_each_run_mut`]) so the two can change independently.

use super::Storage;
use super::iteration::{TagFilter, matching_indices};
use super::tag_partition::TagPartition;
use crate::change_ticks::TicksOf;
use crate::{Archetype, Bitmask, Entity, Tick};

/// The tag half of a query over one table: whether a row carries the tags it must and none it
/// must not, read from the table's tag segments (a row's tags are its segment's).
pub struct RowTags<'w, T: Archetype> {
    /// The table's segments (`None` in a world without tags).
    partition: Option<&'w TagPartition<T::Mask>>,
    filter: TagFilter<T::Mask>,
}

impl<T: Archetype> Clone for RowTags<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Archetype> Copy for RowTags<'_, T> {}

impl<'w, T: Archetype> RowTags<'w, T> {
    /// Whether the query names no tag (every row of a matching table matches).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.filter.is_empty()
    }

    /// Whether `row` of the table passes the query's tag filter.
    #[inline]
    pub fn matches(self, row: usize) -> bool {
        self.filter.is_empty()
            || self
                .partition
                .is_some_and(|partition| self.filter.accepts(partition.tags_of(row)))
    }

    /// The tag test of a query with `filter` over the table whose segments are `partitions`'
    /// `table_index`-th (a world without tags has no segments).
    fn of_table(
        partitions: &'w [TagPartition<T::Mask>],
        table_index: usize,
        filter: TagFilter<T::Mask>,
    ) -> Self {
        RowTags {
            partition: partitions.get(table_index),
            filter,
        }
    }
}

/// The non-empty tables matching a query with their change ticks, mutably; see
/// [`Storage::typed_tables_mut`].
pub struct TypedTablesMut<'w, T: Archetype> {
    tables: core::slice::IterMut<'w, T>,
    ticks: core::slice::IterMut<'w, TicksOf<T>>,
    indices: core::slice::Iter<'w, usize>,
    next_index: usize,
    exclude: T::Mask,
    partitions: &'w [TagPartition<T::Mask>],
    tag_filter: TagFilter<T::Mask>,
}

impl<'w, T: Archetype> Iterator for TypedTablesMut<'w, T> {
    type Item = (&'w mut T, &'w mut TicksOf<T>, RowTags<'w, T>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let index = *self.indices.next()?;
            let skip = index - self.next_index;
            self.next_index = index + 1;
            let table = self.tables.nth(skip)?;
            let ticks = self.ticks.nth(skip)?;
            if !table.is_empty() && !table.mask().intersects(self.exclude) {
                let tags = RowTags::of_table(self.partitions, index, self.tag_filter);
                return Some((table, ticks, tags));
            }
        }
    }
}

impl<'w, T: Archetype> TypedTablesMut<'w, T> {
    /// Whether the query names a tag (then rows of a matching table may not match).
    pub fn filters_tags(&self) -> bool {
        !self.tag_filter.is_empty()
    }

    /// How many rows the tables not yet returned hold (tags and change filters aside).
    pub fn remaining_rows(&self) -> usize {
        let tables = self.tables.as_slice();
        self.indices
            .as_slice()
            .iter()
            .filter_map(|&index| tables.get(index - self.next_index))
            .filter(|table| !table.mask().intersects(self.exclude))
            .map(Archetype::len)
            .sum()
    }
}

/// What a typed query needs to walk the matching tables itself: the tables with their ticks
/// and tag tests, and the tick writes are stamped with.
pub struct TypedWalk<'w, T: Archetype> {
    /// The matching non-empty tables, with their change ticks and tag tests.
    pub tables: TypedTablesMut<'w, T>,
    /// The current tick.
    pub tick: Tick,
}

impl<T: Archetype> Storage<T> {
    /// The tables matching `include` / `exclude` with their change ticks, for a typed query's
    /// iterator (fills the query cache on a miss), plus the tag test rows must pass.
    pub fn typed_tables_mut(&mut self, include: T::Mask, exclude: T::Mask) -> TypedWalk<'_, T> {
        let indices = matching_indices::<T>(&self.tables, &mut self.queries, include);
        TypedWalk {
            tables: TypedTablesMut {
                tables: self.tables.iter_mut(),
                ticks: self.ticks.iter_mut(),
                indices: indices.iter(),
                next_index: 0,
                exclude: exclude & !T::TAGS,
                partitions: &self.partitions,
                tag_filter: TagFilter::new::<T>(include, exclude),
            },
            tick: self.tick,
        }
    }

    /// The tables matching `include` / `exclude` with their change ticks and tag tests,
    /// shared (scans the tables when the query cache lacks `include`: `&self` cannot fill it).
    pub fn typed_tables(
        &self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> impl Iterator<Item = (&T, &TicksOf<T>, RowTags<'_, T>)> + '_ {
        let tag_filter = TagFilter::new::<T>(include, exclude);
        let components = include & !T::TAGS;
        let excluded = exclude & !T::TAGS;
        let cached = self.queries.get(components);
        let scan = cached.is_none().then_some(0..self.tables.len());
        cached
            .into_iter()
            .flatten()
            .copied()
            .chain(scan.into_iter().flatten())
            .filter(move |&index| {
                let mask = self.tables[index].mask();
                mask.matches(components, excluded)
            })
            .filter(|&index| !self.tables[index].is_empty())
            .map(move |index| {
                let tags = RowTags::of_table(&self.partitions, index, tag_filter);
                (&self.tables[index], &self.ticks[index], tags)
            })
    }

    /// The table, ticks and row of a live `entity` that matches `include` / `exclude` (tags
    /// included), mutably, with the current tick; `None` otherwise.
    pub fn typed_row_mut(
        &mut self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<(&mut T, &mut TicksOf<T>, usize, Tick)> {
        let location = self.matching_location(entity, include, exclude)?;
        Some((
            &mut self.tables[location.table()],
            &mut self.ticks[location.table()],
            location.row(),
            self.tick,
        ))
    }

    /// Shared form of [`typed_row_mut`](Self::typed_row_mut).
    pub fn typed_row(
        &self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<(&T, &TicksOf<T>, usize)> {
        let location = self.matching_location(entity, include, exclude)?;
        Some((
            &self.tables[location.table()],
            &self.ticks[location.table()],
            location.row(),
        ))
    }

    fn matching_location(
        &self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<crate::EntityLocation> {
        let location = self.locate_with(entity, include & !T::TAGS)?;
        let mask = self.tables[location.table()].mask();
        let tags = RowTags::<T>::of_table(
            &self.partitions,
            location.table(),
            TagFilter::new::<T>(include, exclude),
        );
        (!mask.intersects(exclude & !T::TAGS) && tags.matches(location.row())).then_some(location)
    }
}
