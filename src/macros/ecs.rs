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
    ($world:ident { $($components:tt)* } $($blocks:tt)*) => {
        $crate::__ecs_blocks! {
            world: $world { $($components)* }
            resources: none
            rest: $($blocks)*
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

/// Walks the optional blocks after the world block, in order.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_blocks {
    (world: $world:ident $components:tt resources: none rest: Resources { $($resources:tt)* } $($rest:tt)*) => {
        $crate::__ecs_blocks! {
            world: $world $components
            resources: { $($resources)* }
            rest: $($rest)*
        }
    };
    (world: $world:ident $components:tt resources: { $($resources:tt)* } rest: Resources $($rest:tt)*) => {
        ::core::compile_error!("ecs!: the `Resources` block appears more than once; merge them into one");
    };
    (world: $world:ident $components:tt resources: $resources:tt rest:) => {
        $crate::__ecs_generate! { world: $world $components resources: $resources }
    };
    (world: $world:ident $components:tt resources: $resources:tt rest: $block:ident { $($body:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown block `",
            ::core::stringify!($block),
            "`; after the world block, `ecs!` accepts a `Resources { name: Type, ... }` block"
        ));
    };
    (world: $world:ident $components:tt resources: $resources:tt rest: $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: expected a block like `Resources { delta_time: f32 }` after the world block"
        );
    };
}

/// Checks the component list's shape and calls every generating rule with it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_generate {
    (world: $world:ident {} resources: $resources:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the world `",
            ::core::stringify!($world),
            "` declares no components; add one like `position: Position => POSITION`"
        ));
    };
    (
        world: $world:ident {
            $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ $(,)?
        }
        resources: $resources:tt
    ) => {
        $crate::__ecs_tables! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_world! { $world }
        $crate::__ecs_accessors! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_queries! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_builder! { $world [ $( $(#[$attr])* $field : $ty => $mask ),+ ] }
        $crate::__ecs_resources! { $world $resources }
    };
    (world: $world:ident { $($components:tt)* } resources: $resources:tt) => {
        $crate::__ecs_malformed_component! { $($components)* }
    };
}

/// Error path only: finds the first malformed component entry and says what is wrong with it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_malformed_component {
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $(, $($rest:tt)*)?) => {
        $crate::__ecs_malformed_component! { $($($rest)*)? }
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
