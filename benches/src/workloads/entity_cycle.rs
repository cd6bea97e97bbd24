//! `entity_cycle`: a world whose entities live one frame (issue 27).
//!
//! A pass is one frame in the steady state: despawn the 10,000 entities the previous frame
//! spawned, then spawn 10,000 new ones with `Position` and `Velocity` (ids are reused). The
//! issue's "100 frames" are 100 passes: one frame is already hundreds of microseconds, many
//! times the report's resolution, and a pass per frame gives the report more rounds. Each
//! contender despawns through its fastest documented way of despawning a list of handles and
//! spawns through its batch spawn. The values depend on the frame number, so the checksum (every
//! position and velocity alive) sees the latest frame, and a second pass changes it. Which ids
//! the crates reuse is theirs to decide, so the checksum holds values only.
//!
//! The `Vec` row is the floor: two columns cleared and refilled, no handles.

use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::world::World as BevyWorld;

use crate::components::{Position, Velocity, field};
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities spawned, and despawned, per frame.
pub const PER_FRAME: usize = 10_000;

/// The values of the `index`-th entity spawned in frame `frame`.
#[inline]
fn values(index: usize, frame: u32) -> (Position, Velocity) {
    let (index, frame) = (index as f32, frame as f32);
    (
        Position(Vec3::new(index, frame, -index)),
        Velocity(Vec3::new(0.5 * frame, 0.25 * index, 1.0)),
    )
}

/// The checksum: every position and velocity alive.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn add(&mut self, position: &Position, velocity: &Velocity) {
        self.0.vec3(field::POSITION, position.0);
        self.0.vec3(field::VELOCITY, velocity.0);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "entity_cycle",
        description: "one frame: despawn the last frame's 10,000 entities, spawn 10,000 new ones (Position, Velocity)",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "despawn_entities(&handles), spawn_batch(mask, n, |table, row| ..)",
                Kind::Archetypal,
            ),
            contender::<Hecs>(
                "hecs",
                "despawn(e) per handle, spawn_batch(iter of tuples)",
                Kind::Peer,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "World::despawn(e) per handle, World::spawn_batch(iter of tuples)",
                Kind::Peer,
            ),
            contender::<Freecs>(
                "freecs",
                "despawn_entities(&handles), spawn_batch(mask, n, |table, row| ..)",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "destruct(e) per handle, entity_bulk(n).add::<T>()..build() + column slices",
                Kind::Peer,
            ),
            contender::<VecFloor>("Vec", "2 x Vec::clear + push (no handles)", Kind::Baseline),
        ],
    }
}

/// One crate's world and the handles of the entities it spawned last (`observer_despawn`'s
/// worlds too, with their despawn reactions).
pub(super) trait CycleWorld: 'static {
    /// A world holding frame 0's entities (its reactions declared).
    fn new() -> Self;
    /// Despawns the last frame's entities (their reactions run), then spawns frame `frame`'s.
    fn frame(&mut self, frame: u32);
    fn checksum(&mut self) -> u64;
}

/// A world and its frame number.
struct Cycling<W> {
    world: W,
    frame: u32,
}

impl<W: CycleWorld> Pass for Cycling<W> {
    fn run(&mut self) {
        self.frame += 1;
        self.world.frame(self.frame);
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

pub(super) fn contender<W: CycleWorld>(
    name: &'static str,
    api: &'static str,
    kind: Kind,
) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            Box::new(Cycling {
                world: W::new(),
                frame: 0,
            })
        },
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world.
pub mod archetypal_cycle {
    pub use crate::components::{Position, Velocity};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
    }
}

struct Archetypal {
    world: archetypal_cycle::World,
    spawned: Vec<archetypal::Entity>,
}

impl Archetypal {
    fn spawn(&mut self, frame: u32) {
        use archetypal_cycle::{POSITION, VELOCITY};
        self.spawned = self
            .world
            .spawn_batch(POSITION | VELOCITY, PER_FRAME, |table, row| {
                (table.position[row], table.velocity[row]) = values(row, frame);
            });
    }
}

impl CycleWorld for Archetypal {
    fn new() -> Self {
        let mut cycle = Archetypal {
            world: archetypal_cycle::World::new(),
            spawned: Vec::new(),
        };
        cycle.spawn(0);
        cycle
    }

