// A function whose parameter is not a system parameter: the message lists the accepted forms.
use archetypal::{Schedule, ecs};

#[derive(Default)]
pub struct Position(pub f32);

ecs! {
    World {
        position: Position => POSITION,
    }
}

fn wrong(position: &mut Position) {
    position.0 += 1.0;
}

fn main() {
    let mut schedule = Schedule::<World>::new();
    schedule.add(wrong);
}
