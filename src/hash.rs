//! A fast hasher for mask keys.
//!
//! Masks are small integers chosen by the program, not by an attacker, so the DoS-resistant
//! default hasher buys nothing on the table-lookup path. This is the multiply-rotate step of
//! FxHash, which hashes a `u64` in a couple of cycles.

use core::hash::{BuildHasherDefault, Hasher};
use std::collections::HashMap;

/// A `Hasher` for integer keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaskHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl MaskHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for MaskHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    #[inline]
    fn write_u128(&mut self, value: u128) {
        self.add(value as u64);
        self.add((value >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }
}

/// A `HashMap` keyed by masks, hashed with [`MaskHasher`].
pub type MaskMap<M, V> = HashMap<M, V, BuildHasherDefault<MaskHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use core::hash::{BuildHasher, Hash};

    fn hash_of<T: Hash>(value: T) -> u64 {
        BuildHasherDefault::<MaskHasher>::default().hash_one(value)
    }

    #[test]
    fn different_masks_hash_differently() {
        let hashes: std::collections::HashSet<u64> =
            (0..64).map(|bit| hash_of(1u64 << bit)).collect();
        assert_eq!(hashes.len(), 64);
        assert_ne!(hash_of(1u128), hash_of(1u128 << 64));
    }

    #[test]
    fn byte_writes_are_covered() {
        assert_ne!(hash_of("position"), hash_of("velocity"));
        assert_eq!(hash_of("position"), hash_of("position"));
    }

    #[test]
    fn mask_map_round_trips() {
        let mut map: MaskMap<u64, usize> = MaskMap::default();
        map.insert(0b11, 4);
        assert_eq!(map.get(&0b11), Some(&4));
        assert_eq!(map.get(&0b01), None);
    }
}
