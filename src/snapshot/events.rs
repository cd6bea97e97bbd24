//! The events of the channels declared `[saved]` (`Events { hit: Hit [saved] }`), in a snapshot
//! since format 7: `events`, after `event_sequences`, a map from each saved channel's name (in
//! declaration order) to `[first_sequence, frame_start, capacity_limit, [event, ...]]`: the
//! sequence number of its oldest stored event, that of the first event sent in the current frame
//! (the ones before it expire at the next `step()`), its capacity limit (`null`: unbounded), and
//! the events, oldest first, each in its own serde form. A loaded channel is the saved one: its
//! numbering, what expires when, its limit and its events, so a reader's saved cursor reads
//! exactly what it had not read. A channel not declared `[saved]` keeps only its numbering
//! (`event_sequences`), and its event type need not be serde.
//!
//! Whether a channel is saved is a type (`__private::SavedEvents` or `UnsavedEvents`, picked by
//! `__ecs_event_saving!` from the channel's options): the generated code hands each channel to
//! [`SaveEvents`] / [`LoadEvents`] of its type, so only a saved channel's event type is bounded
//! on serde.
//!
//! Reading refuses an unknown channel, one not declared `[saved]`, one given twice or missing;
//! the events are a [`Sequence`] (no declared length sizes an allocation); and numbering that
//! starts at 0 or runs past `EventChannel::MAX_START`, a frame start at 0 or past the next event,
//! or more events than the limit. Loading then checks the channel's end against its entry in
//! `event_sequences`.

use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::sequence::Sequence;
use super::{DeserializeSingletons, SerializeSingletons};
use crate::__private::{SavedEvents, UnsavedEvents};
use crate::events::EventChannel;

/// Whether a channel's events are saved: `SavedEvents` or `UnsavedEvents`, the type
/// `__ecs_event_saving!` picks from a channel's options.
pub trait EventSaving {
    /// Whether a snapshot keeps the channel's events.
    const SAVED: bool;
}

impl EventSaving for SavedEvents {
    const SAVED: bool = true;
}

impl EventSaving for UnsavedEvents {
    const SAVED: bool = false;
}

/// Writes a channel's events if its type says they are saved (`SavedEvents`, whose event type
/// must then be `Serialize`); an unsaved channel writes nothing here.
pub trait SaveEvents<E>: EventSaving {
    /// Writes `channel` as the entry `name` of `map`, if saved.
    fn write<M: SerializeMap>(
        map: &mut M,
        name: &'static str,
        channel: &EventChannel<E>,
    ) -> Result<(), M::Error>;
}

impl<E> SaveEvents<E> for UnsavedEvents {
    #[inline]
    fn write<M: SerializeMap>(
        _: &mut M,
        _: &'static str,
        _: &EventChannel<E>,
    ) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<E: Serialize> SaveEvents<E> for SavedEvents {
    #[inline]
    fn write<M: SerializeMap>(
        map: &mut M,
        name: &'static str,
        channel: &EventChannel<E>,
    ) -> Result<(), M::Error> {
        map.serialize_entry(name, &SavedChannelOut(channel))
    }
}

/// Reads a saved channel (`SavedEvents`, whose event type must then be `Deserialize<'de>`).
pub trait LoadEvents<'de, E>: EventSaving {
    /// Reads the value of the entry `name` of `map` into `channel`.
    fn read<A: MapAccess<'de>>(
        map: &mut A,
        name: &'static str,
        channel: &mut EventChannel<E>,
    ) -> Result<(), A::Error>;
}

impl<'de, E> LoadEvents<'de, E> for UnsavedEvents {
    #[inline]
    fn read<A: MapAccess<'de>>(
        _: &mut A,
        name: &'static str,
        _: &mut EventChannel<E>,
    ) -> Result<(), A::Error> {
        Err(de::Error::custom(format_args!(
            "the event channel `{name}` is not declared `[saved]`"
        )))
    }
}

impl<'de, E: Deserialize<'de>> LoadEvents<'de, E> for SavedEvents {
    #[inline]
    fn read<A: MapAccess<'de>>(
        map: &mut A,
        name: &'static str,
        channel: &mut EventChannel<E>,
    ) -> Result<(), A::Error> {
        let SavedChannelIn(loaded) = map.next_value()?;
        *channel = EventChannel::from_saved_parts(
            loaded.first_sequence,
            loaded.frame_start,
            loaded.capacity_limit,
            loaded.events,
        )
        .map_err(|reason| {
            de::Error::custom(format_args!("the event channel `{name}`: {reason}"))
        })?;
        Ok(())
    }
}

/// An event channel, as handed to the generated `serialize_channel`, which picks it by name
/// (`name()`) and writes it through its saving type (`write`).
pub struct ChannelOut<'a, M> {
    map: &'a mut M,
    name: &'static str,
}

impl<M: SerializeMap> ChannelOut<'_, M> {
    /// The channel's name.
    #[inline]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Writes `channel` if `Saving` says its events are saved.
    #[inline]
    pub fn write<Saving: SaveEvents<E>, E>(
        self,
        channel: &EventChannel<E>,
    ) -> Result<(), M::Error> {
        Saving::write(self.map, self.name, channel)
    }
}

/// An event channel being read, as handed to the generated `deserialize_channel`, which picks
/// it by name (`name()`) and reads it through its saving type (`read`).
pub struct ChannelIn<'a, A> {
    map: &'a mut A,
    name: &'static str,
}

