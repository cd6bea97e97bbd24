//! Systems of parameters on a multi-world game, as a game writes them: each query names its
//! sub-world through the sub-world's alias (`CoreQuery`, `RenderQuery`), resources, events,
//! locals and the command queue are the game's, and a `Schedule<Game>` runs them as it runs a
//! world's, side by side where their access is disjoint, the memory kept in the game.
//!
//! `POSITION` (in `Core`) and `SPRITE` (in `Render`) are both bit 0: a system that writes both
//! compiles, and two systems that write one each run together, because access is compared per
//! sub-world.

#![allow(clippy::type_complexity)]

use archetypal::{
    Added, Changed, Entity, EventReader, EventWriter, Local, ResMut, Schedule, SystemTicks, Target,
    With, Without, ecs,
};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Sprite(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Tint(pub u32);
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit(pub Entity);

/// What the systems saw, per run.
pub type Log = Vec<String>;

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            health: Health => HEALTH,
        }
        Tags {
            frozen => FROZEN,
        }
        Relations {
            docked_to / docked => DOCKED_TO,
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
        log: Log,
    }
}

/// A ship in both sub-worlds: position, velocity and health in `Core`, a sprite in `Render`.
fn ship(game: &mut Game, x: f32, speed: f32) -> Entity {
    GameEntityBuilder::new()
        .with_position(Position(x))
        .with_velocity(Velocity(speed))
        .with_health(Health(10))
        .with_sprite(Sprite(-1.0))
        .with_tint(Tint(0))
        .spawn_one(game)
}

/// Moves the ships and puts each one's sprite where it went: a query in each sub-world, both
/// written, at the same bit.
fn follow(
    mut ships: CoreQuery<(Entity, &mut Position, &Velocity)>,
    mut sprites: RenderQuery<&mut Sprite>,
) {
    ships.for_each(|(entity, mut position, velocity)| {
        position.0 += velocity.0;
        if let Some(mut sprite) = sprites.get_mut(entity) {
            sprite.0 = position.0;
        }
    });
}

#[test]
fn one_system_writes_two_sub_worlds_at_the_same_bit() {
    assert_eq!(POSITION as u128, SPRITE as u128, "both bit 0");
    let mut game = Game::new();
    let ships = [ship(&mut game, 0.0, 1.0), ship(&mut game, 10.0, -2.0)];
    let mut schedule = Schedule::<Game>::new();
    schedule.add(follow);
    schedule.run(&mut game);
    schedule.run(&mut game);
    assert_eq!(game.core.get_position(ships[0]), Some(&Position(2.0)));
    assert_eq!(game.render.get_sprite(ships[0]), Some(&Sprite(2.0)));
    assert_eq!(game.core.get_position(ships[1]), Some(&Position(6.0)));
    assert_eq!(game.render.get_sprite(ships[1]), Some(&Sprite(6.0)));
    game.check_invariants().unwrap();
}

#[test]
fn two_queries_of_one_sub_world_are_kept_apart_by_their_filters() {
    // The stations (no velocity) heal by the ships' health; one query writes health, the other
    // reads it, in tables the other's filter leaves out.
    fn heal(
        mut stations: CoreQuery<&mut Health, Without<Velocity>>,
        ships: CoreQuery<&Health, With<Velocity>>,
    ) {
        let total: i32 = ships.iter().map(|health| health.0).sum();
        stations.for_each(|mut health| health.0 += total);
    }
    let mut game = Game::new();
    let station = GameEntityBuilder::new()
        .with_health(Health(1))
        .with_sprite(Sprite(0.0))
        .spawn_one(&mut game);
    let ships = [ship(&mut game, 1.0, 0.0), ship(&mut game, 2.0, 0.0)];
    let mut schedule = Schedule::<Game>::new();
    schedule.add(heal);
    schedule.run(&mut game);
    assert_eq!(game.core.get_health(station), Some(&Health(21)));
    for entity in ships {
        assert_eq!(game.core.get_health(entity), Some(&Health(10)));
    }
    game.check_invariants().unwrap();
}

