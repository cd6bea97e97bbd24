//! The determinism harness: random schedules of systems of parameters over random worlds, run
//! side by side (the parallel schedule, rayon's threads with the `parallel` feature) and in
//! order. After every frame both worlds' snapshots are the same bytes: components, tags,
//! relations, resources, handles, ticks; and what the systems remember, compared through what
//! they do next (and through the snapshot where it carries it).
//!
//! The systems cover every parameter kind: queries that write and read, typed filters (tags,
//! `Changed`, `Added`), two queries kept apart by a filter, events written and read, commands
//! (spawns, despawns, tags, links), locals and resources. Each seed picks a schedule (which
//! systems, in which order, some twice) and a world (which entities, which components).

use archetypal::{
    Added, Changed, Entity, EventReader, EventWriter, Local, Res, ResMut, Schedule, Target, With,
    Without, ecs,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i64);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub i64);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub i64);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mass(pub u64);
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Offset(pub i64);
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub target: Entity,
    pub damage: i64,
}
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub changed: u64,
    pub added: u64,
    pub shots: u64,
    pub deaths: u64,
    pub frames: u64,
}
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spawned(pub u64);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        mass: Mass => MASS,
        offset: Offset => OFFSET,
    }
    Tags {
        stunned => STUNNED,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
    Events {
        shot: Shot,
    }
    Resources {
        tally: Tally,
        spawned: Spawned,
        gravity: i64,
    }
}

fn movement(mut movers: Query<(&mut Position, &Velocity), Without<STUNNED>>, gravity: Res<i64>) {
    movers.for_each(|(mut position, velocity)| position.0 += velocity.0 + *gravity);
}

fn grow(mut masses: Query<&mut Mass>) {
    masses.for_each(|mut mass| mass.0 = mass.0.wrapping_mul(3).wrapping_add(1) % 1_000_003);
}

fn heal(mut healths: Query<&mut Health, With<STUNNED>>) {
    healths.for_each(|mut health| health.0 += 1);
}

fn follow(
    mut children: Query<(Entity, &mut Position, &Offset)>,
    parents: Query<&Position, Without<Offset>>,
) {
    children.for_each(|(child, mut position, offset)| {
        let parent = parents.target::<CHILD_OF, _>(child);
        if let Some(parent) = parent.and_then(|parent| parents.get(parent)) {
            position.0 = parent.0 + offset.0;
        }
    });
}

/// Children take a velocity from their parent's mass, read through a `Target` term.
#[allow(clippy::type_complexity)] // a system's parameters say all it touches
fn inherit(
    mut children: Query<(&mut Velocity, Target<CHILD_OF, &Mass, Without<Offset>>), With<Offset>>,
) {
    children.for_each(|(mut velocity, parent)| {
        if let Some(mass) = parent {
            velocity.0 = (mass.0 % 5) as i64 - 2;
        }
    });
}

fn shoot(
    mut shooters: Query<(Entity, &Position, &Mass)>,
    mut shots: EventWriter<Shot>,
    mut turn: Local<u64>,
) {
    *turn += 1;
    let turn = *turn;
    shooters.for_each(|(entity, position, mass)| {
        if (position.0.unsigned_abs() + mass.0 + turn).is_multiple_of(5) {
            shots.send(Shot {
                target: entity,
                damage: 1 + (mass.0 % 4) as i64,
            });
        }
    });
}

fn take_hits(
    mut shots: EventReader<Shot>,
    mut healths: Query<&mut Health>,
    mut tally: ResMut<Tally>,
) {
    for shot in shots.read() {
        tally.shots += 1;
        if let Some(mut health) = healths.get_mut(shot.target) {
            health.0 -= shot.damage;
        }
    }
}

fn count_shots(mut shots: EventReader<Shot>, mut spawned: ResMut<Spawned>) {
    spawned.0 += shots.read().len() as u64 * 1_000;
}

fn reap(
    mut units: Query<(Entity, &Health, Option<&Mass>)>,
    mut commands: Commands,
    mut tally: ResMut<Tally>,
) {
    units.for_each(|(entity, health, mass)| {
        if health.0 <= 0 {
            commands.queue_despawn(entity);
            tally.deaths += 1;
            let child = commands.queue_spawn(
                EntityBuilder::new()
                    .with_position(Position(health.0))
                    .with_health(Health(3))
                    .with_mass(Mass(mass.map_or(7, |mass| mass.0 + 1))),
            );
            commands.queue_add_stunned(child);
        }
    });
}

fn stun(
    mut units: Query<(Entity, &Velocity, &Position)>,
    mut commands: Commands,
    mut spawned: ResMut<Spawned>,
) {
    units.for_each(|(entity, velocity, position)| {
        if (velocity.0 + position.0).rem_euclid(7) == 0 {
            commands.queue_add_stunned(entity);
        } else if (velocity.0 + position.0).rem_euclid(7) == 3 {
            commands.queue_remove_stunned(entity);
        }
    });
    if spawned.0 % 3 == 1 {
        let parent = commands.queue_spawn(
            EntityBuilder::new()
                .with_position(Position(spawned.0 as i64 % 50))
                .with_velocity(Velocity(1)),
        );
        commands.queue_spawn(
            EntityBuilder::new()
                .with_position(Position(0))
                .with_offset(Offset(2))
                .with_child_of(parent),
        );
    }
    spawned.0 += 1;
}

