//! `__ecs_typed_queries!`: the `TypedTable` and `ComponentColumn` impls that let a typed query
//! (`Storage::typed_query`) find each component's column by type (see `archetypal::typed_query`).
//! Each component gets a marker type of its own, named like its field (in a module of its own),
//! so two components of one type have distinct impls and the world still compiles.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_typed_queries {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            #[doc = "Every column of a `" $world "` table as a shared slice (what a typed query reads)."]
            #[doc(hidden)]
            pub struct [<__ $world SharedColumns>]<'a> {
                mask: [<$world Mask>],
                $(
                    $(#[$attr])*
                    $field: &'a [$ty],
                )+
            }

            #[allow(unused_doc_comments)]
            impl $crate::TypedTable for [<$world ComponentArrays>] {
                type Columns<'v> = [<__ $world SharedColumns>]<'v>;

                #[inline]
                fn share<'v>(view: <Self as $crate::Archetype>::ViewMut<'v>) -> Self::Columns<'v> {
                    [<__ $world SharedColumns>] {
                        mask: view.mask,
                        $( $(#[$attr])* $field: view.$field, )+
                    }
                }

                #[inline]
                fn columns(&self) -> Self::Columns<'_> {
                    [<__ $world SharedColumns>] {
                        mask: self.mask,
                        $( $(#[$attr])* $field: &self.$field, )+
                    }
                }

                #[inline]
                fn view_mask(view: &<Self as $crate::Archetype>::ViewMut<'_>) -> [<$world Mask>] {
                    view.mask
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
                        const IS_TRACKED: bool =
                            <Self as $crate::Archetype>::TRACKED & $mask != 0;

                        #[inline]
                        fn take_column<'v>(view: &mut <Self as $crate::Archetype>::ViewMut<'v>) -> &'v mut [$ty] {
                            ::core::mem::take(&mut view.$field)
                        }

                        #[inline]
                        fn column<'v>(columns: &<Self as $crate::TypedTable>::Columns<'v>) -> &'v [$ty] {
                            columns.$field
                        }

                        #[inline]
                        fn has_column(mask: [<$world Mask>]) -> bool {
                            mask & $mask != 0
                        }
                    }
                };
            )+
        }
    };
}
