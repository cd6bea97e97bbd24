//! Entity handles, the generational allocator and the per-id records.
//!
//! The allocator is the one source of truth for liveness: a handle is alive when its id is
//! allocated and its generation is the id's current one. Each id's record also holds where a
//! live entity's row is, so resolving a handle (liveness check and location) is one memory
//! access; a location is only handed out for a live handle.

use alloc::vec::Vec;
use core::fmt;

mod lending;
mod state;

pub use lending::EntityReserver;
use lending::Lent;

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
    /// A handle that no allocator ever issues: the default value of every `Entity`.
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

/// Mints generational handles and decides which are alive.
///
/// Freed ids are recycled last-in first-out with their generation bumped. An id whose
/// generation reached `u32::MAX` is retired instead of recycled, so a generation never wraps
/// around to make an old handle valid again.
///
/// Handles can also be reserved while the allocator is borrowed elsewhere, through an
/// [`EntityReserver`] it lends (see [`lend_reserver`](Self::lend_reserver)).
#[derive(Debug, Default)]
pub struct EntityAllocator {
    slots: Vec<IdSlot>,
    /// The recycling stack: each free id with the generation its next holder gets.
    free: Vec<Entity>,
    live: usize,
    /// While a reserver is out, the recycling stack and the next fresh id live here, shared
    /// with it (see `lending`); `free` is then empty.
    lent: Option<Lent>,
    /// The list of reservations the last loan recorded, emptied and kept for the next one (a
    /// world split every frame then reserves without growing a new list).
    spare_reserved: Vec<Entity>,
}

impl EntityAllocator {
    /// An allocator that has issued nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Issues a handle: a recycled id with its next generation, or a fresh id at generation 0.
    ///
    /// # Panics
    /// When all `u32::MAX` ids are in use or retired (the last id is reserved for
    /// [`Entity::PLACEHOLDER`]).
    pub fn allocate(&mut self) -> Entity {
        self.live += 1;
        self.issue(IdState::Alive)
    }

    /// `count` live handles, the same ones `count` calls to [`allocate`](Self::allocate)
    /// would give, in the same order, with the bookkeeping done once per batch (a batch spawn).
    ///
    /// # Panics
    /// As [`allocate`](Self::allocate), before issuing any handle.
    pub fn allocate_many(&mut self, count: usize) -> Vec<Entity> {
        // A loan whose reserver was dropped (a split world given back) ends here, so the batch
        // takes the fast path below, not one handle at a time.
        self.settle();
        if self.lent.is_some() {
            return (0..count).map(|_| self.allocate()).collect();
        }
        let recycled = count.min(self.free.len());
        let fresh = count - recycled;
        let first_fresh = self.slots.len();
        if fresh > 0 {
            // The last fresh id must exist before any handle is issued.
            fresh_id(first_fresh.saturating_add(fresh - 1));
        }
        let mut entities = Vec::with_capacity(count);
        // The recycling stack pops from its end.
        entities.extend(self.free.drain(self.free.len() - recycled..).rev());
        for entity in &entities {
            self.slots[entity.id as usize].set_state(IdState::Alive);
        }
        entities.extend((first_fresh..first_fresh + fresh).map(|id| Entity::new(id as u32, 0)));
        let mut alive = IdSlot::default();
        alive.set_state(IdState::Alive);
        self.slots.resize(first_fresh + fresh, alive);
        self.live += count;
        entities
    }

    /// Issues a handle that is not alive yet: a spawn queued for later can hand it out now.
    /// [`activate`](Self::activate) makes it alive, [`release`](Self::release) gives it back.
    ///
    /// # Panics
    /// As [`allocate`](Self::allocate).
    pub fn reserve(&mut self) -> Entity {
        self.issue(IdState::Reserved)
    }

    fn issue(&mut self, state: IdState) -> Entity {
        let entity = if self.lent.is_none() {
            self.free
                .pop()
                .unwrap_or_else(|| Entity::new(fresh_id(self.slots.len()), 0))
        } else {
            self.issue_while_lent()
        };
        lending::slot_or_grow(&mut self.slots, entity.id).set_state(state);
        entity
    }

    /// Makes a reserved handle alive. `false`, changing nothing, for any other handle.
    pub fn activate(&mut self, entity: Entity) -> bool {
        self.settle();
        let activated = self.reserved_to_alive(entity);
        self.live += usize::from(activated);
        activated
    }

