//! The index's and records' whole state, for world cloning and snapshots: giving back every
//! reservation at once, emptying after a failed copy, and the ids written to and read from a
//! snapshot.

#[cfg(test)]
use super::EntityAllocator;
#[cfg(feature = "serde")]
use super::RESERVED_ID;
use super::{Entity, EntityIndex, EntityRecords, IdRecords, IdSlot, IdState};
#[cfg(feature = "serde")]
use alloc::string::String;
use alloc::vec::Vec;

#[cfg(test)]
impl EntityAllocator {
    /// Gives back every reserved handle: see [`EntityIndex::release_all_reserved`].
    pub fn release_all_reserved(&mut self) -> usize {
        self.index.release_all_reserved(&mut self.records)
    }

    /// An allocator with nothing alive or reserved that never issues a handle `self` or
    /// `other` issued: see [`EntityIndex::empty_beyond`].
    pub fn empty_beyond(&self, other: &Self) -> Self {
        let (index, records) = self
            .index
            .empty_beyond(&self.records, &other.index, &other.records);
        EntityAllocator { index, records }
    }

    /// What a snapshot saves of the ids: see [`EntityIndex::snapshot_ids`].
    #[cfg(feature = "serde")]
    pub(crate) fn snapshot_ids(&self) -> (Vec<(u32, u32)>, Vec<u32>) {
        self.index.snapshot_ids(&self.records)
    }

    /// Rebuilds an allocator from a snapshot's ids: see [`EntityIndex::from_snapshot_ids`].
    #[cfg(feature = "serde")]
    pub(crate) fn from_snapshot_ids<'a>(
        generation_runs: &[(u32, u32)],
        free: Vec<u32>,
        tables: impl Iterator<Item = &'a [u32]> + Clone,
    ) -> Result<(Self, Vec<Vec<Entity>>), String> {
        let (index, records, entities) =
            EntityIndex::from_snapshot_ids(generation_runs, free, tables)?;
        Ok((EntityAllocator { index, records }, entities))
    }
}

impl EntityIndex {
    /// Whether this index over `records` has issued exactly the same handles as `other` over
    /// `other_records`: every id at the same generation and state, the same free list.
    /// Locations are not compared: two worlds with the same handles may keep them in rows of
    /// their own.
    pub fn same_ids(
        &self,
        records: &EntityRecords,
        other: &Self,
        other_records: &EntityRecords,
    ) -> bool {
        if self.lent.is_some() || other.lent.is_some() {
            let (mut mine, mut theirs) = (records.clone(), other_records.clone());
            let (my_index, their_index) = (self.copy_with(&mut mine), other.copy_with(&mut theirs));
            return my_index.same_ids(&mine, &their_index, &theirs);
        }
        self.free == other.free && records.same_ids(other_records)
    }

