// Two queries of one system that may match one entity, one writing what the other reads:
// refused when the program is built (exclude `Offset` from the second to keep them apart).
use archetypal::{Schedule, With, ecs};

#[derive(Default)]
pub struct Position(pub f32);
#[derive(Default)]
pub struct Offset(pub f32);

ecs! {
    World {
        position: Position => POSITION,
        offset: Offset => OFFSET,
    }
}

fn follow(mut turrets: Query<&mut Position, With<Offset>>, mut ships: Query<&Position>) {
    turrets.for_each(|mut position| position.0 += 1.0);
    ships.for_each(|_| ());
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(follow);
    schedule.run(&mut world);
}
