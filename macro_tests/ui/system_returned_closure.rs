// A function returning `impl FnMut(..)` is not a system (the compiler cannot pick among the
// forms a system takes for an opaque type): the message says to write the closure where it is
// added.
use archetypal::{Schedule, ecs};

#[derive(Default)]
pub struct Position(pub f32);

ecs! {
    World {
        position: Position => POSITION,
    }
}

fn mover(speed: f32) -> impl FnMut(Query<&mut Position>) {
    move |mut movers: Query<&mut Position>| movers.for_each(|mut position| position.0 += speed)
}

fn main() {
    let mut schedule = Schedule::<World>::new();
    schedule.add(mover(1.0));
}
