//! `__ecs_commands!`: the deferred command buffer. Structural changes queued during iteration
//! (`queue_*`) are applied later, in order, by `apply_commands`; a command whose entity died
//! in between is skipped and counted, never a panic. A world's command enum and queue
//! (`@types`), a sub-world's enum (`@types`) and queue (`@queue_type`, beside its game's
//! command enum, whose buffer it pushes to), the per-component `queue_set_*` (`@queue`), the
//! world's `apply_commands` and the like (`@world_methods`), and among the helpers the match
//! that meets the world (`@helpers`).

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_commands {
    (@types world $world:ident $components:tt) => {
        $crate::__ecs_commands! {
            @enum $world $components
            /// A queued spawn or despawn.
            Lifecycle($crate::LifecycleCommand<[<$world Mask>]>),
        }
        $crate::__private::paste::paste! {
            #[doc = "The command queue of a `" $world "`, from `world.commands()` or `world.split_mut().commands` (usable while the components are borrowed, in the middle of an iteration): every `queue_*` method. The world's `apply_commands()` applies what it queued."]
            pub struct [<$world Commands>]<'a> {
                queue: $crate::CommandQueue<'a, [<$world Command>]>,
            }
        }
    };
    // A sub-world's commands wait in its game's buffer (so the game applies everything in the
    // order queued); it spawns and despawns nothing.
    (@types (sub_world $game:ident) $world:ident $components:tt) => {
        $crate::__ecs_commands! { @enum $world $components }
    };
    (@queue_type (sub_world $game:ident) $world:ident) => {
        $crate::__private::paste::paste! {
            #[doc = "The command queue of the `" $world "` sub-world, from `" $game "::commands()." $world:snake "()` (also on `split_mut().commands`, usable while the sub-worlds are borrowed): every `queue_*` method of its components, tags and relations. The game's `apply_commands()` applies them, in the order queued with the game's own."]
            pub struct [<$world Commands>]<'a> {
                queue: $crate::CommandQueue<'a, [<$world Command>], [<$game Command>]>,
            }
        }
    };
    (
        @enum $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        $($variants:tt)*
    ) => {
        $crate::__private::paste::paste! {
            #[doc = "A structural change queued on a `" $world "`, applied in order by `apply_commands`."]
            pub enum [<$world Command>] {
                $($variants)*
                /// A queued change of components, tags or links.
                Structural($crate::StructuralCommand<[<$world Mask>]>),
                $(
                    #[doc = "Set (adding if missing) the `" $field "` component."]
                    $(#[$attr])*
                    [<Set $field:camel>]($crate::Entity, $ty),
                )+
            }
        }
    };
    // The per-component methods, in the command part's impl block.
    (@queue $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Queues setting the `" $field "` of `entity` (O(1)); applied as `set_" $field "` (a migration if `entity` lacks one), skipped and counted if `entity` is dead by then."]
                $(#[$attr])*
                #[inline]
                pub fn [<queue_set_ $field>](&mut self, entity: $crate::Entity, value: $ty) {
                    self.queue.push([<$world Command>]::[<Set $field:camel>](entity, value));
                }
            )+
        }
    };
    // A world's methods of its queue, in its impl block.
    (@world_methods $world:ident $hooks:tt) => {
        $crate::__private::paste::paste! {
            /// Applies every queued command in the order queued and empties the queue: each
            /// costs what its direct call does (a component added or removed is one
            /// migration, a tag none). A command whose entity is no longer alive (or
            /// never was) is skipped; the report counts both.
            /// If one panics (a component's `Default` or `Drop`), the commands before it
            /// are applied and the ones after it stay queued. This is the world's sync
            /// point: with a `Hooks` block, the hooks of every change since the last one run
            /// here too.
            #[inline]
            pub fn apply_commands(&mut self) -> $crate::CommandReport {
                $crate::__ecs_hooks! { @apply_commands $hooks (self, |world| &mut world.queue, [<$world Command>]::apply) }
            }

            /// Number of queued commands.
            #[inline]
            pub fn command_count(&self) -> usize {
                self.queue.len()
            }

            /// The queued commands, in order (the buffer dereferences to them), and the
            /// queued spawns waiting with values (`spawns()`).
            #[inline]
            pub fn queued_commands(&self) -> &$crate::CommandBuffer<[<$world Command>]> {
                &self.queue
            }

            /// Drops every queued command without applying it; handles reserved by a queued
            /// spawn are given back (in ascending id order, as a clone or a snapshot gives
            /// them back) and never become alive.
            #[inline]
            pub fn clear_commands(&mut self) {
                // Given back before any command is dropped: a value whose `Drop` panics
                // finds the reservations already released.
                $crate::__private::lifecycle::release_all_reserved(&mut self.components.storage);
                self.queue.clear();
            }
        }
    };
    (@helpers world $world:ident $components:tt) => {
        $crate::__ecs_commands! {
            @apply $world $components $world
            apply: |world, report, staged: [ $crate::SpawnStaging<[<$world ComponentArrays>]> ]| {
                Self::Lifecycle(c) => c.apply_to(&mut world.storage, staged, report),
            }
        }
        $crate::__private::paste::paste! {
            impl $crate::QueuedCommand for [<$world Command>] {
                type Staging = $crate::SpawnStaging<[<$world ComponentArrays>]>;
            }

            impl $crate::SpawningCommand for [<$world Command>] {
                type Values = [<$world EntityBuilder>];
                type Spawn = [<$world Mask>];

                #[inline]
                fn lifecycle(command: $crate::LifecycleCommand<[<$world Mask>]>) -> Self {
                    Self::Lifecycle(command)
                }

                #[inline]
                fn lifecycle_mut(&mut self) -> ::core::option::Option<&mut $crate::LifecycleCommand<[<$world Mask>]>> {
                    match self {
                        Self::Lifecycle(command) => ::core::option::Option::Some(command),
                        _ => ::core::option::Option::None,
                    }
                }
            }
        }
    };
    (@helpers (sub_world $game:ident) $world:ident $components:tt) => {
        $crate::__ecs_commands! {
            @apply $world $components $game
            apply: |world, report| {}
        }
    };
    // The one place a queued command meets the world or sub-world: `apply_commands` (a game's,
    // for a sub-world's command) calls it for each. A world reaches its storage, as its
    // per-component methods, through its component part (`Deref`).
    (
        @apply $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ] $buffer:ident
        apply: |$apply_world:ident, $report:ident $(, $staged:ident : [ $($staged_ty:tt)* ])?| { $($apply:tt)* }
    ) => {
        $crate::__private::paste::paste! {
            impl $crate::PartCommand for [<$world Command>] {
                type Mask = [<$world Mask>];

                #[inline]
                fn structural(command: $crate::StructuralCommand<[<$world Mask>]>) -> Self {
                    Self::Structural(command)
                }
            }

            impl [<$world Command>] {
                #[inline]
                fn apply($apply_world: &mut $world, command: Self, $($staged: &mut $($staged_ty)*,)? $report: &mut $crate::CommandReport) {
                    match command {
                        $($apply)*
                        Self::Structural(c) => c.apply(&mut $apply_world.storage, $report),
                        $(
                            $(#[$attr])*
                            Self::[<Set $field:camel>](e, v) => $report.record($apply_world.[<set_ $field>](e, v)),
                        )+
                    }
                }
            }

            $crate::__ecs_world! { @deref [<$world Commands>]<'a> => $crate::CommandQueue<'a, [<$world Command>], [<$buffer Command>]>, queue, 'a }
        }
    };
}
