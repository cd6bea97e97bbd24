//! The mutable query forms over the one walk ([`Storage::walk_mut`]): `for_each_mut`,
//! `for_each_table_mut`, the run walk of typed queries, `par_for_each_mut`, and the
//! matching tables mutably. A view hands out its columns mutably and cannot see writes, so
//! each form stamps, through the one stamping policy ([`TableTicks::stamp`]), every tracked
//! column over the rows it hands out.
//!
//! [`TableTicks::stamp`]: crate::change_ticks::TableTicks::stamp

#[cfg(feature = "parallel")]
use alloc::vec::Vec;
use core::ops::Range;

use super::RunTags;
use super::Storage;
use super::walk::{WalkMut, WalkedRun, split_runs};
use crate::archetype::{Archetype, TicksOf};
use crate::change_ticks::Written;
use crate::entity::Entity;
use crate::mask::Bitmask;

/// How many chunks per rayon thread `par_for_each_mut` aims for, so uneven work still balances.
#[cfg(feature = "parallel")]
const CHUNKS_PER_THREAD: usize = 4;

impl<T: Archetype> Storage<T> {
    /// Mutable form of [`matching_tables`](Self::matching_tables); fills the cache on a miss.
    #[doc(hidden)]
    pub fn matching_tables_mut(
        &mut self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> MatchingTablesMut<'_, T> {
        MatchingTablesMut {
            walk: self.walk_mut(include, exclude),
        }
    }

