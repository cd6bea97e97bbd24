archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Tags {
        children => CHILDREN,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
}

fn main() {}
