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
    Hooks {
        on_add(POSITION) => on_position,
        on_unlink(CHILD_OF) => on_orphan,
    }
}

fn on_position(world: &mut WorldParts<'_>, entity: archetypal::Entity) {
    let _ = (world, entity);
}

fn on_orphan(world: &mut WorldParts<'_>, child: archetypal::Entity, parent: archetypal::Entity) {
    let _ = (world, child, parent);
}

fn main() {}
