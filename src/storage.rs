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
use alloc::{borrow::Cow, string::String, vec::Vec};
use core::fmt;

use crate::archetype::{Archetype, TicksOf};
use crate::change_log::StructuralChange;
use crate::change_ticks::Written;
use crate::column;
use crate::edges::{Change, EdgeGraph};
use crate::entity::{Entity, EntityIndex, EntityLocation, EntityRecords, IdRecords};
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
mod iteration;
mod iteration_mut;
pub(crate) mod lending;
mod migration;
pub(crate) mod parents_first;
mod relations;
mod rows;
mod split;
pub(crate) mod staged;
pub(crate) mod state;
pub(crate) mod tag_partition;
mod tags;
pub(crate) mod target_spans;
mod ticks;
mod typed_query;
mod walk;

pub use iteration::MatchingTables;
pub use iteration_mut::MatchingTablesMut;
pub use rows::RowsMut;
use tag_partition::TagPartition;
use target_spans::TargetSpans;

pub use split::{TablesMut, TablesOverlap, TablesRef};
pub use typed_query::{RowTags, TypedTablesMut, TypedWalk};
pub use walk::WalkedRun;
pub(crate) use walk::split_runs;

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

    // ----- spawning and despawning ----------------------------------------------------------

    /// Spawns one entity issued by `index` with the components of `mask`,
    /// default-initialised, and its tags.
    pub(crate) fn spawn(&mut self, index: &mut EntityIndex, mask: T::Mask) -> Entity {
        let entities = [index.allocate(&mut *self.records)];
        place_or_free(index, self, &entities, |storage| {
            storage.place_spawned(mask, &entities)
        });
        entities[0]
    }

    /// Spawns `count` entities issued by `index` with the components (and tags) of `mask` in
    /// one reservation, then calls `init(view, row)` for each new row of the table.
    pub(crate) fn spawn_batch<F>(
        &mut self,
        index: &mut EntityIndex,
        mask: T::Mask,
        count: usize,
        mut init: F,
    ) -> Vec<Entity>
    where
        F: FnMut(&mut T::ViewMut<'_>, usize),
    {
        let entities = index.allocate_many(count, &mut *self.records);
        // Only the placement frees the handles if it panics: once the rows exist, a panicking
        // `init` leaves them spawned, some initialised and the rest default.
        let (table_index, first_row, moved) = place_or_free(index, self, &entities, |storage| {
            storage.place_spawned(mask, &entities)
        });
        // The columns of the table the rules gave the rows (`mask` itself without rules).
        let columns = T::RULES.spawn_mask(mask) & T::COMPONENTS;
        let (_, mut view) = self.tables[table_index].view_mut(columns);
        if moved {
            // The rows joined their tag segment by swaps: each entity's row, in spawn order.
            for &entity in &entities {
                if let Some(location) = self.records.location(entity) {
                    init(&mut view, location.row());
                }
            }
        } else {
            for offset in 0..entities.len() {
                init(&mut view, first_row + offset);
            }
        }
        entities
    }

    /// Gives freshly allocated `entities` their rows (default components, spawn ticks,
    /// locations) in the table of `mask`: [`place_rows`](Self::place_rows).
    fn place_spawned(&mut self, mask: T::Mask, entities: &[Entity]) -> (usize, usize, bool) {
        let count = entities.len();
        self.place_rows(mask, T::Mask::EMPTY, entities.iter().copied(), |table| {
            let mask = table.mask();
            table.for_each_column(&mut column::PushDefaults { mask, count });
        })
    }

    /// Gives freshly allocated `entities` their rows in the table of `mask` with what the
    /// world's rules add to it or leave out of it (`fill` pushes the component values, one per
    /// entity in every column of the table it is given), spawn ticks and
    /// locations, in the segment of the tags of `mask`, and logs the spawns; every spawn path
    /// ends here. Returns the table, the first appended row, and whether the rows were then
    /// moved into their tag segment (else they are the appended rows, in order).
    ///
    /// A `fill` that panics (a component's `Default` or `Clone`) leaves the table as it was;
    /// the index that issued the handles frees them then (see [`place_or_free`]).
    ///
    /// `entities` iterates over a batch's slice, or is one entity's `iter::once`: a handle in a
    /// one-element slice is written to memory as its two halves and read back whole, a load
    /// the processor cannot serve from those stores (it waits for them to reach the cache),
    /// which cost a single spawn a third of its time.
    fn place_rows<E: ExactSizeIterator<Item = Entity> + Clone>(
        &mut self,
        mask: T::Mask,
        linked: T::Mask,
        entities: E,
        fill: impl FnOnce(&mut T),
    ) -> (usize, usize, bool) {
        // What the world's rules make of the mask: what it requires, one member per group.
        let mask = T::RULES.spawn_mask(mask);
        let table_index = self.table_for(mask);
        let table = &mut self.tables[table_index];
        let first_row = table.len();
        table.push_rows(entities.clone(), fill);
        let moved = self.settle_rows(mask, linked, table_index, first_row, entities, false);
        (table_index, first_row, moved)
    }

    /// The end of every spawn: `entities`, whose rows were just appended to table
    /// `table_index` from `first_row` on (values and entity column), get their spawn ticks and
    /// locations (unless `located`: issued at their rows already, see
    /// `EntityIndex::allocate_many_at`), join the segment of the tags of `mask`, and their
    /// spawns are logged. Returns whether the rows were moved into their tag segment (else
    /// they are where they were appended, in order).
    #[inline]
    fn settle_rows<E: ExactSizeIterator<Item = Entity>>(
        &mut self,
        mask: T::Mask,
        linked: T::Mask,
        table_index: usize,
        first_row: usize,
        entities: E,
        located: bool,
    ) -> bool {
        let count = entities.len();
        self.ticks[table_index].push_rows(count, self.tick);
        // Relation bits come from linking only: a mask's are dropped, and the rows join the
        // segment of the relations they are about to be linked in (`linked`, see
        // `link_spawned`), which they would otherwise leave again at once.
        let tags = mask & T::TAGS & !T::RELATIONS;
        let logged = (mask & T::COMPONENTS) | tags;
        let tags = tags | linked;
        for (offset, entity) in entities.enumerate() {
            if !located {
                let location = EntityLocation::new(table_index, first_row + offset);
                // Just made alive by whoever issued it: a write only.
                self.records.relocate(entity.id, location);
            }
            self.record(StructuralChange::Spawned {
                entity,
                mask: logged,
            });
        }
        self.join_segment(table_index, count, tags)
    }

    /// Gives `entities`, issued by the multi-world game this storage is a sub-world of (alive
    /// in its records already), rows with no components.
    pub(crate) fn spawn_placed(&mut self, entities: &[Entity]) {
        self.place_spawned(T::Mask::EMPTY, entities);
    }

    /// Spawns the handles of `entities` that `index` still holds reserved with the components
    /// and tags of `mask`; returns how many it spawned (a handle already spawned or released
    /// is skipped).
    pub(crate) fn spawn_reserved(
        &mut self,
        index: &mut EntityIndex,
        mask: T::Mask,
        entities: &[Entity],
    ) -> usize {
        let activated = activate_reserved(index, &mut *self.records, entities);
        place_or_free(index, self, &activated, |storage| {
            storage.place_spawned(mask, &activated)
        });
        activated.len()
    }

    /// The relations in which each of `rows` rows about to be placed will be linked to a live
    /// target: `links` holds the rows' links (relation, target), at most one per row and
    /// relation, as builders hold them. A spawn places its rows among those relations' linked
    /// rows (their tag segment) at once, so linking them after moves no row (see
    /// [`link_spawned`](Self::link_spawned)).
    fn linked_by_every_row(
        &self,
        rows: usize,
        links: impl Iterator<Item = (T::Mask, Entity)> + Clone,
    ) -> T::Mask {
        let mut linked = T::Mask::EMPTY;
        if rows == 0 {
            return linked;
        }
        for bit in T::RELATIONS.bits() {
            let relation = T::Mask::bit(bit);
            let live = links
                .clone()
                .filter(|&(other, target)| other == relation && self.is_alive(target))
                .count();
            if live == rows {
                linked |= relation;
            }
        }
        linked
    }

    /// Links just-spawned entities to the targets their builders held: `(source, relation,
    /// target)`, in order, once every row of the batch exists (a target spawned in the same
    /// batch is alive by then). A link that fails leaves the entity unlinked (documented: a
    /// target not alive at the spawn), and takes its row back out of the relation's linked
    /// rows if it was placed there (`joined`: see
    /// [`linked_by_every_row`](Self::linked_by_every_row)).
    pub(crate) fn link_spawned(
        &mut self,
        links: impl IntoIterator<Item = (Entity, T::Mask, Entity)>,
        joined: T::Mask,
    ) {
        for (source, relation, target) in links {
            if self.link(relation, source, target).is_err() && joined.intersects(relation) {
                if let Some(location) = self.locate(source) {
                    let tags = self.tags_at(location);
                    self.retag(location, tags & !relation);
                }
            }
        }
    }

    // ----- one component, through a column picker -------------------------------------------

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

    // ----- invariants -----------------------------------------------------------------------

    /// Checks every structural invariant of the world; the first violation found is returned.
    /// O(the whole world): meant for tests and debugging.
    ///
    /// Columns are aligned with their table's entity column; every live entity's location
    /// points at a row holding it; every row holds a live entity located there; table masks
    /// are unique and indexed; edges lead to tables of the right mask; every cached query
    /// lists exactly the matching tables; in a world with tags, each table's tag partition
    /// covers its rows in non-empty segments of distinct signatures; every relation holds
    /// only live entities, both ways (each source listed once by its target, each listed
    /// source pointing back), without a cycle, and a live entity carries a relation's bit
    /// exactly when it is linked in it; no entity breaks the world's rules (a component
    /// without one it requires, two members of one exclusive group).
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let fail = |message: String| Err(InvariantError { message });
        if self.ticks.len() != self.tables.len() {
            return fail(format!(
                "{} tables but change ticks for {}",
                self.tables.len(),
                self.ticks.len()
            ));
        }
        let mut rows = 0;
        for (table_index, table) in self.tables.iter().enumerate() {
            let mask = table.mask();
            if mask & !(T::COMPONENTS | T::Mask::DISABLED) != T::Mask::EMPTY {
                return fail(format!(
                    "table {table_index} has bits outside the world: {mask:?}"
                ));
            }
            if self.find_table(mask) != Some(table_index) {
                return fail(format!(
                    "table {table_index} ({mask:?}) is not indexed by its mask"
                ));
            }
            if !self.ticks[table_index].is_aligned(table.len()) {
                return fail(format!(
                    "table {table_index} has change ticks of the wrong length"
                ));
            }
            if table.misaligned_columns() != 0 {
                return fail(format!(
                    "table {table_index} has columns of the wrong length"
                ));
            }
            if !table.is_empty() {
                if let Some(broken) = T::RULES.broken_by(mask) {
                    return fail(format!("table {table_index} holds {broken}"));
                }
            }
            for (row, &entity) in table.entities().iter().enumerate() {
                if self.locate(entity) != Some(EntityLocation::new(table_index, row)) {
                    return fail(format!(
                        "{entity} at table {table_index} row {row} is dead or located elsewhere"
                    ));
                }
            }
            rows += table.len();
            let edges = self.edges.edges(table_index);
            for bit in 0..T::COMPONENT_COUNT {
                let bit_mask = T::Mask::bit(bit as u32);
                for (edge, expected) in [
                    (edges.add[bit], mask | bit_mask),
                    (edges.remove[bit], mask & !bit_mask),
                ] {
                    if let Some(destination) = edge {
                        if self.tables[destination as usize].mask() != expected {
                            return fail(format!(
                                "edge of bit {bit} from table {table_index} leads to the wrong table"
                            ));
                        }
                    }
                }
            }
            for &(change, destination) in &edges.multi_bit {
                if self.tables[destination as usize].mask() != change.apply(mask) {
                    return fail(format!(
                        "multi-bit edge {change:?} from table {table_index} leads to the wrong table"
                    ));
                }
            }
        }
        if !T::TAGS.is_empty() && self.partitions.len() != self.tables.len() {
            return fail(format!(
                "{} tag partitions for {} tables",
                self.partitions.len(),
                self.tables.len()
            ));
        }
        for (table_index, (table, partition)) in self
            .tables
            .iter()
            .zip(&self.partitions)
            .enumerate()
            .filter(|_| !T::TAGS.is_empty())
        {
            if let Err(message) = partition.check(table.len(), T::TAGS) {
                return fail(format!("table {table_index}: {message}"));
            }
        }
        if let Err(message) = self.check_relations() {
            return fail(message);
        }
        if rows != self.records.len() {
            return fail(format!(
                "{rows} rows for {} live entities",
                self.records.len()
            ));
        }
        for (include, cached) in self.queries.entries() {
            let expected = self
                .tables
                .iter()
                .enumerate()
                .filter(|(_, table)| table.mask().contains(include));
            if !expected.map(|(index, _)| index).eq(cached.iter().copied()) {
                return fail(format!(
                    "query cache entry {include:?} does not list exactly the matching tables"
                ));
            }
        }
        Ok(())
    }
}

