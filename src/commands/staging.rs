//! Where the values of queued spawns wait ([`SpawnStaging`]): column by column, in a table of
//! the world's own table type per builder mask, so `apply_commands` moves a run of them into
//! the world's table with one `append` per column, as `spawn_batch` fills it, rather than
//! writing each builder over default rows.

use alloc::vec::Vec;

use super::{StageSpawn, Staging};
use crate::archetype::{Archetype, TableRollback};
use crate::builder::EntityValues;
use crate::column;
use crate::component_values::{BatchColumns, ComponentValues};
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::typed_query::TypedTable;

/// The values of a world's queued spawns with values (`queue_spawn`), kept between frames: per
/// builder mask, a table of the world's table type whose rows are the staged spawns, in the
/// order queued, with the handles they reserved as its entity column, and the relation targets
/// they are to be linked to. A spawn command (`SpawnBuilt { mask, count }`) takes the next
/// `count` rows of its mask's table.
pub struct SpawnStaging<T: Archetype> {
    tables: Vec<StagingTable<T>>,
}

/// The staged spawns of one builder mask.
struct StagingTable<T: Archetype> {
    /// The builders' mask, tags included (the table's own mask is its components).
    mask: T::Mask,
    /// The staged rows not taken yet: in the order queued, or, once a run took only some of
    /// them (runs of two masks interleaved), reversed, so the next run is taken from the end.
    rows: T,
    reversed: bool,
    /// How many rows runs took since the table was last empty: the queue position of
    /// `rows`' first row (last, when reversed).
    taken: usize,
    /// `(queue position, relation, target)` of each link the builders held, in order.
    links: Vec<(usize, T::Mask, Entity)>,
    /// Where a run of only some of the rows is moved to be spawned: empty between runs, its
    /// columns keeping their memory, so a game that queues single spawns of two masks in turn
    /// (a run each) allocates nothing per spawn.
    part: T,
}

/// The next rows of a table that a spawn command takes ([`SpawnStaging::take`]), in the order
/// queued: their handles are the entity column.
pub(crate) enum StagedRun<'a, T: Archetype> {
    /// Every row of the staging table: moved out by `append`, which keeps the staging
    /// table's memory.
    Whole(&'a mut T),
    /// Some of them, moved into the staging table's `part`, emptied when the run is dropped
    /// (of what the spawn left: nothing, unless it panicked).
    Part(EmptiedOnDrop<'a, T>),
}

impl<T: Archetype> StagedRun<'_, T> {
    /// The run's rows.
    pub(crate) fn rows(&mut self) -> &mut T {
        match self {
            StagedRun::Whole(rows) => rows,
            StagedRun::Part(part) => part.0,
        }
    }
}

/// A table emptied on drop (its values dropped, its memory kept).
pub(crate) struct EmptiedOnDrop<'a, T: Archetype>(&'a mut T);

impl<T: Archetype> Drop for EmptiedOnDrop<'_, T> {
    fn drop(&mut self) {
        let mask = self.0.mask();
        self.0.entities_mut().clear();
        self.0.for_each_column(&mut column::ClearColumns { mask });
    }
}

impl<T: Archetype> Default for SpawnStaging<T> {
    fn default() -> Self {
        Self { tables: Vec::new() }
    }
}

impl<T: Archetype> SpawnStaging<T> {
    /// The table of `mask`, made if there is none (found by a scan: a game queues few masks;
    /// the last one first, as runs of one mask come together).
    fn table_for(&mut self, mask: T::Mask) -> &mut StagingTable<T> {
        let found = match self.tables.last() {
            Some(last) if last.mask == mask => Some(self.tables.len() - 1),
            _ => self.tables.iter().position(|table| table.mask == mask),
        };
        let index = found.unwrap_or_else(|| {
            self.tables.push(StagingTable {
                mask,
                rows: T::new(mask & T::COMPONENTS),
                reversed: false,
                taken: 0,
                links: Vec::new(),
                part: T::new(mask & T::COMPONENTS),
            });
            self.tables.len() - 1
        });
        &mut self.tables[index]
    }

