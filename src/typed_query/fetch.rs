//! [`Fetch`]: what each element of a typed query takes from a table (`Entity`, `&C`, `&mut C`,
//! `Option<&C>`, `Option<&mut C>`, tuples of them) and how it hands out one row's item (a
//! written column's, through [`WrittenColumn`]).

use core::cell::Cell;

use super::{ComponentColumn, Mut, QueryAccess, ReadOnlyFetch, RowAt, TypedTable, WrittenColumn};
use crate::archetype::Archetype;
use crate::change_ticks::TickCells;
use crate::entity::Entity;
use crate::storage::RunTags;
use crate::storage::Storage;
use crate::tick::Tick;

/// What the elements of a query get for one run of rows (a table, or the part of it a tag
/// filter lets through): the entities, the row stamps of the written components, the table's
/// mask, the tick writes are stamped with, and the storage shared when the query's written
/// columns were lent out of it (a `Target` term reads other entities' rows there).
#[doc(hidden)]
pub struct Run<'r, 'c, T: Archetype> {
    /// The entity of every row.
    pub entities: &'r [Entity],
    /// Where the run starts in the shared columns (0 when they come from a view of the run).
    pub first_row: usize,
    /// The row stamps of the tracked written components (of these rows).
    pub stamps: &'c TickCells<'r>,
    /// The table's mask.
    pub mask: T::Mask,
    /// The current tick.
    pub tick: Tick,
    /// The storage, shared (not when the query borrows it whole).
    pub storage: Option<&'r Storage<T>>,
    /// Where the rows sit among their table's tag segments.
    pub tags: RunTags<'r, T::Mask>,
}

/// Rows of a run that share one answer, as a fetch's [`span`](Fetch::span) measures them (a
/// [`Target`](crate::Target) term's target's item, whether the tags of a segment hold a
/// [`Has`](crate::Has) term's tag): a row inside costs one comparison, a row outside asks again.
#[doc(hidden)]
pub struct SharedAnswer<I> {
    from: usize,
    len: usize,
    answer: I,
}

impl<I> SharedAnswer<I> {
    /// No rows yet; `answer` until some are set.
    #[inline]
    pub(crate) const fn none(answer: I) -> Self {
        SharedAnswer {
            from: 0,
            len: 0,
            answer,
        }
    }

    /// Whether `row` is one of the rows.
    #[inline(always)]
    pub(crate) fn covers(&self, row: usize) -> bool {
        // One comparison covers both ends: a row before `from` wraps around to a large offset.
        row.wrapping_sub(self.from) < self.len
    }

    /// The rows `rows` now share `answer`.
    #[inline(always)]
    pub(crate) fn set(&mut self, rows: core::ops::Range<usize>, answer: I) {
        self.from = rows.start;
        self.len = rows.len();
        self.answer = answer;
    }

    /// How many rows from `row` (one of the rows, or any row when there are none) on share
    /// the answer: at least one.
    #[inline(always)]
    pub(crate) fn rows_from(&self, row: usize) -> usize {
        (self.from + self.len).saturating_sub(row).max(1)
    }

    /// The answer the rows share.
    #[inline(always)]
    pub(crate) fn answer(&self) -> &I {
        &self.answer
    }
}

/// What a typed query fetches per row: a component element, an [`Entity`], or a tuple of
/// fetches. `M` is the marker (or tuple of markers) that says which column each element
/// means; it is inferred, never written.
///
/// The methods are the query's plumbing, called once per table (`take`, `slices`) and once per
/// row (`row` in `for_each`, `pop` in an iterator); a user only names the implementing types.
pub trait Fetch<T: TypedTable, M> {
    /// What the closure gets for one row (`Mut<'s, Position>`, `(Entity, &'s Velocity)`, ...).
    type Item<'s>;
    /// The columns moved out of a table view before the shared ones are reborrowed.
    #[doc(hidden)]
    type Taken<'v>;
    /// The columns of one table (or run of rows), cut to its number of rows.
    #[doc(hidden)]
    type Slices<'r>;

    /// The components read and written, and whether the borrows conflict.
    const ACCESS: QueryAccess;

