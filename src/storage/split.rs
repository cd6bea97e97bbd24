//! Other entities during an iteration: the table list split in two by disjoint filters (one
//! side iterated mutably, the other read by handle), and `&mut` to one component of several
//! distinct entities at once. Both split the storage's vectors with `split_first_mut` /
//! `iter_mut`, never a row, so they need no `unsafe`.

use alloc::vec::Vec;
use core::fmt;

use super::Storage;
use super::tag_partition::TagPartition;
use super::walk::{QueryMasks, split_runs};
use crate::archetype::{Archetype, TicksOf};
use crate::change_ticks::Written;
use crate::entity::{Entity, EntityLocation, EntityRecords};
use crate::mask::Bitmask;
use crate::relation::RelationStore;
use crate::tick::Tick;

/// Why [`Storage::split_tables`] refused: some table (or, through tags, some row) could match
/// both filters. Two filters are disjoint when a component one requires is excluded by the
/// other; tags cannot make them disjoint, since a tag does not choose the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TablesOverlap<M> {
    /// Components (and tags) the written tables must have.
    pub write_include: M,
    /// Components (and tags) the written tables must not have.
    pub write_exclude: M,
    /// Components (and tags) the read tables must have.
    pub read_include: M,
    /// Components (and tags) the read tables must not have.
    pub read_exclude: M,
}

impl<M: fmt::Debug> fmt::Display for TablesOverlap<M> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "the tables written (with {:?}, without {:?}) and read (with {:?}, without {:?}) may \
             overlap: exclude from one side a component the other side requires",
            self.write_include, self.write_exclude, self.read_include, self.read_exclude
        )
    }
}

impl<M: fmt::Debug> core::error::Error for TablesOverlap<M> {}

/// The written side of [`Storage::split_tables`]: the tables matching its filter, iterated
/// mutably.
pub struct TablesMut<'a, T: Archetype> {
    tables: Vec<WrittenTable<'a, T>>,
    masks: QueryMasks<T::Mask>,
    tick: Tick,
}

/// A table of the written side, its change ticks and its tag segments.
type WrittenTable<'a, T> = (
    &'a mut T,
    &'a mut TicksOf<T>,
    &'a TagPartition<<T as Archetype>::Mask>,
);

impl<T: Archetype> TablesMut<'_, T> {
    /// Calls `f(entity, table, row)` for every entity of the written side, with a slice view
    /// of its table (`table.aim[row] = ...`). The view hands out every column of the table and
    /// cannot see which values were written, so every tracked column of the table is stamped
    /// as changed, whole, as `for_each_mut` on the world does.
    pub fn for_each_mut<F>(&mut self, mut f: F)
    where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        let columns = self.masks.include;
        for (table, ticks, partition) in &mut self.tables {
            let (entities, mut view) = table.view_mut(columns);
            // The view reaches every column and every row of the table, not only those of the
            // include mask and of a tag filter, and cannot see writes: report the table whole.
            ticks.stamp(Written::table(entities.len()), T::Mask::ALL, self.tick);
            for run in self.masks.tags.runs_of(entities.len(), partition) {
                for row in run {
                    f(entities[row], &mut view, row);
                }
            }
        }
    }

    /// Calls `f(table)` once per table of the written side, for slice loops
    /// (`table.aim.iter_mut().zip(table.target.iter())`). With tag bits in the filter, `f` gets
    /// one view per run of consecutive matching rows instead, so every row it sees matches.
    /// Every tracked column of the rows handed out is stamped as changed, as in
    /// [`for_each_mut`](Self::for_each_mut).
    pub fn for_each_table_mut<F>(&mut self, mut f: F)
    where
        F: FnMut(&mut T::ViewMut<'_>),
    {
        let columns = self.masks.include;
        let tick = self.tick;
        for (table, ticks, partition) in &mut self.tables {
            let (entities, view) = table.view_mut(columns);
            let table_rows = entities.len();
            let runs = self.masks.tags.runs_of(table_rows, partition);
            split_runs::<T>(entities, view, runs, |rows, _, mut piece| {
                ticks.stamp(Written::Rows { rows, table_rows }, T::Mask::ALL, tick);
                f(&mut piece);
            });
        }
    }

    /// Number of entities on the written side.
    pub fn len(&self) -> usize {
        self.tables
            .iter()
            .flat_map(|(table, _, partition)| self.masks.tags.runs_of(table.len(), partition))
            .map(|run| run.len())
            .sum()
    }

    /// Whether the written side holds no entity.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The read side of [`Storage::split_tables`]: the tables matching its filter, reached by
/// handle while the written side is iterated.
pub struct TablesRef<'a, T: Archetype> {
    /// Indexed by table index: `Some` for the tables of this side, with their tag segments.
    tables: Vec<Option<ReadTable<'a, T>>>,
    records: &'a EntityRecords,
    masks: QueryMasks<T::Mask>,
    /// Every relation's links, whatever side their entities are on: a child on the written
    /// side finds its parent here.
    relations: &'a [RelationStore],
}

/// A table of the read side and its tag segments.
type ReadTable<'a, T> = (&'a T, &'a TagPartition<<T as Archetype>::Mask>);

