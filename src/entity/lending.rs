//! Reserving handles while the allocator is borrowed elsewhere.
//!
//! A world split into parts (`world.split_mut()`) hands its component part `&mut` to the
//! storage, allocator included, and its command part must still reserve handles for queued
//! spawns, in the middle of an iteration over the components. So the allocator lends an
//! [`EntityReserver`]: for as long as one is out, the recycling stack and the next fresh id
//! move behind a mutex the two share, and handles the reserver issues are recorded there until
//! the allocator next takes a `&mut` call, which writes them into its records ("settles").
//! Once the reserver is dropped, that settling also takes the stack back, and the allocator is
//! on its own again: no lock on the common path, only while a world is split.
//!
//! The reserver pops the same stack, last-in first-out, that the allocator itself pops, so a
//! program issues the same handles in the same order whether it queues spawns through a
//! world or through its parts.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{Entity, EntityIndex, IdRecords, IdState, fresh_id};

/// The lock around what an allocator and its reserver share: a spin lock, with or without
/// `std` (the critical sections are a few pushes and pops, no user code runs in them, and a
/// spin lock takes and gives back with one atomic each, where std's mutex also checks for
/// poisoning on both: a queued spawn from a split world takes it once per handle).
type SharedLock = spin::Mutex<Shared>;
type SharedGuard<'a> = spin::MutexGuard<'a, Shared>;

/// Locks `shared`. No user code runs under this lock, and a panic under it (ids exhausted)
/// leaves `Shared` consistent and the lock released.
fn lock(shared: &SharedLock) -> SharedGuard<'_> {
    shared.lock()
}

/// What the allocator and its reserver share while one is lent.
#[derive(Debug, Default)]
struct Shared {
    /// The recycling stack, moved out of the allocator.
    free: Vec<Entity>,
    /// Number of ids issued: the next fresh id.
    issued: usize,
    /// Handles the reserver issued, in order, not yet written into the allocator's records.
    reserved: Vec<Entity>,
}

impl Shared {
    fn pop_or_fresh(&mut self) -> Entity {
        self.free.pop().unwrap_or_else(|| {
            let id = fresh_id(self.issued);
            self.issued += 1;
            Entity::new(id, 0)
        })
    }
}

/// The allocator's side of a loan.
#[derive(Debug)]
pub(super) struct Lent(Arc<SharedLock>);

impl Lent {
    fn lock(&self) -> SharedGuard<'_> {
        lock(&self.0)
    }

    /// Whether the reserver was dropped.
    pub(super) fn is_returned(&self) -> bool {
        Arc::strong_count(&self.0) == 1
    }

    pub(super) fn holds_reservation(&self, entity: Entity) -> bool {
        self.lock().reserved.contains(&entity)
    }

    pub(super) fn push_free(&self, entity: Entity) {
        self.lock().free.push(entity);
    }

    pub(super) fn id_count(&self) -> usize {
        self.lock().issued
    }

    pub(super) fn free_count(&self) -> usize {
        self.lock().free.len()
    }
}

/// Reserves entity handles for queued spawns while the allocator that lent it is borrowed
/// elsewhere (see [`EntityIndex::lend_reserver`]). Reserved handles are not alive until
/// spawned, and no other spawn takes their ids.
#[derive(Debug)]
pub struct EntityReserver(Arc<SharedLock>);

impl EntityReserver {
    /// Reserves `count` handles: recycled ids first (last freed first), then fresh ones, as the
    /// allocator itself would issue them.
    pub fn reserve(&self, count: usize) -> Vec<Entity> {
        let mut shared = lock(&self.0);
        let entities: Vec<Entity> = (0..count).map(|_| shared.pop_or_fresh()).collect();
        shared.reserved.extend_from_slice(&entities);
        entities
    }

    /// Reserves one handle, as [`reserve`](Self::reserve)`(1)` without the `Vec`.
    pub fn reserve_one(&self) -> Entity {
        let mut shared = lock(&self.0);
        let entity = shared.pop_or_fresh();
        shared.reserved.push(entity);
        entity
    }
}

/// Records `reserved` handles as reserved in every copy of `records`, growing them for fresh
/// ids.
fn record_reserved(records: &mut impl IdRecords, reserved: &[Entity]) {
    if reserved.is_empty() {
        return;
    }
    records.write_each(|part| {
        for &entity in reserved {
            let slot = part.slot_or_grow(entity.id);
            slot.generation = entity.generation;
            slot.set_state(IdState::Reserved);
        }
    });
}

