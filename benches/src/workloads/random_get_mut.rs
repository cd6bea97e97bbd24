//! `random_get_mut`: 10,000 entities of the simple world; visit them by handle in a shuffled
//! order (the same permutation for every contender) and add 1 to each position's x through
//! the crate's single-entity mutable access. World setup and the shuffle are untimed.
//!
//! Every pass is a frame: the contenders that stamp a write with a change tick (archetypal,
//! bevy_ecs, freecs) move their tick first, so each write stamps a tick newer than its entity's
//! spawn, as a game's system does. hecs, flecs and the baselines keep no per-write tick.

use bevy_ecs::query::QueryState;

use crate::components::{Position, SIMPLE_ENTITIES};
use crate::naive::{NaiveEntity, NaiveWorld};
use crate::worlds::{
    SimpleVecs, archetypal_simple, freecs_simple, shuffled_indices, simple_checksum, spawn_simple,
};
use crate::{Contender, Kind, Pass, Workload};

/// `handles` (in spawn order) reordered by the shared permutation.
fn shuffled<H: Copy>(handles: &[H]) -> Vec<H> {
    shuffled_indices(handles.len())
        .into_iter()
        .map(|index| handles[index])
        .collect()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "random_get_mut",
        description: "position.x += 1 through 10,000 shuffled handles",
        contenders: vec![
            archetypal(),
            super::tracking_cost::untracked_writes(),
            hecs(),
            bevy(),
            freecs(),
            flecs(),
            vec_baseline(),
            naive(),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

struct Archetypal {
    world: archetypal_simple::World,
    handles: Vec<archetypal::Entity>,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        self.world.increment_tick();
        for &entity in &self.handles {
            if let Some(position) = self.world.get_position_mut(entity) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.world)
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "get_position_mut(e)",
        kind: Kind::Archetypal,
        setup: || {
            let mut world = archetypal_simple::World::new();
            let handles = shuffled(&spawn_simple::archetypal(&mut world, SIMPLE_ENTITIES));
            Box::new(Archetypal { world, handles })
        },
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    handles: Vec<hecs::Entity>,
}

impl Pass for Hecs {
    fn run(&mut self) {
        let mut view = self.world.view_mut::<&mut Position>();
        for &entity in &self.handles {
            if let Some(position) = view.get_mut(entity) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::hecs(&self.world)
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "view_mut::<&mut Position>() once, then get_mut(e)",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            let handles = shuffled(&spawn_simple::hecs(&mut world, SIMPLE_ENTITIES));
            Box::new(Hecs { world, handles })
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<&'static mut Position>,
    handles: Vec<bevy_ecs::entity::Entity>,
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.world.increment_change_tick();
        let mut query = self.query.query_mut(&mut self.world);
        for &entity in &self.handles {
            if let Ok(mut position) = query.get_mut(entity) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::bevy(&mut self.world)
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "cached QueryState::query_mut once, then Query::get_mut(e)",
        kind: Kind::Peer,
        setup: || {
            let mut world = bevy_ecs::world::World::new();
            let handles = shuffled(&spawn_simple::bevy(&mut world, SIMPLE_ENTITIES));
            let query = world.query::<&mut Position>();
            Box::new(Bevy {
                world,
                query,
                handles,
            })
        },
    }
}

// ----- freecs -------------------------------------------------------------------------------

struct Freecs {
    world: freecs_simple::World,
    handles: Vec<freecs::Entity>,
}

impl Pass for Freecs {
    fn run(&mut self) {
        self.world.increment_tick();
        for &entity in &self.handles {
            if let Some(position) = self.world.get_position_mut(entity) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::freecs(&self.world)
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "get_position_mut(e)",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_simple::World::default();
            let handles = shuffled(&spawn_simple::freecs(&mut world, SIMPLE_ENTITIES));
            Box::new(Freecs { world, handles })
        },
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    handles: Vec<flecs_ecs::prelude::Entity>,
}

impl Pass for Flecs {
    /// `get::<&mut Position>` on each entity's view, flecs's safe single-entity access (a
    /// callback; `try_get` costs the same). A `CachedRef` per entity would borrow the world.
    fn run(&mut self) {
        use flecs_ecs::prelude::EntityViewGet;
        for &entity in &self.handles {
            self.world
                .entity_from_id(entity)
                .get::<&mut Position>(|position| position.0.x += 1.0);
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::flecs(&self.world)
    }
}

fn flecs() -> Contender {
    Contender {
        name: "flecs",
        api: "entity_from_id(e).get::<&mut Position>(|p| ..)",
        kind: Kind::Peer,
        setup: || {
            let world = flecs_ecs::prelude::World::new();
            let handles = shuffled(&spawn_simple::flecs(&world, SIMPLE_ENTITIES));
            Box::new(Flecs { world, handles })
        },
    }
}

// ----- baselines ----------------------------------------------------------------------------

struct Vecs {
    vecs: SimpleVecs,
    handles: Vec<usize>,
}

impl Pass for Vecs {
    fn run(&mut self) {
        for &index in &self.handles {
            if let Some(position) = self.vecs.positions.get_mut(index) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(&self.vecs)
    }
}

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "positions.get_mut(index) (no generation check)",
        kind: Kind::Baseline,
        setup: || {
            Box::new(Vecs {
                vecs: SimpleVecs::new(SIMPLE_ENTITIES),
                handles: shuffled_indices(SIMPLE_ENTITIES),
            })
        },
    }
}

struct Naive {
    world: NaiveWorld,
    handles: Vec<NaiveEntity>,
}

impl Pass for Naive {
    fn run(&mut self) {
        for entity in &self.handles {
            if let Some(position) = self.world.positions.get_mut(entity) {
                position.0.x += 1.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        simple_checksum::naive(&self.world)
    }
}

fn naive() -> Contender {
    Contender {
        name: "HashMap (naive)",
        api: "positions.get_mut(&e) (SipHash)",
        kind: Kind::Baseline,
        setup: || {
            let (world, handles) = NaiveWorld::simple(SIMPLE_ENTITIES);
            Box::new(Naive {
                world,
                handles: shuffled(&handles),
            })
        },
    }
}
