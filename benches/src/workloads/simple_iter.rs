//! `simple_iter`: 10,000 entities with Transform, Position, Rotation and Velocity;
//! `position += velocity` over all of them; `large_iter`: the same pass over 1,000,000
//! entities (out of the caches). World setup is untimed.

use bevy_ecs::query::QueryState;

use crate::components::{Position, SIMPLE_ENTITIES, Velocity};
use crate::naive::NaiveWorld;
use crate::worlds::{SimpleVecs, archetypal_simple, freecs_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// Entities in `large_iter`: past the caches, so the pass measures memory bandwidth.
pub const LARGE_ENTITIES: usize = 1_000_000;

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "simple_iter",
        description: "position += velocity over 10,000 entities (one archetype)",
        contenders: contenders::<SIMPLE_ENTITIES>(),
    }
}

/// `large_iter`: `simple_iter`'s pass over 1,000,000 entities.
pub fn large_workload() -> Workload {
    Workload {
        name: "large_iter",
        description: "position += velocity over 1,000,000 entities (one archetype)",
        contenders: contenders::<LARGE_ENTITIES>(),
    }
}

/// Every contender over `COUNT` entities (a const parameter, so each setup stays a plain `fn`).
fn contenders<const COUNT: usize>() -> Vec<Contender> {
    vec![
        archetypal::<COUNT>(),
        archetypal_for_each_mut::<COUNT>(),
        hecs::<COUNT>(),
        bevy::<COUNT>(),
        bevy_iter_mut::<COUNT>(),
        freecs::<COUNT>(),
        flecs::<COUNT>(),
        vec_baseline::<COUNT>(),
        naive::<COUNT>(),
    ]
}

fn archetypal_world(count: usize) -> archetypal_simple::World {
    let mut world = archetypal_simple::World::new();
    spawn_simple::archetypal(&mut world, count);
    world
}

// ----- archetypal: for_each_table_mut -------------------------------------------------------

struct ArchetypalTables(archetypal_simple::World);

