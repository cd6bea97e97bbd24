//! The per-column steps of a table's structural operations.
//!
//! A table keeps one `Vec` per component of the world; only the columns whose bit is in the
//! table's mask hold rows, the others stay empty. These helpers take one column and its
//! presence; the structural operations of `Archetype` apply them to every column through the
//! visitors of `visit`, and the generated code calls the few that build a struct per column.

use alloc::vec::Vec;

use crate::mask::Bitmask;

mod visit;

pub(crate) use visit::{
    AppendAll, ClearColumns, CountMisaligned, PushDefaults, RemoveRows, Reverse, Shift, SwapRows,
    TakeLast,
};
pub use visit::{ColumnPairVisitor, ColumnRefVisitor, ColumnVisitor};

/// Appends `count` default values to a present column. An `extend` from a mapped range
/// rather than `resize_with`, whose `Take<RepeatWith<..>>` adapters compile to more code for
/// every component type (in the game's crate, since they are generic); both are exact-size,
/// so a batch is written without a capacity check per value (a `memset` for a zero default).
#[inline]
pub fn push_defaults<C: Default>(column: &mut Vec<C>, present: bool, count: usize) {
    if present {
        column.extend((0..count).map(|_| C::default()));
    }
}

/// Removes `row` from a present column, moving the last value into its place. A value with
/// drop glue comes back for the caller to drop once the whole row is removed (a component `Drop`
/// that panics then cannot leave the other columns behind); one without is let go here, since
/// dropping it can neither panic nor do anything, and the caller gets `None`: a despawn then
/// writes no copy of a plain-data row (copying the row out was a large share of a despawn).
#[inline]
#[must_use = "drop the removed value after every column is compacted"]
pub fn swap_remove<C>(column: &mut Vec<C>, present: bool, row: usize) -> Option<C> {
    if !present {
        return None;
    }
    let value = column.swap_remove(row);
    core::mem::needs_drop::<C>().then_some(value)
}

/// The values of `row` a despawn takes out of a table of mask `mask`, one column at a time
/// ([`swap_remove`] per column): the generated `Archetype::swap_remove` calls
/// [`column`](Self::column) once per component, into the field of its removed-values struct
/// (and `Archetype::swap_remove_keeping` calls [`keeping`](Self::keeping), which sets the
/// values of the components `keep` aside for the hooks).
pub struct TakeRow<M> {
    mask: M,
    row: usize,
    keep: M,
}

impl<M: Bitmask> TakeRow<M> {
    /// Takes `row` out of every column of a table of mask `mask`.
    #[inline]
    pub fn new(mask: M, row: usize) -> Self {
        TakeRow {
            mask,
            row,
            keep: M::EMPTY,
        }
    }

    /// Takes `row` out of every column of a table of mask `mask`, keeping the values of the
    /// components of `keep` for the hooks, plain data included.
    #[inline]
    pub fn keeping(mask: M, row: usize, keep: M) -> Self {
        TakeRow { mask, row, keep }
    }

    /// Compacts the column of component bit `bit`, and puts the row's value into `kept` if
    /// the hooks keep it, else into `dropped` if it needs dropping.
    #[inline]
    pub fn column_keeping<C>(
        &self,
        dropped: &mut Option<C>,
        kept: &mut Option<C>,
        column: &mut Vec<C>,
        bit: M,
    ) {
        if !self.mask.intersects(bit) {
            return;
        }
        if self.keep.intersects(bit) {
            *kept = Some(column.swap_remove(self.row));
        } else {
            *dropped = swap_remove(column, true, self.row);
        }
    }

    /// Compacts the column of component bit `bit`, and puts the row's value into `slot` if it
    /// needs dropping.
    #[inline]
    pub fn column<C>(&self, slot: &mut Option<C>, column: &mut Vec<C>, bit: M) {
        *slot = swap_remove(column, self.mask.intersects(bit), self.row);
    }
}

/// Moves the value a migration parked past the last of `rows` rows (see [`ColumnEdit::Park`])
/// into `slot`, when the hooks keep it (`keep`): the column is then cut back to `rows`.
#[inline]
pub fn take_parked<C>(slot: &mut Option<C>, column: &mut Vec<C>, keep: bool, rows: usize) {
    if keep && column.len() > rows {
        *slot = column.pop();
    }
}

/// Exchanges rows `a` and `b` of a present column.
#[inline]
pub fn swap_rows<C>(column: &mut [C], present: bool, a: usize, b: usize) {
    if present {
        column.swap(a, b);
    }
}

