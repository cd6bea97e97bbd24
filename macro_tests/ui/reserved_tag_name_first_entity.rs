// A tag named `first_entity` would generate `query_first_entity`, the world's own method.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Tags {
        first_entity => FIRST_ENTITY,
    }
}

fn main() {}
