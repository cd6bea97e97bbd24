//! The `ops` fuzz target's body: the input bytes are decoded into a sequence of world
//! operations (spawns, despawns, sets, migrations, tags, commands, events, ticks, mutating
//! passes), run against an `ecs!` world and, side by side, against a plain reference model.
//! Every return value is compared with the model's; after every operation `check_invariants`
//! must hold and the entities the operation touched must match the model; after the last one
//! every handle ever issued, every table row, every tag set, the event channel and the
//! changed-since queries are compared in full. Any panic or failed assertion is a finding.
//!
//! `fuzz_targets/ops.rs` hands libFuzzer's inputs to [`run`]; `macro_tests/tests/fuzz_replay.rs`
//! replays `fuzz/seeds/ops/` and `fuzz/corpus/ops/` through it on stable. How to run and
//! replay: `fuzz/README.md`.

use std::collections::{BTreeMap, HashMap};

use archetypal::{Entity, EventCursor, Tick};

archetypal::ecs! {
    FuzzWorld {
        count: u32 => COUNT,
        label: String => LABEL,
        bytes: Vec<u8> => BYTES,
        pair: (i16, i16) => PAIR,
        scratch: u8 => SCRATCH [untracked],
    }
    Tags {
        red => RED,
        blue => BLUE,
    }
    Events {
        ping: u32,
    }
}

const COMPONENTS: u64 = COUNT | LABEL | BYTES | PAIR | SCRATCH;
const TRACKED: u64 = COMPONENTS & !SCRATCH;
const TAGS: u64 = RED | BLUE;
const EVERY: u64 = COMPONENTS | TAGS;
const CURSORS: usize = 3;

/// One component value.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Count(u32),
    Label(String),
    Bytes(Vec<u8>),
    Pair((i16, i16)),
    Scratch(u8),
}

impl Value {
    fn bit(&self) -> u64 {
        match self {
            Value::Count(_) => COUNT,
            Value::Label(_) => LABEL,
            Value::Bytes(_) => BYTES,
            Value::Pair(_) => PAIR,
            Value::Scratch(_) => SCRATCH,
        }
    }
}

/// A live entity of the model.
#[derive(Clone, Debug, Default, PartialEq)]
struct Model {
    count: Option<u32>,
    label: Option<String>,
    bytes: Option<Vec<u8>>,
    pair: Option<(i16, i16)>,
    scratch: Option<u8>,
    tags: u64,
    /// The tick of the last write of each tracked component, by bit index.
    stamps: [u32; 5],
}

fn bit_index(bit: u64) -> usize {
    bit.trailing_zeros() as usize
}

impl Model {
    fn mask(&self) -> u64 {
        let mut mask = self.tags;
        mask |= if self.count.is_some() { COUNT } else { 0 };
        mask |= if self.label.is_some() { LABEL } else { 0 };
        mask |= if self.bytes.is_some() { BYTES } else { 0 };
        mask |= if self.pair.is_some() { PAIR } else { 0 };
        mask |= if self.scratch.is_some() { SCRATCH } else { 0 };
        mask
    }

    fn put(&mut self, value: Value, now: u32) {
        self.stamps[bit_index(value.bit())] = now;
        match value {
            Value::Count(v) => self.count = Some(v),
            Value::Label(v) => self.label = Some(v),
            Value::Bytes(v) => self.bytes = Some(v),
            Value::Pair(v) => self.pair = Some(v),
            Value::Scratch(v) => self.scratch = Some(v),
        }
    }

    /// Adds defaults for the missing components of `mask` (stamped `now`) and its tags.
    fn add(&mut self, mask: u64, now: u32) {
        let missing = mask & COMPONENTS & !self.mask();
        if missing & COUNT != 0 {
            self.put(Value::Count(0), now);
        }
        if missing & LABEL != 0 {
            self.put(Value::Label(String::new()), now);
        }
        if missing & BYTES != 0 {
            self.put(Value::Bytes(Vec::new()), now);
        }
        if missing & PAIR != 0 {
            self.put(Value::Pair((0, 0)), now);
        }
        if missing & SCRATCH != 0 {
            self.put(Value::Scratch(0), now);
        }
        self.tags |= mask & TAGS;
    }

