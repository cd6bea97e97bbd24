//! Relations in the storage: one [`RelationStore`] per declared relation, in bit order. A
//! linked source carries its relation's bit in its tag segment, exactly like a tag (linking
//! never migrates), so the bit shows in `component_mask` and works in every include / exclude
//! mask. Only linking and unlinking set or clear it.
//!
//! Despawning applies each relation's policy to the entity's sources: `[cascade]` despawns them
//! (recursively, by their own relations' policies), the default unlinks them. Every entity of a
//! cascade is taken out of the world before any of their values is dropped, so a component
//! `Drop` that panics finds the world consistent.

use super::Storage;
use super::target_spans::{KEPT_RUN_LEN, TargetSpan};
use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::entity::{Entity, EntityIndex};
use crate::mask::Bitmask;
use crate::relation::{Ancestors, Descendants, RelationError, RelationStore};
use alloc::{string::String, sync::Arc, vec::Vec};

impl<T: Archetype> Storage<T> {
    /// The index of the relation whose bit is `relation`, if it is exactly one relation's bit.
    #[inline]
    pub(super) fn relation_index(relation: T::Mask) -> Option<usize> {
        if !relation.is_single_bit() || !T::RELATIONS.contains(relation) {
            return None;
        }
        Some((relation.trailing_zeros() - T::RELATIONS.trailing_zeros()) as usize)
    }

    /// The store of the relation `relation`, if it is one relation's bit.
    #[doc(hidden)]
    #[inline]
    pub fn relation(&self, relation: T::Mask) -> Option<&RelationStore> {
        Self::store_of(&self.relations, relation)
    }

    /// The store among `relations` (a storage's, indexed by relation) of the relation
    /// `relation`, if it is one relation's bit: [`relation`](Self::relation)'s lookup, also
    /// used where the stores are lent apart from the storage.
    #[inline]
    pub(super) fn store_of(
        relations: &[RelationStore],
        relation: T::Mask,
    ) -> Option<&RelationStore> {
        relations.get(Self::relation_index(relation)?)
    }

    /// The spans of `entities` (a run of a table's rows) that share their target in the
    /// relation `relation`, kept from an earlier pass if no row and no link moved since (see
    /// [`target_spans`](super::target_spans)). `None` for a run too short to be worth keeping,
    /// a mask that is not one relation's bit, or while another query is fetching its own.
    pub(crate) fn kept_target_spans(
        &self,
        relation: T::Mask,
        entities: &[Entity],
    ) -> Option<Arc<[TargetSpan]>> {
        if entities.len() < KEPT_RUN_LEN {
            return None;
        }
        let index = Self::relation_index(relation)?;
        let versions = (self.records.version(), self.relations.version());
        self.target_spans.spans(
            versions,
            index,
            entities,
            (&self.relations[index], &self.records),
        )
    }

    /// Puts a loaded relation's links in place (the sources' bits are the snapshot loader's to
    /// set, with the tags); [`check_invariants`](Self::check_invariants) then checks both.
    #[cfg(feature = "serde")]
    pub(crate) fn set_relation_store(&mut self, relation: T::Mask, store: RelationStore) {
        if let Some(index) = Self::relation_index(relation) {
            self.relations[index] = store;
        }
    }

    /// Links `source` to `target` in the relation `relation`, replacing (and returning) the
    /// previous target; the source gets the relation's bit. An error changes nothing. Linking
    /// a source to the target it already has changes nothing and logs nothing.
    #[doc(hidden)]
    pub fn link(
        &mut self,
        relation: T::Mask,
        source: Entity,
        target: Entity,
    ) -> Result<Option<Entity>, RelationError> {
        let index = Self::relation_index(relation).ok_or(RelationError::UnknownRelation)?;
        let location = self.locate(source).ok_or(RelationError::DeadSource)?;
        if !self.is_alive(target) {
            return Err(RelationError::DeadTarget);
        }
        let previous = self.relations[index].link(source, target)?;
        if previous == Some(target) {
            return Ok(previous);
        }
        if let Some(previous) = previous {
            self.record(StructuralChange::Unlinked {
                relation,
                source,
                target: previous,
            });
        } else {
            let tags = self.tags_at(location);
            self.retag(location, tags | relation);
        }
        self.record(StructuralChange::Linked {
            relation,
            source,
            target,
        });
        Ok(previous)
    }

