//! `__ecs_events!`: one event channel per declared event type, in `world.events`, and the
//! per-event methods. `World::step` ages every channel.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_events {
    ($world:ident none) => {
        $crate::__ecs_events! { $world {} }
    };
    ($world:ident { $( $(#[$attr:meta])* $event:ident : $ty:ty ),* $(,)? }) => {
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

            #[allow(unused_doc_comments)]
            impl [<$world Events>] {
                /// Ages every channel by a frame: events older than two frames expire.
                /// O(event types) plus the events dropped.
                #[inline]
                pub fn update(&mut self) {
                    $( $(#[$attr])* self.$event.update(); )*
                }
            }

            impl $world {
                $(
                    #[doc = "Sends a `" $event "` event (O(1), amortised); it can be read this frame and the next."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<send_ $event>](&mut self, event: $ty) {
                        self.events.$event.send(event);
                    }

                    #[doc = "The `" $event "` events `cursor` has not seen yet, each exactly once per cursor: O(1) to start, then O(1) per event read; `.lost()` on the result counts those that expired before it read them."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<consume_ $event>](&self, cursor: &mut $crate::EventCursor) -> $crate::Consumed<'_, $ty> {
                        self.events.$event.consume(cursor)
                    }

                    #[doc = "Every live `" $event "` event (this frame's and the previous frame's), oldest first."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<read_ $event>](&self) -> impl ::core::iter::Iterator<Item = &$ty> + '_ {
                        self.events.$event.read()
                    }

                    #[doc = "Clones of every live `" $event "` event, oldest first: O(live events), allocating. Callable when the event type is `Clone`."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<collect_ $event>](&self) -> $crate::__private::alloc::vec::Vec<$ty>
                    where
                        for<'a> $ty: ::core::clone::Clone,
                    {
                        self.events.$event.collect()
                    }

                    #[doc = "Drops every `" $event "` event; cursors that had not read them count them as lost."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<clear_ $event>](&mut self) {
                        self.events.$event.clear();
                    }

                    #[doc = "Number of live `" $event "` events, in O(1)."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<len_ $event>](&self) -> usize {
                        self.events.$event.len()
                    }

                    #[doc = "Whether there is no live `" $event "` event."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<is_empty_ $event>](&self) -> bool {
                        self.events.$event.is_empty()
                    }
                )*
            }
        }
    };
    ($world:ident { $($events:tt)* }) => {
        ::core::compile_error!(
            "ecs!: malformed `Events` block; write each event as `name: Type`, separated by commas"
        );
        $crate::__ecs_events! { $world {} }
    };
}
