//! The storage's record of structural changes: the change log (on and off, its capacity,
//! recording) and the changes the world's declared hooks wait for ([`PendingHooks`]).

use alloc::vec::Vec;

use super::Storage;
use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::events::{Consumed, EventChannel, EventCursor};

impl<T: Archetype> Storage<T> {
    /// Starts (or goes on) recording structural changes, keeping at most `capacity` entries
    /// (older ones are trimmed, and a consumer that had not read them is told how many it lost).
    ///
    /// The log is one sequence for the world's whole life: enabling it again, after a
    /// `disable_change_log` or while it is on, keeps the entries still stored and numbers the
    /// next one after them, so every existing cursor reads on from where it was. (Starting a
    /// new sequence would put cursors past its end, and they would skip what is recorded next
    /// without counting it as lost.) A capacity smaller than before trims the oldest entries.
    pub fn enable_change_log(&mut self, capacity: usize) {
        self.change_log.set_capacity_limit(Some(capacity));
        self.log_changes = true;
    }

    /// Stops recording structural changes; entries already logged stay readable.
    pub fn disable_change_log(&mut self) {
        self.log_changes = false;
    }

    /// The structural changes `cursor` has not seen yet, in order, each once per cursor;
    /// `.lost()` on the result counts entries trimmed before it read them.
    pub fn consume_changes(
        &self,
        cursor: &mut EventCursor,
    ) -> Consumed<'_, StructuralChange<T::Mask>> {
        self.change_log.consume(cursor)
    }

    /// A cursor at the end of the structural change log: it will see only later changes, and
    /// counts those trimmed before it reads them as lost. (A default cursor starts at the
    /// oldest entry still kept and counts no losses before it.)
    pub fn change_cursor(&self) -> EventCursor {
        self.change_log.cursor_at_end()
    }

    /// Drops all but the newest `keep` entries of the structural change log.
    pub fn trim_changes(&mut self, keep: usize) {
        self.change_log.trim_to(keep);
    }

    /// The structural change log: read it with a cursor (`consume`), trim it (`trim_to`).
    #[doc(hidden)]
    pub fn change_log(&self) -> &EventChannel<StructuralChange<T::Mask>> {
        &self.change_log
    }

    /// The structural change log, mutably (to trim or clear it).
    #[doc(hidden)]
    pub fn change_log_mut(&mut self) -> &mut EventChannel<StructuralChange<T::Mask>> {
        &mut self.change_log
    }

    /// Logs `change` if the change log is on (the entry is written by code compiled once per
    /// mask width, [`StructuralChange::log_into`]), and keeps it for the world's declared hooks
    /// if one waits for it (a test folded away in a world without hooks).
    #[inline]
    pub(super) fn record(&mut self, change: StructuralChange<T::Mask>) {
        self.record_for_hooks(change);
        if self.log_changes {
            change.log_into(&mut self.change_log);
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// Keeps `change` for the world's declared hooks if one waits for it, without logging it:
    /// a despawn's components and tags, which the change log records as the despawn alone.
    #[inline]
    pub(super) fn record_for_hooks(&mut self, change: StructuralChange<T::Mask>) {
        if T::HOOKS.waits_for(&change) {
            self.hooks.push(change);
        }
    }

    /// The oldest change a declared hook waits for, taken (see [`PendingHooks::next`]): the
    /// world's sync point runs its hooks.
    #[inline]
    pub(crate) fn next_hooked_change(&mut self) -> Option<StructuralChange<T::Mask>> {
        self.hooks.next()
    }

    /// Whether a change waits for the world's declared hooks.
    #[inline]
    pub fn hooks_pending(&self) -> bool {
        !self.hooks.is_empty()
    }
}

/// The changes declared hooks wait for, in the order they happened: the storage appends
/// ([`push`](Self::push)) where it records a change, and the world takes them one at a time
/// ([`next`](Self::next)) at its sync point. A hook may make more changes while they run; they
/// are appended and run in the same pass.
#[derive(Debug)]
pub(crate) struct PendingHooks<M> {
    changes: Vec<StructuralChange<M>>,
    /// How many of `changes` were taken: their hooks ran, or are running.
    taken: usize,
}

impl<M> Default for PendingHooks<M> {
    fn default() -> Self {
        PendingHooks {
            changes: Vec::new(),
            taken: 0,
        }
    }
}

impl<M: Copy> PendingHooks<M> {
    #[inline]
    pub(crate) fn push(&mut self, change: StructuralChange<M>) {
        self.changes.push(change);
    }

    /// The oldest change not taken yet, taken (so a hook that panics on it does not see it
    /// again); `None`, the list emptied and its memory kept, once every change was taken.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<StructuralChange<M>> {
        let next = self.changes.get(self.taken).copied();
        if next.is_some() {
            self.taken += 1;
        } else {
            self.clear();
        }
        next
    }

    /// Whether a change waits.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.taken == self.changes.len()
    }

    /// Forgets every waiting change (a copy starts with none, as with queued commands).
    pub(crate) fn clear(&mut self) {
        self.changes.clear();
        self.taken = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;

    #[test]
    fn pending_changes_come_out_in_order_once() {
        let mut pending = PendingHooks::<u64>::default();
        assert!(pending.is_empty());
        let changes = [1, 2, 3].map(|id| StructuralChange::Despawned {
            entity: Entity::new(id, 0),
        });
        pending.push(changes[0]);
        pending.push(changes[1]);
        assert_eq!(pending.next(), Some(changes[0]));
        // A change made while the hooks run comes after those already waiting.
        pending.push(changes[2]);
        assert!(!pending.is_empty());
        assert_eq!(pending.next(), Some(changes[1]));
        assert_eq!(pending.next(), Some(changes[2]));
        assert!(pending.is_empty());
        assert_eq!(pending.next(), None);
        pending.push(changes[0]);
        pending.clear();
        assert_eq!(pending.next(), None);
    }
}
