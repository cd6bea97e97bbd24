//! `__ecs_split!`: the read side of `split_tables` (one loop writing some entities while it
//! reads others: a turret aims at its target), with its typed getters; the split itself is
//! `archetypal::Storage::split_tables`.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_split {
    (@types $world:ident) => {
        $crate::__private::paste::paste! {
            #[doc = "The written side of `split_tables`: `for_each_mut(|entity, table, row| ..)` over its entities."]
            pub type [<$world TablesMut>]<'a> = $crate::TablesMut<'a, [<$world ComponentArrays>]>;

            #[doc = "The read side of `split_tables`: the components of its entities, by handle, while the written side is iterated."]
            pub struct [<$world Tables>]<'a> {
                tables: $crate::TablesRef<'a, [<$world ComponentArrays>]>,
            }
        }
    };
    // The methods, in the read side's impl block; `$part` has the column pickers.
    (@methods $world:ident $part:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            /// Whether `entity` is alive and on this side, in O(1) (`false` for a stale or
            /// never-issued handle).
            #[inline]
            pub fn contains(&self, entity: $crate::Entity) -> bool {
                self.tables.contains(entity)
            }

            /// Calls `f(entity, table, index)` for every entity on this side: O(its tables)
            /// plus their rows.
            #[inline]
            pub fn for_each<F>(&self, f: F)
            where
                F: ::core::ops::FnMut($crate::Entity, &'a [<$world ComponentArrays>], usize),
            {
                self.tables.for_each(f);
            }

            $(
                #[doc = "The `" $field "` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle, an entity not on this side, or one without a `" $field "`."]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $field>](&self, entity: $crate::Entity) -> ::core::option::Option<&'a $ty> {
                    self.tables.get(entity, $mask, $part::[<__ref_ $field>])
                }
            )+
        }
    };
}
