archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
    }
    Rules {
        VELOCITY needs POSITION,
    }
}

fn main() {}
