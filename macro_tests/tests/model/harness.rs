//! The harness: runs a sequence against the world and the model side by side.

use super::*;

thread_local! {
    /// Set while [`quietly`] runs: the panic hook stays silent on this thread.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic (in the world or in the harness) into an error, without the panic
/// hook printing it: shrinking replays a failing case many times.
pub(crate) fn quietly(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
    QUIET.with(|quiet| quiet.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|quiet| quiet.set(false));
    result.unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|message| message.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a non-string panic".to_owned());
        Err(format!("panicked: {message}"))
    })
}

macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

/// The values of an `Op::Builder`, the last of each component (later ones win, as in the
/// builder).
#[derive(Default)]
pub(crate) struct HeldValues {
    pub(crate) health: Option<Health>,
    pub(crate) level: Option<Level>,
    pub(crate) name: Option<Name>,
    pub(crate) pos: Option<Pos>,
    pub(crate) flags: Option<Flags>,
    pub(crate) scratch: Option<Scratch>,
}

impl HeldValues {
    pub(crate) fn put(&mut self, value: Value) {
        match value {
            Value::Health(value) => self.health = Some(value),
            Value::Level(value) => self.level = Some(value),
            Value::Name(value) => self.name = Some(value),
            Value::Pos(value) => self.pos = Some(value),
            Value::Flags(value) => self.flags = Some(value),
            Value::Scratch(value) => self.scratch = Some(value),
        }
    }
}

/// Runs `$finish` on a builder given each value `$held` holds. A builder's type records the
/// values it holds, so every combination is its own chain of `with_*` calls: one `match` per
/// component, nested.
macro_rules! with_held_values {
    ($builder:expr, $held:ident, |$name:ident| $finish:block;) => {{
        let $name = $builder;
        $finish
    }};
    (
        $builder:expr, $held:ident, |$name:ident| $finish:block;
        $field:ident $with:ident $(, $rest:ident $rest_with:ident)*
    ) => {
        match $held.$field.take() {
            Some(value) => with_held_values!(
                $builder.$with(value), $held, |$name| $finish; $($rest $rest_with),*
            ),
            None => with_held_values!($builder, $held, |$name| $finish; $($rest $rest_with),*),
        }
    };
}

macro_rules! ensure_eq {
    ($left:expr, $right:expr, $($arg:tt)+) => {{
        let (left, right) = (&$left, &$right);
        if left != right {
            return Err(format!(
                "{}\n  world: {:?}\n  model: {:?}",
                format!($($arg)+),
                left,
                right
            ));
        }
    }};
}

/// Compares a channel of the world with its model: `len`, `is_empty`, every stored item in
/// order, and every cursor's unread count.
pub(crate) fn check_channel<E: Clone + PartialEq + std::fmt::Debug>(
    what: &str,
    channel: &EventChannel<E>,
    cursors: &[EventCursor; CURSORS],
    model: &ModelChannel<E>,
) -> Result<(), String> {
    let stored: Vec<&E> = model.stored().collect();
    ensure_eq!(channel.len(), stored.len(), "{what}: len");
    ensure_eq!(channel.is_empty(), stored.is_empty(), "{what}: is_empty");
    ensure!(
        channel.read().eq(stored.iter().copied()),
        "{what}: stored items\n  world: {:?}\n  model: {stored:?}",
        channel.read().collect::<Vec<_>>()
    );
    for (k, cursor) in cursors.iter().enumerate() {
        ensure_eq!(
            channel.unread_count(cursor),
            model.unread_count(k),
            "{what}: unread_count of cursor {k} ({cursor:?}, model {:?})",
            model.cursors[k]
        );
    }
    Ok(())
}

/// How much a check covers: the cheap state is always compared in full; the query masks
/// rotate with the step number (so over a run every mask is covered), and a `Full` check
/// (after the last step of a sequence, and after every step of the fixed sequence) covers
/// every query mask and every column iterator.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Depth {
    Step(usize),
    Full,
}

/// Include masks checked through `query_entities`: two of them in turn after every step, besides
/// the rotating ones.
pub(crate) const CHECKED_INCLUDES: [u64; 6] = [0, HEALTH | NAME, POS, ALL, HERO, POS | MARKED];

