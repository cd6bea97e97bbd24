//! Hooks declared in `ecs!`'s `Hooks` block, in one place: what a waiting change hands each
//! hook ([`HookedChange`] and its `on_*` methods, which generated `run_hooks` asks), and the
//! bound on a chain of hooks that does not settle ([`MAX_HOOK_PASSES`]); which changes wait for
//! them, a constant of the world's tables so a world without hooks records nothing
//! ([`HookSet`], `hooks/set.rs`); and the changes waiting, with the values kept aside for
//! removal hooks ([`PendingHooks`], `hooks/pending.rs`). This module depends on the change, the
//! entity and the mask alone. What depends on it: the storage, which appends a change where it
//! records one (`storage/change_log.rs`), and the sync point's loop (hooks, commands, hooks,
//! until quiet: `apply_queued_with_hooks`, beside `apply_queued` in `commands/buffer.rs`).
//!
//! Hooks run at the world's sync point, `apply_commands()`, never inside an operation: every
//! change is recorded where the change log records it (the same paths, the same order), and
//! the world runs the hooks of each, in that order, once the operation is done. See the guide's
//! chapter "Observers and hooks" for why.

mod pending;
mod set;

pub(crate) use pending::PendingHooks;
pub use set::HookSet;

use crate::change_log::StructuralChange;
use crate::entity::Entity;
use crate::mask::Bitmask;

/// The passes of hooks one `apply_commands()` runs before it takes the chain for one that
/// never settles and stops it with a panic. A pass is the changes waiting when it starts; the
/// changes their hooks make, directly or by queued commands, make the next pass. A legitimate
/// chain is as deep as the game's logic (a hook that spawns a child whose hook spawns one
/// more); ten thousand is far past that and still stops a self-triggering hook in a moment.
pub const MAX_HOOK_PASSES: u32 = 10_000;

/// A change taken from the changes waiting for hooks, with what its hooks read: what it took
/// from its entity and, for a removal or a despawn, the values kept aside (`V`, the world's
/// generated `WorldRemoved`). Generated `run_hooks` asks it one `on_*` method per declared
/// hook; dropping it drops the values, once.
#[doc(hidden)]
#[derive(Debug)]
pub struct HookedChange<M, V> {
    pub(crate) change: StructuralChange<M>,
    /// A removal's components and tags, or everything a despawned entity had.
    pub(crate) removed: M,
    /// The values kept aside: `Some` for a removal or a despawn.
    pub(crate) values: Option<V>,
    /// Which pass of its sync point the change is in (see [`MAX_HOOK_PASSES`]).
    pub(crate) pass: u32,
}

/// What generated code asks of a waiting change to call each hook: `Some` of the hook's
/// arguments when the change is what the hook waits for. Each takes the hook's name, for the
/// panic that stops a chain past [`MAX_HOOK_PASSES`].
impl<M: Bitmask, V> HookedChange<M, V> {
    /// `Some(entity)` when the change is a spawn (an `on_spawn` hook).
    #[inline]
    pub fn on_spawn(&self, hook: &str) -> Option<Entity> {
        match self.change {
            StructuralChange::Spawned { entity, .. } => self.settled(hook, entity),
            _ => None,
        }
    }

    /// `Some(entity)` when the change gave `entity` the component or tag `bit`, by a spawn or
    /// an addition (an `on_add(BIT)` hook).
    #[inline]
    pub fn on_add(&self, bit: M, hook: &str) -> Option<Entity> {
        match self.change {
            StructuralChange::Spawned { entity, mask }
            | StructuralChange::Added { entity, mask }
                if mask.intersects(bit) =>
            {
                self.settled(hook, entity)
            }
            _ => None,
        }
    }

    /// `Some((entity, removed))` when the change took the component or tag `bit` from
    /// `entity`, by a removal or a despawn (an `on_remove(BIT)` hook): `removed` holds what
    /// went, with the values kept aside.
    #[inline]
    pub fn on_remove(&self, bit: M, hook: &str) -> Option<(Entity, &V)> {
        match (&self.change, &self.values) {
            (
                StructuralChange::Removed { entity, .. } | StructuralChange::Despawned { entity },
                Some(values),
            ) if self.removed.intersects(bit) => Some((self.settled(hook, *entity)?, values)),
            _ => None,
        }
    }

    /// `Some((entity, removed))` when the change is a despawn (a world's `on_despawn` hook):
    /// `removed` holds every component and tag the entity had, with its values.
    #[inline]
    pub fn on_despawn(&self, hook: &str) -> Option<(Entity, &V)> {
        match (&self.change, &self.values) {
            (StructuralChange::Despawned { entity }, Some(values)) => {
                Some((self.settled(hook, *entity)?, values))
            }
            _ => None,
        }
    }

    /// `Some(entity)` when the change is a despawn (a multi-world game's `on_despawn` hook,
    /// which gets the entity alone).
    #[inline]
    pub fn on_game_despawn(&self, hook: &str) -> Option<Entity> {
        match self.change {
            StructuralChange::Despawned { entity } => self.settled(hook, entity),
            _ => None,
        }
    }

