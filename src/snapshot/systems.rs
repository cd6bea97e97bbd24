//! What the systems run on a world remember, as its snapshot holds it (`systems`): per system, in
//! the order they first ran, its name, its function's type name, the tick its last run ended at
//! (`null` before its first run) and its kept values in parameter order, each the next sequence
//! number of an event cursor (an `EventReader`'s) or `null` for a value a snapshot does not save
//! (a `Local`, whose type need not be serde). Written from the world's [`SystemMemories`], read
//! without trusting a declared length, and checked before the world is built: each system
//! named once.
//!
//! Any tick and any cursor is accepted: the run that follows treats them as it would in the
//! world that saved them (a last run not before the present, or too old, makes a first run; a
//! cursor past its channel's end reads every stored event as new), so they need no check.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::SnapshotError;
use super::sequence::Sequence;
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

/// One system's memory, as read (the fields of [`SystemOut`]).
#[derive(Deserialize)]
#[serde(rename = "System", deny_unknown_fields)]
struct SystemIn {
    name: String,
    function: String,
    last_run: Option<u32>,
    kept: Sequence<Option<u64>>,
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
        let systems = self
            .0
            .into_iter()
            .map(|system| {
                let kept = system.kept.0.into_iter();
                SystemMemory::loaded(
                    system.name,
                    system.function,
                    system.last_run.map(Tick),
                    kept.map(|value| value.map(EventCursor::at)),
                )
            })
            .collect();
        Ok(SystemMemories::loaded(systems))
    }
}
