//! Sequence-numbered event channels with per-consumer cursors.
//!
//! Every event sent gets the next sequence number. A consumer keeps an [`EventCursor`]: the
//! sequence number it reads next. Reading through the cursor hands out each event once and moves
//! the cursor past it, so any number of consumers read the same channel independently.
//!
//! Events do not wait for their readers: they expire after two frames, a bounded channel trims
//! its oldest ones, and `clear` drops them all. A cursor that falls behind is never failed
//! silently: it gets what is left plus, in [`Consumed::lost`], the count of events that went
//! before it read them, which the sequence numbers make exact.

use alloc::collections::VecDeque;
use alloc::collections::vec_deque;
use alloc::vec::Vec;

/// The sequence number of a channel's first event.
///
/// Numbering starts at 1 so that 0, the position of a default cursor, is never an event: a cursor
/// still at 0 has never read, and starts at the oldest stored event without counting the ones
/// that went before it existed as lost.
const FIRST_SEQUENCE: u64 = 1;

/// A consumer's position in one [`EventChannel`]: the sequence number it reads next.
///
/// The default cursor has not read yet; its first read starts at the oldest event still stored.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EventCursor {
    next: u64,
}

impl EventCursor {
    /// A cursor that has not read yet: the same as `EventCursor::default()`.
    pub const fn new() -> Self {
        EventCursor { next: 0 }
    }

    /// The sequence number this cursor reads next, or 0 if it has not read yet.
    pub const fn next_sequence(self) -> u64 {
        self.next
    }

    /// Whether this cursor has not read yet.
    pub const fn is_fresh(self) -> bool {
        self.next == 0
    }

    /// The cursor that reads `next` next (as a snapshot saved it; 0: not read yet).
    #[cfg(feature = "serde")]
    pub(crate) const fn at(next: u64) -> Self {
        EventCursor { next }
    }
}

/// A queue of events of type `E`, numbered in send order, read through [`EventCursor`]s.
///
/// Events live two frames: one sent during frame N can be read during frames N and N+1 and is
/// removed by the [`update`](Self::update) that ends frame N+1, so a consumer that runs once per
/// frame sees it whether it runs before or after the sender.
#[derive(Clone, Debug)]
pub struct EventChannel<E> {
    events: VecDeque<E>,
    /// Sequence number of the front event, or of the next one sent when none is stored.
    first_sequence: u64,
    /// Sequence number of the first event sent in the current frame: everything before it was
    /// sent in the previous frame and expires at the next `update`.
    frame_start: u64,
    capacity_limit: Option<usize>,
}

impl<E> Default for EventChannel<E> {
    /// An empty, unbounded channel.
    fn default() -> Self {
        EventChannel {
            events: VecDeque::new(),
            first_sequence: FIRST_SEQUENCE,
            frame_start: FIRST_SEQUENCE,
            capacity_limit: None,
        }
    }
}

impl<E> EventChannel<E> {
    /// An empty, unbounded channel.
    pub fn new() -> Self {
        Self::default()
    }

    /// The largest sequence number a channel may be told to start at
    /// ([`start_numbering_at`](Self::start_numbering_at)): far from overflowing however many
    /// events are sent afterwards.
    pub const MAX_START: u64 = 1 << 62;

    /// Makes an empty channel number its next event `next` (at least 1, at most
    /// [`MAX_START`](Self::MAX_START)), as if `next - 1` events had been sent and are gone: a
    /// world loaded from a snapshot keeps numbering where the saved world stopped, so cursors
    /// kept from before the save read what is sent after the load. `false`, changing nothing,
    /// if the channel holds events or `next` is out of range.
    pub fn start_numbering_at(&mut self, next: u64) -> bool {
        if !self.events.is_empty() || !(FIRST_SEQUENCE..=Self::MAX_START).contains(&next) {
            return false;
        }
        self.first_sequence = next;
        self.frame_start = next;
        true
    }

