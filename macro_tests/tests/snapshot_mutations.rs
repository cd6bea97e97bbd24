//! Snapshots of hostile bytes, the stable twin of the `snapshot` fuzz target: a corpus of valid
//! snapshots (JSON and postcard) is mutated a few thousand times per run (truncated, bytes
//! flipped, length and count fields set to huge values, ids and whole stretches duplicated or
//! cut; among them, what the worlds' systems remember: names, cursors, placeholders), and every
//! mutant is loaded while its allocations are counted. Every load is `Ok` with
//! `check_invariants()` passing (and a world then runs its systems soundly on the memory it
//! loaded), or an `Err`; never a panic, and never more memory held at once
//! than a small multiple of the input's size (a declared length is only a claim: it must not
//! size an allocation).
//!
//! `ARCHETYPAL_SNAPSHOT_MUTATIONS=N` sets the mutants per corpus entry (default 500).
//!
//! The allocations are counted by allocation-counter, a maintained crate whose global allocator
//! counts per thread (so other tests running at the same time do not disturb the count); this
//! binary is the only one that links it.

use std::panic::{AssertUnwindSafe, catch_unwind};

use archetypal::{Entity, EventReader, Local, Schedule, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health(pub u32);

#[derive(Default, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Name(pub String);

/// Zero-sized: its values cost no postcard bytes at all.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker;

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target(pub Option<Entity>);

/// 64 bytes a value: a column of these that a snapshot declares and leaves empty must not make
/// the load reserve 64 bytes for each of its table's rows.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block(pub [u64; 8]);

// No resource or component holds a `Vec`: serde's own `Vec` impl (for the user's types)
// reserves up to 1 MiB on a declared length, which is serde's bound, not archetypal's. What is
// checked here is archetypal's part: tables, columns, ids, tags.
ecs! {
    World {
        position: Position => POSITION,
        health: Health => HEALTH,
        name: Name => NAME,
        marker: Marker => MARKER,
        target: Target => TARGET,
        block_a: Block => BLOCK_A,
        block_b: Block => BLOCK_B,
        block_c: Block => BLOCK_C,
        block_d: Block => BLOCK_D,
    }
    Tags {
        player => PLAYER,
        frozen => FROZEN,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
    Events {
        ping: u32,
    }
    Resources {
        frame: u64,
        focus: Option<Entity>,
    }
}

/// A system that remembers a cursor and a local (saved as a placeholder).
fn listen(mut pings: EventReader<u32>, mut heard: Local<u32>) {
    *heard += pings.read().len() as u32;
}

/// A system that remembers a local only.
fn count_frames(mut frames: Local<u64>) {
    *frames += 1;
}

/// Runs the two systems `frames` times on `world`, a ping sent each frame: its snapshot holds
/// what they remember (last runs, a cursor, placeholders).
fn run_systems(world: &mut World, frames: u32) {
    let mut schedule = Schedule::new();
    schedule.add((listen, count_frames));
    for frame in 0..frames {
        world.events.ping.send(frame);
        schedule.run(world);
        world.step();
    }
}

/// A two-sub-world game with tags and relations in both, run through the same harness: its
/// snapshot holds the game's entity index once and each sub-world's storage by name.
mod multi {
    use super::{Block, Health, Marker, Name, Position, Target};
    use archetypal::Entity;

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                health: Health => HEALTH,
                target: Target => TARGET,
                block: Block => BLOCK,
            }
            Tags {
                player => PLAYER,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
            }
            Render {
                name: Name => NAME,
                marker: Marker => MARKER,
            }
            Tags {
                hidden => HIDDEN,
                frozen => FROZEN,
            }
            Relations {
                owned_by / belongings => OWNED_BY,
            }
        }
        Resources {
            frame: u64,
            focus: Option<Entity>,
        }
    }
}

/// What the harness loads: a world or a game, each checked whole once loaded.
trait Loaded: serde::de::DeserializeOwned {
    /// `check_invariants()`, the world's or the game's.
    fn invariants(&self) -> Result<(), String>;

    /// Goes on working after the load, panicking at a fault (outside the measured load).
    fn work(&mut self) {}
}

