//! The storage's record of structural changes: the change log (on and off, its capacity,
//! recording), and what it keeps for the world's declared hooks (the list itself,
//! `PendingHooks`, is the hooks' own: `hooks/pending.rs`).

use super::Storage;
use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::entity::Entity;
use crate::events::{Consumed, EventChannel, EventCursor};
use crate::hooks::HookedChange;

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
        self.log(change);
    }

    /// Logs `change` if the change log is on.
    #[inline]
    pub(super) fn log(&mut self, change: StructuralChange<T::Mask>) {
        if self.log_changes {
            change.log_into(&mut self.change_log);
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// Keeps `change` for the world's declared hooks if one waits for it, without logging it.
    /// Not for removals and despawns, whose hooks read values: see
    /// [`record_removed`](Self::record_removed) and `detach_row_at`.
    #[inline]
    pub(super) fn record_for_hooks(&mut self, change: StructuralChange<T::Mask>) {
        if T::HOOKS.waits_for(&change) {
            self.hooks.push(change);
        }
    }

    /// Logs `entity`'s loss of the components and tags `mask`, and keeps it for the hooks
    /// that wait for it with the values `kept` takes aside (called only then, so a removal
    /// no hook waits for builds nothing).
    #[inline]
    pub(super) fn record_removed(
        &mut self,
        entity: Entity,
        mask: T::Mask,
        kept: impl FnOnce(&mut Self) -> T::Removed,
    ) {
        let change = StructuralChange::Removed { entity, mask };
        if T::HOOKS.waits_for(&change) {
            let values = kept(self);
            self.hooks.push_with_values(change, mask, values);
        }
        self.log(change);
    }

    /// Keeps the despawn of `entity`, which had the components and tags `had`, for the
    /// hooks, with the values kept aside (`detach_row_at` calls it when they wait for it): as
    /// a despawn if an `on_despawn` waits for it here, else (only `on_remove` hooks, or a
    /// game's sub-world other than its last) as the removal of everything it had.
    #[inline]
    pub(super) fn keep_despawn_for_hooks(
        &mut self,
        entity: Entity,
        had: T::Mask,
        kept: T::Removed,
    ) {
        let despawned = StructuralChange::Despawned { entity };
        let change = if T::HOOKS.waits_for(&despawned) {
            despawned
        } else {
            StructuralChange::Removed { entity, mask: had }
        };
        self.hooks.push_with_values(change, had, kept);
    }

    /// The oldest change a declared hook waits for, taken (see `PendingHooks::next`): the
    /// world's sync point runs its hooks. `round` counts the times the sync point applied
    /// commands before.
    #[inline]
    pub(crate) fn next_hooked_change(
        &mut self,
        round: u32,
    ) -> Option<HookedChange<T::Mask, T::Removed>> {
        self.hooks.next(round)
    }

    /// Whether a change waits for the world's declared hooks.
    #[inline]
    pub fn hooks_pending(&self) -> bool {
        !self.hooks.is_empty()
    }
}
