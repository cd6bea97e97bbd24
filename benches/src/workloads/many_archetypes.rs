//! `many_archetypes`: 1,000 archetypes (Position, Velocity and the subset of ten optional
//! components given by the bits of 0..1,000) of 10 to 1,000 entities each, sizes skewed (most
//! small, a few large: `10 + 990 u^4`, `u` uniform), about 200,000 entities. A pass runs a
//! query matching half of the archetypes (those with `O0`): `position.x += o0`. World setup
//! is untimed.
//!
//! `many_archetypes_growth`: what a query pays on its first call after each new table. A pass
//! builds a new world with the query already made, then for each of the 1,000 archetypes
//! spawns one entity into it (a new table) and runs the query once. The pass includes
//! creating the tables, as a game growing its world pays it; bevy_ecs spawns each entity with
//! Position and Velocity and inserts its optional components one by one (it has no safe
//! runtime-typed bundle), hecs through its `EntityBuilder`.

use bevy_ecs::query::QueryState;

use crate::components::Position;
use crate::mixed::{self, O0, Rng, archetypal_mixed, freecs_mixed};
use crate::workloads::simple_iter::FLECS_RUN;
use crate::{Contender, Kind, Pass, Workload};

/// Archetypes in the world.
pub const ARCHETYPES: u32 = 1_000;

/// The entities of each archetype, skewed: most archetypes small, a few large.
fn sizes() -> Vec<usize> {
    let mut rng = Rng::new(0xa4c3_e7e5);
    (0..ARCHETYPES)
        .map(|_| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            10 + (990.0 * u.powi(4)) as usize
        })
        .collect()
}

/// The workloads and their contenders.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "many_archetypes",
            description: "position.x += o0 over the 500 of 1,000 archetypes (10..1,000 entities, skewed) that have O0",
            contenders: vec![
                iterate::<Archetypal>(
                    "archetypal",
                    "for_each_table_mut + slice zip",
                    Kind::Archetypal,
                ),
                iterate::<Hecs>("hecs", "query_mut::<(&mut P, &O0)>()", Kind::Peer),
                iterate::<Bevy>(
                    "bevy_ecs",
                    "cached QueryState::contiguous_iter_mut + slice zip",
                    Kind::Peer,
                ),
                iterate::<Freecs>(
                    "freecs",
                    "for_each_mut(|entity, table, index| ..)",
                    Kind::Peer,
                ),
                iterate::<Flecs>("flecs", FLECS_RUN, Kind::Peer),
            ],
        },
        Workload {
            name: "many_archetypes_growth",
            description: "new world; 1,000 times: spawn 1 entity into a new archetype, run the query (first call after a new table)",
            contenders: vec![
                growth::<Archetypal>(
                    "archetypal",
                    "spawn_batch(mask, 1, ..), for_each_table_mut",
                    Kind::Archetypal,
                ),
                growth::<Hecs>("hecs", "spawn(EntityBuilder), query_mut", Kind::Peer),
                growth::<Bevy>(
                    "bevy_ecs",
                    "spawn((P, V)) + insert per optional component, cached QueryState::contiguous_iter_mut",
                    Kind::Peer,
                ),
                growth::<Freecs>(
                    "freecs",
                    "spawn_batch(mask, 1, ..), for_each_mut",
                    Kind::Peer,
                ),
                growth::<Flecs>(
                    "flecs",
                    "entity_bulk(1) + values in place, cached query run",
                    Kind::Peer,
                ),
            ],
        },
    ]
}

/// What the two workloads need of a crate.
trait ManyWorld: 'static {
    /// An empty world, with its query made.
    fn new() -> Self;
    /// Spawns `count` entities of archetype `bits`, values from `first` on.
    fn spawn(&mut self, bits: u32, first: usize, count: usize);
    /// `position.x += o0` over every entity with `O0`.
    fn run_query(&mut self);
    /// [`mixed::checksum`] of the world.
    fn checksum(&mut self) -> u64;
}

/// The full world, iterated.
struct Iterate<W>(W);

impl<W: ManyWorld> Pass for Iterate<W> {
    fn run(&mut self) {
        self.0.run_query();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn iterate<W: ManyWorld>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            let mut world = W::new();
            let mut next = 0;
            for (bits, size) in (0..ARCHETYPES).zip(sizes()) {
                world.spawn(bits, next, size);
                next += size;
            }
            Box::new(Iterate(world))
        },
    }
}

