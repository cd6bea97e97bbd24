//! The layouts of a snapshot's structs: which fields each holds, by what names, in what order.
//!
//! A world is a game with one part: both are an entity index, its parts and its singletons,
//! written and read by the same code (`output.rs`, `input.rs`, `validation.rs`). What differs
//! is where the parts' fields sit, which is a [`Layout`]: a world's one storage writes its
//! fields among the whole's own ([`Layout::WORLD`], as version 4 did; version 5 added
//! `systems` at its end, version 6 `change_ticks` after `tables`, in a sub-world entry too, version 7 `events` after
//! `event_sequences`, in a game's too, and `systems` at a game's end), a game writes each sub-world's storage by name under `sub_worlds`
//! ([`Layout::GAME`]), each entry a [`Layout::SUB_WORLD`]. Both directions follow the layout's
//! list of fields, so a binary format reads them in exactly the order they were written. The
//! names are here alone, so the writer and the reader cannot disagree on one.

/// The key of a table's entity ids (no component can take this name).
pub(crate) const ENTITIES: &str = "entities";
/// The key a disabled entities' table carries (`true`), right after its `entities`: not a Rust
/// identifier, so no component's name; absent from every other table, so a world that never
/// disables writes the snapshot it always wrote.
pub(crate) const DISABLED: &str = "#disabled";

/// A field of a snapshot's top-level struct, or of a game's sub-world entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// The format version, [`SNAPSHOT_VERSION`](super::SNAPSHOT_VERSION).
    Version,
    /// A storage's current tick.
    Tick,
    /// A storage's last tick (strictly before `tick`).
    LastTick,
    /// The entity index: every id's generation, as runs.
    Generations,
    /// The entity index: the free list, in recycling order.
    Free,
    /// A storage's tables, rows in order.
    Tables,
    /// A storage's change ticks: per table, each tracked column's row stamps, as runs.
    ChangeTicks,
    /// A storage's tags, by name.
    Tags,
    /// A storage's relations, by name.
    Relations,
    /// The whole's resources, by name.
    Resources,
    /// Where a storage's change log numbers on.
    ChangeLogSequence,
    /// Where each of the whole's event channels numbers on.
    EventSequences,
    /// The events of the whole's saved channels, by name.
    Events,
    /// A game's sub-worlds, by name.
    SubWorlds,
    /// What each system run on a world remembers, in the order they first ran.
    Systems,
}

impl Field {
    /// The field's name in the snapshot.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Field::Version => "version",
            Field::Tick => "tick",
            Field::LastTick => "last_tick",
            Field::Generations => "generations",
            Field::Free => "free",
            Field::Tables => "tables",
            Field::ChangeTicks => "change_ticks",
            Field::Tags => "tags",
            Field::Relations => "relations",
            Field::Resources => "resources",
            Field::ChangeLogSequence => "change_log_sequence",
            Field::EventSequences => "event_sequences",
            Field::Events => "events",
            Field::SubWorlds => "sub_worlds",
            Field::Systems => "systems",
        }
    }
}

/// A struct of a snapshot: its name and its fields, in the order they are written.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// The struct's name (a format may write it).
    pub(crate) name: &'static str,
    /// The fields, in order.
    pub(crate) fields: &'static [Field],
    /// The fields' names, in the same order (what serde reports an unknown field against).
    pub(crate) names: &'static [&'static str],
}

/// A layout of the fields listed, the names taken from the fields.
macro_rules! layout {
    ($name:literal, [$($field:ident),+ $(,)?]) => {
        Layout {
            name: $name,
            fields: &[$(Field::$field),+],
            names: &[$(Field::$field.name()),+],
        }
    };
}

impl Layout {
    /// A world's snapshot: its one storage's fields among the whole's own.
    pub(crate) const WORLD: Layout = layout!(
        "Snapshot",
        [
            Version,
            Tick,
            LastTick,
            Generations,
            Free,
            Tables,
            ChangeTicks,
            Tags,
            Relations,
            Resources,
            ChangeLogSequence,
            EventSequences,
            Events,
            Systems
        ]
    );

    /// A game's snapshot: its sub-worlds' storages by name, under `sub_worlds`, and what its
    /// systems remember at its end (as a world's).
    pub(crate) const GAME: Layout = layout!(
        "MultiWorldSnapshot",
        [
            Version,
            Generations,
            Free,
            SubWorlds,
            Resources,
            EventSequences,
            Events,
            Systems
        ]
    );

    /// A game's sub-world entry: the fields a world's snapshot writes of its storage.
    pub(crate) const SUB_WORLD: Layout = layout!(
        "SubWorld",
        [
            Tick,
            LastTick,
            Tables,
            ChangeTicks,
            Tags,
            Relations,
            ChangeLogSequence
        ]
    );

    /// The field of this layout named `name`, if any.
    pub(crate) fn field(&self, name: &str) -> Option<Field> {
        let index = self.names.iter().position(|field| *field == name)?;
        Some(self.fields[index])
    }
}
