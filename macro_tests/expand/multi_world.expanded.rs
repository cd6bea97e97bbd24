//! Snapshot of the code `ecs!` generates for a small multi-world: two sub-worlds over one set
//! of entities, with the whole's events and resources.
///The mask type of `Core`: `u64` for up to 63 components, tags and relations, `u128` up to 127.
pub type CoreMask = <CoreComponentArrays as ::archetypal::Archetype>::Mask;
///Mask bit of the `position` component.
pub const POSITION: CoreMask = CoreComponentArrays::POSITION;
///Mask bit of the `player` tag.
pub const PLAYER: CoreMask = CoreComponentArrays::PLAYER;
///The `player` tag as a type, for a system's query filters: `With<PLAYER>`, `Without<PLAYER>` (a braced struct lives beside the constant, in the type namespace).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub struct PLAYER {}
///One archetype of `Core`: a row per entity whose components are exactly `mask`, one `Vec` per component (struct of arrays). Columns whose bit is not in `mask` stay empty.
pub struct CoreComponentArrays {
    /// The components this table holds.
    pub mask: CoreMask,
    /// The entity of every row.
    pub entities: ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>,
    ///The `position` column: a value per row when `mask` holds `POSITION`, else empty.
    pub position: ::archetypal::__private::alloc::vec::Vec<(f32, f32)>,
}
///What an entity of `Core` lost, as its removal hooks read it: the components and tags that went (`mask`: everything it had, for a despawn), and the value of each component whose value was kept aside for the hooks (those some `on_remove` names, or all of them with `on_despawn`; `None` for the others, and for a value `remove_*` handed its caller).
pub struct CoreRemoved {
    /// The components and tags that went.
    pub mask: CoreMask,
    ///The `position` value that went, if kept aside for the hooks.
    pub position: ::core::option::Option<(f32, f32)>,
}
///A `Core` table seen through slices: values can change, the number of rows cannot.
pub struct CoreComponentArraysMut<'a> {
    /// The components this table holds.
    pub mask: CoreMask,
    /// The entity of every row.
    pub entities: &'a [::archetypal::Entity],
    ///The `position` column: a value per row when `mask` holds `POSITION`, else empty.
    pub position: &'a mut [(f32, f32)],
}
///A sub-world of `Game`: its components over the entities of the whole (archetype tables, tags, the edge graph, the query cache and change ticks), with the per-component methods (`get_*`, `set_*`, ...); it dereferences to its `archetypal::Storage` for the others (`is_alive`, `for_each_mut`, `typed_query`, ...). Entities are spawned and despawned through `Game`, so every sub-world knows every live entity; its commands are queued through `Game::commands().core()`.
pub struct Core {
    storage: ::archetypal::Storage<CoreComponentArrays>,
}
///A structural change queued on a `Core`, applied in order by `apply_commands`.
pub enum CoreCommand {
    /// A queued change of components, tags or links.
    Structural(::archetypal::StructuralCommand<CoreMask>),
    ///Set (adding if missing) the `position` component.
    SetPosition(::archetypal::Entity, (f32, f32)),
}
///The `Core` part of a `GameEntityBuilder`: the values and tags it gives in `Core`, set through its `with_*` methods.
pub struct CoreEntityValues {
    mask: CoreMask,
    links: ::archetypal::__private::Links<
        CoreMask,
        {
            <CoreComponentArrays as ::archetypal::Archetype>::RELATIONS.count_ones()
                as usize
        },
    >,
    position: ::core::option::Option<(f32, f32)>,
}
///The written side of `split_tables`: `for_each_mut(|entity, table, row| ..)` over its entities.
pub type CoreTablesMut<'a> = ::archetypal::TablesMut<'a, CoreComponentArrays>;
///The read side of `split_tables`: the components of its entities, by handle, while the written side is iterated.
pub struct CoreTables<'a> {
    tables: ::archetypal::TablesRef<'a, CoreComponentArrays>,
}
///The mask type of `Render`: `u64` for up to 63 components, tags and relations, `u128` up to 127.
pub type RenderMask = <RenderComponentArrays as ::archetypal::Archetype>::Mask;
///Mask bit of the `sprite` component.
pub const SPRITE: RenderMask = RenderComponentArrays::SPRITE;
///One archetype of `Render`: a row per entity whose components are exactly `mask`, one `Vec` per component (struct of arrays). Columns whose bit is not in `mask` stay empty.
pub struct RenderComponentArrays {
    /// The components this table holds.
    pub mask: RenderMask,
    /// The entity of every row.
    pub entities: ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>,
    ///The `sprite` column: a value per row when `mask` holds `SPRITE`, else empty.
    pub sprite: ::archetypal::__private::alloc::vec::Vec<u32>,
}
///What an entity of `Render` lost, as its removal hooks read it: the components and tags that went (`mask`: everything it had, for a despawn), and the value of each component whose value was kept aside for the hooks (those some `on_remove` names, or all of them with `on_despawn`; `None` for the others, and for a value `remove_*` handed its caller).
pub struct RenderRemoved {
    /// The components and tags that went.
    pub mask: RenderMask,
    ///The `sprite` value that went, if kept aside for the hooks.
    pub sprite: ::core::option::Option<u32>,
}
///A `Render` table seen through slices: values can change, the number of rows cannot.
pub struct RenderComponentArraysMut<'a> {
    /// The components this table holds.
    pub mask: RenderMask,
    /// The entity of every row.
    pub entities: &'a [::archetypal::Entity],
    ///The `sprite` column: a value per row when `mask` holds `SPRITE`, else empty.
    pub sprite: &'a mut [u32],
}
///A sub-world of `Game`: its components over the entities of the whole (archetype tables, tags, the edge graph, the query cache and change ticks), with the per-component methods (`get_*`, `set_*`, ...); it dereferences to its `archetypal::Storage` for the others (`is_alive`, `for_each_mut`, `typed_query`, ...). Entities are spawned and despawned through `Game`, so every sub-world knows every live entity; its commands are queued through `Game::commands().render()`.
pub struct Render {
    storage: ::archetypal::Storage<RenderComponentArrays>,
}
///A structural change queued on a `Render`, applied in order by `apply_commands`.
pub enum RenderCommand {
    /// A queued change of components, tags or links.
    Structural(::archetypal::StructuralCommand<RenderMask>),
    ///Set (adding if missing) the `sprite` component.
    SetSprite(::archetypal::Entity, u32),
}
///The `Render` part of a `GameEntityBuilder`: the values and tags it gives in `Render`, set through its `with_*` methods.
pub struct RenderEntityValues {
    mask: RenderMask,
    links: ::archetypal::__private::Links<
        RenderMask,
        {
            <RenderComponentArrays as ::archetypal::Archetype>::RELATIONS.count_ones()
                as usize
        },
    >,
    sprite: ::core::option::Option<u32>,
}
///The written side of `split_tables`: `for_each_mut(|entity, table, row| ..)` over its entities.
pub type RenderTablesMut<'a> = ::archetypal::TablesMut<'a, RenderComponentArrays>;
///The read side of `split_tables`: the components of its entities, by handle, while the written side is iterated.
pub struct RenderTables<'a> {
    tables: ::archetypal::TablesRef<'a, RenderComponentArrays>,
}
///A command queued on a `Game`: a spawn or despawn, or a change in one sub-world; `apply_commands` applies them in the order queued.
pub enum GameCommand {
    /// A queued spawn or despawn, in every sub-world.
    Lifecycle(::archetypal::LifecycleCommand<()>),
    ///A change queued in the `Core` sub-world.
    Core(CoreCommand),
    ///A change queued in the `Render` sub-world.
    Render(RenderCommand),
}
///The command queue of the `Core` sub-world, from `Game::commands().core()` (also on `split_mut().commands`, usable while the sub-worlds are borrowed): every `queue_*` method of its components, tags and relations. The game's `apply_commands()` applies them, in the order queued with the game's own.
pub struct CoreCommands<'a> {
    queue: ::archetypal::CommandQueue<'a, CoreCommand, GameCommand>,
}
///The command queue of the `Render` sub-world, from `Game::commands().render()` (also on `split_mut().commands`, usable while the sub-worlds are borrowed): every `queue_*` method of its components, tags and relations. The game's `apply_commands()` applies them, in the order queued with the game's own.
pub struct RenderCommands<'a> {
    queue: ::archetypal::CommandQueue<'a, RenderCommand, GameCommand>,
}
///The command queue of a `Game`, from `commands()` or `split_mut().commands` (usable while the sub-worlds are borrowed): queued spawns (`queue_spawn(builder)`) and despawns, and each sub-world's queue (`core()`, `render()`).
pub struct GameCommands<'a> {
    queue: ::archetypal::CommandQueue<'a, GameCommand>,
}
///The singletons of `Game`, declared in its `Resources` block.
pub struct GameResources {
    ///The `delta_time` resource.
    pub delta_time: f32,
}
#[automatically_derived]
impl ::core::default::Default for GameResources {
    #[inline]
    fn default() -> GameResources {
        GameResources {
            delta_time: ::core::default::Default::default(),
        }
    }
}
///The event channels of `Game`, declared in its `Events` block.
pub struct GameEvents {
    ///The `landed` channel.
    pub landed: ::archetypal::EventChannel<(f32, f32)>,
}
#[automatically_derived]
impl ::core::default::Default for GameEvents {
    #[inline]
    fn default() -> GameEvents {
        GameEvents {
            landed: ::core::default::Default::default(),
        }
    }
}
///One reader's position in each event channel of `Game`: a system's own cursors, kept by its `archetypal::SystemContext` (`context.cursors.<event>`).
pub struct GameEventCursors {
    ///The cursor in the `landed` channel.
    pub landed: ::archetypal::EventCursor,
}
#[automatically_derived]
impl ::core::default::Default for GameEventCursors {
    #[inline]
    fn default() -> GameEventCursors {
        GameEventCursors {
            landed: ::core::default::Default::default(),
        }
    }
}
///A multi-world generated by `ecs!`: the sub-worlds (`Core`, `Render`) share one set of entities; spawn and despawn here, reach components through the sub-world fields.
pub struct Game {
    ///The `Core` sub-world: its components, tables and queries.
    pub core: Core,
    ///The `Render` sub-world: its components, tables and queries.
    pub render: Render,
    /// The singletons declared in the `Resources` block.
    pub resources: GameResources,
    /// The event channels declared in the `Events` block.
    pub events: GameEvents,
    entities: ::archetypal::MultiWorldEntities<GameCommand>,
    /// What every system remembers (its last run, event cursors, locals).
    systems: ::archetypal::SystemMemories,
}
///A `Game` borrowed apart by `split_mut()`: each sub-world, the resources, the events and the command queue, each usable while the others are borrowed.
pub struct GameParts<'a> {
    ///The `Core` sub-world.
    pub core: &'a mut Core,
    ///The `Render` sub-world.
    pub render: &'a mut Render,
    /// The singletons declared in the `Resources` block.
    pub resources: &'a mut GameResources,
    /// The event channels declared in the `Events` block.
    pub events: &'a mut GameEvents,
    /// The command queue: spawns and despawns, and each sub-world's changes
    /// (`commands.core()`); applied by `apply_commands()`.
    pub commands: GameCommands<'a>,
}
///Spawns `Game` entities with chosen component values in every sub-world: `GameEntityBuilder::new().with_position(p).with_sprite(s).spawn_one(&mut game)`. Every component of every sub-world has its `with_*`; each sub-world's tags come through `with_<sub-world>_mask`. `with_*` keeps the builder's type, so it can be grown conditionally (`if let Some(v) = v { builder = builder.with_velocity(v); }`).
pub struct GameEntityBuilder {
    core: CoreEntityValues,
    render: RenderEntityValues,
}
#[automatically_derived]
impl ::core::default::Default for GameEntityBuilder {
    #[inline]
    fn default() -> GameEntityBuilder {
        GameEntityBuilder {
            core: ::core::default::Default::default(),
            render: ::core::default::Default::default(),
        }
    }
}
///A system's query over `Core`'s components: `CoreQuery<(&mut Position, &Velocity), Without<FROZEN>>` (see `archetypal::Query`); `Query` for short.
pub type CoreQuery<'w, Q, F = ()> = ::archetypal::Query<'w, CoreComponentArrays, Q, F>;
#[doc(hidden)]
#[allow(dead_code)]
pub mod __core_short_names {
    ///Short name of `CoreComponentArrays`.
    pub type ComponentArrays = super::CoreComponentArrays;
    ///Short name of `CoreCommand`.
    pub type Command = super::CoreCommand;
    ///Short name of `CoreMask`.
    pub type Mask = super::CoreMask;
    ///Short name of `CoreQuery`, a system's query over `Core`'s components.
    pub type Query<'w, Q, F = ()> = super::CoreQuery<'w, Q, F>;
    ///Short name of `CoreComponentArraysMut`.
    pub type ComponentArraysMut<'a> = super::CoreComponentArraysMut<'a>;
    ///Short name of `CoreCommands`, its command queue.
    pub type Commands<'a> = super::CoreCommands<'a>;
    ///Number of components `Core` declares.
    pub const COMPONENT_COUNT: usize = super::Core::COMPONENT_COUNT;
}
#[allow(unused_imports, ambiguous_glob_reexports)]
pub use __core_short_names::*;
///A system's query over `Render`'s components: `RenderQuery<(&mut Position, &Velocity), Without<FROZEN>>` (see `archetypal::Query`); `Query` for short.
pub type RenderQuery<'w, Q, F = ()> = ::archetypal::Query<
    'w,
    RenderComponentArrays,
    Q,
    F,
