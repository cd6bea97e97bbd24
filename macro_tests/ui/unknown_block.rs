archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Systems {}
}

fn main() {}
