archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by => OWNED_BY,
    }
}

fn main() {}
