//! The README's quick start as a program: `cargo run --example quickstart`.

use archetypal::ecs;

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

fn main() {
    let mut world = World::new();
    world.resources.delta_time = 0.5;

    // A mover and a landmark.
    let mover = world.spawn(POSITION);
    let landmark = world.spawn(POSITION);
    world.set_position(landmark, Position { x: 10.0, y: 0.0 });

    // Adding a component migrates the mover to the POSITION | VELOCITY table.
    world.set_velocity(mover, Velocity { x: 2.0, y: 1.0 });

    // A system: a loop over every table holding both components.
    let delta_time = world.resources.delta_time;
    world.for_each_mut(POSITION | VELOCITY, 0, |_entity, table, index| {
        table.position[index].x += table.velocity[index].x * delta_time;
        table.position[index].y += table.velocity[index].y * delta_time;
    });
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
