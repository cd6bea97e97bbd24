//! The world's rules (`ecs!`'s `Rules` block): required components and exclusive groups, a
//! constant of the world's tables ([`Archetype::RULES`](crate::Archetype::RULES)). The
//! `const fn`s generated code calls build it from the pairs and groups the block lists, by
//! name, and close it at compile time: the transitive requirements of each component, a
//! cycle, an unknown name and a contradiction (a requirement pulling in two members of one
//! group) are compile errors in ecs!'s words. At run time every path that adds or removes
//! components asks [`Rules::settle`] (migrations) or [`Rules::spawn_mask`] (spawns) what the
//! change really is, one call each; a world without rules has [`Rules::NONE`], whose every
//! field is a constant empty mask, so both calls fold away and its code is what it was.

use alloc::format;
use alloc::string::String;

use crate::edges::Change;
use crate::mask::{Bitmask, MAX_MASK_BITS};
use crate::world_check::{fail, str_eq};

/// How many exclusive groups a world can declare (each holds two components at least).
pub const MAX_EXCLUSIVE_GROUPS: usize = MAX_MASK_BITS / 2;

/// A world's required components and exclusive groups, closed at compile time.
///
/// Requirements: adding a component adds what it requires, transitively, with `Default`
/// values (the ones given win), in the same migration. Removing a required component removes
/// the components that require it too (the default policy, `cascade`), or, for a requirement
/// declared `[refuse]`, refuses the removal while the requirer stays.
///
/// Exclusive groups: adding a member removes the group's other members in the same migration
/// (their requirers following the policy above). When one addition holds several members of a
/// group, the member the world declares first (the lowest bit; the order inside
/// `exclusive(..)` does not matter) wins and the others (and whatever required them) are left
/// out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules<M> {
    /// The world's name, for messages.
    world: &'static str,
    /// Whether the world is a sub-world of a multi-world game (its messages say so).
    sub_world: bool,
    /// The components' mask constants, in bit order (what rules name).
    names: &'static [&'static str],
    /// The world's component bits.
    components: M,
    /// Per component bit: what it requires, transitively (itself never: a cycle is refused).
    requires: [M; MAX_MASK_BITS],
    /// Per component bit: what it requires through `cascade` requirements only,
    /// transitively: removing one of these removes it.
    cascades: [M; MAX_MASK_BITS],
    /// Per component bit: what it requires directly by a `[refuse]` requirement: removing one
    /// of these while it stays is refused.
    refuses: [M; MAX_MASK_BITS],
    /// The components that require something.
    requirers: M,
    /// The components something requires.
    required: M,
    /// The components with a `[refuse]` requirement.
    refusers: M,
    /// The exclusive groups, `group_count` of them.
    groups: [M; MAX_EXCLUSIVE_GROUPS],
    group_count: usize,
    /// Every member of some group.
    exclusive: M,
}

impl<M: Bitmask> Rules<M> {
    /// No rules: the constant of a world without a `Rules` block (`Archetype::RULES`'s
    /// default), under which every change is what was asked.
    pub const NONE: Self = Rules {
        world: "",
        sub_world: false,
        names: &[],
        components: M::EMPTY,
        requires: [M::EMPTY; MAX_MASK_BITS],
        cascades: [M::EMPTY; MAX_MASK_BITS],
        refuses: [M::EMPTY; MAX_MASK_BITS],
        requirers: M::EMPTY,
        required: M::EMPTY,
        refusers: M::EMPTY,
        groups: [M::EMPTY; MAX_EXCLUSIVE_GROUPS],
        group_count: 0,
        exclusive: M::EMPTY,
    };

