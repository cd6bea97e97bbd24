//! Systems with a memory, as a game writes them: a system of parameters asks what changed or
//! arrived since *it* last ran (`Changed`, `Added`) and reads events through its own
//! `EventReader`, its memory kept in the world; a whole-world system that takes a
//! `SystemContext` does the same through `context.last_run()` and `context.cursors`, its memory
//! kept in the schedule. The schedule applies queued commands between systems (or at a
//! deferred stage's end). Each behaviour is tested in both forms.

use archetypal::{
    Added, Changed, Entity, EventReader, EventWriter, ResMut, Schedule, SystemContext, With, ecs,
};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub entity: Entity,
}

ecs! {
    World {
        health: Health => HEALTH,
        position: Position => POSITION,
    }
    Tags {
        dead => DEAD,
    }
    Events {
        hit: Hit,
    }
    Resources {
        /// What each observing system saw, per run: (system, entities).
        seen: Seen,
        /// What each reading system of parameters read, per run: (system, events).
        read: Reads,
    }
}

/// What each observing system saw, per run: (system, entities).
type Seen = Vec<(&'static str, Vec<Entity>)>;
/// What each reading system read, per run: (system, events).
type Reads = Vec<(&'static str, Vec<Hit>)>;

/// A system that records the entities whose health changed since it last ran.
fn health_watcher(name: &'static str) -> impl FnMut(&mut World, &mut SystemContext<World>) {
    move |world: &mut World, context: &mut SystemContext<World>| {
        let changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(HEALTH, context.last_run())
            .iter()
            .collect();
        world.resources.seen.push((name, changed));
    }
}

/// A system that records the entities that gained health since it last ran.
fn arrival_watcher(name: &'static str) -> impl FnMut(&mut World, &mut SystemContext<World>) {
    move |world: &mut World, context: &mut SystemContext<World>| {
        let added: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .added_since(HEALTH, context.last_run())
            .iter()
            .collect();
        world.resources.seen.push((name, added));
    }
}

/// What the watchers saw since the last call, emptied.
fn seen(world: &mut World) -> Seen {
    std::mem::take(&mut world.resources.seen)
}

#[test]
fn each_system_sees_the_changes_since_its_own_previous_run() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule
        .push("before", health_watcher("before"))
        .unwrap()
        .push("damage", |world: &mut World| {
            // Writes unit 0 every frame.
            let unit = world.entities().next().unwrap();
            world.get_health_mut(unit).unwrap().0 -= 1;
        })
        .unwrap()
        .push("after", health_watcher("after"))
        .unwrap();

    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", units.clone()), ("after", units.clone())],
        "a first run sees every existing entity"
    );
    world.step();

    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", vec![units[0]]), ("after", vec![units[0]])],
        "`before` sees last frame's damage, `after` this frame's"
    );

    // Outside the schedule, between frames: seen by both, once.
    world.set_health(units[2], Health(50));
    world.step();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [
            ("before", vec![units[0], units[2]]),
            ("after", vec![units[0], units[2]])
        ]
    );
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", vec![units[0]]), ("after", vec![units[0]])]
    );
}

#[test]
fn a_system_that_skips_frames_sees_everything_it_missed_and_a_late_one_everything() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 4);
    let mut schedule = Schedule::new();
    schedule.add_stage("every_frame").unwrap();
    schedule.push("often", health_watcher("often")).unwrap();
    schedule.add_stage("every_third_frame").unwrap();
    schedule.push("rare", health_watcher("rare")).unwrap();

    schedule.run(&mut world);
    seen(&mut world);
    for (frame, unit) in units.iter().take(3).enumerate() {
        world.set_health(*unit, Health(frame as i32));
        schedule.run_stage("every_frame", &mut world).unwrap();
        world.step();
    }
    let often: Vec<_> = seen(&mut world).into_iter().map(|(_, e)| e).collect();
    assert_eq!(often, [vec![units[0]], vec![units[1]], vec![units[2]]]);
    schedule.run_stage("every_third_frame", &mut world).unwrap();
    assert_eq!(seen(&mut world), [("rare", units[..3].to_vec())]);

    schedule.push("late", health_watcher("late")).unwrap();
    schedule
        .push("late_arrivals", arrival_watcher("late_arrivals"))
        .unwrap();
    schedule.run_stage("every_third_frame", &mut world).unwrap();
    assert_eq!(
        seen(&mut world),
        [
            ("rare", vec![]),
            ("late", units.clone()),
            ("late_arrivals", units.clone())
        ],
        "a system added late starts with a first run"
    );
}

