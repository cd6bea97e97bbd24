// A query whose `Target` term reads the component the query writes, from targets that may be
// the query's own rows: refused when the program is built (give the term `Without<Offset>`).
use archetypal::{Schedule, Target, ecs};

#[derive(Default)]
pub struct Position(pub f32);
#[derive(Default)]
pub struct Offset(pub f32);

ecs! {
    World {
        position: Position => POSITION,
        offset: Offset => OFFSET,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
}

fn mount(mut turrets: Query<(&mut Position, &Offset, Target<CHILD_OF, &Position>)>) {
    turrets.for_each(|(mut position, offset, ship)| {
        if let Some(ship) = ship {
            position.0 = ship.0 + offset.0;
        }
    });
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(mount);
    schedule.run(&mut world);
}
