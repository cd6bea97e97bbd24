//! `tag_filter`: ship movement filtered by a marker, at 1%, 50% and 99% of the ships marked
//! (chosen at random with a fixed seed, after spawning, as a game stuns ships as it runs).
//!
//! One pass over 10,000 ships (Position, Velocity): the ships not stunned move
//! (`without(STUNNED)`: `position += velocity`), the stunned ones are knocked back
//! (`with(STUNNED)`: `velocity += KNOCKBACK`), so both an exclude and an include filter are
//! timed. archetypal marks them with a tag (`Tags { stunned => STUNNED }`), the reference,
//! beside the same filter written with a zero-sized component (which splits the ships into two
//! tables): the ratio of the two is the cost of a tag filter over a table filter.
//!
//! Workloads, all named `tag_filter*` (`--only tag_filter` runs them all):
//! - `tag_filter_<percent>`: `for_each_table_mut` + slice zip, with bevy_ecs (a sparse-set and
//!   a table marker component) and hecs (a marker component) beside it;
//! - `tag_filter_typed_<percent>`: `typed_query().with()/.without().for_each`;
//! - `tag_filter_rows_<percent>`: `for_each_mut(|entity, table, index| ..)`;
//! - `tag_filter_read_<percent>`: the read-only `for_each`, summing what it reads (the world is
//!   left as it was; the sum joins the checksum).
//!
//! And `tag_toggle`, what the speed of the filters costs when tagging: a pass flips the marker
//! of 1,000 of the 10,000 ships (half of them stunned), tag vs zero-sized component (a
//! migration) vs bevy_ecs's two storages and hecs.

use bevy_ecs::component::Component;
use bevy_ecs::query::{QueryState, With, Without};
use flecs_ecs::macros::Component as FlecsComponent;

use crate::components::{Position, Velocity, field};
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Number of ships.
pub const SHIPS: usize = 10_000;

/// What a stunned ship's velocity gains per pass.
const KNOCKBACK: Vec3 = Vec3::new(0.0, 0.0, -0.5);

/// The checksum field of the read passes' sum.
const READ_SUM: u32 = 10;

/// A table-stored marker (bevy_ecs's default storage; hecs has only this kind; a tag in flecs,
/// which stores it in the table's type, so adding it migrates).
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default)]
pub struct Stunned;

/// A sparse-set marker: bevy_ecs's storage for components added and removed often.
#[derive(Component, Clone, Copy, Debug, Default)]
#[component(storage = "SparseSet")]
pub struct StunnedSparse;

/// archetypal with the marker as a tag.
pub mod tagged {
    pub use crate::components::{Position, Velocity};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
        Tags {
            stunned => STUNNED,
        }
    }
}

/// archetypal with the marker as a zero-sized component.
pub mod marked {
    pub use super::Stunned;
    pub use crate::components::{Position, Velocity};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            stunned: Stunned => STUNNED,
        }
    }
}

/// The `tag_filter*` workloads: per density, the slice-loop workload with the peers, then the
/// typed-query, row and read-only ones; then `tag_toggle`, what tagging itself costs.
pub fn workloads() -> Vec<Workload> {
    vec![
        tables_workload::<1>("tag_filter_1"),
        tables_workload::<50>("tag_filter_50"),
        tables_workload::<99>("tag_filter_99"),
        pair_workload::<1, TYPED>("tag_filter_typed_1"),
        pair_workload::<50, TYPED>("tag_filter_typed_50"),
        pair_workload::<99, TYPED>("tag_filter_typed_99"),
        pair_workload::<1, ROWS>("tag_filter_rows_1"),
        pair_workload::<50, ROWS>("tag_filter_rows_50"),
        pair_workload::<99, ROWS>("tag_filter_rows_99"),
        pair_workload::<1, READ>("tag_filter_read_1"),
        pair_workload::<50, READ>("tag_filter_read_50"),
        pair_workload::<99, READ>("tag_filter_read_99"),
        toggle_workload(),
    ]
}

/// Ships whose marker a `tag_toggle` pass flips: one in ten, at random.
const TOGGLED_PERCENT: u32 = 10;

