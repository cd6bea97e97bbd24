//! The rows of one table, partitioned by tag signature (the set of tags a row's entity has).
//!
//! Tags create no tables: tagging an entity never migrates it. But a tag filter must still
//! select rows as fast as a component filter selects tables, so each table keeps the rows of
//! one signature contiguous, as a list of segments `(signature, first row)` in row order. A
//! tag filter then picks whole segments: contiguous slices, the same loop a table gets.
//!
//! Changing a row's signature moves the row to its new segment inside the same table by
//! whole-row swaps, one per segment boundary crossed (so at most the number of segments); the
//! partition only decides the swaps, the caller performs them on every column, change tick
//! and entity location through the `swap` callback. Segments are never empty, and no two
//! have the same signature.

use alloc::{string::String, vec::Vec};
use core::mem::ManuallyDrop;
use core::ops::Range;

use crate::dropped::DropHere;
use crate::mask::{Bitmask, over_mask};

/// One table's rows, partitioned by tag signature; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagPartition<M> {
    /// The non-empty segments in row order; each runs to the next one's start (the last one
    /// to `rows`).
    segments: Vec<Segment<M>>,
    /// Number of rows of the table.
    rows: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment<M> {
    tags: M,
    start: usize,
}

impl<M: Bitmask> Default for TagPartition<M> {
    fn default() -> Self {
        TagPartition {
            segments: Vec::new(),
            rows: 0,
        }
    }
}

