//! `typed_query`: `simple_iter`'s pass (`position += velocity` over 10,000 entities with
//! Transform, Position, Rotation and Velocity) through archetypal's typed tuple query, timed in
//! the same rounds as archetypal's slice loop, its `for_each_mut`, hecs's typed query and the
//! plain-`Vec` loop. The typed query is the reference, so its ratio to `Vec` reads directly.

use crate::components::{Position, SIMPLE_ENTITIES, Velocity};
use crate::worlds::{SimpleVecs, archetypal_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "typed_query",
        description: "simple_iter's position += velocity through typed tuple queries",
        contenders: vec![
            typed_query(),
            for_each_table_mut(),
            for_each_mut(),
            hecs(),
            vec_baseline(),
        ],
    }
}

fn archetypal_world() -> archetypal_simple::World {
    let mut world = archetypal_simple::World::new();
    spawn_simple::archetypal(&mut world, SIMPLE_ENTITIES);
    world
}

// ----- archetypal: typed_query --------------------------------------------------------------

struct TypedQuery(archetypal_simple::World);

impl Pass for TypedQuery {
    fn run(&mut self) {
        self.0
            .typed_query::<(&mut Position, &Velocity)>()
            .for_each(|(mut position, velocity)| position.0 += velocity.0);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.0)
    }
}

fn typed_query() -> Contender {
    Contender {
        name: "archetypal typed_query",
        api: "typed_query::<(&mut P, &V)>().for_each(|(p, v)| ..)",
        kind: Kind::Archetypal,
        setup: || Box::new(TypedQuery(archetypal_world())),
    }
}

// ----- archetypal: for_each_table_mut -------------------------------------------------------

struct Tables(archetypal_simple::World);

impl Pass for Tables {
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

fn for_each_table_mut() -> Contender {
    Contender {
        name: "archetypal for_each_table_mut",
        api: "for_each_table_mut + slice zip",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(Tables(archetypal_world())),
    }
}

// ----- archetypal: for_each_mut -------------------------------------------------------------

struct Rows(archetypal_simple::World);

impl Pass for Rows {
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

fn for_each_mut() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(Rows(archetypal_world())),
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

// ----- Vec ----------------------------------------------------------------------------------

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
