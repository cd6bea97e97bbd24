//! The multi-world form is as hygienic as a single world: it compiles and works with no
//! implicit prelude.

#![no_implicit_prelude]

mod game {
    #[derive(
        ::core::default::Default, ::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq,
    )]
    pub struct Position {
        pub x: f32,
    }

    ::archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                health: u32 => HEALTH [untracked],
            }
            Tags {
                player => PLAYER,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
            }
            Hooks {
                on_add(PLAYER) => counted,
            }
            Render {
                sprite: ::std::string::String => SPRITE,
            }
        }
        Events {
            landed: Position,
        }
        Resources {
            delta_time: f32,
            hooked: u32,
        }
        Hooks {
            on_spawn => counted,
        }
    }

    pub fn counted(game: &mut GameParts<'_>, _entity: ::archetypal::Entity) {
        game.resources.hooked += 1;
    }
}

fn main() {
    use ::core::assert;
    use ::core::assert_eq;
    use ::core::convert::From;
    use ::core::iter::Iterator;
    use ::core::option::Option::Some;

    use game::{Game, HEALTH, PLAYER, POSITION, Position, SPRITE};

    let mut game = Game::new();
    game.resources.delta_time = 0.5;
    let entity = game.spawn();
    assert!(game.core.set_position(entity, Position { x: 1.0 }));
    assert!(game.core.add_components(entity, HEALTH | PLAYER));
    assert!(
        game.render
            .set_sprite(entity, ::std::string::String::from("hero"))
    );
    assert_eq!(game.core.get_position(entity), Some(&Position { x: 1.0 }));
    assert_eq!(game.render.query_entities(SPRITE).count(), 1);
    assert_eq!(game.core.query_entities(POSITION | HEALTH).count(), 1);
    game.events.landed.send(Position { x: 2.0 });
    let queued = game.commands().queue_spawn_entities(2);
    game.commands().core().queue_set_health(queued[1], 4);
    assert_eq!(game.apply_commands().applied, 2, "one queued spawn (of two), one set");
    assert_eq!(game.resources.hooked, 4, "three spawns, one player");
    assert_eq!(game.core.get_health(queued[1]), Some(&4));
    let child = game.spawn();
    assert!(game.core.set_child_of(child, entity).is_ok());
    assert!(game.despawn(entity));
    assert!(!game.is_alive(child), "cascaded");
    assert!(game.check_invariants().is_ok());
    game.step();
    assert_eq!(game.entity_count(), 2);
}
