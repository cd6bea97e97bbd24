//! `__ecs_typed_queries!`: the `TypedTable` and `ComponentColumn` impls that let a typed query
//! (`Storage::typed_query`) find each component's column by type (see `archetypal::typed_query`).
//! Each component gets a marker type of its own, named like its field (in one hidden module), so
//! two components of one type have distinct impls and the world still compiles.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_typed_queries {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:tt => $mask:ident [$($option:ident)*] ),+ ]) => {
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
                type TablesRead<'a> = [<$world Tables>]<'a>;

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

                #[inline]
                fn read_side(tables: $crate::TablesRef<'_, Self>) -> [<$world Tables>]<'_> {
                    [<$world Tables>] { tables }
                }

                const TRACKED_BITS: u128 = <Self as $crate::Archetype>::TRACKED as u128;
            }

            // Each component's marker, the `M` of `ComponentColumn<C, M>` that a typed query
            // infers: named like its field, in a module of their own (hidden in the block, so
            // no name can shadow a type, as in `u8: u8 => U8`).
            #[allow(unused_doc_comments)]
            const _: () = {
                #[allow(non_camel_case_types)]
                mod __component {
                    $( $(#[$attr])* pub enum $field {} )+
                }

                $(
                    $(#[$attr])*
                    impl $crate::ComponentColumn<$ty, __component::$field> for [<$world ComponentArrays>] {
                        const BIT: u128 = $mask as u128;

                        #[inline]
                        fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [$ty] {
                            ::core::mem::take(&mut view.$field)
                        }

                        #[inline]
                        fn column<'v>(columns: &Self::Columns<'v>) -> &'v [$ty] {
                            columns.$field
                        }
                    }
                )+
            };
        }
    };
}
