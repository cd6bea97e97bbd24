//! [`Has`]: a query term telling whether each row's entity holds a component (bevy's `Has<C>`).

use core::marker::PhantomData;

use crate::typed_query::{
    ComponentColumn, Fetch, QueryAccess, ReadOnlyFetch, RowAt, Run, TypedTable,
};

/// A term of a query: whether the row's entity holds the component `C`, a `bool` per row (bevy's
/// `Has<C>`). Not a filter: the rows without `C` are there too, with `false`
/// (`Query<(Entity, Has<Shield>)>`; to keep only the ones with it, `With<Shield>`). Works in a
/// system's `Query` and in `typed_query` alike.
///
/// It reads no column, only which table the row is in, so it takes no access to `C`: a system
/// with `Has<C>` runs beside one that writes `C` (what an entity holds changes only at sync
/// points, never while systems run), and a query may write `C` beside another's `Has<C>`. For
/// a tag, ask the query: `query.has::<FROZEN, _>(entity)` (a tag is kept per row, not per
/// table).
pub struct Has<C>(PhantomData<fn() -> C>);

/// One run of rows as a [`Has`] term sees it: whether its table holds the component, and how
/// many rows an iterator has left.
#[doc(hidden)]
pub struct HasRows {
    holds: bool,
    left: usize,
}

impl<T, C, M> Fetch<T, M> for Has<C>
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = bool;
    type Taken<'v> = ();
    type Slices<'r> = HasRows;

    const ACCESS: QueryAccess = QueryAccess::NONE;

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(_taken: (), _columns: &T::Columns<'v>, run: &Run<'r, '_, T>) -> HasRows {
        HasRows {
            holds: T::has_column(run.mask),
            left: run.entities.len(),
        }
    }

    type Written = ();

    #[inline]
    fn row(slices: &mut HasRows, _written: &(), _row: RowAt) -> bool {
        slices.holds
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        slices.left = slices.left.checked_sub(1)?;
        Some(slices.holds)
    }
}

impl<T: TypedTable + ComponentColumn<C, M>, C: 'static, M> ReadOnlyFetch<T, M> for Has<C> {
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &bool) -> bool {
        *item
    }
}