impl<'a, T: Archetype> TablesRef<'a, T> {
    /// The table and row of `entity` if it is alive and on this side.
    pub fn locate(&self, entity: Entity) -> Option<(&'a T, usize)> {
        let location = self.records.location(entity)?;
        let (table, partition) = (*self.tables.get(location.table())?)?;
        let row = location.row();
        self.masks
            .tags
            .accepts_row(Some(partition), row)
            .then_some((table, row))
    }

    /// Whether `entity` is alive and on this side.
    pub fn contains(&self, entity: Entity) -> bool {
        self.locate(entity).is_some()
    }

    /// The target of a live `source`, on either side, in the relation whose bit is
    /// `relation`: a child being written finds its parent, whose components this side then
    /// reads.
    pub fn target(&self, relation: T::Mask, source: Entity) -> Option<Entity> {
        self.relation_of(relation)?.target(source)
    }

    /// The sources of a live `target`, on either side, in the relation whose bit is
    /// `relation`, in link order: a parent being written reads its children.
    pub fn sources(&self, relation: T::Mask, target: Entity) -> &'a [Entity] {
        self.relation_of(relation)
            .map_or(&[], |store| store.sources(target))
    }

    /// The store of `relation`, if it is one relation's bit. No liveness check is needed:
    /// the store answers only for the generation it linked, and a despawn unlinks first, so a
    /// dead or stale handle finds nothing (`check_invariants` holds that).
    fn relation_of(&self, relation: T::Mask) -> Option<&'a RelationStore> {
        Storage::<T>::store_of(self.relations, relation)
    }

    /// The component of `entity` in the column `column` picks, if the entity is alive, on this
    /// side and its table holds `bit`.
    pub fn get<C: 'a>(
        &self,
        entity: Entity,
        bit: T::Mask,
        column: impl FnOnce(&'a T) -> &'a [C],
    ) -> Option<&'a C> {
        let (table, row) = self.locate(entity)?;
        if !table.mask().contains(bit) {
            return None;
        }
        column(table).get(row)
    }

    /// Calls `f(entity, table, row)` for every entity on this side.
    pub fn for_each<F>(&self, mut f: F)
    where
        F: FnMut(Entity, &'a T, usize),
    {
        for &(table, partition) in self.tables.iter().flatten() {
            for run in self.masks.tags.runs_of(table.len(), partition) {
                for row in run {
                    f(table.entities()[row], table, row);
                }
            }
        }
    }
}

/// Whether no entity can match both filters: a component one side requires is excluded by
/// the other (tags do not count: rows of one table can differ in tags).
fn tables_are_disjoint<T: Archetype>(
    write_include: T::Mask,
    write_exclude: T::Mask,
    read_include: T::Mask,
    read_exclude: T::Mask,
) -> bool {
    ((write_include & read_exclude) | (read_include & write_exclude)).intersects(T::COMPONENTS)
}

/// The two sides of [`Storage::split_tables`] as the storage makes them: written, then read
/// (a [`TablesRef`], which the typed query module turns into the world's `WorldTables`).
pub(crate) type SplitList<'a, T> = (TablesMut<'a, T>, TablesRef<'a, T>);

