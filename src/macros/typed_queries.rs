//! `__ecs_typed_queries!`: among the helpers, the `TypedTable` and `ComponentColumn` impls that
//! let a typed query (`Storage::typed_query`) find each component's column by type (see
//! `archetypal::typed_query`). Each component gets a marker type of its own, named like its
//! field (in one module), so two components of one type have distinct impls and the world still
//! compiles.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_typed_queries {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            // Every column of a table as a shared slice (what a typed query reads).
            pub struct __SharedColumns<'a> {
                mask: [<$world Mask>],
                $( $(#[$attr])* $field: &'a [$ty], )+
            }

            impl $crate::TypedTable for [<$world ComponentArrays>] {
                type Columns<'v> = __SharedColumns<'v>;
                type TablesRead<'a> = [<$world Tables>]<'a>;

                #[inline]
                fn share<'v>(view: Self::ViewMut<'v>) -> Self::Columns<'v> {
                    __SharedColumns {
                        mask: view.mask,
                        $( $(#[$attr])* $field: view.$field, )+
                    }
                }

                #[inline]
                fn columns(&self) -> Self::Columns<'_> {
                    __SharedColumns {
                        mask: self.mask,
                        $( $(#[$attr])* $field: &self.$field, )+
                    }
                }

                #[inline]
                fn view_mask(view: &Self::ViewMut<'_>) -> [<$world Mask>] {
                    view.mask
                }

                #[inline]
                fn read_side(tables: $crate::TablesRef<'_, Self>) -> [<$world Tables>]<'_> {
                    [<$world Tables>] { tables }
                }

                const TRACKED_BITS: u128 = <Self as $crate::Archetype>::TRACKED as u128;
                const COMPONENT_BITS: u128 = <Self as $crate::Archetype>::COMPONENTS as u128;
            }

            // Each component's marker, the `M` of `ComponentColumn<C, M>` that a typed query
            // infers: named like its field, in a module of their own (so no name can shadow a
            // type, as in `u8: u8 => U8`).
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
        }
    };
}
