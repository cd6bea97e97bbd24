//! `__ecs_builder!`: `EntityBuilder`, which spawns entities with chosen component values.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_builder {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            // The values a builder holds. Each component type is a parameter defaulting to the
            // real type, so `derive(Clone)` bounds each one on `Clone`: `EntityBuilder::spawn`
            // requires `Self: Clone`, checked at its call sites, and a world with a component
            // that is not `Clone` still compiles (a `#[cfg]` cannot go in a `where` clause).
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #[derive(::core::clone::Clone)]
            pub struct [<__ $world BuilderValues>]<$( $(#[$attr])* [<__ $field:camel>] = $ty ),+> {
                $( $(#[$attr])* $field: ::core::option::Option<[<__ $field:camel>]>, )+
            }

            #[allow(unused_doc_comments)]
            impl [<__ $world BuilderValues>] {
                fn mask(&self) -> [<$world Mask>] {
                    let mut mask = 0;
                    $( $(#[$attr])* if self.$field.is_some() { mask |= $mask; } )+
                    mask
                }

                fn write(self, table: &mut [<$world ComponentArraysMut>]<'_>, index: usize) {
                    $( $(#[$attr])* if let ::core::option::Option::Some(value) = self.$field {
                        table.$field[index] = value;
                    } )+
                }
            }

            #[doc = "Spawns `" $world "` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn(&mut world, 1)`."]
            pub struct [<$world EntityBuilder>] {
                values: [<__ $world BuilderValues>],
            }

            /// A copy of the builder and its values: a prefab, spawned many times. Callable when
            /// every component type is `Clone`.
            impl ::core::clone::Clone for [<$world EntityBuilder>]
            where
                for<'a> [<__ $world BuilderValues>]: ::core::clone::Clone,
            {
                fn clone(&self) -> Self {
                    Self { values: ::core::clone::Clone::clone(&self.values) }
                }
            }

            #[allow(unused_doc_comments)]
            impl ::core::default::Default for [<$world EntityBuilder>] {
                fn default() -> Self {
                    let values = [<__ $world BuilderValues>] {
                        $( $(#[$attr])* $field: ::core::option::Option::None, )+
                    };
                    Self { values }
                }
            }

            impl [<$world EntityBuilder>] {
                /// A builder with no components.
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }

                $(
                    #[doc = "Gives the entities a `" $field "` of `value`."]
                    $(#[$attr])*
                    pub fn [<with_ $field>](mut self, value: $ty) -> Self {
                        self.values.$field = ::core::option::Option::Some(value);
                        self
                    }
                )+

                /// The components the builder gives.
                pub fn mask(&self) -> [<$world Mask>] {
                    self.values.mask()
                }

                /// Spawns `count` entities with the builder's components, each given a clone
                /// of the values. Callable when every component type is `Clone`; otherwise use
                /// [`spawn_one`](Self::spawn_one).
                pub fn spawn(self, world: &mut $world, count: usize) -> ::std::vec::Vec<$crate::Entity>
                where
                    for<'a> [<__ $world BuilderValues>]: ::core::clone::Clone,
                {
                    world.spawn_batch(self.mask(), count, |table, index| {
                        ::core::clone::Clone::clone(&self.values).write(table, index);
                    })
                }

                /// Spawns one entity, moving the builder's values into it (no `Clone` needed).
                pub fn spawn_one(self, world: &mut $world) -> $crate::Entity {
                    let mask = self.mask();
                    let mut values = ::core::option::Option::Some(self.values);
                    world.spawn_batch(mask, 1, |table, index| {
                        if let ::core::option::Option::Some(values) = values.take() {
                            values.write(table, index);
                        }
                    })[0]
                }
            }
        }
    };
}
