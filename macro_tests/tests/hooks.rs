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
    let valued = world.spawn_values([(Position(11), Velocity(1)), (Position(12), Velocity(2))]);
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
    for (row, &entity) in valued.iter().enumerate() {
        expected.extend([
            Spawned(entity),
            PositionAdded(entity, Some(11 + row as i32)),
        ]);
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

/// The arena game's rule, "a kill is scored for the other team when a ship dies", as a hook:
/// `on_despawn` reads the dead ship's `Team`, kept aside for it.
mod arena {
    use archetypal::Entity;

    #[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Team {
        #[default]
        Red,
        Blue,
    }

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Hull(pub f32);

    archetypal::ecs! {
        World {
            team: Team => TEAM,
            hull: Hull => HULL,
        }
        Tags {
            flagship => FLAGSHIP,
        }
        Resources {
            /// Kills scored by red, by blue.
            kills: [u32; 2],
        }
        Hooks {
            on_despawn => score_kill,
        }
    }

    fn score_kill(world: &mut WorldParts<'_>, _ship: Entity, dead: &WorldRemoved) {
        let Some(team) = dead.team else {
            return; // not a ship
        };
        // A flagship is worth three.
        let worth = if dead.mask & FLAGSHIP != 0 { 3 } else { 1 };
        let scorer = match team {
            Team::Red => 1,
            Team::Blue => 0,
        };
        world.resources.kills[scorer] += worth;
    }

    #[test]
    fn on_despawn_scores_a_kill_from_the_dead_ship_s_team() {
        let mut world = World::new();
        let red = EntityBuilder::new()
            .with_team(Team::Red)
            .with_hull(Hull(0.0))
            .spawn_one(&mut world);
        let blue = EntityBuilder::new()
            .with_team(Team::Blue)
            .with_mask(FLAGSHIP)
            .spawn_one(&mut world);
        let rock = world.spawn(HULL);
        world.apply_commands();
        // Ships die with a hull at zero; the queue and the direct path alike.
        world.despawn(red);
        world.commands().queue_despawn(blue);
        world.despawn(rock);
        world.apply_commands();
        assert_eq!(world.resources.kills, [3, 1]);
        assert!(!world.hooks_pending());
        assert_eq!(world.entity_count(), 0);
    }
}

/// Values kept aside for removal hooks under fault injection: whichever hook panics, every
/// value is dropped exactly once (none lost, none twice), and the world stays consistent.
mod kept_values {
    use std::cell::RefCell;

    use archetypal::Entity;

    thread_local! {
        /// How many times each cargo (by number) was dropped.
        static DROPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    }

    /// A value with drop glue, counting its drops (the default, numbered `u32::MAX`, does
    /// not count: `remove_cargo` leaves one in the column it empties).
    #[derive(Debug, PartialEq)]
    pub struct Cargo(pub u32);

    impl Default for Cargo {
        fn default() -> Self {
            Cargo(u32::MAX)
        }
    }

    impl Drop for Cargo {
        fn drop(&mut self) {
            if self.0 == u32::MAX {
                return;
            }
            DROPS.with(|drops| {
                let mut drops = drops.borrow_mut();
                let at = self.0 as usize;
                if drops.len() <= at {
                    drops.resize(at + 1, 0);
                }
                drops[at] += 1;
            });
        }
    }

    /// Plain data: kept for `on_despawn` as well.
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Fuel(pub u32);

    #[derive(Default, Debug)]
    pub struct Seen {
        /// The cargo numbers the removal hook read, and the fuel the despawn hook read.
        pub cargo: Vec<u32>,
        pub fuel: Vec<u32>,
        /// The hook run this many runs from now panics.
        pub panic_in: Option<usize>,
    }

    archetypal::ecs! {
        World {
            cargo: Cargo => CARGO,
            fuel: Fuel => FUEL,
        }
        Resources {
            seen: Seen,
        }
        Hooks {
            on_remove(CARGO) => cargo_removed,
            on_despawn => despawned,
        }
    }

    fn countdown(world: &mut WorldParts<'_>) {
        let seen = &mut world.resources.seen;
        match seen.panic_in {
            Some(0) => {
                seen.panic_in = None;
                std::panic::panic_any(super::InjectedPanic);
            }
            Some(left) => seen.panic_in = Some(left - 1),
            None => {}
        }
    }

