#[derive(Default)]
pub struct Handle(u32);

archetypal::ecs! {
    World {
        position: u8 => POSITION,
        handle: Handle => HANDLE,
    }
}

fn loadable<T: serde::de::DeserializeOwned>() {}

fn main() {
    let world = World::new();
    let _ = world.snapshot();
    loadable::<World>();
}
