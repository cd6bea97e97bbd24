//! Hooks declared in `ecs!`'s `Hooks` block: what generated code asks of a waiting change to
//! call each hook (its `on_*` methods), and the sync point's loop that runs them. Which
//! changes wait for them is a constant of the world's tables ([`HookSet`](crate::hook_set::HookSet),
//! `hook_set.rs`, so a world without hooks records nothing); the changes waiting are kept by
//! the storage (`PendingHooks`, `storage/change_log.rs`).
//!
//! Hooks run at the world's sync point, `apply_commands()`, never inside an operation: every
//! change is recorded where the change log records it (the same paths, the same order), and
//! the world runs the hooks of each, in that order, once the operation is done. See the guide's
//! chapter "Observers and hooks" for why.

use crate::change_log::StructuralChange;
use crate::commands::{CommandBuffer, CommandReport, QueuedCommand, apply_queued};
use crate::entity::Entity;
use crate::mask::Bitmask;

/// What generated code asks of a waiting change to call each hook: `Some` of the hook's
/// arguments when the change is what the hook waits for.
impl<M: Bitmask> StructuralChange<M> {
    /// `Some(entity)` when the change is a spawn (an `on_spawn` hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_spawn(&self) -> Option<Entity> {
        match *self {
            StructuralChange::Spawned { entity, .. } => Some(entity),
            _ => None,
        }
    }

    /// `Some(entity)` when the change is a despawn (an `on_despawn` hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_despawn(&self) -> Option<Entity> {
        match *self {
            StructuralChange::Despawned { entity } => Some(entity),
            _ => None,
        }
    }

    /// `Some(entity)` when the change gave `entity` the component or tag `bit`, by a spawn or
    /// an addition (an `on_add(BIT)` hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_add(&self, bit: M) -> Option<Entity> {
        match *self {
            StructuralChange::Spawned { entity, mask }
            | StructuralChange::Added { entity, mask }
                if mask.intersects(bit) =>
            {
                Some(entity)
            }
            _ => None,
        }
    }

    /// `Some(entity)` when the change took the component or tag `bit` from `entity`, by a
    /// removal or a despawn (an `on_remove(BIT)` hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_remove(&self, bit: M) -> Option<Entity> {
        match *self {
            StructuralChange::Removed { entity, mask } if mask.intersects(bit) => Some(entity),
            _ => None,
        }
    }

    /// `Some((source, target))` when the change linked `source` to `target` in the relation
    /// `bit` (an `on_link(BIT)` hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_link(&self, bit: M) -> Option<(Entity, Entity)> {
        match *self {
            StructuralChange::Linked {
                relation,
                source,
                target,
            } if relation == bit => Some((source, target)),
            _ => None,
        }
    }

    /// `Some((source, target))` when the change unlinked `source` from `target` in the
    /// relation `bit`, by a removal, a link replacing it or a despawn (an `on_unlink(BIT)`
    /// hook).
    #[doc(hidden)]
    #[inline]
    pub fn on_unlink(&self, bit: M) -> Option<(Entity, Entity)> {
        match *self {
            StructuralChange::Unlinked {
                relation,
                source,
                target,
            } if relation == bit => Some((source, target)),
            _ => None,
        }
    }
}

/// A world's or a game's `apply_commands()` when it declares hooks: the hooks of the changes
/// made since the last sync point run first (`run_hooks`), then the queued commands are
/// applied ([`apply_queued`]), then the hooks of what they changed, and so on until no command
/// is queued and no change waits (a hook may queue commands, and its commands may wake hooks).
/// The report counts every command applied or skipped on the way.
pub fn apply_queued_with_hooks<W, C: QueuedCommand>(
    world: &mut W,
    queue: fn(&mut W) -> &mut CommandBuffer<C>,
    mut apply: impl FnMut(&mut W, C, &mut C::Staging, &mut CommandReport),
    run_hooks: fn(&mut W),
) -> CommandReport {
    let mut report = CommandReport::default();
    loop {
        run_hooks(world);
        if queue(world).is_empty() {
            return report;
        }
        report.absorb(apply_queued(world, queue, &mut apply));
    }
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

    #[test]
    fn each_hook_form_matches_its_change_only() {
        let (e, target) = (entity(1), entity(2));
        let spawned = StructuralChange::Spawned {
            entity: e,
            mask: POSITION,
        };
        let added = StructuralChange::Added {
            entity: e,
            mask: POSITION | PLAYER,
        };
        let removed = StructuralChange::Removed {
            entity: e,
            mask: PLAYER,
        };
        let linked = StructuralChange::Linked {
            relation: CHILD_OF,
            source: e,
            target,
        };
        let unlinked = StructuralChange::Unlinked {
            relation: CHILD_OF,
            source: e,
            target,
        };
        let despawned = StructuralChange::<u64>::Despawned { entity: e };
        assert_eq!(spawned.on_spawn(), Some(e));
        assert_eq!(added.on_spawn(), None);
        assert_eq!(spawned.on_add(POSITION), Some(e));
        assert_eq!(added.on_add(PLAYER), Some(e));
        assert_eq!(added.on_add(VELOCITY), None);
        assert_eq!(removed.on_add(PLAYER), None);
        assert_eq!(removed.on_remove(PLAYER), Some(e));
        assert_eq!(removed.on_remove(POSITION), None);
        assert_eq!(linked.on_link(CHILD_OF), Some((e, target)));
        assert_eq!(unlinked.on_link(CHILD_OF), None);
        assert_eq!(unlinked.on_unlink(CHILD_OF), Some((e, target)));
        assert_eq!(unlinked.on_unlink(16), None);
        assert_eq!(despawned.on_despawn(), Some(e));
        assert_eq!(spawned.on_despawn(), None);
    }
}