/// Whether ship `index` is one `tag_toggle` flips (a choice independent of `is_stunned`).
fn is_toggled(index: usize) -> bool {
    is_stunned(index + SHIPS, TOGGLED_PERCENT)
}

/// `tag_toggle`: the cost of tagging. 10,000 ships, half stunned; a pass flips the marker of
/// one ship in ten (adds it where missing, removes it where present).
fn toggle_workload() -> Workload {
    Workload {
        name: "tag_toggle",
        description: "flip the STUNNED marker of 1,000 of 10,000 ships (half stunned)",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "tag; add_stunned(e) / remove_stunned(e)",
                kind: Kind::Archetypal,
                setup: || Box::new(ToggleTagged::new()),
            },
            Contender {
                name: "archetypal zero-sized component",
                api: "ZST component; add_stunned(e) / remove_stunned(e) (a migration)",
                kind: Kind::ArchetypalVariant,
                setup: || Box::new(ToggleMarked::new()),
            },
            Contender {
                name: "bevy_ecs sparse-set marker",
                api: "entity_mut(e).insert(M) / .remove::<M>()",
                kind: Kind::Peer,
                setup: || Box::new(ToggleBevy::<StunnedSparse>::new(StunnedSparse)),
            },
            Contender {
                name: "bevy_ecs table marker",
                api: "entity_mut(e).insert(M) / .remove::<M>()",
                kind: Kind::Peer,
                setup: || Box::new(ToggleBevy::<Stunned>::new(Stunned)),
            },
            Contender {
                name: "hecs",
                api: "insert_one(e, M) / remove_one::<M>(e)",
                kind: Kind::Peer,
                setup: || Box::new(ToggleHecs::new()),
            },
            Contender {
                name: "flecs",
                api: "tag; has(M), then add(M) / remove(M) (a migration)",
                kind: Kind::Peer,
                setup: || Box::new(ToggleFlecs::new()),
            },
        ],
    }
}

/// The checksum of a toggle pass: every position and velocity, and every stunned ship's
/// position (so which ships are stunned counts).
fn toggle_checksum<'a>(
    positions: impl IntoIterator<Item = &'a Position>,
    velocities: impl IntoIterator<Item = &'a Velocity>,
    stunned: impl IntoIterator<Item = &'a Position>,
) -> u64 {
    let mut sum = Checksum::new();
    positions
        .into_iter()
        .for_each(|p| sum.vec3(field::POSITION, p.0));
    velocities
        .into_iter()
        .for_each(|v| sum.vec3(field::VELOCITY, v.0));
    stunned.into_iter().for_each(|p| sum.vec3(READ_SUM, p.0));
    sum.finish()
}

/// The ships a toggle pass flips, of a world whose spawn returned `ships`.
fn toggled<E: Copy>(ships: &[E]) -> Vec<E> {
    ships
        .iter()
        .enumerate()
        .filter(|&(index, _)| is_toggled(index))
        .map(|(_, &ship)| ship)
        .collect()
}

struct ToggleBevy<M: Component> {
    world: bevy_ecs::world::World,
    ships: Vec<bevy_ecs::entity::Entity>,
    marker: M,
}

impl<M: Component + Copy> ToggleBevy<M> {
    fn new(marker: M) -> Self {
        let mut world = bevy_ecs::world::World::new();
        let ships: Vec<_> = world.spawn_batch((0..SHIPS).map(ship)).collect();
        for (index, &entity) in ships.iter().enumerate() {
            if is_stunned(index, 50) {
                world.entity_mut(entity).insert(marker);
            }
        }
        ToggleBevy {
            world,
            ships: toggled(&ships),
            marker,
        }
    }
}

