//! Where a multi-world game's queued spawns wait: [`BuilderStaging`], each spawn's reserved
//! handle and the values of the game's `EntityBuilder` it was given, in the order queued.

use alloc::collections::VecDeque;
use alloc::collections::vec_deque::Drain;

use super::Staging;
use crate::entity::Entity;

/// The queued spawns of a multi-world game that wait with values: each one's handle and the
/// values of the builder it was queued with (`B`: one part per sub-world, see
/// `MultiWorldBuilder::Values`), in the order queued. They hold values for several sub-worlds, each
/// of its own table type, so they wait whole, not in columns as a world's do
/// ([`SpawnStaging`](crate::SpawnStaging)).
#[derive(Debug)]
pub struct BuilderStaging<B> {
    spawns: VecDeque<(Entity, B)>,
}

impl<B> Default for BuilderStaging<B> {
    fn default() -> Self {
        Self {
            spawns: VecDeque::new(),
        }
    }
}

impl<B> BuilderStaging<B> {
    /// Each staged spawn's handle and values, in the order queued.
    pub fn spawns(&self) -> impl Iterator<Item = (Entity, &B)> + '_ {
        self.spawns
            .iter()
            .map(|(entity, builder)| (*entity, builder))
    }

    /// Stages a spawn of `values` with the reserved handle `entity`, last.
    pub(crate) fn push(&mut self, entity: Entity, values: B) {
        self.spawns.push_back((entity, values));
    }

    /// Takes the next `count` staged spawns (fewer if fewer are staged), oldest first.
    pub(crate) fn take(&mut self, count: usize) -> Drain<'_, (Entity, B)> {
        let count = count.min(self.spawns.len());
        self.spawns.drain(..count)
    }
}

impl<B> Staging for BuilderStaging<B> {
    fn is_empty(&self) -> bool {
        self.spawns.is_empty()
    }

    fn clear(&mut self) {
        // Emptied before the builders drop: a value whose `Drop` panics leaves nothing staged.
        drop(core::mem::take(&mut self.spawns));
    }

    /// Nothing to do: spawns are taken from the front, so what is left is in the order queued.
    fn reorder(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn spawns_are_taken_oldest_first_and_the_rest_kept_in_order() {
        let mut staging = BuilderStaging::default();
        for id in 0..4 {
            staging.push(Entity::new(id, 0), id * 10);
        }
        let taken: Vec<_> = staging.take(2).collect();
        assert_eq!(taken, [(Entity::new(0, 0), 0), (Entity::new(1, 0), 10)]);
        let rest: Vec<_> = staging
            .spawns()
            .map(|(entity, &value)| (entity, value))
            .collect();
        assert_eq!(rest, [(Entity::new(2, 0), 20), (Entity::new(3, 0), 30)]);
        assert_eq!(staging.take(5).count(), 2);
        assert!(staging.is_empty());
    }

    #[test]
    fn clear_drops_every_staged_spawn() {
        let mut staging = BuilderStaging::default();
        staging.push(Entity::new(0, 0), 1);
        staging.clear();
        assert!(staging.is_empty());
        assert_eq!(staging.spawns().count(), 0);
    }
}
