//! The entity index: what issues, recycles and reserves handles for a world or a game.
//!
//! It holds the recycling stack and, while a reserver is lent, the loan; the ids' generations
//! and states live in the parts' [`EntityRecords`], which every operation here writes through
//! [`IdRecords`] (one part's records, or each of a game's parts' at once). So a world, one
//! part, touches one record per id, and a game one per part.

use alloc::vec::Vec;

use super::lending::Lent;
use super::{Entity, EntityLocation, EntityRecords, IdRecords, IdSlot, IdState, fresh_id};

/// Mints generational handles for the records of one world or game.
///
/// Freed ids are recycled last-in first-out with their generation bumped. An id whose
/// generation reached `u32::MAX` is retired instead of recycled, so a generation never wraps
/// around to make an old handle valid again.
#[derive(Debug, Default)]
pub struct EntityIndex {
    /// The recycling stack: each free id with the generation its next holder gets.
    pub(super) free: Vec<Entity>,
    /// While a reserver is out, the recycling stack and the next fresh id live here, shared
    /// with it (see `lending`); `free` is then empty.
    pub(super) lent: Option<Lent>,
    /// The list of reservations the last loan recorded, emptied and kept for the next one (a
    /// world split every frame then reserves without growing a new list).
    pub(super) spare_reserved: Vec<Entity>,
}

impl EntityIndex {
    /// Issues a handle, alive in `records`: a recycled id with its next generation, or a
    /// fresh id at generation 0.
    ///
    /// # Panics
    /// When all `u32::MAX` ids are in use or retired (the last id is reserved for
    /// [`Entity::PLACEHOLDER`]).
    #[inline]
    pub fn allocate(&mut self, records: &mut impl IdRecords) -> Entity {
        self.issue(IdState::Alive, records)
    }

    /// `count` live handles, the same ones `count` calls to [`allocate`](Self::allocate)
    /// would give, in the same order, with the bookkeeping done once per batch (a batch spawn).
    ///
    /// # Panics
    /// As [`allocate`](Self::allocate), before issuing any handle.
    pub fn allocate_many(&mut self, count: usize, records: &mut impl IdRecords) -> Vec<Entity> {
        // Alive at table 0, row 0 until their spawn sets their locations, as `allocate`'s.
        self.allocate_many_with(count, records, |_| (0, 0))
    }

    /// [`allocate_many`](Self::allocate_many) for a batch whose rows are already pushed: the
    /// `k`-th handle is alive at row `first.array_index + k` of table `first.table_index`,
    /// written with its state in one store per record (a value spawn then has no locations
    /// left to write).
    pub(crate) fn allocate_many_at(
        &mut self,
        count: usize,
        records: &mut impl IdRecords,
        first: EntityLocation,
    ) -> Vec<Entity> {
        self.allocate_many_with(count, records, |k| {
            (first.table_index, first.array_index + k as u32)
        })
    }

    /// The one body of [`allocate_many`](Self::allocate_many) and
    /// [`allocate_many_at`](Self::allocate_many_at): the `k`-th handle issued is alive at
    /// `location(k)` (table index, row).
    #[inline]
    fn allocate_many_with(
        &mut self,
        count: usize,
        records: &mut impl IdRecords,
        location: impl Fn(usize) -> (u32, u32),
    ) -> Vec<Entity> {
        // A loan whose reserver was dropped (a split world given back) ends here, so the batch
        // takes the fast path below, not one handle at a time.
        self.settle(records);
        if self.lent.is_some() {
            let entities: Vec<Entity> = (0..count).map(|_| self.allocate(records)).collect();
            records.write_each(|part| {
                for (k, entity) in entities.iter().enumerate() {
                    part.slots[entity.id as usize].set_location(location(k));
                }
            });
            return entities;
        }
        let recycled = count.min(self.free.len());
        let fresh = count - recycled;
        let first_fresh = records.reference().id_count();
        if fresh > 0 {
            // The last fresh id must exist before any handle is issued.
            fresh_id(first_fresh.saturating_add(fresh - 1));
        }
        let mut entities = Vec::with_capacity(count);
        // The recycling stack pops from its end.
        entities.extend(self.free.drain(self.free.len() - recycled..).rev());
        records.write_each(|part| {
            for (k, entity) in entities.iter().enumerate() {
                part.slots[entity.id as usize].set_location(location(k));
            }
            debug_assert_eq!(part.slots.len(), first_fresh);
            part.slots.extend((recycled..count).map(|k| {
                let (table_index, array_index) = location(k);
                IdSlot {
                    generation: 0,
                    table_index,
                    array_index,
                }
            }));
            part.live += count;
        });
        entities.extend((first_fresh..first_fresh + fresh).map(|id| Entity::new(id as u32, 0)));
        entities
    }

    /// Issues a handle that is not alive yet: a spawn queued for later can hand it out now.
    /// [`activate`](Self::activate) makes it alive, [`release`](Self::release) gives it back.
    ///
    /// # Panics
    /// As [`allocate`](Self::allocate).
    pub fn reserve(&mut self, records: &mut impl IdRecords) -> Entity {
        self.issue(IdState::Reserved, records)
    }

    fn issue(&mut self, state: IdState, records: &mut impl IdRecords) -> Entity {
        let entity = if self.lent.is_none() {
            self.free
                .pop()
                .unwrap_or_else(|| Entity::new(fresh_id(records.reference().id_count()), 0))
        } else {
            self.issue_while_lent(records)
        };
        let alive = usize::from(state == IdState::Alive);
        records.write_each(|part| {
            part.slot_or_grow(entity.id).set_state(state);
            part.live += alive;
        });
        entity
    }

