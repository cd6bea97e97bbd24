//! A required component whose `Default` panics, on every path that adds what a rule requires:
//! the world stays consistent (`check_invariants`), nothing is half spawned or half moved, no
//! handle is issued by a spawn that failed, and the same call succeeds once the `Default`
//! behaves.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use archetypal::Entity;

thread_local! {
    /// Whether `Fragile::default` panics.
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

/// A component whose `Default` panics while armed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fragile(pub i32);

impl Default for Fragile {
    fn default() -> Self {
        assert!(!ARMED.with(Cell::get), "Fragile::default is armed");
        Fragile(7)
    }
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Shield(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        shield: Shield => SHIELD,
        fragile: Fragile => FRAGILE,
    }
    Rules {
        SHIELD requires FRAGILE,
    }
}

/// Runs `operation` with `Fragile::default` armed: it must panic and leave `world` as
/// consistent as before with the same entities; then runs it again disarmed and returns what
/// it returned.
fn fails_then_works<R>(world: &mut World, label: &str, operation: impl Fn(&mut World) -> R) -> R {
    let entities = world.entity_count();
    ARMED.with(|armed| armed.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(|| operation(world)));
    ARMED.with(|armed| armed.set(false));
    assert!(outcome.is_err(), "{label}: the armed default did not panic");
    world.check_invariants().unwrap();
    assert_eq!(world.entity_count(), entities, "{label}: half spawned");
    let result = operation(world);
    world.check_invariants().unwrap();
    result
}

fn quiet() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[test]
fn a_spawn_whose_required_default_panics_spawns_nothing() {
    quiet();
    let mut world = World::new();
    world.spawn(POSITION);
    let one = fails_then_works(&mut world, "spawn", |world| world.spawn(SHIELD));
    assert_eq!(world.component_mask(one), Some(SHIELD | FRAGILE));
    let batch = fails_then_works(&mut world, "spawn_entities", |world| {
        world.spawn_entities(SHIELD | POSITION, 3)
    });
    assert_eq!(world.get_fragile(batch[2]), Some(&Fragile(7)));
    let valued = fails_then_works(&mut world, "spawn_values", |world| {
        world.spawn_values((0..4).map(|i| (Shield(i), Position(i))))
    });
    assert_eq!(world.get_shield(valued[3]), Some(&Shield(3)));
    assert_eq!(world.get_fragile(valued[3]), Some(&Fragile(7)));
    let built = fails_then_works(&mut world, "builder", |world| {
        WorldEntityBuilder::new()
            .with_shield(Shield(1))
            .spawn(world, 2)
    });
    assert_eq!(world.component_mask(built[1]), Some(SHIELD | FRAGILE));
    // Every handle issued belongs to a live entity: the failed spawns issued none.
    assert_eq!(world.entity_count(), 1 + 1 + 3 + 4 + 2);
    assert_eq!(world.spawn(0), Entity::new(11, 0));
}

#[test]
fn an_add_whose_required_default_panics_moves_nothing() {
    quiet();
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    fails_then_works(&mut world, "set_shield", |world| {
        world.set_shield(entity, Shield(2))
    });
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | SHIELD | FRAGILE)
    );
    let other = world.spawn(POSITION);
    fails_then_works(&mut world, "add_components", |world| {
        world.add_components(other, SHIELD)
    });
    assert_eq!(world.get_fragile(other), Some(&Fragile(7)));
    assert_eq!(world.get_position(other), Some(&Position(0)));
}

#[test]
fn a_queued_spawn_whose_required_default_panics_leaves_the_world_consistent() {
    quiet();
    let mut world = World::new();
    // Values staged now; the required default is made when the spawn is applied.
    let queued = world
        .commands()
        .queue_spawn_values((0..3).map(|i| (Shield(i),)));
    let built = world
        .commands()
        .queue_spawn(WorldEntityBuilder::new().with_shield(Shield(9)));
    ARMED.with(|armed| armed.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(|| world.apply_commands()));
    ARMED.with(|armed| armed.set(false));
    assert!(outcome.is_err(), "the armed default did not panic");
    world.check_invariants().unwrap();
    for &entity in queued.iter().chain([&built]) {
        if world.is_alive(entity) {
            assert_eq!(world.component_mask(entity), Some(SHIELD | FRAGILE));
        }
    }
    // What is still queued applies once the default behaves.
    world.apply_commands();
    world.check_invariants().unwrap();
    for &entity in queued.iter().chain([&built]) {
        if world.is_alive(entity) {
            assert_eq!(world.get_fragile(entity), Some(&Fragile(7)));
        }
    }
}
