archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
    }
    Tags {
        player => PLAYER,
    }
    Rules {
        exclusive(POSITION, PLAYER),
    }
}

fn main() {}