    fn remove(&mut self, mask: u64) {
        if mask & COUNT != 0 {
            self.count = None;
        }
        if mask & LABEL != 0 {
            self.label = None;
        }
        if mask & BYTES != 0 {
            self.bytes = None;
        }
        if mask & PAIR != 0 {
            self.pair = None;
        }
        if mask & SCRATCH != 0 {
            self.scratch = None;
        }
        self.tags &= !mask;
    }

    /// Stamps the components of `mask` the entity holds as written `now`.
    fn stamp(&mut self, mask: u64, now: u32) {
        let present = mask & self.mask();
        for (i, stamp) in self.stamps.iter_mut().enumerate() {
            if present & (1 << i) != 0 {
                *stamp = now;
            }
        }
    }

    fn changed_since(&self, include: u64, since: u32) -> bool {
        let bits = include & TRACKED & self.mask();
        (0..5).any(|i| bits & (1 << i) != 0 && Tick(self.stamps[i]).is_newer_than(Tick(since)))
    }
}

/// Reads the fuzz input a byte at a time; past the end every read is 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&first, rest)) => {
                self.0 = rest;
                first
            }
            None => 0,
        }
    }

    fn mask(&mut self) -> u64 {
        u64::from(self.byte()) & EVERY
    }

    /// One of the two tags, by the next byte.
    fn tag(&mut self) -> u64 {
        if self.byte().is_multiple_of(2) {
            RED
        } else {
            BLUE
        }
    }

    fn value(&mut self) -> Value {
        let (kind, x) = (self.byte(), self.byte());
        match kind % 5 {
            0 => Value::Count(u32::from(x) * 1_000),
            1 => Value::Label(format!("l{x}")),
            2 => Value::Bytes(vec![x; usize::from(x % 4)]),
            3 => Value::Pair((i16::from(x), -i16::from(x))),
            _ => Value::Scratch(x),
        }
    }
}

/// A queued command as the model keeps it.
enum Queued {
    Spawn(u64, Vec<Entity>),
    /// `queue_spawn` of a builder holding the value, with the mask's tags and default
    /// components besides.
    SpawnBuilt(u64, Entity, Value),
    Despawn(Entity),
    Add(Entity, u64),
    Remove(Entity, u64),
    Set(Entity, Value),
}

struct Harness {
    world: FuzzWorld,
    model: HashMap<Entity, Model>,
    /// Every handle the world returned (spawned or reserved), in order.
    issued: Vec<Entity>,
    queue: Vec<Queued>,
    tick: u32,
    last_tick: u32,
    /// Every `ping` ever sent: (value, still stored, frame sent).
    pings: Vec<(u32, bool, u64)>,
    frame: u64,
    /// Per cursor: `None` while fresh, else how many pings it has passed.
    model_cursors: [Option<usize>; CURSORS],
    cursors: [EventCursor; CURSORS],
    touched: Vec<Entity>,
}

impl Harness {
    fn new() -> Self {
        let world = FuzzWorld::new();
        let (tick, last_tick) = (world.current_tick().0, world.last_tick().0);
        Harness {
            world,
            model: HashMap::new(),
            issued: Vec::new(),
            queue: Vec::new(),
            tick,
            last_tick,
            pings: Vec::new(),
            frame: 0,
            model_cursors: [None; CURSORS],
            cursors: [EventCursor::new(); CURSORS],
            touched: Vec::new(),
        }
    }

