//! `tracking_iter`, `tracking_writes`, `tracking_migrations`: what change tracking costs,
//! archetypal against itself. Each workload has two contenders running the same source on two
//! worlds declared alike, except that one declares every component `[untracked]` (no tick
//! column, no stamping). The tracked world is the reference, so a ratio is tracked time over
//! untracked time: above 1.00 is what tracking costs.
//!
//! - `tracking_iter`: `position += velocity` over 10,000 entities with `for_each_table_mut`
//!   (`simple_iter`'s pass). Iterating a table view stamps nothing: the two should match.
//! - `tracking_writes`: `position.x += 1` through `get_position_mut` on the same 10,000, in
//!   `random_get_mut`'s shuffled order. The tracked world stamps a tick per write.
//! - `tracking_migrations`: add `B` to 10,000 entities with `A`, then remove it from all
//!   (`add_remove`'s pass). The tracked world moves each row's ticks along with its values and
//!   stamps the added `B`; with one-`f32` components the tick columns are as wide as the
//!   values, so this is close to the worst case.
//!
//! - `tracking_typed`: `position += velocity` over the same 10,000 through
//!   `typed_query::<(&mut Position, &Velocity)>()`: every row is written through its `Mut`
//!   guard, which stamps the row (one tick store per row) in the tracked world.
//! - `tracking_typed_sparse`: the same query writing only every tenth row (by position in the
//!   table, rows 0, 10, 20, ...): the other rows are read through the guard and not stamped.
//!
//! Every pass is a frame: it moves the world's tick first (`increment_tick`), so a tracked
//! write stamps a tick newer than its row's spawn, as a game's system does (a write at the
//! tick the row was spawned or moved at stores nothing: the row already counts as written then).
//!
//! Several workloads rather than one: a workload's contenders must end a pass with one checksum
//! and its ratios are taken against one reference, so each kind of pass is its own workload.
//! Both worlds of a workload implement one trait through one macro, so the tracked and the
//! untracked contender run the same code. World setup is untimed.

use archetypal::Entity;

use crate::components::SIMPLE_ENTITIES;
use crate::workloads::add_remove::{self, A, archetypal_world as tracked_ab};
use crate::worlds::{archetypal_simple as tracked_simple, shuffled_indices, untracked_simple};
use crate::{Contender, Kind, Pass, Workload};

/// `add_remove::archetypal_world` with both components `[untracked]`.
pub mod untracked_ab {
    pub use crate::workloads::add_remove::{A, B};

    archetypal::ecs! {
        World {
            a: A => A_BIT [untracked],
            b: B => B_BIT [untracked],
        }
    }
}

/// The workload timing iteration.
pub fn iter_workload() -> Workload {
    Workload {
        name: "tracking_iter",
        description: "position += velocity over 10,000 entities, tracked vs [untracked] components",
        contenders: vec![
            tracked(ITER, iter_setup::<tracked_simple::World>),
            untracked(ITER, iter_setup::<untracked_simple::World>),
        ],
    }
}

/// The workload timing single-entity writes.
pub fn writes_workload() -> Workload {
    Workload {
        name: "tracking_writes",
        description: "position.x += 1 through 10,000 shuffled handles, tracked vs [untracked]",
        contenders: vec![
            tracked(WRITES, writes_setup::<tracked_simple::World>),
            untracked(WRITES, writes_setup::<untracked_simple::World>),
        ],
    }
}

/// `random_get_mut`'s row of the world that tracks nothing: `tracking_writes`'s second row.
pub fn untracked_writes() -> Contender {
    untracked(WRITES, writes_setup::<untracked_simple::World>)
}

/// The workload timing migrations.
pub fn migrations_workload() -> Workload {
    Workload {
        name: "tracking_migrations",
        description: "add B to 10,000 entities with A, then remove it, tracked vs [untracked]",
        contenders: vec![
            tracked(MIGRATIONS, migrations_setup::<tracked_ab::World>),
            untracked(MIGRATIONS, migrations_setup::<untracked_ab::World>),
        ],
    }
}

/// The workload timing a typed query that writes every row.
pub fn typed_workload() -> Workload {
    Workload {
        name: "tracking_typed",
        description: "position += velocity through typed_query (Mut guards), tracked vs [untracked]",
        contenders: vec![
            tracked(TYPED, typed_setup::<tracked_simple::World>),
            untracked(TYPED, typed_setup::<untracked_simple::World>),
        ],
    }
}

