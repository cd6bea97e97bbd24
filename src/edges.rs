//! The archetype edge graph: for each table, where an entity lands when a component is added
//! or removed.
//!
//! Single-bit edges live in arrays indexed by component bit and are filled eagerly, both ways,
//! when a table is created, so every one-bit migration between existing tables is an array
//! read. Multi-bit transitions (`add_components(e, A | B)`) are remembered in a small per-table
//! list the first time they are taken.

use alloc::{boxed::Box, vec::Vec};
use core::mem::ManuallyDrop;

use crate::dropped::DropHere;
use crate::hash::TableLookup;
use crate::mask::{Bitmask, over_mask};

/// How many multi-bit transitions a table remembers; past that, they fall back to the mask
/// lookup, which is still correct, only a hash away.
pub const MULTI_BIT_CACHE_LIMIT: usize = 16;

/// A structural change applied to a table's mask.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Change<M> {
    /// Add these bits.
    Add(M),
    /// Remove these bits.
    Remove(M),
    /// Become exactly these bits (some added, some removed) in one move: what the world's
    /// rules make of an addition that displaces a member of an exclusive group (`rules.rs`).
    /// From a given table it names one destination, so it is remembered like a multi-bit
    /// change (and keeps the enum as small as the other two).
    Switch(M),
}

impl<M: Bitmask> Change<M> {
    /// The mask a table of mask `from` has after the change.
    #[inline]
    pub fn apply(self, from: M) -> M {
        match self {
            Change::Add(bits) => from | bits,
            Change::Remove(bits) => from & !bits,
            Change::Switch(to) => to,
        }
    }
}

/// The edges out of one table.
#[derive(Clone, Debug)]
pub struct TableEdges<M> {
    /// `add[bit]`: the table reached by adding component `bit`.
    pub add: Box<[Option<u32>]>,
    /// `remove[bit]`: the table reached by removing component `bit`.
    pub remove: Box<[Option<u32>]>,
    /// Multi-bit transitions taken from this table, with their destination.
    pub multi_bit: Vec<(Change<M>, u32)>,
}

impl<M> TableEdges<M> {
    #[inline]
    fn new(bit_count: usize) -> Self {
        TableEdges {
            add: no_edges(bit_count),
            remove: no_edges(bit_count),
            multi_bit: Vec::new(),
        }
    }
}

/// `bit_count` missing edges. Not generic, so the boxed slice's code is compiled once, in this
/// crate, rather than in every game's crate for its world.
fn no_edges(bit_count: usize) -> Box<[Option<u32>]> {
    vec![None; bit_count].into_boxed_slice()
}

/// The edges of every table, indexed like the tables.
#[derive(Clone, Debug)]
pub struct EdgeGraph<M> {
    bit_count: usize,
    tables: Vec<TableEdges<M>>,
}

impl<M> Default for EdgeGraph<M> {
    /// A graph for tables of no bit.
    fn default() -> Self {
        EdgeGraph {
            bit_count: 0,
            tables: Vec::new(),
        }
    }
}

impl<M: Bitmask> EdgeGraph<M> {
    /// A graph for tables whose masks use the lowest `bit_count` bits.
    pub fn new(bit_count: usize) -> Self {
        EdgeGraph {
            bit_count,
            tables: Vec::new(),
        }
    }

    /// Number of tables registered.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is registered.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The edges out of table `table_index`.
    pub fn edges(&self, table_index: usize) -> &TableEdges<M> {
        &self.tables[table_index]
    }

    /// Registers the next table, of mask `mask`, and wires every single-bit edge between it and
    /// the existing tables one bit away, found in `lookup`. Compiled once per mask width, in
    /// this crate (see the end of this file), with the lookup's own code inlined.
    #[inline]
    pub fn insert_table(&mut self, mask: M, lookup: &TableLookup) -> usize {
        M::pick::<InsertTable>(at_u64::insert_table, at_u128::insert_table)(self, mask, lookup)
    }

