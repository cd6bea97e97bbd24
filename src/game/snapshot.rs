//! Snapshots of a multi-world game (feature `serde`): `game.snapshot()`, `Game::from_snapshot`
//! and the game's `Serialize` / `Deserialize`, under the rules of a world's snapshot (see
//! `src/snapshot.rs`, whose pieces this reuses): loaded whole and checked, or refused with a
//! [`SnapshotError`]; no declared length sizes an allocation; the loaded game issues the
//! same next handles, and its event and change-log numbering goes on where it stood.
//!
//! # The format
//! A struct `GameSnapshot` of six fields, in this order:
//! - `version`: [`SNAPSHOT_VERSION`], the world's;
//! - `generations` and `free`: the game's one entity index (and its first sub-world's
//!   records), as a world's snapshot writes its own (every id's generation as runs, the free
//!   list in recycling order, reserved ids as given back);
//! - `sub_worlds`: a map from each sub-world's name (`Core`) to its storage as a world's
//!   snapshot writes it (`tick`, `last_tick`, `tables`, `tags`, `relations`,
//!   `change_log_sequence`): tables hold ids only, since every generation is the game's;
//! - `resources` and `event_sequences`: the game's singletons, as a world's.
//!
//! # Loading
//! Every sub-world is named once and none is missing. The game's index and records are
//! rebuilt from its runs and free list against the first sub-world's rows (so a claim of billions of ids is
//! refused before anything is allocated for it, as in a world); then every sub-world's rows
//! are checked against it (each id alive in the game, on one row, and every live entity of the
//! game on a row), and each sub-world's storage is built and checked as a world's is. Only
//! then is the game assembled (its event numbering, checked last, needs the game's channels):
//! a refused load drops an unfinished game that no one has seen, never one half-loaded.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::list::SubWorlds;
use super::{MultiWorld, SubWorld};
use crate::entity::{EntityIndex, EntityRecords};
use crate::snapshot::ids::{IdsIn, IdsOut};
use crate::snapshot::{
    DeserializeSingletons, DeserializeTables, ResourcesData, ResourcesOut, SNAPSHOT_VERSION,
    Sequence, SerializeSingletons, SerializeTables, SnapshotError, StorageData, StorageOut,
    Version, start_event_numbering,
};
use crate::storage::Storage;

/// A game, borrowed for saving: `serde_json::to_string(&game.snapshot())`. It holds the
/// game's entity index once, each sub-world's storage by name (as a [`Snapshot`](crate::Snapshot)
/// holds a world's), the resources and where event numbering stands; see the guide's
/// [snapshots](crate::guide::snapshots) chapter.
pub struct GameSnapshot<'a, G> {
    game: &'a G,
}

impl<'a, G> GameSnapshot<'a, G> {
    /// The snapshot of `game` (what `game.snapshot()` returns).
    pub fn new(game: &'a G) -> Self {
        GameSnapshot { game }
    }
}

impl<G> Clone for GameSnapshot<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for GameSnapshot<'_, G> {}

/// A game whose component and resource types are all `Serialize`: what `game.snapshot()`
/// needs. Implemented for every generated game whose types allow it.
pub trait SerializeGame: MultiWorld + SerializeSingletons {
    /// Writes the `sub_worlds` map: each sub-world's name and storage.
    fn serialize_sub_worlds<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

impl<G> SerializeGame for G
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

impl<G: SerializeGame> Serialize for GameSnapshot<'_, G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (sub_worlds, own) = self.game.parts();
        let records = sub_worlds
            .first_records()
            .expect("a game has at least one sub-world");
        let (generations, free) = own.index.snapshot_ids(records);
        let mut state = serializer.serialize_struct("GameSnapshot", 6)?;
        state.serialize_field("version", &SNAPSHOT_VERSION)?;
        state.serialize_field("generations", &generations)?;
        state.serialize_field("free", &IdsOut(&free))?;
        state.serialize_field("sub_worlds", &SubWorldsOut(self.game))?;
        state.serialize_field("resources", &ResourcesOut::<G>(self.game.resources()))?;
        state.serialize_field("event_sequences", &self.game.event_sequences())?;
        state.end()
    }
}

struct SubWorldsOut<'a, G>(&'a G);

impl<G: SerializeGame> Serialize for SubWorldsOut<'_, G> {
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
pub trait DeserializeGame: MultiWorld + DeserializeSingletons + Default {
    /// The sub-worlds, as a list a snapshot's `sub_worlds` map is read into.
    type SubWorldList: LoadSubWorlds;

    /// Checks a decoded snapshot and builds the game (see [`GameSnapshotData::into_game`]).
    fn from_snapshot_data(data: GameSnapshotData<Self>) -> Result<Self, SnapshotError>;
}

