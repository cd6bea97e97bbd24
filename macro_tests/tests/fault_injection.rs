//! Fault injection, systematic: a counted component whose `Default`, `Clone` or `Drop` panics at
//! its k-th call, for every public structural operation and every k until the operation
//! completes without the trap firing. After each injected panic (caught here, its payload
//! checked to be this test's own, so an internal bug cannot pass for it):
//! - `check_invariants()` holds (and, for a multi-world, every sub-world in step with the game: `Game::check_invariants`);
//! - every live `Counted` instance is one the world (or a world the test holds) owns: nothing
//!   leaked, nothing dropped twice, and none left once everything is dropped;
//! - every live entity is one the test knows, holding its own values, or a new one;
//! - afterwards, new entities are reached by no queued command and no stale handle.
//!
//! The world has relations (a `[cascade]` one and an unlinking one), so despawns cascade
//! through the fixture's hierarchy with a `Drop` panicking at every step of the cascade.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind, panic_any};
use std::sync::Once;

use archetypal::{Entity, EventChannel, Tick, ecs};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trap {
    Default,
    Clone,
    Drop,
}

/// The payload of every panic this test injects: which trap, at which call.
#[derive(Debug)]
struct Injected(Trap, u32);

thread_local! {
    /// The armed trap, the call it fires at, and how many calls of its kind are left before.
    static FUSE: Cell<Option<(Trap, u32, u32)>> = const { Cell::new(None) };
    /// The serial of every live `Counted`.
    static LIVE: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
    static NEXT_SERIAL: Cell<u64> = const { Cell::new(0) };
    /// Drops of an instance that was not live (a double drop).
    static DOUBLE_DROPS: Cell<u32> = const { Cell::new(0) };
}

/// Arms `trap` to fire at its `at`-th call from now (0: the next one).
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

fn live_instances() -> usize {
    LIVE.with(|live| live.borrow().len())
}

fn double_drops() -> u32 {
    DOUBLE_DROPS.with(Cell::get)
}

/// A component that counts its instances and panics on demand.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(from = "u32", into = "u32")]
pub struct Counted {
    serial: u64,
    pub value: u32,
}

impl Counted {
    /// A new instance, never trapped.
    pub fn new(value: u32) -> Self {
        let serial = NEXT_SERIAL.with(|next| next.replace(next.get() + 1));
        LIVE.with(|live| live.borrow_mut().insert(serial));
        Counted { serial, value }
    }
}

impl PartialEq for Counted {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Default for Counted {
    fn default() -> Self {
        spring(Trap::Default);
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
        if !LIVE.with(|live| live.borrow_mut().remove(&self.serial)) {
            DOUBLE_DROPS.with(|count| count.set(count.get() + 1));
        }
        // A second panic while unwinding would abort the test binary.
        if !std::thread::panicking() {
            spring(Trap::Drop);
        }
    }
}

/// Decoding a value springs the `Default` trap, so it can fire in the middle of a snapshot load.
impl From<u32> for Counted {
    fn from(value: u32) -> Self {
        spring(Trap::Default);
        Counted::new(value)
    }
}

impl From<Counted> for u32 {
    fn from(counted: Counted) -> u32 {
        counted.value
    }
}

ecs! {
    World {
        ident: u64 => IDENT,
        a: Counted => A,
        b: Counted => B,
    }
    Tags {
        marked => MARKED,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
    Events {
        ping: Counted,
    }
}

mod multi {
    use super::Counted;

    archetypal::ecs! {
        Game {
            Core {
                ident: u64 => IDENT,
                a: Counted => A,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
            }
            Render {
                b: Counted => B,
            }
            Relations {
                owned_by / belongings => OWNED_BY [cascade],
            }
        }
    }
}

/// Silences the panic messages of injected panics; any other panic prints as usual.
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

/// Runs `operation` with `trap` armed at call `at`: `true` if the trap fired (and the panic
/// it raised reached here), `false` if the operation completed without reaching it.
fn inject(trap: Trap, at: u32, label: &str, operation: impl FnOnce()) -> bool {
    quiet_injected_panics();
    arm(trap, at);
    let outcome = catch_unwind(AssertUnwindSafe(operation));
    let fired = disarm();
    match outcome {
        Ok(()) => assert!(!fired, "{label}: the trap fired but no panic came out"),
        Err(payload) => {
            let injected = payload.downcast_ref::<Injected>();
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()));
            assert!(
                matches!(injected, Some(Injected(kind, k)) if *kind == trap && *k == at),
                "{label}: a panic the test did not inject: {message:?}"
            );
        }
    }
    fired
}

