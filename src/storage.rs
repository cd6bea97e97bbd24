//! The component-independent half of a world: entities, tables, the edge graph and the query
//! cache, generic over the generated table type.
//!
//! A generated world keeps one `Storage<ComponentArrays>` in its component part, which
//! dereferences to it: every method that does not depend on the component list (liveness,
//! masks, iteration, typed queries, ticks, the change log) is defined here once, and the
//! generated per-component methods pass a function that picks their column out of a table.
//! Methods only generated code calls are `#[doc(hidden)]`; those that spawn or despawn are
//! crate-private, reached by generated code through `__private::lifecycle`, so a sub-world of a
//! multi-world (whose entities the whole spawns) has none.

use crate::dropped::Dropped;
use crate::versioned::Versioned;
use alloc::vec::Vec;

use crate::archetype::{Archetype, TicksOf};
use crate::change_log::StructuralChange;
use crate::change_ticks::Written;
use crate::edges::{Change, EdgeGraph};
use crate::entity::{Entity, EntityLocation, EntityRecords, IdRecords};
use crate::events::EventChannel;
use crate::hash::TableLookup;
use crate::hooks::PendingHooks;
use crate::mask::Bitmask;
use crate::query_cache::QueryCache;
use crate::relation::RelationStore;
use crate::tick::Tick;

pub(crate) mod change_log;
pub(crate) mod despawn;
mod disabled;
mod invariants;
mod iteration;
mod iteration_mut;
pub(crate) mod lending;
mod migration;
pub(crate) mod parents_first;
mod relations;
mod rows;
mod spawn;
mod split;
pub(crate) mod staged;
pub(crate) mod state;
pub(crate) mod tag_partition;
mod tags;
pub(crate) mod target_spans;
mod ticks;
mod typed_query;
mod walk;

pub use invariants::InvariantError;
pub use iteration::MatchingTables;
pub use iteration_mut::MatchingTablesMut;
pub use rows::RowsMut;
use tag_partition::TagPartition;
use target_spans::TargetSpans;

pub(crate) use spawn::{activate_reserved, place_or_free};
pub use split::{TablesMut, TablesOverlap, TablesRef};
pub use typed_query::{RowTags, TypedTablesMut, TypedWalk};
pub(crate) use walk::split_runs;
pub use walk::{RunTags, WalkedRun};

/// Entities, their tables and the two caches that make structural change and queries fast:
/// the component-independent methods of every world. A world's component part (`WorldComponents`)
/// dereferences to its `Storage`, so `world.is_alive(e)`, `world.for_each_mut(..)`,
/// `world.typed_query::<..>()` are these methods; the per-component ones (`get_position`, ...)
/// are generated beside them.
pub struct Storage<T: Archetype> {
    // The parts that depend on no more of the world than its mask type are `Dropped`: dropped
    // by code compiled once in this crate rather than by drop glue in every game's.
    /// The record of every id: generation, state and the live entity's row. The index that
    /// issues the ids (a world's, or its game's) is the caller's.
    records: Versioned<EntityRecords>,
    tables: Vec<T>,
    /// The change ticks of every table, indexed like `tables`.
    ticks: Vec<TicksOf<T>>,
    table_lookup: Dropped<TableLookup>,
    edges: Dropped<EdgeGraph<T::Mask>>,
    queries: QueryCache<T::Mask>,
    /// The rows of every table grouped by tag signature, indexed like `tables`.
    partitions: Dropped<Vec<TagPartition<T::Mask>>>,
    /// One store per declared relation, in bit order.
    relations: Versioned<Vec<RelationStore>>,
    /// The spans of siblings `Target` terms read, kept while no row and no link moves.
    target_spans: TargetSpans,
    tick: Tick,
    last_tick: Tick,
    /// The structural change log, recorded only while `log_changes` is on.
    change_log: Dropped<EventChannel<StructuralChange<T::Mask>>>,
    log_changes: bool,
    /// The changes the world's declared hooks wait for, until its sync point runs them
    /// (always empty in a world without hooks), with the values kept aside for removal hooks.
    hooks: PendingHooks<T::Mask, T::Removed>,
}

