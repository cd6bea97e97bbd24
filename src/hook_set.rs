//! Which structural changes a world's declared hooks wait for ([`HookSet`]): a constant of the
//! world's tables (`Archetype::HOOKS`), built and checked at compile time by the `const fn`s
//! generated code calls, so a world without hooks records nothing for them. The hooks run at
//! the world's sync point (`hooks.rs`).

use crate::change_log::StructuralChange;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;

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
}