    /// Gives back every reserved handle, as [`release`](Self::release) does for one: none of
    /// them ever becomes alive. Returns how many were released.
    ///
    /// They are released in ascending id order: the one order in which reservations are given
    /// back all at once, by `clear_commands`, by a world clone or restore (which do not copy
    /// the queued spawns holding them) and by a snapshot, which saves them as released in this
    /// order, so every copy of a world spawns the same handles next.
    pub fn release_all_reserved(&mut self, records: &mut impl IdRecords) -> usize {
        self.settle(records);
        let reserved: Vec<u32> = records
            .reference()
            .slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.state() == IdState::Reserved)
            .map(|(id, _)| id as u32)
            .collect();
        for &id in &reserved {
            self.retire_or_recycle(id, false, records);
        }
        reserved.len()
    }

    /// An index and records with nothing alive or reserved that never issue a handle this
    /// index (over `records`) or `other` (over `other_records`) issued: every id either knows
    /// starts past the generations both handed out (an id whose generations are used up is
    /// retired). Free ids come back lowest first.
    ///
    /// What a world emptied by a panic in the middle of a restore keeps: the handles of the
    /// world before and of the world it was restoring all stay dead, so neither a handle
    /// held by the game nor a queued command reaches an entity spawned afterwards.
    pub fn empty_beyond(
        &self,
        records: &EntityRecords,
        other: &Self,
        other_records: &EntityRecords,
    ) -> (Self, EntityRecords) {
        if self.lent.is_some() || other.lent.is_some() {
            // Copies on their own, with what a lent reserver issued recorded.
            let (mut mine, mut theirs) = (records.clone(), other_records.clone());
            let (my_index, their_index) = (self.copy_with(&mut mine), other.copy_with(&mut theirs));
            return my_index.empty_beyond(&mine, &their_index, &theirs);
        }
        let next_generations = |index: &Self, records: &EntityRecords| {
            let mut next: Vec<Option<u32>> = records
                .slots
                .iter()
                .map(|slot| match slot.state() {
                    // A free id's generation is the one it is issued at next, if it is listed.
                    IdState::Free => None,
                    _ => slot.generation.checked_add(1),
                })
                .collect();
            for &listed in &index.free {
                next[listed.id as usize] = Some(listed.generation);
            }
            next
        };
        let (mine, theirs) = (
            next_generations(self, records),
            next_generations(other, other_records),
        );
        let ids = mine.len().max(theirs.len());
        let mut slots = Vec::with_capacity(ids);
        let mut free = Vec::new();
        for id in 0..ids {
            // `None` in an id both know is retired; an id only one knows takes its generation.
            let next = match (mine.get(id), theirs.get(id)) {
                (Some(&a), Some(&b)) => a.zip(b).map(|(a, b)| a.max(b)),
                (Some(&only), None) | (None, Some(&only)) => only,
                (None, None) => unreachable!("id {id} is below both lengths' maximum"),
            };
            let generation = next.unwrap_or(u32::MAX);
            if next.is_some() {
                free.push(Entity::new(id as u32, generation));
            }
            slots.push(IdSlot::free(generation));
        }
        // Popped from the end: the lowest id is issued first.
        free.reverse();
        let index = EntityIndex {
            free,
            lent: None,
            spare_reserved: Vec::new(),
        };
        (index, EntityRecords { slots, live: 0 })
    }

    /// What a snapshot saves of the ids: every id's generation as runs of equal generations
    /// (`(generation, count)`, ids in order), and the free list in recycling order. Alive ids
    /// are the rows of the tables; an id that is neither alive nor free is retired (its
    /// generation is `u32::MAX`) and is a run of its own, so a loader can bound the ids the
    /// runs cover by the ids listed elsewhere before it allocates any. Reserved ids are
    /// written as released, since a snapshot does not save the queued spawns that hold them:
    /// appended to the free list in ascending id order, as
    /// [`release_all_reserved`](Self::release_all_reserved) would.
    #[cfg(feature = "serde")]
    pub(crate) fn snapshot_ids(&self, records: &EntityRecords) -> (Vec<(u32, u32)>, Vec<u32>) {
        if self.lent.is_some() {
            let mut records = records.clone();
            return self.copy_with(&mut records).snapshot_ids(&records);
        }
        let mut free: Vec<u32> = self.free.iter().map(|entity| entity.id).collect();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        // The run being counted, kept out of `runs` until it ends.
        let mut run: Option<(u32, u32)> = None;
        for (id, slot) in records.slots.iter().enumerate() {
            let mut generation = slot.generation;
            if slot.state() == IdState::Reserved && generation < u32::MAX {
                generation += 1;
                free.push(id as u32);
            }
            run = match run {
                Some((current, count)) if current == generation && generation != u32::MAX => {
                    Some((current, count + 1))
                }
                ended => {
                    runs.extend(ended);
                    Some((generation, 1))
                }
            };
        }
        runs.extend(run);
        (runs, free)
    }
    /// Rebuilds an index and its records from a snapshot's ids (see [`snapshot_ids`](Self::snapshot_ids))
    /// and the ids of each table's rows, checking that they agree: the runs are as
    /// `snapshot_ids` writes them (none empty, neighbours of different generations, a retired
    /// id a run of its own), every id is issued, alive at most once, free at most once and
    /// never both, and an id that is neither is retired. Returns the index, the records (each live id
    /// located at its table and row) and each table's handles. The error says what is wrong.
    ///
    /// The runs are only a claim about how many ids there are: before any slot is allocated,
    /// the ids they cover are checked against the ids listed (rows, free list, retired runs),
    /// so a snapshot of a few bytes cannot make the loader allocate for billions of ids.
    #[cfg(feature = "serde")]
    pub(crate) fn from_snapshot_ids<'a>(
        generation_runs: &[(u32, u32)],
        free: Vec<u32>,
        tables: impl Iterator<Item = &'a [u32]> + Clone,
    ) -> Result<(Self, EntityRecords, Vec<Vec<Entity>>), String> {
        let mut ids: u64 = 0;
        let mut retired: u64 = 0;
        let mut previous = None;
        for (index, &(generation, count)) in generation_runs.iter().enumerate() {
            if count == 0 {
                return Err(format!("generation run {index} covers no id"));
            }
            if generation == u32::MAX {
                if count != 1 {
                    return Err(format!(
                        "generation run {index} retires {count} ids (a retired id is a run of its own)"
                    ));
                }
                retired += 1;
            } else if previous == Some(generation) {
                return Err(format!(
                    "generation runs {} and {index} are both at generation {generation}",
                    index - 1
                ));
            }
            previous = Some(generation);
            ids += u64::from(count);
        }
        let rows: u64 = tables.clone().map(|ids| ids.len() as u64).sum();
        // Every id is alive, free or retired: more ids than those listed cannot be sound, and
        // checking it first keeps the allocation below proportional to the values read.
        if ids > rows + free.len() as u64 + retired {
            return Err(format!(
                "the generations cover {ids} ids, more than the {rows} rows, {} free and \
                 {retired} retired ids listed",
                free.len()
            ));
        }
        // The last id is never issued: it is `Entity::PLACEHOLDER`'s.
        if ids > u64::from(u32::MAX) {
            return Err(format!("{ids} ids, more than a world can issue"));
        }
        let mut slots: Vec<IdSlot> = Vec::with_capacity(ids as usize);
        for &(generation, count) in generation_runs {
            slots.extend(core::iter::repeat_n(
                IdSlot::free(generation),
                count as usize,
            ));
        }
        let (live, entities) = locate_rows(&mut slots, tables, |slots, id| {
            match slots.get(id as usize) {
                Some(slot) => Ok(slot.generation),
                None => Err(format!(
                    "a table holds entity id {id}, which was never issued ({ids} ids were)"
                )),
            }
        })?;
        let mut listed = vec![false; slots.len()];
        for &id in &free {
            let Some(slot) = slots.get(id as usize) else {
                return Err(format!(
                    "the free list holds id {id}, which was never issued ({ids} ids were)"
                ));
            };
            if slot.state() == IdState::Alive {
                return Err(format!("id {id} is both alive and on the free list"));
            }
            if core::mem::replace(&mut listed[id as usize], true) {
                return Err(format!("id {id} is on the free list twice"));
            }
        }
        for (id, slot) in slots.iter().enumerate() {
            if slot.state() == IdState::Free && !listed[id] && slot.generation != u32::MAX {
                return Err(format!(
                    "id {id} is neither alive, free nor retired (generation {} is not the last)",
                    slot.generation
                ));
            }
        }
        let free = free
            .iter()
            .map(|&id| Entity::new(id, slots[id as usize].generation))
            .collect();
        let index = EntityIndex {
            free,
            lent: None,
            spare_reserved: Vec::new(),
        };
        Ok((index, EntityRecords { slots, live }, entities))
    }
}