#[test]
fn added_since_the_last_run_counts_spawns_and_additions_not_writes() {
    let mut world = World::new();
    let old = world.spawn(HEALTH);
    let mut schedule = Schedule::new();
    schedule
        .push("arrivals", arrival_watcher("arrivals"))
        .unwrap();
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![old])]);

    let spawned = world.spawn(HEALTH);
    let given = world.spawn(POSITION);
    world.add_health(given);
    world.set_health(old, Health(3)); // a write, not an arrival
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![spawned, given])]);
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![])]);
}

#[test]
fn every_system_reads_every_event_exactly_once() {
    type ReadLog = Rc<RefCell<Vec<(&'static str, Vec<Hit>)>>>;
    let log: ReadLog = Rc::default();
    let reader = |name: &'static str| {
        let log = Rc::clone(&log);
        move |world: &mut World, context: &mut SystemContext<World>| {
            let hits: Vec<Hit> = world
                .events
                .hit
                .consume(&mut context.cursors.hit)
                .into_iter()
                .copied()
                .collect();
            log.borrow_mut().push((name, hits));
        }
    };
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule
        .push("early", reader("early"))
        .unwrap()
        .push("send", |world: &mut World| {
            let entity = world.entities().last().unwrap();
            world.events.hit.send(Hit { entity });
        })
        .unwrap()
        .push("late", reader("late"))
        .unwrap();
    for _ in 0..3 {
        schedule.run(&mut world);
        world.step();
    }
    let hit = Hit { entity: units[2] };
    assert_eq!(
        *log.borrow(),
        [
            ("early", vec![]),
            ("late", vec![hit]),
            ("early", vec![hit]),
            ("late", vec![hit]),
            ("early", vec![hit]),
            ("late", vec![hit]),
        ],
        "each event once per reader, whether it runs before or after the sender"
    );
}

/// Marks units with no health left as dead, through the command part of a split.
fn mark_dead(world: &mut World) {
    let mut parts = world.split_mut();
    parts
        .components
        .typed_query::<(Entity, &Health)>()
        .for_each(|(entity, health)| {
            if health.0 <= 0 {
                parts.commands.queue_add_dead(entity);
            }
        });
}

/// Despawns the dead units, and records how many there were.
fn reap(world: &mut World) {
    let mut parts = world.split_mut();
    let dead: Vec<Entity> = parts.components.query_entities(DEAD).collect();
    parts.resources.seen.push(("reap", dead.clone()));
    for entity in dead {
        parts.commands.queue_despawn(entity);
    }
}

#[test]
fn a_later_system_sees_the_commands_an_earlier_one_queued() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    world.set_health(units[1], Health(-1));
    let mut schedule = Schedule::new();
    schedule
        .push("mark_dead", mark_dead)
        .unwrap()
        .push("reap", reap)
        .unwrap();
    let report = schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("reap", vec![units[1]])]);
    assert_eq!(
        (report.applied, report.skipped),
        (2, 0),
        "a tag, then a despawn"
    );
    assert!(!world.is_alive(units[1]));
    assert_eq!(world.command_count(), 0);
}

