//! Column visitors: one walk over a table's columns, written once in the generated code
//! ([`Archetype::for_each_column`](crate::Archetype::for_each_column) and its pair and shared
//! forms), and a small visitor per structural operation here. Each walk and each `visit` is
//! inlined, so an operation compiles to the same unrolled column-by-column code a hand-written
//! fan-out would.

use alloc::vec::Vec;

use crate::mask::Bitmask;

/// A step applied to every column of one table, one component at a time: the table's
/// [`for_each_column`](crate::Archetype::for_each_column) calls [`visit`](Self::visit) with
/// each component's column and mask bit (absent columns included: they are empty).
pub trait ColumnVisitor<M> {
    /// Visits the column of the component whose mask bit is `bit`.
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M);
}

/// A step applied to the same column of two tables of one world, one component at a time
/// (a migration): see [`for_each_column_pair`](crate::Archetype::for_each_column_pair).
pub trait ColumnPairVisitor<M> {
    /// Visits the column of the component whose mask bit is `bit` in both tables.
    fn visit<C: 'static>(&mut self, column: &mut Vec<C>, other: &mut Vec<C>, bit: M);
}

/// A look at every column of one table, shared: see
/// [`for_each_column_ref`](crate::Archetype::for_each_column_ref).
pub trait ColumnRefVisitor<M> {
    /// Visits the column of the component whose mask bit is `bit`.
    fn visit<C: 'static>(&mut self, column: &[C], bit: M);
}

/// Appends `count` default values to every column of `mask`.
pub(crate) struct PushDefaults<M> {
    pub mask: M,
    pub count: usize,
}

impl<M: Bitmask> ColumnVisitor<M> for PushDefaults<M> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        super::push_defaults(column, self.mask.intersects(bit), self.count);
    }
}

/// Empties every column of `mask`, dropping its values: a staged run's columns that the
/// world's rules leave out of its table (a member of an exclusive group).
pub(crate) struct ClearColumns<M> {
    pub mask: M,
}

impl<M: Bitmask> ColumnVisitor<M> for ClearColumns<M> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            column.clear();
        }
    }
}

/// Exchanges rows `a` and `b` of every column of `mask`.
pub(crate) struct SwapRows<M> {
    pub mask: M,
    pub a: usize,
    pub b: usize,
}

impl<M: Bitmask> ColumnVisitor<M> for SwapRows<M> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        super::swap_rows(column, self.mask.intersects(bit), self.a, self.b);
    }
}

/// A migration's moves once the defaults are pushed ([`shift`](super::shift) per column): the
/// values of `row` in a table of mask `from` go to a table of mask `to`.
pub(crate) struct Shift<M> {
    pub row: usize,
    pub from: M,
    pub to: M,
}

impl<M: Bitmask> ColumnPairVisitor<M> for Shift<M> {
    #[inline(always)]
    fn visit<C: 'static>(&mut self, source: &mut Vec<C>, destination: &mut Vec<C>, bit: M) {
        super::shift(
            source,
            destination,
            self.row,
            self.from.intersects(bit),
            self.to.intersects(bit),
        );
    }
}

/// Counts the columns whose length is wrong for a table of mask `mask` and `rows` rows.
pub(crate) struct CountMisaligned<M> {
    pub mask: M,
    pub rows: usize,
    pub misaligned: usize,
}

impl<M: Bitmask> ColumnRefVisitor<M> for CountMisaligned<M> {
    #[inline(always)]
    fn visit<C: 'static>(&mut self, column: &[C], bit: M) {
        self.misaligned += usize::from(super::misaligned(
            column,
            self.mask.intersects(bit),
            self.rows,
        ));
    }
}

/// Reverses every column of `mask` (a staging table's rows, so runs are taken from the end).
pub(crate) struct Reverse<M> {
    pub mask: M,
}

impl<M: Bitmask> ColumnVisitor<M> for Reverse<M> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            column.reverse();
        }
    }
}

/// Moves the last `count` values of the other table's columns of `mask`, last first, to the
/// end of this table's (a run taken from a reversed staging table, back in the order queued).
pub(crate) struct TakeLast<M> {
    pub mask: M,
    pub count: usize,
}

impl<M: Bitmask> ColumnPairVisitor<M> for TakeLast<M> {
    #[inline(always)]
    fn visit<C: 'static>(&mut self, column: &mut Vec<C>, other: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            let kept = other.len() - self.count;
            column.extend(other.drain(kept..).rev());
        }
    }
}

/// Moves every value of the other table's columns of `mask` to the end of this table's (a
/// staged run joining the world's table), leaving the other's memory for as many again: an
/// empty column with room for them trades buffers with the other (no copy: a table whose rows
/// all went since the last run, as a wave of spawns replacing the last), else they are
/// appended.
pub(crate) struct AppendAll<M> {
    pub mask: M,
}

impl<M: Bitmask> ColumnPairVisitor<M> for AppendAll<M> {
    #[inline(always)]
    fn visit<C: 'static>(&mut self, column: &mut Vec<C>, other: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            if column.is_empty() && !other.is_empty() && column.capacity() >= other.len() {
                core::mem::swap(column, other);
            } else {
                column.append(other);
            }
        }
    }
}

/// Removes the rows at `rows` (ascending) from every column of `mask`.
pub(crate) struct RemoveRows<'a, M> {
    pub mask: M,
    pub rows: &'a [usize],
}

impl<M: Bitmask> ColumnVisitor<M> for RemoveRows<'_, M> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            for &row in self.rows.iter().rev() {
                drop(column.remove(row));
            }
        }
    }
}
