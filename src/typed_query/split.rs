//! The typed face of the storage's split of its table list: the read side handed out as the
//! world's generated `WorldTables` (through [`TypedTable::TablesRead`]), with a getter per
//! component.

use super::TypedTable;
use crate::storage::{Storage, TablesMut, TablesOverlap};

/// The two sides [`Storage::split_tables`] returns: written, then read (the world's
/// `WorldTables`).
pub type SplitTables<'a, T> = (TablesMut<'a, T>, <T as TypedTable>::TablesRead<'a>);

impl<T: TypedTable> Storage<T> {
    /// Splits the tables in two by disjoint filters: those with every component of
    /// `write_include` and none of `write_exclude`, iterated mutably ([`TablesMut`]), and
    /// those of `read_include` / `read_exclude`, read by handle meanwhile (the world's
    /// `WorldTables`, with a `get_<c>` per component: a turret aims at its target). The
    /// filters must exclude each other by a component (one side requires what the other
    /// excludes), decided from the masks alone: otherwise `Err`, whatever the world holds,
    /// never a panic mid-frame. O(tables) to split (one pass over the masks).
    pub fn split_tables(
        &mut self,
        write_include: T::Mask,
        write_exclude: T::Mask,
        read_include: T::Mask,
        read_exclude: T::Mask,
    ) -> Result<SplitTables<'_, T>, TablesOverlap<T::Mask>> {
        let (written, read) =
            self.split_table_list(write_include, write_exclude, read_include, read_exclude)?;
        Ok((written, T::read_side(read)))
    }
}
