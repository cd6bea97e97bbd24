//! Disabling across a multi-world game, from the user's side: the game's `disable` /
//! `enable` / `is_disabled` and its queued `queue_disable` / `queue_enable` move an entity
//! into (or out of) the disabled tables of every sub-world in one call, so every sub-world's
//! queries skip it while its handle still reaches its data; a sub-world's own `disable`
//! stays that sub-world's; stale handles answer `false`; copies and snapshots keep the state.

use archetypal::{Bitmask, Entity, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprite(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spawned(pub usize);

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Rules {
            VELOCITY requires POSITION,
        }
        Render {
            sprite: Sprite => SPRITE,
        }
    }
    Resources {
        spawned: Spawned,
    }
    Hooks {
        on_spawn => spawned,
    }
}

fn spawned(game: &mut GameParts<'_>, _entity: Entity) {
    game.resources.spawned.0 += 1;
}

/// Five ships with a position, a velocity and a sprite.
fn ships() -> (Game, Vec<Entity>) {
    let mut game = Game::new();
    let ships = (0..5)
        .map(|n| {
            GameEntityBuilder::new()
                .with_velocity(Velocity(n))
                .with_sprite(Sprite(n))
                .spawn_one(&mut game)
        })
        .collect();
    (game, ships)
}

/// How many entities each sub-world's queries find (its components, enabled ones).
fn found(game: &Game) -> (usize, usize) {
    game.check_invariants().unwrap();
    (
        game.core.query_entities(POSITION).count(),
        game.render.query_entities(SPRITE).count(),
    )
}

#[test]
fn disable_moves_the_entity_out_of_every_sub_world_s_queries_in_one_call() {
    let (mut game, ships) = ships();
    assert!(game.disable(ships[1]));
    assert!(game.is_disabled(ships[1]));
    assert!(game.core.is_disabled(ships[1]) && game.render.is_disabled(ships[1]));
    assert_eq!(found(&game), (4, 4));
    assert_eq!(game.core.typed_query::<&Velocity>().count(), 4);
    // Its handle still reaches its data in every sub-world, and the game counts it.
    assert_eq!(game.core.get_velocity(ships[1]), Some(&Velocity(1)));
    assert_eq!(game.render.get_sprite(ships[1]), Some(&Sprite(1)));
    assert_eq!(game.entity_count(), 5);
    // Each sub-world's disabled bit finds it.
    let disabled: Vec<Entity> = game
        .render
        .query_entities(SPRITE | RenderMask::DISABLED)
        .collect();
    assert_eq!(disabled, [ships[1]]);

    // Disabling twice is fine; a structural change keeps it disabled, and the rules hold.
    assert!(game.disable(ships[1]));
    assert_eq!(game.core.remove_position(ships[1]), Some(Position(0)));
    assert!(game.is_disabled(ships[1]));
    assert_eq!(found(&game), (4, 4));

    assert!(game.enable(ships[1]));
    assert!(!game.is_disabled(ships[1]));
    assert!(!game.core.is_disabled(ships[1]) && !game.render.is_disabled(ships[1]));
    assert_eq!(found(&game), (4, 5), "its position went while disabled");
    assert_eq!(game.render.get_sprite(ships[1]), Some(&Sprite(1)));
}

#[test]
fn a_sub_world_s_own_disable_is_not_the_game_s_and_the_game_s_enable_undoes_it() {
    let (mut game, ships) = ships();
    assert!(game.core.disable(ships[0]));
    assert!(!game.is_disabled(ships[0]), "disabled in Core only");
    assert_eq!(found(&game), (4, 5));
    assert!(game.enable(ships[0]));
    assert!(!game.core.is_disabled(ships[0]));
    assert_eq!(found(&game), (5, 5));
}

#[test]
fn stale_handles_answer_false_and_change_nothing() {
    let (mut game, ships) = ships();
    assert!(game.despawn(ships[2]));
    let never = Entity {
        id: 99,
        generation: 1,
    };
    for entity in [ships[2], never] {
        assert!(!game.disable(entity));
        assert!(!game.enable(entity));
        assert!(!game.is_disabled(entity));
    }
    // The id reused: the old handle still reaches nothing.
    let recycled = game.spawn();
    assert_eq!(recycled.id, ships[2].id);
    assert!(!game.disable(ships[2]));
    assert!(!game.is_disabled(recycled));
    assert_eq!(found(&game), (4, 4));
}

#[test]
fn queued_forms_apply_in_order_and_skip_dead_handles() {
    let (mut game, ships) = ships();
    let mut commands = game.commands();
    let reserved = commands.queue_spawn(GameEntityBuilder::new().with_sprite(Sprite(9)));
    commands.queue_disable(reserved);
    commands.queue_disable(ships[0]);
    commands.queue_disable(ships[1]);
    commands.queue_enable(ships[1]);
    commands.queue_despawn(ships[2]);
    commands.queue_disable(ships[2]);
    assert!(
        !game.is_disabled(ships[0]),
        "nothing applies before apply_commands"
    );
    let report = game.apply_commands();
    assert_eq!((report.applied, report.skipped), (6, 1));
    assert_eq!(
        game.resources.spawned.0, 6,
        "the hooked game applies them too"
    );
    assert!(game.is_disabled(reserved) && game.is_disabled(ships[0]));
    assert!(!game.is_disabled(ships[1]));
    assert_eq!(found(&game), (3, 3));
    game.commands().queue_enable(reserved);
    game.apply_commands();
    assert_eq!(found(&game), (3, 4));
}

#[test]
fn a_subtree_is_disabled_by_walking_its_sub_world_s_relation() {
    let (mut game, ships) = ships();
    game.core.set_child_of(ships[1], ships[0]).unwrap();
    game.core.set_child_of(ships[2], ships[1]).unwrap();
    let tree: Vec<Entity> = std::iter::once(ships[0])
        .chain(game.core.descendants_child_of(ships[0]))
        .collect();
    for &entity in &tree {
        assert!(game.disable(entity));
    }
    assert_eq!(found(&game), (2, 2));
    // A despawn of a disabled entity still cascades, in every sub-world.
    assert!(game.despawn(ships[0]));
    assert!(!game.is_alive(ships[2]));
    assert_eq!(found(&game), (2, 2));
}

#[test]
fn copies_and_snapshots_keep_the_state() {
    let (mut game, ships) = ships();
    game.disable(ships[3]);
    let copy = game.clone();
    assert!(copy.is_disabled(ships[3]));
    assert_eq!(found(&copy), (4, 4));
    let loaded: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
    assert!(loaded.is_disabled(ships[3]));
    assert_eq!(found(&loaded), (4, 4));
    let mut restored = Game::new();
    restored.restore(&game);
    game.enable(ships[3]);
    assert!(restored.is_disabled(ships[3]));
}