/// `count` empty relation stores. Not generic, so compiled once in this crate.
fn relation_stores(count: u32) -> Vec<RelationStore> {
    (0..count).map(|_| RelationStore::new()).collect()
}

/// Runs `place` (a spawn pushing the rows of `entities`, just issued by `index` into
/// `records`: a world's storage, or every sub-world of a game), and if it panics (a
/// component's `Default` or `Clone`), has `index` free the handles in every copy of the
/// records, so none is alive without a row.
pub(crate) fn place_or_free<R: IdRecords + ?Sized, O>(
    index: &mut EntityIndex,
    records: &mut R,
    entities: &[Entity],
    place: impl FnOnce(&mut R) -> O,
) -> O {
    let guard = FreeOnUnwind {
        index,
        records,
        entities,
    };
    let placed = place(&mut *guard.records);
    core::mem::forget(guard);
    placed
}

/// Frees freshly issued handles if dropped: armed by [`place_or_free`] while a spawn places
/// them, forgotten once it has.
struct FreeOnUnwind<'a, R: IdRecords + ?Sized> {
    index: &'a mut EntityIndex,
    records: &'a mut R,
    entities: &'a [Entity],
}

impl<R: IdRecords + ?Sized> Drop for FreeOnUnwind<'_, R> {
    fn drop(&mut self) {
        for &entity in self.entities {
            self.index.free(entity, &mut self.records);
        }
    }
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

