//! The layouts of a snapshot's structs, and what the one top-level serializer, deserializer and
//! assembly ask of a form of whole (a world, or a multi-world game).
//!
//! A world is a game with one part: both are an entity index, its parts and its singletons,
//! written and read by the same code (`output.rs`, `input.rs`, `validation.rs`). What differs
//! is where the parts' fields sit, which is a [`Layout`]: a world's one storage writes its
//! fields among the whole's own ([`Layout::WORLD`], as version 4 always has), a game writes
//! each sub-world's storage by name under `sub_worlds` ([`Layout::GAME`]), each entry a
//! [`Layout::SUB_WORLD`]. Both directions follow the layout's list of fields, so a binary
//! format reads them in exactly the order they were written.

use alloc::vec::Vec;
use core::marker::PhantomData;

use serde::de;
use serde::ser::SerializeStruct;

use super::input::{FieldSlots, FieldValue, StorageSlots};
use super::output::serialize_storage_field;
use super::validation::{LoadedParts, StorageData};
use super::{DeserializeTables, SerializeTables, SnapshotSingletons, SnapshotWorld};
use crate::entity::EntityIndex;
use crate::storage::Storage;

/// A field of a snapshot's top-level struct, or of a game's sub-world entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// The format version, [`SNAPSHOT_VERSION`](super::SNAPSHOT_VERSION).
    Version,
    /// A storage's current tick.
    Tick,
    /// A storage's last tick (strictly before `tick`).
    LastTick,
    /// The entity index: every id's generation, as runs.
    Generations,
    /// The entity index: the free list, in recycling order.
    Free,
    /// A storage's tables, rows in order.
    Tables,
    /// A storage's tags, by name.
    Tags,
    /// A storage's relations, by name.
    Relations,
    /// The whole's resources, by name.
    Resources,
    /// Where a storage's change log numbers on.
    ChangeLogSequence,
    /// Where each of the whole's event channels numbers on.
    EventSequences,
    /// A game's sub-worlds, by name.
    SubWorlds,
}

impl Field {
    /// The field's name in the snapshot.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Field::Version => "version",
            Field::Tick => "tick",
            Field::LastTick => "last_tick",
            Field::Generations => "generations",
            Field::Free => "free",
            Field::Tables => "tables",
            Field::Tags => "tags",
            Field::Relations => "relations",
            Field::Resources => "resources",
            Field::ChangeLogSequence => "change_log_sequence",
            Field::EventSequences => "event_sequences",
            Field::SubWorlds => "sub_worlds",
        }
    }
}

/// A struct of a snapshot: its name and its fields, in the order they are written.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// The struct's name (a format may write it).
    pub(crate) name: &'static str,
    /// The fields, in order.
    pub(crate) fields: &'static [Field],
    /// The fields' names, in the same order (what serde reports an unknown field against).
    pub(crate) names: &'static [&'static str],
}

/// A layout of the fields listed, the names taken from the fields.
macro_rules! layout {
    ($name:literal, [$($field:ident),+ $(,)?]) => {
        Layout {
            name: $name,
            fields: &[$(Field::$field),+],
            names: &[$(Field::$field.name()),+],
        }
    };
}

impl Layout {
    /// A world's snapshot: its one storage's fields among the whole's own.
    pub(crate) const WORLD: Layout = layout!(
        "Snapshot",
        [
            Version,
            Tick,
            LastTick,
            Generations,
            Free,
            Tables,
            Tags,
            Relations,
            Resources,
            ChangeLogSequence,
            EventSequences
        ]
    );

    /// A game's snapshot: its sub-worlds' storages by name, under `sub_worlds`.
    pub(crate) const GAME: Layout = layout!(
        "GameSnapshot",
        [
            Version,
            Generations,
            Free,
            SubWorlds,
            Resources,
            EventSequences
        ]
    );

    /// A game's sub-world entry: the fields a world's snapshot writes of its storage.
    pub(crate) const SUB_WORLD: Layout = layout!(
        "SubWorld",
        [Tick, LastTick, Tables, Tags, Relations, ChangeLogSequence]
    );

