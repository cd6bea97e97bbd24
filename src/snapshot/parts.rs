//! What the one top-level serializer, deserializer and assembly ask of a form of whole (a
//! world, or a multi-world game), and what they hand it: the snapshot code is written once
//! against these traits, and each form (`world.rs`, `game.rs`) implements them.
//!
//! Below the code that writes, reads and checks a snapshot, so that code and both forms can
//! name them without naming each other.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Deserialize;
use serde::de;
use serde::ser::SerializeStruct;

use super::layout::{Field, Layout};
use super::{SnapshotError, SnapshotSingletons};
use crate::entity::{Entity, EntityIndex, EntityRecords};
use crate::system::SystemMemories;

/// How a world's or game's parts sit in its snapshot, and how its entity index and parts are
/// reached: what the one top-level serializer, deserializer and assembly ask of a form of
/// whole. Implemented for a world's form (`OneStorage`, in `world.rs`: its one storage, whose
/// fields sit among the whole's own) and a game's (`SubWorldStorages`, in `game.rs`: each
/// sub-world's storage by name).
pub(crate) trait SnapshotParts {
    /// The world or game.
    type Whole: SnapshotSingletons;

    /// Where each field of the snapshot sits.
    const LAYOUT: Layout;

    /// What the snapshot saves of the whole's entity index: every id's generation as runs, and
    /// the free list (see `EntityIndex::snapshot_ids`), against the first part's records.
    fn snapshot_ids(whole: &Self::Whole) -> (Vec<(u32, u32)>, Vec<u32>);

    /// What the systems run on the whole remember (`systems`, in a world's and a game's layout).
    fn systems(whole: &Self::Whole) -> &SystemMemories;
}

/// Parts whose loaded storages (`Storages`: one per part, `(Storage<..>, ())` and the like) a
/// new whole can take.
pub(crate) trait InstallParts<Storages>: SnapshotParts {
    /// Puts a loaded entity index, the parts' storages and what the systems remember in a new
    /// whole.
    fn install(
        whole: &mut Self::Whole,
        index: EntityIndex,
        storages: Storages,
        systems: SystemMemories,
    );
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
pub(crate) trait DeserializeParts: SnapshotParts<Whole: Default> {
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

/// The value of the field just named, read from where the struct's fields come from: a map
/// entry's value, or a sequence's next element (`input.rs` has both).
pub(crate) trait FieldValue<'de> {
    /// The format's error.
    type Error: de::Error;

    /// Reads the value.
    fn read<T: Deserialize<'de>>(self) -> Result<T, Self::Error>;
}

/// The parts of a whole as decoded, first to last, as a list of nested pairs: a world's
/// `(StorageData<World>, ())`, a game's `(StorageData<Core>, (StorageData<Render>, ()))`. The
/// first part's records are the entity index's; every later part's mirror them. Implemented
/// in `validation.rs`, beside the checks it runs.
pub trait LoadedParts {
    /// Each part's storage, built: `(Storage<World's tables>, ())` and the like.
    type Storages;

    /// Refuses a part whose `last_tick` is not strictly before its `tick`.
    fn check_ticks(&self) -> Result<(), SnapshotError>;

    /// The ids of each of the first part's tables' rows (none for the empty list).
    fn first_rows(&self) -> impl Iterator<Item = &[u32]> + Clone;

    /// `error` of the entity index's fields against the first part's rows, said of that part.
    fn ids_error(&self, error: String) -> SnapshotError;

    /// Builds every part's storage: the first takes `records` (loaded from the index's fields
    /// against its rows, which `entities` are the handles of), every later one is checked
    /// against them and gets records of its own.
    fn build(
        self,
        records: EntityRecords,
        entities: Vec<Vec<Entity>>,
    ) -> Result<Self::Storages, SnapshotError>;

    /// Builds each of these parts (all after the first) against the first part's records.
    fn build_mirrors(self, first: &EntityRecords) -> Result<Self::Storages, SnapshotError>;
}