    /// A handle to operate on: an issued one (live, dead, stale or reserved) or one the world
    /// never issued.
    fn target(&mut self, input: &mut Bytes<'_>) -> Entity {
        let choice = input.byte();
        let entity = if choice < 200 && !self.issued.is_empty() {
            self.issued[usize::from(choice) % self.issued.len()]
        } else {
            let next = self.issued.iter().map(|e| e.id + 1).max().unwrap_or(0);
            match choice % 4 {
                0 => Entity::new(next + u32::from(choice), 0),
                1 => Entity::PLACEHOLDER,
                2 => Entity::new(u32::from(choice % 8), u32::MAX - 1),
                _ => Entity::new(next, 7),
            }
        };
        self.touched.push(entity);
        entity
    }

    fn spawned(&mut self, entity: Entity, mut model: Model) {
        assert!(!self.model.contains_key(&entity), "{entity} issued twice");
        model.stamps = [self.tick; 5];
        self.issued.push(entity);
        self.touched.push(entity);
        self.model.insert(entity, model);
    }

    fn model_set(&mut self, entity: Entity, value: Value) -> bool {
        let now = self.tick;
        self.model
            .get_mut(&entity)
            .map(|m| m.put(value, now))
            .is_some()
    }

    fn model_add(&mut self, entity: Entity, mask: u64) -> bool {
        let now = self.tick;
        self.model
            .get_mut(&entity)
            .map(|m| m.add(mask, now))
            .is_some()
    }

    fn model_remove(&mut self, entity: Entity, mask: u64) -> bool {
        self.model
            .get_mut(&entity)
            .map(|m| m.remove(mask))
            .is_some()
    }

    fn world_set(&mut self, entity: Entity, value: Value) -> bool {
        match value {
            Value::Count(v) => self.world.set_count(entity, v),
            Value::Label(v) => self.world.set_label(entity, v),
            Value::Bytes(v) => self.world.set_bytes(entity, v),
            Value::Pair(v) => self.world.set_pair(entity, v),
            Value::Scratch(v) => self.world.set_scratch(entity, v),
        }
    }

