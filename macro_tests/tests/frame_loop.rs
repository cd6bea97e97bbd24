//! A frame loop: ticks and `step()`, and an `archetypal::Schedule<World>` whose systems use
//! tags and events together: movement, a collision system that sends events, a damage system
//! that consumes them and tags the dead, a cleanup system that despawns them, and a scoring
//! system that reads the death events. The game is written twice: as whole-world systems (the
//! damage system reading through the cursor its `SystemContext` keeps, the scoring system
//! through one it keeps itself), and as systems of parameters (each reader an `EventReader`,
//! its cursor kept in the world). The final state after several frames is checked exactly, for
//! both; a restored world replays the same frames; schedule edits with taken or unknown names
//! are errors.

use std::cell::RefCell;
use std::rc::Rc;

use archetypal::{
    Entity, EventCursor, EventReader, EventWriter, Local, Res, ResMut, Schedule, ScheduleError,
    SystemContext, SystemTicks, Tick, With, Without, ecs,
};

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Velocity(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollisionEvent {
    pub a: Entity,
    pub b: Entity,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeathEvent {
    pub entity: Entity,
    pub was_player: bool,
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        player => PLAYER,
        dead => DEAD,
    }
    Events {
        collision: CollisionEvent,
        death: DeathEvent,
    }
    Resources {
        frame: u32,
        score: Score,
        camera: Option<i32>,
        log: Vec<String>,
        /// What the readers of collisions saw: (reader, frame, event).
        collisions_read: Vec<(&'static str, u32, CollisionEvent)>,
        /// The tick each system saw itself run at: (system, tick).
        run_ticks: Vec<(&'static str, Tick)>,
    }
}

/// Deaths so far.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub deaths: u32,
    pub player_deaths: u32,
}

#[track_caller]
fn valid(world: &World) {
    if let Err(error) = world.check_invariants() {
        panic!("{error}");
    }
}

// ----- ticks ----------------------------------------------------------------------------------

#[test]
fn a_new_world_ends_no_frame_yet() {
    let world = World::new();
    assert!(
        world.current_tick().is_newer_than(world.last_tick()),
        "current {:?}, last {:?}",
        world.current_tick(),
        world.last_tick()
    );
    assert_eq!(world.current_tick(), world.last_tick().next());
}

#[test]
fn step_makes_the_current_tick_the_last_and_advances_by_one() {
    let mut world = World::new();
    let start = world.current_tick();
    for frame in 1..=5u32 {
        let before = world.current_tick();
        world.step();
        assert_eq!(world.last_tick(), before, "frame {frame}");
        assert_eq!(world.current_tick(), before.next(), "frame {frame}");
        assert_eq!(world.current_tick(), Tick(start.0 + frame));
    }
}

#[test]
fn increment_tick_advances_without_ending_the_frame() {
    let mut world = World::new();
    let last = world.last_tick();
    let start = world.current_tick();
    let next = world.increment_tick();
    assert_eq!(next, start.next(), "returns the new tick");
    assert_eq!(world.current_tick(), next);
    assert_eq!(world.last_tick(), last, "the frame has not ended");
    world.increment_tick();
    world.increment_tick();
    assert_eq!(world.current_tick(), Tick(start.0 + 3));
    world.step();
    assert_eq!(world.last_tick(), Tick(start.0 + 3));
    assert_eq!(world.current_tick(), Tick(start.0 + 4));
}

#[test]
fn structural_changes_and_events_do_not_move_the_ticks() {
    let mut world = World::new();
    let (current, last) = (world.current_tick(), world.last_tick());
    let entity = world.spawn(POSITION | PLAYER);
    world.set_velocity(entity, Velocity(1));
    world.add_dead(entity);
    world.events.collision.send(CollisionEvent {
        a: entity,
        b: entity,
    });
    world.despawn(entity);
    assert_eq!((world.current_tick(), world.last_tick()), (current, last));
}

// ----- the systems ----------------------------------------------------------------------------

/// Moves everything that moves and is not dead.
fn movement(world: &mut World) {
    world.for_each_table_mut(POSITION | VELOCITY, DEAD, |table| {
        for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
            position.0 += velocity.0;
        }
    });
}

/// Sends a collision for every pair of live, not dead entities on the same cell.
fn collision(world: &mut World) {
    let mut cells: Vec<(i32, Entity)> = Vec::new();
    world.for_each(POSITION, DEAD, |entity, table, index| {
        cells.push((table.position[index].0, entity));
    });
    cells.sort();
    let mut events = Vec::new();
    for (i, &(cell, a)) in cells.iter().enumerate() {
        for &(other_cell, b) in &cells[i + 1..] {
            if other_cell == cell {
                events.push(CollisionEvent { a, b });
            }
        }
    }
    for event in events {
        world.events.collision.send(event);
    }
}

/// Each collision costs both sides a point of health; at zero an entity is tagged dead and a
/// death event goes out. The schedule keeps the system's cursor in its context.
fn damage(world: &mut World, context: &mut SystemContext<World>) {
    let hits: Vec<CollisionEvent> = world
        .events
        .collision
        .consume(&mut context.cursors.collision)
        .into_iter()
        .copied()
        .collect();
    for hit in hits {
        for entity in [hit.a, hit.b] {
            if world.has_dead(entity) {
                continue;
            }
            let Some(health) = world.get_health_mut(entity).map(|health| {
                health.0 = health.0.saturating_sub(1);
                health.0
            }) else {
                continue;
            };
            if health == 0 {
                assert!(world.add_dead(entity));
                let was_player = world.has_player(entity);
                world.events.death.send(DeathEvent { entity, was_player });
            }
        }
    }
}

/// Despawns every entity tagged dead.
fn cleanup(world: &mut World) {
    let dead: Vec<Entity> = world.query_entities(DEAD).collect();
    let despawned = world.despawn_entities(&dead);
    assert_eq!(despawned.len(), dead.len());
}

/// The camera follows the player, if any.
fn camera(world: &mut World) {
    let camera = world
        .query_entities(PLAYER)
        .next()
        .and_then(|player| world.get_position(player))
        .map(|position| position.0);
    world.resources.camera = camera;
}

/// The scene the loop runs on: the player walks right into two rocks and meets an enemy
/// walking left.
struct Scene {
    player: Entity,
    rocks: [Entity; 2],
    enemy: Entity,
}

fn spawn_scene(world: &mut World) -> Scene {
    let player = world.spawn(POSITION | VELOCITY | HEALTH | PLAYER);
    world.set_velocity(player, Velocity(1));
    world.set_health(player, Health(3));
    let rocks = [2, 4].map(|x| {
        let rock = world.spawn(POSITION | HEALTH);
        world.set_position(rock, Position(x));
        world.set_health(rock, Health(1));
        rock
    });
    let enemy = world.spawn(POSITION | VELOCITY | HEALTH);
    world.set_position(enemy, Position(10));
    world.set_velocity(enemy, Velocity(-1));
    world.set_health(enemy, Health(2));
    valid(world);
    Scene {
        player,
        rocks,
        enemy,
    }
}

/// The schedule of the game, in run order; `scoring` keeps its own cursor in its closure (the
/// manual form: `damage` lets the schedule keep it).
fn game_schedule() -> Result<Schedule<World>, ScheduleError> {
    let mut schedule = Schedule::new();
    let mut death_cursor = EventCursor::new();
    schedule
        .push("movement", movement)?
        .push("collision", collision)?
        .push("damage", damage)?
        .push("cleanup", cleanup)?
        .push("scoring", move |world: &mut World| {
            let deaths: Vec<DeathEvent> = world
                .events
                .death
                .consume(&mut death_cursor)
                .into_iter()
                .copied()
                .collect();
            for death in deaths {
                world.resources.score.deaths += 1;
                world.resources.score.player_deaths += u32::from(death.was_player);
            }
        })?
        .push("camera", camera)?
        .insert_before("movement", "frame_counter", |world: &mut World| {
            world.resources.frame += 1;
        })?;
    Ok(schedule)
}

/// What a frame must leave: player x, player health, alive count, deaths so far, collisions sent
/// this frame.
type FrameEnd = (Option<i32>, Option<u32>, usize, u32, usize);

#[test]
fn a_frame_loop_of_scheduled_systems_over_tags_and_events() {
    play_the_scene(game_schedule().unwrap());
}

#[test]
fn a_frame_loop_of_parameter_systems_over_tags_and_events() {
    play_the_scene(parameters::game_schedule());
}

/// Runs `schedule`, either form of the game, over the scene for seven frames, checking every
/// frame's end and the final state.
fn play_the_scene(mut schedule: Schedule<World>) {
    let mut world = World::new();
    let scene = spawn_scene(&mut world);
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        [
            "frame_counter",
            "movement",
            "collision",
            "damage",
            "cleanup",
            "scoring",
            "camera"
        ]
    );
    let start = world.current_tick();

    let expected: [FrameEnd; 7] = [
        (Some(1), Some(3), 4, 0, 0), // enemy at 9
        (Some(2), Some(2), 3, 1, 1), // meets rock 1: the rock dies
        (Some(3), Some(2), 3, 1, 0), // enemy at 7
        (Some(4), Some(1), 2, 2, 1), // rock 2 dies
        (None, None, 1, 3, 1),       // player and enemy meet at 5: the player dies
        (None, None, 1, 3, 0),       // enemy at 4
        (None, None, 1, 3, 0),       // enemy at 3
    ];
    for (frame, &(x, health, alive, deaths, collisions)) in expected.iter().enumerate() {
        schedule.run(&mut world);
        valid(&world);
        let what = format!("frame {}", frame + 1);
        assert_eq!(world.resources.frame, frame as u32 + 1, "{what}");
        assert_eq!(
            world.get_position(scene.player).map(|p| p.0),
            x,
            "{what}: player position"
        );
        assert_eq!(world.resources.camera, x, "{what}: camera");
        assert_eq!(
            world.get_health(scene.player).map(|h| h.0),
            health,
            "{what}"
        );
        assert_eq!(world.entity_count(), alive, "{what}: alive");
        assert_eq!(world.resources.score.deaths, deaths, "{what}: deaths");
        assert_eq!(
            world.events.collision.read().count(),
            collisions + usize::from(frame > 0 && expected[frame - 1].4 > 0),
            "{what}: this frame's and last frame's collisions"
        );
        assert_eq!(world.query_entities(DEAD).count(), 0, "{what}: cleanup ran");
        world.step();
        // A tick per system, and one for `step`.
        let per_frame = schedule.len() as u32 + 1;
        assert_eq!(
            world.current_tick(),
            Tick(start.0 + (frame as u32 + 1) * per_frame)
        );
    }

    // Final state.
    for gone in [scene.player, scene.rocks[0], scene.rocks[1]] {
        assert!(!world.is_alive(gone));
        assert!(!world.has_player(gone) && !world.has_dead(gone));
    }
    assert_eq!(world.entities().collect::<Vec<_>>(), vec![scene.enemy]);
    assert_eq!(world.get_position(scene.enemy), Some(&Position(3)));
    assert_eq!(world.get_health(scene.enemy), Some(&Health(1)));
    assert_eq!(world.query_entities(PLAYER).count(), 0);
    assert_eq!(world.query_entities(DEAD).count(), 0);
    assert_eq!(world.resources.score.deaths, 3);
    assert_eq!(world.resources.score.player_deaths, 1);
    assert_eq!(world.resources.camera, None);
    assert!(
        world.events.collision.is_empty(),
        "the last collision has expired"
    );
    assert!(world.events.death.is_empty());
    let per_frame = schedule.len() as u32 + 1;
    assert_eq!(world.current_tick(), Tick(start.0 + 7 * per_frame));
    assert_eq!(world.last_tick(), Tick(start.0 + 7 * per_frame - 1));
    valid(&world);
}

