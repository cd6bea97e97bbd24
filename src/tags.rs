//! Sets of entities, checked by generation: O(1) insert, remove and lookup, and a dense array
//! of members that iterates as fast as a `Vec`.
//!
//! The storage keeps tags in its tables' rows (grouped by tag signature, see
//! `storage/tag_partition.rs`); the snapshot loader reads each tag's members into a `TagSet`,
//! which refuses duplicates, before the rows are regrouped.

use crate::Entity;
use alloc::vec::Vec;

/// The `sparse` value of an id with no member.
const ABSENT: u32 = u32::MAX;

/// A set of entities, checked by generation: a stale handle is never a member.
///
/// `dense` holds the members in no particular order; `sparse[id]` is the index in `dense` of
/// the member with that id. At most one entity per id is a member, since only one can be alive.
#[derive(Clone, Debug, Default)]
pub struct TagSet {
    dense: Vec<Entity>,
    sparse: Vec<u32>,
}

impl TagSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `entity`. Returns `false`, changing nothing, if that exact entity is already a
    /// member, or if it is [`Entity::PLACEHOLDER`], which is never alive.
    ///
    /// A member with the same id but another generation is replaced: only one of the two can be
    /// alive, and it is the one being tagged now, so the other is a stale leftover.
    ///
    /// The sparse index grows to reach `entity.id`, so only pass ids the allocator issued.
    pub fn insert(&mut self, entity: Entity) -> bool {
        if entity == Entity::PLACEHOLDER {
            // Its id, u32::MAX, would need a sparse index of 2^32 entries.
            return false;
        }
        if let Some(index) = self.dense_index(entity.id) {
            let member = &mut self.dense[index];
            if *member == entity {
                return false;
            }
            *member = entity;
            return true;
        }
        let id = entity.id as usize;
        if id >= self.sparse.len() {
            self.sparse.resize(id + 1, ABSENT);
        }
        self.sparse[id] = self.dense.len() as u32;
        self.dense.push(entity);
        true
    }

    /// Removes `entity`. Returns `false`, changing nothing, if it is not a member; a handle of
    /// another generation than the member's does not remove it.
    pub fn remove(&mut self, entity: Entity) -> bool {
        if !self.contains(entity) {
            return false;
        }
        self.remove_id(entity.id);
        true
    }

    /// Whether `entity`, at its exact generation, is a member.
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.dense_index(entity.id)
            .is_some_and(|index| self.dense[index] == entity)
    }

    /// Removes and returns the member with id `id`, whatever its generation: the clean-up when
    /// that id's entity is despawned.
    pub fn remove_id(&mut self, id: u32) -> Option<Entity> {
        let index = self.dense_index(id)?;
        let removed = self.dense.swap_remove(index);
        self.sparse[id as usize] = ABSENT;
        // The former last member now fills the hole; point its id at the new place.
        if let Some(moved) = self.dense.get(index) {
            self.sparse[moved.id as usize] = index as u32;
        }
        Some(removed)
    }

    /// The member with id `id`, whatever its generation.
    pub fn get_by_id(&self, id: u32) -> Option<Entity> {
        self.dense_index(id).map(|index| self.dense[index])
    }

    /// Every member, in no particular order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Entity> + DoubleEndedIterator + '_ {
        self.dense.iter().copied()
    }

    /// Every member, in the same order as [`iter`](Self::iter).
    pub fn as_slice(&self) -> &[Entity] {
        &self.dense
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.dense.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.dense.is_empty()
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        // Reset only the members' entries: the sparse index keeps its size, ready for reuse.
        for member in &self.dense {
            self.sparse[member.id as usize] = ABSENT;
        }
        self.dense.clear();
    }

    fn dense_index(&self, id: u32) -> Option<usize> {
        match self.sparse.get(id as usize) {
            Some(&index) if index != ABSENT => Some(index as usize),
            _ => None,
        }
    }
}

impl<'a> IntoIterator for &'a TagSet {
    type Item = Entity;
    type IntoIter = core::iter::Copied<core::slice::Iter<'a, Entity>>;

