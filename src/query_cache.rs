//! The query cache: for each include mask queried, the indices of the tables that match it.
//!
//! Filled by `&mut` queries and `warm_query`, and extended in place when a table is created
//! (only the entries the new table matches change), so an entry never goes stale.
//!
//! Bounded: only include masks a table can hold are cached, at most one entry per such mask. A
//! mask with a bit no table can hold (a stray bit, outside the world's components) matches
//! nothing, which is known without an entry, so a program querying ever new stray masks cannot
//! grow the cache.

use crate::dropped::{DropHere, Dropped, drop_value};
use crate::hash::MaskBuildHasher;
use crate::mask::Bitmask;
use alloc::vec::Vec;
use core::hash::BuildHasher;
use core::marker::PhantomData;
use hashbrown::HashTable;

/// Include mask to matching table indices, in creation order.
///
/// A typed face over [`WideQueryCache`], which keys masks widened to `u128`: the cache's code
/// (the hash table's included) is compiled once, in this crate, for every world and both mask
/// widths, and each world compiles only the conversions.
#[derive(Debug)]
pub struct QueryCache<M> {
    cache: Dropped<WideQueryCache>,
    mask: PhantomData<fn() -> M>,
}

impl<M> Clone for QueryCache<M> {
    fn clone(&self) -> Self {
        QueryCache {
            cache: self.cache.clone(),
            mask: PhantomData,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.cache.clone_from(&source.cache);
    }
}

impl<M: Bitmask> QueryCache<M> {
    /// An empty cache for tables whose masks hold only bits of `holdable` (the world's
    /// components).
    #[inline]
    pub fn new(holdable: M) -> Self {
        QueryCache {
            cache: Dropped::new(WideQueryCache::new(holdable.widen())),
            mask: PhantomData,
        }
    }

    /// The cached tables matching `include`, if that mask was cached; none (an empty list) for
    /// a mask with a bit no table can hold.
    #[inline]
    pub fn get(&self, include: M) -> Option<&[usize]> {
        self.cache.get(include.widen())
    }

    /// The tables matching `include`, computed from the masks of the tables created so far and
    /// cached on a miss. A mask with a bit no table can hold matches nothing and is not cached.
    #[inline]
    pub fn get_or_insert(&mut self, include: M) -> &[usize] {
        self.cache.get_or_insert(include.widen())
    }

    /// Records a new table (index `table_index`, the next one, mask `mask`) and extends every
    /// entry it matches.
    #[inline]
    pub fn table_created(&mut self, mask: M, table_index: usize) {
        self.cache.table_created(mask.widen(), table_index);
    }

    /// The cached include masks and their tables, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = (M, &[usize])> {
        self.cache
            .entries
            .iter()
            .map(|(include, tables)| (M::narrow(*include), tables.as_slice()))
    }

    /// Number of cached include masks.
    pub fn len(&self) -> usize {
        self.cache.entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.cache.entries.is_empty()
    }
}

/// The query cache over masks widened to `u128`: not generic, so compiled once in this crate.
#[derive(Clone, Debug)]
pub struct WideQueryCache {
    /// Each cached include mask with its tables. A table of entries rather than a map, so the
    /// last hit can be kept by its bucket.
    entries: HashTable<(u128, Vec<usize>)>,
    /// The bucket of the entry the last `get_or_insert` returned: a system or a loop querying
    /// the same mask again finds it with one compare rather than a hash lookup (a walk over a
    /// few small tables pays the lookup once per call).
    last: usize,
    /// Every bit a table's mask can hold.
    holdable: u128,
    /// The mask of every table created, by index: what an entry is filled from on a miss.
    table_masks: Vec<u128>,
}

impl DropHere for WideQueryCache {
    fn drop_here(value: &mut core::mem::ManuallyDrop<Self>) {
        drop_value(value);
    }
}

impl Default for WideQueryCache {
    fn default() -> Self {
        WideQueryCache::new(0)
    }
}

impl WideQueryCache {
    fn new(holdable: u128) -> Self {
        WideQueryCache {
            entries: HashTable::new(),
            last: 0,
            holdable,
            table_masks: Vec::new(),
        }
    }

    /// Whether `include` has a bit no table can hold, so that no table matches it.
    #[inline]
    fn matches_nothing(&self, include: u128) -> bool {
        include & !self.holdable != 0
    }

    /// See [`QueryCache::get`].
    fn get(&self, include: u128) -> Option<&[usize]> {
        if self.matches_nothing(include) {
            return Some(&[]);
        }
        self.entries
            .find(hash_of(include), |(mask, _)| *mask == include)
            .map(|(_, tables)| tables.as_slice())
    }

    /// See [`QueryCache::get_or_insert`].
    fn get_or_insert(&mut self, include: u128) -> &[usize] {
        if self.matches_nothing(include) {
            return &[];
        }
        let remembered = self
            .entries
            .get_bucket(self.last)
            .is_some_and(|(mask, _)| *mask == include);
        if !remembered {
            let hash = hash_of(include);
            let found = self
                .entries
                .find_bucket_index(hash, |(mask, _)| *mask == include);
            self.last = found.unwrap_or_else(|| {
                let tables = self
                    .table_masks
                    .iter()
                    .enumerate()
                    .filter(|(_, mask)| include & !**mask == 0)
                    .map(|(index, _)| index)
                    .collect();
                self.entries
                    .insert_unique(hash, (include, tables), |(mask, _)| hash_of(*mask))
                    .bucket_index()
            });
        }
        self.entries
            .get_bucket(self.last)
            .map_or(&[], |(_, tables)| tables.as_slice())
    }

