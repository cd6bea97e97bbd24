//! `parent_propagate`: children reading their parents in one loop (issue 24).
//!
//! 1,000 ships (`Position`, `Velocity`), each with 10 turrets (`Position`, `Offset`, linked to
//! their ship). A pass moves the ships (`position += velocity`), then sets every turret's
//! position to its ship's position plus its offset: one loop over the turrets, each reading
//! its parent's position by handle. Ships move every pass, so a second pass changes the
//! checksum.
//!
//! - archetypal: a schedule of two systems: the ships through a `Query<(&mut Position,
//!   &Velocity)>`, then the turrets through a `Query<(&mut Position, &Offset, Target<CHILD_OF,
//!   &Position, Without<Offset>>)>`, whose last term is the ship's position.
//! - bevy_ecs: the ships through a cached `QueryState::contiguous_iter_mut`, then one
//!   `SystemState` of `Query<(&ChildOf, &mut Position, &Offset)>` and
//!   `Query<&Position, Without<Offset>>` (its built-in `ChildOf`, whose hooks fill the ships'
//!   `Children`), `ships.get(child_of.parent())`.
//! - hecs: the ships through `query_mut`, then a `query` of the turrets (`Parent(Entity)`,
//!   `&mut Position`, `&Offset`) beside a `view` of `Without<&Position, &Offset>` (the ships):
//!   two dynamic borrows hecs accepts because no entity matches both.
//! - flecs: the ships through a cached query run with column slices, then a cached query
//!   `(&mut Position, &Offset, &Position)` whose last term is the parent's (`parent()`, its
//!   built-in `ChildOf`, which puts each ship's turrets in a table of their own), run with
//!   `each`.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::query::{QueryState, Without};
use bevy_ecs::system::{Query, SystemState};
use bevy_ecs::world::World as BevyWorld;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::components::{Position, Velocity, field};
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Ships.
pub const SHIPS: usize = 1_000;
/// Turrets per ship.
pub const TURRETS: usize = 10;

/// Where a turret sits on its ship.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Offset(pub Vec3);

/// hecs's link from a turret to its ship.
#[derive(Clone, Copy, Debug)]
pub struct Parent(pub hecs::Entity);

/// The checksum field of [`Offset`] (the simple components use 0..16).
const OFFSET_FIELD: u32 = 30;

/// The `index`-th ship's position and velocity.
fn ship(index: usize) -> (Position, Velocity) {
    let index = index as f32;
    (
        Position(Vec3::new(index, 2.0 * index, -index)),
        Velocity(Vec3::new(0.5, -0.25 + 0.001 * index, 1.0)),
    )
}

/// The offset of turret `index` of its ship.
fn turret_offset(index: usize) -> Offset {
    let index = index as f32;
    Offset(Vec3::new(index, 0.5 * index, 1.0))
}

/// A turret's position: its ship's plus its offset.
#[inline]
fn mounted(ship: &Position, offset: &Offset) -> Position {
    Position(Vec3::new(
        ship.0.x + offset.0.x,
        ship.0.y + offset.0.y,
        ship.0.z + offset.0.z,
    ))
}

/// The checksum: every position, velocity and offset.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn position(&mut self, value: &Position) {
        self.0.vec3(field::POSITION, value.0);
    }
    fn velocity(&mut self, value: &Velocity) {
        self.0.vec3(field::VELOCITY, value.0);
    }
    fn offset(&mut self, value: &Offset) {
        self.0.vec3(OFFSET_FIELD, value.0);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "parent_propagate",
        description: "1,000 ships move, then each of their 10,000 turrets takes its ship's position + its offset",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "Schedule of 2 systems: Query<(&mut Position, &Velocity)> ships; Query<(&mut Position, &Offset, Target<CHILD_OF, &Position, Without<Offset>>)> turrets",
                Kind::Archetypal,
            ),
            contender::<Hecs>(
                "hecs",
                "query_mut ships; query::<(&Parent, &mut Position, &Offset)> beside view::<Without<&Position, &Offset>>, get(parent)",
                Kind::Peer,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "contiguous_iter_mut ships; SystemState<(Query<(&ChildOf, &mut Position, &Offset)>, Query<&Position, Without<Offset>>)>, get(parent)",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "cached queries: ships with run + column slices; turrets (&mut Position, &Offset, &Position parent()) with each",
                Kind::Peer,
            ),
        ],
    }
}

