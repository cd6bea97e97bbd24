//! Columns lent out of the tables: the columns a query writes (and the change ticks it writes
//! or watches), moved out of every table it matches into tables of their own, so several
//! queries (of one system, or of systems run at the same time) use one storage at once, each
//! writing its own columns while every other column is read through a shared borrow. Moving a
//! column is a swap of two `Vec`s: no `unsafe`, no copy. A [`Lending`] takes every column back
//! when it is dropped, whatever happened meanwhile (a system that panicked included).

use alloc::vec::Vec;

use super::RowTags;
use super::Storage;
use super::tag_partition::Runs;
use super::walk::QueryMasks;
use crate::archetype::{Archetype, TicksOf};
use crate::column::ColumnPairVisitor;
use crate::mask::Bitmask;

/// What a query borrows from the storage: the tables it matches (`include` / `exclude`, tags
/// ignored: they pick rows, not tables), the columns it writes, and the change ticks it writes
/// or watches (a change filter's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loan<M> {
    /// Components (and tags) a matched entity holds.
    pub include: M,
    /// Components (and tags) it does not hold.
    pub exclude: M,
    /// Components whose columns the query writes.
    pub columns: M,
    /// Components whose change ticks the query writes or reads.
    pub ticks: M,
}

/// One table's columns lent to one query: the table's index, a table of the same mask holding
/// the lent columns (the others empty, and no entity: the storage's table keeps them) and
/// change ticks holding the lent tick columns.
pub struct LentTable<T: Archetype> {
    pub(crate) index: usize,
    /// The components whose columns are lent.
    lent_columns: T::Mask,
    pub(crate) columns: T,
    pub(crate) ticks: TicksOf<T>,
}

/// The columns of every [`Loan`], out of `storage` until this is dropped.
pub struct Lending<'s, T: Archetype> {
    storage: &'s mut Storage<T>,
    /// Per loan, in the order they were asked, its tables in table order.
    lent: Vec<Vec<LentTable<T>>>,
}

impl<T: Archetype> Lending<'_, T> {
    /// The storage, shared, beside each loan's tables.
    pub fn parts(&mut self) -> (&Storage<T>, &mut [Vec<LentTable<T>>]) {
        (self.storage, &mut self.lent)
    }
}

impl<T: Archetype> Drop for Lending<'_, T> {
    fn drop(&mut self) {
        for lent in core::mem::take(&mut self.lent) {
            for table in lent {
                self.storage.take_back(table);
            }
        }
    }
}

/// Exchanges the columns of `mask` between two tables (lending them, or taking them back).
struct SwapColumns<M> {
    mask: M,
}

impl<M: Bitmask> ColumnPairVisitor<M> for SwapColumns<M> {
    #[inline(always)]
    fn visit<C: 'static>(&mut self, column: &mut Vec<C>, other: &mut Vec<C>, bit: M) {
        if self.mask.intersects(bit) {
            core::mem::swap(column, other);
        }
    }
}

impl<T: Archetype> Storage<T> {
    /// Lends each loan the columns and change ticks it asks for, of every non-empty table it
    /// matches (the query cache fills on a miss). The loans must not ask for one column, or one
    /// tick column, of one table twice: a second ask would find it empty. The caller (a
    /// system's access, checked when the program is built) makes sure of that.
    pub fn lend(&mut self, loans: &[Loan<T::Mask>]) -> Lending<'_, T> {
        let mut lent = Vec::with_capacity(loans.len());
        for loan in loans {
            let masks = QueryMasks::new::<T>(loan.include, loan.exclude);
            let indices = self.queries.get_or_insert(masks.include);
            let mut tables = Vec::with_capacity(indices.len());
            for &index in indices {
                let (Some(table), Some(ticks)) =
                    (self.tables.get_mut(index), self.ticks.get_mut(index))
                else {
                    continue;
                };
                if !masks.keeps(table) {
                    continue;
                }
                let mask = table.mask();
                let lent_columns = loan.columns & mask;
                let mut columns = T::new(mask);
                table.for_each_column_pair(&mut columns, &mut SwapColumns { mask: lent_columns });
                tables.push(LentTable {
                    index,
                    lent_columns,
                    columns,
                    ticks: ticks.lend(loan.ticks),
                });
            }
            lent.push(tables);
        }
        Lending {
            storage: self,
            lent,
        }
    }

    /// The table `index` of a loan, its tag test for a query of `include` / `exclude` and the
    /// runs of rows that test selects.
    pub(crate) fn lent_table(
        &self,
        index: usize,
        include: T::Mask,
        exclude: T::Mask,
    ) -> (&T, RowTags<'_, T>, Runs<'_, T::Mask>) {
        let tags = QueryMasks::new::<T>(include, exclude).tags;
        let table = &self.tables[index];
        let row_tags = RowTags::of_table(&self.partitions, index, tags);
        let runs = match self.partitions.get(index) {
            Some(partition) => tags.runs_of(table.len(), partition),
            None => Runs::whole(table.len()),
        };
        (table, row_tags, runs)
    }

    /// Puts one lent table's columns and ticks back.
    fn take_back(&mut self, mut lent: LentTable<T>) {
        let (Some(table), Some(ticks)) = (
            self.tables.get_mut(lent.index),
            self.ticks.get_mut(lent.index),
        ) else {
            return;
        };
        let mask = lent.lent_columns;
        table.for_each_column_pair(&mut lent.columns, &mut SwapColumns { mask });
        ticks.take_back(lent.ticks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;

    type Table = TestWorldComponentArrays;

    #[test]
    fn lent_columns_leave_and_come_back_with_their_writes() {
        let mut storage = TestStorage::<Table>::new();
        let first =
            storage.spawn_batch(NUMBER | FLAG, 3, |view, row| view.number[row] = row as u32);
        let other = storage.spawn(NUMBER);
        let loans = [
            Loan {
                include: NUMBER | FLAG,
                exclude: 0,
                columns: NUMBER,
                ticks: NUMBER,
            },
            Loan {
                include: NUMBER,
                exclude: FLAG,
                columns: 0,
                ticks: 0,
            },
        ];
        {
            let mut lending = storage.lend(&loans);
            let (shared, lent) = lending.parts();
            assert_eq!(lent[0].len(), 1, "the NUMBER | FLAG table");
            assert_eq!(lent[1].len(), 1, "the NUMBER table");
            let table = &shared.tables()[lent[0][0].index];
            assert!(table.number.is_empty(), "lent out");
            assert_eq!(lent[0][0].columns.number, [0, 1, 2]);
            lent[0][0].columns.number[1] = 7;
            assert_eq!(
                shared.get(other, NUMBER, |table| &table.number[..]),
                Some(&0)
            );
        }
        assert_eq!(
            storage.get(first[1], NUMBER, |table| &table.number[..]),
            Some(&7),
            "back, with the write"
        );
        storage.check_invariants().unwrap();
    }
}
