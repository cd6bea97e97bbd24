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
//! - Where each event channel's numbering and the change log's stand (the sequence number of
//!   the next event or entry): a loaded world numbers on from there, so a cursor kept from
//!   before the save (in a resource, say) reads what is sent and logged after the load, and
//!   counts what it had not read before the save as lost.
//!
//! # What it does not hold
//! - The events and change-log entries themselves: a loaded world starts with its channels
//!   empty (and the log off), as a new world does.
//! - Queued commands: save after `apply_commands()`. Handles a queued spawn reserved are
//!   written as given back, as `clear_commands()` would.
//! - Change ticks per row and the caches: every loaded row counts as written at the saved
//!   current tick (like a spawn), the edge graph is rebuilt and the query cache refills on use.
//!   Table and row order are kept, so iteration order, and with it a deterministic simulation,
//!   continues exactly.
//!
//! # What loading refuses
//! The bytes are trusted in nothing. Besides every inconsistency (see
//! [`SnapshotData::into_world`]), a table whose `entities` do not come first (as `snapshot()`
//! writes them) is refused, so every column is read against its table's length and refused at
//! the first value past it, or at once when the format declares a longer length; and a
//! `last_tick` that is not strictly before `tick` is refused, since change detection after the
//! load would miss every write. A declared length never sizes an allocation: every sequence
//! reserves at most 4 KiB before its values are read, then grows with the values read (a
//! column too: its table's row count is only a bound, as a column may come up short, refused
//! once the whole snapshot is read); the ids the generation runs claim are checked against
//! the ids the snapshot lists (rows, free ids, retired runs) before the allocator is built;
//! and runs not as `snapshot()` writes them (an empty run, two neighbours of one generation,
//! several retired ids in one run) are refused, so a snapshot that loads saves back to the
//! same runs.
//!
//! Version 3 introduced the runs and the byte-string ids, version 4 (this one) the positional
//! columns of text snapshots; a snapshot of another version is refused with an error naming
//! both versions.
//!
//! A multi-world game saves and loads the same way ([`GameSnapshot`], [`GameSnapshotData`]):
//! the game's one allocator as above, then each sub-world's storage, as the fields a world's
//! snapshot writes of its own, under the sub-world's name, then the game's resources and event
//! numbering (see `src/game/snapshot.rs`).
//!
//! A snapshot loads into the world declaration that wrote it: a column, tag or resource it does
//! not know, or a missing tag or resource, is an error naming it. A component may be added to
//! the declaration between saving and loading (no table of the snapshot holds it).

use alloc::collections::BTreeSet;
use alloc::{string::String, vec::Vec};
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) mod ids;
mod positional;

use ids::{EntityIdsOut, IdsIn, IdsOut};
use positional::{Positional, PositionalSeed};

use crate::archetype::Archetype;
use crate::entity::{Entity, EntityIndex, EntityRecords};
use crate::entity_set::EntitySet;
use crate::hash::{MaskBuildHasher, MaskMap};
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::storage::Storage;
use crate::tick::Tick;

// A game's snapshot types live with the game's runtime; named here beside the world's.
pub use crate::game::{
    DeserializeGame, GameSnapshot, GameSnapshotData, InstallSubWorlds, LoadSubWorlds,
    SerializeGame, SerializeSubWorlds,
};

/// The snapshot format this build writes and reads.
pub const SNAPSHOT_VERSION: u32 = 4;

