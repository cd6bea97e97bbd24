//! World cloning from the user's side: `World: Clone` copies everything (entities, components,
//! tags, resources, events, change ticks, the change log, the caches), and `restore` makes a
//! world equal to an earlier clone. The main test runs a deterministic simulation (movement,
//! collisions sent as events, damage read through a cursor in a resource, deaths tagged and
//! despawned through commands, spawns from a seeded generator, a change-detection consumer),
//! clones at frame N, runs to N + K, restores, reruns, and gets the same state at every frame.

use std::collections::BTreeMap;
use std::fmt::Write;

use archetypal::{Entity, EventCursor, Tick, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health(pub u32);

/// Who spawned the entity: a handle inside a component.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parent(pub Entity);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collision {
    pub a: Entity,
    pub b: Entity,
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        parent: Parent => PARENT [untracked],
    }
    Tags {
        dead => DEAD,
        spawner => SPAWNER,
    }
    Events {
        collision: Collision,
    }
    Resources {
        seed: u64,
        frame: u32,
        collisions: EventCursor,
        healed_since: Tick,
        healed: Vec<(u32, usize)>,
        deaths: u32,
        log: Vec<String>,
    }
}

/// The seeded generator every random choice of the simulation comes from (a resource, so a
/// restore rewinds it too).
fn next_random(world: &mut World, below: u64) -> u64 {
    let seed = &mut world.resources.seed;
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 33) % below
}

fn setup() -> World {
    let mut world = World::new();
    world.resources.seed = 7;
    world.enable_change_log(64);
    world.spawn_batch(POSITION | VELOCITY | HEALTH | SPAWNER, 3, |table, index| {
        table.position[index] = Position {
            x: index as f32 * 10.0,
            y: 0.0,
        };
        table.velocity[index] = Velocity { x: 1.0, y: 0.5 };
        table.health[index] = Health(50);
    });
    world
}

/// One frame of the simulation.
fn frame(world: &mut World) {
    world.resources.frame += 1;

    // Movement, bouncing off the walls of a 32 x 32 arena.
    world.for_each_mut(POSITION | VELOCITY, DEAD, |_, table, index| {
        let (position, velocity) = (&mut table.position[index], &mut table.velocity[index]);
        position.x += velocity.x;
        position.y += velocity.y;
        if !(0.0..32.0).contains(&position.x) {
            velocity.x = -velocity.x;
        }
        if !(0.0..32.0).contains(&position.y) {
            velocity.y = -velocity.y;
        }
    });

    // Collisions: entities in the same 4 x 4 cell, in a deterministic order.
    let mut cells: BTreeMap<(i32, i32), Vec<Entity>> = BTreeMap::new();
    world.for_each(POSITION | HEALTH, DEAD, |entity, table, index| {
        let position = table.position[index];
        let cell = ((position.x / 4.0) as i32, (position.y / 4.0) as i32);
        cells.entry(cell).or_default().push(entity);
    });
    for entities in cells.values() {
        for pair in entities.windows(2) {
            world.events.collision.send(Collision {
                a: pair[0],
                b: pair[1],
            });
        }
    }

    // Damage, read through the cursor kept in the resources; the dead are tagged.
    let mut cursor = world.resources.collisions;
    let hits: Vec<Collision> = world
        .events
        .collision
        .consume(&mut cursor)
        .into_iter()
        .copied()
        .collect();
    world.resources.collisions = cursor;
    for hit in hits {
        for entity in [hit.a, hit.b] {
            let damage = 3 + next_random(world, 5) as u32;
            let alive = world.get_health_mut(entity).map(|health| {
                health.0 = health.0.saturating_sub(damage);
                health.0 > 0
            });
            if alive == Some(false) && !world.has_dead(entity) {
                world.add_dead(entity);
                world.resources.deaths += 1;
            }
        }
    }

    // Spawners spawn children now and then; the dead are despawned; all through commands.
    let spawners: Vec<Entity> = world.query_entities(SPAWNER).collect();
    for spawner in spawners {
        if next_random(world, 4) == 0 {
            let child = world
                .commands()
                .queue_spawn_entities(POSITION | VELOCITY | HEALTH | PARENT, 1)[0];
            let x = next_random(world, 32) as f32;
            world
                .commands()
                .queue_set_position(child, Position { x, y: 1.0 });
            world
                .commands()
                .queue_set_velocity(child, Velocity { x: -0.5, y: 1.0 });
            world.commands().queue_set_health(child, Health(20));
            world.commands().queue_set_parent(child, Parent(spawner));
        }
    }
    let dead: Vec<Entity> = world.query_entities(DEAD).collect();
    for entity in dead {
        world.commands().queue_despawn(entity);
    }
    let report = world.apply_commands();
    let frame = world.resources.frame;
    world
        .resources
        .log
        .push(format!("frame {frame}: {report:?}"));

    // A change-detection consumer with its own tick: who was healed (health written) lately.
    if frame.is_multiple_of(3) {
        let since = world.resources.healed_since;
        world.for_each_mut(HEALTH, DEAD, |_, table, index| {
            table.health[index].0 += 1;
        });
        let healed = world
            .typed_query_ref::<Entity>()
            .changed_since(HEALTH, since)
            .iter()
            .count();
        world.resources.healed.push((frame, healed));
        world.resources.healed_since = world.current_tick();
        world.increment_tick();
    }

    world.step();
}

