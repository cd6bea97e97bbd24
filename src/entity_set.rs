//! A set of entities the snapshot loader fills with each tag's members, refusing an entity
//! listed twice, before the rows are grouped by their tags (the storage itself keeps tags in
//! its tables' rows, see `storage/tag_partition.rs`).

use crate::entity::Entity;
use alloc::vec::Vec;

/// A set of live entities, by id: O(1) insert and lookup, checked by generation (a stale
/// handle is never a member). Its size follows the largest id inserted, which the loader
/// takes only from live entities of the snapshot's own allocator.
#[derive(Clone, Debug, Default)]
pub(crate) struct EntitySet {
    /// Per id, the generation of the member with that id.
    members: Vec<Option<u32>>,
}

impl EntitySet {
    /// An empty set.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Adds `entity`; `false`, changing nothing, if it is a member already. Another
    /// generation of the same id is replaced.
    pub(crate) fn insert(&mut self, entity: Entity) -> bool {
        let index = entity.id as usize;
        if index >= self.members.len() {
            self.members.resize(index + 1, None);
        }
        let slot = &mut self.members[index];
        if *slot == Some(entity.generation) {
            return false;
        }
        *slot = Some(entity.generation);
        true
    }

    /// Whether `entity` itself (id and generation) is a member.
    pub(crate) fn contains(&self, entity: Entity) -> bool {
        self.members.get(entity.id as usize) == Some(&Some(entity.generation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_then_contains_and_duplicates_are_refused() {
        let mut set = EntitySet::new();
        let (a, b) = (Entity::new(3, 0), Entity::new(0, 2));
        assert!(!set.contains(a));
        assert!(set.insert(a) && set.insert(b));
        assert!(!set.insert(a), "a member twice");
        assert!(set.contains(a) && set.contains(b));
        assert!(
            !set.contains(Entity::new(1, 0)),
            "an id between the members"
        );
        assert!(!set.contains(Entity::new(9, 0)), "an id past the members");
    }

    #[test]
    fn contains_checks_the_generation() {
        let mut set = EntitySet::new();
        set.insert(Entity::new(5, 1));
        assert!(!set.contains(Entity::new(5, 0)));
        assert!(!set.contains(Entity::new(5, 2)));
    }

    #[test]
    fn inserting_a_new_generation_replaces_the_stale_one() {
        let mut set = EntitySet::new();
        assert!(set.insert(Entity::new(2, 0)));
        assert!(set.insert(Entity::new(2, 1)));
        assert!(set.contains(Entity::new(2, 1)));
        assert!(!set.contains(Entity::new(2, 0)));
    }
}
