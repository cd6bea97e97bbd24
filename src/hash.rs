//! The hasher of the mask-keyed maps (the table lookup and the query cache), and the table
//! lookup.
//!
//! Masks are bit sets, and the tables of a world often differ only in a few bits, anywhere in
//! the mask: in a 64-component world, the components declared last are the high bits. A
//! `HashMap` picks a bucket from the low bits of the hash and a tag from the top bits, so the
//! hasher must let every bit of the key reach both ends of the hash; a plain multiply does not
//! (its low bits come from the key's low bits only), and masks differing in high bits then all
//! land in one bucket and every insert probes past all the others.
//!
//! [`foldhash`]'s fast hasher ends with a folded 64x64 to 128-bit multiply (the high and low
//! halves XORed), which mixes every input bit into every output bit, and hashes a `u64` or a
//! `u128` in a few cycles. Its fixed seed is used: masks are chosen by the program, so a
//! random seed would buy no protection worth the cost, and a fixed one keeps a world's maps
//! identical from run to run.

use core::mem::ManuallyDrop;

use hashbrown::HashMap;

use crate::dropped::{DropHere, drop_value};
use crate::mask::Bitmask;

/// The hasher builder of [`MaskMap`]: foldhash's fast hasher with its fixed seed.
pub type MaskBuildHasher = foldhash::fast::FixedState;

/// A `HashMap` keyed by masks, hashed with [`MaskBuildHasher`]: hashbrown's, the map std's own
/// is built on, which needs only `alloc` (so no_std builds have it too).
pub type MaskMap<M, V> = HashMap<M, V, MaskBuildHasher>;

/// The index of the table of each mask. Keyed by the mask widened to `u128`, behind functions
/// that are not generic: the map's code is compiled once, in this crate, rather than in every
/// game's crate for its world (a lookup runs on a spawn and on a migration without an edge, so
/// the widening costs next to nothing). It remembers the last table a spawn found
/// ([`remember`](Self::remember), asked again with [`last_found`](Self::last_found)): a
/// table's index never changes, and entries are never removed.
#[derive(Debug, Default)]
pub struct TableLookup {
    map: MaskMap<u128, usize>,
    last: Option<(u128, usize)>,
}

impl Clone for TableLookup {
    fn clone(&self) -> Self {
        TableLookup {
            map: self.map.clone(),
            last: self.last,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.map.clone_from(&source.map);
        self.last = source.last;
    }
}

/// A storage holds its lookup `Dropped`: dropped by code compiled here, not by glue in every
/// game's crate.
impl DropHere for TableLookup {
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        drop_value(value);
    }
}

impl TableLookup {
    /// The index of the table of exactly `mask`, if there is one.
    #[inline]
    pub fn get<M: Bitmask>(&self, mask: M) -> Option<usize> {
        self.get_wide(mask.widen())
    }

    fn get_wide(&self, mask: u128) -> Option<usize> {
        self.map.get(&mask).copied()
    }

    /// The table of `mask` if `mask` is the last mask found here (no hashing; `None` says
    /// nothing about other masks).
    #[inline]
    pub fn last_found<M: Bitmask>(&self, mask: M) -> Option<usize> {
        match self.last {
            Some((last, table_index)) if last == mask.widen() => Some(table_index),
            _ => None,
        }
    }

    /// [`get`](Self::get), the table found remembered as the last one, so that
    /// [`last_found`](Self::last_found) answers the next lookup of `mask` without hashing:
    /// spawning one entity at a time into one table (an `EntityBuilder` in a loop) hashes once.
    /// The caller asks `last_found` first.
    #[inline]
    pub fn remember<M: Bitmask>(&mut self, mask: M) -> Option<usize> {
        let mask = mask.widen();
        let found = self.get_wide(mask);
        if let Some(table_index) = found {
            self.last = Some((mask, table_index));
        }
        found
    }

    /// Records `table_index` as the table of `mask`, unless `mask` has a table already (a
    /// snapshot listing a mask twice keeps the first: `check_invariants` reports the second).
    #[inline]
    pub fn insert<M: Bitmask>(&mut self, mask: M, table_index: usize) {
        self.insert_wide(mask.widen(), table_index);
    }