    /// An empty channel that stores at most `limit` events: sending more trims the oldest, which
    /// cursors that had not read them see as [lost](Consumed::lost).
    ///
    /// A limit of 0 stores nothing: every event is lost the moment it is sent.
    pub fn with_capacity_limit(limit: usize) -> Self {
        EventChannel {
            capacity_limit: Some(limit),
            ..Self::default()
        }
    }

    /// Bounds the channel to `limit` events (`None`: unbounded), trimming the oldest if it holds
    /// more; cursors that had not read them see them as [lost](Consumed::lost). Stored events
    /// and the numbering stay, so every cursor reads on from where it was.
    pub fn set_capacity_limit(&mut self, limit: Option<usize>) {
        self.capacity_limit = limit;
        if let Some(limit) = limit {
            self.trim_to(limit);
        }
    }

    /// The most events this channel stores, if it is bounded.
    pub fn capacity_limit(&self) -> Option<usize> {
        self.capacity_limit
    }

    /// Stores `event` and returns its sequence number. On a bounded channel that is full, the
    /// oldest event is trimmed to make room.
    pub fn send(&mut self, event: E) -> u64 {
        let sequence = self.next_sequence();
        self.events.push_back(event);
        if let Some(limit) = self.capacity_limit {
            self.trim_to(limit);
        }
        sequence
    }

    /// Every event `cursor` has not read yet, oldest first, and how many it missed; moves the
    /// cursor past all of them.
    ///
    /// A fresh cursor starts at the oldest stored event and has missed nothing. A cursor that
    /// lagged behind events which were trimmed, expired or cleared gets the ones still stored,
    /// with the gone ones counted in [`Consumed::lost`]. A cursor past the end read another
    /// channel, or this one before its numbering restarted (a world loaded from a snapshot,
    /// with the cursor kept from before): every stored event is new to it, as to a fresh one.
    pub fn consume(&self, cursor: &mut EventCursor) -> Consumed<'_, E> {
        let (start, lost) = self.start_of(*cursor);
        cursor.next = self.next_sequence();
        let skipped = (start - self.first_sequence) as usize;
        Consumed {
            events: self.events.range(skipped..),
            lost,
        }
    }

    /// How many stored events `cursor` has not read, without moving it.
    pub fn unread_count(&self, cursor: &EventCursor) -> usize {
        let (start, _) = self.start_of(*cursor);
        (self.next_sequence() - start) as usize
    }

    /// The sequence number `cursor` reads from, and how many events it missed (see
    /// [`consume`](Self::consume)).
    fn start_of(&self, cursor: EventCursor) -> (u64, u64) {
        if cursor.is_fresh() || cursor.next > self.next_sequence() {
            (self.first_sequence, 0)
        } else if cursor.next < self.first_sequence {
            (self.first_sequence, self.first_sequence - cursor.next)
        } else {
            (cursor.next, 0)
        }
    }

    /// Every stored event, oldest first, without a cursor.
    pub fn read(&self) -> impl DoubleEndedIterator<Item = &E> + ExactSizeIterator {
        self.events.iter()
    }

    /// A copy of every stored event, oldest first.
    pub fn collect(&self) -> Vec<E>
    where
        E: Clone,
    {
        self.events.iter().cloned().collect()
    }

    /// Drops every stored event. Sequence numbers go on from where they were, so cursors that had
    /// not read the dropped events report them as lost.
    pub fn clear(&mut self) {
        self.first_sequence = self.next_sequence();
        self.events.clear();
    }

    /// Number of stored events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event is stored.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Ends a frame: drops the events sent before the current frame began, and starts a new
    /// frame. The world's `step()` calls it once per frame.
    pub fn update(&mut self) {
        let previous_frame = self.frame_start.saturating_sub(self.first_sequence) as usize;
        self.drop_oldest(previous_frame);
        self.frame_start = self.next_sequence();
    }

    /// Drops all but the newest `keep` events.
    pub fn trim_to(&mut self, keep: usize) {
        self.drop_oldest(self.events.len().saturating_sub(keep));
    }

    /// The sequence number of the oldest stored event, or of the next one sent when none is
    /// stored.
    pub fn first_sequence(&self) -> u64 {
        self.first_sequence
    }

    /// The sequence number the next event sent will get.
    pub fn next_sequence(&self) -> u64 {
        self.first_sequence + self.events.len() as u64
    }

    /// A cursor that skips every event sent so far and reads only later ones.
    pub fn cursor_at_end(&self) -> EventCursor {
        EventCursor {
            next: self.next_sequence(),
        }
    }

    /// What a snapshot saves of a channel whose events it keeps: the sequence number of the
    /// oldest stored event, that of the first event sent in the current frame, the capacity
    /// limit and the events, oldest first.
    #[cfg(feature = "serde")]
    pub(crate) fn saved_parts(&self) -> (u64, u64, Option<usize>, &VecDeque<E>) {
        (
            self.first_sequence,
            self.frame_start,
            self.capacity_limit,
            &self.events,
        )
    }

    /// The channel a snapshot saved (see [`saved_parts`](Self::saved_parts)), or what is wrong
    /// with it: numbering that starts at 0 or runs past [`MAX_START`](Self::MAX_START), a
    /// frame start at 0 or past the next event, more events than the limit.
    #[cfg(feature = "serde")]
    pub(crate) fn from_saved_parts(
        first_sequence: u64,
        frame_start: u64,
        capacity_limit: Option<usize>,
        events: Vec<E>,
    ) -> Result<Self, &'static str> {
        let next = first_sequence.checked_add(events.len() as u64);
        if first_sequence < FIRST_SEQUENCE || next.is_none_or(|next| next > Self::MAX_START) {
            return Err("its numbering is out of range");
        }
        // A frame start before the oldest event is sound (a trim or `clear` since the frame
        // began); past the next event it is not.
        if !(FIRST_SEQUENCE..=next.unwrap_or(0)).contains(&frame_start) {
            return Err("its frame start is past its events");
        }
        if capacity_limit.is_some_and(|limit| events.len() > limit) {
            return Err("it holds more events than its capacity limit");
        }
        Ok(EventChannel {
            events: events.into(),
            first_sequence,
            frame_start,
            capacity_limit,
        })
    }

    fn drop_oldest(&mut self, count: usize) {
        let count = count.min(self.events.len());
        // Numbered first: an event `Drop` that panics in `drain` (which still removes them
        // all) must not leave the numbering behind, or later events would reuse numbers.
        self.first_sequence += count as u64;
        self.events.drain(..count);
    }
}

