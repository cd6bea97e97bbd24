//! Loading a decoded snapshot: everything checked, then the whole built, or refused with a
//! [`SnapshotError`]; never a panic, never a half-loaded whole.
//!
//! One path for a world and a game ([`DecodedWhole::into_whole`]): the parts' ticks are checked,
//! the entity index and the first part's records are rebuilt from the generation runs and the
//! free list against the first part's rows (so a claim of billions of ids is refused before
//! anything is allocated for it), every later part (a game's other sub-worlds) is checked
//! against those records (each id alive, on one row, and every live entity on a row), each
//! part's storage is built and checked ([`StorageData`]), and only then is the whole assembled.
//! Its event numbering, checked last, needs the whole's channels: a refusal there drops a whole
//! no one has seen.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::change_ticks::TableTicksData;
use super::maps::{RelationList, TableData, TagList};
use super::parts::{InstallParts, LoadedParts};
use super::sequence::Sequence;
use super::systems::SystemsIn;
use super::{SnapshotError, SnapshotSingletons, SnapshotTables};
use crate::archetype::Archetype;
use crate::entity::{Entity, EntityIndex, EntityRecords};
use crate::entity_set::EntitySet;
use crate::hash::{MaskBuildHasher, MaskMap};
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::storage::Storage;
use crate::tick::Tick;

/// A snapshot of a world or game, decoded and not yet checked: the entity index's fields, the
/// parts (`L`, first to last) and the singletons (the resources `R`, the event numbering).
pub(crate) struct DecodedWhole<L, R, W> {
    /// Every id's generation, as runs of equal generations.
    pub(crate) generations: Vec<(u32, u32)>,
    /// The free list, in recycling order.
    pub(crate) free: Vec<u32>,
    /// Each part's storage, decoded.
    pub(crate) parts: L,
    /// The resources.
    pub(crate) resources: R,
    /// Each event channel's name and the sequence number its next event gets.
    pub(crate) event_sequences: Vec<(String, u64)>,
    /// A new whole, its saved event channels loaded (what the rest is installed in).
    pub(crate) whole: W,
    /// What the systems remember.
    pub(crate) systems: SystemsIn,
}

impl<L: LoadedParts, R, W> DecodedWhole<L, R, W> {
    /// Number of entities the snapshot holds: the first part's rows (every part has one per
    /// entity).
    pub(crate) fn entity_count(&self) -> usize {
        self.parts.first_rows().map(<[u32]>::len).sum()
    }

    /// Checks the snapshot and builds the whole of form `P` (see the module documentation).
    pub(crate) fn into_whole<P>(self) -> Result<W, SnapshotError>
    where
        P: InstallParts<L::Storages, Whole = W>,
        W: SnapshotSingletons<Resources = R>,
    {
        let DecodedWhole {
            generations,
            free,
            parts,
            resources,
            event_sequences,
            mut whole,
            systems,
        } = self;
        parts.check_ticks()?;
        let systems = systems.into_memories()?;
        let (index, records, entities) =
            EntityIndex::from_snapshot_ids(&generations, free, parts.first_rows())
                .map_err(|error| parts.ids_error(error))?;
        let storages = parts.build(records, entities)?;
        *whole.resources_mut() = resources;
        start_event_numbering(&mut whole, event_sequences)?;
        P::install(&mut whole, index, storages, systems);
        Ok(whole)
    }
}

impl LoadedParts for () {
    type Storages = ();

    #[inline]
    fn check_ticks(&self) -> Result<(), SnapshotError> {
        Ok(())
    }

    #[inline]
    fn first_rows(&self) -> impl Iterator<Item = &[u32]> + Clone {
        core::iter::empty()
    }

    #[inline]
    fn ids_error(&self, error: String) -> SnapshotError {
        SnapshotError::new(error)
    }

    #[inline]
    fn build(self, _: EntityRecords, _: Vec<Vec<Entity>>) -> Result<(), SnapshotError> {
        Ok(())
    }