/// An event channel of a world or game `W`, as [`SnapshotSingletons::EVENTS`] lists it: its
/// name, the sequence number its next event gets, and a function that makes the (empty)
/// channel number its next event as given (`false` if that number is out of range).
pub type EventNumbering<W> = (&'static str, fn(&W) -> u64, fn(&mut W, u64) -> bool);

/// What the snapshot code needs of a world's or a multi-world's sub-world's tables, whatever
/// its component types: the part of a snapshot one storage fills (tables, tags, relations).
/// Implemented by `ecs!` for every world and sub-world; not meant to be implemented by hand.
pub trait SnapshotTables: 'static {
    /// The table type (`WorldComponentArrays`).
    type Table: Archetype;

    /// The components' names, in bit order.
    const COMPONENT_NAMES: &'static [&'static str];

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

    /// The resources, mutably (a loaded game's are put in place through it).
    fn resources_mut(&mut self) -> &mut Self::Resources;

    /// The resources' names, in declaration order.
    const RESOURCE_NAMES: &'static [&'static str];

    /// Each event channel's name, how to read the sequence number its next event gets, and how
    /// to make the (empty) channel number its next event `next` (see
    /// [`EventChannel::start_numbering_at`](crate::EventChannel::start_numbering_at)).
    const EVENTS: &'static [EventNumbering<Self>];

    /// Each event channel's name and the sequence number its next event gets.
    fn event_sequences(&self) -> Vec<(&'static str, u64)> {
        Self::EVENTS
            .iter()
            .map(|&(name, next_sequence, _)| (name, next_sequence(self)))
            .collect()
    }

    /// Makes the (empty) event channel `name` number its next event `next`; `false` if there
    /// is no such channel or `next` is out of range.
    fn start_event_numbering(&mut self, name: &str, next: u64) -> bool {
        Self::EVENTS
            .iter()
            .find(|(channel, ..)| *channel == name)
            .is_some_and(|&(_, _, start_numbering_at)| start_numbering_at(self, next))
    }
}

/// What the snapshot code needs of a world: its tables, its singletons, and its storage behind
/// its component part. Implemented by `ecs!` for every world; not meant to be implemented by
/// hand.
pub trait SnapshotWorld:
    SnapshotTables
    + SnapshotSingletons
    + core::ops::Deref<Target: core::ops::Deref<Target = Storage<Self::Table>>>
{
    /// The world's storage, behind its component part.
    #[inline]
    fn storage(&self) -> &Storage<Self::Table> {
        self
    }

    /// The world's entity index.
    fn index(&self) -> &EntityIndex;

    /// A world from a loaded index, storage and resources (events empty, no queued command).
    fn assemble(
        index: EntityIndex,
        storage: Storage<Self::Table>,
        resources: Self::Resources,
    ) -> Self;
}

/// Tables whose components are all `Serialize`. Implemented by `ecs!`.
pub trait SerializeTables: SnapshotTables {
    /// Writes one entry per component `table` holds (its mask): the name and the column.
    fn serialize_columns<S: SerializeMap>(table: &Self::Table, map: &mut S)
    -> Result<(), S::Error>;
}

/// Singletons whose resources are all `Serialize`. Implemented by `ecs!`.
pub trait SerializeSingletons: SnapshotSingletons {
    /// Writes one entry per resource: the name and the value.
    fn serialize_resources<S: SerializeMap>(
        resources: &Self::Resources,
        map: &mut S,
    ) -> Result<(), S::Error>;
}

/// A world whose components and resources are all `Serialize`: what `world.snapshot()` needs.
pub trait SerializeWorld: SnapshotWorld + SerializeTables + SerializeSingletons {}

impl<W: SnapshotWorld + SerializeTables + SerializeSingletons> SerializeWorld for W {}

/// Tables whose components are all `DeserializeOwned`. Implemented by `ecs!`.
pub trait DeserializeTables: SnapshotTables {
    /// If `name` is a component, reads its column from `map` into `table` with
    /// [`next_column`] (an error as soon as it holds more than `rows` values), adds its bit to
    /// the table's mask, and returns the component's name and the column's length; `None` for
    /// an unknown name (the value is left unread).
    fn deserialize_column<'de, A: MapAccess<'de>>(
        table: &mut Self::Table,
        name: &str,
        rows: usize,
        map: &mut A,
    ) -> Result<Option<(&'static str, usize)>, A::Error>;
}

/// Singletons whose resources are all `DeserializeOwned`. Implemented by `ecs!`.
pub trait DeserializeSingletons: SnapshotSingletons {
    /// If `name` is a resource, reads it from `map` into `resources` and returns `true`.
    fn deserialize_resource<'de, A: MapAccess<'de>>(
        resources: &mut Self::Resources,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;
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

impl<W: SerializeWorld> Serialize for Snapshot<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let storage = self.world.storage();
        let (generations, free) = self.world.index().snapshot_ids(storage.records());
        let mut state = serializer.serialize_struct("Snapshot", 11)?;
        state.serialize_field("version", &SNAPSHOT_VERSION)?;
        state.serialize_field("tick", &storage.current_tick().0)?;
        state.serialize_field("last_tick", &storage.last_tick().0)?;
        state.serialize_field("generations", &generations)?;
        state.serialize_field("free", &IdsOut(&free))?;
        state.serialize_field("tables", &TablesOut::<W>(storage.tables()))?;
        state.serialize_field("tags", &TagsOut::<W>(storage))?;
        state.serialize_field("relations", &RelationsOut::<W>(storage))?;
        state.serialize_field("resources", &ResourcesOut::<W>(self.world.resources()))?;
        // Where numbering goes on after a load, so cursors kept from before read what comes.
        state.serialize_field("change_log_sequence", &storage.change_log().next_sequence())?;
        state.serialize_field("event_sequences", &self.world.event_sequences())?;
        state.end()
    }
}

struct TablesOut<'a, W: SnapshotTables>(&'a [W::Table]);