impl Pass for ArchetypalTables {
    fn run(&mut self) {
        use archetypal_simple::{POSITION, VELOCITY};
        self.0.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
            for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
                position.0 += velocity.0;
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn archetypal<const COUNT: usize>() -> Contender {
    Contender {
        name: "archetypal",
        api: "for_each_table_mut + slice zip",
        kind: Kind::Archetypal,
        setup: || Box::new(ArchetypalTables(archetypal_world(COUNT))),
    }
}

// ----- archetypal: for_each_mut -------------------------------------------------------------

struct ArchetypalRows(archetypal_simple::World);

impl Pass for ArchetypalRows {
    fn run(&mut self) {
        use archetypal_simple::{POSITION, VELOCITY};
        self.0
            .for_each_mut(POSITION | VELOCITY, 0, |_entity, table, index| {
                table.position[index].0 += table.velocity[index].0;
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn archetypal_for_each_mut<const COUNT: usize>() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalRows(archetypal_world(COUNT))),
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Pass for Hecs {
    fn run(&mut self) {
        for (position, velocity) in self.0.query_mut::<(&mut Position, &Velocity)>() {
            position.0 += velocity.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::hecs(&self.0)
    }
}

fn hecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "hecs",
        api: "query_mut::<(&mut P, &V)>()",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            spawn_simple::hecs(&mut world, COUNT);
            Box::new(Hecs(world))
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// bevy's world of `count` simple entities and its cached `(&mut Position, &Velocity)` query.
pub struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static Velocity)>,
}

impl Bevy {
    /// `count` entities of the simple world.
    pub fn new(count: usize) -> Self {
        let mut world = bevy_ecs::world::World::new();
        spawn_simple::bevy(&mut world, count);
        let query = world.query::<(&mut Position, &Velocity)>();
        Bevy { world, query }
    }

    /// `position += velocity` through table slices (`contiguous_iter_mut`), bevy's fastest
    /// documented loop: one `ContiguousMut` (marking the column changed) per table.
    pub fn run_contiguous(&mut self) {
        let tables = self
            .query
            .contiguous_iter_mut(&mut self.world)
            .expect("table components: the query is dense");
        for (mut positions, velocities) in tables {
            for (position, velocity) in positions.iter_mut().zip(velocities) {
                position.0 += velocity.0;
            }
        }
    }

    /// The same through per-item `Mut<Position>` guards.
    pub fn run_per_item(&mut self) {
        self.query
            .iter_mut(&mut self.world)
            .for_each(|(mut position, velocity)| position.0 += velocity.0);
    }

    /// The simple world's checksum.
    pub fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(&mut self.world)
    }
}

struct BevyContiguous(Bevy);

impl Pass for BevyContiguous {
    fn run(&mut self) {
        self.0.run_contiguous();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

struct BevyPerItem(Bevy);

impl Pass for BevyPerItem {
    fn run(&mut self) {
        self.0.run_per_item();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn bevy<const COUNT: usize>() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: BEVY_CONTIGUOUS,
        kind: Kind::Peer,
        setup: || Box::new(BevyContiguous(Bevy::new(COUNT))),
    }
}

fn bevy_iter_mut<const COUNT: usize>() -> Contender {
    Contender {
        name: "bevy_ecs iter_mut",
        api: BEVY_PER_ITEM,
        kind: Kind::Peer,
        setup: || Box::new(BevyPerItem(Bevy::new(COUNT))),
    }
}

/// The API of the bevy row (table slices).
pub const BEVY_CONTIGUOUS: &str = "cached QueryState::contiguous_iter_mut + slice zip";
/// The API of the `bevy_ecs iter_mut` row (per-item guards).
pub const BEVY_PER_ITEM: &str = "cached QueryState::iter_mut().for_each";

// ----- freecs -------------------------------------------------------------------------------

struct Freecs(freecs_simple::World);

impl Pass for Freecs {
    fn run(&mut self) {
        use freecs_simple::{POSITION, VELOCITY};
        self.0
            .for_each_mut(POSITION | VELOCITY, 0, |_entity, table, index| {
                table.position[index].0 += table.velocity[index].0;
            });
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::freecs(&self.0)
    }
}

fn freecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "freecs",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_simple::World::default();
            spawn_simple::freecs(&mut world, COUNT);
            Box::new(Freecs(world))
        },
    }
}

// ----- flecs --------------------------------------------------------------------------------

/// flecs's world of simple entities and its cached `(&mut Position, &Velocity)` query.
struct Flecs {
    // Declared before the world, so it is dropped first: a query must not outlive its world.
    query: flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    world: flecs_ecs::prelude::World,
}

impl Flecs {
    fn new(count: usize) -> Self {
        use flecs_ecs::prelude::{Builder, QueryBuilderImpl};
        let world = flecs_ecs::prelude::World::new();
        spawn_simple::flecs(&world, count);
        // Cached: the query is reused every pass (flecs caches only on request).
        let query = world
            .query::<(&mut Position, &Velocity)>()
            .set_cached()
            .build();
        Flecs { query, world }
    }
}

impl Pass for Flecs {
    /// `run`, flecs's fastest safe loop here (ahead of `each`, its per-entity closure): per
    /// table, the columns as slices (`field_mut` / `field`).
    fn run(&mut self) {
        crate::worlds::flecs_run_moving(&self.query, |position, velocity| position.0 += velocity.0);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::flecs(&self.world)
    }
}

fn flecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "flecs",
        api: FLECS_RUN,
        kind: Kind::Peer,
        setup: || Box::new(Flecs::new(COUNT)),
    }
}

/// The API of the flecs rows that loop over table slices.
pub const FLECS_RUN: &str = "cached query, run + field slices";

// ----- baselines ----------------------------------------------------------------------------

struct Vecs(SimpleVecs);

impl Pass for Vecs {
    fn run(&mut self) {
        let vecs = &mut self.0;
        for (position, velocity) in vecs.positions.iter_mut().zip(&vecs.velocities) {
            position.0 += velocity.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(&self.0)
    }
}

fn vec_baseline<const COUNT: usize>() -> Contender {
    Contender {
        name: "Vec",
        api: "positions.iter_mut().zip(&velocities)",
        kind: Kind::Baseline,
        setup: || Box::new(Vecs(SimpleVecs::new(COUNT))),
    }
}

struct Naive(NaiveWorld);

impl Pass for Naive {
    fn run(&mut self) {
        let world = &mut self.0;
        for (entity, position) in world.positions.iter_mut() {
            if let Some(velocity) = world.velocities.get(entity) {
                position.0 += velocity.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::naive(&self.0)
    }
}

fn naive<const COUNT: usize>() -> Contender {
    Contender {
        name: "HashMap (naive)",
        api: "walk positions map, look up velocities map",
        kind: Kind::Baseline,
        setup: || Box::new(Naive(NaiveWorld::simple(COUNT).0)),
    }
}
