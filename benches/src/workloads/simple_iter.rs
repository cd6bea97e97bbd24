//! `simple_iter`: 10,000 entities with Transform, Position, Rotation and Velocity;
//! `position += velocity` over all of them. World setup is untimed.

use bevy_ecs::query::QueryState;

use crate::components::{Position, SIMPLE_ENTITIES, Velocity};
use crate::naive::NaiveWorld;
use crate::worlds::{SimpleVecs, archetypal_simple, freecs_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "simple_iter",
        description: "position += velocity over 10,000 entities (one archetype)",
        contenders: vec![
            archetypal(),
            archetypal_for_each_mut(),
            hecs(),
            bevy(),
            freecs(),
            vec_baseline(),
            naive(),
        ],
    }
}

fn archetypal_world() -> archetypal_simple::World {
    let mut world = archetypal_simple::World::new();
    spawn_simple::archetypal(&mut world, SIMPLE_ENTITIES);
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

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "for_each_table_mut + slice zip",
        kind: Kind::Archetypal,
        setup: || Box::new(ArchetypalTables(archetypal_world())),
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

fn archetypal_for_each_mut() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalRows(archetypal_world())),
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

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "query_mut::<(&mut P, &V)>()",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            spawn_simple::hecs(&mut world, SIMPLE_ENTITIES);
            Box::new(Hecs(world))
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static Velocity)>,
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.query
            .iter_mut(&mut self.world)
            .for_each(|(mut position, velocity)| position.0 += velocity.0);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(&mut self.world)
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "cached QueryState::iter_mut().for_each",
        kind: Kind::Peer,
        setup: || {
            let mut world = bevy_ecs::world::World::new();
            spawn_simple::bevy(&mut world, SIMPLE_ENTITIES);
            let query = world.query::<(&mut Position, &Velocity)>();
            Box::new(Bevy { world, query })
        },
    }
}

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

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_simple::World::default();
            spawn_simple::freecs(&mut world, SIMPLE_ENTITIES);
            Box::new(Freecs(world))
        },
    }
}

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

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "positions.iter_mut().zip(&velocities)",
        kind: Kind::Baseline,
        setup: || Box::new(Vecs(SimpleVecs::new(SIMPLE_ENTITIES))),
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

fn naive() -> Contender {
    Contender {
        name: "HashMap (naive)",
        api: "walk positions map, look up velocities map",
        kind: Kind::Baseline,
        setup: || Box::new(Naive(NaiveWorld::simple(SIMPLE_ENTITIES).0)),
    }
}