#[test]
fn a_consumer_scheduled_before_the_sender_sees_last_frames_events() {
    let mut world = World::new();
    spawn_scene(&mut world);
    let mut schedule = game_schedule().unwrap();
    let early = Rc::new(RefCell::new(Vec::<(u32, CollisionEvent)>::new()));
    let late = Rc::new(RefCell::new(Vec::<(u32, CollisionEvent)>::new()));
    for (anchor, log, before) in [
        ("movement", early.clone(), true),
        ("damage", late.clone(), false),
    ] {
        let mut cursor = EventCursor::new();
        let system = move |world: &mut World| {
            let consumed = world.events.collision.consume(&mut cursor);
            assert_eq!(consumed.lost(), 0);
            for &event in &consumed {
                log.borrow_mut().push((world.resources.frame, event));
            }
        };
        if before {
            schedule
                .insert_before(anchor, "early_reader", system)
                .unwrap();
        } else {
            schedule
                .insert_after(anchor, "late_reader", system)
                .unwrap();
        }
    }
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        [
            "frame_counter",
            "early_reader",
            "movement",
            "collision",
            "damage",
            "late_reader",
            "cleanup",
            "scoring",
            "camera"
        ]
    );
    for _ in 0..7 {
        schedule.run(&mut world);
        valid(&world);
        world.step();
    }
    let late = late.borrow();
    let early = early.borrow();
    assert_eq!(late.len(), 3, "three collisions: {late:?}");
    assert_eq!(
        late.iter().map(|(frame, _)| *frame).collect::<Vec<_>>(),
        [2, 4, 5],
        "seen in the frame they were sent"
    );
    assert_eq!(
        early.iter().map(|(frame, _)| *frame).collect::<Vec<_>>(),
        [3, 5, 6],
        "seen the frame after"
    );
    assert_eq!(
        early.iter().map(|(_, event)| *event).collect::<Vec<_>>(),
        late.iter().map(|(_, event)| *event).collect::<Vec<_>>(),
        "the same events, each once"
    );
}