    /// Makes the reserved handles of `entities` alive, recording a lent reserver's issues once
    /// for all of them (a world's command part is often still out, its borrow over, while
    /// the world applies its queue); returns the positions of the others, which change
    /// nothing (empty, allocating nothing, when every handle was reserved).
    pub(crate) fn activate_all(&mut self, entities: &[Entity]) -> Vec<usize> {
        self.settle();
        let mut refused = Vec::new();
        let mut activated = 0;
        for (index, &entity) in entities.iter().enumerate() {
            if self.reserved_to_alive(entity) {
                activated += 1;
            } else {
                refused.push(index);
            }
        }
        // Added once: a count kept in the loop is stored back every handle.
        self.live += activated;
        refused
    }

    /// Marks a reserved handle alive (one lookup: this runs per queued spawn), leaving the
    /// live count to the caller; `false`, changing nothing, for any other handle.
    fn reserved_to_alive(&mut self, entity: Entity) -> bool {
        match self.slots.get_mut(entity.id as usize) {
            Some(slot)
                if slot.generation == entity.generation && slot.state() == IdState::Reserved =>
            {
                slot.set_state(IdState::Alive);
                true
            }
            _ => false,
        }
    }

    /// Gives a reserved handle back unused; it never becomes alive. `false` for any other
    /// handle.
    pub fn release(&mut self, entity: Entity) -> bool {
        self.settle();
        if !self.has_state(entity, IdState::Reserved) {
            return false;
        }
        self.retire_or_recycle(entity.id);
        true
    }

    /// Whether `entity` is reserved and not yet alive.
    pub fn is_reserved(&self, entity: Entity) -> bool {
        self.has_state(entity, IdState::Reserved)
            || self
                .lent
                .as_ref()
                .is_some_and(|lent| lent.holds_reservation(entity))
    }

    fn has_state(&self, entity: Entity, state: IdState) -> bool {
        self.slots
            .get(entity.id as usize)
            .is_some_and(|slot| slot.state() == state && slot.generation == entity.generation)
    }

    /// Frees `id`'s slot: bumps its generation and recycles it, or retires it when the
    /// generation is exhausted.
    fn retire_or_recycle(&mut self, id: u32) {
        let slot = &mut self.slots[id as usize];
        slot.set_state(IdState::Free);
        if slot.generation < u32::MAX {
            slot.generation += 1;
            let entity = Entity::new(id, slot.generation);
            match &self.lent {
                None => self.free.push(entity),
                // The reserver is gone (a split world's parts dropped, its despawns come
                // next): the loan ends here, rather than each free taking its lock.
                Some(lent) if lent.is_returned() => {
                    self.settle_lent();
                    self.free.push(entity);
                }
                Some(lent) => lent.push_free(entity),
            }
        }
    }

    /// Frees a live handle. Returns `false`, changing nothing, for a handle that is stale,
    /// already freed, reserved or never issued.
    pub fn free(&mut self, entity: Entity) -> bool {
        if !self.is_alive(entity) {
            return false;
        }
        self.live -= 1;
        self.retire_or_recycle(entity.id);
        true
    }

    /// Records `entities`, issued by another allocator (a multi-world game's), as alive here
    /// at their generations: a sub-world's record of where the game's entities live. Such an
    /// allocator never issues an id itself; its recycling stack stays empty.
    pub(crate) fn place_all(&mut self, entities: &[Entity]) {
        for &entity in entities {
            let slot = lending::slot_or_grow(&mut self.slots, entity.id);
            debug_assert_ne!(slot.state(), IdState::Alive, "{entity} placed twice");
            slot.generation = entity.generation;
            slot.set_state(IdState::Alive);
        }
        self.live += entities.len();
    }

    /// Forgets a live handle placed by [`place_all`](Self::place_all): not alive here any
    /// more, its id neither recycled nor retired here (the allocator that issued it does
    /// that). `false`, changing nothing, for a handle that is not alive.
    pub(crate) fn vacate(&mut self, entity: Entity) -> bool {
        if !self.is_alive(entity) {
            return false;
        }
        self.live -= 1;
        self.slots[entity.id as usize].set_state(IdState::Free);
        true
    }

    /// Whether exactly the same handles are alive here and in `other` (ids and
    /// generations), whatever either holds reserved or free: a multi-world's sub-worlds
    /// against the game that issues their entities.
    pub fn same_live(&self, other: &Self) -> bool {
        self.live == other.live && self.iter_alive().all(|entity| other.is_alive(entity))
    }

