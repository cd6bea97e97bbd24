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
    /// The world's component bits: the values a removal may keep aside.
    component_bits: M,
    /// The world's relation bits: what `on_link` and `on_unlink` may name.
    relation_bits: M,
    spawned: bool,
    despawned: bool,
    added: M,
    removed: M,
    linked: M,
    unlinked: M,
    /// The components whose values a removal or a despawn keeps aside for the hooks to read:
    /// those some `on_remove` names, or every component with a world's `on_despawn`. The
    /// values of the others are dropped where they go, as in a world without hooks.
    kept: M,
}

impl<M: Bitmask> HookSet<M> {
    /// No hooks: the set of a world without a `Hooks` block (`Archetype::HOOKS`'s default).
    pub const NONE: Self = HookSet {
        entity_bits: M::EMPTY,
        component_bits: M::EMPTY,
        relation_bits: M::EMPTY,
        spawned: false,
        despawned: false,
        added: M::EMPTY,
        removed: M::EMPTY,
        linked: M::EMPTY,
        unlinked: M::EMPTY,
        kept: M::EMPTY,
    };

    /// Whether a hook waits for `change`: the storage records it for them if so. Inlined, so
    /// a world without hooks (every field constant and empty) compiles it away. A despawn
    /// waits when its entity had something an `on_remove` names, or for `on_despawn`: see
    /// [`waits_for_despawn`](Self::waits_for_despawn), which knows what it had.
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

    /// Whether a hook waits for the despawn of an entity that had the components and tags
    /// `had`: an `on_despawn`, or an `on_remove` of one of them.
    #[inline]
    pub(crate) fn waits_for_despawn(&self, had: M) -> bool {
        self.despawned || had.intersects(self.removed)
    }

    /// Whether a hook may wait for a despawn: an `on_despawn`, or any `on_remove`.
    #[inline]
    pub(crate) fn waits_for_despawns(&self) -> bool {
        self.despawned || !self.removed.is_empty()
    }

    /// The components whose values a removal or a despawn keeps aside for the hooks (see the
    /// field): empty without removal hooks, so nothing is kept.
    #[inline]
    pub(crate) fn kept(&self) -> M {
        self.kept
    }
}

/// The `const fn` builders, one impl per mask width (trait methods are not `const`).
macro_rules! hook_set_builders {
    ($($mask:ty),+) => {$(
        impl HookSet<$mask> {
            /// An empty set for a world whose component and tag bits are `entity_bits`, whose
            /// components are `component_bits` and whose relation bits are `relation_bits`.
            pub const fn new(entity_bits: $mask, component_bits: $mask, relation_bits: $mask) -> Self {
                HookSet {
                    entity_bits: entity_bits & !relation_bits,
                    component_bits,
                    relation_bits,
                    ..Self::NONE
                }
            }

            /// With a hook on every spawn.
            pub const fn on_spawn(mut self) -> Self {
                self.spawned = true;
                self
            }

            /// With a hook on every despawn, which reads every component the entity had: a
            /// despawn keeps all of its values aside for it.
            pub const fn on_despawn(mut self) -> Self {
                self.despawned = true;
                self.kept = self.component_bits;
                self
            }

            /// With a multi-world game's `on_despawn` recorded by this sub-world (its last):
            /// the despawn waits for it, but no value is kept aside for it (the game's hook
            /// gets the entity alone).
            pub const fn on_game_despawn(mut self) -> Self {
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
                // A component's value is kept aside for its hook (a tag has none).
                self.kept |= bit & self.component_bits;
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
        let hooks = HookSet::<u64>::new(
            POSITION | VELOCITY | PLAYER | CHILD_OF,
            POSITION | VELOCITY,
            CHILD_OF,
        )
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
        assert!(hooks.waits_for_despawns());
        assert!(hooks.waits_for_despawn(PLAYER));
        assert!(!hooks.waits_for_despawn(VELOCITY));
        assert_eq!(hooks.kept(), 0, "a tag has no value to keep");
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
        assert!(!none.waits_for_despawns());
    }

    #[test]
    #[should_panic(expected = "name one component or tag")]
    fn a_hook_on_several_bits_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | VELOCITY, POSITION | VELOCITY, 0)
            .on_add(POSITION | VELOCITY);
    }

    #[test]
    #[should_panic(expected = "name one relation")]
    fn a_link_hook_on_a_component_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | CHILD_OF, POSITION, CHILD_OF).on_link(POSITION);
    }

    #[test]
    #[should_panic(expected = "a relation's hooks are `on_link`")]
    fn an_addition_hook_on_a_relation_is_refused() {
        let _ = HookSet::<u64>::new(POSITION | CHILD_OF, POSITION, CHILD_OF).on_remove(CHILD_OF);
    }
}