#[test]
fn a_system_removed_or_replaced_changes_the_next_frames() {
    let mut world = World::new();
    let scene = spawn_scene(&mut world);
    let mut schedule = game_schedule().unwrap();
    // Without cleanup, the dead stay in the world, tagged, and stop moving and colliding.
    assert!(schedule.remove("cleanup"));
    assert!(!schedule.remove("cleanup"), "already gone");
    assert!(!schedule.contains("cleanup"));
    for _ in 0..2 {
        schedule.run(&mut world);
        world.step();
    }
    valid(&world);
    assert!(world.has_dead(scene.rocks[0]));
    assert_eq!(
        world.query_entities(DEAD).collect::<Vec<_>>(),
        vec![scene.rocks[0]]
    );
    assert_eq!(world.entity_count(), 4);
    // A replacement movement system that moves nothing: the world freezes.
    schedule
        .replace("movement", |world: &mut World| {
            world.resources.log.push("frozen".into());
        })
        .unwrap();
    let before = world.get_position(scene.player).copied();
    schedule.run(&mut world);
    world.step();
    assert_eq!(world.get_position(scene.player).copied(), before);
    assert_eq!(world.resources.log, vec!["frozen".to_owned()]);
    // Cleanup back, after damage: the dead go.
    schedule.insert_after("damage", "cleanup", cleanup).unwrap();
    schedule.run(&mut world);
    valid(&world);
    assert_eq!(world.query_entities(DEAD).count(), 0);
    assert!(!world.is_alive(scene.rocks[0]));
}

