//! `__ecs_builder!`: `EntityBuilder`, which spawns entities with chosen component values.
//!
//! The builder holds an optional value per component and the mask of those it holds, so
//! `with_<c>` keeps its type and a builder grows inside an `if` or a loop (a level loader
//! reading optional fields). `spawn_one` moves the values into one entity; `spawn(count)`
//! clones them, and asks per held value whether its type is `Clone` (the answer is known where
//! the type is concrete, see `__private::CloneProbe`), so a world with a component that is not
//! `Clone` still batch-builds the others.
//!
//! In a multi-world game, each sub-world's values are a part of the game's builder
//! (`CoreEntityValues`, the same fields), and its `with_<c>` methods are the game builder's
//! (`__ecs_multi_world!` declares the builder and its spawns).

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_builder {
    // The values: an optional one per component, the mask and the links; what the runtime
    // spawns from (`EntityValues`, among the helpers).
    (@types world $world:ident $components:tt) => {
        $crate::__ecs_builder! {
            @struct [<$world EntityBuilder>] $world $components
            #[doc = "Spawns `" $world "` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn_one(&mut world)`. `with_*` keeps the builder's type, so it can be grown conditionally (`if let Some(v) = v { builder = builder.with_velocity(v); }`)."]
        }
    };
    (@types (sub_world $game:ident) $world:ident $components:tt) => {
        $crate::__ecs_builder! {
            @struct [<$world EntityValues>] $world $components
            #[doc = "The `" $world "` part of a `" $game "EntityBuilder`: the values and tags it gives in `" $world "`, set through its `with_*` methods."]
        }
    };
    (
        @struct $values:tt $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        #[doc = $($doc:tt)*]
    ) => {
        $crate::__private::paste::paste! {
            #[doc = $($doc)*]
            pub struct $values {
                mask: [<$world Mask>],
                // Room for each relation's target.
                links: $crate::__private::Links<[<$world Mask>], { <[<$world ComponentArrays>] as $crate::Archetype>::RELATIONS.count_ones() as usize }>,
                $( $(#[$attr])* $field: ::core::option::Option<$ty>, )+
            }
        }
    };
    // A world's builder's own methods, in its impl block.
    (@methods $world:ident) => {
        $crate::__private::paste::paste! {
            /// A builder with no components.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }

            /// The components and tags the builder gives.
            #[inline]
            pub fn mask(&self) -> [<$world Mask>] {
                self.mask
            }

            /// Spawns one entity, moving the builder's values into it (no `Clone` needed):
            /// O(the world's components).
            #[inline]
            pub fn spawn_one(self, world: &mut [<$world Components>]) -> $crate::Entity {
                $crate::__private::lifecycle::spawn_one(&mut world.storage, self)
            }

            /// Spawns `count` entities with the builder's components, each given a clone
            /// of the values (the last one takes them): reserving once, O(`count` × the
            /// world's components).
            ///
            /// # Panics
            /// Before spawning anything, if `count > 1` and the builder holds a value whose
            /// type is not `Clone` (the message names the component); spawn such entities
            /// one at a time with [`spawn_one`](Self::spawn_one). Components of the world
            /// the builder does not hold need not be `Clone`.
            #[inline]
            pub fn spawn(self, world: &mut [<$world Components>], count: usize) -> $crate::__private::alloc::vec::Vec<$crate::Entity> {
                $crate::__private::lifecycle::spawn_built(&mut world.storage, count, self)
            }
        }
    };
    // The `with_*` methods, in the impl block of the builder whose values are at `$place`
    // (`(self)`, `(self.core)`), read through `@place` (a single token tree, as the methods
    // repeat per component). The receiver's `self` comes from the caller, with `$place`, so
    // they are the same `self`.
    (
        @with ($this:tt, $place:tt) $with_mask:ident $world:ident
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident [$($policy:tt)*] ),* ]
    ) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Gives the entities a `" $field "` of `value` (a later `with_" $field "` replaces it)."]
                $(#[$attr])*
                #[inline]
                pub fn [<with_ $field>](mut $this, value: $ty) -> Self {
                    $crate::__ecs_builder!(@place $place).$field = ::core::option::Option::Some(value);
                    $crate::__ecs_builder!(@place $place).mask |= $mask;
                    $this
                }
            )+

            $(
                #[doc = "Links the entities to `target` in the `" $relation "` relation as they spawn (a later `with_" $relation "` replaces it). A target not alive then (despawned, or a queued spawn not applied yet) leaves them unlinked."]
                $(#[$relation_attr])*
                #[inline]
                pub fn [<with_ $relation>](mut $this, target: $crate::Entity) -> Self {
                    $crate::__ecs_builder!(@place $place).links.set($relation_mask, target);
                    $this
                }
            )*

            #[doc = "Also gives the entities the tags of `mask` (a `" $world "` mask), and its components that the builder holds no value for, default-initialised (relation bits are ignored: links come from linking only)."]
            #[inline]
            pub fn $with_mask(mut $this, mask: [<$world Mask>]) -> Self {
                $crate::__ecs_builder!(@place $place).mask |= mask;
                $this
            }
        }
    };
    (@place ($($place:tt)*)) => {
        $($place)*
    };
    // Among the helpers: the values' `Default` and what the runtime spawns from.
    (@helpers $values:ident $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            impl ::core::default::Default for $values {
                #[inline]
                fn default() -> Self {
                    Self { mask: 0, links: $crate::__private::Links::new(), $( $(#[$attr])* $field: ::core::option::Option::None, )+ }
                }
            }

            impl $crate::__private::EntityValues for $values {
                type Archetype = [<$world ComponentArrays>];

                #[inline]
                fn mask(&self) -> [<$world Mask>] {
                    self.mask
                }

                #[inline(always)]
                fn take_into(&mut self, table: &mut Self::Archetype) {
                    use $crate::__private::column::push_held;
                    $( $(#[$attr])* push_held(&mut table.$field, self.$field.take(), table.mask & $mask); )+
                }

                #[inline]
                fn links(&self) -> &[([<$world Mask>], $crate::Entity)] {
                    self.links.as_slice()
                }

                #[inline]
                fn copy_held(&self) -> Self {
                    use $crate::__private::{CloneProbe, IsClone as _, NotClone as _};
                    Self {
                        mask: self.mask,
                        // The spawn links every entity from the original's targets.
                        links: $crate::__private::Links::new(),
                        $(
                            $(#[$attr])*
                            $field: (&CloneProbe(&self.$field, ::core::stringify!($field))).cloned(),
                        )+
                    }
                }
            }
        }
    };
}
