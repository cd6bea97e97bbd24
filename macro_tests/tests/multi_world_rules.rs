//! The world's rules in a multi-world game, from the user's side: each sub-world's `Rules`
//! block (right after it, its last block) holds in that sub-world on every path that adds or
//! removes components there (the game's builder, spawn, value spawn and their queued forms,
//! the sub-world's `set_*`, `add_*`, `remove_*`, `add_components`, `remove_components` and
//! their queued forms, a despawn, a copy and a snapshot's load), checked by
//! `check_invariants` after each; and a sub-world's rules are its own (`SPRITE` and
//! `POSITION` share bit 0, but `Core` knows nothing of `Render`'s rules).

use archetypal::Entity;
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Acceleration(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Team(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Turret(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Idle(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Moving(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Attacking(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprite(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tint(pub i32);

/// The velocities the removal hook saw go (a cascade from a removed position included).
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log {
    pub velocities_removed: Vec<(Entity, Option<i32>)>,
}

archetypal::ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            acceleration: Acceleration => ACCELERATION,
            team: Team => TEAM,
            turret: Turret => TURRET,
            idle: Idle => IDLE,
            moving: Moving => MOVING,
            attacking: Attacking => ATTACKING,
        }
        Tags {
            player => PLAYER,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Hooks {
            on_remove(VELOCITY) => velocity_removed,
        }
        Rules {
            VELOCITY requires POSITION,
            ACCELERATION requires VELOCITY,
            TURRET requires TEAM [refuse],
            exclusive(IDLE, MOVING, ATTACKING),
        }
        Render {
            sprite: Sprite => SPRITE,
            tint: Tint => TINT,
        }
        Rules {
            SPRITE requires TINT,
        }
    }
    Resources {
        log: Log,
    }
}

fn velocity_removed(game: &mut GameParts<'_>, entity: Entity, removed: &CoreRemoved) {
    let velocity = removed.velocity.map(|velocity| velocity.0);
    game.resources
        .log
        .velocities_removed
        .push((entity, velocity));
}

fn masks(game: &Game, entity: Entity) -> (Option<CoreMask>, Option<RenderMask>) {
    game.check_invariants().unwrap();
    (
        game.core.component_mask(entity),
        game.render.component_mask(entity),
    )
}

#[test]
fn the_builder_adds_what_each_sub_world_requires_and_keeps_one_member_per_group() {
    let mut game = Game::new();
    let rocket = GameEntityBuilder::new()
        .with_acceleration(Acceleration(3))
        .with_position(Position(7))
        .with_sprite(Sprite(1))
        .spawn_one(&mut game);
    assert_eq!(
        masks(&game, rocket),
        (
            Some(POSITION | VELOCITY | ACCELERATION),
            Some(SPRITE | TINT)
        )
    );
    assert_eq!(
        game.core.get_position(rocket),
        Some(&Position(7)),
        "given values win"
    );
    assert_eq!(game.core.get_velocity(rocket), Some(&Velocity(0)));
    assert_eq!(game.render.get_tint(rocket), Some(&Tint(0)));

    // Copies of a builder, and a group's first declared member winning.
    let units = GameEntityBuilder::new()
        .with_moving(Moving(2))
        .with_idle(Idle(1))
        .with_core_mask(TURRET)
        .spawn(&mut game, 3);
    for &unit in &units {
        assert_eq!(masks(&game, unit), (Some(IDLE | TURRET | TEAM), Some(0)));
        assert_eq!(game.core.get_idle(unit), Some(&Idle(1)));
    }

    // A sub-world's rules are its own: `POSITION` is bit 0 as `SPRITE` is, and requires
    // nothing in `Core`.
    let plain = GameEntityBuilder::new()
        .with_position(Position(1))
        .spawn_one(&mut game);
    assert_eq!(masks(&game, plain), (Some(POSITION), Some(0)));
}

#[test]
fn the_game_s_value_spawn_defaults_what_the_values_require() {
    let mut game = Game::new();
    let spawned = game.spawn_values((1..=3).map(|n| (Acceleration(n), Sprite(n), Position(-n))));
    assert_eq!(spawned.len(), 3);
    for (n, &entity) in (1..=3).zip(&spawned) {
        assert_eq!(
            masks(&game, entity),
            (
                Some(POSITION | VELOCITY | ACCELERATION),
                Some(SPRITE | TINT)
            )
        );
        assert_eq!(game.core.get_acceleration(entity), Some(&Acceleration(n)));
        assert_eq!(game.core.get_position(entity), Some(&Position(-n)));
        assert_eq!(game.core.get_velocity(entity), Some(&Velocity(0)));
        assert_eq!(game.render.get_sprite(entity), Some(&Sprite(n)));
        assert_eq!(game.render.get_tint(entity), Some(&Tint(0)));
    }
    // A sub-world the tuple names nothing in, or whose components require nothing.
    let tinted = game.spawn_values([(Tint(4),)]);
    assert_eq!(masks(&game, tinted[0]), (Some(0), Some(TINT)));
}

#[test]
fn a_value_spawn_of_two_members_of_a_group_panics_before_anything_changes() {
    let mut game = Game::new();
    let kept = game.spawn();
    let spawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.spawn_values([(Sprite(1), Idle(1), Moving(2))])
    }));
    let message = spawn.unwrap_err();
    let message = message.downcast_ref::<&str>().copied().unwrap_or_default();
    assert!(message.contains("exclusive group"), "{message}");
    assert_eq!(game.entity_count(), 1);
    assert_eq!(masks(&game, kept), (Some(0), Some(0)));
    assert_eq!(game.render.query_entities(SPRITE).count(), 0);
}

/// A `Tint` whose `Default` panics once armed: a value spawn requiring one spawns nothing.
mod panicking_default {
    use std::cell::Cell;

    thread_local! {
        pub static ARMED: Cell<bool> = const { Cell::new(false) };
    }

    #[derive(Debug, Clone, PartialEq)]
    pub struct Fragile(pub i32);

    impl Default for Fragile {
        fn default() -> Self {
            assert!(!ARMED.with(Cell::get), "the default blew");
            Fragile(0)
        }
    }

    #[derive(Default, Debug, Clone, PartialEq)]
    pub struct Needy(pub i32);

    archetypal::ecs! {
        FragileGame {
            Core {
                needy: Needy => NEEDY,
                fragile: Fragile => FRAGILE,
            }
            Rules {
                NEEDY requires FRAGILE,
            }
            Other {
                count: u32 => COUNT,
            }
        }
    }
}

#[test]
fn a_required_default_that_panics_in_a_value_spawn_spawns_nothing() {
    use panicking_default::*;
    let mut game = FragileGame::new();
    game.spawn_values([(Needy(1), 5u32)]);
    ARMED.with(|armed| armed.set(true));
    let blown = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.spawn_values([(Needy(2), 6u32), (Needy(3), 7u32)])
    }));
    ARMED.with(|armed| armed.set(false));
    assert!(blown.is_err());
    game.check_invariants().unwrap();
    assert_eq!(game.entity_count(), 1);
    assert_eq!(game.core.query_entities(NEEDY | FRAGILE).count(), 1);
    assert_eq!(game.other.query_entities(COUNT).count(), 1);
    // The tables still take spawns.
    let next = game.spawn_values([(Needy(4), 8u32)]);
    assert_eq!(game.core.get_fragile(next[0]), Some(&Fragile(0)));
    game.check_invariants().unwrap();
}

