//! Snapshots (feature `serde`): a world saved in any serde format and loaded back exactly.
//!
//! `world.snapshot()` is a [`Snapshot`]: a borrowed view of the world that implements
//! `Serialize`, so saving copies nothing first. Loading is [`SnapshotData`] (what a format
//! decodes) turned into a world by `World::from_snapshot`, which checks everything and either
//! returns the whole world or a [`SnapshotError`]: never a panic, never a half-loaded world. A
//! generated world is also `Serialize` and `Deserialize` itself, through the same two steps.
//!
//! # What a snapshot holds
//! - Every table, in order, with its rows in order: a map of the entity ids (`entities`) and
//!   one column per component the table holds, named like the component (`position`). In a
//!   human-readable format a column's values are in the positional form (see
//!   `positional.rs`): a struct at any depth is the sequence of its fields' values
//!   (`[1.0,2.0]`, not `{"x":1.0,"y":2.0}`), as a binary format writes it; a column is values
//!   of one type, so the names, repeated once per row, said nothing, and writing, scanning and
//!   matching them was a large share of a JSON round trip. A component whose field is skipped
//!   at save time (`skip_serializing_if`) cannot be saved in this form (an error names the
//!   field); resources keep their own serde form.
//! - The allocator: every id's generation, as runs of equal generations (`[generation,
//!   count]`, ids in order: a world that never despawned is one run; a retired id is a run of
//!   its own), and the free list in recycling order. A handle taken before saving resolves to
//!   the same entity after loading, a stale one stays stale, and the next spawn gets the same
//!   id and generation it would have got.
//! - Lists of ids (a table's `entities`, the free list, a tag's members) are numbers in a
//!   human-readable format and one byte string of little-endian `u32`s in a binary one (see
//!   `ids.rs`): a binary format copies them at once instead of coding a number per entity.
//! - Every tag's members (by id), every relation's links (by name, `[source id, target id]`
//!   pairs in an order that rebuilds each target's sources in link order), every resource (by
//!   name), the current and last ticks.
//! - Every row's change ticks (`change_ticks`, after `tables`): per table, per tracked column,
//!   when each row was last written and when the component was added to it, as runs `[tick,
//!   count]` of the stamps readers see (see `change_ticks.rs`). A loaded world answers every
//!   `Changed`/`Added` query, with any tick, as the saving world does.
//! - Where each event channel's numbering and the change log's stand (the sequence number of
//!   the next event or entry): a loaded world numbers on from there, so a cursor kept from
//!   before the save (in a resource, say) reads what is sent and logged after the load, and
//!   counts what it had not read before the save as lost.
//! - The events of the channels declared `[saved]` (`events`, after `event_sequences`; see
//!   `events.rs`): their events, sequence numbers, frame start and capacity limit, so a cursor
//!   kept from before the save reads exactly what it had not read.
//! - What the systems run on the world remember (`systems`, last in a world's and a game's),
//!   per system in the order they first ran: its
//!   name, its function's type name, the tick its last run ended at (`null` before its first),
//!   and its kept values in parameter order, an `EventReader`'s cursor as the sequence number it
//!   reads next and any other value (a `Local`) as `null`, then its `SavedLocal`s' bytes
//!   (postcard's encoding of each value; see `systems.rs`). A schedule built
//!   afresh finds each system's memory under its name and goes on from there, with no extra
//!   call: its "changed since this system last ran" and `is_first_run` as on the saving world,
//!   over the same row stamps, its readers where they stood (and, events not being saved,
//!   counting what they had not read as lost).
//!
//! # What it does not hold
//! - The events of channels not declared `[saved]`, and the change-log entries: a loaded
//!   world starts with those channels empty (and the log off), as a new world does. An event
//!   type need not be serde, and a bound on every channel would refuse the snapshots of every
//!   world with one that is not; readers' cursors are saved, so an event is never read twice
//!   and one not read before the save is counted lost, never missed silently.
//! - Queued commands: save after `apply_commands()`. Handles a queued spawn reserved are
//!   written as given back, as `clear_commands()` would.
//! - The caches: the edge graph is rebuilt, the query cache refills on use, and each tick
//!   column's summary (its newest stamps, by which a changed-only query skips a table) is
//!   recomputed from the rows. Table and row order are kept, so iteration order, and with it a
//!   deterministic simulation, continues exactly.
//! - The systems' `Local` values (a `SavedLocal` is saved): a `Serialize` bound on `Local` would refuse every crate's
//!   locals of types that are not serde once any crate turns the feature on. A kept value saved
//!   as `null` loads as a placeholder of no parameter's type, which the system's next run
//!   replaces with `T::default()` (as it replaces a value of the wrong type), so a loaded
//!   world's locals restart at their default. (A `Local<EventCursor>` is a cursor, and is
//!   saved.)
//! - A stable identity of a system's function: its type name is the compiler's, so a snapshot
//!   loaded by a build where the function's path differs (a renamed module or crate, another
//!   compiler) starts that system with a first run.
//!
//! # What loading refuses
//! The bytes are trusted in nothing. Besides every inconsistency (see
//! [`SnapshotData::into_world`]), a table whose `entities` do not come first (as `snapshot()`
//! writes them) is refused, so every column is read against its table's length and refused at
//! the first value past it, or at once when the format declares a longer length; and a
//! `last_tick` that is not strictly before `tick` is refused, since change detection after the
//! load would miss every write; and change ticks that do not fit the tables or the snapshot's
//! tick (see `change_ticks.rs`). A declared length never sizes an allocation (nor does a
//! change-tick run's count): every sequence
//! reserves at most 4 KiB before its values are read, then grows with the values read (a
//! column too: its table's row count is only a bound, as a column may come up short, refused
//! once the whole snapshot is read); the ids the generation runs claim are checked against
//! the ids the snapshot lists (rows, free ids, retired runs) before the allocator is built;
//! and runs not as `snapshot()` writes them (an empty run, two neighbours of one generation,
//! several retired ids in one run) are refused, so a snapshot that loads saves back to the
//! same runs. In `systems`, a name listed twice is refused (each entry's fields as a struct's:
//! none unknown, repeated or missing); any tick and any cursor loads, since the next run
//! treats them as the saving world would (a last run not before the present, or too old,
//! makes a first run; a cursor past its channel's end reads every stored event as new).
//!
//! Version 3 introduced the runs and the byte-string ids, version 4 the positional columns of
//! text snapshots, version 5 what systems remember (`systems`, last in a world's snapshot; a
//! game's was unchanged but for its version), version 6 every row's change ticks
//! (`change_ticks`, after `tables`, in a world's snapshot and in each sub-world entry of a
//! game's), version 7 (this one) the saved channels' events (`events`, after
//! `event_sequences`, in a world's and a game's, and `systems` last in a game's, as in a
//! world's); a snapshot of another version is refused
//! with an error naming both versions.
//!
//! A multi-world game saves and loads the same way ([`MultiWorldSnapshot`],
//! [`MultiWorldSnapshotData`]), by the same code: a world is a game with one part. Both are one
//! entity index, its parts and its singletons; a world's one storage writes its fields among the
//! whole's own, as above, and a game writes its one index, then each sub-world's storage (the same
//! fields) by name under `sub_worlds`, then its resources and event numbering (see `layout.rs`).
//!
//! Where the code is, each file importing (besides the traits here) only from those before it:
//! `layout.rs` (the layouts and their field names), `positional.rs`, `sequence.rs` (lengths
//! never trusted) and `ids.rs` (the forms of text columns, sequences and ids), `systems.rs`
//! (what systems remember, written, read and checked), `change_ticks.rs` (a storage's row
//! stamps, written, read and checked against its tables), `parts.rs` (what
//! a form of whole gives the one path and what it is handed), `output.rs` (writing), `maps.rs`
//! (reading the tables, tags, relations and resources), `validation.rs` (checking and
//! building), `input.rs` (reading the structs), then the two forms of whole: `world.rs` (one
//! storage) and `game.rs` (each sub-world's storage by name).
//!
//! A snapshot loads into the world declaration that wrote it: a column, tag or resource it does
//! not know, or a missing tag or resource, is an error naming it. A component may be added to
//! the declaration between saving and loading (no table of the snapshot holds it).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::DerefMut;

