//! Entity handles, the entity index that issues them and the per-id records.
//!
//! The index ([`EntityIndex`]) issues, recycles and reserves handles; the records
//! ([`EntityRecords`], one per part of a world or game) say which are alive: a handle is alive
//! when its id's record holds it at its generation. Each id's record also holds where a live
//! entity's row is, so resolving a handle (liveness check and location) is one memory access;
//! a location is only handed out for a live handle.

#[cfg(test)]
use alloc::vec::Vec;
use core::fmt;

mod index;
mod lending;
mod records;
mod state;

pub use index::EntityIndex;
pub use lending::EntityReserver;
pub use records::{EntityRecords, IdRecords};

/// A generational handle to an entity.
///
/// `id` indexes the world's per-id records; `generation` counts how often that id has been
/// recycled. A handle whose generation is not the id's current one is stale and resolves to
/// nothing, so a recycled id never hands out another entity's data.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Entity {
    /// Index of the entity's record.
    pub id: u32,
    /// How many times `id` had been recycled when this handle was issued.
    pub generation: u32,
}

impl Entity {
    /// A handle that no entity index ever issues: the default value of every `Entity`.
    ///
    /// Components must be `Default`, and a component holding an `Entity` (a target, a parent)
    /// defaults to this handle, so it never silently refers to the first spawned entity.
    pub const PLACEHOLDER: Entity = Entity {
        id: u32::MAX,
        generation: u32::MAX,
    };

    /// A handle from its parts.
    pub const fn new(id: u32, generation: u32) -> Self {
        Entity { id, generation }
    }
}

impl Default for Entity {
    /// [`Entity::PLACEHOLDER`]: never alive in any world.
    fn default() -> Self {
        Entity::PLACEHOLDER
    }
}

impl fmt::Display for Entity {
    /// `7v2` for id 7 at generation 2.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}v{}", self.id, self.generation)
    }
}

/// Where an id is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum IdState {
    /// Waiting in the free list (or retired).
    Free,
    /// Handed out by `reserve` for a spawn that has not happened yet: not alive, not reusable.
    Reserved,
    Alive,
}

/// The record of one id: its generation, and where its live entity's row is.
///
/// Twelve bytes: the id's state is folded into the table index (a free or reserved id holds a
/// sentinel past any table's index), so a world pays no padding per id, and a lookup checks
/// liveness with the table index it loads anyway.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct IdSlot {
    /// The generation the id is at: of the live entity, or of the next one to get the id.
    generation: u32,
    /// The live entity's table, or [`FREE_ID`] / [`RESERVED_ID`].
    table_index: u32,
    /// The live entity's row in that table (meaningless otherwise).
    array_index: u32,
}

/// The table index of a free (or retired) id's record.
const FREE_ID: u32 = u32::MAX;

/// The table index of a reserved id's record.
const RESERVED_ID: u32 = u32::MAX - 1;

impl Default for IdSlot {
    /// A free id at generation 0.
    fn default() -> Self {
        IdSlot::free(0)
    }
}

impl IdSlot {
    /// A free id whose next holder gets `generation`.
    fn free(generation: u32) -> Self {
        IdSlot {
            generation,
            table_index: FREE_ID,
            array_index: 0,
        }
    }

    #[inline]
    fn state(&self) -> IdState {
        match self.table_index {
            FREE_ID => IdState::Free,
            RESERVED_ID => IdState::Reserved,
            _ => IdState::Alive,
        }
    }

    /// Makes the id alive at `(table_index, array_index)`, its generation kept: a batch's
    /// handle whose row exists already.
    #[inline]
    fn set_location(&mut self, (table_index, array_index): (u32, u32)) {
        debug_assert!(table_index < RESERVED_ID, "table index past the last");
        self.table_index = table_index;
        self.array_index = array_index;
    }

    /// Moves the id to `state`. An id made alive is at table 0, row 0 until its spawn sets its
    /// location.
    #[inline]
    fn set_state(&mut self, state: IdState) {
        self.array_index = 0;
        self.table_index = match state {
            IdState::Free => FREE_ID,
            IdState::Reserved => RESERVED_ID,
            IdState::Alive => 0,
        };
    }
}

/// An entity index and its own records together, for the unit tests of the index: one part's
/// index, the shape of a world's (see [`EntityIndex`] and [`EntityRecords`]).
///
/// Freed ids are recycled last-in first-out with their generation bumped. An id whose
/// generation reached `u32::MAX` is retired instead of recycled, so a generation never wraps
/// around to make an old handle valid again.
///
/// Handles can also be reserved while the allocator is borrowed elsewhere, through an
/// [`EntityReserver`] it lends (see [`lend_reserver`](Self::lend_reserver)).
#[cfg(test)]
#[derive(Debug, Default)]
pub struct EntityAllocator {
    pub(crate) index: EntityIndex,
    pub(crate) records: EntityRecords,
}

#[cfg(test)]
impl EntityAllocator {
    /// An allocator that has issued nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Issues a handle: see [`EntityIndex::allocate`].
    #[inline]
    pub fn allocate(&mut self) -> Entity {
        self.index.allocate(&mut self.records)
    }