/// Records the rows of a snapshot's tables in `slots` (each id at its table and row, so alive,
/// at the generation `generation_of` gives, or the error it gives for an id that may not hold
/// a row); an id on two rows is refused. Returns the rows counted and each table's handles.
#[cfg(feature = "serde")]
pub(super) fn locate_rows<'a>(
    slots: &mut [IdSlot],
    tables: impl Iterator<Item = &'a [u32]>,
    generation_of: impl Fn(&[IdSlot], u32) -> Result<u32, String>,
) -> Result<(usize, Vec<Vec<Entity>>), String> {
    let mut live = 0;
    let mut entities = Vec::new();
    for (table_index, rows) in tables.enumerate() {
        // Below `RESERVED_ID`: the location must not read as free or reserved.
        let Some(table_index) = u32::try_from(table_index)
            .ok()
            .filter(|&index| index < RESERVED_ID)
        else {
            return Err(format!("{table_index} tables, more than a world can hold"));
        };
        let mut handles = Vec::with_capacity(rows.len());
        for (row, &id) in rows.iter().enumerate() {
            let generation = generation_of(slots, id)?;
            let slot = &mut slots[id as usize];
            if slot.state() == IdState::Alive {
                return Err(format!("entity id {id} has more than one row"));
            }
            *slot = IdSlot {
                generation,
                table_index,
                array_index: row as u32,
            };
            handles.push(Entity::new(id, generation));
        }
        live += rows.len();
        entities.push(handles);
    }
    Ok((live, entities))
}