/// Everything observable about a world, as text: two worlds with the same text are in the same
/// state, down to table and row order, ticks, events, the change log and the caches' shape.
fn state(world: &World) -> String {
    world.check_invariants().unwrap();
    let mut text = String::new();
    for table in world.tables() {
        writeln!(
            text,
            "table {:b}: {:?} {:?} {:?} {:?} {:?}",
            table.mask, table.entities, table.position, table.velocity, table.health, table.parent
        )
        .unwrap();
    }
    let dead: Vec<Entity> = world.query_entities(DEAD).collect();
    let spawners: Vec<Entity> = world.query_entities(SPAWNER).collect();
    writeln!(text, "tags: {dead:?} {spawners:?}").unwrap();
    let resources = &world.resources;
    writeln!(
        text,
        "resources: {} {} {:?} {:?} {:?} {} {:?}",
        resources.seed,
        resources.frame,
        resources.collisions,
        resources.healed_since,
        resources.healed,
        resources.deaths,
        resources.log
    )
    .unwrap();
    writeln!(text, "events: {:?}", world.events.collision.collect()).unwrap();
    writeln!(
        text,
        "ticks: {:?} {:?}",
        world.current_tick(),
        world.last_tick()
    )
    .unwrap();
    for component in [POSITION, VELOCITY, HEALTH, PARENT] {
        for frames_back in [0, 1, 2, 4, 8] {
            let since = Tick(world.last_tick().0.saturating_sub(frames_back));
            let changed: Vec<Entity> = world
                .typed_query_ref::<Entity>()
                .changed_since(component, since)
                .iter()
                .collect();
            writeln!(text, "changed {component:b} since {since:?}: {changed:?}").unwrap();
        }
    }
    let changes: Vec<_> = world
        .consume_changes(&mut EventCursor::new())
        .into_iter()
        .copied()
        .collect();
    writeln!(text, "change log: {changes:?}").unwrap();
    let (index, records) = (world.entity_index(), world.records());
    writeln!(
        text,
        "ids: {} live, {} issued, {} free; {} tables, {} cached queries",
        records.len(),
        index.id_count(records),
        index.free_count(),
        world.archetype_count(),
        world.query_cache().entries().count()
    )
    .unwrap();
    text
}

const FRAMES_BEFORE: usize = 40;
const FRAMES_AFTER: usize = 60;

#[test]
fn a_restored_world_replays_the_same_frames() {
    let mut world = setup();
    for _ in 0..FRAMES_BEFORE {
        frame(&mut world);
    }
    let saved = world.clone();
    assert_eq!(state(&saved), state(&world), "a clone is an exact copy");

    let mut first_run = Vec::new();
    for _ in 0..FRAMES_AFTER {
        frame(&mut world);
        first_run.push(state(&world));
    }
    assert_ne!(state(&world), state(&saved), "the simulation moved on");

    world.restore(&saved);
    assert_eq!(
        state(&world),
        state(&saved),
        "restored to frame {FRAMES_BEFORE}"
    );
    let mut second_run = Vec::new();
    for _ in 0..FRAMES_AFTER {
        frame(&mut world);
        second_run.push(state(&world));
    }
    for (index, (first, second)) in first_run.iter().zip(&second_run).enumerate() {
        assert_eq!(first, second, "frame {} differs", FRAMES_BEFORE + index + 1);
    }
}

#[test]
fn the_simulation_is_eventful() {
    let mut world = setup();
    let mut collisions = 0;
    for _ in 0..FRAMES_BEFORE + FRAMES_AFTER {
        frame(&mut world);
        collisions += world.events.collision.len();
    }
    let spawned = world.entity_index().id_count(world.records()) - 3;
    assert!(spawned > 5, "spawners spawned {spawned}");
    assert!(collisions > 10, "{collisions} collisions");
    assert!(
        world.resources.deaths > 2,
        "{} deaths",
        world.resources.deaths
    );
    assert!(world.archetype_count() >= 2);
    assert!(world.resources.healed.iter().any(|&(_, healed)| healed > 0));
}

