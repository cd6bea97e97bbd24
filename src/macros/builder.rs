//! `__ecs_builder!`: `EntityBuilder`, which spawns entities with chosen component values.
//!
//! The builder's type records the values it holds: `EntityBuilder<Values>`, where `Values` is
//! `()` for a new builder and each `with_<c>` wraps it as `(Values, Held<c>)`. So
//! `spawn(&mut world, count)`, which clones the values into every entity, requires `Clone` of
//! exactly the values held (`Values: Clone` holds when each held value is `Clone`), and a world
//! with a component that is not `Clone` still batch-builds the others.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_builder {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            /// The values an `EntityBuilder` holds: `()`, or the earlier values and one more.
            #[doc(hidden)]
            pub trait [<__ $world BuilderValues>] {
                /// The components the values give.
                fn mask(&self) -> [<$world Mask>];
                /// Writes the values into row `index` of `table`, the earlier ones first (so a
                /// later value of the same component wins).
                fn write(self, table: &mut [<$world ComponentArraysMut>]<'_>, index: usize);
            }

            /// One value an `EntityBuilder` holds.
            #[doc(hidden)]
            pub trait [<__ $world BuilderValue>] {
                /// The value's component.
                const MASK: [<$world Mask>];
                /// Writes the value into row `index` of `table`.
                fn write(self, table: &mut [<$world ComponentArraysMut>]<'_>, index: usize);
            }

            impl [<__ $world BuilderValues>] for () {
                #[inline]
                fn mask(&self) -> [<$world Mask>] {
                    0
                }

                #[inline]
                fn write(self, _: &mut [<$world ComponentArraysMut>]<'_>, _: usize) {}
            }

            impl<Earlier, Value> [<__ $world BuilderValues>] for (Earlier, Value)
            where
                Earlier: [<__ $world BuilderValues>],
                Value: [<__ $world BuilderValue>],
            {
                #[inline]
                fn mask(&self) -> [<$world Mask>] {
                    self.0.mask() | Value::MASK
                }

                #[inline]
                fn write(self, table: &mut [<$world ComponentArraysMut>]<'_>, index: usize) {
                    self.0.write(table, index);
                    self.1.write(table, index);
                }
            }

            $(
                // The value type is a parameter defaulting to the component type, so the
                // derived `Clone` is bounded on it: a component that is not `Clone` still
                // compiles, and only a builder holding it loses `spawn`.
                #[doc = "A `" $field "` value held by an `EntityBuilder`."]
                $(#[$attr])*
                #[doc(hidden)]
                #[derive(::core::clone::Clone)]
                pub struct [<__ $world Held $field:camel>]<Value = $ty>(Value);

                $(#[$attr])*
                impl [<__ $world BuilderValue>] for [<__ $world Held $field:camel>] {
                    const MASK: [<$world Mask>] = $mask;

                    #[inline]
                    fn write(self, table: &mut [<$world ComponentArraysMut>]<'_>, index: usize) {
                        table.$field[index] = self.0;
                    }
                }
            )+

            #[doc = "Spawns `" $world "` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn(&mut world, 1)`. Its type records the values it holds."]
            pub struct [<$world EntityBuilder>]<Values = ()> {
                values: Values,
            }

            /// A copy of the builder and its values: a prefab, spawned many times. Callable when
            /// every value it holds is `Clone`.
            impl<Values: ::core::clone::Clone> ::core::clone::Clone for [<$world EntityBuilder>]<Values> {
                #[inline]
                fn clone(&self) -> Self {
                    Self { values: ::core::clone::Clone::clone(&self.values) }
                }
            }

            impl ::core::default::Default for [<$world EntityBuilder>] {
                #[inline]
                fn default() -> Self {
                    Self { values: () }
                }
            }

            impl [<$world EntityBuilder>] {
                /// A builder with no components.
                #[inline]
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }
            }

            impl<Values: [<__ $world BuilderValues>]> [<$world EntityBuilder>]<Values> {
                $(
                    #[doc = "Gives the entities a `" $field "` of `value` (a later `with_" $field "` replaces it)."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<with_ $field>](self, value: $ty) -> [<$world EntityBuilder>]<(Values, [<__ $world Held $field:camel>])> {
                        [<$world EntityBuilder>] {
                            values: (self.values, [<__ $world Held $field:camel>](value)),
                        }
                    }
                )+

                /// The components the builder gives.
                #[inline]
                pub fn mask(&self) -> [<$world Mask>] {
                    self.values.mask()
                }

                /// Spawns `count` entities with the builder's components, each given a clone
                /// of the values: reserving once, O(`count` × the world's components of the
                /// builder's mask). Callable when every value the builder holds is `Clone`
                /// (other components of the world need not be); otherwise use
                /// [`spawn_one`](Self::spawn_one).
                #[inline]
                pub fn spawn(self, world: &mut $world, count: usize) -> $crate::__private::alloc::vec::Vec<$crate::Entity>
                where
                    Values: ::core::clone::Clone,
                {
                    world.spawn_batch(self.mask(), count, |table, index| {
                        ::core::clone::Clone::clone(&self.values).write(table, index);
                    })
                }

                /// Spawns one entity, moving the builder's values into it (no `Clone` needed):
                /// O(the world's components of the builder's mask).
                #[inline]
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