/// Include / exclude pairs checked through `for_each` and the query builder: all of them in a
/// `Full` check; after every step `(0, 0)` (every row of every table against the model,
/// through `for_each`) and, alternating, one of these in turn or a pair derived from the step
/// number.
pub(crate) const CHECKED_PAIRS: [(u64, u64); 14] = [
    (0, 0),
    (HEALTH, 0),
    (NAME, LEVEL),
    (HEALTH | POS, FLAGS),
    (LEVEL | FLAGS, 0),
    (0, NAME | POS),
    (ALL, 0),
    (POS, POS),
    (HERO, 0),
    (0, HERO),
    (POS | MARKED, HERO),
    (HEALTH, MARKED),
    (TAGS, FLAGS),
    (HERO, HERO | NAME),
];

/// Masks checked through `has_components` for every known handle.
pub(crate) const CHECKED_MASKS: [u64; 7] = [
    0,
    HEALTH | NAME,
    POS | FLAGS | LEVEL,
    ALL,
    HERO,
    POS | MARKED,
    EVERY,
];

#[derive(Clone)]
pub(crate) struct Harness {
    pub(crate) world: World,
    pub(crate) model: HashMap<Entity, ModelEntity>,
    /// Every handle the world ever returned, in issue order.
    pub(crate) issued: Vec<Entity>,
    pub(crate) issued_set: HashSet<Entity>,
    /// Every handle `queue_spawn_entities` ever reserved (spawned, pending or released).
    pub(crate) reserved: Vec<Entity>,
    /// The reserved handles not (yet) spawned: pending or released by `clear_commands`.
    pub(crate) reserved_set: HashSet<Entity>,
    /// The reserved handles whose spawn is still queued.
    pub(crate) pending: HashSet<Entity>,
    /// The model's command queue, in order.
    pub(crate) queue: Vec<ModelCommand>,
    /// The model's current tick and the tick of the last `step()`.
    pub(crate) tick: ModelTick,
    pub(crate) last_tick: ModelTick,
    /// Ticks remembered by consumers: the current tick before every `step` / `increment_tick`.
    pub(crate) remembered: Vec<ModelTick>,
    /// The frame number: how many `step()`s so far (events are stamped with it).
    pub(crate) frame: u64,
    /// The event channels and the change log, as the model keeps them.
    pub(crate) hits: ModelChannel<Hit>,
    pub(crate) notes: ModelChannel<Note>,
    pub(crate) log: ModelChannel<StructuralChange<u64>>,
    /// Whether the change log records (the model of `enable_change_log` / `disable_...`).
    pub(crate) logging: bool,
    /// The handles the current operation targeted (checked in full after it).
    pub(crate) touched: RefCell<Vec<Entity>>,
    /// The world's cursors, one set per channel and for the change log.
    pub(crate) hit_cursors: [EventCursor; CURSORS],
    pub(crate) note_cursors: [EventCursor; CURSORS],
    pub(crate) log_cursors: [EventCursor; CURSORS],
    /// The model of `world.resources.counter`.
    pub(crate) counter: i64,
    /// The harness as `SaveClone` left it: the world's `clone()` and a copy of the model (with
    /// the queue given back, as a clone does); `Restore` rolls both back to it.
    pub(crate) saved: Option<Box<Harness>>,
}

/// A queued command, as the model keeps it.
#[derive(Clone, Debug)]
pub(crate) enum ModelCommand {
    Spawn(u64, Vec<Entity>),
    /// A spawn with values: `queue_spawn` of a builder (one value, the mask's other
    /// components defaulted), or one tuple of `queue_spawn_values`.
    SpawnBuilt(u64, Entity, Vec<Value>),
    Despawn(Entity),
    Add(Entity, u64),
    Remove(Entity, u64),
    Set(Entity, Value),
}

impl Harness {
    pub(crate) fn new() -> Self {
        let mut world = World::new();
        world.events.note = EventChannel::with_capacity_limit(NOTE_LIMIT);
        world.enable_change_log(LOG_CAPACITY);
        // The starting ticks are the world's choice; from there on the model counts them.
        let (tick, last_tick) = (
            ModelTick::from_world(world.current_tick()),
            ModelTick::from_world(world.last_tick()),
        );
        Harness {
            world,
            model: HashMap::new(),
            issued: Vec::new(),
            issued_set: HashSet::new(),
            reserved: Vec::new(),
            reserved_set: HashSet::new(),
            pending: HashSet::new(),
            queue: Vec::new(),
            tick,
            last_tick,
            remembered: vec![last_tick],
            frame: 0,
            hits: ModelChannel::new(None),
            notes: ModelChannel::new(Some(NOTE_LIMIT)),
            log: ModelChannel::new(Some(LOG_CAPACITY)),
            logging: true,
            touched: RefCell::new(Vec::new()),
            hit_cursors: [EventCursor::new(); CURSORS],
            note_cursors: [EventCursor::new(); CURSORS],
            log_cursors: [EventCursor::new(); CURSORS],
            counter: 0,
            saved: None,
        }
    }