    /// Takes the next `count` staged rows of `mask` (fewer if fewer are staged) and hands
    /// them to `spawn` with the links of their builders, each as `(row of the run, relation,
    /// target)`; returns what `spawn` returns.
    pub(crate) fn take<R>(
        &mut self,
        mask: T::Mask,
        count: usize,
        spawn: impl FnOnce(StagedRun<'_, T>, &mut dyn Iterator<Item = (usize, T::Mask, Entity)>) -> R,
    ) -> Option<R> {
        let table = self.tables.iter_mut().find(|table| table.mask == mask)?;
        let count = count.min(table.rows.len());
        let first = table.taken;
        let links_end = table
            .links
            .iter()
            .position(|&(position, ..)| position >= first + count)
            .unwrap_or(table.links.len());
        table.taken += count;
        let run = if count == table.rows.len() {
            if table.reversed {
                table.reverse();
            }
            StagedRun::Whole(&mut table.rows)
        } else {
            if !table.reversed {
                table.reverse();
            }
            let part = EmptiedOnDrop(&mut table.part);
            let mask = part.0.mask();
            part.0
                .for_each_column_pair(&mut table.rows, &mut column::TakeLast { mask, count });
            let entities = table.rows.entities_mut();
            let kept = entities.len() - count;
            part.0.entities_mut().extend(entities.drain(kept..).rev());
            StagedRun::Part(part)
        };
        let mut links = table
            .links
            .drain(..links_end)
            .map(|(position, relation, target)| (position - first, relation, target));
        let spawned = spawn(run, &mut links);
        drop(links);
        if table.rows.is_empty() {
            table.reversed = false;
            table.taken = 0;
            table.links.clear();
        }
        Some(spawned)
    }

    /// Each staged spawn's handle and builder mask, grouped by mask, in the order queued
    /// within each.
    pub fn spawns(&self) -> impl Iterator<Item = (Entity, T::Mask)> + '_ {
        self.tables.iter().flat_map(|table| {
            table
                .rows
                .entities()
                .iter()
                .map(move |&entity| (entity, table.mask))
        })
    }

    /// The staged rows of each builder mask: the world's table type, its entity column the
    /// reserved handles (read-only: for checks and tests).
    pub fn tables(&self) -> impl Iterator<Item = (T::Mask, &T)> + '_ {
        self.tables.iter().map(|table| (table.mask, &table.rows))
    }
}

impl<T: Archetype, V: EntityValues<Archetype = T>> StageSpawn<V> for SpawnStaging<T> {
    type Spawn = T::Mask;

    /// Stages a spawn of `values` in the table of its mask, with the handle `reserve` gives. A
    /// `Default` that panics (a component of the builder's mask it holds no value for) stages
    /// nothing and reserves nothing.
    ///
    /// This and what it calls to place the values (`EntityValues::push`, the builder's
    /// `take_into`) are always inlined, as `queue_spawn` is: once a second system queues spawns
    /// of the same builder, the compiler stopped inlining them into either loop, and each
    /// builder went through memory (queued_spawn 1.45x slower).
    #[inline(always)]
    fn stage(&mut self, values: V, reserve: impl FnOnce() -> Entity) -> (T::Mask, Entity) {
        let mask = values.mask();
        let table = self.table_for(mask);
        debug_assert!(
            !table.reversed,
            "a staging table is in order between applies"
        );
        let position = table.taken + table.rows.len();
        let links_before = table.links.len();
        for &(relation, target) in values.links() {
            table.links.push((position, relation, target));
        }
        let unstaged = TruncateLinks {
            links: &mut table.links,
            len: links_before,
        };
        let mut pushed = TableRollback::new(&mut table.rows);
        values.push(pushed.table());
        let entity = reserve();
        pushed.commit();
        core::mem::forget(unstaged);
        table.rows.entities_mut().push(entity);
        (mask, entity)
    }
}

impl<T: TypedTable> SpawnStaging<T> {
    /// Stages a spawn of one entity per tuple of `values` in the table of the tuples' mask,
    /// each value moved into its staging column once, then reserves their handles with
    /// `reserve` (given how many): returns the mask and the handles. If the iterator panics,
    /// nothing is staged or reserved.
    pub(crate) fn stage_values<V: ComponentValues<T, M>, M>(
        &mut self,
        values: impl IntoIterator<Item = V>,
        reserve: impl FnOnce(usize) -> Vec<Entity>,
    ) -> (T::Mask, Vec<Entity>) {
        assert!(
            V::DISTINCT,
            "archetypal: `queue_spawn_values` was given a tuple naming one component twice"
        );
        let mask = T::Mask::narrow(V::MASK);
        let table = self.table_for(mask);
        debug_assert!(
            !table.reversed,
            "a staging table is in order between applies"
        );
        let mut batch = BatchColumns::<T, V, M>::take(&mut table.rows);
        let count = batch.push_all(values);
        batch.commit();
        let entities = reserve(count);
        table.rows.entities_mut().extend_from_slice(&entities);
        (mask, entities)
    }
}

