// `EntityBuilder::spawn` clones the values the builder holds: holding one that is not `Clone`
// leaves only `spawn_one`. (Holding only `Clone` values compiles, whatever the other
// components are: see `not_clone` in tests/api.rs.)
#[derive(Default)]
pub struct Handle(u32);

archetypal::ecs! {
    World {
        position: u8 => POSITION,
        handle: Handle => HANDLE,
    }
}

fn main() {
    let mut world = World::new();
    let _ = EntityBuilder::new().with_position(1).spawn(&mut world, 2);
    let _ = EntityBuilder::new()
        .with_position(1)
        .with_handle(Handle(0))
        .spawn(&mut world, 2);
}
