//! `__ecs_tables!`: the mask type, the component, tag and relation mask constants and the
//! struct-of-arrays table types (`@types`); among the helpers (`@helpers`), the bit of each
//! (an enum counts them), the check of the input and the `Archetype` impl (the per-column
//! fan-out of spawn, despawn and migration).

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_tables {
    (
        @types $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* ]
        [ $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident [$($policy:tt)*] ),* ]
    ) => {
        $crate::__private::paste::paste! {
            #[doc = "The mask type of `" $world "`: `u64` for up to 63 components, tags and relations, `u128` up to 127."]
            pub type [<$world Mask>] = <[<$world ComponentArrays>] as $crate::Archetype>::Mask;

            $(
                #[doc = "Mask bit of the `" $field "` component."]
                $(#[$attr])*
                pub const $mask: [<$world Mask>] = [<$world ComponentArrays>]::$mask;
            )+
            $(
                #[doc = "Mask bit of the `" $tag "` tag."]
                $(#[$tag_attr])*
                pub const $tag_mask: [<$world Mask>] = [<$world ComponentArrays>]::$tag_mask;

                #[doc = "The `" $tag "` tag as a type, for a system's query filters: `With<" $tag_mask ">`, `Without<" $tag_mask ">` (a braced struct lives beside the constant, in the type namespace)."]
                #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
                $(#[$tag_attr])*
                pub struct $tag_mask {}
            )*
            $(
                #[doc = "Mask bit of the `" $relation "` relation: carried by every entity linked to a target by `set_" $relation "` (set and cleared only by linking), usable in every include / exclude mask (`" $relation_mask "` excluded: the roots)."]
                $(#[$relation_attr])*
                pub const $relation_mask: [<$world Mask>] = [<$world ComponentArrays>]::$relation_mask;

                #[doc = "The `" $relation "` relation as a type, for a system's queries: `With<" $relation_mask ">` (linked entities), `query.target::<" $relation_mask ", _>(entity)`."]
                #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
                $(#[$relation_attr])*
                pub struct $relation_mask {}
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

            #[doc = "What an entity of `" $world "` lost, as its removal hooks read it: the components and tags that went (`mask`: everything it had, for a despawn), and the value of each component whose value was kept aside for the hooks (those some `on_remove` names, or all of them with `on_despawn`; `None` for the others, and for a value `remove_*` handed its caller)."]
            pub struct [<$world Removed>] {
                /// The components and tags that went.
                pub mask: [<$world Mask>],
                $(
                    #[doc = "The `" $field "` value that went, if kept aside for the hooks."]
                    $(#[$attr])*
                    pub $field: ::core::option::Option<$ty>,
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
        }
    };
    (
        @helpers $world:ident $part:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* ]
        [ $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident [$($policy:tt)*] ),* ]
        $hooks:tt rules: $rules:tt
    ) => {
        $crate::__private::paste::paste! {
            // The bit of every component, then every tag, then every relation (a relation's bit
            // lives in the tag segments like a tag's). An enum counts them without a recursive
            // macro, and a `#[cfg]` on an item removes its variant too.
            enum __Bit {
                $( $(#[$attr])* $field, )+
                $( $(#[$tag_attr])* $tag, )*
                $( $(#[$relation_attr])* $relation, )*
                __END,
            }

            impl __Bit {
                // Past the mask's width a bit is 0 (`mask_bit` works in `u128`, and the cast to
                // a `u64` mask drops bits 64 and up) and `check_world` reports the error, so the
                // user sees one message rather than an overflow.
                const fn mask(self) -> [<$world Mask>] {
                    $crate::__private::mask_bit(self as u32) as [<$world Mask>]
                }
            }

            // The mask constants' values.
            impl [<$world ComponentArrays>] {
                $( $(#[$attr])* const $mask: [<$world Mask>] = __Bit::$field.mask(); )+
                $( $(#[$tag_attr])* const $tag_mask: [<$world Mask>] = __Bit::$tag.mask(); )*
                $( $(#[$relation_attr])* const $relation_mask: [<$world Mask>] = __Bit::$relation.mask(); )*
            }

            // Each component's column, picked out of a table: the one function every accessor,
            // split side and row of the component hands the generic storage (a closure per
            // method would be one more body per method for the compiler to check).
            impl $part {
                $(
                    $(#[$attr])*
                    #[inline(always)]
                    fn [<__ref_ $field>](table: &[<$world ComponentArrays>]) -> &[$ty] {
                        &table.$field
                    }

                    $(#[$attr])*
                    #[inline(always)]
                    fn [<__mut_ $field>](table: &mut [<$world ComponentArrays>]) -> &mut [$ty] {
                        &mut table.$field
                    }
                )+
            }

            // Each tag's and relation's type picks its bit in a system's query filter
            // (`With<FROZEN>`); a relation's, its links (`query.target::<CHILD_OF, _>(e)`).
            $(
                $(#[$tag_attr])*
                impl $crate::system::TagOf<$tag_mask> for [<$world ComponentArrays>] {
                    const BIT: u128 = $tag_mask as u128;
                }
            )*
            $(
                $(#[$relation_attr])*
                impl $crate::system::TagOf<$relation_mask> for [<$world ComponentArrays>] {
                    const BIT: u128 = $relation_mask as u128;
                }

                $(#[$relation_attr])*
                impl $crate::system::RelationOf<$relation_mask> for [<$world ComponentArrays>] {}
            )*

            // The column of every component, as a constant a `match` can jump on.
            mod __column {
                $( $(#[$attr])* pub const $field: u32 = super::$mask.trailing_zeros(); )+
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
                __Bit::__END as usize,
            );

            // The trait's own constants are named in full: a mask constant of the same name
            // (`TAGS`) is an inherent one of the table, found first.
            impl $crate::Archetype for [<$world ComponentArrays>] {
                type Mask = <$crate::MaskWidth<{ (__Bit::__END as usize) < 64 }> as $crate::SelectMask>::Mask;
                type ViewMut<'a> = [<$world ComponentArraysMut>]<'a>;
                type Removed = [<$world Removed>];
                type TickColumns = [$crate::__private::TickColumn; <Self as $crate::Archetype>::COMPONENT_COUNT];
                const COMPONENT_COUNT: usize = [$( $(#[$attr])* ::core::stringify!($field) ),+].len();
                const COMPONENTS: [<$world Mask>] =
                    $crate::__private::low_bits(<Self as $crate::Archetype>::COMPONENT_COUNT as u32) as [<$world Mask>];
                // One `let` per item (a statement `#[cfg]` can remove, unlike a compound
                // assignment).
                const TRACKED: [<$world Mask>] = {
                    let tracked = 0;
                    $( $(#[$attr])* let tracked = tracked | $crate::__ecs_tracked!($mask $($option)*); )+
                    tracked
                };
                const TAGS: [<$world Mask>] = $crate::__private::low_bits(__Bit::__END as u32) as [<$world Mask>]
                    & !<Self as $crate::Archetype>::COMPONENTS;
                const RELATIONS: [<$world Mask>] = {
                    let relations = 0;
                    $( $(#[$relation_attr])* let relations = relations | $relation_mask; )*
                    relations
                };
                $crate::__ecs_hooks! { @set [<$world Mask>] $hooks }
                $crate::__ecs_rules! { @set $world [<$world Mask>] [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ] $rules }
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
                    let mut removed = <Self as $crate::Archetype>::removed(self.mask);
                    $( $(#[$attr])* take.column(&mut removed.$field, &mut self.$field, $mask); )+
                    self.entities.swap_remove(row);
                    removed
                }

                #[inline]
                fn swap_remove_keeping(&mut self, row: usize, keep: [<$world Mask>], had: [<$world Mask>]) -> (Self::Removed, Self::Removed) {
                    let take = $crate::__private::column::TakeRow::keeping(self.mask, row, keep);
                    let mut dropped = <Self as $crate::Archetype>::removed(self.mask);
                    let mut kept = <Self as $crate::Archetype>::removed(had);
                    $( $(#[$attr])* take.column_keeping(&mut dropped.$field, &mut kept.$field, &mut self.$field, $mask); )+
                    self.entities.swap_remove(row);
                    (dropped, kept)
                }

                #[inline]
                fn removed(mask: [<$world Mask>]) -> Self::Removed {
                    [<$world Removed>] {
                        mask,
                        $( $(#[$attr])* $field: ::core::option::Option::None, )+
                    }
                }

                #[inline]
                fn keep_parked(&mut self, keep: [<$world Mask>], removed: &mut Self::Removed) {
                    use $crate::__private::column;
                    let rows = self.entities.len();
                    $( $(#[$attr])* column::take_parked(&mut removed.$field, &mut self.$field, keep & $mask != 0, rows); )+
                }

                #[inline]
                fn edit_column(&mut self, bit: u32, op: $crate::__private::ColumnEdit) {
                    use $crate::__private::column;
                    // A jump to the one column: a migration's cost follows the row's width.
                    match bit {
                        $( $(#[$attr])* __column::$field => column::edit(&mut self.$field, op), )+
                        _ => {}
                    }
                }

                #[inline]
                fn move_column(&mut self, bit: u32, row: usize, to: &mut Self) {
                    use $crate::__private::column;
                    match bit {
                        $( $(#[$attr])* __column::$field => column::move_value(&mut self.$field, &mut to.$field, row), )+
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
                fn view_with<'a>(&'a mut self, entities: &'a [$crate::Entity], include: [<$world Mask>]) -> [<$world ComponentArraysMut>]<'a> {
                    use $crate::__private::column;
                    [<$world ComponentArraysMut>] {
                        mask: self.mask & include,
                        entities,
                        $( $(#[$attr])* $field: column::view(&mut self.$field, include & $mask, entities.len()), )+
                    }
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
