archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Tags {
        player => POSITION,
    }
}

fn main() {}