    /// Unlinks `source` in the relation `relation` and returns its target; `None` if it is not
    /// alive or not linked. The target's other sources keep their order.
    #[doc(hidden)]
    pub fn unlink(&mut self, relation: T::Mask, source: Entity) -> Option<Entity> {
        let index = Self::relation_index(relation)?;
        let location = self.locate(source)?;
        let target = self.relations[index].unlink(source)?;
        let tags = self.tags_at(location);
        self.retag(location, tags & !relation);
        self.record(StructuralChange::Unlinked {
            relation,
            source,
            target,
        });
        Some(target)
    }

    /// The target of a live `source` in the relation `relation`.
    #[doc(hidden)]
    #[inline]
    pub fn related_target(&self, relation: T::Mask, source: Entity) -> Option<Entity> {
        if !self.is_alive(source) {
            return None;
        }
        self.relation(relation)?.target(source)
    }

    /// The sources of a live `target` in the relation `relation`, in link order (empty for a
    /// dead handle).
    #[doc(hidden)]
    #[inline]
    pub fn related_sources(&self, relation: T::Mask, target: Entity) -> &[Entity] {
        match self.relation(relation) {
            Some(store) if self.is_alive(target) => store.sources(target),
            _ => &[],
        }
    }

    /// The ancestors of a live `entity` in the relation `relation`, nearest first (none for a
    /// dead handle).
    #[doc(hidden)]
    pub fn ancestors(&self, relation: T::Mask, entity: Entity) -> Ancestors<'_> {
        match self.relation(relation) {
            Some(store) if self.is_alive(entity) => store.ancestors(entity),
            Some(store) => Ancestors::empty(store),
            None => Ancestors::empty(&EMPTY_STORE),
        }
    }

    /// The descendants of a live `entity` in the relation `relation`, depth first in
    /// pre-order, each level in link order (none for a dead handle).
    #[doc(hidden)]
    pub fn descendants(&self, relation: T::Mask, entity: Entity) -> Descendants<'_> {
        match self.relation(relation) {
            Some(store) if self.is_alive(entity) => store.descendants(entity),
            Some(store) => Descendants::empty(store),
            None => Descendants::empty(&EMPTY_STORE),
        }
    }

    /// Pushes the sources of `entity` in every `[cascade]` relation onto `stack`, relation by
    /// relation, each in link order: the entities despawning it despawns too (a multi-world
    /// gathers them from every sub-world).
    #[doc(hidden)]
    pub fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>) {
        for (bit, store) in T::RELATIONS.bits().zip(self.relations.iter()) {
            if T::CASCADE.contains(T::Mask::bit(bit)) {
                stack.extend_from_slice(store.sources(entity));
            }
        }
    }

    /// [`detach`](Self::detach) within a cascade: the sources of `entity` in `[cascade]`
    /// relations are unlinked (and logged) but keep their bit, since the caller despawns each
    /// of them next, before anything else sees the world; the other sources are unlinked as by
    /// `detach`.
    #[must_use = "the entity's values are dropped with what this returns"]
    pub(crate) fn detach_cascading(
        &mut self,
        entity: Entity,
        index: Option<&mut EntityIndex>,
    ) -> Option<T::Removed> {
        if !self.is_alive(entity) {
            return None;
        }
        self.unlink_all(entity, true);
        self.detach_row(entity, index)
    }

    /// Whether despawning `entity` cascades to other entities.
    #[doc(hidden)]
    #[inline]
    pub fn has_cascading_sources(&self, entity: Entity) -> bool {
        for (bit, store) in T::RELATIONS.bits().zip(self.relations.iter()) {
            if T::CASCADE.contains(T::Mask::bit(bit)) && !store.sources(entity).is_empty() {
                return true;
            }
        }
        false
    }

    /// Takes every link of `entity` out, before it is despawned: its own links (logged), and
    /// its sources', which are unlinked (logged, their bit cleared, unless `cascading` and the
    /// relation cascades: those sources are despawned next, by the caller).
    ///
    /// Its own links go first, relation by relation in declaration order, then its sources',
    /// relation by relation, each relation's sources in link order: the order the guide
    /// promises the `on_unlink` hooks.
    pub(super) fn unlink_all(&mut self, entity: Entity, cascading: bool) {
        for index in 0..self.relations.len() {
            let relation = T::Mask::bit(T::RELATIONS.trailing_zeros() + index as u32);
            if let Some(target) = self.relations[index].unlink(entity) {
                self.record(StructuralChange::Unlinked {
                    relation,
                    source: entity,
                    target,
                });
            }
        }
        for index in 0..self.relations.len() {
            let relation = T::Mask::bit(T::RELATIONS.trailing_zeros() + index as u32);
            if self.relations[index].sources(entity).is_empty() {
                continue;
            }
            let keep_bits = cascading && T::CASCADE.contains(relation);
            for source in self.relations[index].take_sources(entity) {
                if keep_bits {
                    self.record(StructuralChange::Unlinked {
                        relation,
                        source,
                        target: entity,
                    });
                    continue;
                }
                if let Some(location) = self.locate(source) {
                    let tags = self.tags_at(location);
                    self.retag(location, tags & !relation);
                }
                self.record(StructuralChange::Unlinked {
                    relation,
                    source,
                    target: entity,
                });
            }
        }
    }

    /// Checks every relation both ways (see [`RelationStore::check`]) and that a live entity
    /// carries a relation's bit exactly when it is linked in it.
    pub(super) fn check_relations(&self) -> Result<(), String> {
        if self.relations.len() != T::RELATIONS.count_ones() as usize {
            return Err(format!(
                "{} relation stores for {} relations",
                self.relations.len(),
                T::RELATIONS.count_ones()
            ));
        }
        for (bit, store) in T::RELATIONS.bits().zip(self.relations.iter()) {
            store
                .check(|entity| self.is_alive(entity))
                .map_err(|message| format!("relation bit {bit}: {message}"))?;
            let relation = T::Mask::bit(bit);
            for entity in self.records.iter_alive() {
                let marked = self
                    .tag_mask(entity)
                    .is_some_and(|tags| tags.contains(relation));
                if marked != store.target(entity).is_some() {
                    return Err(format!(
                        "{entity} carries relation bit {bit}: {marked}, but is linked: {}",
                        !marked
                    ));
                }
            }
        }
        Ok(())
    }
}

