//! The contract between the runtime and a generated table type.
//!
//! `ecs!` generates one struct-of-arrays table type per world (`ComponentArrays`) and implements
//! [`Archetype`] for it: the walks over its columns (one per kind: a table, two tables, a
//! shared table) and what builds a struct per column (views, a despawned row's values) or
//! jumps to one column. The structural operations over every column are written once here, as
//! visitors of those walks (`column::visit`), with the guards that cut every column back when
//! a component's `Default` or `Drop` panics half-way ([`TableRollback`]); everything else
//! (which table an entity lives in, migrations, caches, queries) is generic code in
//! [`Storage`](crate::Storage).

use alloc::vec::Vec;

use crate::change_ticks::{TableTicks, TickColumns};
use crate::column::{self, ColumnEdit, ColumnPairVisitor, ColumnRefVisitor, ColumnVisitor};
use crate::entity::Entity;
use crate::hooks::HookSet;
use crate::mask::Bitmask;
use crate::rules::Rules;

/// A struct-of-arrays table: the rows of every entity whose component set is [`mask`](Self::mask).
///
/// Implementations keep every present column (and the entity column) the same length; the
/// runtime relies on that, and [`Storage::check_invariants`](crate::Storage::check_invariants)
/// verifies it.
pub trait Archetype: Sized + 'static {
    /// The world's mask type (`u64` or `u128`).
    type Mask: Bitmask;

    /// A mutable view of the table whose columns are slices, so a closure given it can change
    /// values but never the number of rows.
    type ViewMut<'a>;

    /// What an entity lost (the generated `WorldRemoved`: the components and tags that went, a
    /// value per component): the values of a despawned row that need dropping, handed back by
    /// [`swap_remove`](Self::swap_remove) so that the storage drops them only once its own
    /// bookkeeping is done (a component `Drop` that panics then finds the world consistent;
    /// values without drop glue are let go at once; a migration parks the values it removes in
    /// their columns instead, see [`move_row`](Self::move_row)); and what a removal hook
    /// reads, the values kept aside for it (see [`swap_remove_keeping`](Self::swap_remove_keeping),
    /// [`keep_parked`](Self::keep_parked)).
    type Removed;

    /// The change ticks of a table, one column per component bit: an array the length of the
    /// world's component list, so a constant component bit reaches its column without a
    /// bounds check or a pointer to follow (a tracked `get_*_mut` pays one load less).
    type TickColumns: TickColumns;

    /// Every component bit of the world; table masks never hold other bits.
    const COMPONENTS: Self::Mask;

    /// Number of component bits (the lowest `COMPONENT_COUNT` bits of a mask).
    const COMPONENT_COUNT: usize;

    /// The components whose writes are tracked (all but those declared `[untracked]`).
    const TRACKED: Self::Mask;

    /// The world's tag bits, right above its component bits. Tags are never in a table's
    /// mask: each table keeps its rows grouped by tag signature instead.
    const TAGS: Self::Mask;

    /// The bits of the world's relations (`CHILD_OF`), the last bits of [`TAGS`](Self::TAGS):
    /// a linked source carries its relation's bit in its tag segment, set and cleared only by
    /// linking and unlinking (never by a spawn mask or `add_tags`).
    const RELATIONS: Self::Mask = Self::Mask::EMPTY;

    /// The relation bits whose despawn policy is `[cascade]`: despawning a target despawns
    /// its sources (the others are unlinked).
    const CASCADE: Self::Mask = Self::Mask::EMPTY;

    /// The structural changes the world's declared hooks (`ecs!`'s `Hooks` block) wait for;
    /// none by default. A constant, so a world without hooks records nothing for them and
    /// compiles to what it was without them.
    const HOOKS: HookSet<Self::Mask> = HookSet::NONE;

    /// The world's rules (`ecs!`'s `Rules` block: required components, exclusive groups),
    /// closed at compile time; none by default. A constant, so a world without rules compiles
    /// every structural change to what it was without them.
    const RULES: Rules<Self::Mask> = Rules::NONE;

    /// An empty table for `mask`.
    fn new(mask: Self::Mask) -> Self;

    /// The components this table holds.
    fn mask(&self) -> Self::Mask;

    /// The entity of every row.
    fn entities(&self) -> &[Entity];

    /// The entity column, for the structural operations to grow, shrink and reorder with the
    /// component columns.
    fn entities_mut(&mut self) -> &mut Vec<Entity>;

    /// Calls `visitor` once per component of the world, in declaration order, with the
    /// component's column and mask bit (absent columns too: they are empty). The one walk over
    /// the columns that the structural operations written once here share (push, row swaps);
    /// always inlined, so with the visitor's `visit` inlined too an operation compiles to the
    /// code of a fan-out written for it.
    fn for_each_column(&mut self, visitor: &mut impl ColumnVisitor<Self::Mask>);

    /// [`for_each_column`](Self::for_each_column) over this table and `other` together: the
    /// visitor gets both tables' column of each component (a migration's moves).
    fn for_each_column_pair(
        &mut self,
        other: &mut Self,
        visitor: &mut impl ColumnPairVisitor<Self::Mask>,
    );

    /// [`for_each_column`](Self::for_each_column) over a shared borrow (checks).
    fn for_each_column_ref(&self, visitor: &mut impl ColumnRefVisitor<Self::Mask>);

    /// Appends one row per entity, every present component default-initialised. A component
    /// `Default` that panics half-way has every column cut back: the table is as it was.
    #[inline]
    fn push_defaults(&mut self, entities: &[Entity]) {
        let (mask, count) = (self.mask(), entities.len());
        self.push_rows(entities.iter().copied(), |table| {
            table.for_each_column(&mut column::PushDefaults { mask, count })
        });
    }

    /// Appends one row per entity of `entities` (a batch's `slice.iter().copied()`, or one
    /// entity's `iter::once`, which keeps its handle out of memory), `fill` pushing the values
    /// of every present column (one per entity each). If `fill` panics half-way, every column
    /// is cut back: the table is as it was.
    #[inline]
    fn push_rows(&mut self, entities: impl Iterator<Item = Entity>, fill: impl FnOnce(&mut Self)) {
        let mut pushed = TableRollback::new(self);
        fill(pushed.table());
        pushed.commit();
        self.entities_mut().extend(entities);
    }

    /// Removes `row`, moving the last row into its place, and returns the row's values for the
    /// storage to drop once its own bookkeeping is done (every column is compacted first).
    fn swap_remove(&mut self, row: usize) -> Self::Removed;

    /// [`swap_remove`](Self::swap_remove) for a despawn the hooks wait for: the values of the
    /// components of `keep` go into the second `Removed`, whose mask is `had` (everything the
    /// entity had, tags included), for the hooks to read; the first holds the others that need
    /// dropping, dropped at once as by `swap_remove`.
    fn swap_remove_keeping(
        &mut self,
        row: usize,
        keep: Self::Mask,
        had: Self::Mask,
    ) -> (Self::Removed, Self::Removed);

    /// What an entity lost when it lost `mask` (components and tags), with no value yet.
    fn removed(mask: Self::Mask) -> Self::Removed;

    /// Moves the values a migration parked (see [`move_row`](Self::move_row)) in the columns
    /// of `keep` into `removed`, for the hooks to read; the others stay parked, to be dropped.
    fn keep_parked(&mut self, keep: Self::Mask, removed: &mut Self::Removed);

    /// Exchanges rows `a` and `b` in every column and the entity column (the storage keeps
    /// each table's rows grouped by tag signature this way, without migrating anything).
    #[inline]
    fn swap_rows(&mut self, a: usize, b: usize) {
        let mask = self.mask();
        self.for_each_column(&mut column::SwapRows { mask, a, b });
        self.entities_mut().swap(a, b);
    }

    /// Moves `row` to the end of `destination` (shared components moved, the destination's
    /// others default-initialised first), and the entity with it; this table is compacted
    /// with `swap_remove`. A world of at most `UNROLLED_MIGRATION_COLUMNS` components
    /// tests every column in turn (`column::shift` through
    /// [`for_each_column_pair`](Self::for_each_column_pair)), a wider one uses
    /// `move_row_wide`, which jumps to the columns the two masks name. Returns the
    /// components only this table holds: their values are parked past its last row, for the
    /// storage to drop with `drop_parked` once its bookkeeping is done.
    #[inline]
    fn move_row(&mut self, row: usize, destination: &mut Self) -> Self::Mask {
        let parked = if Self::COMPONENT_COUNT <= UNROLLED_MIGRATION_COLUMNS {
            let (from, to) = (self.mask(), destination.mask());
            push_added_defaults(from, destination);
            self.for_each_column_pair(destination, &mut column::Shift { row, from, to });
            from & !to
        } else {
            move_row_wide(self, row, destination)
        };
        let entity = self.entities_mut().swap_remove(row);
        destination.entities_mut().push(entity);
        parked
    }

    /// Applies `edit` to the column of component bit `index` (a bit of this table's mask, or
    /// of the components a migration adds, for `ColumnEdit::PushDefault`).
    fn edit_column(&mut self, index: u32, edit: ColumnEdit);

    /// Moves the value of component bit `index` (held by both tables) at `row` to the end of
    /// the same column of `destination`, compacting this column with `swap_remove`.
    fn move_column(&mut self, index: u32, row: usize, destination: &mut Self);

    /// The entity column and the mutable view, borrowed together. `include` must be a subset
    /// of the table's mask (a matched query's include mask, or the mask itself): those columns
    /// are cut to exactly the number of rows, which tells the optimizer their length.
    fn view_mut(&mut self, include: Self::Mask) -> (&[Entity], Self::ViewMut<'_>);

    /// The mutable view of this table's columns of `include` with `entities` as its entity
    /// column: the view of columns lent out of a table (see `storage/lending.rs`), whose own
    /// entity column stays behind. Its mask is `include` (of this table's): the lent columns,
    /// which must hold a value per entity.
    fn view_with<'a>(
        &'a mut self,
        entities: &'a [Entity],
        include: Self::Mask,
    ) -> Self::ViewMut<'a>;

    /// Splits a view at row `at` into the rows before and the rows from `at` on (used to hand
    /// chunks of one table to several threads).
    fn split_view<'a>(view: Self::ViewMut<'a>, at: usize)
    -> (Self::ViewMut<'a>, Self::ViewMut<'a>);

    /// Number of columns whose length differs from the entity column's (0 in a sound table).
    #[inline]
    fn misaligned_columns(&self) -> usize {
        let mut count = column::CountMisaligned {
            mask: self.mask(),
            rows: self.len(),
            misaligned: 0,
        };
        self.for_each_column_ref(&mut count);
        count.misaligned
    }

    /// Number of rows.
    #[inline]
    fn len(&self) -> usize {
        self.entities().len()
    }

    /// Whether the table has no rows.
    #[inline]
    fn is_empty(&self) -> bool {
        self.entities().is_empty()
    }
}

/// The change ticks of a table of `T`.
pub type TicksOf<T> = TableTicks<<T as Archetype>::Mask, <T as Archetype>::TickColumns>;

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

/// Moves `row` of `source` to the end of `destination` (a migration), column by column, for
/// the components either table holds only (the cost follows the row's width, not the
/// world's); the entity column is the caller's. Returns the components only `source` holds:
/// their values are parked past the source's last row (see [`ColumnEdit::Park`]), for the
/// storage to drop with [`drop_parked`] after its bookkeeping, so a component `Drop` that
/// panics finds the migration complete. What [`Archetype::move_row`] does in a world wider
/// than [`UNROLLED_MIGRATION_COLUMNS`].
///
/// The defaults of the components only `destination` holds are pushed first: a `Default`
/// that panics has the pushed ones cut back and moves nothing.
#[inline]
pub fn move_row_wide<T: Archetype>(source: &mut T, row: usize, destination: &mut T) -> T::Mask {
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
/// (`column::shift`) rather than a jump per column of the row ([`move_row_wide`]): with few
/// columns the tests cost less than the jumps.
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

/// Drops the values a migration ([`Archetype::move_row`]) parked in the columns of `columns` of `table`. A `Drop` that
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

#[cfg(test)]
mod tests;
