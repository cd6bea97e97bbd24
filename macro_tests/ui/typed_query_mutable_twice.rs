//! A typed query that borrows one component mutably twice is a compile error (at build time:
//! the check is a constant evaluated when the query is instantiated), never aliasing.

#[derive(Default)]
pub struct Position(pub f32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
    }
}

fn main() {
    let mut world = World::new();
    world.spawn(POSITION);
    world
        .typed_query::<(&mut Position, &mut Position)>()
        .for_each(|(mut a, b)| a.0 += b.0);
}