    /// Makes a reserved handle alive. `false`, changing nothing, for any other handle.
    pub fn activate(&mut self, entity: Entity, records: &mut impl IdRecords) -> bool {
        self.settle(records);
        let activated = reserved_to_alive(entity, records);
        if activated {
            records.write_each(|part| part.live += 1);
        }
        activated
    }

    /// Makes the reserved handles of `entities` alive, recording a lent reserver's issues once
    /// for all of them (a world's command part is often still out, its borrow over, while
    /// the world applies its queue); returns the positions of the others, which change
    /// nothing (empty, allocating nothing, when every handle was reserved).
    pub(crate) fn activate_all(
        &mut self,
        entities: &[Entity],
        records: &mut impl IdRecords,
    ) -> Vec<usize> {
        self.settle(records);
        let mut refused = Vec::new();
        let mut activated = 0;
        for (index, &entity) in entities.iter().enumerate() {
            if reserved_to_alive(entity, records) {
                activated += 1;
            } else {
                refused.push(index);
            }
        }
        // Added once: a count kept in the loop is stored back every handle.
        records.write_each(|part| part.live += activated);
        refused
    }

    /// Gives a reserved handle back unused; it never becomes alive. `false` for any other
    /// handle.
    pub fn release(&mut self, entity: Entity, records: &mut impl IdRecords) -> bool {
        self.settle(records);
        if !records.reference().has_state(entity, IdState::Reserved) {
            return false;
        }
        self.retire_or_recycle(entity.id, false, records);
        true
    }

    /// Whether `entity` is reserved and not yet alive.
    pub fn is_reserved(&self, entity: Entity, records: &EntityRecords) -> bool {
        records.is_reserved(entity)
            || self
                .lent
                .as_ref()
                .is_some_and(|lent| lent.holds_reservation(entity))
    }

    /// Frees `id` in every copy of `records` (one less alive if `was_alive`): bumps its
    /// generation and recycles it, or retires it when the generation is exhausted. One write
    /// of each copy's record: this runs per despawn.
    #[inline(always)]
    pub(super) fn retire_or_recycle(
        &mut self,
        id: u32,
        was_alive: bool,
        records: &mut impl IdRecords,
    ) {
        let mut next = None;
        records.write_each(|part| {
            part.live -= usize::from(was_alive);
            let slot = &mut part.slots[id as usize];
            slot.set_state(IdState::Free);
            // At `u32::MAX` the id is used up: retired, never issued again.
            if slot.generation < u32::MAX {
                slot.generation += 1;
                next = Some(slot.generation);
            }
        });
        let Some(generation) = next else { return };
        let entity = Entity::new(id, generation);
        if self.lent.is_none() {
            self.free.push(entity);
        } else {
            self.recycle_while_lent(entity, records);
        }
    }

    /// Recycles `entity` while a reserver is lent: onto the reserver's free list, or, once
    /// it is given back, onto the index's (kept out of the despawn's path).
    #[cold]
    #[inline(never)]
    fn recycle_while_lent(&mut self, entity: Entity, records: &mut impl IdRecords) {
        match &self.lent {
            None => self.free.push(entity),
            // The reserver is gone (a split world's parts dropped, its despawns come
            // next): the loan ends here, rather than each free taking its lock.
            Some(lent) if lent.is_returned() => {
                self.settle_lent(records);
                self.free.push(entity);
            }
            Some(lent) => lent.push_free(entity),
        }
    }

    /// Frees `entity`, which the caller knows to be alive in `records` (a game's despawn,
    /// which checked it before its sub-worlds let go of the rows): [`free`](Self::free)
    /// without the check.
    #[inline]
    pub(crate) fn free_alive(&mut self, entity: Entity, records: &mut impl IdRecords) {
        debug_assert!(
            records.reference().is_alive(entity),
            "{entity} is not alive"
        );
        self.retire_or_recycle(entity.id, true, records);
    }

    /// Frees a live handle. Returns `false`, changing nothing, for a handle that is stale,
    /// already freed, reserved or never issued.
    pub fn free(&mut self, entity: Entity, records: &mut impl IdRecords) -> bool {
        if !records.reference().is_alive(entity) {
            return false;
        }
        self.retire_or_recycle(entity.id, true, records);
        true
    }

    /// Number of ids ever issued (live, reserved, free or retired).
    pub fn id_count(&self, records: &EntityRecords) -> usize {
        match &self.lent {
            None => records.id_count(),
            Some(lent) => lent.id_count().max(records.id_count()),
        }
    }

    /// Number of ids waiting to be recycled.
    pub fn free_count(&self) -> usize {
        match &self.lent {
            None => self.free.len(),
            Some(lent) => lent.free_count(),
        }
    }
}

/// Marks a reserved handle alive in every copy of `records` (one lookup in the reference: this
/// runs per queued spawn), leaving the live count to the caller; `false`, changing nothing,
/// for any other handle.
#[inline]
fn reserved_to_alive(entity: Entity, records: &mut impl IdRecords) -> bool {
    if !records.reference().has_state(entity, IdState::Reserved) {
        return false;
    }
    records.write_each(|part| part.slots[entity.id as usize].set_state(IdState::Alive));
    true
}
