//! The component-independent half of a world: entities, tables, the edge graph and the query
//! cache, generic over the generated table type.
//!
//! A generated world keeps one `Storage<ComponentArrays>` and forwards to it; per-component
//! methods pass a closure that picks their column out of a table.

use core::fmt;

use crate::change_ticks::{ChangedRows, TableTicks};
use crate::edges::{Change, EdgeGraph};
use crate::hash::MaskMap;
use crate::query_cache::QueryCache;
use crate::{
    Archetype, Bitmask, Entity, EntityAllocator, EntityLocation, EventChannel, MAX_TICK_AGE,
    StructuralChange, TagSet, Tick,
};

mod state;
mod typed_walk;

pub use typed_walk::{RowTags, TypedTablesMut, TypedWalk};

/// Entities, their tables and the two caches that make structural change and queries fast.
pub struct Storage<T: Archetype> {
    allocator: EntityAllocator,
    tables: Vec<T>,
    /// The change ticks of every table, indexed like `tables`.
    ticks: Vec<TableTicks<T::Mask>>,
    table_lookup: MaskMap<T::Mask, usize>,
    edges: EdgeGraph<T::Mask>,
    queries: QueryCache<T::Mask>,
    /// One sparse set per tag, indexed by tag bit minus the component count.
    tags: Vec<TagSet>,
    tick: Tick,
    last_tick: Tick,
    /// The structural change log, recorded only while `log_changes` is on.
    change_log: EventChannel<StructuralChange<T::Mask>>,
    log_changes: bool,
}

