//! Hooks declared in `ecs!`'s `Hooks` block, from the user's side: every structural path
//! fires each hook once per entity, at the sync point (`apply_commands`), in the order the
//! changes happened and, per change, in declaration order; a hook reads the world as it is
//! there (its invariants hold), writes resources and events, and its changes (direct or
//! queued) run their hooks in the same `apply_commands`.

use archetypal::{Entity, Schedule};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Health(pub i32);

/// What a hook saw: its kind, the entity (and a link's target), for an addition the value
/// the entity held when the hook ran, for a removal the value that went (`None` when
/// `remove_position` handed it to its caller), and for a despawn the position and the tag the
/// entity had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fired {
    Spawned(Entity),
    PositionAdded(Entity, Option<i32>),
    PositionRemoved(Entity, Option<i32>),
    PlayerAdded(Entity),
    PlayerRemoved(Entity),
    Linked(Entity, Entity),
    Unlinked(Entity, Entity),
    OwnerUnlinked(Entity, Entity),
    Despawned(Entity, Option<i32>, bool),
}

impl Fired {
    /// The entity the hook ran for (a link's source).
    fn entity(&self) -> Entity {
        match *self {
            Fired::Spawned(entity)
            | Fired::PositionAdded(entity, _)
            | Fired::PositionRemoved(entity, _)
            | Fired::PlayerAdded(entity)
            | Fired::PlayerRemoved(entity)
            | Fired::Despawned(entity, ..) => entity,
            Fired::Linked(source, _)
            | Fired::Unlinked(source, _)
            | Fired::OwnerUnlinked(source, _) => source,
        }
    }
}

/// What the hooks record, and what a test asks them to do.
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log {
    pub fired: Vec<Fired>,
    /// `player_added` gives a new player this much health, by a queued command.
    pub starting_health: Option<i32>,
    /// `position_added` despawns the entity at once (a structural change inside a hook).
    pub despawn_positioned: bool,
    /// The hook run this many runs from now panics (after recording itself).
    pub panic_in: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Landed(pub Entity);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        player => PLAYER,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / owns => OWNED_BY,
    }
    Events {
        landed: Landed,
    }
    Resources {
        log: Log,
    }
    Hooks {
        on_spawn => spawned,
        on_add(POSITION) => position_added,
        on_remove(POSITION) => position_removed,
        on_add(PLAYER) => player_added,
        on_remove(PLAYER) => player_removed,
        on_link(CHILD_OF) => linked,
        on_unlink(CHILD_OF) => unlinked,
        on_unlink(OWNED_BY) => owner_unlinked,
        on_despawn => despawned,
    }
}

/// Every hook first checks that it never sees half an operation, and panics if told to.
fn record(world: &mut WorldParts<'_>, fired: Fired) {
    assert_eq!(world.components.check_invariants(), Ok(()));
    let log = &mut world.resources.log;
    log.fired.push(fired);
    match log.panic_in {
        Some(0) => {
            log.panic_in = None;
            std::panic::panic_any(InjectedPanic);
        }
        Some(left) => log.panic_in = Some(left - 1),
        None => {}
    }
}

/// The payload of the panics this test injects into hooks.
#[derive(Debug)]
struct InjectedPanic;

fn spawned(world: &mut WorldParts<'_>, entity: Entity) {
    record(world, Fired::Spawned(entity));
}

fn position_added(world: &mut WorldParts<'_>, entity: Entity) {
    let value = world
        .components
        .get_position(entity)
        .map(|position| position.0);
    record(world, Fired::PositionAdded(entity, value));
    world.events.landed.send(Landed(entity));
    if world.resources.log.despawn_positioned {
        world.components.despawn(entity);
    }
}

fn position_removed(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    assert!(removed.mask & POSITION != 0);
    let value = removed.position.map(|position| position.0);
    record(world, Fired::PositionRemoved(entity, value));
}

fn player_added(world: &mut WorldParts<'_>, entity: Entity) {
    record(world, Fired::PlayerAdded(entity));
    if let Some(health) = world.resources.log.starting_health {
        world.commands.queue_set_health(entity, Health(health));
    }
}

fn player_removed(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    assert!(removed.mask & PLAYER != 0);
    record(world, Fired::PlayerRemoved(entity));
}

fn linked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    record(world, Fired::Linked(source, target));
}

fn unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    record(world, Fired::Unlinked(source, target));
}

fn owner_unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    record(world, Fired::OwnerUnlinked(source, target));
}

fn despawned(world: &mut WorldParts<'_>, entity: Entity, dead: &WorldRemoved) {
    // Every value the entity had is kept for `on_despawn`: plain data included.
    assert_eq!(dead.velocity.is_some(), dead.mask & VELOCITY != 0);
    let position = dead.position.map(|position| position.0);
    record(
        world,
        Fired::Despawned(entity, position, dead.mask & PLAYER != 0),
    );
}

