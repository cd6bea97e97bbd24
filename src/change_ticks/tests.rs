//! Unit tests of [`TableTicks`](super::TableTicks).

use super::*;
use alloc::vec::Vec;

const A: u64 = 0b001;
const B: u64 = 0b010;
const UNTRACKED: u64 = 0b100;

/// The ticks of a table in a world of three components.
type Ticks = TableTicks<u64, [TickColumn; 3]>;

fn ticks(tracked: u64) -> Ticks {
    Ticks::new(tracked, Tick(1))
}

/// Stamps `rows` of the tracked columns of `bits`, as a view of those rows does.
fn stamp_rows(table: &mut Ticks, rows: Range<usize>, bits: u64, tick: Tick) {
    let table_rows = table.rows();
    table.stamp(Written::Rows { rows, table_rows }, bits, tick);
}

/// Stamps every row of the tracked columns of `bits`, as a view of the whole table does.
fn stamp_columns(table: &mut Ticks, bits: u64, tick: Tick) {
    let table_rows = table.rows();
    table.stamp(Written::table(table_rows), bits, tick);
}

#[test]
fn spawned_rows_count_as_changed_at_their_tick() {
    let mut table = ticks(A | B);
    table.push_rows(2, Tick(5));
    assert!(table.changed_since(0, A, Tick(4)));
    assert!(!table.changed_since(1, A | B, Tick(5)), "strictly newer");
    assert!(table.may_have_changed_since(B, Tick(4)));
    assert!(!table.may_have_changed_since(B, Tick(5)));
    assert!(table.is_aligned(2));
}

#[test]
fn untracked_components_have_no_column_and_never_change() {
    let mut table = ticks(A);
    table.push_rows(3, Tick(9));
    table.stamp(Written::Row(0), UNTRACKED, Tick(10));
    stamp_columns(&mut table, UNTRACKED, Tick(10));
    assert!(!table.changed_since(0, UNTRACKED, Tick(1)));
    assert!(!table.may_have_changed_since(UNTRACKED, Tick(1)));
    assert!(table.columns[2].rows.is_empty());
    assert!(table.is_aligned(3));
}

#[test]
fn stamps_are_per_row_and_per_component() {
    let mut table = ticks(A | B);
    table.push_rows(3, Tick(1));
    table.stamp(Written::Row(1), A, Tick(4));
    assert!(table.changed_since(1, A, Tick(3)));
    assert!(!table.changed_since(1, B, Tick(3)));
    assert!(!table.changed_since(0, A, Tick(3)));
    assert!(table.changed_since(1, A | B, Tick(3)), "any of the bits");
    assert!(table.may_have_changed_since(A, Tick(3)));
    assert!(!table.may_have_changed_since(B, Tick(3)));
}

#[test]
fn changed_rows_agrees_with_changed_since() {
    let mut table = ticks(A | B);
    table.push_rows(4, Tick(1));
    table.stamp(Written::Row(1), A, Tick(5));
    table.stamp(Written::Row(2), B, Tick(5));
    for bits in [A, B, A | B, UNTRACKED, A | UNTRACKED] {
        let rows = table.changed_rows(bits, Tick(4));
        for row in 0..4 {
            assert_eq!(
                rows.contains(row),
                table.changed_since(row, bits, Tick(4)),
                "{bits} {row}"
            );
        }
    }
    stamp_columns(&mut table, A, Tick(6));
    assert!((0..4).all(|row| table.changed_rows(A, Tick(5)).contains(row)));
}

#[test]
fn stamping_one_component_skips_untracked_ones() {
    let mut table = ticks(A);
    table.push_rows(2, Tick(1));
    table.stamp(Written::Row(1), A, Tick(3));
    table.stamp(Written::Row(1), UNTRACKED, Tick(3));
    assert!(table.changed_since(1, A, Tick(2)));
    assert!(!table.changed_since(0, A, Tick(2)));
    assert!(!table.may_have_changed_since(UNTRACKED, Tick(2)));
}

