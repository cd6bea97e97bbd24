//! [`ComponentValues`]: a tuple of component values one entity is spawned with
//! (`(Position, Velocity)`), what a world's `spawn_values` takes from an iterator. Each element
//! names its column by its type, as a typed query's elements do (the marker of
//! [`ComponentColumn`], inferred, never written), and a batch moves each value into its
//! column once: the tuple's columns are taken out of their table for the batch
//! ([`BatchColumns`]), pushed to, and put back.

use alloc::vec::Vec;
use core::any::Any;

use crate::archetype::Archetype;
use crate::column::ColumnVisitor;
use crate::mask::Bitmask;
use crate::typed_query::{ComponentColumn, TypedTable};

/// A tuple of component values, one per element, each of a component of the world's table
/// type `T`: what a world's `spawn_values` spawns one entity with. `M` is the tuple of the
/// elements' markers (which component each means), inferred, never written.
///
/// Implemented for tuples of one to twelve components (`(Position,)`, `(Position, Velocity)`,
/// ...); two components of one type cannot be told apart by type, so a tuple names each
/// component by a type only it has.
///
/// ```
/// use archetypal::ecs;
///
/// #[derive(Default, Debug, Clone, Copy, PartialEq)]
/// pub struct Position { pub x: f32, pub y: f32 }
///
/// #[derive(Default, Debug, Clone, Copy, PartialEq)]
/// pub struct Velocity { pub x: f32, pub y: f32 }
///
/// ecs! {
///     World {
///         position: Position => POSITION,
///         velocity: Velocity => VELOCITY,
///     }
/// }
///
/// fn main() {
///     let mut world = World::new();
///     // One entity per tuple, each value moved into its column once; the tuple's order is
///     // free, each element finds its column by its type.
///     let herd = world.spawn_values((0..100).map(|i| {
///         (Velocity { x: 1.0, y: 0.0 }, Position { x: i as f32, y: 0.0 })
///     }));
///     assert_eq!(herd.len(), 100);
///     assert_eq!(world.get_position(herd[3]), Some(&Position { x: 3.0, y: 0.0 }));
///     assert_eq!(world.component_mask(herd[3]), Some(POSITION | VELOCITY));
/// }
/// ```
pub trait ComponentValues<T: TypedTable, M>: Sized {
    /// The components of the tuple: the mask of the table its entities live in.
    const MASK: u128;

    /// Whether no two elements name the same component (`spawn_values` panics otherwise,
    /// before touching the world).
    const DISTINCT: bool;

    /// The tuple's columns, `(Vec<A>, Vec<B>, ..)`, while a batch fills them.
    #[doc(hidden)]
    type Columns: Default;

    /// Exchanges each of `columns` with the column of `table` its element names.
    #[doc(hidden)]
    fn swap_columns(table: &mut T, columns: &mut Self::Columns);

    /// Makes room for `additional` more values in each column.
    #[doc(hidden)]
    fn reserve(columns: &mut Self::Columns, additional: usize);

    /// Moves each value onto the end of its column.
    #[doc(hidden)]
    fn push(self, columns: &mut Self::Columns);

    /// Cuts each column back to `rows` values.
    #[doc(hidden)]
    fn truncate(columns: &mut Self::Columns, rows: usize);
}

/// Exchanges `column` with the table's column of component bit `bit` (of the same type: the
/// bit is the one `ComponentColumn<V, _>` gives the column of `V`), as
/// [`Archetype::for_each_column`] walks the table: every test but the one of `bit` folds away.
struct SwapColumn<'a, M, V> {
    bit: M,
    column: &'a mut Vec<V>,
}

impl<M: Bitmask, V: 'static> ColumnVisitor<M> for SwapColumn<'_, M, V> {
    #[inline(always)]
    fn visit<C: Default + 'static>(&mut self, column: &mut Vec<C>, bit: M) {
        if bit == self.bit {
            let column: &mut dyn Any = column;
            // `ecs!` gives bit `bit` a column of `V`: the cast is to the type it has.
            if let Some(column) = column.downcast_mut::<Vec<V>>() {
                core::mem::swap(column, self.column);
            }
        }
    }
}

/// Exchanges `column` with the column of `table` that `ComponentColumn<V, M>` names.
#[inline]
pub(crate) fn swap_column<T: ComponentColumn<V, M>, V: 'static, M>(
    table: &mut T,
    column: &mut Vec<V>,
) {
    let bit = <T as Archetype>::Mask::narrow(<T as ComponentColumn<V, M>>::BIT);
    table.for_each_column(&mut SwapColumn { bit, column });
}

