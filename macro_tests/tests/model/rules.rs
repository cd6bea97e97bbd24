//! The world's rules as the model keeps them: the `Rules` block of the model's world written out
//! again as plain data, and what each structural change becomes under it, computed here by
//! fixpoints over that data (never through archetypal's `Rules`, its closures or its masks).
//!
//! - `NAME requires LEVEL [refuse]`: removing `LEVEL` while `NAME` stays is refused, and so is
//!   a switch of the group to another member;
//! - `FLAGS requires LEVEL`, `FLAGS requires POS` (the default policy): removing either removes
//!   `FLAGS` too, and a switch away from `LEVEL` takes `FLAGS` along;
//! - `exclusive(SCRATCH, LEVEL, HEALTH)`: adding one member removes the one held.

use super::*;

/// Every requirement: (requirer, required, refused when removed while the requirer stays).
pub(crate) const REQUIREMENTS: [(Comp, Comp, bool); 3] = [
    (Comp::Name, Comp::Level, true),
    (Comp::Flags, Comp::Level, false),
    (Comp::Flags, Comp::Pos, false),
];

/// The exclusive groups, as the `Rules` block lists them: in reverse of the world's order, since
/// a spawn naming several members keeps the one the world declares first, whatever the order
/// inside `exclusive(..)`.
pub(crate) const GROUPS: [&[Comp]; 1] = [&[Comp::Scratch, Comp::Level, Comp::Health]];

fn group_mask(group: &[Comp]) -> u64 {
    group.iter().fold(0, |mask, comp| mask | comp.bit())
}

/// The components `add` becomes when added together: what they require (transitively), one
/// member per group (the one the world declares first: the lowest bit), without whatever was left needing a member left out.
pub(crate) fn settle_added(add: u64) -> u64 {
    let mut added = add & ALL;
    loop {
        let before = added;
        for (requirer, required, _) in REQUIREMENTS {
            if added & requirer.bit() != 0 {
                added |= required.bit();
            }
        }
        if added == before {
            break;
        }
    }
    for group in GROUPS {
        let held = group.iter().filter(|comp| added & comp.bit() != 0);
        if let Some(kept) = held.min_by_key(|comp| comp.bit()) {
            added &= !(group_mask(group) & !kept.bit());
        }
    }
    loop {
        let before = added;
        for (requirer, required, _) in REQUIREMENTS {
            if added & required.bit() == 0 {
                added &= !requirer.bit();
            }
        }
        if added == before {
            break;
        }
    }
    added
}

/// The mask an entity spawned with `mask` gets: its tags (and any bit the world lacks, which
/// the world ignores) and its settled components.
pub(crate) fn spawn_mask(mask: u64) -> u64 {
    (mask & !ALL) | settle_added(mask)
}

/// The model entity a spawn of `mask` with `values` makes: the given values where the rules
/// keep their component, defaults for the others.
pub(crate) fn spawned(mask: u64, values: impl IntoIterator<Item = Value>) -> ModelEntity {
    let mask = spawn_mask(mask);
    let mut entity = ModelEntity::with_mask(mask);
    for value in values {
        if mask & value.comp().bit() != 0 {
            entity.put(value);
        }
    }
    entity
}

/// What goes when `remove` goes from an entity holding `current`: the components of `remove`
/// it holds and, transitively, those requiring one of them by the default policy; `None` when a
/// component that stays requires one that goes by a `[refuse]` requirement.
pub(crate) fn removal(current: u64, remove: u64) -> Option<u64> {
    let mut gone = remove & current & ALL;
    loop {
        let before = gone;
        for (requirer, required, refuse) in REQUIREMENTS {
            if !refuse && current & requirer.bit() != 0 && gone & required.bit() != 0 {
                gone |= requirer.bit();
            }
        }
        if gone == before {
            break;
        }
    }
    let refused = REQUIREMENTS.iter().any(|&(requirer, required, refuse)| {
        refuse && current & !gone & requirer.bit() != 0 && gone & required.bit() != 0
    });
    (!refused).then_some(gone)
}

/// What adding the components of `add` to an entity holding `current` does: the components
/// that go (members of a group `add` brings a member of, with their requirers) and those that
/// come (`add` settled, less what it holds); `None` when a `[refuse]` requirement refuses it.
pub(crate) fn addition(current: u64, add: u64) -> Option<(u64, u64)> {
    let added = settle_added(add);
    let displaced = GROUPS
        .iter()
        .map(|group| group_mask(group))
        .filter(|&group| added & group != 0)
        .fold(0, |displaced, group| displaced | (current & group & !added));
    let gone = removal(current, displaced)?;
    Some((gone, added & !current))
}
