//! Sequences read from a snapshot without trusting their declared lengths: a length in the bytes
//! is only a claim, so it never sizes an allocation by itself. Every sequence reserves at most
//! [`PREALLOCATION_BYTES`] before its values are read and then grows with the values actually
//! read; a column is also refused as soon as it holds more values than its table's rows.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::positional::read::PositionalSeed;

/// How many bytes a sequence read from a snapshot reserves before its values are read (the
/// vector grows with the values read: at most twice their size, plus this).
const PREALLOCATION_BYTES: usize = 4096;

/// A vector read from a snapshot without trusting its declared length.
pub(crate) struct Sequence<T>(pub(crate) Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sequence<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_seq(SequenceVisitor::unbounded())
            .map(Sequence)
    }
}

/// Reads a sequence into a `Vec`, refusing it as soon as it holds more than `limit` values.
pub(crate) struct SequenceVisitor<T> {
    /// The most values accepted, and the name of the column they fill.
    limit: Option<(usize, &'static str)>,
    /// Read each value in the positional form (a column in a human-readable format).
    positional: bool,
    marker: PhantomData<fn() -> T>,
}

impl<T> SequenceVisitor<T> {
    /// Reads any number of values, each in its own serde form.
    pub(crate) fn unbounded() -> Self {
        SequenceVisitor {
            limit: None,
            positional: false,
            marker: PhantomData,
        }
    }

    /// The error for a column of more values than its table's `rows`.
    fn too_long<E: de::Error>(rows: usize, name: &str) -> E {
        E::custom(format_args!(
            "the `{name}` column holds more values than its table's {rows} entities"
        ))
    }
}

impl<'de, T: Deserialize<'de>> SequenceVisitor<T> {
    /// The sequence's next value, in the positional form if this is a column of a
    /// human-readable snapshot.
    #[inline]
    fn next_value<S: SeqAccess<'de>>(&self, seq: &mut S) -> Result<Option<T>, S::Error> {
        if self.positional {
            seq.next_element_seed(PositionalSeed(PhantomData::<T>))
        } else {
            seq.next_element()
        }
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for SequenceVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a sequence")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        let declared = seq.size_hint();
        let limit = self.limit.map_or(usize::MAX, |(rows, _)| rows);
        if let (Some(declared), Some((rows, name))) = (declared, self.limit) {
            if declared > rows {
                return Err(Self::too_long(rows, name));
            }
        }
        let affordable = PREALLOCATION_BYTES / core::mem::size_of::<T>().max(1);
        let mut values = Vec::with_capacity(declared.unwrap_or(0).min(limit).min(affordable));
        while values.len() < limit {
            match self.next_value(&mut seq)? {
                Some(value) => values.push(value),
                None => return Ok(values),
            }
        }
        if let Some((rows, name)) = self.limit {
            // Full: one more value is one too many. (It is read as a value: a format without
            // self-description, like postcard, cannot skip one unread.)
            if self.next_value(&mut seq)?.is_some() {
                return Err(Self::too_long(rows, name));
            }
        }
        Ok(values)
    }
}

/// A column of component `name` in a table of `rows` entities: refused as soon as it holds more
/// than `rows` values (a declared length beyond `rows` is refused before any value is read),
/// each value in the positional form when the format is human-readable.
pub(crate) struct ColumnSeed<C> {
    /// The table's row count.
    pub(crate) rows: usize,
    /// The component's name, for the error.
    pub(crate) name: &'static str,
    pub(crate) marker: PhantomData<fn() -> C>,
}

impl<'de, C: Deserialize<'de>> DeserializeSeed<'de> for ColumnSeed<C> {
    type Value = Vec<C>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<C>, D::Error> {
        let visitor = SequenceVisitor {
            limit: Some((self.rows, self.name)),
            positional: deserializer.is_human_readable(),
            marker: PhantomData,
        };
        deserializer.deserialize_seq(visitor)
    }
}
