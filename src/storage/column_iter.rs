//! The per-component column iterators (`query_position`, `iter_position_slices`,
//! `iter_position_slices_mut`) as named types.
//!
//! Each generated method returns one of these rather than an `impl Iterator`: an opaque return
//! type costs the compiler a hidden-type inference and a well-formedness check per method, and
//! there are three such methods per component on the world and on its component part. The
//! column is picked by a plain function pointer (the generated `__<World>ColumnRef::<field>`
//! / `__<World>ColumnMut::<field>`), called once per table, never per row.

use core::slice;

use super::{MatchingTables, MatchingTablesMut};
use crate::Archetype;

/// Every value of one component, table by table: what a generated `query_<component>()`
/// returns.
pub struct ColumnValues<'a, T: Archetype, C> {
    tables: MatchingTables<'a, T>,
    column: fn(&T) -> &[C],
    current: slice::Iter<'a, C>,
}

impl<'a, T: Archetype, C> ColumnValues<'a, T, C> {
    pub(super) fn new(tables: MatchingTables<'a, T>, column: fn(&T) -> &[C]) -> Self {
        ColumnValues {
            tables,
            column,
            current: [].iter(),
        }
    }
}

impl<'a, T: Archetype, C> Iterator for ColumnValues<'a, T, C> {
    type Item = &'a C;

    #[inline]
    fn next(&mut self) -> Option<&'a C> {
        loop {
            if let Some(value) = self.current.next() {
                return Some(value);
            }
            self.current = (self.column)(self.tables.next()?).iter();
        }
    }

    // A loop per table over its slice (`for_each`, `sum`, `count` run it) instead of a
    // `next` per value.
    #[inline]
    fn fold<B, F>(self, init: B, mut f: F) -> B
    where
        F: FnMut(B, &'a C) -> B,
    {
        let column = self.column;
        let accumulated = self.current.fold(init, &mut f);
        self.tables.fold(accumulated, |accumulated, table| {
            column(table).iter().fold(accumulated, &mut f)
        })
    }
}

/// One component's column of every table holding it, as slices: what a generated
/// `iter_<component>_slices()` returns.
pub struct ColumnSlices<'a, T: Archetype, C> {
    tables: MatchingTables<'a, T>,
    column: fn(&T) -> &[C],
}

impl<'a, T: Archetype, C> ColumnSlices<'a, T, C> {
    pub(super) fn new(tables: MatchingTables<'a, T>, column: fn(&T) -> &[C]) -> Self {
        ColumnSlices { tables, column }
    }
}

impl<'a, T: Archetype, C: 'a> Iterator for ColumnSlices<'a, T, C> {
    type Item = &'a [C];

    #[inline]
    fn next(&mut self) -> Option<&'a [C]> {
        self.tables.next().map(self.column)
    }
}

/// One component's column of every table holding it, as mutable slices: what a generated
/// `iter_<component>_slices_mut()` returns (the columns are stamped as changed when it is
/// made).
pub struct ColumnSlicesMut<'a, T: Archetype, C> {
    tables: MatchingTablesMut<'a, T>,
    column: fn(&mut T) -> &mut [C],
}

impl<'a, T: Archetype, C> ColumnSlicesMut<'a, T, C> {
    pub(super) fn new(tables: MatchingTablesMut<'a, T>, column: fn(&mut T) -> &mut [C]) -> Self {
        ColumnSlicesMut { tables, column }
    }
}

impl<'a, T: Archetype, C: 'a> Iterator for ColumnSlicesMut<'a, T, C> {
    type Item = &'a mut [C];

    #[inline]
    fn next(&mut self) -> Option<&'a mut [C]> {
        self.tables.next().map(self.column)
    }
}
