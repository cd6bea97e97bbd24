archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Events {
        hit: u32,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
}

fn main() {}
