archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
        acceleration: u8 => ACCELERATION,
    }
    Rules {
        VELOCITY requires POSITION,
        POSITION requires ACCELERATION,
        ACCELERATION requires VELOCITY,
    }
}

fn main() {}
