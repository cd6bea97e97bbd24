//! `__ecs_builder!`: `EntityBuilder`, which spawns entities with chosen component values.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_builder {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            #[doc = "Spawns `" $world "` entities with chosen component values: `EntityBuilder::new().with_position(p).spawn(&mut world, 1)`."]
            pub struct [<$world EntityBuilder>] {
                $( $(#[$attr])* $field: ::core::option::Option<$ty>, )+
            }

            impl ::core::default::Default for [<$world EntityBuilder>] {
                fn default() -> Self {
                    Self { $( $(#[$attr])* $field: ::core::option::Option::None, )+ }
                }
            }

            #[allow(unused_doc_comments)]
            impl [<$world EntityBuilder>] {
                /// A builder with no components.
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }

                $(
                    #[doc = "Gives the entities a `" $field "` of `value`."]
                    $(#[$attr])*
                    pub fn [<with_ $field>](mut self, value: $ty) -> Self {
                        self.$field = ::core::option::Option::Some(value);
                        self
                    }
                )+

                /// The components the builder will give.
                pub fn mask(&self) -> [<$world Mask>] {
                    let mut mask = 0;
                    $( $(#[$attr])* if self.$field.is_some() { mask |= $mask; } )+
                    mask
                }

                /// Spawns `count` entities with the builder's components, each a clone of the
                /// given value. Callable when every component type is `Clone`; otherwise use
                /// [`spawn_one`](Self::spawn_one).
                // `for<'a>` makes each bound a call-site check, so a world with a component
                // that is not `Clone` still compiles (only this method is unavailable).
                pub fn spawn(self, world: &mut $world, count: usize) -> ::std::vec::Vec<$crate::Entity>
                where
                    $( for<'a> $ty: ::core::clone::Clone, )+
                {
                    world.spawn_batch(self.mask(), count, |table, index| {
                        $( $(#[$attr])* if let ::core::option::Option::Some(value) = &self.$field {
                            table.$field[index] = ::core::clone::Clone::clone(value);
                        } )+
                    })
                }

                /// Spawns one entity, moving the builder's values into it (no `Clone` needed).
                pub fn spawn_one(mut self, world: &mut $world) -> $crate::Entity {
                    let mask = self.mask();
                    world.spawn_batch(mask, 1, |table, index| {
                        $( $(#[$attr])* if let ::core::option::Option::Some(value) = self.$field.take() {
                            table.$field[index] = value;
                        } )+
                    })[0]
                }
            }
        }
    };
}