/// The most calls an operation here makes of one kind; the loops stop long before.
const MAX_CALLS: u32 = 200;

// ----- one world ------------------------------------------------------------------------------

/// A world with tables, free ids, tags, events in a bounded channel, queued commands (a
/// reserved spawn among them), an earlier clone of itself and that clone's snapshot.
struct Fixture {
    world: World,
    earlier: World,
    /// A world loaded from a snapshot by the operation under test.
    loaded: Option<World>,
    saved: Vec<u8>,
    /// Every handle the fixture issued, alive or not, and its `ident`.
    known: BTreeMap<Entity, u64>,
    /// Handles issued after `earlier` was taken: a `restore` that copied the entities (even if
    /// an event's `Clone` panicked after) rolls back to before them, and the restored world
    /// rightly issues them again. One whose entities were emptied issues none of them.
    issued_after_earlier: Vec<Entity>,
    restoring: bool,
    /// The tick a change consumer last read at: every write after the operation is newer.
    seen_at: Tick,
}

impl Fixture {
    fn new() -> Self {
        let mut world = World::new();
        world.events.ping = EventChannel::with_capacity_limit(3);
        let mut known = BTreeMap::new();
        let masks = [A, A | B | MARKED, B, A | B, 0, A | MARKED, A | B];
        for (i, &mask) in masks.iter().enumerate() {
            let entity = world.spawn(mask | IDENT);
            let ident = i as u64 + 1;
            world.set_ident(entity, ident);
            if mask & A != 0 {
                world.set_a(entity, Counted::new(10 + i as u32));
            }
            if mask & B != 0 {
                world.set_b(entity, Counted::new(20 + i as u32));
            }
            known.insert(entity, ident);
        }
        let handles: Vec<Entity> = known.keys().copied().collect();
        world.despawn(handles[4]);
        world.despawn(handles[2]);
        // A hierarchy (a cascade reaches 1, 3 from 0) and an owner (unlinked, not despawned).
        world.set_child_of(handles[1], handles[0]).unwrap();
        world.set_child_of(handles[3], handles[1]).unwrap();
        world.set_owned_by(handles[5], handles[3]).unwrap();
        world.events.ping.send(Counted::new(1));
        world.step();
        let earlier = world.clone();
        let saved = postcard::to_allocvec(&earlier.snapshot()).unwrap();
        let late = world.spawn(A | B | IDENT);
        world.set_ident(late, 8);
        known.insert(late, 8);
        world.despawn(handles[6]);
        world.set_child_of(late, handles[5]).unwrap();
        world.commands().queue_set_owned_by(handles[0], late);
        world.events.ping.send(Counted::new(2));
        world.events.ping.send(Counted::new(3));
        world.events.ping.send(Counted::new(4));
        world.commands().queue_set_a(handles[0], Counted::new(77));
        world.commands().queue_add_components(handles[5], B);
        world.commands().queue_spawn_entities(A | B | IDENT, 2);
        let built = world.commands().queue_spawn(
            EntityBuilder::new()
                .with_a(Counted::new(30))
                .with_b(Counted::new(31)),
        );
        world
            .commands()
            .queue_spawn(EntityBuilder::new().with_a(Counted::new(32)));
        world.commands().queue_set_b(built, Counted::new(33));
        world
            .commands()
            .queue_remove_components(handles[1], A | MARKED);
        world.commands().queue_set_b(handles[3], Counted::new(88));
        world.commands().queue_despawn(handles[3]);
        let seen_at = world.current_tick();
        world.increment_tick();
        world.check_invariants().unwrap();
        Fixture {
            world,
            earlier,
            loaded: None,
            saved,
            known,
            issued_after_earlier: vec![late],
            restoring: false,
            seen_at,
        }
    }

