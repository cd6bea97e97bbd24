// A tag named `components` would generate `add_components`, the world's own method.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Tags {
        components => COMPONENTS,
    }
}

fn main() {}
