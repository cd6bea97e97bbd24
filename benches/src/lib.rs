//! Benchmarks of archetypal against its peers: hecs, bevy_ecs, freecs (its `ecs!` tier), flecs
//! (through `flecs_ecs`), a plain-`Vec` baseline and, for two workloads, the naive
//! `HashMap`-per-component design.
//!
//! Every workload is a [`Workload`]: a name and its [`Contender`]s. A contender is a setup
//! function returning a boxed [`Pass`]: the world, built outside any timed region, plus the
//! work of one pass ([`Pass::run`]) and a [`Pass::checksum`] of what the pass left behind.
//! The criterion bench (`benches/ecs.rs`) and the interleaved report (`src/bin/report.rs`)
//! both time `run` through this one list, so they measure the same code, and the report
//! checks that every contender of a workload ends [`CHECKED_PASSES`] passes from a fresh setup
//! with the same checksum, so no contender is measured doing other work.
//!
//! Adding a contender (an archetypal parallel variant for `heavy_compute`, archetypal in
//! `change_detection` once it has change detection) is one function returning a
//! [`Contender`] plus its line in the workload's list.

#![forbid(unsafe_code)]

pub mod checksum;
pub mod components;
pub mod math;
pub mod mixed;
pub mod naive;
pub mod workloads;
pub mod worlds;

pub use checksum::Checksum;

/// One contender's world for one workload: the state a pass works on.
pub trait Pass {
    /// The timed work of one pass (for `simple_insert`, building the world).
    fn run(&mut self);

    /// An order-independent digest of the world's state, compared across contenders after one
    /// pass from a fresh setup.
    /// Takes `&mut self` because some worlds (bevy) need it to build a query.
    fn checksum(&mut self) -> u64;
}

/// Which implementation a contender is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// archetypal with its recommended hot loop (`for_each_table_mut`, or the only API the
    /// workload has): the reference every ratio is taken against.
    Archetypal,
    /// archetypal through another API (`for_each_mut`), or on a world declared otherwise
    /// (`[untracked]` components, in the `tracking_*` workloads), shown as its own row.
    ArchetypalVariant,
    /// A peer ECS crate.
    Peer,
    /// A hand-written baseline (plain `Vec`s, or the naive `HashMap` design).
    Baseline,
}

/// One implementation of a workload.
#[derive(Clone, Copy, Debug)]
pub struct Contender {
    /// Row label: `archetypal`, `archetypal for_each_mut`, `hecs`, `bevy_ecs`, `freecs`,
    /// `Vec`, `HashMap (naive)`.
    pub name: &'static str,
    /// The API used for the timed work, for the report's table.
    pub api: &'static str,
    /// What kind of contender this is.
    pub kind: Kind,
    /// Builds the world (untimed, except for what `run` itself does).
    pub setup: fn() -> Box<dyn Pass>,
}

/// A workload and every contender that implements it.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Name, as in ecs_bench_suite where it comes from there.
    pub name: &'static str,
    /// One line on what a pass does.
    pub description: &'static str,
    /// The contenders, archetypal first.
    pub contenders: Vec<Contender>,
}

impl Workload {
    /// The reference contender every ratio is taken against, if the workload has one.
    pub fn archetypal(&self) -> Option<&Contender> {
        self.contenders
            .iter()
            .find(|contender| contender.kind == Kind::Archetypal)
    }

    /// For `memory` only: how many entities one pass leaves alive, so the report divides the
    /// bytes the world holds after a pass by it (bytes per entity).
    pub fn memory_entities(&self) -> Option<usize> {
        use workloads::simple_insert::{MEMORY, MEMORY_ENTITIES};
        (self.name == MEMORY).then_some(MEMORY_ENTITIES)
    }
}

/// Every workload, in report order.
pub fn workloads() -> Vec<Workload> {
    use workloads::*;
    let mut all = vec![
        simple_insert::workload(),
        simple_insert::memory_workload(),
        simple_iter::workload(),
        simple_iter::large_workload(),
        disabled_iter::workload(),
        typed_query::workload(),
        fragmented_iter::workload(),
        heavy_compute::workload(),
        add_remove::workload(),
        schedule::workload(),
        random_get_mut::workload(),
        change_detection::workload(),
        tracking_cost::iter_workload(),
        tracking_cost::typed_workload(),
        tracking_cost::typed_sparse_workload(),
        tracking_cost::writes_workload(),
        tracking_cost::migrations_workload(),
        serialize::text_workload(),
        serialize::binary_workload(),
        table_creation::workload(),
        table_creation::workload_128(),
        churn::workload(),
        game_frame::workload(),
        queued_spawn::workload(),
        parent_propagate::workload(),
        schedule_overhead::workload(),
        parallel_systems::workload(),
        entity_cycle::workload(),
        game_despawn::workload(),
        rollback::workload(),
        rollback_frame::workload(),
        change_parent::workload(),
        observer_add_remove::workload(),
        observer_despawn::workload(),
        required_spawn::workload(),
        exclusive_switch::workload(),
    ];
    all.extend(many_archetypes::workloads());
    all.extend(wide_world::workloads());
    all.extend(tag_filter::workloads());
    all.extend(hierarchy::workloads());
    all
}

/// How many passes the checksum check runs from a fresh setup. More than one: a first pass
/// sees every entity as new, so a contender whose change detection reports more rows than the
/// others' (and so does other work) agrees after one pass and diverges only from the second.
pub const CHECKED_PASSES: usize = 3;

/// Runs [`CHECKED_PASSES`] passes of `contender` on a fresh setup and returns its checksum.
pub fn checksum_after_checked_passes(contender: &Contender) -> u64 {
    let mut pass = (contender.setup)();
    for _ in 0..CHECKED_PASSES {
        pass.run();
    }
    pass.checksum()
}
