//! `__ecs_events!`: one event channel per declared event type, in `world.events`
//! (`world.events.hit.send(..)`: the channel's own methods, see `archetypal::EventChannel`),
//! and the matching set of cursors a system keeps in its `SystemContext` (`@types`); and the
//! channels' `update`, which `World::step` calls to age every channel.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_events {
    (@types $world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty [$($option:ident)*] ),* ]) => {
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
    (@systems $world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty [$($option:ident)*] ),* ]) => {
        $crate::__private::paste::paste! {
            $crate::__ecs_resources! {
                @slots [<$world Events>], EventSet, EventOf, __EventSlots, __Event, __event,
                "ecs!: a world declares at most 128 event types"
                [ $( $(#[$attr])* $event : $ty => $crate::EventChannel<$ty> ),* ]
            }
        }
    };
    ($world:ident [ $( $(#[$attr:meta])* $event:ident : $ty:ty [$($option:ident)*] ),* ]) => {
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

/// An event channel's options, as the type that says whether a snapshot keeps its events
/// (`[saved]`: `SavedEvents`; none: `UnsavedEvents`), in the channel's alias in
/// `__ecs_state_types!`; and (`@check`, an item there) an unknown option reported, so its
/// message is the only error (the type it leaves in the alias is `UnsavedEvents`).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_event_saving {
    (@check) => {};
    (@check saved) => {};
    (@check $($option:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown event option `",
            ::core::stringify!($($option)*),
            "`; the only option is `[saved]`"
        ));
    };
    (saved) => {
        $crate::__private::SavedEvents
    };
    ($($option:tt)*) => {
        $crate::__private::UnsavedEvents
    };
}