    fn apply(&mut self, input: &mut Bytes<'_>) {
        self.touched.clear();
        let now = self.tick;
        match input.byte() % 30 {
            0 | 1 => {
                let mask = input.mask();
                let entity = self.world.spawn(mask);
                let mut model = Model::default();
                model.add(mask, now);
                self.spawned(entity, model);
            }
            2 => {
                let (mask, count, seed) =
                    (input.mask(), usize::from(input.byte() % 5), input.byte());
                let entities = self.world.spawn_batch(mask, count, |view, row| {
                    if mask & COUNT != 0 {
                        view.count[row] = u32::from(seed) + row as u32;
                    }
                    if mask & BYTES != 0 {
                        view.bytes[row] = vec![seed];
                    }
                });
                assert_eq!(entities.len(), count);
                for entity in entities {
                    let mut model = Model::default();
                    model.add(mask, now);
                    let row = self.world.locate(entity).unwrap().row();
                    if mask & COUNT != 0 {
                        model.count = Some(u32::from(seed) + row as u32);
                    }
                    if mask & BYTES != 0 {
                        model.bytes = Some(vec![seed]);
                    }
                    self.spawned(entity, model);
                }
            }
            3 | 4 => {
                let entity = self.target(input);
                let expected = self.model.remove(&entity).is_some();
                assert_eq!(self.world.despawn(entity), expected, "despawn {entity}");
            }
            5 => {
                let targets: Vec<Entity> =
                    (0..input.byte() % 4).map(|_| self.target(input)).collect();
                let expected: Vec<Entity> = targets
                    .iter()
                    .copied()
                    .filter(|e| self.model.remove(e).is_some())
                    .collect();
                assert_eq!(self.world.despawn_entities(&targets), expected);
            }
            6..=8 => {
                let (entity, value) = (self.target(input), input.value());
                let expected = self.model_set(entity, value.clone());
                assert_eq!(self.world_set(entity, value), expected, "set {entity}");
            }
            9 => {
                let (entity, mask) = (self.target(input), input.mask());
                let expected = self.model_add(entity, mask);
                assert_eq!(self.world.add_components(entity, mask), expected);
            }
            10 => {
                let (entity, mask) = (self.target(input), input.mask());
                let expected = self.model_remove(entity, mask);
                assert_eq!(self.world.remove_components(entity, mask), expected);
            }
            11 => {
                let entity = self.target(input);
                let expected = self.model.get_mut(&entity).and_then(|m| m.label.take());
                assert_eq!(self.world.remove_label(entity), expected);
            }
            12 => {
                let entity = self.target(input);
                let expected = self.model.get_mut(&entity).and_then(|m| m.pair.take());
                assert_eq!(self.world.remove_pair(entity), expected);
            }
            13 => {
                let (entity, tag) = (self.target(input), input.tag());
                let expected = self.model_add(entity, tag);
                let got = if tag == RED {
                    self.world.add_red(entity)
                } else {
                    self.world.add_blue(entity)
                };
                assert_eq!(got, expected);
            }
            14 => {
                let (entity, tag) = (self.target(input), input.tag());
                let expected = self.model_remove(entity, tag);
                let got = if tag == RED {
                    self.world.remove_red(entity)
                } else {
                    self.world.remove_blue(entity)
                };
                assert_eq!(got, expected);
            }
            15 => {
                // get_count_mut: add 1, return the old value.
                let entity = self.target(input);
                let expected = self.model.get_mut(&entity).and_then(|m| {
                    let old = m.count?;
                    m.put(Value::Count(old.wrapping_add(1)), now);
                    Some(old)
                });
                let got = self.world.get_count_mut(entity).map(|c| {
                    let old = *c;
                    *c = c.wrapping_add(1);
                    old
                });
                assert_eq!(got, expected);
            }
            16 => {
                // get_bytes_mut: push a byte.
                let (entity, byte) = (self.target(input), input.byte());
                let expected = self.model.get_mut(&entity).and_then(|m| {
                    let mut bytes = m.bytes.clone()?;
                    bytes.push(byte);
                    m.put(Value::Bytes(bytes), now);
                    Some(())
                });
                let got = self.world.get_bytes_mut(entity).map(|b| b.push(byte));
                assert_eq!(got, expected);
            }
            17 => {
                // A mutating pass. A view that hands out a table mutably cannot see writes, so
                // it stamps every tracked column it hands out over the rows it covers:
                // `for_each_mut` the whole of every table matching the
                // components of the masks, whatever their tags; `for_each_table_mut` only the
                // rows that match, tags included.
                let (include, exclude, kind) =
                    (input.mask() | COUNT, input.mask(), input.byte() % 3);
                let whole_tables = kind != 1;
                let mut expected = Vec::new();
                for (&entity, m) in &mut self.model {
                    let mask = m.mask();
                    let matches = mask & include == include && mask & exclude == 0;
                    let covered = if whole_tables {
                        let components = mask & COMPONENTS;
                        components & include & COMPONENTS == include & COMPONENTS
                            && components & exclude & COMPONENTS == 0
                    } else {
                        matches
                    };
                    if covered {
                        m.stamp(TRACKED, now);
                    }
                    if matches {
                        m.count = m.count.map(|c| c.wrapping_mul(3));
                        expected.push(entity);
                    }
                }
                let mut visited = Vec::new();
                match kind {
                    0 => self
                        .world
                        .for_each_mut(include, exclude, |entity, view, row| {
                            assert_eq!(view.entities[row], entity);
                            view.count[row] = view.count[row].wrapping_mul(3);
                            visited.push(entity);
                        }),
                    1 => self.world.for_each_table_mut(include, exclude, |view| {
                        for (count, &entity) in view.count.iter_mut().zip(view.entities) {
                            *count = count.wrapping_mul(3);
                            visited.push(entity);
                        }
                    }),
                    _ => self
                        .world
                        .for_each_mut(include, exclude, |entity, view, row| {
                            view.count[row] = view.count[row].wrapping_mul(3);
                            visited.push(entity);
                        }),
                }
                visited.sort();
                expected.sort();
                assert_eq!(
                    visited, expected,
                    "mutating pass {include:#b} / {exclude:#b}"
                );
            }
            18 => {
                let (entity, mask) = (self.target(input), input.mask());
                let expected = match self.model.get_mut(&entity) {
                    Some(m) => {
                        let present = m.mask() & COMPONENTS & mask;
                        for i in 0..5 {
                            if present & (1 << i) != 0 {
                                m.stamps[i] = now;
                            }
                        }
                        true
                    }
                    None => false,
                };
                assert_eq!(self.world.mark_changed(entity, mask), expected);
            }
            19 => {
                // Queue a command.
                let kind = input.byte() % 6;
                match kind {
                    0 => {
                        let (mask, count) = (input.mask(), usize::from(input.byte() % 3));
                        let entities = self.world.commands().queue_spawn_entities(mask, count);
                        for &entity in &entities {
                            assert!(!self.world.is_alive(entity));
                            self.issued.push(entity);
                        }
                        self.queue.push(Queued::Spawn(mask, entities));
                    }
                    1 => {
                        let entity = self.target(input);
                        self.world.commands().queue_despawn(entity);
                        self.queue.push(Queued::Despawn(entity));
                    }
                    2 => {
                        let (entity, mask) = (self.target(input), input.mask());
                        self.world.commands().queue_add_components(entity, mask);
                        self.queue.push(Queued::Add(entity, mask));
                    }
                    3 => {
                        let (entity, mask) = (self.target(input), input.mask());
                        self.world.commands().queue_remove_components(entity, mask);
                        self.queue.push(Queued::Remove(entity, mask));
                    }
                    5 => {
                        let (value, extra) = (input.value(), input.mask());
                        let builder = match value.clone() {
                            Value::Count(v) => FuzzWorldEntityBuilder::new().with_count(v),
                            Value::Label(v) => FuzzWorldEntityBuilder::new().with_label(v),
                            Value::Bytes(v) => FuzzWorldEntityBuilder::new().with_bytes(v),
                            Value::Pair(v) => FuzzWorldEntityBuilder::new().with_pair(v),
                            Value::Scratch(v) => FuzzWorldEntityBuilder::new().with_scratch(v),
                        }
                        .with_mask(extra);
                        let mask = builder.mask();
                        assert_eq!(mask, value.bit() | extra);
                        let entity = self.world.commands().queue_spawn(builder);
                        assert!(!self.world.is_alive(entity));
                        self.issued.push(entity);
                        self.queue.push(Queued::SpawnBuilt(mask, entity, value));
                    }
                    _ => {
                        let (entity, value) = (self.target(input), input.value());
                        match value.clone() {
                            Value::Count(v) => self.world.commands().queue_set_count(entity, v),
                            Value::Label(v) => self.world.commands().queue_set_label(entity, v),
                            Value::Bytes(v) => self.world.commands().queue_set_bytes(entity, v),
                            Value::Pair(v) => self.world.commands().queue_set_pair(entity, v),
                            Value::Scratch(v) => self.world.commands().queue_set_scratch(entity, v),
                        }
                        self.queue.push(Queued::Set(entity, value));
                    }
                }
                // Consecutive built spawns of one mask are one entry of the world's queue, and their
                // handles are staged in the order queued.
                let continues = |pair: (&Queued, &Queued)| matches!(pair, (Queued::SpawnBuilt(before, ..), Queued::SpawnBuilt(mask, ..)) if before == mask);
                let entries = self.queue.len()
                    - self
                        .queue
                        .iter()
                        .zip(self.queue.iter().skip(1))
                        .filter(|&pair| continues(pair))
                        .count();
                // Staged by mask, in the order queued within each.
                let mut staged: BTreeMap<u64, Vec<Entity>> = BTreeMap::new();
                for command in &self.queue {
                    if let Queued::SpawnBuilt(mask, entity, _) = command {
                        staged.entry(*mask).or_default().push(*entity);
                    }
                }
                assert_eq!(self.world.command_count(), entries);
                let mut held: BTreeMap<u64, Vec<Entity>> = BTreeMap::new();
                for (entity, mask) in self.world.queued_commands().spawns() {
                    held.entry(mask).or_default().push(entity);
                }
                assert_eq!(held, staged, "staged spawns");
            }
            20 => {
                let (mut applied, mut skipped) = (0, 0);
                for command in std::mem::take(&mut self.queue) {
                    let done = match command {
                        Queued::Spawn(mask, entities) => {
                            for entity in entities {
                                let mut model = Model::default();
                                model.add(mask, now);
                                model.stamps = [now; 5];
                                self.touched.push(entity);
                                self.model.insert(entity, model);
                            }
                            true
                        }
                        Queued::SpawnBuilt(mask, entity, value) => {
                            let mut model = Model::default();
                            model.add(mask, now);
                            model.put(value, now);
                            model.stamps = [now; 5];
                            self.touched.push(entity);
                            self.model.insert(entity, model);
                            true
                        }
                        Queued::Despawn(entity) => self.model.remove(&entity).is_some(),
                        Queued::Add(entity, mask) => self.model_add(entity, mask),
                        Queued::Remove(entity, mask) => self.model_remove(entity, mask),
                        Queued::Set(entity, value) => self.model_set(entity, value),
                    };
                    if done {
                        applied += 1;
                    } else {
                        skipped += 1;
                    }
                }
                let report = self.world.apply_commands();
                assert_eq!((report.applied, report.skipped), (applied, skipped));
            }
            21 => {
                // Released reservations never become alive; they stay in `issued` as dead handles.
                self.queue.clear();
                self.world.clear_commands();
            }
            22 => {
                self.world.step();
                self.last_tick = self.tick;
                self.tick = self.tick.wrapping_add(1);
                let frame = self.frame;
                for ping in self.pings.iter_mut().filter(|p| p.2 < frame) {
                    ping.1 = false;
                }
                self.frame += 1;
            }
            23 => {
                self.tick = self.tick.wrapping_add(1);
                assert_eq!(self.world.increment_tick(), Tick(self.tick));
            }
            24 | 25 => {
                let value = u32::from(input.byte());
                self.world.events.ping.send(value);
                self.pings.push((value, true, self.frame));
            }
            26 => {
                let k = usize::from(input.byte()) % CURSORS;
                let unread =
                    &self.pings[self.model_cursors[k].unwrap_or(0).min(self.pings.len())..];
                let expected: Vec<u32> = unread.iter().filter(|p| p.1).map(|p| p.0).collect();
                let lost = match self.model_cursors[k] {
                    None => 0,
                    Some(_) => unread.iter().filter(|p| !p.1).count() as u64,
                };
                self.model_cursors[k] = Some(self.pings.len());
                let consumed = self.world.events.ping.consume(&mut self.cursors[k]);
                let got: Vec<u32> = consumed.iter().copied().collect();
                assert_eq!(
                    (got, consumed.lost()),
                    (expected, lost),
                    "consume_ping cursor {k}"
                );
            }
            27 => {
                for ping in &mut self.pings {
                    ping.1 = false;
                }
                self.world.events.ping.clear();
            }
            28 => self.world.warm_query(input.mask()),
            _ => {
                let (include, exclude) = (input.mask(), input.mask());
                self.check_query(include, exclude);
            }
        }
    }