    /// See [`insert_table`](Self::insert_table).
    fn wire_table(&mut self, mask: M, lookup: &TableLookup) -> usize {
        let new_index = self.tables.len();
        self.tables.push(TableEdges::new(self.bit_count));
        for bit in 0..self.bit_count {
            let bit_mask = M::bit(bit as u32);
            if mask.contains(bit_mask) {
                if let Some(smaller) = lookup.get(mask & !bit_mask) {
                    self.tables[smaller].add[bit] = Some(new_index as u32);
                    self.tables[new_index].remove[bit] = Some(smaller as u32);
                }
            } else if let Some(larger) = lookup.get(mask | bit_mask) {
                self.tables[larger].remove[bit] = Some(new_index as u32);
                self.tables[new_index].add[bit] = Some(larger as u32);
            }
        }
        new_index
    }

    /// The table reached from `table_index` by `change`, if it is known.
    #[inline]
    pub fn destination(&self, table_index: usize, change: Change<M>) -> Option<usize> {
        let edges = &self.tables[table_index];
        let single = match change {
            Change::Add(bits) if bits.is_single_bit() => Some(&edges.add),
            Change::Remove(bits) if bits.is_single_bit() => Some(&edges.remove),
            _ => None,
        };
        let destination = match single {
            Some(edge_array) => match change {
                Change::Add(bits) | Change::Remove(bits) => {
                    edge_array[bits.trailing_zeros() as usize]
                }
                Change::Switch(_) => None,
            },
            None => edges
                .multi_bit
                .iter()
                .find(|(taken, _)| *taken == change)
                .map(|&(_, destination)| destination),
        };
        destination.map(|index| index as usize)
    }

    /// Records that `change` from `table_index` leads to `destination`. Single-bit edges are
    /// already wired by [`insert_table`](Self::insert_table); multi-bit ones are kept while the
    /// table's list has room.
    #[inline]
    pub fn remember(&mut self, table_index: usize, change: Change<M>, destination: usize) {
        let remember = M::pick::<Remember>(at_u64::remember, at_u128::remember);
        remember(self, table_index, change, destination);
    }

    /// See [`remember`](Self::remember).
    fn remember_multi_bit(&mut self, table_index: usize, change: Change<M>, destination: usize) {
        if let Change::Add(bits) | Change::Remove(bits) = change {
            if bits.count_ones() <= 1 {
                return;
            }
        }
        let multi_bit = &mut self.tables[table_index].multi_bit;
        if multi_bit.len() < MULTI_BIT_CACHE_LIMIT {
            multi_bit.push((change, destination as u32));
        }
    }
}

// ----- compiled once per mask width, in this crate ------------------------------------------

over_mask! {
    /// [`EdgeGraph::insert_table`]'s body.
    InsertTable = fn(&mut EdgeGraph<M>, M, &TableLookup) -> usize;
    /// [`EdgeGraph::remember`]'s body.
    Remember = fn(&mut EdgeGraph<M>, usize, Change<M>, usize);
    /// An edge graph's drop.
    DropGraph = fn(&mut ManuallyDrop<EdgeGraph<M>>);
}

/// The graph's steps that need no more of the world than its mask, at each width (`at_u64`,
/// `at_u128`): not generic, so compiled here, and a game's crate only calls them.
macro_rules! compiled_once {
    ($($width:ident: $mask:ty),*) => {$(
        mod $width {
            use core::mem::ManuallyDrop;

            use crate::dropped::drop_value;
            use crate::edges::{Change, EdgeGraph};
            use crate::hash::TableLookup;

            pub(super) fn insert_table(
                graph: &mut EdgeGraph<$mask>,
                mask: $mask,
                lookup: &TableLookup,
            ) -> usize {
                graph.wire_table(mask, lookup)
            }

            pub(super) fn remember(
                graph: &mut EdgeGraph<$mask>,
                table_index: usize,
                change: Change<$mask>,
                destination: usize,
            ) {
                graph.remember_multi_bit(table_index, change, destination);
            }

            pub(super) fn drop_graph(graph: &mut ManuallyDrop<EdgeGraph<$mask>>) {
                drop_value(graph);
            }
        }
    )*};
}

