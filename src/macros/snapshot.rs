//! `__ecs_world_state!`: among the helpers, the whole-world operations of a world, a sub-world
//! or a multi-world game: cloning (`__ecs_clone!`) and, with the `serde` feature, snapshots
//! (`__ecs_snapshot!`).
//!
//! Both need bounds like "every component type is `Clone`" on impls for the concrete world, and
//! a bound naming a type that a `#[cfg]` compiled out would not compile (a `where` clause
//! cannot carry `#[cfg]`). So each component, event and resource type gets a private alias,
//! `__component_position`, declared under the component's own attributes; a glob import of a
//! module where every alias is `()` stands in for the ones compiled out (an item shadows a glob
//! import), and `()` satisfies every bound. The bounds are higher-ranked (`for<'x>`), or name
//! the impl's `'de` (the reading impls), so a type that does not meet one leaves the impl
//! unusable instead of failing to compile.

/// Declares the type aliases and calls the generating rules: a world's (`world`), a
/// sub-world's (`sub_world`: its tables) or a game's (`game`: its resources and events).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_world_state {
    (
        world $world:ident $components:tt $tags:tt $relations:tt $events:tt
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__ecs_state_types! { $components $events [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ] }
        $crate::__ecs_clone! { $world $components $events [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ] }
        // A world's tables and singletons are serde only together: its tables are bounded on
        // its resources' types too, and its singletons on its tables. A type serde reads only
        // for some lifetimes (a `&'static str` is `Deserialize<'static>` only) leaves the world
        // saving but not loading (the reading impls are bounded on `'de`, see `@tables`),
        // instead of failing to compile.
        $crate::__ecs_if_serde! {
            $crate::__ecs_snapshot! {
                @tables $world $components $tags $relations
                serialize_also: { $( for<'x> [<__resource_ $resource>]: $crate::__private::serde::Serialize, )* }
                deserialize_also: { $( [<__resource_ $resource>]: $crate::__private::serde::Deserialize<'de>, )* }
            }
            $crate::__ecs_snapshot! { @world $world $components $events [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ] }
        }
    };
    (sub_world $world:ident $components:tt $tags:tt $relations:tt) => {
        $crate::__ecs_state_types! { $components [] [] }
        $crate::__ecs_clone_tables! { $world $components }
        $crate::__ecs_if_serde! {
            $crate::__ecs_snapshot! { @tables $world $components $tags $relations serialize_also: {} deserialize_also: {} }
        }
    };
    (game $game:ident $events:tt $resources:tt) => {
        $crate::__ecs_state_types! { [] $events $resources }
        $crate::__ecs_clone_singletons! { $game $events $resources }
        $crate::__ecs_if_serde! {
            $crate::__ecs_snapshot! { @game $game $events $resources }
        }
    };
}

/// `__ecs_state_types!`: an alias per component, event and resource type
/// (`__component_position`), which the `Clone` and serde impls are bounded on: a `#[cfg]` that
/// compiles a component out compiles its alias out too, leaving the `()` of the module below in
/// its place, where a bound written with the type itself could not be `#[cfg]`'d.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_state_types {
    (
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),* ]
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty [$($event_option:ident)*] ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__private::paste::paste! {
            // `()` for every alias; the real ones below shadow these, except where a `#[cfg]`
            // compiled the real one out with its component.
            mod __compiled_out {
                $( pub type [<__component_ $field>] = (); )*
                $( pub type [<__event_ $event>] = (); )*
                $( pub type [<__saving_ $event>] = $crate::__private::UnsavedEvents; )*
                $( pub type [<__resource_ $resource>] = (); )*
            }

            use __compiled_out::*;

            $( $(#[$attr])* type [<__component_ $field>] = $ty; )*
            $( $(#[$event_attr])* type [<__event_ $event>] = $event_ty; )*
            $( $(#[$event_attr])* type [<__saving_ $event>] = $crate::__ecs_event_saving!($($event_option)*); )*
            $( $(#[$event_attr])* $crate::__ecs_event_saving! { @check $($event_option)* } )*
            $( $(#[$resource_attr])* type [<__resource_ $resource>] = $resource_ty; )*
        }
    };
}

/// Snapshots: `world.snapshot()`, `World::from_snapshot`, and `Serialize` / `Deserialize` for
/// the world, each one call into the runtime's `archetypal::snapshot`, which writes, reads and
/// checks a world and a game alike. Only what depends on the component list is generated: a
/// column or resource picked by its mask bit or name and handed to the runtime (`write`,
/// `read`), the names, and access to the entity index. The serde impls are bounded on every
/// component and resource type being `Serialize` (`Deserialize<'de>`). The `@tables` arm (a
/// world's or a sub-world's tables), the `@singletons` arm (a world's or a game's resources and
/// events), the `@world` and `@game` arms (the rest of a world's or a game's impls) and the
/// `@world_methods` and `@multi_world_methods` arms (`snapshot()` and `from_snapshot`, in the impl
/// block) are the pieces.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_snapshot {
    (
        @tables $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* ]
        [ $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident [$($policy:tt)*] ),* ]
        serialize_also: { $($serialize_also:tt)* }
        deserialize_also: { $($deserialize_also:tt)* }
    ) => {
        $crate::__private::paste::paste! {
            impl $crate::snapshot::SnapshotTables for $world {
                type Table = [<$world ComponentArrays>];

                const COMPONENTS: &'static [(&'static str, [<$world Mask>])] = &[$( $(#[$attr])* (::core::stringify!($field), $mask), )+];
                const TAGS: &'static [(&'static str, [<$world Mask>])] = &[$( $(#[$tag_attr])* (::core::stringify!($tag), $tag_mask), )*];
                const RELATIONS: &'static [(&'static str, [<$world Mask>])] = &[$( $(#[$relation_attr])* (::core::stringify!($relation), $relation_mask), )*];
            }

            // A column is picked by its mask bit; a duplicate mask (refused by its own error)
            // would only add an unreachable arm.
            impl $crate::snapshot::SerializeTables for $world
            where
                $( for<'x> [<__component_ $field>]: $crate::__private::serde::Serialize, )+
                $($serialize_also)*
            {
                #[inline]
                fn serialize_column<S: $crate::__private::serde::ser::SerializeMap>(
                    table: &Self::Table,
                    column: $crate::snapshot::ColumnOut<'_, S, [<$world Mask>]>,
                ) -> ::core::result::Result<(), S::Error> {
                    match column.bit() {
                        $( $(#[$attr])* $mask => column.write(&table.$field), )+
                        _ => ::core::result::Result::Ok(()),
                    }
                }
            }

            // Bounded on `'de`, not on `DeserializeOwned`: a bound on a type alone (with no
            // parameter of the impl in it) is not what the compiler proves a body's reads
            // with, so a type serde reads for some lifetimes only (`&'static str`) would fail
            // the body; bounded on `'de`, such a world compiles and only its loading does not.
            impl<'de> $crate::snapshot::DeserializeColumns<'de> for $world
            where
                $( [<__component_ $field>]: $crate::__private::serde::Deserialize<'de>, )+
                $($deserialize_also)*
            {
                #[inline]
                fn deserialize_column<A: $crate::__private::serde::de::MapAccess<'de>>(
                    table: &mut Self::Table,
                    column: $crate::snapshot::ColumnIn<'_, A, [<$world Mask>]>,
                ) -> ::core::result::Result<(), A::Error> {
                    table.mask |= column.bit();
                    match column.bit() {
                        $( $(#[$attr])* $mask => column.read(&mut table.$field), )+
                        _ => ::core::result::Result::Ok(()),
                    }
                }
            }
        }
    };
    (
        @singletons $world:ident
        [ $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty [$($event_option:ident)*] ),* ]
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
        serialize: { $($serialize:tt)* }
        deserialize: { $($deserialize:tt)* }
    ) => {
        $crate::__private::paste::paste! {
            impl $crate::snapshot::SnapshotSingletons for $world {
                type Resources = [<$world Resources>];

                #[inline]
                fn resources(&self) -> &Self::Resources {
                    &self.resources
                }

                #[inline]
                fn resources_mut(&mut self) -> &mut Self::Resources {
                    &mut self.resources
                }

                const RESOURCE_NAMES: &'static [&'static str] = &[$( $(#[$resource_attr])* ::core::stringify!($resource), )*];

                const EVENTS: &'static [$crate::snapshot::EventNumbering<Self>] = &[$(
                    $(#[$event_attr])*
                    (
                        ::core::stringify!($event),
                        |world| world.events.$event.next_sequence(),
                        |world, next| world.events.$event.start_numbering_at(next),
                        <[<__saving_ $event>] as $crate::snapshot::EventSaving>::SAVED,
                    ),
                )*];
            }

            impl $crate::snapshot::SerializeSingletons for $world
            where
                $($serialize)*
                $( for<'x> [<__saving_ $event>]: $crate::snapshot::SaveEvents<[<__event_ $event>]>, )*
            {
                #[inline]
                fn serialize_resource<S: $crate::__private::serde::ser::SerializeMap>(
                    resources: &Self::Resources,
                    resource: $crate::snapshot::ResourceOut<'_, S>,
                ) -> ::core::result::Result<(), S::Error> {
                    match resource.name() {
                        $( $(#[$resource_attr])* ::core::stringify!($resource) => resource.write(&resources.$resource), )*
                        _ => ::core::result::Result::Ok(()),
                    }
                }

                #[inline]
                fn serialize_channel<S: $crate::__private::serde::ser::SerializeMap>(
                    world: &Self,
                    channel: $crate::snapshot::ChannelOut<'_, S>,
                ) -> ::core::result::Result<(), S::Error> {
                    match channel.name() {
                        $( $(#[$event_attr])* ::core::stringify!($event) => channel.write::<[<__saving_ $event>], _>(&world.events.$event), )*
                        _ => ::core::result::Result::Ok(()),
                    }
                }
            }

            impl<'de> $crate::snapshot::DeserializeResources<'de> for $world
            where
                $($deserialize)*
                $( [<__saving_ $event>]: $crate::snapshot::LoadEvents<'de, [<__event_ $event>]>, )*
            {
                #[inline]
                fn deserialize_resource<A: $crate::__private::serde::de::MapAccess<'de>>(
                    resources: &mut Self::Resources,
                    resource: $crate::snapshot::ResourceIn<'_, A>,
                ) -> ::core::result::Result<(), A::Error> {
                    match resource.name() {
                        $( $(#[$resource_attr])* ::core::stringify!($resource) => resource.read(&mut resources.$resource), )*
                        _ => ::core::result::Result::Ok(()),
                    }
                }

                #[inline]
                fn deserialize_channel<A: $crate::__private::serde::de::MapAccess<'de>>(
                    world: &mut Self,
                    channel: $crate::snapshot::ChannelIn<'_, A>,
                ) -> ::core::result::Result<(), A::Error> {
                    match channel.name() {
                        $( $(#[$event_attr])* ::core::stringify!($event) => channel.read::<[<__saving_ $event>], _>(&mut world.events.$event), )*
                        _ => ::core::result::Result::Ok(()),
                    }
                }
            }
        }
    };
    // The rest of a world's: its singletons (serde with its tables), its entity index and its
    // serde impls.
    (
        @world $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        $events:tt
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__ecs_snapshot! {
            @singletons $world $events [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
            serialize: {
                $( for<'x> [<__resource_ $resource>]: $crate::__private::serde::Serialize, )*
                $( for<'x> [<__component_ $field>]: $crate::__private::serde::Serialize, )+
            }
            deserialize: {
                $( [<__resource_ $resource>]: $crate::__private::serde::Deserialize<'de>, )*
                $( [<__component_ $field>]: $crate::__private::serde::Deserialize<'de>, )+
            }
        }

        impl $crate::snapshot::SnapshotWorld for $world {
            #[inline]
            fn index(&self) -> &$crate::EntityIndex {
                &self.components.storage.index
            }

            #[inline]
            fn index_mut(&mut self) -> &mut $crate::EntityIndex {
                &mut self.components.storage.index
            }

            #[inline]
            fn systems(&self) -> &$crate::SystemMemories {
                &self.systems
            }

            #[inline]
            fn systems_mut(&mut self) -> &mut $crate::SystemMemories {
                &mut self.systems
            }
        }

        /// Feature `serde`. The world's snapshot (`world.snapshot()`).
        impl $crate::__private::serde::Serialize for $world
        where
            for<'x> Self: $crate::snapshot::SerializeWorld,
        {
            #[inline]
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::snapshot::serialize_world(self, serializer)
            }
        }

        /// Feature `serde`. A snapshot decoded and checked (`World::from_snapshot`): one that
        /// is not a sound world is a decoding error with the reason.
        impl<'de> $crate::__private::serde::Deserialize<'de> for $world
        where
            for<'x> Self: $crate::snapshot::DeserializeWorld,
        {
            #[inline]
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::snapshot::deserialize_world(deserializer)
            }
        }
    };
    (@world_methods) => {
        /// Feature `serde`. The world, borrowed for saving in any serde format
        /// (`serde_json::to_string(&world.snapshot())`): every entity (handles stay valid,
        /// the next spawn gets the same id), component, tag and resource, the ticks, where
        /// numbering stands, the `[saved]` channels' events, what systems remember (not their
        /// locals); no queued command (`archetypal::snapshot`); `.checksum()`: its stable hash.
        /// Callable when every type is `Serialize`. O(1); serializing is O(the whole world).
        #[inline]
        pub fn snapshot(&self) -> $crate::Snapshot<'_, Self>
        where
            for<'x> Self: $crate::snapshot::SerializeWorld,
        {
            $crate::Snapshot::new(self)
        }

        /// Feature `serde`. The world a decoded snapshot describes (`serde_json::from_str::<
        /// SnapshotData<World>>(&text)`), all of it checked: the whole world or an error
        /// saying what is wrong, never a panic or a half-loaded world; O(the whole world).
        /// The world is also `Deserialize`.
        #[inline]
        pub fn from_snapshot(
            snapshot: $crate::SnapshotData<Self>,
        ) -> ::core::result::Result<Self, $crate::SnapshotError> {
            snapshot.into_world()
        }
    };
    (
        @game $game:ident $events:tt
        [ $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* ]
    ) => {
        $crate::__ecs_snapshot! {
            @singletons $game $events [ $( $(#[$resource_attr])* $resource : $resource_ty ),* ]
            serialize: {
                $( for<'x> [<__resource_ $resource>]: $crate::__private::serde::Serialize, )*
                for<'x, 'a> <Self as $crate::MultiWorld>::SubWorlds<'a>: $crate::snapshot::SerializeSubWorlds,
            }
            deserialize: {
                $( [<__resource_ $resource>]: $crate::__private::serde::Deserialize<'de>, )*
                for<'x> <Self as $crate::MultiWorld>::SubWorlds<'static>: $crate::snapshot::LoadSubWorlds,
            }
        }

        /// Feature `serde`. The game's snapshot (`game.snapshot()`).
        impl $crate::__private::serde::Serialize for $game
        where
            for<'x> Self: $crate::snapshot::SerializeMultiWorld,
        {
            #[inline]
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::snapshot::serialize_multi_world(self, serializer)
            }
        }

        /// Feature `serde`. A snapshot decoded and checked (`Game::from_snapshot`): one that
        /// is not a sound game is a decoding error with the reason.
        impl<'de> $crate::__private::serde::Deserialize<'de> for $game
        where
            for<'x> Self: $crate::snapshot::DeserializeMultiWorld,
        {
            #[inline]
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::snapshot::deserialize_multi_world(deserializer)
            }
        }
    };
    (@multi_world_methods) => {
        /// Feature `serde`. The game, borrowed for saving in any serde format
        /// (`serde_json::to_string(&game.snapshot())`): its entity index (handles stay valid,
        /// the next spawn gets the same id), every sub-world, the resources and where
        /// numbering stands, and the `[saved]` channels' events; not queued commands (see
        /// `archetypal::snapshot`). `.checksum()` is its stable hash. Callable when every type
        /// is `Serialize`. O(1); serializing is O(the whole game).
        #[inline]
        pub fn snapshot(&self) -> $crate::MultiWorldSnapshot<'_, Self>
        where
            for<'x> Self: $crate::snapshot::SerializeMultiWorld,
        {
            $crate::MultiWorldSnapshot::new(self)
        }

        /// Feature `serde`. The game a decoded snapshot describes (`serde_json::from_str::<
        /// MultiWorldSnapshotData<Game>>(&text)`), all of it checked: the whole game or an error
        /// saying what is wrong, never a panic or a half-loaded game; O(the whole game). The
        /// game is also `Deserialize`. Callable when every type is `Deserialize`.
        #[inline]
        pub fn from_snapshot(
            snapshot: $crate::MultiWorldSnapshotData<Self>,
        ) -> ::core::result::Result<Self, $crate::SnapshotError>
        where
            for<'x> Self: $crate::snapshot::DeserializeMultiWorld,
        {
            snapshot.into_multi_world()
        }
    };
}

/// Emits its input when archetypal has the `serde` feature (a `#[cfg]` in generated code would
/// test the user's crate's features instead).
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_if_serde {
    ($($items:tt)*) => { $($items)* };
}

/// See the `serde` version above.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_if_serde {
    ($($items:tt)*) => {};
}
