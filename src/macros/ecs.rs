//! The public entry: `ecs!` parses the blocks and dispatches to the internal `__ecs_*` rules.
//!
//! Parsing walks the blocks (at most a handful), never the components one by one, so the
//! expansion depth does not grow with the component count. Only the error path, which names
//! the malformed component, walks the list.

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
        $crate::__ecs_blocks! {
            form: multi world: $game { $sub_world { $($sub_components)* } $($sub_worlds)* }
            tags: none relations: none events: none resources: none hooks: none rest: $($blocks)*
        }
    };
    ($world:ident { $($components:tt)* } $($blocks:tt)*) => {
        $crate::__ecs_blocks! {
            form: single world: $world { $($components)* } tags: none relations: none events: none resources: none hooks: none rest: $($blocks)*
        }
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

/// Walks the optional blocks after the world block: `Tags`, `Relations`, `Events`,
/// `Resources`, `Hooks`, each at most once and in that order. A block not yet seen is `none`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_blocks {
    (form: $form:ident world: $world:ident $components:tt tags: none relations: none events: none resources: none hooks: none rest: Tags { $($tags:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            form: $form world: $world $components tags: { $($tags)* } relations: none events: none resources: none hooks: none rest: $($rest)*
        }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: none events: none resources: none hooks: none rest: Relations { $($relations:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            form: $form world: $world $components tags: $tags relations: { $($relations)* } events: none resources: none hooks: none rest: $($rest)*
        }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: none resources: none hooks: none rest: Events { $($events:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            form: $form world: $world $components tags: $tags relations: $relations events: { $($events)* } resources: none hooks: none rest: $($rest)*
        }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: none hooks: none rest: Resources { $($resources:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            form: $form world: $world $components tags: $tags relations: $relations events: $events resources: { $($resources)* } hooks: none rest: $($rest)*
        }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: none rest: Hooks { $($hooks:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            form: $form world: $world $components tags: $tags relations: $relations events: $events resources: $resources hooks: { $($hooks)* } rest: $($rest)*
        }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest:) => {
        $crate::__ecs_generate! { form: $form world: $world $components tags: $tags relations: $relations events: $events resources: $resources hooks: $hooks }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: $block:ident { $($body:tt)* } $($rest:tt)*) => {
        $crate::__ecs_block_error! { $block }
    };
    (form: $form:ident world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: expected a block like `Resources { delta_time: f32 }` after the world block"
        );
    };
}

/// A component's mask if its options leave it tracked by change detection, else 0.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_tracked {
    ($mask:ident) => {
        $mask
    };
    ($mask:ident untracked) => {
        0
    };
    ($mask:ident $($option:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown component option `",
            ::core::stringify!($($option)*),
            "`; the only option is `[untracked]`"
        ))
    };
}

/// Error path only: a block that is out of order, repeated, or unknown.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_block_error {
    (Tags) => { $crate::__ecs_block_error! { @misplaced "Tags" } };
    (Relations) => { $crate::__ecs_block_error! { @misplaced "Relations" } };
    (Events) => { $crate::__ecs_block_error! { @misplaced "Events" } };
    (Resources) => { $crate::__ecs_block_error! { @misplaced "Resources" } };
    (Hooks) => { $crate::__ecs_block_error! { @misplaced "Hooks" } };
    (@misplaced $block:literal) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the `",
            $block,
            "` block is repeated or out of order; after the world block come `Tags`, `Relations`, `Events`, `Resources` and `Hooks`, each at most once, in that order"
        ));
    };
    ($block:ident) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown block `",
            ::core::stringify!($block),
            "`; after the world block, `ecs!` accepts `Tags`, `Relations`, `Events`, `Resources` and `Hooks` blocks"
        ));
    };
}