/// Runs the hooks and takes what they recorded.
fn sync(world: &mut World) -> Vec<Fired> {
    world.apply_commands();
    core::mem::take(&mut world.resources.log.fired)
}

use Fired::*;

#[test]
fn hooks_wait_for_the_sync_point_and_run_once() {
    let mut world = World::new();
    let entity = world.spawn(POSITION | VELOCITY);
    assert!(world.hooks_pending());
    assert!(world.resources.log.fired.is_empty());
    assert_eq!(
        sync(&mut world),
        [Spawned(entity), PositionAdded(entity, Some(0))]
    );
    assert!(!world.hooks_pending());
    assert!(sync(&mut world).is_empty());
    // A change no hook waits for records nothing.
    world.add_components(entity, HEALTH);
    world.remove_velocity(entity);
    assert!(!world.hooks_pending());
}

#[test]
fn every_spawn_path_fires_once_per_entity() {
    let mut world = World::new();
    let plain = world.spawn(VELOCITY);
    let batch = world.spawn_entities(POSITION, 2);
    let mut next_value = 10;
    let initialised = world.spawn_batch(POSITION | PLAYER, 2, |table, row| {
        table.position[row] = Position(next_value);
        next_value += 1;
    });
    let built = EntityBuilder::new()
        .with_position(Position(7))
        .spawn_one(&mut world);
    let copies = EntityBuilder::new()
        .with_position(Position(8))
        .spawn(&mut world, 2);
    let queued = world
        .commands()
        .queue_spawn(EntityBuilder::new().with_position(Position(9)));
    let queued_empty = world.commands().queue_spawn_entities(PLAYER, 1)[0];
    let mut expected = vec![Spawned(plain)];
    for &entity in &batch {
        expected.extend([Spawned(entity), PositionAdded(entity, Some(0))]);
    }
    for (row, &entity) in initialised.iter().enumerate() {
        expected.extend([
            Spawned(entity),
            PositionAdded(entity, Some(10 + row as i32)),
            PlayerAdded(entity),
        ]);
    }
    expected.extend([Spawned(built), PositionAdded(built, Some(7))]);
    for &entity in &copies {
        expected.extend([Spawned(entity), PositionAdded(entity, Some(8))]);
    }
    expected.extend([
        Spawned(queued),
        PositionAdded(queued, Some(9)),
        Spawned(queued_empty),
        PlayerAdded(queued_empty),
    ]);
    assert_eq!(sync(&mut world), expected);
}

#[test]
fn every_component_and_tag_path_fires_once() {
    let mut world = World::new();
    let entity = world.spawn(VELOCITY);
    sync(&mut world);

    world.set_position(entity, Position(4)); // adds
    world.set_position(entity, Position(5)); // a write, not a change
    assert_eq!(sync(&mut world), [PositionAdded(entity, Some(5))]);

    assert_eq!(world.remove_position(entity), Some(Position(5)));
    assert_eq!(world.remove_position(entity), None); // nothing to remove
    world.add_position(entity);
    world.add_position(entity); // already there
    world.remove_components(entity, POSITION | VELOCITY);
    world.add_components(entity, POSITION | PLAYER);
    world.add_player(entity); // already tagged
    world.remove_player(entity);
    assert_eq!(
        sync(&mut world),
        [
            // `remove_position` handed the value to its caller: the hook gets none.
            PositionRemoved(entity, None),
            PositionAdded(entity, Some(0)),
            // `remove_components` dropped it: the hook reads it first.
            PositionRemoved(entity, Some(0)),
            PositionAdded(entity, Some(0)),
            PlayerAdded(entity),
            PlayerRemoved(entity),
        ]
    );

    // The same through the queue: applied, then their hooks run in the same call.
    let mut commands = world.commands();
    commands.queue_remove_components(entity, POSITION);
    commands.queue_add_player(entity);
    commands.queue_set_position(entity, Position(6));
    commands.queue_remove_player(entity);
    assert_eq!(
        sync(&mut world),
        [
            PositionRemoved(entity, Some(0)),
            PlayerAdded(entity),
            PositionAdded(entity, Some(6)),
            PlayerRemoved(entity),
        ]
    );
}