#[cfg(test)]
mod tests {
    use crate::entity::EntityAllocator;
    use alloc::vec::Vec;

    #[test]
    fn release_all_reserved_gives_every_reservation_back() {
        let mut allocator = EntityAllocator::new();
        let alive = allocator.allocate();
        let first = allocator.reserve();
        let second = allocator.reserve();
        assert_eq!(allocator.release_all_reserved(), 2);
        assert!(!allocator.is_reserved(first) && !allocator.is_reserved(second));
        assert!(!allocator.activate(first));
        assert!(allocator.is_alive(alive));
        assert_eq!(allocator.release_all_reserved(), 0);
        assert_eq!(
            allocator.allocate().generation,
            1,
            "a released id comes back"
        );
    }

    #[test]
    fn empty_beyond_never_issues_a_handle_either_allocator_issued() {
        use crate::entity::Entity;
        let mut before = EntityAllocator::new();
        let old: Vec<Entity> = (0..4).map(|_| before.allocate()).collect();
        before.free(old[2]);
        let recycled = before.allocate(); // 2v1
        before.free(old[3]); // 3 is free at generation 1
        let reserved = before.reserve(); // 3v1
        let mut restoring = EntityAllocator::new();
        let theirs: Vec<Entity> = (0..6).map(|_| restoring.allocate()).collect();
        restoring.free(theirs[0]);
        restoring.allocate(); // 0v1
        restoring.free(theirs[5]); // 5 free at generation 1, never issued at it
        let mut last = EntityAllocator::new();
        let at_the_end = last.allocate();
        last.records.slots[0].generation = u32::MAX;
        let mut emptied = before.empty_beyond(&restoring);
        assert_eq!((emptied.len(), emptied.id_count()), (0, 6));
        let issued: Vec<Entity> = (0..7).map(|_| emptied.allocate()).collect();
        assert_eq!(
            issued,
            vec![
                Entity::new(0, 2),
                Entity::new(1, 1),
                Entity::new(2, 2),
                Entity::new(3, 2),
                Entity::new(4, 1),
                Entity::new(5, 1),
                Entity::new(6, 0),
            ]
        );
        for handle in old.iter().chain(&theirs).chain([&recycled, &reserved]) {
            assert!(!issued.contains(handle), "{handle} issued again");
        }
        let mut retired = last.empty_beyond(&EntityAllocator::new());
        assert_eq!(retired.free_count(), 0, "{at_the_end}'s id is used up");
        assert_eq!(retired.allocate(), Entity::new(1, 0));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn snapshot_ids_round_trip_and_keep_the_recycling_order() {
        use crate::entity::Entity;
        let mut allocator = EntityAllocator::new();
        let entities: Vec<Entity> = (0..6).map(|_| allocator.allocate()).collect();
        allocator.free(entities[3]);
        allocator.free(entities[1]);
        let reserved = allocator.reserve();
        assert_eq!(reserved.id, 1, "the last freed id");
        let (runs, free) = allocator.snapshot_ids();
        assert_eq!(
            runs,
            vec![(0, 1), (2, 1), (0, 1), (1, 1), (0, 2)],
            "the reservation is written as released, equal neighbours as one run"
        );
        assert_eq!(free, vec![3, 1]);
        let rows: [&[u32]; 2] = [&[4, 0], &[2, 5]];
        let (mut loaded, handles) =
            EntityAllocator::from_snapshot_ids(&runs, free, rows.into_iter()).unwrap();
        assert_eq!(loaded.len(), 4);
        assert_eq!(
            handles,
            vec![
                vec![entities[4], entities[0]],
                vec![entities[2], entities[5]]
            ]
        );
        assert_eq!(
            loaded
                .location(entities[5])
                .map(|at| (at.table_index, at.array_index)),
            Some((1, 1)),
            "every row is located"
        );
        assert!(loaded.is_alive(entities[0]) && !loaded.is_alive(entities[1]));
        assert_eq!(loaded.allocate(), Entity::new(1, 2));
        assert_eq!(loaded.allocate(), Entity::new(3, 1));
        assert_eq!(loaded.allocate(), Entity::new(6, 0));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn retired_ids_are_runs_of_their_own() {
        let mut allocator = EntityAllocator::new();
        let entities: Vec<_> = (0..3).map(|_| allocator.allocate()).collect();
        allocator.records.slots[0].generation = u32::MAX;
        allocator.records.slots[1].generation = u32::MAX;
        allocator.free(entities[0]);
        allocator.free(entities[1]);
        let (runs, free) = allocator.snapshot_ids();
        assert_eq!(runs, vec![(u32::MAX, 1), (u32::MAX, 1), (0, 1)]);
        assert!(free.is_empty(), "a retired id is not free");
        let rows: [&[u32]; 1] = [&[2]];
        let (loaded, _) =
            EntityAllocator::from_snapshot_ids(&runs, free, rows.into_iter()).unwrap();
        assert_eq!(
            (loaded.id_count(), loaded.len(), loaded.free_count()),
            (3, 1, 0)
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn inconsistent_snapshot_ids_are_refused() {
        let load = |runs: &[(u32, u32)], free: Vec<u32>, alive: Vec<u32>| {
            let rows: [&[u32]; 1] = [&alive];
            EntityAllocator::from_snapshot_ids(runs, free, rows.into_iter()).unwrap_err()
        };
        assert!(load(&[(0, 1)], vec![], vec![1]).contains("never issued"));
        assert!(load(&[(0, 2)], vec![], vec![0, 0]).contains("more than one row"));
        assert!(load(&[(1, 1)], vec![0], vec![0]).contains("both alive and on the free list"));
        assert!(load(&[(1, 3)], vec![1, 1], vec![0]).contains("twice"));
        assert!(load(&[(0, 1)], vec![7], vec![]).contains("never issued"));
        assert!(load(&[(0, 1), (3, 1)], vec![], vec![0, 0]).contains("more than one row"));
        assert!(load(&[(0, 1), (3, 1)], vec![], vec![0]).contains("more than the 1 rows"));
        assert!(
            load(&[(0, 1), (3, 1), (u32::MAX, 1)], vec![], vec![0, 2])
                .contains("id 1 is neither alive, free nor retired")
        );
        assert!(load(&[(0, 1), (0, 1)], vec![], vec![0, 1]).contains("both at generation 0"));
        assert!(load(&[(0, 0)], vec![], vec![]).contains("covers no id"));
        assert!(load(&[(u32::MAX, 2)], vec![], vec![]).contains("a run of its own"));
        let huge = load(&[(0, u32::MAX), (1, u32::MAX)], vec![], vec![0]);
        assert!(huge.contains("more than the 1 rows"), "{huge}");
        let rows: [&[u32]; 0] = [];
        let (retired, _) =
            EntityAllocator::from_snapshot_ids(&[(u32::MAX, 1)], vec![], rows.into_iter()).unwrap();
        assert_eq!(retired.id_count(), 1);
        assert_eq!(retired.free_count(), 0);
    }
}
