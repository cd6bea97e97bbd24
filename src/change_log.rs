//! The structural change log: spawns, despawns, and components or tags added and removed, in
//! order. Off by default (it costs an entry per change); once enabled it is an
//! [`EventChannel`] with a capacity: consumers read it with a cursor, and
//! one that falls behind the capacity is told how many entries it lost.

use core::mem::ManuallyDrop;

use crate::dropped::DropHere;
use crate::entity::Entity;
use crate::events::EventChannel;
use crate::mask::{Bitmask, over_mask};

/// One structural change, as recorded in the change log.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StructuralChange<M> {
    /// `entity` was spawned with these components and tags.
    Spawned {
        /// The new entity.
        entity: Entity,
        /// Its components and tags.
        mask: M,
    },
    /// `entity` was despawned.
    Despawned {
        /// The despawned entity.
        entity: Entity,
    },
    /// `entity` gained these components or tags (only the ones it did not have).
    Added {
        /// The entity.
        entity: Entity,
        /// What it gained.
        mask: M,
    },
    /// `entity` lost these components or tags (only the ones it had).
    Removed {
        /// The entity.
        entity: Entity,
        /// What it lost.
        mask: M,
    },
    /// `source` was linked to `target` in the relation whose bit is `relation` (and gained
    /// that bit, if it had no target before).
    Linked {
        /// The relation's bit (`CHILD_OF`).
        relation: M,
        /// The entity linked.
        source: Entity,
        /// Its new target.
        target: Entity,
    },
    /// `source` was unlinked from `target` in the relation whose bit is `relation`: by
    /// `remove_*`, a link replacing it, or a despawn of either (a cascade's included).
    Unlinked {
        /// The relation's bit (`CHILD_OF`).
        relation: M,
        /// The entity unlinked.
        source: Entity,
        /// Its former target.
        target: Entity,
    },
}

impl<M: Copy + PartialEq + Default> StructuralChange<M> {
    /// Whether the change adds or removes nothing (an empty mask): the change log skips it.
    pub(crate) fn is_empty_change(&self) -> bool {
        matches!(
            *self,
            StructuralChange::Added { mask, .. } | StructuralChange::Removed { mask, .. }
                if mask == M::default()
        )
    }
}

impl<M: Bitmask> StructuralChange<M> {
    /// Appends the change to `log`, unless it adds or removes nothing: the entry is written by
    /// code compiled once per mask width, in this crate (see the end of this file).
    #[inline]
    pub(crate) fn log_into(self, log: &mut EventChannel<Self>) {
        M::pick::<LogInto>(at_u64::log_into, at_u128::log_into)(self, log);
    }
}

impl<M> StructuralChange<M> {
    /// The entity the change is about (a link's or an unlink's source).
    pub fn entity(&self) -> Entity {
        match *self {
            StructuralChange::Spawned { entity, .. }
            | StructuralChange::Despawned { entity }
            | StructuralChange::Added { entity, .. }
            | StructuralChange::Removed { entity, .. } => entity,
            StructuralChange::Linked { source, .. } | StructuralChange::Unlinked { source, .. } => {
                source
            }
        }
    }
}

// ----- compiled once per mask width, in this crate ------------------------------------------

over_mask! {
    /// [`StructuralChange::log_into`]'s body.
    LogInto = fn(StructuralChange<M>, &mut EventChannel<StructuralChange<M>>);
    /// A change log's drop.
    DropLog = fn(&mut ManuallyDrop<EventChannel<StructuralChange<M>>>);
}

/// Logging at each mask width (`at_u64`, `at_u128`): not generic, so compiled here, and a
/// game's crate only calls it.
macro_rules! compiled_once {
    ($($width:ident: $mask:ty),*) => {$(
        mod $width {
            use core::mem::ManuallyDrop;

            use crate::change_log::StructuralChange;
            use crate::dropped::drop_value;
            use crate::events::EventChannel;

            pub(super) fn log_into(
                change: StructuralChange<$mask>,
                log: &mut EventChannel<StructuralChange<$mask>>,
            ) {
                if !change.is_empty_change() {
                    log.send(change);
                }
            }

            pub(super) fn drop_log(log: &mut ManuallyDrop<EventChannel<StructuralChange<$mask>>>) {
                drop_value(log);
            }
        }
    )*};
}

compiled_once!(at_u64: u64, at_u128: u128);

impl<M: Bitmask> DropHere for EventChannel<StructuralChange<M>> {
    #[inline]
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        M::pick::<DropLog>(at_u64::drop_log, at_u128::drop_log)(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_names_its_entity() {
        let entity = Entity::new(3, 1);
        let changes = [
            StructuralChange::Spawned { entity, mask: 1u64 },
            StructuralChange::Despawned { entity },
            StructuralChange::Added { entity, mask: 2 },
            StructuralChange::Removed { entity, mask: 2 },
        ];
        assert!(changes.iter().all(|change| change.entity() == entity));
    }
}
