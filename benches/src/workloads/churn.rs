//! `churn`: 100,000 entities spread over 64 archetypes (Position, Velocity and any subset of
//! six optional components). A pass is 100 frames; each frame despawns 10% of the living
//! entities (picked by a seeded generator, the same for every contender), spawns as many into
//! archetypes drawn at random out of the 64, then runs `position += velocity` over every
//! entity. Spawns are grouped by archetype (each crate's batch spawn where it has one that
//! takes a runtime archetype; hecs's `EntityBuilder` per entity, bevy's `spawn_batch` of the
//! archetype's bundle type). World setup is untimed.

use bevy_ecs::query::QueryState;

use crate::components::{Position, Velocity};
use crate::mixed::{self, Rng, archetypal_mixed, freecs_mixed};
use crate::{Contender, Kind, Pass, Workload};

/// Living entities (before and after every frame).
pub const ENTITIES: usize = 100_000;

/// Entities despawned and spawned per frame.
pub const PER_FRAME: usize = ENTITIES / 10;

/// Frames per pass.
pub const FRAMES: usize = 100;

/// Archetypes spawned into: every subset of the first six optional components.
const ARCHETYPES: usize = 64;

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "churn",
        description: "100 frames: despawn 10% of 100,000, spawn as many into random archetypes of 64, iterate",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "despawn_entities(&victims), spawn_batch(mask, n, ..), for_each_table_mut",
                Kind::Archetypal,
            ),
            contender::<Hecs>(
                "hecs",
                "despawn(e), spawn(EntityBuilder), query_mut",
                Kind::Peer,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "despawn(e), spawn_batch(bundle of the archetype), contiguous_iter_mut",
                Kind::Peer,
            ),
            contender::<Freecs>(
                "freecs",
                "despawn_entities(&victims), spawn_batch(mask, n, ..), for_each_mut",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "destruct(e), entity_bulk(n) + values in place, cached query run",
                Kind::Peer,
            ),
        ],
    }
}

/// What a frame needs of a crate.
trait ChurnWorld: 'static {
    /// The crate's handle.
    type Entity: Copy;
    /// An empty world.
    fn new() -> Self;
    /// Spawns `count` entities of archetype `bits` (values from `first` on), appending their
    /// handles to `out` in spawn order.
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>);
    /// Despawns every one of `victims` (all alive).
    fn despawn(&mut self, victims: &[Self::Entity]);
    /// `position += velocity` over every entity.
    fn iterate(&mut self);
    /// [`mixed::checksum`] of the world.
    fn checksum(&mut self) -> u64;
}

/// A crate's world, its living handles (in an order every contender shares) and the state of
/// the frame loop.
struct Churn<W: ChurnWorld> {
    world: W,
    alive: Vec<W::Entity>,
    victims: Vec<W::Entity>,
    rng: Rng,
    next_value: usize,
}

impl<W: ChurnWorld> Churn<W> {
    fn new() -> Self {
        let mut churn = Churn {
            world: W::new(),
            alive: Vec::with_capacity(ENTITIES),
            victims: Vec::with_capacity(PER_FRAME),
            rng: Rng::new(0x5eed_c4a2),
            next_value: 0,
        };
        churn.spawn(ENTITIES);
        churn
    }

    /// Spawns `count` entities into random archetypes, grouped by archetype.
    fn spawn(&mut self, count: usize) {
        let mut per_archetype = [0usize; ARCHETYPES];
        for _ in 0..count {
            per_archetype[self.rng.below(ARCHETYPES)] += 1;
        }
        for (bits, &count) in per_archetype.iter().enumerate() {
            if count > 0 {
                self.world
                    .spawn(bits as u32, self.next_value, count, &mut self.alive);
                self.next_value += count;
            }
        }
    }

    fn frame(&mut self) {
        self.victims.clear();
        for _ in 0..PER_FRAME {
            let index = self.rng.below(self.alive.len());
            self.victims.push(self.alive.swap_remove(index));
        }
        self.world.despawn(&self.victims);
        self.spawn(PER_FRAME);
        self.world.iterate();
    }
}

impl<W: ChurnWorld> Pass for Churn<W> {
    fn run(&mut self) {
        for _ in 0..FRAMES {
            self.frame();
        }
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

fn contender<W: ChurnWorld>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || Box::new(Churn::<W>::new()),
    }
}

