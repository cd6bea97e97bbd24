//! Events: `Events { collision: CollisionEvent, ... }` channels in `world.events`.
//!
//! Every per-event method (`send_`, `consume_`, `read_`, `collect_`, `clear_`, `len_`,
//! `is_empty_`), cursors read independently and each event exactly once, a lagging cursor is
//! told how many events it lost, events live two frames (`step()` ends one), and an event type
//! that is not `Clone` works with everything but `collect_`.

use archetypal::{Consumed, Entity, EventChannel, EventCursor, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollisionEvent {
    pub a: Entity,
    pub b: Entity,
}

/// Neither `Clone` nor `Copy` nor `Default`.
#[derive(Debug, PartialEq, Eq)]
pub struct Token(pub Box<u32>);

ecs! {
    World {
        position: Position => POSITION,
    }
    Events {
        collision: CollisionEvent,
        score: u32,
        token: Token,
    }
    Resources {
        score_cursor: EventCursor,
    }
}

/// The events a cursor consumes from the `score` channel, with the lost count.
fn take(world: &World, cursor: &mut EventCursor) -> (Vec<u32>, u64) {
    let consumed = world.events.score.consume(cursor);
    let lost = consumed.lost();
    (consumed.into_iter().copied().collect(), lost)
}

fn scores(world: &World) -> Vec<u32> {
    world.events.score.read().copied().collect()
}

fn hit(a: u32, b: u32) -> CollisionEvent {
    CollisionEvent {
        a: Entity::new(a, 0),
        b: Entity::new(b, 0),
    }
}

#[test]
fn a_new_world_has_empty_typed_channels() {
    let world = World::new();
    let collisions: &EventChannel<CollisionEvent> = &world.events.collision;
    let score: &EventChannel<u32> = &world.events.score;
    let tokens: &EventChannel<Token> = &world.events.token;
    assert!(collisions.is_empty() && score.is_empty() && tokens.is_empty());
    let _: &WorldEvents = &world.events;
    let _: &Events = &world.events;
    assert_eq!(world.events.collision.len(), 0);
    assert!(world.events.collision.is_empty());
    assert!(world.events.score.is_empty() && world.events.token.is_empty());
    assert_eq!(world.events.collision.read().count(), 0);
    assert!(world.events.collision.collect().is_empty());
    let mut cursor = EventCursor::new();
    let consumed = world.events.collision.consume(&mut cursor);
    assert!(consumed.is_empty());
    assert_eq!(consumed.lost(), 0);
}

#[test]
fn send_read_collect_len_and_is_empty() {
    let mut world = World::new();
    world.events.collision.send(hit(1, 2));
    world.events.collision.send(hit(3, 4));
    world.events.collision.send(hit(1, 2));
    assert_eq!(world.events.collision.len(), 3);
    assert!(!world.events.collision.is_empty());
    let read: Vec<CollisionEvent> = world.events.collision.read().copied().collect();
    assert_eq!(read, vec![hit(1, 2), hit(3, 4), hit(1, 2)], "send order");
    assert_eq!(world.events.collision.collect(), read);
    assert_eq!(
        world.events.collision.read().copied().collect::<Vec<_>>(),
        read,
        "the world's methods and its channel agree"
    );
    // Reading is not consuming.
    assert_eq!(world.events.collision.len(), 3);
    assert_eq!(world.events.collision.read().count(), 3);
    // Channels are independent.
    assert!(world.events.score.is_empty());
    world.events.score.send(7);
    assert_eq!(world.events.score.len(), 1);
    assert_eq!(world.events.collision.len(), 3);
    assert_eq!(world.events.score.collect(), vec![7]);
}

#[test]
fn consumed_iterates_by_value_and_by_reference_and_counts() {
    let mut world = World::new();
    for score in [10, 20, 30] {
        world.events.score.send(score);
    }
    let mut cursor = EventCursor::default();
    assert!(cursor.is_fresh());
    let consumed: Consumed<'_, u32> = world.events.score.consume(&mut cursor);
    assert!(!cursor.is_fresh());
    assert_eq!(consumed.len(), 3);
    assert!(!consumed.is_empty());
    assert_eq!(consumed.lost(), 0);
    let mut by_reference = Vec::new();
    for &score in &consumed {
        by_reference.push(score);
    }
    assert_eq!(consumed.iter().copied().collect::<Vec<_>>(), by_reference);
    let by_value: Vec<u32> = consumed.into_iter().copied().collect();
    assert_eq!(by_value, vec![10, 20, 30]);
    assert_eq!(by_reference, by_value);
    assert!(
        world.events.score.consume(&mut cursor).is_empty(),
        "each event once per cursor"
    );
    assert_eq!(world.events.score.len(), 3, "consuming does not remove");
}

#[test]
fn two_consumers_each_see_every_event_exactly_once() {
    let mut world = World::new();
    // `after` reads after the frame's sends, `before` before them: with events living two
    // frames both see everything, in send order.
    let mut after = EventCursor::new();
    let mut before = EventCursor::new();
    let (mut after_seen, mut before_seen) = (Vec::new(), Vec::new());
    let mut sent = Vec::new();
    let mut next = 0u32;
    for frame in 0..12u32 {
        let (seen, lost) = take(&world, &mut before);
        assert_eq!(lost, 0, "frame {frame}");
        before_seen.extend(seen);
        // 0, 1, 2 or 3 events per frame.
        for _ in 0..frame % 4 {
            world.events.score.send(next);
            sent.push(next);
            next += 1;
        }
        if frame % 3 == 0 {
            // A mid-frame read, then more sends: the later ones come at the next read.
            let (seen, lost) = take(&world, &mut after);
            assert_eq!(lost, 0);
            after_seen.extend(seen);
            world.events.score.send(next);
            sent.push(next);
            next += 1;
        }
        let (seen, lost) = take(&world, &mut after);
        assert_eq!(lost, 0, "frame {frame}");
        after_seen.extend(seen);
        world.step();
    }
    let (seen, lost) = take(&world, &mut before);
    assert_eq!(lost, 0);
    before_seen.extend(seen);
    assert!(sent.len() > 15, "a real stream: {sent:?}");
    assert_eq!(after_seen, sent);
    assert_eq!(before_seen, sent);
}

#[test]
fn a_lagging_consumer_is_told_how_many_it_lost_and_gets_the_rest() {
    let mut world = World::new();
    let mut laggard = EventCursor::new();
    let mut keeper = EventCursor::new();

    // Frame 1.
    world.events.score.send(1);
    assert_eq!(take(&world, &mut laggard), (vec![1], 0));
    world.events.score.send(2);
    world.events.score.send(3);
    assert_eq!(take(&world, &mut keeper), (vec![1, 2, 3], 0));
    world.step();
    // Frame 2: the laggard does not read.
    world.events.score.send(4);
    assert_eq!(take(&world, &mut keeper), (vec![4], 0));
    world.step(); // 2 and 3 expire, unread by the laggard.
    // Frame 3.
    world.events.score.send(5);
    assert_eq!(scores(&world), vec![4, 5]);
    assert_eq!(
        take(&world, &mut laggard),
        (vec![4, 5], 2),
        "two lost, the rest delivered"
    );
    assert_eq!(
        take(&world, &mut laggard),
        (vec![], 0),
        "the loss is reported once"
    );
    assert_eq!(take(&world, &mut keeper), (vec![5], 0));
    world.events.score.send(6);
    assert_eq!(take(&world, &mut laggard), (vec![6], 0));
}

#[test]
fn a_consumer_that_lags_past_everything_gets_only_the_count() {
    let mut world = World::new();
    let mut cursor = EventCursor::new();
    assert_eq!(take(&world, &mut cursor), (vec![], 0), "reads nothing yet");
    for score in 0..5 {
        world.events.score.send(score);
    }
    world.step();
    world.step();
    world.step();
    let consumed = world.events.score.consume(&mut cursor);
    assert!(consumed.is_empty());
    assert_eq!(consumed.lost(), 5);
    world.events.score.send(9);
    assert_eq!(take(&world, &mut cursor), (vec![9], 0));
}

#[test]
fn a_fresh_cursor_starts_at_the_oldest_live_event_and_lost_nothing() {
    let mut world = World::new();
    world.events.score.send(1);
    world.step();
    world.events.score.send(2);
    world.step(); // 1 expires before the cursor exists.
    world.events.score.send(3);
    let mut cursor = EventCursor::new();
    assert_eq!(take(&world, &mut cursor), (vec![2, 3], 0));
}

#[test]
fn events_live_two_frames() {
    let mut world = World::new();
    world.events.collision.send(hit(1, 2));
    assert_eq!(
        world.events.collision.len(),
        1,
        "readable in the frame it was sent"
    );
    world.step();
    assert_eq!(
        world.events.collision.collect(),
        vec![hit(1, 2)],
        "and in the next one"
    );
    let mut late = EventCursor::new();
    assert_eq!(world.events.collision.consume(&mut late).len(), 1);
    world.events.collision.send(hit(3, 4));
    world.step();
    assert_eq!(
        world.events.collision.collect(),
        vec![hit(3, 4)],
        "gone after the second step; the newer one stays"
    );
    world.step();
    assert!(world.events.collision.is_empty());
    assert_eq!(world.events.collision.len(), 0);
    assert_eq!(world.events.collision.read().count(), 0);
    let consumed = world.events.collision.consume(&mut late);
    assert!(consumed.is_empty());
    assert_eq!(consumed.lost(), 1, "hit(3, 4) expired unread by `late`");
    // Stepping an empty world changes nothing.
    world.step();
    world.step();
    assert!(world.events.collision.is_empty());
    world.events.collision.send(hit(5, 6));
    assert_eq!(world.events.collision.collect(), vec![hit(5, 6)]);
}

#[test]
fn increment_tick_does_not_expire_events() {
    let mut world = World::new();
    world.events.score.send(1);
    for _ in 0..5 {
        world.increment_tick();
    }
    assert_eq!(scores(&world), vec![1], "only step() ends a frame");
    world.step();
    world.increment_tick();
    assert_eq!(scores(&world), vec![1]);
    world.step();
    assert!(world.events.score.is_empty());
}

#[test]
fn every_channel_ages_on_step() {
    let mut world = World::new();
    world.events.collision.send(hit(1, 1));
    world.events.score.send(1);
    world.events.token.send(Token(Box::new(1)));
    world.step();
    world.events.score.send(2);
    world.step();
    assert!(world.events.collision.is_empty());
    assert!(world.events.token.is_empty());
    assert_eq!(scores(&world), vec![2]);
}

#[test]
fn clear_drops_everything_and_unread_cursors_count_it_lost() {
    let mut world = World::new();
    let mut reader = EventCursor::new();
    let mut idle = EventCursor::new();
    assert_eq!(take(&world, &mut idle), (vec![], 0));
    world.events.score.send(1);
    world.events.score.send(2);
    assert_eq!(take(&world, &mut reader), (vec![1, 2], 0));
    world.events.score.send(3);
    world.events.score.clear();
    assert!(world.events.score.is_empty());
    assert_eq!(world.events.score.len(), 0);
    assert_eq!(world.events.score.read().count(), 0);
    assert!(world.events.score.collect().is_empty());
    assert_eq!(take(&world, &mut reader), (vec![], 1), "3 was never read");
    assert_eq!(take(&world, &mut idle), (vec![], 3));
    world.events.score.send(4);
    assert_eq!(take(&world, &mut reader), (vec![4], 0));
    assert_eq!(take(&world, &mut idle), (vec![4], 0));
    let mut fresh = EventCursor::new();
    assert_eq!(take(&world, &mut fresh), (vec![4], 0));
    // Clearing one channel leaves the others.
    world.events.collision.send(hit(1, 2));
    world.events.score.clear();
    assert_eq!(world.events.collision.len(), 1);
}

#[test]
fn a_bounded_channel_in_the_world_trims_and_reports_losses() {
    let mut world = World::new();
    world.events.score = EventChannel::with_capacity_limit(2);
    let mut cursor = EventCursor::new();
    assert_eq!(take(&world, &mut cursor), (vec![], 0));
    for score in 1..=5 {
        world.events.score.send(score);
    }
    assert_eq!(world.events.score.len(), 2);
    assert_eq!(scores(&world), vec![4, 5]);
    assert_eq!(take(&world, &mut cursor), (vec![4, 5], 3));
    world.step();
    world.step();
    assert!(world.events.score.is_empty());
}

#[test]
fn a_cursor_kept_in_a_resource() {
    let mut world = World::new();
    world.events.score.send(1);
    world.events.score.send(2);
    // The channel field and the resource field are disjoint borrows of the world.
    let total: u32 = world
        .events
        .score
        .consume(&mut world.resources.score_cursor)
        .into_iter()
        .sum();
    assert_eq!(total, 3);
    world.events.score.send(4);
    // Or copy the cursor out and back (`EventCursor` is `Copy`).
    let mut cursor = world.resources.score_cursor;
    let (seen, lost) = take(&world, &mut cursor);
    world.resources.score_cursor = cursor;
    assert_eq!((seen, lost), (vec![4], 0));
    assert!(world.events.score.consume(&mut cursor).is_empty());
}

#[test]
fn an_event_type_that_is_not_clone_works_except_collect() {
    let mut world = World::new();
    let mut cursor = EventCursor::new();
    world.events.token.send(Token(Box::new(1)));
    world.events.token.send(Token(Box::new(2)));
    assert_eq!(world.events.token.len(), 2);
    assert!(!world.events.token.is_empty());
    let read: Vec<u32> = world.events.token.read().map(|token| *token.0).collect();
    assert_eq!(read, vec![1, 2]);
    let consumed = world.events.token.consume(&mut cursor);
    assert_eq!(consumed.lost(), 0);
    // `Consumed` is `Clone` even when the event is not.
    let again = consumed.clone();
    assert_eq!(
        consumed.into_iter().collect::<Vec<_>>(),
        vec![&Token(Box::new(1)), &Token(Box::new(2))]
    );
    assert_eq!(again.len(), 2);
    world.step();
    world.events.token.send(Token(Box::new(3)));
    let consumed = world.events.token.consume(&mut cursor);
    assert_eq!(
        consumed.iter().map(|token| *token.0).collect::<Vec<_>>(),
        vec![3]
    );
    world.events.token.clear();
    assert!(world.events.token.is_empty());
    world.events.token.send(Token(Box::new(4)));
    world.step();
    world.step();
    let consumed = world.events.token.consume(&mut cursor);
    assert_eq!((consumed.len(), consumed.lost()), (0, 1));
    // `world.events.token.collect()` does not compile: see ui/event_collect_needs_clone.rs.
}

/// Doc comments and `#[cfg]` on events pass through: a channel compiled out may even name a
/// type that does not exist. (That every generated item is documented is checked by the
/// compile-pass case `ui/pass/cfg_and_docs.rs` under `#![deny(missing_docs)]`: rustc does not
/// run `missing_docs` on a test harness, so it could not fail here.)
mod attributed {
    archetypal::ecs! {
        World {
            position: u8 => POSITION,
        }
        Events {
            /// Hits.
            hit: u32,
            #[cfg(any())]
            phantom: DoesNotExist,
            /// Misses.
            miss: u8,
        }
    }
}

#[test]
fn an_event_compiled_out_leaves_the_others_working() {
    use attributed::*;
    let mut world = World::new();
    world.events.hit.send(1);
    world.events.miss.send(2);
    assert_eq!((world.events.hit.len(), world.events.miss.len()), (1, 1));
    world.step();
    world.events.miss.send(3);
    world.step();
    assert!(world.events.hit.is_empty());
    assert_eq!(world.events.miss.collect(), vec![3]);
}