    fn cargo_removed(world: &mut WorldParts<'_>, _entity: Entity, removed: &WorldRemoved) {
        assert_eq!(world.components.check_invariants(), Ok(()));
        if let Some(cargo) = &removed.cargo {
            world.resources.seen.cargo.push(cargo.0);
        }
        countdown(world);
    }

    fn despawned(world: &mut WorldParts<'_>, _entity: Entity, dead: &WorldRemoved) {
        if let Some(fuel) = dead.fuel {
            world.resources.seen.fuel.push(fuel.0);
        }
        countdown(world);
    }

    /// Six cargo ships (numbered 0..6), their removals and despawns waiting: 0 and 1 lose
    /// their cargo by `remove_components` (kept for the hook), 2 by `remove_cargo` (handed to
    /// the caller, dropped here), 3 and 4 are despawned, 5 by a queued despawn.
    fn loaded_world() -> World {
        let mut world = World::new();
        let ships: Vec<Entity> = (0..6)
            .map(|number| {
                EntityBuilder::new()
                    .with_cargo(Cargo(number))
                    .with_fuel(Fuel(10 + number))
                    .spawn_one(&mut world)
            })
            .collect();
        world.remove_components(ships[0], CARGO);
        world.remove_components(ships[1], CARGO | FUEL);
        // (Compared by number: a `Cargo` built to compare with would count a drop.)
        let taken = world.remove_cargo(ships[2]).map(|cargo| cargo.0);
        assert_eq!(taken, Some(2));
        world.despawn(ships[3]);
        world.despawn_entities(&ships[4..5]);
        world.commands().queue_despawn(ships[5]);
        world
    }

    /// How many times each cargo was dropped so far; `reset` starts counting afresh.
    fn drops() -> Vec<u32> {
        DROPS.with(|drops| drops.borrow().clone())
    }

    fn reset() {
        DROPS.with(|drops| drops.borrow_mut().clear());
    }

    #[test]
    fn removal_hooks_read_the_values_and_each_is_dropped_once() {
        reset();
        let mut world = loaded_world();
        // Kept aside, not dropped: only the value `remove_cargo` handed back is gone.
        assert_eq!(drops(), [0, 0, 1]);
        world.apply_commands();
        assert_eq!(world.resources.seen.cargo, [0, 1, 3, 4, 5]);
        assert_eq!(world.resources.seen.fuel, [13, 14, 15]);
        // Dropped once their hooks ran.
        assert_eq!(drops(), [1; 6]);
        drop(world);
        assert_eq!(drops(), [1; 6]);
    }

    #[test]
    fn a_hook_panicking_while_values_are_kept_aside_loses_none_and_drops_none_twice() {
        let previous_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            if info
                .payload()
                .downcast_ref::<super::InjectedPanic>()
                .is_none()
            {
                eprintln!("{info}");
            }
        }));
        // 5 removal hooks and 3 despawn hooks run: a panic at each.
        for at in 0..8 {
            reset();
            let mut world = loaded_world();
            world.resources.seen.panic_in = Some(at);
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.apply_commands()));
            assert!(outcome.is_err(), "panic at run {at}");
            assert_eq!(world.check_invariants(), Ok(()), "panic at run {at}");
            // The change whose hook panicked dropped its values on the way out, once.
            assert!(drops().iter().all(|&count| count <= 1), "panic at run {at}");
            // The rest still wait, with their values, for the next sync point.
            world.apply_commands();
            assert!(!world.hooks_pending());
            let seen = &world.resources.seen;
            assert_eq!(seen.cargo, [0, 1, 3, 4, 5], "panic at run {at}: {seen:?}");
            // A despawn is one change, its `on_remove` hooks then its `on_despawn`: a panic in
            // the first skips the second for that ship alone.
            assert!(seen.fuel.len() >= 2, "panic at run {at}: {seen:?}");
            assert_eq!(drops(), [1; 6], "panic at run {at}");
            drop(world);
            assert_eq!(drops(), [1; 6], "panic at run {at}");
        }
        std::panic::set_hook(previous_hook);
    }

    #[test]
    fn values_waiting_when_the_world_is_dropped_are_dropped_once() {
        reset();
        let world = loaded_world();
        drop(world);
        // The sixth ship is alive (its despawn was only queued): its cargo goes with the
        // world too.
        assert_eq!(drops(), [1; 6]);
    }
}