/// The world built by the last growth pass.
struct Growth<W>(Option<W>);

impl<W: ManyWorld> Pass for Growth<W> {
    fn run(&mut self) {
        let mut world = W::new();
        for bits in 0..ARCHETYPES {
            world.spawn(bits, bits as usize, 1);
            world.run_query();
        }
        self.0 = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        self.0.as_mut().expect("run first").checksum()
    }
}

fn growth<W: ManyWorld>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || Box::new(Growth::<W>(None)),
    }
}

// ----- the crates ---------------------------------------------------------------------------

struct Archetypal(archetypal_mixed::World);

impl ManyWorld for Archetypal {
    fn new() -> Self {
        Archetypal(archetypal_mixed::World::new())
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize) {
        archetypal_mixed::spawn(&mut self.0, bits, first, count);
    }
    fn run_query(&mut self) {
        use archetypal_mixed::{O0_BIT, POSITION};
        self.0.for_each_table_mut(POSITION | O0_BIT, 0, |table| {
            for (position, o0) in table.position.iter_mut().zip(table.o0.iter()) {
                position.0.x += o0.0;
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        archetypal_mixed::checksum(&self.0)
    }
}

struct Hecs {
    world: hecs::World,
    builder: hecs::EntityBuilder,
}

impl ManyWorld for Hecs {
    fn new() -> Self {
        Hecs {
            world: hecs::World::new(),
            builder: hecs::EntityBuilder::new(),
        }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize) {
        for index in first..first + count {
            mixed::hecs_spawn(&mut self.world, &mut self.builder, bits, index);
        }
    }
    fn run_query(&mut self) {
        for (position, o0) in self.world.query_mut::<(&mut Position, &O0)>() {
            position.0.x += o0.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        mixed::hecs_checksum(&self.world)
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static O0)>,
}

impl ManyWorld for Bevy {
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let query = world.query::<(&mut Position, &O0)>();
        Bevy { world, query }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize) {
        for index in first..first + count {
            mixed::bevy_spawn(&mut self.world, bits, index);
        }
    }
    fn run_query(&mut self) {
        let tables = self
            .query
            .contiguous_iter_mut(&mut self.world)
            .expect("table components: the query is dense");
        for (mut positions, o0s) in tables {
            for (position, o0) in positions.iter_mut().zip(o0s) {
                position.0.x += o0.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        mixed::bevy_checksum(&mut self.world)
    }
}

struct Freecs(freecs_mixed::World);

impl ManyWorld for Freecs {
    fn new() -> Self {
        Freecs(freecs_mixed::World::default())
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize) {
        freecs_mixed::spawn(&mut self.0, bits, first, count);
    }
    fn run_query(&mut self) {
        use freecs_mixed::{O0_BIT, POSITION};
        self.0
            .for_each_mut(POSITION | O0_BIT, 0, |_entity, table, index| {
                table.position[index].0.x += table.o0[index].0;
            });
    }
    fn checksum(&mut self) -> u64 {
        freecs_mixed::checksum(&self.0)
    }
}

struct Flecs {
    // Declared before the world, so it is dropped first: a query must not outlive its world.
    query: flecs_ecs::prelude::Query<(&'static mut Position, &'static O0)>,
    world: flecs_ecs::prelude::World,
}

impl ManyWorld for Flecs {
    fn new() -> Self {
        use flecs_ecs::prelude::{Builder, QueryBuilderImpl};
        let world = flecs_ecs::prelude::World::new();
        let query = world.query::<(&mut Position, &O0)>().set_cached().build();
        Flecs { query, world }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize) {
        mixed::flecs_spawn(&self.world, bits, first, count);
    }
    /// `run` with column slices, as in simple_iter: most rows are in tables of over a hundred.
    fn run_query(&mut self) {
        use flecs_ecs::prelude::QueryAPI;
        self.query.run(|mut it| {
            while it.next() {
                let mut positions = it.field_mut::<Position>(0);
                let o0s = it.field::<O0>(1);
                for (position, o0) in positions.as_mut_slice().iter_mut().zip(o0s.as_slice()) {
                    position.0.x += o0.0;
                }
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        mixed::flecs_checksum(&self.world)
    }
}
