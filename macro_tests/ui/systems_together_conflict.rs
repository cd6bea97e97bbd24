// Systems stated to run together whose access overlaps: refused when the program is built,
// with a message naming the two systems.
use archetypal::{ResMut, Schedule, ecs, together};

#[derive(Default)]
pub struct Position(pub f32);

ecs! {
    World {
        position: Position => POSITION,
    }
    Resources {
        frames: u32,
    }
}

fn advance(mut positions: Query<&mut Position>) {
    positions.for_each(|mut position| position.0 += 1.0);
}

fn count(mut frames: ResMut<u32>) {
    *frames += 1;
}

fn also_count(mut frames: ResMut<u32>) {
    *frames += 1;
}

fn main() {
    let mut schedule = Schedule::<World>::new();
    schedule.add(together((advance, count, also_count)));
}