#[test]
fn schedule_edits_with_taken_or_unknown_names_are_errors() {
    let mut schedule = game_schedule().unwrap();
    let names: Vec<String> = schedule.names().map(str::to_owned).collect();
    let unchanged = |schedule: &Schedule<World>| {
        assert_eq!(
            schedule.names().map(str::to_owned).collect::<Vec<_>>(),
            names
        );
    };

    let error = schedule.push("damage", movement).unwrap_err();
    assert_eq!(error, ScheduleError::DuplicateName("damage".into()));
    assert_eq!(
        error.to_string(),
        "the schedule already has a system named `damage`"
    );
    unchanged(&schedule);
    assert_eq!(
        schedule
            .insert_before("movement", "camera", camera)
            .unwrap_err(),
        ScheduleError::DuplicateName("camera".into())
    );
    assert_eq!(
        schedule
            .insert_after("nowhere", "camera", camera)
            .unwrap_err(),
        ScheduleError::DuplicateName("camera".into()),
        "a taken name is reported before a missing anchor"
    );
    assert_eq!(
        schedule
            .insert_after("nowhere", "fresh", camera)
            .unwrap_err(),
        ScheduleError::UnknownName("nowhere".into())
    );
    assert_eq!(
        schedule
            .insert_before("nowhere", "fresh", camera)
            .unwrap_err(),
        ScheduleError::UnknownName("nowhere".into())
    );
    let error = schedule.replace("nowhere", camera).unwrap_err();
    assert_eq!(error, ScheduleError::UnknownName("nowhere".into()));
    assert_eq!(
        error.to_string(),
        "the schedule has no system named `nowhere`"
    );
    assert!(!schedule.remove("nowhere"));
    unchanged(&schedule);
    assert!(!schedule.contains("fresh"));
    assert!(schedule.contains("damage"));
    assert_eq!(schedule.len(), 7);

    // The schedule still runs normally after the refused edits.
    let mut world = World::new();
    spawn_scene(&mut world);
    schedule.run(&mut world);
    assert_eq!(world.resources.frame, 1);

    // A `?` chain stops at the first error.
    let mut fresh: Schedule<World> = Schedule::new();
    let result = (|| -> Result<(), ScheduleError> {
        fresh
            .push("a", movement)?
            .push("a", collision)?
            .push("b", damage)?;
        Ok(())
    })();
    assert_eq!(result, Err(ScheduleError::DuplicateName("a".into())));
    assert_eq!(fresh.names().collect::<Vec<_>>(), ["a"]);
}

