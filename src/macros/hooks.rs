//! `__ecs_hooks!`: the `Hooks` block. A world's tables get the constant set of changes the
//! hooks wait for (`@set`, inside the `Archetype` impl), its `apply_commands` runs them
//! (`@apply_commands`), and the world gets `run_hooks` (among the helpers), which calls each
//! hook declared for a waiting change, in declaration order, with the world split apart as a
//! system gets it. A world without hooks (no `Hooks` block, or an empty one) gets none of it.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_hooks {
    // `Archetype::HOOKS`: the bits and kinds of change some hook is declared on (each hook's
    // kind was checked by `__ecs_parse!`, and names its `HookSet` method). A game's sub-world
    // adds the game's `on_spawn` (if it is the first sub-world, which records spawns for it)
    // and `on_despawn` (if it is the last). With none to record, no constant: the tables'
    // default records nothing.
    (@set $mask_ty:ident []) => {};
    (@set $mask_ty:ident (sub_world [] [] spawn: $spawn:ident despawn: $despawn:ident)) => {};
    (@set $mask_ty:ident (sub_world [] $game_hooks:tt spawn: no despawn: no)) => {};
    (@set $mask_ty:ident [ $( { $event:ident $( ( $mask:ident ) )? => $($hook:tt)+ } )+ ]) => {
        const HOOKS: $crate::HookSet<$mask_ty> = {
            $crate::__ecs_hooks! { @new hooks $mask_ty }
            $( let hooks = hooks.$event($($mask)?); )+
            hooks
        };
    };
    (
        @set $mask_ty:ident (sub_world
            [ $( { $event:ident ( $mask:ident ) => $($hook:tt)+ } )* ]
            [ $( { $game_event:ident => $($game_hook:tt)+ } )* ]
            spawn: $spawn:ident despawn: $despawn:ident)
    ) => {
        const HOOKS: $crate::HookSet<$mask_ty> = {
            $crate::__ecs_hooks! { @new hooks $mask_ty }
            $( let hooks = hooks.$event($mask); )*
            $( $crate::__ecs_hooks! { @lifecycle hooks $game_event spawn: $spawn despawn: $despawn } )*
            hooks
        };
    };
    // An empty set over the world's bits (the tables' every bit, `__Bit::__END` of them, and
    // their relation bits). The trait's constant is named in full: a mask constant of the
    // same name is an inherent one of the tables, found first.
    (@new $hooks:ident $mask_ty:ident) => {
        let all = $crate::__private::low_bits(__Bit::__END as u32) as $mask_ty;
        let components = <Self as $crate::Archetype>::COMPONENTS;
        let relations = <Self as $crate::Archetype>::RELATIONS;
        let $hooks = $crate::HookSet::<$mask_ty>::new(all, components, relations);
    };
    (@lifecycle $hooks:ident on_spawn spawn: yes despawn: $despawn:ident) => { let $hooks = $hooks.on_spawn(); };
    (@lifecycle $hooks:ident on_spawn spawn: no despawn: $despawn:ident) => {};
    (@lifecycle $hooks:ident on_despawn spawn: $spawn:ident despawn: yes) => { let $hooks = $hooks.on_game_despawn(); };
    (@lifecycle $hooks:ident on_despawn spawn: $spawn:ident despawn: no) => {};

    // The body of `apply_commands`: with hooks, they run before the queue is applied and
    // after each pass of it.
    (@apply_commands [] ($($apply:tt)*)) => {
        $crate::__private::apply_queued($($apply)*)
    };
    (@apply_commands [ $($hooks:tt)+ ] ($($apply:tt)*)) => {
        $crate::__private::hooks::apply_queued_with_hooks($($apply)*, Self::run_hooks)
    };

    // The body of a world's or a game's `run_hooks`: part by part in declaration order, each
    // one's waiting changes oldest first, each fired by the part's `{ .. }`, until no part has
    // a change waiting (a hook may change an earlier part). The caller names the bindings
    // (hygiene): the split world, the change its hooks read and the sync point's round.
    (@run_hooks ($self:ident $split:ident $change:ident $round:ident) pending: $pending:expr, parts: [ $( { $($part:ident).+ } { $($fire:tt)* } )+ ]) => {
        // `Some` by its short name in the tests below (`@fire`); a hook's path is never `Some`.
        use ::core::option::Option::Some;
        if !$pending {
            return;
        }
        // One split for the whole pass (it lends the index's reserver to the queue once).
        let mut $split = $self.split_mut();
        loop {
            let mut ran = false;
            $(
                while let Some($change) = $crate::__private::lifecycle::next_hooked_change(&mut $split.$($part).+, $round) {
                    ran = true;
                    $($fire)*
                }
            )+
            if !ran {
                return;
            }
        }
    };

    // The hooks of one change in the order the guide promises, whatever the declaration
    // order: `on_spawn` first (before the spawn's `on_add`), `on_despawn` last (after the
    // despawn's `on_remove`); the others, which never share a change with those two kinds'
    // first or last place, between; each kind's hooks in declaration order.
    (@fire_all $change:ident $world:ident [ $( { $event:ident $( ( $mask:ident ) )? => $($hook:tt)+ } )* ]) => {
        $( $crate::__ecs_hooks! { @fire_first $event $change $world $( ( $mask ) )? => $($hook)+ } )*
        $( $crate::__ecs_hooks! { @fire_between $event $change $world $( ( $mask ) )? => $($hook)+ } )*
        $( $crate::__ecs_hooks! { @fire_last $event $change $world $( ( $mask ) )? => $($hook)+ } )*
    };
    (@fire_first on_spawn $change:ident $world:ident => $($hook:tt)+) => {
        $crate::__ecs_hooks! { @fire $change $world on_spawn => $($hook)+ }
    };
    (@fire_first $event:ident $($rest:tt)*) => {};
    (@fire_between on_spawn $($rest:tt)*) => {};
    (@fire_between on_despawn $($rest:tt)*) => {};
    (@fire_between $event:ident $change:ident $world:ident ( $mask:ident ) => $($hook:tt)+) => {
        $crate::__ecs_hooks! { @fire $change $world $event ( $mask ) => $($hook)+ }
    };
    (@fire_last on_despawn $change:ident $world:ident => $($hook:tt)+) => {
        $crate::__ecs_hooks! { @fire $change $world on_despawn => $($hook)+ }
    };
    (@fire_last $event:ident $($rest:tt)*) => {};

    // One declared hook, called if `$change` is what it waits for (the hook's name stops a
    // chain that never settles, see `HookedChange::on_spawn`).
    (@fire $change:ident $world:ident on_spawn => $($hook:tt)+) => {
        if let Some(entity) = $change.on_spawn(::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_despawn => $($hook:tt)+) => {
        if let Some((entity, removed)) = $change.on_despawn(::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, entity, removed);
        }
    };
    (@fire $change:ident $world:ident on_game_despawn => $($hook:tt)+) => {
        if let Some(entity) = $change.on_game_despawn(::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_add ($mask:ident) => $($hook:tt)+) => {
        if let Some(entity) = $change.on_add($mask, ::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_remove ($mask:ident) => $($hook:tt)+) => {
        if let Some((entity, removed)) = $change.on_remove($mask, ::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, entity, removed);
        }
    };
    (@fire $change:ident $world:ident on_link ($mask:ident) => $($hook:tt)+) => {
        if let Some((source, target)) = $change.on_link($mask, ::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, source, target);
        }
    };
    (@fire $change:ident $world:ident on_unlink ($mask:ident) => $($hook:tt)+) => {
        if let Some((source, target)) = $change.on_unlink($mask, ::core::stringify!($($hook)+)) {
            $($hook)+(&mut $world, source, target);
        }
    };

    // No hooks: no `run_hooks`, and `apply_commands` is `apply_queued` alone.
    ($world:ident []) => {};
    ($world:ident [ $( { $event:ident $( ( $mask:ident ) )? => $($hook:tt)+ } )+ ]) => {
        // Evaluated here, so a hook on a bit the world has no such hook for is refused even
        // before anything runs (the builders' messages say what is wrong).
        $crate::__private::paste::paste! {
            const _: $crate::HookSet<[<$world Mask>]> = <[<$world ComponentArrays>] as $crate::Archetype>::HOOKS;
        }

        impl $world {
            /// Runs the declared hooks of every change made since the last sync point,
            /// oldest change first, and for each change its hooks (`on_spawn` first,
            /// `on_despawn` last, each kind in declaration order), each given the world
            /// split apart (`split_mut()`) and the entity (a link's hooks: its source and
            /// target; a removal's: what went). Changes a hook makes are run in the same
            /// call, after those already waiting. `apply_commands` calls it, with the
            /// rounds of commands it applied before (`round`).
            fn run_hooks(&mut self, round: u32) {
                $crate::__ecs_hooks! { @run_hooks (self world change round) pending: self.components.storage.hooks_pending(), parts: [
                    { components.storage } { $crate::__ecs_hooks! { @fire_all change world [ $( { $event $( ( $mask ) )? => $($hook)+ } )+ ] } }
                ] }
            }
        }
    };
}

