//! Unit tests of the per-column steps.

use super::*;
use alloc::string::String;

#[test]
fn absent_columns_stay_empty() {
    let mut column: Vec<u32> = Vec::new();
    push_defaults(&mut column, false, 3);
    reserve(&mut column, false, 10);
    assert_eq!(swap_remove(&mut column, false, 0), None);
    assert!(column.is_empty());
    assert_eq!(column.capacity(), 0);
}

#[test]
fn views_of_included_columns_have_exactly_the_rows() {
    let mut column = vec![1, 2, 3];
    assert_eq!(view(&mut column, 1u64, 3).len(), 3);
    assert_eq!(view(&mut column, 0u64, 3).len(), 3);
    let mut absent: Vec<u8> = Vec::new();
    assert_eq!(view(&mut absent, 0u128, 3).len(), 0);
}

#[test]
fn split_keeps_absent_columns_empty() {
    let mut column = [1, 2, 3];
    let (before, after) = split_at_mut(&mut column, true, 1);
    assert_eq!((before.len(), after.len()), (1, 2));
    let mut empty: [u8; 0] = [];
    let (before, after) = split_at_mut(&mut empty, false, 1);
    assert_eq!((before.len(), after.len()), (0, 0));
}

#[test]
fn misalignment_depends_on_presence() {
    assert!(!misaligned(&[1, 2], true, 2));
    assert!(misaligned(&[1, 2], true, 3));
    assert!(!misaligned::<u8>(&[], false, 3));
    assert!(misaligned(&[1], false, 1));
}

#[test]
fn push_and_swap_remove() {
    let mut column = vec![1, 2, 3];
    push_defaults(&mut column, true, 2);
    assert_eq!(column, [1, 2, 3, 0, 0]);
    assert_eq!(
        swap_remove(&mut column, true, 0),
        None,
        "nothing to drop: let go"
    );
    assert_eq!(column, [0, 2, 3, 0]);
    let mut names = vec![String::from("a"), String::from("b"), String::from("c")];
    assert_eq!(
        swap_remove(&mut names, true, 0).as_deref(),
        Some("a"),
        "handed back, to drop after the row"
    );
    assert_eq!(names, ["c", "b"]);
}

#[test]
fn edits_push_park_and_truncate() {
    let mut column = vec![String::from("a"), String::from("b"), String::from("c")];
    edit(&mut column, ColumnEdit::Park { row: 0 });
    assert_eq!(column, ["c", "b", "a"], "the row's value waits at the end");
    edit(&mut column, ColumnEdit::Truncate { rows: 2 });
    assert_eq!(column, ["c", "b"]);
    edit(&mut column, ColumnEdit::PushDefault);
    assert_eq!(column, ["c", "b", ""]);
    edit(&mut column, ColumnEdit::Truncate { rows: 5 });
    assert_eq!(column.len(), 3, "never grows");
    let mut source = vec![1, 2, 3];
    let mut destination = vec![9];
    move_value(&mut source, &mut destination, 0);
    assert_eq!((source, destination), (vec![3, 2], vec![9, 1]));
}

#[test]
fn push_held_pushes_a_value_or_the_default_onto_a_present_column_only() {
    let mut column = vec![1u32];
    push_held(&mut column, Some(9), 0b11u64 & 0b01);
    push_held(&mut column, None, 0b11u64 & 0b10);
    push_held(&mut column, Some(7), 0b01u64 & 0b10);
    assert_eq!(column, [1, 9, 0]);
}

#[test]
fn append_all_trades_buffers_with_an_empty_column_that_has_room() {
    let mut append = AppendAll { mask: 1u64 };
    let mut staged = vec![1, 2, 3];
    let staged_buffer = staged.as_ptr();
    let mut column: Vec<i32> = Vec::with_capacity(4);
    let column_buffer = column.as_ptr();
    append.visit(&mut column, &mut staged, 1);
    assert_eq!((column.as_slice(), staged.len()), (&[1, 2, 3][..], 0));
    assert_eq!(column.as_ptr(), staged_buffer, "the values did not move");
    assert_eq!(
        staged.as_ptr(),
        column_buffer,
        "the staging has room for 3 again"
    );
    assert!(staged.capacity() >= 3);

    // A column with rows, or without room for the run, gets the values appended; the staging
    // keeps its buffer.
    staged.extend([4, 5]);
    let staged_buffer = staged.as_ptr();
    append.visit(&mut column, &mut staged, 1);
    assert_eq!(column, [1, 2, 3, 4, 5]);
    assert_eq!((staged.len(), staged.as_ptr()), (0, staged_buffer));
    let mut small: Vec<i32> = Vec::new();
    staged.extend([6, 7]);
    append.visit(&mut small, &mut staged, 1);
    assert_eq!(
        (small.as_slice(), staged.as_ptr()),
        (&[6, 7][..], staged_buffer)
    );

    // A column outside the mask is left alone.
    staged.push(8);
    append.visit(&mut small, &mut staged, 2);
    assert_eq!((small.len(), staged.len()), (2, 1));
}
