//! [`Has`]: a query term telling whether each row's entity holds a component or carries a tag
//! (bevy's `Has<C>`).

use core::marker::PhantomData;

use super::query::{Disabled, TagOf};
use crate::mask::Bitmask;
use crate::typed_query::{
    ComponentColumn, Fetch, QueryAccess, ReadOnlyFetch, RowAt, Run, RunTags, SharedAnswer,
    TypedTable, to_mask,
};

/// A term of a query: whether the row's entity holds the component `C`, or carries the tag (or
/// relation) `C`, or, for `Has<Disabled>`, is disabled (in a query that lets disabled entities
/// in: `Allow<Disabled>`), a `bool` per row (bevy's `Has<C>`): `Has<Shield>`, `Has<FROZEN>`.
/// Not a filter: the rows without it are there too, with `false` (`Query<(Entity,
/// Has<FROZEN>)>`; to keep only the ones with it, `With<FROZEN>`). Works in a system's `Query`
/// and in `typed_query` alike.
///
/// It reads no column, only which table the row is in (a component) or which of its table's
/// tag segments (a tag: the rows of one set of tags sit together, so a run of them costs one
/// lookup), so it takes no access to `C`: a system with `Has<C>` runs beside one that writes
/// `C` (what an entity holds changes only at sync points, never while systems run), and a
/// query may write `C` beside another's `Has<C>`.
pub struct Has<C>(PhantomData<fn() -> C>);

/// Marks the impl of [`Has`] of a component (`M`: the component's marker).
#[doc(hidden)]
pub struct HasComponent<M>(M);

/// Marks the impl of [`Has`] of a tag or relation.
#[doc(hidden)]
pub struct HasTag;

/// Marks the impl of [`Has`] of [`Disabled`].
#[doc(hidden)]
pub struct HasDisabled;

/// One run of rows as a [`Has`] term of a table's property sees it (a component, or being
/// disabled): whether its table has it, and how many rows an iterator has left.
#[doc(hidden)]
pub struct HasRows {
    holds: bool,
    left: usize,
}

/// The [`Fetch`] and [`ReadOnlyFetch`] impls of a [`Has`] term whose answer is its table's:
/// `$holds` says it from the run's table mask.
macro_rules! table_property_term {
    (impl<$($param:ident),*> Has<$of:ty>, $marker:ty, where [$($bounds:tt)*], |$mask:ident| $holds:expr) => {
        impl<$($param),*> Fetch<T, $marker> for Has<$of>
        where
            $($bounds)*
        {
            type Item<'s> = bool;
            type Taken<'v> = ();
            type Slices<'r> = HasRows;

            const ACCESS: QueryAccess = QueryAccess::NONE;

            #[inline]
            fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

            #[inline]
            fn slices<'r, 'v: 'r>(
                _taken: (),
                _columns: &T::Columns<'v>,
                run: &Run<'r, '_, T>,
            ) -> HasRows {
                let $mask = run.mask;
                HasRows {
                    holds: $holds,
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

        impl<$($param),*> ReadOnlyFetch<T, $marker> for Has<$of>
        where
            $($bounds)*
        {
            #[inline]
            fn nothing_taken<'v>() -> Self::Taken<'v> {}

            #[inline]
            fn reborrow<'a, 'b: 'a>(item: &bool) -> bool {
                *item
            }
        }
    };
}

table_property_term!(
    impl<T, C, M> Has<C>, HasComponent<M>,
    where [T: TypedTable + ComponentColumn<C, M>, C: 'static],
    |mask| T::has_column(mask)
);

table_property_term!(
    impl<T> Has<Disabled>, HasDisabled,
    where [T: TypedTable],
    |mask| mask.contains(T::Mask::DISABLED)
);

/// One run of rows as a [`Has`] term of a tag sees it: where the rows sit among their table's
/// tag segments, and the rows around the last one asked for that carry the same tags (its
/// segment), with whether those include the tag.
#[doc(hidden)]
pub struct HasTagRows<'r, M> {
    tags: RunTags<'r, M>,
    tag: M,
    segment: SharedAnswer<bool>,
    /// How many rows the run has, and the next one an iterator hands out.
    rows: usize,
    next: usize,
}

impl<M: Bitmask> HasTagRows<'_, M> {
    /// Whether row `row` of the run carries the tag; the segment of `row` becomes the one
    /// remembered.
    #[inline(always)]
    fn holds_at(&mut self, row: usize) -> bool {
        if !self.segment.covers(row) {
            let (tags, same) = self.tags.at(row);
            self.segment
                .set(row..row.saturating_add(same), tags.contains(self.tag));
        }
        *self.segment.answer()
    }
}

impl<T: TagOf<X>, X> Fetch<T, HasTag> for Has<X> {
    type Item<'s> = bool;
    type Taken<'v> = ();
    type Slices<'r> = HasTagRows<'r, T::Mask>;

    const ACCESS: QueryAccess = QueryAccess::NONE;

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        _columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> HasTagRows<'r, T::Mask> {
        HasTagRows {
            tags: run.tags,
            tag: to_mask(<T as TagOf<X>>::BIT),
            segment: SharedAnswer::none(false),
            rows: run.entities.len(),
            next: 0,
        }
    }

    type Written = ();

    #[inline(always)]
    fn row(slices: &mut Self::Slices<'_>, _written: &(), row: RowAt) -> bool {
        slices.holds_at(row.index)
    }

    #[inline(always)]
    fn span(slices: &mut Self::Slices<'_>, row: usize) -> usize {
        slices.holds_at(row);
        slices.segment.rows_from(row)
    }

    #[inline(always)]
    fn row_in_span(slices: &mut Self::Slices<'_>, _written: &(), _row: RowAt) -> bool {
        *slices.segment.answer()
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        let row = slices.next;
        if row >= slices.rows {
            return None;
        }
        slices.next = row + 1;
        Some(slices.holds_at(row))
    }
}

impl<T: TagOf<X>, X> ReadOnlyFetch<T, HasTag> for Has<X> {
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &bool) -> bool {
        *item
    }
}
