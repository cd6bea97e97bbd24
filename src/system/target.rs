//! [`Target`]: a query term that reads what a row's relation target holds, a turret's ship's
//! position: `Query<(&mut Position, Target<CHILD_OF, &Position, Without<Turret>>), With<Turret>>`.
//!
//! A term looks the target up per row (the relation's link, then the target's table and row)
//! and reads its row through the storage, shared. So it needs the storage shared beside the
//! query's written columns: a system's queries have it (a query with a term always gets its
//! written columns lent, see `storage/lending.rs`), and so does `typed_query_ref`; a
//! `typed_query`, which borrows the storage whole, does not. What a term reads is compared with
//! what is written apart from its query's own rows ([`TargetAccess`]): its filter, not the
//! query's, says which tables it can read.

use alloc::sync::Arc;
use core::marker::PhantomData;
use core::ops::Range;

use super::query::{QueryFilter, RelationOf, With};
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::storage::Storage;
use crate::storage::target_spans::{TargetSpan, span_at};
use crate::typed_query::{
    Fetch, QueryAccess, ReadOnlyFetch, RowAt, Run, SharedAnswer, TargetAccess, TypedQueryRef,
    TypedTable, to_mask,
};

/// A query term: what the target of each row in the relation `R` (a relation's name as a
/// type, `CHILD_OF`) gives through `D` (`&C`, `Option<&C>`, [`Entity`] or a tuple of them),
/// if the row has a target in `R` and the target holds what `D` requires and passes `F`
/// (`With<X>`, `Without<X>` or a tuple of them); `None` otherwise. `Target<CHILD_OF>` is the
/// target's handle. bevy writes the same with a second query and `get(child_of.parent())`.
///
/// The term reads the target's row; when the query writes a component the term reads, `F`
/// must keep the targets' tables apart from the query's own (`Without<Turret>` on the ship
/// side of a query of turrets), or the system does not compile.
pub struct Target<R, D = Entity, F = ()>(PhantomData<fn(R, D, F)>);

/// Marks the impl of a [`Target`] term: the markers of its relation, data and filter.
#[doc(hidden)]
pub struct TargetTerm<MR, MD, MF>(MR, MD, MF);

/// What a [`Target`] term holds for a run of rows: the rows' entities, the relation and the
/// storage the targets are looked up in, and the rows around the last one looked up that share
/// its target, with their item `I` (siblings often sit side by side: a ship's turrets were
/// spawned together). A row inside that span costs one comparison; the span is found once, out
/// of the loop that uses the items: in the spans the storage kept from an earlier pass over
/// the same rows and links ([`kept`](Self::kept), a long run's), or measured against the
/// target's list of sources ([`RelationStore::sharing_target`]).
#[doc(hidden)]
pub struct TargetRows<'r, T: TypedTable, I> {
    entities: &'r [Entity],
    links: &'r RelationStore,
    storage: &'r Storage<T>,
    /// The run's spans, kept by the storage (`None`: a short run, or the storage's were busy),
    /// and the next one a loop in row order looks at.
    kept: Option<Arc<[TargetSpan]>>,
    next_kept: usize,
    /// The rows around the last one looked up that have its target (or none), and its item.
    shared: SharedAnswer<Option<I>>,
    /// The row after the span and its target, found while the span was measured.
    next_target: Option<(usize, Option<Entity>)>,
    /// The next row `pop` hands out.
    next: usize,
}

