//! Lists of entity ids in a snapshot (a table's rows, the free list, a tag's members): numbers
//! in a human-readable format, one byte string in a binary one.
//!
//! A binary format gets the ids as four little-endian bytes each, in one `serialize_bytes`: the
//! format copies the string at once instead of encoding and decoding a number per entity
//! through serde, which cost more than the ids themselves. Text stays a list of numbers, so a
//! JSON snapshot remains readable and editable.
//!
//! Loading allocates for the ids only as the bytes present allow (four bytes per id); a byte
//! string that is not a whole number of ids is refused.

use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::sequence::{Sequence, SequenceVisitor};
use crate::entity::Entity;

/// The bytes an id takes in a binary format.
const ID_BYTES: usize = 4;

/// Writes `ids` in `serializer`'s form: a sequence of numbers if it is human-readable, a byte
/// string of little-endian `u32`s otherwise.
fn serialize_ids<S: Serializer>(
    ids: impl ExactSizeIterator<Item = u32> + Clone,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        return serializer.collect_seq(ids);
    }
    let mut bytes = Vec::with_capacity(ids.len() * ID_BYTES);
    for id in ids {
        bytes.extend_from_slice(&id.to_le_bytes());
    }
    serializer.serialize_bytes(&bytes)
}

/// Ids to write (the free list, a tag's members).
pub(crate) struct IdsOut<'a>(pub(crate) &'a [u32]);

impl Serialize for IdsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_ids(self.0.iter().copied(), serializer)
    }
}

/// A table's entities, written as their ids: the generations are the index's.
pub(super) struct EntityIdsOut<'a>(pub(super) &'a [Entity]);

impl Serialize for EntityIdsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_ids(self.0.iter().map(|entity| entity.id), serializer)
    }
}

/// Ids read back, in either form.
pub(crate) struct IdsIn(pub(crate) Vec<u32>);

impl<'de> Deserialize<'de> for IdsIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            return Sequence::<u32>::deserialize(deserializer).map(|ids| IdsIn(ids.0));
        }
        deserializer.deserialize_bytes(IdBytesVisitor).map(IdsIn)
    }
}

/// Reads the byte-string form.
struct IdBytesVisitor;

impl IdBytesVisitor {
    fn decode<E: de::Error>(bytes: &[u8]) -> Result<Vec<u32>, E> {
        if bytes.len() % ID_BYTES != 0 {
            return Err(E::custom(format_args!(
                "{} bytes of ids, not a whole number of {ID_BYTES}-byte ids",
                bytes.len()
            )));
        }
        Ok(bytes
            .chunks_exact(ID_BYTES)
            .map(|id| u32::from_le_bytes([id[0], id[1], id[2], id[3]]))
            .collect())
    }
}

impl<'de> Visitor<'de> for IdBytesVisitor {
    type Value = Vec<u32>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a byte string of little-endian u32 ids")
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<u32>, E> {
        Self::decode(bytes)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, bytes: &'de [u8]) -> Result<Vec<u32>, E> {
        Self::decode(bytes)
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Vec<u32>, E> {
        Self::decode(&bytes)
    }

    /// A format that gives a byte string back as a sequence of bytes.
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Vec<u32>, A::Error> {
        let bytes = SequenceVisitor::<u8>::unbounded().visit_seq(seq)?;
        Self::decode(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::IdBytesVisitor;
    use alloc::string::ToString;
    use alloc::vec;
    use serde::de::value::Error;

    #[test]
    fn id_bytes_are_little_endian_u32s_and_whole() {
        let ids = IdBytesVisitor::decode::<Error>(&[1, 0, 0, 0, 0, 1, 0, 0]).unwrap();
        assert_eq!(ids, vec![1, 256]);
        assert!(IdBytesVisitor::decode::<Error>(&[]).unwrap().is_empty());
        let error = IdBytesVisitor::decode::<Error>(&[1, 0, 0]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "3 bytes of ids, not a whole number of 4-byte ids"
        );
    }
}
