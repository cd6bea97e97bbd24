//! One module per workload. Each has a `workload()` listing its contenders, and one function
//! per contender returning its [`Contender`](crate::Contender): setup outside the timed
//! region, the pass inside it.

pub mod add_remove;
pub mod change_detection;
pub mod fragmented_iter;
pub mod heavy_compute;
pub mod random_get_mut;
pub mod schedule;
pub mod simple_insert;
pub mod simple_iter;