impl<T, R, D, F, MR, MD, MF> Fetch<T, TargetTerm<MR, MD, MF>> for Target<R, D, F>
where
    T: RelationOf<R>,
    With<R>: QueryFilter<T, MR>,
    D: ReadOnlyFetch<T, MD>,
    F: QueryFilter<T, MF>,
{
    type Item<'s> = Option<D::Item<'s>>;
    type Taken<'v> = ();
    type Slices<'r> = TargetRows<'r, T, D::Item<'r>>;

    const ACCESS: QueryAccess = {
        assert!(
            F::CHANGED == 0 && F::ADDED == 0,
            "a `Target` term's filter takes `With<X>` and `Without<X>`, not `Changed` or `Added`"
        );
        let data = <D as Fetch<T, MD>>::ACCESS;
        let own = TargetAccess {
            reads: data.reads,
            include: (data.required | F::INCLUDE) & T::COMPONENT_BITS,
            exclude: F::EXCLUDE & T::COMPONENT_BITS,
        };
        QueryAccess {
            targets: TargetAccess::either(Some(own), data.targets),
            ..QueryAccess::NONE
        }
    };

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        _columns: &T::Columns<'v>,
        run: &Run<'r, '_, T>,
    ) -> Self::Slices<'r> {
        let storage = run.storage.expect(
            "a `Target` term reads other entities' rows through the storage, shared: use it in \
             a system's `Query` or in `typed_query_ref`, not in `typed_query`",
        );
        let relation = to_mask(<With<R> as QueryFilter<T, MR>>::INCLUDE);
        TargetRows {
            entities: run.entities,
            links: storage
                .relation(relation)
                .expect("`RelationOf` is implemented for the world's relations only"),
            storage,
            kept: storage.kept_target_spans(relation, run.entities),
            next_kept: 0,
            shared: SharedAnswer::none(None),
            next_target: None,
            next: 0,
        }
    }

    type Written = ();

    #[inline(always)]
    fn row<'s>(slices: &'s mut Self::Slices<'_>, _written: &'s (), row: RowAt) -> Self::Item<'s> {
        target_item::<T, D, F, MD, MF>(slices, row.index)
    }

    #[inline(always)]
    fn span(slices: &mut Self::Slices<'_>, row: usize) -> usize {
        if !slices.shared.covers(row) {
            share_target::<T, D, F, MD, MF>(slices, row);
        }
        // At least one row (`row` past the run gets an empty span, and `None`).
        slices.shared.rows_from(row)
    }

    #[inline(always)]
    fn row_in_span<'s>(
        slices: &'s mut Self::Slices<'_>,
        _written: &'s (),
        _row: RowAt,
    ) -> Self::Item<'s> {
        slices.shared.answer().as_ref().map(D::reborrow)
    }

    #[inline]
    fn pop<'r>(slices: &mut Self::Slices<'r>) -> Option<Self::Item<'r>> {
        let row = slices.next;
        if row >= slices.entities.len() {
            return None;
        }
        slices.next = row + 1;
        Some(target_item::<T, D, F, MD, MF>(slices, row))
    }
}

impl<T, R, D, F, MR, MD, MF> ReadOnlyFetch<T, TargetTerm<MR, MD, MF>> for Target<R, D, F>
where
    T: RelationOf<R>,
    With<R>: QueryFilter<T, MR>,
    D: ReadOnlyFetch<T, MD>,
    F: QueryFilter<T, MF>,
{
    #[inline]
    fn nothing_taken<'v>() -> Self::Taken<'v> {}

    #[inline]
    fn reborrow<'a, 'b: 'a>(item: &Self::Item<'b>) -> Self::Item<'a> {
        item.as_ref().map(D::reborrow)
    }
}

/// What the target of row `row` (below the run's length) gives through `D`, if it has one
/// that matches `F`: the shared span's item when the row is in it, otherwise looked up.
#[inline(always)]
fn target_item<'s, 'r: 's, T, D, F, MD, MF>(
    rows: &mut TargetRows<'r, T, D::Item<'r>>,
    row: usize,
) -> Option<D::Item<'s>>
where
    T: TypedTable,
    D: ReadOnlyFetch<T, MD>,
    F: QueryFilter<T, MF>,
{
    if !rows.shared.covers(row) {
        share_target::<T, D, F, MD, MF>(rows, row);
    }
    rows.shared.answer().as_ref().map(D::reborrow)
}

/// Makes the span of rows that holds `row` and share its target (or its lack of one) the
/// shared span, and looks up its item. Out of line: the loop over the rows keeps its registers
/// for its own values.
#[inline(never)]
fn share_target<'r, T, D, F, MD, MF>(rows: &mut TargetRows<'r, T, D::Item<'r>>, row: usize)
where
    T: TypedTable,
    D: ReadOnlyFetch<T, MD>,
    F: QueryFilter<T, MF>,
{
    let storage = rows.storage;
    let query = || {
        let query = TypedQueryRef::<T, D>::new(storage)
            .with(to_mask(F::INCLUDE))
            .without(to_mask(F::EXCLUDE));
        if F::DISABLED_ONLY {
            query.with(Bitmask::DISABLED)
        } else if F::ALLOW_DISABLED {
            query.allow_disabled()
        } else {
            query
        }
    };
    // A row past the run (outside `row`'s contract) gets an empty span and `None`.
    let (span, item) = match &rows.kept {
        Some(spans) => {
            let (span, target) =
                span_at(spans, &mut rows.next_kept, row).unwrap_or((row..row, None));
            let item = target.and_then(|(target, location)| query().get_at(target, location));
            (span, item)
        }
        None => {
            let (span, target) = measure_span(rows, row);
            (span, target.and_then(|target| query().get(target)))
        }
    };
    rows.shared.set(span, item);
}

/// The rows from `row` on that share its target, and the target, measured against the
/// target's list of sources; the target of the row after them is kept for the next span.
#[inline(always)]
fn measure_span<T: TypedTable, I>(
    rows: &mut TargetRows<'_, T, I>,
    row: usize,
) -> (Range<usize>, Option<Entity>) {
    let sources = rows.entities.get(row..).unwrap_or(&[]);
    let carried = match rows.next_target {
        Some((next, target)) if next == row => Some(target),
        _ => None,
    };
    let (target, same, after) = rows.links.target_span(sources, carried);
    rows.next_target = after.map(|after| (row + same, after));
    (row..row + same, target)
}
