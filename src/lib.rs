#![doc = include_str!("../README.md")]
// Only `core` and `alloc` unless the `std` feature is on (it is by default): see the guide's
// no_std chapter. `alloc`'s `vec!` and `format!` are the only macros taken from outside `core`.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// docs.rs builds with `--cfg docsrs` on nightly: items behind a feature are marked with it.
// Stable builds never see the attribute.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[macro_use]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod archetype;
mod builder;
mod change_log;
mod change_ticks;
#[cfg(feature = "serde")]
pub mod checksum;
mod column;
mod commands;
mod component_values;
mod dropped;
// The edge graph, the mask maps and the query cache: reachable through a world's storage for
// inspection and tests, not part of the API a game uses.
#[doc(hidden)]
pub mod edges;
mod entity;
#[cfg(feature = "serde")]
mod entity_set;
pub mod events;
#[cfg(doc)]
pub mod example_generated;
pub mod guide;
#[doc(hidden)]
pub mod hash;
mod hooks;
mod lifecycle;
mod macros;
mod mask;
mod multi_world;
#[doc(hidden)]
pub mod query_cache;
pub mod relation;
mod rules;
pub mod schedule;
#[cfg(feature = "serde")]
pub mod snapshot;
mod storage;
pub mod system;
pub mod tick;
pub mod typed_query;
mod versioned;
mod world_check;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use archetype::Archetype;
pub use change_log::StructuralChange;
#[cfg(feature = "serde")]
pub use checksum::stable_hash;
pub use column::{ColumnPairVisitor, ColumnRefVisitor, ColumnVisitor};
pub use commands::{
    BuilderStaging, CommandBuffer, CommandQueue, CommandReport, LifecycleCommand, PartCommand,
    QueuedCommand, SpawnStaging, SpawningCommand, StageSpawn, StructuralCommand,
};
pub use component_values::ComponentValues;
pub use entity::{Entity, EntityIndex, EntityLocation, EntityRecords, EntityReserver, IdRecords};
pub use events::{Consumed, EventChannel, EventCursor};
pub use hooks::HookSet;
pub use hooks::MAX_HOOK_PASSES;
pub use mask::{Bitmask, Bits, MAX_MASK_BITS, MaskWidth, SelectMask};
pub use multi_world::{
    GameColumn, GameValues, MultiWorld, MultiWorldBuilder, MultiWorldEntities, SubWorld, SubWorlds,
    SubWorldsMut,
};
pub use relation::{RelationError, RelationStore};
pub use rules::{MAX_EXCLUSIVE_GROUPS, Rules};
pub use schedule::{
    Conditional, RunIf, Schedule, ScheduleError, System, SystemContext, SystemWorld, Systems,
    Together, together,
};
#[cfg(feature = "serde")]
pub use snapshot::{
    MultiWorldSnapshot, MultiWorldSnapshotData, Snapshot, SnapshotData, SnapshotError,
};
pub use storage::{
    InvariantError, MatchingTables, MatchingTablesMut, RowTags, RowsMut, Storage, TablesMut,
    TablesOverlap, TablesRef, TypedTablesMut, TypedWalk,
};
#[cfg(feature = "serde")]
pub use system::SavedLocal;
pub use system::{
    Added, Allow, Changed, Disabled, EventReader, EventWriter, Has, Local, ParamWorld, Query, Res,
    ResMut, SystemMemories, SystemParam, SystemTicks, Target, With, Without,
};
pub use tick::{MAX_TICK_AGE, Tick};
pub use typed_query::split::SplitTables;
pub use typed_query::{
    ChangeFilter, ComponentColumn, Fetch, Mut, ParentsFirst, QueryAccess, ReadOnlyFetch,
    TargetAccess, TypedQuery, TypedQueryIter, TypedQueryRef, TypedTable,
};