    /// Every member, in the same order as [`TagSet::iter`].
    fn into_iter(self) -> Self::IntoIter {
        self.dense.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member, sorted, so tests do not depend on the dense order.
    fn sorted(set: &TagSet) -> Vec<Entity> {
        let mut members: Vec<Entity> = set.iter().collect();
        members.sort();
        members
    }

    /// Checks that `dense` and `sparse` agree both ways.
    fn assert_consistent(set: &TagSet) {
        for (index, member) in set.dense.iter().enumerate() {
            assert_eq!(set.sparse[member.id as usize], index as u32, "{member}");
        }
        let indexed = set.sparse.iter().filter(|&&index| index != ABSENT).count();
        assert_eq!(indexed, set.dense.len(), "no dangling sparse entry");
    }

    #[test]
    fn a_new_set_is_empty() {
        let set = TagSet::new();
        assert!(set.is_empty());
        assert_eq!(set.len(), 0);
        assert_eq!(set.iter().count(), 0);
        assert!(!set.contains(Entity::new(0, 0)));
    }

    #[test]
    fn insert_then_contains_and_duplicates_are_refused() {
        let mut set = TagSet::new();
        let entity = Entity::new(3, 1);
        assert!(set.insert(entity));
        assert!(set.contains(entity));
        assert!(!set.insert(entity), "already a member");
        assert_eq!(set.len(), 1);
        assert_consistent(&set);
    }

    #[test]
    fn contains_checks_the_generation() {
        let mut set = TagSet::new();
        set.insert(Entity::new(3, 1));
        assert!(!set.contains(Entity::new(3, 0)), "older generation");
        assert!(!set.contains(Entity::new(3, 2)), "newer generation");
        assert!(
            !set.contains(Entity::new(2, 1)),
            "other id, same generation"
        );
        assert!(
            !set.contains(Entity::new(4_000_000, 1)),
            "beyond the sparse index"
        );
    }

    #[test]
    fn inserting_a_new_generation_replaces_the_stale_one() {
        let mut set = TagSet::new();
        let stale = Entity::new(5, 0);
        let current = Entity::new(5, 1);
        set.insert(Entity::new(1, 0));
        set.insert(stale);
        assert!(set.insert(current));
        assert!(set.contains(current));
        assert!(!set.contains(stale));
        assert_eq!(set.len(), 2);
        assert_consistent(&set);
    }

    #[test]
    fn remove_checks_the_generation() {
        let mut set = TagSet::new();
        let entity = Entity::new(7, 2);
        set.insert(entity);
        assert!(!set.remove(Entity::new(7, 1)), "stale handle");
        assert!(!set.remove(Entity::new(7, 3)));
        assert!(set.contains(entity));
        assert!(set.remove(entity));
        assert!(!set.contains(entity));
        assert!(!set.remove(entity), "already removed");
        assert!(set.is_empty());
        assert_consistent(&set);
    }

    #[test]
    fn removing_a_non_member_changes_nothing() {
        let mut set = TagSet::new();
        assert!(!set.remove(Entity::new(0, 0)), "empty set");
        set.insert(Entity::new(1, 0));
        assert!(!set.remove(Entity::new(100, 0)), "beyond the sparse index");
        assert!(!set.remove(Entity::new(0, 0)), "inside the index, absent");
        assert_eq!(set.as_slice(), &[Entity::new(1, 0)]);
    }

    #[test]
    fn swap_remove_keeps_the_other_members_findable() {
        let mut set = TagSet::new();
        let entities: Vec<Entity> = (0..6).map(|id| Entity::new(id * 2, id)).collect();
        for &entity in &entities {
            set.insert(entity);
        }
        // The first, a middle one and the last: a hole at the front, in the middle, and one
        // with nothing to swap in.
        assert!(set.remove(entities[0]));
        assert!(set.remove(entities[3]));
        assert!(set.remove(*set.as_slice().last().unwrap()));
        assert_consistent(&set);
        for &entity in &entities {
            let expected = set.as_slice().contains(&entity);
            assert_eq!(set.contains(entity), expected, "{entity}");
        }
        assert_eq!(set.len(), 3);
        for entity in set.as_slice().to_vec() {
            assert!(set.remove(entity), "{entity}");
            assert_consistent(&set);
        }
        assert!(set.is_empty());
    }

    #[test]
    fn removing_the_only_member_leaves_a_reusable_set() {
        let mut set = TagSet::new();
        let entity = Entity::new(0, 0);
        set.insert(entity);
        assert!(set.remove(entity));
        assert_consistent(&set);
        assert!(set.insert(entity));
        assert_eq!(set.as_slice(), &[entity]);
    }

    #[test]
    fn ids_far_apart_grow_the_sparse_index() {
        let mut set = TagSet::new();
        let far = Entity::new(100_000, 0);
        let near = Entity::new(2, 0);
        assert!(set.insert(far));
        assert!(set.insert(near));
        assert!(set.contains(far) && set.contains(near));
        assert!(!set.contains(Entity::new(50_000, 0)));
        assert_eq!(set.sparse.len(), 100_001, "grown to the largest id only");
        assert!(set.remove(far));
        assert!(set.contains(near));
        assert_consistent(&set);
    }

    #[test]
    fn the_placeholder_is_never_a_member() {
        let mut set = TagSet::new();
        assert!(!set.insert(Entity::PLACEHOLDER));
        assert!(!set.contains(Entity::PLACEHOLDER));
        assert!(set.is_empty());
        assert!(set.sparse.is_empty(), "no 2^32-entry index");
        assert!(!set.remove(Entity::PLACEHOLDER));
        assert_eq!(set.remove_id(u32::MAX), None);
    }

    #[test]
    fn remove_id_takes_whatever_generation_holds_the_id() {
        let mut set = TagSet::new();
        let other = Entity::new(1, 0);
        let entity = Entity::new(4, 9);
        set.insert(entity);
        set.insert(other);
        assert_eq!(set.get_by_id(4), Some(entity));
        assert_eq!(set.remove_id(4), Some(entity));
        assert_eq!(set.get_by_id(4), None);
        assert_eq!(set.remove_id(4), None, "already gone");
        assert_eq!(set.remove_id(3), None, "never a member");
        assert_eq!(set.remove_id(9_999), None, "beyond the sparse index");
        assert!(set.contains(other));
        assert_consistent(&set);
    }

    #[test]
    fn iter_as_slice_and_into_iterator_agree() {
        let mut set = TagSet::new();
        for id in [9, 2, 5] {
            set.insert(Entity::new(id, 0));
        }
        let from_iter: Vec<Entity> = set.iter().collect();
        let from_ref: Vec<Entity> = (&set).into_iter().collect();
        assert_eq!(from_iter, set.as_slice());
        assert_eq!(from_ref, set.as_slice());
        assert_eq!(set.iter().len(), 3);
        assert_eq!(
            sorted(&set),
            vec![Entity::new(2, 0), Entity::new(5, 0), Entity::new(9, 0)]
        );
    }

    #[test]
    fn clear_removes_every_member_and_the_set_is_reusable() {
        let mut set = TagSet::new();
        let entities: Vec<Entity> = (0..5).map(|id| Entity::new(id * 3, 0)).collect();
        for &entity in &entities {
            set.insert(entity);
        }
        set.clear();
        assert!(set.is_empty());
        assert_consistent(&set);
        for &entity in &entities {
            assert!(!set.contains(entity));
            assert_eq!(set.get_by_id(entity.id), None);
        }
        assert!(set.insert(entities[4]));
        assert_eq!(set.as_slice(), &[entities[4]]);
        assert_consistent(&set);
    }

    #[test]
    fn a_clone_is_independent() {
        let mut set = TagSet::new();
        set.insert(Entity::new(1, 0));
        let copy = set.clone();
        set.remove(Entity::new(1, 0));
        assert!(copy.contains(Entity::new(1, 0)));
        assert!(!set.contains(Entity::new(1, 0)));
    }

    #[test]
    fn random_operations_match_a_model() {
        // A deterministic mix of inserts, removes and despawns, checked against a plain list.
        let mut set = TagSet::new();
        let mut model: Vec<Entity> = Vec::new();
        let mut state = 0x2545_f491_u32;
        for _ in 0..2_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let entity = Entity::new(state % 32, (state >> 8) % 3);
            match (state >> 16) % 3 {
                0 => {
                    let inserted = set.insert(entity);
                    assert_eq!(inserted, !model.contains(&entity));
                    model.retain(|member| member.id != entity.id);
                    model.push(entity);
                }
                1 => {
                    let removed = set.remove(entity);
                    assert_eq!(removed, model.contains(&entity));
                    model.retain(|member| *member != entity);
                }
                _ => {
                    let expected = model.iter().copied().find(|member| member.id == entity.id);
                    assert_eq!(set.remove_id(entity.id), expected);
                    model.retain(|member| member.id != entity.id);
                }
            }
            assert_consistent(&set);
            assert_eq!(set.len(), model.len());
        }
        model.sort();
        assert_eq!(sorted(&set), model);
    }
}