#[test]
fn links_and_unlinks_fire_with_source_and_target() {
    let mut world = World::new();
    let [parent, other, child] = [(); 3].map(|_| world.spawn(VELOCITY));
    sync(&mut world);
    world.set_child_of(child, parent).unwrap();
    world.set_child_of(child, parent).unwrap(); // the same link again: no change
    world.set_child_of(child, other).unwrap(); // replaces the link
    world.remove_child_of(child);
    world.set_owned_by(child, parent).unwrap(); // no hook on this link
    world.commands().queue_set_child_of(child, parent);
    let built = EntityBuilder::new()
        .with_child_of(other)
        .spawn_one(&mut world);
    assert_eq!(
        sync(&mut world),
        [
            Linked(child, parent),
            Unlinked(child, parent),
            Linked(child, other),
            Unlinked(child, other),
            // The builder's spawn and its link, made directly, before the queued link.
            Spawned(built),
            Linked(built, other),
            Linked(child, parent),
        ]
    );
}

#[test]
fn a_despawn_fires_its_unlinks_removals_and_despawn_through_the_cascade() {
    let mut world = World::new();
    let root = world.spawn(POSITION | PLAYER);
    world.set_position(root, Position(1));
    let child = world.spawn(VELOCITY);
    let grandchild = world.spawn(POSITION);
    world.set_position(grandchild, Position(3));
    let owned = world.spawn(VELOCITY);
    world.set_child_of(child, root).unwrap();
    world.set_child_of(grandchild, child).unwrap();
    world.set_owned_by(owned, grandchild).unwrap();
    sync(&mut world);

    assert!(world.despawn(root));
    let fired = sync(&mut world);
    // Each entity's hooks fire once: its unlinks, then (declaration order) the removal of
    // its position and player, then the despawn.
    for entity in [root, child, grandchild] {
        let despawns = fired
            .iter()
            .filter(|f| matches!(f, Despawned(e, ..) if *e == entity));
        assert_eq!(despawns.count(), 1);
    }
    assert!(fired.contains(&Despawned(child, None, false)));
    assert!(fired.contains(&OwnerUnlinked(owned, grandchild)));
    assert!(fired.contains(&Unlinked(child, root)));
    assert!(fired.contains(&Unlinked(grandchild, child)));
    let root_tail = [
        PositionRemoved(root, Some(1)),
        PlayerRemoved(root),
        Despawned(root, Some(1), true),
    ];
    assert!(fired.windows(3).any(|window| window == root_tail));
    let grandchild_tail = [
        PositionRemoved(grandchild, Some(3)),
        Despawned(grandchild, Some(3), false),
    ];
    assert!(fired.windows(2).any(|window| window == grandchild_tail));
    // Nothing of `owned` went but its link.
    assert_eq!(
        fired
            .iter()
            .filter(|f| format!("{f:?}").contains(&format!("{owned:?}")))
            .count(),
        1
    );
    assert_eq!(fired.len(), 3 + 2 + 2 + 1 + 1);
    assert!(world.is_alive(owned));

    // `despawn_entities` and a queued despawn: the same per entity.
    let pair = world.spawn_entities(POSITION, 2);
    let queued = world.spawn(PLAYER);
    sync(&mut world);
    world.despawn_entities(&pair);
    world.commands().queue_despawn(queued);
    assert_eq!(
        sync(&mut world),
        [
            PositionRemoved(pair[0], Some(0)),
            Despawned(pair[0], Some(0), false),
            PositionRemoved(pair[1], Some(0)),
            Despawned(pair[1], Some(0), false),
            PlayerRemoved(queued),
            Despawned(queued, None, true),
        ]
    );
}

#[test]
fn a_hook_sees_the_world_at_the_sync_point() {
    let mut world = World::new();
    // Spawned and despawned before the sync point: the hooks still fire, in order, and the
    // addition's hook finds nothing to read.
    let brief = world.spawn(POSITION);
    world.despawn(brief);
    // Written after the spawn: the hook reads the value the entity holds now.
    let written = world.spawn(POSITION);
    world.set_position(written, Position(3));
    assert_eq!(
        sync(&mut world),
        [
            Spawned(brief),
            PositionAdded(brief, None),
            PositionRemoved(brief, Some(0)),
            Despawned(brief, Some(0), false),
            Spawned(written),
            PositionAdded(written, Some(3)),
        ]
    );
    // The hook sent an event for each addition.
    assert_eq!(world.events.landed.len(), 2);
}

#[test]
fn commands_a_hook_queues_apply_in_the_same_sync_point() {
    let mut world = World::new();
    world.resources.log.starting_health = Some(100);
    let entity = world.spawn(VELOCITY);
    world.add_player(entity);
    let report = world.apply_commands();
    assert_eq!(report.applied, 1); // the hook's `queue_set_health`
    assert_eq!(world.get_health(entity), Some(&Health(100)));
    assert_eq!(world.command_count(), 0);
}

