//! Rollback netcode: predict, save a copy every frame, and when the truth arrives, restore the
//! frame that was wrong and simulate again.
//!
//! Two ships fly in one world on two machines. Each machine knows its own player's input at
//! once, but the other player's input arrives a few frames late, so it *predicts* it (the
//! remote player keeps doing what they did last) and simulates on. Every frame it keeps a copy
//! of the world (`restore` into a ring of saved worlds: a `clone_from` that reuses their
//! allocations). When a late input differs from the prediction, it restores the copy of that
//! frame and re-simulates up to the present with the corrected inputs.
//!
//! This works because the step function is deterministic: the same world and the same inputs
//! give the same world, down to the entity handles a spawn issues (integer maths, no clock,
//! no randomness, and archetypal's iteration order is part of the world's state). At the end
//! the rolled-back world is checked equal to a world that knew every input from the start.
//!
//! `cargo run --example rollback`

use archetypal::{Entity, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub x: i32,
    pub y: i32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Velocity {
    pub x: i32,
    pub y: i32,
}

/// Frames until a bullet disappears.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime(pub u32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        lifetime: Lifetime => LIFETIME,
    }
    Tags {
        ship => SHIP,
    }
    Resources {
        /// The frame the world is at: how many times `simulate` ran.
        frame: usize,
        /// The two players' ships (spawned before the first frame).
        ships: [Entity; 2],
    }
}

/// One player's input for one frame: all that the two machines send each other.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Input {
    pub thrust: i32,
    pub fire: bool,
}

const FRAMES: usize = 60;
/// Frames it takes the remote player's input to arrive.
const DELAY: usize = 3;
/// Saved worlds kept: how far back a rollback can go (more than the delay).
const SAVED: usize = 8;
const BULLET_LIFETIME: u32 = 10;

/// What each player really pressed at each frame (scripted, so the run is repeatable). Player
/// 1's input changes now and then: each change is a misprediction on the other machine.
fn true_input(player: usize, frame: usize) -> Input {
    match player {
        0 => Input {
            thrust: 1,
            fire: frame % 7 == 0,
        },
        _ => Input {
            thrust: if (frame / 10) % 2 == 0 { -1 } else { 2 },
            fire: frame % 11 == 5,
        },
    }
}

/// The deterministic step: it reads nothing but the world and the inputs.
fn simulate(world: &mut World, inputs: [Input; 2]) {
    // Ships steer and fire. Spawning here is fine: a re-simulation issues the same handles.
    for (ship, input) in world.resources.ships.into_iter().zip(inputs) {
        if let Some(velocity) = world.get_velocity_mut(ship) {
            velocity.x += input.thrust;
        }
        if !input.fire {
            continue;
        }
        if let Some(&origin) = world.get_position(ship) {
            let bullet = world.spawn(POSITION | VELOCITY | LIFETIME);
            world.set_position(bullet, origin);
            world.set_velocity(bullet, Velocity { x: 0, y: 5 });
            world.set_lifetime(bullet, Lifetime(BULLET_LIFETIME));
        }
    }

    // Everything moves.
    world
        .typed_query::<(&mut Position, &Velocity)>()
        .for_each(|(mut position, velocity)| {
            position.x += velocity.x;
            position.y += velocity.y;
        });

    // Bullets age; expired ones are despawned at the end of the loop (commands).
    let mut parts = world.split_mut();
    parts
        .components
        .typed_query::<(Entity, &mut Lifetime)>()
        .for_each(|(bullet, mut lifetime)| {
            lifetime.0 -= 1;
            if lifetime.0 == 0 {
                parts.commands.queue_despawn(bullet);
            }
        });
    world.apply_commands();

    world.resources.frame += 1;
    world.step();
}

fn new_world() -> World {
    let mut world = World::new();
    let ships = world.spawn_entities(POSITION | VELOCITY | SHIP, 2);
    world.set_position(ships[1], Position { x: 0, y: 100 });
    world.resources.ships = [ships[0], ships[1]];
    world
}