impl Loaded for World {
    fn invariants(&self) -> Result<(), String> {
        self.check_invariants().map_err(|error| error.to_string())
    }

    /// Runs the systems on the memory the mutant loaded (whatever last runs, cursors and
    /// placeholders it gave them).
    fn work(&mut self) {
        run_systems(self, 2);
        if let Err(error) = self.check_invariants() {
            panic!("a loaded world breaks an invariant under its systems: {error}");
        }
    }
}

impl Loaded for multi::Game {
    fn invariants(&self) -> Result<(), String> {
        self.check_invariants().map_err(|error| error.to_string())
    }
}

/// The most bytes a load may hold at once, for an input of `len` bytes: a small multiple of
/// the input, plus a fixed allowance for the world's own structures and an error message.
fn allocation_cap(len: usize) -> u64 {
    32 * len as u64 + 32 * 1024
}

/// Mutants per corpus entry, unless `ARCHETYPAL_SNAPSHOT_MUTATIONS` says otherwise.
fn mutations_per_entry() -> usize {
    std::env::var("ARCHETYPAL_SNAPSHOT_MUTATIONS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(500)
}

/// A small deterministic generator (xorshift64*), so a failure reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

/// Worlds of several shapes: empty, one table, many tables with recycled ids, tags,
/// relations, zero-sized columns and handles in components.
fn corpus_worlds() -> Vec<World> {
    let empty = World::new();

    let mut small = World::new();
    small.spawn_entities(POSITION | HEALTH, 3);

    let mut busy = World::new();
    let movers = busy.spawn_batch(POSITION | MARKER, 6, |table, row| {
        table.position[row] = Position {
            x: row as f32,
            y: 1.5,
        };
    });
    let named = busy.spawn_batch(NAME | TARGET | PLAYER, 3, |table, row| {
        table.name[row] = Name(format!("unit {row}"));
    });
    for (index, &entity) in named.iter().enumerate() {
        busy.set_target(entity, Target(Some(movers[index])));
    }
    // Links (mutated like the rest: dead ids, duplicates and cycles must be refused).
    busy.set_child_of(movers[1], movers[0]).unwrap();
    busy.set_child_of(movers[3], movers[1]).unwrap();
    busy.set_child_of(movers[4], movers[1]).unwrap();
    busy.set_owned_by(named[1], movers[3]).unwrap();
    busy.despawn(movers[2]);
    busy.spawn(HEALTH | FROZEN);
    busy.spawn(0);
    busy.add_frozen(movers[0]);
    busy.resources.frame = 7;
    busy.resources.focus = Some(named[0]);
    busy.step();
    busy.set_health(movers[1], Health(4));
    run_systems(&mut small, 1);
    run_systems(&mut busy, 3);

    let mut many_tables = World::new();
    for mask in 0..32u64 {
        many_tables.spawn(mask);
    }
    vec![empty, small, busy, many_tables]
}

/// One mutation of `input`, chosen by `rng`. `json` picks text-aware mutations.
fn mutate(input: &[u8], json: bool, rng: &mut Rng) -> Vec<u8> {
    if input.is_empty() {
        return vec![rng.next() as u8];
    }
    let mut bytes = input.to_vec();
    let at = rng.below(bytes.len());
    match rng.below(8) {
        // Truncated anywhere.
        0 => bytes.truncate(at),
        // A byte flipped.
        1 => bytes[at] ^= 1 << rng.below(8),
        // A byte replaced.
        2 => bytes[at] = rng.next() as u8,
        // A length or count set to a huge value: postcard's varints (u32::MAX, or u64::MAX's
        // ten bytes), or a JSON number.
        3 if json => {
            let huge: &[u8] = [&b"4294967295"[..], b"18446744073709551615", b"1e300"][rng.below(3)];
            match bytes[at..].iter().position(u8::is_ascii_digit) {
                Some(offset) => {
                    let start = at + offset;
                    let end = start
                        + bytes[start..]
                            .iter()
                            .take_while(|byte| byte.is_ascii_digit())
                            .count();
                    bytes.splice(start..end, huge.iter().copied());
                }
                None => bytes.extend_from_slice(huge),
            }
        }
        3 => {
            let huge: &[u8] = [
                &[0xff, 0xff, 0xff, 0xff, 0x0f][..],
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
                &[0x80, 0x80, 0x80, 0x40],
            ][rng.below(3)];
            bytes.splice(at..(at + 1).min(bytes.len()), huge.iter().copied());
        }
        // An id (or any number) duplicated: in JSON a number and its comma; in postcard a byte.
        4 if json => match bytes[at..].iter().position(u8::is_ascii_digit) {
            Some(offset) => {
                let start = at + offset;
                let end = start
                    + bytes[start..]
                        .iter()
                        .take_while(|byte| byte.is_ascii_digit())
                        .count();
                let mut copy = bytes[start..end].to_vec();
                copy.push(b',');
                bytes.splice(start..start, copy);
            }
            None => bytes.truncate(at),
        },
        4 => {
            let byte = bytes[at];
            bytes.insert(at, byte);
        }
        // A stretch duplicated in place (whole entries: ids, rows, tables).
        5 => {
            let end = (at + 1 + rng.below(24)).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            bytes.splice(at..at, copy);
        }
        // A stretch cut out.
        6 => {
            let end = (at + 1 + rng.below(24)).min(bytes.len());
            bytes.drain(at..end);
        }
        // Two mutations at once.
        _ => {
            let once = mutate(&bytes, json, rng);
            bytes = mutate(&once, json, rng);
        }
    }
    bytes
}

/// What loading one input did.
#[derive(Debug, PartialEq)]
enum Outcome {
    Loaded,
    Refused,
}

/// Loads `input` as a `T` (a world or a game), checks what loaded, and measures the most bytes
/// held at once.
fn load<T: Loaded>(input: &[u8], json: bool) -> (Outcome, u64) {
    let mut outcome = Outcome::Refused;
    let mut kept = None;
    let info = allocation_counter::measure(|| {
        let loaded = if json {
            serde_json::from_slice::<T>(input).ok()
        } else {
            postcard::from_bytes::<T>(input).ok()
        };
        if let Some(loaded) = loaded {
            if let Err(error) = loaded.invariants() {
                panic!("a loaded snapshot breaks an invariant: {error}");
            }
            outcome = Outcome::Loaded;
            kept = Some(loaded);
        }
    });
    if let Some(mut loaded) = kept {
        loaded.work();
    }
    (outcome, info.bytes_max)
}

/// Loads `input` as a world and checks everything promised, with the input in the failure
/// message.
fn check(input: &[u8], json: bool, what: &str) -> Outcome {
    check_measured::<World>(input, json, what).0
}

/// [`check`] for a `T`, also returning the most bytes held at once.
fn check_measured<T: Loaded>(input: &[u8], json: bool, what: &str) -> (Outcome, u64) {
    let shown = || {
        if json {
            String::from_utf8_lossy(input).into_owned()
        } else {
            format!("{input:?}")
        }
    };
    let (outcome, held) = match catch_unwind(AssertUnwindSafe(|| load::<T>(input, json))) {
        Ok(result) => result,
        Err(_) => panic!("{what}: loading panicked on {}", shown()),
    };
    let cap = allocation_cap(input.len());
    assert!(
        held <= cap,
        "{what}: {held} bytes held at once for {} input bytes (cap {cap}): {}",
        input.len(),
        shown()
    );
    (outcome, held)
}

#[test]
fn every_mutant_snapshot_loads_soundly_or_is_refused_within_the_allocation_cap() {
    let mut corpus: Vec<(Vec<u8>, bool)> = Vec::new();
    for world in corpus_worlds() {
        corpus.push((serde_json::to_vec(&world.snapshot()).unwrap(), true));
        corpus.push((postcard::to_allocvec(&world.snapshot()).unwrap(), false));
    }
    mutate_corpus::<World>(&corpus, 0);
}

#[test]
fn every_mutant_game_snapshot_loads_soundly_or_is_refused_within_the_allocation_cap() {
    let mut corpus: Vec<(Vec<u8>, bool)> = Vec::new();
    for game in corpus_games() {
        corpus.push((serde_json::to_vec(&game.snapshot()).unwrap(), true));
        corpus.push((postcard::to_allocvec(&game.snapshot()).unwrap(), false));
    }
    mutate_corpus::<multi::Game>(&corpus, 0x5eed);
}

/// Games of several shapes: empty, entities in one sub-world only, and a busy one with tags,
/// links in both sub-worlds, recycled ids, a queued spawn and handles in components.
fn corpus_games() -> Vec<multi::Game> {
    use multi::*;
    let empty = Game::new();

    let mut small = Game::new();
    for entity in small.spawn_entities(3) {
        small.core.set_health(entity, Health(2));
    }

    let mut busy = Game::new();
    let entities = busy.spawn_entities(8);
    for (index, &entity) in entities.iter().enumerate() {
        busy.core.set_position(
            entity,
            Position {
                x: index as f32,
                y: 0.5,
            },
        );
        if index % 2 == 0 {
            busy.render.set_name(entity, Name(format!("unit {index}")));
            busy.render.add_marker(entity);
        }
    }
    busy.core.set_target(entities[1], Target(Some(entities[2])));
    busy.core.set_block(entities[3], Block([3; 8]));
    busy.core.add_player(entities[0]);
    busy.render.add_hidden(entities[4]);
    busy.render.add_frozen(entities[4]);
    busy.core.set_child_of(entities[1], entities[0]).unwrap();
    busy.core.set_child_of(entities[5], entities[1]).unwrap();
    busy.render.set_owned_by(entities[6], entities[4]).unwrap();
    busy.render.set_owned_by(entities[7], entities[4]).unwrap();
    busy.despawn(entities[2]);
    busy.spawn();
    busy.commands().queue_spawn_entities(2);
    busy.resources.frame = 7;
    busy.resources.focus = Some(entities[4]);
    busy.step();
    busy.render.increment_tick();
    vec![empty, small, busy]
}

/// Mutates every entry of `corpus` (snapshots of `T`, each JSON or not) and loads every
/// mutant: `Ok` and sound or refused, never a panic, within the allocation cap.
fn mutate_corpus<T: Loaded>(corpus: &[(Vec<u8>, bool)], seed: u64) {
    let per_entry = mutations_per_entry();
    let (mut loaded, mut refused) = (0, 0);
    // The largest peak seen, and the input length it came with.
    let mut largest = (0u64, 0usize);
    for (index, (valid, json)) in corpus.iter().enumerate() {
        assert_eq!(
            check_measured::<T>(valid, *json, "the corpus").0,
            Outcome::Loaded,
            "corpus entry {index} loads"
        );
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed ^ index as u64);
        for mutant_index in 0..per_entry {
            let mutant = mutate(valid, *json, &mut rng);
            let what = format!("corpus entry {index}, mutant {mutant_index}");
            let (outcome, held) = check_measured::<T>(&mutant, *json, &what);
            match outcome {
                Outcome::Loaded => loaded += 1,
                Outcome::Refused => refused += 1,
            }
            if held > largest.0 {
                largest = (held, mutant.len());
            }
        }
    }
    eprintln!(
        "{} mutants: {loaded} loaded soundly, {refused} refused; the most held at once: {} bytes, for a {}-byte input",
        loaded + refused,
        largest.0,
        largest.1
    );
    assert!(
        refused > 0 && loaded > 0,
        "the mutations reach both outcomes"
    );
}

