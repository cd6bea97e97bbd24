archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        child_of / children,
    }
}

fn main() {}
