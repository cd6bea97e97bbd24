// A query takes one change filter: "both changed" (a tuple of two) does not compile, and the
// message names the form that does, "any of them" (`Changed<(A, B)>`).
use archetypal::{Changed, Entity, Schedule, ecs};

#[derive(Default)]
pub struct Health(pub i32);
#[derive(Default)]
pub struct Shield(pub i32);

ecs! {
    World {
        health: Health => HEALTH,
        shield: Shield => SHIELD,
    }
}

fn watch(query: Query<Entity, (Changed<Health>, Changed<Shield>)>) {
    let _ = query.iter().count();
}

fn main() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(watch);
    schedule.run(&mut world);
}
