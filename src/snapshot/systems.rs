//! What the systems run on a world remember, as its snapshot holds it (`systems`): per system, in
//! the order they first ran, its name, its function's type name, the tick its last run ended at
//! (`null` before its first run) and its kept values in parameter order, each the next sequence
//! number of an event cursor (an `EventReader`'s) or `null` for a value `kept` does not hold (a
//! `Local`, whose type need not be serde, and a saved local), then its saved locals (`locals`:
//! each a `SavedLocal`'s place among the kept values and its bytes, postcard's encoding of its
//! value, made and decoded in `system/memory.rs`).
//! Written from the world's [`SystemMemories`], read without trusting a declared length, and
//! checked before the world is built: each system named once, each saved local at a place of
//! its kept values saved as `null`, once.
//!
//! Any tick and any cursor is accepted: the run that follows treats them as it would in the
//! world that saved them (a last run not before the present, or too old, makes a first run; a
//! cursor past its channel's end reads every stored event as new), so they need no check.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Visitor};
use serde::ser::{self, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::SnapshotError;
use super::sequence::{Sequence, SequenceVisitor};
use crate::events::EventCursor;
use crate::system::{SystemMemories, SystemMemory};
use crate::tick::Tick;

/// Every system's memory, written in the order they first ran.
pub(crate) struct SystemsOut<'a>(pub(crate) &'a SystemMemories);

impl Serialize for SystemsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|memory| SystemOut {
            name: memory.name(),
            function: memory.function(),
            last_run: memory.last_run().map(|tick| tick.0),
            kept: KeptOut(memory),
            locals: LocalsOut(memory),
        }))
    }
}

/// One system's memory, as written.
#[derive(Serialize)]
#[serde(rename = "System")]
struct SystemOut<'a> {
    name: &'a str,
    function: &'a str,
    last_run: Option<u32>,
    kept: KeptOut<'a>,
    locals: LocalsOut<'a>,
}

/// A system's kept values, in parameter order: a cursor's next sequence number, or `None`.
struct KeptOut<'a>(&'a SystemMemory);

impl Serialize for KeptOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .saved_values()
                .map(|value| value.map(EventCursor::next_sequence)),
        )
    }
}

/// A system's saved locals: per one, `[place, bytes]`, in parameter order.
struct LocalsOut<'a>(&'a SystemMemory);

impl Serialize for LocalsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let locals: Vec<_> = self.0.saved_locals().collect();
        let mut seq = serializer.serialize_seq(Some(locals.len()))?;
        for local in locals {
            let (place, bytes) = local.map_err(|error| {
                ser::Error::custom(format_args!(
                    "a saved local of the system `{}`: {error}",
                    self.0.name()
                ))
            })?;
            seq.serialize_element(&(place as u64, LocalBytes(&bytes)))?;
        }
        seq.end()
    }
}

/// A saved local's bytes: one byte string (an array of numbers in JSON).
struct LocalBytes<'a>(&'a [u8]);

impl Serialize for LocalBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A saved local's bytes, as read: a byte string or a sequence of bytes.
struct LocalBytesIn(Vec<u8>);

impl<'de> Deserialize<'de> for LocalBytesIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_bytes(LocalBytesVisitor)
            .map(LocalBytesIn)
    }
}

struct LocalBytesVisitor;

impl<'de> Visitor<'de> for LocalBytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a saved local's bytes")
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
        Ok(bytes.to_vec())
    }

    fn visit_byte_buf<E: de::Error>(self, bytes: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(bytes)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Vec<u8>, A::Error> {
        SequenceVisitor::<u8>::unbounded().visit_seq(seq)
    }
}

/// One system's memory, as read (the fields of [`SystemOut`]).
#[derive(Deserialize)]
#[serde(rename = "System", deny_unknown_fields)]
struct SystemIn {
    name: String,
    function: String,
    last_run: Option<u32>,
    kept: Sequence<Option<u64>>,
    locals: Sequence<(u64, LocalBytesIn)>,
}

/// Every system's memory, as read, not yet checked.
pub(crate) struct SystemsIn(Vec<SystemIn>);

impl<'de> Deserialize<'de> for SystemsIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Sequence::deserialize(deserializer).map(|systems| SystemsIn(systems.0))
    }
}

impl SystemsIn {
    /// The memories, each system named once, or the error naming one named twice. A value saved
    /// as `None` becomes a placeholder the system's next run replaces with its default.
    pub(crate) fn into_memories(self) -> Result<SystemMemories, SnapshotError> {
        // A B-tree, not a hash set: the names come from the snapshot (see the event channels').
        let mut seen = BTreeSet::new();
        if let Some(twice) = self
            .0
            .iter()
            .find(|system| !seen.insert(system.name.as_str()))
        {
            return Err(SnapshotError::new(format!(
                "the system `{}` is remembered twice",
                twice.name
            )));
        }
        let mut systems = Vec::new();
        for system in self.0 {
            let kept = system.kept.0;
            let mut locals = Vec::new();
            for (place, bytes) in system.locals.0 {
                // Past every place if it does not fit: refused below.
                let place = usize::try_from(place).unwrap_or(usize::MAX);
                let at_null = kept.get(place) == Some(&None);
                let in_order = locals.last().is_none_or(|&(previous, _)| place > previous);
                if !(at_null && in_order) {
                    return Err(SnapshotError::new(format!(
                        "a saved local of the system `{}` is not at a place of its kept values \
                         saved as `null`, after the one before",
                        system.name
                    )));
                }
                locals.push((place, bytes.0));
            }
            systems.push(SystemMemory::loaded(
                system.name,
                system.function,
                system.last_run.map(Tick),
                kept.into_iter().map(|value| value.map(EventCursor::at)),
                locals,
            ));
        }
        Ok(SystemMemories::loaded(systems))
    }
}