/// What a relation-less mask reads: nothing.
pub(super) static EMPTY_STORE: RelationStore = RelationStore::EMPTY;

#[cfg(test)]
mod tests {
    use super::*;

    mod relation_world {
        #![allow(dead_code)]
        use alloc::string::String;
        crate::ecs! {
            RelWorld {
                number: u32 => NUMBER,
                name: String => NAME,
            }
            Tags {
                marked => MARKED,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
                owned_by / belongings => OWNED_BY,
            }
        }
    }
    use relation_world::*;

    use crate::storage::state::copy_whole;

    type RelStorage = crate::storage::tests::TestStorage<RelWorldComponentArrays>;

    #[test]
    fn relation_bits_follow_the_tags_and_only_linking_sets_them() {
        assert_eq!(CHILD_OF, MARKED << 1);
        assert_eq!(OWNED_BY, MARKED << 2);
        let mut storage = RelStorage::new();
        let parent = storage.spawn(NUMBER);
        let child = storage.spawn(NUMBER | CHILD_OF | MARKED);
        assert_eq!(storage.component_mask(child), Some(NUMBER | MARKED));
        assert!(storage.add_tags(child, CHILD_OF));
        assert_eq!(storage.component_mask(child), Some(NUMBER | MARKED));
        assert_eq!(storage.link(CHILD_OF, child, parent), Ok(None));
        assert_eq!(storage.tables().len(), 1, "linking never migrates");
        assert_eq!(
            storage.component_mask(child),
            Some(NUMBER | MARKED | CHILD_OF)
        );
        assert!(storage.remove_tags(child, CHILD_OF | MARKED));
        assert_eq!(storage.component_mask(child), Some(NUMBER | CHILD_OF));
        assert!(storage.remove_components(child, CHILD_OF));
        assert_eq!(storage.related_target(CHILD_OF, child), Some(parent));
        let roots: Vec<Entity> = storage.matching_entities(NUMBER, CHILD_OF).collect();
        assert_eq!(roots, vec![parent]);
        assert_eq!(storage.unlink(CHILD_OF, child), Some(parent));
        assert_eq!(storage.component_mask(child), Some(NUMBER));
        storage.check_invariants().unwrap();
    }

    #[test]
    fn errors_change_nothing() {
        let mut storage = RelStorage::new();
        let [a, b] = [storage.spawn(NUMBER), storage.spawn(NUMBER)];
        let dead = storage.spawn(NUMBER);
        storage.despawn(dead);
        assert_eq!(
            storage.link(CHILD_OF, dead, a),
            Err(RelationError::DeadSource)
        );
        assert_eq!(
            storage.link(CHILD_OF, a, dead),
            Err(RelationError::DeadTarget)
        );
        assert_eq!(storage.link(CHILD_OF, a, a), Err(RelationError::SelfLink));
        assert_eq!(
            storage.link(MARKED, a, b),
            Err(RelationError::UnknownRelation)
        );
        storage.link(CHILD_OF, a, b).unwrap();
        assert_eq!(storage.link(CHILD_OF, b, a), Err(RelationError::Cycle));
        assert_eq!(storage.component_mask(b), Some(NUMBER));
        assert_eq!(storage.related_sources(CHILD_OF, dead), &[] as &[Entity]);
        assert_eq!(storage.ancestors(CHILD_OF, dead).count(), 0);
        assert_eq!(storage.descendants(NUMBER, b).count(), 0);
        storage.check_invariants().unwrap();
    }