    /// Moves the mutably borrowed columns out of `view`.
    #[doc(hidden)]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> Self::Taken<'v>;

    /// Adds the shared columns and cuts every column to the run's number of rows.
    #[doc(hidden)]
    fn slices<'r, 'v: 'r>(
        taken: Self::Taken<'v>,
        columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> Self::Slices<'r>;

    /// Where `row`'s items record the rows written in a chunk (a word per written tracked
    /// column), kept apart from the slices so their pointers stay in registers.
    #[doc(hidden)]
    type Written: Default;

    /// The item of `row` (below the length `slices` cut to).
    #[doc(hidden)]
    fn row<'s>(
        slices: &'s mut Self::Slices<'_>,
        written: &'s Self::Written,
        row: RowAt,
    ) -> Self::Item<'s>;

    /// The item of the first row left, which leaves the slices (iterators).
    #[doc(hidden)]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>>;

    /// How many rows from `row` on (`row` included, at least one) the fetch looks up as one
    /// (the siblings of a [`Target`](crate::Target) term, which share a target; the rows of
    /// one tag segment, for a [`Has`](crate::Has) of a tag): a loop hands
    /// out their items through [`row_in_span`](Self::row_in_span), with no per-row test of
    /// the span. `usize::MAX` for a fetch that looks nothing up.
    #[doc(hidden)]
    #[inline(always)]
    fn span(_slices: &mut Self::Slices<'_>, _row: usize) -> usize {
        usize::MAX
    }

    /// The item of `row`, which lies in the span the last [`span`](Self::span) call measured
    /// (from a row at or before it).
    #[doc(hidden)]
    #[inline(always)]
    fn row_in_span<'s>(
        slices: &'s mut Self::Slices<'_>,
        written: &'s Self::Written,
        row: RowAt,
    ) -> Self::Item<'s> {
        Self::row(slices, written, row)
    }

    /// Whether the fetch writes a tracked component (then `for_each` runs in chunks).
    #[doc(hidden)]
    const STAMPS: bool = false;

    /// Stamps what the item of `row`, handed out by `row` at [`RowAt::alone`], wrote: a walk
    /// that visits rows one at a time and out of order (parents first) stamps each after its
    /// item is gone.
    #[doc(hidden)]
    #[inline]
    fn flush_row(_slices: &mut Self::Slices<'_>, _written: &Self::Written, _row: usize) {}

    /// Stamps what the items of rows `start..start + len` (handed out by `row`) wrote.
    #[doc(hidden)]
    #[inline]
    fn flush(_slices: &mut Self::Slices<'_>, _written: &Self::Written, _start: usize, _len: usize) {
    }

    /// The components every row of the run was written to, not stamped yet (after the last
    /// `flush`): the caller stamps them over the whole run at once.
    #[doc(hidden)]
    #[inline]
    fn all_written(_slices: &Self::Slices<'_>) -> u128 {
        0
    }
}

impl<T: TypedTable> Fetch<T, ()> for Entity {
    type Item<'s> = Entity;
    type Taken<'v> = ();
    type Slices<'r> = &'r [Entity];

    const ACCESS: QueryAccess = QueryAccess::NONE;

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        _columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> &'r [Entity] {
        run.entities
    }

    type Written = ();

    #[inline]
    fn row(slices: &mut &[Entity], _written: &(), row: RowAt) -> Entity {
        slices[row.index]
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        let (first, rest) = slices.split_first()?;
        *slices = rest;
        Some(*first)
    }
}

impl<T, C, M> Fetch<T, M> for &C
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = &'s C;
    type Taken<'v> = ();
    type Slices<'r> = &'r [C];

    const ACCESS: QueryAccess = QueryAccess::read(T::BIT, true);

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(_taken: (), columns: &T::Columns<'v>, run: &Run<'r, '_, T>) -> &'r [C] {
        &T::column(columns)[run.first_row..][..run.entities.len()]
    }

    type Written = ();

    #[inline]
    fn row<'s>(slices: &'s mut &[C], _written: &'s (), row: RowAt) -> &'s C {
        &slices[row.index]
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        let (first, rest) = slices.split_first()?;
        *slices = rest;
        Some(first)
    }
}

