archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Resources {
        delta_time: f32,
    }
    Tags {
        player => PLAYER,
    }
}

fn main() {}
