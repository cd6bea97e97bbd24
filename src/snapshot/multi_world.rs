//! A game's form of its snapshot's parts (feature `serde`): each sub-world's storage, by name.
//!
//! A game's snapshot is written, read, checked and built by the same code as a world's (the rest of
//! `src/snapshot/`): a world is a game with one part. What is the game's own is here, beside that
//! code, over the game's runtime traits (`crate::multi_world`, which knows nothing of snapshots):
//! its one entity index is reached through its
//! [`MultiWorldEntities`](crate::multi_world::MultiWorldEntities) and answered for by its first
//! sub-world's records; its parts are its sub-worlds, the list of nested pairs `(&Core, (&Render,
//! ()))`, each written as an entry of the `sub_worlds` map under its name (the fields a world's
//! snapshot writes of its storage) and read back the same way, each name once and none missing; and
//! the loaded storages go into a new game's sub-worlds, its index beside them.
//!
//! Loading checks every sub-world as a world's one part is checked, and every sub-world after
//! the first against the records the first's rows were loaded into: each id alive in the game,
//! on one row, and every live entity of the game on a row (`validation.rs`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::input::{fill, take};
use super::layout::{Field, Layout};
use super::output::StorageOut;
use super::parts::{
    DeserializeParts, FieldValue, InstallParts, LoadedParts, SerializeParts, SnapshotParts,
};
use super::validation::StorageData;
use super::{
    DeserializeSingletons, DeserializeTables, SerializeSingletons, SerializeTables,
    SnapshotSingletons,
};
use crate::entity::EntityIndex;
use crate::multi_world::{MultiWorld, SubWorld, SubWorlds};
use crate::storage::Storage;
use crate::system::SystemMemories;

/// A game's form of the parts: each sub-world's storage by name, under `sub_worlds`.
pub(crate) struct SubWorldStorages<G>(PhantomData<fn() -> G>);

impl<G: MultiWorld + SnapshotSingletons> SnapshotParts for SubWorldStorages<G> {
    type Whole = G;

    const LAYOUT: Layout = Layout::GAME;

    fn snapshot_ids(game: &G) -> (Vec<(u32, u32)>, Vec<u32>) {
        let (sub_worlds, entities) = game.parts();
        let records = sub_worlds
            .first_records()
            .expect("a game has at least one sub-world");
        entities.index().snapshot_ids(records)
    }

    fn systems(game: &G) -> &SystemMemories {
        game.systems()
    }
}

impl<G: SerializeMultiWorld> SerializeParts for SubWorldStorages<G> {
    fn serialize_field<S: SerializeStruct>(
        game: &G,
        field: Field,
        state: &mut S,
    ) -> Result<(), S::Error> {
        let name = field.name();
        match field {
            Field::SubWorlds => state.serialize_field(name, &SubWorldsOut(game)),
            _ => Err(ser::Error::custom(format_args!(
                "`{name}` is not a field of a game's parts"
            ))),
        }
    }
}

impl<G: DeserializeMultiWorld> DeserializeParts for SubWorldStorages<G> {
    type Slots = Option<SubWorldsData<G::SubWorldList>>;
    type Loaded = <G::SubWorldList as LoadSubWorlds>::Loaded;

    fn read_field<'de, V: FieldValue<'de>>(
        slots: &mut Self::Slots,
        field: Field,
        value: V,
    ) -> Result<(), V::Error> {
        match field {
            Field::SubWorlds => fill(slots, field, value),
            _ => Err(de::Error::unknown_field(field.name(), Layout::GAME.names)),
        }
    }

    fn finish<E: de::Error>(slots: Self::Slots) -> Result<Self::Loaded, E> {
        Ok(take(slots, Field::SubWorlds)?.0)
    }
}

impl<G: DeserializeMultiWorld> InstallParts<<G::SubWorldList as LoadSubWorlds>::Storages>
    for SubWorldStorages<G>
{
    fn install(
        game: &mut G,
        index: EntityIndex,
        storages: <G::SubWorldList as LoadSubWorlds>::Storages,
        systems: SystemMemories,
    ) {
        game.install(index, storages);
        *game.systems_mut() = systems;
    }
}

/// A game whose component and resource types are all `Serialize`: what `game.snapshot()`
/// needs. Implemented for every generated game whose types allow it.
pub trait SerializeMultiWorld: MultiWorld + SerializeSingletons {
    /// Writes the `sub_worlds` map: each sub-world's name and storage.
    fn serialize_sub_worlds<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

impl<G> SerializeMultiWorld for G
where
    G: MultiWorld + SerializeSingletons,
    for<'a> G::SubWorlds<'a>: SerializeSubWorlds,
{
    fn serialize_sub_worlds<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (sub_worlds, _) = self.parts();
        let mut map = serializer.serialize_map(Some(sub_worlds.count()))?;
        sub_worlds.serialize_entries(&mut map)?;
        map.end()
    }
}