fn watch_changes(changed: Query<Entity, Changed<Health>>, mut tally: ResMut<Tally>) {
    tally.changed += changed.count() as u64;
}

fn watch_arrivals(added: Query<&Mass, Added<Mass>>, mut tally: ResMut<Tally>) {
    tally.added += added.iter().map(|mass| mass.0).sum::<u64>();
}

/// Spawns every other run, with no query: what it queues changes what later systems match.
fn spawner(mut commands: Commands, mut turn: Local<u64>) {
    *turn += 1;
    if *turn % 2 == 1 {
        commands.queue_spawn(
            EntityBuilder::new()
                .with_mass(Mass(*turn))
                .with_health(Health(*turn as i64 % 4))
                .with_mask(STUNNED),
        );
    }
}

/// Reads masses only, into a resource of its own.
fn weigh(masses: Query<&Mass>, mut total: ResMut<i64>) {
    *total = masses.iter().map(|mass| mass.0 as i64).sum::<i64>() % 1_000_000 - 1;
}

fn frame_counter(mut tally: ResMut<Tally>, mut frames: Local<u64>) {
    *frames += 1;
    tally.frames = *frames;
}

/// Adds the `index`-th system of the menu.
fn add_system(schedule: &mut Schedule<World>, index: usize) {
    match index % 16 {
        0 => schedule.add(movement),
        1 => schedule.add(grow),
        2 => schedule.add(heal),
        3 => schedule.add(follow),
        4 => schedule.add(shoot),
        5 => schedule.add(take_hits),
        6 => schedule.add(count_shots),
        7 => schedule.add(reap),
        8 => schedule.add(stun),
        9 => schedule.add(watch_changes),
        10 => schedule.add(watch_arrivals),
        11 => schedule.add(frame_counter),
        12 => schedule.add(spawner),
        13 => schedule.add(weigh),
        14 => schedule.add(inherit),
        _ => schedule.add(archetypal::together((grow, frame_counter))),
    };
}

/// A world of `units` entities, each with the components `shapes` picks.
fn random_world(units: &[(u8, i64)]) -> World {
    let mut world = World::new();
    world.resources.gravity = -1;
    let mut parents = Vec::new();
    for &(shape, value) in units {
        let mut builder = EntityBuilder::new().with_position(Position(value));
        if shape & 1 != 0 {
            builder = builder.with_velocity(Velocity(value % 5 - 2));
        }
        if shape & 2 != 0 {
            builder = builder.with_health(Health(value.rem_euclid(9)));
        }
        if shape & 4 != 0 {
            builder = builder.with_mass(Mass(value.unsigned_abs() % 17));
        }
        if shape & 8 != 0 {
            builder = builder.with_mask(STUNNED);
        }
        if let (true, Some(&parent)) = (shape & 16 != 0, parents.last()) {
            builder = builder.with_offset(Offset(value % 3)).with_child_of(parent);
        }
        let entity = builder.spawn_one(&mut world);
        if shape & 16 == 0 {
            parents.push(entity);
        }
    }
    world
}

fn snapshot(world: &World) -> String {
    serde_json::to_string(&world.snapshot()).expect("a snapshot serializes")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn side_by_side_equals_in_order_frame_by_frame(
        systems in proptest::collection::vec(0usize..16, 2..14),
        units in proptest::collection::vec((0u8..32, -40i64..40), 0..60),
        frames in 1usize..10,
    ) {
        let build = |parallel: bool| {
            let mut schedule = Schedule::new();
            for &index in &systems {
                add_system(&mut schedule, index);
            }
            schedule.set_parallel(parallel);
            schedule
        };
        let mut in_order = build(false);
        let mut side_by_side = build(true);
        let mut first = random_world(&units);
        let mut second = first.clone();
        for frame in 0..frames {
            in_order.run(&mut first);
            side_by_side.run(&mut second);
            first.step();
            second.step();
            prop_assert_eq!(snapshot(&first), snapshot(&second), "frame {}", frame);
            prop_assert_eq!(&first.resources.tally, &second.resources.tally);
        }
        first.check_invariants().unwrap();
        second.check_invariants().unwrap();
    }
}

/// The harness does run systems side by side: most of its schedules have a batch of two or
/// more (with nothing pending, as after a frame).
#[test]
fn the_menu_forms_batches() {
    let mut schedule = Schedule::<World>::new();
    for index in [0, 1, 2, 9, 11, 3, 4, 5, 6, 10, 7, 8, 12, 13, 14, 15] {
        add_system(&mut schedule, index);
    }
    let batches = schedule.batches();
    assert!(batches.iter().any(|batch| batch.len() >= 3), "{batches:?}");
    assert_eq!(batches.iter().flatten().count(), 17);
}
