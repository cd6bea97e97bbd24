archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
    }
    Tags {
        player => PLAYER,
    }
    Rules {
        VELOCITY requires POSITON,
    }
}

fn main() {}
