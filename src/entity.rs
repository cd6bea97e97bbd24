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
    fn allocate_many_at_issues_the_same_handles_alive_at_consecutive_rows() {
        let mut plain = EntityAllocator::new();
        let handles: Vec<Entity> = (0..6).map(|_| plain.allocate()).collect();
        for &entity in &handles[1..4] {
            assert!(plain.free(entity));
        }
        let mut located = plain.clone();
        let expected = plain.allocate_many(5);
        let first = EntityLocation::new(7, 40);
        let issued = located
            .index
            .allocate_many_at(5, &mut located.records, first);
        // Three recycled ids, then two fresh ones, as `allocate_many` issues them.
        assert_eq!(issued, expected);
        assert_eq!(located.len(), plain.len());
        assert_eq!(located.id_count(), plain.id_count());
        for (k, &entity) in issued.iter().enumerate() {
            assert!(located.is_alive(entity));
            assert_eq!(
                located.records.location(entity),
                Some(EntityLocation::new(7, 40 + k))
            );
        }
        // A stale handle of a recycled id finds nothing.
        assert_eq!(located.records.location(handles[1]), None);
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
        allocator.records.slots[0].generation = u32::MAX;
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

    /// Two parts' records, written together as a game's index writes them.
    #[derive(Default)]
    struct TwoParts(EntityRecords, EntityRecords);

    impl IdRecords for TwoParts {
        fn reference(&self) -> &EntityRecords {
            &self.0
        }

        fn write_each(&mut self, mut write: impl FnMut(&mut EntityRecords)) {
            write(&mut self.0);
            write(&mut self.1);
        }
    }

    #[test]
    fn an_index_writes_every_part_s_records_and_each_part_its_own_locations() {
        let mut index = EntityIndex::default();
        let mut parts = TwoParts::default();
        let first = index.allocate(&mut parts);
        assert!(index.free(first, &mut parts));
        let [recycled, fresh] = [index.allocate(&mut parts), index.allocate(&mut parts)];
        assert_eq!((recycled.id, recycled.generation), (0, 1));
        let reserved = index.reserve(&mut parts);
        for part in [&parts.0, &parts.1] {
            assert!(part.is_alive(recycled) && part.is_alive(fresh));
            assert!(
                !part.is_alive(first),
                "a stale handle is refused in every part"
            );
            assert!(index.is_reserved(reserved, part));
            assert_eq!(part.len(), 2);
        }
        parts.0.set_location(fresh.id, EntityLocation::new(1, 0));
        parts.1.set_location(fresh.id, EntityLocation::new(3, 7));
        assert!(
            parts.0.same_ids(&parts.1),
            "locations aside, the parts agree"
        );
        assert_eq!(parts.1.location(fresh), Some(EntityLocation::new(3, 7)));
        assert!(index.activate(reserved, &mut parts));
        assert!(index.free(recycled, &mut parts));
        assert!(!index.free(recycled, &mut parts), "already freed");
        assert!(parts.0.same_ids(&parts.1));
        assert!(!parts.1.is_alive(recycled) && parts.1.is_alive(reserved));
        assert_eq!(index.allocate(&mut parts), Entity::new(0, 2));
        assert_eq!(index.id_count(&parts.0), 3);
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