    #[test]
    fn despawn_cascades_by_policy_across_relations() {
        let mut storage = RelStorage::new();
        let root = storage.spawn(NUMBER);
        let child = storage.spawn(NUMBER);
        let grandchild = storage.spawn(NAME);
        let owned = storage.spawn(NUMBER);
        let owned_child = storage.spawn(NUMBER);
        storage.link(CHILD_OF, child, root).unwrap();
        storage.link(CHILD_OF, grandchild, child).unwrap();
        // Owned by a cascading entity: unlinked, not despawned...
        storage.link(OWNED_BY, owned, grandchild).unwrap();
        // ...but its own children go with it only if it dies.
        storage.link(CHILD_OF, owned_child, owned).unwrap();
        storage.enable_change_log(64);
        let mut cursor = storage.change_log().cursor_at_end();
        assert!(storage.despawn(root));
        assert!(!storage.is_alive(child) && !storage.is_alive(grandchild));
        assert!(storage.is_alive(owned) && storage.is_alive(owned_child));
        assert_eq!(storage.related_target(OWNED_BY, owned), None);
        assert_eq!(storage.component_mask(owned), Some(NUMBER));
        assert_eq!(storage.component_mask(owned_child), Some(NUMBER | CHILD_OF));
        let changes: Vec<_> = storage
            .change_log()
            .consume(&mut cursor)
            .into_iter()
            .copied()
            .collect();
        assert_eq!(
            changes,
            vec![
                StructuralChange::Unlinked {
                    relation: CHILD_OF,
                    source: child,
                    target: root
                },
                StructuralChange::Despawned { entity: root },
                StructuralChange::Unlinked {
                    relation: CHILD_OF,
                    source: grandchild,
                    target: child
                },
                StructuralChange::Despawned { entity: child },
                StructuralChange::Unlinked {
                    relation: OWNED_BY,
                    source: owned,
                    target: grandchild
                },
                StructuralChange::Despawned { entity: grandchild },
            ]
        );
        storage.check_invariants().unwrap();
        // A source despawned leaves its target's list, the rest in order.
        let parent = storage.spawn(NUMBER);
        let kids: Vec<Entity> = (0..4).map(|_| storage.spawn(NUMBER)).collect();
        for &kid in &kids {
            storage.link(OWNED_BY, kid, parent).unwrap();
        }
        storage.despawn(kids[1]);
        assert_eq!(
            storage.related_sources(OWNED_BY, parent),
            &[kids[0], kids[2], kids[3]]
        );
        storage.despawn(parent);
        assert!(
            kids.iter()
                .filter(|&&kid| kid != kids[1])
                .all(|&kid| storage.is_alive(kid))
        );
        storage.check_invariants().unwrap();
    }

    #[test]
    fn a_deep_chain_cascades_without_recursion() {
        let mut storage = RelStorage::new();
        let chain = storage.spawn_batch(NUMBER, 3_000, |_, _| {});
        for pair in chain.windows(2) {
            storage.link(CHILD_OF, pair[1], pair[0]).unwrap();
        }
        assert_eq!(storage.ancestors(CHILD_OF, chain[2_999]).count(), 2_999);
        assert!(storage.despawn(chain[0]));
        assert_eq!(storage.entity_count(), 0);
        storage.check_invariants().unwrap();
    }

    #[test]
    fn a_clone_keeps_the_links() {
        let mut storage = RelStorage::new();
        let [a, b, c] = [0; 3].map(|_| storage.spawn(NUMBER));
        storage.link(CHILD_OF, b, a).unwrap();
        storage.link(CHILD_OF, c, a).unwrap();
        let mut copy = RelStorage::new();
        copy_whole(
            &mut copy.index,
            &mut copy.storage,
            &storage.index,
            &storage.storage,
        );
        assert_eq!(copy.related_sources(CHILD_OF, a), &[b, c]);
        copy.check_invariants().unwrap();
    }
}