/// Every byte of a game's postcard snapshot in turn replaced by a huge varint: whichever length
/// or count it lands on (the game's runs and free list, the sub-world map, a sub-world's
/// tables, ids, columns, tags or links), the load is refused or sound, within the cap.
#[test]
fn huge_declared_lengths_in_a_game_snapshot_are_refused_without_allocating_for_them() {
    let game = &corpus_games()[2];
    let valid = postcard::to_allocvec(&game.snapshot()).unwrap();
    for position in 0..valid.len() {
        for huge in [
            &[0xff, 0xff, 0xff, 0xff, 0x0f][..],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ] {
            let mut mutant = valid.clone();
            mutant.splice(position..position + 1, huge.iter().copied());
            check_measured::<multi::Game>(
                &mutant,
                false,
                &format!("huge value at byte {position}"),
            );
        }
    }
}

/// The hostile shapes named one by one: every length or count of a snapshot declared huge, in
/// a snapshot of a few bytes, is refused without allocating for it.
#[test]
fn huge_declared_lengths_are_refused_without_allocating_for_them() {
    let mut world = World::new();
    world.spawn_entities(POSITION | MARKER, 2);
    world.spawn(NAME | PLAYER);
    run_systems(&mut world, 2);
    let valid = postcard::to_allocvec(&world.snapshot()).unwrap();
    assert_eq!(check(&valid, false, "the valid snapshot"), Outcome::Loaded);
    // Every byte in turn replaced by a varint of u32::MAX or u64::MAX: whichever length or
    // count it lands on (generations, free list, tables, ids, a column, tags), the load is
    // refused or sound, within the cap.
    for position in 0..valid.len() {
        for huge in [
            &[0xff, 0xff, 0xff, 0xff, 0x0f][..],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        ] {
            let mut mutant = valid.clone();
            mutant.splice(position..position + 1, huge.iter().copied());
            check(&mutant, false, &format!("huge value at byte {position}"));
        }
    }
}