// ----- archetypal ---------------------------------------------------------------------------

struct Archetypal(archetypal_mixed::World);

impl ChurnWorld for Archetypal {
    type Entity = archetypal::Entity;
    fn new() -> Self {
        Archetypal(archetypal_mixed::World::new())
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>) {
        out.extend(archetypal_mixed::spawn(&mut self.0, bits, first, count));
    }
    fn despawn(&mut self, victims: &[Self::Entity]) {
        self.0.despawn_entities(victims);
    }
    fn iterate(&mut self) {
        use archetypal_mixed::{POSITION, VELOCITY};
        self.0.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
            for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
                position.0 += velocity.0;
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        archetypal_mixed::checksum(&self.0)
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    builder: hecs::EntityBuilder,
}

impl ChurnWorld for Hecs {
    type Entity = hecs::Entity;
    fn new() -> Self {
        Hecs {
            world: hecs::World::new(),
            builder: hecs::EntityBuilder::new(),
        }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>) {
        for index in first..first + count {
            out.push(mixed::hecs_spawn(
                &mut self.world,
                &mut self.builder,
                bits,
                index,
            ));
        }
    }
    fn despawn(&mut self, victims: &[Self::Entity]) {
        for &victim in victims {
            self.world.despawn(victim).expect("alive");
        }
    }
    fn iterate(&mut self) {
        for (position, velocity) in self.world.query_mut::<(&mut Position, &Velocity)>() {
            position.0 += velocity.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        mixed::hecs_checksum(&self.world)
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static Velocity)>,
}

impl ChurnWorld for Bevy {
    type Entity = bevy_ecs::entity::Entity;
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let query = world.query::<(&mut Position, &Velocity)>();
        Bevy { world, query }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>) {
        mixed::bevy_spawn_batch_6(&mut self.world, bits, first..first + count, out);
    }
    fn despawn(&mut self, victims: &[Self::Entity]) {
        for &victim in victims {
            self.world.despawn(victim);
        }
    }
    fn iterate(&mut self) {
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
    fn checksum(&mut self) -> u64 {
        mixed::bevy_checksum(&mut self.world)
    }
}

// ----- freecs -------------------------------------------------------------------------------

struct Freecs(freecs_mixed::World);

impl ChurnWorld for Freecs {
    type Entity = freecs::Entity;
    fn new() -> Self {
        Freecs(freecs_mixed::World::default())
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>) {
        out.extend(freecs_mixed::spawn(&mut self.0, bits, first, count));
    }
    fn despawn(&mut self, victims: &[Self::Entity]) {
        self.0.despawn_entities(victims);
    }
    fn iterate(&mut self) {
        use freecs_mixed::{POSITION, VELOCITY};
        self.0
            .for_each_mut(POSITION | VELOCITY, 0, |_entity, table, index| {
                table.position[index].0 += table.velocity[index].0;
            });
    }
    fn checksum(&mut self) -> u64 {
        freecs_mixed::checksum(&self.0)
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    // Declared before the world, so it is dropped first: a query must not outlive its world.
    query: flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    world: flecs_ecs::prelude::World,
}

impl ChurnWorld for Flecs {
    type Entity = flecs_ecs::prelude::Entity;
    fn new() -> Self {
        use flecs_ecs::prelude::{Builder, QueryBuilderImpl};
        let world = flecs_ecs::prelude::World::new();
        let query = world
            .query::<(&mut Position, &Velocity)>()
            .set_cached()
            .build();
        Flecs { query, world }
    }
    fn spawn(&mut self, bits: u32, first: usize, count: usize, out: &mut Vec<Self::Entity>) {
        out.extend(mixed::flecs_spawn(&self.world, bits, first, count));
    }
    fn despawn(&mut self, victims: &[Self::Entity]) {
        for &victim in victims {
            self.world.entity_from_id(victim).destruct();
        }
    }
    /// `run` with column slices, as in simple_iter (64 tables of about 1,500 rows).
    fn iterate(&mut self) {
        crate::worlds::flecs_run_moving(&self.query, |position, velocity| position.0 += velocity.0);
    }
    fn checksum(&mut self) -> u64 {
        mixed::flecs_checksum(&self.world)
    }
}
