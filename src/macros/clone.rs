//! `__ecs_clone!`: among the helpers, `Clone` for the world, its tables, resources, events and
//! builder; `__ecs_clone_tables!` and `__ecs_clone_singletons!` (the tables', the resources'
//! and the events'), which a multi-world's sub-worlds and the game use too; and `restore`
//! (`@restore`, a world's or a game's). Each impl is bounded on every component (resource,
//! event) type it copies being `Clone`, through the per-type aliases of `__ecs_state_types!`
//! (a game's, on its sub-worlds' tables, resources and events being `Clone`), so a world with a
//! type that is not `Clone` still compiles: it is just not `Clone`, and cloning it names the
//! type.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_clone {
    // `restore`, in the world's or game's impl block.
    (@restore $whole:literal) => {
        #[doc = ::core::concat!("Makes this ", $whole, " equal to `earlier`, a clone taken before (the rollback of a rollback netcode, the reset of an editor's play mode), reusing this ", $whole, "'s allocations: `clone_from`. Callable when the ", $whole, " is `Clone` (every component, resource and event type is). Queued commands are dropped. O(the whole ", $whole, "): every value of `earlier` is cloned.")]
        #[inline]
        pub fn restore(&mut self, earlier: &Self)
        where
            for<'x> Self: ::core::clone::Clone,
        {
            ::core::clone::Clone::clone_from(self, earlier);
        }
    };
    (
        $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty [$($event_option:ident)*] ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__ecs_clone_tables! { $world [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ] }
        $crate::__ecs_clone_singletons! {
            $world
            [ $( $(#[$event_attr])* $event : $event_ty [$($event_option)*] ),* ]
            [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
        }
        $crate::__private::paste::paste! {
            /// A copy of the builder and its values: a prefab, spawned many times. Callable
            /// when every component type of the world is `Clone` (`spawn(world, count)` needs
            /// only the values held to be).
            impl ::core::clone::Clone for [<$world EntityBuilder>]
            where
                $( for<'x> [<__component_ $field>]: ::core::clone::Clone, )+
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
                $( for<'x> [<__component_ $field>]: ::core::clone::Clone, )+
                $( for<'x> [<__event_ $event>]: ::core::clone::Clone, )*
                $( for<'x> [<__resource_ $resource>]: ::core::clone::Clone, )*
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
                    ::core::clone::Clone::clone_from(&mut self.systems, &source.systems);
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
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            impl ::core::clone::Clone for [<$world ComponentArrays>]
            where
                $( for<'x> [<__component_ $field>]: ::core::clone::Clone, )+
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
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty [$($event_option:ident)*] ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__private::paste::paste! {
            impl ::core::clone::Clone for [<$world Resources>]
            where
                $( for<'x> [<__resource_ $resource>]: ::core::clone::Clone, )*
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
                }
            }

            impl ::core::clone::Clone for [<$world Events>]
            where
                $( for<'x> [<__event_ $event>]: ::core::clone::Clone, )*
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
                }
            }
        }
    };
}
