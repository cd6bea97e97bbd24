//! `__ecs_resources!`: the world's singletons, `world.resources.<name>`; and among the helpers
//! (`@systems`), each resource lent to a system's `Res` / `ResMut` by its type, through the
//! slots (`@slots`) that lend a world's event channels to its readers and writers too.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_resources {
    ($world:ident [ $( $(#[$attr:meta])* $name:ident : $ty:ty ),* ]) => {
        $crate::__private::paste::paste! {
            #[doc = "The singletons of `" $world "`, declared in its `Resources` block."]
            #[derive(::core::default::Default)]
            pub struct [<$world Resources>] {
                $(
                    #[doc = "The `" $name "` resource."]
                    $(#[$attr])*
                    pub $name: $ty,
                )*
            }
        }
    };
    (@systems $world:ident [ $( $(#[$attr:meta])* $name:ident : $ty:ty ),* ]) => {
        $crate::__private::paste::paste! {
            $crate::__ecs_resources! {
                @slots [<$world Resources>], ResourceSet, ResourceOf, __ResourceSlots, __Resource,
                __resource, "ecs!: a world declares at most 128 resources"
                [ $( $(#[$attr])* $name : $ty => $ty ),* ]
            }
        }
    };
    // The slots a world's resources or event channels are lent to systems' parameters through
    // (`$set_trait`: `ResourceSet` or `EventSet`), each picked by its type (`$of_trait`:
    // `ResourceOf` or `EventOf`), with its bit in a system's access: its place in the block.
    (
        @slots $set:ty, $set_trait:ident, $of_trait:ident, $slots:ident, $place:ident,
        $marker:ident, $limit:literal
        [ $( $(#[$attr:meta])* $name:ident : $ty:ty => $slot:ty ),* ]
    ) => {
        // One slot per item: a system's parameters take theirs by type.
        pub struct $slots<'w> {
            $( $(#[$attr])* $name: $crate::system::Slot<'w, $slot>, )*
            __lifetime: ::core::marker::PhantomData<&'w ()>,
        }

        impl $crate::system::$set_trait for $set {
            type Slots<'w> = $slots<'w>;

            #[inline]
            fn slots(&mut self) -> $slots<'_> {
                $slots {
                    $( $(#[$attr])* $name: $crate::system::Slot::new(&mut self.$name), )*
                    __lifetime: ::core::marker::PhantomData,
                }
            }

            #[inline]
            fn shorten<'a, 'b: 'a>(slots: <Self as $crate::system::$set_trait>::Slots<'b>) -> <Self as $crate::system::$set_trait>::Slots<'a> {
                slots
            }
        }

        // Each item's place (its bit in a system's access) and marker.
        enum $place {
            $( $(#[$attr])* $name, )*
            __END,
        }
        const _: () = ::core::assert!(($place::__END as u32) <= 128, $limit);
        mod $marker {
            $( $(#[$attr])* pub enum $name {} )*
        }

        $(
            $(#[$attr])*
            impl $crate::system::$of_trait<$ty, $marker::$name> for $set {
                const BIT: u128 = 1 << $place::$name as u32;

                #[inline]
                fn slot<'s, 'w>(slots: &'s mut <Self as $crate::system::$set_trait>::Slots<'w>) -> &'s mut $crate::system::Slot<'w, $slot> {
                    &mut slots.$name
                }
            }
        )*
    };
}