#[test]
fn each_sub_world_s_methods_keep_its_rules() {
    let mut game = Game::new();
    let entity = game.spawn();
    // Adding: what it requires comes in the same migration.
    assert!(game.core.set_acceleration(entity, Acceleration(2)));
    assert!(game.render.add_sprite(entity));
    assert_eq!(
        masks(&game, entity),
        (
            Some(POSITION | VELOCITY | ACCELERATION),
            Some(SPRITE | TINT)
        )
    );
    // Removing a required component removes its requirers (a cascade requirement), and the
    // removal hook reads the value that went.
    game.core.set_velocity(entity, Velocity(5));
    assert_eq!(game.core.remove_position(entity), Some(Position(0)));
    assert_eq!(masks(&game, entity), (Some(0), Some(SPRITE | TINT)));
    game.apply_commands();
    assert_eq!(game.resources.log.velocities_removed, [(entity, Some(5))]);
    assert!(game.render.remove_components(entity, TINT));
    assert_eq!(masks(&game, entity), (Some(0), Some(0)));

    // `[refuse]`: the team stays while the turret does.
    assert!(game.core.add_components(entity, TURRET));
    assert_eq!(game.core.remove_team(entity), None);
    assert!(!game.core.remove_components(entity, TEAM));
    assert_eq!(masks(&game, entity), (Some(TURRET | TEAM), Some(0)));
    assert!(game.core.remove_components(entity, TURRET | TEAM));

    // An exclusive group: a switch in one migration.
    game.core.add_idle(entity);
    assert!(game.core.set_moving(entity, Moving(3)));
    assert_eq!(masks(&game, entity), (Some(MOVING), Some(0)));
    assert!(game.core.add_attacking(entity));
    assert_eq!(masks(&game, entity), (Some(ATTACKING), Some(0)));
}

