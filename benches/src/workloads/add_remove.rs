//! `add_remove`: 10,000 entities with `A`; add `B` to every one, then remove `B` from every
//! one: two migrations per entity per pass. World setup is untimed. No `Vec` baseline: a
//! plain `Vec` has no structural change to compare with.
//!
//! A pass ends where it started, so each contender also counts the entities holding `B`
//! after the add half (through its cheapest count: table lengths or an archetype-level query
//! count) and keeps the running total: the checksum sees it, so a contender that skipped the
//! migrations would not match, and a second pass changes the checksum.

use bevy_ecs::component::Component;
use bevy_ecs::query::{QueryState, With};
use flecs_ecs::macros::Component as FlecsComponent;

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities in the world (ecs_bench_suite's size).
pub const ENTITIES: usize = 10_000;

/// The component every entity keeps.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct A(pub f32);

/// The component added and removed.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct B(pub f32);

/// The `A` of the entity spawned `index`-th (`observer_add_remove` spawns the same).
pub(crate) fn a_value(index: usize) -> A {
    A(index as f32)
}

/// flecs's `ENTITIES` entities with `A`: bulk-created, then their values written in place
/// through the new rows' column slices (5-8x faster than a bulk insert with data slices).
pub(crate) fn flecs_spawn_a(world: &flecs_ecs::prelude::World) -> Vec<flecs_ecs::prelude::Entity> {
    use flecs_ecs::prelude::TableOperations;
    let entities = world.entity_bulk(ENTITIES as u32).add::<A>().build();
    let mut rows = crate::worlds::flecs_new_rows(world, &entities).expect("entities");
    for (index, a) in rows
        .get_mut::<A>()
        .expect("an A column")
        .iter_mut()
        .enumerate()
    {
        *a = a_value(index);
    }
    entities
}

/// Checksum of every `A`, how many entities still have a `B` (0 after a pass) and how many
/// held `B` after the add halves of every pass so far (`moved`).
pub fn checksum<'a>(a_values: impl IntoIterator<Item = &'a A>, with_b: usize, moved: u64) -> u64 {
    let mut sum = Checksum::new();
    a_values.into_iter().for_each(|a| sum.f32(0, a.0));
    sum.count(1, with_b as u64);
    sum.count(2, moved);
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "add_remove",
        description: "add B to 10,000 entities with A, then remove it from all",
        contenders: vec![archetypal(), hecs(), bevy(), freecs(), flecs()],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world.
pub mod archetypal_world {
    pub use super::{A, B};

    archetypal::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
        }
    }
}

struct Archetypal {
    world: archetypal_world::World,
    entities: Vec<archetypal::Entity>,
    moved: u64,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.add_components(entity, archetypal_world::B_BIT);
        }
        self.moved += self
            .world
            .tables()
            .iter()
            .map(|table| table.b.len() as u64)
            .sum::<u64>();
        for &entity in &self.entities {
            self.world
                .remove_components(entity, archetypal_world::B_BIT);
        }
    }
    fn checksum(&mut self) -> u64 {
        let tables = self.world.tables();
        checksum(
            tables.iter().flat_map(|table| &table.a),
            tables.iter().map(|table| table.b.len()).sum(),
            self.moved,
        )
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "add_components(e, B) / remove_components(e, B)",
        kind: Kind::Archetypal,
        setup: || {
            let mut world = archetypal_world::World::new();
            let mut next = 0;
            let entities = world.spawn_batch(archetypal_world::A_BIT, ENTITIES, |table, row| {
                table.a[row] = a_value(next);
                next += 1;
            });
            Box::new(Archetypal {
                world,
                entities,
                moved: 0,
            })
        },
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    entities: Vec<hecs::Entity>,
    moved: u64,
}

