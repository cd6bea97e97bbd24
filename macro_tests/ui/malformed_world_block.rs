archetypal::ecs! {
    World {
        "position": u8 => POSITION,
    }
}

fn main() {}