impl<T: Archetype> Staging for SpawnStaging<T> {
    /// Whether nothing is staged.
    fn is_empty(&self) -> bool {
        self.tables.iter().all(|table| table.rows.is_empty())
    }

    /// Drops every staged value, keeping the memory.
    fn clear(&mut self) {
        for table in &mut self.tables {
            table.clear();
        }
    }

    /// Puts the rows of every table back in the order queued (after a panic cut an apply
    /// short: the spawns left are staged again as they were).
    fn reorder(&mut self) {
        for table in &mut self.tables {
            if table.reversed {
                table.reverse();
            }
        }
    }
}

impl<T: Archetype> StagingTable<T> {
    /// Reverses the rows, every column and the entity column: from the order queued to the
    /// order runs are taken from the end in, or back.
    fn reverse(&mut self) {
        let mask = self.rows.mask();
        self.rows.for_each_column(&mut column::Reverse { mask });
        self.rows.entities_mut().reverse();
        self.reversed = !self.reversed;
    }

    fn clear(&mut self) {
        self.links.clear();
        self.reversed = false;
        self.taken = 0;
        if !self.rows.is_empty() {
            // A fresh table first, the old one dropped after: a value whose `Drop` panics
            // leaves nothing staged, never a handle without its values. (An emptied table,
            // which every apply leaves, keeps its memory.)
            let empty = T::new(self.rows.mask());
            drop(core::mem::replace(&mut self.rows, empty));
        }
    }
}

/// Cuts a staging table's links back to `len` if a staged spawn panics before its row is in.
struct TruncateLinks<'a, M> {
    links: &'a mut Vec<(usize, M, Entity)>,
    len: usize,
}