    /// `Some((source, target))` when the change linked `source` to `target` in the relation
    /// `bit` (an `on_link(BIT)` hook).
    #[inline]
    pub fn on_link(&self, bit: M, hook: &str) -> Option<(Entity, Entity)> {
        match self.change {
            StructuralChange::Linked {
                relation,
                source,
                target,
            } if relation == bit => Some((self.settled(hook, source)?, target)),
            _ => None,
        }
    }

    /// `Some((source, target))` when the change unlinked `source` from `target` in the
    /// relation `bit`, by a removal, a link replacing it or a despawn (an `on_unlink(BIT)`
    /// hook).
    #[inline]
    pub fn on_unlink(&self, bit: M, hook: &str) -> Option<(Entity, Entity)> {
        match self.change {
            StructuralChange::Unlinked {
                relation,
                source,
                target,
            } if relation == bit => Some((self.settled(hook, source)?, target)),
            _ => None,
        }
    }

    /// `Some(entity)`, unless the change is past [`MAX_HOOK_PASSES`]: then `hook`, about to
    /// run for it, is part of a chain that never settles, and it panics instead, with the
    /// world consistent (the change is taken, as by a hook that panics).
    #[inline]
    fn settled(&self, hook: &str, entity: Entity) -> Option<Entity> {
        if self.pass > MAX_HOOK_PASSES {
            never_settles(hook, self.pass);
        }
        Some(entity)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn never_settles(hook: &str, passes: u32) -> ! {
    panic!(
        "ecs!: the hook `{hook}` still runs after {} passes of hooks in one apply_commands(): \
         a chain of hooks that never settles (a hook answering its own change with the same \
         change?); stopped at pass {passes}",
        MAX_HOOK_PASSES
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITION: u64 = 1;
    const VELOCITY: u64 = 2;
    const PLAYER: u64 = 4;
    const CHILD_OF: u64 = 8;

    fn entity(id: u32) -> Entity {
        Entity::new(id, 0)
    }

    fn hooked(change: StructuralChange<u64>, removed: u64) -> HookedChange<u64, &'static str> {
        let values = matches!(
            change,
            StructuralChange::Removed { .. } | StructuralChange::Despawned { .. }
        )
        .then_some("values");
        HookedChange {
            change,
            removed,
            values,
            pass: 1,
        }
    }

    #[test]
    fn each_hook_form_matches_its_change_only() {
        let (e, target) = (entity(1), entity(2));
        let spawned = hooked(
            StructuralChange::Spawned {
                entity: e,
                mask: POSITION,
            },
            0,
        );
        let added = hooked(
            StructuralChange::Added {
                entity: e,
                mask: POSITION | PLAYER,
            },
            0,
        );
        let removed = hooked(
            StructuralChange::Removed {
                entity: e,
                mask: PLAYER,
            },
            PLAYER,
        );
        let linked = hooked(
            StructuralChange::Linked {
                relation: CHILD_OF,
                source: e,
                target,
            },
            0,
        );
        let unlinked = hooked(
            StructuralChange::Unlinked {
                relation: CHILD_OF,
                source: e,
                target,
            },
            0,
        );
        let despawned = hooked(StructuralChange::Despawned { entity: e }, POSITION | PLAYER);
        let hook = "hook";
        assert_eq!(spawned.on_spawn(hook), Some(e));
        assert_eq!(added.on_spawn(hook), None);
        assert_eq!(spawned.on_add(POSITION, hook), Some(e));
        assert_eq!(added.on_add(PLAYER, hook), Some(e));
        assert_eq!(added.on_add(VELOCITY, hook), None);
        assert_eq!(removed.on_add(PLAYER, hook), None);
        assert_eq!(removed.on_remove(PLAYER, hook), Some((e, &"values")));
        assert_eq!(removed.on_remove(POSITION, hook), None);
        assert_eq!(linked.on_link(CHILD_OF, hook), Some((e, target)));
        assert_eq!(unlinked.on_link(CHILD_OF, hook), None);
        assert_eq!(unlinked.on_unlink(CHILD_OF, hook), Some((e, target)));
        assert_eq!(unlinked.on_unlink(16, hook), None);
        assert_eq!(despawned.on_despawn(hook), Some((e, &"values")));
        assert_eq!(despawned.on_game_despawn(hook), Some(e));
        // A despawn removes everything its entity had.
        assert_eq!(despawned.on_remove(POSITION, hook), Some((e, &"values")));
        assert_eq!(despawned.on_remove(VELOCITY, hook), None);
        assert_eq!(spawned.on_despawn(hook), None);
    }

    #[test]
    #[should_panic(expected = "the hook `respawn` still runs after 10000 passes")]
    fn a_change_past_the_last_pass_stops_its_hook() {
        let mut change = hooked(
            StructuralChange::Spawned {
                entity: entity(1),
                mask: POSITION,
            },
            0,
        );
        change.pass = MAX_HOOK_PASSES;
        assert_eq!(change.on_spawn("respawn"), Some(entity(1)));
        change.pass += 1;
        change.on_spawn("respawn");
    }
}
