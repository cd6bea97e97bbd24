//! Save games: a world written to JSON (text) and to postcard (compact binary) and loaded back
//! exactly, with the feature `serde`.
//!
//! `world.snapshot()` borrows the world for any serde format (nothing is copied first), and a
//! world is `Deserialize` itself. A snapshot keeps every entity with its handle, every
//! component, tag and resource, and the ticks, so handles stored in components or resources
//! still point at the same entities after loading, and the loaded world goes on exactly as the
//! saved one would have (the same handles from the next spawns). Events, the change log and
//! queued commands are not saved. Loading checks everything: a damaged save is an error that
//! says what is wrong, never a panic and never a half-loaded world.
//!
//! `cargo run --example save_load --features serde`

use archetypal::{Entity, SnapshotData, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Name(pub String);

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub u32);

/// A component holding a handle: it must name the same entity after loading.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Follows(pub Entity);

ecs! {
    World {
        position: Position => POSITION,
        name: Name => NAME,
        health: Health => HEALTH,
        follows: Follows => FOLLOWS,
    }
    Tags {
        player => PLAYER,
    }
    Resources {
        /// Seconds played: saved with the world.
        play_time: f64,
        /// The entity the camera looks at.
        camera_target: Option<Entity>,
    }
}

/// A party of three, a few monsters (one killed: its id is free for the next spawn), some
/// frames played.
fn play_a_little() -> World {
    let mut world = World::new();
    let party = world.spawn_batch(POSITION | NAME | HEALTH | PLAYER, 3, |table, index| {
        table.name[index] = Name(["Ayla", "Bram", "Cato"][index].to_string());
        table.health[index] = Health(100 - 10 * index as u32);
    });
    for &companion in &party[1..] {
        world.set_follows(companion, Follows(party[0]));
    }
    let monsters = world.spawn_batch(POSITION | HEALTH, 4, |table, index| {
        table.position[index] = Position {
            x: 10.0 * index as f32,
            y: 5.0,
        };
        table.health[index] = Health(30);
    });
    world.despawn(monsters[2]);
    world.resources.camera_target = Some(party[0]);
    for _ in 0..3 {
        if let Some(position) = world.get_position_mut(party[0]) {
            position.x += 1.5;
        }
        world.resources.play_time += 1.0 / 60.0;
        world.step();
    }
    world
}

/// What the game shows of a world: every entity with its components and tags, the resources.
fn describe(world: &World) -> String {
    let mut text = format!(
        "tick {:?}, played {:.3} s, camera on {:?}\n",
        world.current_tick(),
        world.resources.play_time,
        world.resources.camera_target
    );
    for entity in world.entities().collect::<Vec<_>>() {
        text += &format!(
            "  {entity:?}: {:?} {:?} {:?} {:?} player={}\n",
            world.get_position(entity),
            world.get_name(entity).map(|name| name.0.as_str()),
            world.get_health(entity),
            world.get_follows(entity),
            world.has_player(entity),
        );
    }
    text
}

fn main() {
    let world = play_a_little();
    let saved = describe(&world);
    print!("the world saved:\n{saved}");

    // Text: readable, diffable, larger.
    let json = serde_json::to_string(&world.snapshot()).expect("every type serializes");
    let from_json: World = serde_json::from_str(&json).expect("a save loads");
    // Binary: compact. postcard is not self-describing, and loads the same.
    let bytes = postcard::to_allocvec(&world.snapshot()).expect("every type serializes");
    let from_postcard: World = postcard::from_bytes(&bytes).expect("a save loads");
    println!(
        "JSON: {} bytes, postcard: {} bytes; both load back the same world",
        json.len(),
        bytes.len()
    );

    for loaded in [&from_json, &from_postcard] {
        assert_eq!(describe(loaded), saved);
        loaded.check_invariants().expect("a loaded world is sound");
    }
    // Saving a loaded world writes the same save.
    assert_eq!(serde_json::to_string(&from_json.snapshot()).unwrap(), json);

    // The loaded world goes on as the saved one would: the same handles from the next spawns
    // (the killed monster's id is recycled first, with its next generation).
    let mut original = world;
    let mut loaded = from_postcard;
    for mask in [POSITION | HEALTH, NAME] {
        let (expected, got) = (original.spawn(mask), loaded.spawn(mask));
        assert_eq!(got, expected);
        println!("next spawn after loading: {got:?}, as in the original");
    }

    // Loading in two steps: decode, then check (`World::from_snapshot`), for a game that wants
    // the reason a save was refused.
    let data: SnapshotData<World> = serde_json::from_str(&json).expect("the JSON decodes");
    assert!(World::from_snapshot(data).is_ok());
    // A damaged save (cut in half, as by a full disk) is refused with a reason.
    let damaged = postcard::from_bytes::<World>(&bytes[..bytes.len() / 2]);
    assert!(damaged.is_err());
    println!("a save cut in half: {}", damaged.err().unwrap());
    let tampered = json.replacen("\"player\"", "\"boss\"", 1);
    let refused = serde_json::from_str::<World>(&tampered);
    assert!(refused.is_err());
    println!(
        "a save naming a tag the world does not have: {}",
        refused.err().unwrap()
    );
}