/// Generations are saved as runs (`[generation, count]`): a run is a claim of `count` ids in a
/// few bytes. Runs that claim more ids than the snapshot lists are refused before anything is
/// allocated for them, in either format.
#[test]
fn generation_runs_claiming_billions_of_ids_are_refused_without_allocating_for_them() {
    let mut world = World::new();
    world.spawn_entities(POSITION, 2);
    let json = serde_json::to_string(&world.snapshot()).unwrap();
    let runs = r#""generations":[[0,2]]"#;
    assert!(json.contains(runs), "{json}");
    for claim in [
        r#""generations":[[0,4294967295]]"#,
        r#""generations":[[0,4294967295],[1,4294967295],[0,4294967295]]"#,
        r#""generations":[[0,2],[4294967295,4294967295]]"#,
    ] {
        let mutant = json.replace(runs, claim);
        assert_eq!(check(mutant.as_bytes(), true, claim), Outcome::Refused);
    }
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    // postcard: version, tick, last_tick, then one run (0, 2) of the generations.
    assert_eq!(bytes[..6], [7, 1, 0, 1, 0, 2]);
    let mut mutant = bytes.clone();
    mutant.splice(5..6, [0xff, 0xff, 0xff, 0xff, 0x0f]);
    assert_eq!(
        check(&mutant, false, "a run of u32::MAX ids"),
        Outcome::Refused
    );
}

