//! `__ecs_events!`: one event channel per declared event type, in `world.events`
//! (`world.events.hit.send(..)`: the channel's own methods, see `archetypal::EventChannel`),
//! and the matching set of cursors a system keeps in its `SystemContext` (`@types`); and the
//! channels' `update`, which `World::step` calls to age every channel.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_events {
    (@types $world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty ),* ]) => {
        $crate::__private::paste::paste! {
            #[doc = "The event channels of `" $world "`, declared in its `Events` block."]
            #[derive(::core::default::Default)]
            pub struct [<$world Events>] {
                $(
                    #[doc = "The `" $event "` channel."]
                    $(#[$attr])*
                    pub $event: $crate::EventChannel<$ty>,
                )*
            }

            #[doc = "One reader's position in each event channel of `" $world "`: a system's own cursors, kept by its `archetypal::SystemContext` (`context.cursors." "<event>`)."]
            #[derive(::core::default::Default)]
            pub struct [<$world EventCursors>] {
                $(
                    #[doc = "The cursor in the `" $event "` channel."]
                    $(#[$attr])*
                    pub $event: $crate::EventCursor,
                )*
            }
        }
    };
    (@systems $world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty ),* ]) => {
        $crate::__private::paste::paste! {
            // One slot per channel: a system's readers and writers take theirs by type.
            pub struct __EventSlots<'w> {
                $( $(#[$attr])* $event: $crate::system::Slot<'w, $crate::EventChannel<$ty>>, )*
                __lifetime: ::core::marker::PhantomData<&'w ()>,
            }

            impl $crate::system::EventSet for [<$world Events>] {
                type Slots<'w> = __EventSlots<'w>;

                #[inline]
                fn slots(&mut self) -> __EventSlots<'_> {
                    __EventSlots {
                        $( $(#[$attr])* $event: $crate::system::Slot::new(&mut self.$event), )*
                        __lifetime: ::core::marker::PhantomData,
                    }
                }

                #[inline]
                fn shorten<'a, 'b: 'a>(slots: <Self as $crate::system::EventSet>::Slots<'b>) -> <Self as $crate::system::EventSet>::Slots<'a> {
                    slots
                }
            }

            // Each channel's place (its bit in a system's access) and marker.
            enum __Event {
                $( $(#[$attr])* $event, )*
                __END,
            }
            const _: () = ::core::assert!(
                (__Event::__END as u32) <= 128,
                "ecs!: a world declares at most 128 event types"
            );
            mod __event {
                $( $(#[$attr])* pub enum $event {} )*
            }

            $(
                $(#[$attr])*
                impl $crate::system::EventOf<$ty, __event::$event> for [<$world Events>] {
                    const BIT: u128 = 1 << __Event::$event as u32;

                    #[inline]
                    fn slot<'s, 'w>(slots: &'s mut <Self as $crate::system::EventSet>::Slots<'w>) -> &'s mut $crate::system::Slot<'w, $crate::EventChannel<$ty>> {
                        &mut slots.$event
                    }
                }
            )*
        }
    };
    ($world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty ),* ]) => {
        $crate::__private::paste::paste! {
            impl [<$world Events>] {
                /// Ages every channel by a frame: events older than two frames expire.
                /// O(event types) plus the events dropped.
                #[inline]
                #[allow(unused_doc_comments)]
                pub fn update(&mut self) {
                    $( $(#[$attr])* self.$event.update(); )*
                }
            }
        }
    };
}