#[test]
fn a_deferred_stage_applies_its_commands_at_its_end() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    world.set_health(units[1], Health(-1));
    let mut schedule = Schedule::new();
    schedule.add_deferred_stage("update").unwrap();
    schedule
        .push("mark_dead", mark_dead)
        .unwrap()
        .push("reap", reap)
        .unwrap();
    schedule.add_stage("cleanup").unwrap();
    schedule.push("reap_again", reap).unwrap();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("reap", vec![]), ("reap", vec![units[1]])],
        "inside the deferred stage the tag is not there yet; after it, it is"
    );
    assert!(!world.is_alive(units[1]));
}

#[test]
fn a_restored_world_is_seen_whole_once_then_tracked_again() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 2);
    let mut schedule = Schedule::new();
    schedule.push("watch", health_watcher("watch")).unwrap();
    schedule.run(&mut world);
    world.step();
    let saved = world.clone();
    for _ in 0..3 {
        schedule.run(&mut world);
        world.step();
    }
    seen(&mut world);
    world.restore(&saved);
    world.resources.seen.clear();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("watch", units.clone())],
        "the world's tick went back: everything counts as changed once"
    );
    world.set_health(units[0], Health(1));
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("watch", vec![units[0]])]);
}

#[test]
fn a_system_run_by_hand_keeps_its_memory_in_its_context() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 2);
    let mut context = SystemContext::<World>::new();
    let mut watcher = health_watcher("by_hand");
    context.run(&mut world, &mut watcher);
    world.set_health(units[1], Health(4));
    // Another system, with its own context.
    let report = SystemContext::new().run(&mut world, |world: &mut World| {
        let first = world.entities().next().unwrap();
        world.commands().queue_despawn(first);
    });
    assert_eq!(report.applied, 1, "the queued despawn was applied");
    context.run(&mut world, &mut watcher);
    assert_eq!(
        seen(&mut world),
        [("by_hand", units.clone()), ("by_hand", vec![units[1]])]
    );
    assert!(!world.is_alive(units[0]));
}

// ----- the same behaviours, as systems of parameters (their memory kept in the world) ---------

// The watchers and readers are closures written at each use, each recording under its name: a
// function returning `impl FnMut(Query<..>, ResMut<..>)` is refused as a system (E0277), while
// the same closure written inline is one.

/// A system of parameters that records the entities whose health changed since it last ran.
macro_rules! changed_health {
    ($name:literal) => {
        |changed: Query<Entity, Changed<Health>>, mut seen: ResMut<Seen>| {
            let entities = changed.iter().collect();
            seen.push(($name, entities));
        }
    };
}

/// A system of parameters that records the entities that gained health since it last ran.
macro_rules! added_health {
    ($name:literal) => {
        |added: Query<Entity, Added<Health>>, mut seen: ResMut<Seen>| {
            let entities = added.iter().collect();
            seen.push(($name, entities));
        }
    };
}

/// A system of parameters that records the hits it read through its own reader.
macro_rules! hit_reader {
    ($name:literal) => {
        |mut hits: EventReader<Hit>, mut read: ResMut<Reads>| {
            let events = hits.read().into_iter().copied().collect();
            read.push(($name, events));
        }
    };
}

/// Writes the first unit's health every run.
fn hurt_first(mut units: Query<&mut Health>) {
    if let Some(mut health) = units.iter_mut().next() {
        health.0 -= 1;
    }
}

/// Each hit read costs its unit a point of health: applying one twice shows.
fn apply_hits(mut hits: EventReader<Hit>, mut units: Query<&mut Health>) {
    for hit in hits.read() {
        if let Some(mut health) = units.get_mut(hit.entity) {
            health.0 -= 1;
        }
    }
}

#[test]
fn each_parameter_system_sees_the_changes_since_its_own_previous_run() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule
        .push("before", changed_health!("before"))
        .unwrap()
        .push("damage", hurt_first)
        .unwrap()
        .push("after", changed_health!("after"))
        .unwrap();

    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", units.clone()), ("after", units.clone())],
        "a first run sees every existing entity"
    );
    world.step();

    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", vec![units[0]]), ("after", vec![units[0]])],
        "`before` sees last frame's damage, `after` this frame's"
    );

    // Outside the schedule, between frames: seen by both, once.
    world.set_health(units[2], Health(50));
    world.step();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [
            ("before", vec![units[0], units[2]]),
            ("after", vec![units[0], units[2]])
        ]
    );
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("before", vec![units[0]]), ("after", vec![units[0]])]
    );
}