impl<W: SerializeTables> Serialize for TablesOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(TableOut::<W>))
    }
}

struct TableOut<'a, W: SnapshotTables>(&'a W::Table);

impl<W: SerializeTables> Serialize for TableOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let table = self.0;
        let columns = table.mask().count_ones() as usize;
        let positional = serializer.is_human_readable();
        let mut map = serializer.serialize_map(Some(1 + columns))?;
        map.serialize_entry(ENTITIES, &EntityIdsOut(table.entities()))?;
        W::serialize_columns(
            table,
            &mut ColumnsOut {
                map: &mut map,
                positional,
            },
        )?;
        map.end()
    }
}

/// A table's map, as handed to the generated `serialize_columns`: each column is written in
/// the positional form (see `positional.rs`) when the format is human-readable; a binary
/// format already writes structs as their fields' values.
struct ColumnsOut<'a, M> {
    map: &'a mut M,
    positional: bool,
}

/// Forwards to the table's map; `end` is the table's to call (after the columns), so ending
/// this view only hands the map back.
impl<M: SerializeMap> SerializeMap for ColumnsOut<'_, M> {
    type Ok = ();
    type Error = M::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.map.serialize_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        if self.positional {
            self.map.serialize_value(&Positional(value))
        } else {
            self.map.serialize_value(value)
        }
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        if self.positional {
            self.map.serialize_entry(key, &Positional(value))
        } else {
            self.map.serialize_entry(key, value)
        }
    }

    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

/// The key of a table's entity ids (no component can take this name).
const ENTITIES: &str = "entities";

struct TagsOut<'a, W: SnapshotTables>(&'a Storage<W::Table>);

impl<W: SnapshotTables> Serialize for TagsOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tags = W::TAGS;
        let mut map = serializer.serialize_map(Some(tags.len()))?;
        for &(name, mask) in tags {
            let ids: Vec<u32> = self.0.tagged(mask).map(|entity| entity.id).collect();
            map.serialize_entry(name, &IdsOut(&ids))?;
        }
        map.end()
    }
}

/// Each relation's links as `[source id, target id]` pairs, the targets in id order and each
/// one's sources in link order: linking them again in this order rebuilds the same lists.
struct RelationsOut<'a, W: SnapshotTables>(&'a Storage<W::Table>);

impl<W: SnapshotTables> Serialize for RelationsOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let relations = W::RELATIONS;
        let mut map = serializer.serialize_map(Some(relations.len()))?;
        for &(name, mask) in relations {
            let links: Vec<(u32, u32)> = self
                .0
                .relation(mask)
                .into_iter()
                .flat_map(|store| store.links())
                .map(|(source, target)| (source.id, target.id))
                .collect();
            map.serialize_entry(name, &links)?;
        }
        map.end()
    }
}

/// One storage's part of a snapshot as an entry of its own (a game's sub-world): the fields a
/// world's snapshot writes of its storage, in the same order, read back as [`StorageData`].
pub(crate) struct StorageOut<'a, W: SnapshotTables>(pub(crate) &'a Storage<W::Table>);

