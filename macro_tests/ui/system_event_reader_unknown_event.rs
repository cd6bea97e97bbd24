// A reader of a type that is no event channel of the world: named by the message.
use archetypal::{EventReader, Schedule, ecs};

#[derive(Default)]
pub struct Position(pub f32);
pub struct Hit;
pub struct Heal;

ecs! {
    World {
        position: Position => POSITION,
    }
    Events {
        hit: Hit,
    }
}

fn heal(mut heals: EventReader<Heal>) {
    let _ = heals.read();
}

fn main() {
    let mut schedule = Schedule::<World>::new();
    schedule.add(heal);
}