    #[inline]
    fn build_mirrors(self, _first: &EntityRecords) -> Result<(), SnapshotError> {
        Ok(())
    }
}

impl<W: SnapshotTables, R: LoadedParts> LoadedParts for (StorageData<W>, R) {
    type Storages = (Storage<W::Table>, R::Storages);

    fn check_ticks(&self) -> Result<(), SnapshotError> {
        self.0.check_ticks()?;
        self.1.check_ticks()
    }

    fn first_rows(&self) -> impl Iterator<Item = &[u32]> + Clone {
        self.0.row_ids()
    }

    fn ids_error(&self, error: String) -> SnapshotError {
        match self.0.part {
            None => SnapshotError::new(error),
            Some(name) => SnapshotError::new(format!(
                "the game's ids, against the rows of the sub-world `{name}`: {error}"
            )),
        }
    }

    fn build(
        self,
        records: EntityRecords,
        entities: Vec<Vec<Entity>>,
    ) -> Result<Self::Storages, SnapshotError> {
        let (first, rest) = self;
        // The later parts are checked against the first's records before its storage takes them.
        let rest = rest.build_mirrors(&records)?;
        Ok((first.into_storage(records, entities)?, rest))
    }

    fn build_mirrors(self, first: &EntityRecords) -> Result<Self::Storages, SnapshotError> {
        let (part, rest) = self;
        let (records, entities) = EntityRecords::located_from_snapshot_rows(first, part.row_ids())
            .map_err(|error| said_of(part.part, SnapshotError::new(error)))?;
        let storage = part.into_storage(records, entities)?;
        Ok((storage, rest.build_mirrors(first)?))
    }
}

/// One part's storage as a snapshot holds it (a world's, or a game's sub-world's), decoded and
/// not yet checked.
pub struct StorageData<W: SnapshotTables> {
    /// The sub-world's name in a game's snapshot, which every refusal names (`None`: a world's
    /// one part).
    pub(crate) part: Option<&'static str>,
    /// The storage's current tick.
    pub(crate) tick: u32,
    /// The storage's last tick, strictly before `tick` if sound.
    pub(crate) last_tick: u32,
    /// The tables, in order.
    pub(crate) tables: Sequence<TableData<W>>,
    /// The tables' change ticks, in the same order.
    pub(crate) change_ticks: Sequence<TableTicksData<W>>,
    /// Every tag's members.
    pub(crate) tags: TagList<<W::Table as Archetype>::Mask>,
    /// Every relation's links.
    pub(crate) relations: RelationList<<W::Table as Archetype>::Mask>,
    /// The sequence number the change log's next entry gets.
    pub(crate) change_log_sequence: u64,
}

/// `error`, said of the part named `part` (a game's sub-world; a world's one part, `None`, as
/// it is).
fn said_of(part: Option<&'static str>, error: SnapshotError) -> SnapshotError {
    match part {
        None => error,
        Some(name) => SnapshotError::new(format!("the sub-world `{name}`: {}", error.message())),
    }
}

impl<W: SnapshotTables> StorageData<W> {
    /// Refuses a `last_tick` that is not strictly before `tick`.
    fn check_ticks(&self) -> Result<(), SnapshotError> {
        // Change detection compares stamps with `last_tick`: one that is not strictly before the
        // current tick (or is 2^31 or more behind it, which reads as ahead) would hide every
        // write made after the load.
        if Tick(self.tick).is_newer_than(Tick(self.last_tick)) {
            return Ok(());
        }
        let error = format!(
            "last_tick {} is not before tick {}",
            self.last_tick, self.tick
        );
        Err(said_of(self.part, SnapshotError::new(error)))
    }

    /// The ids of each table's rows, in order.
    fn row_ids(&self) -> impl Iterator<Item = &[u32]> + Clone {
        self.tables.0.iter().map(|table| table.ids.as_slice())
    }

