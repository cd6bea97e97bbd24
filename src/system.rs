//! Systems as plain functions whose parameters say what they touch.
//!
//! ```text
//! fn movement(mut query: Query<(&mut Position, &Velocity)>) { .. }
//! fn damage(mut hits: EventReader<Hit>, mut query: Query<&mut Health>, mut score: ResMut<Score>) { .. }
//! ```
//!
//! Each parameter is a [`SystemParam`]: it names its part of the world by type (a component, a
//! resource, an event; a query's table type names its sub-world in a multi-world game, see
//! [`PartList`]) and its access is a constant, so a system whose parameters alias does
//! not compile (ecs!'s message names the two parameters). A [`Schedule`](crate::Schedule) runs
//! such a function as it runs `fn(&mut World)`: it fetches the parameters from the world, and
//! the system's memory (the tick of its last run for [`Changed`] and [`Added`], its event
//! readers' cursors, its [`Local`]s) is kept in the world's state ([`SystemMemories`]), so a
//! clone or a `restore` carries it, and a snapshot too, but for the locals.
//!
//! Where the code is: `access.rs` (the access constants and their conflicts), `slot.rs` (one part
//! of the world handed out once mutably or shared), `memory.rs` (what systems remember, and
//! [`Local`], [`SystemTicks`]), `param.rs` (the parameter trait and the world's side), `parts.rs`
//! (a world's storages, one per part, as its queries find them), then one
//! file per parameter family (`query.rs` and its relation term `target.rs`, `resource.rs`,
//! `event.rs`) and `function.rs` (plain
//! functions as systems).

pub(crate) mod access;
mod event;
mod function;
mod has;
mod local;
pub(crate) mod memory;
mod param;
mod parts;
mod query;
mod resource;
#[cfg(feature = "serde")]
mod saved_local;
mod slot;
mod target;

pub use access::{MAX_PARTS, PartBits, SystemAccess};
pub use event::{EventReader, EventWriter};
pub(crate) use function::short_name;
pub use has::Has;
pub use local::Local;
pub use memory::{KeptValues, LentValues, MemoryValue, SystemMemories, SystemMemory, SystemTicks};
pub(crate) use param::BatchSystem;
pub(crate) use param::shorten;
pub use param::{
    BatchMember, EventOf, EventSet, Lent, LentCommands, ParamSource, ParamWorld, ResourceOf,
    ResourceSet, SystemParam, SystemWorld,
};
pub use parts::StorageSource;
pub use parts::{Here, PartLending, PartList, PartOf, There};
pub(crate) use query::add_filter;
pub use query::{
    Added, Allow, Changed, Disabled, Query, QueryFilter, RelationOf, TagOf, With, Without,
};
pub use resource::{Res, ResMut};
#[cfg(feature = "serde")]
pub use saved_local::SavedLocal;
pub use slot::Slot;
pub use target::Target;