impl EntityIndex {
    /// Lends a reserver: until it is dropped, handles can be reserved through it while this
    /// index is borrowed elsewhere. Every `&mut` call on the index meanwhile records the
    /// reservations made so far, and the first after the reserver is dropped ends the loan.
    /// Lending again while a reserver is out shares the same loan.
    pub fn lend_reserver(&mut self, records: &mut impl IdRecords) -> EntityReserver {
        self.settle(records);
        let issued = records.reference().id_count();
        let lent = self.lent.get_or_insert_with(|| {
            Lent(Arc::new(SharedLock::new(Shared {
                free: core::mem::take(&mut self.free),
                issued,
                reserved: core::mem::take(&mut self.spare_reserved),
            })))
        });
        EntityReserver(Arc::clone(&lent.0))
    }

    /// Records what a lent reserver issued, and ends the loan if it was dropped.
    #[inline]
    pub(super) fn settle(&mut self, records: &mut impl IdRecords) {
        if self.lent.is_some() {
            self.settle_lent(records);
        }
    }

    pub(super) fn settle_lent(&mut self, records: &mut impl IdRecords) {
        let Self {
            free,
            lent,
            spare_reserved,
        } = self;
        let Some(loan) = lent else { return };
        let mut shared = loan.lock();
        record_reserved(records, &shared.reserved);
        shared.reserved.clear();
        if loan.is_returned() {
            *free = core::mem::take(&mut shared.free);
            *spare_reserved = core::mem::take(&mut shared.reserved);
            drop(shared);
            *lent = None;
        }
    }

    /// Issues a handle while a loan is on, after recording what the reserver issued, all under
    /// one lock (so a reserver on another thread cannot slip in between); ends the loan first
    /// if the reserver was dropped.
    pub(super) fn issue_while_lent(&mut self, records: &mut impl IdRecords) -> Entity {
        let Self {
            free,
            lent,
            spare_reserved,
        } = self;
        let Some(loan) = lent else {
            unreachable!("issue_while_lent without a loan")
        };
        let mut shared = loan.lock();
        record_reserved(records, &shared.reserved);
        shared.reserved.clear();
        if !loan.is_returned() {
            return shared.pop_or_fresh();
        }
        *free = core::mem::take(&mut shared.free);
        *spare_reserved = core::mem::take(&mut shared.reserved);
        drop(shared);
        *lent = None;
        free.pop()
            .unwrap_or_else(|| Entity::new(fresh_id(records.reference().id_count()), 0))
    }

    /// A copy of this index on its own (never sharing a loan), for `records` copied from the
    /// records it issues into: what a lent reserver issued is recorded in them, and the shared
    /// stack copied back in.
    pub(crate) fn copy_with(&self, records: &mut impl IdRecords) -> Self {
        let mut copy = EntityIndex::default();
        copy.clone_from_with(self, records);
        copy
    }