/// A table that lists its ids and then leaves its columns empty (short columns are refused
/// once the whole snapshot is read): the columns read meanwhile hold what their values take,
/// not a reservation per row of the table, so many wide columns cannot turn an id list into
/// many times its size in memory.
#[test]
fn empty_columns_of_a_long_table_are_refused_without_reserving_for_its_rows() {
    let mut world = World::new();
    world.spawn_entities(
        POSITION | HEALTH | NAME | TARGET | BLOCK_A | BLOCK_B | BLOCK_C | BLOCK_D,
        10_000,
    );
    // The table rewritten in place, `entities` first as `snapshot()` writes it (the loader
    // refuses a column before it), then the eight columns, empty.
    let json = serde_json::to_string(&world.snapshot()).unwrap();
    let table_start = json.find(r#""tables":[{"#).unwrap() + r#""tables":["#.len();
    let mut depth = 0;
    let table_end = table_start
        + json[table_start..]
            .char_indices()
            .find(|&(_, character)| {
                match character {
                    '{' | '[' => depth += 1,
                    '}' | ']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .unwrap()
            .0
        + 1;
    let table: serde_json::Value = serde_json::from_str(&json[table_start..table_end]).unwrap();
    let columns = table
        .as_object()
        .unwrap()
        .keys()
        .filter(|name| *name != "entities");
    let emptied: Vec<String> = columns.map(|name| format!(r#""{name}":[]"#)).collect();
    assert_eq!(emptied.len(), 8);
    let rewritten = format!(
        r#"{{"entities":{},{}}}"#,
        table["entities"],
        emptied.join(",")
    );
    let mutant = format!("{}{rewritten}{}", &json[..table_start], &json[table_end..]);
    let mutant = mutant.into_bytes();
    assert_eq!(
        check(&mutant, true, "eight empty columns of a 10,000-row table"),
        Outcome::Refused
    );
}
