//! A game crate with `#![deny(missing_docs)]` invokes `ecs!` with every block (components,
//! an `[untracked]` one, tags, events, resources), once as a single world and once in the
//! multi-world form: every item generated, serde and parallel ones included (macro_tests
//! builds archetypal with both features), carries a doc comment. (A compile-pass case, not a
//! test: rustc does not run `missing_docs` on test harnesses.)

#![deny(missing_docs)]

use serde::{Deserialize, Serialize};

/// Where an entity is.
#[derive(Default, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// Two entities collided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collision(pub archetypal::Entity, pub archetypal::Entity);

/// The single-world form.
pub mod single {
    use super::{Collision, Position};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            health: u32 => HEALTH,
            scratch: u64 => SCRATCH [untracked],
        }
        Tags {
            player => PLAYER,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Events {
            collision: Collision,
        }
        Resources {
            delta_time: f32,
        }
    }
}

/// The multi-world form.
pub mod multi {
    use super::{Collision, Position};

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                scratch: u64 => SCRATCH [untracked],
            }
            Tags {
                player => PLAYER,
            }
            Relations {
                owned_by / belongings => OWNED_BY,
            }
            Render {
                sprite: u32 => SPRITE,
            }
        }
        Events {
            collision: Collision,
        }
        Resources {
            delta_time: f32,
        }
    }
}

fn main() {
    let mut world = single::World::new();
    let entity = world.spawn(single::POSITION | single::SCRATCH | single::PLAYER);
    assert!(world.set_health(entity, 3));
    world.events.collision.send(Collision(entity, entity));
    let saved = serde_json::to_string(&world.snapshot()).unwrap();
    let loaded: single::World = serde_json::from_str(&saved).unwrap();
    assert!(loaded.has_player(entity));

    let mut game = multi::Game::new();
    let entity = game.spawn();
    assert!(game.core.add_components(entity, multi::POSITION | multi::PLAYER));
    assert!(game.render.set_sprite(entity, 7));
    assert_eq!(game.render.get_sprite(entity), Some(&7));
}
