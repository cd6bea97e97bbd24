//! The crate's checksum from the user's side (`world.snapshot().checksum()`): equal worlds hash
//! equal, however they were made (a clone, a restore, a loaded snapshot); any change to a
//! component, tag, relation, resource, saved event, event numbering, change tick or what a
//! system remembers changes it; and a tiny world's checksum is pinned, so it is the same on
//! every run and machine.

use archetypal::{Changed, EventReader, ResMut, Schedule, SnapshotData, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: i32,
    pub y: i32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub i32);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit(pub i32);

/// Not serde: its channel is not saved, and the world still has a checksum.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound;

ecs! {
    World {
        position: Position => POSITION,
        health: Health => HEALTH,
    }
    Tags {
        player => PLAYER,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
    Events {
        hit: Hit [saved],
        sound: Sound,
    }
    Resources {
        frame: u64,
        damage_taken: i32,
    }
}

fn damage(mut hits: EventReader<Hit>, mut taken: ResMut<i32>) {
    for hit in hits.read() {
        *taken += hit.0;
    }
}

fn healed(mut changed: Query<&Health, Changed<Health>>, mut frame: ResMut<u64>) {
    changed.for_each(|_| *frame += 1);
}

/// The same world, every time: entities with components, a tag, a link, a resource, events
/// (some read by a system), a few frames.
fn world() -> (World, Schedule<World>) {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add((damage, healed));
    let parent = world.spawn(POSITION | HEALTH);
    let child = world.spawn(POSITION);
    world.set_position(child, Position { x: 3, y: 4 });
    world.set_health(parent, Health(10));
    world.add_player(parent);
    world.set_child_of(child, parent).unwrap();
    world.events.hit.send(Hit(2));
    schedule.run(&mut world);
    world.step();
    world.events.hit.send(Hit(5));
    (world, schedule)
}

fn checksum(world: &World) -> u64 {
    world.snapshot().checksum()
}

#[test]
fn equal_worlds_hash_equal() {
    let (first, _) = world();
    let (second, _) = world();
    assert_eq!(checksum(&first), checksum(&second));
    assert_eq!(checksum(&first), checksum(&first), "the same every time");
}

#[test]
fn a_clone_a_restore_and_a_loaded_snapshot_hash_like_the_original() {
    let (original, _) = world();
    let expected = checksum(&original);
    assert_eq!(checksum(&original.clone()), expected);
    let mut restored = World::new();
    restored.spawn_entities(HEALTH, 5);
    restored.restore(&original);
    assert_eq!(checksum(&restored), expected);
    let bytes = postcard::to_allocvec(&original.snapshot()).unwrap();
    let loaded = World::from_snapshot(postcard::from_bytes::<SnapshotData<World>>(&bytes).unwrap());
    assert_eq!(checksum(&loaded.unwrap()), expected);
}

/// A change made to a copy of the world.
type Change = Box<dyn Fn(&mut World)>;

/// Every kind of change, each on a fresh copy of the same world: each hashes apart from the
/// original and from every other.
#[test]
fn any_change_changes_the_checksum() {
    let (original, schedule) = world();
    let parent = original
        .typed_query_ref::<archetypal::Entity>()
        .with(PLAYER)
        .iter()
        .next()
        .unwrap();
    let child = original.get_children(parent)[0];
    let changes: Vec<(&str, Change)> = vec![
        (
            "a component value",
            Box::new(move |w| assert!(w.set_position(child, Position { x: 3, y: 5 }))),
        ),
        (
            "a component added",
            Box::new(move |w| assert!(w.set_health(child, Health(0)))),
        ),
        ("a tag", Box::new(move |w| assert!(w.add_player(child)))),
        (
            "a tag removed",
            Box::new(move |w| assert!(w.remove_player(parent))),
        ),
        (
            "a relation",
            Box::new(move |w| assert!(w.remove_child_of(child).is_some())),
        ),
        ("a resource", Box::new(|w| w.resources.frame += 1)),
        (
            "a saved event",
            Box::new(|w| assert_eq!(w.events.hit.send(Hit(5)), 3)),
        ),
        (
            "an unsaved event's numbering",
            Box::new(|w| assert_eq!(w.events.sound.send(Sound), 1)),
        ),
        (
            "a change tick (the same value written)",
            Box::new(move |w| assert!(w.set_health(parent, Health(10)))),
        ),
        ("a spawn", Box::new(|w| assert!(w.spawn(POSITION).id > 0))),
        ("a despawn", Box::new(move |w| assert!(w.despawn(child)))),
        ("a frame's end", Box::new(|w| w.step())),
    ];
    let mut seen = vec![("the original", checksum(&original))];
    for (change, apply) in &changes {
        let mut changed = original.clone();
        apply(&mut changed);
        let hash = checksum(&changed);
        for (other, other_hash) in &seen {
            assert_ne!(hash, *other_hash, "{change} hashes like {other}");
        }
        seen.push((change, hash));
    }
    // A system's cursor: the damage system reads the second hit, nothing else but its memory
    // and what it writes changes; put the resource back, and only the cursor differs.
    let mut read = original.clone();
    let mut schedule = schedule;
    schedule.run(&mut read);
    read.resources.damage_taken = original.resources.damage_taken;
    read.resources.frame = original.resources.frame;
    assert_ne!(
        checksum(&read),
        checksum(&original),
        "a reader's cursor and last run"
    );
}

mod tiny {
    archetypal::ecs! {
        World {
            value: u32 => VALUE,
        }
    }
}

/// One entity, one `u32` component of 7: its checksum, worked out from the documented rules
/// (`archetypal::checksum`) over the documented snapshot layout, by a separate program (a few
/// lines of Python, in the comment below) that shares no code with the crate. A change to the
/// algorithm, the word rules or the snapshot's layout changes it, and must say so here.
///
/// The words: version 7, tick 1, last_tick 0; generations [(0, 1)]: 0, 1, 2 (the pair's
/// count), 1 (the list's); free: an empty byte string, 0; tables: "entities" (8, its bytes),
/// its ids as one byte string of 4 bytes (4, 0), "value" (5, its bytes), the column [7] (7, 1),
/// 2 entries, 1 table; change_ticks: "value", changed [(1, 1)] (1, 1, 2, 1), added the same, 2
/// fields, 1 column, 1 table; tags, relations, resources: 0 each; change_log_sequence 1;
/// event_sequences, events, systems: 0 each; 14 fields. 39 words.
///
/// ```text
/// M = 2**64 - 1
/// def text(s):
///     b = s.encode(); out = [len(b)]
///     for i in range(0, len(b), 8):
///         out.append(int.from_bytes(b[i:i + 8].ljust(8, b"\0"), "little"))
///     return out
/// words = [7, 1, 0, 0, 1, 2, 1, 0] + text("entities") + [4, 0] + text("value") + [7, 1, 2, 1]
/// words += text("value") + [1, 1, 2, 1, 1, 1, 2, 1, 2, 1, 1] + [0, 0, 0, 1, 0, 0, 0, 14]
/// s = 0xcbf29ce484222325
/// for w in words:
///     s = ((((s << 5) | (s >> 59)) & M ^ w) * 0x517cc1b727220a95) & M
/// h = s ^ len(words)
/// h ^= h >> 33; h = h * 0xff51afd7ed558ccd & M; h ^= h >> 33
/// h = h * 0xc4ceb9fe1a85ec53 & M; h ^= h >> 33
/// ```
#[test]
fn a_tiny_worlds_checksum_is_pinned() {
    let mut world = tiny::World::new();
    let entity = world.spawn(tiny::VALUE);
    world.set_value(entity, 7);
    assert_eq!(world.snapshot().checksum(), 0xa19a_1793_fddc_6aaa);
}