impl<M: Bitmask> TagPartition<M> {
    /// The partition of an empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every segment: its signature and its rows, in row order.
    #[cfg(test)]
    pub fn segments(&self) -> impl Iterator<Item = (M, Range<usize>)> + '_ {
        (0..self.segments.len()).map(|index| (self.segments[index].tags, self.range(index)))
    }

    /// The tags of the entity at `row` (no tags past the last row).
    #[inline]
    pub fn tags_of(&self, row: usize) -> M {
        if row >= self.rows {
            return M::EMPTY;
        }
        match self.segments.as_slice() {
            [only] => only.tags,
            _ => self.segments[self.segment_of(row)].tags,
        }
    }

    /// The tags of the entity at `row` and the row after the last of its segment (the rows
    /// from `row` to there share them); no tags and `row + 1` past the last row.
    #[inline]
    pub fn segment_at(&self, row: usize) -> (M, usize) {
        if row >= self.rows {
            return (M::EMPTY, row + 1);
        }
        let index = self.segment_of(row);
        (self.segments[index].tags, self.end(index))
    }

    /// The rows whose signature holds every tag of `include` and none of `exclude`, as
    /// maximal ranges in row order (adjacent matching segments are merged).
    #[inline]
    pub fn runs(&self, include: M, exclude: M) -> Runs<'_, M> {
        Runs(RunsInner::Segments {
            partition: self,
            next: 0,
            include,
            exclude,
        })
    }

    /// Records `count` rows the table has just appended, all of signature `tags`, and moves
    /// them into their segment with `swap`. Returns `false` when they stayed where they were
    /// appended, in order; `true` when swaps moved them (the rows of the table's new last
    /// `count` positions are then no longer all new).
    #[inline]
    pub fn push(&mut self, count: usize, tags: M, swap: &mut impl FnMut(usize, usize)) -> bool {
        if count == 0 {
            return false;
        }
        if self.segments.last().is_some_and(|last| last.tags == tags) {
            self.rows += count;
            return false;
        }
        let plan_push = M::pick::<PlanPush>(at_u64::plan_push, at_u128::plan_push);
        let Some(target) = plan_push(self, count, tags) else {
            return false;
        };
        // The block of new rows sits right after the last segment. Each later segment moves
        // up by `count` rows: its first rows (at most `count`) trade places with the block's
        // last ones, so the block ends up just before it.
        let mut block = self.rows - count;
        for index in (target + 1..self.segments.len()).rev() {
            let start = self.segments[index].start;
            let traded = count.min(block - start);
            for offset in 0..traded {
                swap(start + offset, block + count - traded + offset);
            }
            self.segments[index].start = start + count;
            block = start;
        }
        true
    }

    /// Moves the row at `row` to the segment of signature `tags` (created when missing, next
    /// to the row's current segment so the move is one swap), with one swap per segment
    /// boundary crossed. Returns the row's new position.
    #[inline]
    pub fn retag(&mut self, row: usize, tags: M, swap: &mut impl FnMut(usize, usize)) -> usize {
        debug_assert!(row < self.rows, "row {row} of {}", self.rows);
        let source = self.segment_of(row);
        if self.segments[source].tags == tags {
            return row;
        }
        // A segment next to the row's (a toggle between two signatures) is found inline; any
        // other, or a new one, out of line.
        let target = if self
            .segments
            .get(source + 1)
            .is_some_and(|next| next.tags == tags)
        {
            source + 1
        } else if source > 0 && self.segments[source - 1].tags == tags {
            source - 1
        } else {
            M::pick::<TargetSegment>(at_u64::target_segment, at_u128::target_segment)(
                self, source, tags,
            )
        };
        let crossing = Crossing {
            from: source,
            to: target,
        };
        let row = if target > source {
            self.move_up(row, crossing, swap)
        } else {
            self.move_down(row, crossing, swap)
        };
        self.drop_if_empty(source);
        row
    }

    /// Takes the row at `row` out of the partition before the table removes it: the row is
    /// first moved into the last segment. Returns its position there, for the table to
    /// `swap_remove` (the last row, which fills the hole, is of the same segment).
    ///
    /// The same repairs the partition after the table `swap_remove`d the row at `row` (a
    /// migration out of it): the table's former last row, of the last segment, then fills
    /// `row`, and is moved back into the last segment. Every position the moves touch lies
    /// before the last segment's start, so inside the shortened table.
    #[inline]
    pub fn remove(&mut self, row: usize, swap: &mut impl FnMut(usize, usize)) -> usize {
        debug_assert!(row < self.rows, "row {row} of {}", self.rows);
        if self.segments.len() == 1 {
            // The common case (no tag, or one signature): nothing moves.
            self.shrink_single();
            return row;
        }
        let source = self.segment_of(row);
        let last = self.segments.len() - 1;
        let row = self.move_up(
            row,
            Crossing {
                from: source,
                to: last,
            },
            swap,
        );
        // When the row came from another segment, the last one gained it and loses its
        // final slot: it keeps its size, so only the source can have emptied.
        self.rows -= 1;
        self.drop_if_empty(source);
        row
    }

    /// Checks the partition against its table: `rows` rows, segments non-empty, in order,
    /// from row 0, of distinct signatures within `allowed`.
    pub fn check(&self, rows: usize, allowed: M) -> Result<(), String> {
        M::pick::<Check>(at_u64::check, at_u128::check)(self, rows, allowed)
    }

    // ----- compiled once per mask width, in this crate (see the end of this file) -----------

    /// [`retag`](Self::retag)'s target segment when it is not next to the row's segment
    /// `source`: the one of signature `tags`, or a new one inserted after `source` (empty,
    /// so the move is one swap).
    fn target_segment(&mut self, source: usize, tags: M) -> usize {
        match self.index_of(tags) {
            Some(index) => index,
            None => {
                let start = self.end(source);
                self.segments.insert(source + 1, Segment { tags, start });
                source + 1
            }
        }
    }

    /// [`push`](Self::push)'s bookkeeping of rows not of the last segment's signature: counts
    /// them, and returns the segment they must join, or `None` when they open a new one where
    /// they are.
    fn plan_push(&mut self, count: usize, tags: M) -> Option<usize> {
        let appended_at = self.rows;
        self.rows += count;
        let target = self.index_of(tags);
        if target.is_none() {
            self.segments.push(Segment {
                tags,
                start: appended_at,
            });
        }
        target
    }

    /// Drops segment `index`, which a row left empty.
    fn remove_segment(&mut self, index: usize) {
        self.segments.remove(index);
    }

    /// The next run of matching segments from segment `*next` on (see [`Runs`]).
    fn next_run(&self, next: &mut usize, include: M, exclude: M) -> Option<Range<usize>> {
        let segments = &self.segments;
        let matches = |segment: &Segment<M>| segment.tags.matches(include, exclude);
        let first = *next + segments[*next..].iter().position(matches)?;
        let mut last = first;
        while segments.get(last + 1).is_some_and(matches) {
            last += 1;
        }
        *next = last + 1;
        Some(segments[first].start..self.end(last))
    }

    /// See [`check`](Self::check).
    fn check_segments(&self, rows: usize, allowed: M) -> Result<(), String> {
        if self.rows != rows {
            return Err(format!(
                "the tag partition counts {} rows, the table has {rows}",
                self.rows
            ));
        }
        if self.segments.first().is_some_and(|first| first.start != 0) {
            return Err("the first tag segment does not start at row 0".into());
        }
        if rows > 0 && self.segments.is_empty() {
            return Err("rows outside every tag segment".into());
        }
        for index in 0..self.segments.len() {
            let Segment { tags, start } = self.segments[index];
            if self.end(index) <= start {
                return Err(format!("tag segment {index} is empty or out of order"));
            }
            if !allowed.contains(tags) {
                return Err(format!("tag segment {index} holds non-tag bits {tags:?}"));
            }
            if self.segments[..index]
                .iter()
                .any(|other| other.tags == tags)
            {
                return Err(format!("two tag segments of signature {tags:?}"));
            }
        }
        Ok(())
    }

    // ----- internals ------------------------------------------------------------------------

    /// One row fewer in a partition of a single segment (dropped with its last row).
    #[inline]
    fn shrink_single(&mut self) {
        self.rows -= 1;
        if self.rows == 0 {
            self.segments.clear();
        }
    }

    /// Drops segment `index` if a row leaving it emptied it.
    #[inline]
    fn drop_if_empty(&mut self, index: usize) {
        if index < self.segments.len() && self.range(index).is_empty() {
            M::pick::<RemoveSegment>(at_u64::remove_segment, at_u128::remove_segment)(self, index);
        }
    }

    /// The index of the segment holding `row` (below `rows`).
    #[inline]
    fn segment_of(&self, row: usize) -> usize {
        // The last segment starting at or before `row` (the first starts at row 0), by a
        // binary search written out: less code per world than `partition_point`'s.
        let (mut low, mut high) = (0, self.segments.len());
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if self.segments[middle].start <= row {
                low = middle;
            } else {
                high = middle;
            }
        }
        low
    }

    fn index_of(&self, tags: M) -> Option<usize> {
        self.segments
            .iter()
            .position(|segment| segment.tags == tags)
    }

    /// The row after the last of segment `index`.
    #[inline]
    fn end(&self, index: usize) -> usize {
        self.segments
            .get(index + 1)
            .map_or(self.rows, |next| next.start)
    }

    #[inline]
    fn range(&self, index: usize) -> Range<usize> {
        self.segments[index].start..self.end(index)
    }

    /// Moves the row at `row`, of segment `from`, into segment `to > from`: at each boundary it
    /// trades places with its segment's last row, which then becomes the next segment's first.
    #[inline]
    fn move_up(
        &mut self,
        mut row: usize,
        Crossing { from, to }: Crossing,
        swap: &mut impl FnMut(usize, usize),
    ) -> usize {
        for next in from + 1..=to {
            let last = self.segments[next].start - 1;
            if row != last {
                swap(row, last);
                row = last;
            }
            self.segments[next].start = last;
        }
        row
    }

    /// Moves the row at `row`, of segment `from`, into segment `to < from`: at each boundary it
    /// trades places with its segment's first row, which then becomes the previous one's last.
    #[inline]
    fn move_down(
        &mut self,
        mut row: usize,
        Crossing { from, to }: Crossing,
        swap: &mut impl FnMut(usize, usize),
    ) -> usize {
        for index in (to + 1..=from).rev() {
            let first = self.segments[index].start;
            if row != first {
                swap(row, first);
                row = first;
            }
            self.segments[index].start = first + 1;
        }
        row
    }
}

