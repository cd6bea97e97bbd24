//! Copies behave identically: a world, its `clone()`, a world `restore`d from it and its JSON
//! and postcard snapshot round trips issue the same handles in the same order under any
//! sequence of calls afterwards (rollback netcode re-simulates from a copy and needs that).
//!
//! The property test runs random operation sequences on five replicas side by side: the
//! original, and a clone, a restored world, a JSON and a postcard round trip, each replaced by a
//! fresh copy of the original at random points (queued commands are not copied, so at a copy
//! every replica clears its queue, and the copy must give the reservations back as
//! `clear_commands` does). Every operation's answer is compared, and after every step the rows,
//! tags, handles, ticks and resources. A clone and a restored world must match in everything
//! (events read through cursors, the structural change log, every changed-since answer); a
//! snapshot round trip saves neither events nor the change log nor per-row ticks, so it must
//! match in what it saves, in events and log entries made after it was taken, and in
//! changed-since answers for ticks from then on. A system of parameters run under a schedule
//! built afresh (`RunSystem`) must remember the same in every replica: its last run and its
//! event cursor, which a snapshot saves too (so every replica saves the same `systems`), and, in
//! a clone or a restored world, its local and the events it reads (a snapshot saves neither).
//!
//! The world has relations (`child_of` cascading, `owned_by` unlinking): links, unlinks and
//! queued links are operations, and every replica's links (both ways, in order) are compared.
//!
//! Size: `ARCHETYPAL_COPIES_CASES` cases (default 64) of 1..120 operations.

use std::cell::RefCell;

use archetypal::{Entity, EventCursor, EventReader, Local, Schedule, SystemTicks, Tick, ecs};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRunner};

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Velocity(pub i32);

#[derive(Default, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Name(pub String);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        name: Name => NAME,
    }
    Tags {
        marked => MARKED,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
    Events {
        ping: u32,
    }
    Resources {
        counter: u64,
    }
}

/// A copy through a JSON save: `snapshot` (a world's or a game's) written, then loaded.
fn json_copy<T: serde::de::DeserializeOwned>(snapshot: impl serde::Serialize) -> T {
    serde_json::from_str(&serde_json::to_string(&snapshot).unwrap()).unwrap()
}

/// A copy through a postcard save: `snapshot` written, then loaded.
fn postcard_copy<T: serde::de::DeserializeOwned>(snapshot: impl serde::Serialize) -> T {
    postcard::from_bytes(&postcard::to_allocvec(&snapshot).unwrap()).unwrap()
}

fn restored_copy(world: &World) -> World {
    let mut restored = World::new();
    restored.spawn_entities(POSITION, 3);
    restored.restore(world);
    restored
}

/// Queued spawns reserve handles from the free list and fresh ids; a copy gives them back as
/// `clear_commands` does in the original, so every copy spawns the same handles next.
#[test]
fn reservations_come_back_in_the_same_order_in_every_copy() {
    let mut world = World::new();
    let spawned = world.spawn_entities(POSITION, 8);
    for &entity in &[spawned[5], spawned[1], spawned[6], spawned[3]] {
        world.despawn(entity);
    }
    world.commands().queue_spawn_entities(VELOCITY, 2);
    world.commands().queue_add_components(spawned[0], VELOCITY);
    world.commands().queue_spawn_entities(POSITION, 3);
    let copies = [
        ("clone", world.clone()),
        ("restore", restored_copy(&world)),
        ("json", json_copy(world.snapshot())),
        ("postcard", postcard_copy(world.snapshot())),
    ];
    world.clear_commands();
    let expected: Vec<_> = (0..8).map(|_| world.spawn(POSITION)).collect();
    for (name, mut copy) in copies {
        let issued: Vec<_> = (0..8).map(|_| copy.spawn(POSITION)).collect();
        assert_eq!(
            issued, expected,
            "{name} issues other handles than the original"
        );
    }
}

// ----- the property test ----------------------------------------------------------------------

/// Masks the operations draw from, tag and out-of-world bits included.
const MASKS: [u64; 8] = [
    0,
    POSITION,
    POSITION | VELOCITY,
    VELOCITY | NAME | MARKED,
    POSITION | NAME,
    MARKED,
    POSITION | VELOCITY | NAME | MARKED,
    POSITION | (1 << 40),
];

#[derive(Clone, Copy, Debug)]
enum Kind {
    Clone,
    Restore,
    Json,
    Postcard,
}

#[derive(Clone, Debug)]
enum Op {
    Spawn(usize),
    SpawnEntities(usize, usize),
    SpawnBatch(usize, usize, i32),
    Despawn(usize),
    DespawnEntities(Vec<usize>),
    AddComponents(usize, usize),
    RemoveComponents(usize, usize),
    SetPosition(usize, i32),
    SetName(usize, String),
    GetVelocityMut(usize, i32),
    RemoveName(usize),
    AddMarked(usize),
    RemoveMarked(usize),
    MarkChanged(usize, usize),
    Move,
    Link(bool, usize, usize),
    Unlink(bool, usize),
    QueueLink(bool, usize, usize),
    QueueSpawn(usize, usize),
    QueueDespawn(usize),
    QueueSetPosition(usize, i32),
    QueueAdd(usize, usize),
    QueueRemove(usize, usize),
    ApplyCommands,
    ClearCommands,
    Step,
    IncrementTick,
    SendPing(u32),
    ConsumePing,
    ClearPing,
    EnableLog(usize),
    DisableLog,
    TrimLog(usize),
    ConsumeLog,
    Remember,
    ChangedSince(usize, usize),
    Count,
    RunSystem,
    Copy(Kind),
}

