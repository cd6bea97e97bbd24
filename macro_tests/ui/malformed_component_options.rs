archetypal::ecs! {
    World {
        position: u8 => POSITION [untracked, boxed],
    }
}

fn main() {}