/// A row's way across segment boundaries: from segment `from` into segment `to`, one swap
/// per boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Crossing {
    from: usize,
    to: usize,
}

/// The rows of a table matching a tag filter, as maximal ranges in row order; see
/// [`TagPartition::runs`].
pub struct Runs<'a, M>(RunsInner<'a, M>);

enum RunsInner<'a, M> {
    /// Every row (no tag in the filter), handed out once.
    Whole(Option<Range<usize>>),
    /// The matching segments of a partition.
    Segments {
        partition: &'a TagPartition<M>,
        next: usize,
        include: M,
        exclude: M,
    },
}

impl<M> Runs<'_, M> {
    /// Every row of a table of `rows` rows, as one run (none when it is empty).
    #[inline]
    pub fn whole(rows: usize) -> Self {
        Runs(RunsInner::Whole((rows > 0).then_some(0..rows)))
    }
}

impl<M: Bitmask> Iterator for Runs<'_, M> {
    type Item = Range<usize>;

    #[inline]
    fn next(&mut self) -> Option<Range<usize>> {
        match &mut self.0 {
            RunsInner::Whole(run) => run.take(),
            RunsInner::Segments {
                partition,
                next,
                include,
                exclude,
            } => M::pick::<NextRun>(at_u64::next_run, at_u128::next_run)(
                partition, next, *include, *exclude,
            ),
        }
    }
}

