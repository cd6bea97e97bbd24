archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Events {
        hit: u32 [kept],
    }
}

fn main() {}
