//! The record of every id that a part of a world keeps: its generation, whether it is alive,
//! and where its live entity's row is in the part's tables.
//!
//! Every part of a world or game keeps one ([`EntityRecords`]), so resolving a handle in a part
//! (liveness and location) is one memory access. The parts of a game agree on every id's
//! generation and state, since only the entity index ([`EntityIndex`](super::EntityIndex))
//! changes those, writing every part's records at once through [`IdRecords`]; each part writes
//! only the locations of its own rows.

use alloc::vec::Vec;
use core::mem::ManuallyDrop;

use super::{Entity, EntityLocation, IdSlot, IdState, RESERVED_ID};
use crate::dropped::{DropHere, drop_value};

/// One part's record of every id: generation, state and, for a live id, its row.
#[derive(Clone, Debug, Default)]
pub struct EntityRecords {
    pub(super) slots: Vec<IdSlot>,
    /// Number of live ids.
    pub(super) live: usize,
}

/// The records an entity index writes: one part's, or every part's of a game. Reads go to
/// [`reference`](Self::reference) (every copy agrees on generations and states); writes of a
/// generation or a state go to every copy.
pub trait IdRecords {
    /// The records reads consult.
    fn reference(&self) -> &EntityRecords;

    /// Applies `write` to every copy of the records.
    fn write_each(&mut self, write: impl FnMut(&mut EntityRecords));
}

impl IdRecords for EntityRecords {
    #[inline]
    fn reference(&self) -> &EntityRecords {
        self
    }

    #[inline]
    fn write_each(&mut self, mut write: impl FnMut(&mut EntityRecords)) {
        write(self);
    }
}

impl<R: IdRecords + ?Sized> IdRecords for &mut R {
    #[inline]
    fn reference(&self) -> &EntityRecords {
        (**self).reference()
    }

    #[inline]
    fn write_each(&mut self, write: impl FnMut(&mut EntityRecords)) {
        (**self).write_each(write);
    }
}

/// A storage holds its records `Dropped`: dropped by code compiled here, not by glue in every
/// game's crate.
impl DropHere for EntityRecords {
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        drop_value(value);
    }
}

impl EntityRecords {
    /// The record of `id`, pushing free records at generation 0 up to it if it is fresh.
    #[inline]
    pub(super) fn slot_or_grow(&mut self, id: u32) -> &mut IdSlot {
        let index = id as usize;
        if index < self.slots.len() {
            // One bounds test: the one here.
            return &mut self.slots[index];
        }
        self.grow_to(index)
    }

    /// [`slot_or_grow`](Self::slot_or_grow) for a fresh id: pushes free records up to it.
    fn grow_to(&mut self, index: usize) -> &mut IdSlot {
        self.slots.resize(index + 1, IdSlot::default());
        &mut self.slots[index]
    }

    /// Number of ids ever recorded (live, reserved, free or retired).
    #[inline]
    pub(super) fn id_count(&self) -> usize {
        self.slots.len()
    }

    pub(super) fn has_state(&self, entity: Entity, state: IdState) -> bool {
        self.slots
            .get(entity.id as usize)
            .is_some_and(|slot| slot.state() == state && slot.generation == entity.generation)
    }

