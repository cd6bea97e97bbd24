//! The storage side of typed queries beyond the closure walk ([`Storage::for_each_run_mut`]):
//! the walk's tables with their change ticks as an iterator (a typed query's `iter()`, and the
//! read-only forms), one entity's row (its `get(entity)`), and the tag test a row must pass.

use super::RunTags;
use super::Storage;
use super::tag_partition::TagPartition;
use super::walk::{QueryMasks, TagFilter, WalkMut, WalkedTable};
use crate::archetype::{Archetype, TicksOf};
use crate::entity::{Entity, EntityLocation};
use crate::mask::Bitmask;
use crate::tick::Tick;

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
        self.filter.accepts_row(self.partition, row)
    }

    /// Where the table's rows from `table_row` on sit among its tag segments.
    #[inline]
    pub(crate) fn run_from(self, table_row: usize) -> RunTags<'w, T::Mask> {
        RunTags::new(self.partition, table_row)
    }

    /// The tag test of a table of the mutable walk.
    #[inline]
    pub(crate) fn of_walked(walked: &WalkedTable<'w, T>) -> Self {
        let (partition, filter) = walked.tag_test();
        RowTags { partition, filter }
    }

    /// The tag test of a query with `filter` over the table whose segments are `partitions`'
    /// `table_index`-th (a world without tags has no segments).
    pub(super) fn of_table(
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

/// The mutable walk under the name a typed query's iterator knows it by: the matching
/// non-empty tables with their change ticks (see [`Storage::typed_tables_mut`]).
pub type TypedTablesMut<'w, T> = WalkMut<'w, T>;

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
    /// iterator (fills the query cache on a miss), and the current tick.
    #[doc(hidden)]
    pub fn typed_tables_mut(&mut self, include: T::Mask, exclude: T::Mask) -> TypedWalk<'_, T> {
        let tick = self.tick;
        TypedWalk {
            tables: self.walk_mut(include, exclude),
            tick,
        }
    }

    /// The tables matching `include` / `exclude` with their change ticks and tag tests,
    /// shared (scans the tables when the query cache lacks `include`: `&self` cannot fill it).
    #[doc(hidden)]
    pub fn typed_tables(
        &self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> impl Iterator<Item = (&T, &TicksOf<T>, RowTags<'_, T>)> + '_ {
        let tags = QueryMasks::new::<T>(include, exclude).tags;
        self.walk(include, exclude).map(move |(index, table, _)| {
            let row_tags = RowTags::of_table(&self.partitions, index, tags);
            (table, &self.ticks[index], row_tags)
        })
    }

    /// The table, ticks and row of a live `entity` that matches `include` / `exclude` (tags
    /// included), mutably, with where the row sits among the table's tag segments and the
    /// current tick; `None` otherwise.
    #[doc(hidden)]
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn typed_row_mut(
        &mut self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<(&mut T, &mut TicksOf<T>, usize, RunTags<'_, T::Mask>, Tick)> {
        let location = self.matching_location(entity, include, exclude)?;
        let (table, row) = (location.table(), location.row());
        Some((
            &mut self.tables[table],
            &mut self.ticks[table],
            row,
            RunTags::new(self.partitions.get(table), row),
            self.tick,
        ))
    }

    /// Shared form of [`typed_row_mut`](Self::typed_row_mut).
    #[doc(hidden)]
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn typed_row(
        &self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<(&T, &TicksOf<T>, usize, RunTags<'_, T::Mask>)> {
        self.typed_row_at(self.locate(entity)?, include, exclude)
    }

    /// [`typed_row`](Self::typed_row) of the entity at `location` (a live one's).
    #[inline]
    #[allow(clippy::type_complexity)]
    pub(crate) fn typed_row_at(
        &self,
        location: EntityLocation,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<(&T, &TicksOf<T>, usize, RunTags<'_, T::Mask>)> {
        let location = self.location_matches(location, include, exclude)?;
        let (table, row) = (location.table(), location.row());
        Some((
            &self.tables[table],
            &self.ticks[table],
            row,
            RunTags::new(self.partitions.get(table), row),
        ))
    }

    /// The location of a live `entity` whose table and tags match `include` / `exclude`.
    #[inline]
    fn matching_location(
        &self,
        entity: Entity,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<EntityLocation> {
        self.location_matches(self.locate(entity)?, include, exclude)
    }

    /// `location` (a live entity's), if its table and tags match `include` / `exclude`.
    #[inline]
    fn location_matches(
        &self,
        location: EntityLocation,
        include: T::Mask,
        exclude: T::Mask,
    ) -> Option<EntityLocation> {
        let masks = QueryMasks::new::<T>(include, exclude);
        let table = &self.tables[location.table()];
        if !table.mask().contains(masks.include) {
            return None;
        }
        let tags = masks
            .tags
            .accepts_row(self.partitions.get(location.table()), location.row());
        (!table.mask().intersects(masks.exclude) && tags).then_some(location)
    }
}