    /// The field of this layout named `name`, if any.
    pub(crate) fn field(&self, name: &str) -> Option<Field> {
        let index = self.names.iter().position(|field| *field == name)?;
        Some(self.fields[index])
    }
}

/// How a world's or game's parts sit in its snapshot, and how its entity index and parts are
/// reached: what the one top-level serializer, deserializer and assembly ask of a form of
/// whole. Implemented for a world's form (`OneStorage`: its one storage, whose fields sit among
/// the whole's own) and a game's (`SubWorldStorages`: each sub-world's storage by name, in
/// `game.rs`).
pub(crate) trait SnapshotParts {
    /// The world or game.
    type Whole: SnapshotSingletons;

    /// Where each field of the snapshot sits.
    const LAYOUT: Layout;

    /// What the snapshot saves of the whole's entity index: every id's generation as runs, and
    /// the free list (see `EntityIndex::snapshot_ids`), against the first part's records.
    fn snapshot_ids(whole: &Self::Whole) -> (Vec<(u32, u32)>, Vec<u32>);
}

/// Parts whose loaded storages (`Storages`: one per part, `(Storage<..>, ())` and the like) a
/// new whole can take.
pub(crate) trait InstallParts<Storages>: SnapshotParts {
    /// Puts a loaded entity index and the parts' storages in a new whole.
    fn install(whole: &mut Self::Whole, index: EntityIndex, storages: Storages);
}

/// Parts whose components are all `Serialize`: the parts' fields written.
pub(crate) trait SerializeParts: SnapshotParts {
    /// Writes `field`, one of the layout's fields the parts hold (a world's storage fields, a
    /// game's `sub_worlds`).
    fn serialize_field<S: SerializeStruct>(
        whole: &Self::Whole,
        field: Field,
        state: &mut S,
    ) -> Result<(), S::Error>;
}

/// Parts whose components are all `DeserializeOwned`: the parts' fields read.
pub(crate) trait DeserializeParts: SnapshotParts {
    /// The parts' fields read so far.
    type Slots: Default;

    /// The parts decoded, first to last, not yet checked.
    type Loaded: LoadedParts;

    /// Reads `field`, one of the layout's fields the parts hold, into `slots`.
    fn read_field<'de, V: FieldValue<'de>>(
        slots: &mut Self::Slots,
        field: Field,
        value: V,
    ) -> Result<(), V::Error>;

    /// The parts read, or the error naming what is missing.
    fn finish<E: de::Error>(slots: Self::Slots) -> Result<Self::Loaded, E>;
}

/// A world's form of the parts: its one storage, whose fields sit among the whole's own.
pub(crate) struct OneStorage<W>(PhantomData<fn() -> W>);

impl<W: SnapshotWorld> SnapshotParts for OneStorage<W> {
    type Whole = W;

    const LAYOUT: Layout = Layout::WORLD;

    fn snapshot_ids(world: &W) -> (Vec<(u32, u32)>, Vec<u32>) {
        world.index().snapshot_ids(world.storage().records())
    }
}

impl<W: SnapshotWorld> InstallParts<(Storage<W::Table>, ())> for OneStorage<W> {
    fn install(world: &mut W, index: EntityIndex, (storage, ()): (Storage<W::Table>, ())) {
        *world.index_mut() = index;
        **world.deref_mut() = storage;
    }
}

impl<W: SnapshotWorld + SerializeTables> SerializeParts for OneStorage<W> {
    fn serialize_field<S: SerializeStruct>(
        world: &W,
        field: Field,
        state: &mut S,
    ) -> Result<(), S::Error> {
        serialize_storage_field::<W, S>(world.storage(), field, state)
    }
}

impl<W: SnapshotWorld + DeserializeTables> DeserializeParts for OneStorage<W> {
    type Slots = StorageSlots<W>;
    type Loaded = (StorageData<W>, ());

    fn read_field<'de, V: FieldValue<'de>>(
        slots: &mut StorageSlots<W>,
        field: Field,
        value: V,
    ) -> Result<(), V::Error> {
        slots.read(field, value)
    }

    fn finish<E: de::Error>(slots: StorageSlots<W>) -> Result<Self::Loaded, E> {
        Ok((slots.finish()?, ()))
    }
}
