archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        child_of children => CHILD_OF,
    }
}

fn main() {}
