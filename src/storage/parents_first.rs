//! The storage side of a parents-first walk ([`ParentsFirst`](crate::ParentsFirst)): every
//! table lent at once with its change ticks (the walk goes from a parent to its children
//! wherever they live), beside what it looks up by entity: where it lives, whether its row
//! passes the query's tags, its sources in the relation, and the rows that have no target.

use super::RunTags;
use super::Storage;
use super::tag_partition::{Runs, TagPartition};
use super::walk::{QueryMasks, TagFilter};
use crate::archetype::{Archetype, TicksOf};
use crate::entity::{Entity, EntityLocation, EntityRecords};
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::tick::Tick;

/// The links of a mask that is no relation's bit: none.
static NO_LINKS: RelationStore = RelationStore::EMPTY;

/// Every table and its ticks, mutably, and the lookups of a parents-first walk, shared.
pub(crate) struct ParentsFirstParts<'w, T: Archetype> {
    /// Every table, indexed as the storage's.
    pub(crate) tables: &'w mut [T],
    /// Every table's change ticks, indexed like `tables`.
    pub(crate) ticks: &'w mut [TicksOf<T>],
    /// The lookups by entity.
    pub(crate) index: HierarchyIndex<'w, T>,
    /// The current tick.
    pub(crate) tick: Tick,
}

/// What a parents-first walk looks up by entity and by table, shared while the tables are
/// lent out.
pub(crate) struct HierarchyIndex<'w, T: Archetype> {
    records: &'w EntityRecords,
    partitions: &'w [TagPartition<T::Mask>],
    links: &'w RelationStore,
    masks: QueryMasks<T::Mask>,
    /// The rows without the relation's bit: the tops of the walk.
    unlinked: TagFilter<T::Mask>,
}

impl<'w, T: Archetype> HierarchyIndex<'w, T> {
    /// Whether the query's component half matches `table` (and it has rows).
    #[inline]
    pub(crate) fn matches_table(&self, table: &T) -> bool {
        !table.is_empty() && self.masks.matches_mask(table.mask())
    }

    /// Where `entity` lives, if it is alive.
    #[inline]
    pub(crate) fn locate(&self, entity: Entity) -> Option<EntityLocation> {
        self.records.location(entity)
    }

    /// Whether `row` of table `table` carries the query's tags (always, when it names none).
    #[inline]
    pub(crate) fn tags_pass(&self, table: usize, row: usize) -> bool {
        self.masks.tags.accepts_row(self.partitions.get(table), row)
    }

    /// The sources of `entity` in the relation, in link order.
    #[inline]
    pub(crate) fn sources(&self, entity: Entity) -> &'w [Entity] {
        self.links.sources(entity)
    }

    /// Where the rows of table `table` sit among its tag segments (the walk's runs are whole
    /// tables).
    #[inline]
    pub(crate) fn run_tags(&self, table: usize) -> RunTags<'w, T::Mask> {
        RunTags::new(self.partitions.get(table), 0)
    }

    /// The rows of table `table` (of `rows` rows) whose entity has no target in the relation.
    #[inline]
    pub(crate) fn unlinked_rows(&self, table: usize, rows: usize) -> Runs<'w, T::Mask> {
        match self.partitions.get(table) {
            Some(partition) => self.unlinked.runs_of(rows, partition),
            None => Runs::whole(rows),
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// Every table lent for a parents-first walk over the relation `relation` (no link at all
    /// when the mask is not one relation's bit) of a query of `include` / `exclude`.
    pub(crate) fn parents_first_parts(
        &mut self,
        relation: T::Mask,
        include: T::Mask,
        exclude: T::Mask,
    ) -> ParentsFirstParts<'_, T> {
        let links = Self::store_of(&self.relations, relation).unwrap_or(&NO_LINKS);
        ParentsFirstParts {
            tables: &mut self.tables,
            ticks: &mut self.ticks,
            index: HierarchyIndex {
                records: &self.records,
                partitions: &self.partitions,
                links,
                masks: QueryMasks::new::<T>(include, exclude),
                unlinked: TagFilter::new::<T>(T::Mask::EMPTY, relation),
            },
            tick: self.tick,
        }
    }

    /// The lookups of a parents-first walk over tables lent out of a shared storage (a
    /// system's query whose columns were lent to it): as in
    /// [`parents_first_parts`](Self::parents_first_parts), without the tables.
    pub(crate) fn hierarchy_index(
        &self,
        relation: T::Mask,
        include: T::Mask,
        exclude: T::Mask,
    ) -> HierarchyIndex<'_, T> {
        HierarchyIndex {
            records: &self.records,
            partitions: &self.partitions,
            links: Self::store_of(&self.relations, relation).unwrap_or(&NO_LINKS),
            masks: QueryMasks::new::<T>(include, exclude),
            unlinked: TagFilter::new::<T>(T::Mask::EMPTY, relation),
        }
    }
}
