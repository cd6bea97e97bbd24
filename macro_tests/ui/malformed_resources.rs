archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Resources {
        delta_time f32,
    }
}

fn main() {}