impl<T, C, M> Fetch<T, M> for &mut C
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = Mut<'s, C>;
    type Taken<'v> = &'v mut [C];
    type Slices<'r> = WrittenColumn<'r, C>;

    const ACCESS: QueryAccess = QueryAccess::write(T::BIT, true);

    #[inline]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> &'v mut [C] {
        T::take_column(view)
    }

    #[inline]
    fn slices<'r, 'v: 'r>(
        taken: &'v mut [C],
        _columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> WrittenColumn<'r, C> {
        WrittenColumn::new(taken, T::IS_TRACKED, T::BIT, run)
    }

    type Written = Cell<u64>;

    #[inline]
    fn row<'s>(
        slices: &'s mut WrittenColumn<'_, C>,
        written: &'s Cell<u64>,
        row: RowAt,
    ) -> Mut<'s, C> {
        slices.row(written, row, T::IS_TRACKED)
    }

    const STAMPS: bool = T::IS_TRACKED;

    #[inline]
    fn flush(slices: &mut Self::Slices<'_>, written: &Cell<u64>, start: usize, len: usize) {
        slices.flush(written, start, len, T::IS_TRACKED);
    }

    #[inline]
    fn flush_row(slices: &mut Self::Slices<'_>, written: &Cell<u64>, row: usize) {
        slices.flush_row(written, row, T::IS_TRACKED);
    }

    #[inline]
    fn all_written(slices: &Self::Slices<'_>) -> u128 {
        if slices.all_written(T::IS_TRACKED) {
            T::BIT
        } else {
            0
        }
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        slices.pop(T::IS_TRACKED)
    }
}

impl<T, C, M> Fetch<T, M> for Option<&C>
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = Option<&'s C>;
    type Taken<'v> = ();
    type Slices<'r> = Option<&'r [C]>;

    const ACCESS: QueryAccess = QueryAccess::read(T::BIT, false);

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> Option<&'r [C]> {
        T::has_column(run.mask).then(|| &T::column(columns)[run.first_row..][..run.entities.len()])
    }

    type Written = ();

    #[inline]
    fn row<'s>(slices: &'s mut Option<&[C]>, _written: &'s (), row: RowAt) -> Option<&'s C> {
        slices.map(|column| &column[row.index])
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        match slices {
            Some(column) => {
                let (first, rest) = column.split_first()?;
                *column = rest;
                Some(Some(first))
            }
            None => Some(None),
        }
    }
}

impl<T, C, M> Fetch<T, M> for Option<&mut C>
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = Option<Mut<'s, C>>;
    type Taken<'v> = &'v mut [C];
    type Slices<'r> = Option<WrittenColumn<'r, C>>;

    const ACCESS: QueryAccess = QueryAccess::write(T::BIT, false);

    #[inline]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> &'v mut [C] {
        T::take_column(view)
    }

    #[inline]
    fn slices<'r, 'v: 'r>(
        taken: &'v mut [C],
        _columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> Option<WrittenColumn<'r, C>> {
        T::has_column(run.mask).then(|| WrittenColumn::new(taken, T::IS_TRACKED, T::BIT, run))
    }

    type Written = Cell<u64>;

    #[inline]
    fn row<'s>(
        slices: &'s mut Option<WrittenColumn<'_, C>>,
        written: &'s Cell<u64>,
        row: RowAt,
    ) -> Option<Mut<'s, C>> {
        slices
            .as_mut()
            .map(|column| column.row(written, row, T::IS_TRACKED))
    }

    const STAMPS: bool = T::IS_TRACKED;

    #[inline]
    fn flush(slices: &mut Self::Slices<'_>, written: &Cell<u64>, start: usize, len: usize) {
        if let Some(column) = slices {
            column.flush(written, start, len, T::IS_TRACKED);
        }
    }

    #[inline]
    fn flush_row(slices: &mut Self::Slices<'_>, written: &Cell<u64>, row: usize) {
        if let Some(column) = slices {
            column.flush_row(written, row, T::IS_TRACKED);
        }
    }

    #[inline]
    fn all_written(slices: &Self::Slices<'_>) -> u128 {
        match slices {
            Some(column) if column.all_written(T::IS_TRACKED) => T::BIT,
            _ => 0,
        }
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        match slices {
            Some(column) => column.pop(T::IS_TRACKED).map(Some),
            None => Some(None),
        }
    }
}