impl<T: Archetype> Storage<T> {
    /// [`split_tables`](Self::split_tables) with its read side as the storage's
    /// [`TablesRef`].
    pub(crate) fn split_table_list(
        &mut self,
        write_include: T::Mask,
        write_exclude: T::Mask,
        read_include: T::Mask,
        read_exclude: T::Mask,
    ) -> Result<SplitList<'_, T>, TablesOverlap<T::Mask>> {
        if !tables_are_disjoint::<T>(write_include, write_exclude, read_include, read_exclude) {
            return Err(TablesOverlap {
                write_include,
                write_exclude,
                read_include,
                read_exclude,
            });
        }
        // Bits that are neither components nor tags are ignored (a table mask never holds
        // them).
        let known = T::COMPONENTS | T::TAGS | T::Mask::DISABLED;
        let writing_masks = QueryMasks::new::<T>(write_include & known, write_exclude & known);
        let reading_masks = QueryMasks::new::<T>(read_include & known, read_exclude & known);
        let mut written = Vec::new();
        let mut read = Vec::with_capacity(self.tables.len());
        let tables = self.tables.iter_mut().zip(&mut self.ticks);
        for ((table, ticks), partition) in tables.zip(&self.partitions) {
            let mask = table.mask();
            if writing_masks.matches_mask(mask) {
                read.push(None);
                if !table.is_empty() {
                    written.push((table, ticks, partition));
                }
            } else if reading_masks.matches_mask(mask) {
                read.push(Some((&*table, partition)));
            } else {
                read.push(None);
            }
        }
        let writing = TablesMut {
            tables: written,
            masks: writing_masks,
            tick: self.tick,
        };
        let reading = TablesRef {
            tables: read,
            records: &self.records,
            masks: reading_masks,
            relations: &self.relations,
        };
        Ok((writing, reading))
    }

    /// `&mut` to the component in the column `column` picks of each of `entities`, which must
    /// be alive, distinct and hold `bit`; `None` otherwise. Each is stamped as changed.
    #[doc(hidden)]
    pub fn get_disjoint_mut<C, const N: usize>(
        &mut self,
        entities: [Entity; N],
        bit: T::Mask,
        column: impl Fn(&mut T) -> &mut [C],
    ) -> Option<[&mut C; N]> {
        let mut locations = [EntityLocation::default(); N];
        for (location, &entity) in locations.iter_mut().zip(&entities) {
            *location = self.locate_with(entity, bit)?;
        }
        // One live handle per id, so a repeated location is a repeated entity.
        for (index, location) in locations.iter().enumerate() {
            if locations[..index].contains(location) {
                return None;
            }
        }
        for location in &locations {
            self.ticks[location.table()].stamp(Written::Row(location.row()), bit, self.tick);
        }
        // Hand the rows out in (table, row) order, splitting off each one in turn.
        let mut order: [usize; N] = core::array::from_fn(|index| index);
        order.sort_unstable_by_key(|&index| {
            (locations[index].table_index, locations[index].array_index)
        });
        let mut values: [Option<&mut C>; N] = core::array::from_fn(|_| None);
        let mut tables: &mut [T] = &mut self.tables;
        let mut first_table = 0;
        let mut next = 0;
        while let Some(&index) = order.get(next) {
            let table_index = locations[index].table();
            let (table, rest) = core::mem::take(&mut tables)
                .get_mut(table_index - first_table..)?
                .split_first_mut()?;
            tables = rest;
            first_table = table_index + 1;
            let mut rows: &mut [C] = column(table);
            let mut first_row = 0;
            while let Some(&index) = order.get(next) {
                if locations[index].table() != table_index {
                    break;
                }
                let row = locations[index].row();
                let (value, rest) = core::mem::take(&mut rows)
                    .get_mut(row - first_row..)?
                    .split_first_mut()?;
                rows = rest;
                first_row = row + 1;
                values[index] = Some(value);
                next += 1;
            }
        }
        // The loop above filled every place (it walks all of `order`, or returned `None`):
        // no allocation to turn the options into the array.
        if values.iter().any(Option::is_none) {
            return None;
        }
        Some(values.map(|value| value.expect("every place was filled")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;

    type Table = TestWorldComponentArrays;

    #[test]
    fn sides_are_disjoint_only_through_a_component_one_requires_and_the_other_excludes() {
        assert!(tables_are_disjoint::<Table>(NUMBER, 0, NAME, NUMBER));
        assert!(tables_are_disjoint::<Table>(NUMBER, NAME, NAME, 0));
        assert!(!tables_are_disjoint::<Table>(NUMBER, 0, NAME, 0));
        assert!(
            !tables_are_disjoint::<Table>(NUMBER, FLAG, NAME, FLAG),
            "both exclude"
        );
        assert!(
            !tables_are_disjoint::<Table>(MARKED, 0, NAME, MARKED),
            "a tag"
        );
    }

    #[test]
    fn the_two_sides_see_their_own_tables_only() {
        let mut storage = TestStorage::<Table>::new();
        let writer = storage.spawn(NUMBER | FLAG);
        let reader = storage.spawn(NUMBER);
        let neither = storage.spawn(NAME);
        let (mut written, read) = storage.split_tables(FLAG, 0, NUMBER, FLAG).unwrap();
        assert_eq!(written.len(), 1);
        assert!(read.contains(reader));
        assert!(!read.contains(writer) && !read.contains(neither));
        let mut seen = Vec::new();
        written.for_each_mut(|entity, view, row| {
            view.number[row] = 7;
            seen.push(entity);
        });
        assert_eq!(seen, vec![writer]);
        assert_eq!(read.get_number(reader), Some(&0));
        assert_eq!(read.get_name(reader), None);
        assert_eq!(
            storage.get(writer, NUMBER, |table| &table.number[..]),
            Some(&7)
        );
    }

    #[test]
    fn get_disjoint_mut_hands_out_rows_in_the_order_asked() {
        let mut storage = TestStorage::<Table>::new();
        let first = storage.spawn_batch(NUMBER, 3, |view, row| view.number[row] = row as u32);
        let other = storage.spawn_batch(NUMBER | FLAG, 2, |view, row| {
            view.number[row] = 10 + row as u32
        });
        let picked = [other[1], first[2], first[0], other[0]];
        let values = storage
            .get_disjoint_mut(picked, NUMBER, |table| &mut table.number[..])
            .unwrap();
        assert_eq!(values.map(|value| *value), [11, 2, 0, 10]);
        fn column(table: &mut Table) -> &mut [u32] {
            &mut table.number[..]
        }
        assert!(
            storage
                .get_disjoint_mut([first[0], first[0]], NUMBER, column)
                .is_none()
        );
        assert!(
            storage
                .get_disjoint_mut([first[0]], FLAG, |t| &mut t.flag[..])
                .is_none()
        );
        storage.despawn(first[1]);
        assert!(
            storage
                .get_disjoint_mut([first[1]], NUMBER, column)
                .is_none()
        );
    }
}