#[test]
fn a_parameter_system_that_skips_frames_sees_everything_it_missed_and_a_late_one_everything() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 4);
    let mut schedule = Schedule::new();
    schedule.add_stage("every_frame").unwrap();
    schedule.push("often", changed_health!("often")).unwrap();
    schedule.add_stage("every_third_frame").unwrap();
    schedule.push("rare", changed_health!("rare")).unwrap();

    schedule.run(&mut world);
    seen(&mut world);
    for (frame, unit) in units.iter().take(3).enumerate() {
        world.set_health(*unit, Health(frame as i32));
        schedule.run_stage("every_frame", &mut world).unwrap();
        world.step();
    }
    let often: Vec<_> = seen(&mut world).into_iter().map(|(_, e)| e).collect();
    assert_eq!(often, [vec![units[0]], vec![units[1]], vec![units[2]]]);
    schedule.run_stage("every_third_frame", &mut world).unwrap();
    assert_eq!(seen(&mut world), [("rare", units[..3].to_vec())]);

    schedule.push("late", changed_health!("late")).unwrap();
    schedule
        .push("late_arrivals", added_health!("late_arrivals"))
        .unwrap();
    schedule.run_stage("every_third_frame", &mut world).unwrap();
    assert_eq!(
        seen(&mut world),
        [
            ("rare", vec![]),
            ("late", units.clone()),
            ("late_arrivals", units.clone())
        ],
        "a system added late starts with a first run"
    );
}

#[test]
fn added_counts_spawns_and_additions_since_the_last_run_not_writes() {
    let mut world = World::new();
    let old = world.spawn(HEALTH);
    let mut schedule = Schedule::new();
    schedule
        .push("arrivals", added_health!("arrivals"))
        .unwrap();
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![old])]);

    let spawned = world.spawn(HEALTH);
    let given = world.spawn(POSITION);
    world.add_health(given);
    world.set_health(old, Health(3)); // a write, not an arrival
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![spawned, given])]);
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("arrivals", vec![])]);
}

#[test]
fn every_event_reader_reads_every_event_exactly_once() {
    fn send_to_last(units: Query<Entity>, mut hits: EventWriter<Hit>) {
        let entity = units.iter().last().unwrap();
        hits.send(Hit { entity });
    }
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule
        .push("early", hit_reader!("early"))
        .unwrap()
        .push("send", send_to_last)
        .unwrap()
        .push("late", hit_reader!("late"))
        .unwrap();
    for _ in 0..3 {
        schedule.run(&mut world);
        world.step();
    }
    let hit = Hit { entity: units[2] };
    assert_eq!(
        world.resources.read,
        [
            ("early", vec![]),
            ("late", vec![hit]),
            ("early", vec![hit]),
            ("late", vec![hit]),
            ("early", vec![hit]),
            ("late", vec![hit]),
        ],
        "each event once per reader, whether it runs before or after the sender"
    );
}

/// Marks units with no health left as dead, through the `Commands` parameter.
fn mark_dead_queued(mut units: Query<(Entity, &Health)>, mut commands: Commands) {
    units.for_each(|(entity, health)| {
        if health.0 <= 0 {
            commands.queue_add_dead(entity);
        }
    });
}

/// Despawns the dead units, and records which there were.
fn reap_queued(
    mut corpses: Query<Entity, With<DEAD>>,
    mut seen: ResMut<Seen>,
    mut commands: Commands,
) {
    let mut dead = Vec::new();
    corpses.for_each(|entity| {
        commands.queue_despawn(entity);
        dead.push(entity);
    });
    seen.push(("reap", dead));
}