    fn frame(&mut self, frame: u32) {
        self.world.despawn_entities(&self.spawned);
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for table in self.world.tables() {
            for (position, velocity) in table.position.iter().zip(&table.velocity) {
                sum.add(position, velocity);
            }
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
        self.spawned.extend(
            self.world
                .spawn_batch((0..PER_FRAME).map(|index| values(index, frame))),
        );
    }
}

impl CycleWorld for Hecs {
    fn new() -> Self {
        let mut cycle = Hecs {
            world: hecs::World::new(),
            spawned: Vec::with_capacity(PER_FRAME),
        };
        cycle.spawn(0);
        cycle
    }

    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.despawn(entity).expect("spawned last frame");
        }
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for (position, velocity) in self.world.query::<(&Position, &Velocity)>().iter() {
            sum.add(position, velocity);
        }
        sum.0.finish()
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: BevyWorld,
    spawned: Vec<BevyEntity>,
}

impl Bevy {
    fn spawn(&mut self, frame: u32) {
        self.spawned.clear();
        self.spawned.extend(
            self.world
                .spawn_batch((0..PER_FRAME).map(|index| values(index, frame))),
        );
    }
}

impl CycleWorld for Bevy {
    fn new() -> Self {
        let mut cycle = Bevy {
            world: BevyWorld::new(),
            spawned: Vec::with_capacity(PER_FRAME),
        };
        cycle.spawn(0);
        cycle
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
        let mut query = world.query::<(&Position, &Velocity)>();
        for (position, velocity) in query.iter(world) {
            sum.add(position, velocity);
        }
        sum.0.finish()
    }
}

// ----- freecs -------------------------------------------------------------------------------

/// freecs's world (its `ecs!` tier).
pub mod freecs_cycle {
    pub use crate::components::{Position, Velocity};

    freecs::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
        Resources {}
    }
}

struct Freecs {
    world: freecs_cycle::World,
    spawned: Vec<freecs::Entity>,
}

impl Freecs {
    fn spawn(&mut self, frame: u32) {
        use freecs_cycle::{POSITION, VELOCITY};
        self.spawned = self
            .world
            .spawn_batch(POSITION | VELOCITY, PER_FRAME, |table, row| {
                (table.position[row], table.velocity[row]) = values(row, frame);
            });
    }
}

impl CycleWorld for Freecs {
    fn new() -> Self {
        let mut cycle = Freecs {
            world: freecs_cycle::World::default(),
            spawned: Vec::new(),
        };
        cycle.spawn(0);
        cycle
    }

    fn frame(&mut self, frame: u32) {
        self.world.despawn_entities(&self.spawned);
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for table in &self.world.tables {
            for (position, velocity) in table.position.iter().zip(&table.velocity) {
                sum.add(position, velocity);
            }
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
        self.spawned = self
            .world
            .entity_bulk(PER_FRAME as u32)
            .add::<Position>()
            .add::<Velocity>()
            .build();
        let rows = crate::worlds::flecs_new_rows(&self.world, &self.spawned).expect("a frame");
        crate::worlds::flecs_write_moving(rows, |index| values(index, frame));
    }
}

impl CycleWorld for Flecs {
    fn new() -> Self {
        let mut cycle = Flecs {
            world: flecs_ecs::prelude::World::new(),
            spawned: Vec::new(),
        };
        cycle.spawn(0);
        cycle
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
            .new_query::<(&Position, &Velocity)>()
            .each(|(position, velocity)| sum.add(position, velocity));
        sum.0.finish()
    }
}

// ----- Vec floor ----------------------------------------------------------------------------

/// The floor: the two columns alone, refilled every frame.
struct VecFloor {
    positions: Vec<Position>,
    velocities: Vec<Velocity>,
}

impl VecFloor {
    fn spawn(&mut self, frame: u32) {
        for index in 0..PER_FRAME {
            let (position, velocity) = values(index, frame);
            self.positions.push(position);
            self.velocities.push(velocity);
        }
    }
}

impl CycleWorld for VecFloor {
    fn new() -> Self {
        let mut cycle = VecFloor {
            positions: Vec::with_capacity(PER_FRAME),
            velocities: Vec::with_capacity(PER_FRAME),
        };
        cycle.spawn(0);
        cycle
    }

    fn frame(&mut self, frame: u32) {
        self.positions.clear();
        self.velocities.clear();
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for (position, velocity) in self.positions.iter().zip(&self.velocities) {
            sum.add(position, velocity);
        }
        sum.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame leaves exactly one frame's entities alive, their ids reused.
    #[test]
    fn a_frame_replaces_the_last_frames_entities() {
        let mut cycle = Archetypal::new();
        let first: Vec<u32> = cycle.spawned.iter().map(|entity| entity.id).collect();
        cycle.frame(1);
        cycle.frame(2);
        assert_eq!(cycle.world.entity_count(), PER_FRAME);
        let mut reused: Vec<u32> = cycle.spawned.iter().map(|entity| entity.id).collect();
        reused.sort_unstable();
        let mut first = first;
        first.sort_unstable();
        assert_eq!(reused, first, "ids are reused");
        cycle.world.check_invariants().expect("consistent");
    }
}
