//! Reading a snapshot's structs: the one top-level deserializer of a world's or game's layout
//! ([`deserialize_whole`]) and a game's sub-world entry, each read field by field into its
//! slots, from a map by name (a self-describing format) or from a sequence in the layout's
//! order (a binary one). Each field is read at most once, none is missing, and a name outside
//! the layout is refused, as serde's derived structs with `deny_unknown_fields` do.

use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::change_ticks::TableTicksData;
use super::events::EventsData;
use super::ids::IdsIn;
use super::layout::{Field, Layout};
use super::maps::{RelationsData, ResourcesData, TableData, TagsData};
use super::parts::{DeserializeParts, FieldValue, SnapshotParts};
use super::sequence::Sequence;
use super::systems::SystemsIn;
use super::validation::{DecodedWhole, StorageData};
use super::{
    DeserializeSingletons, DeserializeTables, SNAPSHOT_VERSION, SnapshotSingletons, SnapshotTables,
};

/// A map entry's value.
struct MapValue<'a, A>(&'a mut A);

impl<'de, A: MapAccess<'de>> FieldValue<'de> for MapValue<'_, A> {
    type Error = A::Error;

    fn read<T: Deserialize<'de>>(self) -> Result<T, A::Error> {
        self.0.next_value()
    }
}

/// The next element of a sequence, the field at `index` of `layout`.
struct SeqElement<'a, A> {
    seq: &'a mut A,
    index: usize,
    layout: Layout,
}

impl<'de, A: SeqAccess<'de>> FieldValue<'de> for SeqElement<'_, A> {
    type Error = A::Error;

    fn read<T: Deserialize<'de>>(self) -> Result<T, A::Error> {
        let value = self.seq.next_element()?;
        value.ok_or_else(|| de::Error::invalid_length(self.index, &Expecting(self.layout)))
    }
}

/// The fields of one of a snapshot's structs, read into their slots.
pub(crate) trait FieldSlots<'de>: Default {
    /// What the fields make.
    type Value;

    /// The struct's name and fields.
    const LAYOUT: Layout;

    /// Reads `field`'s value into its slot (an error if it was read already).
    fn read<V: FieldValue<'de>>(&mut self, field: Field, value: V) -> Result<(), V::Error>;

    /// The value the fields make, or the error naming a missing one.
    fn finish<E: de::Error>(self) -> Result<Self::Value, E>;
}

/// Reads a struct of `S`'s layout, from a map or a sequence.
fn deserialize_struct<'de, S: FieldSlots<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<S::Value, D::Error> {
    let layout = S::LAYOUT;
    deserializer.deserialize_struct(layout.name, layout.names, StructVisitor::<S>(PhantomData))
}

/// The visitor of a struct of `S`'s layout.
struct StructVisitor<S>(PhantomData<fn() -> S>);

impl<'de, S: FieldSlots<'de>> Visitor<'de> for StructVisitor<S> {
    type Value = S::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "struct {}", S::LAYOUT.name)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Value, A::Error> {
        let layout = S::LAYOUT;
        let mut slots = S::default();
        for (index, &field) in layout.fields.iter().enumerate() {
            let value = SeqElement {
                seq: &mut seq,
                index,
                layout,
            };
            slots.read(field, value)?;
        }
        slots.finish()
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let layout = S::LAYOUT;
        let mut slots = S::default();
        while let Some(key) = map.next_key::<String>()? {
            let Some(field) = layout.field(&key) else {
                return Err(de::Error::unknown_field(&key, layout.names));
            };
            slots.read(field, MapValue(&mut map))?;
        }
        slots.finish()
    }
}

/// What a sequence too short for a layout was expected to be.
struct Expecting(Layout);

impl de::Expected for Expecting {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Layout { name, fields, .. } = self.0;
        write!(formatter, "struct {name} with {} elements", fields.len())
    }
}

/// Reads `field`'s value into `slot`; an error if it was read already.
pub(crate) fn fill<'de, T: Deserialize<'de>, V: FieldValue<'de>>(
    slot: &mut Option<T>,
    field: Field,
    value: V,
) -> Result<(), V::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(field.name()));
    }
    *slot = Some(value.read()?);
    Ok(())
}

/// `field`'s value, or the error that it is missing.
pub(crate) fn take<T, E: de::Error>(slot: Option<T>, field: Field) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(field.name()))
}

/// A world or game of form `P`, decoded.
type Decoded<P> = DecodedWhole<
    <P as DeserializeParts>::Loaded,
    <<P as SnapshotParts>::Whole as SnapshotSingletons>::Resources,
    <P as SnapshotParts>::Whole,
>;

/// Reads a world or game in its form's layout: the whole's own fields here, the parts' through
/// `P`.
pub(crate) fn deserialize_whole<'de, P, D>(deserializer: D) -> Result<Decoded<P>, D::Error>
where
    P: DeserializeParts,
    P::Whole: DeserializeSingletons,
    D: Deserializer<'de>,
{
    deserialize_struct::<WholeSlots<P>, D>(deserializer)
}