/// Generates a world, or a multi-world with its sub-worlds, from the parsed blocks.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_generate {
    (form: single world: $world:ident $components:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt) => {
        $crate::__ecs_components! { kind: world world: $world $components tags: $tags relations: $relations hooks: $hooks }
        $crate::__ecs_events! { $world $events }
        $crate::__ecs_resources! { $world $resources }
        $crate::__ecs_world_state! { $world $components tags: $tags events: $events resources: $resources }
    };
    (form: multi world: $game:ident { $($sub_worlds:tt)* } tags: none relations: none events: $events:tt resources: $resources:tt hooks: $hooks:tt) => {
        $crate::__ecs_sub_worlds! { $game $hooks [] $($sub_worlds)* }
        $crate::__ecs_events! { $game $events }
        $crate::__ecs_resources! { $game $resources }
        $crate::__ecs_game_state! { $game events: $events resources: $resources }
        $crate::__ecs_game_snapshot! { $game events: $events resources: $resources }
    };
    (form: multi world: $game:ident $sub_worlds:tt tags: none relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, relations belong to a sub-world: write its `Relations { ... }` block right after it (after its `Tags` block, if any), inside `",
            ::core::stringify!($game),
            " { ... }`"
        ));
    };
    (form: multi world: $game:ident $sub_worlds:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, tags belong to a sub-world: write its `Tags { ... }` block right after it, inside `",
            ::core::stringify!($game),
            " { ... }`"
        ));
    };
}

/// Walks the sub-worlds of a multi-world (each optionally followed by its `Tags`, `Relations`
/// and `Hooks` blocks), generates each, then the whole, handing it each sub-world's component,
/// relation and hook blocks (the names its builder's `with_*` methods take, the hooks its
/// `run_hooks` calls). The game's own hooks (`on_spawn`, `on_despawn`) are recorded by the
/// first sub-world (spawns) and the last (despawns, after every sub-world's removals).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_sub_worlds {
    // One sub-world's optional blocks, in order.
    (@blocks $game:ident $game_hooks:tt $done:tt $sub_world:ident $components:tt tags: none relations: none hooks: none rest: Tags { $($tags:tt)* } $($rest:tt)*) => {
        $crate::__ecs_sub_worlds! { @blocks $game $game_hooks $done $sub_world $components tags: { $($tags)* } relations: none hooks: none rest: $($rest)* }
    };
    (@blocks $game:ident $game_hooks:tt $done:tt $sub_world:ident $components:tt tags: $tags:tt relations: none hooks: none rest: Relations { $($relations:tt)* } $($rest:tt)*) => {
        $crate::__ecs_sub_worlds! { @blocks $game $game_hooks $done $sub_world $components tags: $tags relations: { $($relations)* } hooks: none rest: $($rest)* }
    };
    (@blocks $game:ident $game_hooks:tt $done:tt $sub_world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: none rest: Hooks { $($hooks:tt)* } $($rest:tt)*) => {
        $crate::__ecs_sub_worlds! { @blocks $game $game_hooks $done $sub_world $components tags: $tags relations: $relations hooks: { $($hooks)* } rest: $($rest)* }
    };
    // The sub-world is complete: whether it is the first (it records spawns for the game's
    // hooks) and the last (despawns).
    (@blocks $game:ident $game_hooks:tt [] $sub_world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: $hooks:tt rest:) => {
        $crate::__ecs_sub_worlds! { @generate $game $game_hooks [] $sub_world $components $tags $relations $hooks spawn: yes despawn: yes rest: }
    };
    (@blocks $game:ident $game_hooks:tt [] $sub_world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: $hooks:tt rest: $($rest:tt)+) => {
        $crate::__ecs_sub_worlds! { @generate $game $game_hooks [] $sub_world $components $tags $relations $hooks spawn: yes despawn: no rest: $($rest)+ }
    };
    (@blocks $game:ident $game_hooks:tt [ $($done:tt)+ ] $sub_world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: $hooks:tt rest:) => {
        $crate::__ecs_sub_worlds! { @generate $game $game_hooks [ $($done)+ ] $sub_world $components $tags $relations $hooks spawn: no despawn: yes rest: }
    };
    (@blocks $game:ident $game_hooks:tt [ $($done:tt)+ ] $sub_world:ident $components:tt tags: $tags:tt relations: $relations:tt hooks: $hooks:tt rest: $($rest:tt)+) => {
        $crate::__ecs_sub_worlds! { @generate $game $game_hooks [ $($done)+ ] $sub_world $components $tags $relations $hooks spawn: no despawn: no rest: $($rest)+ }
    };
    (@generate $game:ident $game_hooks:tt [ $($done:tt)* ] $sub_world:ident $components:tt $tags:tt $relations:tt $hooks:tt spawn: $spawn:ident despawn: $despawn:ident rest: $($rest:tt)*) => {
        $crate::__ecs_components! { kind: (sub_world $game) world: $sub_world $components tags: $tags relations: $relations hooks: (sub_world $hooks $game_hooks spawn: $spawn despawn: $despawn) }
        $crate::__ecs_sub_worlds! { $game $game_hooks [ $($done)* ($sub_world $components $relations $hooks) ] $($rest)* }
    };

    ($game:ident $game_hooks:tt [ $($done:tt)* ] Relations { $($relations:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, relations belong to a sub-world: write its `Relations { ... }` block right after it (after its `Tags` block, if any)"
        ));
    };
    ($game:ident $game_hooks:tt [ $($done:tt)* ] Hooks { $($hooks:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, a sub-world's `Hooks { ... }` block comes right after it (after its `Tags` and `Relations` blocks, if any)"
        ));
    };
    ($game:ident $game_hooks:tt [ $($done:tt)* ] $sub_world:ident { $($components:tt)* } $($rest:tt)*) => {
        $crate::__ecs_sub_worlds! { @blocks $game $game_hooks [ $($done)* ] $sub_world { $($components)* } tags: none relations: none hooks: none rest: $($rest)* }
    };
    ($game:ident $game_hooks:tt [ $($done:tt)+ ]) => {
        $crate::__ecs_game! { $game $game_hooks [ $($done)+ ] }
    };
    ($game:ident $game_hooks:tt [ $($done:tt)* ] $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: malformed multi-world `",
            ::core::stringify!($game),
            "`; write each sub-world as `Name { component: Type => MASK, ... }`, optionally followed by `Tags { tag => TAG }`, `Relations { forward / reverse => MASK }` and `Hooks { on_add(MASK) => function }`"
        ));
    };
}

