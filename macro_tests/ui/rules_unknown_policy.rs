archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
    }
    Rules {
        VELOCITY requires POSITION [keep],
    }
}

fn main() {}