    fn check_query(&self, include: u64, exclude: u64) {
        let mut expected: Vec<Entity> = self
            .model
            .iter()
            .filter(|(_, m)| m.mask() & include == include && m.mask() & exclude == 0)
            .map(|(&e, _)| e)
            .collect();
        expected.sort();
        let mut got = Vec::new();
        self.world.for_each(include, exclude, |entity, table, row| {
            assert_eq!(table.entities[row], entity);
            got.push(entity);
        });
        got.sort();
        assert_eq!(got, expected, "for_each {include:#b} / {exclude:#b}");
        let mut got: Vec<Entity> = self.world.query_entities(include).collect();
        got.sort();
        let mut expected: Vec<Entity> = self
            .model
            .iter()
            .filter(|(_, m)| m.mask() & include == include)
            .map(|(&e, _)| e)
            .collect();
        expected.sort();
        assert_eq!(got, expected, "query_entities {include:#b}");
        let mut changed: Vec<Entity> = self
            .world
            .typed_query_ref::<Entity>()
            .changed_since(include, Tick(self.last_tick))
            .iter()
            .collect();
        changed.sort();
        let mut expected: Vec<Entity> = self
            .model
            .iter()
            .filter(|(_, m)| {
                m.mask() & include == include && m.changed_since(include, self.last_tick)
            })
            .map(|(&e, _)| e)
            .collect();
        expected.sort();
        assert_eq!(
            changed, expected,
            "changed since {} {include:#b}",
            self.last_tick
        );
    }

