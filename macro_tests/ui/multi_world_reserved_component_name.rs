// A sub-world's component named `mask` would be a column `mask` of its tables, which already
// have their mask field: refused in ecs!'s words alone, as in a world.
archetypal::ecs! {
    Game {
        Core {
            position: u8 => POSITION,
        }
        Render {
            mask: u8 => MASK_BIT,
        }
    }
}

fn main() {}
