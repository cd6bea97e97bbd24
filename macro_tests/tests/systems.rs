//! Systems whose parameters say what they touch, as a game writes them: typed queries with
//! typed filters, resources, typed event readers and writers, commands, locals, the system's
//! ticks; the schedule fetches them, and what each system remembers is the world's state.

use archetypal::Entity;
use archetypal::{
    Added, Changed, EventReader, EventWriter, Local, Res, ResMut, RunIf, Schedule, SystemContext,
    SystemTicks, With, Without, ecs,
};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub target: Entity,
    pub damage: i32,
}
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Died(pub Entity);
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Score {
    pub kills: u32,
    pub hits_seen: u32,
}
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Log(pub Vec<String>);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        frozen => FROZEN,
    }
    Events {
        hit: Hit,
        died: Died,
    }
    Resources {
        score: Score,
        log: Log,
    }
}

fn movement(mut query: Query<(&mut Position, &Velocity), Without<FROZEN>>) {
    query.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

/// Every entity at or past 10 is hit once per frame.
fn collide(mut query: Query<(Entity, &Position)>, mut hits: EventWriter<Hit>) {
    query.for_each(|(entity, position)| {
        if position.0 >= 10.0 {
            hits.send(Hit {
                target: entity,
                damage: 4,
            });
        }
    });
}

fn damage(
    mut hits: EventReader<Hit>,
    mut query: Query<&mut Health>,
    mut score: ResMut<Score>,
    mut died: EventWriter<Died>,
) {
    for hit in hits.read() {
        score.hits_seen += 1;
        if let Some(mut health) = query.get_mut(hit.target) {
            health.0 -= hit.damage;
            if health.0 <= 0 {
                died.send(Died(hit.target));
            }
        }
    }
}

fn deaths(mut died: EventReader<Died>, mut commands: Commands, mut score: ResMut<Score>) {
    for &Died(entity) in died.read() {
        commands.queue_despawn(entity);
        score.kills += 1;
    }
}

/// What changed since this system last ran, through the filter type alone.
fn watch(changed: Query<Entity, Changed<Health>>, mut log: ResMut<Log>, ticks: SystemTicks) {
    let mut entities: Vec<Entity> = changed.iter().collect();
    entities.sort();
    log.0.push(format!(
        "first={} changed={:?}",
        ticks.is_first_run(),
        entities
    ));
}

/// Moves every mover (the batch tests' three systems: disjoint access).
fn advance(mut movers: Query<(&mut Position, &Velocity)>) {
    movers.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

/// Adds 1 to every health.
fn regenerate(mut healths: Query<&mut Health>) {
    healths.for_each(|mut health| health.0 += 1);
}

/// Counts a kill a run.
fn tally(mut score: ResMut<Score>) {
    score.kills += 1;
}

fn spawn_world() -> (World, [Entity; 3]) {
    let mut world = World::new();
    let runner = EntityBuilder::new()
        .with_position(Position(8.0))
        .with_velocity(Velocity(1.0))
        .with_health(Health(10))
        .spawn_one(&mut world);
    let frozen = EntityBuilder::new()
        .with_position(Position(0.0))
        .with_velocity(Velocity(1.0))
        .with_health(Health(10))
        .with_mask(FROZEN)
        .spawn_one(&mut world);
    let rock = EntityBuilder::new()
        .with_position(Position(20.0))
        .spawn_one(&mut world);
    (world, [runner, frozen, rock])
}

fn game_schedule() -> Schedule<World> {
    let mut schedule = Schedule::new();
    schedule.add((movement, collide, damage, deaths, watch));
    schedule
}

#[test]
fn a_schedule_of_parameter_systems_runs_a_frame() {
    let (mut world, [runner, frozen, rock]) = spawn_world();
    let mut schedule = game_schedule();
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        ["movement", "collide", "damage", "deaths", "watch"],
        "named after their functions"
    );

    schedule.run(&mut world);
    world.step();
    // Frame 1: the runner moves to 9, the frozen one stays; the rock (20) is hit.
    assert_eq!(world.get_position(runner), Some(&Position(9.0)));
    assert_eq!(world.get_position(frozen), Some(&Position(0.0)));
    assert_eq!(world.resources.score.hits_seen, 1, "the rock was hit");
    assert_eq!(
        world.get_health(rock),
        None,
        "the rock has no health to lose"
    );

    for _ in 0..3 {
        schedule.run(&mut world);
        world.step();
    }
    // Frames 2-4: the runner reaches 10, 11, 12 and is hit each time: 10 - 4 - 4 - 4 < 0.
    assert!(
        !world.is_alive(runner),
        "despawned at the sync point after `deaths`"
    );
    assert_eq!(world.resources.score.kills, 1);
    assert_eq!(world.resources.score.hits_seen, 1 + 2 + 2 + 2);
    assert!(world.is_alive(frozen) && world.is_alive(rock));
    assert_eq!(
        world.resources.log.0[0],
        format!("first=true changed={:?}", {
            let mut all = vec![runner, frozen];
            all.sort();
            all
        }),
        "a first run sees every entity as changed"
    );
    // Frames 2 and 3: only the runner was hit; moving the others wrote no health.
    assert_eq!(
        world.resources.log.0[1],
        format!("first=false changed={:?}", [runner])
    );
    assert_eq!(world.resources.log.0[2], world.resources.log.0[1]);
    assert_eq!(
        world.resources.log.0[3], "first=false changed=[]",
        "the runner died"
    );
}

#[test]
fn each_reader_reads_each_event_once_through_its_own_cursor() {
    fn first(mut hits: EventReader<Hit>, mut log: ResMut<Log>) {
        log.0.push(format!("first {}", hits.read().len()));
    }
    fn second(mut hits: EventReader<Hit>, mut log: ResMut<Log>) {
        let unread = hits.unread_count();
        log.0.push(format!("second {unread}"));
        hits.clear();
        assert!(hits.is_empty());
    }
    let mut world = World::new();
    let target = world.spawn(HEALTH);
    let mut schedule = Schedule::new();
    schedule.add((first, second));
    world.events.hit.send(Hit { target, damage: 1 });
    world.events.hit.send(Hit { target, damage: 2 });
    schedule.run(&mut world);
    schedule.run(&mut world);
    world.events.hit.send(Hit { target, damage: 3 });
    schedule.run(&mut world);
    assert_eq!(
        world.resources.log.0,
        [
            "first 2", "second 2", "first 0", "second 0", "first 1", "second 1"
        ]
    );
}

#[test]
fn a_local_is_the_systems_own_and_is_copied_with_the_world() {
    fn count(mut runs: Local<u32>, mut log: ResMut<Log>) {
        *runs += 1;
        log.0.push(format!("run {}", *runs));
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add((count, count));
    assert_eq!(schedule.names().collect::<Vec<_>>(), ["count", "count#2"]);
    schedule.run(&mut world);
    let saved = world.clone();
    schedule.run(&mut world);
    assert_eq!(world.resources.log.0, ["run 1", "run 1", "run 2", "run 2"]);

    // The copy remembers the first run only: both systems go on from there.
    let mut copy = saved.clone();
    schedule.run(&mut copy);
    assert_eq!(copy.resources.log.0, ["run 1", "run 1", "run 2", "run 2"]);
    assert_eq!(copy.resources.log.0, world.resources.log.0);
}

#[test]
fn a_restored_world_resimulates_exactly_no_event_applied_twice() {
    let (mut world, [runner, ..]) = spawn_world();
    let mut schedule = game_schedule();
    let mut saved = None;
    let mut states = Vec::new();
    for frame in 0..6 {
        if frame == 3 {
            saved = Some(world.clone());
        }
        schedule.run(&mut world);
        world.step();
        states.push((
            world.get_health(runner).copied(),
            world.resources.score.clone(),
            world.resources.log.0.clone(),
        ));
    }
    // Roll back to frame 3 and replay frames 3..6 on the same schedule: byte for byte the same
    // states (the damage system does not re-read the hits it had read before the save).
    world.restore(saved.as_ref().expect("saved at frame 3"));
    for (frame, expected) in states.iter().enumerate().skip(3) {
        schedule.run(&mut world);
        world.step();
        let state = (
            world.get_health(runner).copied(),
            world.resources.score.clone(),
            world.resources.log.0.clone(),
        );
        assert_eq!(&state, expected, "frame {frame} replayed");
    }
    // A fresh schedule on the restored copy gives the same frames too: the memory is the world's.
    let mut copy = saved.expect("saved");
    let mut fresh = game_schedule();
    for expected in &states[3..] {
        fresh.run(&mut copy);
        copy.step();
        assert_eq!(copy.resources.score, expected.1);
    }
}

#[test]
fn filters_by_type_with_tags_and_added() {
    fn frozen_ones(query: Query<Entity, With<FROZEN>>, mut log: ResMut<Log>) {
        log.0.push(format!("frozen {}", query.count()));
    }
    fn newcomers(query: Query<&Health, Added<Health>>, mut log: ResMut<Log>) {
        log.0.push(format!("added {}", query.iter().count()));
    }
    fn moving(query: Query<&Position, (With<Velocity>, Without<FROZEN>)>, mut log: ResMut<Log>) {
        log.0.push(format!("moving {}", query.count()));
    }
    let (mut world, _) = spawn_world();
    let mut schedule = Schedule::new();
    schedule.add((frozen_ones, newcomers, moving));
    schedule.run(&mut world);
    world.step();
    world.spawn(HEALTH);
    let renamed = world.spawn(POSITION);
    world.add_health(renamed);
    schedule.run(&mut world);
    assert_eq!(
        world.resources.log.0,
        [
            "frozen 1", "added 2", "moving 1", "frozen 1", "added 2", "moving 1"
        ]
    );
}

#[test]
fn a_system_runs_by_hand_with_its_memory_in_the_world() {
    fn tally(query: Query<&Health, Changed<Health>>, mut score: ResMut<Score>) {
        score.hits_seen += query.count() as u32;
    }
    fn read_only(score: Res<Score>, mut log: ResMut<Log>) {
        log.0.push(format!("{}", score.hits_seen));
    }
    let mut world = World::new();
    let entity = world.spawn(HEALTH);
    let mut context = SystemContext::new();
    context.run(&mut world, tally);
    context.run(&mut world, tally);
    assert_eq!(
        world.resources.score.hits_seen, 1,
        "the second run saw no change"
    );
    world.set_health(entity, Health(3));
    context.run(&mut world, tally);
    SystemContext::new().run(&mut world, read_only);
    assert_eq!(world.resources.log.0, ["2"]);
}

#[test]
fn side_by_side_or_in_order_the_frames_are_the_same() {
    let run = |parallel: bool| {
        let (mut world, _) = spawn_world();
        for index in 0..20 {
            EntityBuilder::new()
                .with_position(Position(index as f32))
                .with_velocity(Velocity(0.5))
                .with_health(Health(6))
                .spawn_one(&mut world);
        }
        let mut schedule = game_schedule();
        schedule.set_parallel(parallel);
        assert_eq!(schedule.is_parallel(), parallel);
        let mut frames = Vec::new();
        for _ in 0..12 {
            schedule.run(&mut world);
            world.step();
            let mut units: Vec<(Entity, Option<Position>, Option<Health>)> = world
                .typed_query_ref::<(Entity, Option<&Position>, Option<&Health>)>()
                .iter()
                .map(|(entity, position, health)| (entity, position.copied(), health.copied()))
                .collect();
            units.sort_by_key(|unit| unit.0);
            frames.push((
                units,
                world.resources.score.clone(),
                world.resources.log.0.clone(),
            ));
        }
        frames
    };
    let in_order = run(false);
    assert!(
        in_order.last().unwrap().1.kills > 0,
        "the game did something"
    );
    assert_eq!(run(true), in_order);
}

#[test]
fn disjoint_systems_share_a_batch_and_write_their_own_columns() {
    fn regenerate(mut healths: Query<&mut Health, Without<FROZEN>>) {
        healths.for_each(|mut health| health.0 += 1);
    }
    fn count(mut runs: Local<u32>, mut score: ResMut<Score>) {
        *runs += 1;
        score.hits_seen = *runs;
    }
    fn report(changed: Query<Entity, Changed<Health>>, mut log: ResMut<Log>) {
        log.0.push(format!("{}", changed.count()));
    }
    let run = |parallel: bool| {
        let (mut world, _) = spawn_world();
        for index in 0..50 {
            EntityBuilder::new()
                .with_position(Position(index as f32))
                .with_velocity(Velocity(1.0))
                .with_health(Health(index))
                .with_mask(if index % 3 == 0 { FROZEN } else { 0 })
                .spawn_one(&mut world);
        }
        let mut schedule = Schedule::new();
        schedule.add((advance, regenerate, count, report));
        schedule.set_parallel(parallel);
        assert_eq!(
            schedule.batches(),
            [vec!["advance", "regenerate", "count"], vec!["report"]],
            "one component each, and a resource; the report reads what regenerate writes"
        );
        for _ in 0..5 {
            schedule.run(&mut world);
            world.step();
        }
        world.check_invariants().unwrap();
        let mut units: Vec<(Entity, Position, Health)> = world
            .typed_query_ref::<(Entity, &Position, &Health)>()
            .iter()
            .map(|(entity, position, health)| (entity, *position, *health))
            .collect();
        units.sort_by_key(|unit| unit.0);
        (
            units,
            world.resources.score.clone(),
            world.resources.log.0.clone(),
        )
    };
    let in_order = run(false);
    assert_eq!(in_order.1.hits_seen, 5);
    assert_eq!(
        in_order.2,
        ["52", "34", "34", "34", "34"],
        "regenerate's rows only"
    );
    assert_eq!(run(true), in_order);
}

#[test]
fn systems_stated_together_start_a_batch_of_their_own() {
    fn spawn_one(mut commands: Commands) {
        commands.queue_spawn(EntityBuilder::new().with_health(Health(1)));
    }
    let mut schedule = Schedule::<World>::new();
    schedule.add(tally);
    schedule.add(archetypal::together((advance, regenerate, spawn_one)));
    assert_eq!(
        schedule.batches(),
        [vec!["tally"], vec!["advance", "regenerate", "spawn_one"]],
        "the group starts its own batch, though `tally` could have joined it"
    );
    let (mut world, _) = spawn_world();
    let before = world.entity_count();
    schedule.run(&mut world);
    assert_eq!(world.entity_count(), before + 1);
    assert_eq!(world.resources.score.kills, 1);
}

#[test]
fn a_replaced_system_starts_afresh_though_its_function_is_named_alike() {
    let mut world = World::new();
    world.spawn(HEALTH);
    world.spawn(HEALTH);
    let mut schedule = Schedule::new();
    schedule
        .push(
            "watch",
            |changed: Query<Entity, Changed<Health>>, mut log: ResMut<Log>| {
                log.0.push(format!("first {}", changed.count()));
            },
        )
        .unwrap();
    schedule.run(&mut world);
    schedule.run(&mut world);
    // Two closures of one function share a type name: only the replace tells them apart.
    schedule
        .replace(
            "watch",
            |changed: Query<Entity, Changed<Health>>, mut log: ResMut<Log>| {
                log.0.push(format!("second {}", changed.count()));
            },
        )
        .unwrap();
    schedule.run(&mut world);
    schedule.run(&mut world);
    assert_eq!(
        world.resources.log.0,
        ["first 2", "first 0", "second 2", "second 0"],
        "the replacement's first run sees every entity; then only what changed"
    );
}

/// A system made from a value (here a speed) is a closure written where it is added: the
/// guide's pattern for what a function returning `impl FnMut(..)` cannot be.
fn add_mover(schedule: &mut Schedule<World>, speed: f32) {
    schedule.add(move |mut movers: Query<&mut Position, Without<Velocity>>| {
        movers.for_each(|mut position| position.0 += speed);
    });
}

#[test]
fn a_closure_added_by_a_function_keeps_what_it_captured() {
    let mut world = World::new();
    let still = world.spawn(POSITION);
    let mut schedule = Schedule::new();
    add_mover(&mut schedule, 2.5);
    add_mover(&mut schedule, 0.5);
    assert_eq!(
        schedule.names().collect::<Vec<_>>(),
        ["{{closure}}", "{{closure}}#2"]
    );
    schedule.run(&mut world);
    assert_eq!(world.get_position(still), Some(&Position(3.0)));
}

#[test]
fn an_edit_after_a_run_plans_the_batches_again() {
    fn push_back(mut movers: Query<&mut Position>) {
        movers.for_each(|mut position| position.0 -= 100.0);
    }
    let healths = |world: &World| -> Vec<i32> {
        let mut healths: Vec<(Entity, i32)> = world
            .typed_query_ref::<(Entity, &Health)>()
            .iter()
            .map(|(entity, health)| (entity, health.0))
            .collect();
        healths.sort_by_key(|pair| pair.0);
        healths.into_iter().map(|pair| pair.1).collect()
    };
    for parallel in [false, true] {
        let (mut world, _) = spawn_world();
        let mut schedule = Schedule::new();
        schedule
            .add((advance, regenerate, tally))
            .set_parallel(parallel);
        assert_eq!(schedule.batches(), [["advance", "regenerate", "tally"]]);
        schedule.run(&mut world);
        let after_one = healths(&world);
        // A condition on a member: the batch ends before it, and it does not run.
        schedule.run_if("regenerate", |_: &World| false).unwrap();
        schedule.run(&mut world);
        assert_eq!(healths(&world), after_one, "regenerate skipped");
        assert_eq!(world.resources.score.kills, 2, "tally still runs");
        // A replacement that conflicts with `advance`: no longer beside it.
        schedule.replace("tally", push_back).unwrap();
        assert_eq!(
            schedule.batches(),
            [vec!["advance"], vec!["regenerate", "tally"]],
            "`regenerate` starts a batch (its condition), which `push_back` can join"
        );
        let before: f32 = world
            .typed_query_ref::<&Position>()
            .iter()
            .map(|p| p.0)
            .sum();
        schedule.run(&mut world);
        let after: f32 = world
            .typed_query_ref::<&Position>()
            .iter()
            .map(|p| p.0)
            .sum();
        let movers = world.typed_query_ref::<&Position>().iter().count() as f32;
        assert!(
            after < before - 90.0 * movers,
            "pushed back: {before} -> {after}"
        );
        world.check_invariants().unwrap();
    }
}

#[test]
fn a_system_added_with_run_if_runs_when_its_condition_holds_and_starts_a_batch() {
    let total_health = |world: &World| -> i32 {
        world
            .typed_query_ref::<&Health>()
            .iter()
            .map(|health| health.0)
            .sum()
    };
    for parallel in [false, true] {
        let (mut world, _) = spawn_world();
        let mut schedule = Schedule::new();
        schedule
            .add((
                advance,
                // Every other frame: when the kills tallied so far are odd.
                regenerate.run_if(|world: &World| world.resources.score.kills % 2 == 1),
                tally,
            ))
            .set_parallel(parallel);
        assert_eq!(
            schedule.names().collect::<Vec<_>>(),
            ["advance", "regenerate", "tally"]
        );
        // The condition reads the world: `regenerate` starts a batch, which `tally` joins.
        assert_eq!(
            schedule.batches(),
            [vec!["advance"], vec!["regenerate", "tally"]]
        );
        let mut healths = vec![total_health(&world)];
        for _ in 0..4 {
            schedule.run(&mut world);
            world.step();
            healths.push(total_health(&world));
        }
        // Two units with health: +2 on the frames whose condition held (kills 1 and 3).
        assert_eq!(healths, [20, 20, 22, 22, 24]);
        assert_eq!(world.resources.score.kills, 4, "tally ran every frame");
        world.check_invariants().unwrap();
    }
}

#[test]
fn timing_counts_each_system_of_a_batch_side_by_side_or_in_order() {
    for parallel in [false, true] {
        let (mut world, _) = spawn_world();
        let mut schedule = Schedule::new();
        schedule
            .add((advance, regenerate, tally))
            .set_parallel(parallel)
            .set_timing(true);
        let mut frame = 0;
        schedule
            .run_if("tally", move |_: &World| {
                frame += 1;
                frame % 2 == 0
            })
            .unwrap();
        for _ in 0..4 {
            schedule.run(&mut world);
            world.step();
        }
        let runs: Vec<(&str, u64)> = schedule
            .timings()
            .map(|(name, timing)| (name, timing.runs))
            .collect();
        assert_eq!(runs, [("advance", 4), ("regenerate", 4), ("tally", 2)]);
        assert_eq!(u64::from(world.resources.score.kills), 2);
    }
}
