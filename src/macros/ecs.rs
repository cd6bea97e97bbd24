//! The public entry: `ecs!` hands its input to `__ecs_parse!` (`parse.rs`), which turns it
//! into its normal form once and calls `__ecs_generate!` with it; `__ecs_generate!` lays out
//! the expansion, calling each family's rules in turn.

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
///
/// The expansion reads top-down: the types, each declared before its first use (the mask type
/// and constants first); then one impl block per type, in the same order, with the methods a
/// user calls; then, in one `const _: () = { .. };` block per world or sub-world (and one for a
/// game), the helpers no user names and the trait impls (but the derived `Default`s). The lists
/// reach the families' rules through `paste!` (for the impl blocks' names), which takes a plain
/// path type apart, so the rules match types as `ty`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_generate {
    ((world $world:ident error) $($blocks:tt)*) => {};
    ((game $game:ident error) $($blocks:tt)*) => {};
    // A component named like a field every table has (`mask`, `entities`) would clash with it
    // in every generated struct: the world (or game) is refused before anything is generated, so
    // ecs!'s message is the only error. Which names the world's components take is answered
    // in one step, with no walk over the components: a macro whose patterns are those names
    // (`@reserved_names`) is asked for the reserved ones, the arm of a component so named
    // refusing it, the last arm (no component of that name) going on to the next name, then
    // handing back the world's generation, which it is given as tokens (so its tokens keep
    // the spans and the notes of the rules that wrote them).
    (
        (world $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ])
        $($blocks:tt)*
    ) => {
        $crate::__ecs_generate! {
            @reserved_names [$] $world [ $($field)+ ]
            $crate::__ecs_generate! {
                @checked (world $world [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ])
                $($blocks)*
            }
        }
    };
    // The same for a game's sub-worlds, whose tables have the same fields.
    (
        (game $game:ident [ $( ($sub_world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ] $tags:tt $relations:tt $hooks:tt $rules:tt spawn: $spawn:ident despawn: $despawn:ident) )+ ])
        $($blocks:tt)*
    ) => {
        $crate::__ecs_generate! {
            @reserved_names [$] $game [ $( $($field)+ )+ ]
            $crate::__ecs_generate! {
                @checked (game $game [ $( ($sub_world [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ] $tags $relations $hooks $rules spawn: $spawn despawn: $despawn) )+ ])
                $($blocks)*
            }
        }
    };
    (@reserved_names [$d:tt] $world:ident [ $($field:ident)+ ] $($generate:tt)*) => {
        $crate::__private::paste::paste! {
            macro_rules! [<__ecs_ $world _component_names>] {
                $(
                    (@component $field $d($d generate:tt)*) => {
                        ::core::compile_error!(::core::concat!(
                            "ecs!: a component cannot be named `",
                            ::core::stringify!($field),
                            "`: it would clash with the tables' own `",
                            ::core::stringify!($field),
                            "` field; rename it"
                        ));
                    };
                )+
                (@component mask $d($d generate:tt)*) => {
                    [<__ecs_ $world _component_names>]! { @component entities $d($d generate)* }
                };
                (@component entities $d($d generate:tt)*) => {
                    $d($d generate)*
                };
            }
            [<__ecs_ $world _component_names>]! { @component mask $($generate)* }
        }
    };
    (@checked (world $world:ident $components:tt) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rules: $rules:tt) => {
        $crate::__private::paste::paste! {
            $crate::__ecs_tables! { @types $world $components $tags $relations }
            $crate::__ecs_world! { @part world $world }
            $crate::__ecs_commands! { @types world $world $components }
            $crate::__ecs_resources! { $world $resources }
            $crate::__ecs_events! { @types $world $events }
            $crate::__ecs_world! { @whole $world }
            $crate::__ecs_builder! { @types world $world $components }
            $crate::__ecs_split! { @types $world }
            $crate::__ecs_relation_rows! { @types $world $relations }
            $crate::__ecs_short_names! {
                @tables $world [Resources, Events, Components]
                #[doc = "Short name of `" $world "Parts`, what `split_mut()` returns."]
                pub type WorldParts<'a> = super::[<$world Parts>]<'a>;
                #[doc = "Short name of `" $world "EntityBuilder`."]
                pub type EntityBuilder = super::[<$world EntityBuilder>];
            }

            impl [<$world Components>] {
                $crate::__ecs_world! { @spawn $world }
                $crate::__ecs_accessors! { world $components }
                $crate::__ecs_tags! { $tags }
                $crate::__ecs_relations! { $world $relations }
            }

            impl [<$world Commands>]<'_> {
                $crate::__ecs_commands! { @queue $world $components }
                $crate::__ecs_tags! { @queue $tags }
                $crate::__ecs_relations! { @queue $relations }
            }

            $crate::__ecs_events! { $world $events }

            impl $world {
                $crate::__ecs_world! { @count $world }
                $crate::__ecs_world! { @methods $world }
                $crate::__ecs_commands! { @world_methods $world $hooks }
                $crate::__ecs_clone! { @restore "world" }
                $crate::__ecs_if_serde! { $crate::__ecs_snapshot! { @world_methods } }
            }

            impl [<$world EntityBuilder>] {
                $crate::__ecs_builder! { @methods $world }
                $crate::__ecs_builder! { @with (self, (self)) with_mask $world $components $relations }
            }

            impl<'a> [<$world Tables>]<'a> {
                $crate::__ecs_split! { @methods $world [<$world Components>] $components }
                $crate::__ecs_relations! { @tables $relations }
            }

            $crate::__ecs_relation_rows! { $world [<$world Components>] $components $relations }

            #[allow(unused, nonstandard_style)]
            const _: () = {
                $crate::__ecs_tables! { @helpers $world [<$world Components>] $components $tags $relations $hooks rules: $rules }
                $crate::__ecs_rules! { @check $world $rules }
                $crate::__ecs_typed_queries! { $world $components }
                $crate::__ecs_builder! { @helpers [<$world EntityBuilder>] $world $components }
                $crate::__ecs_commands! { @helpers world $world $components }
                $crate::__ecs_world! { @helpers world $world }
                $crate::__ecs_hooks! { $world $hooks }
                $crate::__ecs_world_state! { world $world $components $tags $relations $events $resources }
                $crate::__ecs_resources! { @systems $world $resources }
                $crate::__ecs_events! { @systems $world $events }
            };
        }
    };
    // Each sub-world gets its own hooks and the game's (`on_spawn` recorded by the first
    // sub-world, `on_despawn` by the last, after every sub-world's removals); the game gets
    // each sub-world's component, relation and hook lists (the names its builder's `with_*`
    // methods take, the hooks its `run_hooks` calls). A sub-world's command queue pushes to
    // the game's buffer, so it is declared after the game's command enum.
    (
        @checked (game $game:ident [ $( ($sub_world:ident $components:tt $tags:tt $relations:tt $hooks:tt $rules:tt spawn: $spawn:ident despawn: $despawn:ident) )+ ])
        tags: [] relations: [] events: $events:tt resources: $resources:tt hooks: $game_hooks:tt
    ) => {
        $crate::__private::paste::paste! {
            $(
                $crate::__ecs_tables! { @types $sub_world $components $tags $relations }
                $crate::__ecs_world! { @part (sub_world $game) $sub_world }
                $crate::__ecs_commands! { @types (sub_world $game) $sub_world $components }
                $crate::__ecs_builder! { @types (sub_world $game) $sub_world $components }
                $crate::__ecs_split! { @types $sub_world }
                $crate::__ecs_relation_rows! { @types $sub_world $relations }
            )+
            $crate::__ecs_multi_world! { @command $game [ $($sub_world)+ ] }
            $( $crate::__ecs_commands! { @queue_type (sub_world $game) $sub_world } )+
            $crate::__ecs_multi_world! { @queue $game [ $($sub_world)+ ] }
            $crate::__ecs_resources! { $game $resources }
            $crate::__ecs_events! { @types $game $events }
            $crate::__ecs_multi_world! { @types $game [ $($sub_world)+ ] }
            $( $crate::__ecs_short_names! { @tables $sub_world [] } )+
            $crate::__ecs_short_names! { $game [Resources, Events, Command, EntityBuilder] }

            $(
                impl $sub_world {
                    $crate::__ecs_world! { @count $sub_world }
                    $crate::__ecs_accessors! { sub_world $components }
                    $crate::__ecs_tags! { $tags }
                    $crate::__ecs_relations! { $sub_world $relations }
                }

                impl<'a> [<$sub_world Tables>]<'a> {
                    $crate::__ecs_split! { @methods $sub_world $sub_world $components }
                    $crate::__ecs_relations! { @tables $relations }
                }

                $crate::__ecs_relation_rows! { $sub_world $sub_world $components $relations }
            )+
            $(
                impl [<$sub_world Commands>]<'_> {
                    $crate::__ecs_commands! { @queue $sub_world $components }
                    $crate::__ecs_tags! { @queue $tags }
                    $crate::__ecs_relations! { @queue $relations }
                }
            )+

            impl [<$game Commands>]<'_> {
                $crate::__ecs_multi_world! { @queues $game [ $($sub_world)+ ] }
            }

            $crate::__ecs_events! { $game $events }

            impl $game {
                $crate::__ecs_multi_world! { @methods $game [ $($sub_world)+ ] hooks: [ $game_hooks $($hooks)+ ] }
                $crate::__ecs_clone! { @restore "game" }
                $crate::__ecs_if_serde! { $crate::__ecs_snapshot! { @multi_world_methods } }
            }

            impl [<$game EntityBuilder>] {
                $crate::__ecs_multi_world! { @builder $game }
                $(
                    $crate::__ecs_builder! {
                        @with (self, (self.[<$sub_world:snake>])) [<with_ $sub_world:snake _mask>] $sub_world $components $relations
                    }
                )+
            }

            $(
                #[allow(unused, nonstandard_style)]
                const _: () = {
                    $crate::__ecs_tables! {
                        @helpers $sub_world $sub_world $components $tags $relations
                        (sub_world $hooks $game_hooks spawn: $spawn despawn: $despawn) rules: (sub_world $rules)
                    }
                    $crate::__ecs_rules! { @check $sub_world $rules }
                    $crate::__ecs_typed_queries! { $sub_world $components }
                    $crate::__ecs_builder! { @helpers [<$sub_world EntityValues>] $sub_world $components }
                    $crate::__ecs_commands! { @helpers (sub_world $game) $sub_world $components }
                    $crate::__ecs_world! { @helpers (sub_world $game) $sub_world }
                    $crate::__ecs_world_state! { sub_world $sub_world $components $tags $relations }
                };
            )+

            #[allow(unused, nonstandard_style)]
            const _: () = {
                $crate::__ecs_multi_world! { @helpers $game $game_hooks [ $( ($sub_world $components $relations $hooks) )+ ] }
                $crate::__ecs_world_state! { game $game $events $resources }
                $crate::__ecs_resources! { @systems $game $resources }
                $crate::__ecs_events! { @systems $game $events }
            };
        }
    };
}