/// `__ecs_multi_world_hooks!`: a multi-world game's hooks: its own `Hooks` block (`on_spawn`,
/// `on_despawn`) and each sub-world's (its components', tags' and relations'). The game's
/// `apply_commands` runs them (`@apply_commands`), through the game's `run_hooks`: sub-world
/// by sub-world in declaration order, each one's waiting changes in the order they happened,
/// until none waits; each hook gets the game split apart (`split_mut()`). A game without any
/// hook gets none of it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_multi_world_hooks {
    // The body of `apply_commands`: with any hooks, they run before the queues are applied and
    // after each pass of them.
    (@apply_commands [ $( [] )* ] ($game:ident)) => {
        $crate::__private::multi_world::apply_commands($game)
    };
    (@apply_commands [ $($hooks:tt)* ] ($game:ident)) => {
        $crate::__private::multi_world::apply_commands_with_hooks($game, Self::run_hooks)
    };

    // The game's own hooks around a sub-world's: `on_spawn` first, and only for the first
    // sub-world's changes (every sub-world with a hook on a spawned entity's components
    // records the spawn too); `on_despawn` last, after the sub-world's `on_remove` hooks, for
    // any (only the last records despawns). The game's `on_despawn` gets the entity alone.
    (@fire_game_first $change:ident $game:ident [ $( { $event:ident => $($hook:tt)+ } )* ] spawn: $spawn:ident) => {
        $( $crate::__ecs_multi_world_hooks! { @fire_lifecycle $change $game spawn: $spawn $event => $($hook)+ } )*
    };
    (@fire_lifecycle $change:ident $game:ident spawn: yes on_spawn => $($hook:tt)+) => {
        $crate::__ecs_hooks! { @fire $change $game on_spawn => $($hook)+ }
    };
    (@fire_lifecycle $change:ident $game:ident spawn: $spawn:ident $event:ident => $($hook:tt)+) => {};
    (@fire_game_last $change:ident $game:ident [ $( { $event:ident => $($hook:tt)+ } )* ]) => {
        $( $crate::__ecs_multi_world_hooks! { @fire_despawn $change $game $event => $($hook)+ } )*
    };
    (@fire_despawn $change:ident $game:ident on_despawn => $($hook:tt)+) => {
        $crate::__ecs_hooks! { @fire $change $game on_game_despawn => $($hook)+ }
    };
    (@fire_despawn $change:ident $game:ident $event:ident => $($hook:tt)+) => {};

    // No hooks anywhere: no `run_hooks`.
    ($game:ident [] [ $( ($sub_world:ident []) )+ ]) => {};
    ($game:ident $game_hooks:tt [ ($first:ident $first_hooks:tt) $( ($rest:ident $rest_hooks:tt) )* ]) => {
        $crate::__private::paste::paste! {
            // Evaluated here, so a hook on a bit its sub-world has no such hook for is
            // refused even before anything runs.
            const _: $crate::HookSet<[<$first Mask>]> = <[<$first ComponentArrays>] as $crate::Archetype>::HOOKS;
            $( const _: $crate::HookSet<[<$rest Mask>]> = <[<$rest ComponentArrays>] as $crate::Archetype>::HOOKS; )*

            impl $game {
                /// Runs the declared hooks of every change made since the last sync point:
                /// sub-world by sub-world in declaration order, each one's changes oldest
                /// first, and for each change its hooks (the game's `on_spawn` first, its
                /// `on_despawn` last, each kind in declaration order), each given the game
                /// split apart (`split_mut()`) and the entity (a link's hooks: its source
                /// and target; a removal's: what went). Changes a hook makes are run in the
                /// same call. `apply_commands` calls it, with the rounds of commands it
                /// applied before (`round`).
                fn run_hooks(&mut self, round: u32) {
                    $crate::__ecs_hooks! { @run_hooks (self game change round) pending: $crate::__private::multi_world::hooks_pending(self), parts: [
                        { [<$first:snake>].storage } {
                            $crate::__ecs_multi_world_hooks! { @fire_game_first change game $game_hooks spawn: yes }
                            $crate::__ecs_hooks! { @fire_all change game $first_hooks }
                            $crate::__ecs_multi_world_hooks! { @fire_game_last change game $game_hooks }
                        }
                        $(
                            { [<$rest:snake>].storage } {
                                $crate::__ecs_multi_world_hooks! { @fire_game_first change game $game_hooks spawn: no }
                                $crate::__ecs_hooks! { @fire_all change game $rest_hooks }
                                $crate::__ecs_multi_world_hooks! { @fire_game_last change game $game_hooks }
                            }
                        )*
                    ] }
                }
            }
        }
    };
}