/// The order the guide promises, whatever the declaration order: hooks declared here in the
/// reverse of the order they run in.
mod order {
    use archetypal::{Entity, Schedule};

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Health(pub i32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Shield(pub i32);

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Ran {
        Despawn(Entity),
        Remove(Entity),
        ShieldAdded(Entity),
        HealthAdded(Entity),
        Spawn(Entity),
        OwnerUnlinked(Entity, Entity),
        ParentUnlinked(Entity, Entity),
    }

    #[derive(Default, Debug)]
    pub struct Log {
        pub ran: Vec<Ran>,
        /// `shield_added` panics (after recording itself).
        pub panic_on_shield: bool,
    }

    archetypal::ecs! {
        World {
            health: Health => HEALTH,
            shield: Shield => SHIELD,
        }
        Relations {
            child_of / children => CHILD_OF,
            owned_by / owns => OWNED_BY,
        }
        Resources {
            log: Log,
        }
        Hooks {
            on_despawn => despawned,
            on_remove(HEALTH) => health_removed,
            on_add(SHIELD) => shield_added,
            on_add(HEALTH) => health_added,
            on_spawn => spawned,
            on_unlink(OWNED_BY) => owner_unlinked,
            on_unlink(CHILD_OF) => parent_unlinked,
        }
    }

    fn ran(world: &mut WorldParts<'_>, ran: Ran) {
        world.resources.log.ran.push(ran);
    }
    fn despawned(world: &mut WorldParts<'_>, entity: Entity, _dead: &WorldRemoved) {
        ran(world, Ran::Despawn(entity));
    }
    fn health_removed(world: &mut WorldParts<'_>, entity: Entity, _removed: &WorldRemoved) {
        ran(world, Ran::Remove(entity));
    }
    fn shield_added(world: &mut WorldParts<'_>, entity: Entity) {
        ran(world, Ran::ShieldAdded(entity));
        if world.resources.log.panic_on_shield {
            world.resources.log.panic_on_shield = false;
            std::panic::panic_any(super::InjectedPanic);
        }
    }
    fn health_added(world: &mut WorldParts<'_>, entity: Entity) {
        ran(world, Ran::HealthAdded(entity));
    }
    fn spawned(world: &mut WorldParts<'_>, entity: Entity) {
        ran(world, Ran::Spawn(entity));
    }
    fn owner_unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
        ran(world, Ran::OwnerUnlinked(source, target));
    }
    fn parent_unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
        ran(world, Ran::ParentUnlinked(source, target));
    }

    fn sync(world: &mut World) -> Vec<Ran> {
        world.apply_commands();
        core::mem::take(&mut world.resources.log.ran)
    }

    use Ran::*;

    #[test]
    fn spawn_side_hooks_run_first_and_on_spawn_before_every_on_add() {
        let mut world = World::new();
        // Spawned and despawned before the sync point: all four, in the promised order.
        let brief = world.spawn(HEALTH | SHIELD);
        world.despawn(brief);
        // `on_add` hooks among the bits of one spawn or `add_components`: in declaration
        // order (the shield's first here), not in bit order.
        let lasting = world.spawn(HEALTH);
        world.add_components(lasting, SHIELD | HEALTH);
        world.remove_components(lasting, SHIELD);
        world.add_components(lasting, SHIELD);
        assert_eq!(
            sync(&mut world),
            [
                Spawn(brief),
                ShieldAdded(brief),
                HealthAdded(brief),
                Remove(brief),
                Despawn(brief),
                Spawn(lasting),
                HealthAdded(lasting),
                ShieldAdded(lasting),
                ShieldAdded(lasting),
            ]
        );
    }

    #[test]
    fn an_entity_s_own_links_are_undone_before_its_sources_across_relations() {
        let mut world = World::new();
        let [owner, entity, first, second, pet] = [(); 5].map(|_| world.spawn(SHIELD));
        world.set_owned_by(entity, owner).unwrap();
        world.set_child_of(entity, owner).unwrap();
        // Its sources: two children (in link order), one belonging.
        world.set_child_of(second, entity).unwrap();
        world.set_child_of(first, entity).unwrap();
        world.set_owned_by(pet, entity).unwrap();
        sync(&mut world);
        world.despawn(entity);
        assert_eq!(
            sync(&mut world),
            [
                // Its own links, relation by relation in declaration order (of the
                // relations, not of the hooks)...
                ParentUnlinked(entity, owner),
                OwnerUnlinked(entity, owner),
                // ...then its sources', relation by relation, each in link order...
                ParentUnlinked(second, entity),
                ParentUnlinked(first, entity),
                OwnerUnlinked(pet, entity),
                // ...then its removals, then the despawn.
                Despawn(entity),
            ]
        );
    }

    #[test]
    fn a_schedule_runs_waiting_hooks_after_its_first_system_and_a_hook_panic_stops_the_run() {
        fn add_shields(world: &mut World) {
            world
                .resources
                .log
                .ran
                .push(Ran::Spawn(Entity::new(u32::MAX, 0)));
            let entities: Vec<Entity> = world.query_entities(HEALTH).collect();
            for entity in entities {
                world.add_shield(entity);
            }
        }
        fn never_after_a_hook_panics(world: &mut World) {
            world.spawn(HEALTH);
        }
        let marker = Spawn(Entity::new(u32::MAX, 0));
        let mut world = World::new();
        // Made before the run: its hooks wait for the sync point after the first system,
        // where they run before those of the system's own changes.
        let made_before = world.spawn(HEALTH);
        let mut schedule = Schedule::new();
        schedule.push("shields", add_shields).unwrap();
        schedule.push("spawn", never_after_a_hook_panics).unwrap();
        world.resources.log.panic_on_shield = true;
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut world)));
        assert!(outcome.is_err());
        // The first system ran before any hook of the change made before the run.
        assert_eq!(
            world.resources.log.ran,
            [
                marker,
                Spawn(made_before),
                HealthAdded(made_before),
                ShieldAdded(made_before),
            ]
        );
        // The system after the panicking hook did not run; the world is consistent.
        assert_eq!(world.entity_count(), 1);
        assert_eq!(world.check_invariants(), Ok(()));
    }
}

