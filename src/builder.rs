//! What a generated `EntityBuilder` is to the runtime: values written into a new row
//! ([`EntityValues`]) and the relation targets the new entity is linked to ([`Links`]).
//! The builder itself depends on the component list and is generated.

use alloc::vec::Vec;

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
    #[inline]
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
/// in the order first set. Empty, it allocates nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links<M>(Vec<(M, Entity)>);

impl<M: Bitmask> Links<M> {
    /// No targets.
    #[inline]
    pub const fn new() -> Self {
        Links(Vec::new())
    }

    /// Sets the target of the relation whose bit is `relation`, replacing an earlier one.
    #[inline]
    pub fn set(&mut self, relation: M, target: Entity) {
        match self.0.iter_mut().find(|(bit, _)| *bit == relation) {
            Some(link) => link.1 = target,
            None => self.0.push((relation, target)),
        }
    }

    /// Each relation's bit and target.
    #[inline]
    pub fn as_slice(&self) -> &[(M, Entity)] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relation_holds_one_target_the_last_set() {
        let (a, b) = (Entity::new(1, 0), Entity::new(2, 0));
        let mut links: Links<u64> = Links::new();
        assert!(links.as_slice().is_empty());
        links.set(0b100, a);
        links.set(0b1000, b);
        links.set(0b100, b);
        assert_eq!(links.as_slice(), [(0b100, b), (0b1000, b)]);
    }
}
