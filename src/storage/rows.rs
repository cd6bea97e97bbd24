//! Every row's components by entity handle, mutably, with no structural change possible: lent
//! beside a relation's links (see [`Storage::split_relation`]), so a walk over a hierarchy can
//! write each entity while it reads its parent (transform propagation) without collecting the
//! walk first.

use super::Storage;
use super::relations::EMPTY_STORE;
use crate::archetype::{Archetype, TicksOf};
use crate::change_ticks::Written;
use crate::entity::{Entity, EntityRecords};
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::tick::Tick;

/// The components of every live entity, by handle: values can be read and written, entities
/// neither spawned, despawned nor migrated. Writes through [`get_mut`](Self::get_mut) are
/// stamped for change detection, as the world's own `get_*_mut`.
pub struct RowsMut<'a, T: Archetype> {
    tables: &'a mut [T],
    ticks: &'a mut [TicksOf<T>],
    records: &'a EntityRecords,
    tick: Tick,
}

impl<T: Archetype> RowsMut<'_, T> {
    /// Whether `entity` is alive.
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.records.is_alive(entity)
    }

    /// The component of `entity` in the column `column` picks, if it is alive and its table
    /// holds `bit` (the same path as [`Storage::get`]).
    #[inline]
    pub fn get<C>(&self, entity: Entity, bit: T::Mask, column: fn(&T) -> &[C]) -> Option<&C> {
        match row(self.records, self.tables, entity, bit) {
            Some((table, row)) => column(table).get(row),
            None => None,
        }
    }

    /// Mutable form of [`get`](Self::get); stamps the component as changed.
    #[inline]
    pub fn get_mut<C>(
        &mut self,
        entity: Entity,
        bit: T::Mask,
        column: fn(&mut T) -> &mut [C],
    ) -> Option<&mut C> {
        match row_mut(
            self.records,
            self.tables,
            self.ticks,
            self.tick,
            entity,
            bit,
        ) {
            Some((table, row)) => column(table).get_mut(row),
            None => None,
        }
    }
}

/// The table and row of `entity`, if it is alive, for the accessor of the component of bit
/// `bit`: the one path of [`Storage::get`] and [`RowsMut::get`], which index the column.
///
/// Kept to the loads it needs: the id's record (whose table index also says whether the id is
/// alive, see [`EntityRecords::claimed_location`]), the table. A table's column for a
/// component it lacks is empty, so the caller's bounds check on the row also answers whether
/// the table holds `bit`. Generic over the table type only, not the component: compiled once
/// per world, while each component's accessor is left with the column's bounds check.
#[inline]
pub(super) fn row<'t, T: Archetype>(
    records: &EntityRecords,
    tables: &'t [T],
    entity: Entity,
    bit: T::Mask,
) -> Option<(&'t T, usize)> {
    debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
    let location = records.claimed_location(entity)?;
    Some((tables.get(location.table())?, location.row()))
}

/// Mutable form of [`row`], stamping the component of bit `bit` as changed at `tick`: the one
/// path of [`Storage::get_mut`] and [`RowsMut::get_mut`].
///
/// The stamp comes before the caller's bounds check on the column: a component the table
/// lacks has no row stamps there, so stamping it changes nothing.
#[inline]
pub(super) fn row_mut<'t, T: Archetype>(
    records: &EntityRecords,
    tables: &'t mut [T],
    ticks: &mut [TicksOf<T>],
    tick: Tick,
    entity: Entity,
    bit: T::Mask,
) -> Option<(&'t mut T, usize)> {
    debug_assert!(bit.is_single_bit() && bit & !T::COMPONENTS == T::Mask::EMPTY);
    let location = records.claimed_location(entity)?;
    let row = location.row();
    // Folded at compile time: an `[untracked]` component's write costs no tick lookup.
    if !T::TRACKED.intersects(bit) {
        return Some((tables.get_mut(location.table())?, row));
    }
    // The table and its ticks through one bounds check (the two lists are always the same
    // length: `check_invariants` verifies it).
    let (table, ticks) = tables
        .iter_mut()
        .zip(ticks.iter_mut())
        .nth(location.table())?;
    ticks.stamp(Written::Row(row), bit, tick);
    Some((table, row))
}

impl<T: Archetype> Storage<T> {
    /// The links of the relation `relation`, read-only, beside every component by handle,
    /// mutably (no link is empty when `relation` is not one relation's bit).
    #[doc(hidden)]
    pub fn split_relation(&mut self, relation: T::Mask) -> (&RelationStore, RowsMut<'_, T>) {
        let store = Self::store_of(&self.relations, relation).unwrap_or(&EMPTY_STORE);
        let rows = RowsMut {
            tables: &mut self.tables,
            ticks: &mut self.ticks,
            records: &self.records,
            tick: self.tick,
        };
        (store, rows)
    }
}
