//! The row loops of typed queries: how `for_each` visits a run of rows (the change filter's
//! verdict, the written rows recorded a chunk at a time and stamped, the items of the rows
//! that pass: [`visit_run`]), how `get` builds one row's item ([`row_item`]), and the loops a
//! shared query runs over every row or only the rows written since a tick.

use super::filter::{self, ChangeFilter};
use super::{CHUNK, Fetch, RowAt, Run, RunTags, TypedTable, to_mask};
use crate::change_ticks::{ReadStamps, TickCells, Written, for_each_newer};
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::{Storage, WalkedRun};
use crate::tick::Tick;

/// The row loop of a query that writes tracked components, over the first `rows` rows:
/// chunks of rows, each written column recording its written rows as bits of a word (kept
/// apart from the slices, so the column pointers stay in registers), stamped once per chunk.
/// Returns the components every row was written to (not stamped yet: the caller stamps them
/// once for the whole run).
#[inline(always)]
fn visit_chunks<T, Q, M, F>(
    slices: &mut Q::Slices<'_>,
    rows: usize,
    test: Option<&filter::RowTest<'_, T::Mask>>,
    f: &mut F,
) -> u128
where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
{
    let written = Q::Written::default();
    let mut start = 0;
    while start < rows {
        let end = rows.min(start + CHUNK);
        // Once a chunk came back written whole, the closure likely writes every row: the
        // rest goes four rows per step (see `visit_by_four`). A closure that writes some rows
        // keeps the plain loop, where its branches cost less.
        if test.is_none() && Q::all_written(slices) != 0 {
            visit_by_four::<T, Q, M, F>(slices, &written, start..end, f);
        } else {
            visit::<T, Q, M, F>(slices, &written, start..end, test, f);
        }
        Q::flush(slices, &written, start, end - start);
        start = end;
    }
    Q::all_written(slices)
}

