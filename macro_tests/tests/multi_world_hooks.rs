//! Hooks in a multi-world game, from the user's side: the game's own `Hooks` block (`on_spawn`,
//! `on_despawn`, once per entity whatever its sub-worlds) and each sub-world's (its
//! components', tags' and relations'), run at the game's sync point (`game.apply_commands()`)
//! sub-world by sub-world, with the game split apart.

use archetypal::{Entity, Schedule};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprite(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fired {
    Spawned(Entity),
    /// With what the hook read in both sub-worlds.
    PositionAdded(Entity, Option<i32>, Option<u32>),
    /// With the value that went (kept aside for the hook).
    PositionRemoved(Entity, Option<i32>),
    PlayerAdded(Entity),
    Undocked(Entity, Entity),
    SpriteAdded(Entity, Option<u32>),
    SpriteRemoved(Entity, Option<u32>),
    Despawned(Entity),
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log {
    pub fired: Vec<Fired>,
    /// `position_added` gives a sprite of this number to the entity, by the render
    /// sub-world's queue.
    pub sprite_for_positioned: Option<u32>,
}

archetypal::ecs! {
    Game {
        Core {
            position: Position => POSITION,
        }
        Tags {
            player => PLAYER,
        }
        Relations {
            docked_to / docked => DOCKED_TO [cascade],
        }
        Hooks {
            on_add(POSITION) => position_added,
            on_remove(POSITION) => position_removed,
            on_add(PLAYER) => player_added,
            on_unlink(DOCKED_TO) => undocked,
        }
        Render {
            sprite: Sprite => SPRITE,
        }
        Hooks {
            on_add(SPRITE) => sprite_added,
            on_remove(SPRITE) => sprite_removed,
        }
    }
    Resources {
        log: Log,
    }
    Hooks {
        on_spawn => spawned,
        on_despawn => despawned,
    }
}

fn record(game: &mut GameParts<'_>, fired: Fired) {
    game.resources.log.fired.push(fired);
}

fn spawned(game: &mut GameParts<'_>, entity: Entity) {
    record(game, Fired::Spawned(entity));
}

fn position_added(game: &mut GameParts<'_>, entity: Entity) {
    let position = game.core.get_position(entity).map(|position| position.0);
    let sprite = game.render.get_sprite(entity).map(|sprite| sprite.0);
    record(game, Fired::PositionAdded(entity, position, sprite));
    if let Some(number) = game.resources.log.sprite_for_positioned {
        game.commands
            .render()
            .queue_set_sprite(entity, Sprite(number));
    }
}

fn position_removed(game: &mut GameParts<'_>, entity: Entity, removed: &CoreRemoved) {
    let position = removed.position.map(|position| position.0);
    record(game, Fired::PositionRemoved(entity, position));
}

fn player_added(game: &mut GameParts<'_>, entity: Entity) {
    record(game, Fired::PlayerAdded(entity));
}

fn undocked(game: &mut GameParts<'_>, drone: Entity, station: Entity) {
    record(game, Fired::Undocked(drone, station));
}

fn sprite_added(game: &mut GameParts<'_>, entity: Entity) {
    let sprite = game.render.get_sprite(entity).map(|sprite| sprite.0);
    record(game, Fired::SpriteAdded(entity, sprite));
}

fn sprite_removed(game: &mut GameParts<'_>, entity: Entity, removed: &RenderRemoved) {
    let sprite = removed.sprite.map(|sprite| sprite.0);
    record(game, Fired::SpriteRemoved(entity, sprite));
}

fn despawned(game: &mut GameParts<'_>, entity: Entity) {
    assert_eq!(game.core.check_invariants(), Ok(()));
    record(game, Fired::Despawned(entity));
}

fn sync(game: &mut Game) -> Vec<Fired> {
    game.apply_commands();
    core::mem::take(&mut game.resources.log.fired)
}

use Fired::*;

#[test]
fn a_spawn_and_a_despawn_fire_once_per_entity_across_sub_worlds() {
    let mut game = Game::new();
    let ship = GameEntityBuilder::new()
        .with_position(Position(4))
        .with_sprite(Sprite(7))
        .spawn_one(&mut game);
    let empty = game.spawn();
    assert!(game.resources.log.fired.is_empty());
    assert_eq!(
        sync(&mut game),
        [
            // The first sub-world's changes, then the next's: the game's `on_spawn` with the
            // first's.
            Spawned(ship),
            PositionAdded(ship, Some(4), Some(7)),
            Spawned(empty),
            SpriteAdded(ship, Some(7)),
        ]
    );
    game.despawn(ship);
    game.despawn(empty);
    assert_eq!(
        sync(&mut game),
        [
            // The game's `on_despawn` after every sub-world's removals.
            PositionRemoved(ship, Some(4)),
            SpriteRemoved(ship, Some(7)),
            Despawned(ship),
            Despawned(empty),
        ]
    );
    assert!(sync(&mut game).is_empty());
}

#[test]
fn every_game_path_fires() {
    let mut game = Game::new();
    let batch = game.spawn_entities(2);
    let copies = GameEntityBuilder::new()
        .with_sprite(Sprite(1))
        .spawn(&mut game, 2);
    let queued = game
        .commands()
        .queue_spawn(GameEntityBuilder::new().with_position(Position(5)));
    // The changes made directly first (the first sub-world's, then the next's), then the
    // queued spawn's, once it is applied.
    let mut expected: Vec<Fired> = batch.iter().map(|&entity| Spawned(entity)).collect();
    expected.extend(copies.iter().map(|&entity| Spawned(entity)));
    expected.extend(copies.iter().map(|&entity| SpriteAdded(entity, Some(1))));
    expected.extend([Spawned(queued), PositionAdded(queued, Some(5), None)]);
    assert_eq!(sync(&mut game), expected);

    // A sub-world's own changes, direct and queued.
    game.core.add_position(batch[0]);
    game.core.add_player(batch[0]);
    game.commands()
        .render()
        .queue_remove_components(copies[0], SPRITE);
    game.commands().queue_despawn(batch[1]);
    assert_eq!(
        sync(&mut game),
        [
            PositionAdded(batch[0], Some(0), None),
            PlayerAdded(batch[0]),
            SpriteRemoved(copies[0], Some(1)),
            Despawned(batch[1]),
        ]
    );
    game.despawn_entities(&copies);
    assert_eq!(
        sync(&mut game),
        [
            Despawned(copies[0]),
            SpriteRemoved(copies[1], Some(1)),
            Despawned(copies[1])
        ]
    );
}

#[test]
fn a_cascade_fires_each_entity_s_hooks_once() {
    let mut game = Game::new();
    let station = GameEntityBuilder::new()
        .with_position(Position(0))
        .spawn_one(&mut game);
    let drones: Vec<Entity> = (0..3)
        .map(|_| {
            GameEntityBuilder::new()
                .with_position(Position(1))
                .with_sprite(Sprite(2))
                .with_docked_to(station)
                .spawn_one(&mut game)
        })
        .collect();
    sync(&mut game);
    game.despawn(station);
    let fired = sync(&mut game);
    for &entity in drones.iter().chain([&station]) {
        let count = |wanted: Fired| fired.iter().filter(|&&f| f == wanted).count();
        assert_eq!(count(Despawned(entity)), 1);
        let position = if entity == station { 0 } else { 1 };
        assert_eq!(count(PositionRemoved(entity, Some(position))), 1);
    }
    for &drone in &drones {
        assert_eq!(
            fired
                .iter()
                .filter(|&&f| f == Undocked(drone, station))
                .count(),
            1
        );
        assert!(fired.contains(&SpriteRemoved(drone, Some(2))));
    }
    assert_eq!(fired.len(), 3 + 4 + 3 + 4);
    // Each entity's despawn comes after its removals in every sub-world.
    let at = |wanted: Fired| fired.iter().position(|&f| f == wanted).unwrap();
    for &drone in &drones {
        assert!(at(Despawned(drone)) > at(PositionRemoved(drone, Some(1))));
        assert!(at(Despawned(drone)) > at(SpriteRemoved(drone, Some(2))));
    }
    assert!(at(Despawned(station)) > at(PositionRemoved(station, Some(0))));
}

#[test]
fn a_hook_s_queued_commands_run_their_hooks_in_the_same_sync_point() {
    let mut game = Game::new();
    game.resources.log.sprite_for_positioned = Some(9);
    let entity = GameEntityBuilder::new()
        .with_position(Position(3))
        .spawn_one(&mut game);
    assert_eq!(
        sync(&mut game),
        [
            Spawned(entity),
            PositionAdded(entity, Some(3), None),
            SpriteAdded(entity, Some(9)),
        ]
    );
    assert_eq!(game.render.get_sprite(entity), Some(&Sprite(9)));
    assert_eq!(game.command_count(), 0);
}

#[test]
fn only_the_game_s_sync_point_runs_the_hooks() {
    let mut game = Game::new();
    let entity = game.spawn();
    // A sub-world's own change: its hooks wait for the game's sync point.
    game.core.add_player(entity);
    assert!(game.core.has_player(entity));
    assert!(game.core.hooks_pending());
    assert!(game.hooks_pending());
    assert!(game.resources.log.fired.is_empty());
    assert_eq!(sync(&mut game), [Spawned(entity), PlayerAdded(entity)]);
    assert!(!game.core.hooks_pending());
    assert!(!game.hooks_pending());
    // A later sub-world's change alone: the game says so too.
    game.render.add_sprite(entity);
    assert!(!game.core.hooks_pending());
    assert!(game.hooks_pending());
    sync(&mut game);
    assert!(!game.hooks_pending());
}

#[test]
fn copies_start_with_nothing_waiting() {
    let mut game = Game::new();
    game.spawn();
    let mut copy = game.clone();
    assert!(sync(&mut copy).is_empty());
    assert_eq!(sync(&mut game).len(), 1);
    let entity = copy.spawn();
    assert_eq!(sync(&mut copy), [Spawned(entity)]);
}

#[test]
fn a_schedule_runs_a_game_s_hooks_after_each_system() {
    fn spawn_ship(game: &mut Game) {
        GameEntityBuilder::new()
            .with_sprite(Sprite(1))
            .spawn_one(game);
    }
    fn check(game: &mut Game) {
        assert_eq!(game.resources.log.fired.len(), 2);
    }
    let mut game = Game::new();
    let mut schedule = Schedule::new();
    schedule.push("spawn", spawn_ship).unwrap();
    schedule.push("check", check).unwrap();
    schedule.run(&mut game);
    assert_eq!(game.resources.log.fired.len(), 2);
}