/// The `sub_worlds` map of a game being written.
struct SubWorldsOut<'a, G>(&'a G);

impl<G: SerializeMultiWorld> Serialize for SubWorldsOut<'_, G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_sub_worlds(serializer)
    }
}

/// A game's sub-worlds, borrowed (`(&Core, (&Render, ()))`), written into a snapshot:
/// implemented when every sub-world's components are `Serialize`.
pub trait SerializeSubWorlds {
    /// Number of sub-worlds in the list.
    fn count(&self) -> usize;

    /// Writes one map entry per sub-world: its name and its storage.
    fn serialize_entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

impl SerializeSubWorlds for () {
    #[inline]
    fn count(&self) -> usize {
        0
    }

    #[inline]
    fn serialize_entries<M: SerializeMap>(&self, _map: &mut M) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<W, R> SerializeSubWorlds for (&W, R)
where
    W: SubWorld + SerializeTables<Table = <W as SubWorld>::Tables>,
    R: SerializeSubWorlds,
{
    #[inline]
    fn count(&self) -> usize {
        1 + self.1.count()
    }

    fn serialize_entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry(W::NAME, &StorageOut::<W>(self.0.storage()))?;
        self.1.serialize_entries(map)
    }
}

/// A game whose component and resource types are all `DeserializeOwned`: what loading one
/// needs. Implemented for every generated game whose types allow it.
pub trait DeserializeMultiWorld: MultiWorld + DeserializeSingletons + Default {
    /// The sub-worlds, as a list a snapshot's `sub_worlds` map is read into.
    type SubWorldList: LoadSubWorlds;

    /// Puts a loaded entity index and the sub-worlds' loaded storages in this new game.
    fn install(
        &mut self,
        index: EntityIndex,
        storages: <Self::SubWorldList as LoadSubWorlds>::Storages,
    );
}

impl<G> DeserializeMultiWorld for G
where
    G: MultiWorld + DeserializeSingletons + Default,
    G::SubWorlds<'static>: LoadSubWorlds,
    for<'a> G::SubWorldsMut<'a>:
        InstallSubWorlds<<G::SubWorlds<'static> as LoadSubWorlds>::Storages>,
{
    type SubWorldList = G::SubWorlds<'static>;

    fn install(
        &mut self,
        index: EntityIndex,
        storages: <Self::SubWorldList as LoadSubWorlds>::Storages,
    ) {
        let (sub_worlds, entities) = self.parts_mut();
        sub_worlds.install(storages);
        // A new game has nothing queued: only its index is the snapshot's.
        *entities.index_mut() = index;
    }
}

/// A game's sub-worlds, as the list of their borrowed types (`(&Core, (&Render, ()))`), read
/// from a snapshot: implemented when every sub-world's components are `DeserializeOwned`.
pub trait LoadSubWorlds {
    /// Each sub-world's entry, if read yet: `(Option<StorageData<Core>>, (Option<..>, ()))`.
    type Slots: Default;
    /// Each sub-world's storage, loaded: `(Storage<Core's tables>, (Storage<..>, ()))`.
    type Storages;
    /// Each sub-world's entry, read: `(StorageData<Core>, (StorageData<Render>, ()))`.
    type Loaded: LoadedParts<Storages = Self::Storages>;

    /// The sub-worlds' names, in order.
    fn names(names: &mut Vec<&'static str>);

    /// If `name` is a sub-world's, reads its entry from `map` into `slots` (an error if it was
    /// read already) and returns `true`; `false` for another name (the value left unread).
    fn read_entry<'de, A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;

    /// Every sub-world's entry, or the name of the first one missing.
    fn finish(slots: Self::Slots) -> Result<Self::Loaded, &'static str>;
}

impl LoadSubWorlds for () {
    type Slots = ();
    type Storages = ();
    type Loaded = ();

