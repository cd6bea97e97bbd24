//! The public entry: `ecs!` hands its input to `__ecs_parse!` (`parse.rs`), which turns it
//! into its normal form once and calls `__ecs_generate!` with it; `__ecs_generate!` calls the
//! per-part rules (`__ecs_part!`, once for a world, once per sub-world of a multi-world) and
//! the whole-world ones.

/// Generates an archetype ECS world for a list of components.
///
/// ```
/// #[derive(Default, Debug, Clone, Copy, PartialEq)]
/// pub struct Position { pub x: f32, pub y: f32 }
/// #[derive(Default, Debug, Clone, Copy, PartialEq)]
/// pub struct Velocity { pub x: f32, pub y: f32 }
///
/// archetypal::ecs! {
///     World {
///         position: Position => POSITION,
///         velocity: Velocity => VELOCITY,
///     }
///     Resources {
///         delta_time: f32,
///     }
/// }
///
/// fn main() {
///     let mut world = World::new();
///     let entity = world.spawn(POSITION | VELOCITY);
///     world.set_velocity(entity, Velocity { x: 1.0, y: 2.0 });
///     world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
///         table.position[index].x += table.velocity[index].x;
///     });
///     assert_eq!(world.get_position(entity), Some(&Position { x: 1.0, y: 0.0 }));
/// }
/// ```
///
/// Invoke it at module level (not inside a function body): the short type names are
/// re-exported from a generated module that refers to the world's items through `super`.
///
/// See the crate documentation for the input syntax and every generated item.
#[macro_export]
macro_rules! ecs {
    // The multi-world form: `Game { Core { ... } Render { ... } }`, each part a sub-world.
    ($game:ident { $sub_world:ident { $($sub_components:tt)* } $($sub_worlds:tt)* } $($blocks:tt)*) => {
        $crate::__ecs_parse! { @sub_worlds $game [] { $sub_world { $($sub_components)* } $($sub_worlds)* } { $($blocks)* } }
    };
    ($world:ident { $($components:tt)* } $($blocks:tt)*) => {
        $crate::__ecs_parse! { @world $world { $($components)* } { $($blocks)* } { $($blocks)* } }
    };
    () => {
        ::core::compile_error!(
            "ecs!: nothing to generate; declare a world: `ecs! { World { position: Position => POSITION } }`"
        );
    };
    ($($input:tt)*) => {
        ::core::compile_error!(
            "ecs!: expected a world block first, like `World { position: Position => POSITION }`"
        );
    };
}

/// Generates a world, or a multi-world with its sub-worlds, from the normal form
/// (`__ecs_parse!`). A form whose component list was malformed (`error`, already reported)
/// generates nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_generate {
    ((world $world:ident error) $($blocks:tt)*) => {};
    ((game $game:ident error) $($blocks:tt)*) => {};
    ((world $world:ident $components:tt) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt) => {
        $crate::__ecs_part! { kind: world world: $world $components tags: $tags relations: $relations hooks: $hooks }
        $crate::__ecs_events! { $world $events }
        $crate::__ecs_resources! { $world $resources }
        $crate::__ecs_world_state! { $world $components tags: $tags events: $events resources: $resources }
    };
    // Each sub-world gets its own hooks and the game's (`on_spawn` recorded by the first
    // sub-world, `on_despawn` by the last, after every sub-world's removals); the game gets
    // each sub-world's component, relation and hook lists (the names its builder's `with_*`
    // methods take, the hooks its `run_hooks` calls).
    (
        (game $game:ident [ $( ($sub_world:ident $components:tt $tags:tt $relations:tt $hooks:tt spawn: $spawn:ident despawn: $despawn:ident) )+ ])
        tags: [] relations: [] events: $events:tt resources: $resources:tt hooks: $game_hooks:tt
    ) => {
        $(
            $crate::__ecs_part! {
                kind: (sub_world $game) world: $sub_world $components tags: $tags relations: $relations
                hooks: (sub_world $hooks $game_hooks spawn: $spawn despawn: $despawn)
            }
        )+
        $crate::__ecs_game! { $game $game_hooks [ $( ($sub_world $components $relations $hooks) )+ ] }
        $crate::__ecs_events! { $game $events }
        $crate::__ecs_resources! { $game $resources }
        $crate::__ecs_game_state! { $game events: $events resources: $resources }
        $crate::__ecs_game_snapshot! { $game events: $events resources: $resources }
    };
}

/// A world's or a sub-world's part: calls every generating rule with its lists (the tables,
/// the world or sub-world shell, accessors, queries, tags and relations).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_part {
    (kind: $kind:tt world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: $hooks:tt) => {
        $crate::__ecs_tables! { $world $components $tags $relations $hooks }
        $crate::__ecs_shell! { $kind $world $components $relations $hooks }
        $crate::__ecs_accessors! { $world $components }
        $crate::__ecs_typed_queries! { $world $components }
        $crate::__ecs_split! { $world $components }
        $crate::__ecs_tags! { $world $tags }
        $crate::__ecs_relations! { $world $relations }
        $crate::__ecs_relation_rows! { $world $components $relations }
        $crate::__ecs_sub_world_snapshot! { $kind $world $components $tags }
    };
}

/// What differs between a world and a sub-world: a world spawns (and has a builder) and owns
/// its frame; a sub-world's entities come from its multi-world.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_shell {
    (world $world:ident $components:tt $relations:tt $hooks:tt) => {
        $crate::__ecs_world! { $world }
        $crate::__ecs_builder! { world $world $components $relations }
        $crate::__ecs_commands! { $world $components $hooks }
        $crate::__ecs_hooks! { $world $hooks }
    };
    // A sub-world's hooks are run by its game (`__ecs_game_hooks!`).
    ((sub_world $game:ident) $world:ident $components:tt $relations:tt $hooks:tt) => {
        $crate::__ecs_sub_world! { $game $world }
        $crate::__ecs_builder! { (sub_world $game) $world $components $relations }
        $crate::__ecs_commands! { @sub_world $game $world $components }
        $crate::__ecs_sub_world_state! { $world $components }
    };
}
