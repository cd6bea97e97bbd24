// A game's own `Rules` block: rules belong to a sub-world.
mod game_block {
    archetypal::ecs! {
        Game {
            Core {
                position: u8 => POSITION,
                velocity: u8 => VELOCITY,
            }
        }
        Rules {
            VELOCITY requires POSITION,
        }
    }
}

// A rule across two sub-worlds: a sub-world's rules name its own components.
mod across_sub_worlds {
    archetypal::ecs! {
        Game {
            Core {
                position: u8 => POSITION,
            }
            Rules {
                POSITION requires SPRITE,
            }
            Render {
                sprite: u8 => SPRITE,
            }
        }
    }
}

fn main() {}
