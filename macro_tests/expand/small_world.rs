//! Snapshot of the code `ecs!` generates for a small world: every change to the generated
//! code shows up in `small_world.expanded.rs` in review.

archetypal::ecs! {
    World {
        position: (f32, f32) => POSITION,
        velocity: (f32, f32) => VELOCITY,
        health: u32 => HEALTH,
    }
    Tags {
        player => PLAYER,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
    Events {
        landed: (f32, f32),
    }
    Resources {
        delta_time: f32,
    }
}

fn main() {}