impl<G> DeserializeGame for G
where
    G: MultiWorld + DeserializeSingletons + Default,
    G::SubWorlds<'static>: LoadSubWorlds,
    for<'a> G::SubWorldsMut<'a>:
        InstallSubWorlds<<G::SubWorlds<'static> as LoadSubWorlds>::Storages>,
{
    type SubWorldList = G::SubWorlds<'static>;

    fn from_snapshot_data(data: GameSnapshotData<Self>) -> Result<Self, SnapshotError> {
        let RawGameSnapshot {
            version: _,
            generations,
            free,
            sub_worlds,
            resources,
            event_sequences,
        } = data.raw;
        let sub_worlds = sub_worlds.0;
        Self::SubWorldList::check_ticks(&sub_worlds)?;
        let (first, first_rows) = Self::SubWorldList::first_rows(&sub_worlds);
        let (index, records, _) =
            EntityIndex::from_snapshot_ids(&generations.0, free.0, first_rows).map_err(
                |error| {
                    SnapshotError::new(format!(
                        "the game's ids, against the rows of the sub-world `{first}`: {error}"
                    ))
                },
            )?;
        let storages = Self::SubWorldList::build(sub_worlds, &records)?;
        // The sub-worlds and the index are checked. The event numbering, checked last,
        // needs the game's channels: a refusal there drops a game no one has seen.
        let mut game = Self::default();
        *game.resources_mut() = resources.0;
        start_event_numbering(&mut game, event_sequences.0)?;
        let (sub_worlds, entities) = game.parts_mut();
        sub_worlds.install(storages);
        // A new game has nothing queued: only its index is the snapshot's.
        entities.index = index;
        Ok(game)
    }
}

/// A game's sub-worlds, as the list of their borrowed types (`(&Core, (&Render, ()))`), read
/// from a snapshot: implemented when every sub-world's components are `DeserializeOwned`.
pub trait LoadSubWorlds {
    /// Each sub-world's decoded entry, if read yet: `(Option<Core's>, (Option<Render's>, ()))`.
    type Data: Default;
    /// Each sub-world's loaded storage: `(Storage<Core's tables>, (Storage<..>, ()))`.
    type Storages;

