//! `__ecs_resources!`: the world's singletons, `world.resources.<name>`; and among the helpers
//! (`@systems`), each resource lent to a system's `Res` / `ResMut` by its type.

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
            // One slot per resource: a system's parameters take theirs by type.
            pub struct __ResourceSlots<'w> {
                $( $(#[$attr])* $name: $crate::system::Slot<'w, $ty>, )*
                __lifetime: ::core::marker::PhantomData<&'w ()>,
            }

            impl $crate::system::ResourceSet for [<$world Resources>] {
                type Slots<'w> = __ResourceSlots<'w>;

                #[inline]
                fn slots(&mut self) -> __ResourceSlots<'_> {
                    __ResourceSlots {
                        $( $(#[$attr])* $name: $crate::system::Slot::new(&mut self.$name), )*
                        __lifetime: ::core::marker::PhantomData,
                    }
                }

                #[inline]
                fn shorten<'a, 'b: 'a>(slots: <Self as $crate::system::ResourceSet>::Slots<'b>) -> <Self as $crate::system::ResourceSet>::Slots<'a> {
                    slots
                }
            }

            // Each resource's place (its bit in a system's access) and marker.
            enum __Resource {
                $( $(#[$attr])* $name, )*
                __END,
            }
            const _: () = ::core::assert!(
                (__Resource::__END as u32) <= 128,
                "ecs!: a world declares at most 128 resources"
            );
            mod __resource {
                $( $(#[$attr])* pub enum $name {} )*
            }

            $(
                $(#[$attr])*
                impl $crate::system::ResourceOf<$ty, __resource::$name> for [<$world Resources>] {
                    const BIT: u128 = 1 << __Resource::$name as u32;

                    #[inline]
                    fn slot<'s, 'w>(slots: &'s mut <Self as $crate::system::ResourceSet>::Slots<'w>) -> &'s mut $crate::system::Slot<'w, $ty> {
                        &mut slots.$name
                    }
                }
            )*
        }
    };
}
