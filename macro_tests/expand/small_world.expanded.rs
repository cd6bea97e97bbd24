//! Snapshot of the code `ecs!` generates for a small world: every change to the generated
//! code shows up in `small_world.expanded.rs` in review.
///The mask type of `World`: `u64` for up to 63 components, tags and relations, `u128` up to 127.
pub type WorldMask = <WorldComponentArrays as ::archetypal::Archetype>::Mask;
///Mask bit of the `position` component.
pub const POSITION: WorldMask = WorldComponentArrays::POSITION;
///Mask bit of the `velocity` component.
pub const VELOCITY: WorldMask = WorldComponentArrays::VELOCITY;
///Mask bit of the `health` component.
pub const HEALTH: WorldMask = WorldComponentArrays::HEALTH;
///Mask bit of the `player` tag.
pub const PLAYER: WorldMask = WorldComponentArrays::PLAYER;
///The `player` tag as a type, for a system's query filters: `With<PLAYER>`, `Without<PLAYER>` (a braced struct lives beside the constant, in the type namespace).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub struct PLAYER {}
///Mask bit of the `child_of` relation: carried by every entity linked to a target by `set_child_of` (set and cleared only by linking), usable in every include / exclude mask (`CHILD_OF` excluded: the roots).
pub const CHILD_OF: WorldMask = WorldComponentArrays::CHILD_OF;
///The `child_of` relation as a type, for a system's queries: `With<CHILD_OF>` (linked entities), `query.target::<CHILD_OF, _>(entity)`.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub struct CHILD_OF {}
///One archetype of `World`: a row per entity whose components are exactly `mask`, one `Vec` per component (struct of arrays). Columns whose bit is not in `mask` stay empty.
pub struct WorldComponentArrays {
    /// The components this table holds.
    pub mask: WorldMask,
    /// The entity of every row.
    pub entities: ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>,
    ///The `position` column: a value per row when `mask` holds `POSITION`, else empty.
    pub position: ::archetypal::__private::alloc::vec::Vec<(f32, f32)>,
    ///The `velocity` column: a value per row when `mask` holds `VELOCITY`, else empty.
    pub velocity: ::archetypal::__private::alloc::vec::Vec<(f32, f32)>,
    ///The `health` column: a value per row when `mask` holds `HEALTH`, else empty.
    pub health: ::archetypal::__private::alloc::vec::Vec<u32>,
}
///What an entity of `World` lost, as its removal hooks read it: the components and tags that went (`mask`: everything it had, for a despawn), and the value of each component whose value was kept aside for the hooks (those some `on_remove` names, or all of them with `on_despawn`; `None` for the others, and for a value `remove_*` handed its caller).
pub struct WorldRemoved {
    /// The components and tags that went.
    pub mask: WorldMask,
    ///The `position` value that went, if kept aside for the hooks.
    pub position: ::core::option::Option<(f32, f32)>,
    ///The `velocity` value that went, if kept aside for the hooks.
    pub velocity: ::core::option::Option<(f32, f32)>,
    ///The `health` value that went, if kept aside for the hooks.
    pub health: ::core::option::Option<u32>,
}
///A `World` table seen through slices: values can change, the number of rows cannot.
pub struct WorldComponentArraysMut<'a> {
    /// The components this table holds.
    pub mask: WorldMask,
    /// The entity of every row.
    pub entities: &'a [::archetypal::Entity],
    ///The `position` column: a value per row when `mask` holds `POSITION`, else empty.
    pub position: &'a mut [(f32, f32)],
    ///The `velocity` column: a value per row when `mask` holds `VELOCITY`, else empty.
    pub velocity: &'a mut [(f32, f32)],
    ///The `health` column: a value per row when `mask` holds `HEALTH`, else empty.
    pub health: &'a mut [u32],
}
///The component part of a `World`: entities, their archetype tables (`WorldComponentArrays`), tags, the edge graph, the query cache and change ticks. It has the per-component methods (`get_*`, `set_*`, ...) and dereferences to its `archetypal::Storage` for the others (`is_alive`, `for_each_mut`, `typed_query`, ...). A `World` dereferences to it, and `World::split_mut` lends it beside the world's other parts.
pub struct WorldComponents {
    storage: ::archetypal::__private::IndexedStorage<WorldComponentArrays>,
}
///A structural change queued on a `World`, applied in order by `apply_commands`.
pub enum WorldCommand {
    /// A queued spawn or despawn.
    Lifecycle(::archetypal::LifecycleCommand<WorldMask>),
    /// A queued change of components, tags or links.
    Structural(::archetypal::StructuralCommand<WorldMask>),
    ///Set (adding if missing) the `position` component.
    SetPosition(::archetypal::Entity, (f32, f32)),
    ///Set (adding if missing) the `velocity` component.
    SetVelocity(::archetypal::Entity, (f32, f32)),
    ///Set (adding if missing) the `health` component.
    SetHealth(::archetypal::Entity, u32),
}
///The command queue of a `World`, from `world.commands()` or `world.split_mut().commands` (usable while the components are borrowed, in the middle of an iteration): every `queue_*` method. The world's `apply_commands()` applies what it queued.
pub struct WorldCommands<'a> {
    queue: ::archetypal::CommandQueue<'a, WorldCommand>,
}
///The singletons of `World`, declared in its `Resources` block.
pub struct WorldResources {
    ///The `delta_time` resource.
    pub delta_time: f32,
}
#[automatically_derived]
impl ::core::default::Default for WorldResources {
    #[inline]
    fn default() -> WorldResources {
        WorldResources {
            delta_time: ::core::default::Default::default(),
        }
    }
}
///The event channels of `World`, declared in its `Events` block.
pub struct WorldEvents {
    ///The `landed` channel.
    pub landed: ::archetypal::EventChannel<(f32, f32)>,
}
#[automatically_derived]
impl ::core::default::Default for WorldEvents {
    #[inline]
    fn default() -> WorldEvents {
        WorldEvents {
            landed: ::core::default::Default::default(),
        }
    }
}
///One reader's position in each event channel of `World`: a system's own cursors, kept by its `archetypal::SystemContext` (`context.cursors.<event>`).
pub struct WorldEventCursors {
    ///The cursor in the `landed` channel.
    pub landed: ::archetypal::EventCursor,
}
#[automatically_derived]
impl ::core::default::Default for WorldEventCursors {
    #[inline]
    fn default() -> WorldEventCursors {
        WorldEventCursors {
            landed: ::core::default::Default::default(),
        }
    }
}
///The world generated by `ecs!`: its components (`WorldComponents`: entities, archetype tables, caches and every component-level method, reached through `Deref`), the `resources`, the `events` and the command queue (`commands()`). `split_mut()` borrows the parts apart, for systems that iterate the components while they send events, queue commands or update resources.
pub struct World {
    /// The singletons declared in the `Resources` block.
    pub resources: WorldResources,
    /// The event channels declared in the `Events` block.
    pub events: WorldEvents,
    components: WorldComponents,
    queue: ::archetypal::CommandBuffer<WorldCommand>,
    /// What every system remembers (its last run, event cursors, locals).
    systems: ::archetypal::SystemMemories,
}
///A `World` borrowed apart by `split_mut()`: each field can be used while the others are borrowed, so a system iterating `components` can queue `commands`, send `events` and update `resources` in the same loop.
pub struct WorldParts<'a> {
    /// Every component-level method: get, set, queries, iteration, tags, spawn, despawn.
    pub components: &'a mut WorldComponents,
    /// The singletons declared in the `Resources` block.
    pub resources: &'a mut WorldResources,
    /// The event channels declared in the `Events` block (`events.hit.send(..)`).
    pub events: &'a mut WorldEvents,
    /// The world's command queue: every `queue_*` method, applied by the world's
    /// `apply_commands()`.
    pub commands: WorldCommands<'a>,
}
///Spawns `World` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn_one(&mut world)`. `with_*` keeps the builder's type, so it can be grown conditionally (`if let Some(v) = v { builder = builder.with_velocity(v); }`).
pub struct WorldEntityBuilder {
    mask: WorldMask,
    links: ::archetypal::__private::Links<
        WorldMask,
        {
            <WorldComponentArrays as ::archetypal::Archetype>::RELATIONS.count_ones()
                as usize
        },
    >,
    position: ::core::option::Option<(f32, f32)>,
    velocity: ::core::option::Option<(f32, f32)>,
    health: ::core::option::Option<u32>,
}
///The written side of `split_tables`: `for_each_mut(|entity, table, row| ..)` over its entities.
pub type WorldTablesMut<'a> = ::archetypal::TablesMut<'a, WorldComponentArrays>;
///The read side of `split_tables`: the components of its entities, by handle, while the written side is iterated.
pub struct WorldTables<'a> {
    tables: ::archetypal::TablesRef<'a, WorldComponentArrays>,
}
///Every `World` entity's components by handle, read and written in place (no spawn, despawn or migration): lent by `split_<relation>()` beside the relation's links. Writes are stamped for change detection.
pub struct WorldRowsMut<'a> {
    rows: ::archetypal::RowsMut<'a, WorldComponentArrays>,
}
///A system's query over `World`'s components: `WorldQuery<(&mut Position, &Velocity), Without<FROZEN>>` (see `archetypal::Query`); `Query` for short.
pub type WorldQuery<'w, Q, F = ()> = ::archetypal::Query<'w, WorldComponentArrays, Q, F>;
#[doc(hidden)]
#[allow(dead_code)]
pub mod __world_short_names {
    ///Short name of `WorldComponentArrays`.
    pub type ComponentArrays = super::WorldComponentArrays;
    ///Short name of `WorldCommand`.
    pub type Command = super::WorldCommand;
    ///Short name of `WorldMask`.
    pub type Mask = super::WorldMask;
    ///Short name of `WorldResources`.
    pub type Resources = super::WorldResources;
    ///Short name of `WorldEvents`.
    pub type Events = super::WorldEvents;
    ///Short name of `WorldComponents`.
    pub type Components = super::WorldComponents;
    ///Short name of `WorldQuery`, a system's query over `World`'s components.
    pub type Query<'w, Q, F = ()> = super::WorldQuery<'w, Q, F>;
    ///Short name of `WorldComponentArraysMut`.
    pub type ComponentArraysMut<'a> = super::WorldComponentArraysMut<'a>;
    ///Short name of `WorldCommands`, its command queue.
    pub type Commands<'a> = super::WorldCommands<'a>;
    ///Number of components `World` declares.
    pub const COMPONENT_COUNT: usize = super::World::COMPONENT_COUNT;
    ///Short name of `WorldParts`, what `split_mut()` returns.
    pub type WorldParts<'a> = super::WorldParts<'a>;
    ///Short name of `WorldEntityBuilder`.
    pub type EntityBuilder = super::WorldEntityBuilder;
}
#[allow(unused_imports, ambiguous_glob_reexports)]
pub use __world_short_names::*;
impl WorldComponents {
    /// The entity index: the recycling stack and the handles reserved for queued
    /// spawns (`entity_index().id_count(records())` and the like, for inspection).
    #[doc(hidden)]
    #[inline]
    pub fn entity_index(&self) -> &::archetypal::EntityIndex {
        &self.storage.index
    }
    /// Spawns an entity with the components of `mask`, default-initialised, and the
    /// tags of `mask`: O(the components of `mask`), amortised (a hash lookup finds
    /// the table; the first spawn of a new combination creates it).
    #[inline]
    pub fn spawn(&mut self, mask: WorldMask) -> ::archetypal::Entity {
        ::archetypal::__private::lifecycle::spawn(&mut self.storage, mask)
    }
    /// Spawns `count` entities with the components of `mask`, reserving once:
    /// O(`count` × the components of `mask`).
    #[inline]
    pub fn spawn_entities(
        &mut self,
        mask: WorldMask,
        count: usize,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::lifecycle::spawn_entities(
            &mut self.storage,
            mask,
            count,
        )
    }
    /// Spawns `count` entities with the components of `mask`, then calls
    /// `init(table, index)` for each new row (`table.position[index] = ...`):
    /// O(`count` × the components of `mask`), plus `init`.
    #[inline]
    pub fn spawn_batch<F>(
        &mut self,
        mask: WorldMask,
        count: usize,
        init: F,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>
    where
        F: ::core::ops::FnMut(&mut WorldComponentArraysMut<'_>, usize),
    {
        ::archetypal::__private::lifecycle::spawn_batch(
            &mut self.storage,
            mask,
            count,
            init,
        )
    }
    /// Spawns one entity per tuple of component values `values` yields
    /// (`world.spawn_values((0..n).map(|i| (Position { x: i as f32, y: 0.0 }, Velocity::default())))`),
    /// each value moved into its column once, reserving once from the size hint:
    /// O(entities × the tuple's components). Returns the handles in the order of the
    /// values. An iterator that panics spawns nothing (the values it yielded are
    /// dropped). For a mask chosen at run time or tags, see `spawn_batch`.
    ///
    /// # Panics
    /// If the tuple names a component twice, before anything changes.
    #[inline]
    pub fn spawn_values<V, M>(
        &mut self,
        values: impl ::core::iter::IntoIterator<Item = V>,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>
    where
        V: ::archetypal::ComponentValues<WorldComponentArrays, M>,
    {
        ::archetypal::__private::lifecycle::spawn_values(&mut self.storage, values)
    }
    /// Despawns `entity`, dropping its components: the last row of its table moves
    /// into its place (no other entity's handle changes), O(its components). Its
    /// relations apply their policies: the sources of a `[cascade]` relation are
    /// despawned too (recursively), those of the others unlinked. `false`, and
    /// nothing changes, for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn despawn(&mut self, entity: ::archetypal::Entity) -> bool {
        ::archetypal::__private::lifecycle::despawn(&mut self.storage, entity)
    }
    /// Despawns every live entity of `entities`, as `despawn` each; returns those
    /// actually despawned (dead, stale, never-issued and repeated handles are skipped).
    #[inline]
    pub fn despawn_entities(
        &mut self,
        entities: &[::archetypal::Entity],
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::lifecycle::despawn_entities(&mut self.storage, entities)
    }
    ///The `position` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `position`.
    #[inline]
    pub fn get_position(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&(f32, f32)> {
        self.storage.get(entity, POSITION, Self::__ref_position)
    }
    ///The `position` of `entity`, mutably, in O(1) (stamped as changed); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `position`.
    #[inline]
    pub fn get_position_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut (f32, f32)> {
        self.storage.get_mut(entity, POSITION, Self::__mut_position)
    }
    ///The `position` of each of `entities` at once, mutably (collision response between two ships), after the standard library's `get_disjoint_mut`, in O(1) per handle (O(N²) comparisons for the repeats); `None` if a handle is dead, stale or never issued, lacks a `position`, or is repeated. Each is stamped as changed.
    #[inline]
    pub fn get_disjoint_position_mut<const __N: usize>(
        &mut self,
        entities: [::archetypal::Entity; __N],
    ) -> ::core::option::Option<[&mut (f32, f32); __N]> {
        self.storage.get_disjoint_mut(entities, POSITION, Self::__mut_position)
    }
    ///Writes the `position` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `position`: O(the entity's components)), with what the world's `Rules` add or remove in it. `false`, and nothing written, for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn set_position(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) -> bool {
        self.storage.set(entity, POSITION, value, Self::__mut_position)
    }
    ///Adds a default `position` to `entity`: one migration (the row moves to the table with `position`: O(the entity's components)), with what the world's `Rules` add or remove in it; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn add_position(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_components(entity, POSITION)
    }
    ///Removes the `position` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components)), with the components the world's `Rules` remove with it. `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `position`, or a removal the rules refuse.
    #[inline]
    pub fn remove_position(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<(f32, f32)> {
        self.storage.take(entity, POSITION, Self::__mut_position)
    }
    ///Whether `entity` is alive and has a `position`, in O(1); `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_position(&self, entity: ::archetypal::Entity) -> bool {
        self.storage.has_components(entity, POSITION)
    }
    ///The `velocity` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `velocity`.
    #[inline]
    pub fn get_velocity(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&(f32, f32)> {
        self.storage.get(entity, VELOCITY, Self::__ref_velocity)
    }
    ///The `velocity` of `entity`, mutably, in O(1) (stamped as changed); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `velocity`.
    #[inline]
    pub fn get_velocity_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut (f32, f32)> {
        self.storage.get_mut(entity, VELOCITY, Self::__mut_velocity)
    }
    ///The `velocity` of each of `entities` at once, mutably (collision response between two ships), after the standard library's `get_disjoint_mut`, in O(1) per handle (O(N²) comparisons for the repeats); `None` if a handle is dead, stale or never issued, lacks a `velocity`, or is repeated. Each is stamped as changed.
    #[inline]
    pub fn get_disjoint_velocity_mut<const __N: usize>(
        &mut self,
        entities: [::archetypal::Entity; __N],
    ) -> ::core::option::Option<[&mut (f32, f32); __N]> {
        self.storage.get_disjoint_mut(entities, VELOCITY, Self::__mut_velocity)
    }
    ///Writes the `velocity` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `velocity`: O(the entity's components)), with what the world's `Rules` add or remove in it. `false`, and nothing written, for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn set_velocity(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) -> bool {
        self.storage.set(entity, VELOCITY, value, Self::__mut_velocity)
    }
    ///Adds a default `velocity` to `entity`: one migration (the row moves to the table with `velocity`: O(the entity's components)), with what the world's `Rules` add or remove in it; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn add_velocity(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_components(entity, VELOCITY)
    }
    ///Removes the `velocity` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components)), with the components the world's `Rules` remove with it. `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `velocity`, or a removal the rules refuse.
    #[inline]
    pub fn remove_velocity(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<(f32, f32)> {
        self.storage.take(entity, VELOCITY, Self::__mut_velocity)
    }
    ///Whether `entity` is alive and has a `velocity`, in O(1); `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_velocity(&self, entity: ::archetypal::Entity) -> bool {
        self.storage.has_components(entity, VELOCITY)
    }
    ///The `health` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `health`.
    #[inline]
    pub fn get_health(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&u32> {
        self.storage.get(entity, HEALTH, Self::__ref_health)
    }
    ///The `health` of `entity`, mutably, in O(1) (stamped as changed); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `health`.
    #[inline]
    pub fn get_health_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut u32> {
        self.storage.get_mut(entity, HEALTH, Self::__mut_health)
    }
    ///The `health` of each of `entities` at once, mutably (collision response between two ships), after the standard library's `get_disjoint_mut`, in O(1) per handle (O(N²) comparisons for the repeats); `None` if a handle is dead, stale or never issued, lacks a `health`, or is repeated. Each is stamped as changed.
    #[inline]
    pub fn get_disjoint_health_mut<const __N: usize>(
        &mut self,
        entities: [::archetypal::Entity; __N],
    ) -> ::core::option::Option<[&mut u32; __N]> {
        self.storage.get_disjoint_mut(entities, HEALTH, Self::__mut_health)
    }
    ///Writes the `health` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `health`: O(the entity's components)), with what the world's `Rules` add or remove in it. `false`, and nothing written, for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn set_health(&mut self, entity: ::archetypal::Entity, value: u32) -> bool {
        self.storage.set(entity, HEALTH, value, Self::__mut_health)
    }
    ///Adds a default `health` to `entity`: one migration (the row moves to the table with `health`: O(the entity's components)), with what the world's `Rules` add or remove in it; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn add_health(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_components(entity, HEALTH)
    }
    ///Removes the `health` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components)), with the components the world's `Rules` remove with it. `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `health`, or a removal the rules refuse.
    #[inline]
    pub fn remove_health(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<u32> {
        self.storage.take(entity, HEALTH, Self::__mut_health)
    }
    ///Whether `entity` is alive and has a `health`, in O(1); `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_health(&self, entity: ::archetypal::Entity) -> bool {
        self.storage.has_components(entity, HEALTH)
    }
    ///Tags `entity` as `player`: no migration (tags create no tables); the row moves to its tag group inside its table, at most one row swap per tag group of that table. Already tagged: nothing moves. `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn add_player(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_tags(entity, PLAYER)
    }
    ///Removes the `player` tag from `entity`: no migration, as for `add_player`. Not tagged: nothing moves, still `true`. `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn remove_player(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.remove_tags(entity, PLAYER)
    }
    ///Whether `entity` is alive and tagged `player`, in O(log(tag groups of its table)) (a binary search for its row's tag group); `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_player(&self, entity: ::archetypal::Entity) -> bool {
        self.storage.has_components(entity, PLAYER)
    }
    ///Links `source` to `target` in the `child_of` relation, replacing and returning its previous target. No migration: `source` gets the `CHILD_OF` bit like a tag (its row moves to its tag group inside its table). Cost: O(1) for a `source` with no sources of its own (a leaf: no cycle possible), else O(depth of `target`) for the cycle check; replacing a target also removes `source` from the old target's list (O(its length)). An error changes nothing: a dead, stale, never-issued or reserved handle, `source == target`, or a `target` below `source` (a cycle).
    #[inline]
    pub fn set_child_of(
        &mut self,
        source: ::archetypal::Entity,
        target: ::archetypal::Entity,
    ) -> ::core::result::Result<
        ::core::option::Option<::archetypal::Entity>,
        ::archetypal::RelationError,
    > {
        self.storage.link(CHILD_OF, source, target)
    }
    ///Unlinks `source` from its `child_of` target and returns it (no migration); O(the target's sources), which keep their order. `None`, and nothing changes, for a dead, stale (id reused) or never-issued handle or an unlinked `source`.
    #[inline]
    pub fn remove_child_of(
        &mut self,
        source: ::archetypal::Entity,
    ) -> ::core::option::Option<::archetypal::Entity> {
        self.storage.unlink(CHILD_OF, source)
    }
    ///The `child_of` target of `source`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an unlinked `source`.
    #[inline]
    pub fn get_child_of(
        &self,
        source: ::archetypal::Entity,
    ) -> ::core::option::Option<::archetypal::Entity> {
        self.storage.related_target(CHILD_OF, source)
    }
    ///The entities whose `child_of` target is `target` (its `children`), in the order they were linked, in O(1); empty for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn get_children(&self, target: ::archetypal::Entity) -> &[::archetypal::Entity] {
        self.storage.related_sources(CHILD_OF, target)
    }
    ///The `child_of` ancestors of `entity`, nearest first, `entity` excluded: O(1) per step, lazily; none for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn ancestors_child_of(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::archetypal::relation::Ancestors<'_> {
        self.storage.ancestors(CHILD_OF, entity)
    }
    ///The `child_of` descendants of `entity`, depth first in pre-order, each level in `get_children` order, `entity` excluded: O(1) per entity, lazily; none for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn descendants_child_of(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::archetypal::relation::Descendants<'_> {
        self.storage.descendants(CHILD_OF, entity)
    }
    ///The `child_of` links, read-only (`roots()`, `descendants(e)`, `target(e)`, `sources(e)`), beside every entity's components by handle, mutably: a walk down the hierarchy writes each entity while it reads its parent (transform propagation), with no list collected first. O(1) to lend; the rows are read by handle in O(1) each.
    #[inline]
    pub fn split_child_of(
        &mut self,
    ) -> (&::archetypal::RelationStore, WorldRowsMut<'_>) {
        let (links, rows) = self.storage.split_relation(CHILD_OF);
        (links, WorldRowsMut { rows })
    }
}
impl WorldCommands<'_> {
    ///Queues setting the `position` of `entity` (O(1)); applied as `set_position` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_set_position(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) {
        self.queue.push(WorldCommand::SetPosition(entity, value));
    }
    ///Queues setting the `velocity` of `entity` (O(1)); applied as `set_velocity` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_set_velocity(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) {
        self.queue.push(WorldCommand::SetVelocity(entity, value));
    }
    ///Queues setting the `health` of `entity` (O(1)); applied as `set_health` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_set_health(&mut self, entity: ::archetypal::Entity, value: u32) {
        self.queue.push(WorldCommand::SetHealth(entity, value));
    }
    ///Queues tagging `entity` as `player` (O(1)), applied in order by `apply_commands`; skipped and counted there if `entity` is dead by then.
    #[inline]
    pub fn queue_add_player(&mut self, entity: ::archetypal::Entity) {
        self.queue.queue_add_components(entity, PLAYER);
    }
    ///Queues removing the `player` tag from `entity` (O(1)), applied in order by `apply_commands`; skipped and counted there if `entity` is dead by then.
    #[inline]
    pub fn queue_remove_player(&mut self, entity: ::archetypal::Entity) {
        self.queue.queue_remove_components(entity, PLAYER);
    }
    ///Queues `set_child_of(source, target)`, applied in order by `apply_commands` (handles from `queue_spawn_entities` work); O(1) to queue; skipped and counted if a handle died (or was never alive) or the link became a cycle.
    #[inline]
    pub fn queue_set_child_of(
        &mut self,
        source: ::archetypal::Entity,
        target: ::archetypal::Entity,
    ) {
        self.queue.queue_link(CHILD_OF, source, target);
    }
    ///Queues `remove_child_of(source)`, applied in order by `apply_commands`; O(1) to queue; skipped and counted if `source` died (or was never alive).
    #[inline]
    pub fn queue_remove_child_of(&mut self, source: ::archetypal::Entity) {
        self.queue.queue_unlink(CHILD_OF, source);
    }
}
impl WorldEvents {
    /// Ages every channel by a frame: events older than two frames expire.
    /// O(event types) plus the events dropped.
    #[inline]
    #[allow(unused_doc_comments)]
    pub fn update(&mut self) {
        self.landed.update();
    }
}
impl World {
    ///Number of components `World` declares.
    pub const COMPONENT_COUNT: usize = <WorldComponentArrays as ::archetypal::Archetype>::COMPONENT_COUNT;
    /// An empty world with default resources.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Ends a frame: the tick advances and events older than two frames expire.
    /// O(event types) plus the events dropped; once every 2^29 ticks, every
    /// change stamp is clamped so none wraps around (O(tracked rows), once).
    #[inline]
    pub fn step(&mut self) {
        ::archetypal::__private::lifecycle::end_frame(&mut self.components.storage);
        self.events.update();
    }
    /// The command queue: every `queue_*` method, applied in order by
    /// `apply_commands()`. To queue from inside an iteration over the components,
    /// take `split_mut().commands` instead.
    #[inline]
    pub fn commands(&mut self) -> WorldCommands<'_> {
        let queue = ::archetypal::__private::lifecycle::command_queue(
            &mut self.components.storage,
            &mut self.queue,
        );
        WorldCommands { queue }
    }
    /// Borrows the world apart: `components`, `resources`, `events` and
    /// `commands`, each usable while the others are borrowed (inside an iteration
    /// over `components`, a system queues commands, sends events and updates
    /// resources). Queued commands wait for `apply_commands()`.
    #[inline]
    pub fn split_mut(&mut self) -> WorldParts<'_> {
        let queue = ::archetypal::__private::lifecycle::lent_queue(
            &mut self.components.storage,
            &mut self.queue,
        );
        WorldParts {
            components: &mut self.components,
            resources: &mut self.resources,
            events: &mut self.events,
            commands: WorldCommands { queue },
        }
    }
    /// Applies every queued command in the order queued and empties the queue: each
    /// costs what its direct call does (a component added or removed is one
    /// migration, a tag none). A command whose entity is no longer alive (or
    /// never was) is skipped; the report counts both.
    /// If one panics (a component's `Default` or `Drop`), the commands before it
    /// are applied and the ones after it stay queued. This is the world's sync
    /// point: with a `Hooks` block, the hooks of every change since the last one run
    /// here too.
    #[inline]
    pub fn apply_commands(&mut self) -> ::archetypal::CommandReport {
        ::archetypal::__private::hooks::apply_queued_with_hooks(
            self,
            |world| &mut world.queue,
            WorldCommand::apply,
            Self::run_hooks,
        )
    }
    /// Number of queued commands.
    #[inline]
    pub fn command_count(&self) -> usize {
        self.queue.len()
    }
    /// The queued commands, in order (the buffer dereferences to them), and the
    /// queued spawns waiting with values (`spawns()`).
    #[inline]
    pub fn queued_commands(&self) -> &::archetypal::CommandBuffer<WorldCommand> {
        &self.queue
    }
    /// Drops every queued command without applying it; handles reserved by a queued
    /// spawn are given back (in ascending id order, as a clone or a snapshot gives
    /// them back) and never become alive.
    #[inline]
    pub fn clear_commands(&mut self) {
        ::archetypal::__private::lifecycle::release_all_reserved(
            &mut self.components.storage,
        );
        self.queue.clear();
    }
    ///Makes this world equal to `earlier`, a clone taken before (the rollback of a rollback netcode, the reset of an editor's play mode), reusing this world's allocations: `clone_from`. Callable when the world is `Clone` (every component, resource and event type is). Queued commands are dropped. O(the whole world): every value of `earlier` is cloned.
    #[inline]
    pub fn restore(&mut self, earlier: &Self)
    where
        for<'x> Self: ::core::clone::Clone,
    {
        ::core::clone::Clone::clone_from(self, earlier);
    }
    /// Feature `serde`. The world, borrowed for saving in any serde format
    /// (`serde_json::to_string(&world.snapshot())`): every entity (handles stay valid,
    /// the next spawn gets the same id), component, tag and resource, the ticks, where
    /// numbering stands, the `[saved]` channels' events, what systems remember (not their
    /// locals); no queued command (`archetypal::snapshot`); `.checksum()`: its stable hash.
    /// Callable when every type is `Serialize`. O(1); serializing is O(the whole world).
    #[inline]
    pub fn snapshot(&self) -> ::archetypal::Snapshot<'_, Self>
    where
        for<'x> Self: ::archetypal::snapshot::SerializeWorld,
    {
        ::archetypal::Snapshot::new(self)
    }
    /// Feature `serde`. The world a decoded snapshot describes (`serde_json::from_str::<
    /// SnapshotData<World>>(&text)`), all of it checked: the whole world or an error
    /// saying what is wrong, never a panic or a half-loaded world; O(the whole world).
    /// The world is also `Deserialize`.
    #[inline]
    pub fn from_snapshot(
        snapshot: ::archetypal::SnapshotData<Self>,
    ) -> ::core::result::Result<Self, ::archetypal::SnapshotError> {
        snapshot.into_world()
    }
}
impl WorldEntityBuilder {
    /// A builder with no components.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// The components and tags the builder gives.
    #[inline]
    pub fn mask(&self) -> WorldMask {
        self.mask
    }
    /// Spawns one entity, moving the builder's values into it (no `Clone` needed):
    /// O(the world's components).
    #[inline]
    pub fn spawn_one(self, world: &mut WorldComponents) -> ::archetypal::Entity {
        ::archetypal::__private::lifecycle::spawn_one(&mut world.storage, self)
    }
    /// Spawns `count` entities with the builder's components, each given a clone
    /// of the values (the last one takes them): reserving once, O(`count` × the
    /// world's components).
    ///
    /// # Panics
    /// Before spawning anything, if `count > 1` and the builder holds a value whose
    /// type is not `Clone` (the message names the component); spawn such entities
    /// one at a time with [`spawn_one`](Self::spawn_one). Components of the world
    /// the builder does not hold need not be `Clone`.
    #[inline]
    pub fn spawn(
        self,
        world: &mut WorldComponents,
        count: usize,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::lifecycle::spawn_built(&mut world.storage, count, self)
    }
    ///Gives the entities a `position` of `value` (a later `with_position` replaces it).
    #[inline]
    pub fn with_position(mut self, value: (f32, f32)) -> Self {
        self.position = ::core::option::Option::Some(value);
        self.mask |= POSITION;
        self
    }
    ///Gives the entities a `velocity` of `value` (a later `with_velocity` replaces it).
    #[inline]
    pub fn with_velocity(mut self, value: (f32, f32)) -> Self {
        self.velocity = ::core::option::Option::Some(value);
        self.mask |= VELOCITY;
        self
    }
    ///Gives the entities a `health` of `value` (a later `with_health` replaces it).
    #[inline]
    pub fn with_health(mut self, value: u32) -> Self {
        self.health = ::core::option::Option::Some(value);
        self.mask |= HEALTH;
        self
    }
    ///Links the entities to `target` in the `child_of` relation as they spawn (a later `with_child_of` replaces it). A target not alive then (despawned, or a queued spawn not applied yet) leaves them unlinked.
    #[inline]
    pub fn with_child_of(mut self, target: ::archetypal::Entity) -> Self {
        self.links.set(CHILD_OF, target);
        self
    }
    ///Also gives the entities the tags of `mask` (a `World` mask), and its components that the builder holds no value for, default-initialised (relation bits are ignored: links come from linking only).
    #[inline]
    pub fn with_mask(mut self, mask: WorldMask) -> Self {
        self.mask |= mask;
        self
    }
}
impl<'a> WorldTables<'a> {
    /// Whether `entity` is alive and on this side, in O(1) (`false` for a stale or
    /// never-issued handle).
    #[inline]
    pub fn contains(&self, entity: ::archetypal::Entity) -> bool {
        self.tables.contains(entity)
    }
    /// Calls `f(entity, table, index)` for every entity on this side: O(its tables)
    /// plus their rows.
    #[inline]
    pub fn for_each<F>(&self, f: F)
    where
        F: ::core::ops::FnMut(::archetypal::Entity, &'a WorldComponentArrays, usize),
    {
        self.tables.for_each(f);
    }
    ///The `position` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `position`.
    #[inline]
    pub fn get_position(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&'a (f32, f32)> {
        self.tables.get(entity, POSITION, WorldComponents::__ref_position)
    }
    ///The `velocity` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `velocity`.
    #[inline]
    pub fn get_velocity(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&'a (f32, f32)> {
        self.tables.get(entity, VELOCITY, WorldComponents::__ref_velocity)
    }
    ///The `health` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `health`.
    #[inline]
    pub fn get_health(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&'a u32> {
        self.tables.get(entity, HEALTH, WorldComponents::__ref_health)
    }
    ///The `child_of` target of `source`, which may be on either side of the split, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an unlinked `source`. A child being written reads its parent: `tables.get_child_of(child).and_then(|parent| tables.get_<c>(parent))`.
    #[inline]
    pub fn get_child_of(
        &self,
        source: ::archetypal::Entity,
    ) -> ::core::option::Option<::archetypal::Entity> {
        self.tables.target(CHILD_OF, source)
    }
    ///The entities whose `child_of` target is `target` (its `children`), on either side of the split, in link order, in O(1); empty for a dead, stale (id reused) or never-issued handle. A parent being written reads its children.
    #[inline]
    pub fn get_children(
        &self,
        target: ::archetypal::Entity,
    ) -> &'a [::archetypal::Entity] {
        self.tables.sources(CHILD_OF, target)
    }
}
impl WorldRowsMut<'_> {
    /// Whether `entity` is alive, in O(1) (a stale or never-issued handle is not).
    #[inline]
    pub fn contains(&self, entity: ::archetypal::Entity) -> bool {
        self.rows.contains(entity)
    }
    ///The `position` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_position(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&(f32, f32)> {
        self.rows.get(entity, POSITION, WorldComponents::__ref_position)
    }
    ///The `position` of `entity`, mutably (stamped as changed), in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_position_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut (f32, f32)> {
        self.rows.get_mut(entity, POSITION, WorldComponents::__mut_position)
    }
    ///The `velocity` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_velocity(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&(f32, f32)> {
        self.rows.get(entity, VELOCITY, WorldComponents::__ref_velocity)
    }
    ///The `velocity` of `entity`, mutably (stamped as changed), in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_velocity_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut (f32, f32)> {
        self.rows.get_mut(entity, VELOCITY, WorldComponents::__mut_velocity)
    }
    ///The `health` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_health(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&u32> {
        self.rows.get(entity, HEALTH, WorldComponents::__ref_health)
    }
    ///The `health` of `entity`, mutably (stamped as changed), in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one.
    #[inline]
    pub fn get_health_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut u32> {
        self.rows.get_mut(entity, HEALTH, WorldComponents::__mut_health)
    }
}
#[allow(unused, nonstandard_style)]
const _: () = {
    enum __Bit {
        position,
        velocity,
        health,
        player,
        child_of,
        __END,
    }
    impl __Bit {
        const fn mask(self) -> WorldMask {
            ::archetypal::__private::mask_bit(self as u32) as WorldMask
        }
    }
    impl WorldComponentArrays {
        const POSITION: WorldMask = __Bit::position.mask();
        const VELOCITY: WorldMask = __Bit::velocity.mask();
        const HEALTH: WorldMask = __Bit::health.mask();
        const PLAYER: WorldMask = __Bit::player.mask();
        const CHILD_OF: WorldMask = __Bit::child_of.mask();
    }
    impl WorldComponents {
        #[inline(always)]
        fn __ref_position(table: &WorldComponentArrays) -> &[(f32, f32)] {
            &table.position
        }
        #[inline(always)]
        fn __mut_position(table: &mut WorldComponentArrays) -> &mut [(f32, f32)] {
            &mut table.position
        }
        #[inline(always)]
        fn __ref_velocity(table: &WorldComponentArrays) -> &[(f32, f32)] {
            &table.velocity
        }
        #[inline(always)]
        fn __mut_velocity(table: &mut WorldComponentArrays) -> &mut [(f32, f32)] {
            &mut table.velocity
        }
        #[inline(always)]
        fn __ref_health(table: &WorldComponentArrays) -> &[u32] {
            &table.health
        }
        #[inline(always)]
        fn __mut_health(table: &mut WorldComponentArrays) -> &mut [u32] {
            &mut table.health
        }
    }
    impl ::archetypal::system::TagOf<PLAYER> for WorldComponentArrays {
        const BIT: u128 = PLAYER as u128;
    }
    impl ::archetypal::system::TagOf<CHILD_OF> for WorldComponentArrays {
        const BIT: u128 = CHILD_OF as u128;
    }
    impl ::archetypal::system::RelationOf<CHILD_OF> for WorldComponentArrays {}
    mod __column {
        pub const position: u32 = super::POSITION.trailing_zeros();
        pub const velocity: u32 = super::VELOCITY.trailing_zeros();
        pub const health: u32 = super::HEALTH.trailing_zeros();
    }
    const _: () = ::archetypal::__private::check_world(
        "World",
        ::archetypal::__private::WorldNames {
            components: &["position", "velocity", "health"],
            tags: &["player"],
            relations: &["child_of"],
            reverses: &["children"],
        },
        &["POSITION", "VELOCITY", "HEALTH", "PLAYER", "CHILD_OF"],
        __Bit::__END as usize,
    );
    impl ::archetypal::Archetype for WorldComponentArrays {
        type Mask = <::archetypal::MaskWidth<
            { (__Bit::__END as usize) < 64 },
        > as ::archetypal::SelectMask>::Mask;
        type ViewMut<'a> = WorldComponentArraysMut<'a>;
        type Removed = WorldRemoved;
        type TickColumns = [::archetypal::__private::TickColumn; <Self as ::archetypal::Archetype>::COMPONENT_COUNT];
        const COMPONENT_COUNT: usize = ["position", "velocity", "health"].len();
        const COMPONENTS: WorldMask = ::archetypal::__private::low_bits(
            <Self as ::archetypal::Archetype>::COMPONENT_COUNT as u32,
        ) as WorldMask;
        const TRACKED: WorldMask = {
            let tracked = 0;
            let tracked = tracked | POSITION;
            let tracked = tracked | VELOCITY;
            let tracked = tracked | HEALTH;
            tracked
        };
        const TAGS: WorldMask = ::archetypal::__private::low_bits(__Bit::__END as u32)
            as WorldMask & !<Self as ::archetypal::Archetype>::COMPONENTS;
        const RELATIONS: WorldMask = {
            let relations = 0;
            let relations = relations | CHILD_OF;
            relations
        };
        const HOOKS: ::archetypal::HookSet<WorldMask> = {
            let all = ::archetypal::__private::low_bits(__Bit::__END as u32)
                as WorldMask;
            let components = <Self as ::archetypal::Archetype>::COMPONENTS;
            let relations = <Self as ::archetypal::Archetype>::RELATIONS;
            let hooks = ::archetypal::HookSet::<
                WorldMask,
            >::new(all, components, relations);
            let hooks = hooks.on_add(POSITION);
            let hooks = hooks.on_unlink(CHILD_OF);
            hooks
        };
        const CASCADE: WorldMask = {
            let cascade = 0;
            let cascade = cascade | CHILD_OF;
            cascade
        };
        #[inline]
        fn new(mask: WorldMask) -> Self {
            Self {
                mask,
                entities: ::archetypal::__private::alloc::vec::Vec::new(),
                position: ::archetypal::__private::alloc::vec::Vec::new(),
                velocity: ::archetypal::__private::alloc::vec::Vec::new(),
                health: ::archetypal::__private::alloc::vec::Vec::new(),
            }
        }
        #[inline]
        fn mask(&self) -> WorldMask {
            self.mask
        }
        #[inline]
        fn entities(&self) -> &[::archetypal::Entity] {
            &self.entities
        }
        #[inline]
        fn entities_mut(
            &mut self,
        ) -> &mut ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
            &mut self.entities
        }
        #[inline(always)]
        fn for_each_column(
            &mut self,
            visitor: &mut impl ::archetypal::ColumnVisitor<WorldMask>,
        ) {
            visitor.visit(&mut self.position, POSITION);
            visitor.visit(&mut self.velocity, VELOCITY);
            visitor.visit(&mut self.health, HEALTH);
        }
        #[inline(always)]
        fn for_each_column_pair(
            &mut self,
            other: &mut Self,
            visitor: &mut impl ::archetypal::ColumnPairVisitor<WorldMask>,
        ) {
            visitor.visit(&mut self.position, &mut other.position, POSITION);
            visitor.visit(&mut self.velocity, &mut other.velocity, VELOCITY);
            visitor.visit(&mut self.health, &mut other.health, HEALTH);
        }
        #[inline(always)]
        fn for_each_column_ref(
            &self,
            visitor: &mut impl ::archetypal::ColumnRefVisitor<WorldMask>,
        ) {
            visitor.visit(&self.position, POSITION);
            visitor.visit(&self.velocity, VELOCITY);
            visitor.visit(&self.health, HEALTH);
        }
        #[inline]
        fn swap_remove(&mut self, row: usize) -> Self::Removed {
            let take = ::archetypal::__private::column::TakeRow::new(self.mask, row);
            let mut removed = <Self as ::archetypal::Archetype>::removed(self.mask);
            take.column(&mut removed.position, &mut self.position, POSITION);
            take.column(&mut removed.velocity, &mut self.velocity, VELOCITY);
            take.column(&mut removed.health, &mut self.health, HEALTH);
            self.entities.swap_remove(row);
            removed
        }
        #[inline]
        fn swap_remove_keeping(
            &mut self,
            row: usize,
            keep: WorldMask,
            had: WorldMask,
        ) -> (Self::Removed, Self::Removed) {
            let take = ::archetypal::__private::column::TakeRow::keeping(
                self.mask,
                row,
                keep,
            );
            let mut dropped = <Self as ::archetypal::Archetype>::removed(self.mask);
            let mut kept = <Self as ::archetypal::Archetype>::removed(had);
            take.column_keeping(
                &mut dropped.position,
                &mut kept.position,
                &mut self.position,
                POSITION,
            );
            take.column_keeping(
                &mut dropped.velocity,
                &mut kept.velocity,
                &mut self.velocity,
                VELOCITY,
            );
            take.column_keeping(
                &mut dropped.health,
                &mut kept.health,
                &mut self.health,
                HEALTH,
            );
            self.entities.swap_remove(row);
            (dropped, kept)
        }
        #[inline]
        fn removed(mask: WorldMask) -> Self::Removed {
            WorldRemoved {
                mask,
                position: ::core::option::Option::None,
                velocity: ::core::option::Option::None,
                health: ::core::option::Option::None,
            }
        }
        #[inline]
        fn keep_parked(&mut self, keep: WorldMask, removed: &mut Self::Removed) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            column::take_parked(
                &mut removed.position,
                &mut self.position,
                keep & POSITION != 0,
                rows,
            );
            column::take_parked(
                &mut removed.velocity,
                &mut self.velocity,
                keep & VELOCITY != 0,
                rows,
            );
            column::take_parked(
                &mut removed.health,
                &mut self.health,
                keep & HEALTH != 0,
                rows,
            );
        }
        #[inline]
        fn edit_column(&mut self, bit: u32, op: ::archetypal::__private::ColumnEdit) {
            use ::archetypal::__private::column;
            match bit {
                __column::position => column::edit(&mut self.position, op),
                __column::velocity => column::edit(&mut self.velocity, op),
                __column::health => column::edit(&mut self.health, op),
                _ => {}
            }
        }
        #[inline]
        fn move_column(&mut self, bit: u32, row: usize, to: &mut Self) {
            use ::archetypal::__private::column;
            match bit {
                __column::position => {
                    column::move_value(&mut self.position, &mut to.position, row)
                }
                __column::velocity => {
                    column::move_value(&mut self.velocity, &mut to.velocity, row)
                }
                __column::health => {
                    column::move_value(&mut self.health, &mut to.health, row)
                }
                _ => {}
            }
        }
        #[inline(always)]
        fn view_mut(
            &mut self,
            include: WorldMask,
        ) -> (&[::archetypal::Entity], WorldComponentArraysMut<'_>) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            let view = WorldComponentArraysMut {
                mask: self.mask,
                entities: &self.entities,
                position: column::view(&mut self.position, include & POSITION, rows),
                velocity: column::view(&mut self.velocity, include & VELOCITY, rows),
                health: column::view(&mut self.health, include & HEALTH, rows),
            };
            (&self.entities, view)
        }
        #[inline]
        fn view_with<'a>(
            &'a mut self,
            entities: &'a [::archetypal::Entity],
            include: WorldMask,
        ) -> WorldComponentArraysMut<'a> {
            use ::archetypal::__private::column;
            WorldComponentArraysMut {
                mask: self.mask & include,
                entities,
                position: column::view(
                    &mut self.position,
                    include & POSITION,
                    entities.len(),
                ),
                velocity: column::view(
                    &mut self.velocity,
                    include & VELOCITY,
                    entities.len(),
                ),
                health: column::view(&mut self.health, include & HEALTH, entities.len()),
            }
        }
        #[inline]
        fn split_view<'a>(
            view: Self::ViewMut<'a>,
            at: usize,
        ) -> (Self::ViewMut<'a>, Self::ViewMut<'a>) {
            let split = ::archetypal::__private::column::SplitAt::new(view.mask, at);
            let (entities_before, entities_after) = view.entities.split_at(at);
            let position_halves = split.column(view.position, POSITION);
            let velocity_halves = split.column(view.velocity, VELOCITY);
            let health_halves = split.column(view.health, HEALTH);
            let before = WorldComponentArraysMut {
                mask: view.mask,
                entities: entities_before,
                position: position_halves.0,
                velocity: velocity_halves.0,
                health: health_halves.0,
            };
            let after = WorldComponentArraysMut {
                mask: view.mask,
                entities: entities_after,
                position: position_halves.1,
                velocity: velocity_halves.1,
                health: health_halves.1,
            };
            (before, after)
        }
    }
    pub struct __SharedColumns<'a> {
        mask: WorldMask,
        position: &'a [(f32, f32)],
        velocity: &'a [(f32, f32)],
        health: &'a [u32],
    }
    impl ::archetypal::TypedTable for WorldComponentArrays {
        type Columns<'v> = __SharedColumns<'v>;
        type TablesRead<'a> = WorldTables<'a>;
        #[inline]
        fn share<'v>(view: Self::ViewMut<'v>) -> Self::Columns<'v> {
            __SharedColumns {
                mask: view.mask,
                position: view.position,
                velocity: view.velocity,
                health: view.health,
            }
        }
        #[inline]
        fn columns(&self) -> Self::Columns<'_> {
            __SharedColumns {
                mask: self.mask,
                position: &self.position,
                velocity: &self.velocity,
                health: &self.health,
            }
        }
        #[inline]
        fn view_mask(view: &Self::ViewMut<'_>) -> WorldMask {
            view.mask
        }
        #[inline]
        fn read_side(tables: ::archetypal::TablesRef<'_, Self>) -> WorldTables<'_> {
            WorldTables { tables }
        }
        const TRACKED_BITS: u128 = <Self as ::archetypal::Archetype>::TRACKED as u128;
        const COMPONENT_BITS: u128 = <Self as ::archetypal::Archetype>::COMPONENTS
            as u128;
    }
    mod __component {
        pub enum position {}
        pub enum velocity {}
        pub enum health {}
    }
    impl ::archetypal::ComponentColumn<(f32, f32), __component::position>
    for WorldComponentArrays {
        const BIT: u128 = POSITION as u128;
        #[inline]
        fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [(f32, f32)] {
            ::core::mem::take(&mut view.position)
        }
        #[inline]
        fn column<'v>(columns: &Self::Columns<'v>) -> &'v [(f32, f32)] {
            columns.position
        }
    }
    impl ::archetypal::ComponentColumn<(f32, f32), __component::velocity>
    for WorldComponentArrays {
        const BIT: u128 = VELOCITY as u128;
        #[inline]
        fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [(f32, f32)] {
            ::core::mem::take(&mut view.velocity)
        }
        #[inline]
        fn column<'v>(columns: &Self::Columns<'v>) -> &'v [(f32, f32)] {
            columns.velocity
        }
    }
    impl ::archetypal::ComponentColumn<u32, __component::health>
    for WorldComponentArrays {
        const BIT: u128 = HEALTH as u128;
        #[inline]
        fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [u32] {
            ::core::mem::take(&mut view.health)
        }
        #[inline]
        fn column<'v>(columns: &Self::Columns<'v>) -> &'v [u32] {
            columns.health
        }
    }
    impl ::core::default::Default for WorldEntityBuilder {
        #[inline]
        fn default() -> Self {
            Self {
                mask: 0,
                links: ::archetypal::__private::Links::new(),
                position: ::core::option::Option::None,
                velocity: ::core::option::Option::None,
                health: ::core::option::Option::None,
            }
        }
    }
    impl ::archetypal::__private::EntityValues for WorldEntityBuilder {
        type Archetype = WorldComponentArrays;
        #[inline]
        fn mask(&self) -> WorldMask {
            self.mask
        }
        #[inline(always)]
        fn take_into(&mut self, table: &mut Self::Archetype) {
            use ::archetypal::__private::column::push_held;
            push_held(&mut table.position, self.position.take(), table.mask & POSITION);
            push_held(&mut table.velocity, self.velocity.take(), table.mask & VELOCITY);
            push_held(&mut table.health, self.health.take(), table.mask & HEALTH);
        }
        #[inline]
        fn links(&self) -> &[(WorldMask, ::archetypal::Entity)] {
            self.links.as_slice()
        }
        #[inline]
        fn copy_held(&self) -> Self {
            use ::archetypal::__private::{CloneProbe, IsClone as _, NotClone as _};
            Self {
                mask: self.mask,
                links: ::archetypal::__private::Links::new(),
                position: (&CloneProbe(&self.position, "position")).cloned(),
                velocity: (&CloneProbe(&self.velocity, "velocity")).cloned(),
                health: (&CloneProbe(&self.health, "health")).cloned(),
            }
        }
    }
    impl ::archetypal::PartCommand for WorldCommand {
        type Mask = WorldMask;
        #[inline]
        fn structural(command: ::archetypal::StructuralCommand<WorldMask>) -> Self {
            Self::Structural(command)
        }
    }
    impl WorldCommand {
        #[inline]
        fn apply(
            world: &mut World,
            command: Self,
            staged: &mut ::archetypal::SpawnStaging<WorldComponentArrays>,
            report: &mut ::archetypal::CommandReport,
        ) {
            match command {
                Self::Lifecycle(c) => c.apply_to(&mut world.storage, staged, report),
                Self::Structural(c) => c.apply(&mut world.storage, report),
                Self::SetPosition(e, v) => report.record(world.set_position(e, v)),
                Self::SetVelocity(e, v) => report.record(world.set_velocity(e, v)),
                Self::SetHealth(e, v) => report.record(world.set_health(e, v)),
            }
        }
    }
    impl<'a> ::core::ops::Deref for WorldCommands<'a> {
        type Target = ::archetypal::CommandQueue<'a, WorldCommand, WorldCommand>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.queue
        }
    }
    impl<'a> ::core::ops::DerefMut for WorldCommands<'a> {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.queue
        }
    }
    impl ::archetypal::QueuedCommand for WorldCommand {
        type Staging = ::archetypal::SpawnStaging<WorldComponentArrays>;
    }
    impl ::archetypal::SpawningCommand for WorldCommand {
        type Values = WorldEntityBuilder;
        type Spawn = WorldMask;
        #[inline]
        fn lifecycle(command: ::archetypal::LifecycleCommand<WorldMask>) -> Self {
            Self::Lifecycle(command)
        }
        #[inline]
        fn lifecycle_mut(
            &mut self,
        ) -> ::core::option::Option<&mut ::archetypal::LifecycleCommand<WorldMask>> {
            match self {
                Self::Lifecycle(command) => ::core::option::Option::Some(command),
                _ => ::core::option::Option::None,
            }
        }
    }
    impl ::core::default::Default for World {
        #[inline]
        fn default() -> Self {
            Self {
                resources: ::core::default::Default::default(),
                events: ::core::default::Default::default(),
                components: WorldComponents {
                    storage: ::core::default::Default::default(),
                },
                queue: ::archetypal::CommandBuffer::new(),
                systems: ::core::default::Default::default(),
            }
        }
    }
    impl ::core::ops::Deref for World {
        type Target = WorldComponents;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.components
        }
    }
    impl ::core::ops::DerefMut for World {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.components
        }
    }
    impl ::core::ops::Deref for WorldComponents {
        type Target = ::archetypal::Storage<WorldComponentArrays>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.storage
        }
    }
    impl ::core::ops::DerefMut for WorldComponents {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.storage
        }
    }
    impl ::archetypal::SystemWorld for World {
        type EventCursors = WorldEventCursors;
        fn apply_commands(&mut self) -> ::archetypal::CommandReport {
            World::apply_commands(self)
        }
        fn current_tick(&self) -> ::archetypal::Tick {
            self.components.storage.current_tick()
        }
        fn increment_tick(&mut self) -> ::archetypal::Tick {
            self.components.storage.increment_tick()
        }
        fn is_settled(&self) -> bool {
            self.queue.is_empty() && !self.components.storage.hooks_pending()
        }
        fn run_batch(
            &mut self,
            members: &mut [::archetypal::schedule::BatchMember<'_, Self>],
        ) {
            ::archetypal::schedule::run_batch(self, members)
        }
    }
    impl ::archetypal::ParamWorld for World {
        type Parts = (WorldComponentArrays, ());
        type Resources = WorldResources;
        type Events = WorldEvents;
        type Commands<'w> = WorldCommands<'w>;
        #[inline]
        fn shorten_commands<'a, 'b: 'a>(
            commands: <Self as ::archetypal::ParamWorld>::Commands<'b>,
        ) -> <Self as ::archetypal::ParamWorld>::Commands<'a> {
            commands
        }
        #[inline]
        fn lend(
            &mut self,
            commands: bool,
        ) -> (::archetypal::system::Lent<'_, Self>, &mut ::archetypal::SystemMemories) {
            let commands = commands
                .then(|| WorldCommands {
                    queue: ::archetypal::__private::lifecycle::lent_queue(
                        &mut self.components.storage,
                        &mut self.queue,
                    ),
                });
            let lent = ::archetypal::system::Lent {
                storages: (&mut self.components.storage.storage, ()),
                resources: ::archetypal::system::ResourceSet::slots(&mut self.resources),
                events: ::archetypal::system::EventSet::slots(&mut self.events),
                commands,
            };
            (lent, &mut self.systems)
        }
    }
    impl ::archetypal::system::LentCommands<World> for WorldCommands<'_> {}
    const _: ::archetypal::HookSet<WorldMask> = <WorldComponentArrays as ::archetypal::Archetype>::HOOKS;
    impl World {
        /// Runs the declared hooks of every change made since the last sync point,
        /// oldest change first, and for each change its hooks (`on_spawn` first,
        /// `on_despawn` last, each kind in declaration order), each given the world
        /// split apart (`split_mut()`) and the entity (a link's hooks: its source and
        /// target; a removal's: what went). Changes a hook makes are run in the same
        /// call, after those already waiting. `apply_commands` calls it, with the
        /// rounds of commands it applied before (`round`).
        fn run_hooks(&mut self, round: u32) {
            use ::core::option::Option::Some;
            if !self.components.storage.hooks_pending() {
                return;
            }
            let mut world = self.split_mut();
            loop {
                let mut ran = false;
                while let Some(change) = ::archetypal::__private::lifecycle::next_hooked_change(
                    &mut world.components.storage,
                    round,
                ) {
                    ran = true;
                    if let Some(entity) = change.on_add(POSITION, "on_position") {
                        on_position(&mut world, entity);
                    }
                    if let Some((source, target)) = change
                        .on_unlink(CHILD_OF, "on_orphan")
                    {
                        on_orphan(&mut world, source, target);
                    }
                }
                if !ran {
                    return;
                }
            }
        }
    }
    mod __compiled_out {
        pub type __component_position = ();
        pub type __component_velocity = ();
        pub type __component_health = ();
        pub type __event_landed = ();
        pub type __saving_landed = ::archetypal::__private::UnsavedEvents;
        pub type __resource_delta_time = ();
    }
    use __compiled_out::*;
    type __component_position = (f32, f32);
    type __component_velocity = (f32, f32);
    type __component_health = u32;
    type __event_landed = (f32, f32);
    type __saving_landed = ::archetypal::__private::UnsavedEvents;
    type __resource_delta_time = f32;
    impl ::core::clone::Clone for WorldComponentArrays
    where
        for<'x> __component_position: ::core::clone::Clone,
        for<'x> __component_velocity: ::core::clone::Clone,
        for<'x> __component_health: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            let mut copy = <Self as ::archetypal::Archetype>::new(self.mask);
            ::core::clone::Clone::clone_from(&mut copy, self);
            copy
        }
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            self.mask = source.mask;
            ::core::clone::Clone::clone_from(&mut self.entities, &source.entities);
            ::core::clone::Clone::clone_from(&mut self.position, &source.position);
            ::core::clone::Clone::clone_from(&mut self.velocity, &source.velocity);
            ::core::clone::Clone::clone_from(&mut self.health, &source.health);
        }
    }
    impl ::core::clone::Clone for WorldResources
    where
        for<'x> __resource_delta_time: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            Self {
                delta_time: ::core::clone::Clone::clone(&self.delta_time),
            }
        }
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            ::core::clone::Clone::clone_from(&mut self.delta_time, &source.delta_time);
        }
    }
    impl ::core::clone::Clone for WorldEvents
    where
        for<'x> __event_landed: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            Self {
                landed: ::core::clone::Clone::clone(&self.landed),
            }
        }
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            ::core::clone::Clone::clone_from(&mut self.landed, &source.landed);
        }
    }
    /// A copy of the builder and its values: a prefab, spawned many times. Callable
    /// when every component type of the world is `Clone` (`spawn(world, count)` needs
    /// only the values held to be).
    impl ::core::clone::Clone for WorldEntityBuilder
    where
        for<'x> __component_position: ::core::clone::Clone,
        for<'x> __component_velocity: ::core::clone::Clone,
        for<'x> __component_health: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            Self {
                mask: self.mask,
                links: ::core::clone::Clone::clone(&self.links),
                position: ::core::clone::Clone::clone(&self.position),
                velocity: ::core::clone::Clone::clone(&self.velocity),
                health: ::core::clone::Clone::clone(&self.health),
            }
        }
    }
    /// An exact copy of the world, except its queued commands: a clone starts with
    /// none, and the handles their spawns reserved are given back in the clone (apply
    /// or clear commands before cloning). Entities, components, tags, resources, event
    /// channels, change ticks, the change log and the caches are all copied, so the
    /// clone runs on exactly as the original would. `clone_from` (and `restore`) reuse
    /// the target's allocations.
    impl ::core::clone::Clone for World
    where
        for<'x> __component_position: ::core::clone::Clone,
        for<'x> __component_velocity: ::core::clone::Clone,
        for<'x> __component_health: ::core::clone::Clone,
        for<'x> __event_landed: ::core::clone::Clone,
        for<'x> __resource_delta_time: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            let mut world = <Self as ::core::default::Default>::default();
            ::core::clone::Clone::clone_from(&mut world, self);
            world
        }
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            self.clear_commands();
            ::archetypal::__private::lifecycle::clone_from(
                &mut self.components.storage,
                &source.components.storage,
            );
            ::core::clone::Clone::clone_from(&mut self.resources, &source.resources);
            ::core::clone::Clone::clone_from(&mut self.events, &source.events);
            ::core::clone::Clone::clone_from(&mut self.systems, &source.systems);
        }
    }
    impl ::archetypal::snapshot::SnapshotTables for World {
        type Table = WorldComponentArrays;
        const COMPONENTS: &'static [(&'static str, WorldMask)] = &[
            ("position", POSITION),
            ("velocity", VELOCITY),
            ("health", HEALTH),
        ];
        const TAGS: &'static [(&'static str, WorldMask)] = &[("player", PLAYER)];
        const RELATIONS: &'static [(&'static str, WorldMask)] = &[
            ("child_of", CHILD_OF),
        ];
    }
    impl ::archetypal::snapshot::SerializeTables for World
    where
        for<'x> __component_position: ::archetypal::__private::serde::Serialize,
        for<'x> __component_velocity: ::archetypal::__private::serde::Serialize,
        for<'x> __component_health: ::archetypal::__private::serde::Serialize,
        for<'x> __resource_delta_time: ::archetypal::__private::serde::Serialize,
    {
        #[inline]
        fn serialize_column<S: ::archetypal::__private::serde::ser::SerializeMap>(
            table: &Self::Table,
            column: ::archetypal::snapshot::ColumnOut<'_, S, WorldMask>,
        ) -> ::core::result::Result<(), S::Error> {
            match column.bit() {
                POSITION => column.write(&table.position),
                VELOCITY => column.write(&table.velocity),
                HEALTH => column.write(&table.health),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl<'de> ::archetypal::snapshot::DeserializeColumns<'de> for World
    where
        __component_position: ::archetypal::__private::serde::Deserialize<'de>,
        __component_velocity: ::archetypal::__private::serde::Deserialize<'de>,
        __component_health: ::archetypal::__private::serde::Deserialize<'de>,
        __resource_delta_time: ::archetypal::__private::serde::Deserialize<'de>,
    {
        #[inline]
        fn deserialize_column<A: ::archetypal::__private::serde::de::MapAccess<'de>>(
            table: &mut Self::Table,
            column: ::archetypal::snapshot::ColumnIn<'_, A, WorldMask>,
        ) -> ::core::result::Result<(), A::Error> {
            table.mask |= column.bit();
            match column.bit() {
                POSITION => column.read(&mut table.position),
                VELOCITY => column.read(&mut table.velocity),
                HEALTH => column.read(&mut table.health),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl ::archetypal::snapshot::SnapshotSingletons for World {
        type Resources = WorldResources;
        #[inline]
        fn resources(&self) -> &Self::Resources {
            &self.resources
        }
        #[inline]
        fn resources_mut(&mut self) -> &mut Self::Resources {
            &mut self.resources
        }
        const RESOURCE_NAMES: &'static [&'static str] = &["delta_time"];
        const EVENTS: &'static [::archetypal::snapshot::EventNumbering<Self>] = &[
            (
                "landed",
                |world| world.events.landed.next_sequence(),
                |world, next| world.events.landed.start_numbering_at(next),
                <__saving_landed as ::archetypal::snapshot::EventSaving>::SAVED,
            ),
        ];
    }
    impl ::archetypal::snapshot::SerializeSingletons for World
    where
        for<'x> __resource_delta_time: ::archetypal::__private::serde::Serialize,
        for<'x> __component_position: ::archetypal::__private::serde::Serialize,
        for<'x> __component_velocity: ::archetypal::__private::serde::Serialize,
        for<'x> __component_health: ::archetypal::__private::serde::Serialize,
        for<'x> __saving_landed: ::archetypal::snapshot::SaveEvents<__event_landed>,
    {
        #[inline]
        fn serialize_resource<S: ::archetypal::__private::serde::ser::SerializeMap>(
            resources: &Self::Resources,
            resource: ::archetypal::snapshot::ResourceOut<'_, S>,
        ) -> ::core::result::Result<(), S::Error> {
            match resource.name() {
                "delta_time" => resource.write(&resources.delta_time),
                _ => ::core::result::Result::Ok(()),
            }
        }
        #[inline]
        fn serialize_channel<S: ::archetypal::__private::serde::ser::SerializeMap>(
            world: &Self,
            channel: ::archetypal::snapshot::ChannelOut<'_, S>,
        ) -> ::core::result::Result<(), S::Error> {
            match channel.name() {
                "landed" => channel.write::<__saving_landed, _>(&world.events.landed),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl<'de> ::archetypal::snapshot::DeserializeResources<'de> for World
    where
        __resource_delta_time: ::archetypal::__private::serde::Deserialize<'de>,
        __component_position: ::archetypal::__private::serde::Deserialize<'de>,
        __component_velocity: ::archetypal::__private::serde::Deserialize<'de>,
        __component_health: ::archetypal::__private::serde::Deserialize<'de>,
        __saving_landed: ::archetypal::snapshot::LoadEvents<'de, __event_landed>,
    {
        #[inline]
        fn deserialize_resource<A: ::archetypal::__private::serde::de::MapAccess<'de>>(
            resources: &mut Self::Resources,
            resource: ::archetypal::snapshot::ResourceIn<'_, A>,
        ) -> ::core::result::Result<(), A::Error> {
            match resource.name() {
                "delta_time" => resource.read(&mut resources.delta_time),
                _ => ::core::result::Result::Ok(()),
            }
        }
        #[inline]
        fn deserialize_channel<A: ::archetypal::__private::serde::de::MapAccess<'de>>(
            world: &mut Self,
            channel: ::archetypal::snapshot::ChannelIn<'_, A>,
        ) -> ::core::result::Result<(), A::Error> {
            match channel.name() {
                "landed" => channel.read::<__saving_landed, _>(&mut world.events.landed),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl ::archetypal::snapshot::SnapshotWorld for World {
        #[inline]
        fn index(&self) -> &::archetypal::EntityIndex {
            &self.components.storage.index
        }
        #[inline]
        fn index_mut(&mut self) -> &mut ::archetypal::EntityIndex {
            &mut self.components.storage.index
        }
        #[inline]
        fn systems(&self) -> &::archetypal::SystemMemories {
            &self.systems
        }
        #[inline]
        fn systems_mut(&mut self) -> &mut ::archetypal::SystemMemories {
            &mut self.systems
        }
    }
    /// Feature `serde`. The world's snapshot (`world.snapshot()`).
    impl ::archetypal::__private::serde::Serialize for World
    where
        for<'x> Self: ::archetypal::snapshot::SerializeWorld,
    {
        #[inline]
        fn serialize<S: ::archetypal::__private::serde::Serializer>(
            &self,
            serializer: S,
        ) -> ::core::result::Result<S::Ok, S::Error> {
            ::archetypal::snapshot::serialize_world(self, serializer)
        }
    }
    /// Feature `serde`. A snapshot decoded and checked (`World::from_snapshot`): one that
    /// is not a sound world is a decoding error with the reason.
    impl<'de> ::archetypal::__private::serde::Deserialize<'de> for World
    where
        for<'x> Self: ::archetypal::snapshot::DeserializeWorld,
    {
        #[inline]
        fn deserialize<D: ::archetypal::__private::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            ::archetypal::snapshot::deserialize_world(deserializer)
        }
    }
    pub struct __ResourceSlots<'w> {
        delta_time: ::archetypal::system::Slot<'w, f32>,
        __lifetime: ::core::marker::PhantomData<&'w ()>,
    }
    impl ::archetypal::system::ResourceSet for WorldResources {
        type Slots<'w> = __ResourceSlots<'w>;
        #[inline]
        fn slots(&mut self) -> __ResourceSlots<'_> {
            __ResourceSlots {
                delta_time: ::archetypal::system::Slot::new(&mut self.delta_time),
                __lifetime: ::core::marker::PhantomData,
            }
        }
        #[inline]
        fn shorten<'a, 'b: 'a>(
            slots: <Self as ::archetypal::system::ResourceSet>::Slots<'b>,
        ) -> <Self as ::archetypal::system::ResourceSet>::Slots<'a> {
            slots
        }
    }
    enum __Resource {
        delta_time,
        __END,
    }
    const _: () = if !((__Resource::__END as u32) <= 128) {
        {
            ::core::panicking::panic_fmt(
                format_args!("ecs!: a world declares at most 128 resources"),
            );
        }
    };
    mod __resource {
        pub enum delta_time {}
    }
    impl ::archetypal::system::ResourceOf<f32, __resource::delta_time>
    for WorldResources {
        const BIT: u128 = 1 << __Resource::delta_time as u32;
        #[inline]
        fn slot<'s, 'w>(
            slots: &'s mut <Self as ::archetypal::system::ResourceSet>::Slots<'w>,
        ) -> &'s mut ::archetypal::system::Slot<'w, f32> {
            &mut slots.delta_time
        }
    }
    pub struct __EventSlots<'w> {
        landed: ::archetypal::system::Slot<'w, ::archetypal::EventChannel<(f32, f32)>>,
        __lifetime: ::core::marker::PhantomData<&'w ()>,
    }
    impl ::archetypal::system::EventSet for WorldEvents {
        type Slots<'w> = __EventSlots<'w>;
        #[inline]
        fn slots(&mut self) -> __EventSlots<'_> {
            __EventSlots {
                landed: ::archetypal::system::Slot::new(&mut self.landed),
                __lifetime: ::core::marker::PhantomData,
            }
        }
        #[inline]
        fn shorten<'a, 'b: 'a>(
            slots: <Self as ::archetypal::system::EventSet>::Slots<'b>,
        ) -> <Self as ::archetypal::system::EventSet>::Slots<'a> {
            slots
        }
    }
    enum __Event {
        landed,
        __END,
    }
    const _: () = if !((__Event::__END as u32) <= 128) {
        {
            ::core::panicking::panic_fmt(
                format_args!("ecs!: a world declares at most 128 event types"),
            );
        }
    };
    mod __event {
        pub enum landed {}
    }
    impl ::archetypal::system::EventOf<(f32, f32), __event::landed> for WorldEvents {
        const BIT: u128 = 1 << __Event::landed as u32;
        #[inline]
        fn slot<'s, 'w>(
            slots: &'s mut <Self as ::archetypal::system::EventSet>::Slots<'w>,
        ) -> &'s mut ::archetypal::system::Slot<
            'w,
            ::archetypal::EventChannel<(f32, f32)>,
        > {
            &mut slots.landed
        }
    }
};
fn on_position(world: &mut WorldParts<'_>, entity: archetypal::Entity) {
    let _ = (world, entity);
}
fn on_orphan(
    world: &mut WorldParts<'_>,
    child: archetypal::Entity,
    parent: archetypal::Entity,
) {
    let _ = (world, child, parent);
}
fn main() {}