/// One step of a migration on one column of one table, applied by the generated
/// [`Archetype::edit_column`](crate::archetype::Archetype::edit_column) to the column of a
/// component bit
/// (see [`edit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnEdit {
    /// Appends a default value (a component the migration adds).
    PushDefault,
    /// Moves the value of `row` to the end of the column (swapping it with the last value): a
    /// component the migration removes waits there, past the table's last row, until
    /// [`Truncate`](Self::Truncate) drops it once the storage's bookkeeping is done.
    Park {
        /// The row leaving the table.
        row: usize,
    },
    /// Drops the values past the first `rows` (parked values, or defaults a migration pushed
    /// before a `Default` panicked).
    Truncate {
        /// The table's number of rows.
        rows: usize,
    },
}

/// Applies `edit` to a column.
#[inline]
pub fn edit<C: Default>(column: &mut Vec<C>, edit: ColumnEdit) {
    match edit {
        ColumnEdit::PushDefault => column.push(C::default()),
        ColumnEdit::Park { row } => {
            if let Some(last) = column.len().checked_sub(1) {
                column.swap(row, last);
            }
        }
        // `truncate` shortens the column before dropping, so a `Drop` that panics leaves it
        // the right length.
        ColumnEdit::Truncate { rows } => column.truncate(rows),
    }
}

/// Moves the value of `row` of `source` to the end of `destination`, compacting `source` with
/// `swap_remove` (a component both tables of a migration hold: moved, never cloned).
#[inline]
pub fn move_value<C>(source: &mut Vec<C>, destination: &mut Vec<C>, row: usize) {
    destination.push(source.swap_remove(row));
}

/// A narrow world's migration step for one column (`Archetype::move_row`), once the defaults
/// are pushed: a value both tables hold moves to the end of `destination`, one only `source`
/// holds is parked (see [`ColumnEdit::Park`]); the others are untouched.
#[inline]
pub fn shift<C>(
    source: &mut Vec<C>,
    destination: &mut Vec<C>,
    row: usize,
    in_source: bool,
    in_destination: bool,
) {
    if in_source {
        if in_destination {
            move_value(source, destination, row);
        } else if let Some(last) = source.len().checked_sub(1) {
            source.swap(row, last);
        }
    }
}

/// Reserves room for `additional` rows in a present column.
#[inline]
pub fn reserve<C>(column: &mut Vec<C>, present: bool, additional: usize) {
    if present {
        column.reserve(additional);
    }
}

/// A column as a slice for a table view (`included`: the query's mask and the column's bit). A
/// column the query includes is cut to exactly `rows` (it always has that many), so once the
/// query's mask is inlined the compiler knows the slice's length and drops the bounds checks
/// of `table.position[index]` in the closure.
#[inline]
pub fn view<C, M: Bitmask>(column: &mut [C], included: M, rows: usize) -> &mut [C] {
    if !included.is_empty() {
        &mut column[..rows]
    } else {
        column
    }
}

/// Pushes `held` onto a column, or the default if there is no value, if the column is present
/// (`present`: the table's mask and the column's bit): an `EntityBuilder` spawn pushing the
/// values it holds.
#[inline]
pub fn push_held<C: Default, M: Bitmask>(column: &mut Vec<C>, held: Option<C>, present: M) {
    if !present.is_empty() {
        column.push(held.unwrap_or_default());
    }
}

/// Splits a column view at row `at`; an absent (empty) column splits into two empty halves.
#[inline]
pub fn split_at_mut<C>(column: &mut [C], present: bool, at: usize) -> (&mut [C], &mut [C]) {
    column.split_at_mut(if present { at } else { 0 })
}

/// [`split_at_mut`] for every column of a view of mask `mask`: the generated
/// `Archetype::split_view` calls [`column`](Self::column) once per component.
pub struct SplitAt<M> {
    mask: M,
    at: usize,
}

impl<M: Bitmask> SplitAt<M> {
    /// Splits every column of a view of mask `mask` at row `at`.
    #[inline]
    pub fn new(mask: M, at: usize) -> Self {
        SplitAt { mask, at }
    }

    /// The column of component bit `bit`, split.
    #[inline]
    pub fn column<'a, C>(&self, column: &'a mut [C], bit: M) -> (&'a mut [C], &'a mut [C]) {
        split_at_mut(column, self.mask.intersects(bit), self.at)
    }
}

/// Whether a column's length is wrong for a table of `rows` rows: a present column must have
/// one value per row, an absent one none.
#[inline]
pub fn misaligned<C>(column: &[C], present: bool, rows: usize) -> bool {
    column.len() != if present { rows } else { 0 }
}

#[cfg(test)]
mod tests;
