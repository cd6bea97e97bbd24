//! `queue_spawn_values(iter of tuples)` from the user's side: the handles come back at once and
//! come alive with their values at the sync point, from `commands()` and from a system's
//! `Commands`; queued between builders of the same components, the spawns keep the order
//! queued; an iterator whose size hint lies still queues exactly what it yields; and a tuple
//! naming a component twice, or an iterator that panics, queues and reserves nothing.

use std::panic::{AssertUnwindSafe, catch_unwind};

use archetypal::{Entity, ResMut, Schedule, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        name: Name => NAME,
    }
    Resources {
        wanted: usize,
    }
}

#[test]
fn the_handles_come_alive_with_their_values_at_the_sync_point() {
    let mut world = World::new();
    let first = world.spawn(POSITION);
    let queued = world
        .commands()
        .queue_spawn_values((1..4).map(|i| (Velocity(i as f32), Position(-(i as f32)))));
    assert_eq!(queued.len(), 3);
    for &entity in &queued {
        assert!(!world.is_alive(entity), "alive only at apply_commands");
        assert_eq!(world.get_position(entity), None);
    }
    // A later command can target a queued handle at once.
    world
        .commands()
        .queue_set_name(queued[2], Name("last".into()));
    let report = world.apply_commands();
    assert_eq!(report.applied, 4, "three spawns and one set");
    for (i, &entity) in queued.iter().enumerate() {
        let i = i as f32 + 1.0;
        assert_eq!(world.get_position(entity), Some(&Position(-i)));
        assert_eq!(world.get_velocity(entity), Some(&Velocity(i)));
    }
    assert_eq!(world.component_mask(queued[0]), Some(POSITION | VELOCITY));
    assert_eq!(world.get_name(queued[2]), Some(&Name("last".into())));
    assert_eq!(world.entity_count(), 4);
    // The handles a direct spawn of the same values would have had.
    let mut twin = World::new();
    assert_eq!(twin.spawn(POSITION), first);
    let direct = twin.spawn_values((1..4).map(|i| (Velocity(i as f32), Position(-(i as f32)))));
    assert_eq!(direct, queued);
    world.check_invariants().unwrap();
}

#[test]
fn spawns_queued_between_builders_keep_the_order_queued() {
    let mut world = World::new();
    let mut commands = world.commands();
    let a = commands.queue_spawn(
        WorldEntityBuilder::new()
            .with_position(Position(1.0))
            .with_velocity(Velocity(1.0)),
    );
    let values = commands.queue_spawn_values([
        (Position(2.0), Velocity(2.0)),
        (Position(3.0), Velocity(3.0)),
    ]);
    let named = commands.queue_spawn_values([(Name("n".into()),)]);
    let b = commands.queue_spawn(
        WorldEntityBuilder::new()
            .with_position(Position(4.0))
            .with_velocity(Velocity(4.0)),
    );
    let order = [a, values[0], values[1], named[0], b];
    // Consecutive spawns of one mask are one command, applied as one batch.
    assert_eq!(world.command_count(), 3);
    assert_eq!(world.apply_commands().applied, 5);
    let positions: Vec<(Entity, Position)> = world
        .typed_query_ref::<(Entity, &Position)>()
        .iter()
        .map(|(entity, position)| (entity, *position))
        .collect();
    assert_eq!(
        positions,
        [
            (order[0], Position(1.0)),
            (order[1], Position(2.0)),
            (order[2], Position(3.0)),
            (order[4], Position(4.0)),
        ],
        "one table, rows in the order queued"
    );
    assert_eq!(world.get_name(order[3]), Some(&Name("n".into())));
    world.check_invariants().unwrap();
}

/// An iterator whose size hint says `hint` whatever it yields.
struct Lying<I> {
    inner: I,
    hint: (usize, Option<usize>),
}

impl<I: Iterator> Iterator for Lying<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

#[test]
fn it_queues_exactly_what_the_iterator_yields_whatever_its_size_hint() {
    for (yielded, hint) in [
        (50, (0, Some(0))),
        (50, (0, None)),
        (2, (1000, Some(1000))),
        (0, (10, None)),
    ] {
        let mut world = World::new();
        let queued = world.commands().queue_spawn_values(Lying {
            inner: (0..yielded).map(|i| (Position(i as f32),)),
            hint,
        });
        assert_eq!(queued.len(), yielded, "{yielded} yielded, hint {hint:?}");
        assert_eq!(world.apply_commands().applied, yielded);
        for (i, &entity) in queued.iter().enumerate() {
            assert_eq!(world.get_position(entity), Some(&Position(i as f32)));
        }
        world.check_invariants().unwrap();
    }
}

#[test]
fn a_panicking_iterator_or_a_repeated_component_queues_and_reserves_nothing() {
    let mut world = World::new();
    world.commands().queue_spawn_values([(Position(1.0),)]);
    let panicking = catch_unwind(AssertUnwindSafe(|| {
        world.commands().queue_spawn_values((0..5).map(|i| {
            assert!(i < 3, "the iterator fails at its fourth value");
            (Position(i as f32), Name(i.to_string()))
        }));
    }));
    assert!(panicking.is_err());
    let repeated = catch_unwind(AssertUnwindSafe(|| {
        world
            .commands()
            .queue_spawn_values([(Position(1.0), Position(2.0))]);
    }));
    let payload = repeated.unwrap_err();
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.contains("naming one component twice"), "{message}");
    // Only the first spawn was queued; the next handle is the one after it.
    assert_eq!(world.command_count(), 1);
    assert_eq!(world.apply_commands().applied, 1);
    assert_eq!(world.entity_count(), 1);
    assert_eq!(world.spawn(0), Entity::new(1, 0));
    assert!(
        world.typed_query_ref::<&Name>().iter().next().is_none(),
        "no staged name reached the world"
    );
    world.check_invariants().unwrap();
}

/// A system keeps the population at `wanted`, queueing what is missing in one batch.
fn top_up(living: Query<Entity>, wanted: ResMut<usize>, mut commands: Commands) {
    let missing = wanted.saturating_sub(living.count());
    commands.queue_spawn_values((0..missing).map(|i| (Position(i as f32), Velocity(1.0))));
}

fn advance(mut movers: Query<(&mut Position, &Velocity)>) {
    movers.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

#[test]
fn a_system_queues_values_and_the_next_system_sees_them() {
    let mut world = World::new();
    world.resources.wanted = 4;
    let mut schedule = Schedule::new();
    schedule.add((top_up, advance));
    schedule.run(&mut world);
    let mut positions: Vec<f32> = world
        .typed_query_ref::<&Position>()
        .iter()
        .map(|position| position.0)
        .collect();
    positions.sort_by(f32::total_cmp);
    assert_eq!(positions, [1.0, 2.0, 3.0, 4.0], "spawned, then moved once");
    world.resources.wanted = 6;
    schedule.run(&mut world);
    assert_eq!(world.entity_count(), 6);
    world.check_invariants().unwrap();
}