thread_local! {
    /// What the last run of [`remember`] saw: what every replica shares, then `|`, then what
    /// only an exact copy shares.
    static REMEMBERED: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A system whose memory is the world's: its last run (through its ticks), a cursor and a local.
fn remember(ticks: SystemTicks, mut pings: EventReader<u32>, mut runs: Local<u32>) {
    *runs += 1;
    let pings = pings.read();
    let seen = format!(
        "first={} last_run={:?} this_run={:?}|runs={} pings={:?} lost={}",
        ticks.is_first_run(),
        ticks.last_run(),
        ticks.this_run(),
        *runs,
        pings.clone().into_iter().collect::<Vec<_>>(),
        pings.lost()
    );
    REMEMBERED.with(|remembered| *remembered.borrow_mut() = seen);
}

/// One world of the side-by-side run, with the cursors and ticks the operations keep.
struct Replica {
    name: &'static str,
    world: World,
    /// A clone or a restored world (or the original): everything must match.
    exact: bool,
    /// The tick the copy was taken at: a snapshot's changed-since answers match from there on.
    copied_at: Tick,
    ping_cursor: EventCursor,
    log_cursor: EventCursor,
    /// A snapshot replica's cursor into the original's log, taken when it was copied: the two
    /// logs hold the same entries from then on. `None` once a log was re-enabled or disabled.
    probe: Option<EventCursor>,
    /// Ticks remembered by `Remember`, for `ChangedSince`.
    remembered: Vec<Tick>,
}

impl Replica {
    fn original() -> Self {
        Replica {
            name: "original",
            world: World::new(),
            exact: true,
            copied_at: Tick::ZERO,
            ping_cursor: EventCursor::new(),
            log_cursor: EventCursor::new(),
            probe: None,
            remembered: Vec::new(),
        }
    }

    /// A copy of `original` of `kind`, reusing `previous`'s world for a restore.
    fn copy_of(original: &Replica, kind: Kind, previous: World, log: Option<usize>) -> Self {
        let exact = matches!(kind, Kind::Clone | Kind::Restore);
        let mut world = match kind {
            Kind::Clone => original.world.clone(),
            Kind::Restore => {
                let mut world = previous;
                world.restore(&original.world);
                world
            }
            Kind::Json => json_copy(original.world.snapshot()),
            Kind::Postcard => postcard_copy(original.world.snapshot()),
        };
        let name = match kind {
            Kind::Clone => "clone",
            Kind::Restore => "restored",
            Kind::Json => "json",
            Kind::Postcard => "postcard",
        };
        if exact {
            return Replica {
                name,
                world,
                exact,
                copied_at: original.world.current_tick(),
                ping_cursor: original.ping_cursor,
                log_cursor: original.log_cursor,
                probe: None,
                remembered: original.remembered.clone(),
            };
        }
        // Not saved: the log's state (so it is switched on as in the original) and events.
        if let Some(capacity) = log {
            world.enable_change_log(capacity);
        }
        let log_cursor = world.change_cursor();
        Replica {
            name,
            world,
            exact,
            copied_at: original.world.current_tick(),
            ping_cursor: EventCursor::new(),
            log_cursor,
            probe: log.map(|_| original.world.change_cursor()),
            remembered: original.remembered.clone(),
        }
    }

    /// Whether a changed-since answer for `since` is one this replica must share.
    fn knows_changes_since(&self, since: Tick) -> bool {
        self.exact || since == self.copied_at || since.is_newer_than(self.copied_at)
    }
}

/// Resolves an operation's target index to a handle: one of every handle ever issued (by
/// spawns, batch spawns and queued spawns), or a never-issued one.
fn target(handles: &[Entity], index: usize) -> Entity {
    if handles.is_empty() || index % 8 == 7 {
        return Entity::new(500 + index as u32, 0);
    }
    handles[index % handles.len()]
}

/// Handles as `3v1 4v0`, the form the handle collector in [`run`] reads back.
fn list(entities: &[Entity]) -> String {
    let shown: Vec<String> = entities.iter().map(Entity::to_string).collect();
    shown.join(" ")
}

/// Applies `op` to `replica`; the answer it gives, `None` where this replica need not match.
fn apply(replica: &mut Replica, op: &Op, handles: &[Entity]) -> Option<String> {
    let world = &mut replica.world;
    let t = |index: &usize| target(handles, *index);
    let answer = match op {
        Op::Spawn(mask) => format!("{}", world.spawn(MASKS[*mask])),
        Op::SpawnEntities(mask, count) => list(&world.spawn_entities(MASKS[*mask], *count)),
        Op::SpawnBatch(mask, count, value) => {
            let spawned = world.spawn_batch(MASKS[*mask] | POSITION, *count, |table, row| {
                table.position[row] = Position(*value + row as i32);
            });
            list(&spawned)
        }
        Op::Despawn(index) => format!("{}", world.despawn(t(index))),
        Op::DespawnEntities(indices) => {
            let targets: Vec<Entity> = indices.iter().map(t).collect();
            list(&world.despawn_entities(&targets))
        }
        Op::AddComponents(index, mask) => {
            format!("{}", world.add_components(t(index), MASKS[*mask]))
        }
        Op::RemoveComponents(index, mask) => {
            format!("{}", world.remove_components(t(index), MASKS[*mask]))
        }
        Op::SetPosition(index, value) => {
            format!("{}", world.set_position(t(index), Position(*value)))
        }
        Op::SetName(index, value) => format!("{}", world.set_name(t(index), Name(value.clone()))),
        Op::GetVelocityMut(index, value) => match world.get_velocity_mut(t(index)) {
            Some(velocity) => {
                velocity.0 = *value;
                "written".to_string()
            }
            None => "none".to_string(),
        },
        Op::RemoveName(index) => format!("{:?}", world.remove_name(t(index))),
        Op::AddMarked(index) => format!("{}", world.add_marked(t(index))),
        Op::RemoveMarked(index) => format!("{}", world.remove_marked(t(index))),
        Op::MarkChanged(index, mask) => format!("{}", world.mark_changed(t(index), MASKS[*mask])),
        Op::Move => {
            world.for_each_mut(POSITION | VELOCITY, MARKED, |_, table, row| {
                table.position[row].0 += table.velocity[row].0;
            });
            world.resources.counter += 1;
            String::new()
        }
        Op::Link(owned, source, target) => match owned {
            false => format!("{:?}", world.set_child_of(t(source), t(target))),
            true => format!("{:?}", world.set_owned_by(t(source), t(target))),
        },
        Op::Unlink(owned, source) => match owned {
            false => format!("{:?}", world.remove_child_of(t(source))),
            true => format!("{:?}", world.remove_owned_by(t(source))),
        },
        Op::QueueLink(owned, source, target) => {
            match owned {
                false => world.commands().queue_set_child_of(t(source), t(target)),
                true => world.commands().queue_set_owned_by(t(source), t(target)),
            }
            String::new()
        }
        Op::QueueSpawn(mask, count) => {
            list(&world.commands().queue_spawn_entities(MASKS[*mask], *count))
        }
        Op::QueueDespawn(index) => {
            world.commands().queue_despawn(t(index));
            String::new()
        }
        Op::QueueSetPosition(index, value) => {
            world
                .commands()
                .queue_set_position(t(index), Position(*value));
            String::new()
        }
        Op::QueueAdd(index, mask) => {
            world
                .commands()
                .queue_add_components(t(index), MASKS[*mask]);
            String::new()
        }
        Op::QueueRemove(index, mask) => {
            world
                .commands()
                .queue_remove_components(t(index), MASKS[*mask]);
            String::new()
        }
        Op::ApplyCommands => format!("{:?}", world.apply_commands()),
        Op::ClearCommands => {
            world.clear_commands();
            String::new()
        }
        Op::Step => {
            world.step();
            String::new()
        }
        Op::IncrementTick => format!("{:?}", world.increment_tick()),
        Op::SendPing(value) => {
            world.events.ping.send(*value);
            String::new()
        }
        Op::ConsumePing => {
            let consumed = world.events.ping.consume(&mut replica.ping_cursor);
            let answer = format!(
                "{:?} lost {}",
                consumed.iter().collect::<Vec<_>>(),
                consumed.lost()
            );
            // A snapshot starts with no events: its cursor reads only those sent since.
            return replica.exact.then_some(answer);
        }
        Op::ClearPing => {
            world.events.ping.clear();
            String::new()
        }
        Op::EnableLog(capacity) => {
            world.enable_change_log(*capacity);
            replica.probe = None;
            String::new()
        }
        Op::DisableLog => {
            world.disable_change_log();
            replica.probe = None;
            String::new()
        }
        Op::TrimLog(keep) => {
            world.trim_changes(*keep);
            String::new()
        }
        Op::ConsumeLog => {
            // Compared by the caller (a snapshot replica against the original through `probe`).
            let consumed = world.consume_changes(&mut replica.log_cursor);
            let answer = format!(
                "{:?} lost {}",
                consumed.iter().collect::<Vec<_>>(),
                consumed.lost()
            );
            return Some(answer);
        }
        Op::Remember => {
            replica.remembered.push(world.current_tick());
            String::new()
        }
        Op::ChangedSince(mask, which) => {
            let since = match replica.remembered.len() {
                0 => world.last_tick(),
                len => replica.remembered[which % len],
            };
            let mut changed: Vec<Entity> = world
                .typed_query_ref::<Entity>()
                .changed_since(MASKS[*mask], since)
                .iter()
                .collect();
            changed.sort();
            let answer = format!("{changed:?}");
            return replica.knows_changes_since(since).then_some(answer);
        }
        Op::Count => format!("{} {}", world.entity_count(), world.command_count()),
        Op::RunSystem => {
            let mut schedule = Schedule::new();
            schedule.add(remember);
            schedule.run(world);
            let (carried, exact) = REMEMBERED
                .with(|remembered| remembered.take())
                .split_once('|')
                .map(|(carried, exact)| (carried.to_owned(), exact.to_owned()))
                .expect("the system ran");
            let systems = serde_json::to_value(world.snapshot()).unwrap()["systems"].to_string();
            // Compared by the caller: a snapshot replica shares what is before the `|`.
            return Some(format!("{carried} {systems}|{exact}"));
        }
        Op::Copy(_) => String::new(),
    };
    Some(answer)
}

/// What is compared after every step: handles, rows (every table in order), tags, ticks,
/// resources, queue length, and the events still stored (all of them for an exact copy; a
/// snapshot's, which are those sent since it was taken, are the newest of the original's).
#[derive(Debug, PartialEq)]
struct State {
    entities: Vec<Entity>,
    tables: Vec<String>,
    marked: Vec<Entity>,
    /// Per live entity: its targets and its sources (in link order) in both relations.
    links: Vec<String>,
    ticks: (Tick, Tick),
    counter: u64,
    commands: usize,
}

fn state(world: &World) -> State {
    let mut marked: Vec<Entity> = world.query_entities(MARKED).collect();
    marked.sort();
    State {
        entities: world.entities().collect::<Vec<_>>(),
        tables: world
            .tables()
            .iter()
            .map(|table| {
                format!(
                    "{:b} {:?} {:?} {:?} {:?}",
                    table.mask, table.entities, table.position, table.velocity, table.name
                )
            })
            .collect(),
        marked,
        links: world
            .entities()
            .collect::<Vec<_>>()
            .into_iter()
            .map(|entity| {
                format!(
                    "{entity}: {:?} {:?} {:?} {:?}",
                    world.get_child_of(entity),
                    world.get_children(entity),
                    world.get_owned_by(entity),
                    world.get_belongings(entity)
                )
            })
            .collect(),
        ticks: (world.current_tick(), world.last_tick()),
        counter: world.resources.counter,
        commands: world.command_count(),
    }
}

/// Runs `ops` on the five replicas; the first divergence, if any.
fn run(ops: &[Op]) -> Result<(), String> {
    let mut replicas = vec![Replica::original()];
    for kind in [Kind::Clone, Kind::Restore, Kind::Json, Kind::Postcard] {
        let copy = Replica::copy_of(&replicas[0], kind, World::new(), None);
        replicas.push(copy);
    }
    let mut handles: Vec<Entity> = Vec::new();
    let mut log: Option<usize> = None;
    for (step, op) in ops.iter().enumerate() {
        if let Op::Copy(kind) = op {
            let slot = 1 + *kind as usize;
            let previous = std::mem::take(&mut replicas[slot].world);
            replicas[slot] = Replica::copy_of(&replicas[0], *kind, previous, log);
            // The copy has no queue; the others give theirs up too, so all stay comparable.
            for (index, replica) in replicas.iter_mut().enumerate() {
                if index != slot {
                    replica.world.clear_commands();
                }
            }
        } else {
            let (original, copies) = replicas.split_first_mut().unwrap();
            let expected = apply(original, op, &handles);
            for replica in copies {
                let mut answer = apply(replica, op, &handles);
                let mut expected = expected.clone();
                if let (Op::ConsumeLog, false) = (op, replica.exact) {
                    // A snapshot's log holds what was logged since it was taken: compared with
                    // the original's through the cursor taken then, while both logs ran on.
                    expected = replica.probe.as_mut().map(|probe| {
                        let consumed = original.world.consume_changes(probe);
                        format!(
                            "{:?} lost {}",
                            consumed.iter().collect::<Vec<_>>(),
                            consumed.lost()
                        )
                    });
                    answer = answer.filter(|_| expected.is_some());
                }
                if let (Op::RunSystem, false) = (op, replica.exact) {
                    // Its local and the events it read are not in a snapshot.
                    let carried = |answer: String| answer.split('|').next().map(str::to_owned);
                    expected = expected.and_then(carried);
                    answer = answer.and_then(carried);
                }
                if let (Some(answer), Some(expected)) = (&answer, &expected)
                    && answer != expected
                {
                    return Err(format!(
                        "step {step} {op:?}: {} answered {answer}, the original {expected}",
                        replica.name
                    ));
                }
            }
            match op {
                Op::EnableLog(capacity) => log = Some(*capacity),
                Op::DisableLog => log = None,
                _ => {}
            }
            if let Some(answer) = expected {
                for handle in answer
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter_map(|word| word.split_once('v'))
                    .filter_map(|(id, generation)| {
                        Some(Entity::new(id.parse().ok()?, generation.parse().ok()?))
                    })
                {
                    if !handles.contains(&handle)
                        && matches!(
                            op,
                            Op::Spawn(_)
                                | Op::SpawnEntities(..)
                                | Op::SpawnBatch(..)
                                | Op::QueueSpawn(..)
                        )
                    {
                        handles.push(handle);
                    }
                }
            }
        }
        let expected = state(&replicas[0].world);
        let events: Vec<u32> = replicas[0].world.events.ping.read().copied().collect();
        for replica in &replicas[1..] {
            replica
                .world
                .check_invariants()
                .map_err(|error| format!("step {step} {op:?}: {}: {error}", replica.name))?;
            let got = state(&replica.world);
            if got != expected {
                return Err(format!(
                    "step {step} {op:?}: {} differs\n{got:?}\nthe original:\n{expected:?}",
                    replica.name
                ));
            }
            let stored: Vec<u32> = replica.world.events.ping.read().copied().collect();
            let matches = if replica.exact {
                stored == events
            } else {
                events.ends_with(&stored)
            };
            if !matches {
                return Err(format!(
                    "step {step} {op:?}: {}'s events {stored:?}, the original's {events:?}",
                    replica.name
                ));
            }
        }
    }
    Ok(())
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let mask = 0..MASKS.len();
    let index = 0usize..64;
    prop_oneof![
        6 => mask.clone().prop_map(Op::Spawn),
        2 => (mask.clone(), 0usize..4).prop_map(|(m, n)| Op::SpawnEntities(m, n)),
        1 => (mask.clone(), 0usize..4, -9i32..9).prop_map(|(m, n, v)| Op::SpawnBatch(m, n, v)),
        4 => index.clone().prop_map(Op::Despawn),
        1 => prop::collection::vec(index.clone(), 0..4).prop_map(Op::DespawnEntities),
        3 => (index.clone(), mask.clone()).prop_map(|(e, m)| Op::AddComponents(e, m)),
        3 => (index.clone(), mask.clone()).prop_map(|(e, m)| Op::RemoveComponents(e, m)),
        3 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::SetPosition(e, v)),
        1 => (index.clone(), "[ab]{0,2}").prop_map(|(e, v)| Op::SetName(e, v)),
        2 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::GetVelocityMut(e, v)),
        1 => index.clone().prop_map(Op::RemoveName),
        2 => index.clone().prop_map(Op::AddMarked),
        1 => index.clone().prop_map(Op::RemoveMarked),
        1 => (index.clone(), mask.clone()).prop_map(|(e, m)| Op::MarkChanged(e, m)),
        2 => Just(Op::Move),
        4 => (any::<bool>(), index.clone(), index.clone()).prop_map(|(r, s, t)| Op::Link(r, s, t)),
        1 => (any::<bool>(), index.clone()).prop_map(|(r, s)| Op::Unlink(r, s)),
        1 => (any::<bool>(), index.clone(), index.clone()).prop_map(|(r, s, t)| Op::QueueLink(r, s, t)),
        3 => (mask.clone(), 0usize..4).prop_map(|(m, n)| Op::QueueSpawn(m, n)),
        1 => index.clone().prop_map(Op::QueueDespawn),
        1 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::QueueSetPosition(e, v)),
        1 => (index.clone(), mask.clone()).prop_map(|(e, m)| Op::QueueAdd(e, m)),
        1 => (index.clone(), mask.clone()).prop_map(|(e, m)| Op::QueueRemove(e, m)),
        2 => Just(Op::ApplyCommands),
        1 => Just(Op::ClearCommands),
        2 => Just(Op::Step),
        1 => Just(Op::IncrementTick),
        2 => (0u32..100).prop_map(Op::SendPing),
        2 => Just(Op::ConsumePing),
        1 => Just(Op::ClearPing),
        1 => (0usize..6).prop_map(Op::EnableLog),
        1 => Just(Op::DisableLog),
        1 => (0usize..4).prop_map(Op::TrimLog),
        2 => Just(Op::ConsumeLog),
        1 => Just(Op::Remember),
        2 => (mask.clone(), 0usize..8).prop_map(|(m, w)| Op::ChangedSince(m, w)),
        1 => Just(Op::Count),
        2 => Just(Op::RunSystem),
        3 => prop_oneof![Just(Kind::Clone), Just(Kind::Restore), Just(Kind::Json), Just(Kind::Postcard)].prop_map(Op::Copy),
    ]
}

