archetypal::ecs! {
    World {
        position: u8 => POSITION [untraced],
    }
}

fn main() {}
