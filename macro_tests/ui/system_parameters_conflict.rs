// Two parameters of one system that write the same resource: refused when the program is
// built, with a message naming the two parameters.
use archetypal::{ResMut, Schedule, ecs};

#[derive(Default)]
pub struct Position(pub f32);
#[derive(Default)]
pub struct Score(pub u32);

ecs! {
    World {
        position: Position => POSITION,
    }
    Resources {
        score: Score,
    }
}

fn tally(mut query: Query<&Position>, mut first: ResMut<Score>, mut second: ResMut<Score>) {
    query.for_each(|position| first.0 += position.0 as u32);
    second.0 += 1;
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(tally);
    schedule.run(&mut world);
}