impl<M> Drop for TruncateLinks<'_, M> {
    fn drop(&mut self) {
        self.links.truncate(self.len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::test_world::*;
    use alloc::string::{String, ToString};

    fn named(number: u32) -> TestWorldEntityBuilder {
        TestWorldEntityBuilder::new()
            .with_number(number)
            .with_name(number.to_string())
    }

    fn numbered(number: u32) -> TestWorldEntityBuilder {
        TestWorldEntityBuilder::new().with_number(number)
    }

    /// Stages `numbers` with the builder `build` makes of each, handles numbered from `first`.
    fn stage_all(
        staging: &mut SpawnStaging<TestWorldComponentArrays>,
        numbers: core::ops::Range<u32>,
        build: fn(u32) -> TestWorldEntityBuilder,
    ) {
        for number in numbers {
            let (_, entity) = staging.stage(build(number), || Entity::new(number, 0));
            assert_eq!(entity, Entity::new(number, 0));
        }
    }

    /// A staged row: its handle's id, its number and its name.
    type Row = (u32, u32, String);

    /// Takes a run and lists its rows (handle, number, name), its links by row, and whether
    /// it was the whole table. (Links at work: the queued part of the relations tests.)
    fn take(
        staging: &mut SpawnStaging<TestWorldComponentArrays>,
        mask: u64,
        count: usize,
    ) -> (Vec<Row>, Vec<(usize, Entity)>, bool) {
        staging
            .take(mask, count, |mut run, links| {
                let whole = matches!(run, StagedRun::Whole(_));
                let rows = run.rows();
                let listed = (0..rows.len())
                    .map(|row| {
                        let name = rows.name.get(row).cloned().unwrap_or_default();
                        (rows.entities[row].id, rows.number[row], name)
                    })
                    .collect();
                let links = links.map(|(row, _, target)| (row, target)).collect();
                // The storage empties a run it spawns.
                *rows = TestWorldComponentArrays::new(rows.mask);
                (listed, links, whole)
            })
            .unwrap()
    }

    #[test]
    fn a_run_of_every_staged_row_is_taken_whole_and_the_table_kept() {
        let mut staging = SpawnStaging::default();
        stage_all(&mut staging, 0..3, named);
        let (rows, links, whole) = take(&mut staging, NUMBER | NAME, 3);
        assert!(whole);
        assert!(links.is_empty());
        let expected: Vec<_> = (0..3).map(|n| (n, n, n.to_string())).collect();
        assert_eq!(rows, expected);
        assert!(staging.is_empty());
        assert_eq!(
            staging.tables().count(),
            1,
            "the table stays for the next frame"
        );
    }

    #[test]
    fn interleaved_runs_take_their_rows_in_the_order_queued() {
        let mut staging = SpawnStaging::default();
        stage_all(&mut staging, 0..2, named);
        stage_all(&mut staging, 10..11, numbered);
        stage_all(&mut staging, 2..5, named);
        let ids = |rows: &[Row]| rows.iter().map(|row| row.0).collect::<Vec<_>>();
        let (first, _, whole) = take(&mut staging, NUMBER | NAME, 2);
        assert!(!whole, "some of the rows: moved out of a reversed table");
        assert_eq!(ids(&first), [0, 1]);
        assert_eq!(ids(&take(&mut staging, NUMBER, 1).0), [10]);
        let (rest, _, whole) = take(&mut staging, NUMBER | NAME, 3);
        assert!(whole, "the last run: the table back in order, taken whole");
        assert_eq!(
            rest,
            (2..5).map(|n| (n, n, n.to_string())).collect::<Vec<_>>()
        );
        assert!(staging.is_empty());
        // Emptied, the table is in order again.
        stage_all(&mut staging, 5..7, named);
        assert!(take(&mut staging, NUMBER | NAME, 2).2);
    }

    #[test]
    fn a_part_run_is_emptied_after_its_spawn_and_its_memory_kept_for_the_next() {
        let mut staging = SpawnStaging::default();
        stage_all(&mut staging, 0..5, named);
        stage_all(&mut staging, 10..11, numbered);
        stage_all(&mut staging, 5..7, named);
        // A spawn that leaves its rows, as one that panicked half way: they go with the run.
        let left = staging.take(NUMBER | NAME, 5, |mut run, _| {
            assert!(matches!(run, StagedRun::Part(_)));
            run.rows().len()
        });
        assert_eq!(left, Some(5));
        assert_eq!(take(&mut staging, NUMBER, 1).0, [(10, 10, String::new())]);
        // The next part holds only its own row, in the columns the first part grew to five.
        let (row, capacity) = staging
            .take(NUMBER | NAME, 1, |mut run, _| {
                assert!(matches!(run, StagedRun::Part(_)));
                let rows = run.rows();
                let row = (
                    rows.entities.clone(),
                    rows.number.clone(),
                    rows.name.clone(),
                );
                let capacity = rows.number.capacity();
                rows.number.clear();
                rows.name.clear();
                rows.entities.clear();
                (row, capacity)
            })
            .unwrap();
        assert_eq!(
            row,
            (vec![Entity::new(5, 0)], vec![5], vec!["5".to_string()])
        );
        assert!(capacity >= 5, "the part's column was made anew: {capacity}");
        let (rest, _, whole) = take(&mut staging, NUMBER | NAME, 1);
        assert!(whole);
        assert_eq!(rest, [(6, 6, "6".to_string())]);
    }

    #[test]
    fn staged_values_join_the_builders_of_their_mask_in_the_order_queued() {
        let mut staging = SpawnStaging::default();
        stage_all(&mut staging, 0..1, named);
        let mut next = 1;
        let (mask, entities) =
            staging.stage_values((1..3u32).map(|n| (n.to_string(), n)), |count| {
                let handles = (next..next + count as u32)
                    .map(|id| Entity::new(id, 0))
                    .collect();
                next += count as u32;
                handles
            });
        assert_eq!(mask, NUMBER | NAME);
        assert_eq!(entities, [Entity::new(1, 0), Entity::new(2, 0)]);
        stage_all(&mut staging, 3..4, named);
        let (rows, _, whole) = take(&mut staging, NUMBER | NAME, 4);
        assert!(whole);
        assert_eq!(
            rows,
            (0..4).map(|n| (n, n, n.to_string())).collect::<Vec<_>>()
        );
        // Nothing yielded: nothing reserved.
        let (_, none) = staging.stage_values(core::iter::empty::<(u32,)>(), |count| {
            assert_eq!(count, 0);
            Vec::new()
        });
        assert!(none.is_empty());
        assert!(staging.is_empty());
    }

    #[test]
    fn reorder_and_clear_leave_a_table_ready_for_more() {
        let mut staging = SpawnStaging::default();
        stage_all(&mut staging, 0..4, named);
        take(&mut staging, NUMBER | NAME, 1);
        // As after a panic: the rest go back in the order queued.
        staging.reorder();
        let left: Vec<u32> = staging.spawns().map(|(entity, _)| entity.id).collect();
        assert_eq!(left, [1, 2, 3]);
        staging.clear();
        assert!(staging.is_empty());
        stage_all(&mut staging, 7..8, named);
        assert_eq!(
            take(&mut staging, NUMBER | NAME, 1).0,
            [(7, 7, "7".to_string())]
        );
    }
}
