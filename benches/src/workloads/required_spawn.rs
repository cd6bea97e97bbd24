//! `required_spawn` (issue 42): spawning entities whose component pulls in two required ones.
//!
//! A `Projectile` (its velocity) requires a `Position` and a `Lifetime` (whose `Default` is
//! 3 seconds). A pass is one frame in the steady state, as `entity_cycle`'s: despawn the
//! 10,000 projectiles the previous frame spawned, then spawn 10,000 new ones, each given only
//! its `Projectile` (valued by frame and index); the `Position` and `Lifetime` come by
//! requirement, with their defaults. The checksum holds every alive triple, so a contender
//! whose requirement did not come (or came with another value) does not match.
//!
//! archetypal declares `Rules { PROJECTILE requires POSITION, PROJECTILE requires LIFETIME }`
//! and spawns with `spawn_values` of one-component tuples (the requirements pushed with the
//! batch, one reserve per column); `archetypal [no rules]` spawns the whole bundle by hand on
//! the same world declared without the `Rules` block: the ratio on its row (rules time /
//! hand time) is what the requirements cost. bevy_ecs declares
//! `#[require(Position, Lifetime)]` on `Projectile` and spawns with `World::spawn_batch` of
//! `Projectile`s. hecs and flecs are written as their users would: the whole bundle by hand
//! (hecs `spawn_batch` of triples; flecs `entity_bulk` adding the three, then the projectiles
//! written through the new rows' column slice; flecs's `With` trait would add the two as a
//! requirement does, not measured here). The `Vec` row is the floor: three columns cleared and
//! refilled, no handles.

use bevy_ecs::component::Component;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::components::Position;
use crate::math::Vec3;
use crate::workloads::entity_cycle::{CycleWorld, contender};
use crate::{Checksum, Kind, Workload};

/// Entities spawned, and despawned, per frame.
pub const PER_FRAME: usize = 10_000;

/// A projectile: its velocity. Requires a `Position` and a `Lifetime` (bevy's attribute here,
/// archetypal's `Rules` block in its world).
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
#[require(Position, Lifetime)]
pub struct Projectile(pub Vec3);

/// Seconds left to live; 3 by default.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, PartialEq)]
pub struct Lifetime(pub f32);

impl Default for Lifetime {
    fn default() -> Self {
        Lifetime(3.0)
    }
}

/// The projectile of the `index`-th entity spawned in frame `frame`.
#[inline]
fn projectile(index: usize, frame: u32) -> Projectile {
    let (index, frame) = (index as f32, frame as f32);
    Projectile(Vec3::new(index, frame, 0.5 * index - frame))
}

/// The checksum: every projectile, position and lifetime alive.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn add(&mut self, projectile: &Projectile, position: &Position, lifetime: &Lifetime) {
        self.0.vec3(0, projectile.0);
        self.0.vec3(1, position.0);
        self.0.f32(2, lifetime.0);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "required_spawn",
        description: "one frame: despawn the last frame's 10,000 entities, spawn 10,000 Projectiles, each pulling in a required Position and Lifetime",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "Rules { PROJECTILE requires POSITION, PROJECTILE requires LIFETIME }; despawn_entities(&handles), spawn_values(iter of (Projectile,))",
                Kind::Archetypal,
            ),
            contender::<ArchetypalByHand>(
                "archetypal [no rules]",
                "the world without its Rules block: despawn_entities(&handles), spawn_values(iter of (Projectile, Position, Lifetime))",
                Kind::ArchetypalVariant,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "#[require(Position, Lifetime)] on Projectile; World::despawn(e) per handle, World::spawn_batch(iter of Projectile)",
                Kind::Peer,
            ),
            contender::<Hecs>(
                "hecs",
                "despawn(e) per handle, spawn_batch(iter of (Projectile, Position, Lifetime)) (by hand)",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "destruct(e) per handle, entity_bulk(n).add::<Projectile>().add::<Position>().add::<Lifetime>().build() + a column slice (by hand)",
                Kind::Peer,
            ),
            contender::<VecFloor>("Vec", "3 x Vec::clear + push (no handles)", Kind::Baseline),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world with the two requirements.
pub mod archetypal_rules {
    pub use super::{Lifetime, Projectile};
    pub use crate::components::Position;

    archetypal::ecs! {
        World {
            projectile: Projectile => PROJECTILE,
            position: Position => POSITION,
            lifetime: Lifetime => LIFETIME,
        }
        Rules {
            PROJECTILE requires POSITION,
            PROJECTILE requires LIFETIME,
        }
    }
}

/// The same world without the `Rules` block.
pub mod archetypal_plain {
    pub use super::{Lifetime, Projectile};
    pub use crate::components::Position;

    archetypal::ecs! {
        World {
            projectile: Projectile => PROJECTILE,
            position: Position => POSITION,
            lifetime: Lifetime => LIFETIME,
        }
    }
}

/// Every alive triple of an archetypal world (either type: they differ only in their rules).
macro_rules! archetypal_checksum {
    ($world:expr) => {{
        let mut sum = Sum::default();
        for table in $world.tables() {
            for ((projectile, position), lifetime) in table
                .projectile
                .iter()
                .zip(&table.position)
                .zip(&table.lifetime)
            {
                sum.add(projectile, position, lifetime);
            }
        }
        sum.0.finish()
    }};
}

struct Archetypal {
    world: archetypal_rules::World,
    spawned: Vec<archetypal::Entity>,
}

impl Archetypal {
    fn spawn(&mut self, frame: u32) {
        self.spawned = self
            .world
            .spawn_values((0..PER_FRAME).map(|index| (projectile(index, frame),)));
    }
}