    /// Checks the rest against `records` (which the rows' ids were checked against, giving
    /// each table's handles, `entities`) and builds the storage: every column has one value
    /// per row, every table's change ticks are sound (see `change_ticks.rs`), no two tables
    /// hold the same components, tags hold only live entities, once
    /// each, relations link only live entities, each source once, without a self-link or a
    /// cycle, and the built storage passes `check_invariants()`.
    fn into_storage(
        self,
        records: EntityRecords,
        entities: Vec<Vec<Entity>>,
    ) -> Result<Storage<W::Table>, SnapshotError> {
        let part = self.part;
        self.build_storage(records, entities)
            .map_err(|error| said_of(part, error))
    }

    /// [`into_storage`](Self::into_storage), its errors not yet said of the part.
    fn build_storage(
        self,
        records: EntityRecords,
        entities: Vec<Vec<Entity>>,
    ) -> Result<Storage<W::Table>, SnapshotError> {
        let StorageData {
            part: _,
            tick,
            last_tick,
            tables,
            change_ticks,
            tags,
            relations,
            change_log_sequence,
        } = self;
        let (tables, change_ticks) = (tables.0, change_ticks.0);
        if change_ticks.len() != tables.len() {
            return Err(SnapshotError::new(format!(
                "change_ticks holds {} tables' stamps, tables holds {} tables",
                change_ticks.len(),
                tables.len()
            )));
        }
        let mut masks = MaskMap::with_capacity_and_hasher(tables.len(), MaskBuildHasher::default());
        let mut built = Vec::with_capacity(tables.len());
        let mut built_ticks = Vec::with_capacity(tables.len());
        let tables = tables.into_iter().zip(change_ticks).enumerate();
        for ((index, (table, ticks)), entities) in tables.zip(entities) {
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
            if let Some(broken) = (!ids.is_empty())
                .then(|| <W::Table as Archetype>::RULES.broken_by(table.mask()))
                .flatten()
            {
                return Err(SnapshotError::new(format!(
                    "table {index} holds {broken}, against the world's rules"
                )));
            }
            let ticks = ticks
                .into_ticks(table.mask(), ids.len(), Tick(tick))
                .map_err(|error| SnapshotError::new(format!("table {index}: {error}")))?;
            built_ticks.push(ticks);
            *table.entities_mut() = entities;
            built.push(table);
        }
        let component_count = <W::Table as Archetype>::COMPONENT_COUNT;
        let tag_count = <W::Table as Archetype>::TAGS.count_ones() as usize;
        let mut tag_sets = vec![EntitySet::new(); tag_count];
        for (name, mask, ids) in tags {
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
        let mut stores = Vec::with_capacity(relations.len());
        for (name, mask, links) in relations {
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
        let (mut storage, regrouped) = Storage::from_snapshot_parts(
            records,
            built,
            built_ticks,
            tag_sets,
            Tick(tick),
            Tick(last_tick),
        );
        for (mask, store) in stores {
            storage.set_relation_store(mask, store);
        }
        storage
            .check_invariants()
            .map_err(|error| SnapshotError::new(error.message))?;
        if let Some(index) = regrouped {
            return Err(SnapshotError::new(format!(
                "table {index}: its rows are not grouped by their tags (and relations) as a \
                 snapshot writes them: the rows of each set of tags in one run"
            )));
        }
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

/// Makes each event channel of `whole` (a world or a game) number its next event as the
/// snapshot says: every channel named once, and no channel left out.
fn start_event_numbering<W: SnapshotSingletons>(
    whole: &mut W,
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
        if !whole.start_event_numbering(&name, next) {
            return Err(SnapshotError::new(format!(
                "no event channel `{name}` can start at sequence {next}"
            )));
        }
    }
    let channels = whole.event_sequences();
    if let Some((missing, _)) = channels.iter().find(|(name, _)| !seen.contains(*name)) {
        return Err(SnapshotError::new(format!(
            "the event channel `{missing}` has no sequence"
        )));
    }
    Ok(())
}