impl Pass for Hecs {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.insert_one(entity, B(0.0)).expect("alive");
        }
        self.moved += self.world.query_mut::<&B>().into_iter().len() as u64;
        for &entity in &self.entities {
            self.world.remove_one::<B>(entity).expect("has B");
        }
    }
    fn checksum(&mut self) -> u64 {
        checksum(
            self.world.query::<&A>().iter(),
            self.world.query::<&B>().iter().count(),
            self.moved,
        )
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "insert_one(e, B) / remove_one::<B>(e)",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            let entities = world
                .spawn_batch((0..ENTITIES).map(|index| (a_value(index),)))
                .collect();
            Box::new(Hecs {
                world,
                entities,
                moved: 0,
            })
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    entities: Vec<bevy_ecs::entity::Entity>,
    with_b: QueryState<(), With<B>>,
    moved: u64,
}

impl Pass for Bevy {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.entity_mut(entity).insert(B(0.0));
        }
        self.moved += self.with_b.query(&self.world).count() as u64;
        for &entity in &self.entities {
            self.world.entity_mut(entity).remove::<B>();
        }
    }
    fn checksum(&mut self) -> u64 {
        let a_values: Vec<A> = self
            .world
            .query::<&A>()
            .iter(&self.world)
            .copied()
            .collect();
        let with_b = self.world.query::<&B>().iter(&self.world).count();
        checksum(&a_values, with_b, self.moved)
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "entity_mut(e).insert(B) / .remove::<B>()",
        kind: Kind::Peer,
        setup: || {
            let mut world = bevy_ecs::world::World::new();
            let entities = world.spawn_batch((0..ENTITIES).map(a_value)).collect();
            let with_b = world.query_filtered::<(), With<B>>();
            Box::new(Bevy {
                world,
                entities,
                with_b,
                moved: 0,
            })
        },
    }
}

// ----- freecs -------------------------------------------------------------------------------

/// freecs's world.
pub mod freecs_world {
    pub use super::{A, B};

    freecs::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
        }
        Resources {}
    }
}

struct Freecs {
    world: freecs_world::World,
    entities: Vec<freecs::Entity>,
    moved: u64,
}

impl Pass for Freecs {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.add_components(entity, freecs_world::B_BIT);
        }
        self.moved += self
            .world
            .tables
            .iter()
            .map(|table| table.b.len() as u64)
            .sum::<u64>();
        for &entity in &self.entities {
            self.world.remove_components(entity, freecs_world::B_BIT);
        }
    }
    fn checksum(&mut self) -> u64 {
        let tables = &self.world.tables;
        checksum(
            tables.iter().flat_map(|table| &table.a),
            tables.iter().map(|table| table.b.len()).sum(),
            self.moved,
        )
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "add_components(e, B) / remove_components(e, B)",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_world::World::default();
            let mut next = 0;
            let entities = world.spawn_batch(freecs_world::A_BIT, ENTITIES, |table, row| {
                table.a[row] = a_value(next);
                next += 1;
            });
            Box::new(Freecs {
                world,
                entities,
                moved: 0,
            })
        },
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    entities: Vec<flecs_ecs::prelude::Entity>,
    moved: u64,
}

impl Pass for Flecs {
    fn run(&mut self) {
        use flecs_ecs::prelude::ComponentId;
        for &entity in &self.entities {
            self.world.entity_from_id(entity).add(B::id());
        }
        // The archetype-level count (ecs_count_id).
        self.moved += self.world.count(B::id()) as u64;
        for &entity in &self.entities {
            self.world.entity_from_id(entity).remove(B::id());
        }
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::{ComponentId, QueryAPI};
        let mut a_values = Vec::new();
        self.world.new_query::<&A>().each(|a| a_values.push(*a));
        let with_b = self.world.count(B::id()) as usize;
        checksum(&a_values, with_b, self.moved)
    }
}

fn flecs() -> Contender {
    Contender {
        name: "flecs",
        api: "entity_from_id(e).add(B::id()) / .remove(B::id())",
        kind: Kind::Peer,
        setup: || {
            let world = flecs_ecs::prelude::World::new();
            let entities = flecs_spawn_a(&world);
            Box::new(Flecs {
                world,
                entities,
                moved: 0,
            })
        },
    }
}
