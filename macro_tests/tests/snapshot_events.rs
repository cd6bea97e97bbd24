//! Event channels declared `[saved]` through a snapshot (format 7), from the user's side: their
//! events load back exactly (the events, their sequence numbers, which of them expire at the
//! next `step()`, the capacity limit), so a system's reader reads after the load exactly what it
//! had not read; a channel not declared `[saved]` keeps only its numbering, and its event type
//! need not be serde; a snapshot whose saved events are corrupt or inconsistent is refused with
//! the reason, never a panic. A multi-world game's saved channels go the same way.

use archetypal::{EventReader, MultiWorldSnapshotData, Schedule, SnapshotData, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub i32);

/// A saved event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub damage: i32,
    pub note: String,
}

/// An event type that is not serde: its channel is not saved, so that is fine.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound(pub &'static str);

ecs! {
    World {
        health: Health => HEALTH,
    }
    Events {
        hit: Hit [saved],
        sound: Sound,
        /// Documented and saved.
        ping: u8 [saved],
    }
    Resources {
        /// What the `damage` system read, in order.
        read: Vec<i32>,
    }
}

fn hit(damage: i32) -> Hit {
    Hit {
        damage,
        note: format!("hit {damage}"),
    }
}

fn damage(mut hits: EventReader<Hit>, mut read: archetypal::ResMut<Vec<i32>>) {
    for hit in hits.read() {
        read.push(hit.damage);
    }
}

/// A world whose channels hold events of two frames (some read by `damage`, some not), with a
/// bounded `ping` channel that trimmed some, and a `sound` channel numbered on.
fn world_with_events() -> (World, Schedule<World>) {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(damage);
    world.events.ping.set_capacity_limit(Some(3));
    world.events.hit.send(hit(1));
    world.events.sound.send(Sound("boom"));
    schedule.run(&mut world); // reads 1
    world.step();
    world.events.hit.send(hit(2));
    world.events.hit.send(hit(3));
    for ping in 0..5 {
        world.events.ping.send(ping);
    }
    (world, schedule)
}

fn json_round_trip(world: &World) -> World {
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    let data: SnapshotData<World> = serde_json::from_str(&text).unwrap();
    World::from_snapshot(data).unwrap()
}

fn postcard_round_trip(world: &World) -> World {
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let data: SnapshotData<World> = postcard::from_bytes(&bytes).unwrap();
    World::from_snapshot(data).unwrap()
}

/// Everything a channel holds that a snapshot keeps.
fn channel_state<E: Clone>(
    channel: &archetypal::EventChannel<E>,
) -> (u64, u64, Option<usize>, Vec<E>) {
    (
        channel.first_sequence(),
        channel.next_sequence(),
        channel.capacity_limit(),
        channel.collect(),
    )
}

#[test]
fn saved_channels_load_back_exactly_in_both_formats() {
    let (world, _) = world_with_events();
    for loaded in [json_round_trip(&world), postcard_round_trip(&world)] {
        assert_eq!(
            channel_state(&loaded.events.hit),
            channel_state(&world.events.hit)
        );
        assert_eq!(
            channel_state(&loaded.events.ping),
            channel_state(&world.events.ping)
        );
        assert_eq!(
            loaded.events.ping.collect(),
            vec![2, 3, 4],
            "trimmed to its limit"
        );
        // Not saved: empty, numbered on.
        assert!(loaded.events.sound.is_empty());
        assert_eq!(
            loaded.events.sound.next_sequence(),
            world.events.sound.next_sequence()
        );
        // The same snapshot again.
        assert_eq!(
            serde_json::to_string(&loaded.snapshot()).unwrap(),
            serde_json::to_string(&world.snapshot()).unwrap()
        );
    }
}

#[test]
fn the_json_lists_each_saved_channel_with_its_numbering() {
    let (world, _) = world_with_events();
    let value = serde_json::to_value(world.snapshot()).unwrap();
    assert_eq!(value["version"], 7);
    assert_eq!(
        value["events"],
        serde_json::json!({
            "hit": [1, 2, null, [
                {"damage": 1, "note": "hit 1"},
                {"damage": 2, "note": "hit 2"},
                {"damage": 3, "note": "hit 3"},
            ]],
            "ping": [3, 1, 3, [2, 3, 4]],
        })
    );
}

/// The same frames after the load as on the saving world: the reader reads exactly what it had
/// not read (2 and 3, not 1 again), and the next `step()` expires the same events.
#[test]
fn a_reader_after_the_load_reads_exactly_the_unread_events() {
    let (mut world, mut schedule) = world_with_events();
    let mut loaded = postcard_round_trip(&world);
    let mut loaded_schedule = Schedule::new();
    loaded_schedule.add(damage);
    for (world, schedule) in [
        (&mut world, &mut schedule),
        (&mut loaded, &mut loaded_schedule),
    ] {
        schedule.run(world);
        assert_eq!(world.resources.read, vec![1, 2, 3]);
        world.step();
        world.step();
        assert!(world.events.hit.is_empty(), "expired two frames after");
        world.events.hit.send(hit(4));
        schedule.run(world);
        assert_eq!(world.resources.read, vec![1, 2, 3, 4]);
    }
    assert_eq!(
        serde_json::to_string(&loaded.snapshot()).unwrap(),
        serde_json::to_string(&world.snapshot()).unwrap()
    );
}

