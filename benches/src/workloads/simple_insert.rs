//! `simple_insert`: create a world and spawn 10,000 entities with Transform, Position,
//! Rotation and Velocity. The timed region includes creating the world (and dropping the
//! previous pass's world), as in ecs_bench_suite.

use crate::components::SIMPLE_ENTITIES;
use crate::worlds::{SimpleVecs, archetypal_simple, freecs_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "simple_insert",
        description: "new world + batch spawn of 10,000 entities (Transform, Position, Rotation, Velocity)",
        contenders: vec![archetypal(), hecs(), bevy(), freecs(), vec_baseline()],
    }
}

/// The world built by the last pass, read by the checksum.
struct Insert<W> {
    world: Option<W>,
}

impl<W> Insert<W> {
    fn boxed(self) -> Box<Self> {
        Box::new(self)
    }
}

impl Pass for Insert<archetypal_simple::World> {
    fn run(&mut self) {
        let mut world = archetypal_simple::World::new();
        spawn_simple::archetypal(&mut world, SIMPLE_ENTITIES);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(self.world.as_ref().expect("run first"))
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "spawn_batch(mask, n, |table, row| ..)",
        kind: Kind::Archetypal,
        setup: || Insert::<archetypal_simple::World> { world: None }.boxed(),
    }
}

impl Pass for Insert<hecs::World> {
    fn run(&mut self) {
        let mut world = hecs::World::new();
        spawn_simple::hecs(&mut world, SIMPLE_ENTITIES);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::hecs(self.world.as_ref().expect("run first"))
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "spawn_batch(iter of tuples)",
        kind: Kind::Peer,
        setup: || Insert::<hecs::World> { world: None }.boxed(),
    }
}

impl Pass for Insert<bevy_ecs::world::World> {
    fn run(&mut self) {
        let mut world = bevy_ecs::world::World::new();
        spawn_simple::bevy(&mut world, SIMPLE_ENTITIES);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(self.world.as_mut().expect("run first"))
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "World::spawn_batch(iter of tuples)",
        kind: Kind::Peer,
        setup: || Insert::<bevy_ecs::world::World> { world: None }.boxed(),
    }
}

impl Pass for Insert<freecs_simple::World> {
    fn run(&mut self) {
        let mut world = freecs_simple::World::default();
        spawn_simple::freecs(&mut world, SIMPLE_ENTITIES);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::freecs(self.world.as_ref().expect("run first"))
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "spawn_batch(mask, n, |table, row| ..)",
        kind: Kind::Peer,
        setup: || Insert::<freecs_simple::World> { world: None }.boxed(),
    }
}

impl Pass for Insert<SimpleVecs> {
    fn run(&mut self) {
        self.world = Some(SimpleVecs::new(SIMPLE_ENTITIES));
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(self.world.as_ref().expect("run first"))
    }
}

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "4 x Vec::with_capacity + push",
        kind: Kind::Baseline,
        setup: || Insert::<SimpleVecs> { world: None }.boxed(),
    }
}
