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
}