impl<W: SerializeTables> Serialize for StorageOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let storage = self.0;
        let mut state = serializer.serialize_struct("SubWorld", 6)?;
        state.serialize_field("tick", &storage.current_tick().0)?;
        state.serialize_field("last_tick", &storage.last_tick().0)?;
        state.serialize_field("tables", &TablesOut::<W>(storage.tables()))?;
        state.serialize_field("tags", &TagsOut::<W>(storage))?;
        state.serialize_field("relations", &RelationsOut::<W>(storage))?;
        state.serialize_field("change_log_sequence", &storage.change_log().next_sequence())?;
        state.end()
    }
}

pub(crate) struct ResourcesOut<'a, W: SnapshotSingletons>(pub(crate) &'a W::Resources);

impl<W: SerializeSingletons> Serialize for ResourcesOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(W::RESOURCE_NAMES.len()))?;
        W::serialize_resources(self.0, &mut map)?;
        map.end()
    }
}

/// A decoded snapshot, not yet checked: `serde_json::from_str::<SnapshotData<World>>(&text)`,
/// then `World::from_snapshot(data)` (or [`into_world`](Self::into_world)) checks it and
/// builds the world. Decoding already refuses malformed input, unknown names and columns of
/// the wrong type; the checks that need the whole snapshot come after.
pub struct SnapshotData<W: SnapshotWorld> {
    raw: RawSnapshot<W>,
}

impl<'de, W: DeserializeWorld> Deserialize<'de> for SnapshotData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        RawSnapshot::deserialize(deserializer).map(|raw| SnapshotData { raw })
    }
}

impl<W: SnapshotWorld> SnapshotData<W> {
    /// Number of entities the snapshot holds.
    pub fn entity_count(&self) -> usize {
        self.raw.tables.0.iter().map(|table| table.ids.len()).sum()
    }

    /// Checks the snapshot and builds the world: `last_tick` is strictly before `tick`, the
    /// allocator agrees with the rows (every row's id issued and alive once, the free list
    /// sound, every other id retired), every column has one value per row, no two tables hold
    /// the same components, tags hold only live entities, once each, relations link only live
    /// entities, each source once, without a self-link or a cycle, and the built world passes
    /// `check_invariants()`.
    pub fn into_world(self) -> Result<W, SnapshotError> {
        let RawSnapshot {
            version: _,
            tick,
            last_tick,
            generations,
            free,
            tables,
            tags,
            relations,
            resources,
            change_log_sequence,
            event_sequences,
        } = self.raw;
        let storage = StorageData::<W> {
            tick,
            last_tick,
            tables,
            tags,
            relations,
            change_log_sequence,
        };
        storage.check_ticks()?;
        let (index, records, entities) =
            EntityIndex::from_snapshot_ids(&generations.0, free.0, storage.row_ids())
                .map_err(SnapshotError::new)?;
        let storage = storage.into_storage(records, entities)?;
        let mut world = W::assemble(index, storage, resources.0);
        start_event_numbering(&mut world, event_sequences.0)?;
        Ok(world)
    }
}

/// The part of a snapshot one storage fills: a world's fields (among its allocator's and
/// singletons'), or one sub-world's entry of a game's snapshot, decoded and not yet checked.
#[derive(Deserialize)]
#[serde(
    rename = "SubWorld",
    deny_unknown_fields,
    bound = "W: DeserializeTables"
)]
pub struct StorageData<W: SnapshotTables> {
    tick: u32,
    last_tick: u32,
    tables: Sequence<TableData<W>>,
    tags: TagsData<W>,
    relations: RelationsData<W>,
    change_log_sequence: u64,
}

impl<W: SnapshotTables> StorageData<W> {
    /// Refuses a `last_tick` that is not strictly before `tick`.
    pub(crate) fn check_ticks(&self) -> Result<(), SnapshotError> {
        // Change detection compares stamps with `last_tick`: one that is not strictly before the
        // current tick (or is 2^31 or more behind it, which reads as ahead) would hide every
        // write made after the load.
        if Tick(self.tick).is_newer_than(Tick(self.last_tick)) {
            Ok(())
        } else {
            Err(SnapshotError::new(format!(
                "last_tick {} is not before tick {}",
                self.last_tick, self.tick
            )))
        }
    }