    /// Records a structural change in the model's log, as the world does: only while logging,
    /// and never an addition or removal of nothing.
    pub(crate) fn log_change(&mut self, change: StructuralChange<u64>) {
        let empty = matches!(
            change,
            StructuralChange::Added { mask: 0, .. } | StructuralChange::Removed { mask: 0, .. }
        );
        if self.logging && !empty {
            self.log.send(change, self.frame);
        }
    }

    /// Adds the components and tags of `mask` to a live model entity, stamping the added
    /// components with `now`, and logs what it gained (the components, then the tags: the
    /// world records them as two entries). `false` for a dead handle.
    pub(crate) fn m_add(&mut self, entity: Entity, mask: u64, now: ModelTick) -> bool {
        let Some(components) = self.model.get_mut(&entity) else {
            return false;
        };
        let Some((gone, gained)) = rules::addition(components.mask(), mask) else {
            return false;
        };
        components.remove_all(gone);
        components.add_defaults(gained, now);
        let before = components.mask();
        components.add_defaults(mask & TAGS, now);
        let gained_tags = components.mask() & !before;
        self.log_components(entity, gone, gained);
        self.log_change(StructuralChange::Added {
            entity,
            mask: gained_tags,
        });
        true
    }

    /// Logs a migration that removed the components `gone` and added `gained`: a removal, an
    /// addition, or a switch (the removal first, then the addition).
    pub(crate) fn log_components(&mut self, entity: Entity, gone: u64, gained: u64) {
        self.log_change(StructuralChange::Removed { entity, mask: gone });
        self.log_change(StructuralChange::Added {
            entity,
            mask: gained,
        });
    }

    /// Removes the components and tags of `mask` from a live model entity and logs what it
    /// lost (components, with those the rules remove with them, then tags). `false` for a dead
    /// handle, or a removal the rules refuse (nothing changes then).
    pub(crate) fn m_remove(&mut self, entity: Entity, mask: u64) -> bool {
        let Some(components) = self.model.get_mut(&entity) else {
            return false;
        };
        let Some(gone) = rules::removal(components.mask(), mask) else {
            return false;
        };
        let before = components.mask();
        components.remove_all(gone | (mask & TAGS));
        let lost = before & !components.mask();
        self.log_change(StructuralChange::Removed {
            entity,
            mask: lost & ALL,
        });
        self.log_change(StructuralChange::Removed {
            entity,
            mask: lost & TAGS,
        });
        true
    }

    /// Writes `value` to a live model entity (adding the component if missing, with what the
    /// rules add or remove, which is logged) and stamps it. `false` for a dead handle, or an
    /// addition the rules refuse (nothing written then).
    pub(crate) fn m_set(&mut self, entity: Entity, value: Value, now: ModelTick) -> bool {
        let Some(components) = self.model.get_mut(&entity) else {
            return false;
        };
        let bit = value.comp().bit();
        let (gone, gained) = if components.mask() & bit == 0 {
            let Some(change) = rules::addition(components.mask(), bit) else {
                return false;
            };
            change
        } else {
            (0, 0)
        };
        components.remove_all(gone);
        components.add_defaults(gained, now);
        components.put(value);
        components.stamp(bit, now);
        self.log_components(entity, gone, gained);
        true
    }

    /// Despawns a live model entity, logged. `false` for a dead handle.
    pub(crate) fn m_despawn(&mut self, entity: Entity) -> bool {
        let despawned = self.model.remove(&entity).is_some();
        if despawned {
            self.log_change(StructuralChange::Despawned { entity });
        }
        despawned
    }

