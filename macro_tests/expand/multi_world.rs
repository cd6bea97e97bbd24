//! Snapshot of the code `ecs!` generates for a small multi-world: two sub-worlds over one set
//! of entities, with the whole's events and resources.

archetypal::ecs! {
    Game {
        Core {
            position: (f32, f32) => POSITION,
        }
        Tags {
            player => PLAYER,
        }
        Render {
            sprite: u32 => SPRITE,
        }
    }
    Events {
        landed: (f32, f32),
    }
    Resources {
        delta_time: f32,
    }
}

fn main() {}
