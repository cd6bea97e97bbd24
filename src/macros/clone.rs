//! `__ecs_clone!`: `Clone` for the world, its tables, resources and events, and
//! `World::restore`; `__ecs_clone_tables!` and `__ecs_clone_singletons!` (the tables', the
//! resources' and the events'), which a multi-world's sub-worlds and the game use too. Each impl is bounded on every component (resource, event) type being
//! `Clone`, through the per-type aliases of `__ecs_world_state!`, so a world with a type that is
//! not `Clone` still compiles: it is just not `Clone`, and cloning it names the type.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_clone {
    (
        $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:tt => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:tt ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:tt ),* ]
    ) => {
        $crate::__ecs_clone_tables! { $world [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ] }
        $crate::__ecs_clone_singletons! {
            $world
            [ $( $(#[$event_attr])* $event : $event_ty ),* ]
            [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
        }
        $crate::__private::paste::paste! {
            /// A copy of the builder and its values: a prefab, spawned many times. Callable
            /// when every component type of the world is `Clone` (`spawn(world, count)` needs
            /// only the values held to be).
            #[allow(unused_doc_comments)]
            impl ::core::clone::Clone for [<$world EntityBuilder>]
            where
                $( for<'x> [<__ $world _component_ $field>]: ::core::clone::Clone, )+
            {
                #[inline]
                fn clone(&self) -> Self {
                    Self {
                        mask: self.mask,
                        links: ::core::clone::Clone::clone(&self.links),
                        $( $(#[$attr])* $field: ::core::clone::Clone::clone(&self.$field), )+
                    }
                }
            }

            /// An exact copy of the world, except its queued commands: a clone starts with
            /// none, and the handles their spawns reserved are given back in the clone (apply
            /// or clear commands before cloning). Entities, components, tags, resources, event
            /// channels, change ticks, the change log and the caches are all copied, so the
            /// clone runs on exactly as the original would. `clone_from` (and `restore`) reuse
            /// the target's allocations.
            impl ::core::clone::Clone for $world
            where
                $( for<'x> [<__ $world _component_ $field>]: ::core::clone::Clone, )+
                $( for<'x> [<__ $world _event_ $event>]: ::core::clone::Clone, )*
                $( for<'x> [<__ $world _resource_ $resource>]: ::core::clone::Clone, )*
            {
                #[inline]
                fn clone(&self) -> Self {
                    let mut world = <Self as ::core::default::Default>::default();
                    ::core::clone::Clone::clone_from(&mut world, self);
                    world
                }

                #[inline]
                fn clone_from(&mut self, source: &Self) {
                    // The queue goes first: if a component's `Clone` panics below (the storage
                    // is then emptied), no command queued before is left to reach an entity
                    // spawned afterwards.
                    self.clear_commands();
                    // The source's queued spawns are not copied: their reservations come back
                    // in the index's one order, as `clear_commands` gives them back.
                    $crate::__private::lifecycle::clone_from(&mut self.components.storage, &source.components.storage);
                    ::core::clone::Clone::clone_from(&mut self.resources, &source.resources);
                    ::core::clone::Clone::clone_from(&mut self.events, &source.events);
                }
            }

            impl $world {
                /// Makes this world equal to `earlier`, a clone taken before (the rollback of
                /// a rollback netcode, the reset of an editor's play mode), reusing this
                /// world's allocations: `clone_from`. Callable when the world is `Clone`
                /// (every component, resource and event type is). Queued commands are dropped.
                /// O(the whole world): every value of `earlier` is cloned.
                #[inline]
                pub fn restore(&mut self, earlier: &Self)
                where
                    for<'x> Self: ::core::clone::Clone,
                {
                    ::core::clone::Clone::clone_from(self, earlier);
                }
            }
        }
    };
}

/// `__ecs_clone_tables!`: `Clone` for a world's or a sub-world's tables, bounded on every
/// component type being `Clone`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_clone_tables {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:tt => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            #[allow(unused_doc_comments)]
            impl ::core::clone::Clone for [<$world ComponentArrays>]
            where
                $( for<'x> [<__ $world _component_ $field>]: ::core::clone::Clone, )+
            {
                #[inline]
                fn clone(&self) -> Self {
                    let mut copy = <Self as $crate::Archetype>::new(self.mask);
                    ::core::clone::Clone::clone_from(&mut copy, self);
                    copy
                }

                #[inline]
                fn clone_from(&mut self, source: &Self) {
                    self.mask = source.mask;
                    ::core::clone::Clone::clone_from(&mut self.entities, &source.entities);
                    $( $(#[$attr])* ::core::clone::Clone::clone_from(&mut self.$field, &source.$field); )+
                }
            }
        }
    };
}

/// `__ecs_clone_singletons!`: `Clone` for a world's or a multi-world's resources and events,
/// each bounded on every one of its types being `Clone`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_clone_singletons {
    (
        $world:ident
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:tt ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:tt ),* ]
    ) => {
        $crate::__private::paste::paste! {
            #[allow(unused_doc_comments)]
            impl ::core::clone::Clone for [<$world Resources>]
            where
                $( for<'x> [<__ $world _resource_ $resource>]: ::core::clone::Clone, )*
            {
                #[inline]
                fn clone(&self) -> Self {
                    Self {
                        $( $(#[$resource_attr])* $resource: ::core::clone::Clone::clone(&self.$resource), )*
                    }
                }

                #[inline]
                fn clone_from(&mut self, source: &Self) {
                    $( $(#[$resource_attr])* ::core::clone::Clone::clone_from(&mut self.$resource, &source.$resource); )*
                    let _ = source;
                }
            }

            #[allow(unused_doc_comments)]
            impl ::core::clone::Clone for [<$world Events>]
            where
                $( for<'x> [<__ $world _event_ $event>]: ::core::clone::Clone, )*
            {
                #[inline]
                fn clone(&self) -> Self {
                    Self {
                        $( $(#[$event_attr])* $event: ::core::clone::Clone::clone(&self.$event), )*
                    }
                }

                #[inline]
                fn clone_from(&mut self, source: &Self) {
                    $( $(#[$event_attr])* ::core::clone::Clone::clone_from(&mut self.$event, &source.$event); )*
                    let _ = source;
                }
            }
        }
    };
}

/// `__ecs_sub_world_state!`: a multi-world's sub-world's component aliases and the `Clone` of
/// its tables, which the game's `Clone` is bounded on.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_sub_world_state {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:tt => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__ecs_state_types! { $world [ $( $(#[$attr])* $field : $ty ),+ ] [] [] }
        $crate::__ecs_clone_tables! { $world [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ] }
    };
}

/// `__ecs_game_state!`: a multi-world's event and resource aliases and the `Clone` of its
/// resources and events, which the game's `Clone` is bounded on.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_game_state {
    (
        $game:ident
        events: [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:tt ),* ]
        resources: [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:tt ),* ]
    ) => {
        $crate::__ecs_state_types! {
            $game
            []
            [ $( $(#[$event_attr])* $event : $event_ty ),* ]
            [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
        }
        $crate::__ecs_clone_singletons! {
            $game
            [ $( $(#[$event_attr])* $event : $event_ty ),* ]
            [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
        }
    };
}
