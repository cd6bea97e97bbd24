//! A multi-world game's `EntityBuilder`: one builder over every sub-world's components,
//! spawning into all of them at once (`spawn_one`, `spawn(count)`, `queue_spawn`).

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use archetypal::{Entity, LifecycleCommand, ecs};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position(pub f32, pub f32);

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sprite(pub String);

/// A component that is not `Clone`.
#[derive(Debug, Default, PartialEq)]
pub struct Voice(pub u32);

thread_local! {
    /// Whether a `Fragile`'s `Default` panics.
    static FRAGILE: Cell<bool> = const { Cell::new(false) };
}

/// A component whose `Default` panics while `FRAGILE` is set.
#[derive(Clone, Debug, PartialEq)]
pub struct Fragile(pub u8);

impl Default for Fragile {
    fn default() -> Self {
        if FRAGILE.with(Cell::get) {
            panic!("a fragile default");
        }
        Fragile(0)
    }
}

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            voice: Voice => VOICE,
        }
        Tags {
            player => PLAYER,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Render {
            sprite: Sprite => SPRITE,
            fragile: Fragile => FRAGILE_MASK,
        }
        Relations {
            seen_by / seen => SEEN_BY,
        }
    }
}

fn sprite(name: &str) -> Sprite {
    Sprite(name.into())
}

/// Every sub-world holds exactly the game's entities, and the invariants hold.
/// The handles of the queued spawns waiting with values, in the order queued.
fn staged_spawns(game: &Game) -> Vec<Entity> {
    let queued = game.queued_commands();
    queued.staged().spawns().map(|(entity, _)| entity).collect()
}

fn consistent(game: &Game) {
    game.check_invariants().unwrap();
    let live: Vec<Entity> = game.entities().collect();
    assert_eq!(game.core.entities().collect::<Vec<_>>(), live);
    assert_eq!(game.render.entities().collect::<Vec<_>>(), live);
}

#[test]
fn spawn_one_gives_each_sub_world_its_values_and_tags() {
    let mut game = Game::new();
    let hero = GameEntityBuilder::new()
        .with_position(Position(1.0, 2.0))
        .with_sprite(sprite("hero"))
        .with_core_mask(PLAYER)
        .spawn_one(&mut game);
    assert!(game.is_alive(hero));
    assert_eq!(game.core.get_position(hero), Some(&Position(1.0, 2.0)));
    assert_eq!(game.render.get_sprite(hero), Some(&sprite("hero")));
    assert!(game.core.has_player(hero));
    assert_eq!(game.core.component_mask(hero), Some(POSITION | PLAYER));
    assert_eq!(game.render.component_mask(hero), Some(SPRITE));

    // A builder with nothing for a sub-world gives it an empty row there.
    let bare = GameEntityBuilder::new()
        .with_sprite(sprite("bare"))
        .spawn_one(&mut game);
    assert_eq!(game.core.component_mask(bare), Some(0));
    // A mask gives the components the builder holds no value for, defaulted.
    let defaulted = GameEntityBuilder::new()
        .with_render_mask(SPRITE | FRAGILE_MASK)
        .spawn_one(&mut game);
    assert_eq!(game.render.get_fragile(defaulted), Some(&Fragile(0)));
    assert_eq!(game.render.get_sprite(defaulted), Some(&Sprite::default()));
    assert_eq!(game.entity_count(), 3);
    consistent(&game);
}

#[test]
fn a_builder_grows_conditionally_and_moves_values_that_are_not_clone() {
    let mut game = Game::new();
    let mut builder = GameEntityBuilder::new();
    for step in 0..3 {
        if step % 2 == 0 {
            builder = builder.with_position(Position(step as f32, 0.0));
        }
    }
    // `Voice` is not `Clone`: one entity takes it by move.
    let speaker = builder.with_voice(Voice(9)).spawn_one(&mut game);
    assert_eq!(game.core.get_position(speaker), Some(&Position(2.0, 0.0)));
    assert_eq!(game.core.get_voice(speaker), Some(&Voice(9)));
    consistent(&game);
}

#[test]
fn spawn_copies_the_values_into_every_entity() {
    let mut game = Game::new();
    let first = game.spawn();
    let spawned = GameEntityBuilder::new()
        .with_position(Position(3.0, 4.0))
        .with_sprite(sprite("crowd"))
        .spawn(&mut game, 4);
    assert_eq!(spawned.len(), 4);
    for &entity in &spawned {
        assert_ne!(entity, first);
        assert_eq!(game.core.get_position(entity), Some(&Position(3.0, 4.0)));
        assert_eq!(game.render.get_sprite(entity), Some(&sprite("crowd")));
    }
    assert!(
        GameEntityBuilder::new()
            .with_sprite(sprite("nobody"))
            .spawn(&mut game, 0)
            .is_empty()
    );
    assert_eq!(game.entity_count(), 5);
    consistent(&game);
}