    /// `count` live handles at once: see [`EntityIndex::allocate_many`].
    #[inline]
    pub fn allocate_many(&mut self, count: usize) -> Vec<Entity> {
        self.index.allocate_many(count, &mut self.records)
    }

    /// Issues a handle that is not alive yet: see [`EntityIndex::reserve`].
    #[inline]
    pub fn reserve(&mut self) -> Entity {
        self.index.reserve(&mut self.records)
    }

    /// Makes a reserved handle alive: see [`EntityIndex::activate`].
    #[inline]
    pub fn activate(&mut self, entity: Entity) -> bool {
        self.index.activate(entity, &mut self.records)
    }

    /// Gives a reserved handle back unused: see [`EntityIndex::release`].
    #[inline]
    pub fn release(&mut self, entity: Entity) -> bool {
        self.index.release(entity, &mut self.records)
    }

    /// Whether `entity` is reserved and not yet alive.
    #[inline]
    pub fn is_reserved(&self, entity: Entity) -> bool {
        self.index.is_reserved(entity, &self.records)
    }

    /// Frees a live handle: see [`EntityIndex::free`].
    #[inline]
    pub fn free(&mut self, entity: Entity) -> bool {
        self.index.free(entity, &mut self.records)
    }

    /// Lends a reserver: see [`EntityIndex::lend_reserver`].
    #[inline]
    pub fn lend_reserver(&mut self) -> EntityReserver {
        self.index.lend_reserver(&mut self.records)
    }

    /// Whether `entity` is the live holder of its id.
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.records.is_alive(entity)
    }

    /// Where a live `entity`'s row is; `None` for a handle that is not alive.
    #[inline]
    pub fn location(&self, entity: Entity) -> Option<EntityLocation> {
        self.records.location(entity)
    }

    /// Where `entity`'s row is if its id is at its generation: see
    /// [`EntityRecords::claimed_location`].
    #[inline]
    pub fn claimed_location(&self, entity: Entity) -> Option<EntityLocation> {
        self.records.claimed_location(entity)
    }

    /// Records where the live entity holding `id` now lives: see
    /// [`EntityRecords::set_location`].
    #[inline]
    pub fn set_location(&mut self, id: u32, location: EntityLocation) {
        self.records.set_location(id, location);
    }

    /// Moves the live entity holding `id` to `location`: see [`EntityRecords::relocate`].
    #[inline]
    pub(crate) fn relocate(&mut self, id: u32, location: EntityLocation) {
        self.records.relocate(id, location);
    }

    /// Number of live entities.
    #[inline]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Number of ids ever issued (live, reserved, free or retired).
    pub fn id_count(&self) -> usize {
        self.index.id_count(&self.records)
    }

    /// Number of ids waiting to be recycled.
    pub fn free_count(&self) -> usize {
        self.index.free_count()
    }

    /// The live handle holding `id`, if any.
    pub fn live_entity(&self, id: u32) -> Option<Entity> {
        self.records.live_entity(id)
    }

    /// Every live handle, in id order.
    pub fn iter_alive(&self) -> impl Iterator<Item = Entity> + '_ {
        self.records.iter_alive()
    }

    /// Whether `other` has issued exactly the same handles: every id at the same generation
    /// and state, the same free list. Locations are not compared: two worlds with the same
    /// handles may keep them in rows of their own.
    pub fn same_ids(&self, other: &Self) -> bool {
        self.index
            .same_ids(&self.records, &other.index, &other.records)
    }
}

#[cfg(test)]
impl Clone for EntityAllocator {
    /// A copy on its own (never sharing a loan): what a lent reserver issued is recorded in
    /// the copy, and the shared stack is copied back in.
    fn clone(&self) -> Self {
        let mut records = self.records.clone();
        let index = self.index.copy_with(&mut records);
        EntityAllocator { index, records }
    }

    fn clone_from(&mut self, source: &Self) {
        self.records.clone_from(&source.records);
        self.index.clone_from_with(&source.index, &mut self.records);
    }
}

/// The id a fresh handle gets when `issued` ids were issued before it.
///
/// # Panics
/// When all `u32::MAX` ids are in use or retired (the last id is [`Entity::PLACEHOLDER`]'s).
fn fresh_id(issued: usize) -> u32 {
    u32::try_from(issued)
        .ok()
        .filter(|&id| id != Entity::PLACEHOLDER.id)
        .expect("archetypal: all u32 entity ids are in use or retired")
}

/// Where a live entity's row is: its table and its index in that table's arrays.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EntityLocation {
    /// Index of the table (archetype) holding the entity.
    pub table_index: u32,
    /// Index of the entity's row in every array of that table.
    pub array_index: u32,
}

impl EntityLocation {
    /// A location from `usize` indices.
    #[inline]
    pub fn new(table_index: usize, array_index: usize) -> Self {
        EntityLocation {
            table_index: table_index as u32,
            array_index: array_index as u32,
        }
    }

    /// The table index as a `usize`.
    #[inline]
    pub fn table(self) -> usize {
        self.table_index as usize
    }

    /// The array index as a `usize`.
    #[inline]
    pub fn row(self) -> usize {
        self.array_index as usize
    }
}

#[cfg(test)]
mod tests;