/// Calls `f` with the item of every row of `rows` (one chunk), four rows per step, each row's
/// bit in the written-rows word shifted along from the step's first rather than set from its
/// index. On `tracking_typed` (`benches/`), the plain loop's cost over the `[untracked]` loop
/// swung from one process to the next; this one stays level with it.
#[inline(always)]
fn visit_by_four<T, Q, M, F>(
    slices: &mut Q::Slices<'_>,
    written: &Q::Written,
    rows: core::ops::Range<usize>,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
{
    // Span by span (one span, all the rows, without a `Target` term): inside one, no fetch
    // tests per row whether its lookup still holds.
    let mut start = rows.start;
    while start < rows.end {
        let end = rows.end.min(start.saturating_add(Q::span(slices, start)));
        let steps = (end - start) / 4;
        let mut first = RowAt::new(start);
        for _ in 0..steps {
            f(Q::row_in_span(slices, written, first));
            f(Q::row_in_span(slices, written, first.plus(1)));
            f(Q::row_in_span(slices, written, first.plus(2)));
            f(Q::row_in_span(slices, written, first.plus(3)));
            first = first.plus(4);
        }
        // The last rows (fewer than four) without a loop: a loop is prepared as if it could
        // be long (its trip count worked out, a vector path chosen), which costs more than
        // its rows in short spans (a ship's ten turrets).
        let left = end - first.index;
        if left > 0 {
            f(Q::row_in_span(slices, written, first));
        }
        if left > 1 {
            f(Q::row_in_span(slices, written, first.plus(1)));
        }
        if left > 2 {
            f(Q::row_in_span(slices, written, first.plus(2)));
        }
        start = end;
    }
}

/// Calls `f` with the item of every row of `rows`, span by span (see [`Fetch::span`]).
#[inline(always)]
pub(crate) fn visit_spans<T, Q, M, F>(
    slices: &mut Q::Slices<'_>,
    written: &Q::Written,
    rows: core::ops::Range<usize>,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
{
    let mut start = rows.start;
    while start < rows.end {
        let end = rows.end.min(start.saturating_add(Q::span(slices, start)));
        for row in start..end {
            f(Q::row_in_span(slices, written, RowAt::new(row)));
        }
        start = end;
    }
}

/// Calls `f` with the item of every row of `rows` that passes `test` (every row without one).
#[inline(always)]
fn visit<T, Q, M, F>(
    slices: &mut Q::Slices<'_>,
    written: &Q::Written,
    rows: core::ops::Range<usize>,
    test: Option<&filter::RowTest<'_, T::Mask>>,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
{
    match test {
        None => visit_spans::<T, Q, M, F>(slices, written, rows, f),
        // The common scan (one watched column): see `visit_newer`.
        Some(&filter::RowTest::Column {
            stamps,
            since,
            added,
        }) => visit_newer::<T, Q, M, F, _>(
            slices,
            written,
            &stamps[rows.clone()],
            rows.start,
            since,
            added,
            f,
        ),
        Some(test) => {
            for row in rows {
                if test.passes(row) {
                    f(Q::row(slices, written, RowAt::new(row)));
                }
            }
        }
    }
}

/// Calls `f` with the item of every row whose stamps in `stamps` (the rows from `first_row`
/// on, one watched column's) hold an added stamp (`added`) or write stamp newer than `since`:
/// the rows and their stamps walked together, with no per-row test of the kind of filter and
/// no bounds check on the stamps ([`for_each_newer`]). Out of line: its four loops (a block and
/// a remainder, for write and added stamps), each with its own copy of `f`, inlined into every
/// query's loop made the loop without a change filter spill what it keeps in registers
/// (`parent_propagate` 15% slower, `game_frame` 10%).
#[inline(never)]
pub(crate) fn visit_newer<T, Q, M, F, S>(
    slices: &mut Q::Slices<'_>,
    written: &Q::Written,
    stamps: &[S],
    first_row: usize,
    since: Tick,
    added: bool,
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
    S: ReadStamps,
{
    for_each_newer(stamps, since, added, |offset| {
        f(Q::row(slices, written, RowAt::new(first_row + offset)));
    });
}

/// A table whose written columns were lent out, as a query reads the rest: its shared
/// columns (a run of rows starts at its first row in them), its mask (a lent view's holds the
/// lent columns only), and the storage (where a `Target` term reads other entities' rows).
pub(crate) struct SharedTable<'v, T: TypedTable> {
    pub(crate) columns: T::Columns<'v>,
    pub(crate) mask: T::Mask,
    pub(crate) storage: &'v Storage<T>,
}

impl<'v, T: TypedTable> SharedTable<'v, T> {
    /// The table `table` of `storage`.
    pub(crate) fn of(storage: &'v Storage<T>, table: &'v T) -> Self {
        SharedTable {
            columns: table.columns(),
            mask: table.mask(),
            storage,
        }
    }
}

/// One run of rows of a table, as `for_each` visits it, over the storage or over lent columns:
/// the change filter's verdict, the written rows' stamps, the items of the rows that pass, and
/// the stamps of what was written. `run` says where the run lies (its rows in the table and
/// among its tag segments); `view` holds the run's rows of the written columns (and, in a view
/// of the table's own, of the read ones); `shared_from`, when the columns the run reads are
/// the table's own rather than the view's (lent columns: the written ones were moved out of
/// the table), the table's shared side.
#[inline(always)]
pub(crate) fn visit_run<'v, T, Q, M, F>(
    run: WalkedRun<'v, T>,
    mut view: T::ViewMut<'v>,
    ticks: &mut crate::archetype::TicksOf<T>,
    shared_from: Option<SharedTable<'v, T>>,
    (filter, written, tick): (Option<ChangeFilter<T::Mask>>, T::Mask, Tick),
    f: &mut F,
) where
    T: TypedTable,
    Q: Fetch<T, M>,
    F: for<'s> FnMut(Q::Item<'s>),
{
    let verdict = ChangeFilter::verdict(filter, ticks);
    if verdict == filter::Verdict::Skip {
        return;
    }
    let WalkedRun {
        entities,
        rows,
        table_rows,
        tags,
    } = run;
    ticks.note_row_writes(written, tick);
    let (watched, watched_added) = ChangeFilter::watched(filter);
    let cells = ticks.row_cells(written | watched | watched_added, watched, rows.clone());
    let taken = Q::take(&mut view);
    let (columns, first_row, mask, storage) = match shared_from {
        Some(shared) => (
            shared.columns,
            rows.start,
            shared.mask,
            Some(shared.storage),
        ),
        None => {
            let mask = T::view_mask(&view);
            (T::share(view), 0, mask, None)
        }
    };
    let run = Run {
        entities,
        first_row,
        stamps: &cells,
        mask,
        tick,
        storage,
        tags,
    };
    let mut slices = Q::slices(taken, &columns, &run);
    let test = verdict.rows(filter, &cells, entities.len());
    let rows_in_run = entities.len();
    if !Q::STAMPS {
        let written = Q::Written::default();
        visit::<T, Q, M, F>(&mut slices, &written, 0..rows_in_run, test.as_ref(), f);
        return;
    }
    let every_row_written = to_mask::<T::Mask>(visit_chunks::<T, Q, M, F>(
        &mut slices,
        rows_in_run,
        test.as_ref(),
        f,
    ));
    drop((test, slices));
    ticks.stamp(Written::Rows { rows, table_rows }, every_row_written, tick);
}

/// The item of `row` of a table, as `get` hands it out, over the storage or over lent columns:
/// the change filter's test, the row's stamps, the view cut to the row (so the item borrows the
/// table, not a local). `view` and `shared_from` are as in [`visit_run`]. Inlined whole, so
/// the stamp cells of the row live in registers (built in memory and read back, they cost
/// more than the rest of a lookup).
#[inline(always)]
pub(crate) fn row_item<'v, T, Q, M>(
    entities: &'v [Entity],
    view: T::ViewMut<'v>,
    ticks: &'v mut crate::archetype::TicksOf<T>,
    (row, tags): (usize, RunTags<'v, T::Mask>),
    shared_from: Option<SharedTable<'v, T>>,
    (filter, written, tick): (Option<ChangeFilter<T::Mask>>, T::Mask, Tick),
) -> Option<Q::Item<'v>>
where
    T: TypedTable,
    Q: Fetch<T, M>,
{
    if let Some(filter) = filter {
        if !filter.row_passes(ticks, row) {
            return None;
        }
    }
    ticks.note_row_writes(written, tick);
    let (_, from_row) = T::split_view(view, row);
    let (mut view, _) = T::split_view(from_row, 1);
    let mut cells = TickCells::empty();
    ticks.fill_row_cells(&mut cells, written, T::Mask::EMPTY, row..row + 1);
    let taken = Q::take(&mut view);
    let (columns, first_row, mask, storage) = match shared_from {
        Some(shared) => (shared.columns, row, shared.mask, Some(shared.storage)),
        None => {
            let mask = T::view_mask(&view);
            (T::share(view), 0, mask, None)
        }
    };
    let run = Run {
        entities: &entities[row..=row],
        first_row,
        stamps: &cells,
        mask,
        tick,
        storage,
        tags,
    };
    Q::pop(&mut Q::slices(taken, &columns, &run))
}
