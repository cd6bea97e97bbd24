archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    delta_time: f32,
}

fn main() {}