/// Checks the component list's shape and calls every generating rule with it: the tables,
/// the world (or sub-world) shell, accessors, queries and tags.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_components {
    (kind: $kind:tt world: $world:ident {} tags: $tags:tt relations: $relations:tt hooks: $hooks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the world `",
            ::core::stringify!($world),
            "` declares no components; add one like `position: Position => POSITION`"
        ));
    };
    (
        kind: $kind:tt
        world: $world:ident {
            $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? ),+ $(,)?
        }
        tags: $tags:tt
        relations: $relations:tt
        hooks: $hooks:tt
    ) => {
        $crate::__ecs_tables! { $world [ $( $(#[$attr])* $field : $ty => $mask [$($($option)*)?] ),+ ] $tags $relations $hooks }
        $crate::__ecs_shell! { $kind $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] $relations $hooks }
        $crate::__ecs_accessors! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_typed_queries! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_split! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_tags! { $world $tags }
        $crate::__ecs_relations! { $world $relations }
        $crate::__ecs_relation_rows! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] $relations }
        $crate::__ecs_sub_world_snapshot! { $kind $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] $tags }
    };
    (kind: $kind:tt world: $world:ident { $($components:tt)* } tags: $tags:tt relations: $relations:tt hooks: $hooks:tt) => {
        $crate::__ecs_malformed_component! { $($components)* }
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

/// Error path only: finds the first malformed component entry and says what is wrong with it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_malformed_component {
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? $(, $($rest:tt)*)?) => {
        $crate::__ecs_malformed_component! { $($($rest)*)? }
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:tt)*] $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: malformed options for the component `",
            ::core::stringify!($field),
            "`; the only option is `[untracked]`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $($rest:tt)+) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: expected a comma after the component `",
            ::core::stringify!($field),
            "`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty $(, $($rest:tt)*)?) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` has no mask constant; write `",
            ::core::stringify!($field),
            ": ",
            ::core::stringify!($ty),
            " => MASK_NAME`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` needs a mask constant name after `=>`, like `POSITION`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` needs a type after `:`; write `",
            ::core::stringify!($field),
            ": Type => MASK_NAME`"
        ));
    };
    ($(#[$attr:meta])* $field:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: expected `:` after the component name `",
            ::core::stringify!($field),
            "`; write `",
            ::core::stringify!($field),
            ": Type => MASK_NAME`"
        ));
    };
    ($($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed world block; write each component as `name: Type => MASK`, separated by commas"
        );
    };
}