#[test]
fn a_batch_of_a_value_that_is_not_clone_panics_before_spawning_anything() {
    let mut game = Game::new();
    game.spawn();
    let panic = catch_unwind(AssertUnwindSafe(|| {
        GameEntityBuilder::new()
            .with_sprite(sprite("choir"))
            .with_voice(Voice(1))
            .spawn(&mut game, 2)
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("`voice`"), "{message}");
    assert_eq!(game.entity_count(), 1);
    consistent(&game);
    // Nothing was issued: the next handle is the one after the first.
    assert_eq!(game.spawn().id, 1);
}

#[test]
fn links_are_made_in_the_sub_world_of_each_relation() {
    let mut game = Game::new();
    let ship = game.spawn();
    let camera = game.spawn();
    let crew = GameEntityBuilder::new()
        .with_position(Position(0.0, 1.0))
        .with_child_of(ship)
        .with_seen_by(camera)
        .spawn(&mut game, 3);
    assert_eq!(game.core.get_children(ship), crew.as_slice());
    assert_eq!(game.render.get_seen(camera), crew.as_slice());
    for &member in &crew {
        assert_eq!(game.core.get_child_of(member), Some(ship));
        assert_eq!(game.render.get_seen_by(member), Some(camera));
    }
    // A target that is not alive leaves the entity unlinked.
    game.despawn(camera);
    let unseen = GameEntityBuilder::new()
        .with_seen_by(camera)
        .spawn_one(&mut game);
    assert_eq!(game.render.get_seen_by(unseen), None);
    // The cascade reaches what the builder linked.
    game.despawn(ship);
    assert!(crew.iter().all(|&member| !game.is_alive(member)));
    consistent(&game);
}

#[test]
fn a_default_that_panics_in_a_later_sub_world_leaves_no_sub_world_holding_the_entities() {
    let mut game = Game::new();
    let kept = GameEntityBuilder::new()
        .with_position(Position(5.0, 5.0))
        .spawn_one(&mut game);
    let target = game.spawn();
    FRAGILE.with(|fragile| fragile.set(true));
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        GameEntityBuilder::new()
            .with_position(Position(1.0, 1.0))
            .with_child_of(target)
            .with_render_mask(FRAGILE_MASK)
            .spawn(&mut game, 3)
    }));
    FRAGILE.with(|fragile| fragile.set(false));
    assert!(panicked.is_err());
    // Core had placed and linked them; they are gone from it again, links undone.
    assert_eq!(game.entity_count(), 2);
    assert_eq!(game.core.entity_count(), 2);
    assert!(game.core.get_children(target).is_empty());
    assert_eq!(game.core.get_position(kept), Some(&Position(5.0, 5.0)));
    consistent(&game);
    // The game goes on, and issues no handle a live entity holds.
    let after = GameEntityBuilder::new()
        .with_render_mask(FRAGILE_MASK)
        .spawn(&mut game, 2);
    assert!(after.iter().all(|&entity| game.is_alive(entity)));
    assert!(!after.contains(&kept) && !after.contains(&target));
    consistent(&game);
}

#[test]
fn a_queued_spawn_is_usable_by_later_commands_and_alive_once_applied() {
    let mut game = Game::new();
    let mut parts = game.split_mut();
    let ship = parts
        .commands
        .queue_spawn(GameEntityBuilder::new().with_sprite(sprite("ship")));
    let pilot = parts.commands.queue_spawn(
        GameEntityBuilder::new()
            .with_position(Position(0.0, 2.0))
            .with_child_of(ship),
    );
    // A sub-world's command on a handle not alive yet: applied after its spawn.
    parts.commands.core().queue_add_player(pilot);
    assert!(!parts.core.is_alive(ship));
    assert_eq!(game.command_count(), 2, "the two spawns are one command");
    // The two spawns are one command, the sub-world's command waits after it.
    assert!(matches!(
        game.queued_commands()[..],
        [
            GameCommand::Lifecycle(LifecycleCommand::SpawnBuilt { count: 2, .. }),
            GameCommand::Core(CoreCommand::Structural(..)),
        ]
    ));
    let staged = staged_spawns(&game);
    assert_eq!(staged, [ship, pilot]);
    let report = game.apply_commands();
    assert_eq!((report.applied, report.skipped), (3, 0));
    assert_eq!(game.render.get_sprite(ship), Some(&sprite("ship")));
    assert_eq!(game.core.get_position(pilot), Some(&Position(0.0, 2.0)));
    assert_eq!(game.core.get_child_of(pilot), Some(ship), "linked at apply");
    assert!(game.core.has_player(pilot));
    assert_eq!(game.command_count(), 0);
    consistent(&game);
}

