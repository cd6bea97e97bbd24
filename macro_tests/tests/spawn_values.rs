//! `spawn_values(iter of tuples)` from the user's side: each value lands in its own entity's
//! row, in the order yielded; the world spawns exactly what the iterator yields whatever its
//! size hint says; change ticks and tag segments are those of the other spawns; a tuple
//! naming a component twice panics before anything changes; and an iterator that panics at
//! any call (a value's `Clone` in `.cloned()`, or the iterator itself), or a value's `Drop`
//! panicking as the iterator's source goes, leaves the world as it was: invariants hold,
//! nothing leaked, nothing dropped twice, no handle issued.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, panic_any};
use std::sync::Once;

use archetypal::{Entity, ecs};

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

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trap {
    Clone,
    Drop,
    Next,
}

/// The payload of every panic this test injects.
#[derive(Debug)]
struct Injected(Trap, u32);

thread_local! {
    /// The armed trap, the call it fires at, and how many calls of its kind are left before.
    static FUSE: Cell<Option<(Trap, u32, u32)>> = const { Cell::new(None) };
    /// Live `Counted` instances, and drops of instances already dropped.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static DOUBLE_DROPS: Cell<u32> = const { Cell::new(0) };
    /// `Default` calls: a value spawn makes none.
    static DEFAULTS: Cell<u32> = const { Cell::new(0) };
}

fn arm(trap: Trap, at: u32) {
    FUSE.with(|fuse| fuse.set(Some((trap, at, at))));
}

/// Disarms the trap; whether it had fired.
fn disarm() -> bool {
    FUSE.with(|fuse| fuse.replace(None)).is_none()
}

fn spring(kind: Trap) {
    FUSE.with(|fuse| match fuse.get() {
        Some((trap, at, 0)) if trap == kind => {
            fuse.set(None);
            panic_any(Injected(kind, at));
        }
        Some((trap, at, left)) if trap == kind => fuse.set(Some((trap, at, left - 1))),
        _ => {}
    });
}

fn live() -> i64 {
    LIVE.with(Cell::get)
}

/// A component that counts its instances, and whose `Clone` and `Drop` panic on demand.
#[derive(Debug, PartialEq)]
pub struct Counted {
    pub value: u32,
    dropped: bool,
}

impl Counted {
    fn new(value: u32) -> Self {
        LIVE.with(|live| live.set(live.get() + 1));
        Counted {
            value,
            dropped: false,
        }
    }
}

impl Default for Counted {
    fn default() -> Self {
        DEFAULTS.with(|defaults| defaults.set(defaults.get() + 1));
        Counted::new(0)
    }
}

impl Clone for Counted {
    fn clone(&self) -> Self {
        spring(Trap::Clone);
        Counted::new(self.value)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        if self.dropped {
            DOUBLE_DROPS.with(|count| count.set(count.get() + 1));
            return;
        }
        self.dropped = true;
        LIVE.with(|live| live.set(live.get() - 1));
        if !std::thread::panicking() {
            spring(Trap::Drop);
        }
    }
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        name: Name => NAME,
        counted: Counted => COUNTED,
    }
    Tags {
        frozen => FROZEN,
    }
}

fn quiet_injected_panics() {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<Injected>().is_none() {
                default(info);
            }
        }));
    });
}

fn position(i: usize) -> Position {
    Position {
        x: i as f32,
        y: -(i as f32),
    }
}

fn velocity(i: usize) -> Velocity {
    Velocity {
        x: 1.0,
        y: i as f32,
    }
}

