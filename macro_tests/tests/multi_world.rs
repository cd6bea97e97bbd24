//! The multi-world form: `Game { Core { ... } Render { ... } }` with one set of entities.

use archetypal::{Entity, ecs};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sprite {
    pub name: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tint(pub u32);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit(pub Entity);

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
        Tags {
            player => PLAYER,
        }
        Render {
            sprite: Sprite => SPRITE,
            tint: Tint => TINT,
        }
    }
    Events {
        hit: Hit,
    }
    Resources {
        frame: u64,
    }
}

#[test]
fn sub_worlds_have_their_own_mask_spaces() {
    assert_eq!(POSITION, 1);
    assert_eq!(VELOCITY, 2);
    assert_eq!(PLAYER, 4);
    assert_eq!(SPRITE, 1);
    assert_eq!(TINT, 2);
    assert_eq!(Core::COMPONENT_COUNT, 2);
    assert_eq!(Render::COMPONENT_COUNT, 2);
}

#[test]
fn an_entity_spawned_in_the_whole_takes_components_in_every_sub_world() {
    let mut game = Game::new();
    let entity = game.spawn();
    assert!(game.is_alive(entity));
    assert!(game.core.is_alive(entity) && game.render.is_alive(entity));
    assert_eq!(game.core.component_mask(entity), Some(0));
    assert!(game.core.set_position(entity, Position { x: 1.0, y: 2.0 }));
    assert!(game.render.set_sprite(
        entity,
        Sprite {
            name: "hero".into()
        }
    ));
    assert!(game.core.add_player(entity));
    assert_eq!(
        game.core.get_position(entity),
        Some(&Position { x: 1.0, y: 2.0 })
    );
    assert_eq!(
        game.render.get_sprite(entity).map(|s| s.name.as_str()),
        Some("hero")
    );
    assert_eq!(game.core.component_mask(entity), Some(POSITION | PLAYER));
    assert_eq!(game.render.component_mask(entity), Some(SPRITE));
    assert_eq!(game.entity_count(), 1);
    assert_eq!(game.entities().collect::<Vec<_>>(), vec![entity]);
    game.check_invariants().unwrap();
}

#[test]
fn despawn_reaches_every_sub_world_and_stale_handles_are_refused_everywhere() {
    let mut game = Game::new();
    let entities = game.spawn_entities(3);
    for &entity in &entities {
        game.core.set_position(
            entity,
            Position {
                x: entity.id as f32,
                y: 0.0,
            },
        );
        game.render.set_tint(entity, Tint(entity.id));
    }
    let victim = entities[1];
    assert!(game.despawn(victim));
    assert!(!game.despawn(victim), "double despawn is refused");
    assert!(!game.is_alive(victim));
    assert!(!game.core.is_alive(victim) && !game.render.is_alive(victim));
    // No row left behind in either sub-world.
    assert_eq!(game.core.query_entities(POSITION).count(), 2);
    assert_eq!(game.render.query_entities(TINT).count(), 2);

    // The id comes back with a new generation; the stale handle reaches nothing.
    let recycled = game.spawn();
    assert_eq!(recycled.id, victim.id);
    assert_ne!(recycled.generation, victim.generation);
    game.render.set_tint(recycled, Tint(99));
    assert_eq!(game.core.get_position(victim), None);
    assert_eq!(game.render.get_tint(victim), None);
    assert!(!game.core.set_position(victim, Position::default()));
    assert!(!game.render.add_sprite(victim));
    assert!(!game.core.add_player(victim));
    assert_eq!(game.render.get_tint(recycled), Some(&Tint(99)));
    assert_eq!(
        game.core.get_position(recycled),
        None,
        "the new entity starts empty"
    );
    // The survivors kept their values.
    assert_eq!(
        game.core.get_position(entities[2]).map(|p| p.x),
        Some(entities[2].id as f32)
    );
    assert_eq!(
        game.render.get_tint(entities[0]),
        Some(&Tint(entities[0].id))
    );
    game.check_invariants().unwrap();
}