    fn insert_wide(&mut self, mask: u128, table_index: usize) {
        self.map.entry(mask).or_insert(table_index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use core::hash::{BuildHasher, Hash};
    use hashbrown::HashSet;

    /// The lookup a storage makes: the last table found, else the map (remembered).
    fn remembered(lookup: &mut TableLookup, mask: u64) -> Option<usize> {
        lookup.last_found(mask).or_else(|| lookup.remember(mask))
    }

    #[test]
    fn a_remembered_lookup_answers_as_a_plain_one() {
        let mut lookup = TableLookup::default();
        assert_eq!(remembered(&mut lookup, 0b1), None);
        lookup.insert(0b1u64, 0);
        lookup.insert(0b10u64, 1);
        for mask in [0b1u64, 0b1, 0b10, 0b1, 0b100, 0b10, 0b10] {
            assert_eq!(remembered(&mut lookup, mask), lookup.get(mask), "{mask:b}");
        }
        assert_eq!(
            lookup.last_found(0b10u64),
            Some(1),
            "the last found is remembered"
        );
        assert_eq!(lookup.last_found(0b1u64), None, "and no other");
        // A copy remembers what the original did, and both stay right as tables are added.
        let mut copy = lookup.clone();
        lookup.insert(0b100u64, 2);
        copy.clone_from(&lookup);
        assert_eq!(remembered(&mut copy, 0b100), Some(2));
        assert_eq!(remembered(&mut copy, 0b10), Some(1));
    }

    fn hash_of<T: Hash>(value: T) -> u64 {
        MaskBuildHasher::default().hash_one(value)
    }

    /// How many distinct values `bits` of the hash take over `masks`.
    fn spread(masks: &[u128], keep: impl Fn(u64) -> u64, as_u64: bool) -> usize {
        masks
            .iter()
            .map(|&mask| {
                let hash = if as_u64 {
                    hash_of(mask as u64)
                } else {
                    hash_of(mask)
                };
                keep(hash)
            })
            .collect::<HashSet<u64, MaskBuildHasher>>()
            .len()
    }

    /// 4,096 masks: every combination of 12 bits starting at `shift`, over a fixed base.
    fn masks_at(shift: u32, base: u128) -> Vec<u128> {
        (0..4096u128).map(|n| base | (n << shift)).collect()
    }

    /// The regression test of the high-bit collapse, without timing: 4,096 masks that differ
    /// only in low bits, and 4,096 that differ only in the highest bits, must spread over the
    /// bucket bits (the low 13 of the hash, for a map of that size) and the tag bits (the top 7)
    /// about as well as random hashes would. A hash whose low bits come from the key's low bits only
    /// puts all the high-bit masks in a single bucket.
    #[test]
    fn masks_differing_in_any_bits_spread_over_buckets_and_tags() {
        let bucket = |hash: u64| hash & 0x1fff;
        let tag = |hash: u64| hash >> 57;
        // 4,096 random hashes into 8,192 buckets fill about 3,220 of them; foldhash fills
        // 2,280 to 4,096 here (probe sequences stay short), a hash blind to high bits fills one.
        let cases = [
            (masks_at(0, 0), true),
            (masks_at(52, 0b101), true),
            (masks_at(0, 1 << 100), false),
            (masks_at(64, 0), false),
            (masks_at(116, 0b11), false),
        ];
        for (masks, as_u64) in &cases {
            let buckets = spread(masks, bucket, *as_u64);
            assert!(buckets > 2_000, "only {buckets} buckets used");
            let tags = spread(masks, tag, *as_u64);
            assert!(tags >= 120, "only {tags} of 128 tags used");
        }
    }

    #[test]
    fn different_masks_hash_differently() {
        let hashes: HashSet<u64, MaskBuildHasher> =
            (0..64).map(|bit| hash_of(1u64 << bit)).collect();
        assert_eq!(hashes.len(), 64);
        assert_ne!(hash_of(1u128), hash_of(1u128 << 64));
    }

    #[test]
    fn table_lookup_keeps_the_first_table_of_a_mask() {
        let mut lookup = TableLookup::default();
        lookup.insert(0b11u64, 4);
        lookup.insert(0b11u64, 5);
        lookup.insert(1u128 << 100, 6);
        assert_eq!(lookup.get(0b11u64), Some(4));
        assert_eq!(lookup.get(0b01u64), None);
        assert_eq!(lookup.get(1u128 << 100), Some(6));
    }

    #[test]
    fn mask_map_round_trips() {
        let mut map: MaskMap<u64, usize> = MaskMap::default();
        map.insert(0b11, 4);
        assert_eq!(map.get(&0b11), Some(&4));
        assert_eq!(map.get(&0b01), None);
    }
}