#[test]
fn systems_run_in_order_once_per_run() {
    let order = Rc::new(RefCell::new(Vec::new()));
    let mut schedule: Schedule<World> = Schedule::new();
    for name in ["first", "second", "third"] {
        let order = order.clone();
        schedule
            .push(name, move |world: &mut World| {
                order.borrow_mut().push((name, world.current_tick()));
            })
            .unwrap();
    }
    schedule
        .push("end_frame", |world: &mut World| world.step())
        .unwrap();
    let mut world = World::new();
    let start = world.current_tick();
    schedule.run(&mut world);
    schedule.run(&mut world);
    let order = order.borrow();
    // Each system runs at a tick of its own (the schedule advances it after every system, so
    // each system's writes are newer than everything before), and `step` advances it too.
    let at = |ticks: u32| Tick(start.0 + ticks);
    assert_eq!(
        *order,
        vec![
            ("first", at(0)),
            ("second", at(1)),
            ("third", at(2)),
            ("first", at(5)),
            ("second", at(6)),
            ("third", at(7)),
        ]
    );
    assert_eq!(world.current_tick(), at(10));
}

// ----- the same game, as systems of parameters ------------------------------------------------

/// The game's systems as plain functions of parameters, named as the whole-world ones so the
/// schedule names them alike.
mod parameters {
    use super::*;

    pub fn frame_counter(mut frame: ResMut<u32>) {
        *frame += 1;
    }

    /// Moves everything that moves and is not dead.
    pub fn movement(mut movers: Query<(&mut Position, &Velocity), Without<DEAD>>) {
        movers.for_each(|(mut position, velocity)| position.0 += velocity.0);
    }

    /// Sends a collision for every pair of live, not dead entities on the same cell. The
    /// sorted cells are the system's own, their memory kept between runs.
    pub fn collision(
        mut bodies: Query<(Entity, &Position), Without<DEAD>>,
        mut cells: Local<Vec<(i32, Entity)>>,
        mut collisions: EventWriter<CollisionEvent>,
    ) {
        cells.clear();
        bodies.for_each(|(entity, position)| cells.push((position.0, entity)));
        cells.sort();
        for (i, &(cell, a)) in cells.iter().enumerate() {
            for &(other_cell, b) in &cells[i + 1..] {
                if other_cell == cell {
                    collisions.send(CollisionEvent { a, b });
                }
            }
        }
    }