    /// The ids of each table's rows, in order.
    pub(crate) fn row_ids(&self) -> impl Iterator<Item = &[u32]> + Clone {
        self.tables.0.iter().map(|table| table.ids.as_slice())
    }

    /// Checks the rest against `records` (which the rows' ids were checked against, giving
    /// each table's handles, `entities`) and builds the storage: every column has one value
    /// per row, no two tables hold the same components, tags hold only live entities, once
    /// each, relations link only live entities, each source once, without a self-link or a
    /// cycle, and the built storage passes `check_invariants()`.
    pub(crate) fn into_storage(
        self,
        records: EntityRecords,
        entities: Vec<Vec<Entity>>,
    ) -> Result<Storage<W::Table>, SnapshotError> {
        let StorageData {
            tick,
            last_tick,
            tables,
            tags,
            relations,
            change_log_sequence,
        } = self;
        let tables = tables.0;
        let mut masks = MaskMap::with_capacity_and_hasher(tables.len(), MaskBuildHasher::default());
        let mut built = Vec::with_capacity(tables.len());
        for ((index, table), entities) in tables.into_iter().enumerate().zip(entities) {
            let TableData {
                ids,
                mut table,
                columns,
            } = table;
            for (name, length) in columns {
                if length != ids.len() {
                    return Err(SnapshotError::new(format!(
                        "table {index}: the `{name}` column holds {length} values for {} entities",
                        ids.len()
                    )));
                }
            }
            if let Some(first) = masks.insert(table.mask(), index) {
                return Err(SnapshotError::new(format!(
                    "tables {first} and {index} hold the same components"
                )));
            }
            *table.entities_mut() = entities;
            built.push(table);
        }
        let component_count = <W::Table as Archetype>::COMPONENT_COUNT;
        let tag_count = <W::Table as Archetype>::TAGS.count_ones() as usize;
        let mut tag_sets = vec![EntitySet::new(); tag_count];
        for (name, mask, ids) in tags.0 {
            let index = (mask.trailing_zeros() as usize).wrapping_sub(component_count);
            let Some(set) = tag_sets.get_mut(index) else {
                return Err(SnapshotError::new(format!("`{name}` is not a tag")));
            };
            for id in ids {
                let Some(entity) = records.live_entity(id) else {
                    return Err(SnapshotError::new(format!(
                        "the tag `{name}` holds id {id}, which is not a live entity"
                    )));
                };
                if !set.insert(entity) {
                    return Err(SnapshotError::new(format!(
                        "the tag `{name}` holds id {id} twice"
                    )));
                }
            }
        }
        // The links, checked, and their sources' relation bits set like tags (so each table's
        // rows regroup exactly as they were saved).
        let mut stores = Vec::with_capacity(relations.0.len());
        for (name, mask, links) in relations.0 {
            let mut store = RelationStore::new();
            let index = (mask.trailing_zeros() as usize).wrapping_sub(component_count);
            for (source, target) in links {
                let live = |id: u32| {
                    records.live_entity(id).ok_or_else(|| {
                        SnapshotError::new(format!(
                            "the relation `{name}` links id {id}, which is not a live entity"
                        ))
                    })
                };
                let (source, target) = (live(source)?, live(target)?);
                if store.target(source).is_some() {
                    return Err(SnapshotError::new(format!(
                        "the relation `{name}` links id {} twice",
                        source.id
                    )));
                }
                // Cycles are found by the storage check below, in one linear pass.
                store.link_unchecked(source, target).map_err(|error| {
                    SnapshotError::new(format!(
                        "the relation `{name}` cannot link id {} to id {}: {error}",
                        source.id, target.id
                    ))
                })?;
                if let Some(set) = tag_sets.get_mut(index) {
                    set.insert(source);
                }
            }
            stores.push((mask, store));
        }
        let mut storage =
            Storage::from_snapshot_parts(records, built, tag_sets, Tick(tick), Tick(last_tick));
        for (mask, store) in stores {
            storage.set_relation_store(mask, store);
        }
        storage
            .check_invariants()
            .map_err(|error| SnapshotError::new(error.message))?;
        if !storage
            .change_log_mut()
            .start_numbering_at(change_log_sequence)
        {
            return Err(SnapshotError::new(format!(
                "change_log_sequence {change_log_sequence} is out of range"
            )));
        }
        Ok(storage)
    }
}

