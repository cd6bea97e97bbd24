// `get` and `iter` read through a shared borrow: a query that writes uses `get_mut` and
// `iter_mut`, and the message says so.
use archetypal::{Entity, Schedule, ecs};

#[derive(Default)]
pub struct Health(pub i32);

ecs! {
    World {
        health: Health => HEALTH,
    }
}

fn hurt(units: Query<(Entity, &mut Health)>) {
    if let Some((_, mut health)) = units.iter().next() {
        health.0 -= 1;
    }
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(hurt);
    schedule.run(&mut world);
}
