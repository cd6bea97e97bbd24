// A relation `tables` would generate `split_tables`, a method every world has.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        tables / chairs => TABLES,
    }
}

fn main() {}