#[test]
fn queued_commands_keep_the_rules_of_the_sub_world_they_change() {
    let mut game = Game::new();
    let entity = game.spawn();
    let mut commands = game.commands();
    let queued = commands.queue_spawn(GameEntityBuilder::new().with_velocity(Velocity(1)));
    let reserved = commands.queue_spawn_entities(1)[0];
    commands
        .core()
        .queue_set_acceleration(entity, Acceleration(1));
    commands.core().queue_set_moving(entity, Moving(1));
    commands.core().queue_add_components(entity, IDLE);
    commands.render().queue_set_sprite(reserved, Sprite(2));
    commands.core().queue_add_components(reserved, TURRET);
    commands.core().queue_remove_components(reserved, TEAM);
    game.apply_commands();
    assert_eq!(
        masks(&game, entity),
        (Some(POSITION | VELOCITY | ACCELERATION | IDLE), Some(0))
    );
    assert_eq!(masks(&game, queued), (Some(POSITION | VELOCITY), Some(0)));
    assert_eq!(
        masks(&game, reserved),
        (Some(TURRET | TEAM), Some(SPRITE | TINT))
    );

    game.commands()
        .core()
        .queue_remove_components(entity, POSITION);
    game.apply_commands();
    assert_eq!(masks(&game, entity), (Some(IDLE), Some(0)));
}

#[test]
fn copies_snapshots_and_despawns_keep_the_rules() {
    let mut game = Game::new();
    let parent = GameEntityBuilder::new()
        .with_acceleration(Acceleration(1))
        .with_sprite(Sprite(1))
        .spawn_one(&mut game);
    let child = GameEntityBuilder::new()
        .with_child_of(parent)
        .with_core_mask(TURRET)
        .spawn_one(&mut game);
    let copy = game.clone();
    assert_eq!(
        masks(&copy, child),
        (Some(TURRET | TEAM | CHILD_OF), Some(0))
    );
    let text = serde_json::to_string(&game).unwrap();
    let loaded: Game = serde_json::from_str(&text).unwrap();
    loaded.check_invariants().unwrap();
    assert_eq!(masks(&loaded, parent), masks(&game, parent));

    assert!(game.despawn(parent));
    assert!(!game.is_alive(child), "the cascade reaches it");
    game.check_invariants().unwrap();
}

#[test]
fn a_snapshot_whose_tables_break_a_sub_world_s_rules_is_refused() {
    let mut game = Game::new();
    GameEntityBuilder::new()
        .with_sprite(Sprite(1))
        .spawn_one(&mut game);
    let text = serde_json::to_string(&game).unwrap();
    // The render table without its tint column: a sprite without the tint it requires.
    let broken = text.replacen(r#","tint":[0]"#, "", 1).replacen(
        r#","tint":{"changed":[[1,1]],"added":[[1,1]]}"#,
        "",
        1,
    );
    assert_eq!(broken.len() + 54, text.len(), "both cut: {broken}");
    let Err(error) = serde_json::from_str::<Game>(&broken) else {
        panic!("the broken snapshot loaded");
    };
    let error = error.to_string();
    assert!(error.contains("against the world's rules"), "{error}");
    assert!(serde_json::from_str::<Game>(&text).is_ok());
}