#[test]
fn changes_a_hook_makes_run_their_hooks_in_the_same_pass() {
    let mut world = World::new();
    world.resources.log.despawn_positioned = true;
    let first = world.spawn(POSITION);
    let second = world.spawn(POSITION);
    assert_eq!(
        sync(&mut world),
        [
            Spawned(first),
            PositionAdded(first, Some(0)),
            Spawned(second),
            PositionAdded(second, Some(0)),
            // The hooks' despawns, after every change that waited before them.
            PositionRemoved(first, Some(0)),
            Despawned(first, Some(0), false),
            PositionRemoved(second, Some(0)),
            Despawned(second, Some(0), false),
        ]
    );
    assert_eq!(world.entity_count(), 0);
}

#[test]
fn clearing_the_queue_fires_nothing() {
    let mut world = World::new();
    let entity = world.spawn(VELOCITY);
    sync(&mut world);
    let mut commands = world.commands();
    commands.queue_add_components(entity, POSITION);
    commands.queue_despawn(entity);
    let never = commands.queue_spawn(EntityBuilder::new().with_position(Position(1)));
    world.clear_commands();
    assert!(sync(&mut world).is_empty());
    assert!(!world.is_alive(never));
}

/// A world whose next `apply_commands` runs hooks of every kind, some of them queueing
/// commands whose changes run hooks too.
fn busy_world() -> World {
    let mut world = World::new();
    world.resources.log.starting_health = Some(50);
    let root = world.spawn(POSITION | PLAYER);
    let child = world.spawn(VELOCITY);
    world.set_child_of(child, root).unwrap();
    let owned = EntityBuilder::new()
        .with_position(Position(2))
        .with_owned_by(child)
        .spawn_one(&mut world);
    world.spawn_entities(POSITION, 2);
    world.add_player(child);
    world.remove_position(owned);
    let mut commands = world.commands();
    commands.queue_spawn(
        EntityBuilder::new()
            .with_position(Position(3))
            .with_child_of(child),
    );
    commands.queue_add_player(owned);
    commands.queue_despawn(root);
    world
}

fn alive(world: &World) -> Vec<Entity> {
    let mut alive: Vec<Entity> = world.typed_query_ref::<Entity>().iter().collect();
    alive.sort();
    alive
}

#[test]
fn a_hook_panicking_at_every_run_leaves_the_world_consistent_and_the_rest_waiting() {
    let mut reference = busy_world();
    let all = sync(&mut reference);
    assert!(all.len() > 20, "{all:?}");
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        if info.payload().downcast_ref::<InjectedPanic>().is_none() {
            eprintln!("{info}");
        }
    }));
    for at in 0..all.len() {
        let mut world = busy_world();
        world.resources.log.panic_in = Some(at);
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.apply_commands()));
        let payload = outcome.expect_err("the hook panics");
        assert!(payload.downcast_ref::<InjectedPanic>().is_some());
        assert_eq!(world.check_invariants(), Ok(()), "panic at run {at}");
        // The rest waits for the next sync point: the change whose hook panicked is done
        // (its other hooks, declared after, do not run), every later one runs.
        let fired = sync(&mut world);
        assert_eq!(fired[..=at], all[..=at], "panic at run {at}");
        let rest = &fired[at + 1..];
        assert!(all.ends_with(rest), "panic at run {at}: {fired:?}");
        let skipped = &all[at + 1..all.len() - rest.len()];
        assert!(
            skipped.iter().all(|hook| hook.entity() == all[at].entity()),
            "panic at run {at}: skipped {skipped:?}"
        );
        assert!(!world.hooks_pending());
        assert_eq!(world.command_count(), 0);
        assert_eq!(alive(&world), alive(&reference), "panic at run {at}");
    }
    std::panic::set_hook(previous_hook);
}

#[test]
fn copies_start_with_nothing_waiting_and_fire_alike_from_then_on() {
    let mut world = World::new();
    world.spawn(POSITION);
    let mut copy = world.clone();
    assert!(!copy.hooks_pending());
    sync(&mut world);
    // From here both make the same change and fire the same hooks.
    let mut restored = World::new();
    restored.spawn(PLAYER);
    restored.restore(&world);
    assert!(!restored.hooks_pending());
    for world in [&mut world, &mut copy, &mut restored] {
        let entity = world.spawn(PLAYER);
        assert_eq!(sync(world), [Spawned(entity), PlayerAdded(entity)],);
    }
}

#[test]
fn a_schedule_runs_the_hooks_after_each_system() {
    fn spawn_one(world: &mut World) {
        world.spawn(POSITION);
    }
    fn count(world: &mut World) {
        // The previous system's spawn has run its hooks by now.
        assert_eq!(world.resources.log.fired.len(), 2);
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.push("spawn", spawn_one).unwrap();
    schedule.push("count", count).unwrap();
    schedule.run(&mut world);
    assert_eq!(world.resources.log.fired.len(), 2);
}
