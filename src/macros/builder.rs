//! `__ecs_builder!`: `EntityBuilder`, which spawns entities with chosen component values.
//!
//! The builder holds an optional value per component and the mask of those it holds, so
//! `with_<c>` keeps its type and a builder grows inside an `if` or a loop (a level loader
//! reading optional fields). `spawn_one` moves the values into one entity; `spawn(count)`
//! clones them, and asks per held value whether its type is `Clone` (the answer is known where
//! the type is concrete, see `__private::CloneProbe`), so a world with a component that is not
//! `Clone` still batch-builds the others.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_builder {
    ($world:ident $components:tt none) => {
        $crate::__ecs_builder! { $world $components {} }
    };
    (
        $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]
        { $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident $([$($policy:tt)*])? ),* $(,)? }
    ) => {
        $crate::__private::paste::paste! {
            #[doc = "Spawns `" $world "` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn_one(&mut world)`. `with_*` keeps the builder's type, so it can be grown conditionally (`if let Some(v) = v { builder = builder.with_velocity(v); }`)."]
            pub struct [<$world EntityBuilder>] {
                mask: [<$world Mask>],
                links: $crate::__private::Links<[<$world Mask>]>,
                $( $(#[$attr])* $field: ::core::option::Option<$ty>, )+
            }

            impl ::core::default::Default for [<$world EntityBuilder>] {
                #[inline]
                fn default() -> Self {
                    Self { mask: 0, links: $crate::__private::Links::new(), $( $(#[$attr])* $field: ::core::option::Option::None, )+ }
                }
            }

            #[allow(unused_doc_comments)]
            impl [<$world EntityBuilder>] {
                /// A builder with no components.
                #[inline]
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }

                $(
                    #[doc = "Gives the entities a `" $field "` of `value` (a later `with_" $field "` replaces it)."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<with_ $field>](mut self, value: $ty) -> Self {
                        self.$field = ::core::option::Option::Some(value);
                        self.mask |= $mask;
                        self
                    }
                )+

                $(
                    #[doc = "Links the entities to `target` in the `" $relation "` relation as they spawn (a later `with_" $relation "` replaces it). A target not alive then (despawned, or a queued spawn not applied yet) leaves them unlinked."]
                    $(#[$relation_attr])*
                    #[inline]
                    pub fn [<with_ $relation>](mut self, target: $crate::Entity) -> Self {
                        self.links.set($relation_mask, target);
                        self
                    }
                )*

                /// Also gives the entities the tags of `mask`, and its components that the
                /// builder holds no value for, default-initialised (relation bits are ignored:
                /// links come from linking only).
                #[inline]
                pub fn with_mask(mut self, mask: [<$world Mask>]) -> Self {
                    self.mask |= mask;
                    self
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
                    self.spawn(world, 1)[0]
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
                    $crate::__private::lifecycle::spawn_built(&mut world.storage, self.mask, count, self, Self::clone_held)
                }

                // A copy of the values held; panics naming the first whose type is not `Clone`.
                #[inline]
                fn clone_held(&self) -> Self {
                    #[allow(unused_imports)]
                    use $crate::__private::{IsClone as _, NotClone as _};
                    Self {
                        mask: self.mask,
                        // The spawn links every entity from the original's targets.
                        links: $crate::__private::Links::new(),
                        $(
                            $(#[$attr])*
                            $field: (&$crate::__private::CloneProbe(&self.$field, ::core::stringify!($field))).cloned(),
                        )+
                    }
                }
            }

            impl $crate::__private::EntityValues for [<$world EntityBuilder>] {
                type Archetype = [<$world ComponentArrays>];

                #[inline]
                fn mask(&self) -> [<$world Mask>] {
                    self.mask
                }

                #[inline]
                fn push(self, table: &mut [<$world ComponentArrays>]) {
                    use $crate::__private::column::push_held;
                    $( $(#[$attr])* push_held(&mut table.$field, self.$field, table.mask & $mask); )+
                }

                #[inline]
                fn links(&self) -> &[([<$world Mask>], $crate::Entity)] {
                    self.links.as_slice()
                }
            }
        }
    };
    // A malformed `Relations` block: `__ecs_relations!` reports it; the builder goes without.
    ($world:ident $components:tt { $($malformed:tt)* }) => {
        $crate::__ecs_builder! { $world $components {} }
    };
}