/// Cases per run: `ARCHETYPAL_COPIES_CASES`, default 256 (a few seconds in a debug build).
fn cases() -> u32 {
    std::env::var("ARCHETYPAL_COPIES_CASES")
        .ok()
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(256)
}

#[test]
fn copies_answer_like_the_original_under_random_operations() {
    run_random_sequences("a copy", op_strategy(), run);
}

/// Runs `run` over `cases()` random sequences of operations drawn from `strategy` (1 to 119
/// each, at least 20 on average), and fails with the minimal failing sequence, listed step by
/// step, if a copy diverges (`what` names the copy in the message).
fn run_random_sequences<Op: std::fmt::Debug + Clone>(
    what: &str,
    strategy: impl Strategy<Value = Op>,
    run: fn(&[Op]) -> Result<(), String>,
) {
    let cases = cases();
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let ops_run = std::cell::Cell::new(0usize);
    let result = runner.run(&prop::collection::vec(strategy, 1..120), |ops| {
        ops_run.set(ops_run.get() + ops.len());
        run(&ops).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, ops)) => {
            let listing: String = ops
                .iter()
                .enumerate()
                .map(|(step, op)| format!("  {step:3}: {op:?},\n"))
                .collect();
            panic!("{what} diverges: {reason}\nminimal failing sequence:\n{listing}")
        }
        Err(error) => panic!("{error}"),
    }
    eprintln!("{what}: {cases} cases, {} operations", ops_run.get());
    assert!(ops_run.get() >= 20 * cases as usize);
}

