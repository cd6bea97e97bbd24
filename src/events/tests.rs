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
