//! The README's quick start as a program: `cargo run --example quickstart`.

use archetypal::{Res, Schedule, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Resources {
        delta_time: f32,
    }
}

// A system: a plain function whose parameters say what it touches.
fn movement(mut movers: Query<(&mut Position, &Velocity)>, delta_time: Res<f32>) {
    movers.for_each(|(mut position, velocity)| {
        position.x += velocity.x * *delta_time;
        position.y += velocity.y * *delta_time;
    });
}

fn main() {
    let mut world = World::new();
    world.resources.delta_time = 0.5;

    // A mover and a landmark.
    let mover = world.spawn(POSITION);
    let landmark = world.spawn(POSITION);
    world.set_position(landmark, Position { x: 10.0, y: 0.0 });

    // Adding a component migrates the mover to the POSITION | VELOCITY table.
    world.set_velocity(mover, Velocity { x: 2.0, y: 1.0 });

    // A schedule runs its systems in order, each over every entity its query matches.
    let mut schedule = Schedule::new();
    schedule.add(movement);
    schedule.run(&mut world);
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 1.0, y: 0.5 })
    );

    // Removing the velocity migrates it back; the position stays.
    assert_eq!(
        world.remove_velocity(mover),
        Some(Velocity { x: 2.0, y: 1.0 })
    );
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 1.0, y: 0.5 })
    );

    // A despawned handle resolves to nothing, even after its id is recycled.
    world.despawn(mover);
    let newcomer = world.spawn(POSITION);
    assert_eq!(newcomer.id, mover.id);
    assert_eq!(newcomer.generation, 1);
    assert_eq!(world.get_position(mover), None);
    assert_eq!(world.query_entities(POSITION).count(), 2);
    println!(
        "mover despawned; {} entities remain, newcomer is {newcomer}",
        world.entity_count()
    );
}