#[test]
fn column_stamps_mark_every_row() {
    let mut table = ticks(A | B);
    table.push_rows(3, Tick(1));
    stamp_columns(&mut table, B, Tick(7));
    assert!((0..3).all(|row| table.changed_since(row, B, Tick(6))));
    assert!((0..3).all(|row| !table.changed_since(row, A, Tick(6))));
}

/// The rows of `table` whose component `bit` changed after `since`, through each reader.
fn changed(table: &Ticks, bit: u64, since: Tick, rows: usize) -> Vec<usize> {
    let by_row: Vec<usize> = (0..rows)
        .filter(|&row| table.changed_since(row, bit, since))
        .collect();
    let rows_test = table.changed_rows(bit, since);
    let by_test: Vec<usize> = (0..rows).filter(|&row| rows_test.contains(row)).collect();
    assert_eq!(by_row, by_test, "changed_since and changed_rows agree");
    by_row
}

#[test]
fn range_stamps_mark_their_rows_only() {
    let mut table = ticks(A | B);
    table.push_rows(6, Tick(1));
    stamp_rows(&mut table, 2..4, A, Tick(5));
    assert_eq!(changed(&table, A, Tick(4), 6), vec![2, 3]);
    assert!(changed(&table, B, Tick(4), 6).is_empty());
    assert!(!table.column_changed_since(A, Tick(4)), "not every row");
    // The same run again (a system every frame), then a wider one, then a narrower one.
    stamp_rows(&mut table, 2..4, A, Tick(6));
    assert_eq!(changed(&table, A, Tick(5), 6), vec![2, 3]);
    stamp_rows(&mut table, 1..5, A, Tick(7));
    assert_eq!(changed(&table, A, Tick(5), 6), vec![1, 2, 3, 4]);
    stamp_rows(&mut table, 4..6, A, Tick(8));
    assert_eq!(changed(&table, A, Tick(6), 6), vec![1, 2, 3, 4, 5]);
    assert_eq!(changed(&table, A, Tick(7), 6), vec![4, 5]);
    // A row's own newer stamp wins over the run's.
    table.stamp(Written::Row(5), A, Tick(9));
    assert_eq!(changed(&table, A, Tick(8), 6), vec![5]);
}

