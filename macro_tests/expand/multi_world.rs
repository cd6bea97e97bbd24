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
        Hooks {
            on_add(PLAYER) => on_player,
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
    Hooks {
        on_despawn => on_despawn,
    }
}

fn on_player(game: &mut GameParts<'_>, entity: archetypal::Entity) {
    let _ = (game, entity);
}

fn on_despawn(game: &mut GameParts<'_>, entity: archetypal::Entity) {
    let _ = (game, entity);
}

fn main() {}