    /// The live handle the fixture spawned `nth` (0-based), whatever its state now.
    fn handle(&self, nth: usize) -> Entity {
        *self
            .known
            .iter()
            .find(|&(_, &ident)| ident == nth as u64 + 1)
            .unwrap()
            .0
    }
}

/// How many `Counted` instances `world` owns: its rows, its events and its queued values.
fn instances(world: &World) -> usize {
    let rows: usize = world
        .tables()
        .iter()
        .map(|table| {
            let columns = usize::from(table.mask & A != 0) + usize::from(table.mask & B != 0);
            columns * table.entities.len()
        })
        .sum();
    let queued = world.queued_commands();
    let set = queued
        .iter()
        .filter(|command| matches!(command, WorldCommand::SetA(..) | WorldCommand::SetB(..)))
        .count();
    let staged: usize = queued
        .staged()
        .tables()
        .map(|(_, table)| table.a.len() + table.b.len())
        .sum();
    rows + world.events.ping.len() + set + staged
}

/// The checks right after an operation, whether a trap fired in it or not.
fn check(fixture: &Fixture, label: &str) {
    for world in [&fixture.world, &fixture.earlier]
        .into_iter()
        .chain(&fixture.loaded)
    {
        if let Err(error) = world.check_invariants() {
            panic!("{label}: {error}");
        }
    }
    let owned = instances(&fixture.world)
        + instances(&fixture.earlier)
        + fixture.loaded.as_ref().map_or(0, instances);
    assert_eq!(live_instances(), owned, "{label}: instances leaked");
    assert_eq!(double_drops(), 0, "{label}: an instance dropped twice");
    for world in [&fixture.world].into_iter().chain(&fixture.loaded) {
        for entity in world.entities().collect::<Vec<_>>() {
            let ident = world.get_ident(entity).copied();
            match fixture.known.get(&entity) {
                Some(&known) => assert_eq!(ident, Some(known), "{label}: {entity}'s own ident"),
                None => assert!(
                    matches!(ident, None | Some(0)),
                    "{label}: {entity} is new, yet holds ident {ident:?}"
                ),
            }
        }
    }
}

/// After the operation: new entities, then the commands still queued. No stale handle and no
/// queued command reaches a new entity.
fn afterwards(fixture: &mut Fixture, label: &str) {
    let world = &mut fixture.world;
    let rolled_back = fixture.restoring && world.entity_count() > 0;
    let dead: Vec<Entity> = fixture
        .known
        .keys()
        .copied()
        .filter(|&entity| !world.is_alive(entity))
        .filter(|entity| !(rolled_back && fixture.issued_after_earlier.contains(entity)))
        .collect();
    let fresh: Vec<Entity> = (0..8)
        .map(|i| {
            let entity = world.spawn(A | B | IDENT);
            world.set_ident(entity, 1_000 + i);
            world.set_a(entity, Counted::new(1_000 + i as u32));
            entity
        })
        .collect();
    // A consumer that read before the operation sees every new entity as a change (unless the
    // world was rolled back to before that read).
    if !rolled_back {
        let changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(IDENT, fixture.seen_at)
            .iter()
            .collect();
        for entity in &fresh {
            assert!(
                changed.contains(entity),
                "{label}: the new {entity} is no change"
            );
        }
    }
    world.apply_commands();
    for &entity in &dead {
        assert!(!world.is_alive(entity), "{label}: stale {entity} came back");
        assert!(!fresh.contains(&entity), "{label}: {entity} issued twice");
    }
    for (i, &entity) in fresh.iter().enumerate() {
        assert_eq!(
            world.component_mask(entity),
            Some(A | B | IDENT),
            "{label}: a queued command reached the new {entity}"
        );
        assert_eq!(world.get_ident(entity), Some(&(1_000 + i as u64)));
        assert_eq!(world.get_a(entity).map(|a| a.value), Some(1_000 + i as u32));
        assert_eq!(world.get_b(entity).map(|b| b.value), Some(0));
        fixture.known.insert(entity, 1_000 + i as u64);
    }
    check(fixture, label);
}

