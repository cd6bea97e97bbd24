//! The per-column steps of a table's structural operations.
//!
//! A table keeps one `Vec` per component of the world; only the columns whose bit is in the
//! table's mask hold rows, the others stay empty. The generated `Archetype` impl calls these
//! helpers once per column with the column's presence, so the logic lives here, tested once.

/// Appends `count` default values to a present column.
#[inline]
pub fn push_defaults<C: Default>(column: &mut Vec<C>, present: bool, count: usize) {
    if present {
        column.resize_with(column.len() + count, C::default);
    }
}

/// Removes `row` from a present column, moving the last value into its place.
#[inline]
pub fn swap_remove<C>(column: &mut Vec<C>, present: bool, row: usize) {
    if present {
        column.swap_remove(row);
    }
}

/// Moves `row` of `source` to the end of `destination` (a migration step).
///
/// A value present on both sides is moved, never cloned; one only in `source` is dropped; one
/// only in `destination` starts as `C::default()`. The source is compacted with `swap_remove`.
#[inline]
pub fn move_row<C: Default>(
    source: &mut Vec<C>,
    destination: &mut Vec<C>,
    row: usize,
    in_source: bool,
    in_destination: bool,
) {
    match (in_source, in_destination) {
        (true, true) => destination.push(source.swap_remove(row)),
        (true, false) => drop(source.swap_remove(row)),
        (false, true) => destination.push(C::default()),
        (false, false) => {}
    }
}

/// Reserves room for `additional` rows in a present column.
#[inline]
pub fn reserve<C>(column: &mut Vec<C>, present: bool, additional: usize) {
    if present {
        column.reserve(additional);
    }
}

/// A column as a slice for a table view. A column the query includes is cut to exactly `rows`
/// (it always has that many), so once the query's mask is inlined the compiler knows the
/// slice's length and drops the bounds checks of `table.position[index]` in the closure.
#[inline]
pub fn view<C>(column: &mut [C], included: bool, rows: usize) -> &mut [C] {
    if included {
        &mut column[..rows]
    } else {
        column
    }
}

/// Splits a column view at row `at`; an absent (empty) column splits into two empty halves.
#[inline]
pub fn split_at_mut<C>(column: &mut [C], present: bool, at: usize) -> (&mut [C], &mut [C]) {
    column.split_at_mut(if present { at } else { 0 })
}

/// Whether a column's length is wrong for a table of `rows` rows: a present column must have
/// one value per row, an absent one none.
#[inline]
pub fn misaligned<C>(column: &[C], present: bool, rows: usize) -> bool {
    column.len() != if present { rows } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_columns_stay_empty() {
        let mut column: Vec<u32> = Vec::new();
        push_defaults(&mut column, false, 3);
        reserve(&mut column, false, 10);
        swap_remove(&mut column, false, 0);
        assert!(column.is_empty());
        assert_eq!(column.capacity(), 0);
    }

    #[test]
    fn views_of_included_columns_have_exactly_the_rows() {
        let mut column = vec![1, 2, 3];
        assert_eq!(view(&mut column, true, 3).len(), 3);
        assert_eq!(view(&mut column, false, 3).len(), 3);
        let mut absent: Vec<u8> = Vec::new();
        assert_eq!(view(&mut absent, false, 3).len(), 0);
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
        swap_remove(&mut column, true, 0);
        assert_eq!(column, [0, 2, 3, 0]);
    }

    #[test]
    fn move_row_covers_every_presence_case() {
        let mut source = vec![String::from("a"), String::from("b"), String::from("c")];
        let mut destination = vec![String::from("x")];
        move_row(&mut source, &mut destination, 0, true, true);
        assert_eq!(source, ["c", "b"]);
        assert_eq!(destination, ["x", "a"]);

        move_row(&mut source, &mut destination, 1, true, false);
        assert_eq!(source, ["c"]);
        assert_eq!(destination, ["x", "a"]);

        let mut empty: Vec<String> = Vec::new();
        move_row(&mut empty, &mut destination, 5, false, true);
        assert_eq!(destination, ["x", "a", ""]);

        move_row(&mut empty, &mut destination, 5, false, false);
        assert_eq!(destination.len(), 3);
    }
}