/// The workload timing a typed query that writes one row in ten.
pub fn typed_sparse_workload() -> Workload {
    Workload {
        name: "tracking_typed_sparse",
        description: "typed_query writing 10% of 10,000 rows, tracked vs [untracked]",
        contenders: vec![
            tracked(TYPED_SPARSE, typed_sparse_setup::<tracked_simple::World>),
            untracked(TYPED_SPARSE, typed_sparse_setup::<untracked_simple::World>),
        ],
    }
}

const ITER: &str = "for_each_table_mut + slice zip";
const TYPED: &str = "typed_query::<(&mut P, &V)>().for_each(..)";
const TYPED_SPARSE: &str = "typed_query::<(&mut P, &V)>(), every 10th row written";
const WRITES: &str = "get_position_mut(e)";
const MIGRATIONS: &str = "add_components(e, B) / remove_components(e, B)";

/// The tracked world: the reference row, `archetypal`.
fn tracked(api: &'static str, setup: fn() -> Box<dyn Pass>) -> Contender {
    Contender {
        name: "archetypal",
        api,
        kind: Kind::Archetypal,
        setup,
    }
}

/// The `[untracked]` world: its own row, whose ratio is tracked time / untracked time.
fn untracked(api: &'static str, setup: fn() -> Box<dyn Pass>) -> Contender {
    Contender {
        name: "archetypal [untracked]",
        api,
        kind: Kind::ArchetypalVariant,
        setup,
    }
}

// ----- the simple world: iteration and writes -----------------------------------------------

/// What `tracking_iter` and `tracking_writes` do to a world of the simple components.
trait SimpleWorld: archetypal::SystemWorld + 'static {
    /// A world of [`SIMPLE_ENTITIES`] entities with `simple_values`, spawned in one batch,
    /// and their handles in spawn order.
    fn spawn() -> (Self, Vec<Entity>)
    where
        Self: Sized;
    /// `position += velocity` over every entity, one table at a time.
    fn integrate(&mut self);
    /// `position += velocity` over every entity through a typed query.
    fn integrate_typed(&mut self);
    /// `position += velocity` on every tenth row through a typed query (the rest is read).
    fn integrate_typed_sparse(&mut self);
    /// `position.x += 1` through `get_position_mut`, for each of `handles` in order.
    fn write_positions(&mut self, handles: &[Entity]);
    /// The four columns' checksum ([`simple_checksum`]).
    fn checksum(&self) -> u64;
}

macro_rules! simple_world {
    ($world:ident) => {
        impl SimpleWorld for $world::World {
            fn spawn() -> (Self, Vec<Entity>) {
                let mut world = $world::World::new();
                let handles = $world::spawn(&mut world, SIMPLE_ENTITIES);
                (world, handles)
            }
            #[inline]
            fn integrate(&mut self) {
                use $world::{POSITION, VELOCITY};
                self.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
                    for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter())
                    {
                        position.0 += velocity.0;
                    }
                });
            }
            #[inline]
            fn integrate_typed(&mut self) {
                use $world::{Position, Velocity};
                self.typed_query::<(&mut Position, &Velocity)>()
                    .for_each(|(mut position, velocity)| position.0 += velocity.0);
            }
            #[inline]
            fn integrate_typed_sparse(&mut self) {
                use $world::{Position, Velocity};
                // A countdown rather than `index % 10 == 0`: LLVM lowered that modulo as a
                // widening multiply in the tracked loop and as a multiply-and-rotate test in
                // the untracked one, so the row measured the two lowerings (1.54, against 1.3
                // with the countdown) more than the tracking.
                let mut rows_to_next_write = 1u32;
                self.typed_query::<(&mut Position, &Velocity)>().for_each(
                    |(mut position, velocity)| {
                        rows_to_next_write -= 1;
                        if rows_to_next_write == 0 {
                            position.0 += velocity.0;
                            rows_to_next_write = 10;
                        }
                    },
                );
            }
            #[inline]
            fn write_positions(&mut self, handles: &[Entity]) {
                for &entity in handles {
                    if let Some(position) = self.get_position_mut(entity) {
                        position.0.x += 1.0;
                    }
                }
            }
            fn checksum(&self) -> u64 {
                $world::checksum(self)
            }
        }
    };
}