use serde::de::{self, MapAccess};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod change_ticks;
mod events;
mod ids;
mod input;
mod layout;
mod maps;
mod multi_world;
mod output;
mod parts;
mod positional;
mod sequence;
mod systems;
mod validation;
mod world;

pub use events::{ChannelIn, ChannelOut, EventSaving, LoadEvents, SaveEvents};
pub use maps::{ColumnIn, ResourceIn};
pub use output::{ColumnOut, ResourceOut};
pub use parts::LoadedParts;
pub use validation::StorageData;

pub use multi_world::{
    DeserializeMultiWorld, InstallSubWorlds, LoadSubWorlds, SerializeMultiWorld, SerializeSubWorlds,
};

use crate::archetype::Archetype;
use crate::entity::EntityIndex;
use crate::storage::Storage;
use crate::system::SystemMemories;
use input::deserialize_whole;
use multi_world::SubWorldStorages;
use output::serialize_whole;
use validation::DecodedWhole;
use world::OneStorage;

/// The snapshot format this build writes and reads.
pub const SNAPSHOT_VERSION: u32 = 7;

/// An event channel of a world or game `W`, as [`SnapshotSingletons::EVENTS`] lists it: its
/// name, the sequence number its next event gets, a function that makes the (empty) channel
/// number its next event as given (`false` if that number is out of range), and whether a
/// snapshot keeps its events (declared `[saved]`).
pub type EventNumbering<W> = (&'static str, fn(&W) -> u64, fn(&mut W, u64) -> bool, bool);

/// What the snapshot code needs of a world's or a multi-world's sub-world's tables, whatever
/// its component types: the part of a snapshot one storage fills (tables, tags, relations).
/// Implemented by `ecs!` for every world and sub-world; not meant to be implemented by hand.
pub trait SnapshotTables: 'static {
    /// The table type (`WorldComponentArrays`).
    type Table: Archetype;

    /// Every component's name and mask bit, in declaration order (the order a table's
    /// columns are written in).
    const COMPONENTS: &'static [(&'static str, <Self::Table as Archetype>::Mask)];

    /// Every tag's name and mask, in bit order.
    const TAGS: &'static [(&'static str, <Self::Table as Archetype>::Mask)];

    /// Every relation's (forward) name and mask, in bit order.
    const RELATIONS: &'static [(&'static str, <Self::Table as Archetype>::Mask)];
}