/// `ComponentValues` for a tuple of components, markers in a tuple of the same shape.
macro_rules! tuple_values {
    ($( ($element:ident, $marker:ident, $index:tt) ),+) => {
        impl<T: TypedTable, $($element: 'static, $marker),+> ComponentValues<T, ($($marker,)+)> for ($($element,)+)
        where
            $(T: ComponentColumn<$element, $marker>,)+
        {
            const MASK: u128 = 0 $(| <T as ComponentColumn<$element, $marker>>::BIT)+;
            const DISTINCT: bool = <Self as ComponentValues<T, ($($marker,)+)>>::MASK.count_ones() as usize == [$($index),+].len();

            type Columns = ($(Vec<$element>,)+);

            #[inline]
            fn swap_columns(table: &mut T, columns: &mut Self::Columns) {
                $(swap_column::<T, $element, $marker>(table, &mut columns.$index);)+
            }

            #[inline]
            fn reserve(columns: &mut Self::Columns, additional: usize) {
                $(columns.$index.reserve(additional);)+
            }

            #[inline(always)]
            fn push(self, columns: &mut Self::Columns) {
                $(columns.$index.push(self.$index);)+
            }

            #[inline]
            fn truncate(columns: &mut Self::Columns, rows: usize) {
                $(columns.$index.truncate(rows);)+
            }
        }
    };
}

/// [`tuple_values!`] for every prefix of the list: tuples of one element up to all of them.
macro_rules! tuples_values {
    ([$($done:tt)*]) => {};
    ([$($done:tt)*] $next:tt $($rest:tt)*) => {
        tuple_values!($($done,)* $next);
        tuples_values!([$($done)* $next] $($rest)*);
    };
}

tuples_values! {
    []
    (A, MA, 0)
    (B, MB, 1)
    (C, MC, 2)
    (D, MD, 3)
    (E, ME, 4)
    (F, MF, 5)
    (G, MG, 6)
    (H, MH, 7)
    (I, MI, 8)
    (J, MJ, 9)
    (K, MK, 10)
    (L, ML, 11)
}

/// The columns of a tuple of component values, taken out of their table while a batch pushes
/// onto them (local `Vec`s, whose lengths the optimizer keeps in registers), put back when
/// dropped: committed, with what was pushed; otherwise (the iterator panicked) cut back to
/// the rows the table had, so the table is as it was.
pub(crate) struct BatchColumns<'a, T: TypedTable, V: ComponentValues<T, M>, M> {
    table: &'a mut T,
    /// The tuple's columns (the table holds empty ones in their place meanwhile).
    columns: V::Columns,
    /// The table's rows before the batch.
    rows: usize,
    committed: bool,
}

impl<'a, T: TypedTable, V: ComponentValues<T, M>, M> BatchColumns<'a, T, V, M> {
    /// Takes the tuple's columns out of `table` (a table of mask `V::MASK`, aligned).
    #[inline]
    pub(crate) fn take(table: &'a mut T) -> Self {
        let rows = table.len();
        let mut columns = V::Columns::default();
        V::swap_columns(table, &mut columns);
        BatchColumns {
            table,
            columns,
            rows,
            committed: false,
        }
    }

    /// Moves each tuple of `values` onto the end of the columns, reserving once from the size
    /// hint; returns how many there were (exactly what the iterator yielded, whatever its
    /// hint said).
    #[inline(always)]
    pub(crate) fn push_all(&mut self, values: impl IntoIterator<Item = V>) -> usize {
        let values = values.into_iter();
        V::reserve(&mut self.columns, values.size_hint().0);
        let mut count = 0;
        for value in values {
            value.push(&mut self.columns);
            count += 1;
        }
        count
    }

    /// The table the columns were taken out of (its other columns still in it).
    #[inline]
    pub(crate) fn table(&mut self) -> &mut T {
        self.table
    }

    /// Keeps what was pushed when the columns go back.
    #[inline]
    pub(crate) fn commit(mut self) {
        self.committed = true;
    }
}

impl<T: TypedTable, V: ComponentValues<T, M>, M> Drop for BatchColumns<'_, T, V, M> {
    #[inline]
    fn drop(&mut self) {
        if !self.committed {
            V::truncate(&mut self.columns, self.rows);
        }
        V::swap_columns(self.table, &mut self.columns);
    }
}
