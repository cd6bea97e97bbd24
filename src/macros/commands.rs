//! `__ecs_commands!`: the deferred command buffer. Structural changes queued during iteration
//! (`queue_*`) are applied later, in order, by `apply_commands`; a command whose entity died
//! in between is skipped and counted, never a panic.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_commands {
    ($world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            #[doc = "A structural change queued on a `" $world "`, applied in order by `apply_commands`."]
            pub enum [<$world Command>] {
                /// Spawn the reserved `entities` with the components and tags of `mask`.
                SpawnEntities {
                    /// Components and tags of the new entities.
                    mask: [<$world Mask>],
                    /// The handles `queue_spawn_entities` returned.
                    entities: ::std::vec::Vec<$crate::Entity>,
                },
                /// Despawn the entity.
                Despawn($crate::Entity),
                /// Add the components and tags of the mask.
                AddComponents($crate::Entity, [<$world Mask>]),
                /// Remove the components and tags of the mask.
                RemoveComponents($crate::Entity, [<$world Mask>]),
                $(
                    #[doc = "Set (adding if missing) the `" $field "` component."]
                    $(#[$attr])*
                    [<Set $field:camel>]($crate::Entity, $ty),
                )+
            }

            #[allow(unused_doc_comments)]
            impl $world {
                /// Queues a spawn of `count` entities with the components and tags of `mask`,
                /// and returns their handles now, so later queued commands can target them.
                /// They are not alive until `apply_commands`.
                pub fn queue_spawn_entities(&mut self, mask: [<$world Mask>], count: usize) -> ::std::vec::Vec<$crate::Entity> {
                    let entities = self.storage.reserve_entities(count);
                    let command = [<$world Command>]::SpawnEntities { mask, entities: ::core::clone::Clone::clone(&entities) };
                    self.commands.push(command);
                    entities
                }

                /// Queues a despawn of `entity`.
                pub fn queue_despawn_entity(&mut self, entity: $crate::Entity) {
                    self.commands.push([<$world Command>]::Despawn(entity));
                }

                /// Queues adding the components and tags of `mask` to `entity`.
                pub fn queue_add_components(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) {
                    self.commands.push([<$world Command>]::AddComponents(entity, mask));
                }

                /// Queues removing the components and tags of `mask` from `entity`.
                pub fn queue_remove_components(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) {
                    self.commands.push([<$world Command>]::RemoveComponents(entity, mask));
                }

                $(
                    #[doc = "Queues setting the `" $field "` of `entity` (adding it if missing)."]
                    $(#[$attr])*
                    pub fn [<queue_set_ $field>](&mut self, entity: $crate::Entity, value: $ty) {
                        self.commands.push([<$world Command>]::[<Set $field:camel>](entity, value));
                    }
                )+

                /// Applies every queued command in the order queued and empties the queue. A
                /// command whose entity is no longer alive is skipped; the report counts both.
                pub fn apply_commands(&mut self) -> $crate::CommandReport {
                    let mut report = <$crate::CommandReport as ::core::default::Default>::default();
                    for command in ::core::mem::take(&mut self.commands) {
                        let applied = match command {
                            [<$world Command>]::SpawnEntities { mask, entities } => {
                                self.storage.spawn_reserved(mask, &entities) == entities.len()
                            }
                            [<$world Command>]::Despawn(entity) => self.despawn(entity),
                            [<$world Command>]::AddComponents(entity, mask) => self.add_components(entity, mask),
                            [<$world Command>]::RemoveComponents(entity, mask) => self.remove_components(entity, mask),
                            $(
                                $(#[$attr])*
                                [<$world Command>]::[<Set $field:camel>](entity, value) => self.[<set_ $field>](entity, value),
                            )+
                        };
                        report.record(applied);
                    }
                    report
                }

                /// Number of queued commands.
                pub fn command_count(&self) -> usize {
                    self.commands.len()
                }

                /// The queued commands, in order.
                pub fn queued_commands(&self) -> &[[<$world Command>]] {
                    &self.commands
                }

                /// Drops every queued command without applying it; handles reserved by
                /// `queue_spawn_entities` are given back and never become alive.
                pub fn clear_commands(&mut self) {
                    for command in ::core::mem::take(&mut self.commands) {
                        if let [<$world Command>]::SpawnEntities { entities, .. } = command {
                            self.storage.release_reserved(&entities);
                        }
                    }
                }
            }
        }
    };
}
