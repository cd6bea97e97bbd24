//! The query cache: for each include mask queried, the indices of the tables that match it.
//!
//! Filled by `&mut` queries and `warm_query`, and extended in place when a table is created
//! (only the entries the new table matches change), so an entry never goes stale.
//!
//! Bounded: only include masks a table can hold are cached, at most one entry per such mask. A
//! mask with a bit no table can hold (a stray bit, outside the world's components) matches
//! nothing, which is known without an entry, so a program querying ever new stray masks cannot
//! grow the cache.

use crate::Bitmask;
use crate::hash::MaskBuildHasher;
use alloc::vec::Vec;
use core::hash::BuildHasher;
use hashbrown::HashTable;

/// Include mask to matching table indices, in creation order.
#[derive(Clone, Debug)]
pub struct QueryCache<M> {
    /// Each cached include mask with its tables. A table of entries rather than a map, so the
    /// last hit can be kept by its bucket.
    entries: HashTable<(M, Vec<usize>)>,
    /// The bucket of the entry the last `get_or_insert` returned: a system or a loop querying
    /// the same mask again finds it with one compare rather than a hash lookup (a walk over a
    /// few small tables pays the lookup once per call).
    last: usize,
    /// Every bit a table's mask can hold.
    holdable: M,
}

impl<M: Bitmask> QueryCache<M> {
    /// An empty cache for tables whose masks hold only bits of `holdable` (the world's
    /// components).
    pub fn new(holdable: M) -> Self {
        QueryCache {
            entries: HashTable::new(),
            last: 0,
            holdable,
        }
    }

    /// Whether `include` has a bit no table can hold, so that no table matches it.
    #[inline]
    fn matches_nothing(&self, include: M) -> bool {
        !(include & !self.holdable).is_empty()
    }

    /// The cached tables matching `include`, if that mask was cached; none (an empty list) for
    /// a mask with a bit no table can hold.
    #[inline]
    pub fn get(&self, include: M) -> Option<&[usize]> {
        if self.matches_nothing(include) {
            return Some(&[]);
        }
        self.entries
            .find(hash_of(include), |(mask, _)| *mask == include)
            .map(|(_, tables)| tables.as_slice())
    }

    /// The tables matching `include`, computing and caching them from `table_masks` (every
    /// table's mask, in index order) on a miss. A mask with a bit no table can hold matches
    /// nothing and is not cached.
    #[inline]
    pub fn get_or_insert(&mut self, include: M, table_masks: impl Iterator<Item = M>) -> &[usize] {
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
                let tables = table_masks
                    .enumerate()
                    .filter(|(_, mask)| mask.contains(include))
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

    /// Extends every entry the new table (index `table_index`, mask `mask`) matches.
    pub fn table_created(&mut self, mask: M, table_index: usize) {
        for (include, tables) in &mut self.entries {
            if mask.contains(*include) {
                tables.push(table_index);
            }
        }
    }

    /// The cached include masks and their tables, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = (M, &[usize])> {
        self.entries
            .iter()
            .map(|(include, tables)| (*include, tables.as_slice()))
    }

    /// Number of cached include masks.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The hash of an include mask in the cache's table.
#[inline]
fn hash_of<M: Bitmask>(include: M) -> u64 {
    MaskBuildHasher::default().hash_one(include)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_fills_from_the_table_masks() {
        let mut cache: QueryCache<u64> = QueryCache::new(!0);
        assert_eq!(cache.get(0b01), None);
        let masks = [0b01u64, 0b10, 0b11];
        assert_eq!(cache.get_or_insert(0b01, masks.into_iter()), &[0, 2]);
        assert_eq!(cache.get(0b01), Some(&[0usize, 2][..]));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn a_hit_does_not_recompute() {
        let mut cache: QueryCache<u64> = QueryCache::new(!0);
        cache.get_or_insert(0b01, [0b01u64].into_iter());
        let tables = cache.get_or_insert(0b01, [0b01u64, 0b01].into_iter());
        assert_eq!(tables, &[0], "entries change through table_created only");
    }

    #[test]
    fn new_tables_extend_only_the_entries_they_match() {
        let mut cache: QueryCache<u64> = QueryCache::new(!0);
        cache.get_or_insert(0b01, [0b01u64].into_iter());
        cache.get_or_insert(0b10, [0b01u64].into_iter());
        cache.get_or_insert(0, [0b01u64].into_iter());
        cache.table_created(0b11, 1);
        cache.table_created(0b100, 2);
        assert_eq!(cache.get(0b01), Some(&[0usize, 1][..]));
        assert_eq!(cache.get(0b10), Some(&[1usize][..]));
        assert_eq!(cache.get(0), Some(&[0usize, 1, 2][..]));
        assert_eq!(cache.entries().count(), 3);
    }

    #[test]
    fn alternating_masks_each_get_their_own_tables() {
        let mut cache: QueryCache<u64> = QueryCache::new(!0);
        let masks = [0b01u64, 0b10, 0b11];
        for _ in 0..3 {
            assert_eq!(cache.get_or_insert(0b01, masks.into_iter()), &[0, 2]);
            assert_eq!(cache.get_or_insert(0b01, masks.into_iter()), &[0, 2]);
            assert_eq!(cache.get_or_insert(0b10, masks.into_iter()), &[1, 2]);
            assert_eq!(cache.get_or_insert(0b11, masks.into_iter()), &[2]);
        }
        assert_eq!(cache.len(), 3);
        // The entry found last grows with a new table like any other.
        cache.table_created(0b11, 3);
        assert_eq!(cache.get_or_insert(0b11, masks.into_iter()), &[2, 3]);
        assert_eq!(cache.get_or_insert(0b01, masks.into_iter()), &[0, 2, 3]);
        assert_eq!(cache.get(0b10), Some(&[1usize, 2, 3][..]));
    }

    #[test]
    fn the_last_hit_survives_the_table_growing() {
        // Enough masks to make the table reallocate and move its buckets: the remembered
        // bucket is checked against the mask before it is trusted.
        let mut cache: QueryCache<u64> = QueryCache::new(!0);
        let masks: Vec<u64> = (0..64).map(|bit| 1 << bit).collect();
        for bit in 0..64 {
            let first = cache.get_or_insert(1, masks.iter().copied()).to_vec();
            assert_eq!(first, [0]);
            assert_eq!(cache.get_or_insert(1 << bit, masks.iter().copied()), &[bit]);
        }
        assert_eq!(cache.len(), 64);
    }

    #[test]
    fn masks_with_bits_no_table_holds_match_nothing_and_are_not_cached() {
        let mut cache: QueryCache<u64> = QueryCache::new(0b111);
        let masks = [0b001u64, 0b011, 0b111];
        for stray in 1..1_000u64 {
            assert_eq!(
                cache.get_or_insert(0b001 | stray << 3, masks.into_iter()),
                &[] as &[usize]
            );
            assert_eq!(cache.get(stray << 3), Some(&[][..]));
        }
        assert!(cache.is_empty());
        assert_eq!(cache.get_or_insert(0b001, masks.into_iter()), &[0, 1, 2]);
        assert_eq!(cache.len(), 1);
    }
}
