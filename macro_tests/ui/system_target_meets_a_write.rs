// A `Target` term reads what another query of the system writes, in tables the term's filter
// does not keep apart from that query's: refused when the program is built, naming the two
// parameters (the query's own filter does not help: the targets are other entities).
use archetypal::{Target, With, Without, ecs};

#[derive(Default)]
pub struct Velocity(pub f32);
#[derive(Default)]
pub struct Offset(pub f32);

ecs! {
    World {
        velocity: Velocity => VELOCITY,
        offset: Offset => OFFSET,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
}

fn drift(
    mut turrets: Query<(&Offset, Target<CHILD_OF, &Velocity>), With<Offset>>,
    mut ships: Query<&mut Velocity, Without<Offset>>,
) {
    turrets.for_each(|_| ());
    ships.for_each(|mut velocity| velocity.0 += 1.0);
}

fn main() {
    let mut world = World::new();
    archetypal::SystemContext::new().run(&mut world, drift);
}