/// `Fetch` for tuples of fetches: one item per element, markers in a tuple of the same shape.
macro_rules! tuple_fetch {
    ($( ($element:ident, $marker:ident, $index:tt) ),+) => {
        impl<T: TypedTable, $($element, $marker),+> Fetch<T, ($($marker,)+)> for ($($element,)+)
        where
            $($element: Fetch<T, $marker>,)+
        {
            type Item<'s> = ($($element::Item<'s>,)+);
            type Taken<'v> = ($($element::Taken<'v>,)+);
            type Slices<'r> = ($($element::Slices<'r>,)+);

            const ACCESS: QueryAccess = QueryAccess::NONE $(.and($element::ACCESS))+;

            #[inline]
            fn take<'v>(view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {
                ($($element::take(view),)+)
            }

            #[inline]
            fn slices<'r, 'v: 'r>(
                taken: Self::Taken<'v>,
                columns: &T::Columns<'v>,
                run: &Run<'r, '_, T>,
            ) -> Self::Slices<'r> {
                ($($element::slices(taken.$index, columns, run),)+)
            }

            type Written = ($($element::Written,)+);

            #[inline(always)]
            fn row<'s>(
                slices: &'s mut Self::Slices<'_>,
                written: &'s Self::Written,
                row: RowAt,
            ) -> Self::Item<'s> {
                ($($element::row(&mut slices.$index, &written.$index, row),)+)
            }

            #[inline]
            fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
                Some(($($element::pop(&mut slices.$index)?,)+))
            }

            #[inline(always)]
            fn span(slices: &mut Self::Slices<'_>, row: usize) -> usize {
                usize::MAX $(.min($element::span(&mut slices.$index, row)))+
            }

            #[inline(always)]
            fn row_in_span<'s>(
                slices: &'s mut Self::Slices<'_>,
                written: &'s Self::Written,
                row: RowAt,
            ) -> Self::Item<'s> {
                ($($element::row_in_span(&mut slices.$index, &written.$index, row),)+)
            }

            const STAMPS: bool = false $(|| $element::STAMPS)+;

            #[inline]
            fn flush(slices: &mut Self::Slices<'_>, written: &Self::Written, start: usize, len: usize) {
                $($element::flush(&mut slices.$index, &written.$index, start, len);)+
            }

            #[inline]
            fn flush_row(slices: &mut Self::Slices<'_>, written: &Self::Written, row: usize) {
                $($element::flush_row(&mut slices.$index, &written.$index, row);)+
            }

            #[inline]
            fn all_written(slices: &Self::Slices<'_>) -> u128 {
                0 $(| $element::all_written(&slices.$index))+
            }
        }

        impl<T: TypedTable, $($element, $marker),+> ReadOnlyFetch<T, ($($marker,)+)> for ($($element,)+)
        where
            $($element: ReadOnlyFetch<T, $marker>,)+
        {
            #[inline]
            fn nothing_taken<'v>() -> Self::Taken<'v> {
                ($($element::nothing_taken(),)+)
            }

            #[inline]
            fn reborrow<'a, 'b: 'a>(item: &Self::Item<'b>) -> Self::Item<'a> {
                ($($element::reborrow(&item.$index),)+)
            }
        }
    };
}

/// [`tuple_fetch!`] for every prefix of the list: tuples of one element up to all of them.
macro_rules! tuple_fetches {
    ([$($done:tt)*]) => {};
    ([$($done:tt)*] $next:tt $($rest:tt)*) => {
        tuple_fetch!($($done,)* $next);
        tuple_fetches!([$($done)* $next] $($rest)*);
    };
}

tuple_fetches! {
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