    /// Each collision costs both sides a point of health; at zero an entity is tagged dead
    /// (at the sync point after this system) and a death event goes out.
    pub fn damage(
        mut collisions: EventReader<CollisionEvent>,
        mut living: Query<&mut Health, Without<DEAD>>,
        mut deaths: EventWriter<DeathEvent>,
        mut commands: Commands,
    ) {
        for hit in collisions.read() {
            for entity in [hit.a, hit.b] {
                let was_player = living.has::<PLAYER, _>(entity);
                let Some(mut health) = living.get_mut(entity) else {
                    continue;
                };
                // The tag waits for the sync point: one already at zero died earlier this run.
                if health.0 == 0 {
                    continue;
                }
                health.0 -= 1;
                if health.0 == 0 {
                    commands.queue_add_dead(entity);
                    deaths.send(DeathEvent { entity, was_player });
                }
            }
        }
    }

    /// Despawns every entity tagged dead.
    pub fn cleanup(mut dead: Query<Entity, With<DEAD>>, mut commands: Commands) {
        dead.for_each(|entity| commands.queue_despawn(entity));
    }

    pub fn scoring(mut deaths: EventReader<DeathEvent>, mut score: ResMut<Score>) {
        for death in deaths.read() {
            score.deaths += 1;
            score.player_deaths += u32::from(death.was_player);
        }
    }

    /// The camera follows the player, if any.
    pub fn camera(players: Query<&Position, With<PLAYER>>, mut camera: ResMut<Option<i32>>) {
        *camera = players.iter().next().map(|position| position.0);
    }

    /// The schedule of the game, in run order, each system named after its function.
    pub fn game_schedule() -> Schedule<World> {
        let mut schedule = Schedule::new();
        schedule.add((
            frame_counter,
            movement,
            collision,
            damage,
            cleanup,
            scoring,
            camera,
        ));
        schedule
    }