    /// Every accessor of `entity` against the model.
    fn check_entity(&self, entity: Entity) {
        let world = &self.world;
        let model = self.model.get(&entity);
        assert_eq!(world.is_alive(entity), model.is_some(), "is_alive {entity}");
        assert_eq!(
            world.component_mask(entity),
            model.map(Model::mask),
            "mask {entity}"
        );
        assert_eq!(
            world.get_count(entity),
            model.and_then(|m| m.count.as_ref())
        );
        assert_eq!(
            world.get_label(entity),
            model.and_then(|m| m.label.as_ref())
        );
        assert_eq!(
            world.get_bytes(entity),
            model.and_then(|m| m.bytes.as_ref())
        );
        assert_eq!(world.get_pair(entity), model.and_then(|m| m.pair.as_ref()));
        assert_eq!(
            world.get_scratch(entity),
            model.and_then(|m| m.scratch.as_ref())
        );
        let tags = model.map_or(0, |m| m.tags);
        assert_eq!(world.has_red(entity), tags & RED != 0);
        assert_eq!(world.has_blue(entity), tags & BLUE != 0);
        assert_eq!(world.has_components(entity, 0), model.is_some());
    }

    /// After every operation.
    fn check_step(&self) {
        if let Err(error) = self.world.check_invariants() {
            panic!("{error}");
        }
        assert_eq!(self.world.entity_count(), self.model.len());
        assert_eq!(self.world.current_tick(), Tick(self.tick));
        assert_eq!(
            self.world.events.ping.len(),
            self.pings.iter().filter(|p| p.1).count()
        );
        for &entity in &self.touched {
            self.check_entity(entity);
        }
    }