#[test]
fn the_game_alone_issues_and_recycles_handles() {
    let mut game = Game::new();
    let mut issued = game.spawn_entities(4);
    issued.push(game.spawn());
    game.despawn(issued[0]);
    game.despawn_entities(&issued[1..3]);
    let reserved = game.commands().queue_spawn_entities(2);
    game.commands().queue_despawn(issued[3]);
    game.apply_commands();
    let given_back = game.commands().queue_spawn_entities(1);
    game.clear_commands();
    let live: Vec<Entity> = game.entities().collect();
    assert_eq!(game.entity_count(), 3);
    for (name, entities, records) in [
        (
            "core",
            game.core.entities().collect::<Vec<_>>(),
            game.core.records(),
        ),
        (
            "render",
            game.render.entities().collect(),
            game.render.records(),
        ),
    ] {
        assert_eq!(entities, live, "{name} holds exactly the game's entities");
        // The game's index writes every sub-world's records alike: the same ids, generations
        // and states (the reservations given back in each).
        assert!(records.same_ids(game.core.records()), "{name}");
        assert!(!records.is_reserved(reserved[0]) && !records.is_reserved(given_back[0]));
    }
    // Every freed id comes back from the game, once, at its next generation, in every sub-world.
    let again = game.spawn_entities(4);
    for entity in &again {
        assert!(game.core.is_alive(*entity) && game.render.is_alive(*entity));
        assert!(!live.contains(entity));
    }
    for stale in [issued[0], issued[1], given_back[0]] {
        assert!(!game.core.is_alive(stale) && !game.render.is_alive(stale));
        assert_eq!(game.core.get_position(stale), None);
    }
    game.check_invariants().unwrap();
}

#[test]
fn never_issued_and_default_handles_are_refused_in_every_sub_world() {
    let mut game = Game::new();
    for handle in [Entity::default(), Entity::new(500, 0)] {
        assert!(!game.is_alive(handle));
        assert!(!game.despawn(handle));
        assert!(!game.core.set_position(handle, Position::default()));
        assert!(!game.render.set_sprite(handle, Sprite::default()));
        assert_eq!(game.core.get_position_mut(handle), None);
        assert_eq!(game.render.remove_tint(handle), None);
    }
    game.spawn();
    assert!(
        !game
            .core
            .set_position(Entity::default(), Position::default())
    );
    game.check_invariants().unwrap();
}

#[test]
fn queued_spawns_and_despawns_and_sub_world_commands_apply_in_the_order_queued() {
    let mut game = Game::new();
    let keep = game.spawn();
    let doomed = game.spawn();
    let reserved = game.commands().queue_spawn_entities(2);
    assert!(!game.is_alive(reserved[0]), "not alive before apply");
    let mut commands = game.commands();
    commands
        .core()
        .queue_set_position(reserved[0], Position { x: 7.0, y: 7.0 });
    commands
        .render()
        .queue_set_sprite(reserved[1], Sprite { name: "new".into() });
    commands.core().queue_add_player(keep);
    commands.queue_despawn(doomed);
    commands.render().queue_set_tint(doomed, Tint(1));
    assert_eq!(game.command_count(), 6);

    let report = game.apply_commands();
    // One spawn command (two handles), three sub-world commands and one despawn applied, in
    // the order queued: the reserved handles are alive for the commands queued after their
    // spawn, and `doomed` is dead by the time its tint would be set (skipped).
    assert_eq!((report.applied, report.skipped), (5, 1));
    assert_eq!(game.command_count(), 0);
    assert!(game.is_alive(reserved[0]) && game.is_alive(reserved[1]));
    assert_eq!(
        game.core.get_position(reserved[0]),
        Some(&Position { x: 7.0, y: 7.0 })
    );
    assert_eq!(
        game.render.get_sprite(reserved[1]).map(|s| s.name.as_str()),
        Some("new")
    );
    assert!(game.core.has_player(keep));
    assert!(!game.is_alive(doomed));
    assert_eq!(
        game.render.query_entities(TINT).count(),
        0,
        "no tint row left behind"
    );
    game.check_invariants().unwrap();
}

