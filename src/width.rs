//! What the runtime compiles once per mask width, in this crate.
//!
//! Generic code is compiled in the game's crate, for its world. Code that needs no more of the
//! world than its mask type would be compiled there too, once per world, although there are
//! only two mask types. So it is written as generic functions over the mask and reached
//! through [`Width`], whose impls for `u64` and `u128` are not generic: each is compiled here,
//! at its own width (no widening), and a game's crate only calls it. What a hot loop needs
//! inlined (a row swap, a stamp) stays out of it.

use alloc::vec::Vec;
use core::mem::ManuallyDrop;
use core::ops::Range;

use crate::dropped::drop_value;

use crate::change_log::StructuralChange;
use crate::change_ticks::{TickCells, TicksMut};
use crate::edges::{Change, EdgeGraph};
use crate::events::EventChannel;
use crate::hash::TableLookup;
use crate::storage::tag_partition::TagPartition;
use crate::tick::Tick;

/// The operations compiled once per mask width (see the module docs): a sealed supertrait of
/// [`Bitmask`](crate::Bitmask), implemented for `u64` and `u128` only.
pub trait Width: Sized {
    /// Drops an edge graph (see [`Dropped`](crate::dropped::Dropped)).
    fn drop_edges(graph: &mut ManuallyDrop<EdgeGraph<Self>>);
    /// Drops the tag segments of every table.
    fn drop_partitions(partitions: &mut ManuallyDrop<Vec<TagPartition<Self>>>);
    /// Drops a structural change log.
    fn drop_change_log(log: &mut ManuallyDrop<EventChannel<StructuralChange<Self>>>);
    /// Appends `change` to `log`, unless it adds or removes nothing.
    fn log_change(log: &mut EventChannel<StructuralChange<Self>>, change: StructuralChange<Self>);
    /// [`TicksMut::settle`].
    fn settle_ticks(ticks: TicksMut<'_, Self>);
    /// [`TicksMut::row_cells`].
    fn row_cells(
        ticks: TicksMut<'_, Self>,
        bits: Self,
        read_bits: Self,
        rows: Range<usize>,
    ) -> TickCells<'_>;
    /// [`TicksMut::note_row_writes`].
    fn note_row_writes(ticks: TicksMut<'_, Self>, bits: Self, tick: Tick);
    /// [`TicksMut::restamp`].
    fn restamp(
        ticks: TicksMut<'_, Self>,
        rows: Range<usize>,
        table_rows: usize,
        bits: Self,
        tick: Tick,
    );
    /// [`EdgeGraph::insert_table`].
    fn insert_table(graph: &mut EdgeGraph<Self>, mask: Self, lookup: &TableLookup) -> usize;
    /// [`EdgeGraph::remember`].
    fn remember(
        graph: &mut EdgeGraph<Self>,
        table_index: usize,
        change: Change<Self>,
        destination: usize,
    );
    /// [`TagPartition::target_segment`].
    fn target_segment(partition: &mut TagPartition<Self>, source: usize, tags: Self) -> usize;
    /// [`TagPartition::plan_push`].
    fn plan_push(partition: &mut TagPartition<Self>, count: usize, tags: Self) -> Option<usize>;
    /// [`TagPartition::remove_segment`].
    fn remove_segment(partition: &mut TagPartition<Self>, index: usize);
    /// [`TagPartition::next_run`].
    fn next_run(
        partition: &TagPartition<Self>,
        next: &mut usize,
        include: Self,
        exclude: Self,
    ) -> Option<Range<usize>>;
    /// [`TagPartition::check_segments`].
    fn check_partition(
        partition: &TagPartition<Self>,
        rows: usize,
        allowed: Self,
    ) -> Result<(), alloc::string::String>;
}

macro_rules! compiled_once {
    ($($int:ty),*) => {$(
        impl Width for $int {
            fn drop_edges(graph: &mut ManuallyDrop<EdgeGraph<Self>>) {
                drop_value(graph);
            }

            fn drop_partitions(partitions: &mut ManuallyDrop<Vec<TagPartition<Self>>>) {
                drop_value(partitions);
            }

            fn drop_change_log(log: &mut ManuallyDrop<EventChannel<StructuralChange<Self>>>) {
                drop_value(log);
            }

            fn log_change(
                log: &mut EventChannel<StructuralChange<Self>>,
                change: StructuralChange<Self>,
            ) {
                if !change.is_empty_change() {
                    log.send(change);
                }
            }

            // Rare (once per table after a write of all its rows), and kept out of the
            // despawns and moves that may meet it.
            #[cold]
            #[inline(never)]
            fn settle_ticks(ticks: TicksMut<'_, Self>) {
                ticks.settle();
            }

            fn row_cells(
                ticks: TicksMut<'_, Self>,
                bits: Self,
                read_bits: Self,
                rows: Range<usize>,
            ) -> TickCells<'_> {
                ticks.row_cells(bits, read_bits, rows)
            }

            fn note_row_writes(ticks: TicksMut<'_, Self>, bits: Self, tick: Tick) {
                ticks.note_row_writes(bits, tick);
            }

            fn restamp(
                ticks: TicksMut<'_, Self>,
                rows: Range<usize>,
                table_rows: usize,
                bits: Self,
                tick: Tick,
            ) {
                ticks.restamp(rows, table_rows, bits, tick);
            }

            fn insert_table(graph: &mut EdgeGraph<Self>, mask: Self, lookup: &TableLookup) -> usize {
                graph.wire_table(mask, lookup)
            }

            fn remember(
                graph: &mut EdgeGraph<Self>,
                table_index: usize,
                change: Change<Self>,
                destination: usize,
            ) {
                graph.remember_multi_bit(table_index, change, destination);
            }

            fn target_segment(partition: &mut TagPartition<Self>, source: usize, tags: Self) -> usize {
                partition.target_segment(source, tags)
            }

            fn plan_push(partition: &mut TagPartition<Self>, count: usize, tags: Self) -> Option<usize> {
                partition.plan_push(count, tags)
            }

            fn remove_segment(partition: &mut TagPartition<Self>, index: usize) {
                partition.remove_segment(index);
            }

            fn next_run(
                partition: &TagPartition<Self>,
                next: &mut usize,
                include: Self,
                exclude: Self,
            ) -> Option<Range<usize>> {
                partition.next_run(next, include, exclude)
            }

            fn check_partition(
                partition: &TagPartition<Self>,
                rows: usize,
                allowed: Self,
            ) -> Result<(), alloc::string::String> {
                partition.check_segments(rows, allowed)
            }
        }
    )*};
}

compiled_once!(u64, u128);
