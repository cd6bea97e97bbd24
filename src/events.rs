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
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn a_new_capacity_keeps_the_numbering_and_counts_what_it_trims() {
        let mut channel = EventChannel::with_capacity_limit(10);
        let mut cursor = channel.cursor_at_end();
        for event in 0..4 {
            channel.send(event);
        }
        channel.set_capacity_limit(Some(10));
        channel.send(4);
        assert_eq!(channel.consume(&mut cursor).iter().count(), 5);
        for event in 5..8 {
            channel.send(event);
        }
        channel.set_capacity_limit(Some(1));
        let consumed = channel.consume(&mut cursor);
        assert_eq!(
            (consumed.lost(), consumed.iter().copied().collect()),
            (2, vec![7])
        );
        channel.set_capacity_limit(None);
        for event in 8..20 {
            channel.send(event);
        }
        assert_eq!(channel.len(), 13);
    }

    /// The events a cursor consumes, copied, with the lost count.
    fn take(channel: &EventChannel<u32>, cursor: &mut EventCursor) -> (Vec<u32>, u64) {
        let consumed = channel.consume(cursor);
        let lost = consumed.lost();
        (consumed.into_iter().copied().collect(), lost)
    }

    fn channel_with(events: impl IntoIterator<Item = u32>) -> EventChannel<u32> {
        let mut channel = EventChannel::new();
        for event in events {
            channel.send(event);
        }
        channel
    }

    #[test]
    fn a_new_channel_is_empty_and_unbounded() {
        let channel: EventChannel<u32> = EventChannel::new();
        assert!(channel.is_empty());
        assert_eq!(channel.len(), 0);
        assert_eq!(channel.capacity_limit(), None);
        assert_eq!(channel.first_sequence(), channel.next_sequence());
        assert_eq!(channel.read().count(), 0);
        let default: EventChannel<String> = EventChannel::default();
        assert!(default.is_empty(), "Default needs no E: Default");
    }

    #[test]
    fn sequence_numbers_start_at_one_and_increase_by_one() {
        let mut channel = EventChannel::new();
        assert_eq!(channel.next_sequence(), 1);
        let sequences: Vec<u64> = (0..5).map(|event| channel.send(event)).collect();
        assert_eq!(sequences, vec![1, 2, 3, 4, 5]);
        assert_eq!(channel.first_sequence(), 1);
        assert_eq!(channel.next_sequence(), 6);
    }

    #[test]
    fn sequence_numbers_keep_increasing_through_removals() {
        let mut channel = channel_with(0..3);
        channel.clear();
        assert_eq!(channel.send(9), 4);
        channel.trim_to(0);
        assert_eq!(channel.send(9), 5);
        channel.update();
        channel.update();
        assert!(channel.is_empty());
        assert_eq!(channel.send(9), 6);
        assert_eq!(channel.first_sequence(), 6);
    }

    #[test]
    fn a_cursor_sees_each_event_once() {
        let mut channel = channel_with([10, 11]);
        let mut cursor = EventCursor::default();
        assert_eq!(take(&channel, &mut cursor), (vec![10, 11], 0));
        assert_eq!(take(&channel, &mut cursor), (vec![], 0));
        channel.send(12);
        assert_eq!(take(&channel, &mut cursor), (vec![12], 0));
        assert_eq!(take(&channel, &mut cursor), (vec![], 0));
    }

    #[test]
    fn two_cursors_each_see_every_event_exactly_once() {
        let mut channel = EventChannel::new();
        let mut fast = EventCursor::new();
        let mut slow = EventCursor::new();
        let mut fast_seen = Vec::new();
        let mut slow_seen = Vec::new();
        for event in 0..10 {
            channel.send(event);
            fast_seen.extend(take(&channel, &mut fast).0);
            if event % 3 == 0 {
                slow_seen.extend(take(&channel, &mut slow).0);
            }
        }
        slow_seen.extend(take(&channel, &mut slow).0);
        let all: Vec<u32> = (0..10).collect();
        assert_eq!(fast_seen, all);
        assert_eq!(slow_seen, all);
    }

    #[test]
    fn events_survive_one_update_and_expire_at_the_second() {
        let mut channel = EventChannel::new();
        channel.send(1);
        channel.update(); // End of the frame it was sent in.
        assert_eq!(channel.collect(), vec![1]);
        channel.send(2);
        channel.update(); // End of the next frame: 1 goes, 2 stays.
        assert_eq!(channel.collect(), vec![2]);
        channel.update();
        assert!(channel.is_empty());
        assert_eq!(channel.first_sequence(), 3);
    }

    #[test]
    fn a_consumer_running_before_the_sender_still_sees_the_event_next_frame() {
        let mut channel = EventChannel::new();
        let mut cursor = EventCursor::new();
        for frame in 0..4u32 {
            // Consumer runs first, then the sender, then the frame ends.
            let (seen, lost) = take(&channel, &mut cursor);
            assert_eq!(lost, 0);
            if frame > 0 {
                assert_eq!(seen, vec![frame - 1]);
            }
            channel.send(frame);
            channel.update();
        }
    }

    #[test]
    fn updates_on_an_empty_channel_change_nothing() {
        let mut channel: EventChannel<u32> = EventChannel::new();
        channel.update();
        channel.update();
        assert!(channel.is_empty());
        assert_eq!(channel.send(5), 1);
        channel.update();
        assert_eq!(channel.collect(), vec![5]);
    }

    #[test]
    fn a_lagging_cursor_gets_the_rest_and_the_expired_count() {
        let mut channel = EventChannel::new();
        let mut cursor = EventCursor::new();
        channel.send(1);
        assert_eq!(take(&channel, &mut cursor), (vec![1], 0));
        channel.send(2);
        channel.send(3);
        channel.update();
        channel.send(4);
        channel.update(); // 2 and 3 expire unread.
        assert_eq!(take(&channel, &mut cursor), (vec![4], 2));
        assert_eq!(
            take(&channel, &mut cursor),
            (vec![], 0),
            "loss reported once"
        );
    }

    #[test]
    fn a_cursor_that_lags_past_everything_gets_only_the_lost_count() {
        let mut channel = EventChannel::new();
        let mut cursor = channel.cursor_at_end();
        channel.send(1);
        channel.send(2);
        channel.update();
        channel.update();
        let consumed = channel.consume(&mut cursor);
        assert!(consumed.is_empty());
        assert_eq!(consumed.lost(), 2);
        channel.send(3);
        assert_eq!(take(&channel, &mut cursor), (vec![3], 0));
    }

    #[test]
    fn a_fresh_cursor_starts_at_the_oldest_stored_event_and_lost_nothing() {
        let mut channel = channel_with([1, 2]);
        channel.update();
        channel.send(3);
        channel.update(); // 1 and 2 expired before this cursor existed.
        let mut cursor = EventCursor::default();
        assert!(cursor.is_fresh());
        assert_eq!(take(&channel, &mut cursor), (vec![3], 0));
        assert!(!cursor.is_fresh());
    }

    #[test]
    fn a_fresh_cursor_on_an_empty_channel_is_no_longer_fresh_after_reading() {
        let mut channel = EventChannel::new();
        let mut cursor = EventCursor::new();
        assert_eq!(take(&channel, &mut cursor), (vec![], 0));
        assert_eq!(cursor.next_sequence(), channel.next_sequence());
        channel.send(1);
        channel.trim_to(0);
        assert_eq!(take(&channel, &mut cursor), (vec![], 1), "it had joined");
    }

    #[test]
    fn a_bounded_channel_trims_the_oldest_and_reports_the_loss() {
        let mut channel = EventChannel::with_capacity_limit(3);
        assert_eq!(channel.capacity_limit(), Some(3));
        let mut cursor = channel.cursor_at_end();
        for event in 1..=5 {
            channel.send(event);
            assert!(channel.len() <= 3);
        }
        assert_eq!(channel.collect(), vec![3, 4, 5]);
        assert_eq!(channel.first_sequence(), 3);
        assert_eq!(take(&channel, &mut cursor), (vec![3, 4, 5], 2));
        channel.send(6);
        assert_eq!(take(&channel, &mut cursor), (vec![6], 0));
    }

    #[test]
    fn a_bounded_channel_at_its_limit_loses_nothing() {
        let mut channel = EventChannel::with_capacity_limit(3);
        let mut cursor = channel.cursor_at_end();
        for event in 1..=3 {
            channel.send(event);
        }
        assert_eq!(take(&channel, &mut cursor), (vec![1, 2, 3], 0));
    }

    #[test]
    fn a_zero_limit_channel_loses_every_event() {
        let mut channel = EventChannel::with_capacity_limit(0);
        let mut cursor = channel.cursor_at_end();
        assert_eq!(channel.send(7), 1);
        assert_eq!(channel.send(8), 2);
        assert!(channel.is_empty());
        assert_eq!(take(&channel, &mut cursor), (vec![], 2));
    }

    #[test]
    fn clear_drops_everything_and_counts_as_lost_for_readers_behind() {
        let mut channel = channel_with([1, 2, 3]);
        let mut caught_up = EventCursor::new();
        let mut behind = EventCursor::new();
        take(&channel, &mut caught_up);
        take(&channel, &mut behind);
        channel.send(4);
        channel.send(5);
        take(&channel, &mut caught_up);
        channel.clear();
        assert!(channel.is_empty());
        assert_eq!(channel.read().count(), 0);
        assert_eq!(take(&channel, &mut caught_up), (vec![], 0));
        assert_eq!(take(&channel, &mut behind), (vec![], 2));
        channel.send(6);
        assert_eq!(take(&channel, &mut behind), (vec![6], 0));
    }

    #[test]
    fn clear_mid_frame_does_not_upset_expiry() {
        let mut channel = channel_with([1, 2]);
        channel.clear();
        channel.send(3);
        channel.update();
        assert_eq!(channel.collect(), vec![3], "3 lives into the next frame");
        channel.update();
        assert!(channel.is_empty());
    }

    #[test]
    fn trim_to_keeps_the_newest() {
        let mut channel = channel_with(1..=5);
        channel.trim_to(10);
        assert_eq!(channel.len(), 5, "keeping more than stored is a no-op");
        channel.trim_to(2);
        assert_eq!(channel.collect(), vec![4, 5]);
        assert_eq!(channel.first_sequence(), 4);
        channel.trim_to(0);
        assert!(channel.is_empty());
        assert_eq!(channel.first_sequence(), 6);
    }

    #[test]
    fn trimming_the_previous_frame_then_updating_expires_only_what_is_left_of_it() {
        let mut channel = channel_with([1, 2, 3]);
        channel.update();
        channel.send(4);
        channel.trim_to(2); // 3 (previous frame) and 4 (this frame) are left.
        channel.update();
        assert_eq!(channel.collect(), vec![4]);
    }

    #[test]
    fn cursor_at_end_sees_only_later_events() {
        let mut channel = channel_with([1, 2]);
        let mut cursor = channel.cursor_at_end();
        assert!(!cursor.is_fresh());
        assert_eq!(channel.unread_count(&cursor), 0);
        assert_eq!(take(&channel, &mut cursor), (vec![], 0));
        channel.send(3);
        assert_eq!(take(&channel, &mut cursor), (vec![3], 0));
    }

    #[test]
    fn cursor_at_end_of_a_fresh_channel_is_not_fresh() {
        let mut channel = EventChannel::new();
        let mut cursor = channel.cursor_at_end();
        assert!(!cursor.is_fresh());
        channel.send(1);
        channel.update();
        channel.update();
        assert_eq!(take(&channel, &mut cursor), (vec![], 1));
    }

    #[test]
    fn unread_count_matches_what_consume_would_hand_out() {
        let mut channel = channel_with([1, 2, 3]);
        let mut cursor = EventCursor::new();
        assert_eq!(channel.unread_count(&cursor), 3);
        take(&channel, &mut cursor);
        assert_eq!(channel.unread_count(&cursor), 0);
        channel.send(4);
        channel.send(5);
        assert_eq!(channel.unread_count(&cursor), 2);
        channel.trim_to(1);
        assert_eq!(channel.unread_count(&cursor), 1);
        assert_eq!(channel.consume(&mut cursor).len(), 1);
    }

    #[test]
    fn a_cursor_past_the_end_reads_every_stored_event() {
        // A cursor that read a longer channel (the world before a snapshot was loaded).
        let mut before = EventChannel::new();
        let mut cursor = EventCursor::new();
        for value in 0..5 {
            before.send(value);
        }
        assert_eq!(take(&before, &mut cursor).0.len(), 5);
        let mut restarted = EventChannel::new();
        restarted.send(10);
        restarted.send(11);
        assert_eq!(restarted.unread_count(&cursor), 2);
        assert_eq!(take(&restarted, &mut cursor), (vec![10, 11], 0));
        restarted.send(12);
        assert_eq!(
            take(&restarted, &mut cursor),
            (vec![12], 0),
            "and follows it from there"
        );
    }

    #[test]
    fn a_channel_started_at_a_sequence_serves_cursors_from_before() {
        let mut saved = EventChannel::new();
        let mut cursor = EventCursor::new();
        let mut behind = EventCursor::new();
        saved.send(1);
        take(&saved, &mut behind);
        saved.send(2);
        saved.send(3);
        take(&saved, &mut cursor);
        let mut loaded = EventChannel::new();
        assert!(loaded.start_numbering_at(saved.next_sequence()));
        loaded.send(4);
        assert_eq!(take(&loaded, &mut cursor), (vec![4], 0));
        assert_eq!(
            take(&loaded, &mut behind),
            (vec![4], 2),
            "2 and 3 were not saved"
        );
        assert!(!loaded.start_numbering_at(1), "holds an event");
        let mut empty = EventChannel::<u32>::new();
        assert!(!empty.start_numbering_at(0));
        assert!(!empty.start_numbering_at(EventChannel::<u32>::MAX_START + 1));
    }

    #[test]
    fn read_and_collect_do_not_move_cursors() {
        let channel = channel_with([1, 2, 3]);
        assert_eq!(channel.read().copied().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(channel.read().len(), 3);
        assert_eq!(channel.read().next_back(), Some(&3));
        assert_eq!(channel.collect(), vec![1, 2, 3]);
        let mut cursor = EventCursor::new();
        assert_eq!(take(&channel, &mut cursor), (vec![1, 2, 3], 0));
        assert_eq!(
            channel.collect(),
            vec![1, 2, 3],
            "consuming removes nothing"
        );
    }

    #[test]
    fn consumed_iterates_by_value_by_reference_and_repeatedly() {
        let channel = channel_with([1, 2, 3]);
        let mut cursor = EventCursor::new();
        let consumed = channel.consume(&mut cursor);
        assert_eq!(consumed.len(), 3);
        assert!(!consumed.is_empty());
        let mut by_reference = Vec::new();
        for event in &consumed {
            by_reference.push(*event);
        }
        assert_eq!(by_reference, vec![1, 2, 3]);
        assert_eq!(consumed.iter().sum::<u32>(), 6, "iter again after &");
        let copy = consumed.clone();
        let by_value: Vec<u32> = consumed.into_iter().copied().collect();
        assert_eq!(by_value, vec![1, 2, 3]);
        assert_eq!(copy.len(), 3);
        assert!(channel.consume(&mut cursor).is_empty());
    }

    #[test]
    fn consumed_outlives_the_cursor_borrow() {
        let channel = channel_with([1]);
        let mut cursor = EventCursor::new();
        let consumed = channel.consume(&mut cursor);
        // The cursor is usable while `consumed` is alive: it only borrows the channel.
        assert_eq!(channel.unread_count(&cursor), 0);
        assert_eq!(consumed.len(), 1);
    }

    #[test]
    fn events_need_not_be_clone_or_copy() {
        struct Unique(u32);
        let mut channel = EventChannel::new();
        channel.send(Unique(4));
        let mut cursor = EventCursor::new();
        let consumed = channel.consume(&mut cursor);
        let copy = consumed.clone();
        assert_eq!(copy.iter().map(|event| event.0).sum::<u32>(), 4);
    }
}
