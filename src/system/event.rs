//! [`EventReader`] and [`EventWriter`]: a system's reading (through its own cursor, kept in the
//! world) and sending of one event channel, picked by the event's type.

use super::access::SystemAccess;
use super::param::{EventOf, ParamSource, ParamWorld, SystemParam};
use crate::events::{Consumed, EventChannel, EventCursor};

/// A system's reader of the channel of events of type `E`, with its own cursor
/// (bevy's `MessageReader`): `fn apply(mut hits: EventReader<Hit>)`, then `hits.read()`. The
/// cursor is the system's, kept in the world's state: each event reaches each reading system
/// once, a clone or a restore of the world carries where it stands, and it cannot be pointed at
/// another channel.
pub struct EventReader<'w, E> {
    channel: &'w EventChannel<E>,
    cursor: &'w mut EventCursor,
}

impl<'w, E> EventReader<'w, E> {
    /// The events this system has not read yet, oldest first, and the cursor moved past them.
    /// [`Consumed::lost`] counts those that expired before it read them.
    #[inline]
    pub fn read(&mut self) -> Consumed<'w, E> {
        self.channel.consume(self.cursor)
    }

    /// How many events this system has not read yet (the cursor stays).
    pub fn unread_count(&self) -> usize {
        self.channel.unread_count(self.cursor)
    }

    /// Whether there is no event this system has not read.
    pub fn is_empty(&self) -> bool {
        self.unread_count() == 0
    }

    /// Moves the cursor past every stored event without reading them.
    pub fn clear(&mut self) {
        *self.cursor = self.channel.cursor_at_end();
    }
}

/// A system's sender on the channel of events of type `E` (bevy's `MessageWriter`):
/// `fn collide(mut hits: EventWriter<Hit>)`, then `hits.send(Hit { .. })`.
pub struct EventWriter<'w, E> {
    channel: &'w mut EventChannel<E>,
}

impl<E> EventWriter<'_, E> {
    /// Sends `event`; returns its sequence number.
    #[inline]
    pub fn send(&mut self, event: E) -> u64 {
        self.channel.send(event)
    }

    /// Sends every event of `events`, in order.
    pub fn send_all(&mut self, events: impl IntoIterator<Item = E>) {
        for event in events {
            self.channel.send(event);
        }
    }
}

/// Marks the impls of event parameters.
#[doc(hidden)]
pub struct EventParam<M>(M);

impl<W, E: Sync + 'static, M> SystemParam<W, EventParam<M>> for EventReader<'_, E>
where
    W: ParamWorld,
    W::Events: EventOf<E, M>,
{
    type Item<'w> = EventReader<'w, E>;

    const ACCESS: SystemAccess = SystemAccess {
        events_read: <W::Events as EventOf<E, M>>::BIT,
        ..SystemAccess::NONE
    };

    #[inline]
    fn keep(values: &mut super::memory::KeptValues<'_>) {
        values.keep::<EventCursor>();
    }

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> EventReader<'w, E> {
        let slot = <W::Events as EventOf<E, M>>::slot(&mut source.events);
        EventReader {
            channel: slot.take_ref().expect(
                "a channel written by one parameter is read by no other (checked at build)",
            ),
            cursor: source
                .kept
                .take_next()
                .expect("the reader's cursor was kept before the parameters were fetched"),
        }
    }
}

impl<W, E: Send + 'static, M> SystemParam<W, EventParam<M>> for EventWriter<'_, E>
where
    W: ParamWorld,
    W::Events: EventOf<E, M>,
{
    type Item<'w> = EventWriter<'w, E>;

    const ACCESS: SystemAccess = SystemAccess {
        events_written: <W::Events as EventOf<E, M>>::BIT,
        ..SystemAccess::NONE
    };

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> EventWriter<'w, E> {
        let slot = <W::Events as EventOf<E, M>>::slot(&mut source.events);
        EventWriter {
            channel: slot.take_mut().expect(
                "a channel written by one parameter is borrowed by no other (checked at build)",
            ),
        }
    }
}
