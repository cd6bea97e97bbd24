// A system takes one query: a second one is refused when the program is built.
use archetypal::{Schedule, ecs};

#[derive(Default)]
pub struct Position(pub f32);
#[derive(Default)]
pub struct Velocity(pub f32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
}

fn movement(mut positions: Query<&mut Position>, mut velocities: Query<&Velocity>) {
    positions.for_each(|mut position| position.0 += 1.0);
    velocities.for_each(|_| ());
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(movement);
    schedule.run(&mut world);
}