    /// Whether `entity` is the live holder of its id.
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.has_state(entity, IdState::Alive)
    }

    /// Whether the records hold `entity` reserved for a queued spawn (a reservation a lent
    /// reserver made is recorded here once the index settles it: see
    /// [`EntityIndex::is_reserved`](super::EntityIndex::is_reserved)).
    #[inline]
    pub fn is_reserved(&self, entity: Entity) -> bool {
        self.has_state(entity, IdState::Reserved)
    }

    /// Where a live `entity`'s row is; `None` for a handle that is not alive.
    #[inline]
    pub fn location(&self, entity: Entity) -> Option<EntityLocation> {
        self.claimed_location(entity)
            .filter(|location| location.table_index < RESERVED_ID)
    }

    /// Where `entity`'s row is if its id is at its generation, without checking that the id is
    /// alive: for a free or reserved id, the location's table index is past the index of any
    /// table a world can hold (`u32::MAX - 1` or above), so a caller that looks the table up
    /// with a checked index (`tables.get(..)`) rejects it there, and the hot accessors make one
    /// comparison fewer. `None` for another generation or a never-issued id. Use
    /// [`location`](Self::location) unless the table lookup follows.
    #[inline]
    pub fn claimed_location(&self, entity: Entity) -> Option<EntityLocation> {
        let slot = self.slots.get(entity.id as usize)?;
        (slot.generation == entity.generation).then_some(EntityLocation {
            table_index: slot.table_index,
            array_index: slot.array_index,
        })
    }

    /// Records where the live entity holding `id` now lives. An id that is not alive (free,
    /// reserved or never issued) is ignored.
    #[inline]
    pub fn set_location(&mut self, id: u32, location: EntityLocation) {
        debug_assert!(
            location.table_index < RESERVED_ID,
            "table index past the last"
        );
        if let Some(slot) = self.slots.get_mut(id as usize) {
            if slot.state() == IdState::Alive {
                slot.table_index = location.table_index;
                slot.array_index = location.array_index;
            }
        }
    }

    /// Moves the live entity holding `id` to `location`: for the row a despawn or migration
    /// moved into a hole, whose holder is alive by construction, and for a spawn's new row,
    /// whose entity was just made alive. A write only, unlike
    /// [`set_location`](Self::set_location): the moved row's holder is a random entity whose
    /// record is seldom in cache, and a read of it would hold up every despawn behind the miss
    /// (a write waits in the store buffer instead); a spawn writes every part's record, and
    /// needs no test of what it just wrote. The caller guarantees `id` is alive: a free id's
    /// record written here would become alive.
    #[inline]
    pub(crate) fn relocate(&mut self, id: u32, location: EntityLocation) {
        debug_assert!(
            location.table_index < RESERVED_ID,
            "table index past the last"
        );
        if let Some(slot) = self.slots.get_mut(id as usize) {
            debug_assert_eq!(slot.state(), IdState::Alive, "relocating id {id}");
            slot.table_index = location.table_index;
            slot.array_index = location.array_index;
        }
    }

    /// Number of live entities.
    #[inline]
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no entity is alive.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The live handle holding `id`, if any.
    pub fn live_entity(&self, id: u32) -> Option<Entity> {
        let slot = self.slots.get(id as usize)?;
        (slot.state() == IdState::Alive).then(|| Entity::new(id, slot.generation))
    }

    /// Every live handle, in id order.
    pub fn iter_alive(&self) -> impl Iterator<Item = Entity> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.state() == IdState::Alive)
            .map(|(id, slot)| Entity::new(id as u32, slot.generation))
    }

    /// Whether `other` records the same ids at the same generations and states (locations
    /// aside: two parts keep their rows in tables of their own). A game's parts always do.
    pub fn same_ids(&self, other: &Self) -> bool {
        self.live == other.live
            && self.slots.len() == other.slots.len()
            && self.slots.iter().zip(&other.slots).all(|(mine, theirs)| {
                mine.generation == theirs.generation && mine.state() == theirs.state()
            })
    }

    /// The records of `reference`'s ids located at the rows of a snapshot's tables: every id
    /// of a row must be alive in `reference`, on one row only, and every live id must have a
    /// row (another part of a game, loaded against its first part's records). Returns the
    /// records and each table's handles; the error says what disagrees.
    #[cfg(feature = "serde")]
    pub(crate) fn located_from_snapshot_rows<'a>(
        reference: &Self,
        tables: impl Iterator<Item = &'a [u32]>,
    ) -> Result<(Self, alloc::vec::Vec<alloc::vec::Vec<Entity>>), alloc::string::String> {
        let mut records = reference.clone();
        // Alive again as their rows are met: each exactly once.
        for slot in &mut records.slots {
            if slot.state() == IdState::Alive {
                slot.set_state(IdState::Free);
            }
        }
        let (live, entities) = super::state::locate_rows(&mut records.slots, tables, |_, id| {
            match reference.live_entity(id) {
                Some(entity) => Ok(entity.generation),
                None => Err(format!(
                    "a table holds entity id {id}, which is not alive in the game"
                )),
            }
        })?;
        if let Some(missing) = reference
            .iter_alive()
            .find(|&entity| !records.is_alive(entity))
        {
            return Err(format!("the game's entity {missing} has no row"));
        }
        records.live = live;
        Ok((records, entities))
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use crate::entity::EntityAllocator;
    use alloc::vec;

    #[test]
    fn another_part_s_rows_are_located_at_the_first_part_s_generations_or_refused() {
        let mut game = EntityAllocator::new();
        let entities = game.allocate_many(4);
        game.free(entities[1]);
        let recycled = game.allocate();
        game.free(entities[3]);
        let reference = &game.records;
        let tables: [&[u32]; 2] = [&[2, 1], &[0]];
        let (located, handles) =
            EntityRecords::located_from_snapshot_rows(reference, tables.into_iter()).unwrap();
        assert!(
            located.same_ids(reference),
            "the same ids, states and generations"
        );
        assert_eq!(handles, [vec![entities[2], recycled], vec![entities[0]]]);
        assert_eq!(
            located.location(recycled).map(|at| (at.table(), at.row())),
            Some((0, 1))
        );
        assert!(
            !located.is_alive(entities[1]),
            "the stale handle stays stale"
        );
        let refused = |rows: &[u32]| {
            let tables: [&[u32]; 1] = [rows];
            EntityRecords::located_from_snapshot_rows(reference, tables.into_iter()).unwrap_err()
        };
        assert_eq!(refused(&[0, 1]), "the game's entity 2v0 has no row");
        assert_eq!(
            refused(&[0, 1, 2, 3]),
            "a table holds entity id 3, which is not alive in the game"
        );
        assert_eq!(
            refused(&[0, 1, 2, 9]),
            "a table holds entity id 9, which is not alive in the game"
        );
        assert_eq!(refused(&[0, 1, 1, 2]), "entity id 1 has more than one row");
    }
}