/// A chain of hooks that never settles stops with a panic naming the hook and the passes.
mod never_settles {
    use archetypal::Entity;

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Egg;

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Larva;

    archetypal::ecs! {
        World {
            egg: Egg => EGG,
            larva: Larva => LARVA,
        }
        Resources {
            /// Hatching stops once this is false.
            hatching: bool,
        }
        Hooks {
            on_add(EGG) => lay_another,
            on_add(LARVA) => queue_another,
        }
    }

    /// Answers its own change with the same change, directly.
    fn lay_another(world: &mut WorldParts<'_>, _egg: Entity) {
        if world.resources.hatching {
            world.components.spawn(EGG);
        }
    }

    /// The same, through a queued command.
    fn queue_another(world: &mut WorldParts<'_>, _larva: Entity) {
        if world.resources.hatching {
            world.commands.queue_spawn_entities(LARVA, 1);
        }
    }

    fn panic_message(outcome: std::thread::Result<archetypal::CommandReport>) -> String {
        let payload = outcome.expect_err("the chain never settles");
        payload
            .downcast_ref::<String>()
            .cloned()
            .expect("a formatted message")
    }

    #[test]
    fn a_hook_that_answers_its_own_change_stops_with_a_panic() {
        for (mask, hook) in [(EGG, "lay_another"), (LARVA, "queue_another")] {
            let mut world = World::new();
            world.resources.hatching = true;
            world.spawn(mask);
            let message = panic_message(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || world.apply_commands(),
            )));
            assert!(
                message.contains(&format!("the hook `{hook}` still runs after 10000 passes")),
                "{message}"
            );
            assert_eq!(world.check_invariants(), Ok(()));
            // Stopped at the first pass past the limit: one entity per pass.
            assert_eq!(world.entity_count(), 10_001, "{hook}");
            // Once the game stops the chain, the next sync point settles, counting afresh.
            world.resources.hatching = false;
            world.apply_commands();
            assert!(!world.hooks_pending());
            assert_eq!(world.command_count(), 0);
        }
    }
}