impl<T: Archetype> Default for Storage<T> {
    fn default() -> Self {
        Storage {
            allocator: EntityAllocator::new(),
            tables: Vec::new(),
            ticks: Vec::new(),
            table_lookup: MaskMap::default(),
            edges: EdgeGraph::new(T::COMPONENT_COUNT),
            queries: QueryCache::new(),
            tags: vec![TagSet::new(); T::TAGS.count_ones() as usize],
            tick: Tick::ZERO.next(),
            last_tick: Tick::ZERO,
            change_log: EventChannel::new(),
            log_changes: false,
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// An empty storage.
    pub fn new() -> Self {
        Self::default()
    }

    // ----- entities -------------------------------------------------------------------------

    /// The allocator: the one source of truth for liveness.
    pub fn allocator(&self) -> &EntityAllocator {
        &self.allocator
    }

    /// Where `entity` lives, or `None` for a dead, stale or never-issued handle.
    #[inline]
    pub fn locate(&self, entity: Entity) -> Option<EntityLocation> {
        self.allocator.location(entity)
    }

    /// Where `entity` lives, if it is alive and its table holds every bit of `mask`.
    #[inline]
    pub fn locate_with(&self, entity: Entity, mask: T::Mask) -> Option<EntityLocation> {
        let location = self.locate(entity)?;
        self.tables[location.table()]
            .mask()
            .contains(mask)
            .then_some(location)
    }

    /// Whether `entity` is alive.
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.allocator.is_alive(entity)
    }

    /// Number of live entities.
    pub fn entity_count(&self) -> usize {
        self.allocator.len()
    }

    /// Every live entity, in id order.
    pub fn all_entities(&self) -> Vec<Entity> {
        self.allocator.iter_alive().collect()
    }

    /// The components and tags of a live entity.
    #[inline]
    pub fn component_mask(&self, entity: Entity) -> Option<T::Mask> {
        let location = self.locate(entity)?;
        let tags = self.tag_mask(entity).unwrap_or(T::Mask::EMPTY);
        Some(self.tables[location.table()].mask() | tags)
    }

    /// Whether `entity` is alive and has every component and tag of `mask`.
    #[inline]
    pub fn has_components(&self, entity: Entity, mask: T::Mask) -> bool {
        self.locate_with(entity, mask & !T::TAGS).is_some()
            && TagFilter::<T>::new(mask, T::Mask::EMPTY).matches(&self.tags, entity)
    }

    // ----- tables ---------------------------------------------------------------------------

    /// Every table, in creation order.
    pub fn tables(&self) -> &[T] {
        &self.tables
    }

    /// The index of the table of exactly `mask`, if it exists.
    #[inline]
    pub fn find_table(&self, mask: T::Mask) -> Option<usize> {
        self.table_lookup.get(&mask).copied()
    }

    /// The index of the table of exactly `mask` (bits outside the world's components are
    /// ignored), creating it, its edges and its query-cache entries if needed.
    pub fn table_for(&mut self, mask: T::Mask) -> usize {
        let mask = mask & T::COMPONENTS;
        if let Some(table_index) = self.find_table(mask) {
            return table_index;
        }
        let lookup = &self.table_lookup;
        let table_index = self
            .edges
            .insert_table(mask, |other| lookup.get(&other).copied());
        self.tables.push(T::new(mask));
        self.ticks.push(TableTicks::new(
            mask & T::TRACKED,
            T::COMPONENT_COUNT,
            self.tick,
        ));
        self.table_lookup.insert(mask, table_index);
        self.queries.table_created(mask, table_index);
        table_index
    }

    /// The edge graph.
    pub fn edges(&self) -> &EdgeGraph<T::Mask> {
        &self.edges
    }

    /// The query cache.
    pub fn query_cache(&self) -> &QueryCache<T::Mask> {
        &self.queries
    }

    // ----- spawning and despawning ----------------------------------------------------------

    /// Spawns one entity with the components of `mask`, default-initialised, and its tags.
    pub fn spawn(&mut self, mask: T::Mask) -> Entity {
        let entity = self.allocator.allocate();
        self.place_spawned(mask, &[entity]);
        entity
    }

    /// Spawns `count` entities with the components (and tags) of `mask` in one reservation, then calls
    /// `init(view, row)` for each new row of the table.
    pub fn spawn_batch<F>(&mut self, mask: T::Mask, count: usize, mut init: F) -> Vec<Entity>
    where
        F: FnMut(&mut T::ViewMut<'_>, usize),
    {
        let entities: Vec<Entity> = (0..count).map(|_| self.allocator.allocate()).collect();
        let (table_index, first_row) = self.place_spawned(mask, &entities);
        let (_, mut view) = self.tables[table_index].view_mut(mask & T::COMPONENTS);
        for row in first_row..first_row + count {
            init(&mut view, row);
        }
        entities
    }

    /// Gives freshly allocated `entities` their rows (default components, spawn ticks,
    /// locations) in the table of `mask`, and the tags of `mask`, and logs the spawns; every
    /// spawn path ends here. Returns the table and its first new row.
    fn place_spawned(&mut self, mask: T::Mask, entities: &[Entity]) -> (usize, usize) {
        let table_index = self.table_for(mask);
        let table = &mut self.tables[table_index];
        let first_row = table.len();
        // A component `Default` that panics leaves the table as it was; the handles are then
        // freed, so none is alive without a row.
        let unplaced = FreeOnUnwind {
            allocator: &mut self.allocator,
            entities,
        };
        table.push_defaults(entities);
        core::mem::forget(unplaced);
        self.ticks[table_index].push_rows(entities.len(), self.tick);
        let logged = mask & (T::COMPONENTS | T::TAGS);
        for (offset, &entity) in entities.iter().enumerate() {
            let location = EntityLocation::new(table_index, first_row + offset);
            self.allocator.set_location(entity.id, location);
            self.insert_tags(entity, mask);
            self.record(StructuralChange::Spawned {
                entity,
                mask: logged,
            });
        }
        (table_index, first_row)
    }

    /// Reserves `count` handles for a spawn applied later: they are not alive until
    /// [`spawn_reserved`](Self::spawn_reserved), and no other spawn gets their ids.
    pub fn reserve_entities(&mut self, count: usize) -> Vec<Entity> {
        (0..count).map(|_| self.allocator.reserve()).collect()
    }

    /// Spawns the still-reserved handles of `entities` with the components and tags of
    /// `mask`; returns how many it spawned (a handle already spawned or released is skipped).
    pub fn spawn_reserved(&mut self, mask: T::Mask, entities: &[Entity]) -> usize {
        let activated: Vec<Entity> = entities
            .iter()
            .copied()
            .filter(|&entity| self.allocator.activate(entity))
            .collect();
        self.place_spawned(mask, &activated);
        activated.len()
    }

    /// Gives back reserved handles that will not be spawned.
    pub fn release_reserved(&mut self, entities: &[Entity]) {
        for &entity in entities {
            self.allocator.release(entity);
        }
    }

    /// Despawns `entity`, dropping its components. `false` for a dead, stale or never-issued
    /// handle.
    pub fn despawn(&mut self, entity: Entity) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        self.allocator.free(entity);
        for set in &mut self.tags {
            set.remove(entity);
        }
        self.record(StructuralChange::Despawned { entity });
        self.ticks[location.table()].swap_remove(location.row());
        let table = &mut self.tables[location.table()];
        // The last row moves into the hole. Located first: a component `Drop` that panics
        // unwinds out of `swap_remove` after the table is compacted, and finds every other
        // record already right.
        if location.row() + 1 < table.len() {
            if let Some(&moved) = table.entities().last() {
                self.allocator.set_location(moved.id, location);
            }
        }
        table.swap_remove(location.row());
        true
    }

    /// Despawns every live entity of `entities`; returns the ones actually despawned.
    pub fn despawn_entities(&mut self, entities: &[Entity]) -> Vec<Entity> {
        entities
            .iter()
            .copied()
            .filter(|&entity| self.despawn(entity))
            .collect()
    }

    // ----- structural change ----------------------------------------------------------------

    /// Adds the components of `mask` (default-initialised) in one migration, and its tags.
    /// `true` when the entity is alive (already having them is not an error), `false` for a
    /// dead handle.
    pub fn add_components(&mut self, entity: Entity, mask: T::Mask) -> bool {
        self.change_components(entity, Change::Add(mask & T::COMPONENTS))
            && self.add_tags(entity, mask)
    }

    /// Removes the components of `mask` in one migration, dropping their values, and its tags.
    /// `true` when the entity is alive (not having them is not an error), `false` for a dead
    /// handle.
    pub fn remove_components(&mut self, entity: Entity, mask: T::Mask) -> bool {
        self.change_components(entity, Change::Remove(mask & T::COMPONENTS))
            && self.remove_tags(entity, mask)
    }

    fn change_components(&mut self, entity: Entity, change: Change<T::Mask>) -> bool {
        match self.locate(entity) {
            Some(location) => {
                self.apply_change(entity, location, change);
                true
            }
            None => false,
        }
    }

    /// Applies `change` to the live `entity` at `location` (one migration, or none when the
    /// mask does not change) and returns its new location.
    fn apply_change(
        &mut self,
        entity: Entity,
        location: EntityLocation,
        change: Change<T::Mask>,
    ) -> EntityLocation {
        let current = self.tables[location.table()].mask();
        let next = change.apply(current);
        if next == current {
            return location;
        }
        let logged = match change {
            Change::Add(_) => StructuralChange::Added {
                entity,
                mask: next & !current,
            },
            Change::Remove(_) => StructuralChange::Removed {
                entity,
                mask: current & !next,
            },
        };
        let destination = self.destination(location.table(), change);
        self.migrate(entity, location, destination, logged)
    }

    /// The table reached from `table_index` by `change`: an edge when one is known, else the
    /// mask lookup (creating the table), remembered for next time.
    fn destination(&mut self, table_index: usize, change: Change<T::Mask>) -> usize {
        if let Some(destination) = self.edges.destination(table_index, change) {
            return destination;
        }
        let destination = self.table_for(change.apply(self.tables[table_index].mask()));
        self.edges.remember(table_index, change, destination);
        destination
    }

    /// Moves `entity`'s row from `from` to the end of table `to`, fixes the locations of the
    /// entity and of the row moved into the hole, moves its change ticks, logs `logged`, and
    /// returns the entity's new location.
    ///
    /// A component `Default` that panics does so before anything moved (nothing is done); the
    /// values the destination lacks are dropped after the bookkeeping, so a `Drop` that
    /// panics leaves the migration complete.
    fn migrate(
        &mut self,
        entity: Entity,
        from: EntityLocation,
        to: usize,
        logged: StructuralChange<T::Mask>,
    ) -> EntityLocation {
        let location = EntityLocation::new(to, self.tables[to].len());
        let (source, destination) = pair_mut(&mut self.tables, from.table(), to);
        let removed = source.move_row(from.row(), destination);
        let (source_ticks, destination_ticks) = pair_mut(&mut self.ticks, from.table(), to);
        source_ticks.move_row(from.row(), destination_ticks, self.tick);
        self.allocator.set_location(entity.id, location);
        if let Some(&moved) = self.tables[from.table()].entities().get(from.row()) {
            self.allocator.set_location(moved.id, from);
        }
        self.record(logged);
        // Last: a component `Drop` that panics here finds the world consistent.
        drop(removed);
        location
    }

    // ----- one component, through a column picker -------------------------------------------

    /// The component of `entity` in the column `column` picks, if the entity is alive and its
    /// table holds `bit`.
    #[inline]
    pub fn get<C>(
        &self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&T) -> &[C],
    ) -> Option<&C> {
        let location = self.locate_with(entity, bit)?;
        column(&self.tables[location.table()]).get(location.row())
    }