#[test]
fn each_value_lands_in_its_entity_in_the_order_yielded() {
    let mut world = World::new();
    let before = world.spawn(POSITION);
    let entities = world.spawn_values((0..5).map(|i| (position(i), velocity(i))));
    assert_eq!(entities.len(), 5);
    for (i, &entity) in entities.iter().enumerate() {
        assert_eq!(world.component_mask(entity), Some(POSITION | VELOCITY));
        assert_eq!(world.get_position(entity), Some(&position(i)));
        assert_eq!(world.get_velocity(entity), Some(&velocity(i)));
    }
    // The tuple's order is not the declaration order: each element finds its column by type.
    let named = world.spawn_values([
        (Name("b".into()), velocity(7)),
        (Name("c".into()), velocity(8)),
    ]);
    assert_eq!(world.get_name(named[1]), Some(&Name("c".into())));
    assert_eq!(world.get_velocity(named[0]), Some(&velocity(7)));
    assert_eq!(world.component_mask(named[0]), Some(VELOCITY | NAME));
    // One component: a one-element tuple.
    let alone = world.spawn_values(std::iter::once((velocity(9),)));
    assert_eq!(world.component_mask(alone[0]), Some(VELOCITY));
    // Nothing yielded: nothing spawned.
    assert!(
        world
            .spawn_values(std::iter::empty::<(Position,)>())
            .is_empty()
    );
    assert_eq!(world.entity_count(), 9);
    assert_eq!(world.get_position(before), Some(&Position::default()));
    world.check_invariants().unwrap();
}

#[test]
fn it_issues_the_handles_a_closure_batch_would() {
    let mut world = World::new();
    let first = world.spawn_entities(POSITION, 6);
    world.despawn(first[1]);
    world.despawn(first[4]);
    let mut twin = world.clone();
    let valued = world.spawn_values((0..4).map(|i| (position(i),)));
    let mut next = 0;
    let batched = twin.spawn_batch(POSITION, 4, |table, row| {
        table.position[row] = position(next);
        next += 1;
    });
    assert_eq!(valued, batched);
    assert_eq!(
        world
            .typed_query_ref::<&Position>()
            .iter()
            .collect::<Vec<_>>(),
        twin.typed_query_ref::<&Position>()
            .iter()
            .collect::<Vec<_>>()
    );
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
fn it_spawns_exactly_what_the_iterator_yields_whatever_its_size_hint() {
    for (yielded, hint) in [
        (100, (0, Some(0))),
        (100, (3, Some(3))),
        (100, (0, None)),
        (3, (1000, Some(1000))),
        (0, (50, None)),
        (40, (40, Some(40))),
    ] {
        let mut world = World::new();
        world.spawn_entities(POSITION | VELOCITY, 2);
        let entities = world.spawn_values(Lying {
            inner: (0..yielded).map(|i| (position(i), velocity(i))),
            hint,
        });
        assert_eq!(entities.len(), yielded, "{yielded} yielded, hint {hint:?}");
        assert_eq!(world.entity_count(), yielded + 2);
        for (i, &entity) in entities.iter().enumerate() {
            assert_eq!(world.get_position(entity), Some(&position(i)));
            assert_eq!(world.get_velocity(entity), Some(&velocity(i)));
        }
        world.check_invariants().unwrap();
    }
}

#[test]
fn the_spawns_are_stamped_and_join_the_untagged_rows() {
    let mut world = World::new();
    let frozen = world.spawn_entities(POSITION | FROZEN, 3);
    let seen = world.current_tick();
    world.increment_tick();
    let entities = world.spawn_values((0..4).map(|i| (position(i),)));
    let added: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .added_since(POSITION, seen)
        .iter()
        .collect();
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, seen)
        .iter()
        .collect();
    for entity in &entities {
        assert!(added.contains(entity) && changed.contains(entity));
        assert!(!world.has_frozen(*entity));
    }
    assert_eq!(added.len(), 4);
    assert_eq!(changed.len(), 4);
    for &entity in &frozen {
        assert!(world.has_frozen(entity));
    }
    let thawed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .with(POSITION)
        .without(FROZEN)
        .iter()
        .collect();
    assert_eq!(thawed.len(), 4);
    for (i, &entity) in entities.iter().enumerate() {
        assert_eq!(world.get_position(entity), Some(&position(i)));
    }
    world.check_invariants().unwrap();
}

#[test]
fn a_tuple_naming_a_component_twice_panics_before_anything_changes() {
    quiet_injected_panics();
    let mut world = World::new();
    world.spawn_entities(POSITION, 2);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        world.spawn_values([(position(1), position(2))]);
    }));
    let payload = outcome.unwrap_err();
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(message.contains("naming one component twice"), "{message}");
    assert_eq!(world.entity_count(), 2);
    assert_eq!(world.spawn_entities(POSITION, 1)[0], Entity::new(2, 0));
    world.check_invariants().unwrap();
}