simple_world!(tracked_simple);
simple_world!(untracked_simple);

struct Iter<W>(W);

impl<W: SimpleWorld> Pass for Iter<W> {
    fn run(&mut self) {
        self.0.increment_tick();
        self.0.integrate();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn iter_setup<W: SimpleWorld>() -> Box<dyn Pass> {
    Box::new(Iter(W::spawn().0))
}

struct Typed<W>(W);

impl<W: SimpleWorld> Pass for Typed<W> {
    fn run(&mut self) {
        self.0.increment_tick();
        self.0.integrate_typed();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn typed_setup<W: SimpleWorld>() -> Box<dyn Pass> {
    Box::new(Typed(W::spawn().0))
}

struct TypedSparse<W>(W);

impl<W: SimpleWorld> Pass for TypedSparse<W> {
    fn run(&mut self) {
        self.0.increment_tick();
        self.0.integrate_typed_sparse();
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn typed_sparse_setup<W: SimpleWorld>() -> Box<dyn Pass> {
    Box::new(TypedSparse(W::spawn().0))
}

struct Writes<W> {
    world: W,
    handles: Vec<Entity>,
}

impl<W: SimpleWorld> Pass for Writes<W> {
    fn run(&mut self) {
        self.world.increment_tick();
        self.world.write_positions(&self.handles);
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

fn writes_setup<W: SimpleWorld>() -> Box<dyn Pass> {
    let (world, handles) = W::spawn();
    let handles = shuffled_indices(handles.len())
        .into_iter()
        .map(|index| handles[index])
        .collect();
    Box::new(Writes { world, handles })
}

// ----- the A/B world: migrations ------------------------------------------------------------

/// What `tracking_migrations` does to a world of `A` and `B`.
trait AbWorld: archetypal::SystemWorld + 'static {
    /// A world of [`add_remove::ENTITIES`] entities with `A(index)`, and their handles.
    fn spawn() -> (Self, Vec<Entity>)
    where
        Self: Sized;
    /// Adds `B` to every one of `entities`, then removes it from every one; returns how many
    /// entities held `B` after the add half (so the pass is observable).
    fn add_remove_b(&mut self, entities: &[Entity]) -> u64;
    /// Every `A`, how many entities still have a `B` (0 after a pass), and `moved`: the
    /// running total of [`AbWorld::add_remove_b`]'s counts.
    fn checksum(&self, moved: u64) -> u64;
}

macro_rules! ab_world {
    ($world:ident) => {
        impl AbWorld for $world::World {
            fn spawn() -> (Self, Vec<Entity>) {
                let mut world = $world::World::new();
                let mut next = 0;
                let entities =
                    world.spawn_batch($world::A_BIT, add_remove::ENTITIES, |table, row| {
                        table.a[row] = A(next as f32);
                        next += 1;
                    });
                (world, entities)
            }
            #[inline]
            fn add_remove_b(&mut self, entities: &[Entity]) -> u64 {
                for &entity in entities {
                    self.add_components(entity, $world::B_BIT);
                }
                let moved = self.tables().iter().map(|table| table.b.len() as u64).sum();
                for &entity in entities {
                    self.remove_components(entity, $world::B_BIT);
                }
                moved
            }
            fn checksum(&self, moved: u64) -> u64 {
                let tables = self.tables();
                add_remove::checksum(
                    tables.iter().flat_map(|table| &table.a),
                    tables.iter().map(|table| table.b.len()).sum(),
                    moved,
                )
            }
        }
    };
}

ab_world!(tracked_ab);
ab_world!(untracked_ab);

struct Migrations<W> {
    world: W,
    entities: Vec<Entity>,
    moved: u64,
}

impl<W: AbWorld> Pass for Migrations<W> {
    fn run(&mut self) {
        self.world.increment_tick();
        self.moved += self.world.add_remove_b(&self.entities);
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum(self.moved)
    }
}

fn migrations_setup<W: AbWorld>() -> Box<dyn Pass> {
    let (world, entities) = W::spawn();
    Box::new(Migrations {
        world,
        entities,
        moved: 0,
    })
}