// ----- the multi-world form -------------------------------------------------------------------

/// The same harness over a game of two sub-worlds, each with its own relation (the cascade in
/// `Core` reaches entities whose names live in `Render`), with the game's events and resources:
/// the original, its clone, a game restored from it (exact copies), and its JSON and postcard
/// round trips, which must match in what a snapshot saves and in changed-since answers for
/// ticks from the copy on (events and the change log are not saved: not compared for them).
mod game {
    use super::*;

    mod multi {
        use super::{Name, Position, Velocity};

        archetypal::ecs! {
            Game {
                Core {
                    position: Position => POSITION,
                    velocity: Velocity => VELOCITY,
                }
                Tags {
                    marked => MARKED,
                }
                Relations {
                    child_of / children => CHILD_OF [cascade],
                }
                Render {
                    name: Name => NAME,
                }
                Relations {
                    owned_by / belongings => OWNED_BY,
                }
            }
            Events {
                ping: u32,
            }
            Resources {
                counter: u64,
            }
        }
    }
    use multi::{Game, MARKED, NAME, POSITION, VELOCITY};

    fn restored_copy(game: &Game) -> Game {
        let mut restored = Game::new();
        let stale = restored.spawn_entities(3);
        restored.core.set_position(stale[1], Position(5));
        restored.restore(game);
        restored
    }

