//! Hooks declared in `ecs!`'s `Hooks` block: which structural changes wait for them
//! ([`HookSet`], a constant of the world's tables, so a world without hooks records nothing),
//! the changes waiting ([`PendingHooks`], in the storage), and what generated code asks of a
//! waiting change to call each hook (the `on_*` functions).
//!
//! Hooks run at the world's sync point, `apply_commands()`, never inside an operation: every
//! change is recorded where the change log records it (the same paths, the same order), and
//! the world runs the hooks of each, in that order, once the operation is done. See the guide's
//! chapter "Observers and hooks" for why.

use alloc::vec::Vec;

use crate::change_log::StructuralChange;
use crate::commands::{CommandBuffer, CommandReport, QueuedCommand, apply_queued};
use crate::entity::Entity;
use crate::mask::Bitmask;

/// The structural changes a world's declared hooks wait for: a mask per kind of change (the
/// bits some hook is declared on) and whether any hook waits for spawns or despawns. Built
/// by `const fn`s in generated code, which refuse (at compile time) a hook on a bit that is
/// not a component, a tag or a relation of the world, or on several bits at once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HookSet<M> {
    /// The world's component and tag bits (relations excluded): what `on_add` and `on_remove`
    /// may name.
    entity_bits: M,
    /// The world's relation bits: what `on_link` and `on_unlink` may name.
    relation_bits: M,
    spawned: bool,
    despawned: bool,
    added: M,
    removed: M,
    linked: M,
    unlinked: M,
}

impl<M: Bitmask> HookSet<M> {
    /// No hooks: the set of a world without a `Hooks` block (`Archetype::HOOKS`'s default).
    pub const NONE: Self = HookSet {
        entity_bits: M::EMPTY,
        relation_bits: M::EMPTY,
        spawned: false,
        despawned: false,
        added: M::EMPTY,
        removed: M::EMPTY,
        linked: M::EMPTY,
        unlinked: M::EMPTY,
    };

    /// Whether a hook waits for `change`: the storage records it for them if so. Inlined, so
    /// a world without hooks (every field constant and empty) compiles it away.
    #[inline]
    pub(crate) fn waits_for(&self, change: &StructuralChange<M>) -> bool {
        match *change {
            StructuralChange::Spawned { mask, .. } => self.spawned || mask.intersects(self.added),
            StructuralChange::Despawned { .. } => self.despawned,
            StructuralChange::Added { mask, .. } => mask.intersects(self.added),
            StructuralChange::Removed { mask, .. } => mask.intersects(self.removed),
            StructuralChange::Linked { relation, .. } => relation.intersects(self.linked),
            StructuralChange::Unlinked { relation, .. } => relation.intersects(self.unlinked),
        }
    }

    /// Whether a hook waits for a despawned entity's components and tags to go: a despawn
    /// then records them as removed, before the despawn itself.
    #[inline]
    pub(crate) fn waits_for_removals(&self) -> bool {
        !self.removed.is_empty()
    }
}

