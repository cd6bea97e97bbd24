//! One module per workload. Each has a `workload()` listing its contenders, and one function
//! per contender returning its [`Contender`](crate::Contender): setup outside the timed
//! region, the pass inside it. The exception is `tracking_cost`, which holds the three
//! `tracking_*` workloads (`iter_workload()`, `writes_workload()`, `migrations_workload()`)
//! because they share its `[untracked]` worlds, and `tag_filter`, whose `workloads()` lists
//! one workload per density and API path; `hierarchy` lists its three. Likewise `simple_iter`
//! also gives `large_iter` (`large_workload()`), `simple_insert` gives `memory`
//! (`memory_workload()`), and `many_archetypes` and `wide_world` each list two workloads in
//! their `workloads()`.

pub mod add_remove;
pub mod change_detection;
pub mod change_parent;
pub mod churn;
pub mod disabled_iter;
pub mod entity_cycle;
pub mod exclusive_switch;
pub mod fragmented_iter;
pub mod game_despawn;
pub mod game_frame;
pub mod heavy_compute;
pub mod hierarchy;
pub mod many_archetypes;
pub mod observer_add_remove;
pub mod observer_despawn;
pub mod parallel_systems;
pub mod parent_propagate;
pub mod queued_spawn;
pub mod random_get_mut;
pub mod required_spawn;
pub mod rollback;
pub mod rollback_frame;
pub mod schedule;
pub mod schedule_overhead;
pub mod serialize;
pub mod simple_insert;
pub mod simple_iter;
pub mod table_creation;
pub mod tag_filter;
pub mod tracking_cost;
pub mod typed_query;
pub mod wide_world;
