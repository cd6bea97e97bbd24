//! `simple_insert`: create a world and spawn 10,000 entities with Transform, Position,
//! Rotation and Velocity. The timed region includes creating the world (and dropping the
//! previous pass's world), as in ecs_bench_suite.
//!
//! `memory`: the same pass with 1,000,000 entities. Its time is a large insert; the report
//! also counts (with a counting global allocator) the bytes the world built by one pass
//! holds, per entity: what each crate's storage costs, ticks and entity index included.

use crate::components::SIMPLE_ENTITIES;
use crate::worlds::{
    SimpleVecs, archetypal_simple, freecs_simple, simple_checksum, spawn_simple, untracked_simple,
};
use crate::{Contender, Kind, Pass, Workload};

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "simple_insert",
        description: "new world + batch spawn of 10,000 entities (Transform, Position, Rotation, Velocity)",
        contenders: {
            // Not in `memory`: flecs allocates through C's malloc, which the report's counting
            // allocator does not see.
            let mut contenders = contenders::<SIMPLE_ENTITIES>();
            let vec = contenders.len() - 1;
            contenders.insert(vec, flecs::<SIMPLE_ENTITIES>());
            contenders.insert(1, archetypal_in_place());
            // What the change ticks cost a spawn: the same world with nothing tracked.
            contenders.insert(2, archetypal_untracked::<SIMPLE_ENTITIES>());
            contenders
        },
    }
}

/// Entities spawned by a `memory` pass.
pub const MEMORY_ENTITIES: usize = 1_000_000;

/// `memory`: `simple_insert`'s pass over 1,000,000 entities, whose world the report weighs,
/// with archetypal's world also declared with every component `[untracked]` (no tick
/// columns: what a world that tracks nothing weighs, against hecs, which tracks nothing).
pub fn memory_workload() -> Workload {
    let mut contenders = contenders::<MEMORY_ENTITIES>();
    contenders.insert(1, archetypal_untracked::<MEMORY_ENTITIES>());
    Workload {
        name: MEMORY,
        description: "new world + batch spawn of 1,000,000 entities (4 components); bytes per entity held",
        contenders,
    }
}

/// The name of the `memory` workload (see [`Workload::memory_entities`](crate::Workload::memory_entities)).
pub const MEMORY: &str = "memory";

/// Every contender, spawning `COUNT` entities (a const parameter, so setups stay plain `fn`s).
fn contenders<const COUNT: usize>() -> Vec<Contender> {
    vec![
        archetypal::<COUNT>(),
        hecs::<COUNT>(),
        bevy::<COUNT>(),
        freecs::<COUNT>(),
        vec_baseline::<COUNT>(),
    ]
}

/// The world built by the last pass (of `COUNT` entities), read by the checksum.
struct Insert<W, const COUNT: usize> {
    world: Option<W>,
}

impl<W, const COUNT: usize> Insert<W, COUNT> {
    fn boxed(self) -> Box<Self> {
        Box::new(self)
    }
}

impl<const COUNT: usize> Pass for Insert<archetypal_simple::World, COUNT> {
    fn run(&mut self) {
        let mut world = archetypal_simple::World::new();
        spawn_simple::archetypal(&mut world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(self.world.as_ref().expect("run first"))
    }
}

fn archetypal<const COUNT: usize>() -> Contender {
    Contender {
        name: "archetypal",
        api: "spawn_values(iter of tuples)",
        kind: Kind::Archetypal,
        setup: || Insert::<archetypal_simple::World, COUNT> { world: None }.boxed(),
    }
}

/// The closure form's pass: `Insert` of the same world, filled in place.
struct InsertInPlace {
    world: Option<archetypal_simple::World>,
}

impl Pass for InsertInPlace {
    fn run(&mut self) {
        let mut world = archetypal_simple::World::new();
        archetypal_simple::spawn_in_place(&mut world, SIMPLE_ENTITIES);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(self.world.as_ref().expect("run first"))
    }
}

fn archetypal_in_place() -> Contender {
    Contender {
        name: "archetypal spawn_batch",
        api: "spawn_batch(mask, n, |table, row| ..): defaults, then each row written in place",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(InsertInPlace { world: None }),
    }
}

impl<const COUNT: usize> Pass for Insert<untracked_simple::World, COUNT> {
    fn run(&mut self) {
        let mut world = untracked_simple::World::new();
        untracked_simple::spawn(&mut world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        untracked_simple::checksum(self.world.as_ref().expect("run first"))
    }
}

fn archetypal_untracked<const COUNT: usize>() -> Contender {
    Contender {
        name: "archetypal [untracked]",
        api: "spawn_values(iter of tuples), every component [untracked]",
        kind: Kind::ArchetypalVariant,
        setup: || Insert::<untracked_simple::World, COUNT> { world: None }.boxed(),
    }
}

impl<const COUNT: usize> Pass for Insert<hecs::World, COUNT> {
    fn run(&mut self) {
        let mut world = hecs::World::new();
        spawn_simple::hecs(&mut world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::hecs(self.world.as_ref().expect("run first"))
    }
}

fn hecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "hecs",
        api: "spawn_batch(iter of tuples)",
        kind: Kind::Peer,
        setup: || Insert::<hecs::World, COUNT> { world: None }.boxed(),
    }
}

impl<const COUNT: usize> Pass for Insert<bevy_ecs::world::World, COUNT> {
    fn run(&mut self) {
        let mut world = bevy_ecs::world::World::new();
        spawn_simple::bevy(&mut world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(self.world.as_mut().expect("run first"))
    }
}

fn bevy<const COUNT: usize>() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "World::spawn_batch(iter of tuples)",
        kind: Kind::Peer,
        setup: || Insert::<bevy_ecs::world::World, COUNT> { world: None }.boxed(),
    }
}

impl<const COUNT: usize> Pass for Insert<freecs_simple::World, COUNT> {
    fn run(&mut self) {
        let mut world = freecs_simple::World::default();
        spawn_simple::freecs(&mut world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::freecs(self.world.as_ref().expect("run first"))
    }
}

fn freecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "freecs",
        api: "spawn_batch(mask, n, |table, row| ..)",
        kind: Kind::Peer,
        setup: || Insert::<freecs_simple::World, COUNT> { world: None }.boxed(),
    }
}

impl<const COUNT: usize> Pass for Insert<flecs_ecs::prelude::World, COUNT> {
    fn run(&mut self) {
        let world = flecs_ecs::prelude::World::new();
        spawn_simple::flecs(&world, COUNT);
        self.world = Some(world);
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::flecs(self.world.as_ref().expect("run first"))
    }
}

fn flecs<const COUNT: usize>() -> Contender {
    Contender {
        name: "flecs",
        api: "entity_bulk(n).add::<T>()...build(), then column slices (TableRange::get_mut)",
        kind: Kind::Peer,
        setup: || Insert::<flecs_ecs::prelude::World, COUNT> { world: None }.boxed(),
    }
}

impl<const COUNT: usize> Pass for Insert<SimpleVecs, COUNT> {
    fn run(&mut self) {
        self.world = Some(SimpleVecs::new(COUNT));
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(self.world.as_ref().expect("run first"))
    }
}

fn vec_baseline<const COUNT: usize>() -> Contender {
    Contender {
        name: "Vec",
        api: "4 x Vec::with_capacity + push",
        kind: Kind::Baseline,
        setup: || Insert::<SimpleVecs, COUNT> { world: None }.boxed(),
    }
}