/// The `const fn` builders, one impl per mask width (trait methods are not `const`).
macro_rules! hook_set_builders {
    ($($mask:ty),+) => {$(
        impl HookSet<$mask> {
            /// An empty set for a world whose component and tag bits are `entity_bits` and
            /// whose relation bits are `relation_bits`.
            pub const fn new(entity_bits: $mask, relation_bits: $mask) -> Self {
                HookSet {
                    entity_bits: entity_bits & !relation_bits,
                    relation_bits,
                    ..Self::NONE
                }
            }

            /// With a hook on every spawn.
            pub const fn on_spawn(mut self) -> Self {
                self.spawned = true;
                self
            }

            /// With a hook on every despawn.
            pub const fn on_despawn(mut self) -> Self {
                self.despawned = true;
                self
            }

            /// With a hook on `bit` (a component or a tag) being added, spawns included.
            ///
            /// # Panics
            /// At compile time, where generated code evaluates it: `bit` is not one component
            /// or tag of the world.
            pub const fn on_add(mut self, bit: $mask) -> Self {
                self.added |= self.entity_bit(bit);
                self
            }

            /// With a hook on `bit` (a component or a tag) being removed, despawns included.
            ///
            /// # Panics
            /// As [`on_add`](Self::on_add).
            pub const fn on_remove(mut self, bit: $mask) -> Self {
                self.removed |= self.entity_bit(bit);
                self
            }

            /// With a hook on a link of the relation `bit` being made.
            ///
            /// # Panics
            /// At compile time, where generated code evaluates it: `bit` is not one relation
            /// of the world.
            pub const fn on_link(mut self, bit: $mask) -> Self {
                self.linked |= self.relation_bit(bit);
                self
            }

            /// With a hook on a link of the relation `bit` being undone, despawns included.
            ///
            /// # Panics
            /// As [`on_link`](Self::on_link).
            pub const fn on_unlink(mut self, bit: $mask) -> Self {
                self.unlinked |= self.relation_bit(bit);
                self
            }

            const fn entity_bit(&self, bit: $mask) -> $mask {
                assert!(
                    bit.count_ones() == 1 && bit & self.entity_bits == bit,
                    "ecs!: `on_add(..)` and `on_remove(..)` name one component or tag of the world, like `on_add(POSITION)` (a relation's hooks are `on_link` and `on_unlink`)"
                );
                bit
            }

            const fn relation_bit(&self, bit: $mask) -> $mask {
                assert!(
                    bit.count_ones() == 1 && bit & self.relation_bits == bit,
                    "ecs!: `on_link(..)` and `on_unlink(..)` name one relation of the world, like `on_link(CHILD_OF)`"
                );
                bit
            }
        }
    )+};
}

hook_set_builders!(u64, u128);

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

/// `Some(entity)` when `change` is a spawn (generated code: an `on_spawn` hook).
#[inline]
pub fn on_spawn<M>(change: &StructuralChange<M>) -> Option<Entity> {
    match *change {
        StructuralChange::Spawned { entity, .. } => Some(entity),
        _ => None,
    }
}

/// `Some(entity)` when `change` is a despawn (an `on_despawn` hook).
#[inline]
pub fn on_despawn<M>(change: &StructuralChange<M>) -> Option<Entity> {
    match *change {
        StructuralChange::Despawned { entity } => Some(entity),
        _ => None,
    }
}

/// `Some(entity)` when `change` gave `entity` the component or tag `bit`, by a spawn or an
/// addition (an `on_add(BIT)` hook).
#[inline]
pub fn on_add<M: Bitmask>(change: &StructuralChange<M>, bit: M) -> Option<Entity> {
    match *change {
        StructuralChange::Spawned { entity, mask } | StructuralChange::Added { entity, mask }
            if mask.intersects(bit) =>
        {
            Some(entity)
        }
        _ => None,
    }
}

/// `Some(entity)` when `change` took the component or tag `bit` from `entity`, by a removal
/// or a despawn (an `on_remove(BIT)` hook).
#[inline]
pub fn on_remove<M: Bitmask>(change: &StructuralChange<M>, bit: M) -> Option<Entity> {
    match *change {
        StructuralChange::Removed { entity, mask } if mask.intersects(bit) => Some(entity),
        _ => None,
    }
}

/// `Some((source, target))` when `change` linked `source` to `target` in the relation `bit`
/// (an `on_link(BIT)` hook).
#[inline]
pub fn on_link<M: Bitmask>(change: &StructuralChange<M>, bit: M) -> Option<(Entity, Entity)> {
    match *change {
        StructuralChange::Linked {
            relation,
            source,
            target,
        } if relation == bit => Some((source, target)),
        _ => None,
    }
}