type Operation = (&'static str, fn(&mut Fixture));

fn world_operations() -> Vec<Operation> {
    vec![
        ("spawn", |f| {
            f.world.spawn(A | B | MARKED);
        }),
        ("spawn_entities", |f| {
            f.world.spawn_entities(A | B, 3);
        }),
        ("spawn_batch", |f| {
            f.world.spawn_batch(A | B | IDENT, 3, |table, row| {
                table.a[row] = Counted::new(row as u32);
            });
        }),
        ("EntityBuilder::spawn", |f| {
            EntityBuilder::new()
                .with_a(Counted::new(5))
                .with_b(Counted::new(6))
                .spawn(&mut f.world, 3);
        }),
        ("despawn", |f| {
            let entity = f.handle(1);
            f.world.despawn(entity);
        }),
        (
            "despawn (a cascade through two levels, an owner unlinked)",
            |f| {
                let entity = f.handle(0);
                f.world.despawn(entity);
            },
        ),
        ("set_child_of, remove_child_of, queued links", |f| {
            let (first, second) = (f.handle(5), f.handle(7));
            f.world.remove_child_of(second);
            f.world.set_child_of(first, second).unwrap();
            f.world.commands().queue_remove_owned_by(first);
            f.world.commands().queue_set_child_of(second, first);
            f.world.apply_commands();
        }),
        ("despawn_entities", |f| {
            let entities = [f.handle(0), f.handle(1), f.handle(3), f.handle(7)];
            f.world.despawn_entities(&entities);
        }),
        ("add_components", |f| {
            let entity = f.handle(0);
            f.world.add_components(entity, B | MARKED);
        }),
        ("remove_components", |f| {
            let entity = f.handle(1);
            f.world.remove_components(entity, A | B | MARKED);
        }),
        ("add_b", |f| {
            let entity = f.handle(5);
            f.world.add_b(entity);
        }),
        ("remove_a", |f| {
            let entity = f.handle(3);
            f.world.remove_a(entity);
        }),
        ("add_marked and remove_marked", |f| {
            let (first, second) = (f.handle(0), f.handle(1));
            f.world.add_marked(first);
            f.world.remove_marked(second);
        }),
        ("set_a (replacing)", |f| {
            let entity = f.handle(0);
            f.world.set_a(entity, Counted::new(9));
        }),
        ("set_b (adding)", |f| {
            let entity = f.handle(5);
            f.world.set_b(entity, Counted::new(9));
        }),
        ("apply_commands", |f| {
            f.world.apply_commands();
        }),
        ("queue_spawn in a loop, then apply_commands", |f| {
            let mut parts = f.world.split_mut();
            parts.components.for_each(A, 0, |entity, table, row| {
                let value = table.a[row].value;
                let spawned = parts.commands.queue_spawn(
                    EntityBuilder::new()
                        .with_a(Counted::new(value + 100))
                        .with_b(Counted::new(value + 200)),
                );
                parts.commands.queue_set_child_of(spawned, entity);
            });
            f.world.apply_commands();
        }),
        (
            "queue_spawn with a default component, then apply_commands",
            |f| {
                let mut commands = f.world.commands();
                // `B` is default-initialised as it is queued, `A` moved in.
                commands.queue_spawn(EntityBuilder::new().with_a(Counted::new(40)).with_mask(B));
                commands.queue_spawn(EntityBuilder::new().with_b(Counted::new(41)));
                commands.queue_spawn(EntityBuilder::new().with_a(Counted::new(42)).with_mask(B));
                f.world.apply_commands();
            },
        ),
        ("clear_commands", |f| f.world.clear_commands()),
        ("clone", |f| {
            let copy = f.world.clone();
            f.loaded = Some(copy);
        }),
        ("restore", |f| {
            f.restoring = true;
            f.world.restore(&f.earlier);
        }),
        ("from_snapshot", |f| {
            f.loaded = Some(postcard::from_bytes(&f.saved).unwrap());
        }),
        ("step (expiring events)", |f| {
            f.world.step();
            f.world.step();
        }),
        ("send_ping (bounded, full)", |f| {
            f.world.events.ping.send(Counted::new(5));
        }),
        ("clear_ping", |f| f.world.events.ping.clear()),
        ("collect_ping", |f| {
            let collected = f.world.events.ping.collect();
            assert_eq!(collected.len(), 3);
        }),
    ]
}

/// Every operation, every trap, every call until the operation completes without it.
#[test]
fn every_world_operation_survives_a_panic_at_every_call() {
    let mut injected = 0;
    for (name, operation) in world_operations() {
        for trap in [Trap::Default, Trap::Clone, Trap::Drop] {
            let mut at = 0;
            loop {
                let label = format!("{name}, {trap:?} #{at}");
                let mut fixture = Fixture::new();
                let before = live_instances();
                assert_eq!(
                    before,
                    instances(&fixture.world) + instances(&fixture.earlier)
                );
                let fired = inject(trap, at, &label, || operation(&mut fixture));
                check(&fixture, &label);
                afterwards(&mut fixture, &label);
                drop(fixture);
                assert_eq!(live_instances(), 0, "{label}: instances outlived the world");
                if !fired {
                    break;
                }
                injected += 1;
                at += 1;
                assert!(at < MAX_CALLS, "{label}: the operation never completed");
            }
            eprintln!("{name}: {at} panics injected through {trap:?}");
        }
    }
    // Every trap fires somewhere: the harness is not vacuous.
    assert!(injected > 100, "only {injected} panics injected");
}

// ----- the multi-world form -------------------------------------------------------------------

struct GameFixture {
    game: multi::Game,
    /// An earlier clone of the game, for `restore`.
    earlier: multi::Game,
    /// A copy made (or a game loaded) by the operation under test.
    copy: Option<multi::Game>,
    /// The game's snapshot, taken when the fixture was made (postcard).
    saved: Vec<u8>,
    known: BTreeMap<Entity, u64>,
    /// Handles issued after `earlier` was taken: a restored game rightly issues them again.
    issued_after_earlier: Vec<Entity>,
    restoring: bool,
}

impl GameFixture {
    fn new() -> Self {
        let mut game = multi::Game::new();
        let mut known = BTreeMap::new();
        for i in 0..6u64 {
            let entity = game.spawn();
            game.core.set_ident(entity, i + 1);
            if i % 3 != 2 {
                game.core.set_a(entity, Counted::new(i as u32));
            }
            if i % 2 == 0 {
                game.render.set_b(entity, Counted::new(100 + i as u32));
            }
            known.insert(entity, i + 1);
        }
        let handles: Vec<Entity> = known.keys().copied().collect();
        game.despawn(handles[5]);
        // A cascade from 4 through Core's child_of to 1, then Render's owned_by to 3.
        game.core.set_child_of(handles[1], handles[4]).unwrap();
        game.render.set_owned_by(handles[3], handles[1]).unwrap();
        let earlier = game.clone();
        let late = game.spawn();
        game.core.set_ident(late, 7);
        game.render.set_b(late, Counted::new(107));
        known.insert(late, 7);
        game.core.set_a(handles[0], Counted::new(50));
        let mut commands = game.commands();
        commands.queue_spawn_entities(2);
        // Both add the component (its default is made, then replaced).
        commands.core().queue_set_a(handles[2], Counted::new(7));
        commands.render().queue_set_b(handles[1], Counted::new(8));
        commands.queue_despawn(handles[0]);
        commands
            .render()
            .queue_remove_components(handles[3], multi::B);
        game.check_invariants().unwrap();
        let saved = postcard::to_allocvec(&game.snapshot()).unwrap();
        GameFixture {
            game,
            earlier,
            copy: None,
            saved,
            known,
            issued_after_earlier: vec![late],
            restoring: false,
        }
    }

    fn handle(&self, nth: usize) -> Entity {
        *self
            .known
            .iter()
            .find(|&(_, &ident)| ident == nth as u64 + 1)
            .unwrap()
            .0
    }
}

fn game_instances(game: &multi::Game) -> usize {
    let core: usize = game
        .core
        .tables()
        .iter()
        .filter(|table| table.mask & multi::A != 0)
        .map(|table| table.entities.len())
        .sum();
    let render: usize = game
        .render
        .tables()
        .iter()
        .filter(|table| table.mask & multi::B != 0)
        .map(|table| table.entities.len())
        .sum();
    let queued = game
        .queued_commands()
        .iter()
        .filter(|command| {
            matches!(
                command,
                multi::GameCommand::Core(multi::CoreCommand::SetA(..))
                    | multi::GameCommand::Render(multi::RenderCommand::SetB(..))
            )
        })
        .count();
    // The only spawn these scenarios queue with values holds one counted value (`with_a`); it
    // waits staged when a command queued before it panicked.
    let staged = game.queued_commands().staged().spawns().count();
    core + render + queued + staged
}

fn check_game(fixture: &GameFixture, label: &str) {
    let game = &fixture.game;
    if let Err(error) = game.check_invariants() {
        panic!("{label}: {error}");
    }
    let held = game_instances(&fixture.earlier) + fixture.copy.as_ref().map_or(0, game_instances);
    assert_eq!(
        live_instances(),
        game_instances(game) + held,
        "{label}: leaked"
    );
    for copy in [Some(&fixture.earlier), fixture.copy.as_ref()]
        .into_iter()
        .flatten()
    {
        if let Err(error) = copy.check_invariants() {
            panic!("{label}: a copy: {error}");
        }
    }

    assert_eq!(double_drops(), 0, "{label}: an instance dropped twice");
    for entity in game.entities().collect::<Vec<_>>() {
        let ident = game.core.get_ident(entity).copied();
        match fixture.known.get(&entity) {
            Some(&known) => assert_eq!(ident, Some(known), "{label}: {entity}'s own ident"),
            None => assert_eq!(ident, None, "{label}: {entity} is new"),
        }
    }
}

/// A restore, even one a panic interrupted, leaves the game's entities as they were `before` (a
/// queued value's `Drop` panicked as the queue was dropped, before any copy), emptied (a copy
/// panicked half-way) or equal to the earlier game's, as a world's restore does (see the
/// guide's panics chapter).
fn restored_or_emptied(fixture: &GameFixture, before: &[Entity], label: &str) {
    if fixture.restoring {
        let entities: Vec<Entity> = fixture.game.entities().collect();
        let earlier: Vec<Entity> = fixture.earlier.entities().collect();
        assert!(
            entities.is_empty() || entities == earlier || entities == before,
            "{label}: a restore left {entities:?}"
        );
    }
}

fn game_afterwards(fixture: &mut GameFixture, label: &str) {
    let game = &mut fixture.game;
    let dead: Vec<Entity> = fixture
        .known
        .keys()
        .copied()
        .filter(|&entity| !game.is_alive(entity))
        .filter(|entity| !(fixture.restoring && fixture.issued_after_earlier.contains(entity)))
        .collect();
    let fresh: Vec<Entity> = (0..6)
        .map(|i| {
            let entity = game.spawn();
            game.core.set_ident(entity, 1_000 + i);
            game.core.set_a(entity, Counted::new(1_000));
            game.render.set_b(entity, Counted::new(2_000));
            entity
        })
        .collect();
    game.apply_commands();
    for &entity in &dead {
        assert!(!game.is_alive(entity), "{label}: stale {entity} came back");
    }
    for (i, &entity) in fresh.iter().enumerate() {
        assert!(
            game.is_alive(entity),
            "{label}: a queued despawn hit {entity}"
        );
        assert_eq!(game.core.get_a(entity).map(|a| a.value), Some(1_000));
        assert_eq!(game.render.get_b(entity).map(|b| b.value), Some(2_000));
        fixture.known.insert(entity, 1_000 + i as u64);
    }
    check_game(fixture, label);
}

type GameOperation = (&'static str, fn(&mut GameFixture));

#[test]
fn every_multi_world_operation_survives_a_panic_at_every_call() {
    let operations: Vec<GameOperation> = vec![
        ("spawn", |f| {
            f.game.spawn();
        }),
        ("spawn_entities", |f| {
            f.game.spawn_entities(3);
        }),
        (
            "EntityBuilder::spawn_one (linked, a Render component defaulted)",
            |f| {
                let parent = f.handle(4);
                let entity = multi::GameEntityBuilder::new()
                    .with_a(Counted::new(60))
                    .with_child_of(parent)
                    .with_render_mask(multi::B)
                    .spawn_one(&mut f.game);
                assert_eq!(f.game.core.get_child_of(entity), Some(parent));
            },
        ),
        ("EntityBuilder::spawn (copies in both sub-worlds)", |f| {
            let owner = f.handle(1);
            let spawned = multi::GameEntityBuilder::new()
                .with_a(Counted::new(61))
                .with_b(Counted::new(62))
                .with_owned_by(owner)
                .spawn(&mut f.game, 3);
            assert_eq!(f.game.render.get_belongings(owner).len(), 3 + 1);
            assert_eq!(spawned.len(), 3);
        }),
        ("queue_spawn, then apply_commands", |f| {
            let parent = f.handle(4);
            let queued = f.game.commands().queue_spawn(
                multi::GameEntityBuilder::new()
                    .with_a(Counted::new(63))
                    .with_child_of(parent)
                    .with_render_mask(multi::B),
            );
            f.game.apply_commands();
            assert_eq!(f.game.core.get_child_of(queued), Some(parent));
        }),
        ("despawn", |f| {
            let entity = f.handle(0);
            f.game.despawn(entity);
        }),
        ("despawn_entities", |f| {
            let entities = [f.handle(0), f.handle(1), f.handle(4)];
            f.game.despawn_entities(&entities);
        }),
        ("despawn (a cascade across both sub-worlds)", |f| {
            let entity = f.handle(4);
            f.game.despawn(entity);
            assert!(!f.game.is_alive(f.handle(3)));
        }),
        ("apply_commands", |f| {
            f.game.apply_commands();
        }),
        ("clear_commands", |f| f.game.clear_commands()),
        ("step", |f| f.game.step()),
        ("clone", |f| {
            let copy = f.game.clone();
            assert_eq!(copy.command_count(), 0);
            f.copy = Some(copy);
        }),
        ("restore", |f| {
            f.restoring = true;
            f.game.restore(&f.earlier);
        }),
        ("from_snapshot (a Default at every decoded value)", |f| {
            let loaded: multi::Game = postcard::from_bytes(&f.saved).unwrap();
            assert_eq!(loaded.entity_count(), f.game.entity_count());
            f.copy = Some(loaded);
        }),
        ("clone_from onto an earlier copy", |f| {
            let copy = f.copy.insert(f.earlier.clone());
            copy.clone_from(&f.game);
        }),
    ];
    let mut injected = 0;
    for (name, operation) in operations {
        for trap in [Trap::Default, Trap::Clone, Trap::Drop] {
            let mut at = 0;
            loop {
                let label = format!("Game::{name}, {trap:?} #{at}");
                let mut fixture = GameFixture::new();
                let before: Vec<Entity> = fixture.game.entities().collect();
                let fired = inject(trap, at, &label, || operation(&mut fixture));
                check_game(&fixture, &label);
                restored_or_emptied(&fixture, &before, &label);
                game_afterwards(&mut fixture, &label);
                drop(fixture);
                assert_eq!(live_instances(), 0, "{label}: instances outlived the game");
                if !fired {
                    break;
                }
                injected += 1;
                at += 1;
                assert!(at < MAX_CALLS, "{label}: the operation never completed");
            }
            eprintln!("Game::{name}: {at} panics injected through {trap:?}");
        }
    }
    assert!(injected >= 10, "only {injected} panics injected");
}