    #[inline]
    fn names(_names: &mut Vec<&'static str>) {}

    #[inline]
    fn read_entry<'de, A: MapAccess<'de>>(
        _slots: &mut (),
        _name: &str,
        _map: &mut A,
    ) -> Result<bool, A::Error> {
        Ok(false)
    }

    #[inline]
    fn finish(_slots: ()) -> Result<(), &'static str> {
        Ok(())
    }
}

impl<W, R> LoadSubWorlds for (&W, R)
where
    W: SubWorld + DeserializeTables<Table = <W as SubWorld>::Tables>,
    R: LoadSubWorlds,
{
    type Slots = (Option<StorageData<W>>, R::Slots);
    type Storages = (Storage<W::Tables>, R::Storages);
    type Loaded = (StorageData<W>, R::Loaded);

    fn names(names: &mut Vec<&'static str>) {
        names.push(W::NAME);
        R::names(names);
    }

    fn read_entry<'de, A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        if name != W::NAME {
            return R::read_entry(&mut slots.1, name, map);
        }
        if slots.0.is_some() {
            return Err(de::Error::custom(format_args!(
                "the sub-world `{name}` appears twice"
            )));
        }
        let mut storage: StorageData<W> = map.next_value()?;
        storage.part = Some(W::NAME);
        slots.0 = Some(storage);
        Ok(true)
    }

    fn finish(slots: Self::Slots) -> Result<Self::Loaded, &'static str> {
        let (Some(storage), rest) = slots else {
            return Err(W::NAME);
        };
        Ok((storage, R::finish(rest)?))
    }
}

/// A game's sub-worlds, borrowed mutably (`(&mut Core, (&mut Render, ()))`), given the
/// storages a snapshot loaded (`Storages`, in the same order).
pub trait InstallSubWorlds<Storages> {
    /// Puts each storage in its sub-world.
    fn install(self, storages: Storages);
}

impl InstallSubWorlds<()> for () {
    #[inline]
    fn install(self, _storages: ()) {}
}

impl<W, R, S> InstallSubWorlds<(Storage<W::Tables>, S)> for (&mut W, R)
where
    W: SubWorld,
    R: InstallSubWorlds<S>,
{
    #[inline]
    fn install(self, storages: (Storage<W::Tables>, S)) {
        *self.0.storage_mut() = storages.0;
        self.1.install(storages.1);
    }
}

/// The `sub_worlds` map, decoded: one entry per sub-world, each exactly once.
pub(crate) struct SubWorldsData<L: LoadSubWorlds>(L::Loaded);

impl<'de, L: LoadSubWorlds> Deserialize<'de> for SubWorldsData<L> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SubWorldsVisitor::<L>(PhantomData))
    }
}

/// The visitor of the `sub_worlds` map, for the list of sub-worlds `L`.
struct SubWorldsVisitor<L>(PhantomData<fn() -> L>);

impl<'de, L: LoadSubWorlds> Visitor<'de> for SubWorldsVisitor<L> {
    type Value = SubWorldsData<L>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the sub-worlds: a map of each sub-world's storage")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut slots = L::Slots::default();
        while let Some(key) = map.next_key::<String>()? {
            if !L::read_entry(&mut slots, &key, &mut map)? {
                let mut names = Vec::new();
                L::names(&mut names);
                return Err(de::Error::custom(format_args!(
                    "unknown sub-world `{key}` (this game's sub-worlds: {})",
                    names.join(", ")
                )));
            }
        }
        match L::finish(slots) {
            Ok(loaded) => Ok(SubWorldsData(loaded)),
            Err(missing) => Err(de::Error::custom(format_args!(
                "the snapshot has no sub-world `{missing}`"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::entity::Entity;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use crate::multi_world::tests::plain_game::*;

    #[test]
    fn a_loaded_game_is_in_step_and_issues_the_saved_game_s_next_handles() {
        let mut game = busy_game();
        let text = serde_json::to_string(&game.snapshot()).unwrap();
        let mut loaded: PlainGame = serde_json::from_str(&text).unwrap();
        loaded.check_invariants().unwrap();
        assert_eq!(loaded.resources.frames, 9);
        assert_eq!(
            loaded.entities().collect::<Vec<Entity>>(),
            game.entities().collect::<Vec<Entity>>()
        );
        game.clear_commands();
        assert_eq!(loaded.spawn_entities(4), game.spawn_entities(4));
        let root = game.core.query_entities(NUMBER).next().unwrap();
        assert!(
            loaded.despawn(root),
            "the link was saved: the cascade follows it"
        );
        assert!(game.despawn(root));
        assert_eq!(
            loaded.entities().collect::<Vec<Entity>>(),
            game.entities().collect::<Vec<Entity>>()
        );
        loaded.check_invariants().unwrap();
    }

    #[test]
    fn a_sub_world_out_of_step_with_the_game_is_refused_by_name() {
        let text = serde_json::to_string(&busy_game().snapshot()).unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let render = &mut value["sub_worlds"]["Render"]["tables"][0]["entities"];
        render.as_array_mut().unwrap().pop();
        let error = serde_json::from_str::<PlainGame>(&value.to_string())
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.starts_with("invalid snapshot: the sub-world `Render`: the game's entity"),
            "{error}"
        );
    }
}
