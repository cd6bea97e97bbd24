//! A multi-world game: two sub-worlds sharing one set of entities (what a game does past 128
//! components and tags), spawned with one builder, simulated by a schedule of systems whose
//! parameters say what they touch (a query of each sub-world, the game's resources, events and
//! command queue), rolled back with `restore`, and (feature `serde`) saved and loaded.
//!
//! A space station launches drones, docked to it in `Core`'s `docked_at` relation until they
//! are far enough out (`[cascade]`: when the station is destroyed, the drones still docked go
//! with it). `Core` holds the
//! simulation, `Render` what the screen shows. A copy is kept every few frames; a late
//! correction (the station was hit harder than predicted) restores the copy of that frame and
//! simulates forward again. The rolled-back game ends equal to one that knew the truth from
//! the start, down to the handles it issued.
//!
//! `cargo run --example multi_world` (with `--features serde`, it also saves and loads)

use archetypal::{Entity, EventWriter, Res, ResMut, Schedule, With, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position(pub i32, pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Velocity(pub i32, pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sprite {
    #[default]
    Station,
    Drone,
}

/// Red when hurt: `Render`'s reading of `Core`'s health.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tint(pub u8);

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            health: Health => HEALTH,
        }
        Tags {
            station => STATION,
        }
        Relations {
            docked_at / docked => DOCKED_AT [cascade],
        }
        Render {
            sprite: Sprite => SPRITE,
            tint: Tint => TINT,
        }
    }
    Events {
        /// A station destroyed, with its drones (the cascade).
        destroyed: Entity,
    }
    Resources {
        frame: u32,
        station: Entity,
        /// Whether the true damage of frame 12 is known.
        truth: bool,
    }
}

const FRAMES: u32 = 40;
/// A copy is kept every `SAVE_EVERY` frames.
const SAVE_EVERY: u32 = 5;

/// Damage the station takes at `frame`: the prediction, or the truth that arrives late.
fn damage(frame: u32, truth: bool) -> i32 {
    match frame {
        12 if truth => 70,
        12 => 20,
        _ if frame % 4 == 0 => 5,
        _ => 0,
    }
}

// One frame's systems: launch, move, undock, take damage, paint, destroy. Each says what it
// touches; a query names its sub-world (`CoreQuery`, `RenderQuery`), the rest is the game's.
// They read only the game, so the same game gives the same game.

/// Every third frame the station launches a drone, docked to it until it flies off (queued:
/// alive at the sync point after this system, before the next one runs).
fn launch(frame: Res<u32>, stations: CoreQuery<Entity, With<STATION>>, mut commands: GameCommands) {
    if *frame % 3 == 0 {
        for station in stations.iter() {
            commands.queue_spawn(
                GameEntityBuilder::new()
                    .with_position(Position(0, 0))
                    .with_velocity(Velocity(1 + (*frame % 5) as i32, 1))
                    .with_health(Health(10))
                    .with_sprite(Sprite::Drone)
                    .with_tint(Tint(0))
                    .with_docked_at(station),
            );
        }
    }
}

fn movement(mut movers: CoreQuery<(&mut Position, &Velocity)>) {
    movers.for_each(|(mut position, velocity)| {
        position.0 += velocity.0;
        position.1 += velocity.1;
    });
}

/// Drones far enough out undock.
fn undock(drones: CoreQuery<(Entity, &Position), With<DOCKED_AT>>, mut commands: GameCommands) {
    for (drone, position) in drones.iter() {
        if position.0 > 12 {
            commands.core().queue_remove_docked_at(drone);
        }
    }
}

fn hurt(frame: Res<u32>, truth: Res<bool>, mut stations: CoreQuery<&mut Health, With<STATION>>) {
    stations.for_each(|mut health| health.0 -= damage(*frame, *truth));
}

/// Render reads Core: a query of each sub-world in one system.
fn paint(healths: CoreQuery<(Entity, &Health)>, mut tints: RenderQuery<&mut Tint>) {
    for (entity, health) in healths.iter() {
        if let Some(mut tint) = tints.get_mut(entity) {
            *tint = Tint((100 - health.0.clamp(0, 100)) as u8);
        }
    }
}

fn destroy(
    stations: CoreQuery<(Entity, &Health), With<STATION>>,
    mut destroyed: EventWriter<Entity>,
    mut commands: GameCommands,
) {
    for (station, health) in stations.iter() {
        if health.0 <= 0 {
            destroyed.send(station);
            commands.queue_despawn(station); // its docked drones go with it, from every sub-world
        }
    }
}

fn count_frame(mut frame: ResMut<u32>) {
    *frame += 1;
}