#[test]
fn a_target_term_reads_within_its_own_sub_world() {
    // Turrets (no health) sit on their ship (with health): the term's filter keeps the ships
    // apart from the turrets the query writes.
    fn mount(
        mut turrets: CoreQuery<
            (&mut Position, Target<DOCKED_TO, &Position, With<Health>>),
            Without<Health>,
        >,
        mut sprites: RenderQuery<&mut Sprite>,
    ) {
        turrets.for_each(|(mut position, ship)| {
            if let Some(ship) = ship {
                position.0 = ship.0 + 0.5;
            }
        });
        sprites.for_each(|mut sprite| sprite.0 = 7.0);
    }
    let mut game = Game::new();
    let carrier = ship(&mut game, 4.0, 0.0);
    let turret = GameEntityBuilder::new()
        .with_position(Position(0.0))
        .spawn_one(&mut game);
    game.core.set_docked_to(turret, carrier).unwrap();
    let mut schedule = Schedule::<Game>::new();
    schedule.add(mount);
    schedule.run(&mut game);
    assert_eq!(game.core.get_position(turret), Some(&Position(4.5)));
    assert_eq!(game.render.get_sprite(carrier), Some(&Sprite(7.0)));
    game.check_invariants().unwrap();
}

/// Sends a hit on every ship in reach.
fn shoot(ships: CoreQuery<(Entity, &Position)>, mut hits: EventWriter<Hit>) {
    for (entity, position) in ships.iter() {
        if position.0 >= 5.0 {
            hits.send(Hit(entity));
        }
    }
}

/// Applies the hits it has not read, counts its runs in a local and the frames in a resource,
/// despawns the dead and spawns a wreck's sprite through the game's queue.
fn damage(
    mut hits: EventReader<Hit>,
    mut frame: ResMut<u64>,
    mut log: ResMut<Log>,
    mut runs: Local<u32>,
    mut commands: GameCommands,
) {
    *runs += 1;
    *frame += 1;
    let read: Vec<Entity> = hits.read().into_iter().map(|hit| hit.0).collect();
    for &entity in &read {
        commands.core().queue_set_health(entity, Health(0));
        commands.core().queue_add_frozen(entity);
        commands.queue_spawn(GameEntityBuilder::new().with_sprite(Sprite(99.0)));
    }
    log.push(format!("run {}: {} hits", *runs, read.len()));
}

#[test]
fn a_game_system_takes_resources_events_locals_and_commands() {
    let mut game = Game::new();
    let near = ship(&mut game, 1.0, 0.0);
    let far = ship(&mut game, 6.0, 0.0);
    let mut schedule = Schedule::<Game>::new();
    schedule.add((shoot, damage));
    schedule.run(&mut game);
    assert_eq!(game.resources.frame, 1);
    assert_eq!(game.resources.log, ["run 1: 1 hits"]);
    assert_eq!(game.core.get_health(far), Some(&Health(0)));
    assert!(game.core.has_frozen(far));
    assert_eq!(game.core.get_health(near), Some(&Health(10)));
    assert_eq!(game.entity_count(), 3, "the queued spawn was applied");
    let wreck = game
        .entities()
        .find(|&entity| game.render.get_sprite(entity) == Some(&Sprite(99.0)))
        .unwrap();
    assert_eq!(game.core.get_position(wreck), None, "a sprite only");
    game.step();
    schedule.run(&mut game);
    assert_eq!(
        game.resources.log,
        ["run 1: 1 hits", "run 2: 1 hits"],
        "the new hit, not the old one again"
    );
    assert_eq!(game.resources.frame, 2);
    game.check_invariants().unwrap();
}

#[test]
fn change_filters_name_their_component_by_type_across_frames() {
    fn watch(
        changed: CoreQuery<Entity, Changed<Health>>,
        added: RenderQuery<Entity, Added<Tint>>,
        ticks: SystemTicks,
        mut log: ResMut<Log>,
    ) {
        let mut changed: Vec<Entity> = changed.iter().collect();
        changed.sort();
        let mut added: Vec<Entity> = added.iter().collect();
        added.sort();
        log.push(format!(
            "first {}: changed {changed:?}, added {added:?}",
            ticks.is_first_run()
        ));
    }
    let mut game = Game::new();
    let a = ship(&mut game, 0.0, 0.0);
    let b = GameEntityBuilder::new()
        .with_health(Health(1))
        .spawn_one(&mut game);
    let mut schedule = Schedule::<Game>::new();
    schedule.add(watch);
    schedule.run(&mut game);
    game.step();
    schedule.run(&mut game);
    game.step();
    game.core.set_health(b, Health(2));
    game.render.set_tint(b, Tint(3));
    game.render.set_tint(a, Tint(4)); // written, not added
    schedule.run(&mut game);
    assert_eq!(
        game.resources.log,
        [
            format!("first true: changed {:?}, added {:?}", [a, b], [a]),
            "first false: changed [], added []".to_owned(),
            format!("first false: changed {:?}, added {:?}", [b], [b]),
        ]
    );
}