impl<A> ChannelIn<'_, A> {
    /// The channel's name.
    #[inline]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Reads the channel into `channel`.
    #[inline]
    pub fn read<'de, Saving: LoadEvents<'de, E>, E>(
        self,
        channel: &mut EventChannel<E>,
    ) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        Saving::read(self.map, self.name, channel)
    }
}

/// The saved channels of a world or game, by name, in declaration order.
pub(crate) struct EventsOut<'a, W>(pub(crate) &'a W);

impl<W: SerializeSingletons> Serialize for EventsOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let saved = W::EVENTS.iter().filter(|channel| channel.3).count();
        let mut map = serializer.serialize_map(Some(saved))?;
        for &(name, .., saved) in W::EVENTS {
            if saved {
                W::serialize_channel(
                    self.0,
                    ChannelOut {
                        map: &mut map,
                        name,
                    },
                )?;
            }
        }
        map.end()
    }
}

/// One saved channel as written: `[first_sequence, frame_start, capacity_limit, events]`.
struct SavedChannelOut<'a, E>(&'a EventChannel<E>);

impl<E: Serialize> Serialize for SavedChannelOut<'_, E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (first_sequence, frame_start, capacity_limit, events) = self.0.saved_parts();
        let mut tuple = serializer.serialize_tuple(4)?;
        tuple.serialize_element(&first_sequence)?;
        tuple.serialize_element(&frame_start)?;
        tuple.serialize_element(&capacity_limit.map(|limit| limit as u64))?;
        tuple.serialize_element(&EventsSeq(events))?;
        tuple.end()
    }
}

/// A channel's events, oldest first.
struct EventsSeq<'a, E>(&'a alloc::collections::VecDeque<E>);

impl<E: Serialize> Serialize for EventsSeq<'_, E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// One saved channel as read, not yet checked.
struct SavedChannel<E> {
    first_sequence: u64,
    frame_start: u64,
    capacity_limit: Option<usize>,
    events: alloc::vec::Vec<E>,
}

/// Reads one saved channel.
struct SavedChannelIn<E>(SavedChannel<E>);

impl<'de, E: Deserialize<'de>> Deserialize<'de> for SavedChannelIn<E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(4, SavedChannelVisitor(PhantomData))
    }
}

/// The visitor of one saved channel's four elements.
struct SavedChannelVisitor<E>(PhantomData<fn() -> E>);

impl<'de, E: Deserialize<'de>> Visitor<'de> for SavedChannelVisitor<E> {
    type Value = SavedChannelIn<E>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(
            "a saved event channel: [first_sequence, frame_start, capacity_limit, events]",
        )
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let missing = |index| de::Error::invalid_length(index, &self);
        let first_sequence: u64 = seq.next_element()?.ok_or_else(|| missing(0))?;
        let frame_start: u64 = seq.next_element()?.ok_or_else(|| missing(1))?;
        let capacity_limit: Option<u64> = seq.next_element()?.ok_or_else(|| missing(2))?;
        let Sequence(events) = seq.next_element()?.ok_or_else(|| missing(3))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(5, &self));
        }
        let capacity_limit = capacity_limit
            .map(|limit| {
                usize::try_from(limit).map_err(|_| de::Error::custom("capacity limit too large"))
            })
            .transpose()?;
        Ok(SavedChannelIn(SavedChannel {
            first_sequence,
            frame_start,
            capacity_limit,
            events,
        }))
    }
}

/// The saved channels of a world or game, read by name into a new world or game (what the rest
/// of the snapshot is then installed in): every saved channel exactly once.
pub(crate) struct EventsData<W>(pub(crate) W);

impl<'de, W: DeserializeSingletons + Default> Deserialize<'de> for EventsData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EventsVisitor::<W>(PhantomData))
    }
}

/// The visitor of the saved channels' map, for world or game `W`.
struct EventsVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeSingletons + Default> Visitor<'de> for EventsVisitor<W> {
    type Value = EventsData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the saved event channels: a map of each one's events")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let saved = || W::EVENTS.iter().filter(|channel| channel.3);
        let mut seen = alloc::vec![false; W::EVENTS.len()];
        let mut whole = W::default();
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = W::EVENTS
                .iter()
                .position(|&(name, .., saved)| saved && name == key)
            else {
                let names: alloc::vec::Vec<&str> = saved().map(|channel| channel.0).collect();
                return Err(de::Error::custom(format_args!(
                    "unknown saved event channel `{key}` (this world's saved channels: {})",
                    names.join(", ")
                )));
            };
            if core::mem::replace(&mut seen[index], true) {
                return Err(de::Error::custom(format_args!(
                    "the event channel `{key}` appears twice"
                )));
            }
            let channel = ChannelIn {
                map: &mut map,
                name: W::EVENTS[index].0,
            };
            <W as super::DeserializeResources<'de>>::deserialize_channel(&mut whole, channel)?;
        }
        let missing = W::EVENTS
            .iter()
            .zip(&seen)
            .find(|(channel, seen)| channel.3 && !**seen);
        if let Some((channel, _)) = missing {
            return Err(de::Error::custom(format_args!(
                "the snapshot has no events for the saved channel `{}`",
                channel.0
            )));
        }
        Ok(EventsData(whole))
    }
}