/// The events one [`EventChannel::consume`] call handed to a cursor, and how many that cursor
/// missed.
///
/// Iterate it (by value or by reference) for the events, oldest first.
#[derive(Debug)]
pub struct Consumed<'a, E> {
    events: vec_deque::Iter<'a, E>,
    lost: u64,
}

impl<E> Clone for Consumed<'_, E> {
    /// Another view of the same events; `E` need not be `Clone`.
    fn clone(&self) -> Self {
        Consumed {
            events: self.events.clone(),
            lost: self.lost,
        }
    }
}

impl<'a, E> Consumed<'a, E> {
    /// The events, oldest first. Can be called any number of times.
    pub fn iter(&self) -> vec_deque::Iter<'a, E> {
        self.events.clone()
    }

    /// Number of events handed out.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event was handed out.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many events the cursor missed because they were trimmed, expired or cleared before it
    /// read them.
    pub fn lost(&self) -> u64 {
        self.lost
    }
}

impl<'a, E> IntoIterator for Consumed<'a, E> {
    type Item = &'a E;
    type IntoIter = vec_deque::Iter<'a, E>;

    fn into_iter(self) -> Self::IntoIter {
        self.events
    }
}

impl<'a, E> IntoIterator for &Consumed<'a, E> {
    type Item = &'a E;
    type IntoIter = vec_deque::Iter<'a, E>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests;