#[test]
fn more_runs_than_kept_pending_fold_the_oldest() {
    let mut table = ticks(A);
    table.push_rows(8, Tick(1));
    // Two systems writing their own runs every frame, then more runs than stay pending.
    for frame in 0..3 {
        stamp_rows(&mut table, 0..3, A, Tick(10 + 2 * frame));
        stamp_rows(&mut table, 3..8, A, Tick(11 + 2 * frame));
    }
    assert_eq!(
        changed(&table, A, Tick(13), 8),
        vec![0, 1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(changed(&table, A, Tick(14), 8), vec![3, 4, 5, 6, 7]);
    for (offset, row) in (0..6).enumerate() {
        stamp_rows(&mut table, row..row + 1, A, Tick(20 + offset as u32));
    }
    assert_eq!(changed(&table, A, Tick(21), 8), vec![2, 3, 4, 5]);
    assert_eq!(changed(&table, A, Tick(16), 8), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(
        changed(&table, A, Tick(14), 8),
        vec![0, 1, 2, 3, 4, 5, 6, 7]
    );
}

#[test]
fn range_stamps_follow_rows_that_swap_or_leave() {
    let mut table = ticks(A);
    table.push_rows(5, Tick(1));
    stamp_rows(&mut table, 0..2, A, Tick(5));
    // Row 1 (stamped) and row 3 (not) trade places: the stamps go with them.
    table.swap_rows(1, 3);
    assert_eq!(changed(&table, A, Tick(4), 5), vec![0, 3]);
    stamp_rows(&mut table, 3..5, A, Tick(6));
    // Both in the run: nothing to fold, the run still covers them.
    table.swap_rows(3, 4);
    assert_eq!(changed(&table, A, Tick(5), 5), vec![3, 4]);
    // The last row (in the run) moves into row 0 (not in it).
    table.swap_remove(0);
    assert_eq!(changed(&table, A, Tick(5), 4), vec![0, 3]);
    assert_eq!(changed(&table, A, Tick(4), 4), vec![0, 3]);
    // A migration carries the run's stamp along.
    let mut destination = ticks(A);
    table.move_row(3, &mut destination, Tick(7));
    assert!(destination.changed_since(0, A, Tick(5)));
    assert!(table.is_aligned(3) && destination.is_aligned(1));
}

#[test]
fn read_cells_see_range_stamps() {
    let mut table = ticks(A | B);
    table.push_rows(4, Tick(1));
    stamp_rows(&mut table, 1..3, A | B, Tick(5));
    let cells = table.row_cells(A | B, A, 0..4);
    let read: Vec<Tick> = cells
        .column(0)
        .iter()
        .map(|stamp| stamp.get().changed)
        .collect();
    assert_eq!(
        read,
        vec![Tick(1), Tick(5), Tick(5), Tick(1)],
        "folded for reading"
    );
    // B was only asked for writing: its run stays pending, and still counts.
    assert_eq!(changed(&table, B, Tick(4), 4), vec![1, 2]);
}

#[test]
fn a_column_stamp_does_not_cover_rows_that_arrive_later() {
    let mut marked = ticks(A);
    let mut other = ticks(A);
    marked.push_rows(1, Tick(1));
    other.push_rows(1, Tick(1));
    stamp_columns(&mut marked, A, Tick(3));
    other.move_row(0, &mut marked, Tick(4));
    assert!(
        marked.changed_since(0, A, Tick(2)),
        "the row present at the mark"
    );
    assert!(
        !marked.changed_since(1, A, Tick(2)),
        "the migrant keeps its own stamp"
    );
    marked.push_rows(1, Tick(5));
    assert!(marked.changed_since(0, A, Tick(2)));
    assert!(!marked.changed_since(1, A, Tick(2)));
    assert!(
        marked.changed_since(2, A, Tick(4)),
        "spawned after the mark, stamped itself"
    );
    assert!(marked.is_aligned(3));
}

#[test]
fn a_whole_table_stamp_marks_every_tracked_column_until_rows_arrive() {
    let mut table = ticks(A | B);
    table.push_rows(3, Tick(1));
    stamp_rows(&mut table, 0..3, A | B | UNTRACKED, Tick(4));
    assert!(
        table.whole.is_some(),
        "every row of every tracked column: one stamp"
    );
    for bits in [A, B, A | B] {
        assert_eq!(changed(&table, bits, Tick(3), 3), [0, 1, 2]);
        assert!(table.may_have_changed_since(bits, Tick(3)));
        assert!(table.column_changed_since(bits, Tick(3)));
        assert!(
            !table.may_have_changed_since(bits, Tick(4)),
            "strictly newer"
        );
    }
    assert!(!table.may_have_changed_since(UNTRACKED, Tick(0)));
    table.push_rows(1, Tick(2));
    assert_eq!(
        changed(&table, A, Tick(3), 4),
        [0, 1, 2],
        "the new row is not covered"
    );
    assert!(!table.column_changed_since(A, Tick(3)));
    assert!(table.is_aligned(4));
}

#[test]
fn restamping_the_same_rows_moves_the_tick_and_other_rows_settle_first() {
    let mut table = ticks(A | B);
    table.push_rows(2, Tick(1));
    stamp_columns(&mut table, A | B, Tick(3));
    stamp_columns(&mut table, A | B, Tick(5));
    assert_eq!(changed(&table, A | B, Tick(4), 2), [0, 1]);
    table.push_rows(1, Tick(1));
    stamp_rows(&mut table, 0..3, A | B, Tick(7));
    assert_eq!(changed(&table, B, Tick(6), 3), [0, 1, 2]);
    // A run of some rows only: the whole-table stamp goes to the columns first.
    stamp_rows(&mut table, 1..2, A, Tick(9));
    assert!(table.whole.is_none());
    assert_eq!(changed(&table, A, Tick(8), 3), [1]);
    assert_eq!(changed(&table, B, Tick(6), 3), [0, 1, 2]);
}

#[test]
fn a_settled_whole_table_stamp_keeps_newer_row_writes() {
    let mut table = ticks(A);
    let mut destination = ticks(A);
    table.push_rows(4, Tick(1));
    stamp_columns(&mut table, A, Tick(2));
    table.stamp(Written::Row(3), A, Tick(6));
    // Row 3 moves into row 0's place: the stamps settle first, and keep row 3's newer
    // write and the column's newest stamp.
    table.move_row(0, &mut destination, Tick(7));
    assert_eq!(changed(&table, A, Tick(5), 3), [0]);
    assert!(table.may_have_changed_since(A, Tick(5)));
    assert_eq!(changed(&table, A, Tick(1), 3), [0, 1, 2]);
    assert!(
        destination.changed_since(0, A, Tick(1)),
        "the migrant keeps the stamp"
    );
    assert!(!destination.changed_since(0, A, Tick(2)));
}

#[test]
fn a_whole_table_stamp_follows_swaps_reads_and_clamping() {
    let mut table = ticks(A);
    table.push_rows(3, Tick(1));
    stamp_columns(&mut table, A, Tick(3));
    table.swap_rows(0, 2);
    assert_eq!(changed(&table, A, Tick(2), 3), [0, 1, 2]);
    stamp_columns(&mut table, A, Tick(4));
    let cells = table.row_cells(A, A, 0..3);
    assert!(
        cells
            .column(0)
            .iter()
            .all(|stamp| stamp.get().changed == Tick(4)),
        "stamps read directly see the whole-table stamp"
    );
    stamp_columns(&mut table, A, Tick(5));
    table.swap_remove(0);
    assert_eq!(changed(&table, A, Tick(4), 2), [0, 1]);
    stamp_columns(&mut table, A, Tick(6));
    let now = Tick(6 + MAX_TICK_AGE + 10);
    table.clamp(now);
    assert!(!table.may_have_changed_since(A, Tick(now.0.wrapping_sub(MAX_TICK_AGE))));
}

#[test]
fn despawns_and_swaps_under_a_whole_table_stamp_keep_it_exact() {
    // Covering every row: kept (not folded into the columns), shrunk with the table, so a
    // row pushed after the despawn is not covered.
    let mut table = ticks(A | B);
    table.push_rows(4, Tick(1));
    table.stamp(Written::Row(3), B, Tick(6));
    stamp_columns(&mut table, A | B, Tick(4));
    table.swap_remove(1);
    table.swap_rows(0, 2);
    assert!(table.whole.is_some(), "no fold needed");
    assert_eq!(changed(&table, A, Tick(3), 3), [0, 1, 2]);
    assert_eq!(changed(&table, B, Tick(5), 3), [1], "row 3 went to 1");
    table.push_rows(1, Tick(2));
    assert_eq!(changed(&table, A, Tick(3), 4), [0, 1, 2]);
    // Covering some rows only (rows pushed after the stamp): the last row, uncovered,
    // must not inherit the stamp of the row it replaces.
    table.swap_remove(0);
    assert_eq!(changed(&table, A, Tick(3), 3), [1, 2]);
    assert!(table.is_aligned(3));
}

#[test]
fn a_whole_table_stamp_over_grown_rows_replaces_older_pending_stamps() {
    let mut table = ticks(A | B);
    table.push_rows(3, Tick(1));
    stamp_rows(&mut table, 1..2, A, Tick(3));
    stamp_columns(&mut table, A | B, Tick(4));
    table.push_rows(2, Tick(5));
    table.stamp(Written::Row(4), B, Tick(7));
    stamp_columns(&mut table, A | B, Tick(6));
    assert!(
        table
            .columns
            .iter()
            .all(|column| column.range_stamps.is_empty()),
        "the older runs are dropped, not folded"
    );
    assert_eq!(changed(&table, A, Tick(5), 5), [0, 1, 2, 3, 4]);
    assert_eq!(
        changed(&table, B, Tick(6), 5),
        [4],
        "a newer row write stays"
    );
    table.swap_remove(0);
    assert_eq!(changed(&table, B, Tick(6), 4), [0], "row 4 went to 0");
    assert!(table.is_aligned(4));
}

#[test]
fn a_view_of_every_column_stamps_what_naming_each_tracked_column_stamps() {
    for tracked in [0, A, A | B] {
        for rows in [0..4, 0..2, 1..4, 2..3, 0..usize::MAX] {
            let mut every = ticks(tracked);
            let mut named = ticks(tracked);
            for table in [&mut every, &mut named] {
                table.push_rows(4, Tick(1));
                stamp_columns(table, A | B, Tick(2));
            }
            let written = Written::Rows {
                rows: rows.clone(),
                table_rows: 4,
            };
            every.stamp(written.clone(), u64::ALL, Tick(5));
            named.stamp(written, tracked, Tick(5));
            for (mask, since) in [(A, Tick(4)), (B, Tick(4)), (A | B, Tick(1))] {
                assert_eq!(
                    changed(&every, mask, since, 4),
                    changed(&named, mask, since, 4),
                    "tracked {tracked:#b}, rows {rows:?}"
                );
            }
        }
    }
}

#[test]
fn swap_remove_keeps_stamps_with_their_rows() {
    let mut table = ticks(A);
    table.push_rows(3, Tick(1));
    table.stamp(Written::Row(2), A, Tick(8));
    table.swap_remove(0);
    assert!(
        table.changed_since(0, A, Tick(7)),
        "the last row moved into row 0"
    );
    assert!(!table.changed_since(1, A, Tick(7)));
    assert!(table.is_aligned(2));
}

#[test]
fn row_cells_find_every_column_past_the_inline_ones() {
    const BITS: usize = 20;
    let bits = BITS;
    let all: u64 = (1 << bits) - 1;
    let mut table = TableTicks::<u64, [TickColumn; BITS]>::new(all, Tick(1));
    table.push_rows(3, Tick(2));
    for bit in 0..bits as u32 {
        table.stamp(Written::Row(1), 1 << bit, Tick(10 + bit));
    }
    let cells = table.row_cells(all & !(1 << 3), 0, 1..3);
    for bit in 0..bits as u32 {
        let column = cells.column(bit);
        if bit == 3 {
            assert!(column.is_empty(), "not asked for");
        } else {
            assert_eq!(column.len(), 2, "bit {bit}");
            assert_eq!(column[0].get().changed, Tick(10 + bit), "bit {bit}");
            assert_eq!(column[1].get(), RowStamps::at(Tick(2)));
        }
    }
    assert!(cells.column(40).is_empty() && cells.column(200).is_empty());
    cells.column(19)[1].set(RowStamps::at(Tick(2)).written_at(Tick(99)));
    assert!(
        table.changed_since(2, 1 << 19, Tick(98)),
        "written through the cell"
    );
}

#[test]
fn added_ticks_follow_spawns_migrations_and_swap_removes() {
    let mut source = ticks(A);
    let mut destination = ticks(A | B);
    source.push_rows(2, Tick(2));
    source.stamp(Written::Row(0), A, Tick(5));
    assert!(!source.added_since(0, A, Tick(2)), "a write is not an add");
    assert!(source.may_have_added_since(A, Tick(1)));
    assert!(!source.may_have_added_since(A, Tick(2)));
    source.move_row(0, &mut destination, Tick(7));
    assert!(
        !destination.added_since(0, A, Tick(2)),
        "A kept its added tick"
    );
    assert!(destination.added_since(0, B, Tick(6)), "B was added now");
    assert!(destination.may_have_added_since(B, Tick(6)));
    assert!(destination.added_rows(B, Tick(6)).contains(0));
    assert!(!destination.added_rows(A | B, Tick(7)).contains(0));
    assert!(destination.added_rows(A | B, Tick(6)).contains(0));
    assert!(!source.added_since(0, A, Tick(1)) || source.is_aligned(1));
    let cells = destination.row_cells(B, 0, 0..1);
    assert_eq!(cells.column(1).len(), 1);
    assert_eq!(cells.column(1)[0].get().added, Tick(7));
    assert!(cells.column(0).is_empty(), "A's column was not asked for");
    assert!(source.is_aligned(1) && destination.is_aligned(1));
}

#[test]
fn migration_keeps_shared_stamps_and_stamps_added_components() {
    let mut source = ticks(A);
    let mut destination = ticks(A | B);
    source.push_rows(2, Tick(1));
    source.stamp(Written::Row(0), A, Tick(3));
    source.move_row(0, &mut destination, Tick(6));
    assert!(destination.changed_since(0, A, Tick(2)));
    assert!(
        !destination.changed_since(0, A, Tick(3)),
        "A kept its stamp"
    );
    assert!(destination.changed_since(0, B, Tick(5)), "B was added now");
    assert!(source.is_aligned(1) && destination.is_aligned(1));
}

#[test]
fn a_column_stamp_follows_a_migrating_row() {
    let mut source = ticks(A);
    let mut destination = ticks(A);
    source.push_rows(1, Tick(1));
    stamp_columns(&mut source, A, Tick(4));
    source.move_row(0, &mut destination, Tick(6));
    assert!(destination.changed_since(0, A, Tick(3)));
    assert!(!destination.changed_since(0, A, Tick(4)));
}

#[test]
fn unstamped_columns_stay_old_when_the_tick_wraps() {
    let mut table = Ticks::new(A, Tick(u32::MAX - 1));
    table.push_rows(1, Tick(u32::MAX - 1));
    let now = Tick(2);
    table.clamp(now);
    assert!(!table.changed_since(0, A, Tick(u32::MAX)));
    assert!(!table.may_have_changed_since(A, Tick(u32::MAX)));
}

#[test]
fn clamping_keeps_ancient_stamps_old() {
    let mut table = ticks(A);
    table.push_rows(1, Tick(0));
    let now = Tick(MAX_TICK_AGE + 100);
    table.clamp(now);
    let since = Tick(now.0 - 1);
    assert!(!table.changed_since(0, A, since));
    assert!(!table.may_have_changed_since(A, since));
}

#[test]
fn row_stamps_clamp_both_ticks() {
    let now = Tick(10);
    let limit = Tick(10u32.wrapping_sub(MAX_TICK_AGE));
    let stamps = [Tick(10), Tick(3), Tick(limit.0 - 1), Tick(limit.0 - 999)];
    let clamped = [Tick(10), Tick(3), limit, limit];
    for (stamp, expected) in stamps.into_iter().zip(clamped) {
        let row = RowStamps {
            changed: stamp,
            added: Tick(10),
        };
        assert_eq!(
            row.clamp_age(now),
            RowStamps {
                changed: expected,
                added: Tick(10)
            }
        );
        let row = RowStamps {
            changed: Tick(3),
            added: stamp,
        };
        assert_eq!(row.clamp_age(now).added, expected);
    }
}

#[test]
fn clone_from_copies_every_stamp_into_the_target_allocations() {
    let mut source = ticks(A | B);
    source.push_rows(4, Tick(5));
    stamp_rows(&mut source, 1..3, A, Tick(7));
    let mut target = ticks(A | B);
    target.push_rows(6, Tick(2));
    stamp_rows(&mut target, 0..2, B, Tick(9));
    // A row written alone: A's rows get their own stamps (a buffer to reuse).
    target.stamp(Written::Row(5), A, Tick(9));
    let kept = target.columns[0].rows.as_ptr();
    target.clone_from(&source);
    assert_eq!(
        target.columns[0].rows.as_ptr(),
        kept,
        "the row stamps reuse the target's buffer"
    );
    assert_eq!(target.rows(), 4);
    for row in 0..4 {
        for (bit, since) in [(A, Tick(5)), (A, Tick(6)), (B, Tick(4)), (B, Tick(5))] {
            assert_eq!(
                target.changed_since(row, bit, since),
                source.changed_since(row, bit, since),
                "row {row}, bit {bit}, since {since:?}"
            );
        }
    }
    assert!(
        target.changed_since(1, A, Tick(6)),
        "the source's range stamp"
    );
    assert!(
        !target.changed_since(0, B, Tick(8)),
        "none of the target's own"
    );
}

/// What a snapshot saves of a table's ticks, its rows' stamps as readers see them, loaded into
/// new ticks that keep them as row stamps alone, answers every change query as the original.
#[cfg(feature = "serde")]
#[test]
fn effective_stamps_loaded_into_new_ticks_answer_every_query_alike() {
    let mut table = ticks(A | B);
    table.push_rows(3, Tick(2));
    table.push_rows(3, Tick(3));
    table.stamp(Written::Row(4), B, Tick(5));
    stamp_rows(&mut table, 1..3, A, Tick(6)); // a range stamp, pending
    stamp_columns(&mut table, A | B, Tick(7)); // a whole-table stamp over all 6 rows
    table.push_rows(1, Tick(8)); // past the whole-table stamp
    table.stamp(Written::Row(0), A, Tick(9));
    let saved = |table: &Ticks, bit: u32| -> Vec<(u32, u32)> {
        table
            .effective_stamps(bit)
            .map(|stamps| (stamps.changed.0, stamps.added.0))
            .collect()
    };
    assert_eq!(
        saved(&table, 0),
        [(9, 2), (7, 2), (7, 2), (7, 3), (7, 3), (7, 3), (8, 8)]
    );
    assert_eq!(
        saved(&table, 1)[4],
        (7, 3),
        "the whole-table stamp is newer"
    );

    let mut loaded = ticks(A | B);
    for bit in [0, 1] {
        let stamps = table.effective_stamps(bit).collect();
        loaded.load_column(bit, stamps);
    }
    assert!(loaded.is_aligned(7));
    assert_eq!(saved(&loaded, 0), saved(&table, 0));
    assert_eq!(saved(&loaded, 1), saved(&table, 1));
    for since in 0..10 {
        let since = Tick(since);
        for bits in [A, B, A | B] {
            assert_eq!(
                changed(&loaded, bits, since, 7),
                changed(&table, bits, since, 7)
            );
            let added = |ticks: &Ticks| -> Vec<usize> {
                (0..7)
                    .filter(|&row| ticks.added_since(row, bits, since))
                    .collect()
            };
            assert_eq!(added(&loaded), added(&table));
            assert_eq!(
                loaded.may_have_added_since(bits, since),
                table.may_have_added_since(bits, since)
            );
            if table.may_have_changed_since(bits, since)
                != loaded.may_have_changed_since(bits, since)
            {
                // Only the original's summary may be newer than every row it still holds.
                assert!(changed(&table, bits, since, 7).is_empty());
            }
        }
    }
}

#[test]
fn for_each_newer_finds_what_a_row_by_row_test_finds_at_every_length_and_across_wrap_around() {
    // Two ticks behind `since` to two ahead, the last one past the wrap (tick 0); the added
    // stamps run the other way.
    let since = Tick(u32::MAX - 1);
    let near = |step: u32| Tick(since.0.wrapping_add(step % 5).wrapping_sub(2));
    for len in [0, 1, 31, 32, 33, 64, 100] {
        let stamps: Vec<RowStamps> = (0..len)
            .map(|row: u32| RowStamps {
                changed: near(row.wrapping_mul(7)),
                added: near(row.wrapping_mul(3).wrapping_add(1)),
            })
            .collect();
        for added in [false, true] {
            let expected: Vec<usize> = (0..stamps.len())
                .filter(|&row| stamps[row].tick(added).is_newer_than(since))
                .collect();
            let mut found = Vec::new();
            for_each_newer(&stamps, since, added, |row| found.push(row));
            assert_eq!(found, expected, "{len} rows, added: {added}");
            let cells: Vec<Cell<RowStamps>> = stamps.iter().copied().map(Cell::new).collect();
            let mut through_cells = Vec::new();
            for_each_newer(&cells, since, added, |row| through_cells.push(row));
            assert_eq!(through_cells, expected, "as cells");
            assert!(len < 32 || !found.is_empty(), "some rows are newer");
        }
    }
}

mod model;