/// `Some((source, target))` when `change` unlinked `source` from `target` in the relation
/// `bit`, by a removal, a link replacing it or a despawn (an `on_unlink(BIT)` hook).
#[inline]
pub fn on_unlink<M: Bitmask>(change: &StructuralChange<M>, bit: M) -> Option<(Entity, Entity)> {
    match *change {
        StructuralChange::Unlinked {
            relation,
            source,
            target,
        } if relation == bit => Some((source, target)),
        _ => None,
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
    fn a_set_waits_only_for_the_changes_it_names() {
        let hooks = HookSet::<u64>::new(POSITION | VELOCITY | PLAYER | CHILD_OF, CHILD_OF)
            .on_add(POSITION)
            .on_remove(PLAYER)
            .on_unlink(CHILD_OF);
        let e = entity(1);
        let spawned = |mask| StructuralChange::Spawned { entity: e, mask };
        assert!(hooks.waits_for(&spawned(POSITION | VELOCITY)));
        assert!(!hooks.waits_for(&spawned(VELOCITY | PLAYER)));
        assert!(!hooks.waits_for(&StructuralChange::Added {
            entity: e,
            mask: PLAYER
        }));
        assert!(hooks.waits_for(&StructuralChange::Removed {
            entity: e,
            mask: PLAYER
        }));
        assert!(!hooks.waits_for(&StructuralChange::Removed {
            entity: e,
            mask: POSITION
        }));
        assert!(!hooks.waits_for(&StructuralChange::Despawned { entity: e }));
        let link = (e, entity(2));
        assert!(!hooks.waits_for(&StructuralChange::Linked {
            relation: CHILD_OF,
            source: link.0,
            target: link.1
        }));
        assert!(hooks.waits_for(&StructuralChange::Unlinked {
            relation: CHILD_OF,
            source: link.0,
            target: link.1
        }));
        assert!(hooks.waits_for_removals());
        assert!(hooks.on_spawn().waits_for(&spawned(VELOCITY)));
        assert!(
            hooks
                .on_despawn()
                .waits_for(&StructuralChange::Despawned { entity: e })
        );
        // No hooks: nothing waits.
        let none = HookSet::<u128>::NONE;
        assert!(!none.waits_for(&StructuralChange::Spawned {
            entity: e,
            mask: u128::MAX
        }));
        assert!(!none.waits_for_removals());
    }

    #[test]
    #[should_panic(expected = "name one component or tag")]
    fn a_hook_on_several_bits_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | VELOCITY, 0).on_add(POSITION | VELOCITY);
    }

    #[test]
    #[should_panic(expected = "name one relation")]
    fn a_link_hook_on_a_component_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | CHILD_OF, CHILD_OF).on_link(POSITION);
    }

    #[test]
    #[should_panic(expected = "a relation's hooks are `on_link`")]
    fn an_addition_hook_on_a_relation_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | CHILD_OF, CHILD_OF).on_remove(CHILD_OF);
    }

    #[test]
    fn pending_changes_come_out_in_order_once() {
        let mut pending = PendingHooks::<u64>::default();
        assert!(pending.is_empty());
        let changes = [1, 2, 3].map(|id| StructuralChange::Despawned { entity: entity(id) });
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
        assert_eq!(on_spawn(&spawned), Some(e));
        assert_eq!(on_spawn(&added), None);
        assert_eq!(on_add(&spawned, POSITION), Some(e));
        assert_eq!(on_add(&added, PLAYER), Some(e));
        assert_eq!(on_add(&added, VELOCITY), None);
        assert_eq!(on_add(&removed, PLAYER), None);
        assert_eq!(on_remove(&removed, PLAYER), Some(e));
        assert_eq!(on_remove(&removed, POSITION), None);
        assert_eq!(on_link(&linked, CHILD_OF), Some((e, target)));
        assert_eq!(on_link(&unlinked, CHILD_OF), None);
        assert_eq!(on_unlink(&unlinked, CHILD_OF), Some((e, target)));
        assert_eq!(on_unlink(&unlinked, 16), None);
        assert_eq!(on_despawn(&despawned), Some(e));
        assert_eq!(on_despawn(&spawned), None);
    }
}