/// Runs `spawn` with `trap` armed at call `at` on a world holding rows of `Counted` already;
/// checks the world after, and returns whether the trap fired.
fn spawn_with_trap(trap: Trap, at: u32, spawn: fn(&mut World, &[Counted])) -> bool {
    quiet_injected_panics();
    let mut world = World::new();
    let old = world.spawn_values((0..3).map(|i| (Counted::new(i), position(i as usize))));
    world.despawn(old[1]);
    let sources: Vec<Counted> = (0..5).map(|i| Counted::new(100 + i)).collect();
    let defaults = DEFAULTS.with(Cell::get);
    let label = format!("{trap:?} at call {at}");
    arm(trap, at);
    let outcome = catch_unwind(AssertUnwindSafe(|| spawn(&mut world, &sources)));
    let fired = disarm();
    if let Err(payload) = &outcome {
        assert!(
            matches!(payload.downcast_ref::<Injected>(), Some(Injected(kind, k)) if *kind == trap && *k == at),
            "{label}: a panic the test did not inject"
        );
    }
    assert_eq!(fired, outcome.is_err(), "{label}");
    world.check_invariants().unwrap();
    assert_eq!(
        DEFAULTS.with(Cell::get),
        defaults,
        "{label}: a default was made"
    );
    assert_eq!(
        DOUBLE_DROPS.with(Cell::get),
        0,
        "{label}: a value dropped twice"
    );
    drop(sources);
    let spawned = world.entity_count() - 2;
    if outcome.is_ok() {
        assert_eq!(spawned, 5, "{label}");
    } else {
        // Cut back before any handle was issued: the freed id is still the next one.
        assert_eq!(spawned, 0, "{label}: a panicking batch spawned");
        assert_eq!(
            world.spawn_entities(0, 1)[0],
            Entity::new(old[1].id, 1),
            "{label}"
        );
    }
    // Nothing leaked: every live instance is one of the world's rows.
    let rows: usize = world
        .tables()
        .iter()
        .filter(|table| table.mask & COUNTED != 0)
        .map(|table| table.counted.len())
        .sum();
    assert_eq!(live(), rows as i64, "{label}: instances leaked");
    // The next spawn takes the ids a spawn would have taken with nothing in between.
    let next = world.spawn(POSITION);
    assert!(world.is_alive(next));
    for &entity in &old {
        assert_ne!(next, entity);
    }
    world.check_invariants().unwrap();
    drop(world);
    assert_eq!(live(), 0, "{label}: instances outlived the world");
    fired
}

/// Every call of every trap, until the spawn completes without it.
fn sweep(trap: Trap, spawn: fn(&mut World, &[Counted])) -> u32 {
    let mut at = 0;
    while spawn_with_trap(trap, at, spawn) {
        at += 1;
        assert!(at < 100, "the spawn never completed");
    }
    at
}

#[test]
fn a_panicking_clone_drop_or_iterator_leaves_the_world_as_it_was() {
    // Each value a clone: `Clone` panics at every call in turn, then the sources' `Drop`.
    let cloned: fn(&mut World, &[Counted]) = |world, sources| {
        world.spawn_values(
            sources
                .iter()
                .enumerate()
                .map(|(i, value)| (value.clone(), position(i))),
        );
    };
    assert_eq!(sweep(Trap::Clone, cloned), 5);
    // Each value moved out of a `Vec` of the sources' clones, the `Vec`'s iterator dropping
    // what it did not yield when the iterator panics.
    let moved: fn(&mut World, &[Counted]) = |world, sources| {
        let values: Vec<Counted> = sources.to_vec();
        let mut calls = 0;
        world.spawn_values(values.into_iter().map(|value| {
            calls += 1;
            spring(Trap::Next);
            (
                value,
                Velocity {
                    x: calls as f32,
                    y: 0.0,
                },
            )
        }));
    };
    assert_eq!(sweep(Trap::Next, moved), 5);
    assert_eq!(sweep(Trap::Clone, moved), 5);
    // A value dropped by the iterator mid-batch (replaced by a new one), its `Drop` panicking.
    let replaced: fn(&mut World, &[Counted]) = |world, sources| {
        let values: Vec<Counted> = sources.to_vec();
        world.spawn_values(values.into_iter().map(|value| {
            let replacement = Counted::new(value.value + 1);
            drop(value);
            (replacement,)
        }));
    };
    assert_eq!(sweep(Trap::Drop, replaced), 5);
}

