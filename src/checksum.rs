//! A stable checksum of any serde value, and so of a whole world (feature `serde`):
//! `world.snapshot().checksum()`, the same on every run, process and machine, for rollback
//! netcode's desync check (ggrs's `SaveGameState` takes it) and tests that compare worlds.
//!
//! The value is serialized straight into the hash: no byte buffer of the whole is written (a
//! snapshot still builds its small per-table lists, as it does for any format: a table's ids as
//! bytes, change-tick runs). The serializer turns every value into 64-bit words by fixed rules,
//! with no pointer, address, `usize` width, byte order of the machine, `RandomState` or
//! hash-map order in them:
//!
//! - `bool` is 0 or 1; unsigned integers are zero-extended and signed ones sign-extended to 64
//!   bits; a 128-bit integer is its low word, then its high word; `f32` and `f64` are their bit
//!   patterns (`to_bits`, zero-extended); a `char` is its code point;
//! - a string or byte string is its length in bytes, then its bytes, eight to a word, little
//!   endian (the last word padded with zeros);
//! - `None` is 0, `Some(v)` is 1 then `v`; a unit and a unit struct are nothing; a newtype
//!   struct is its value; an enum variant is its index, then its fields;
//! - a sequence, tuple, map (key, then value, per entry) or struct (its fields' values; names
//!   are not hashed, the layout being fixed) is its elements, then their count.
//!
//! The serializer is not human-readable, so a snapshot takes its binary form (ids as byte
//! strings). The hash: the state starts at `0xcbf2_9ce4_8422_2325` (FNV-1a's offset basis);
//! each word `w` makes it `(state.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)`
//! (the word step of rustc's FxHash); the checksum is MurmurHash3's 64-bit finalizer
//! (`fmix64`) of the state xor the word count. Each step is a bijection of the state for a
//! given word, so two streams of one length that differ in a single word always hash apart;
//! other differences collide with odds near 2^-64. It is a desync check, not a defence against
//! someone forging collisions.
//!
//! What a world's checksum covers is what its snapshot holds (see
//! [`snapshot`](crate::snapshot)): every entity and handle generation, the free list, every
//! component, tag, relation link, resource, every row's change ticks, the ticks, the event
//! channels' numbering and the events of the channels declared `[saved]`, and what its systems
//! remember (last runs, event cursors, `SavedLocal`s as their saved bytes, postcard's encoding
//! of each value; not their plain `Local`s). Not: the events of channels not
//! declared `[saved]`, queued commands, the caches (rebuilt from the rest). Its cost is one
//! pass over the world, a few words per entity: one per 8 bytes of ids and of each component
//! value's fields, plus the change-tick runs (a few per table when rows were written
//! together).

use alloc::string::{String, ToString};
use core::fmt;

use serde::Serialize;
use serde::ser::{self, Serializer};

/// The word step's multiplier (rustc's FxHash).
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

/// The state before any word (FNV-1a's 64-bit offset basis).
const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// The stable hash of a stream of 64-bit words (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct StableHasher {
    state: u64,
    words: u64,
}

impl Default for StableHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl StableHasher {
    /// A hasher that has hashed nothing.
    pub const fn new() -> Self {
        StableHasher {
            state: SEED,
            words: 0,
        }
    }

    /// Hashes one word.
    #[inline]
    pub fn write_word(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
        self.words += 1;
    }

    /// Hashes `bytes` as a string is hashed: its length, then its bytes eight to a word, little
    /// endian, the last word padded with zeros.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        self.write_word(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.write_word(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_word(u64::from_le_bytes(word));
        }
    }

    /// The hash of the words so far.
    pub fn finish(&self) -> u64 {
        let mut hash = self.state ^ self.words;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
    }
}

/// The stable hash of `value`'s serde form (see the [module documentation](self)). A value
/// whose `Serialize` fails hashes as what it wrote before failing, then the error's message, so
/// the result is still the same on every run.
pub fn stable_hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut hasher = StableHasher::new();
    if let Err(HashError(message)) = value.serialize(WordSerializer(&mut hasher)) {
        hasher.write_bytes(message.as_bytes());
    }
    hasher.finish()
}

/// Why a value could not be serialized (its own `Serialize` said so).
#[derive(Debug)]
struct HashError(String);

impl fmt::Display for HashError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl ser::StdError for HashError {}

impl ser::Error for HashError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        HashError(message.to_string())
    }
}

/// A serializer that hashes the words of each value it is given.
struct WordSerializer<'a>(&'a mut StableHasher);

/// A compound value being hashed: its elements, then their count.
struct Compound<'a> {
    hasher: &'a mut StableHasher,
    count: u64,
}

impl Compound<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        self.count += 1;
        value.serialize(WordSerializer(self.hasher))
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        self.hasher.write_word(self.count);
        Ok(())
    }
}