#[test]
fn cleared_commands_give_reserved_ids_back_in_every_sub_world() {
    let mut game = Game::new();
    let mut commands = game.commands();
    let reserved = commands.queue_spawn_entities(3);
    commands
        .core()
        .queue_set_position(reserved[0], Position::default());
    game.clear_commands();
    assert_eq!(game.command_count(), 0);
    assert_eq!(game.apply_commands().applied, 0);
    assert!(reserved.iter().all(|&entity| !game.is_alive(entity)));
    game.check_invariants().unwrap();
    let next = game.spawn();
    assert!(
        reserved.iter().any(|entity| entity.id == next.id),
        "ids are reused"
    );
    game.check_invariants().unwrap();
}

#[test]
fn step_ages_events_and_advances_every_sub_worlds_tick() {
    let mut game = Game::new();
    let entity = game.spawn();
    game.events.hit.send(Hit(entity));
    game.resources.frame += 1;
    let start = game.current_tick();
    game.step();
    assert!(game.current_tick().is_newer_than(start));
    assert_eq!(game.core.current_tick(), game.render.current_tick());
    assert_eq!(game.events.hit.len(), 1, "events live two frames");
    game.step();
    game.step();
    assert_eq!(game.events.hit.len(), 0);
    assert_eq!(game.resources.frame, 1);
}

#[test]
fn change_detection_is_per_sub_world() {
    let mut game = Game::new();
    let entity = game.spawn();
    game.core.set_position(entity, Position::default());
    game.render.set_tint(entity, Tint(0));
    game.step();
    *game.render.get_tint_mut(entity).unwrap() = Tint(5);
    let since = game.last_tick();
    let core_changed = game
        .core
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, since)
        .count();
    let render_changed = game
        .render
        .typed_query_ref::<Entity>()
        .changed_since(TINT, since)
        .count();
    assert_eq!((core_changed, render_changed), (0, 1));
}

#[test]
fn a_desynchronised_sub_world_is_reported_by_the_checker() {
    // Only reachable through the private storage field and the crate's private spawning
    // functions, i.e. from inside this module: simulates a sub-world issuing a handle of its
    // own, which the game does not know.
    let mut game = Game::new();
    game.spawn();
    let mut stray = archetypal::__private::IndexedStorage {
        index: archetypal::EntityIndex::default(),
        storage: core::mem::take(&mut game.core.storage),
    };
    archetypal::__private::lifecycle::spawn(&mut stray, 0);
    game.core.storage = stray.storage;
    assert!(game.check_invariants().is_err());
}

#[test]
fn a_staged_schedule_drives_a_multi_world() {
    use archetypal::Schedule;

    fn spawn_one(game: &mut Game) {
        let entity = game.spawn();
        game.core.set_velocity(entity, Velocity { x: 1.0, y: 0.0 });
        game.core.add_position(entity);
    }
    fn integrate(game: &mut Game) {
        game.core
            .for_each_table_mut(POSITION | VELOCITY, 0, |table| {
                for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
                    position.x += velocity.x;
                }
            });
    }
    fn paint(game: &mut Game) {
        let moved: Vec<Entity> = game.core.query_entities(POSITION).collect();
        for entity in moved {
            let x = game
                .core
                .get_position(entity)
                .map_or(0.0, |position| position.x);
            game.render.set_tint(entity, Tint(x as u32));
        }
    }

    let mut schedule: Schedule<Game> = Schedule::new();
    schedule
        .add_stage("fixed_update")
        .unwrap()
        .add_stage("render")
        .unwrap();
    schedule.push_to_stage("render", "paint", paint).unwrap();
    schedule
        .push_to_stage("fixed_update", "integrate", integrate)
        .unwrap();
    schedule
        .insert_before("integrate", "spawn", spawn_one)
        .unwrap();
    schedule
        .push("frame", |game: &mut Game| game.step())
        .unwrap();
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        ["spawn", "integrate", "paint", "frame"]
    );

    let mut game = Game::new();
    schedule.run(&mut game);
    // Two more fixed steps before the next render.
    schedule.run_stage("fixed_update", &mut game).unwrap();
    schedule.run_stage("fixed_update", &mut game).unwrap();
    schedule.run_stage("render", &mut game).unwrap();
    let mut tints: Vec<u32> = game
        .render
        .typed_query_ref::<&Tint>()
        .iter()
        .map(|tint| tint.0)
        .collect();
    tints.sort();
    assert_eq!(
        tints,
        [1, 2, 3],
        "entities spawned at steps 1, 2, 3 moved 3, 2, 1 times"
    );
    game.check_invariants().unwrap();
}