    /// Overwrites this index with a copy of `source` (see [`copy_with`](Self::copy_with)),
    /// reusing its allocations; any loan of this index's own ends.
    pub(crate) fn clone_from_with(&mut self, source: &Self, records: &mut impl IdRecords) {
        self.free.clone_from(&source.free);
        self.lent = None;
        if let Some(loan) = &source.lent {
            let shared = loan.lock();
            self.free.clone_from(&shared.free);
            record_reserved(records, &shared.reserved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityAllocator;

    #[test]
    fn a_reserver_issues_what_the_allocator_would() {
        let mut lent = EntityAllocator::new();
        let mut alone = EntityAllocator::new();
        for allocator in [&mut lent, &mut alone] {
            let entities: Vec<Entity> = (0..4).map(|_| allocator.allocate()).collect();
            allocator.free(entities[1]);
            allocator.free(entities[3]);
        }
        let reserver = lent.lend_reserver();
        let through_reserver = reserver.reserve(3);
        let direct: Vec<Entity> = (0..3).map(|_| alone.reserve()).collect();
        assert_eq!(through_reserver, direct);
        assert_eq!(through_reserver[0], Entity::new(3, 1), "last freed first");
        assert_eq!(through_reserver[2], Entity::new(4, 0), "then fresh ids");
        assert!(
            lent.is_reserved(through_reserver[2]),
            "known before settling"
        );
        assert!(!lent.is_alive(through_reserver[0]));
        assert_eq!(lent.id_count(), 5);
        drop(reserver);
        assert!(lent.activate(through_reserver[0]));
        assert!(lent.release(through_reserver[1]));
        assert!(
            lent.index.lent.is_none(),
            "the loan ended at the first &mut call"
        );
        alone.activate(direct[0]);
        alone.release(direct[1]);
        assert!(lent.same_ids(&alone));
        assert_eq!(lent.allocate(), alone.allocate());
    }

    #[test]
    fn the_allocator_keeps_working_while_a_reserver_is_out() {
        let mut allocator = EntityAllocator::new();
        let first = allocator.allocate();
        let reserver = allocator.lend_reserver();
        let reserved = reserver.reserve(1)[0];
        let spawned = allocator.allocate();
        assert_ne!(spawned.id, reserved.id, "a spawn never takes a reserved id");
        assert!(allocator.free(first));
        assert_eq!(
            reserver.reserve(1)[0],
            Entity::new(first.id, 1),
            "freed ids come back"
        );
        assert_eq!(allocator.free_count(), 0);
        let copy = allocator.clone();
        assert!(copy.index.lent.is_none());
        assert!(copy.is_reserved(reserved));
        assert!(copy.same_ids(&allocator));
        drop(reserver);
        assert!(allocator.activate(reserved));
        assert!(allocator.is_alive(reserved));
        assert_eq!(allocator.len(), 2);
    }

    #[test]
    fn a_free_after_the_reserver_is_dropped_ends_the_loan_and_recycles_as_alone() {
        let mut lent = EntityAllocator::new();
        let mut alone = EntityAllocator::new();
        let mut live = Vec::new();
        for allocator in [&mut lent, &mut alone] {
            live.push((0..3).map(|_| allocator.allocate()).collect::<Vec<_>>());
        }
        let reserver = lent.lend_reserver();
        let reserved = reserver.reserve_one();
        assert_eq!(reserved, alone.reserve());
        drop(reserver);
        // The first free ends the loan (no lock per free from then on); what was reserved is
        // recorded, and the freed ids recycle in the allocator's one order.
        assert!(lent.free(live[0][1]));
        assert!(lent.index.lent.is_none(), "the loan ended at the free");
        assert!(lent.is_reserved(reserved));
        assert!(lent.free(live[0][0]));
        assert!(alone.free(live[1][1]) && alone.free(live[1][0]));
        assert_eq!(lent.free_count(), alone.free_count());
        for _ in 0..3 {
            assert_eq!(lent.allocate(), alone.allocate());
        }
        assert!(
            lent.index.spare_reserved.capacity() >= 1,
            "the loan's list is kept for the next"
        );
    }

    #[test]
    fn a_batch_after_the_reserver_is_dropped_ends_the_loan_and_issues_as_alone() {
        let mut lent = EntityAllocator::new();
        let mut alone = EntityAllocator::new();
        for allocator in [&mut lent, &mut alone] {
            let first = allocator.allocate();
            assert!(allocator.free(first));
        }
        let reserver = lent.lend_reserver();
        assert_eq!(reserver.reserve_one(), alone.reserve());
        drop(reserver);
        // The batch ends the loan first and is issued in one go (not one handle at a time,
        // which only its speed would show): the same handles as the allocator that never lent.
        assert_eq!(lent.allocate_many(3), alone.allocate_many(3));
        assert!(lent.index.lent.is_none(), "the loan ended at the batch");
        assert_eq!(lent.allocate_many(2), alone.allocate_many(2));
    }

    #[test]
    fn lending_twice_shares_one_loan() {
        let mut allocator = EntityAllocator::new();
        let first = allocator.lend_reserver();
        let second = allocator.lend_reserver();
        let a = first.reserve(1)[0];
        let b = second.reserve(1)[0];
        assert_ne!(a, b);
        drop(first);
        allocator.allocate();
        assert!(
            allocator.index.lent.is_some(),
            "the second reserver is still out"
        );
        drop(second);
        allocator.allocate();
        assert!(allocator.index.lent.is_none());
        assert_eq!(allocator.id_count(), 4);
    }
}
