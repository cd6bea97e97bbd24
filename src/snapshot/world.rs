//! A world's form of its snapshot's parts: its one storage, whose fields sit among the whole's
//! own ([`Layout::WORLD`]); a game's form is in `game.rs`.

use alloc::vec::Vec;
use core::marker::PhantomData;

use serde::de;
use serde::ser::SerializeStruct;

use super::input::{FieldSlots, StorageSlots};
use super::layout::{Field, Layout};
use super::output::serialize_storage_field;
use super::parts::{DeserializeParts, FieldValue, InstallParts, SerializeParts, SnapshotParts};
use super::validation::StorageData;
use super::{DeserializeTables, SerializeTables, SnapshotWorld};
use crate::entity::EntityIndex;
use crate::storage::Storage;
use crate::system::SystemMemories;

/// A world's form of the parts: its one storage, whose fields sit among the whole's own.
pub(crate) struct OneStorage<W>(PhantomData<fn() -> W>);

impl<W: SnapshotWorld> SnapshotParts for OneStorage<W> {
    type Whole = W;

    const LAYOUT: Layout = Layout::WORLD;

    fn snapshot_ids(world: &W) -> (Vec<(u32, u32)>, Vec<u32>) {
        world.index().snapshot_ids(world.storage().records())
    }

    fn systems(world: &W) -> &SystemMemories {
        world.systems()
    }
}

impl<W: SnapshotWorld> InstallParts<(Storage<W::Table>, ())> for OneStorage<W> {
    fn install(
        world: &mut W,
        index: EntityIndex,
        (storage, ()): (Storage<W::Table>, ()),
        systems: SystemMemories,
    ) {
        *world.index_mut() = index;
        **world.deref_mut() = storage;
        *world.systems_mut() = systems;
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