>;
#[doc(hidden)]
#[allow(dead_code)]
pub mod __render_short_names {
    ///Short name of `RenderComponentArrays`.
    pub type ComponentArrays = super::RenderComponentArrays;
    ///Short name of `RenderCommand`.
    pub type Command = super::RenderCommand;
    ///Short name of `RenderMask`.
    pub type Mask = super::RenderMask;
    ///Short name of `RenderQuery`, a system's query over `Render`'s components.
    pub type Query<'w, Q, F = ()> = super::RenderQuery<'w, Q, F>;
    ///Short name of `RenderComponentArraysMut`.
    pub type ComponentArraysMut<'a> = super::RenderComponentArraysMut<'a>;
    ///Short name of `RenderCommands`, its command queue.
    pub type Commands<'a> = super::RenderCommands<'a>;
    ///Number of components `Render` declares.
    pub const COMPONENT_COUNT: usize = super::Render::COMPONENT_COUNT;
}
#[allow(unused_imports, ambiguous_glob_reexports)]
pub use __render_short_names::*;
#[doc(hidden)]
#[allow(dead_code)]
pub mod __game_short_names {
    ///Short name of `GameResources`.
    pub type Resources = super::GameResources;
    ///Short name of `GameEvents`.
    pub type Events = super::GameEvents;
    ///Short name of `GameCommand`.
    pub type Command = super::GameCommand;
    ///Short name of `GameEntityBuilder`.
    pub type EntityBuilder = super::GameEntityBuilder;
}
#[allow(unused_imports, ambiguous_glob_reexports)]
pub use __game_short_names::*;
impl Core {
    ///Number of components `Core` declares.
    pub const COMPONENT_COUNT: usize = <CoreComponentArrays as ::archetypal::Archetype>::COMPONENT_COUNT;
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
    ///Writes the `position` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `position`: O(the entity's components)), with what the sub-world's `Rules` add or remove in it. `false`, and nothing written, for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn set_position(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) -> bool {
        self.storage.set(entity, POSITION, value, Self::__mut_position)
    }
    ///Adds a default `position` to `entity`: one migration (the row moves to the table with `position`: O(the entity's components)), with what the sub-world's `Rules` add or remove in it; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn add_position(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_components(entity, POSITION)
    }
    ///Removes the `position` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components)), with the components the sub-world's `Rules` remove with it. `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `position`, or a removal the rules refuse.
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
}
impl<'a> CoreTables<'a> {
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
        F: ::core::ops::FnMut(::archetypal::Entity, &'a CoreComponentArrays, usize),
    {
        self.tables.for_each(f);
    }
    ///The `position` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `position`.
    #[inline]
    pub fn get_position(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&'a (f32, f32)> {
        self.tables.get(entity, POSITION, Core::__ref_position)
    }
}
impl Render {
    ///Number of components `Render` declares.
    pub const COMPONENT_COUNT: usize = <RenderComponentArrays as ::archetypal::Archetype>::COMPONENT_COUNT;
    ///The `sprite` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `sprite`.
    #[inline]
    pub fn get_sprite(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&u32> {
        self.storage.get(entity, SPRITE, Self::__ref_sprite)
    }
    ///The `sprite` of `entity`, mutably, in O(1) (stamped as changed); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `sprite`.
    #[inline]
    pub fn get_sprite_mut(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&mut u32> {
        self.storage.get_mut(entity, SPRITE, Self::__mut_sprite)
    }
    ///The `sprite` of each of `entities` at once, mutably (collision response between two ships), after the standard library's `get_disjoint_mut`, in O(1) per handle (O(N²) comparisons for the repeats); `None` if a handle is dead, stale or never issued, lacks a `sprite`, or is repeated. Each is stamped as changed.
    #[inline]
    pub fn get_disjoint_sprite_mut<const __N: usize>(
        &mut self,
        entities: [::archetypal::Entity; __N],
    ) -> ::core::option::Option<[&mut u32; __N]> {
        self.storage.get_disjoint_mut(entities, SPRITE, Self::__mut_sprite)
    }
    ///Writes the `sprite` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `sprite`: O(the entity's components)), with what the sub-world's `Rules` add or remove in it. `false`, and nothing written, for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn set_sprite(&mut self, entity: ::archetypal::Entity, value: u32) -> bool {
        self.storage.set(entity, SPRITE, value, Self::__mut_sprite)
    }
    ///Adds a default `sprite` to `entity`: one migration (the row moves to the table with `sprite`: O(the entity's components)), with what the sub-world's `Rules` add or remove in it; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle, or a change the rules refuse.
    #[inline]
    pub fn add_sprite(&mut self, entity: ::archetypal::Entity) -> bool {
        self.storage.add_components(entity, SPRITE)
    }
    ///Removes the `sprite` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components)), with the components the sub-world's `Rules` remove with it. `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `sprite`, or a removal the rules refuse.
    #[inline]
    pub fn remove_sprite(
        &mut self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<u32> {
        self.storage.take(entity, SPRITE, Self::__mut_sprite)
    }
    ///Whether `entity` is alive and has a `sprite`, in O(1); `false` for a dead, stale (id reused) or never-issued handle.
    #[inline]
    pub fn has_sprite(&self, entity: ::archetypal::Entity) -> bool {
        self.storage.has_components(entity, SPRITE)
    }
}
impl<'a> RenderTables<'a> {
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
        F: ::core::ops::FnMut(::archetypal::Entity, &'a RenderComponentArrays, usize),
    {
        self.tables.for_each(f);
    }
    ///The `sprite` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `sprite`.
    #[inline]
    pub fn get_sprite(
        &self,
        entity: ::archetypal::Entity,
    ) -> ::core::option::Option<&'a u32> {
        self.tables.get(entity, SPRITE, Render::__ref_sprite)
    }
}
impl CoreCommands<'_> {
    ///Queues setting the `position` of `entity` (O(1)); applied as `set_position` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_set_position(
        &mut self,
        entity: ::archetypal::Entity,
        value: (f32, f32),
    ) {
        self.queue.push(CoreCommand::SetPosition(entity, value));
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
}
impl RenderCommands<'_> {
    ///Queues setting the `sprite` of `entity` (O(1)); applied as `set_sprite` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_set_sprite(&mut self, entity: ::archetypal::Entity, value: u32) {
        self.queue.push(RenderCommand::SetSprite(entity, value));
    }
}
impl GameCommands<'_> {
    /// Queues a spawn of `count` entities with no components and returns their
    /// handles now, so later queued commands can target them. They are not alive
    /// until `apply_commands`.
    #[inline]
    pub fn queue_spawn_entities(
        &mut self,
        count: usize,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        self.queue.queue_spawn_reserved((), count)
    }
    /// Queues disabling `entity` in every sub-world (O(1)); applied as the game's
    /// `disable`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_disable(&mut self, entity: ::archetypal::Entity) {
        self.queue.queue_set_disabled(entity, true)
    }
    /// Queues enabling `entity` in every sub-world (O(1)); applied as the game's
    /// `enable`, skipped and counted if `entity` is dead by then.
    #[inline]
    pub fn queue_enable(&mut self, entity: ::archetypal::Entity) {
        self.queue.queue_set_disabled(entity, false)
    }
    ///The `Core` sub-world's queue: its components', tags' and relations' `queue_*` methods.
    #[inline]
    pub fn core(&mut self) -> CoreCommands<'_> {
        CoreCommands {
            queue: self.queue.part(),
        }
    }
    ///The `Render` sub-world's queue: its components', tags' and relations' `queue_*` methods.
    #[inline]
    pub fn render(&mut self) -> RenderCommands<'_> {
        RenderCommands {
            queue: self.queue.part(),
        }
    }
}
impl GameEvents {
    /// Ages every channel by a frame: events older than two frames expire.
    /// O(event types) plus the events dropped.
    #[inline]
    #[allow(unused_doc_comments)]
    pub fn update(&mut self) {
        self.landed.update();
    }
}
impl Game {
    /// An empty multi-world with default resources.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// The command queue: queued spawns and despawns, and each sub-world's queue
    /// (`commands().core()`), applied in the order queued by `apply_commands()`.
    #[inline]
    pub fn commands(&mut self) -> GameCommands<'_> {
        self.split_mut().commands
    }
    /// Borrows the multi-world apart: every sub-world, `resources`, `events` and
    /// `commands`, each usable while the others are borrowed.
    #[inline]
    pub fn split_mut(&mut self) -> GameParts<'_> {
        let reserver = ::archetypal::__private::multi_world::entity_reserver(self);
        GameParts {
            core: &mut self.core,
            render: &mut self.render,
            resources: &mut self.resources,
            events: &mut self.events,
            commands: GameCommands {
                queue: self.entities.commands(reserver),
            },
        }
    }
    /// Spawns an entity with no components; add them through the sub-worlds
    /// (`game.core.set_position(entity, ...)`).
    #[inline]
    pub fn spawn(&mut self) -> ::archetypal::Entity {
        ::archetypal::__private::multi_world::spawn(self)
    }
    /// Spawns `count` entities with no components, allocating once.
    #[inline]
    pub fn spawn_entities(
        &mut self,
        count: usize,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::multi_world::spawn_entities(self, count)
    }
    /// Spawns one entity per tuple of component values `values` yields, whose
    /// elements may live in any sub-world (`(Position, Sprite)`): each value moved into
    /// its column once, reserving once from the size hint; the sub-worlds the tuple
    /// names nothing in give the entities no components. Returns the handles in the
    /// order of the values; an iterator that panics spawns nothing.
    ///
    /// What the values' components require by a sub-world's rules is
    /// default-initialised there.
    ///
    /// # Panics
    /// If the tuple names a component twice, or two members of one exclusive group
    /// (or what requires one of them), before anything changes.
    #[inline]
    pub fn spawn_values<V, M>(
        &mut self,
        values: impl ::core::iter::IntoIterator<Item = V>,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity>
    where
        V: ::archetypal::GameValues<Self, M>,
    {
        ::archetypal::__private::multi_world::spawn_values(self, values)
    }
    /// Despawns `entity` from every sub-world, dropping all its components and
    /// tags: O(its components, over all sub-worlds). `false`, and nothing
    /// changes, for a dead, stale (id reused) or never-issued handle. Every sub-world's relations apply their
    /// policies: the sources of a `[cascade]` relation are despawned too, from
    /// every sub-world (recursively, by every sub-world's relations), the others
    /// unlinked.
    #[inline]
    pub fn despawn(&mut self, entity: ::archetypal::Entity) -> bool {
        ::archetypal::__private::multi_world::despawn(self, entity)
    }
    /// Despawns every live entity of `entities`; returns those actually despawned
    /// (dead, stale, never-issued and repeated handles are skipped). A component `Drop` that panics does so after its entity left every
    /// sub-world, and the entities after it are despawned while the panic unwinds:
    /// the call despawns all it was given, from every sub-world.
    #[inline]
    pub fn despawn_entities(
        &mut self,
        entities: &[::archetypal::Entity],
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::multi_world::despawn_entities(self, entities)
    }
    /// Disables `entity` in every sub-world at once: every sub-world's queries skip it
    /// (as a sub-world's own `disable` does there) while it keeps its handle,
    /// components, tags and links. One row move per sub-world; no hook fires. `true`
    /// if the entity is alive, `false` for a dead, stale or never-issued handle.
    #[inline]
    pub fn disable(&mut self, entity: ::archetypal::Entity) -> bool {
        ::archetypal::__private::multi_world::set_disabled(self, entity, true)
    }
    /// Enables `entity` again in every sub-world (however it was disabled). `true` if
    /// the entity is alive, `false` for a dead, stale or never-issued handle.
    #[inline]
    pub fn enable(&mut self, entity: ::archetypal::Entity) -> bool {
        ::archetypal::__private::multi_world::set_disabled(self, entity, false)
    }
    /// Whether `entity` is alive and disabled in every sub-world, as `disable` leaves
    /// it (one disabled by a sub-world's own `disable` only is not; ask the sub-world).
    #[inline]
    pub fn is_disabled(&self, entity: ::archetypal::Entity) -> bool {
        ::archetypal::__private::multi_world::is_disabled(self, entity)
    }
    /// Whether `entity` is alive (a stale or never-issued handle is not), in O(1).
    #[inline]
    pub fn is_alive(&self, entity: ::archetypal::Entity) -> bool {
        self.core.is_alive(entity)
    }
    /// Number of live entities.
    #[inline]
    pub fn entity_count(&self) -> usize {
        self.core.entity_count()
    }
    /// Every live entity, in id order: O(ids ever issued).
    #[inline]
    pub fn entities(
        &self,
    ) -> impl ::core::iter::Iterator<Item = ::archetypal::Entity> + '_ {
        self.core.entities()
    }
    /// The current tick (every sub-world's, unless one was advanced on its own).
    #[inline]
    pub fn current_tick(&self) -> ::archetypal::Tick {
        self.core.storage.current_tick()
    }
    /// The tick at which the last frame ended (the last `step()`).
    #[inline]
    pub fn last_tick(&self) -> ::archetypal::Tick {
        self.core.storage.last_tick()
    }
    /// Advances every sub-world's tick without ending the frame; returns the first
    /// sub-world's new tick.
    #[inline]
    pub fn increment_tick(&mut self) -> ::archetypal::Tick {
        ::archetypal::__private::multi_world::increment_tick(self)
    }
    /// Ends a frame: every sub-world's tick advances and events older than two
    /// frames expire.
    #[inline]
    pub fn step(&mut self) {
        ::archetypal::__private::multi_world::end_frame(self);
        self.events.update();
    }
    /// Applies every queued command, the game's spawns and despawns and every
    /// sub-world's changes, in the order queued, and empties the queue, as a
    /// world's `apply_commands` does. A command whose entity is no longer alive (or
    /// never was) is skipped; the report counts both. If one panics (a
    /// component's `Default`, `Clone` or `Drop`), the commands before it are
    /// applied and the ones after it stay queued. This is the game's sync point:
    /// the hooks of its `Hooks` blocks run here.
    #[inline]
    pub fn apply_commands(&mut self) -> ::archetypal::CommandReport {
        ::archetypal::__private::multi_world::apply_commands_with_hooks(
            self,
            Self::run_hooks,
        )
    }
    /// Whether a change waits for the hooks (the game's own or a sub-world's): they
    /// run at the next `apply_commands()`. Always `false` in a game without hooks.
    #[inline]
    pub fn hooks_pending(&self) -> bool {
        ::archetypal::__private::multi_world::hooks_pending(self)
    }
    /// Number of queued commands (the game's and every sub-world's).
    #[inline]
    pub fn command_count(&self) -> usize {
        self.entities.queued_commands().len()
    }
    /// The queued commands, in order (the buffer dereferences to them), and the
    /// values of the queued spawns (`staged().spawns()`).
    #[inline]
    pub fn queued_commands(&self) -> &::archetypal::CommandBuffer<GameCommand> {
        self.entities.queued_commands()
    }
    /// Drops every queued command without applying it; handles reserved by a
    /// queued spawn are given back (in ascending id order) and never become alive.
    #[inline]
    pub fn clear_commands(&mut self) {
        ::archetypal::__private::multi_world::clear_commands(self)
    }
    /// Checks every sub-world's invariants, and that each records the same ids at the
    /// same generations and states (see `archetypal::EntityRecords::same_ids`).
    #[inline]
    pub fn check_invariants(
        &self,
    ) -> ::core::result::Result<(), ::archetypal::InvariantError> {
        ::archetypal::__private::multi_world::check_invariants(self)
    }
    ///Makes this game equal to `earlier`, a clone taken before (the rollback of a rollback netcode, the reset of an editor's play mode), reusing this game's allocations: `clone_from`. Callable when the game is `Clone` (every component, resource and event type is). Queued commands are dropped. O(the whole game): every value of `earlier` is cloned.
    #[inline]
    pub fn restore(&mut self, earlier: &Self)
    where
        for<'x> Self: ::core::clone::Clone,
    {
        ::core::clone::Clone::clone_from(self, earlier);
    }
    /// Feature `serde`. The game, borrowed for saving in any serde format
    /// (`serde_json::to_string(&game.snapshot())`): its entity index (handles stay valid,
    /// the next spawn gets the same id), every sub-world, the resources and where
    /// numbering stands, and the `[saved]` channels' events; not queued commands (see
    /// `archetypal::snapshot`). `.checksum()` is its stable hash. Callable when every type
    /// is `Serialize`. O(1); serializing is O(the whole game).
    #[inline]
    pub fn snapshot(&self) -> ::archetypal::MultiWorldSnapshot<'_, Self>
    where
        for<'x> Self: ::archetypal::snapshot::SerializeMultiWorld,
    {
        ::archetypal::MultiWorldSnapshot::new(self)
    }
    /// Feature `serde`. The game a decoded snapshot describes (`serde_json::from_str::<
    /// MultiWorldSnapshotData<Game>>(&text)`), all of it checked: the whole game or an error
    /// saying what is wrong, never a panic or a half-loaded game; O(the whole game). The
    /// game is also `Deserialize`. Callable when every type is `Deserialize`.
    #[inline]
    pub fn from_snapshot(
        snapshot: ::archetypal::MultiWorldSnapshotData<Self>,
    ) -> ::core::result::Result<Self, ::archetypal::SnapshotError>
    where
        for<'x> Self: ::archetypal::snapshot::DeserializeMultiWorld,
    {
        snapshot.into_multi_world()
    }
}
impl GameEntityBuilder {
    /// A builder with no components.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Spawns one entity in every sub-world, moving the builder's values into it
    /// (no `Clone` needed): O(the game's components).
    #[inline]
    pub fn spawn_one(self, game: &mut Game) -> ::archetypal::Entity {
        ::archetypal::__private::multi_world::spawn_one(game, self)
    }
    /// Spawns `count` entities in every sub-world with the builder's components,
    /// each given a clone of the values (the last one takes them): O(`count` ×
    /// the game's components).
    ///
    /// # Panics
    /// Before spawning anything, if `count > 1` and the builder holds a value whose
    /// type is not `Clone` (the message names the component); spawn such entities
    /// one at a time with [`spawn_one`](Self::spawn_one).
    #[inline]
    pub fn spawn(
        self,
        game: &mut Game,
        count: usize,
    ) -> ::archetypal::__private::alloc::vec::Vec<::archetypal::Entity> {
        ::archetypal::__private::multi_world::spawn_built(game, self, count)
    }
    ///Gives the entities a `position` of `value` (a later `with_position` replaces it).
    #[inline]
    pub fn with_position(mut self, value: (f32, f32)) -> Self {
        self.core.position = ::core::option::Option::Some(value);
        self.core.mask |= POSITION;
        self
    }
    ///Also gives the entities the tags of `mask` (a `Core` mask), and its components that the builder holds no value for, default-initialised (relation bits are ignored: links come from linking only).
    #[inline]
    pub fn with_core_mask(mut self, mask: CoreMask) -> Self {
        self.core.mask |= mask;
        self
    }
    ///Gives the entities a `sprite` of `value` (a later `with_sprite` replaces it).
    #[inline]
    pub fn with_sprite(mut self, value: u32) -> Self {
        self.render.sprite = ::core::option::Option::Some(value);
        self.render.mask |= SPRITE;
        self
    }
    ///Also gives the entities the tags of `mask` (a `Render` mask), and its components that the builder holds no value for, default-initialised (relation bits are ignored: links come from linking only).
    #[inline]
    pub fn with_render_mask(mut self, mask: RenderMask) -> Self {
        self.render.mask |= mask;
        self
    }
}
#[allow(unused, nonstandard_style)]
const _: () = {
    enum __Bit {
        position,
        player,
        __END,
    }
    impl __Bit {
        const fn mask(self) -> CoreMask {
            ::archetypal::__private::mask_bit(self as u32) as CoreMask
        }
    }
    impl CoreComponentArrays {
        const POSITION: CoreMask = __Bit::position.mask();
        const PLAYER: CoreMask = __Bit::player.mask();
    }
    impl Core {
        #[inline(always)]
        fn __ref_position(table: &CoreComponentArrays) -> &[(f32, f32)] {
            &table.position
        }
        #[inline(always)]
        fn __mut_position(table: &mut CoreComponentArrays) -> &mut [(f32, f32)] {
            &mut table.position
        }
    }
    impl ::archetypal::system::TagOf<PLAYER> for CoreComponentArrays {
        const BIT: u128 = PLAYER as u128;
    }
    mod __column {
        pub const position: u32 = super::POSITION.trailing_zeros();
    }
    const _: () = ::archetypal::__private::check_world(
        "Core",
        ::archetypal::__private::WorldNames {
            components: &["position"],
            tags: &["player"],
            relations: &[],
            reverses: &[],
        },
        &["POSITION", "PLAYER"],
        __Bit::__END as usize,
    );
    impl ::archetypal::Archetype for CoreComponentArrays {
        type Mask = <::archetypal::MaskWidth<
            { (__Bit::__END as usize) < 64 },
        > as ::archetypal::SelectMask>::Mask;
        type ViewMut<'a> = CoreComponentArraysMut<'a>;
        type Removed = CoreRemoved;
        type TickColumns = [::archetypal::__private::TickColumn; <Self as ::archetypal::Archetype>::COMPONENT_COUNT];
        const COMPONENT_COUNT: usize = ["position"].len();
        const COMPONENTS: CoreMask = ::archetypal::__private::low_bits(
            <Self as ::archetypal::Archetype>::COMPONENT_COUNT as u32,
        ) as CoreMask;
        const TRACKED: CoreMask = {
            let tracked = 0;
            let tracked = tracked | POSITION;
            tracked
        };
        const TAGS: CoreMask = ::archetypal::__private::low_bits(__Bit::__END as u32)
            as CoreMask & !<Self as ::archetypal::Archetype>::COMPONENTS;
        const RELATIONS: CoreMask = {
            let relations = 0;
            relations
        };
        const HOOKS: ::archetypal::HookSet<CoreMask> = {
            let all = ::archetypal::__private::low_bits(__Bit::__END as u32) as CoreMask;
            let components = <Self as ::archetypal::Archetype>::COMPONENTS;
            let relations = <Self as ::archetypal::Archetype>::RELATIONS;
            let hooks = ::archetypal::HookSet::<
                CoreMask,
            >::new(all, components, relations);
            let hooks = hooks.on_add(PLAYER);
            hooks
        };
        const CASCADE: CoreMask = {
            let cascade = 0;
            cascade
        };
        #[inline]
        fn new(mask: CoreMask) -> Self {
            Self {
                mask,
                entities: ::archetypal::__private::alloc::vec::Vec::new(),
                position: ::archetypal::__private::alloc::vec::Vec::new(),
            }
        }
        #[inline]
        fn mask(&self) -> CoreMask {
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
            visitor: &mut impl ::archetypal::ColumnVisitor<CoreMask>,
        ) {
            visitor.visit(&mut self.position, POSITION);
        }
        #[inline(always)]
        fn for_each_column_pair(
            &mut self,
            other: &mut Self,
            visitor: &mut impl ::archetypal::ColumnPairVisitor<CoreMask>,
        ) {
            visitor.visit(&mut self.position, &mut other.position, POSITION);
        }
        #[inline(always)]
        fn for_each_column_ref(
            &self,
            visitor: &mut impl ::archetypal::ColumnRefVisitor<CoreMask>,
        ) {
            visitor.visit(&self.position, POSITION);
        }
        #[inline]
        fn swap_remove(&mut self, row: usize) -> Self::Removed {
            let take = ::archetypal::__private::column::TakeRow::new(self.mask, row);
            let mut removed = <Self as ::archetypal::Archetype>::removed(self.mask);
            take.column(&mut removed.position, &mut self.position, POSITION);
            self.entities.swap_remove(row);
            removed
        }
        #[inline]
        fn swap_remove_keeping(
            &mut self,
            row: usize,
            keep: CoreMask,
            had: CoreMask,
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
            self.entities.swap_remove(row);
            (dropped, kept)
        }
        #[inline]
        fn removed(mask: CoreMask) -> Self::Removed {
            CoreRemoved {
                mask,
                position: ::core::option::Option::None,
            }
        }
        #[inline]
        fn keep_parked(&mut self, keep: CoreMask, removed: &mut Self::Removed) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            column::take_parked(
                &mut removed.position,
                &mut self.position,
                keep & POSITION != 0,
                rows,
            );
        }
        #[inline]
        fn edit_column(&mut self, bit: u32, op: ::archetypal::__private::ColumnEdit) {
            use ::archetypal::__private::column;
            match bit {
                __column::position => column::edit(&mut self.position, op),
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
                _ => {}
            }
        }
        #[inline(always)]
        fn view_mut(
            &mut self,
            include: CoreMask,
        ) -> (&[::archetypal::Entity], CoreComponentArraysMut<'_>) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            let view = CoreComponentArraysMut {
                mask: self.mask,
                entities: &self.entities,
                position: column::view(&mut self.position, include & POSITION, rows),
            };
            (&self.entities, view)
        }
        #[inline]
        fn view_with<'a>(
            &'a mut self,
            entities: &'a [::archetypal::Entity],
            include: CoreMask,
        ) -> CoreComponentArraysMut<'a> {
            use ::archetypal::__private::column;
            CoreComponentArraysMut {
                mask: self.mask & include,
                entities,
                position: column::view(
                    &mut self.position,
                    include & POSITION,
                    entities.len(),
                ),
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
            let before = CoreComponentArraysMut {
                mask: view.mask,
                entities: entities_before,
                position: position_halves.0,
            };
            let after = CoreComponentArraysMut {
                mask: view.mask,
                entities: entities_after,
                position: position_halves.1,
            };
            (before, after)
        }
    }
    pub struct __SharedColumns<'a> {
        mask: CoreMask,
        position: &'a [(f32, f32)],
    }
    impl ::archetypal::TypedTable for CoreComponentArrays {
        type Columns<'v> = __SharedColumns<'v>;
        type TablesRead<'a> = CoreTables<'a>;
        #[inline]
        fn share<'v>(view: Self::ViewMut<'v>) -> Self::Columns<'v> {
            __SharedColumns {
                mask: view.mask,
                position: view.position,
            }
        }
        #[inline]
        fn columns(&self) -> Self::Columns<'_> {
            __SharedColumns {
                mask: self.mask,
                position: &self.position,
            }
        }
        #[inline]
        fn view_mask(view: &Self::ViewMut<'_>) -> CoreMask {
            view.mask
        }
        #[inline]
        fn read_side(tables: ::archetypal::TablesRef<'_, Self>) -> CoreTables<'_> {
            CoreTables { tables }
        }
        const TRACKED_BITS: u128 = <Self as ::archetypal::Archetype>::TRACKED as u128;
        const COMPONENT_BITS: u128 = <Self as ::archetypal::Archetype>::COMPONENTS
            as u128;
    }
    mod __component {
        pub enum position {}
    }
    impl ::archetypal::ComponentColumn<(f32, f32), __component::position>
    for CoreComponentArrays {
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
    impl ::core::default::Default for CoreEntityValues {
        #[inline]
        fn default() -> Self {
            Self {
                mask: 0,
                links: ::archetypal::__private::Links::new(),
                position: ::core::option::Option::None,
            }
        }
    }
    impl ::archetypal::__private::EntityValues for CoreEntityValues {
        type Archetype = CoreComponentArrays;
        #[inline]
        fn mask(&self) -> CoreMask {
            self.mask
        }
        #[inline(always)]
        fn take_into(&mut self, table: &mut Self::Archetype) {
            use ::archetypal::__private::column::push_held;
            push_held(&mut table.position, self.position.take(), table.mask & POSITION);
        }
        #[inline]
        fn links(&self) -> &[(CoreMask, ::archetypal::Entity)] {
            self.links.as_slice()
        }
        #[inline]
        fn copy_held(&self) -> Self {
            use ::archetypal::__private::{CloneProbe, IsClone as _, NotClone as _};
            Self {
                mask: self.mask,
                links: ::archetypal::__private::Links::new(),
                position: (&CloneProbe(&self.position, "position")).cloned(),
            }
        }
    }
    impl ::archetypal::PartCommand for CoreCommand {
        type Mask = CoreMask;
        #[inline]
        fn structural(command: ::archetypal::StructuralCommand<CoreMask>) -> Self {
            Self::Structural(command)
        }
    }
    impl CoreCommand {
        #[inline]
        fn apply(
            world: &mut Core,
            command: Self,
            report: &mut ::archetypal::CommandReport,
        ) {
            match command {
                Self::Structural(c) => c.apply(&mut world.storage, report),
                Self::SetPosition(e, v) => report.record(world.set_position(e, v)),
            }
        }
    }
    impl<'a> ::core::ops::Deref for CoreCommands<'a> {
        type Target = ::archetypal::CommandQueue<'a, CoreCommand, GameCommand>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.queue
        }
    }
    impl<'a> ::core::ops::DerefMut for CoreCommands<'a> {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.queue
        }
    }
    impl ::core::ops::Deref for Core {
        type Target = ::archetypal::Storage<CoreComponentArrays>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.storage
        }
    }
    impl ::core::ops::DerefMut for Core {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.storage
        }
    }
    impl<C: 'static, M> ::archetypal::GameColumn<C, (Core, M)> for Game
    where
        CoreComponentArrays: ::archetypal::ComponentColumn<C, M>,
    {
        type Tables = CoreComponentArrays;
        type Marker = M;
        #[inline]
        fn sub_world(
            game: &mut Self,
        ) -> &mut ::archetypal::Storage<CoreComponentArrays> {
            &mut game.core.storage
        }
    }
    impl ::archetypal::SubWorld for Core {
        type Tables = CoreComponentArrays;
        type Values = CoreEntityValues;
        const NAME: &'static str = "Core";
        #[inline]
        fn storage(&self) -> &::archetypal::Storage<CoreComponentArrays> {
            &self.storage
        }
        #[inline]
        fn storage_mut(&mut self) -> &mut ::archetypal::Storage<CoreComponentArrays> {
            &mut self.storage
        }
    }
    mod __compiled_out {
        pub type __component_position = ();
    }
    use __compiled_out::*;
    type __component_position = (f32, f32);
    impl ::core::clone::Clone for CoreComponentArrays
    where
        for<'x> __component_position: ::core::clone::Clone,
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
        }
    }
    impl ::archetypal::snapshot::SnapshotTables for Core {
        type Table = CoreComponentArrays;
        const COMPONENTS: &'static [(&'static str, CoreMask)] = &[
            ("position", POSITION),
        ];
        const TAGS: &'static [(&'static str, CoreMask)] = &[("player", PLAYER)];
        const RELATIONS: &'static [(&'static str, CoreMask)] = &[];
    }
    impl ::archetypal::snapshot::SerializeTables for Core
    where
        for<'x> __component_position: ::archetypal::__private::serde::Serialize,
    {
        #[inline]
        fn serialize_column<S: ::archetypal::__private::serde::ser::SerializeMap>(
            table: &Self::Table,
            column: ::archetypal::snapshot::ColumnOut<'_, S, CoreMask>,
        ) -> ::core::result::Result<(), S::Error> {
            match column.bit() {
                POSITION => column.write(&table.position),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl<'de> ::archetypal::snapshot::DeserializeColumns<'de> for Core
    where
        __component_position: ::archetypal::__private::serde::Deserialize<'de>,
    {
        #[inline]
        fn deserialize_column<A: ::archetypal::__private::serde::de::MapAccess<'de>>(
            table: &mut Self::Table,
            column: ::archetypal::snapshot::ColumnIn<'_, A, CoreMask>,
        ) -> ::core::result::Result<(), A::Error> {
            table.mask |= column.bit();
            match column.bit() {
                POSITION => column.read(&mut table.position),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
};
#[allow(unused, nonstandard_style)]
const _: () = {
    enum __Bit {
        sprite,
        __END,
    }
    impl __Bit {
        const fn mask(self) -> RenderMask {
            ::archetypal::__private::mask_bit(self as u32) as RenderMask
        }
    }
    impl RenderComponentArrays {
        const SPRITE: RenderMask = __Bit::sprite.mask();
    }
    impl Render {
        #[inline(always)]
        fn __ref_sprite(table: &RenderComponentArrays) -> &[u32] {
            &table.sprite
        }
        #[inline(always)]
        fn __mut_sprite(table: &mut RenderComponentArrays) -> &mut [u32] {
            &mut table.sprite
        }
    }
    mod __column {
        pub const sprite: u32 = super::SPRITE.trailing_zeros();
    }
    const _: () = ::archetypal::__private::check_world(
        "Render",
        ::archetypal::__private::WorldNames {
            components: &["sprite"],
            tags: &[],
            relations: &[],
            reverses: &[],
        },
        &["SPRITE"],
        __Bit::__END as usize,
    );
    impl ::archetypal::Archetype for RenderComponentArrays {
        type Mask = <::archetypal::MaskWidth<
            { (__Bit::__END as usize) < 64 },
        > as ::archetypal::SelectMask>::Mask;
        type ViewMut<'a> = RenderComponentArraysMut<'a>;
        type Removed = RenderRemoved;
        type TickColumns = [::archetypal::__private::TickColumn; <Self as ::archetypal::Archetype>::COMPONENT_COUNT];
        const COMPONENT_COUNT: usize = ["sprite"].len();
        const COMPONENTS: RenderMask = ::archetypal::__private::low_bits(
            <Self as ::archetypal::Archetype>::COMPONENT_COUNT as u32,
        ) as RenderMask;
        const TRACKED: RenderMask = {
            let tracked = 0;
            let tracked = tracked | SPRITE;
            tracked
        };
        const TAGS: RenderMask = ::archetypal::__private::low_bits(__Bit::__END as u32)
            as RenderMask & !<Self as ::archetypal::Archetype>::COMPONENTS;
        const RELATIONS: RenderMask = {
            let relations = 0;
            relations
        };
        const HOOKS: ::archetypal::HookSet<RenderMask> = {
            let all = ::archetypal::__private::low_bits(__Bit::__END as u32)
                as RenderMask;
            let components = <Self as ::archetypal::Archetype>::COMPONENTS;
            let relations = <Self as ::archetypal::Archetype>::RELATIONS;
            let hooks = ::archetypal::HookSet::<
                RenderMask,
            >::new(all, components, relations);
            let hooks = hooks.on_game_despawn();
            hooks
        };
        const CASCADE: RenderMask = {
            let cascade = 0;
            cascade
        };
        #[inline]
        fn new(mask: RenderMask) -> Self {
            Self {
                mask,
                entities: ::archetypal::__private::alloc::vec::Vec::new(),
                sprite: ::archetypal::__private::alloc::vec::Vec::new(),
            }
        }
        #[inline]
        fn mask(&self) -> RenderMask {
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
            visitor: &mut impl ::archetypal::ColumnVisitor<RenderMask>,
        ) {
            visitor.visit(&mut self.sprite, SPRITE);
        }
        #[inline(always)]
        fn for_each_column_pair(
            &mut self,
            other: &mut Self,
            visitor: &mut impl ::archetypal::ColumnPairVisitor<RenderMask>,
        ) {
            visitor.visit(&mut self.sprite, &mut other.sprite, SPRITE);
        }
        #[inline(always)]
        fn for_each_column_ref(
            &self,
            visitor: &mut impl ::archetypal::ColumnRefVisitor<RenderMask>,
        ) {
            visitor.visit(&self.sprite, SPRITE);
        }
        #[inline]
        fn swap_remove(&mut self, row: usize) -> Self::Removed {
            let take = ::archetypal::__private::column::TakeRow::new(self.mask, row);
            let mut removed = <Self as ::archetypal::Archetype>::removed(self.mask);
            take.column(&mut removed.sprite, &mut self.sprite, SPRITE);
            self.entities.swap_remove(row);
            removed
        }
        #[inline]
        fn swap_remove_keeping(
            &mut self,
            row: usize,
            keep: RenderMask,
            had: RenderMask,
        ) -> (Self::Removed, Self::Removed) {
            let take = ::archetypal::__private::column::TakeRow::keeping(
                self.mask,
                row,
                keep,
            );
            let mut dropped = <Self as ::archetypal::Archetype>::removed(self.mask);
            let mut kept = <Self as ::archetypal::Archetype>::removed(had);
            take.column_keeping(
                &mut dropped.sprite,
                &mut kept.sprite,
                &mut self.sprite,
                SPRITE,
            );
            self.entities.swap_remove(row);
            (dropped, kept)
        }
        #[inline]
        fn removed(mask: RenderMask) -> Self::Removed {
            RenderRemoved {
                mask,
                sprite: ::core::option::Option::None,
            }
        }
        #[inline]
        fn keep_parked(&mut self, keep: RenderMask, removed: &mut Self::Removed) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            column::take_parked(
                &mut removed.sprite,
                &mut self.sprite,
                keep & SPRITE != 0,
                rows,
            );
        }
        #[inline]
        fn edit_column(&mut self, bit: u32, op: ::archetypal::__private::ColumnEdit) {
            use ::archetypal::__private::column;
            match bit {
                __column::sprite => column::edit(&mut self.sprite, op),
                _ => {}
            }
        }
        #[inline]
        fn move_column(&mut self, bit: u32, row: usize, to: &mut Self) {
            use ::archetypal::__private::column;
            match bit {
                __column::sprite => {
                    column::move_value(&mut self.sprite, &mut to.sprite, row)
                }
                _ => {}
            }
        }
        #[inline(always)]
        fn view_mut(
            &mut self,
            include: RenderMask,
        ) -> (&[::archetypal::Entity], RenderComponentArraysMut<'_>) {
            use ::archetypal::__private::column;
            let rows = self.entities.len();
            let view = RenderComponentArraysMut {
                mask: self.mask,
                entities: &self.entities,
                sprite: column::view(&mut self.sprite, include & SPRITE, rows),
            };
            (&self.entities, view)
        }
        #[inline]
        fn view_with<'a>(
            &'a mut self,
            entities: &'a [::archetypal::Entity],
            include: RenderMask,
        ) -> RenderComponentArraysMut<'a> {
            use ::archetypal::__private::column;
            RenderComponentArraysMut {
                mask: self.mask & include,
                entities,
                sprite: column::view(&mut self.sprite, include & SPRITE, entities.len()),
            }
        }
        #[inline]
        fn split_view<'a>(
            view: Self::ViewMut<'a>,
            at: usize,
        ) -> (Self::ViewMut<'a>, Self::ViewMut<'a>) {
            let split = ::archetypal::__private::column::SplitAt::new(view.mask, at);
            let (entities_before, entities_after) = view.entities.split_at(at);
            let sprite_halves = split.column(view.sprite, SPRITE);
            let before = RenderComponentArraysMut {
                mask: view.mask,
                entities: entities_before,
                sprite: sprite_halves.0,
            };
            let after = RenderComponentArraysMut {
                mask: view.mask,
                entities: entities_after,
                sprite: sprite_halves.1,
            };
            (before, after)
        }
    }
    pub struct __SharedColumns<'a> {
        mask: RenderMask,
        sprite: &'a [u32],
    }
    impl ::archetypal::TypedTable for RenderComponentArrays {
        type Columns<'v> = __SharedColumns<'v>;
        type TablesRead<'a> = RenderTables<'a>;
        #[inline]
        fn share<'v>(view: Self::ViewMut<'v>) -> Self::Columns<'v> {
            __SharedColumns {
                mask: view.mask,
                sprite: view.sprite,
            }
        }
        #[inline]
        fn columns(&self) -> Self::Columns<'_> {
            __SharedColumns {
                mask: self.mask,
                sprite: &self.sprite,
            }
        }
        #[inline]
        fn view_mask(view: &Self::ViewMut<'_>) -> RenderMask {
            view.mask
        }
        #[inline]
        fn read_side(tables: ::archetypal::TablesRef<'_, Self>) -> RenderTables<'_> {
            RenderTables { tables }
        }
        const TRACKED_BITS: u128 = <Self as ::archetypal::Archetype>::TRACKED as u128;
        const COMPONENT_BITS: u128 = <Self as ::archetypal::Archetype>::COMPONENTS
            as u128;
    }
    mod __component {
        pub enum sprite {}
    }
    impl ::archetypal::ComponentColumn<u32, __component::sprite>
    for RenderComponentArrays {
        const BIT: u128 = SPRITE as u128;
        #[inline]
        fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [u32] {
            ::core::mem::take(&mut view.sprite)
        }
        #[inline]
        fn column<'v>(columns: &Self::Columns<'v>) -> &'v [u32] {
            columns.sprite
        }
    }
    impl ::core::default::Default for RenderEntityValues {
        #[inline]
        fn default() -> Self {
            Self {
                mask: 0,
                links: ::archetypal::__private::Links::new(),
                sprite: ::core::option::Option::None,
            }
        }
    }
    impl ::archetypal::__private::EntityValues for RenderEntityValues {
        type Archetype = RenderComponentArrays;
        #[inline]
        fn mask(&self) -> RenderMask {
            self.mask
        }
        #[inline(always)]
        fn take_into(&mut self, table: &mut Self::Archetype) {
            use ::archetypal::__private::column::push_held;
            push_held(&mut table.sprite, self.sprite.take(), table.mask & SPRITE);
        }
        #[inline]
        fn links(&self) -> &[(RenderMask, ::archetypal::Entity)] {
            self.links.as_slice()
        }
        #[inline]
        fn copy_held(&self) -> Self {
            use ::archetypal::__private::{CloneProbe, IsClone as _, NotClone as _};
            Self {
                mask: self.mask,
                links: ::archetypal::__private::Links::new(),
                sprite: (&CloneProbe(&self.sprite, "sprite")).cloned(),
            }
        }
    }
    impl ::archetypal::PartCommand for RenderCommand {
        type Mask = RenderMask;
        #[inline]
        fn structural(command: ::archetypal::StructuralCommand<RenderMask>) -> Self {
            Self::Structural(command)
        }
    }
    impl RenderCommand {
        #[inline]
        fn apply(
            world: &mut Render,
            command: Self,
            report: &mut ::archetypal::CommandReport,
        ) {
            match command {
                Self::Structural(c) => c.apply(&mut world.storage, report),
                Self::SetSprite(e, v) => report.record(world.set_sprite(e, v)),
            }
        }
    }
    impl<'a> ::core::ops::Deref for RenderCommands<'a> {
        type Target = ::archetypal::CommandQueue<'a, RenderCommand, GameCommand>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.queue
        }
    }
    impl<'a> ::core::ops::DerefMut for RenderCommands<'a> {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.queue
        }
    }
    impl ::core::ops::Deref for Render {
        type Target = ::archetypal::Storage<RenderComponentArrays>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.storage
        }
    }
    impl ::core::ops::DerefMut for Render {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.storage
        }
    }
    impl<C: 'static, M> ::archetypal::GameColumn<C, (Render, M)> for Game
    where
        RenderComponentArrays: ::archetypal::ComponentColumn<C, M>,
    {
        type Tables = RenderComponentArrays;
        type Marker = M;
        #[inline]
        fn sub_world(
            game: &mut Self,
        ) -> &mut ::archetypal::Storage<RenderComponentArrays> {
            &mut game.render.storage
        }
    }
    impl ::archetypal::SubWorld for Render {
        type Tables = RenderComponentArrays;
        type Values = RenderEntityValues;
        const NAME: &'static str = "Render";
        #[inline]
        fn storage(&self) -> &::archetypal::Storage<RenderComponentArrays> {
            &self.storage
        }
        #[inline]
        fn storage_mut(&mut self) -> &mut ::archetypal::Storage<RenderComponentArrays> {
            &mut self.storage
        }
    }
    mod __compiled_out {
        pub type __component_sprite = ();
    }
    use __compiled_out::*;
    type __component_sprite = u32;
    impl ::core::clone::Clone for RenderComponentArrays
    where
        for<'x> __component_sprite: ::core::clone::Clone,
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
            ::core::clone::Clone::clone_from(&mut self.sprite, &source.sprite);
        }
    }
    impl ::archetypal::snapshot::SnapshotTables for Render {
        type Table = RenderComponentArrays;
        const COMPONENTS: &'static [(&'static str, RenderMask)] = &[("sprite", SPRITE)];
        const TAGS: &'static [(&'static str, RenderMask)] = &[];
        const RELATIONS: &'static [(&'static str, RenderMask)] = &[];
    }
    impl ::archetypal::snapshot::SerializeTables for Render
    where
        for<'x> __component_sprite: ::archetypal::__private::serde::Serialize,
    {
        #[inline]
        fn serialize_column<S: ::archetypal::__private::serde::ser::SerializeMap>(
            table: &Self::Table,
            column: ::archetypal::snapshot::ColumnOut<'_, S, RenderMask>,
        ) -> ::core::result::Result<(), S::Error> {
            match column.bit() {
                SPRITE => column.write(&table.sprite),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
    impl<'de> ::archetypal::snapshot::DeserializeColumns<'de> for Render
    where
        __component_sprite: ::archetypal::__private::serde::Deserialize<'de>,
    {
        #[inline]
        fn deserialize_column<A: ::archetypal::__private::serde::de::MapAccess<'de>>(
            table: &mut Self::Table,
            column: ::archetypal::snapshot::ColumnIn<'_, A, RenderMask>,
        ) -> ::core::result::Result<(), A::Error> {
            table.mask |= column.bit();
            match column.bit() {
                SPRITE => column.read(&mut table.sprite),
                _ => ::core::result::Result::Ok(()),
            }
        }
    }
};
#[allow(unused, nonstandard_style)]
const _: () = {
    const _: () = ::archetypal::__private::check_sub_worlds(
        "Game",
        &["Core", "Render"],
        &["core", "render"],
        &[&["position"], &["sprite"]],
    );
    impl ::archetypal::MultiWorldBuilder for GameEntityBuilder {
        type Values = (CoreEntityValues, (RenderEntityValues, ()));
        #[inline]
        fn into_values(self) -> Self::Values {
            (self.core, (self.render, ()))
        }
    }
    impl ::core::convert::From<CoreCommand> for GameCommand {
        #[inline]
        fn from(command: CoreCommand) -> Self {
            Self::Core(command)
        }
    }
    impl ::core::convert::From<RenderCommand> for GameCommand {
        #[inline]
        fn from(command: RenderCommand) -> Self {
            Self::Render(command)
        }
    }
    impl ::archetypal::QueuedCommand for GameCommand {
        type Staging = ::archetypal::BuilderStaging<
            <GameEntityBuilder as ::archetypal::MultiWorldBuilder>::Values,
        >;
    }
    impl ::archetypal::SpawningCommand for GameCommand {
        type Values = GameEntityBuilder;
        type Spawn = ();
        #[inline]
        fn lifecycle(command: ::archetypal::LifecycleCommand<()>) -> Self {
            Self::Lifecycle(command)
        }
        #[inline]
        fn lifecycle_mut(
            &mut self,
        ) -> ::core::option::Option<&mut ::archetypal::LifecycleCommand<()>> {
            match self {
                Self::Lifecycle(command) => ::core::option::Option::Some(command),
                _ => ::core::option::Option::None,
            }
        }
    }
    impl<'a> ::core::ops::Deref for GameCommands<'a> {
        type Target = ::archetypal::CommandQueue<'a, GameCommand>;
        #[inline]
        fn deref(&self) -> &Self::Target {
            &self.queue
        }
    }
    impl<'a> ::core::ops::DerefMut for GameCommands<'a> {
        #[inline]
        fn deref_mut(&mut self) -> &mut Self::Target {
            &mut self.queue
        }
    }
    impl ::archetypal::MultiWorld for Game {
        type Builder = GameEntityBuilder;
        type Command = GameCommand;
        type SubWorlds<'a> = (&'a Core, (&'a Render, ())) where Self: 'a;
        type SubWorldsMut<'a> = (&'a mut Core, (&'a mut Render, ())) where Self: 'a;
        #[inline]
        fn parts(
            &self,
        ) -> (Self::SubWorlds<'_>, &::archetypal::MultiWorldEntities<GameCommand>) {
            ((&self.core, (&self.render, ())), &self.entities)
        }
        #[inline]
        fn parts_mut(
            &mut self,
        ) -> (
            Self::SubWorldsMut<'_>,
            &mut ::archetypal::MultiWorldEntities<GameCommand>,
        ) {
            ((&mut self.core, (&mut self.render, ())), &mut self.entities)
        }
        #[inline]
        fn systems(&self) -> &::archetypal::SystemMemories {
            &self.systems
        }
        #[inline]
        fn systems_mut(&mut self) -> &mut ::archetypal::SystemMemories {
            &mut self.systems
        }
        #[inline]
        fn apply_command(
            &mut self,
            command: GameCommand,
            staged: &mut <GameCommand as ::archetypal::QueuedCommand>::Staging,
            report: &mut ::archetypal::CommandReport,
        ) {
            match command {
                GameCommand::Lifecycle(command) => {
                    ::archetypal::__private::multi_world::apply_lifecycle(
                        self,
                        command,
                        staged,
                        report,
                    )
                }
                GameCommand::Core(command) => {
                    CoreCommand::apply(&mut self.core, command, report)
                }
                GameCommand::Render(command) => {
                    RenderCommand::apply(&mut self.render, command, report)
                }
            }
        }
    }
    impl ::core::default::Default for Game {
        #[inline]
        fn default() -> Self {
            Self {
                core: Core {
                    storage: ::archetypal::Storage::new(),
                },
                render: Render {
                    storage: ::archetypal::Storage::new(),
                },
                resources: ::core::default::Default::default(),
                events: ::core::default::Default::default(),
                entities: ::core::default::Default::default(),
                systems: ::core::default::Default::default(),
            }
        }
    }
    /// An exact copy of the game, except its queued commands (the game's and every
    /// sub-world's): a clone starts with none, and the handles their spawns reserved
    /// are given back in the clone. Every sub-world (entities, components, tags,
    /// relations, change ticks, the change log), the game's entity index, resources and
    /// event channels are copied, so the clone issues the same next handles and runs on
    /// exactly as the original would. `clone_from` (and `restore`) reuse the target's
    /// allocations.
    impl ::core::clone::Clone for Game
    where
        for<'x> CoreComponentArrays: ::core::clone::Clone,
        for<'x> RenderComponentArrays: ::core::clone::Clone,
        for<'x> GameResources: ::core::clone::Clone,
        for<'x> GameEvents: ::core::clone::Clone,
    {
        #[inline]
        fn clone(&self) -> Self {
            let mut game = <Self as ::core::default::Default>::default();
            ::core::clone::Clone::clone_from(&mut game, self);
            game
        }
        #[inline]
        fn clone_from(&mut self, source: &Self) {
            ::archetypal::__private::multi_world::clone_from(self, source);
            ::core::clone::Clone::clone_from(&mut self.resources, &source.resources);
            ::core::clone::Clone::clone_from(&mut self.events, &source.events);
            ::core::clone::Clone::clone_from(&mut self.systems, &source.systems);
        }
    }
    const _: () = if !(<<Game as ::archetypal::ParamWorld>::Parts as ::archetypal::system::PartList>::COUNT
        <= ::archetypal::system::MAX_PARTS)
    {
        {
            ::core::panicking::panic_fmt(
                format_args!(
                    "ecs!: a game declares at most 8 sub-worlds (each holds up to 128 components and tags: merge some)",
                ),
            );
        }
    };
    impl ::archetypal::ParamWorld for Game {
        type Parts = (CoreComponentArrays, (RenderComponentArrays, ()));
        type Resources = GameResources;
        type Events = GameEvents;
        type Commands<'w> = GameCommands<'w>;
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
                .then(|| ::archetypal::__private::multi_world::entity_reserver(self));
            let lent = ::archetypal::system::Lent {
                storages: (&mut self.core.storage, (&mut self.render.storage, ())),
                resources: ::archetypal::system::ResourceSet::slots(&mut self.resources),
                events: ::archetypal::system::EventSet::slots(&mut self.events),
                commands: commands
                    .map(|reserver| GameCommands {
                        queue: self.entities.commands(reserver),
                    }),
            };
            (lent, &mut self.systems)
        }
    }
    impl ::archetypal::system::LentCommands<Game> for GameCommands<'_> {}
    impl ::archetypal::SystemWorld for Game {
        type EventCursors = GameEventCursors;
        fn apply_commands(&mut self) -> ::archetypal::CommandReport {
            Game::apply_commands(self)
        }
        fn current_tick(&self) -> ::archetypal::Tick {
            self.current_tick()
        }
        fn increment_tick(&mut self) -> ::archetypal::Tick {
            self.increment_tick()
        }
        fn is_settled(&self) -> bool {
            self.command_count() == 0 && !self.hooks_pending()
        }
        fn run_batch(
            &mut self,
            members: &mut [::archetypal::schedule::BatchMember<'_, Self>],
        ) {
            ::archetypal::schedule::run_batch(self, members)
        }
    }
    const _: ::archetypal::HookSet<CoreMask> = <CoreComponentArrays as ::archetypal::Archetype>::HOOKS;
    const _: ::archetypal::HookSet<RenderMask> = <RenderComponentArrays as ::archetypal::Archetype>::HOOKS;
    impl Game {
        /// Runs the declared hooks of every change made since the last sync point:
        /// sub-world by sub-world in declaration order, each one's changes oldest
        /// first, and for each change its hooks (the game's `on_spawn` first, its
        /// `on_despawn` last, each kind in declaration order), each given the game
        /// split apart (`split_mut()`) and the entity (a link's hooks: its source
        /// and target; a removal's: what went). Changes a hook makes are run in the
        /// same call. `apply_commands` calls it, with the rounds of commands it
        /// applied before (`round`).
        fn run_hooks(&mut self, round: u32) {
            use ::core::option::Option::Some;
            if !::archetypal::__private::multi_world::hooks_pending(self) {
                return;
            }
            let mut game = self.split_mut();
            loop {
                let mut ran = false;
                while let Some(change) = ::archetypal::__private::lifecycle::next_hooked_change(
                    &mut game.core.storage,
                    round,
                ) {
                    ran = true;
                    if let Some(entity) = change.on_add(PLAYER, "on_player") {
                        on_player(&mut game, entity);
                    }
                    if let Some(entity) = change.on_game_despawn("on_despawn") {
                        on_despawn(&mut game, entity);
                    }
                }
                while let Some(change) = ::archetypal::__private::lifecycle::next_hooked_change(
                    &mut game.render.storage,
                    round,
                ) {
                    ran = true;
                    if let Some(entity) = change.on_game_despawn("on_despawn") {
                        on_despawn(&mut game, entity);
                    }
                }
                if !ran {
                    return;
                }
            }
        }
    }
    mod __compiled_out {
        pub type __event_landed = ();
        pub type __saving_landed = ::archetypal::__private::UnsavedEvents;
        pub type __resource_delta_time = ();
    }
    use __compiled_out::*;
    type __event_landed = (f32, f32);
    type __saving_landed = ::archetypal::__private::UnsavedEvents;
    type __resource_delta_time = f32;
    impl ::core::clone::Clone for GameResources
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
    impl ::core::clone::Clone for GameEvents
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
    impl ::archetypal::snapshot::SnapshotSingletons for Game {
        type Resources = GameResources;
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
    impl ::archetypal::snapshot::SerializeSingletons for Game
    where
        for<'x> __resource_delta_time: ::archetypal::__private::serde::Serialize,
        for<'x, 'a> <Self as ::archetypal::MultiWorld>::SubWorlds<
            'a,
        >: ::archetypal::snapshot::SerializeSubWorlds,
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
    impl<'de> ::archetypal::snapshot::DeserializeResources<'de> for Game
    where
        __resource_delta_time: ::archetypal::__private::serde::Deserialize<'de>,
        for<'x> <Self as ::archetypal::MultiWorld>::SubWorlds<
            'static,
        >: ::archetypal::snapshot::LoadSubWorlds,
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
    /// Feature `serde`. The game's snapshot (`game.snapshot()`).
    impl ::archetypal::__private::serde::Serialize for Game
    where
        for<'x> Self: ::archetypal::snapshot::SerializeMultiWorld,
    {
        #[inline]
        fn serialize<S: ::archetypal::__private::serde::Serializer>(
            &self,
            serializer: S,
        ) -> ::core::result::Result<S::Ok, S::Error> {
            ::archetypal::snapshot::serialize_multi_world(self, serializer)
        }
    }
    /// Feature `serde`. A snapshot decoded and checked (`Game::from_snapshot`): one that
    /// is not a sound game is a decoding error with the reason.
    impl<'de> ::archetypal::__private::serde::Deserialize<'de> for Game
    where
        for<'x> Self: ::archetypal::snapshot::DeserializeMultiWorld,
    {
        #[inline]
        fn deserialize<D: ::archetypal::__private::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            ::archetypal::snapshot::deserialize_multi_world(deserializer)
        }
    }
    pub struct __ResourceSlots<'w> {
        delta_time: ::archetypal::system::Slot<'w, f32>,
        __lifetime: ::core::marker::PhantomData<&'w ()>,
    }
    impl ::archetypal::system::ResourceSet for GameResources {
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
    for GameResources {
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
    impl ::archetypal::system::EventSet for GameEvents {
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
    impl ::archetypal::system::EventOf<(f32, f32), __event::landed> for GameEvents {
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
fn on_player(game: &mut GameParts<'_>, entity: archetypal::Entity) {
    let _ = (game, entity);
}
fn on_despawn(game: &mut GameParts<'_>, entity: archetypal::Entity) {
    let _ = (game, entity);
}
fn main() {}