    /// Runs `ops`, checking the world against the model after each (see [`Depth`]).
    pub(crate) fn run(ops: &[Op], full_every_step: bool) -> Result<(), String> {
        let mut harness = Harness::new();
        harness
            .check_all(Depth::Full)
            .map_err(|error| format!("before any op: {error}"))?;
        for (step, op) in ops.iter().enumerate() {
            let depth = if full_every_step {
                Depth::Full
            } else {
                Depth::Step(step)
            };
            quietly(|| {
                harness.apply(op)?;
                harness.check_all(depth)?;
                harness.check_ticks(depth)?;
                harness.check_events()
            })
            .map_err(|error| format!("step {step} ({op:?}): {error}"))?;
        }
        quietly(|| {
            harness.check_all(Depth::Full)?;
            harness.check_ticks(Depth::Full)?;
            harness.check_events()
        })
        .map_err(|error| format!("after the last step: {error}"))
    }

    pub(crate) fn live_sorted(&self) -> Vec<Entity> {
        let mut live: Vec<Entity> = self.model.keys().copied().collect();
        live.sort();
        live
    }

    /// A handle the world never issued.
    pub(crate) fn never_issued(&self, choice: usize) -> Entity {
        let known = || self.issued.iter().chain(&self.reserved);
        let next_id = known().map(|e| e.id + 1).max().unwrap_or(0);
        match choice % 4 {
            0 => Entity::new(next_id, 0),
            1 if !self.issued.is_empty() => {
                let id = self.issued[(choice / 4) % self.issued.len()].id;
                let newest = known()
                    .filter(|e| e.id == id)
                    .map(|e| e.generation)
                    .max()
                    .unwrap_or(0);
                Entity::new(id, newest + 1)
            }
            2 => Entity::PLACEHOLDER,
            _ => Entity::new(next_id + 5, 2),
        }
    }

    pub(crate) fn resolve(&self, target: &Target) -> Result<Entity, String> {
        let entity = match *target {
            Target::Any(index) if !self.issued.is_empty() => self.issued[index % self.issued.len()],
            Target::Reserved(index) if !self.reserved.is_empty() => {
                self.reserved[index % self.reserved.len()]
            }
            Target::Live(index) if !self.model.is_empty() => {
                let live = self.live_sorted();
                live[index % live.len()]
            }
            Target::Live(index) if !self.issued.is_empty() => {
                self.issued[index % self.issued.len()]
            }
            Target::Any(index)
            | Target::Live(index)
            | Target::Never(index)
            | Target::Reserved(index) => {
                let entity = self.never_issued(index);
                ensure!(
                    !self.issued_set.contains(&entity) && !self.reserved_set.contains(&entity),
                    "harness bug: {entity:?} was issued"
                );
                entity
            }
        };
        self.touched.borrow_mut().push(entity);
        Ok(entity)
    }

    /// Records a handle a queued spawn (`what`) just reserved: never one issued or reserved
    /// before.
    pub(crate) fn note_reserved(&mut self, entity: Entity, what: &str) -> Result<(), String> {
        ensure!(
            !self.issued_set.contains(&entity)
                && !self.reserved_set.contains(&entity)
                && !self.model.contains_key(&entity),
            "{what} reserved {entity:?}, a handle issued before"
        );
        self.reserved.push(entity);
        self.reserved_set.insert(entity);
        self.pending.insert(entity);
        Ok(())
    }

    /// Records a reserved handle `apply_commands` just spawned.
    pub(crate) fn register_reserved(
        &mut self,
        entity: Entity,
        components: ModelEntity,
    ) -> Result<(), String> {
        ensure!(
            self.pending.remove(&entity),
            "harness bug: {entity:?} is not a pending reserved handle"
        );
        self.reserved_set.remove(&entity);
        self.register(entity, components)
    }

    /// Records a handle the world just returned from a spawn.
    pub(crate) fn register(
        &mut self,
        entity: Entity,
        components: ModelEntity,
    ) -> Result<(), String> {
        ensure!(
            !self.issued_set.contains(&entity),
            "spawn returned {entity:?}, a handle issued before (generation not bumped?)"
        );
        ensure!(
            !self.model.contains_key(&entity),
            "spawn returned {entity:?}, a live entity"
        );
        ensure!(
            !self.reserved_set.contains(&entity),
            "spawn returned {entity:?}, a handle reserved by queue_spawn_entities"
        );
        let mut components = components;
        components.stamp_all(self.tick);
        self.log_change(StructuralChange::Spawned {
            entity,
            mask: components.mask(),
        });
        self.issued.push(entity);
        self.issued_set.insert(entity);
        self.model.insert(entity, components);
        Ok(())
    }
}

// After the macros above: a module sees the macros defined before its declaration.
mod apply;
mod checks;