/// Makes each event channel of `target` (a world or a game) number its next event as the
/// snapshot says: every channel named once, and no channel left out.
pub(crate) fn start_event_numbering<W: SnapshotSingletons>(
    target: &mut W,
    event_sequences: Vec<(String, u64)>,
) -> Result<(), SnapshotError> {
    // A B-tree, not a hash set: the names come from the snapshot, and a set hashed with a fixed
    // seed (no_std has no random one) could be flooded with colliding names.
    let mut seen = BTreeSet::new();
    for (name, next) in event_sequences {
        if !seen.insert(name.clone()) {
            return Err(SnapshotError::new(format!(
                "the event channel `{name}` is numbered twice"
            )));
        }
        if !target.start_event_numbering(&name, next) {
            return Err(SnapshotError::new(format!(
                "no event channel `{name}` can start at sequence {next}"
            )));
        }
    }
    let channels = target.event_sequences();
    if let Some((missing, _)) = channels.iter().find(|(name, _)| !seen.contains(*name)) {
        return Err(SnapshotError::new(format!(
            "the event channel `{missing}` has no sequence"
        )));
    }
    Ok(())
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

/// The decoded fields, in the order [`Snapshot`] writes them.
#[derive(Deserialize)]
#[serde(
    rename = "Snapshot",
    deny_unknown_fields,
    bound = "W: DeserializeWorld"
)]
struct RawSnapshot<W: SnapshotWorld> {
    #[allow(dead_code)]
    version: Version,
    tick: u32,
    last_tick: u32,
    generations: Sequence<(u32, u32)>,
    free: IdsIn,
    tables: Sequence<TableData<W>>,
    tags: TagsData<W>,
    relations: RelationsData<W>,
    resources: ResourcesData<W>,
    change_log_sequence: u64,
    event_sequences: Sequence<(String, u64)>,
}

/// The format version, refused at once when it is not [`SNAPSHOT_VERSION`].
pub(crate) struct Version;

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let version = u32::deserialize(deserializer)?;
        if version == SNAPSHOT_VERSION {
            Ok(Version)
        } else {
            Err(de::Error::custom(format_args!(
                "snapshot version {version} is not supported (this build reads version {SNAPSHOT_VERSION})"
            )))
        }
    }
}

/// One decoded table: its ids, the table (mask and columns, no entities yet), and the name and
/// length of each column read.
struct TableData<W: SnapshotTables> {
    ids: Vec<u32>,
    table: W::Table,
    columns: Vec<(&'static str, usize)>,
}

impl<'de, W: DeserializeTables> Deserialize<'de> for TableData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TableVisitor::<W>(PhantomData))
    }
}

struct TableVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeTables> Visitor<'de> for TableVisitor<W> {
    type Value = TableData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a table: a map of its `entities` ids and one column per component")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut table = <W::Table as Archetype>::new(Bitmask::EMPTY);
        let mut ids = None;
        let mut columns: Vec<(&'static str, usize)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == ENTITIES {
                if ids.is_some() {
                    return Err(de::Error::duplicate_field(ENTITIES));
                }
                ids = Some(map.next_value::<IdsIn>()?.0);
                continue;
            }
            // The column is read against the table's length, so `entities` must come first
            // (as `snapshot()` writes it): a column can then never outgrow its table.
            let Some(rows) = ids.as_ref().map(Vec::len) else {
                return Err(de::Error::custom(format_args!(
                    "the `{key}` entry of a table comes before its `entities`"
                )));
            };
            match W::deserialize_column(&mut table, &key, rows, &mut map)? {
                Some(column) if columns.iter().any(|(name, _)| *name == column.0) => {
                    return Err(de::Error::custom(format_args!(
                        "the `{}` column appears twice in one table",
                        column.0
                    )));
                }
                Some(column) => columns.push(column),
                None => {
                    return Err(de::Error::custom(format_args!(
                        "unknown component `{key}` (this world's components: {})",
                        W::COMPONENT_NAMES.join(", ")
                    )));
                }
            }
        }
        let ids = ids.ok_or_else(|| de::Error::missing_field(ENTITIES))?;
        Ok(TableData {
            ids,
            table,
            columns,
        })
    }
}