impl CycleWorld for Archetypal {
    fn new() -> Self {
        let mut world = Archetypal {
            world: archetypal_rules::World::new(),
            spawned: Vec::new(),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        self.world.despawn_entities(&self.spawned);
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        archetypal_checksum!(self.world)
    }
}

struct ArchetypalByHand {
    world: archetypal_plain::World,
    spawned: Vec<archetypal::Entity>,
}

impl ArchetypalByHand {
    fn spawn(&mut self, frame: u32) {
        self.spawned = self.world.spawn_values((0..PER_FRAME).map(|index| {
            (
                projectile(index, frame),
                Position::default(),
                Lifetime::default(),
            )
        }));
    }
}

impl CycleWorld for ArchetypalByHand {
    fn new() -> Self {
        let mut world = ArchetypalByHand {
            world: archetypal_plain::World::new(),
            spawned: Vec::new(),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        self.world.despawn_entities(&self.spawned);
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        archetypal_checksum!(self.world)
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    spawned: Vec<bevy_ecs::entity::Entity>,
}

impl Bevy {
    fn spawn(&mut self, frame: u32) {
        self.spawned.clear();
        self.spawned.extend(
            self.world
                .spawn_batch((0..PER_FRAME).map(|index| projectile(index, frame))),
        );
    }
}

impl CycleWorld for Bevy {
    fn new() -> Self {
        let mut world = Bevy {
            world: bevy_ecs::world::World::new(),
            spawned: Vec::with_capacity(PER_FRAME),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.despawn(entity);
        }
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &mut self.world;
        let mut query = world.query::<(&Projectile, &Position, &Lifetime)>();
        for (projectile, position, lifetime) in query.iter(world) {
            sum.add(projectile, position, lifetime);
        }
        sum.0.finish()
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    spawned: Vec<hecs::Entity>,
}

impl Hecs {
    fn spawn(&mut self, frame: u32) {
        self.spawned.clear();
        self.spawned
            .extend(self.world.spawn_batch((0..PER_FRAME).map(|index| {
                (
                    projectile(index, frame),
                    Position::default(),
                    Lifetime::default(),
                )
            })));
    }
}

impl CycleWorld for Hecs {
    fn new() -> Self {
        let mut world = Hecs {
            world: hecs::World::new(),
            spawned: Vec::with_capacity(PER_FRAME),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.despawn(entity).expect("spawned last frame");
        }
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for (projectile, position, lifetime) in self
            .world
            .query::<(&Projectile, &Position, &Lifetime)>()
            .iter()
        {
            sum.add(projectile, position, lifetime);
        }
        sum.0.finish()
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    spawned: Vec<flecs_ecs::prelude::Entity>,
}

impl Flecs {
    fn spawn(&mut self, frame: u32) {
        use flecs_ecs::prelude::TableOperations;
        self.spawned = self
            .world
            .entity_bulk(PER_FRAME as u32)
            .add::<Projectile>()
            .add::<Position>()
            .add::<Lifetime>()
            .build();
        let mut rows = crate::worlds::flecs_new_rows(&self.world, &self.spawned).expect("a frame");
        let projectiles = rows.get_mut::<Projectile>().expect("a Projectile column");
        for (index, slot) in projectiles.iter_mut().enumerate() {
            *slot = projectile(index, frame);
        }
    }
}

impl CycleWorld for Flecs {
    fn new() -> Self {
        let mut world = Flecs {
            world: flecs_ecs::prelude::World::new(),
            spawned: Vec::new(),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.entity_from_id(entity).destruct();
        }
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut sum = Sum::default();
        self.world
            .new_query::<(&Projectile, &Position, &Lifetime)>()
            .each(|(projectile, position, lifetime)| sum.add(projectile, position, lifetime));
        sum.0.finish()
    }
}

// ----- Vec floor ----------------------------------------------------------------------------

/// The floor: the three columns alone, refilled every frame.
struct VecFloor {
    projectiles: Vec<Projectile>,
    positions: Vec<Position>,
    lifetimes: Vec<Lifetime>,
}

impl VecFloor {
    fn spawn(&mut self, frame: u32) {
        for index in 0..PER_FRAME {
            self.projectiles.push(projectile(index, frame));
            self.positions.push(Position::default());
            self.lifetimes.push(Lifetime::default());
        }
    }
}

impl CycleWorld for VecFloor {
    fn new() -> Self {
        let mut world = VecFloor {
            projectiles: Vec::with_capacity(PER_FRAME),
            positions: Vec::with_capacity(PER_FRAME),
            lifetimes: Vec::with_capacity(PER_FRAME),
        };
        world.spawn(0);
        world
    }
    fn frame(&mut self, frame: u32) {
        self.projectiles.clear();
        self.positions.clear();
        self.lifetimes.clear();
        self.spawn(frame);
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for ((projectile, position), lifetime) in self
            .projectiles
            .iter()
            .zip(&self.positions)
            .zip(&self.lifetimes)
        {
            sum.add(projectile, position, lifetime);
        }
        sum.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame leaves one frame's projectiles alive, each with its two requirements, in the
    /// table of all three.
    #[test]
    fn every_projectile_comes_with_its_requirements() {
        use archetypal_rules::{LIFETIME, POSITION, PROJECTILE};
        let mut world = Archetypal::new();
        world.frame(1);
        assert_eq!(world.world.entity_count(), PER_FRAME);
        for &entity in &world.spawned {
            assert_eq!(
                world.world.component_mask(entity),
                Some(PROJECTILE | POSITION | LIFETIME)
            );
        }
        assert_eq!(
            world.world.get_lifetime(world.spawned[0]),
            Some(&Lifetime(3.0))
        );
        world.world.check_invariants().expect("the rules hold");
    }
}