    /// Whether there are no rules: a constant, so the callers' rule paths fold away.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.requirers.is_empty() && self.exclusive.is_empty()
    }

    /// The components (and tags, kept) an entity spawned with `mask` gets: what they require
    /// added, one member per exclusive group kept (see [`Rules`]). `mask` itself without
    /// rules.
    #[inline(always)]
    pub(crate) fn spawn_mask(&self, mask: M) -> M {
        if self.is_empty() {
            return mask;
        }
        self.settle_spawn(mask)
    }

    fn settle_spawn(&self, mask: M) -> M {
        (mask & !self.components) | self.settle_added(mask & self.components)
    }

    /// The change a row of mask `current` really takes when `change` is asked (see
    /// [`Rules`]): the requested one without rules; `None` when a `[refuse]` requirement
    /// refuses it (nothing is to change).
    #[inline(always)]
    pub(crate) fn settle(&self, current: M, change: Change<M>) -> Option<Change<M>> {
        if self.is_empty() {
            return Some(change);
        }
        self.settle_change(current, change)
    }

    fn settle_change(&self, current: M, change: Change<M>) -> Option<Change<M>> {
        match change {
            Change::Add(add) => {
                let added = self.settle_added(add & self.components);
                let mut displaced = M::EMPTY;
                if added.intersects(self.exclusive) {
                    for &group in &self.groups[..self.group_count] {
                        if added.intersects(group) {
                            displaced |= current & group & !added;
                        }
                    }
                }
                let gone = self.removal(current, displaced)?;
                // Nothing added is gone: what `added` requires is in it, and none of it is
                // in a group it displaces.
                let add = added & !current;
                Some(match (add.is_empty(), gone.is_empty()) {
                    (_, true) => Change::Add(add),
                    (true, false) => Change::Remove(gone),
                    (false, false) => Change::Switch((current & !gone) | add),
                })
            }
            Change::Remove(remove) => self.removal(current, remove & current).map(Change::Remove),
            Change::Switch(_) => Some(change),
        }
    }

    /// `add` with what it requires, one member per exclusive group (the lowest bit: the one
    /// the world declares first), and without whatever required a member left out.
    fn settle_added(&self, add: M) -> M {
        let mut added = add;
        for bit in (add & self.requirers).bits() {
            added |= self.requires[bit as usize];
        }
        if !added.intersects(self.exclusive) {
            return added;
        }
        let mut left_out = M::EMPTY;
        for &group in &self.groups[..self.group_count] {
            left_out |= (added & group).without_lowest_bit();
        }
        if left_out.is_empty() {
            return added;
        }
        added &= !left_out;
        for bit in (added & self.requirers).bits() {
            if self.requires[bit as usize].intersects(left_out) {
                added &= !M::bit(bit);
            }
        }
        added
    }

    /// What goes when `remove` (components a row of mask `current` holds) goes: with every
    /// component requiring one of them through `cascade` requirements; `None` if a component
    /// that stays requires one of them by a `[refuse]` requirement.
    fn removal(&self, current: M, remove: M) -> Option<M> {
        if !remove.intersects(self.required) {
            return Some(remove);
        }
        let mut gone = remove;
        for bit in (current & self.requirers & !remove).bits() {
            if self.cascades[bit as usize].intersects(remove) {
                gone |= M::bit(bit);
            }
        }
        for bit in (current & self.refusers & !gone).bits() {
            if self.refuses[bit as usize].intersects(gone) {
                return None;
            }
        }
        Some(gone)
    }

    /// How a table of mask `mask` breaks the rules (a component without one it requires, two
    /// members of one exclusive group), if it does: `check_invariants` and a snapshot's load
    /// ask it of every table holding rows.
    pub(crate) fn broken_by(&self, mask: M) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        for bit in (mask & self.requirers).bits() {
            let missing = self.requires[bit as usize] & !mask;
            if !missing.is_empty() {
                return Some(format!(
                    "`{}` without `{}`, which it requires",
                    self.name(bit),
                    self.name(missing.trailing_zeros())
                ));
            }
        }
        for &group in &self.groups[..self.group_count] {
            let members = mask & group;
            if members.count_ones() > 1 {
                return Some(format!(
                    "`{}` and `{}`, members of one exclusive group, together",
                    self.name(members.trailing_zeros()),
                    self.name(members.without_lowest_bit().trailing_zeros())
                ));
            }
        }
        None
    }

    fn name(&self, bit: u32) -> &'static str {
        self.names.get(bit as usize).copied().unwrap_or("?")
    }
}

