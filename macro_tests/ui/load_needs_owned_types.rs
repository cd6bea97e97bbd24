// A world with a type serde reads only by borrowing from the data (`&'static str`) compiles
// and saves, but does not load: a loaded world would borrow from the text it was read from.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
        name: &'static str => NAME,
    }
}

fn loadable<T: serde::de::DeserializeOwned>() {}

fn main() {
    let world = World::new();
    let _ = world.snapshot();
    loadable::<World>();
}
