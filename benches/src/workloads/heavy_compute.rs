//! `heavy_compute`: 1,000 entities with Transform, Position, Rotation and Velocity; for each,
//! invert the transform 100 times, then transform the position by it. Every contender uses its
//! parallel API where it offers one (as ecs_bench_suite does): archetypal's `par_for_each_mut`
//! (feature `parallel`) is the reference, and its serial loops are shown beside it so the
//! speed-up reads off the table. World setup is untimed.

use bevy_ecs::query::QueryState;
use rayon::prelude::*;

use crate::components::{Position, Transform};
use crate::worlds::{SimpleVecs, archetypal_simple, freecs_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// Entities in the world (ecs_bench_suite's size).
pub const ENTITIES: usize = 1_000;

/// Inversions per entity per pass.
pub const INVERSIONS: usize = 100;

/// hecs batch size for `par_bridge` (ecs_bench_suite's).
const HECS_BATCH: u32 = 64;

/// The work done for one entity, by every contender.
#[inline]
pub fn heavy(transform: &mut Transform, position: &mut Position) {
    for _ in 0..INVERSIONS {
        transform.0 = transform.0.invert().expect("the transform is a rotation");
    }
    position.0 = transform.0.transform_vector(position.0);
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "heavy_compute",
        description: "1,000 entities x 100 4x4 inversions, in parallel where the crate offers it",
        contenders: vec![
            archetypal(),
            archetypal_serial(),
            archetypal_for_each_mut(),
            hecs(),
            bevy(),
            freecs(),
            vec_baseline(),
        ],
    }
}

fn archetypal_world() -> archetypal_simple::World {
    let mut world = archetypal_simple::World::new();
    spawn_simple::archetypal(&mut world, ENTITIES);
    world
}

// ----- archetypal ---------------------------------------------------------------------------

struct ArchetypalParallel(archetypal_simple::World);

impl Pass for ArchetypalParallel {
    fn run(&mut self) {
        use archetypal_simple::{POSITION, TRANSFORM};
        self.0
            .par_for_each_mut(POSITION | TRANSFORM, 0, |_entity, table, index| {
                heavy(&mut table.transform[index], &mut table.position[index]);
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "par_for_each_mut (rayon, tables split into row chunks)",
        kind: Kind::Archetypal,
        setup: || Box::new(ArchetypalParallel(archetypal_world())),
    }
}

struct ArchetypalTables(archetypal_simple::World);

impl Pass for ArchetypalTables {
    fn run(&mut self) {
        use archetypal_simple::{POSITION, TRANSFORM};
        self.0.for_each_table_mut(POSITION | TRANSFORM, 0, |table| {
            for (transform, position) in table.transform.iter_mut().zip(table.position.iter_mut()) {
                heavy(transform, position);
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn archetypal_serial() -> Contender {
    Contender {
        name: "archetypal serial",
        api: "for_each_table_mut + slice zip (serial)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalTables(archetypal_world())),
    }
}

struct ArchetypalRows(archetypal_simple::World);

impl Pass for ArchetypalRows {
    fn run(&mut self) {
        use archetypal_simple::{POSITION, TRANSFORM};
        self.0
            .for_each_mut(POSITION | TRANSFORM, 0, |_entity, table, index| {
                heavy(&mut table.transform[index], &mut table.position[index]);
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn archetypal_for_each_mut() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "for_each_mut(|entity, table, index| ..) (serial)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalRows(archetypal_world())),
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Pass for Hecs {
    fn run(&mut self) {
        self.0
            .query_mut::<(&mut Position, &mut Transform)>()
            .into_iter_batched(HECS_BATCH)
            .par_bridge()
            .for_each(|batch| {
                for (position, transform) in batch {
                    heavy(transform, position);
                }
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::hecs(&self.0)
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "query_mut().into_iter_batched(64).par_bridge() (rayon)",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            spawn_simple::hecs(&mut world, ENTITIES);
            Box::new(Hecs(world))
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static mut Transform)>,
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.query
            .par_iter_mut(&mut self.world)
            .for_each(|(mut position, mut transform)| heavy(&mut transform, &mut position));
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(&mut self.world)
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "cached QueryState::par_iter_mut (bevy_tasks pool)",
        kind: Kind::Peer,
        setup: || {
            bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
            let mut world = bevy_ecs::world::World::new();
            spawn_simple::bevy(&mut world, ENTITIES);
            let query = world.query::<(&mut Position, &mut Transform)>();
            Box::new(Bevy { world, query })
        },
    }
}

// ----- freecs -------------------------------------------------------------------------------

struct Freecs(freecs_simple::World);

impl Pass for Freecs {
    fn run(&mut self) {
        use freecs_simple::{POSITION, TRANSFORM};
        self.0
            .par_for_each_mut(POSITION | TRANSFORM, 0, |_entity, table, index| {
                heavy(&mut table.transform[index], &mut table.position[index]);
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::freecs(&self.0)
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "par_for_each_mut (rayon across tables only; one table here, so it runs on one thread)",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_simple::World::default();
            spawn_simple::freecs(&mut world, ENTITIES);
            Box::new(Freecs(world))
        },
    }
}

// ----- baseline -----------------------------------------------------------------------------

struct Vecs(SimpleVecs);

impl Pass for Vecs {
    fn run(&mut self) {
        let vecs = &mut self.0;
        vecs.transforms
            .par_iter_mut()
            .zip(vecs.positions.par_iter_mut())
            .for_each(|(transform, position)| heavy(transform, position));
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(&self.0)
    }
}

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "par_iter_mut().zip(..) (rayon)",
        kind: Kind::Baseline,
        setup: || Box::new(Vecs(SimpleVecs::new(ENTITIES))),
    }
}