#[test]
fn a_clone_is_independent_of_the_original() {
    let mut world = setup();
    frame(&mut world);
    let copy = world.clone();
    let before = state(&copy);
    let entity = world.entities().next().unwrap();
    world.set_health(entity, Health(1));
    let second = world.entities().nth(1).unwrap();
    world.despawn(second);
    world.resources.log.clear();
    frame(&mut world);
    assert_eq!(state(&copy), before);
    assert_ne!(copy.get_health(entity), world.get_health(entity));
}

#[test]
fn restore_works_between_worlds_of_any_shape() {
    let small = setup();
    let mut large = setup();
    for _ in 0..30 {
        frame(&mut large);
    }
    let large_state = state(&large);
    let mut target = large.clone();
    target.restore(&small);
    assert_eq!(
        state(&target),
        state(&small),
        "a large world restored to a small one"
    );
    target.restore(&large);
    assert_eq!(state(&target), large_state, "and back");
    let mut fresh = World::new();
    fresh.restore(&large);
    assert_eq!(state(&fresh), large_state);
}

#[test]
fn queued_commands_are_not_cloned_and_their_reservations_are_given_back() {
    let mut world = setup();
    let queued = world.commands().queue_spawn_entities(POSITION, 2);
    let entity = world.entities().next().unwrap();
    world.commands().queue_despawn(entity);
    let mut copy = world.clone();
    assert_eq!(copy.command_count(), 0);
    assert_eq!(world.command_count(), 2, "the original keeps its queue");
    assert_eq!(copy.apply_commands().applied, 0);
    assert!(queued.iter().all(|&handle| !copy.is_alive(handle)));
    let spawned = copy.spawn(POSITION);
    assert_eq!(spawned.id, queued[1].id, "a released id is recycled");
    assert_eq!(spawned.generation, queued[1].generation + 1);
    copy.check_invariants().unwrap();
    assert_eq!(world.apply_commands().applied, 2);
    assert!(queued.iter().all(|&handle| world.is_alive(handle)));
    assert!(!world.is_alive(entity));
}

#[test]
fn cloning_keeps_the_caches_and_the_change_log() {
    let mut world = setup();
    world.warm_query(HEALTH);
    let first = world.entities().next().unwrap();
    world.add_components(first, PARENT);
    let copy = world.clone();
    let entries = |world: &World| {
        let mut entries: Vec<(u64, Vec<usize>)> = world
            .query_cache()
            .entries()
            .map(|(mask, tables)| (mask, tables.to_vec()))
            .collect();
        entries.sort();
        entries
    };
    assert_eq!(entries(&copy), entries(&world));
    assert_eq!(copy.edges().len(), world.edges().len());
    let logged = |world: &World| world.consume_changes(&mut EventCursor::new()).len();
    assert_eq!(logged(&copy), logged(&world));
    assert!(logged(&copy) > 0);
}

/// A component whose `Clone` panics once a thread-local countdown runs out.
mod fragile {
    use std::cell::Cell;

    thread_local! {
        pub static CLONES_LEFT: Cell<usize> = const { Cell::new(usize::MAX) };
    }

    #[derive(Default, Debug, PartialEq)]
    pub struct Fragile(pub u32);

    impl Clone for Fragile {
        fn clone(&self) -> Self {
            let left = CLONES_LEFT.with(|left| left.replace(left.get().saturating_sub(1)));
            assert!(left > 0, "Fragile::clone");
            Fragile(self.0)
        }
    }

    archetypal::ecs! {
        FragileWorld {
            count: u32 => COUNT,
            fragile: Fragile => FRAGILE,
        }
    }
}

#[test]
fn a_clone_that_panics_during_restore_leaves_an_empty_world_not_half_a_copy() {
    use fragile::*;
    let mut source = FragileWorld::new();
    source.spawn_batch(COUNT | FRAGILE, 10, |table, index| {
        table.count[index] = index as u32;
        table.fragile[index] = Fragile(index as u32);
    });
    let mut target = FragileWorld::new();
    target.spawn_entities(COUNT, 3);
    CLONES_LEFT.with(|left| left.set(4));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        target.restore(&source);
    }));
    CLONES_LEFT.with(|left| left.set(usize::MAX));
    assert!(outcome.is_err(), "the fifth clone panicked");
    target.check_invariants().unwrap();
    assert_eq!(target.entity_count(), 0, "emptied, not half-copied");
    target.restore(&source);
    target.check_invariants().unwrap();
    assert_eq!(target.entity_count(), 10);
    assert_eq!(
        target.get_fragile(source.entities().collect::<Vec<_>>()[9]),
        Some(&Fragile(9))
    );
}