impl<'a> Serializer for WordSerializer<'a> {
    type Ok = ();
    type Error = HashError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, value: bool) -> Result<(), HashError> {
        self.0.write_word(value as u64);
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result<(), HashError> {
        self.serialize_i64(value.into())
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result<(), HashError> {
        self.serialize_i64(value.into())
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result<(), HashError> {
        self.serialize_i64(value.into())
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result<(), HashError> {
        self.0.write_word(value as u64);
        Ok(())
    }

    #[inline]
    fn serialize_i128(self, value: i128) -> Result<(), HashError> {
        self.serialize_u128(value as u128)
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result<(), HashError> {
        self.serialize_u64(value.into())
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result<(), HashError> {
        self.serialize_u64(value.into())
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result<(), HashError> {
        self.serialize_u64(value.into())
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result<(), HashError> {
        self.0.write_word(value);
        Ok(())
    }

    #[inline]
    fn serialize_u128(self, value: u128) -> Result<(), HashError> {
        self.0.write_word(value as u64);
        self.0.write_word((value >> 64) as u64);
        Ok(())
    }

    #[inline]
    fn serialize_f32(self, value: f32) -> Result<(), HashError> {
        self.serialize_u64(value.to_bits().into())
    }

    #[inline]
    fn serialize_f64(self, value: f64) -> Result<(), HashError> {
        self.serialize_u64(value.to_bits())
    }

    #[inline]
    fn serialize_char(self, value: char) -> Result<(), HashError> {
        self.serialize_u64(u32::from(value).into())
    }

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), HashError> {
        self.0.write_bytes(value.as_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_bytes(self, value: &[u8]) -> Result<(), HashError> {
        self.0.write_bytes(value);
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<(), HashError> {
        self.serialize_u64(0)
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), HashError> {
        self.0.write_word(1);
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), HashError> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), HashError> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), HashError> {
        self.serialize_u32(index)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), HashError> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), HashError> {
        self.0.write_word(index.into());
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, HashError> {
        Ok(Compound {
            hasher: self.0,
            count: 0,
        })
    }

    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, HashError> {
        self.serialize_seq(None)
    }

    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, HashError> {
        self.serialize_seq(None)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, HashError> {
        self.0.write_word(index.into());
        self.serialize_seq(None)
    }

    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, HashError> {
        self.serialize_seq(None)
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, HashError> {
        self.serialize_seq(None)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, HashError> {
        self.0.write_word(index.into());
        self.serialize_seq(None)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), HashError> {
        // An entry counts once: its key and value are two values of one element.
        self.element(key)
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), HashError> {
        value.serialize(WordSerializer(self.hasher))
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = HashError;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), HashError> {
        self.element(value)
    }

    #[inline]
    fn end(self) -> Result<(), HashError> {
        Compound::end(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The hash of `words`, computed from the definition (independently of the serializer).
    fn of_words(words: &[u64]) -> u64 {
        let mut hasher = StableHasher::new();
        for &word in words {
            hasher.write_word(word);
        }
        hasher.finish()
    }

    #[test]
    fn nothing_hashes_to_the_finalized_seed() {
        // fmix64(0xcbf29ce484222325 ^ 0), worked out by hand from the definition's steps.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^= hash >> 33;
        assert_eq!(StableHasher::new().finish(), hash);
        assert_eq!(stable_hash(&()), hash);
    }

    #[test]
    fn values_become_the_documented_words() {
        assert_eq!(stable_hash(&7u8), of_words(&[7]));
        assert_eq!(stable_hash(&-1i16), of_words(&[u64::MAX]));
        assert_eq!(stable_hash(&1.5f32), of_words(&[0x3fc0_0000]));
        assert_eq!(stable_hash(&1.5f64), of_words(&[0x3ff8_0000_0000_0000]));
        assert_eq!(stable_hash(&true), of_words(&[1]));
        assert_eq!(stable_hash(&'a'), of_words(&[97]));
        assert_eq!(stable_hash(&(1u128 << 64 | 2)), of_words(&[2, 1]));
        assert_eq!(
            stable_hash("abcdefghi"),
            of_words(&[9, u64::from_le_bytes(*b"abcdefgh"), u64::from(b'i')])
        );
        assert_eq!(stable_hash(&Some(3u32)), of_words(&[1, 3]));
        assert_eq!(stable_hash(&None::<u32>), of_words(&[0]));
        assert_eq!(stable_hash(&vec![5u16, 6]), of_words(&[5, 6, 2]));
        assert_eq!(stable_hash(&(5u16, (6u8,))), of_words(&[5, 6, 1, 2]));
        let map: alloc::collections::BTreeMap<u8, u8> = [(1, 2), (3, 4)].into();
        assert_eq!(stable_hash(&map), of_words(&[1, 2, 3, 4, 2]));
    }

    #[test]
    fn a_single_changed_word_always_changes_the_hash() {
        let base: Vec<u64> = (0..64).collect();
        let hash = of_words(&base);
        for index in 0..base.len() {
            for flip in [1, 1 << 63, u64::MAX] {
                let mut changed = base.clone();
                changed[index] ^= flip;
                assert_ne!(of_words(&changed), hash, "word {index} ^ {flip:#x}");
            }
        }
        let mut swapped = base.clone();
        swapped.swap(3, 4);
        assert_ne!(of_words(&swapped), hash, "order matters");
        assert_ne!(of_words(&base[..63]), hash, "length matters");
    }

    #[test]
    fn a_failing_value_hashes_as_its_error_every_time() {
        struct Refuses;
        impl Serialize for Refuses {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(ser::Error::custom("no"))
            }
        }
        assert_eq!(stable_hash(&(1u8, Refuses)), stable_hash(&(1u8, Refuses)));
        assert_eq!(
            stable_hash(&(1u8, Refuses)),
            of_words(&[1, 2, u64::from_le_bytes([b'n', b'o', 0, 0, 0, 0, 0, 0])])
        );
    }
}