/// The fields of a world's or game's snapshot, as read so far.
struct WholeSlots<P: DeserializeParts>
where
    P::Whole: DeserializeSingletons,
{
    version: Option<SupportedVersion>,
    generations: Option<Sequence<(u32, u32)>>,
    free: Option<IdsIn>,
    parts: P::Slots,
    resources: Option<ResourcesData<P::Whole>>,
    event_sequences: Option<Sequence<(String, u64)>>,
    events: Option<EventsData<P::Whole>>,
    systems: Option<SystemsIn>,
}

impl<P: DeserializeParts> Default for WholeSlots<P>
where
    P::Whole: DeserializeSingletons,
{
    fn default() -> Self {
        WholeSlots {
            version: None,
            generations: None,
            free: None,
            parts: P::Slots::default(),
            resources: None,
            event_sequences: None,
            events: None,
            systems: None,
        }
    }
}

impl<'de, P: DeserializeParts> FieldSlots<'de> for WholeSlots<P>
where
    P::Whole: DeserializeSingletons,
{
    type Value = Decoded<P>;

    const LAYOUT: Layout = P::LAYOUT;

    fn read<V: FieldValue<'de>>(&mut self, field: Field, value: V) -> Result<(), V::Error> {
        match field {
            Field::Version => fill(&mut self.version, field, value),
            Field::Generations => fill(&mut self.generations, field, value),
            Field::Free => fill(&mut self.free, field, value),
            Field::Resources => fill(&mut self.resources, field, value),
            Field::EventSequences => fill(&mut self.event_sequences, field, value),
            Field::Events => fill(&mut self.events, field, value),
            Field::Systems => fill(&mut self.systems, field, value),
            _ => P::read_field(&mut self.parts, field, value),
        }
    }

    fn finish<E: de::Error>(self) -> Result<Self::Value, E> {
        take::<SupportedVersion, E>(self.version, Field::Version)?;
        Ok(DecodedWhole {
            generations: take(self.generations, Field::Generations)?.0,
            free: take(self.free, Field::Free)?.0,
            parts: P::finish(self.parts)?,
            resources: take(self.resources, Field::Resources)?.0,
            event_sequences: take(self.event_sequences, Field::EventSequences)?.0,
            whole: take(self.events, Field::Events)?.0,
            systems: take(self.systems, Field::Systems)?,
        })
    }
}

/// The fields of one part's storage, as read so far: among a world's own fields, or in a game's
/// sub-world entry.
pub(crate) struct StorageSlots<W: SnapshotTables> {
    tick: Option<u32>,
    last_tick: Option<u32>,
    tables: Option<Sequence<TableData<W>>>,
    change_ticks: Option<Sequence<TableTicksData<W>>>,
    tags: Option<TagsData<W>>,
    relations: Option<RelationsData<W>>,
    change_log_sequence: Option<u64>,
}

impl<W: SnapshotTables> Default for StorageSlots<W> {
    fn default() -> Self {
        StorageSlots {
            tick: None,
            last_tick: None,
            tables: None,
            change_ticks: None,
            tags: None,
            relations: None,
            change_log_sequence: None,
        }
    }
}

/// One part's storage: among a world's own fields, or a game's sub-world entry (which the
/// game's reader names once read).
impl<'de, W: DeserializeTables> FieldSlots<'de> for StorageSlots<W> {
    type Value = StorageData<W>;

    const LAYOUT: Layout = Layout::SUB_WORLD;

    fn read<V: FieldValue<'de>>(&mut self, field: Field, value: V) -> Result<(), V::Error> {
        match field {
            Field::Tick => fill(&mut self.tick, field, value),
            Field::LastTick => fill(&mut self.last_tick, field, value),
            Field::Tables => fill(&mut self.tables, field, value),
            Field::ChangeTicks => fill(&mut self.change_ticks, field, value),
            Field::Tags => fill(&mut self.tags, field, value),
            Field::Relations => fill(&mut self.relations, field, value),
            Field::ChangeLogSequence => fill(&mut self.change_log_sequence, field, value),
            _ => Err(de::Error::unknown_field(field.name(), Self::LAYOUT.names)),
        }
    }

    fn finish<E: de::Error>(self) -> Result<StorageData<W>, E> {
        Ok(StorageData {
            part: None,
            tick: take(self.tick, Field::Tick)?,
            last_tick: take(self.last_tick, Field::LastTick)?,
            tables: take(self.tables, Field::Tables)?,
            change_ticks: take(self.change_ticks, Field::ChangeTicks)?,
            tags: take(self.tags, Field::Tags)?.0,
            relations: take(self.relations, Field::Relations)?.0,
            change_log_sequence: take(self.change_log_sequence, Field::ChangeLogSequence)?,
        })
    }
}

impl<'de, W: DeserializeTables> Deserialize<'de> for StorageData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_struct::<StorageSlots<W>, D>(deserializer)
    }
}

/// The format version, refused at once when it is not [`SNAPSHOT_VERSION`].
struct SupportedVersion;

impl<'de> Deserialize<'de> for SupportedVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let version = u32::deserialize(deserializer)?;
        if version == SNAPSHOT_VERSION {
            Ok(SupportedVersion)
        } else {
            Err(de::Error::custom(format_args!(
                "snapshot version {version} is not supported (this build reads version {SNAPSHOT_VERSION})"
            )))
        }
    }
}