    /// See [`QueryCache::table_created`].
    fn table_created(&mut self, mask: u128, table_index: usize) {
        debug_assert_eq!(
            table_index,
            self.table_masks.len(),
            "tables are created in order"
        );
        self.table_masks.push(mask);
        for (include, tables) in &mut self.entries {
            if mask & *include == *include {
                tables.push(table_index);
            }
        }
    }
}

/// The hash of an include mask in the cache's table.
#[inline]
fn hash_of(include: u128) -> u64 {
    MaskBuildHasher::default().hash_one(include)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache for tables of `holdable` bits, told of tables of `masks` (indices in order).
    fn with_tables(holdable: u64, masks: &[u64]) -> QueryCache<u64> {
        let mut cache = QueryCache::new(holdable);
        for (index, &mask) in masks.iter().enumerate() {
            cache.table_created(mask, index);
        }
        cache
    }

    #[test]
    fn a_miss_fills_from_the_table_masks() {
        let mut cache = with_tables(!0, &[0b01, 0b10, 0b11]);
        assert_eq!(cache.get(0b01), None);
        assert_eq!(cache.get_or_insert(0b01), &[0, 2]);
        assert_eq!(cache.get(0b01), Some(&[0usize, 2][..]));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn a_hit_returns_the_entry_as_cached() {
        let mut cache = with_tables(!0, &[0b01]);
        assert_eq!(cache.get_or_insert(0b01), &[0]);
        assert_eq!(cache.get_or_insert(0b01), &[0]);
        assert_eq!(cache.len(), 1, "one entry per include mask");
    }

    #[test]
    fn new_tables_extend_only_the_entries_they_match() {
        let mut cache = with_tables(!0, &[0b01]);
        cache.get_or_insert(0b01);
        cache.get_or_insert(0b10);
        cache.get_or_insert(0);
        cache.table_created(0b11, 1);
        cache.table_created(0b100, 2);
        assert_eq!(cache.get(0b01), Some(&[0usize, 1][..]));
        assert_eq!(cache.get(0b10), Some(&[1usize][..]));
        assert_eq!(cache.get(0), Some(&[0usize, 1, 2][..]));
        assert_eq!(cache.entries().count(), 3);
        // A mask first queried after the tables were created finds them all.
        assert_eq!(cache.get_or_insert(0b100), &[2]);
    }

    #[test]
    fn alternating_masks_each_get_their_own_tables() {
        let mut cache = with_tables(!0, &[0b01, 0b10, 0b11]);
        for _ in 0..3 {
            assert_eq!(cache.get_or_insert(0b01), &[0, 2]);
            assert_eq!(cache.get_or_insert(0b01), &[0, 2]);
            assert_eq!(cache.get_or_insert(0b10), &[1, 2]);
            assert_eq!(cache.get_or_insert(0b11), &[2]);
        }
        assert_eq!(cache.len(), 3);
        // The entry found last grows with a new table like any other.
        cache.table_created(0b11, 3);
        assert_eq!(cache.get_or_insert(0b11), &[2, 3]);
        assert_eq!(cache.get_or_insert(0b01), &[0, 2, 3]);
        assert_eq!(cache.get(0b10), Some(&[1usize, 2, 3][..]));
    }

    #[test]
    fn the_last_hit_survives_the_table_growing() {
        // Enough masks to make the table reallocate and move its buckets: the remembered
        // bucket is checked against the mask before it is trusted.
        let masks: Vec<u64> = (0..64).map(|bit| 1 << bit).collect();
        let mut cache = with_tables(!0, &masks);
        for bit in 0..64 {
            let first = cache.get_or_insert(1).to_vec();
            assert_eq!(first, [0]);
            assert_eq!(cache.get_or_insert(1 << bit), &[bit]);
        }
        assert_eq!(cache.len(), 64);
    }

    #[test]
    fn masks_with_bits_no_table_holds_match_nothing_and_are_not_cached() {
        let mut cache = with_tables(0b111, &[0b001, 0b011, 0b111]);
        for stray in 1..1_000u64 {
            assert_eq!(cache.get_or_insert(0b001 | stray << 3), &[] as &[usize]);
            assert_eq!(cache.get(stray << 3), Some(&[][..]));
        }
        assert!(cache.is_empty());
        assert_eq!(cache.get_or_insert(0b001), &[0, 1, 2]);
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn wide_masks_keep_their_high_bits() {
        let high = 1u128 << 100;
        let mut cache: QueryCache<u128> = QueryCache::new(!0);
        cache.table_created(high | 1, 0);
        cache.table_created(1, 1);
        assert_eq!(cache.get_or_insert(high), &[0]);
        assert_eq!(cache.entries().collect::<Vec<_>>(), [(high, &[0usize][..])]);
    }
}