compiled_once!(at_u64: u64, at_u128: u128);

impl<M: Bitmask> DropHere for EdgeGraph<M> {
    #[inline]
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        M::pick::<DropGraph>(at_u64::drop_graph, at_u128::drop_graph)(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph plus the mask lookup it is wired against.
    struct Fixture {
        graph: EdgeGraph<u64>,
        lookup: TableLookup,
    }

    impl Fixture {
        fn new() -> Self {
            Fixture {
                graph: EdgeGraph::new(3),
                lookup: TableLookup::default(),
            }
        }

        fn create(&mut self, mask: u64) -> usize {
            let index = self.graph.insert_table(mask, &self.lookup);
            self.lookup.insert(mask, index);
            index
        }
    }

    #[test]
    fn edges_are_wired_both_ways_whichever_table_comes_first() {
        let mut fixture = Fixture::new();
        let larger = fixture.create(0b011);
        let smaller = fixture.create(0b001);
        assert_eq!(
            fixture.graph.destination(smaller, Change::Add(0b010)),
            Some(larger)
        );
        assert_eq!(
            fixture.graph.destination(larger, Change::Remove(0b010)),
            Some(smaller)
        );
        assert_eq!(
            fixture.graph.destination(larger, Change::Remove(0b001)),
            None,
            "0b010 not created"
        );
        let other = fixture.create(0b010);
        assert_eq!(
            fixture.graph.destination(larger, Change::Remove(0b001)),
            Some(other)
        );
        assert_eq!(
            fixture.graph.destination(other, Change::Add(0b001)),
            Some(larger)
        );
        assert_eq!(fixture.graph.destination(smaller, Change::Add(0b100)), None);
    }

    #[test]
    fn the_empty_mask_table_connects_to_single_bit_tables() {
        let mut fixture = Fixture::new();
        let single = fixture.create(0b100);
        let empty = fixture.create(0);
        assert_eq!(
            fixture.graph.destination(empty, Change::Add(0b100)),
            Some(single)
        );
        assert_eq!(
            fixture.graph.destination(single, Change::Remove(0b100)),
            Some(empty)
        );
    }

    #[test]
    fn multi_bit_transitions_are_remembered_per_table() {
        let mut fixture = Fixture::new();
        let from = fixture.create(0b001);
        let to = fixture.create(0b111);
        let change = Change::Add(0b110);
        assert_eq!(fixture.graph.destination(from, change), None);
        fixture.graph.remember(from, change, to);
        assert_eq!(fixture.graph.destination(from, change), Some(to));
        assert_eq!(fixture.graph.destination(from, Change::Remove(0b110)), None);
        assert_eq!(fixture.graph.destination(to, change), None, "per table");
    }

    #[test]
    fn the_multi_bit_list_is_bounded() {
        let mut graph: EdgeGraph<u64> = EdgeGraph::new(64);
        graph.insert_table(0, &TableLookup::default());
        for bits in 0..(MULTI_BIT_CACHE_LIMIT as u64 + 5) {
            graph.remember(0, Change::Add((bits << 2) | 0b11), 1);
        }
        assert_eq!(graph.edges(0).multi_bit.len(), MULTI_BIT_CACHE_LIMIT);
        graph.remember(0, Change::Add(0b1), 7);
        assert_eq!(
            graph.edges(0).multi_bit.len(),
            MULTI_BIT_CACHE_LIMIT,
            "single bits are not listed"
        );
    }

    #[test]
    fn change_apply() {
        assert_eq!(Change::Add(0b010u64).apply(0b001), 0b011);
        assert_eq!(Change::Remove(0b011u64).apply(0b111), 0b100);
    }
}
