// A component named `mask` would be a column `mask` of the table, which already has its
// mask field.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
        mask: u8 => MASK_BIT,
    }
}

fn main() {}
