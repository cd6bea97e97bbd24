archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Rules {
        exclusive(POSITION, POSITION),
    }
    Resources {
        delta: f32,
    }
}

fn main() {}
