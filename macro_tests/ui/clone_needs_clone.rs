#[derive(Default)]
pub struct Handle(u32);

archetypal::ecs! {
    World {
        position: u8 => POSITION,
        handle: Handle => HANDLE,
    }
}

fn main() {
    let world = World::new();
    let _copy = world.clone();
    let mut other = World::new();
    other.restore(&world);
}