impl<T: Archetype> Default for Storage<T> {
    fn default() -> Self {
        Storage {
            records: Versioned::default(),
            tables: Vec::new(),
            ticks: Vec::new(),
            table_lookup: Dropped::default(),
            edges: Dropped::new(EdgeGraph::new(T::COMPONENT_COUNT)),
            // Disabled entities' tables hold the disabled bit too.
            queries: QueryCache::new(T::COMPONENTS | T::Mask::DISABLED),
            partitions: Dropped::default(),
            relations: Versioned::new(relation_stores(T::RELATIONS.count_ones())),
            target_spans: TargetSpans::default(),
            tick: Tick::ZERO.next(),
            last_tick: Tick::ZERO,
            change_log: Dropped::default(),
            log_changes: false,
            hooks: PendingHooks::default(),
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// An empty storage.
    #[doc(hidden)]
    pub fn new() -> Self {
        Self::default()
    }

    // ----- entities -------------------------------------------------------------------------

    /// The records of every id: the source of truth for liveness.
    #[doc(hidden)]
    pub fn records(&self) -> &EntityRecords {
        &self.records
    }

    /// The records of every id, written by the index that issues the ids.
    #[inline]
    pub(crate) fn records_mut(&mut self) -> &mut EntityRecords {
        &mut self.records
    }

    /// Where `entity` lives, or `None` for a dead, stale or never-issued handle.
    #[doc(hidden)]
    #[inline]
    pub fn locate(&self, entity: Entity) -> Option<EntityLocation> {
        self.records.location(entity)
    }

    /// Where `entity` lives, if it is alive and its table holds every bit of `mask`.
    #[doc(hidden)]
    #[inline]
    pub fn locate_with(&self, entity: Entity, mask: T::Mask) -> Option<EntityLocation> {
        let location = self.locate(entity)?;
        self.tables[location.table()]
            .mask()
            .contains(mask)
            .then_some(location)
    }

    /// Whether `entity` is alive (a stale or never-issued handle is not), in O(1).
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.records.is_alive(entity)
    }

    /// Number of live entities.
    pub fn entity_count(&self) -> usize {
        self.records.len()
    }

    /// Every live entity, in id order: O(ids ever issued).
    pub fn entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.records.iter_alive()
    }

