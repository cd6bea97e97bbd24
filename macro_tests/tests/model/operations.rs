//! The operations a generated sequence is made of.

use super::*;

/// How an operation picks its entity.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// `issued[i % len]`: any handle ever issued, live or not.
    Any(usize),
    /// The `i % len`-th live entity (by id); falls back to `Any` when none is alive.
    Live(usize),
    /// A handle the world never issued (a fresh id, a future generation, the placeholder, ...).
    Never(usize),
    /// `reserved[i % len]`: a handle `queue_spawn_entities` reserved (pending, spawned or
    /// released); falls back to `Never` when none was reserved.
    Reserved(usize),
}

/// The `since` tick of a changed-only pass.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Since {
    /// Since the last `step()` (`last_tick()`).
    LastStep,
    /// Since a tick remembered before a `step` / `increment_tick`
    /// (`remembered[i % len]`).
    Remembered(usize),
}

/// How `Mutate` reaches the values.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Via {
    ForEachMut,
    ForEachTableMut,
    ParForEachMut,
    /// A typed query writing the entities with an even id (the others are only read): only
    /// those are reported changed.
    TypedQuery,
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Spawn(u64),
    SpawnEntities(u64, usize),
    SpawnBatch {
        mask: u64,
        count: usize,
        seed: i32,
    },
    /// `spawn_values` of `count` tuples of the shape `SPAWN_VALUES_SHAPES[shape]`, valued as
    /// `SpawnBatch`'s; with `hint_low`, through an iterator whose size hint says 0.
    SpawnValues {
        shape: usize,
        count: usize,
        seed: i32,
        hint_low: bool,
    },
    /// `EntityBuilder` with these values (later ones win); `spawn_one` when `count` is `None`.
    Builder {
        values: Vec<Value>,
        count: Option<usize>,
    },
    Despawn(Target),
    DespawnEntities(Vec<Target>),
    Set(Target, Value),
    Add(Target, Comp),
    Remove(Target, Comp),
    AddComponents(Target, u64),
    RemoveComponents(Target, u64),
    AddTag(Target, Tag),
    RemoveTag(Target, Tag),
    Modify(Target, Value),
    GetMutWrite(Target, Value),
    Mutate {
        include: u64,
        exclude: u64,
        comp: Comp,
        via: Via,
    },
    WarmQuery(u64),
    Query {
        include: u64,
        exclude: u64,
    },
    QueueSpawn(u64, usize),
    /// `queue_spawn` of a builder holding the value, with the mask's tags and default
    /// components besides (`with_mask`).
    QueueSpawnBuilt(Value, u64),
    /// `queue_spawn_values` of `count` tuples of the shape `SPAWN_VALUES_SHAPES[shape]`,
    /// valued as `SpawnValues`'s.
    QueueSpawnValues {
        shape: usize,
        count: usize,
        seed: i32,
    },
    QueueDespawn(Target),
    QueueAddComponents(Target, u64),
    QueueRemoveComponents(Target, u64),
    QueueSet(Target, Value),
    /// `queue_add_<tag>` when `true`, `queue_remove_<tag>` otherwise.
    QueueTag(Target, Tag, bool),
    ApplyCommands,
    ClearCommands,
    Step,
    IncrementTick,
    MarkChanged(Target, u64),
    /// A changed-only mutable pass; the visited entities are compared with the model.
    Changed {
        include: u64,
        exclude: u64,
        since: Since,
    },
    /// `send_hit` / `send_note` with a value derived from the `i32`.
    Send(Channel, i32),
    /// `consume_hit` / `consume_note` through cursor `k % CURSORS` of the channel.
    Consume(Channel, usize),
    /// Replaces cursor `k % CURSORS` by a fresh one (`false`) or by `cursor_at_end()` (`true`).
    ResetCursor(Channel, usize, bool),
    /// `clear_hit` / `clear_note`.
    ClearEvents(Channel),
    /// `enable_change_log(capacity)`: the log goes on with a new capacity (trimming the oldest).
    EnableChangeLog(usize),
    DisableChangeLog,
    /// `consume_changes` through cursor `k % CURSORS`.
    ConsumeChanges(usize),
    /// Replaces change cursor `k % CURSORS` by a fresh one (`false`) or `change_cursor()`.
    ResetChangeCursor(usize, bool),
    /// `trim_changes(keep)`.
    TrimChanges(usize),
    /// `typed_query::<(Entity, &mut C)>().with(include).without(exclude).for_each(..)`, bumping
    /// every value it hands out; the visited entities are compared with the model. With
    /// `optional`, `(Entity, Option<&mut C>)`: every entity of the masks is visited, those with
    /// `C` are bumped.
    TypedWrite {
        include: u64,
        exclude: u64,
        comp: Comp,
        optional: bool,
    },
    /// `typed_query::<(Entity, &C, Option<&Name>)>()` (and `count()`) with these masks: the
    /// rows read are compared with the model.
    TypedRead {
        include: u64,
        exclude: u64,
        comp: Comp,
    },
    /// `world.resources.counter += n`.
    AddToCounter(i64),
    /// Through `split_mut()`: a typed read over `components` adds every `Health` of the
    /// entities matching the mask to `resources.counter` and queues a despawn of those whose
    /// health is negative on `commands` in the same loop, then sends the counter on
    /// `events.hit`.
    SumHealthIntoCounter(u64),
    /// `world.clone()` is kept aside, with a copy of the model.
    SaveClone,
    /// `world.restore(&saved)` (nothing without a saved clone); the model rolls back too.
    Restore,
    /// The world is saved with `snapshot()` and replaced by the loaded one: through JSON
    /// (`true`) or postcard (`false`).
    Snapshot(bool),
    /// Runs a `Schedule<World>` of two systems ([`regenerate_heroes`], [`announce_counter`]).
    RunSchedule,
}

/// An event channel of the world.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Channel {
    Hit,
    Note,
}
