//! Every row's components by entity handle, mutably, with no structural change possible: lent
//! beside a relation's links (see [`Storage::split_relation`]), so a walk over a hierarchy can
//! write each entity while it reads its parent (transform propagation) without collecting the
//! walk first.

use super::Storage;
use super::relations::EMPTY_STORE;
use crate::change_ticks::{TicksOf, Written};
use crate::relation::RelationStore;
use crate::{Archetype, Bitmask, Entity, EntityAllocator, Tick};

/// The components of every live entity, by handle: values can be read and written, entities
/// neither spawned, despawned nor migrated. Writes through [`get_mut`](Self::get_mut) are
/// stamped for change detection, as the world's own `get_*_mut`.
pub struct RowsMut<'a, T: Archetype> {
    tables: &'a mut [T],
    ticks: &'a mut [TicksOf<T>],
    allocator: &'a EntityAllocator,
    tick: Tick,
}

impl<T: Archetype> RowsMut<'_, T> {
    /// Whether `entity` is alive.
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.allocator.is_alive(entity)
    }

    /// The component of `entity` in the column `column` picks, if it is alive and its table
    /// holds `bit` (the same path as [`Storage::get`]).
    #[inline]
    pub fn get<C>(
        &self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&T) -> &[C],
    ) -> Option<&C> {
        component(self.allocator, self.tables, entity, bit, column)
    }

    /// Mutable form of [`get`](Self::get); stamps the component as changed.
    #[inline]
    pub fn get_mut<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&mut T) -> &mut [C],
    ) -> Option<&mut C> {
        component_mut(
            self.allocator,
            self.tables,
            self.ticks,
            self.tick,
            entity,
            bit,
            column,
        )
    }
}

/// The component of `entity` in the column `column` picks, if the entity is alive and its
/// table holds `bit`: the one path of [`Storage::get`] and [`RowsMut::get`].
///
/// Kept to the loads it needs: the id's record (whose table index also says whether the id is
/// alive, see [`EntityAllocator::claimed_location`]), the table, the column. A table's column
/// for a component it lacks is empty, so the row's bounds check also answers whether the
/// table holds `bit`.
#[inline]
pub(super) fn component<'t, T: Archetype, C>(
    allocator: &EntityAllocator,
    tables: &'t [T],
    entity: Entity,
    bit: T::Mask,
    column: impl FnOnce(&'t T) -> &'t [C],
) -> Option<&'t C> {
    debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
    let location = allocator.claimed_location(entity)?;
    column(tables.get(location.table())?).get(location.row())
}

/// Mutable form of [`component`], stamping the component as changed at `tick`: the one path
/// of [`Storage::get_mut`] and [`RowsMut::get_mut`].
#[inline]
pub(super) fn component_mut<'t, T: Archetype, C>(
    allocator: &EntityAllocator,
    tables: &'t mut [T],
    ticks: &mut [TicksOf<T>],
    tick: Tick,
    entity: Entity,
    bit: T::Mask,
    column: impl FnOnce(&'t mut T) -> &'t mut [C],
) -> Option<&'t mut C> {
    debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
    let location = allocator.claimed_location(entity)?;
    // Folded at compile time: an `[untracked]` component's write costs no tick lookup.
    if !T::TRACKED.intersects(bit) {
        return column(tables.get_mut(location.table())?).get_mut(location.row());
    }
    // The table and its ticks through one bounds check (the two lists are always the same
    // length: `check_invariants` verifies it).
    let (table, ticks) = tables
        .iter_mut()
        .zip(ticks.iter_mut())
        .nth(location.table())?;
    let value = column(table).get_mut(location.row())?;
    ticks.stamp(Written::Row(location.row()), bit, tick);
    Some(value)
}

impl<T: Archetype> Storage<T> {
    /// The links of the relation `relation`, read-only, beside every component by handle,
    /// mutably (no link is empty when `relation` is not one relation's bit).
    #[doc(hidden)]
    pub fn split_relation(&mut self, relation: T::Mask) -> (&RelationStore, RowsMut<'_, T>) {
        let store = match Self::relation_index(relation) {
            Some(index) => &self.relations[index],
            None => &EMPTY_STORE,
        };
        let rows = RowsMut {
            tables: &mut self.tables,
            ticks: &mut self.ticks,
            allocator: &self.allocator,
            tick: self.tick,
        };
        (store, rows)
    }
}
