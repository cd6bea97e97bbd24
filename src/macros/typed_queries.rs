//! `__ecs_typed_queries!`: `typed_query::<Q>()` and the `ComponentColumn` impls that let a
//! typed query find each component's column by type (see `archetypal::typed_query`). Each
//! component gets a marker type of its own, named like its field (in a module of its own), so
//! two components of one type have distinct impls and the world still compiles.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_typed_queries {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            impl [<$world Components>] {
                /// A typed query over slices:
                /// `world.typed_query::<(&mut Position, &Velocity)>().with(A).without(B).for_each(|(position, velocity)| ..)`.
                /// Elements are `&C`, `&mut C`, `Option<&C>`, `Option<&mut C>` and
                /// `archetypal::Entity`, in tuples of up to 12; components borrowed mutably are
                /// stamped as changed in every table visited.
                pub fn typed_query<Q>(&mut self) -> $crate::TypedQuery<'_, [<$world ComponentArrays>], Q> {
                    $crate::TypedQuery::new(&mut self.storage)
                }
            }

            $(
                // The component's marker, the `M` of `ComponentColumn<C, M>` that a typed query
                // infers. A module of its own per component, so the name cannot shadow a type
                // (`u8: u8 => U8`) and a duplicate field adds no error of its own.
                $(#[$attr])*
                #[allow(unused_doc_comments)]
                const _: () = {
                    #[allow(non_camel_case_types)]
                    mod __component {
                        pub enum $field {}
                    }

                    impl $crate::ComponentColumn<$ty, __component::$field> for [<$world ComponentArrays>] {
                        const BIT: u128 = $mask as u128;

                        #[inline]
                        fn take_column<'v>(view: &mut <Self as $crate::Archetype>::ViewMut<'v>) -> &'v mut [$ty] {
                            ::core::mem::take(&mut view.$field)
                        }

                        #[inline]
                        fn column<'r>(view: &'r <Self as $crate::Archetype>::ViewMut<'_>) -> &'r [$ty] {
                            view.$field
                        }

                        #[inline]
                        fn has_column(view: &<Self as $crate::Archetype>::ViewMut<'_>) -> bool {
                            view.mask & $mask != 0
                        }
                    }
                };
            )+
        }
    };
}