/// Writes `Core`'s health.
fn regenerate(mut healths: CoreQuery<&mut Health, Without<FROZEN>>) {
    healths.for_each(|mut health| health.0 += 1);
}

/// Writes `Render`'s tint (bit 1, as `VELOCITY`, which `follow` reads).
fn tint(mut tints: RenderQuery<&mut Tint>) {
    tints.for_each(|mut tint| tint.0 += 1);
}

/// Reads `Core`'s positions, which `follow` writes.
fn report(positions: CoreQuery<&Position, Changed<Position>>, mut log: ResMut<Log>) {
    let mut seen: Vec<f32> = positions.iter().map(|position| position.0).collect();
    seen.sort_by(f32::total_cmp);
    log.push(format!("{seen:?}"));
}

#[test]
fn a_game_schedule_runs_disjoint_systems_side_by_side_as_in_order() {
    let run = |parallel: bool| {
        let mut game = Game::new();
        for index in 0..40 {
            let entity = ship(&mut game, index as f32, (index % 3) as f32);
            if index % 4 == 0 {
                game.core.add_frozen(entity);
            }
        }
        let mut schedule = Schedule::<Game>::new();
        schedule.add((follow, regenerate, tint, report, shoot, damage));
        schedule.set_parallel(parallel);
        assert_eq!(
            schedule.batches(),
            [
                vec!["follow", "regenerate", "tint"],
                vec!["report", "shoot"],
                vec!["damage"]
            ],
            "follow writes bit 0 of both sub-worlds, regenerate and tint write others; report \
             reads what follow writes"
        );
        for _ in 0..4 {
            schedule.run(&mut game);
            game.step();
        }
        game.check_invariants().unwrap();
        let mut ships: Vec<(Entity, Position, Health, Sprite, Tint)> = game
            .entities()
            .map(|entity| {
                (
                    entity,
                    game.core.get_position(entity).copied().unwrap_or_default(),
                    game.core.get_health(entity).copied().unwrap_or_default(),
                    game.render.get_sprite(entity).copied().unwrap_or_default(),
                    game.render.get_tint(entity).copied().unwrap_or_default(),
                )
            })
            .collect();
        ships.sort_by_key(|ship| ship.0);
        (ships, game.resources.log.clone(), game.resources.frame)
    };
    let in_order = run(false);
    assert_eq!(in_order.2, 4);
    assert_eq!(in_order.1.len(), 8, "report's and damage's lines, 4 runs");
    assert_eq!(run(true), in_order);
}

#[test]
fn clone_and_restore_carry_what_game_systems_remember() {
    let mut game = Game::new();
    let target = ship(&mut game, 0.0, 0.0);
    let mut schedule = Schedule::<Game>::new();
    schedule.add(damage);
    game.events.hit.send(Hit(target));
    schedule.run(&mut game);
    assert_eq!(game.resources.log, ["run 1: 1 hits"]);
    let confirmed = game.clone();
    game.events.hit.send(Hit(target));
    schedule.run(&mut game);
    assert_eq!(game.resources.log.last().unwrap(), "run 2: 1 hits");
    // The rollback: the second hit and the run that read it are undone. The restored cursor
    // stands past the first hit, so it is not read again; the local counts from the confirmed
    // run.
    game.restore(&confirmed);
    schedule.run(&mut game);
    assert_eq!(game.resources.log, ["run 1: 1 hits", "run 2: 0 hits"]);
    assert_eq!(
        game.clone().resources.log,
        game.resources.log,
        "a clone runs on as the original"
    );
    let mut copy = game.clone();
    game.events.hit.send(Hit(target));
    copy.events.hit.send(Hit(target));
    schedule.run(&mut game);
    schedule.run(&mut copy);
    assert_eq!(copy.resources.log, game.resources.log);
    assert_eq!(copy.resources.log.last().unwrap(), "run 3: 1 hits");
    game.check_invariants().unwrap();
}
