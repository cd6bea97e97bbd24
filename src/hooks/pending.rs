//! The changes a world's declared hooks wait for ([`PendingHooks`]), in the order they
//! happened, with the values kept aside for removal hooks: the storage appends where it records
//! a change (`storage/change_log.rs`), and the world's sync point takes them one at a time.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::{HookedChange, MAX_HOOK_PASSES};
use crate::change_log::StructuralChange;
use crate::mask::Bitmask;

/// The changes declared hooks wait for, in the order they happened: the storage appends
/// ([`push`](Self::push)) where it records a change, and the world takes them one at a time
/// ([`next`](Self::next)) at its sync point. A hook may make more changes while they run; they
/// are appended and run in the same call, one pass later.
///
/// A removal and a despawn come with the values kept aside for their hooks (`values`, one per
/// such change, in the same order); taking the change moves them out with it, so they are
/// dropped once, by whoever holds the change (after its hooks, or when one panics).
#[derive(Debug)]
pub(crate) struct PendingHooks<M, V> {
    changes: Vec<Waiting<M>>,
    values: VecDeque<V>,
    /// How many of `changes` were taken: their hooks ran, or are running.
    taken: usize,
    /// The pass of the change taken last: changes made by the hooks of pass `n` (a hook's own
    /// change) run in pass `n + 1`. Back to 0 once every change was taken.
    pass: u32,
    /// Where the changes of the current pass end in `changes`.
    pass_end: usize,
}

/// A waiting change, and what it took from its entity: a removal's components and tags, or
/// everything a despawned entity had (empty for the other changes).
#[derive(Debug, Clone, Copy)]
struct Waiting<M> {
    change: StructuralChange<M>,
    removed: M,
}

impl<M, V> Default for PendingHooks<M, V> {
    fn default() -> Self {
        PendingHooks {
            changes: Vec::new(),
            values: VecDeque::new(),
            taken: 0,
            pass: 0,
            pass_end: 0,
        }
    }
}

impl<M: Bitmask, V> PendingHooks<M, V> {
    /// Appends a change that carries no values (neither a removal nor a despawn).
    #[inline]
    pub(crate) fn push(&mut self, change: StructuralChange<M>) {
        self.changes.push(Waiting {
            change,
            removed: M::EMPTY,
        });
    }

    /// Appends a removal or a despawn, which took `removed` from its entity, and the values
    /// kept aside for its hooks.
    #[inline]
    pub(crate) fn push_with_values(&mut self, change: StructuralChange<M>, removed: M, values: V) {
        self.values.push_back(values);
        self.changes.push(Waiting { change, removed });
    }

    /// The oldest change not taken yet, taken with its values (so a hook that panics on it
    /// does not see it again, and the values are dropped once); `None`, the list emptied and
    /// its memory kept, once every change was taken. Its pass is `round` (the sync point's
    /// rounds of commands) plus the passes of hooks answering hooks since the list was last
    /// empty; past [`MAX_HOOK_PASSES`] the count starts again, as the change's hooks stop the
    /// chain with a panic (see `HookedChange::check_settled`).
    #[inline]
    pub(crate) fn next(&mut self, round: u32) -> Option<HookedChange<M, V>> {
        let Some(&Waiting { change, removed }) = self.changes.get(self.taken) else {
            self.clear();
            return None;
        };
        if self.taken == self.pass_end {
            self.pass += 1;
            self.pass_end = self.changes.len();
        }
        self.taken += 1;
        let values = match change {
            StructuralChange::Removed { .. } | StructuralChange::Despawned { .. } => {
                self.values.pop_front()
            }
            _ => None,
        };
        let pass = round.saturating_add(self.pass);
        if pass > MAX_HOOK_PASSES {
            // The change's hooks panic: the next sync point counts afresh.
            self.pass = 0;
            self.pass_end = self.taken;
        }
        Some(HookedChange {
            change,
            removed,
            values,
            pass,
        })
    }

    /// Whether a change waits.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.taken == self.changes.len()
    }

    /// Forgets every waiting change, dropping the values kept aside for them (a copy starts
    /// with none, as with queued commands).
    pub(crate) fn clear(&mut self) {
        self.changes.clear();
        self.taken = 0;
        self.pass = 0;
        self.pass_end = 0;
        self.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;

    #[test]
    fn pending_changes_come_out_in_order_once() {
        let mut pending = PendingHooks::<u64, &str>::default();
        assert!(pending.is_empty());
        let changes = [1, 2, 3].map(|id| StructuralChange::Added {
            entity: Entity::new(id, 0),
            mask: 1,
        });
        pending.push(changes[0]);
        pending.push(changes[1]);
        let first = pending.next(0).unwrap();
        assert_eq!((first.change, first.pass), (changes[0], 1));
        // A change made while the hooks run comes after those already waiting, a pass later.
        pending.push(changes[2]);
        assert!(!pending.is_empty());
        assert_eq!(pending.next(0).unwrap().pass, 1);
        let third = pending.next(0).unwrap();
        assert_eq!((third.change, third.pass), (changes[2], 2));
        assert!(pending.is_empty());
        assert!(pending.next(0).is_none());
        // Emptied: the next round of commands starts at its own pass.
        pending.push(changes[0]);
        assert_eq!(pending.next(3).unwrap().pass, 4);
        pending.push(changes[0]);
        pending.clear();
        assert!(pending.next(0).is_none());
    }

    #[test]
    fn a_removal_and_a_despawn_carry_their_values() {
        let mut pending = PendingHooks::<u64, &str>::default();
        let entity = Entity::new(1, 0);
        pending.push_with_values(StructuralChange::Removed { entity, mask: 2 }, 2, "removed");
        pending.push(StructuralChange::Added { entity, mask: 2 });
        pending.push_with_values(StructuralChange::Despawned { entity }, 6, "despawned");
        let removal = pending.next(0).unwrap();
        assert_eq!((removal.removed, removal.values), (2, Some("removed")));
        assert_eq!(pending.next(0).unwrap().values, None);
        let despawn = pending.next(0).unwrap();
        assert_eq!((despawn.removed, despawn.values), (6, Some("despawned")));
    }
}