#[test]
fn cleared_queued_spawns_never_come_alive_and_give_their_handles_back() {
    let mut game = Game::new();
    let queued = game
        .commands()
        .queue_spawn(GameEntityBuilder::new().with_voice(Voice(3)));
    game.clear_commands();
    assert_eq!(game.command_count(), 0);
    assert_eq!(game.apply_commands().applied, 0);
    assert!(!game.is_alive(queued));
    let spawned = game.spawn();
    assert_eq!(spawned.id, queued.id, "the reservation was given back");
    assert!(!game.is_alive(queued));
    consistent(&game);
}

#[test]
fn a_queued_spawn_that_panics_drops_only_itself_and_requeues_the_rest() {
    let mut game = Game::new();
    let doomed = game.spawn();
    let mut commands = game.commands();
    let fragile = commands.queue_spawn(GameEntityBuilder::new().with_render_mask(FRAGILE_MASK));
    commands.queue_despawn(doomed);
    let later = commands.queue_spawn(GameEntityBuilder::new().with_sprite(sprite("later")));
    FRAGILE.with(|flag| flag.set(true));
    let panicked = catch_unwind(AssertUnwindSafe(|| game.apply_commands()));
    FRAGILE.with(|flag| flag.set(false));
    assert!(panicked.is_err());
    assert!(
        !game.is_alive(fragile),
        "the spawn that panicked is not done"
    );
    assert!(game.is_alive(doomed));
    assert!(matches!(
        game.queued_commands()[..],
        [
            GameCommand::Lifecycle(LifecycleCommand::Despawn(despawned)),
            GameCommand::Lifecycle(LifecycleCommand::SpawnBuilt { count: 1, .. }),
        ] if despawned == doomed
    ));
    let staged = staged_spawns(&game);
    assert_eq!(
        staged,
        [later],
        "the spawn that panicked is no longer staged"
    );
    consistent(&game);
    let report = game.apply_commands();
    assert_eq!((report.applied, report.skipped), (2, 0));
    assert_eq!(game.render.get_sprite(later), Some(&sprite("later")));
    assert!(!game.is_alive(doomed));
    consistent(&game);
}

#[test]
fn a_run_of_queued_spawns_cut_by_a_panic_keeps_the_spawns_before_and_gives_the_rest_back() {
    let mut game = Game::new();
    let mut commands = game.commands();
    let first = commands.queue_spawn(GameEntityBuilder::new().with_sprite(sprite("first")));
    let fragile = commands.queue_spawn(GameEntityBuilder::new().with_render_mask(FRAGILE_MASK));
    let last = commands.queue_spawn(GameEntityBuilder::new().with_sprite(sprite("last")));
    let after = commands.queue_spawn_entities(1)[0];
    // The three queued spawns are one command (one run), the empty spawn another.
    assert_eq!(game.command_count(), 2);
    FRAGILE.with(|flag| flag.set(true));
    let panicked = catch_unwind(AssertUnwindSafe(|| game.apply_commands()));
    FRAGILE.with(|flag| flag.set(false));
    assert!(panicked.is_err());
    assert_eq!(game.render.get_sprite(first), Some(&sprite("first")));
    assert!(!game.is_alive(fragile) && !game.is_alive(last));
    assert_eq!(staged_spawns(&game), []);
    assert_eq!(game.command_count(), 1, "the command after the run waits");
    consistent(&game);
    assert_eq!(game.apply_commands().applied, 1);
    assert!(game.is_alive(after));
    // `fragile`'s id was freed and `last`'s given back: both are issued again.
    let again = [game.spawn(), game.spawn()];
    let mut ids: Vec<u32> = again.iter().map(|entity| entity.id).collect();
    ids.sort_unstable();
    let mut expected = vec![fragile.id, last.id];
    expected.sort_unstable();
    assert_eq!(ids, expected);
    assert!(
        !game.is_alive(fragile) && !game.is_alive(last),
        "stale handles"
    );
    consistent(&game);
}