    /// The components and tags `entity` has, in O(1) (plus a binary search of its table's tag
    /// groups); `None` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn component_mask(&self, entity: Entity) -> Option<T::Mask> {
        let location = self.locate(entity)?;
        let tags = self.tag_mask(entity).unwrap_or(T::Mask::EMPTY);
        Some((self.tables[location.table()].mask() & T::COMPONENTS) | tags)
    }

    /// Whether `entity` is alive and has every component and tag of `mask`, in O(1) (plus a
    /// binary search of its table's tag groups when `mask` holds tags); `false` for a dead,
    /// stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_components(&self, entity: Entity, mask: T::Mask) -> bool {
        self.locate_with(entity, mask & !T::TAGS)
            .is_some_and(|location| self.tags_at(location).contains(mask & T::TAGS))
    }

    // ----- tables ---------------------------------------------------------------------------

    /// Every archetype table, read-only, in creation order.
    pub fn tables(&self) -> &[T] {
        &self.tables
    }

    /// Number of archetype tables created so far.
    pub fn archetype_count(&self) -> usize {
        self.tables.len()
    }

    /// The index of the table of exactly `mask`, if it exists.
    #[doc(hidden)]
    #[inline]
    pub fn find_table(&self, mask: T::Mask) -> Option<usize> {
        self.table_lookup.get(mask)
    }

    /// The index of the table of exactly `mask` (bits outside the world's components are
    /// ignored), creating it, its edges and its query-cache entries if needed.
    #[doc(hidden)]
    pub fn table_for(&mut self, mask: T::Mask) -> usize {
        self.table_of(mask & T::COMPONENTS)
    }

    /// The index of the table of exactly `mask` (components, and [`Bitmask::DISABLED`] for the
    /// tables of disabled entities), created if missing. The mask last asked for is answered
    /// inline (spawns one at a time into one table, two lookups per entity in a game of two
    /// sub-worlds); any other is looked up, or its table made, out of line.
    #[inline]
    fn table_of(&mut self, mask: T::Mask) -> usize {
        match self.table_lookup.last_found(mask) {
            Some(table_index) => table_index,
            None => self.find_or_make_table(mask),
        }
    }

    /// [`table_of`](Self::table_of) for a mask other than the last one asked for.
    #[inline(never)]
    fn find_or_make_table(&mut self, mask: T::Mask) -> usize {
        if let Some(table_index) = self.table_lookup.remember(mask) {
            return table_index;
        }
        let table_index = self.edges.insert_table(mask, &self.table_lookup);
        // Table indices from `u32::MAX - 1` up mark free and reserved ids' records.
        assert!(
            table_index < (u32::MAX - 1) as usize,
            "archetypal: too many tables"
        );
        self.tables.push(T::new(mask));
        self.partitions.push(TagPartition::new());
        self.ticks
            .push(TicksOf::<T>::new(mask & T::TRACKED, self.tick));
        self.table_lookup.insert(mask, table_index);
        self.queries.table_created(mask, table_index);
        table_index
    }

    /// The edge graph.
    #[doc(hidden)]
    pub fn edges(&self) -> &EdgeGraph<T::Mask> {
        &self.edges
    }

    /// The query cache.
    #[doc(hidden)]
    pub fn query_cache(&self) -> &QueryCache<T::Mask> {
        &self.queries
    }

    // ----- one component, through a column picker -------------------------------------------
    // Here, in the module of `Storage` itself: rustc names a method whose bound fails by its
    // impl's module, and a component that is not `Default` meets `take`'s bound first
    // (`ui/not_default.rs` pins the message: `Storage::<T>::take`).

    /// The component of `entity` in the column `column` picks, if the entity is alive and its
    /// table holds `bit`: the accessors' path, kept to the loads it needs (the id's record,
    /// the table, the column; the one path shared with [`RowsMut`]). Only the column's bounds
    /// check is compiled per component; the rest once per world (`rows::row`).
    #[doc(hidden)]
    #[inline]
    pub fn get<C>(&self, entity: Entity, bit: T::Mask, column: fn(&T) -> &[C]) -> Option<&C> {
        match rows::row(&self.records, &self.tables, entity, bit) {
            Some((table, row)) => column(table).get(row),
            None => None,
        }
    }

    /// Mutable form of [`get`](Self::get); stamps the component as changed.
    #[doc(hidden)]
    #[inline]
    pub fn get_mut<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: fn(&mut T) -> &mut [C],
    ) -> Option<&mut C> {
        match rows::row_mut(
            &self.records,
            &mut self.tables,
            &mut self.ticks,
            self.tick,
            entity,
            bit,
        ) {
            Some((table, row)) => column(table).get_mut(row),
            None => None,
        }
    }

    /// Stamps the tracked components of `mask` of `entity` as changed now (a change the world
    /// cannot see by itself), in O(1). `false` for a dead, stale (id reused) or never-issued
    /// handle.
    pub fn mark_changed(&mut self, entity: Entity, mask: T::Mask) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        self.ticks[location.table()].stamp(Written::Row(location.row()), mask, self.tick);
        true
    }

    /// Writes a component, adding it first (one migration) if the entity lacks it. `false`
    /// for a dead handle.
    #[doc(hidden)]
    pub fn set<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        value: C,
        column: fn(&mut T) -> &mut [C],
    ) -> bool {
        let Some((table, row)) = self.row_to_set(entity, bit) else {
            return false;
        };
        match column(table).get_mut(row) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        }
    }

    /// The part of [`set`](Self::set) that does not depend on the component's type (compiled
    /// once per world, not once per component): the live `entity` given the component of bit
    /// `bit` (one migration if it lacks it), its row stamped as written, and its table and row.
    fn row_to_set(&mut self, entity: Entity, bit: T::Mask) -> Option<(&mut T, usize)> {
        let location = self.locate(entity)?;
        let location = self.apply_change(
            entity,
            location,
            Change::Add(bit & T::COMPONENTS),
            T::HOOKS.kept(),
        );
        self.ticks[location.table()].stamp(Written::Row(location.row()), bit, self.tick);
        Some((&mut self.tables[location.table()], location.row()))
    }

    /// Removes a component and returns its value; `None` if the entity is dead or lacks it.
    #[doc(hidden)]
    pub fn take<C: Default>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: fn(&mut T) -> &mut [C],
    ) -> Option<C> {
        let location = self.locate_with(entity, bit)?;
        let current = self.tables[location.table()].mask();
        // A removal the world's rules refuse leaves the value where it is.
        T::RULES.settle(current, Change::Remove(bit & T::COMPONENTS))?;
        let slot = column(&mut self.tables[location.table()]).get_mut(location.row())?;
        let value = core::mem::take(slot);
        self.remove_taken(entity, location, bit);
        Some(value)
    }

    /// The end of [`take`](Self::take), once the value is out (compiled once per world, not
    /// once per component): the migration without the component of bit `bit`.
    fn remove_taken(&mut self, entity: Entity, location: EntityLocation, bit: T::Mask) {
        // The value went to the caller: its hooks get none (what is left in the column is
        // a default); those of the components the rules remove with it are kept for theirs.
        self.apply_change(
            entity,
            location,
            Change::Remove(bit & T::COMPONENTS),
            T::HOOKS.kept() & !bit,
        );
    }
}