    /// Calls `f(entity, view, row)` for every entity with all components and tags of
    /// `include` and none of `exclude`, with a mutable slice view of its table
    /// (`view.position[row].x += 1.0`). The view can write any column of any row and the
    /// storage cannot see which, so every tracked component of each table visited is
    /// reported changed, whole (in O(1) per table). O(matching tables) plus their rows; the
    /// first query of a mask caches its tables (O(tables), once).
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[inline(always)]
    pub fn for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        let tick = self.tick;
        let columns = include & !T::TAGS;
        self.walk_mut_each(include, exclude, |walked| {
            let runs = walked.runs();
            // The view hands out every column of the whole table (any row, not only the rows
            // a tag filter selects).
            walked
                .ticks
                .stamp(Written::table(walked.table.len()), T::Mask::ALL, tick);
            let (entities, mut view) = walked.table.view_mut(columns);
            for run in runs {
                for (offset, &entity) in entities[run.clone()].iter().enumerate() {
                    f(entity, &mut view, run.start + offset);
                }
            }
        });
    }

    /// Parallel [`for_each_mut`](Self::for_each_mut) (feature `parallel`), callable when every
    /// component type is `Send`: the matching rows are cut into chunks (several per thread,
    /// so one large table spreads over every thread too) and rayon runs `f` on the chunks.
    /// Each chunk is a view of its rows only, so `index` is relative to the view `f`
    /// receives, exactly as in `for_each_mut`.
    #[cfg(feature = "parallel")]
    pub fn par_for_each_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, f: F)
    where
        T: Send,
        for<'a> T::ViewMut<'a>: Send,
        F: Fn(Entity, &mut T::ViewMut<'_>, usize) + Sync + Send,
    {
        use rayon::prelude::{IntoParallelIterator, ParallelIterator};

        let tick = self.tick;
        let columns = include & !T::TAGS;
        let walked: Vec<_> = self.walk_mut(include, exclude).collect();
        let rows: usize = walked
            .iter()
            .flat_map(|walked| walked.runs())
            .map(|run| run.len())
            .sum();
        let chunk_rows = rows
            .div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD)
            .max(1);
        let mut chunks = Vec::new();
        for walked in walked {
            let runs = walked.runs();
            // The views hand out every column of the whole table, as `for_each_mut`'s.
            walked
                .ticks
                .stamp(Written::table(walked.table.len()), T::Mask::ALL, tick);
            let (entities, view) = walked.table.view_mut(columns);
            split_runs::<T>(entities, view, runs, |_, entities, view| {
                let (mut entities, mut view) = (entities, view);
                while entities.len() > chunk_rows {
                    let (head, tail) = T::split_view(view, chunk_rows);
                    chunks.push((&entities[..chunk_rows], head));
                    entities = &entities[chunk_rows..];
                    view = tail;
                }
                chunks.push((entities, view));
            });
        }
        chunks.into_par_iter().for_each(|(entities, mut view)| {
            for (row, &entity) in entities.iter().enumerate() {
                f(entity, &mut view, row);
            }
        });
    }

    /// Calls `f(view)` once per non-empty table matching `include` / `exclude`: the fastest
    /// loop (`view.position.iter_mut().zip(view.velocity.iter())`). With tag bits in the
    /// masks, `f` gets one view per run of consecutive matching rows instead (rows of one tag
    /// signature are contiguous, so a few per table), and every row it sees matches. Every
    /// tracked component of the rows handed out is reported changed. O(matching tables), plus
    /// what `f` does; the first query of a mask caches its tables (O(tables), once).
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[inline(always)]
    pub fn for_each_table_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(&mut T::ViewMut<'_>),
    {
        let tick = self.tick;
        // Each view hands out every column of its rows: stamped as a whole.
        let stamp = |ticks: &mut TicksOf<T>, rows, table_rows| {
            ticks.stamp(Written::Rows { rows, table_rows }, T::Mask::ALL, tick);
        };
        self.walk_runs_mut(include, exclude, stamp, |_, mut view, _| f(&mut view));
    }

    /// The run walk of typed queries' `for_each` ([`TypedQuery`](crate::TypedQuery)): calls
    /// `f(run, view, ticks)` once per non-empty table matching `include` / `exclude`, or once
    /// per run of consecutive matching rows when the masks hold tag bits, so every row `f`
    /// sees matches: the run's entities and place in the table ([`WalkedRun`]), the view of
    /// its rows and the table's change ticks, to stamp what it writes.
    // Inlined into each caller (one instantiation per closure anyway), so the masks are
    // constants there: see the generated `for_each_table_mut`.
    #[doc(hidden)]
    #[inline(always)]
    pub fn for_each_run_mut<F>(&mut self, include: T::Mask, exclude: T::Mask, f: F)
    where
        F: for<'r> FnMut(WalkedRun<'r, T>, T::ViewMut<'r>, &mut TicksOf<T>),
    {
        self.walk_runs_mut(include, exclude, |_, _, _| {}, f);
    }

    /// The one walk of [`for_each_table_mut`](Self::for_each_table_mut) and
    /// [`for_each_run_mut`](Self::for_each_run_mut): per matching table, one run of the whole
    /// table when the masks name no tag (the common case, kept free of the partition and the
    /// view splitting, since a world of many small tables pays this loop's body per table),
    /// else one run per stretch of matching rows. `before(ticks, rows, table_rows)` sees every
    /// run of a table before any view of it is built: a view built first would live across a
    /// call `before` makes (a stamp's rare path) in the registers a call preserves, and the
    /// game's loop then ran 1.4x slower over the same columns (`large_iter`: its base pointer
    /// in `%rbp`, whose streaming loads are slow on this host's cores). Then `f(run, view,
    /// ticks)` gets each run.
    #[inline(always)]
    fn walk_runs_mut<B, F>(&mut self, include: T::Mask, exclude: T::Mask, mut before: B, mut f: F)
    where
        B: FnMut(&mut TicksOf<T>, Range<usize>, usize),
        F: for<'r> FnMut(WalkedRun<'r, T>, T::ViewMut<'r>, &mut TicksOf<T>),
    {
        let columns = include & !T::TAGS;
        let no_tags = (include | exclude) & T::TAGS == T::Mask::EMPTY;
        self.walk_mut_each(include, exclude, |walked| {
            let table_rows = walked.table.len();
            if no_tags {
                before(walked.ticks, 0..table_rows, table_rows);
                let tags = RunTags::new(walked.partition(), 0);
                let (entities, view) = walked.table.view_mut(columns);
                let run = WalkedRun {
                    entities,
                    rows: 0..table_rows,
                    table_rows,
                    tags,
                };
                f(run, view, walked.ticks);
                return;
            }
            for rows in walked.runs() {
                before(walked.ticks, rows, table_rows);
            }
            let runs = walked.runs();
            let partition = walked.partition();
            let ticks = walked.ticks;
            let (entities, view) = walked.table.view_mut(columns);
            split_runs::<T>(entities, view, runs, |rows, entities, view| {
                let run = WalkedRun {
                    entities,
                    tags: RunTags::new(partition, rows.start),
                    rows,
                    table_rows,
                };
                f(run, view, ticks);
            });
        });
    }
}

/// Iterator over the tables matching a query, mutably; see [`Storage::matching_tables_mut`].
pub struct MatchingTablesMut<'a, T: Archetype> {
    walk: WalkMut<'a, T>,
}

impl<'a, T: Archetype> Iterator for MatchingTablesMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        self.walk.next().map(|walked| walked.table)
    }
}
