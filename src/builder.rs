//! What a generated `EntityBuilder` is to the runtime: values written into a new row
//! ([`EntityValues`]) and the relation targets the new entity is linked to ([`Links`]).
//! The builder itself depends on the component list and is generated.

use crate::archetype::Archetype;
use crate::entity::Entity;
use crate::mask::Bitmask;

/// The values one entity is spawned with, written into its new row, and the targets it is
/// linked to once spawned: a world's `EntityBuilder`.
pub trait EntityValues {
    /// The world's table type.
    type Archetype: Archetype;

    /// The components and tags the entity is spawned with (the builder's `mask()`).
    fn mask(&self) -> <Self::Archetype as Archetype>::Mask;

    /// Pushes the values onto the columns of `table` (of mask `mask() & COMPONENTS`) as one
    /// new row, the default for a component of the mask with no value; the caller pushes the
    /// entity and cuts the columns back if a `Default` panics.
    #[inline(always)]
    fn push(mut self, table: &mut Self::Archetype)
    where
        Self: Sized,
    {
        self.take_into(table);
    }

    /// [`push`](Self::push), taking the values out of `self` (left holding none, its mask and
    /// links kept): a spawn places the values where the builder holds them, with no move of
    /// the whole.
    fn take_into(&mut self, table: &mut Self::Archetype);

    /// The relation targets of the new entity: each relation's bit and target.
    fn links(&self) -> &[(<Self::Archetype as Archetype>::Mask, Entity)];

    /// A copy of the values held, for one more entity of a batch, without the links (the
    /// spawn links every entity to the original's targets).
    ///
    /// # Panics
    /// If a value held is of a type that is not `Clone`; the message names the component.
    fn copy_held(&self) -> Self;
}

/// The relation targets a builder holds, one per relation at most (`with_child_of(ship)`),
/// in the order first set, in room for `N` (the world's relations, counted by `ecs!`) inside
/// the builder: it never allocates, and it needs no drop, so a builder of values that need
/// none needs none, and a spawn keeps it in registers rather than in memory for its unwinding
/// path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links<M, const N: usize> {
    /// How many of `links` are set.
    set: usize,
    /// The targets set first, then placeholders.
    links: [(M, Entity); N],
}

impl<M: Bitmask, const N: usize> Default for Links<M, N> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Bitmask, const N: usize> Links<M, N> {
    /// No targets.
    #[inline]
    pub const fn new() -> Self {
        Links {
            set: 0,
            links: [(M::EMPTY, Entity::PLACEHOLDER); N],
        }
    }

    /// Sets the target of the relation whose bit is `relation`, replacing an earlier one.
    #[inline]
    pub fn set(&mut self, relation: M, target: Entity) {
        let (set, free) = self.links.split_at_mut(self.set);
        match set.iter_mut().find(|(bit, _)| *bit == relation) {
            Some(link) => link.1 = target,
            None => {
                // `ecs!` makes room for every relation's, and only a relation's `with_*` sets
                // one.
                debug_assert!(!free.is_empty(), "more relations linked than room made");
                if let Some(link) = free.first_mut() {
                    *link = (relation, target);
                    self.set += 1;
                }
            }
        }
    }

    /// Each relation's bit and target.
    #[inline]
    pub fn as_slice(&self) -> &[(M, Entity)] {
        &self.links[..self.set]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relation_holds_one_target_the_last_set() {
        let (a, b) = (Entity::new(1, 0), Entity::new(2, 0));
        let mut links: Links<u64, 2> = Links::new();
        assert!(links.as_slice().is_empty());
        links.set(0b100, a);
        links.set(0b1000, b);
        links.set(0b100, b);
        assert_eq!(links.as_slice(), [(0b100, b), (0b1000, b)]);
    }
}
