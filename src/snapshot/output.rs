//! Writing a snapshot: the one top-level serializer of a world's or game's layout
//! ([`serialize_whole`]), one storage's fields (among a world's own fields, or in a game's
//! sub-world entry), and the tables, tags, relations and resources under them.

use alloc::vec::Vec;

use serde::ser::{self, SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::change_ticks::ChangeTicksOut;
use super::events::EventsOut;
use super::ids::{EntityIdsOut, IdsOut};
use super::layout::{DISABLED, ENTITIES, Field, Layout};
use super::parts::SerializeParts;
use super::positional::Positional;
use super::systems::SystemsOut;
use super::{
    SNAPSHOT_VERSION, SerializeSingletons, SerializeTables, SnapshotSingletons, SnapshotTables,
};
use crate::archetype::Archetype;
use crate::mask::Bitmask;
use crate::storage::Storage;

/// Writes a world or game in its form's layout: the whole's own fields (the version, the entity
/// index, the resources, where event numbering stands) here, the parts' fields through `P`.
pub(crate) fn serialize_whole<P, S>(whole: &P::Whole, serializer: S) -> Result<S::Ok, S::Error>
where
    P: SerializeParts,
    P::Whole: SerializeSingletons,
    S: Serializer,
{
    let (generations, free) = P::snapshot_ids(whole);
    let layout = P::LAYOUT;
    let mut state = serializer.serialize_struct(layout.name, layout.fields.len())?;
    for &field in layout.fields {
        let name = field.name();
        match field {
            Field::Version => state.serialize_field(name, &SNAPSHOT_VERSION),
            Field::Generations => state.serialize_field(name, &generations),
            Field::Free => state.serialize_field(name, &IdsOut(&free)),
            Field::Resources => {
                state.serialize_field(name, &ResourcesOut::<P::Whole>(whole.resources()))
            }
            // Where numbering goes on after a load, so cursors kept from before read what comes.
            Field::EventSequences => state.serialize_field(name, &whole.event_sequences()),
            // The saved channels' events, after their numbering.
            Field::Events => state.serialize_field(name, &EventsOut(whole)),
            Field::Systems => state.serialize_field(name, &SystemsOut(P::systems(whole))),
            _ => P::serialize_field(whole, field, &mut state),
        }?;
    }
    state.end()
}

/// Writes `field` of one part's storage: its ticks, tables, their change ticks, tags,
/// relations, or where its change log numbers on.
pub(crate) fn serialize_storage_field<W: SerializeTables, S: SerializeStruct>(
    storage: &Storage<W::Table>,
    field: Field,
    state: &mut S,
) -> Result<(), S::Error> {
    let name = field.name();
    match field {
        Field::Tick => state.serialize_field(name, &storage.current_tick().0),
        Field::LastTick => state.serialize_field(name, &storage.last_tick().0),
        Field::Tables => state.serialize_field(name, &TablesOut::<W>(storage.tables())),
        Field::ChangeTicks => state.serialize_field(name, &ChangeTicksOut::<W>(storage)),
        Field::Tags => state.serialize_field(name, &TagsOut::<W>(storage)),
        Field::Relations => state.serialize_field(name, &RelationsOut::<W>(storage)),
        Field::ChangeLogSequence => {
            state.serialize_field(name, &storage.change_log().next_sequence())
        }
        _ => Err(ser::Error::custom(format_args!(
            "`{name}` is not a field of a storage"
        ))),
    }
}

/// One part's storage as an entry of its own (a game's sub-world): its fields, in the
/// sub-world layout.
pub(crate) struct StorageOut<'a, W: SnapshotTables>(pub(crate) &'a Storage<W::Table>);

impl<W: SerializeTables> Serialize for StorageOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let layout = Layout::SUB_WORLD;
        let mut state = serializer.serialize_struct(layout.name, layout.fields.len())?;
        for &field in layout.fields {
            serialize_storage_field::<W, S::SerializeStruct>(self.0, field, &mut state)?;
        }
        state.end()
    }
}

/// A storage's tables, in order.
struct TablesOut<'a, W: SnapshotTables>(&'a [W::Table]);

impl<W: SerializeTables> Serialize for TablesOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(TableOut::<W>))
    }
}

/// A table: a map of its entity ids, then each column it holds, in declaration order.
struct TableOut<'a, W: SnapshotTables>(&'a W::Table);

impl<W: SerializeTables> Serialize for TableOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let table = self.0;
        let mask = table.mask();
        let positional = serializer.is_human_readable();
        // Its bits are its columns, and the disabled bit its own entry.
        let disabled = mask.contains(Bitmask::DISABLED);
        let entries = 1 + mask.count_ones() as usize;
        let mut map = serializer.serialize_map(Some(entries))?;
        map.serialize_entry(ENTITIES, &EntityIdsOut(table.entities()))?;
        if disabled {
            map.serialize_entry(DISABLED, &true)?;
        }
        for &(name, bit) in W::COMPONENTS {
            if mask.contains(bit) {
                let column = ColumnOut {
                    map: &mut map,
                    bit,
                    name,
                    positional,
                };
                W::serialize_column(table, column)?;
            }
        }
        map.end()
    }
}

/// A column a table holds, as handed to the generated `serialize_column`, which picks it by the
/// component's mask bit (`bit()`) and writes its values (`write`): under the component's name,
/// in the positional form (see `positional.rs`) when the format is human-readable, since a
/// binary format already writes structs as their fields' values.
pub struct ColumnOut<'a, M, K> {
    map: &'a mut M,
    bit: K,
    name: &'static str,
    positional: bool,
}

impl<M: SerializeMap, K: Copy> ColumnOut<'_, M, K> {
    /// The component's mask bit.
    #[inline]
    pub fn bit(&self) -> K {
        self.bit
    }

    /// Writes the column: its component's name and its values.
    #[inline]
    pub fn write<C: Serialize>(self, values: &[C]) -> Result<(), M::Error> {
        if self.positional {
            self.map.serialize_entry(self.name, &Positional(values))
        } else {
            self.map.serialize_entry(self.name, values)
        }
    }
}

/// Each tag's member ids, by tag name.
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

/// The resources of a world or game, by name, in declaration order.
struct ResourcesOut<'a, W: SerializeSingletons>(&'a W::Resources);

impl<W: SerializeSingletons> Serialize for ResourcesOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = W::RESOURCE_NAMES;
        let mut map = serializer.serialize_map(Some(names.len()))?;
        for &name in names {
            W::serialize_resource(
                self.0,
                ResourceOut {
                    map: &mut map,
                    name,
                },
            )?;
        }
        map.end()
    }
}

/// A resource, as handed to the generated `serialize_resource`, which picks it by name
/// (`name()`) and writes its value (`write`).
pub struct ResourceOut<'a, M> {
    map: &'a mut M,
    name: &'static str,
}

impl<M: SerializeMap> ResourceOut<'_, M> {
    /// The resource's name.
    #[inline]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Writes the resource: its name and its value.
    #[inline]
    pub fn write<R: Serialize>(self, value: &R) -> Result<(), M::Error> {
        self.map.serialize_entry(self.name, value)
    }
}