/// `count` empty relation stores. Not generic, so compiled once in this crate.
fn relation_stores(count: u32) -> Vec<RelationStore> {
    (0..count).map(|_| RelationStore::new()).collect()
}

/// A storage as the records an index writes: its own, the only copy of a world's.
impl<T: Archetype> IdRecords for Storage<T> {
    #[inline]
    fn reference(&self) -> &EntityRecords {
        &self.records
    }

    #[inline]
    fn write_each(&mut self, mut write: impl FnMut(&mut EntityRecords)) {
        write(&mut self.records);
    }
}

/// Two distinct elements of a slice, mutably.
// Always inlined: a migration calls it for the tables and for their change ticks, and a call
// left in place for the ticks showed in a tracked migration's cost.
#[inline(always)]
fn pair_mut<T>(items: &mut [T], first: usize, second: usize) -> (&mut T, &mut T) {
    assert_ne!(first, second, "a migration needs two distinct tables");
    if first < second {
        let (left, right) = items.split_at_mut(second);
        (&mut left[first], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(first);
        (&mut right[0], &mut left[second])
    }
}

/// The items of `items` but those at the positions `skipped` lists (ascending).
fn without<I: Iterator>(items: I, skipped: &[usize]) -> Without<'_, I> {
    Without {
        items,
        skipped,
        position: 0,
    }
}

/// See [`without`]: one plain loop per item type, rather than an adapter chain's.
struct Without<'s, I> {
    items: I,
    skipped: &'s [usize],
    position: usize,
}

impl<I: Iterator> Iterator for Without<'_, I> {
    type Item = I::Item;

    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        if self.skipped.is_empty() {
            // Nothing (left) to skip: positions no longer matter.
            return self.items.next();
        }
        loop {
            let item = self.items.next()?;
            let position = self.position;
            self.position += 1;
            match self.skipped.split_first() {
                Some((&skip, rest)) if skip == position => self.skipped = rest,
                _ => return Some(item),
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