// ----- compiled once per mask width, in this crate ------------------------------------------

over_mask! {
    /// [`TagPartition::retag`]'s search for a segment that is not next to the row's.
    TargetSegment = fn(&mut TagPartition<M>, usize, M) -> usize;
    /// [`TagPartition::push`]'s bookkeeping of rows of another signature than the last one.
    PlanPush = fn(&mut TagPartition<M>, usize, M) -> Option<usize>;
    /// The removal of a segment a row left empty.
    RemoveSegment = fn(&mut TagPartition<M>, usize);
    /// [`Runs`]'s next run of matching segments.
    NextRun = fn(&TagPartition<M>, &mut usize, M, M) -> Option<Range<usize>>;
    /// [`TagPartition::check`]'s body.
    Check = fn(&TagPartition<M>, usize, M) -> Result<(), String>;
    /// The drop of every table's tag segments.
    DropPartitions = fn(&mut ManuallyDrop<Vec<TagPartition<M>>>);
}

/// The partition's rare bookkeeping at each mask width (`at_u64`, `at_u128`: finding or
/// inserting a segment, dropping an emptied one, a filter's runs, the check): not generic, so
/// compiled here, and a game's crate only calls it.
macro_rules! compiled_once {
    ($($width:ident: $mask:ty),*) => {$(
        mod $width {
            use alloc::{string::String, vec::Vec};
            use core::mem::ManuallyDrop;
            use core::ops::Range;

            use crate::dropped::drop_value;
            use crate::storage::tag_partition::TagPartition;

            pub(super) fn target_segment(
                partition: &mut TagPartition<$mask>,
                source: usize,
                tags: $mask,
            ) -> usize {
                partition.target_segment(source, tags)
            }

            pub(super) fn plan_push(
                partition: &mut TagPartition<$mask>,
                count: usize,
                tags: $mask,
            ) -> Option<usize> {
                partition.plan_push(count, tags)
            }

            pub(super) fn remove_segment(partition: &mut TagPartition<$mask>, index: usize) {
                partition.remove_segment(index);
            }

            pub(super) fn next_run(
                partition: &TagPartition<$mask>,
                next: &mut usize,
                include: $mask,
                exclude: $mask,
            ) -> Option<Range<usize>> {
                partition.next_run(next, include, exclude)
            }

            pub(super) fn check(
                partition: &TagPartition<$mask>,
                rows: usize,
                allowed: $mask,
            ) -> Result<(), String> {
                partition.check_segments(rows, allowed)
            }

            pub(super) fn drop_partitions(
                partitions: &mut ManuallyDrop<Vec<TagPartition<$mask>>>,
            ) {
                drop_value(partitions);
            }
        }
    )*};
}

compiled_once!(at_u64: u64, at_u128: u128);

impl<M: Bitmask> DropHere for Vec<TagPartition<M>> {
    #[inline]
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        M::pick::<DropPartitions>(at_u64::drop_partitions, at_u128::drop_partitions)(value);
    }
}

#[cfg(test)]
mod tests;
