archetypal::ecs! {
    Game {
        Core {
            position: u8 => POSITION,
            velocity: u8 => VELOCITY,
        }
    }
    Rules {
        VELOCITY requires POSITION,
    }
}

fn main() {}