#[test]
fn it_reserves_once_from_the_size_hint() {
    let mut world = World::new();
    world.spawn_values((0..1_000).map(|i| (position(i), velocity(i))));
    let table = world
        .tables()
        .iter()
        .find(|table| table.mask == POSITION | VELOCITY)
        .unwrap();
    // An exact hint: one reservation of exactly the rows, no growth by doubling.
    assert_eq!(table.position.capacity(), 1_000);
    assert_eq!(table.velocity.capacity(), 1_000);
    // A hint too low grows by doubling from the reservation, as a `Vec` would.
    world.spawn_values(Lying {
        inner: (0..10).map(|i| (position(i), velocity(i))),
        hint: (0, None),
    });
    let table = world
        .tables()
        .iter()
        .find(|table| table.mask == POSITION | VELOCITY)
        .unwrap();
    assert_eq!(table.position.len(), 1_010);
    assert!(table.position.capacity() >= 1_010);
}

// ----- the multi-world form -------------------------------------------------------------------

mod game {
    use super::{Counted, Name, Position, Velocity};

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                velocity: Velocity => VELOCITY,
            }
            Render {
                name: Name => NAME,
                counted: Counted => COUNTED,
            }
            Audio {
                volume: f32 => VOLUME,
            }
        }
    }
}

#[test]
fn a_game_spawns_values_across_its_sub_worlds() {
    use game::*;
    let mut game = Game::new();
    let first = game.spawn_entities(3);
    game.despawn(first[1]);
    let entities =
        game.spawn_values((0..4).map(|i| (Name(format!("n{i}")), position(i), velocity(i))));
    assert_eq!(entities.len(), 4);
    assert_eq!(entities[0], Entity::new(first[1].id, 1));
    for (i, &entity) in entities.iter().enumerate() {
        assert!(game.is_alive(entity));
        assert_eq!(game.core.get_position(entity), Some(&position(i)));
        assert_eq!(game.core.get_velocity(entity), Some(&velocity(i)));
        assert_eq!(game.render.get_name(entity), Some(&Name(format!("n{i}"))));
        assert_eq!(game.core.component_mask(entity), Some(POSITION | VELOCITY));
        assert_eq!(game.render.component_mask(entity), Some(NAME));
        // A sub-world the tuple names nothing in holds the entity with no components.
        assert_eq!(game.audio.component_mask(entity), Some(0));
    }
    // One sub-world only, an iterator whose size hint lies.
    let alone = game.spawn_values(Lying {
        inner: (0..5).map(|i| (7.0_f32 + i as f32,)),
        hint: (50, Some(50)),
    });
    assert_eq!(alone.len(), 5);
    assert_eq!(game.audio.get_volume(alone[2]), Some(&9.0));
    assert_eq!(game.core.component_mask(alone[2]), Some(0));
    assert_eq!(game.entity_count(), 2 + 4 + 5);
    game.check_invariants().unwrap();
}

#[test]
fn a_game_whose_iterator_panics_spawns_nothing() {
    use game::*;
    quiet_injected_panics();
    for at in 0..4 {
        let mut game = Game::new();
        game.spawn_values((0..2).map(|i| (position(i), Counted::new(i as u32))));
        let sources: Vec<Counted> = (0..4).map(|i| Counted::new(100 + i)).collect();
        arm(Trap::Clone, at);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            game.spawn_values(sources.iter().map(|value| (velocity(1), value.clone())));
        }));
        assert_eq!(disarm(), outcome.is_err());
        assert_eq!(outcome.is_err(), at < 4);
        game.check_invariants().unwrap();
        assert_eq!(game.entity_count(), 2);
        assert_eq!(DOUBLE_DROPS.with(Cell::get), 0);
        drop(sources);
        assert_eq!(live(), 2, "only the game's own values are alive");
        let next = game.spawn();
        assert_eq!(next, Entity::new(2, 0), "no handle was issued");
        drop(game);
        assert_eq!(live(), 0);
    }
}