#[test]
fn a_later_parameter_system_sees_the_commands_an_earlier_one_queued() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    world.set_health(units[1], Health(-1));
    let mut schedule = Schedule::new();
    schedule.add((mark_dead_queued, reap_queued));
    let report = schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("reap", vec![units[1]])]);
    assert_eq!(
        (report.applied, report.skipped),
        (2, 0),
        "a tag, then a despawn"
    );
    assert!(!world.is_alive(units[1]));
    assert_eq!(world.command_count(), 0);
}

#[test]
fn a_deferred_stage_applies_its_parameter_systems_commands_at_its_end() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    world.set_health(units[1], Health(-1));
    let mut schedule = Schedule::new();
    schedule.add_deferred_stage("update").unwrap();
    schedule.add((mark_dead_queued, reap_queued));
    schedule.add_stage("cleanup").unwrap();
    schedule.push("reap_again", reap_queued).unwrap();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("reap", vec![]), ("reap", vec![units[1]])],
        "inside the deferred stage the tag is not there yet; after it, it is"
    );
    assert!(!world.is_alive(units[1]));
}

/// Frames `frames` of the restore tests: the game's input (a hit on a unit in some frames, sent
/// before the systems run), the schedule, the end of the frame. Returns what the watcher saw
/// and every unit's health, frame by frame.
fn play(
    world: &mut World,
    schedule: &mut Schedule<World>,
    units: &[Entity],
    frames: std::ops::Range<usize>,
) -> Vec<(Seen, Vec<i32>)> {
    frames
        .map(|frame| {
            if frame % 3 != 0 {
                world.events.hit.send(Hit {
                    entity: units[frame % units.len()],
                });
            }
            schedule.run(world);
            world.step();
            let healths = units.iter().map(|&unit| world.get_health(unit).unwrap().0);
            let healths = healths.collect();
            (seen(world), healths)
        })
        .collect()
}

#[test]
fn a_restored_world_replays_exactly_what_its_parameter_systems_saw() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    let mut schedule = Schedule::new();
    schedule.add((apply_hits, changed_health!("watch")));
    play(&mut world, &mut schedule, &units, 0..3);
    // The hit sent in frame 2 is still stored (events live two frames) and already applied.
    assert_eq!(world.events.hit.len(), 1);
    let saved = world.clone();
    let original = play(&mut world, &mut schedule, &units, 3..8);
    assert_eq!(original[0].0, [("watch", vec![])], "frame 3 sends no hit");
    assert_eq!(original[1].0, [("watch", vec![units[1]])]);

    world.restore(&saved);
    let replayed = play(&mut world, &mut schedule, &units, 3..8);
    assert_eq!(
        replayed, original,
        "the systems' last runs and cursors went back with the world: no hit applied twice, no \
         change seen twice or missed"
    );

    // A schedule built afresh over the restored world finds the same memory.
    world.restore(&saved);
    let mut fresh = Schedule::new();
    fresh.add((apply_hits, changed_health!("watch")));
    assert_eq!(play(&mut world, &mut fresh, &units, 3..8), original);
}

#[test]
fn a_parameter_system_run_by_hand_keeps_its_memory_in_the_world() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 2);
    let mut watcher = changed_health!("by_hand");
    SystemContext::new().run(&mut world, &mut watcher);
    world.set_health(units[1], Health(4));
    // A fresh context each time: the memory is the world's, under the function's name.
    SystemContext::new().run(&mut world, &mut watcher);
    assert_eq!(
        seen(&mut world),
        [("by_hand", units.clone()), ("by_hand", vec![units[1]])]
    );
    // A clone carries it.
    let mut copy = world.clone();
    copy.set_health(units[0], Health(7));
    SystemContext::new().run(&mut copy, &mut watcher);
    assert_eq!(seen(&mut copy), [("by_hand", vec![units[0]])]);
}

