//! The per-column steps of a table's structural operations.
//!
//! A table keeps one `Vec` per component of the world; only the columns whose bit is in the
//! table's mask hold rows, the others stay empty. The generated `Archetype` impl calls these
//! helpers once per column with the column's presence, so the logic lives here, tested once.

use alloc::vec::Vec;
/// Appends `count` default values to a present column.
#[inline]
pub fn push_defaults<C: Default>(column: &mut Vec<C>, present: bool, count: usize) {
    if present {
        column.resize_with(column.len() + count, C::default);
    }
}

/// Cuts a column back to its length at creation if it is dropped before
/// [`commit`](Self::commit): a table pushing default rows guards every column with one, so a
/// component `Default` that panics half-way leaves every column as it was.
pub struct Rollback<'a, C> {
    column: &'a mut Vec<C>,
    len: usize,
    armed: bool,
}

impl<'a, C> Rollback<'a, C> {
    /// Guards `column`, whose length is `len` (the table's row count).
    #[inline]
    pub fn new(column: &'a mut Vec<C>, len: usize) -> Self {
        Rollback {
            column,
            len,
            armed: true,
        }
    }

    /// [`push_defaults`] on the guarded column.
    #[inline]
    pub fn push_defaults(&mut self, present: bool, count: usize)
    where
        C: Default,
    {
        push_defaults(self.column, present, count);
    }

    /// Keeps what was pushed.
    #[inline]
    pub fn commit(mut self) {
        self.armed = false;
    }
}

impl<C> Drop for Rollback<'_, C> {
    fn drop(&mut self) {
        if self.armed {
            self.column.truncate(self.len);
        }
    }
}

/// Removes `row` from a present column, moving the last value into its place, and returns the
/// removed value for the caller to drop once the whole row is removed (a component `Drop` that
/// panics then cannot leave the other columns behind).
#[inline]
#[must_use = "drop the removed value after every column is compacted"]
pub fn swap_remove<C>(column: &mut Vec<C>, present: bool, row: usize) -> Option<C> {
    present.then(|| column.swap_remove(row))
}

/// Exchanges rows `a` and `b` of a present column.
#[inline]
pub fn swap_rows<C>(column: &mut [C], present: bool, a: usize, b: usize) {
    if present {
        column.swap(a, b);
    }
}

/// A default value for a column a migration adds (present in the destination, not in the
/// source): made before anything moves, so a component `Default` that panics changes nothing.
#[inline]
pub fn default_if<C: Default>(added: bool) -> Option<C> {
    added.then(C::default)
}

/// Moves `row` of `source` to the end of `destination` (a migration step).
///
/// A value present on both sides is moved, never cloned; one only in `destination` is `added`
/// (the value [`default_if`] made); one only in `source` is returned, for the caller to drop
/// once the whole row has moved. The source is compacted with `swap_remove`.
#[inline]
#[must_use = "drop the removed value after every column has moved"]
pub fn move_row<C>(
    source: &mut Vec<C>,
    destination: &mut Vec<C>,
    row: usize,
    in_source: bool,
    in_destination: bool,
    added: Option<C>,
) -> Option<C> {
    match (in_source, in_destination) {
        (true, true) => {
            destination.push(source.swap_remove(row));
            None
        }
        (true, false) => Some(source.swap_remove(row)),
        (false, true) => {
            if let Some(value) = added {
                destination.push(value);
            }
            None
        }
        (false, false) => None,
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
        assert_eq!(swap_remove(&mut column, true, 0), Some(1));
        assert_eq!(column, [0, 2, 3, 0]);
    }

    #[test]
    fn rollback_truncates_unless_committed() {
        let mut column = vec![1, 2];
        let mut guard = Rollback::new(&mut column, 2);
        guard.push_defaults(true, 3);
        drop(guard);
        assert_eq!(column, [1, 2], "dropped armed: cut back");
        let mut guard = Rollback::new(&mut column, 2);
        guard.push_defaults(true, 1);
        guard.commit();
        assert_eq!(column, [1, 2, 0]);
    }

    #[test]
    fn move_row_covers_every_presence_case() {
        let mut source = vec![String::from("a"), String::from("b"), String::from("c")];
        let mut destination = vec![String::from("x")];
        let moved = move_row(&mut source, &mut destination, 0, true, true, None);
        assert_eq!(moved, None);
        assert_eq!(source, ["c", "b"]);
        assert_eq!(destination, ["x", "a"]);

        let dropped = move_row(&mut source, &mut destination, 1, true, false, None);
        assert_eq!(
            dropped.as_deref(),
            Some("b"),
            "handed back to be dropped last"
        );
        assert_eq!(source, ["c"]);
        assert_eq!(destination, ["x", "a"]);

        let mut empty: Vec<String> = Vec::new();
        let added = default_if::<String>(true);
        assert_eq!(
            move_row(&mut empty, &mut destination, 5, false, true, added),
            None
        );
        assert_eq!(destination, ["x", "a", ""]);

        assert_eq!(default_if::<String>(false), None);
        assert_eq!(
            move_row(&mut empty, &mut destination, 5, false, false, None),
            None
        );
        assert_eq!(destination.len(), 3);
    }
}