    /// After the last operation.
    fn check_all(&self) {
        self.check_step();
        for &entity in &self.issued {
            self.check_entity(entity);
        }
        let mut live: Vec<Entity> = self.model.keys().copied().collect();
        live.sort();
        assert_eq!(self.world.entities().collect::<Vec<_>>(), live);
        for tag in [RED, BLUE] {
            let mut tagged: Vec<Entity> = if tag == RED {
                self.world.query_entities(RED).collect()
            } else {
                self.world.query_entities(BLUE).collect()
            };
            tagged.sort();
            let expected: Vec<Entity> = live
                .iter()
                .copied()
                .filter(|e| self.model[e].tags & tag != 0)
                .collect();
            assert_eq!(tagged, expected);
        }
        let stored: Vec<u32> = self.pings.iter().filter(|p| p.1).map(|p| p.0).collect();
        assert_eq!(self.world.events.ping.collect(), stored);
        for include in [0, COUNT, LABEL | BYTES, PAIR | RED, TRACKED, SCRATCH, BLUE] {
            self.check_query(include, 0);
            self.check_query(include, RED | SCRATCH);
        }
    }
}

/// Runs the operations `data` decodes to against a world and the model, panicking at the
/// first disagreement.
pub fn run(data: &[u8]) {
    let mut input = Bytes(data);
    let mut harness = Harness::new();
    while !input.0.is_empty() {
        harness.apply(&mut input);
        harness.check_step();
    }
    harness.check_all();
}