/// What the snapshot code needs of the singletons of a world or a multi-world game (its
/// resources and event channels), whatever their types. Implemented by `ecs!`.
pub trait SnapshotSingletons: Sized + 'static {
    /// The resources (`WorldResources`).
    type Resources: Default;

    /// The resources.
    fn resources(&self) -> &Self::Resources;

    /// The resources, mutably (a loaded whole's are put in place through it).
    fn resources_mut(&mut self) -> &mut Self::Resources;

    /// The resources' names, in declaration order.
    const RESOURCE_NAMES: &'static [&'static str];

    /// Each event channel's name, how to read the sequence number its next event gets, how to
    /// make the (empty) channel number its next event `next` (see
    /// [`EventChannel::start_numbering_at`](crate::EventChannel::start_numbering_at)), and
    /// whether its events are saved.
    const EVENTS: &'static [EventNumbering<Self>];

    /// Each event channel's name and the sequence number its next event gets.
    fn event_sequences(&self) -> Vec<(&'static str, u64)> {
        Self::EVENTS
            .iter()
            .map(|&(name, next_sequence, ..)| (name, next_sequence(self)))
            .collect()
    }

    /// Makes the (empty) event channel `name` number its next event `next`, or, for a saved
    /// channel (loaded with its events), checks that it does; `false` if there is no such
    /// channel or `next` is out of range (or not where the saved channel ends).
    fn start_event_numbering(&mut self, name: &str, next: u64) -> bool {
        Self::EVENTS
            .iter()
            .find(|(channel, ..)| *channel == name)
            .is_some_and(
                |&(_, next_sequence, start_numbering_at, saved)| match saved {
                    true => next_sequence(self) == next,
                    false => start_numbering_at(self, next),
                },
            )
    }
}