    /// Mutable form of [`get`](Self::get); stamps the component as changed.
    #[inline]
    pub fn get_mut<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&mut T) -> &mut [C],
    ) -> Option<&mut C> {
        let location = self.locate_with(entity, bit)?;
        self.ticks[location.table()].stamp_component(location.row(), bit, self.tick);
        column(&mut self.tables[location.table()]).get_mut(location.row())
    }

    /// Writes a component, adding it first (one migration) if the entity lacks it. `false`
    /// for a dead handle.
    pub fn set<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        value: C,
        column: impl FnOnce(&mut T) -> &mut [C],
    ) -> bool {
        let Some(location) = self.locate(entity) else {
            return false;
        };
        let location = self.apply_change(entity, location, Change::Add(bit & T::COMPONENTS));
        self.ticks[location.table()].stamp_component(location.row(), bit, self.tick);
        match column(&mut self.tables[location.table()]).get_mut(location.row()) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        }
    }

    /// Removes a component and returns its value; `None` if the entity is dead or lacks it.
    pub fn take<C: Default>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&mut T) -> &mut [C],
    ) -> Option<C> {
        let location = self.locate_with(entity, bit)?;
        let value =
            core::mem::take(column(&mut self.tables[location.table()]).get_mut(location.row())?);
        self.apply_change(entity, location, Change::Remove(bit & T::COMPONENTS));
        Some(value)
    }

    // ----- queries --------------------------------------------------------------------------

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
        let include = include & !T::TAGS;
        MatchingTables {
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

    /// Every entity with all components and tags of `include` and none of `exclude`.
    pub fn matching_entities(
        &self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> impl Iterator<Item = Entity> + '_ {
        let tag_filter = TagFilter::<T>::new(include, exclude);
        self.matching_tables(include, exclude)
            .flat_map(|table| table.entities().iter().copied())
            .filter(move |&entity| tag_filter.matches(&self.tags, entity))
    }

    /// Calls `f(entity, table, row)` for every entity matching `include` / `exclude`.
    pub fn for_each<F>(&self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &T, usize),
    {
        let tag_filter = TagFilter::<T>::new(include, exclude);
        let no_tags = tag_filter.is_empty();
        for table in self.matching_tables(include, exclude) {
            for (row, &entity) in table.entities().iter().enumerate() {
                if no_tags || tag_filter.matches(&self.tags, entity) {
                    f(entity, table, row);
                }
            }
        }
    }

    /// Calls `f(entity, view, row)` for every entity matching `include` / `exclude`, with a
    /// mutable slice view of its table. The view can write any column and the storage cannot
    /// see which, so every tracked column of each table visited is stamped as changed.
    pub fn for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        let tag_filter = TagFilter::<T>::new(include, exclude);
        let walk = self.typed_tables_mut(include, exclude);
        for (table, ticks) in walk.tables {
            // The view hands out every column mutably and cannot see writes: report them all.
            ticks.stamp_columns(table.mask(), walk.tick);
            let (entities, mut view) = table.view_mut(include & !T::TAGS);
            // Two loops rather than one with a test per row: without tags, the loop is the
            // plain one the optimizer vectorises.
            if tag_filter.is_empty() {
                for (row, &entity) in entities.iter().enumerate() {
                    f(entity, &mut view, row);
                }
            } else {
                for (row, &entity) in entities.iter().enumerate() {
                    if walk.tags.matches(entity) {
                        f(entity, &mut view, row);
                    }
                }
            }
        }
    }

    /// Parallel form of [`for_each_mut`](Self::for_each_mut): the matching tables are cut into
    /// chunks of rows (several per thread, so one large table spreads over every thread too)
    /// and rayon runs `f` on the chunks. Each chunk is a view of its rows only, so `index` is
    /// relative to the view `f` receives, exactly as in `for_each_mut`.
    #[cfg(feature = "parallel")]
    pub fn par_for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, f: F)
    where
        T: Send,
        for<'a> T::ViewMut<'a>: Send,
        F: Fn(Entity, &mut T::ViewMut<'_>, usize) + Sync + Send,
    {
        use rayon::prelude::{IntoParallelIterator, ParallelIterator};

        let tag_filter = TagFilter::<T>::new(include, exclude);
        // The views hand out every column mutably and cannot see writes: report them all.
        self.mark_columns_changed(include, exclude, T::COMPONENTS);
        let rows: usize = self
            .matching_tables_mut(include, exclude)
            .map(|table| table.len())
            .sum();
        let chunk_rows = rows
            .div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD)
            .max(1);
        let mut chunks = Vec::new();
        let tables = matching_tables_mut(&mut self.tables, &mut self.queries, include, exclude);
        for table in tables {
            let (mut entities, mut view) = table.view_mut(include & !T::TAGS);
            while entities.len() > chunk_rows {
                let (head, tail) = T::split_view(view, chunk_rows);
                chunks.push((&entities[..chunk_rows], head));
                entities = &entities[chunk_rows..];
                view = tail;
            }
            chunks.push((entities, view));
        }
        let tags = &self.tags;
        chunks.into_par_iter().for_each(|(entities, mut view)| {
            for (row, &entity) in entities.iter().enumerate() {
                if tag_filter.matches(tags, entity) {
                    f(entity, &mut view, row);
                }
            }
        });
    }

    /// Calls `f(view)` once per non-empty table matching `include` / `exclude`. With tag bits
    /// in the masks, `f` gets one view per run of consecutive matching rows instead, so every
    /// row it sees matches. Every tracked column of the rows handed out is stamped as changed
    /// (a column stamp for a whole table).
    pub fn for_each_table_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(&mut T::ViewMut<'_>),
    {
        let tick = self.tick;
        self.for_each_run_mut(include, exclude, |_, mut view, ticks, rows| {
            // The view hands out every column of its rows mutably and cannot see writes:
            // report them all (a column stamp for a whole table).
            ticks.stamp_rows(rows, T::COMPONENTS, tick);
            f(&mut view);
        });
    }

    /// The table walk of [`for_each_table_mut`](Self::for_each_table_mut) and of typed queries
    /// ([`TypedQuery`](crate::TypedQuery)): calls `f(entities, view)` once per non-empty table
    /// matching `include` / `exclude`, or once per run of consecutive matching rows when the
    /// masks hold tag bits, so every row `f` sees matches. `f` also gets the table's change
    /// ticks and the rows of the table the run covers, to stamp what it writes.
    pub fn for_each_run_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(&[Entity], T::ViewMut<'_>, &mut TableTicks<T::Mask>, core::ops::Range<usize>),
    {
        let tag_filter = TagFilter::<T>::new(include, exclude);
        let components = include & !T::TAGS;
        let excluded = exclude & !T::TAGS;
        let indices = self
            .queries
            .get_or_insert(components, self.tables.iter().map(Archetype::mask));
        for &table_index in indices {
            let table = &mut self.tables[table_index];
            if table.is_empty() || table.mask().intersects(excluded) {
                continue;
            }
            let ticks = &mut self.ticks[table_index];
            let (mut entities, mut view) = table.view_mut(components);
            if tag_filter.is_empty() {
                let rows = 0..entities.len();
                f(entities, view, ticks, rows);
                continue;
            }
            let matches = |entity: &Entity| tag_filter.matches(&self.tags, *entity);
            let mut first_row = 0;
            while let Some(start) = entities.iter().position(matches) {
                let length = entities[start..]
                    .iter()
                    .position(|entity| !matches(entity))
                    .unwrap_or(entities.len() - start);
                let (_, from_start) = T::split_view(view, start);
                let (run, rest) = T::split_view(from_start, length);
                let rows = first_row + start..first_row + start + length;
                f(&entities[start..start + length], run, ticks, rows);
                entities = &entities[start + length..];
                view = rest;
                first_row += start + length;
            }
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
    pub fn column_values<'a, C: 'a>(
        &'a self,
        bit: T::Mask,
        column: impl Fn(&'a T) -> &'a [C] + 'a,
    ) -> impl Iterator<Item = &'a C> + 'a {
        self.matching_tables(bit, T::Mask::EMPTY)
            .flat_map(move |table| column(table).iter())
    }

    /// One slice per table holding `bit`: the column `column` picks.
    pub fn column_slices<'a, C: 'a>(
        &'a self,
        bit: T::Mask,
        column: impl Fn(&'a T) -> &'a [C] + 'a,
    ) -> impl Iterator<Item = &'a [C]> + 'a {
        self.matching_tables(bit, T::Mask::EMPTY).map(column)
    }

    /// Mutable form of [`column_slices`](Self::column_slices); marks those columns changed.
    pub fn column_slices_mut<'a, C: 'a>(
        &'a mut self,
        bit: T::Mask,
        column: impl FnMut(&'a mut T) -> &'a mut [C] + 'a,
    ) -> impl Iterator<Item = &'a mut [C]> + 'a {
        self.mark_columns_changed(bit, T::Mask::EMPTY, bit);
        self.matching_tables_mut(bit, T::Mask::EMPTY).map(column)
    }

    // ----- tags -----------------------------------------------------------------------------

    /// Adds the tags of `mask` to a live entity (never a migration). `false` for a dead handle.
    pub fn add_tags(&mut self, entity: Entity, mask: T::Mask) -> bool {
        if !self.is_alive(entity) {
            return false;
        }
        let added = self.insert_tags(entity, mask);
        self.record(StructuralChange::Added {
            entity,
            mask: added,
        });
        true
    }

    /// Puts a live entity in the tag sets of `mask`; returns the tags it did not have.
    fn insert_tags(&mut self, entity: Entity, mask: T::Mask) -> T::Mask {
        let mut added = T::Mask::EMPTY;
        for bit in (mask & T::TAGS).bits() {
            if self.tags[tag_index::<T>(bit)].insert(entity) {
                added |= T::Mask::bit(bit);
            }
        }
        added
    }

    /// Removes the tags of `mask` from a live entity. `false` for a dead handle.
    pub fn remove_tags(&mut self, entity: Entity, mask: T::Mask) -> bool {
        if !self.is_alive(entity) {
            return false;
        }
        let mut removed = T::Mask::EMPTY;
        for bit in (mask & T::TAGS).bits() {
            if self.tags[tag_index::<T>(bit)].remove(entity) {
                removed |= T::Mask::bit(bit);
            }
        }
        self.record(StructuralChange::Removed {
            entity,
            mask: removed,
        });
        true
    }

    /// The tags a live entity has.
    pub fn tag_mask(&self, entity: Entity) -> Option<T::Mask> {
        if !self.is_alive(entity) {
            return None;
        }
        let mut mask = T::Mask::EMPTY;
        for bit in T::TAGS.bits() {
            if self.tags[tag_index::<T>(bit)].contains(entity) {
                mask |= T::Mask::bit(bit);
            }
        }
        Some(mask)
    }

    /// The entities holding the lowest tag of `tag` (one tag's mask constant).
    pub fn tagged(&self, tag: T::Mask) -> impl Iterator<Item = Entity> + '_ {
        let tag = tag & T::TAGS;
        let set = (!tag.is_empty()).then(|| &self.tags[tag_index::<T>(tag.trailing_zeros())]);
        set.into_iter().flat_map(TagSet::iter)
    }

    // ----- ticks ----------------------------------------------------------------------------

    /// The current tick: the frame counter writes are stamped with.
    pub fn current_tick(&self) -> Tick {
        self.tick
    }

    /// The tick at which the last frame ended ([`end_frame`](Self::end_frame)).
    pub fn last_tick(&self) -> Tick {
        self.last_tick
    }

    /// Advances the current tick without ending the frame; returns the new tick.
    pub fn increment_tick(&mut self) -> Tick {
        self.tick = self.tick.next();
        // Well before any stamp can be 2^31 ticks old and wrap around to look new.
        if self.tick.0 % (MAX_TICK_AGE / 2) == 0 {
            for ticks in &mut self.ticks {
                ticks.clamp(self.tick);
            }
            self.last_tick = self.last_tick.clamp_age(self.tick);
        }
        self.tick
    }

    /// Ends a frame: the current tick becomes the last one and the tick advances.
    pub fn end_frame(&mut self) {
        self.last_tick = self.tick;
        self.increment_tick();
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
        let tag_filter = TagFilter::<T>::new(include, exclude);
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
            let tags = &self.tags;
            // Loop-invariant, so the optimizer drops the tag test when there is none.
            let no_tags = tag_filter.is_empty();
            let tags_match = |entity| no_tags || tag_filter.matches(tags, entity);
            // One row loop per kind of test, each specialised by the compiler.
            match ticks.changed_rows(components, since) {
                ChangedRows::All => {
                    visit_rows(entities, &mut view, &mut f, |_, entity| tags_match(entity))
                }
                ChangedRows::Column { stamps, since } => {
                    visit_rows(entities, &mut view, &mut f, |row, entity| {
                        stamps[row].is_newer_than(since) && tags_match(entity)
                    })
                }
                any => visit_rows(entities, &mut view, &mut f, |row, entity| {
                    any.contains(row) && tags_match(entity)
                }),
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
        let tag_filter = TagFilter::<T>::new(include, T::Mask::EMPTY);
        let components = include & !T::TAGS;
        (0..self.tables.len())
            .filter(move |&table_index| {
                self.tables[table_index].mask().contains(components)
                    && self.ticks[table_index].may_have_changed_since(components, since)
            })
            .flat_map(move |table_index| {
                let changed = self.ticks[table_index].changed_rows(components, since);
                self.tables[table_index]
                    .entities()
                    .iter()
                    .enumerate()
                    .filter(move |&(row, _)| changed.contains(row))
                    .map(|(_, &entity)| entity)
            })
            .filter(move |&entity| tag_filter.matches(&self.tags, entity))
    }

    // ----- structural change log -----------------------------------------------------------

    /// Starts recording structural changes, keeping at most `capacity` entries (older ones are
    /// trimmed, and a consumer that had not read them is told how many it lost).
    pub fn enable_change_log(&mut self, capacity: usize) {
        self.change_log = EventChannel::with_capacity_limit(capacity);
        self.log_changes = true;
    }

    /// Stops recording structural changes; entries already logged stay readable.
    pub fn disable_change_log(&mut self) {
        self.log_changes = false;
    }

    /// The structural change log: read it with a cursor (`consume`), trim it (`trim_to`).
    pub fn change_log(&self) -> &EventChannel<StructuralChange<T::Mask>> {
        &self.change_log
    }

    /// The structural change log, mutably (to trim or clear it).
    pub fn change_log_mut(&mut self) -> &mut EventChannel<StructuralChange<T::Mask>> {
        &mut self.change_log
    }

    #[inline]
    fn record(&mut self, change: StructuralChange<T::Mask>) {
        if !self.log_changes {
            return;
        }
        let no_op = matches!(
            change,
            StructuralChange::Added { mask, .. } | StructuralChange::Removed { mask, .. }
                if mask.is_empty()
        );
        if !no_op {
            self.change_log.send(change);
        }
    }

    // ----- invariants -----------------------------------------------------------------------

    /// Checks every structural invariant; the first violation found is returned.
    ///
    /// Columns are aligned with their table's entity column; every live entity's location
    /// points at a row holding it; every row holds a live entity located there; table masks
    /// are unique and indexed; edges lead to tables of the right mask; every cached query
    /// lists exactly the matching tables; tag sets hold only live entities.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let fail = |message: String| Err(InvariantError { message });
        let mut rows = 0;
        for (table_index, table) in self.tables.iter().enumerate() {
            let mask = table.mask();
            if mask & !T::COMPONENTS != T::Mask::EMPTY {
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
        for (index, set) in self.tags.iter().enumerate() {
            if let Some(dead) = set.iter().find(|&entity| !self.is_alive(entity)) {
                return fail(format!("tag set {index} holds {dead}, which is not alive"));
            }
        }
        if rows != self.allocator.len() {
            return fail(format!(
                "{rows} rows for {} live entities",
                self.allocator.len()
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

/// How many chunks per rayon thread `par_for_each_mut` aims for, so uneven work still balances.
#[cfg(feature = "parallel")]
const CHUNKS_PER_THREAD: usize = 4;

/// Frees freshly allocated handles if dropped: armed while a spawn pushes their rows, and
/// forgotten once it has.
struct FreeOnUnwind<'a> {
    allocator: &'a mut EntityAllocator,
    entities: &'a [Entity],
}

impl Drop for FreeOnUnwind<'_> {
    fn drop(&mut self) {
        for &entity in self.entities {
            self.allocator.free(entity);
        }
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

impl std::error::Error for InvariantError {}

/// Two distinct elements of a slice, mutably.
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

/// The matching tables of a query, from the storage's fields (so the caller can keep using its
/// other fields, such as the tag sets, while it walks them).
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

/// The cached indices of the tables holding every component of `include` (filling the cache
/// on a miss), from the storage's fields.
fn matching_indices<'a, T: Archetype>(
    tables: &[T],
    queries: &'a mut QueryCache<T::Mask>,
    include: T::Mask,
) -> &'a [usize] {
    queries.get_or_insert(include & !T::TAGS, tables.iter().map(Archetype::mask))
}

/// Calls `f(entity, view, row)` for every row of a table view that `keep` accepts.
#[inline]
fn visit_rows<V>(
    entities: &[Entity],
    view: &mut V,
    f: &mut impl FnMut(Entity, &mut V, usize),
    keep: impl Fn(usize, Entity) -> bool,
) {
    for (row, &entity) in entities.iter().enumerate() {
        if keep(row, entity) {
            f(entity, view, row);
        }
    }
}

/// The index in `Storage::tags` of tag bit `bit`.
fn tag_index<T: Archetype>(bit: u32) -> usize {
    bit as usize - T::COMPONENT_COUNT
}

/// The tag half of a query: the tags an entity must have and those it must not.
struct TagFilter<T: Archetype> {
    include: T::Mask,
    exclude: T::Mask,
}

impl<T: Archetype> Clone for TagFilter<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Archetype> Copy for TagFilter<T> {}

impl<T: Archetype> TagFilter<T> {
    fn new(include: T::Mask, exclude: T::Mask) -> Self {
        TagFilter {
            include: include & T::TAGS,
            exclude: exclude & T::TAGS,
        }
    }

    fn is_empty(self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    #[inline]
    fn matches(self, tags: &[TagSet], entity: Entity) -> bool {
        self.include
            .bits()
            .all(|bit| tags[tag_index::<T>(bit)].contains(entity))
            && !self
                .exclude
                .bits()
                .any(|bit| tags[tag_index::<T>(bit)].contains(entity))
    }
}

/// Iterator over the tables matching a query; see [`Storage::matching_tables`].
pub struct MatchingTables<'a, T: Archetype> {
    tables: &'a [T],
    cached: Option<core::slice::Iter<'a, usize>>,
    next_scan: usize,
    include: T::Mask,
    exclude: T::Mask,
}

impl<'a, T: Archetype> Iterator for MatchingTables<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        loop {
            let table = match &mut self.cached {
                Some(indices) => &self.tables[*indices.next()?],
                None => {
                    let table = self.tables.get(self.next_scan)?;
                    self.next_scan += 1;
                    if !table.mask().contains(self.include) {
                        continue;
                    }
                    table
                }
            };
            if !table.is_empty() && !table.mask().intersects(self.exclude) {
                return Some(table);
            }
        }
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
    use test_world::*;

    mod test_world {
        #![allow(dead_code)]
        crate::ecs! {
            TestWorld {
                number: u32 => NUMBER,
                name: String => NAME,
                flag: bool => FLAG,
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
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
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
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
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
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
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
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
        let first = storage.spawn(NUMBER);
        let second = storage.spawn(NUMBER);
        storage.check_invariants().unwrap();
        storage
            .allocator
            .set_location(first.id, EntityLocation::new(0, 1));
        storage
            .allocator
            .set_location(second.id, EntityLocation::new(0, 0));
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("located elsewhere"), "{error}");
    }

    #[test]
    fn invariant_checker_reports_a_misaligned_column() {
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
        storage.spawn(NUMBER);
        storage.tables[0].number.push(1);
        let error = storage.check_invariants().unwrap_err();
        assert!(error.message.contains("wrong length"), "{error}");
    }

    #[test]
    fn change_detection_works_across_the_tick_wrap_around() {
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
        storage.tick = Tick(u32::MAX - 1);
        storage.last_tick = Tick(u32::MAX - 2);
        let entities = storage.spawn_batch(NUMBER, 3, |_, _| {});
        let changed = |storage: &Storage<TestWorldComponentArrays>| {
            storage
                .query_entities_changed_since(NUMBER, storage.last_tick())
                .collect::<Vec<_>>()
        };
        assert_eq!(changed(&storage), entities, "spawned at u32::MAX - 1");
        storage.end_frame();
        storage.end_frame();
        assert_eq!(storage.current_tick(), Tick(0), "wrapped");
        assert!(changed(&storage).is_empty());
        *storage
            .get_mut(entities[1], NUMBER, |t| &mut t.number[..])
            .unwrap() = 5;
        assert_eq!(
            changed(&storage),
            vec![entities[1]],
            "a stamp at tick 0 is newer than u32::MAX"
        );
        storage.end_frame();
        assert!(changed(&storage).is_empty());
        storage.check_invariants().unwrap();
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn parallel_iteration_visits_every_row_once_with_view_relative_indices() {
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
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
