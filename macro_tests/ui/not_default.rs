pub struct Handle(u32);

archetypal::ecs! {
    World {
        position: u8 => POSITION,
        handle: Handle => HANDLE,
    }
}

fn main() {}