/// Every tag's name, mask and member ids.
type TagList<M> = Vec<(&'static str, M, Vec<u32>)>;

struct TagsData<W: SnapshotTables>(TagList<<W::Table as Archetype>::Mask>);

impl<'de, W: DeserializeTables> Deserialize<'de> for TagsData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TagsVisitor::<W>(PhantomData))
    }
}

struct TagsVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeTables> Visitor<'de> for TagsVisitor<W> {
    type Value = TagsData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the tags: a map of each tag's member ids")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let tags = W::TAGS;
        let mut members: Vec<Option<Vec<u32>>> = vec![None; tags.len()];
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = tags.iter().position(|(name, _)| *name == key) else {
                let names: Vec<&str> = tags.iter().map(|(name, _)| *name).collect();
                return Err(de::Error::custom(format_args!(
                    "unknown tag `{key}` (this world's tags: {})",
                    names.join(", ")
                )));
            };
            if members[index].is_some() {
                return Err(de::Error::custom(format_args!(
                    "the tag `{key}` appears twice"
                )));
            }
            members[index] = Some(map.next_value::<IdsIn>()?.0);
        }
        let mut list = Vec::with_capacity(tags.len());
        for (&(name, mask), ids) in tags.iter().zip(members) {
            let ids = ids.ok_or_else(|| {
                de::Error::custom(format_args!("the snapshot has no `{name}` tag"))
            })?;
            list.push((name, mask, ids));
        }
        Ok(TagsData(list))
    }
}

type RelationList<M> = Vec<(&'static str, M, Vec<(u32, u32)>)>;

struct RelationsData<W: SnapshotTables>(RelationList<<W::Table as Archetype>::Mask>);

impl<'de, W: DeserializeTables> Deserialize<'de> for RelationsData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RelationsVisitor::<W>(PhantomData))
    }
}

struct RelationsVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeTables> Visitor<'de> for RelationsVisitor<W> {
    type Value = RelationsData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the relations: a map of each relation's [source id, target id] links")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let relations = W::RELATIONS;
        let mut links: Vec<Option<Vec<(u32, u32)>>> = vec![None; relations.len()];
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = relations.iter().position(|(name, _)| *name == key) else {
                let names: Vec<&str> = relations.iter().map(|(name, _)| *name).collect();
                return Err(de::Error::custom(format_args!(
                    "unknown relation `{key}` (this world's relations: {})",
                    names.join(", ")
                )));
            };
            if links[index].is_some() {
                return Err(de::Error::custom(format_args!(
                    "the relation `{key}` appears twice"
                )));
            }
            links[index] = Some(map.next_value::<Sequence<(u32, u32)>>()?.0);
        }
        let mut list = Vec::with_capacity(relations.len());
        for (&(name, mask), pairs) in relations.iter().zip(links) {
            let pairs = pairs.ok_or_else(|| {
                de::Error::custom(format_args!("the snapshot has no `{name}` relation"))
            })?;
            list.push((name, mask, pairs));
        }
        Ok(RelationsData(list))
    }
}

pub(crate) struct ResourcesData<W: SnapshotSingletons>(pub(crate) W::Resources);

impl<'de, W: DeserializeSingletons> Deserialize<'de> for ResourcesData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ResourcesVisitor::<W>(PhantomData))
    }
}

struct ResourcesVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeSingletons> Visitor<'de> for ResourcesVisitor<W> {
    type Value = ResourcesData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the resources: a map of each resource's value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let names = W::RESOURCE_NAMES;
        let mut seen = vec![false; names.len()];
        let mut resources = W::Resources::default();
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = names.iter().position(|name| *name == key) else {
                return Err(de::Error::custom(format_args!(
                    "unknown resource `{key}` (this world's resources: {})",
                    names.join(", ")
                )));
            };
            if core::mem::replace(&mut seen[index], true) {
                return Err(de::Error::custom(format_args!(
                    "the resource `{key}` appears twice"
                )));
            }
            W::deserialize_resource(&mut resources, &key, &mut map)?;
        }
        if let Some(index) = seen.iter().position(|seen| !seen) {
            return Err(de::Error::custom(format_args!(
                "the snapshot has no `{}` resource",
                names[index]
            )));
        }
        Ok(ResourcesData(resources))
    }
}