/// The `const fn` builders, one impl per mask width (trait methods are not `const`).
macro_rules! rules_builders {
    ($($mask:ty),+) => {$(
        impl Rules<$mask> {
            /// Empty rules for the world `world`, whose components' mask constants are
            /// `names`, in bit order.
            pub const fn new(world: &'static str, names: &'static [&'static str]) -> Self {
                Rules {
                    world,
                    names,
                    components: crate::mask::low_bits(names.len() as u32) as $mask,
                    ..Self::NONE
                }
            }

            /// Empty rules for the sub-world `world` of a multi-world game: [`new`](Self::new),
            /// whose messages say that a sub-world's rules name its own components only.
            pub const fn sub_world(world: &'static str, names: &'static [&'static str]) -> Self {
                Rules {
                    sub_world: true,
                    ..Self::new(world, names)
                }
            }

            /// With `requirer requires required`: removing `required` removes `requirer` too,
            /// or is refused while it stays (`refuse`).
            ///
            /// # Panics
            /// At compile time, where generated code evaluates it: a name that is not one of
            /// the world's components, or a component requiring itself.
            pub const fn requires(mut self, requirer: &str, required: &str, refuse: bool) -> Self {
                let from = self.index_of(requirer);
                let to = self.index_of(required);
                if from == to {
                    fail(&[
                        "ecs!: `", requirer, " requires ", required,
                        "` in the `Rules` block of `", self.world,
                        "`: a component cannot require itself",
                    ]);
                }
                let bit = 1 << to;
                self.requires[from] |= bit;
                if refuse {
                    self.refuses[from] |= bit;
                } else {
                    self.cascades[from] |= bit;
                }
                self
            }

            /// With the exclusive group `members`: an entity holds one of them at most.
            ///
            /// # Panics
            /// At compile time: an unknown name, a group of fewer than two components or
            /// naming one twice, or more groups than [`MAX_EXCLUSIVE_GROUPS`].
            pub const fn exclusive(mut self, members: &[&str]) -> Self {
                if members.len() < 2 {
                    fail(&[
                        "ecs!: an exclusive group in the `Rules` block of `", self.world,
                        "` names two components at least, like `exclusive(IDLE, MOVING)`",
                    ]);
                }
                if self.group_count == MAX_EXCLUSIVE_GROUPS {
                    fail(&["ecs!: `", self.world, "` declares more exclusive groups than it has pairs of components"]);
                }
                let mut group: $mask = 0;
                let mut index = 0;
                while index < members.len() {
                    let bit = 1 << self.index_of(members[index]);
                    if group & bit != 0 {
                        fail(&[
                            "ecs!: the exclusive group naming `", members[index],
                            "` in the `Rules` block of `", self.world, "` names it twice",
                        ]);
                    }
                    group |= bit;
                    index += 1;
                }
                self.groups[self.group_count] = group;
                self.group_count += 1;
                self.exclusive |= group;
                self
            }

            /// The rules closed: each component's requirements made transitive, then checked.
            ///
            /// # Panics
            /// At compile time: requirements forming a cycle, or a component that would hold
            /// two members of one exclusive group (itself and one it requires, or two it
            /// requires).
            pub const fn closed(mut self) -> Self {
                let count = self.names.len();
                // Warshall's closure, over every requirement and over the `cascade` ones.
                let mut through = 0;
                while through < count {
                    let mut from = 0;
                    while from < count {
                        if self.requires[from] & (1 << through) != 0 {
                            self.requires[from] |= self.requires[through];
                        }
                        if self.cascades[from] & (1 << through) != 0 {
                            self.cascades[from] |= self.cascades[through];
                        }
                        from += 1;
                    }
                    through += 1;
                }
                let mut component = 0;
                while component < count {
                    let requires = self.requires[component];
                    let own = 1 << component;
                    if requires & own != 0 {
                        fail(&[
                            "ecs!: the requirements in the `Rules` block of `", self.world,
                            "` form a cycle through `", self.names[component],
                            "`: a component cannot require itself, directly or through what it requires",
                        ]);
                    }
                    if requires != 0 {
                        self.requirers |= own;
                        self.required |= requires;
                    }
                    if self.refuses[component] != 0 {
                        self.refusers |= own;
                    }
                    let mut group = 0;
                    while group < self.group_count {
                        let members = (requires | own) & self.groups[group];
                        if members.count_ones() > 1 {
                            let first = self.names[members.trailing_zeros() as usize];
                            let second = self.names[(members & (members - 1)).trailing_zeros() as usize];
                            if members & own != 0 {
                                let other = if (1 << members.trailing_zeros()) == own { second } else { first };
                                fail(&[
                                    "ecs!: in `", self.world, "`, `", self.names[component],
                                    "` requires `", other,
                                    "`, a member of its own exclusive group: adding one would remove the other",
                                ]);
                            }
                            fail(&[
                                "ecs!: in `", self.world, "`, `", self.names[component],
                                "` requires both `", first, "` and `", second,
                                "`, members of one exclusive group: an entity can never hold both",
                            ]);
                        }
                        group += 1;
                    }
                    component += 1;
                }
                self
            }

            const fn index_of(&self, name: &str) -> usize {
                let mut index = 0;
                while index < self.names.len() {
                    if str_eq(self.names[index], name) {
                        return index;
                    }
                    index += 1;
                }
                if self.sub_world {
                    fail(&[
                        "ecs!: `", name, "` in the `Rules` block of the sub-world `", self.world,
                        "` is not one of its components' mask constants; a sub-world's rules name its own components only (a change in one sub-world cannot reach another)",
                    ])
                }
                fail(&[
                    "ecs!: `", name, "` in the `Rules` block of `", self.world,
                    "` is not a component's mask constant; rules name components, like `VELOCITY requires POSITION` or `exclusive(IDLE, MOVING)`",
                ])
            }
        }
    )+};
}

rules_builders!(u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &[
        "POSITION", "VELOCITY", "ACCEL", "IDLE", "MOVING", "TEAM", "TURRET",
    ];
    const POSITION: u64 = 1;
    const VELOCITY: u64 = 2;
    const ACCEL: u64 = 4;
    const IDLE: u64 = 8;
    const MOVING: u64 = 16;
    const TEAM: u64 = 32;
    const TURRET: u64 = 64;

    const RULES: Rules<u64> = Rules::<u64>::new("World", NAMES)
        .requires("VELOCITY", "POSITION", false)
        .requires("ACCEL", "VELOCITY", false)
        .requires("TURRET", "TEAM", true)
        .exclusive(&["IDLE", "MOVING"])
        .closed();

    #[test]
    fn requirements_are_transitive_and_spawns_get_them() {
        assert_eq!(RULES.spawn_mask(ACCEL), ACCEL | VELOCITY | POSITION);
        assert_eq!(RULES.spawn_mask(TURRET | 1 << 40), TURRET | TEAM | 1 << 40);
        assert_eq!(Rules::<u64>::NONE.spawn_mask(ACCEL), ACCEL);
        assert_eq!(
            RULES.settle(POSITION, Change::Add(ACCEL)),
            Some(Change::Add(ACCEL | VELOCITY))
        );
    }

    #[test]
    fn a_spawn_keeps_the_first_member_of_a_group() {
        assert_eq!(RULES.spawn_mask(IDLE | MOVING | POSITION), IDLE | POSITION);
    }

    #[test]
    fn an_addition_switches_a_group_in_one_change() {
        assert_eq!(
            RULES.settle(IDLE | POSITION, Change::Add(MOVING)),
            Some(Change::Switch(POSITION | MOVING))
        );
        assert_eq!(RULES.settle(IDLE, Change::Add(IDLE)), Some(Change::Add(0)));
    }

    #[test]
    fn removal_cascades_or_is_refused() {
        let all = POSITION | VELOCITY | ACCEL;
        assert_eq!(
            RULES.settle(all, Change::Remove(POSITION)),
            Some(Change::Remove(all))
        );
        assert_eq!(
            RULES.settle(all, Change::Remove(ACCEL)),
            Some(Change::Remove(ACCEL))
        );
        assert_eq!(RULES.settle(TURRET | TEAM, Change::Remove(TEAM)), None);
        assert_eq!(
            RULES.settle(TURRET | TEAM, Change::Remove(TEAM | TURRET)),
            Some(Change::Remove(TEAM | TURRET))
        );
    }

    #[test]
    fn broken_tables_are_named() {
        assert_eq!(RULES.broken_by(POSITION | VELOCITY), None);
        assert_eq!(
            RULES.broken_by(VELOCITY).as_deref(),
            Some("`VELOCITY` without `POSITION`, which it requires")
        );
        assert!(
            RULES
                .broken_by(IDLE | MOVING)
                .unwrap()
                .contains("exclusive")
        );
        assert_eq!(Rules::<u64>::NONE.broken_by(VELOCITY), None);
    }

    #[test]
    #[should_panic(expected = "form a cycle through `POSITION`")]
    fn a_cycle_is_refused() {
        let _ = Rules::<u64>::new("World", NAMES)
            .requires("POSITION", "VELOCITY", false)
            .requires("VELOCITY", "POSITION", false)
            .closed();
    }

    #[test]
    #[should_panic(expected = "`NOPE` in the `Rules` block of `World` is not")]
    fn an_unknown_name_is_refused() {
        let _ = Rules::<u128>::new("World", NAMES).requires("NOPE", "POSITION", false);
    }

    #[test]
    #[should_panic(expected = "a member of its own exclusive group")]
    fn a_member_requiring_its_group_is_refused() {
        let _ = Rules::<u64>::new("World", NAMES)
            .requires("MOVING", "IDLE", false)
            .exclusive(&["IDLE", "MOVING"])
            .closed();
    }

    #[test]
    #[should_panic(expected = "requires both `IDLE` and `MOVING`")]
    fn a_requirement_of_two_members_is_refused() {
        let _ = Rules::<u64>::new("World", NAMES)
            .requires("POSITION", "IDLE", false)
            .requires("POSITION", "MOVING", false)
            .exclusive(&["IDLE", "MOVING"])
            .closed();
    }
}