#[test]
fn a_parameter_system_its_condition_skips_sees_everything_since_its_last_real_run() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule.push("rare", changed_health!("rare")).unwrap();
    let mut frame = 0;
    schedule
        .run_if("rare", move |_: &World| {
            frame += 1;
            frame % 3 == 1
        })
        .unwrap();
    schedule.run(&mut world); // runs: a first run
    assert_eq!(seen(&mut world), [("rare", units.clone())]);
    for unit in [units[0], units[2]] {
        world.set_health(unit, Health(1));
        world.step();
        schedule.run(&mut world); // skipped
        assert_eq!(seen(&mut world), []);
    }
    world.step();
    schedule.run(&mut world); // runs again
    assert_eq!(
        seen(&mut world),
        [("rare", vec![units[0], units[2]])],
        "both writes made while it was skipped"
    );
}

/// Watches health changes: a function of its own, to replace a watcher with.
fn other_watcher(changed: Query<Entity, Changed<Health>>, mut seen: ResMut<Seen>) {
    let entities = changed.iter().collect();
    seen.push(("other", entities));
}

#[test]
fn a_parameter_system_replaced_under_its_name_starts_with_a_first_run() {
    let mut world = World::new();
    let units = world.spawn_entities(HEALTH, 2);
    let mut schedule = Schedule::new();
    schedule.push("watch", changed_health!("watch")).unwrap();
    schedule.run(&mut world);
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("watch", units.clone()), ("watch", vec![])]
    );
    schedule.replace("watch", other_watcher).unwrap();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("other", units.clone())],
        "another function under the old name: a first run"
    );
    schedule.run(&mut world);
    assert_eq!(seen(&mut world), [("other", vec![])]);
}

#[test]
fn a_rollback_replayed_with_more_steps_than_the_frame_it_replaced_reports_the_replayed_write() {
    // The frame first ran with one fixed step; its replay runs three: the world's tick ends
    // ahead of where the first run left it, and the watcher must still see the replayed write.
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 2, |table, row| table.health[row] = Health(10));
    let mut schedule = Schedule::new();
    schedule.add((apply_hits, changed_health!("watch")));
    play(&mut world, &mut schedule, &units, 0..3);
    let saved = world.clone();
    world.events.hit.send(Hit { entity: units[0] });
    schedule.run(&mut world);
    world.step();
    world.restore(&saved);
    world.resources.seen.clear();
    for step in 0..3 {
        if step == 2 {
            world.events.hit.send(Hit { entity: units[1] });
        }
        schedule.run(&mut world);
        world.step();
    }
    assert_eq!(
        seen(&mut world),
        [
            ("watch", vec![]),
            ("watch", vec![]),
            ("watch", vec![units[1]])
        ],
        "the replayed hit is seen once, in the step that applied it"
    );
    assert_eq!(world.get_health(units[0]), saved.get_health(units[0]));
    assert_eq!(
        world.get_health(units[1]).unwrap().0,
        saved.get_health(units[1]).unwrap().0 - 1
    );
}

#[test]
fn a_world_that_adopts_a_copy_advanced_apart_sees_the_copys_writes_since_its_systems_ran() {
    let mut world = World::new();
    let units = world.spawn_batch(HEALTH, 3, |table, row| table.health[row] = Health(10));
    let mut schedule = Schedule::new();
    schedule.add((apply_hits, changed_health!("watch")));
    play(&mut world, &mut schedule, &units, 0..2);
    // The copy runs frames of its own, then is written after its watcher's last run.
    let mut copy = world.clone();
    let mut copy_schedule = Schedule::new();
    copy_schedule.add((apply_hits, changed_health!("watch")));
    play(&mut copy, &mut copy_schedule, &units, 2..6);
    copy.set_health(units[2], Health(1));
    copy.step();
    // The original runs frames of its own meanwhile (its tick moves on), then adopts the copy.
    play(&mut world, &mut schedule, &units, 2..9);
    world.restore(&copy);
    world.resources.seen.clear();
    schedule.run(&mut world);
    assert_eq!(
        seen(&mut world),
        [("watch", vec![units[2]])],
        "exactly the copy's write since its watcher ran: not missed, and nothing older"
    );
}