    /// The sub-worlds' names, in order.
    fn names(names: &mut Vec<&'static str>);

    /// If `name` is a sub-world's, reads its entry from `map` into `data` (an error if it was
    /// read already) and returns `true`; `false` for another name (the value left unread).
    fn read_entry<'de, A: MapAccess<'de>>(
        data: &mut Self::Data,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;

    /// The first sub-world with no entry, if any.
    fn first_missing(data: &Self::Data) -> Option<&'static str>;

    /// Refuses a sub-world whose `last_tick` is not strictly before its `tick`.
    fn check_ticks(data: &Self::Data) -> Result<(), SnapshotError>;

    /// The first sub-world's name and the ids of each of its tables' rows (`""` and none
    /// for the empty list: a game has at least one sub-world).
    fn first_rows(data: &Self::Data) -> (&'static str, impl Iterator<Item = &[u32]> + Clone);

    /// Checks every sub-world's entry against the game's records (loaded from the first
    /// sub-world's rows) and builds its storage.
    fn build(data: Self::Data, game: &EntityRecords) -> Result<Self::Storages, SnapshotError>;
}

impl LoadSubWorlds for () {
    type Data = ();
    type Storages = ();

    #[inline]
    fn names(_names: &mut Vec<&'static str>) {}

    #[inline]
    fn read_entry<'de, A: MapAccess<'de>>(
        _data: &mut (),
        _name: &str,
        _map: &mut A,
    ) -> Result<bool, A::Error> {
        Ok(false)
    }

    #[inline]
    fn first_missing(_data: &()) -> Option<&'static str> {
        None
    }

    #[inline]
    fn check_ticks(_data: &()) -> Result<(), SnapshotError> {
        Ok(())
    }

    #[inline]
    fn first_rows(_data: &()) -> (&'static str, impl Iterator<Item = &[u32]> + Clone) {
        ("", core::iter::empty())
    }

    #[inline]
    fn build(_data: (), _game: &EntityRecords) -> Result<(), SnapshotError> {
        Ok(())
    }
}

impl<W, R> LoadSubWorlds for (&W, R)
where
    W: SubWorld + DeserializeTables<Table = <W as SubWorld>::Tables>,
    R: LoadSubWorlds,
{
    type Data = (Option<StorageData<W>>, R::Data);
    type Storages = (Storage<W::Tables>, R::Storages);

    fn names(names: &mut Vec<&'static str>) {
        names.push(W::NAME);
        R::names(names);
    }

    fn read_entry<'de, A: MapAccess<'de>>(
        data: &mut Self::Data,
        name: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        if name != W::NAME {
            return R::read_entry(&mut data.1, name, map);
        }
        if data.0.is_some() {
            return Err(de::Error::custom(format_args!(
                "the sub-world `{name}` appears twice"
            )));
        }
        data.0 = Some(map.next_value()?);
        Ok(true)
    }

    fn first_missing(data: &Self::Data) -> Option<&'static str> {
        match data.0 {
            None => Some(W::NAME),
            Some(_) => R::first_missing(&data.1),
        }
    }

    fn check_ticks(data: &Self::Data) -> Result<(), SnapshotError> {
        if let Some(storage) = &data.0 {
            storage.check_ticks().map_err(within::<W>)?;
        }
        R::check_ticks(&data.1)
    }

    fn first_rows(data: &Self::Data) -> (&'static str, impl Iterator<Item = &[u32]> + Clone) {
        (W::NAME, data.0.iter().flat_map(StorageData::row_ids))
    }

    fn build(data: Self::Data, game: &EntityRecords) -> Result<Self::Storages, SnapshotError> {
        let (Some(storage), rest) = data else {
            return Err(SnapshotError::new(format!(
                "the snapshot has no sub-world `{}`",
                W::NAME
            )));
        };
        let (records, entities) =
            EntityRecords::located_from_snapshot_rows(game, storage.row_ids())
                .map_err(|error| within::<W>(SnapshotError::new(error)))?;
        let storage = storage
            .into_storage(records, entities)
            .map_err(within::<W>)?;
        Ok((storage, R::build(rest, game)?))
    }
}

/// `error`, said of the sub-world `W`.
fn within<W: SubWorld>(error: SnapshotError) -> SnapshotError {
    SnapshotError::new(format!("the sub-world `{}`: {}", W::NAME, error.message()))
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

/// A decoded game snapshot, not yet checked: `serde_json::from_str::<GameSnapshotData<Game>>
/// (&text)`, then `Game::from_snapshot(data)` (or [`into_game`](Self::into_game)) checks it
/// and builds the game. Decoding already refuses malformed input, unknown names and columns
/// of the wrong type; the checks that need the whole snapshot come after.
pub struct GameSnapshotData<G: DeserializeGame> {
    raw: RawGameSnapshot<G>,
}

impl<'de, G: DeserializeGame> Deserialize<'de> for GameSnapshotData<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        RawGameSnapshot::deserialize(deserializer).map(|raw| GameSnapshotData { raw })
    }
}

impl<G: DeserializeGame> GameSnapshotData<G> {
    /// Checks the snapshot and builds the game: every sub-world's ticks and storage are
    /// checked as a world's (see [`SnapshotData::into_world`](crate::SnapshotData::into_world)),
    /// the game's index is sound, and every sub-world holds exactly the game's live
    /// entities, each on one row; the built game passes `check_invariants()`.
    pub fn into_game(self) -> Result<G, SnapshotError> {
        G::from_snapshot_data(self)
    }
}

/// The decoded fields, in the order [`GameSnapshot`] writes them.
#[derive(Deserialize)]
#[serde(
    rename = "GameSnapshot",
    deny_unknown_fields,
    bound = "G: DeserializeGame"
)]
struct RawGameSnapshot<G: DeserializeGame> {
    #[allow(dead_code)]
    version: Version,
    generations: Sequence<(u32, u32)>,
    free: IdsIn,
    sub_worlds: SubWorldsData<G::SubWorldList>,
    resources: ResourcesData<G>,
    event_sequences: Sequence<(String, u64)>,
}

/// The `sub_worlds` map, decoded: one entry per sub-world, each exactly once.
struct SubWorldsData<L: LoadSubWorlds>(L::Data);

impl<'de, L: LoadSubWorlds> Deserialize<'de> for SubWorldsData<L> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SubWorldsVisitor::<L>(PhantomData))
    }
}

struct SubWorldsVisitor<L>(PhantomData<fn() -> L>);

impl<'de, L: LoadSubWorlds> Visitor<'de> for SubWorldsVisitor<L> {
    type Value = SubWorldsData<L>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the sub-worlds: a map of each sub-world's storage")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut data = L::Data::default();
        while let Some(key) = map.next_key::<String>()? {
            if !L::read_entry(&mut data, &key, &mut map)? {
                let mut names = Vec::new();
                L::names(&mut names);
                return Err(de::Error::custom(format_args!(
                    "unknown sub-world `{key}` (this game's sub-worlds: {})",
                    names.join(", ")
                )));
            }
        }
        if let Some(missing) = L::first_missing(&data) {
            return Err(de::Error::custom(format_args!(
                "the snapshot has no sub-world `{missing}`"
            )));
        }
        Ok(SubWorldsData(data))
    }
}

#[cfg(test)]
mod tests {
    use crate::entity::Entity;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use crate::game::tests::plain_game::*;

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
