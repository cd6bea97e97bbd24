//! `__ecs_commands!`: the deferred command buffer. Structural changes queued during iteration
//! (`queue_*`) are applied later, in order, by `apply_commands`; a command whose entity died
//! in between is skipped and counted, never a panic.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_commands {
    // A world of its own: its queue also spawns and despawns.
    ($world:ident $components:tt) => {
        $crate::__private::paste::paste! {
            #[doc = "The command queue of a `" $world "`, from `world.commands()` or `world.split_mut().commands` (usable while the components are borrowed, in the middle of an iteration): every `queue_*` method. The world's `apply_commands()` applies what it queued."]
            pub struct [<$world Commands>]<'a> {
                queue: $crate::__private::CommandQueue<'a, [<$world Command>]>,
            }
        }
        $crate::__ecs_commands! {
            @generate $world $components
            variants: {
                /// Spawn the reserved `entities` with the components and tags of `mask`.
                SpawnEntities {
                    /// Components and tags of the new entities.
                    mask: [<$world Mask>],
                    /// The handles `queue_spawn_entities` returned.
                    entities: $crate::__private::alloc::vec::Vec<$crate::Entity>,
                },
                /// Despawn the entity.
                Despawn($crate::Entity),
                /// Despawn every entity of the list (those still alive).
                DespawnEntities($crate::__private::alloc::vec::Vec<$crate::Entity>),
            }
            methods: {
                /// Queues a spawn of `count` entities with the components and tags of `mask`,
                /// and returns their handles now, so later queued commands can target them:
                /// O(`count`). They are not alive until `apply_commands` (`is_alive` is
                /// `false`, getters give `None`), and no other spawn takes their ids.
                #[inline]
                pub fn queue_spawn_entities(&mut self, mask: [<$world Mask>], count: usize) -> $crate::__private::alloc::vec::Vec<$crate::Entity> {
                    let entities = self.queue.reserve(count);
                    let command = [<$world Command>]::SpawnEntities { mask, entities: ::core::clone::Clone::clone(&entities) };
                    self.queue.push(command);
                    entities
                }

                /// Queues a despawn of `entity` (O(1)); skipped and counted by
                /// `apply_commands` if `entity` is dead by then (or was never alive).
                #[inline]
                pub fn queue_despawn(&mut self, entity: $crate::Entity) {
                    self.queue.push([<$world Command>]::Despawn(entity));
                }

                /// Queues a despawn of every entity of `entities`, as one command (O(its
                /// length), copying the list); applying it counts each handle, as if queued
                /// one by one (dead, stale and never-issued ones are skipped).
                #[inline]
                pub fn queue_despawn_entities(&mut self, entities: &[$crate::Entity]) {
                    self.queue.push([<$world Command>]::DespawnEntities(entities.to_vec()));
                }
            }
            apply: |world, report| {
                [<$world Command>]::SpawnEntities { mask, entities } => {
                    report.record($crate::__private::lifecycle::spawn_reserved(&mut world.components.storage, mask, &entities) == entities.len())
                }
                [<$world Command>]::Despawn(entity) => report.record(world.despawn(entity)),
                [<$world Command>]::DespawnEntities(entities) => {
                    for entity in entities {
                        report.record(world.despawn(entity));
                    }
                }
            }
            // Every reservation is held by a queued spawn: they are given back all at once, in
            // the allocator's one order (the order a clone and a snapshot give them back in).
            clear: |world| { $crate::__private::lifecycle::release_all_reserved(&mut world.components.storage); }
        }
    };
    // A sub-world of a multi-world: entities are spawned and despawned by the whole, so its
    // queue holds component and tag changes only.
    (@sub_world $world:ident $components:tt) => {
        $crate::__private::paste::paste! {
            #[doc = "The command queue of a `" $world "` sub-world, from `commands()` or `split_mut().commands` (usable while the components are borrowed): every `queue_*` method. `apply_commands()` applies what it queued."]
            pub struct [<$world Commands>]<'a> {
                queue: $crate::__private::CommandQueue<'a, [<$world Command>]>,
            }
        }
        $crate::__ecs_commands! {
            @generate $world $components variants: {} methods: {} apply: |world, report| {} clear: |world| { let _ = world; }
        }
    };
    (
        @generate $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]
        variants: { $($variants:tt)* }
        methods: { $($methods:tt)* }
        apply: |$apply_world:ident, $report:ident| { $($apply:tt)* }
        clear: |$clear_world:ident| { $($clear:tt)* }
    ) => {
        $crate::__private::paste::paste! {
            #[doc = "A structural change queued on a `" $world "`, applied in order by `apply_commands`."]
            pub enum [<$world Command>] {
                $($variants)*
                /// Add the components and tags of the mask.
                AddComponents($crate::Entity, [<$world Mask>]),
                /// Remove the components and tags of the mask.
                RemoveComponents($crate::Entity, [<$world Mask>]),
                /// Link `source` to `target` in the relation whose bit is `relation`: what a
                /// relation's `queue_set_*` queues (skipped if `relation` is no relation's bit).
                Link {
                    /// The relation's bit.
                    relation: [<$world Mask>],
                    /// The entity to link.
                    source: $crate::Entity,
                    /// Its new target.
                    target: $crate::Entity,
                },
                /// Unlink `source` in the relation whose bit is `relation`: what a relation's
                /// `queue_remove_*` queues.
                Unlink {
                    /// The relation's bit.
                    relation: [<$world Mask>],
                    /// The entity to unlink.
                    source: $crate::Entity,
                },
                $(
                    #[doc = "Set (adding if missing) the `" $field "` component."]
                    $(#[$attr])*
                    [<Set $field:camel>]($crate::Entity, $ty),
                )+
            }

            #[allow(unused_doc_comments)]
            impl [<$world Commands>]<'_> {
                $($methods)*

                /// Queues adding the components and tags of `mask` to `entity` (O(1)); applied
                /// as `add_components`, skipped and counted if `entity` is dead by then.
                #[inline]
                pub fn queue_add_components(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) {
                    self.queue.push([<$world Command>]::AddComponents(entity, mask));
                }

                /// Queues removing the components and tags of `mask` from `entity` (O(1));
                /// applied as `remove_components`, skipped and counted if `entity` is dead by
                /// then.
                #[inline]
                pub fn queue_remove_components(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) {
                    self.queue.push([<$world Command>]::RemoveComponents(entity, mask));
                }

                $(
                    #[doc = "Queues setting the `" $field "` of `entity` (O(1)); applied as `set_" $field "` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<queue_set_ $field>](&mut self, entity: $crate::Entity, value: $ty) {
                        self.queue.push([<$world Command>]::[<Set $field:camel>](entity, value));
                    }
                )+
            }

            #[allow(unused_doc_comments)]
            impl $world {
                /// Applies every queued command in the order queued and empties the queue: each
                /// costs what its direct call does (a component added or removed is one
                /// migration, a tag none). A command whose entity is no longer alive (or
                /// never was) is skipped; the report counts both.
                /// If one panics (a component's `Default` or `Drop`), the commands before it
                /// are applied and the ones after it stay queued.
                #[inline]
                pub fn apply_commands(&mut self) -> $crate::CommandReport {
                    // `$apply` was written by the calling arm, whose `self` is not ours
                    // (hygiene): it names the world and the report through the bindings it
                    // chose.
                    $crate::__private::apply_queued(self, |world| &mut world.queue, |$apply_world, command, $report| {
                        match command {
                            $($apply)*
                            [<$world Command>]::AddComponents(entity, mask) => $report.record($apply_world.add_components(entity, mask)),
                            [<$world Command>]::RemoveComponents(entity, mask) => $report.record($apply_world.remove_components(entity, mask)),
                            [<$world Command>]::Link { relation, source, target } => {
                                $report.record($apply_world.storage.link(relation, source, target).is_ok())
                            }
                            [<$world Command>]::Unlink { relation, source } => {
                                let alive = $apply_world.storage.is_alive(source);
                                $apply_world.storage.unlink(relation, source);
                                $report.record(alive)
                            }
                            $(
                                $(#[$attr])*
                                [<$world Command>]::[<Set $field:camel>](entity, value) => $report.record($apply_world.[<set_ $field>](entity, value)),
                            )+
                        }
                    })
                }

                /// Number of queued commands.
                #[inline]
                pub fn command_count(&self) -> usize {
                    self.queue.len()
                }

                /// The queued commands, in order.
                #[inline]
                pub fn queued_commands(&self) -> &[[<$world Command>]] {
                    &self.queue
                }

                /// Drops every queued command without applying it; handles reserved by a queued
                /// spawn are given back (in ascending id order, as a clone or a snapshot gives
                /// them back) and never become alive.
                #[inline]
                pub fn clear_commands(&mut self) {
                    let $clear_world = &mut *self;
                    $($clear)*
                    // Given back before any command is dropped: a value whose `Drop` panics
                    // finds the reservations already released.
                    ::core::mem::drop(::core::mem::take(&mut self.queue));
                }
            }
        }
    };
}