/// One entity as a player sees it.
type Row = (Entity, Position, Velocity, Option<Lifetime>);

/// Everything a player could observe, to compare two worlds: the frame and every entity.
fn observable(world: &World) -> (usize, Vec<Row>) {
    let rows = world
        .typed_query_ref::<(Entity, &Position, &Velocity, Option<&Lifetime>)>()
        .iter()
        .map(|(entity, position, velocity, lifetime)| {
            (entity, *position, *velocity, lifetime.copied())
        })
        .collect();
    (world.resources.frame, rows)
}

/// The remote player's input of frame `arrived` is known at last. If it differs from the
/// prediction, the world goes back to before that frame and forward again to the present
/// (`inputs.len()` frames simulated) with the truth. Returns the frames simulated again.
fn confirm_remote_input(
    world: &mut World,
    saved: &mut [World],
    inputs: &mut [[Input; 2]],
    arrived: usize,
    truth: Input,
) -> usize {
    if inputs[arrived][1] == truth {
        return 0;
    }
    // Later frames were predicted from the wrong input: predict them from the truth.
    for frame_inputs in &mut inputs[arrived..] {
        frame_inputs[1] = truth;
    }
    // Back to the world as it was before frame `arrived`, then forward again, saving as we go.
    world.restore(&saved[arrived % SAVED]);
    for frame in arrived..inputs.len() {
        saved[frame % SAVED].restore(world);
        simulate(world, inputs[frame]);
    }
    inputs.len() - arrived
}

fn main() {
    // Player 0's machine. `inputs[f]` is what it used for frame `f`: its own input, and for
    // player 1 the true input once it arrived, a prediction before.
    let mut world = new_world();
    let mut inputs: Vec<[Input; 2]> = Vec::with_capacity(FRAMES);
    let mut saved = vec![world.clone(); SAVED];
    let mut rollbacks = 0;
    let mut frames_resimulated = 0;

    for frame in 0..FRAMES + DELAY {
        // The remote input of frame `frame - DELAY` arrives.
        if let Some(arrived) = frame.checked_sub(DELAY) {
            let truth = true_input(1, arrived);
            let redone = confirm_remote_input(&mut world, &mut saved, &mut inputs, arrived, truth);
            if redone > 0 {
                println!(
                    "frame {frame:2}: player 1's input for frame {arrived} was {truth:?}, not \
                     the prediction: rolled back and simulated {redone} frames again"
                );
                rollbacks += 1;
                frames_resimulated += redone;
            }
        }
        // The last inputs arrive after the last frame: nothing more to simulate then.
        if frame >= FRAMES {
            continue;
        }

        // Predict the remote player: the last input known for them (true or predicted).
        let predicted = inputs.last().map_or(Input::default(), |last| last[1]);
        inputs.push([true_input(0, frame), predicted]);

        // Keep the world as it is before this frame, then simulate it.
        saved[frame % SAVED].restore(&world);
        simulate(&mut world, inputs[frame]);
    }

    // A machine that knew both inputs all along.
    let mut reference = new_world();
    for frame in 0..FRAMES {
        simulate(&mut reference, [true_input(0, frame), true_input(1, frame)]);
    }

    let (frame, rows) = observable(&world);
    println!(
        "{rollbacks} rollbacks, {frames_resimulated} frames simulated again; after {frame} \
         frames: {} entities, of which bullets in flight: {}",
        rows.len(),
        world.typed_query_ref::<Entity>().with(LIFETIME).count()
    );
    assert!(rollbacks > 0, "the script makes the prediction wrong");
    assert_eq!(
        observable(&world),
        observable(&reference),
        "the rolled-back world is the world that knew every input"
    );
    assert_eq!(world.current_tick(), reference.current_tick());
    // Even the handles the next spawn issues agree.
    assert_eq!(world.spawn(POSITION), reference.spawn(POSITION));
    println!("the rolled-back world equals the reference world");
}