/// What the snapshot code needs of a world: its tables, its singletons, its entity index, and
/// its storage behind its component part. Implemented by `ecs!` for every world; not meant to
/// be implemented by hand.
pub trait SnapshotWorld:
    SnapshotTables
    + SnapshotSingletons
    + Default
    + DerefMut<Target: DerefMut<Target = Storage<Self::Table>>>
{
    /// The world's storage, behind its component part.
    #[inline]
    fn storage(&self) -> &Storage<Self::Table> {
        self
    }

    /// The world's entity index.
    fn index(&self) -> &EntityIndex;

    /// The world's entity index, mutably (a loaded world's is put in place through it).
    fn index_mut(&mut self) -> &mut EntityIndex;

    /// What the systems run on the world remember.
    fn systems(&self) -> &SystemMemories;

    /// What the systems run on the world remember, mutably (a loaded world's is put in place
    /// through it).
    fn systems_mut(&mut self) -> &mut SystemMemories;
}

/// Tables whose components are all `Serialize`. Implemented by `ecs!`.
pub trait SerializeTables: SnapshotTables {
    /// Writes `column`, one `table` holds, picked by its mask bit (`column.bit()`).
    fn serialize_column<M: SerializeMap>(
        table: &Self::Table,
        column: ColumnOut<'_, M, <Self::Table as Archetype>::Mask>,
    ) -> Result<(), M::Error>;
}

/// Singletons whose resources are all `Serialize`. Implemented by `ecs!`.
pub trait SerializeSingletons: SnapshotSingletons {
    /// Writes `resource`, picked by its name (`resource.name()`).
    fn serialize_resource<M: SerializeMap>(
        resources: &Self::Resources,
        resource: ResourceOut<'_, M>,
    ) -> Result<(), M::Error>;

    /// Writes `whole`'s `channel`, picked by its name (`channel.name()`), if it is saved.
    fn serialize_channel<M: SerializeMap>(
        whole: &Self,
        channel: ChannelOut<'_, M>,
    ) -> Result<(), M::Error>;
}

/// A world whose components and resources are all `Serialize`: what `world.snapshot()` needs.
pub trait SerializeWorld: SnapshotWorld + SerializeTables + SerializeSingletons {}

impl<W: SnapshotWorld + SerializeTables + SerializeSingletons> SerializeWorld for W {}

/// Tables whose components are all `DeserializeOwned`: read from data of any lifetime
/// ([`DeserializeColumns`] for every `'de`).
pub trait DeserializeTables: SnapshotTables + for<'de> DeserializeColumns<'de> {}

impl<W: SnapshotTables + for<'de> DeserializeColumns<'de>> DeserializeTables for W {}

/// Tables whose components are all `Deserialize<'de>`. Implemented by `ecs!`, bounded on
/// `'de`: a type that borrows from the data (`&'static str`) is `Deserialize<'static>` only,
/// so its world implements this for `'static` alone and is not [`DeserializeTables`], which
/// leaves its snapshots unavailable (the calls that load one do not compile) rather than the
/// world failing to compile.
pub trait DeserializeColumns<'de>: SnapshotTables {
    /// Reads `column` into `table`'s column of its mask bit (`column.bit()`), and adds the bit
    /// to the table's mask.
    fn deserialize_column<A: MapAccess<'de>>(
        table: &mut Self::Table,
        column: ColumnIn<'_, A, <Self::Table as Archetype>::Mask>,
    ) -> Result<(), A::Error>;
}

/// Singletons whose resources are all `DeserializeOwned`: read from data of any lifetime
/// ([`DeserializeResources`] for every `'de`).
pub trait DeserializeSingletons: SnapshotSingletons + for<'de> DeserializeResources<'de> {}