fn schedule() -> Schedule<Game> {
    let mut schedule = Schedule::new();
    schedule.add((launch, movement, undock, hurt, paint, destroy, count_frame));
    schedule
}

/// One frame, with the damage as known (`truth`: the late report about frame 12 has come).
/// What the systems remember (their last run, their event cursors) is kept in the game, so a
/// restored copy runs on as the original did.
fn simulate(game: &mut Game, schedule: &mut Schedule<Game>, truth: bool) {
    game.resources.truth = truth;
    schedule.run(game);
    game.step();
}

fn new_game() -> Game {
    let mut game = Game::new();
    game.resources.station = GameEntityBuilder::new()
        .with_position(Position(0, 0))
        .with_health(Health(100))
        .with_core_mask(STATION)
        .with_sprite(Sprite::Station)
        .with_tint(Tint(0))
        .spawn_one(&mut game);
    game
}

/// What a player sees: every entity with its position, health, sprite and tint.
type Seen = Vec<(
    Entity,
    Position,
    Option<Health>,
    Option<Sprite>,
    Option<Tint>,
)>;

fn seen(game: &Game) -> Seen {
    game.core
        .typed_query_ref::<(Entity, &Position, Option<&Health>)>()
        .iter()
        .map(|(entity, position, health)| {
            (
                entity,
                *position,
                health.copied(),
                game.render.get_sprite(entity).copied(),
                game.render.get_tint(entity).copied(),
            )
        })
        .collect()
}

/// Keeps a copy of the game every `SAVE_EVERY` frames, before the frame is simulated.
fn keep(saved: &mut Vec<Game>, game: &Game, frame: u32) {
    if frame % SAVE_EVERY == 0 {
        saved.push(game.clone());
    }
}

fn main() {
    // The game as the machine runs it: predicted damage, corrected when the truth about
    // frame 12 arrives at frame 20.
    let mut game = new_game();
    let mut systems = schedule();
    let mut saved: Vec<Game> = Vec::new();
    for frame in 0..FRAMES {
        if frame == 20 {
            // Back to the copy taken before frame 12, then forward again with the truth.
            let copy = (12 / SAVE_EVERY) as usize;
            game.restore(&saved[copy]);
            saved.truncate(copy);
            let from = copy as u32 * SAVE_EVERY;
            for replay in from..frame {
                keep(&mut saved, &game, replay);
                simulate(&mut game, &mut systems, replay >= 12);
            }
            println!(
                "frame {frame}: the truth about frame 12 arrived; rolled back to frame {from} and simulated {} frames again",
                frame - from
            );
        }
        keep(&mut saved, &game, frame);
        simulate(&mut game, &mut systems, frame >= 12);
    }

    // The game that never learnt the truth, and the one that knew it from the start.
    let mut predicted = new_game();
    let mut truth = new_game();
    let (mut predicted_systems, mut truth_systems) = (schedule(), schedule());
    for frame in 0..FRAMES {
        simulate(&mut predicted, &mut predicted_systems, false);
        simulate(&mut truth, &mut truth_systems, frame >= 12);
    }
    assert!(
        predicted.is_alive(predicted.resources.station),
        "the prediction alone would have kept the station"
    );

    let station = game.resources.station;
    println!(
        "after {FRAMES} frames: {} entities alive, station {}, {} drones on screen",
        game.entity_count(),
        if game.is_alive(station) {
            "alive"
        } else {
            "destroyed"
        },
        game.render
            .typed_query_ref::<&Sprite>()
            .iter()
            .filter(|&&sprite| sprite == Sprite::Drone)
            .count()
    );
    assert!(!game.is_alive(station), "the true damage destroys it");
    assert!(
        game.entity_count() > 0,
        "the drones that had undocked fly on"
    );
    assert_eq!(
        seen(&game),
        seen(&truth),
        "the rollback ends where the truth does"
    );

    // A save game: every sub-world and the game's one allocator, in one JSON document.
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&game.snapshot()).expect("every type serializes");
        let mut loaded: Game = serde_json::from_str(&json).expect("the save loads");
        assert_eq!(
            seen(&loaded),
            seen(&game),
            "the loaded game is the saved one"
        );
        loaded.check_invariants().unwrap();
        assert_eq!(
            loaded.spawn(),
            truth.clone().spawn(),
            "it issues the same next handle"
        );
        println!(
            "saved as {} bytes of JSON and loaded: the same entities, the same next handle",
            json.len()
        );
    }
    assert_eq!(
        game.spawn(),
        truth.spawn(),
        "it issues the same next handle"
    );
    game.check_invariants().unwrap();
    println!("the rolled-back game equals the one that knew the truth, handles included");
}