/// A broken storage invariant, found by [`Storage::check_invariants`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantError {
    /// What is wrong, and where.
    pub message: String,
}

impl fmt::Display for InvariantError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "world invariant broken: {}", self.message)
    }
}

impl core::error::Error for InvariantError {}

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

/// Makes the handles of `entities` that `index` still holds reserved alive in every copy of
/// `records`, and returns them: `entities` itself, allocating nothing, when all were (as every
/// queued spawn's are unless its reservation was given back), else those, in order. What a
/// world's and a game's queued spawns of empty entities both do.
pub(crate) fn activate_reserved<'e>(
    index: &mut EntityIndex,
    records: &mut impl IdRecords,
    entities: &'e [Entity],
) -> Cow<'e, [Entity]> {
    let refused = index.activate_all(entities, records);
    if refused.is_empty() {
        Cow::Borrowed(entities)
    } else {
        Cow::Owned(without(entities.iter().copied(), &refused).collect())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use alloc::string::String;
    use test_world::*;

    /// A storage with its own entity index, the two halves of a world, for the storage's unit
    /// tests (here and in the submodules): `spawn` and `despawn` issue and free through the
    /// index, everything else is the storage's.
    pub(crate) struct TestStorage<T: Archetype> {
        pub(crate) index: EntityIndex,
        pub(crate) storage: Storage<T>,
    }

    impl<T: Archetype> TestStorage<T> {
        pub(crate) fn new() -> Self {
            TestStorage {
                index: EntityIndex::default(),
                storage: Storage::new(),
            }
        }

        pub(crate) fn spawn(&mut self, mask: T::Mask) -> Entity {
            self.storage.spawn(&mut self.index, mask)
        }

        pub(crate) fn spawn_batch(
            &mut self,
            mask: T::Mask,
            count: usize,
            init: impl FnMut(&mut T::ViewMut<'_>, usize),
        ) -> Vec<Entity> {
            self.storage.spawn_batch(&mut self.index, mask, count, init)
        }

        pub(crate) fn despawn(&mut self, entity: Entity) -> bool {
            self.storage.despawn(&mut self.index, entity)
        }

        pub(crate) fn despawn_entities(&mut self, entities: &[Entity]) -> Vec<Entity> {
            self.storage.despawn_entities(&mut self.index, entities)
        }
    }

    impl<T: Archetype> core::ops::Deref for TestStorage<T> {
        type Target = Storage<T>;

        fn deref(&self) -> &Storage<T> {
            &self.storage
        }
    }

    impl<T: Archetype> core::ops::DerefMut for TestStorage<T> {
        fn deref_mut(&mut self) -> &mut Storage<T> {
            &mut self.storage
        }
    }

    /// The world the storage's unit tests (here and in the submodules) and the command
    /// staging's run on.
    pub(crate) mod test_world {
        #![allow(dead_code)]
        use alloc::string::String;
        crate::ecs! {
            TestWorld {
                number: u32 => NUMBER,
                name: String => NAME,
                flag: bool => FLAG,
            }
            Tags {
                marked => MARKED,
            }
        }
    }

    #[test]
    fn pair_mut_returns_both_orders() {
        let mut items = [1, 2, 3];
        let (a, b) = pair_mut(&mut items, 0, 2);
        assert_eq!((*a, *b), (1, 3));
        let (a, b) = pair_mut(&mut items, 2, 1);
        assert_eq!((*a, *b), (3, 2));
    }

    #[test]
    fn mutable_matching_skips_unmatched_and_empty_tables() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        storage.spawn(NUMBER);
        storage.spawn(NAME);
        let emptied = storage.spawn(NUMBER | NAME);
        storage.spawn(NUMBER | FLAG);
        storage.spawn(NUMBER | NAME | FLAG);
        storage.despawn(emptied);
        let masks: Vec<u64> = storage
            .matching_tables_mut(NUMBER, FLAG)
            .map(|table| table.mask)
            .collect();
        assert_eq!(
            masks,
            vec![NUMBER],
            "NUMBER | NAME is empty, the FLAG tables excluded"
        );
        let masks: Vec<u64> = storage
            .matching_tables_mut(NAME, 0)
            .map(|table| table.mask)
            .collect();
        assert_eq!(masks, vec![NAME, NUMBER | NAME | FLAG]);
        assert_eq!(storage.query_cache().get(NAME), Some(&[1usize, 2, 4][..]));
    }

    #[test]
    fn shared_matching_agrees_with_and_without_the_cache() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        for mask in [NUMBER, NAME, NUMBER | NAME, FLAG, NUMBER | FLAG] {
            storage.spawn_batch(mask, 3, |_, _| {});
        }
        let scanned: Vec<u64> = storage
            .matching_tables(NUMBER, NAME)
            .map(|t| t.mask)
            .collect();
        storage.warm_query(NUMBER);
        let cached: Vec<u64> = storage
            .matching_tables(NUMBER, NAME)
            .map(|t| t.mask)
            .collect();
        assert_eq!(scanned, vec![NUMBER, NUMBER | FLAG]);
        assert_eq!(scanned, cached);
        storage.check_invariants().unwrap();
    }

    #[test]
    fn set_and_take_migrate_once_and_keep_other_values() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let entity = storage.spawn(NUMBER);
        *storage
            .get_mut(entity, NUMBER, |t| &mut t.number[..])
            .unwrap() = 7;
        assert!(storage.set(entity, NAME, String::from("seven"), |t| &mut t.name[..]));
        assert_eq!(storage.component_mask(entity), Some(NUMBER | NAME));
        assert_eq!(storage.get(entity, NUMBER, |t| &t.number[..]), Some(&7));
        let name = storage.take(entity, NAME, |t| &mut t.name[..]);
        assert_eq!(name.as_deref(), Some("seven"));
        assert_eq!(storage.take(entity, NAME, |t| &mut t.name[..]), None);
        assert_eq!(storage.component_mask(entity), Some(NUMBER));
        assert_eq!(storage.tables().len(), 2);
        storage.check_invariants().unwrap();
    }

    #[test]
    fn invariant_checker_reports_a_broken_location() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let first = storage.spawn(NUMBER);
        let second = storage.spawn(NUMBER);
        storage.check_invariants().unwrap();
        storage
            .records
            .set_location(first.id, EntityLocation::new(0, 1));
        storage
            .records
            .set_location(second.id, EntityLocation::new(0, 0));
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("located elsewhere"), "{error}");
    }

    #[test]
    fn invariant_checker_reports_an_alive_id_without_a_row() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        storage.spawn(NUMBER);
        storage.check_invariants().unwrap();
        // An id made alive behind the storage's back: no row holds it.
        let rowless = storage.index.allocate(&mut storage.storage);
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("1 rows for 2 live"), "{error}");
        assert!(storage.index.free(rowless, &mut storage.storage));
        storage.check_invariants().unwrap();
    }

    #[test]
    fn invariant_checker_reports_a_misaligned_column() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        storage.spawn(NUMBER);
        storage.tables[0].number.push(1);
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("wrong length"), "{error}");
    }

    #[test]
    fn invariant_checker_reports_tables_and_ticks_out_of_step() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let entity = storage.spawn(NUMBER);
        assert_eq!(storage.check_invariants(), Ok(()));
        // A tracked write reaches a table and its ticks through one index: a missing entry is
        // reported, and a write to that table answers `None` rather than panicking.
        storage.ticks.pop();
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("change ticks for 0"), "{error}");
        assert!(
            storage
                .get_mut(entity, NUMBER, |table| &mut table.number)
                .is_none()
        );
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn parallel_iteration_visits_every_row_once_with_view_relative_indices() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let large = storage.spawn_batch(NUMBER, 10_000, |view, index| {
            view.number[index] = index as u32
        });
        let small = storage.spawn_batch(NUMBER | FLAG, 3, |view, index| {
            view.number[index] = 100_000 + index as u32
        });
        storage.spawn_batch(NAME, 5, |_, _| {});
        storage.par_for_each_mut(NUMBER, 0, |entity, view, index| {
            assert_eq!(view.entities[index], entity);
            view.number[index] += 1;
        });
        for (index, &entity) in large.iter().enumerate() {
            assert_eq!(
                storage.get(entity, NUMBER, |t| &t.number[..]),
                Some(&(index as u32 + 1))
            );
        }
        for (index, &entity) in small.iter().enumerate() {
            assert_eq!(
                storage.get(entity, NUMBER, |t| &t.number[..]),
                Some(&(100_001 + index as u32))
            );
        }
    }
}