impl<M: Component + Copy> Pass for ToggleBevy<M> {
    fn run(&mut self) {
        for &ship in &self.ships {
            let mut entity = self.world.entity_mut(ship);
            if entity.contains::<M>() {
                entity.remove::<M>();
            } else {
                entity.insert(self.marker);
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        let positions: Vec<Position> = self
            .world
            .query::<&Position>()
            .iter(&self.world)
            .copied()
            .collect();
        let velocities: Vec<Velocity> = self
            .world
            .query::<&Velocity>()
            .iter(&self.world)
            .copied()
            .collect();
        let stunned: Vec<Position> = self
            .world
            .query_filtered::<&Position, With<M>>()
            .iter(&self.world)
            .copied()
            .collect();
        toggle_checksum(&positions, &velocities, &stunned)
    }
}

struct ToggleHecs(hecs::World, Vec<hecs::Entity>);

impl ToggleHecs {
    fn new() -> Self {
        let mut world = hecs::World::new();
        let ships: Vec<_> = world.spawn_batch((0..SHIPS).map(ship)).collect();
        for (index, &entity) in ships.iter().enumerate() {
            if is_stunned(index, 50) {
                world.insert_one(entity, Stunned).expect("alive");
            }
        }
        ToggleHecs(world, toggled(&ships))
    }
}

impl Pass for ToggleHecs {
    fn run(&mut self) {
        for &ship in &self.1 {
            if self.0.satisfies::<&Stunned>(ship) {
                self.0.remove_one::<Stunned>(ship).expect("stunned");
            } else {
                self.0.insert_one(ship, Stunned).expect("alive");
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        let stunned: Vec<Position> = self
            .0
            .query::<&Position>()
            .with::<&Stunned>()
            .iter()
            .copied()
            .collect();
        toggle_checksum(
            self.0.query::<&Position>().iter(),
            self.0.query::<&Velocity>().iter(),
            &stunned,
        )
    }
}

fn tables_workload<const PERCENT: u32>(name: &'static str) -> Workload {
    Workload {
        name,
        description: "ships: without(STUNNED) move, with(STUNNED) knocked back; tag vs marker",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "tag; for_each_table_mut + slice zip",
                kind: Kind::Archetypal,
                setup: || Box::new(Tagged::<TABLES>(tagged_world(PERCENT), 0)),
            },
            Contender {
                name: "archetypal zero-sized component",
                api: "ZST component; for_each_table_mut + slice zip",
                kind: Kind::ArchetypalVariant,
                setup: || Box::new(Marked::<TABLES>(marked_world(PERCENT), 0)),
            },
            Contender {
                name: "bevy_ecs sparse-set marker",
                api: "QueryState<_, Without<M>> iter_mut().for_each",
                kind: Kind::Peer,
                setup: || Box::new(Bevy::<StunnedSparse>::new(PERCENT, StunnedSparse)),
            },
            Contender {
                name: "bevy_ecs table marker",
                api: "QueryState<_, Without<M>> iter_mut().for_each",
                kind: Kind::Peer,
                setup: || Box::new(Bevy::<Stunned>::new(PERCENT, Stunned)),
            },
            Contender {
                name: "hecs",
                api: "query_mut().without::<&M>()",
                kind: Kind::Peer,
                setup: || Box::new(Hecs::new(PERCENT)),
            },
            Contender {
                name: "flecs",
                api: "tag; cached queries .without(M) / .with(M), run + field slices",
                kind: Kind::Peer,
                setup: || Box::new(Flecs::new(PERCENT)),
            },
        ],
    }
}

/// The API paths of archetypal, as a const parameter of its passes.
const TABLES: u8 = 0;
const TYPED: u8 = 1;
const ROWS: u8 = 2;
const READ: u8 = 3;

fn pair_workload<const PERCENT: u32, const PATH: u8>(name: &'static str) -> Workload {
    let api = match PATH {
        TYPED => "typed_query().without(M).for_each",
        ROWS => "for_each_mut(include, M, |entity, table, index| ..)",
        _ => "for_each(include, M, |entity, &table, index| ..), read only",
    };
    Workload {
        name,
        description: "tag_filter's pass through another API; tag vs marker",
        contenders: vec![
            Contender {
                name: "archetypal",
                api,
                kind: Kind::Archetypal,
                setup: || Box::new(Tagged::<PATH>(tagged_world(PERCENT), 0)),
            },
            Contender {
                name: "archetypal zero-sized component",
                api,
                kind: Kind::ArchetypalVariant,
                setup: || Box::new(Marked::<PATH>(marked_world(PERCENT), 0)),
            },
        ],
    }
}

/// Whether ship `index` is stunned at `percent`% density: a fixed pseudo-random choice, the
/// same for every contender.
fn is_stunned(index: usize, percent: u32) -> bool {
    let mut word = (index as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    word = (word ^ (word >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    word = (word ^ (word >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    word ^= word >> 31;
    word % 100 < u64::from(percent)
}

/// The components of ship `index`.
fn ship(index: usize) -> (Position, Velocity) {
    let index = index as f32;
    (
        Position(Vec3::new(index, 1.0, -index)),
        Velocity(Vec3::new(1.0, 0.5 * index, 0.25)),
    )
}

/// The checksum of every position and velocity, plus a read pass's sum.
fn checksum<'a>(
    positions: impl IntoIterator<Item = &'a Position>,
    velocities: impl IntoIterator<Item = &'a Velocity>,
    read_sum: u64,
) -> u64 {
    let mut sum = Checksum::new();
    positions
        .into_iter()
        .for_each(|p| sum.vec3(field::POSITION, p.0));
    velocities
        .into_iter()
        .for_each(|v| sum.vec3(field::VELOCITY, v.0));
    sum.count(READ_SUM, read_sum);
    sum.finish()
}

/// What a read pass adds up: the bits of a coordinate, an order-independent integer sum.
#[inline]
fn read_value(value: f32) -> u64 {
    u64::from(value.to_bits())
}

// ----- archetypal: the tagged world and the zero-sized-component world -----------------------

/// The ships of `$module`'s world (`STUNNED` a tag or a zero-sized component: the same source,
/// `add_stunned(entity)` either way), archetypal's pass over them through API `PATH`, and its
/// toggle pass.
macro_rules! archetypal_contender {
    ($module:ident, $setup:ident, $pass:ident, $toggle:ident) => {
        fn $setup(percent: u32) -> $module::World {
            let mut world = $module::World::new();
            let mut next = 0;
            let ships = world.spawn_batch(
                $module::POSITION | $module::VELOCITY,
                SHIPS,
                |table, row| {
                    (table.position[row], table.velocity[row]) = ship(next);
                    next += 1;
                },
            );
            for (index, &entity) in ships.iter().enumerate() {
                if is_stunned(index, percent) {
                    world.add_stunned(entity);
                }
            }
            world
        }

        /// archetypal's pass over the world of `$module` through API `PATH`, and a read pass's sum.
        struct $pass<const PATH: u8>($module::World, u64);

        impl<const PATH: u8> Pass for $pass<PATH> {
            fn run(&mut self) {
                use $module::{POSITION, STUNNED, VELOCITY};
                let world = &mut self.0;
                match PATH {
                    TABLES => {
                        world.for_each_table_mut(POSITION | VELOCITY, STUNNED, |table| {
                            for (position, velocity) in
                                table.position.iter_mut().zip(table.velocity.iter())
                            {
                                position.0 += velocity.0;
                            }
                        });
                        world.for_each_table_mut(VELOCITY | STUNNED, 0, |table| {
                            for velocity in table.velocity.iter_mut() {
                                velocity.0 += KNOCKBACK;
                            }
                        });
                    }
                    TYPED => {
                        world
                            .typed_query::<(&mut Position, &Velocity)>()
                            .without(STUNNED)
                            .for_each(|(mut position, velocity)| position.0 += velocity.0);
                        world
                            .typed_query::<&mut Velocity>()
                            .with(STUNNED)
                            .for_each(|mut velocity| velocity.0 += KNOCKBACK);
                    }
                    ROWS => {
                        world.for_each_mut(POSITION | VELOCITY, STUNNED, |_, table, index| {
                            table.position[index].0 += table.velocity[index].0;
                        });
                        world.for_each_mut(VELOCITY | STUNNED, 0, |_, table, index| {
                            table.velocity[index].0 += KNOCKBACK;
                        });
                    }
                    _ => {
                        let mut sum = self.1;
                        world.for_each(POSITION | VELOCITY, STUNNED, |_, table, index| {
                            sum = sum.wrapping_add(read_value(table.position[index].0.x));
                        });
                        world.for_each(VELOCITY | STUNNED, 0, |_, table, index| {
                            sum = sum.wrapping_add(read_value(table.velocity[index].0.y));
                        });
                        self.1 = sum;
                    }
                }
            }
            fn checksum(&mut self) -> u64 {
                let tables = self.0.tables();
                checksum(
                    tables.iter().flat_map(|table| &table.position),
                    tables.iter().flat_map(|table| &table.velocity),
                    self.1,
                )
            }
        }

        /// archetypal's toggle pass over half of the ships of `$module`'s world.
        struct $toggle($module::World, Vec<archetypal::Entity>);

        impl $toggle {
            fn new() -> Self {
                let world = $setup(50);
                let mut ships: Vec<_> = world.query_entities($module::POSITION).collect();
                ships.sort();
                $toggle(world, toggled(&ships))
            }
        }

        impl Pass for $toggle {
            fn run(&mut self) {
                for &ship in &self.1 {
                    if self.0.has_components(ship, $module::STUNNED) {
                        self.0.remove_stunned(ship);
                    } else {
                        self.0.add_stunned(ship);
                    }
                }
            }
            fn checksum(&mut self) -> u64 {
                let world = &self.0;
                let stunned: Vec<Position> = world
                    .query_entities($module::STUNNED)
                    .filter_map(|ship| world.get_position(ship).copied())
                    .collect();
                let tables = world.tables();
                toggle_checksum(
                    tables.iter().flat_map(|table| &table.position),
                    tables.iter().flat_map(|table| &table.velocity),
                    &stunned,
                )
            }
        }
    };
}

archetypal_contender!(tagged, tagged_world, Tagged, ToggleTagged);
archetypal_contender!(marked, marked_world, Marked, ToggleMarked);

// ----- bevy_ecs -----------------------------------------------------------------------------

/// bevy_ecs with marker `M` (sparse-set or table storage).
struct Bevy<M: Component> {
    world: bevy_ecs::world::World,
    moving: QueryState<(&'static mut Position, &'static Velocity), Without<M>>,
    stunned: QueryState<&'static mut Velocity, With<M>>,
}

impl<M: Component + Copy> Bevy<M> {
    fn new(percent: u32, marker: M) -> Self {
        let mut world = bevy_ecs::world::World::new();
        let ships: Vec<_> = world.spawn_batch((0..SHIPS).map(ship)).collect();
        for (index, &entity) in ships.iter().enumerate() {
            if is_stunned(index, percent) {
                world.entity_mut(entity).insert(marker);
            }
        }
        let moving = world.query_filtered::<(&mut Position, &Velocity), Without<M>>();
        let stunned = world.query_filtered::<&mut Velocity, With<M>>();
        Bevy {
            world,
            moving,
            stunned,
        }
    }
}

impl<M: Component> Pass for Bevy<M> {
    fn run(&mut self) {
        self.moving
            .iter_mut(&mut self.world)
            .for_each(|(mut position, velocity)| position.0 += velocity.0);
        self.stunned
            .iter_mut(&mut self.world)
            .for_each(|mut velocity| velocity.0 += KNOCKBACK);
    }
    fn checksum(&mut self) -> u64 {
        let positions: Vec<Position> = self
            .world
            .query::<&Position>()
            .iter(&self.world)
            .copied()
            .collect();
        let velocities: Vec<Velocity> = self
            .world
            .query::<&Velocity>()
            .iter(&self.world)
            .copied()
            .collect();
        checksum(&positions, &velocities, 0)
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Hecs {
    fn new(percent: u32) -> Self {
        let mut world = hecs::World::new();
        let ships: Vec<_> = world.spawn_batch((0..SHIPS).map(ship)).collect();
        for (index, &entity) in ships.iter().enumerate() {
            if is_stunned(index, percent) {
                world.insert_one(entity, Stunned).expect("alive");
            }
        }
        Hecs(world)
    }
}

impl Pass for Hecs {
    fn run(&mut self) {
        for (position, velocity) in self
            .0
            .query_mut::<(&mut Position, &Velocity)>()
            .without::<&Stunned>()
        {
            position.0 += velocity.0;
        }
        for velocity in self.0.query_mut::<&mut Velocity>().with::<&Stunned>() {
            velocity.0 += KNOCKBACK;
        }
    }
    fn checksum(&mut self) -> u64 {
        checksum(
            self.0.query::<&Position>().iter(),
            self.0.query::<&Velocity>().iter(),
            0,
        )
    }
}

// ----- flecs --------------------------------------------------------------------------------

/// flecs's ships, `percent`% of them stunned (the tag `Stunned`); the handles in spawn order.
fn flecs_ships(percent: u32) -> (flecs_ecs::prelude::World, Vec<flecs_ecs::prelude::Entity>) {
    use flecs_ecs::prelude::ComponentId;
    let world = flecs_ecs::prelude::World::new();
    let ships = world
        .entity_bulk(SHIPS as u32)
        .add::<Position>()
        .add::<Velocity>()
        .build();
    let rows = crate::worlds::flecs_new_rows(&world, &ships).expect("ships");
    crate::worlds::flecs_write_moving(rows, ship);
    for (index, &entity) in ships.iter().enumerate() {
        if is_stunned(index, percent) {
            world.entity_from_id(entity).add(Stunned::id());
        }
    }
    (world, ships)
}

/// The toggle checksum of flecs's ships (every position and velocity, the stunned positions).
fn flecs_checksum(world: &flecs_ecs::prelude::World) -> u64 {
    use flecs_ecs::prelude::{Builder, ComponentId, QueryAPI, QueryBuilderImpl};
    let (mut positions, mut velocities, mut stunned) = (Vec::new(), Vec::new(), Vec::new());
    world
        .new_query::<&Position>()
        .each(|position| positions.push(*position));
    world
        .new_query::<&Velocity>()
        .each(|velocity| velocities.push(*velocity));
    world
        .query::<&Position>()
        .with(Stunned::id())
        .build()
        .each(|position| stunned.push(*position));
    toggle_checksum(&positions, &velocities, &stunned)
}

struct Flecs {
    // Declared before the world, so they are dropped first: a query must not outlive its world.
    moving: flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    stunned: flecs_ecs::prelude::Query<&'static mut Velocity>,
    world: flecs_ecs::prelude::World,
}

impl Flecs {
    fn new(percent: u32) -> Self {
        use flecs_ecs::prelude::{Builder, ComponentId, QueryBuilderImpl};
        let (world, _) = flecs_ships(percent);
        let moving = world
            .query::<(&mut Position, &Velocity)>()
            .without(Stunned::id())
            .set_cached()
            .build();
        let stunned = world
            .query::<&mut Velocity>()
            .with(Stunned::id())
            .set_cached()
            .build();
        Flecs {
            moving,
            stunned,
            world,
        }
    }
}

impl Pass for Flecs {
    /// `run` over each cached query's tables, the columns as slices, as in simple_iter: the
    /// stunned and the moving ships are two tables.
    fn run(&mut self) {
        use flecs_ecs::prelude::QueryAPI;
        crate::worlds::flecs_run_moving(&self.moving, |position, velocity| {
            position.0 += velocity.0
        });
        self.stunned.run(|mut it| {
            while it.next() {
                for velocity in it.field_mut::<Velocity>(0).as_mut_slice() {
                    velocity.0 += KNOCKBACK;
                }
            }
        });
    }
    fn checksum(&mut self) -> u64 {
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        {
            use flecs_ecs::prelude::QueryAPI;
            self.world
                .new_query::<&Position>()
                .each(|position| positions.push(*position));
            self.world
                .new_query::<&Velocity>()
                .each(|velocity| velocities.push(*velocity));
        }
        checksum(&positions, &velocities, 0)
    }
}

struct ToggleFlecs {
    world: flecs_ecs::prelude::World,
    ships: Vec<flecs_ecs::prelude::Entity>,
}

impl ToggleFlecs {
    fn new() -> Self {
        let (world, ships) = flecs_ships(50);
        ToggleFlecs {
            world,
            ships: toggled(&ships),
        }
    }
}

impl Pass for ToggleFlecs {
    fn run(&mut self) {
        use flecs_ecs::prelude::ComponentId;
        for &ship in &self.ships {
            let entity = self.world.entity_from_id(ship);
            if entity.has(Stunned::id()) {
                entity.remove(Stunned::id());
            } else {
                entity.add(Stunned::id());
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        flecs_checksum(&self.world)
    }
}
