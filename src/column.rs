//! The per-column steps of a table's structural operations.
//!
//! A table keeps one `Vec` per component of the world; only the columns whose bit is in the
//! table's mask hold rows, the others stay empty. These helpers take one column and its
//! presence; the structural operations of `Archetype` apply them to every column through the
//! visitors of `visit`, and the generated code calls the few that build a struct per column.

use alloc::vec::Vec;

use crate::archetype::Archetype;
use crate::mask::Bitmask;

mod visit;

pub(crate) use visit::{
    AppendAll, CountMisaligned, PushDefaults, RemoveRows, Reverse, Shift, SwapRows, TakeLast,
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

/// Cuts every present column of a table back to the table's row count at creation if it is
/// dropped before [`commit`](Self::commit): a table pushing default rows column by column
/// guards itself with one, so a component `Default` that panics half-way leaves every column
/// as it was. One guard for the whole table, reached through [`table`](Self::table), rather
/// than a guard per column (all alive at once, which made the borrow checking of generated
/// code quadratic in the number of components).
pub struct TableRollback<'a, T: Archetype>(Truncating<'a, T>);

impl<'a, T: Archetype> TableRollback<'a, T> {
    /// Guards `table`, every present column of which has one value per row.
    #[inline]
    pub fn new(table: &'a mut T) -> Self {
        let (columns, rows) = (table.mask(), table.len());
        TableRollback(Truncating {
            table,
            columns,
            rows,
        })
    }

    /// The guarded table.
    #[inline]
    pub fn table(&mut self) -> &mut T {
        self.0.table
    }

    /// Keeps what was pushed.
    #[inline]
    pub fn commit(mut self) {
        self.0.columns = T::Mask::EMPTY;
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
/// [`column`](Self::column) once per component, into the field of its removed-values struct.
pub struct TakeRow<M> {
    mask: M,
    row: usize,
}

impl<M: Bitmask> TakeRow<M> {
    /// Takes `row` out of every column of a table of mask `mask`.
    #[inline]
    pub fn new(mask: M, row: usize) -> Self {
        TakeRow { mask, row }
    }

    /// Compacts the column of component bit `bit`, and puts the row's value into `slot` if it
    /// needs dropping.
    #[inline]
    pub fn column<C>(&self, slot: &mut Option<C>, column: &mut Vec<C>, bit: M) {
        *slot = swap_remove(column, self.mask.intersects(bit), self.row);
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
/// [`Archetype::edit_column`] to the column of a component bit
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

/// Moves `row` of `source` to the end of `destination` (a migration), column by column, for
/// the components either table holds only (the cost follows the row's width, not the
/// world's); the entity column is the caller's. Returns the components only `source` holds:
/// their values are parked past the source's last row (see [`ColumnEdit::Park`]), for the
/// storage to drop with [`drop_parked`] after its bookkeeping, so a component `Drop` that
/// panics finds the migration complete.
///
/// The defaults of the components only `destination` holds are pushed first: a `Default`
/// that panics has the pushed ones cut back and moves nothing.
#[inline]
pub fn move_row<T: Archetype>(source: &mut T, row: usize, destination: &mut T) -> T::Mask {
    let (from, to) = (source.mask(), destination.mask());
    push_added_defaults(from, destination);
    for bit in (from & to).bits() {
        source.move_column(bit, row, destination);
    }
    let removed = from & !to;
    for bit in removed.bits() {
        source.edit_column(bit, ColumnEdit::Park { row });
    }
    removed
}

/// Worlds of at most this many components migrate with a test per declared column
/// ([`shift`]) rather than a jump per column of the row ([`move_row`]): with few columns the
/// tests cost less than the jumps.
pub const UNROLLED_MIGRATION_COLUMNS: usize = 16;

/// A migration's first step: a default for every component `destination` holds and a row of
/// mask `from` lacks, pushed before anything moves. A `Default` that panics has the pushed
/// ones cut back, so nothing changed.
#[inline]
pub fn push_added_defaults<T: Archetype>(from: T::Mask, destination: &mut T) {
    let added = destination.mask() & !from;
    if added.is_single_bit() {
        // One default (the common case): a `Default` that panics pushes nothing.
        destination.edit_column(added.trailing_zeros(), ColumnEdit::PushDefault);
    } else if !added.is_empty() {
        let rows = destination.len();
        let mut pushed = Truncating {
            table: destination,
            columns: T::Mask::EMPTY,
            rows,
        };
        for bit in added.bits() {
            pushed.table.edit_column(bit, ColumnEdit::PushDefault);
            pushed.columns |= T::Mask::bit(bit);
        }
        // Every default made: keep them.
        pushed.columns = T::Mask::EMPTY;
    }
}

/// [`move_row`]'s step for one column, once the defaults are pushed: a value both tables hold
/// moves to the end of `destination`, one only `source` holds is parked (see
/// [`ColumnEdit::Park`]); the others are untouched.
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

/// Drops the values [`move_row`] parked in the columns of `columns` of `table`. A `Drop` that
/// panics still has the other columns cut back (on the way out), so the table stays aligned.
#[inline]
pub fn drop_parked<T: Archetype>(table: &mut T, columns: T::Mask) {
    if columns.is_empty() {
        return;
    }
    let rows = table.len();
    let mut parked = Truncating {
        table,
        columns,
        rows,
    };
    parked.run();
}

/// Cuts the columns of `columns` of `table` back to `rows` values, on drop too: a panic half
/// way (a component's `Default` or `Drop`) still leaves every listed column cut back.
struct Truncating<'a, T: Archetype> {
    table: &'a mut T,
    columns: T::Mask,
    rows: usize,
}

impl<T: Archetype> Truncating<'_, T> {
    fn run(&mut self) {
        while !self.columns.is_empty() {
            let bit = self.columns.trailing_zeros();
            // Off the list first: a `Drop` that panics is not run again on the way out.
            self.columns = self.columns.without_lowest_bit();
            self.table
                .edit_column(bit, ColumnEdit::Truncate { rows: self.rows });
        }
    }
}

impl<T: Archetype> Drop for Truncating<'_, T> {
    fn drop(&mut self) {
        self.run();
    }
}

/// Reserves room for `additional` rows in a present column.
#[inline]
pub fn reserve<C>(column: &mut Vec<C>, present: bool, additional: usize) {
    if present {
        column.reserve(additional);
    }
}

/// A column as a slice for a table view. A column the query includes is cut to exactly `rows`
/// (it always has that many), so once the query's mask is inlined the compiler knows the
/// slice's length and drops the bounds checks of `table.position[index]` in the closure.
#[inline]
pub fn view<C>(column: &mut [C], included: bool, rows: usize) -> &mut [C] {
    if included {
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