impl<W: SnapshotSingletons + for<'de> DeserializeResources<'de>> DeserializeSingletons for W {}

/// Singletons whose resources are all `Deserialize<'de>`. Implemented by `ecs!`, bounded on
/// `'de` (see [`DeserializeColumns`]).
pub trait DeserializeResources<'de>: SnapshotSingletons {
    /// Reads `resource` into the field of its name (`resource.name()`).
    fn deserialize_resource<A: MapAccess<'de>>(
        resources: &mut Self::Resources,
        resource: ResourceIn<'_, A>,
    ) -> Result<(), A::Error>;

    /// Reads the saved `channel` into `whole`'s channel of its name (`channel.name()`).
    fn deserialize_channel<A: MapAccess<'de>>(
        whole: &mut Self,
        channel: ChannelIn<'_, A>,
    ) -> Result<(), A::Error>;
}

/// A world whose components and resources are all `DeserializeOwned`: what loading one needs.
pub trait DeserializeWorld: SnapshotWorld + DeserializeTables + DeserializeSingletons {}

impl<W: SnapshotWorld + DeserializeTables + DeserializeSingletons> DeserializeWorld for W {}

/// A world, borrowed for saving: `serde_json::to_string(&world.snapshot())`. See the
/// [module documentation](self) for what it holds.
pub struct Snapshot<'a, W> {
    world: &'a W,
}

impl<'a, W> Snapshot<'a, W> {
    /// The snapshot of `world` (what `world.snapshot()` returns).
    pub fn new(world: &'a W) -> Self {
        Snapshot { world }
    }
}

impl<W> Clone for Snapshot<'_, W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W> Copy for Snapshot<'_, W> {}

impl<W: SerializeWorld> Snapshot<'_, W> {
    /// The world's stable checksum: the hash of this snapshot's serde form, streamed through
    /// [`checksum`](crate::checksum)'s hasher with nothing written out; the same on every run,
    /// process and machine for equal worlds. It covers what the snapshot holds (every entity,
    /// component, tag, relation, resource, change tick, the saved event channels' events,
    /// every channel's numbering, what systems remember but their locals). O(the whole world).
    pub fn checksum(&self) -> u64 {
        crate::checksum::stable_hash(self)
    }
}

impl<W: SerializeWorld> Serialize for Snapshot<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_whole::<OneStorage<W>, S>(self.world, serializer)
    }
}

/// A game, borrowed for saving: `serde_json::to_string(&game.snapshot())`. It holds the
/// game's entity index once, each sub-world's storage by name (as a [`Snapshot`] holds a
/// world's), the resources and where event numbering stands; see the guide's
/// [snapshots](crate::guide::snapshots) chapter.
pub struct MultiWorldSnapshot<'a, G> {
    game: &'a G,
}

impl<'a, G> MultiWorldSnapshot<'a, G> {
    /// The snapshot of `game` (what `game.snapshot()` returns).
    pub fn new(game: &'a G) -> Self {
        MultiWorldSnapshot { game }
    }
}

impl<G> Clone for MultiWorldSnapshot<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for MultiWorldSnapshot<'_, G> {}

impl<G: SerializeMultiWorld> MultiWorldSnapshot<'_, G> {
    /// The game's stable checksum, as [`Snapshot::checksum`] is a world's. O(the whole game).
    pub fn checksum(&self) -> u64 {
        crate::checksum::stable_hash(self)
    }
}

impl<G: SerializeMultiWorld> Serialize for MultiWorldSnapshot<'_, G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_whole::<SubWorldStorages<G>, S>(self.game, serializer)
    }
}

/// A decoded snapshot, not yet checked: `serde_json::from_str::<SnapshotData<World>>(&text)`,
/// then `World::from_snapshot(data)` (or [`into_world`](Self::into_world)) checks it and
/// builds the world. Decoding already refuses malformed input, unknown names and columns of
/// the wrong type; the checks that need the whole snapshot come after.
pub struct SnapshotData<W: SnapshotWorld> {
    raw: DecodedWhole<(StorageData<W>, ()), W::Resources, W>,
}

