//! `__ecs_tables!`: the mask type, the component and tag mask constants, and the
//! struct-of-arrays table types with their `Archetype` impl (the per-column fan-out of spawn,
//! despawn and migration).

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_tables {
    (
        $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:tt => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* ]
        [ $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident [$($policy:tt)*] ),* ]
        $hooks:tt
    ) => {
        $crate::__private::paste::paste! {
            // The bit index of every component. An enum counts them (`__COUNT`) without a
            // recursive macro, and `#[cfg]` on a component removes its variant too.
            #[doc(hidden)]
            #[allow(non_camel_case_types, dead_code, unused_doc_comments)]
            enum [<__ $world ComponentIndex>] {
                $( $(#[$attr])* $field, )+
                __COUNT,
            }

            // Tag bits follow the component bits, and relation bits the tag bits (a relation
            // bit lives in the tag segments like a tag's).
            #[doc(hidden)]
            #[allow(non_camel_case_types, dead_code, unused_doc_comments)]
            enum [<__ $world TagIndex>] {
                __LAST_COMPONENT = [<__ $world ComponentIndex>]::__COUNT as isize - 1,
                $( $(#[$tag_attr])* $tag, )*
                __FIRST_RELATION,
                $( $(#[$relation_attr])* $relation, )*
                __END,
            }

            // Past the mask's width a bit is 0 (`mask_bit` works in `u128`, and the cast to a
            // `u64` mask drops bits 64 and up) and `check_world` reports the error, so the user
            // sees one message rather than an overflow.
            impl [<__ $world ComponentIndex>] {
                const fn mask(self) -> [<$world Mask>] {
                    $crate::__private::mask_bit(self as u32) as [<$world Mask>]
                }
            }

            impl [<__ $world TagIndex>] {
                const fn mask(self) -> [<$world Mask>] {
                    $crate::__private::mask_bit(self as u32) as [<$world Mask>]
                }

                // A relation's bit is one lower than its index: `__FIRST_RELATION` has none.
                const fn relation_mask(self) -> [<$world Mask>] {
                    $crate::__private::mask_bit(self as u32 - 1) as [<$world Mask>]
                }
            }

            const _: () = $crate::__private::check_world(
                ::core::stringify!($world),
                $crate::__private::WorldNames {
                    components: &[$(::core::stringify!($field)),+],
                    tags: &[$(::core::stringify!($tag)),*],
                    relations: &[$(::core::stringify!($relation)),*],
                    reverses: &[$(::core::stringify!($reverse)),*],
                },
                &[$(::core::stringify!($mask)),+ $(, ::core::stringify!($tag_mask))* $(, ::core::stringify!($relation_mask))*],
                // `__FIRST_RELATION` takes an index but no bit.
                [<__ $world TagIndex>]::__END as usize - 1,
            );

            #[doc = "The mask type of `" $world "`: `u64` for up to 64 components, tags and relations, `u128` up to 128."]
            pub type [<$world Mask>] = <$crate::MaskWidth<
                { ([<__ $world TagIndex>]::__END as usize - 1) <= 64 },
            > as $crate::SelectMask>::Mask;

            $(
                #[doc = "Mask bit of the `" $field "` component."]
                $(#[$attr])*
                pub const $mask: [<$world Mask>] = [<__ $world ComponentIndex>]::$field.mask();
            )+

            $(
                #[doc = "Mask bit of the `" $tag "` tag."]
                $(#[$tag_attr])*
                pub const $tag_mask: [<$world Mask>] = [<__ $world TagIndex>]::$tag.mask();
            )*

            $(
                #[doc = "Mask bit of the `" $relation "` relation: carried by every entity linked to a target by `set_" $relation "` (set and cleared only by linking), usable in every include / exclude mask (`" $relation_mask "` excluded: the roots)."]
                $(#[$relation_attr])*
                pub const $relation_mask: [<$world Mask>] = [<__ $world TagIndex>]::$relation.relation_mask();
            )*

            #[doc = "One archetype of `" $world "`: a row per entity whose components are exactly `mask`, one `Vec` per component (struct of arrays). Columns whose bit is not in `mask` stay empty."]
            pub struct [<$world ComponentArrays>] {
                /// The components this table holds.
                pub mask: [<$world Mask>],
                /// The entity of every row.
                pub entities: $crate::__private::alloc::vec::Vec<$crate::Entity>,
                $(
                    #[doc = "The `" $field "` column: a value per row when `mask` holds `" $mask "`, else empty."]
                    $(#[$attr])*
                    pub $field: $crate::__private::alloc::vec::Vec<$ty>,
                )+
            }

            #[doc = "A `" $world "` table seen through slices: values can change, the number of rows cannot."]
            pub struct [<$world ComponentArraysMut>]<'a> {
                /// The components this table holds.
                pub mask: [<$world Mask>],
                /// The entity of every row.
                pub entities: &'a [$crate::Entity],
                $(
                    #[doc = "The `" $field "` column: a value per row when `mask` holds `" $mask "`, else empty."]
                    $(#[$attr])*
                    pub $field: &'a mut [$ty],
                )+
            }

            // The bit index of every component as a constant a `match` can jump on.
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            struct [<__ $world Column>];

            #[allow(non_upper_case_globals, dead_code, unused_doc_comments)]
            impl [<__ $world Column>] {
                $( $(#[$attr])* const $field: u32 = [<__ $world ComponentIndex>]::$field as u32; )+
            }

            // Each component's column, picked out of a table: the one function every accessor,
            // query and split side of the component hands the generic storage (a closure per
            // method would be one more body per method for the compiler to check).
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            struct [<__ $world ColumnRef>];

            #[allow(dead_code, unused_doc_comments)]
            impl [<__ $world ColumnRef>] {
                $(
                    $(#[$attr])*
                    #[inline(always)]
                    fn $field(table: &[<$world ComponentArrays>]) -> &[$ty] {
                        &table.$field
                    }
                )+
            }

            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            struct [<__ $world ColumnMut>];

            #[allow(dead_code, unused_doc_comments)]
            impl [<__ $world ColumnMut>] {
                $(
                    $(#[$attr])*
                    #[inline(always)]
                    fn $field(table: &mut [<$world ComponentArrays>]) -> &mut [$ty] {
                        &mut table.$field
                    }
                )+
            }

            #[doc(hidden)]
            #[allow(dead_code)]
            pub struct [<__ $world RemovedValues>] {
                $(
                    $(#[$attr])*
                    $field: ::core::option::Option<$ty>,
                )+
            }

            #[allow(unused_doc_comments)]
            impl $crate::Archetype for [<$world ComponentArrays>] {
                type Mask = [<$world Mask>];
                type ViewMut<'a> = [<$world ComponentArraysMut>]<'a>;
                type Removed = [<__ $world RemovedValues>];
                type TickColumns = [$crate::__private::TickColumn; [<__ $world ComponentIndex>]::__COUNT as usize];
                const COMPONENTS: [<$world Mask>] =
                    $crate::__private::low_bits([<__ $world ComponentIndex>]::__COUNT as u32) as [<$world Mask>];
                const COMPONENT_COUNT: usize = [<__ $world ComponentIndex>]::__COUNT as usize;
                // One `let` per item (a statement `#[cfg]` can remove, unlike a compound
                // assignment).
                const TRACKED: [<$world Mask>] = {
                    let tracked = 0;
                    $( $(#[$attr])* let tracked = tracked | $crate::__ecs_tracked!($mask $($option)*); )+
                    tracked
                };
                const TAGS: [<$world Mask>] =
                    $crate::__private::low_bits([<__ $world TagIndex>]::__END as u32 - 1) as [<$world Mask>] & !Self::COMPONENTS;
                const RELATIONS: [<$world Mask>] = {
                    let relations = 0;
                    $( $(#[$relation_attr])* let relations = relations | $relation_mask; )*
                    relations
                };
                $crate::__ecs_hooks! { @set $hooks }
                const CASCADE: [<$world Mask>] = {
                    let cascade = 0;
                    $( $(#[$relation_attr])* let cascade = cascade | $crate::__ecs_relation_policy!($relation $relation_mask $($policy)*); )*
                    cascade
                };

                #[inline]
                fn new(mask: [<$world Mask>]) -> Self {
                    Self {
                        mask,
                        entities: $crate::__private::alloc::vec::Vec::new(),
                        $( $(#[$attr])* $field: $crate::__private::alloc::vec::Vec::new(), )+
                    }
                }

                #[inline]
                fn mask(&self) -> [<$world Mask>] {
                    self.mask
                }

                #[inline]
                fn entities(&self) -> &[$crate::Entity] {
                    &self.entities
                }

                #[inline]
                fn entities_mut(&mut self) -> &mut $crate::__private::alloc::vec::Vec<$crate::Entity> {
                    &mut self.entities
                }

                #[inline(always)]
                fn for_each_column(&mut self, visitor: &mut impl $crate::ColumnVisitor<[<$world Mask>]>) {
                    $( $(#[$attr])* visitor.visit(&mut self.$field, $mask); )+
                }

                #[inline(always)]
                fn for_each_column_pair(&mut self, other: &mut Self, visitor: &mut impl $crate::ColumnPairVisitor<[<$world Mask>]>) {
                    $( $(#[$attr])* visitor.visit(&mut self.$field, &mut other.$field, $mask); )+
                }

                #[inline(always)]
                fn for_each_column_ref(&self, visitor: &mut impl $crate::ColumnRefVisitor<[<$world Mask>]>) {
                    $( $(#[$attr])* visitor.visit(&self.$field, $mask); )+
                }

                #[inline]
                fn swap_remove(&mut self, row: usize) -> Self::Removed {
                    // The row's values that need dropping go back to the storage, which drops
                    // them once every column is compacted, so a component `Drop` that panics
                    // leaves the table aligned. Filled in one statement per column (a struct
                    // literal of calls holds every value at once: borrow checking quadratic in
                    // the components).
                    let take = $crate::__private::column::TakeRow::new(self.mask, row);
                    let mut removed = [<__ $world RemovedValues>] {
                        $( $(#[$attr])* $field: ::core::option::Option::None, )+
                    };
                    $( $(#[$attr])* take.column(&mut removed.$field, &mut self.$field, $mask); )+
                    self.entities.swap_remove(row);
                    removed
                }

                #[inline]
                fn edit_column(&mut self, index: u32, edit: $crate::__private::ColumnEdit) {
                    use $crate::__private::column;
                    // A jump to the one column: a migration's cost follows the row's width.
                    match index {
                        $( $(#[$attr])* [<__ $world Column>]::$field => column::edit(&mut self.$field, edit), )+
                        _ => {}
                    }
                }

                #[inline]
                fn move_column(&mut self, index: u32, row: usize, destination: &mut Self) {
                    use $crate::__private::column;
                    match index {
                        $( $(#[$attr])* [<__ $world Column>]::$field => column::move_value(&mut self.$field, &mut destination.$field, row), )+
                        _ => {}
                    }
                }

                // Always inlined: with the caller's constant mask the columns its closure
                // never reads are never built (a view is one slice per component).
                #[inline(always)]
                fn view_mut(&mut self, include: [<$world Mask>]) -> (&[$crate::Entity], [<$world ComponentArraysMut>]<'_>) {
                    use $crate::__private::column;
                    let rows = self.entities.len();
                    let view = [<$world ComponentArraysMut>] {
                        mask: self.mask,
                        entities: &self.entities,
                        $( $(#[$attr])* $field: column::view(&mut self.$field, include & $mask, rows), )+
                    };
                    (&self.entities, view)
                }

                #[inline]
                fn split_view<'a>(view: Self::ViewMut<'a>, at: usize) -> (Self::ViewMut<'a>, Self::ViewMut<'a>) {
                    let split = $crate::__private::column::SplitAt::new(view.mask, at);
                    let (entities_before, entities_after) = view.entities.split_at(at);
                    $( $(#[$attr])* let [<$field _halves>] = split.column(view.$field, $mask); )+
                    let before = [<$world ComponentArraysMut>] {
                        mask: view.mask,
                        entities: entities_before,
                        $( $(#[$attr])* $field: [<$field _halves>].0, )+
                    };
                    let after = [<$world ComponentArraysMut>] {
                        mask: view.mask,
                        entities: entities_after,
                        $( $(#[$attr])* $field: [<$field _halves>].1, )+
                    };
                    (before, after)
                }
            }
        }
    };
}

/// A component's mask if its options leave it tracked by change detection, else 0; an unknown
/// option is reported here, its one use (the `TRACKED` constant).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_tracked {
    ($mask:ident) => {
        $mask
    };
    ($mask:ident untracked) => {
        0
    };
    ($mask:ident $($option:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown component option `",
            ::core::stringify!($($option)*),
            "`; the only option is `[untracked]`"
        ))
    };
}
