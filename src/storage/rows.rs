//! Every row's components by entity handle, mutably, with no structural change possible: lent
//! beside a relation's links (see [`Storage::split_relation`]), so a walk over a hierarchy can
//! write each entity while it reads its parent (transform propagation) without collecting the
//! walk first.

use super::Storage;
use super::relations::EMPTY_STORE;
use crate::change_ticks::TableTicks;
use crate::relation::RelationStore;
use crate::{Archetype, Bitmask, Entity, EntityAllocator, Tick};

/// The components of every live entity, by handle: values can be read and written, entities
/// neither spawned, despawned nor migrated. Writes through [`get_mut`](Self::get_mut) are
/// stamped for change detection, as the world's own `get_*_mut`.
pub struct RowsMut<'a, T: Archetype> {
    tables: &'a mut [T],
    ticks: &'a mut [TableTicks<T::Mask>],
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
        debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
        let location = self.allocator.claimed_location(entity)?;
        column(self.tables.get(location.table())?).get(location.row())
    }

    /// Mutable form of [`get`](Self::get); stamps the component as changed.
    #[inline]
    pub fn get_mut<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&mut T) -> &mut [C],
    ) -> Option<&mut C> {
        debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
        let location = self.allocator.claimed_location(entity)?;
        let value = column(self.tables.get_mut(location.table())?).get_mut(location.row())?;
        if T::TRACKED.intersects(bit) {
            if let Some(ticks) = self.ticks.get_mut(location.table()) {
                ticks.stamp_component(location.row(), bit, self.tick);
            }
        }
        Some(value)
    }
}

impl<T: Archetype> Storage<T> {
    /// The links of the relation `relation`, read-only, beside every component by handle,
    /// mutably (no link is empty when `relation` is not one relation's bit).
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