/// One crate's fleet.
trait Fleet: Sized + 'static {
    fn new() -> Self;
    /// Moves the ships, then the turrets.
    fn propagate(&mut self);
    fn checksum(&mut self) -> u64;
}

struct Propagating<F>(F);

impl<F: Fleet> Pass for Propagating<F> {
    fn run(&mut self) {
        self.0.propagate();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn contender<F: Fleet>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || Box::new(Propagating(F::new())),
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world: ships and turrets, turrets linked to their ship, and the two systems
/// of a pass.
pub mod archetypal_fleet {
    pub use super::Offset;
    use super::mounted;
    pub use crate::components::{Position, Velocity};
    use archetypal::{Target, Without};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            offset: Offset => OFFSET,
        }
        Relations {
            child_of / children => CHILD_OF,
        }
    }

    /// The ships move.
    pub fn fly(mut ships: Query<(&mut Position, &Velocity)>) {
        ships.for_each(|(mut position, velocity)| position.0 += velocity.0);
    }

    /// Every turret takes its ship's position plus its offset.
    #[allow(clippy::type_complexity)] // a system's parameters say all it touches
    pub fn mount(
        mut turrets: Query<(
            &mut Position,
            &Offset,
            Target<CHILD_OF, &Position, Without<Offset>>,
        )>,
    ) {
        turrets.for_each(|(mut position, offset, ship)| {
            if let Some(ship) = ship {
                *position = mounted(ship, offset);
            }
        });
    }
}

struct Archetypal(
    archetypal_fleet::World,
    archetypal::Schedule<archetypal_fleet::World>,
);

impl Fleet for Archetypal {
    fn new() -> Self {
        use archetypal_fleet::{EntityBuilder, POSITION, VELOCITY, fly, mount};
        let mut world = archetypal_fleet::World::new();
        let ships = world.spawn_batch(POSITION | VELOCITY, SHIPS, |table, row| {
            let (position, velocity) = ship(row);
            table.position[row] = position;
            table.velocity[row] = velocity;
        });
        for &ship in &ships {
            for index in 0..TURRETS {
                EntityBuilder::new()
                    .with_position(Position::default())
                    .with_offset(turret_offset(index))
                    .with_child_of(ship)
                    .spawn_one(&mut world);
            }
        }
        let mut schedule = archetypal::Schedule::new();
        schedule.add((fly, mount));
        Archetypal(world, schedule)
    }