/// Edits the JSON snapshot of [`world_with_events`] and loads it, expecting a refusal that says
/// `reason`.
fn refused(edit: impl FnOnce(&mut serde_json::Value), reason: &str) {
    let (world, _) = world_with_events();
    let mut value = serde_json::to_value(world.snapshot()).unwrap();
    edit(&mut value);
    let text = value.to_string();
    let error = match serde_json::from_str::<SnapshotData<World>>(&text) {
        Err(error) => error.to_string(),
        Ok(data) => World::from_snapshot(data).err().expect(reason).to_string(),
    };
    assert!(error.contains(reason), "{error} (expected: {reason})");
}

#[test]
fn inconsistent_saved_events_are_refused() {
    refused(
        |v| v["events"]["hit"][0] = 0.into(),
        "`hit`: its numbering is out of range",
    );
    refused(
        |v| v["events"]["hit"][0] = (1u64 << 62).into(),
        "`hit`: its numbering is out of range",
    );
    refused(
        |v| v["events"]["hit"][1] = 9.into(),
        "`hit`: its frame start",
    );
    refused(
        |v| v["events"]["ping"][2] = 2.into(),
        "more events than its capacity limit",
    );
    refused(
        |v| {
            v["events"]["hit"][3]
                .as_array_mut()
                .unwrap()
                .pop()
                .map(drop)
                .unwrap()
        },
        "no event channel `hit` can start at sequence 4",
    );
    refused(
        |v| v["events"]["sound"] = serde_json::json!([1, 1, null, []]),
        "unknown saved event channel `sound`",
    );
    refused(
        |v| drop(v["events"].as_object_mut().unwrap().remove("ping")),
        "no events for the saved channel `ping`",
    );
    refused(|v| v["events"]["hit"][3][0] = "x".into(), "invalid type");
    refused(
        |v| v["events"]["hit"].as_array_mut().unwrap().push(0.into()),
        "invalid length",
    );
    refused(
        |v| drop(v.as_object_mut().unwrap().remove("events")),
        "missing field `events`",
    );
    refused(
        |v| v["version"] = 6.into(),
        "snapshot version 6 is not supported (this build reads version 7)",
    );
}

/// postcard, truncated anywhere, or with a channel's event count claiming billions: refused,
/// nothing sized by the claim.
#[test]
fn corrupt_binary_saved_events_are_refused() {
    let (world, _) = world_with_events();
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    for end in 0..bytes.len() {
        let data = postcard::from_bytes::<SnapshotData<World>>(&bytes[..end]);
        assert!(
            data.is_err(),
            "a snapshot cut at {end} of {} bytes",
            bytes.len()
        );
    }
    // The `ping` channel ends the events: [3, 1, Some(3), [2, 3, 4]], then `systems`. Its event
    // count is the byte 3 before the events 2, 3, 4; claim u32::MAX events instead.
    let ping = bytes
        .windows(7)
        .rposition(|window| window == [3, 1, 1, 3, 3, 2, 3])
        .expect("the ping channel's bytes");
    let mut claim = bytes.clone();
    claim.splice(ping + 4..ping + 5, [0xff, 0xff, 0xff, 0xff, 0x0f]);
    assert!(postcard::from_bytes::<SnapshotData<World>>(&claim).is_err());
}

mod game {
    use super::{Health, Hit, Sound};
    use archetypal::ecs;

    ecs! {
        Game {
            Core {
                health: Health => HEALTH,
            }
        }
        Events {
            hit: Hit [saved],
            sound: Sound,
        }
    }
}

#[test]
fn a_games_saved_channels_load_back_exactly() {
    use game::Game;
    let mut game = Game::new();
    game.spawn();
    game.events.hit.send(hit(5));
    game.step();
    game.events.hit.send(hit(6));
    game.events.sound.send(Sound("ding"));
    let text = serde_json::to_string(&game.snapshot()).unwrap();
    let data: MultiWorldSnapshotData<Game> = serde_json::from_str(&text).unwrap();
    let mut loaded = Game::from_snapshot(data).unwrap();
    assert_eq!(
        channel_state(&loaded.events.hit),
        channel_state(&game.events.hit)
    );
    assert!(loaded.events.sound.is_empty());
    assert_eq!(serde_json::to_string(&loaded.snapshot()).unwrap(), text);
    loaded.step();
    assert_eq!(
        loaded.events.hit.collect(),
        vec![hit(6)],
        "5 expired as on the saving game"
    );
    let bytes = postcard::to_allocvec(&game.snapshot()).unwrap();
    let data: MultiWorldSnapshotData<Game> = postcard::from_bytes(&bytes).unwrap();
    let loaded = Game::from_snapshot(data).unwrap();
    assert_eq!(
        channel_state(&loaded.events.hit),
        channel_state(&game.events.hit)
    );
}
