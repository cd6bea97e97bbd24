//! An order-independent checksum of component values.
//!
//! Contenders visit entities in different orders (hash maps, archetype layouts, parallel
//! batches), and float sums depend on order. So each value is hashed on its own, from its bit
//! pattern and which field it is, and the hashes are added with wrapping arithmetic: the result
//! depends on the multiset of (field, value) pairs only, and is exact.

use crate::math::{Mat4, Vec3};

/// Accumulates (field, value) pairs; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checksum {
    sum: u64,
    count: u64,
}

impl Checksum {
    /// An empty checksum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one `f32` of field `field` (any small number naming the field).
    pub fn f32(&mut self, field: u32, value: f32) {
        let word = (u64::from(field) << 32) | u64::from(value.to_bits());
        self.sum = self.sum.wrapping_add(mix(word));
        self.count += 1;
    }

    /// Adds the three coordinates of a vector, as fields `field * 4 + 0..3`.
    pub fn vec3(&mut self, field: u32, value: Vec3) {
        self.f32(field * 4, value.x);
        self.f32(field * 4 + 1, value.y);
        self.f32(field * 4 + 2, value.z);
    }

    /// Adds the sixteen entries of a matrix, as fields `field * 16 + 0..16`.
    pub fn mat4(&mut self, field: u32, value: &Mat4) {
        for (index, entry) in value.0.iter().flatten().enumerate() {
            self.f32(field * 16 + index as u32, *entry);
        }
    }

    /// Adds a count (e.g. how many entities a query visited).
    pub fn count(&mut self, field: u32, value: u64) {
        self.sum = self
            .sum
            .wrapping_add(mix((u64::from(field) << 48) ^ value ^ 0x00c0_ffee));
    }

    /// The digest: the hash sum and the number of values, folded together.
    pub fn finish(&self) -> u64 {
        self.sum ^ mix(self.count)
    }
}

/// The splitmix64 finaliser: a cheap, well-mixing bijection on `u64`.
fn mix(mut word: u64) -> u64 {
    word = (word ^ (word >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    word = (word ^ (word >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    word ^ (word >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_does_not_matter() {
        let mut forward = Checksum::new();
        let mut backward = Checksum::new();
        for value in [1.0, 2.5, -3.0] {
            forward.f32(0, value);
        }
        for value in [-3.0, 2.5, 1.0] {
            backward.f32(0, value);
        }
        assert_eq!(forward.finish(), backward.finish());
    }

    #[test]
    fn fields_and_values_matter() {
        let mut a = Checksum::new();
        a.f32(0, 1.0);
        a.f32(1, 2.0);
        let mut b = Checksum::new();
        b.f32(0, 2.0);
        b.f32(1, 1.0);
        assert_ne!(a.finish(), b.finish());
    }
}