    /// Records the collisions read by `reader`, with the frame.
    fn record(
        reader: &'static str,
        collisions: &mut EventReader<CollisionEvent>,
        frame: u32,
        read: &mut Vec<(&'static str, u32, CollisionEvent)>,
    ) {
        let consumed = collisions.read();
        assert_eq!(consumed.lost(), 0);
        read.extend(consumed.into_iter().map(|&event| (reader, frame, event)));
    }

    pub fn early_reader(
        mut collisions: EventReader<CollisionEvent>,
        frame: Res<u32>,
        mut read: ResMut<Vec<(&'static str, u32, CollisionEvent)>>,
    ) {
        record("early", &mut collisions, *frame, &mut read);
    }

    pub fn late_reader(
        mut collisions: EventReader<CollisionEvent>,
        frame: Res<u32>,
        mut read: ResMut<Vec<(&'static str, u32, CollisionEvent)>>,
    ) {
        record("late", &mut collisions, *frame, &mut read);
    }
}

#[test]
fn an_event_reader_scheduled_before_the_sender_sees_last_frames_events() {
    let mut world = World::new();
    spawn_scene(&mut world);
    let mut schedule = parameters::game_schedule();
    schedule
        .insert_before("movement", "early_reader", parameters::early_reader)
        .unwrap()
        .insert_after("damage", "late_reader", parameters::late_reader)
        .unwrap();
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        [
            "frame_counter",
            "early_reader",
            "movement",
            "collision",
            "damage",
            "late_reader",
            "cleanup",
            "scoring",
            "camera"
        ]
    );
    for _ in 0..7 {
        schedule.run(&mut world);
        valid(&world);
        world.step();
    }
    let read = &world.resources.collisions_read;
    let by = |reader: &str| -> Vec<(u32, CollisionEvent)> {
        read.iter()
            .filter(|(name, ..)| *name == reader)
            .map(|&(_, frame, event)| (frame, event))
            .collect()
    };
    let (early, late) = (by("early"), by("late"));
    assert_eq!(
        late.iter().map(|(frame, _)| *frame).collect::<Vec<_>>(),
        [2, 4, 5],
        "seen in the frame they were sent"
    );
    assert_eq!(
        early.iter().map(|(frame, _)| *frame).collect::<Vec<_>>(),
        [3, 5, 6],
        "seen the frame after"
    );
    assert_eq!(
        early.iter().map(|(_, event)| *event).collect::<Vec<_>>(),
        late.iter().map(|(_, event)| *event).collect::<Vec<_>>(),
        "the same events, each once"
    );
}

/// What the game's state is after a frame: every entity's position and health, the score, the
/// camera and this frame's and last frame's events.
type FrameState = (
    Vec<(Entity, Option<Position>, Option<Health>)>,
    Score,
    Option<i32>,
    Vec<CollisionEvent>,
    Vec<DeathEvent>,
);

fn frame_state(world: &World) -> FrameState {
    let entities = world
        .entities()
        .map(|entity| {
            let position = world.get_position(entity).copied();
            (entity, position, world.get_health(entity).copied())
        })
        .collect();
    (
        entities,
        world.resources.score,
        world.resources.camera,
        world.events.collision.read().copied().collect(),
        world.events.death.read().copied().collect(),
    )
}

fn play_frames(
    world: &mut World,
    schedule: &mut Schedule<World>,
    frames: usize,
) -> Vec<FrameState> {
    (0..frames)
        .map(|_| {
            schedule.run(world);
            world.step();
            frame_state(world)
        })
        .collect()
}

#[test]
fn a_restored_frame_loop_of_parameter_systems_replays_the_same_frames() {
    let mut world = World::new();
    let scene = spawn_scene(&mut world);
    let mut schedule = parameters::game_schedule();
    // Saved after frame 2: its collision (the player and the first rock) and the rock's death
    // are still stored (events live two frames), already applied by `damage` and counted by
    // `scoring`.
    play_frames(&mut world, &mut schedule, 2);
    assert_eq!(world.resources.score.deaths, 1);
    assert_eq!(
        (world.events.collision.len(), world.events.death.len()),
        (1, 1)
    );
    let saved = world.clone();
    let original = play_frames(&mut world, &mut schedule, 5);
    assert!(!world.is_alive(scene.player), "the player died in frame 5");
    assert_eq!(
        world.resources.score,
        Score {
            deaths: 3,
            player_deaths: 1
        }
    );

    world.restore(&saved);
    let replayed = play_frames(&mut world, &mut schedule, 5);
    assert_eq!(
        replayed, original,
        "the readers' cursors and the systems' last runs went back with the world: no \
         collision applied twice, no death counted twice"
    );

    // Rollback as netcode does it: a fresh schedule over the restored world goes on alike.
    world.restore(&saved);
    let mut fresh = parameters::game_schedule();
    assert_eq!(play_frames(&mut world, &mut fresh, 5), original);
}

#[test]
fn parameter_systems_run_in_order_once_per_run_each_at_its_own_tick() {
    let mut schedule: Schedule<World> = Schedule::new();
    for name in ["first", "second", "third"] {
        schedule
            .push(
                name,
                move |ticks: SystemTicks, mut run_ticks: ResMut<Vec<(&'static str, Tick)>>| {
                    run_ticks.push((name, ticks.this_run()));
                },
            )
            .unwrap();
    }
    // Whole-world: ending the frame is the world's own work.
    schedule
        .push("end_frame", |world: &mut World| world.step())
        .unwrap();
    let mut world = World::new();
    let start = world.current_tick();
    schedule.run(&mut world);
    schedule.run(&mut world);
    // As for whole-world systems: a tick per system, and `step` advances it too.
    let at = |ticks: u32| Tick(start.0 + ticks);
    assert_eq!(
        world.resources.run_ticks,
        vec![
            ("first", at(0)),
            ("second", at(1)),
            ("third", at(2)),
            ("first", at(5)),
            ("second", at(6)),
            ("third", at(7)),
        ]
    );
    assert_eq!(world.current_tick(), at(10));
}