    /// Whether `entity` is the live holder of its id.
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.has_state(entity, IdState::Alive)
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
    /// moved into a hole, whose holder is alive by construction. A write only, unlike
    /// [`set_location`](Self::set_location): the moved row's holder is a random entity whose
    /// record is seldom in cache, and a read of it would hold up every despawn behind the miss
    /// (a write waits in the store buffer instead). The caller guarantees `id` is alive: a
    /// free id's record written here would become alive.
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
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no entity is alive.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of ids ever issued (live, reserved, free or retired).
    pub fn id_count(&self) -> usize {
        match &self.lent {
            None => self.slots.len(),
            Some(lent) => lent.id_count().max(self.slots.len()),
        }
    }

    /// Number of ids waiting to be recycled.
    pub fn free_count(&self) -> usize {
        match &self.lent {
            None => self.free.len(),
            Some(lent) => lent.free_count(),
        }
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

    /// Whether `other` has issued exactly the same handles: every id at the same generation
    /// and state, the same free list. Locations are not compared: two worlds with the same
    /// handles may keep them in rows of their own.
    pub fn same_ids(&self, other: &Self) -> bool {
        if self.lent.is_some() || other.lent.is_some() {
            return self.clone().same_ids(&other.clone());
        }
        self.live == other.live
            && self.free == other.free
            && self.slots.len() == other.slots.len()
            && self.slots.iter().zip(&other.slots).all(|(mine, theirs)| {
                mine.generation == theirs.generation && mine.state() == theirs.state()
            })
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
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn fresh_ids_count_up_from_zero_at_generation_zero() {
        let mut allocator = EntityAllocator::new();
        assert_eq!(allocator.allocate(), Entity::new(0, 0));
        assert_eq!(allocator.allocate(), Entity::new(1, 0));
        assert_eq!(allocator.len(), 2);
        assert_eq!(allocator.id_count(), 2);
    }

    #[test]
    fn allocate_many_issues_what_repeated_allocate_would() {
        let mut one_by_one = EntityAllocator::new();
        let handles: Vec<Entity> = (0..6).map(|_| one_by_one.allocate()).collect();
        for &entity in &handles[1..4] {
            assert!(one_by_one.free(entity));
        }
        let mut batched = one_by_one.clone();
        let expected: Vec<Entity> = (0..5).map(|_| one_by_one.allocate()).collect();
        assert_eq!(batched.allocate_many(5), expected);
        assert_eq!(batched.len(), one_by_one.len());
        assert_eq!(batched.id_count(), one_by_one.id_count());
        assert!(expected.iter().all(|&entity| batched.is_alive(entity)));
        assert!(batched.allocate_many(0).is_empty());
        assert_eq!(batched.allocate(), one_by_one.allocate());
    }

    #[test]
    fn a_freed_id_comes_back_one_generation_later() {
        let mut allocator = EntityAllocator::new();
        let first = allocator.allocate();
        assert!(allocator.free(first));
        let recycled = allocator.allocate();
        assert_eq!(recycled.id, first.id);
        assert_eq!(recycled.generation, 1);
        assert!(!allocator.is_alive(first));
        assert!(allocator.is_alive(recycled));
    }

    #[test]
    fn double_and_stale_frees_are_refused() {
        let mut allocator = EntityAllocator::new();
        let first = allocator.allocate();
        assert!(allocator.free(first));
        assert!(!allocator.free(first), "double free");
        let recycled = allocator.allocate();
        assert!(
            !allocator.free(first),
            "stale free must not free the recycled id"
        );
        assert!(allocator.is_alive(recycled));
        assert_eq!(allocator.len(), 1);
        assert_eq!(allocator.free_count(), 0);
    }

    #[test]
    fn never_issued_handles_are_not_alive_and_cannot_be_freed() {
        let mut allocator = EntityAllocator::new();
        assert!(!allocator.is_alive(Entity::new(0, 0)));
        assert!(!allocator.free(Entity::new(5, 0)));
        allocator.allocate();
        assert!(!allocator.is_alive(Entity::new(0, 1)), "future generation");
        assert!(!allocator.is_alive(Entity::new(9_999, 0)));
        assert!(!allocator.is_alive(Entity::PLACEHOLDER));
        assert!(!allocator.free(Entity::PLACEHOLDER));
    }

    #[test]
    fn default_entity_is_the_placeholder_and_never_alive() {
        let mut allocator = EntityAllocator::new();
        assert_eq!(Entity::default(), Entity::PLACEHOLDER);
        assert!(!allocator.is_alive(Entity::default()));
        for _ in 0..10 {
            allocator.allocate();
        }
        assert!(!allocator.is_alive(Entity::default()));
    }

    #[test]
    fn recycling_is_last_in_first_out() {
        let mut allocator = EntityAllocator::new();
        let entities: Vec<Entity> = (0..3).map(|_| allocator.allocate()).collect();
        allocator.free(entities[0]);
        allocator.free(entities[2]);
        assert_eq!(allocator.allocate(), Entity::new(2, 1));
        assert_eq!(allocator.allocate(), Entity::new(0, 1));
        assert_eq!(allocator.allocate(), Entity::new(3, 0));
    }

    #[test]
    fn an_id_at_the_last_generation_is_retired_not_recycled() {
        let mut allocator = EntityAllocator::new();
        let entity = allocator.allocate();
        allocator.slots[0].generation = u32::MAX;
        let last = Entity::new(entity.id, u32::MAX);
        assert!(allocator.is_alive(last));
        assert!(allocator.free(last));
        assert_eq!(allocator.free_count(), 0);
        let next = allocator.allocate();
        assert_eq!(next, Entity::new(1, 0), "id 0 is retired");
        assert!(!allocator.is_alive(last));
        assert!(!allocator.is_alive(Entity::new(0, 0)), "no wrap-around");
    }

    #[test]
    fn iter_alive_and_live_entity_follow_the_allocator() {
        let mut allocator = EntityAllocator::new();
        let entities: Vec<Entity> = (0..4).map(|_| allocator.allocate()).collect();
        allocator.free(entities[1]);
        let alive: Vec<Entity> = allocator.iter_alive().collect();
        assert_eq!(alive, vec![entities[0], entities[2], entities[3]]);
        assert_eq!(allocator.live_entity(1), None);
        assert_eq!(allocator.live_entity(2), Some(entities[2]));
        assert_eq!(allocator.live_entity(77), None);
    }

    #[test]
    fn reserved_handles_are_not_alive_until_activated() {
        let mut allocator = EntityAllocator::new();
        let reserved = allocator.reserve();
        assert!(!allocator.is_alive(reserved));
        assert!(allocator.is_reserved(reserved));
        assert_eq!(allocator.len(), 0);
        assert!(
            !allocator.free(reserved),
            "a reserved handle is not freed, it is released"
        );
        let other = allocator.allocate();
        assert_ne!(
            other.id, reserved.id,
            "a reserved id is not handed out again"
        );
        assert!(allocator.activate(reserved));
        assert!(!allocator.activate(reserved), "only once");
        assert!(allocator.is_alive(reserved));
        assert_eq!(allocator.len(), 2);
    }

    #[test]
    fn a_released_reservation_never_becomes_alive() {
        let mut allocator = EntityAllocator::new();
        let reserved = allocator.reserve();
        assert!(allocator.release(reserved));
        assert!(!allocator.release(reserved));
        assert!(!allocator.activate(reserved));
        let recycled = allocator.allocate();
        assert_eq!(recycled, Entity::new(reserved.id, 1));
        assert!(!allocator.is_alive(reserved));
        assert!(!allocator.activate(Entity::new(40, 0)), "never issued");
        assert!(!allocator.release(recycled), "alive, not reserved");
    }

    #[test]
    fn a_placed_handle_lives_at_its_generation_until_vacated() {
        let mut game = EntityAllocator::new();
        let mut book = EntityAllocator::new();
        let first = game.allocate();
        game.free(first);
        let [recycled, fresh] = [game.allocate(), game.allocate()];
        assert_eq!((recycled.id, recycled.generation), (0, 1));
        book.place_all(&[recycled, fresh]);
        assert!(book.is_alive(recycled) && book.is_alive(fresh));
        assert!(!book.is_alive(first), "a stale handle is refused");
        assert!(book.same_live(&game) && game.same_live(&book));
        assert!(book.vacate(recycled));
        assert!(!book.vacate(recycled), "already gone");
        assert!(!book.vacate(Entity::new(7, 0)), "never placed");
        assert!(!book.is_alive(recycled));
        assert_eq!(
            (book.len(), book.free_count()),
            (1, 0),
            "nothing to recycle"
        );
        assert!(!book.same_live(&game));
        game.free(recycled);
        assert!(book.same_live(&game));
        // The game issues the id again, at the next generation; the book takes it as given.
        let again = game.allocate();
        book.place_all(&[again]);
        assert!(book.is_alive(again) && !book.is_alive(recycled));
        assert!(book.same_live(&game));
    }

    #[test]
    fn same_ids_compares_handles_not_locations() {
        let mut first = EntityAllocator::new();
        let mut second = EntityAllocator::new();
        for allocator in [&mut first, &mut second] {
            let entities: Vec<Entity> = (0..3).map(|_| allocator.allocate()).collect();
            allocator.free(entities[1]);
            allocator.reserve();
        }
        first.set_location(0, EntityLocation::new(4, 2));
        assert!(first.same_ids(&second), "locations differ, handles agree");
        let extra = second.allocate();
        assert!(!first.same_ids(&second), "one more live id");
        second.free(extra);
        assert!(
            !first.same_ids(&second),
            "an id issued and freed stays issued"
        );
    }

    #[test]
    fn display_shows_id_and_generation() {
        assert_eq!(Entity::new(7, 2).to_string(), "7v2");
    }

    #[test]
    fn relocate_moves_a_live_entity_like_set_location() {
        let mut allocator = EntityAllocator::new();
        let entity = allocator.allocate();
        allocator.relocate(entity.id, EntityLocation::new(2, 9));
        assert_eq!(allocator.location(entity), Some(EntityLocation::new(2, 9)));
        allocator.relocate(entity.id, EntityLocation::new(0, 1));
        assert_eq!(allocator.location(entity), Some(EntityLocation::new(0, 1)));
        allocator.relocate(55, EntityLocation::new(0, 0));
        assert_eq!(allocator.id_count(), 1, "a never-issued id is ignored");
        assert!(allocator.free(entity));
        assert_eq!(allocator.location(entity), None);
    }

    #[test]
    fn an_id_record_is_twelve_bytes() {
        assert_eq!(core::mem::size_of::<IdSlot>(), 12);
    }

    #[test]
    fn claimed_locations_of_dead_ids_point_past_every_table() {
        let mut allocator = EntityAllocator::new();
        let alive = allocator.allocate();
        let freed = allocator.allocate();
        let reserved = allocator.reserve();
        allocator.set_location(alive.id, EntityLocation::new(3, 4));
        allocator.set_location(freed.id, EntityLocation::new(5, 6));
        assert!(allocator.free(freed));
        assert_eq!(
            allocator.claimed_location(alive),
            Some(EntityLocation::new(3, 4))
        );
        // The free id's record is at the generation its next holder gets.
        let next = Entity::new(freed.id, freed.generation + 1);
        for dead in [next, reserved] {
            let claimed = allocator
                .claimed_location(dead)
                .expect("generation matches");
            assert!(claimed.table_index >= u32::MAX - 1, "{dead}: {claimed:?}");
            assert_eq!(allocator.location(dead), None, "{dead}");
        }
        assert_eq!(allocator.claimed_location(freed), None, "old generation");
        assert_eq!(allocator.claimed_location(Entity::new(9, 0)), None);
        // Setting a dead id's location does not make it alive.
        allocator.set_location(reserved.id, EntityLocation::new(0, 0));
        allocator.set_location(freed.id, EntityLocation::new(0, 0));
        assert_eq!(allocator.location(reserved), None);
        assert_eq!(allocator.location(next), None);
        assert!(allocator.activate(reserved));
        allocator.set_location(reserved.id, EntityLocation::new(1, 1));
        assert_eq!(
            allocator.location(reserved),
            Some(EntityLocation::new(1, 1))
        );
    }

    #[test]
    fn locations_are_given_for_live_handles_only() {
        let mut allocator = EntityAllocator::new();
        let entity = allocator.allocate();
        allocator.set_location(entity.id, EntityLocation::new(1, 2));
        assert_eq!(allocator.location(entity), Some(EntityLocation::new(1, 2)));
        let location = allocator.location(entity).unwrap();
        assert_eq!((location.table(), location.row()), (1, 2));
        assert_eq!(
            allocator.location(Entity::new(entity.id, 1)),
            None,
            "future generation"
        );
        allocator.free(entity);
        assert_eq!(allocator.location(entity), None, "freed");
        let reserved = allocator.reserve();
        assert_eq!(allocator.location(reserved), None, "reserved");
        allocator.set_location(77, EntityLocation::new(0, 0));
        assert_eq!(allocator.location(Entity::new(77, 0)), None, "never issued");
    }
}