#[test]
fn a_game_s_systems_have_a_memory_and_sync_points() {
    use archetypal::{Schedule, SystemContext};

    /// Tints, in the render sub-world, every entity whose position changed since this system
    /// last ran, and counts the hits it reads through its own cursor.
    fn paint(game: &mut Game, context: &mut SystemContext<Game>) {
        let moved: Vec<Entity> = game
            .core
            .typed_query_ref::<Entity>()
            .changed_since(POSITION, context.last_run())
            .iter()
            .collect();
        for entity in moved {
            game.render
                .set_tint(entity, Tint(game.resources.frame as u32));
        }
        game.resources.frame += game.events.hit.consume(&mut context.cursors.hit).len() as u64;
    }

    let mut game = Game::new();
    let [still, mover] = [(); 2].map(|_| {
        let entity = game.spawn();
        game.core.add_position(entity);
        entity
    });
    let mut schedule: Schedule<Game> = Schedule::new();
    schedule
        .push("hit", move |game: &mut Game| {
            game.events.hit.send(Hit(mover));
            // Queued: the schedule applies it before `paint` runs.
            game.commands()
                .core()
                .queue_set_position(mover, Position { x: 1.0, y: 0.0 });
        })
        .unwrap()
        .push("paint", paint)
        .unwrap();
    schedule.run(&mut game);
    assert_eq!(game.resources.frame, 1, "one hit read");
    assert!(
        game.render.has_tint(still) && game.render.has_tint(mover),
        "a first run sees all"
    );
    game.render.remove_tint(still);
    game.render.remove_tint(mover);
    game.step();
    schedule.run(&mut game);
    assert_eq!(game.resources.frame, 2, "each hit read once");
    assert!(
        !game.render.has_tint(still),
        "not moved since paint last ran"
    );
    assert_eq!(game.render.get_tint(mover), Some(&Tint(1)));
    game.check_invariants().unwrap();
}

#[test]
fn a_split_game_iterates_one_sub_world_while_queueing_everywhere() {
    let mut game = Game::new();
    let ships = game.spawn_entities(3);
    for (index, &ship) in ships.iter().enumerate() {
        game.core.set_position(
            ship,
            Position {
                x: index as f32,
                y: 0.0,
            },
        );
        game.render.set_tint(ship, Tint(0));
    }
    let mut parts = game.split_mut();
    parts.core.for_each(POSITION, 0, |entity, table, row| {
        if table.position[row].x >= 1.0 {
            parts
                .commands
                .core()
                .queue_set_velocity(entity, Velocity { x: 1.0, y: 0.0 });
            let shadow = parts.commands.queue_spawn_entities(1)[0];
            parts.commands.render().queue_set_sprite(
                shadow,
                Sprite {
                    name: "shadow".into(),
                },
            );
            parts.render.set_tint(entity, Tint(7));
            parts.events.hit.send(Hit(entity));
            parts.resources.frame += 1;
        } else {
            parts
                .commands
                .queue_despawn_entities(&[entity, Entity::PLACEHOLDER]);
        }
    });
    let report = game.apply_commands();
    assert_eq!(
        (report.applied, report.skipped),
        (7, 1),
        "the placeholder is skipped"
    );
    assert_eq!(game.core.query_entities(VELOCITY).count(), 2);
    assert!(!game.is_alive(ships[0]));
    assert_eq!(game.render.get_tint(ships[2]), Some(&Tint(7)));
    assert_eq!(game.render.query_entities(SPRITE).count(), 2);
    assert_eq!(game.resources.frame, 2);
    assert_eq!(game.events.hit.len(), 2);
    game.check_invariants().unwrap();
}