impl<'de, W: DeserializeWorld> Deserialize<'de> for SnapshotData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_whole::<OneStorage<W>, D>(deserializer).map(|raw| SnapshotData { raw })
    }
}

impl<W: SnapshotWorld> SnapshotData<W> {
    /// Number of entities the snapshot holds.
    pub fn entity_count(&self) -> usize {
        self.raw.entity_count()
    }

    /// Checks the snapshot and builds the world: `last_tick` is strictly before `tick`, the
    /// allocator agrees with the rows (every row's id issued and alive once, the free list
    /// sound, every other id retired), every column has one value per row, no two tables hold
    /// the same components, every table's change ticks fit its rows and the tick, tags hold
    /// only live entities, once each, relations link only live entities, each source once,
    /// without a self-link or a cycle, each table's rows are grouped by their tags as saved, no
    /// system is remembered twice, and the built world passes `check_invariants()`.
    pub fn into_world(self) -> Result<W, SnapshotError> {
        self.raw.into_whole::<OneStorage<W>>()
    }
}

/// A decoded game snapshot, not yet checked: `serde_json::from_str::<MultiWorldSnapshotData<Game>>
/// (&text)`, then `Game::from_snapshot(data)` (or [`into_multi_world`](Self::into_multi_world))
/// checks it and builds the game. Decoding already refuses malformed input, unknown names and
/// columns of the wrong type; the checks that need the whole snapshot come after.
pub struct MultiWorldSnapshotData<G: DeserializeMultiWorld> {
    raw: DecodedWhole<<G::SubWorldList as LoadSubWorlds>::Loaded, G::Resources, G>,
}

impl<'de, G: DeserializeMultiWorld> Deserialize<'de> for MultiWorldSnapshotData<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_whole::<SubWorldStorages<G>, D>(deserializer)
            .map(|raw| MultiWorldSnapshotData { raw })
    }
}

impl<G: DeserializeMultiWorld> MultiWorldSnapshotData<G> {
    /// Checks the snapshot and builds the game: every sub-world's ticks and storage are
    /// checked as a world's (see [`SnapshotData::into_world`]), the game's index is sound, and
    /// every sub-world holds exactly the game's live entities, each on one row; the built game
    /// passes `check_invariants()`.
    pub fn into_multi_world(self) -> Result<G, SnapshotError> {
        self.raw.into_whole::<SubWorldStorages<G>>()
    }
}

/// Serializes `world` as its snapshot: what a world's generated `Serialize` calls.
#[inline]
pub fn serialize_world<W: SerializeWorld, S: Serializer>(
    world: &W,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    Snapshot::new(world).serialize(serializer)
}

/// Decodes and checks a world's snapshot (`World::from_snapshot`): what a world's generated
/// `Deserialize` calls; a snapshot that decodes but is not a sound world is a decoding error
/// with the reason.
#[inline]
pub fn deserialize_world<'de, W: DeserializeWorld, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<W, D::Error> {
    let data = SnapshotData::<W>::deserialize(deserializer)?;
    data.into_world().map_err(de::Error::custom)
}

/// Serializes `game` as its snapshot: what a game's generated `Serialize` calls.
#[inline]
pub fn serialize_multi_world<G: SerializeMultiWorld, S: Serializer>(
    game: &G,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    MultiWorldSnapshot::new(game).serialize(serializer)
}

/// Decodes and checks a game's snapshot (`Game::from_snapshot`): what a game's generated
/// `Deserialize` calls.
#[inline]
pub fn deserialize_multi_world<'de, G: DeserializeMultiWorld, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<G, D::Error> {
    let data = MultiWorldSnapshotData::<G>::deserialize(deserializer)?;
    data.into_multi_world().map_err(de::Error::custom)
}

/// A snapshot that decoded but does not describe a sound world; the message says what is
/// wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotError {
    message: String,
}

impl SnapshotError {
    pub(crate) fn new(message: String) -> Self {
        SnapshotError { message }
    }

    /// What is wrong, and where.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "invalid snapshot: {}", self.message)
    }
}

impl core::error::Error for SnapshotError {}
