//! `__ecs_split!`: `split_tables`, one loop writing some entities while it reads others (a
//! turret aims at its target), with the read side's typed getters (see
//! `archetypal::Storage::split_tables`).

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_split {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            #[doc = "The written side of `" $world "Components::split_tables`: `for_each_mut(|entity, table, row| ..)` over its entities."]
            pub type [<$world TablesMut>]<'a> = $crate::TablesMut<'a, [<$world ComponentArrays>]>;

            #[doc = "The read side of `" $world "Components::split_tables`: the components of its entities, by handle, while the written side is iterated."]
            pub struct [<$world Tables>]<'a> {
                tables: $crate::TablesRef<'a, [<$world ComponentArrays>]>,
            }

            impl<'a> [<$world Tables>]<'a> {
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
                        self.tables.get(entity, $mask, [<__ $world ColumnRef>]::$field)
                    }
                )+
            }

            impl [<$world Components>] {
                /// Splits the tables in two by disjoint filters: those with every component of
                /// `write_include` and none of `write_exclude`, iterated mutably, and those of
                /// `read_include` / `read_exclude`, read by handle meanwhile (a turret aims at
                /// its target). The filters must exclude each other by a component (one side
                /// requires what the other excludes), decided from the masks alone: otherwise
                /// `Err`, whatever the world holds. O(tables) to split (one pass over the masks).
                #[inline]
                pub fn split_tables(
                    &mut self,
                    write_include: [<$world Mask>],
                    write_exclude: [<$world Mask>],
                    read_include: [<$world Mask>],
                    read_exclude: [<$world Mask>],
                ) -> ::core::result::Result<([<$world TablesMut>]<'_>, [<$world Tables>]<'_>), $crate::TablesOverlap<[<$world Mask>]>> {
                    let (writing, tables) = self.storage.split_tables(write_include, write_exclude, read_include, read_exclude)?;
                    ::core::result::Result::Ok((writing, [<$world Tables>] { tables }))
                }
            }
        }
    };
}