/// How many bytes a sequence read from a snapshot reserves before its values are read: a
/// declared length is only a claim, so it never sizes an allocation by itself; the vector
/// grows with the values actually read (at most twice their size, plus this).
const PREALLOCATION_BYTES: usize = 4096;

/// A vector read from a snapshot without trusting its declared length.
pub(crate) struct Sequence<T>(pub(crate) Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sequence<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_seq(SequenceVisitor {
                limit: None,
                positional: false,
                marker: PhantomData,
            })
            .map(Sequence)
    }
}

/// Reads a sequence into a `Vec`, refusing it as soon as it holds more than `limit` values.
struct SequenceVisitor<T> {
    /// The most values accepted, and the name of the column they fill.
    limit: Option<(usize, &'static str)>,
    /// Read each value in the positional form (a column in a human-readable format).
    positional: bool,
    marker: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> SequenceVisitor<T> {
    /// The sequence's next value, in the positional form if this is a column of a
    /// human-readable snapshot.
    #[inline]
    fn next_value<S: de::SeqAccess<'de>>(&self, seq: &mut S) -> Result<Option<T>, S::Error> {
        if self.positional {
            seq.next_element_seed(PositionalSeed(PhantomData::<T>))
        } else {
            seq.next_element()
        }
    }
}

impl<T> SequenceVisitor<T> {
    fn too_long<E: de::Error>(&self, rows: usize, name: &str) -> E {
        E::custom(format_args!(
            "the `{name}` column holds more values than its table's {rows} entities"
        ))
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for SequenceVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a sequence")
    }

    fn visit_seq<S: de::SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        let declared = seq.size_hint();
        let limit = self.limit.map_or(usize::MAX, |(rows, _)| rows);
        if let (Some(declared), Some((rows, name))) = (declared, self.limit) {
            if declared > rows {
                return Err(self.too_long(rows, name));
            }
        }
        let affordable = PREALLOCATION_BYTES / core::mem::size_of::<T>().max(1);
        let mut values = Vec::with_capacity(declared.unwrap_or(0).min(limit).min(affordable));
        while values.len() < limit {
            match self.next_value(&mut seq)? {
                Some(value) => values.push(value),
                None => return Ok(values),
            }
        }
        if let Some((rows, name)) = self.limit {
            // Full: one more value is one too many. (It is read as a value: a format without
            // self-description, like postcard, cannot skip one unread.)
            if self.next_value(&mut seq)?.is_some() {
                return Err(self.too_long(rows, name));
            }
        }
        Ok(values)
    }
}

/// A column: the sequence of values of component `name` in a table of `rows` entities, read
/// as the next value of `map`. Refused as soon as it holds more than `rows` values (a
/// declared length beyond `rows` is refused before any value is read), and its allocation
/// grows with the values read, never with a declared length. Generated `deserialize_column`
/// calls it.
pub fn next_column<'de, A: MapAccess<'de>, C: Deserialize<'de>>(
    map: &mut A,
    name: &'static str,
    rows: usize,
) -> Result<Vec<C>, A::Error> {
    map.next_value_seed(ColumnSeed {
        visitor: SequenceVisitor {
            limit: Some((rows, name)),
            positional: false,
            marker: PhantomData,
        },
    })
}

struct ColumnSeed<C> {
    visitor: SequenceVisitor<C>,
}

impl<'de, C: Deserialize<'de>> de::DeserializeSeed<'de> for ColumnSeed<C> {
    type Value = Vec<C>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<C>, D::Error> {
        let visitor = SequenceVisitor {
            positional: deserializer.is_human_readable(),
            ..self.visitor
        };
        deserializer.deserialize_seq(visitor)
    }
}