    /// Queued spawns reserve handles from the free list and fresh ids, here and in no
    /// sub-world; a copy gives them back as `clear_commands` does in the original.
    #[test]
    fn reservations_come_back_in_the_same_order_in_every_copy_of_a_game() {
        let mut game = Game::new();
        let spawned = game.spawn_entities(8);
        for &entity in &[spawned[5], spawned[1], spawned[6], spawned[3]] {
            game.despawn(entity);
        }
        game.commands().queue_spawn_entities(2);
        game.commands()
            .core()
            .queue_add_components(spawned[0], VELOCITY);
        game.commands().queue_spawn_entities(3);
        let copies = [
            ("clone", game.clone()),
            ("restore", restored_copy(&game)),
            ("json", json_copy(game.snapshot())),
            ("postcard", postcard_copy(game.snapshot())),
        ];
        game.clear_commands();
        let expected: Vec<_> = (0..8).map(|_| game.spawn()).collect();
        for (name, mut copy) in copies {
            assert_eq!(copy.command_count(), 0, "{name} has no queued commands");
            let issued: Vec<_> = (0..8).map(|_| copy.spawn()).collect();
            assert_eq!(
                issued, expected,
                "{name} issues other handles than the original"
            );
            copy.check_invariants().unwrap();
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Spawn,
        SpawnEntities(usize),
        /// The game's builder: `count` entities (`spawn_one` for 1) with a position and a
        /// name, linked to the entity at the index in Core's `child_of`.
        Build(usize, i32, usize),
        /// `queue_spawn` with the same builder, for one entity.
        QueueBuild(i32, usize),
        Despawn(usize),
        DespawnEntities(Vec<usize>),
        SetPosition(usize, i32),
        SetVelocity(usize, i32),
        SetName(usize, String),
        RemoveComponents(usize),
        AddMarked(usize),
        Move,
        Link(bool, usize, usize),
        Unlink(bool, usize),
        QueueSpawn(usize),
        QueueDespawn(usize),
        QueueSetPosition(usize, i32),
        QueueSetName(usize, String),
        ApplyCommands,
        ClearCommands,
        Step,
        IncrementTick,
        SendPing(u32),
        ConsumePing,
        EnableLog(usize),
        ConsumeLog,
        Remember,
        ChangedSince(usize),
        Count,
        Copy(Kind),
    }

    struct Replica {
        name: &'static str,
        game: Game,
        /// A clone or a restored game (or the original): everything must match.
        exact: bool,
        /// The tick the copy was taken at: a snapshot's changed-since answers match from there.
        copied_at: Tick,
        ping_cursor: EventCursor,
        log_cursor: EventCursor,
        remembered: Vec<Tick>,
    }

    impl Replica {
        /// A copy of `original` of `kind`, reusing `previous`'s game for a restore.
        fn copy_of(original: &Replica, kind: Kind, previous: Game) -> Self {
            let (name, game) = match kind {
                Kind::Clone => ("clone", original.game.clone()),
                Kind::Restore => {
                    let mut previous = previous;
                    previous.restore(&original.game);
                    ("restored", previous)
                }
                Kind::Json => ("json", json_copy(original.game.snapshot())),
                Kind::Postcard => ("postcard", postcard_copy(original.game.snapshot())),
            };
            Replica {
                name,
                game,
                exact: matches!(kind, Kind::Clone | Kind::Restore),
                copied_at: original.game.current_tick(),
                ping_cursor: original.ping_cursor,
                log_cursor: original.log_cursor,
                remembered: original.remembered.clone(),
            }
        }
    }

    /// The answer to `op`, or `None` where a snapshot's copy need not match the original
    /// (events and the change log, which a snapshot does not save, and changed-since answers
    /// for ticks before the copy).
    fn apply(replica: &mut Replica, op: &Op, handles: &[Entity]) -> Option<String> {
        let exact = replica.exact;
        let answer = apply_to(replica, op, handles);
        let shared = match op {
            Op::ConsumePing | Op::ConsumeLog => exact,
            Op::ChangedSince(which) => {
                let since = since(replica, *which);
                exact || since == replica.copied_at || since.is_newer_than(replica.copied_at)
            }
            _ => true,
        };
        shared.then_some(answer)
    }

    /// The tick a `ChangedSince(which)` asks about.
    fn since(replica: &Replica, which: usize) -> Tick {
        match replica.remembered.len() {
            0 => replica.game.last_tick(),
            len => replica.remembered[which % len],
        }
    }

    fn apply_to(replica: &mut Replica, op: &Op, handles: &[Entity]) -> String {
        let since = match op {
            Op::ChangedSince(which) => since(replica, *which),
            _ => Tick::ZERO,
        };
        let game = &mut replica.game;
        let t = |index: &usize| target(handles, *index);
        match op {
            Op::Spawn => format!("{}", game.spawn()),
            Op::SpawnEntities(count) => list(&game.spawn_entities(*count)),
            Op::Build(count, value, parent) => {
                let builder = multi::GameEntityBuilder::new()
                    .with_position(Position(*value))
                    .with_name(Name(format!("b{value}")))
                    .with_child_of(t(parent));
                match count {
                    1 => format!("{}", builder.spawn_one(game)),
                    _ => list(&builder.spawn(game, *count)),
                }
            }
            Op::QueueBuild(value, parent) => {
                let builder = multi::GameEntityBuilder::new()
                    .with_position(Position(*value))
                    .with_core_mask(MARKED)
                    .with_child_of(t(parent));
                format!("{}", game.commands().queue_spawn(builder))
            }
            Op::Despawn(index) => format!("{}", game.despawn(t(index))),
            Op::DespawnEntities(indices) => {
                let targets: Vec<Entity> = indices.iter().map(t).collect();
                list(&game.despawn_entities(&targets))
            }
            Op::SetPosition(index, value) => {
                format!("{}", game.core.set_position(t(index), Position(*value)))
            }
            Op::SetVelocity(index, value) => {
                format!("{}", game.core.set_velocity(t(index), Velocity(*value)))
            }
            Op::SetName(index, value) => {
                format!("{}", game.render.set_name(t(index), Name(value.clone())))
            }
            Op::RemoveComponents(index) => format!(
                "{} {}",
                game.core.remove_components(t(index), POSITION | MARKED),
                game.render.remove_components(t(index), NAME)
            ),
            Op::AddMarked(index) => format!("{}", game.core.add_marked(t(index))),
            Op::Move => {
                game.core
                    .for_each_mut(POSITION | VELOCITY, MARKED, |_, table, row| {
                        table.position[row].0 += table.velocity[row].0;
                    });
                game.resources.counter += 1;
                String::new()
            }
            Op::Link(owned, source, target) => match owned {
                false => format!("{:?}", game.core.set_child_of(t(source), t(target))),
                true => format!("{:?}", game.render.set_owned_by(t(source), t(target))),
            },
            Op::Unlink(owned, source) => match owned {
                false => format!("{:?}", game.core.remove_child_of(t(source))),
                true => format!("{:?}", game.render.remove_owned_by(t(source))),
            },
            Op::QueueSpawn(count) => list(&game.commands().queue_spawn_entities(*count)),
            Op::QueueDespawn(index) => {
                game.commands().queue_despawn(t(index));
                String::new()
            }
            Op::QueueSetPosition(index, value) => {
                game.commands()
                    .core()
                    .queue_set_position(t(index), Position(*value));
                String::new()
            }
            Op::QueueSetName(index, value) => {
                game.commands()
                    .render()
                    .queue_set_name(t(index), Name(value.clone()));
                String::new()
            }
            Op::ApplyCommands => format!("{:?}", game.apply_commands()),
            Op::ClearCommands => {
                game.clear_commands();
                String::new()
            }
            Op::Step => {
                game.step();
                String::new()
            }
            Op::IncrementTick => format!("{:?}", game.increment_tick()),
            Op::SendPing(value) => {
                game.events.ping.send(*value);
                String::new()
            }
            Op::ConsumePing => {
                let consumed = game.events.ping.consume(&mut replica.ping_cursor);
                format!(
                    "{:?} lost {}",
                    consumed.iter().collect::<Vec<_>>(),
                    consumed.lost()
                )
            }
            Op::EnableLog(capacity) => {
                game.core.enable_change_log(*capacity);
                String::new()
            }
            Op::ConsumeLog => {
                let consumed = game.core.consume_changes(&mut replica.log_cursor);
                format!(
                    "{:?} lost {}",
                    consumed.iter().collect::<Vec<_>>(),
                    consumed.lost()
                )
            }
            Op::Remember => {
                replica.remembered.push(game.current_tick());
                String::new()
            }
            Op::ChangedSince(_) => {
                let mut changed: Vec<Entity> = game
                    .core
                    .typed_query_ref::<Entity>()
                    .changed_since(POSITION, since)
                    .iter()
                    .collect();
                changed.sort();
                format!("{changed:?}")
            }
            Op::Count => format!("{} {}", game.entity_count(), game.command_count()),
            Op::Copy(_) => String::new(),
        }
    }

    /// Everything compared after every step: handles, both sub-worlds' rows, tags and links,
    /// ticks, the resource, the queues' length and (for an exact copy) the events stored.
    fn state(game: &Game, with_events: bool) -> String {
        let mut marked: Vec<Entity> = game.core.query_entities(MARKED).collect();
        marked.sort();
        let entities: Vec<Entity> = game.entities().collect();
        let core: Vec<String> = game
            .core
            .tables()
            .iter()
            .map(|table| {
                format!(
                    "{:b} {:?} {:?} {:?}",
                    table.mask, table.entities, table.position, table.velocity
                )
            })
            .collect();
        let render: Vec<String> = game
            .render
            .tables()
            .iter()
            .map(|table| format!("{:b} {:?} {:?}", table.mask, table.entities, table.name))
            .collect();
        let links: Vec<String> = entities
            .iter()
            .map(|&entity| {
                format!(
                    "{entity}: {:?} {:?} {:?} {:?}",
                    game.core.get_child_of(entity),
                    game.core.get_children(entity),
                    game.render.get_owned_by(entity),
                    game.render.get_belongings(entity)
                )
            })
            .collect();
        let events: Vec<u32> = match with_events {
            true => game.events.ping.read().copied().collect(),
            false => Vec::new(),
        };
        format!(
            "{entities:?}\n{core:?}\n{render:?}\n{marked:?}\n{links:?}\nticks {:?} {:?} {:?} \
             counter {} commands {} events {events:?}",
            game.current_tick(),
            game.last_tick(),
            game.render.current_tick(),
            game.resources.counter,
            game.command_count(),
        )
    }

    fn run(ops: &[Op]) -> Result<(), String> {
        let original = Replica {
            name: "original",
            game: Game::new(),
            exact: true,
            copied_at: Tick::ZERO,
            ping_cursor: EventCursor::new(),
            log_cursor: EventCursor::new(),
            remembered: Vec::new(),
        };
        let kinds = [Kind::Clone, Kind::Restore, Kind::Json, Kind::Postcard];
        let copies =
            kinds.map(|kind| Replica::copy_of(&original, kind, restored_copy(&Game::new())));
        let [clone, restored, json, postcard] = copies;
        let mut replicas = [original, clone, restored, json, postcard];
        let mut handles: Vec<Entity> = Vec::new();
        for (step, op) in ops.iter().enumerate() {
            if let Op::Copy(kind) = op {
                let slot = match kind {
                    Kind::Clone => 1,
                    Kind::Restore => 2,
                    Kind::Json => 3,
                    Kind::Postcard => 4,
                };
                let previous = std::mem::take(&mut replicas[slot].game);
                replicas[slot] = Replica::copy_of(&replicas[0], *kind, previous);
                for (index, replica) in replicas.iter_mut().enumerate() {
                    if index != slot {
                        replica.game.clear_commands();
                    }
                }
            } else {
                let (original, copies) = replicas.split_first_mut().unwrap();
                let expected = apply_to(original, op, &handles);
                for replica in copies {
                    let Some(answer) = apply(replica, op, &handles) else {
                        continue;
                    };
                    if answer != expected {
                        return Err(format!(
                            "step {step} {op:?}: {} answered {answer}, the original {expected}",
                            replica.name
                        ));
                    }
                }
                if matches!(
                    op,
                    Op::Spawn
                        | Op::SpawnEntities(_)
                        | Op::Build(..)
                        | Op::QueueBuild(..)
                        | Op::QueueSpawn(_)
                ) {
                    for handle in expected
                        .split(' ')
                        .filter_map(|word| word.split_once('v'))
                        .filter_map(|(id, generation)| {
                            Some(Entity::new(id.parse().ok()?, generation.parse().ok()?))
                        })
                    {
                        if !handles.contains(&handle) {
                            handles.push(handle);
                        }
                    }
                }
            }
            for replica in &replicas {
                replica
                    .game
                    .check_invariants()
                    .map_err(|error| format!("step {step} {op:?}: {}: {error}", replica.name))?;
                let expected = state(&replicas[0].game, replica.exact);
                let got = state(&replica.game, replica.exact);
                if got != expected {
                    return Err(format!(
                        "step {step} {op:?}: {} differs\n{got}\nthe original:\n{expected}",
                        replica.name
                    ));
                }
            }
        }
        Ok(())
    }

    fn op_strategy() -> impl Strategy<Value = Op> {
        let index = 0usize..64;
        prop_oneof![
            6 => Just(Op::Spawn),
            2 => (0usize..4).prop_map(Op::SpawnEntities),
            2 => (0usize..4, -9i32..9, index.clone()).prop_map(|(n, v, p)| Op::Build(n, v, p)),
            2 => (-9i32..9, index.clone()).prop_map(|(v, p)| Op::QueueBuild(v, p)),
            4 => index.clone().prop_map(Op::Despawn),
            1 => prop::collection::vec(index.clone(), 0..4).prop_map(Op::DespawnEntities),
            3 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::SetPosition(e, v)),
            2 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::SetVelocity(e, v)),
            2 => (index.clone(), "[ab]{0,2}").prop_map(|(e, v)| Op::SetName(e, v)),
            1 => index.clone().prop_map(Op::RemoveComponents),
            2 => index.clone().prop_map(Op::AddMarked),
            2 => Just(Op::Move),
            4 => (any::<bool>(), index.clone(), index.clone()).prop_map(|(r, s, t)| Op::Link(r, s, t)),
            1 => (any::<bool>(), index.clone()).prop_map(|(r, s)| Op::Unlink(r, s)),
            3 => (0usize..4).prop_map(Op::QueueSpawn),
            1 => index.clone().prop_map(Op::QueueDespawn),
            1 => (index.clone(), -9i32..9).prop_map(|(e, v)| Op::QueueSetPosition(e, v)),
            1 => (index.clone(), "[ab]{0,2}").prop_map(|(e, v)| Op::QueueSetName(e, v)),
            2 => Just(Op::ApplyCommands),
            1 => Just(Op::ClearCommands),
            2 => Just(Op::Step),
            1 => Just(Op::IncrementTick),
            2 => (0u32..100).prop_map(Op::SendPing),
            2 => Just(Op::ConsumePing),
            1 => (0usize..6).prop_map(Op::EnableLog),
            2 => Just(Op::ConsumeLog),
            1 => Just(Op::Remember),
            2 => (0usize..8).prop_map(Op::ChangedSince),
            1 => Just(Op::Count),
            3 => prop_oneof![
                Just(Kind::Clone),
                Just(Kind::Restore),
                Just(Kind::Json),
                Just(Kind::Postcard),
            ]
            .prop_map(Op::Copy),
        ]
    }

    #[test]
    fn copies_of_a_game_answer_like_the_original_under_random_operations() {
        run_random_sequences("a copy of a game", op_strategy(), run);
    }
}