    fn propagate(&mut self) {
        self.1.run(&mut self.0);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for table in self.0.tables() {
            table.position.iter().for_each(|value| sum.position(value));
            table.velocity.iter().for_each(|value| sum.velocity(value));
            table.offset.iter().for_each(|value| sum.offset(value));
        }
        sum.0.finish()
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Fleet for Hecs {
    fn new() -> Self {
        let mut world = hecs::World::new();
        let ships: Vec<hecs::Entity> = (0..SHIPS).map(|index| world.spawn(ship(index))).collect();
        for ship in ships {
            world.spawn_batch(
                (0..TURRETS).map(|index| (Position::default(), turret_offset(index), Parent(ship))),
            );
        }
        Hecs(world)
    }

    fn propagate(&mut self) {
        let world = &mut self.0;
        for (position, velocity) in world.query_mut::<(&mut Position, &Velocity)>() {
            position.0 += velocity.0;
        }
        let ships = world.view::<hecs::Without<&Position, &Offset>>();
        for (parent, position, offset) in world.query::<(&Parent, &mut Position, &Offset)>().iter()
        {
            if let Some(ship) = ships.get(parent.0) {
                *position = mounted(ship, offset);
            }
        }
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &self.0;
        world
            .query::<&Position>()
            .iter()
            .for_each(|value| sum.position(value));
        world
            .query::<&Velocity>()
            .iter()
            .for_each(|value| sum.velocity(value));
        world
            .query::<&Offset>()
            .iter()
            .for_each(|value| sum.offset(value));
        sum.0.finish()
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// The turrets, written, and the ships, read: disjoint through `Offset`.
type BevyTurrets = (
    Query<'static, 'static, (&'static ChildOf, &'static mut Position, &'static Offset)>,
    Query<'static, 'static, &'static Position, Without<Offset>>,
);

struct Bevy {
    world: BevyWorld,
    ships: QueryState<(&'static mut Position, &'static Velocity)>,
    turrets: SystemState<BevyTurrets>,
}

impl Fleet for Bevy {
    fn new() -> Self {
        let mut world = BevyWorld::new();
        let ships: Vec<BevyEntity> = world.spawn_batch((0..SHIPS).map(ship)).collect();
        for ship in ships {
            world.spawn_batch(
                (0..TURRETS)
                    .map(|index| (Position::default(), turret_offset(index), ChildOf(ship))),
            );
        }
        let ships = world.query::<(&mut Position, &Velocity)>();
        let turrets = SystemState::new(&mut world);
        Bevy {
            world,
            ships,
            turrets,
        }
    }

    fn propagate(&mut self) {
        let Bevy {
            world,
            ships,
            turrets,
        } = self;
        let tables = ships
            .contiguous_iter_mut(world)
            .expect("table components: the query is dense");
        for (mut positions, velocities) in tables {
            for (position, velocity) in positions.iter_mut().zip(velocities) {
                position.0 += velocity.0;
            }
        }
        let (mut turrets, ships) = turrets.get_mut(world).expect("valid parameters");
        for (child_of, mut position, offset) in &mut turrets {
            if let Ok(ship) = ships.get(child_of.parent()) {
                *position = mounted(ship, offset);
            }
        }
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &mut self.world;
        let mut query = world.query::<(&Position, Option<&Velocity>, Option<&Offset>)>();
        for (position, velocity, offset) in query.iter(world) {
            sum.position(position);
            if let Some(velocity) = velocity {
                sum.velocity(velocity);
            }
            if let Some(offset) = offset {
                sum.offset(offset);
            }
        }
        sum.0.finish()
    }
}

// ----- flecs --------------------------------------------------------------------------------

/// The turrets' query: own position (written), offset, the parent's position.
type FlecsTurrets =
    flecs_ecs::prelude::Query<(&'static mut Position, &'static Offset, &'static Position)>;

struct Flecs {
    // Declared before the world, so they are dropped first: a query must not outlive its world.
    ships: flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    turrets: FlecsTurrets,
    world: flecs_ecs::prelude::World,
}

impl Fleet for Flecs {
    fn new() -> Self {
        use flecs_ecs::prelude::{
            Builder, QueryBuilderImpl, TableOperations, TermBuilderImpl, flecs,
        };
        let world = flecs_ecs::prelude::World::new();
        let ships = world
            .entity_bulk(SHIPS as u32)
            .add::<Position>()
            .add::<Velocity>()
            .build();
        let rows = crate::worlds::flecs_new_rows(&world, &ships).expect("ships");
        crate::worlds::flecs_write_moving(rows, ship);
        for &ship in &ships {
            let turrets = world
                .entity_bulk(TURRETS as u32)
                .add::<Position>()
                .add::<Offset>()
                .add_id((flecs::ChildOf, ship))
                .build();
            let mut rows = crate::worlds::flecs_new_rows(&world, &turrets).expect("turrets");
            for (index, offset) in rows
                .get_mut::<Offset>()
                .expect("an Offset column")
                .iter_mut()
                .enumerate()
            {
                *offset = turret_offset(index);
            }
        }
        let ships = world
            .query::<(&mut Position, &Velocity)>()
            .set_cached()
            .build();
        let turrets = world
            .query::<(&mut Position, &Offset, &Position)>()
            .term_at(2)
            .parent()
            .set_cached()
            .build();
        Flecs {
            ships,
            turrets,
            world,
        }
    }

    fn propagate(&mut self) {
        use flecs_ecs::prelude::QueryAPI;
        crate::worlds::flecs_run_moving(&self.ships, |position, velocity| position.0 += velocity.0);
        self.turrets.each(|(position, offset, ship)| {
            *position = mounted(ship, offset);
        });
    }

    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut sum = Sum::default();
        self.world
            .new_query::<&Position>()
            .each(|value| sum.position(value));
        self.world
            .new_query::<&Velocity>()
            .each(|value| sum.velocity(value));
        self.world
            .new_query::<&Offset>()
            .each(|value| sum.offset(value));
        sum.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every turret follows its ship after a pass.
    #[test]
    fn turrets_sit_on_their_ships() {
        let mut fleet = Archetypal::new();
        fleet.propagate();
        let world = &fleet.0;
        let mut turrets = 0;
        world.for_each(archetypal_fleet::OFFSET, 0, |turret, table, row| {
            let ship = world.get_child_of(turret).expect("linked");
            let expected = mounted(
                world.get_position(ship).expect("a ship"),
                &table.offset[row],
            );
            assert_eq!(table.position[row], expected);
            turrets += 1;
        });
        assert_eq!(turrets, SHIPS * TURRETS);
    }
}
