archetypal::ecs! {
    World {
        position: u8 => POSITION
        velocity: u8 => VELOCITY,
    }
}

fn main() {}
