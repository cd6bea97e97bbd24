//! The `ecs!` worlds over the simple components, shared by `simple_insert`, `simple_iter`,
//! `heavy_compute`, `random_get_mut`, `change_detection` and `tracking_cost`. Two crates' `ecs!` macros live in
//! separate modules and are invoked by full path. Also the plain-`Vec` baseline of that world
//! and one checksum function per contender.

use crate::components::{Position, Rotation, Transform, Velocity, simple_values};

/// An archetypal world of the simple components, in module `$name` (its components declared
/// `$($policy)*`: nothing, or `[untracked]`), with the mask of all four and the spawn and
/// checksum every workload over it uses.
macro_rules! archetypal_simple_world {
    ($(#[$doc:meta])* $name:ident $($policy:tt)?) => {
        $(#[$doc])*
        pub mod $name {
            pub use crate::components::{Position, Rotation, Transform, Velocity};

            archetypal::ecs! {
                World {
                    transform: Transform => TRANSFORM $($policy)?,
                    position: Position => POSITION $($policy)?,
                    rotation: Rotation => ROTATION $($policy)?,
                    velocity: Velocity => VELOCITY $($policy)?,
                }
            }

            /// Every component.
            pub const ALL: WorldMask = TRANSFORM | POSITION | ROTATION | VELOCITY;

            /// Spawns `count` entities with [`simple_values`](crate::components::simple_values)
            /// by `spawn_values`, each value moved into its column once; their handles in
            /// spawn order.
            pub fn spawn(world: &mut World, count: usize) -> Vec<archetypal::Entity> {
                world.spawn_values((0..count).map(crate::components::simple_values))
            }

            /// [`spawn`] by `spawn_batch(mask, n, |table, row| ..)`: every column filled with
            /// defaults, then each row written in place (the closure form, measured beside
            /// the value form in `simple_insert`).
            pub fn spawn_in_place(world: &mut World, count: usize) -> Vec<archetypal::Entity> {
                let mut next = 0;
                world.spawn_batch(ALL, count, |table, row| {
                    let (transform, position, rotation, velocity) =
                        crate::components::simple_values(next);
                    next += 1;
                    table.transform[row] = transform;
                    table.position[row] = position;
                    table.rotation[row] = rotation;
                    table.velocity[row] = velocity;
                })
            }

            /// The four columns' checksum ([`simple_checksum`](crate::worlds::simple_checksum)).
            pub fn checksum(world: &World) -> u64 {
                let mut sum = crate::Checksum::new();
                for table in world.tables() {
                    crate::worlds::simple_checksum::add(
                        &mut sum,
                        &table.transform,
                        &table.position,
                        &table.rotation,
                        &table.velocity,
                    );
                }
                sum.finish()
            }
        }
    };
}

archetypal_simple_world! {
    /// archetypal's world: Transform, Position, Rotation, Velocity.
    archetypal_simple
}

archetypal_simple_world! {
    /// [`archetypal_simple`] with every component `[untracked]` (no tick columns): the
    /// `tracking_*` workloads' twin, and the memory row's world that tracks nothing.
    untracked_simple [untracked]
}

/// freecs's world (its `ecs!` tier): the same four components.
pub mod freecs_simple {
    pub use crate::components::{Position, Rotation, Transform, Velocity};

    freecs::ecs! {
        World {
            transform: Transform => TRANSFORM,
            position: Position => POSITION,
            rotation: Rotation => ROTATION,
            velocity: Velocity => VELOCITY,
        }
        Resources {}
    }

    /// Every component.
    pub const ALL: u64 = TRANSFORM | POSITION | ROTATION | VELOCITY;
}

/// The plain-`Vec` baseline of the simple world: one `Vec` per component (struct of arrays),
/// the loop archetypal's tables are meant to match.
#[derive(Default)]
pub struct SimpleVecs {
    /// Every `Transform`.
    pub transforms: Vec<Transform>,
    /// Every `Position`.
    pub positions: Vec<Position>,
    /// Every `Rotation`.
    pub rotations: Vec<Rotation>,
    /// Every `Velocity`.
    pub velocities: Vec<Velocity>,
}

/// `clone_from` reuses the target's allocations (each column's `Vec::clone_from`, a copy of
/// the values): the baseline of `rollback`'s restore. A derived `Clone` would not, its
/// `clone_from` being a fresh `clone`.
impl Clone for SimpleVecs {
    fn clone(&self) -> Self {
        SimpleVecs {
            transforms: self.transforms.clone(),
            positions: self.positions.clone(),
            rotations: self.rotations.clone(),
            velocities: self.velocities.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.transforms.clone_from(&source.transforms);
        self.positions.clone_from(&source.positions);
        self.rotations.clone_from(&source.rotations);
        self.velocities.clone_from(&source.velocities);
    }
}

impl SimpleVecs {
    /// `count` entities with [`simple_values`].
    pub fn new(count: usize) -> Self {
        let mut vecs = SimpleVecs {
            transforms: Vec::with_capacity(count),
            positions: Vec::with_capacity(count),
            rotations: Vec::with_capacity(count),
            velocities: Vec::with_capacity(count),
        };
        for index in 0..count {
            let (transform, position, rotation, velocity) = simple_values(index);
            vecs.transforms.push(transform);
            vecs.positions.push(position);
            vecs.rotations.push(rotation);
            vecs.velocities.push(velocity);
        }
        vecs
    }
}

/// Checksums of a simple world's four components, one function per contender. Each column is
/// summed on its own (the checksum is order-independent), so entities missing a component are
/// handled alike everywhere.
pub mod simple_checksum {
    use super::{SimpleVecs, archetypal_simple, freecs_simple};
    use crate::Checksum;
    use crate::components::{Position, Rotation, Transform, Velocity, field};
    use crate::naive::NaiveWorld;

    /// Adds every value of the four columns to `sum`, each tagged with its [`field`]: the
    /// shared body of the functions below, public for worlds declared elsewhere (e.g.
    /// `tracking_cost`'s untracked twin of [`archetypal_simple`]).
    pub fn add<'a>(
        sum: &mut Checksum,
        transforms: impl IntoIterator<Item = &'a Transform>,
        positions: impl IntoIterator<Item = &'a Position>,
        rotations: impl IntoIterator<Item = &'a Rotation>,
        velocities: impl IntoIterator<Item = &'a Velocity>,
    ) {
        transforms
            .into_iter()
            .for_each(|t| sum.mat4(field::TRANSFORM, &t.0));
        positions
            .into_iter()
            .for_each(|p| sum.vec3(field::POSITION, p.0));
        rotations
            .into_iter()
            .for_each(|r| sum.vec3(field::ROTATION, r.0));
        velocities
            .into_iter()
            .for_each(|v| sum.vec3(field::VELOCITY, v.0));
    }

    /// archetypal.
    pub fn archetypal(world: &archetypal_simple::World) -> u64 {
        archetypal_simple::checksum(world)
    }

    /// freecs.
    pub fn freecs(world: &freecs_simple::World) -> u64 {
        let mut sum = Checksum::new();
        for table in &world.tables {
            add(
                &mut sum,
                &table.transform,
                &table.position,
                &table.rotation,
                &table.velocity,
            );
        }
        sum.finish()
    }

    /// hecs.
    pub fn hecs(world: &hecs::World) -> u64 {
        let mut sum = Checksum::new();
        add(
            &mut sum,
            world.query::<&Transform>().iter(),
            world.query::<&Position>().iter(),
            world.query::<&Rotation>().iter(),
            world.query::<&Velocity>().iter(),
        );
        sum.finish()
    }

    /// bevy_ecs.
    pub fn bevy(world: &mut bevy_ecs::world::World) -> u64 {
        let mut sum = Checksum::new();
        let transforms: Vec<Transform> = world.query::<&Transform>().iter(world).copied().collect();
        let positions: Vec<Position> = world.query::<&Position>().iter(world).copied().collect();
        let rotations: Vec<Rotation> = world.query::<&Rotation>().iter(world).copied().collect();
        let velocities: Vec<Velocity> = world.query::<&Velocity>().iter(world).copied().collect();
        add(&mut sum, &transforms, &positions, &rotations, &velocities);
        sum.finish()
    }

    /// flecs: one uncached query per column (only the benchmark's entities have these
    /// components).
    pub fn flecs(world: &flecs_ecs::prelude::World) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut sum = Checksum::new();
        let mut transforms = Vec::new();
        let mut positions = Vec::new();
        let mut rotations = Vec::new();
        let mut velocities = Vec::new();
        world
            .new_query::<&Transform>()
            .each(|value| transforms.push(*value));
        world
            .new_query::<&Position>()
            .each(|value| positions.push(*value));
        world
            .new_query::<&Rotation>()
            .each(|value| rotations.push(*value));
        world
            .new_query::<&Velocity>()
            .each(|value| velocities.push(*value));
        add(&mut sum, &transforms, &positions, &rotations, &velocities);
        sum.finish()
    }

    /// The plain-`Vec` baseline.
    pub fn vecs(vecs: &SimpleVecs) -> u64 {
        let mut sum = Checksum::new();
        add(
            &mut sum,
            &vecs.transforms,
            &vecs.positions,
            &vecs.rotations,
            &vecs.velocities,
        );
        sum.finish()
    }

    /// The naive `HashMap` world.
    pub fn naive(world: &NaiveWorld) -> u64 {
        let mut sum = Checksum::new();
        add(
            &mut sum,
            world.transforms.values(),
            world.positions.values(),
            world.rotations.values(),
            world.velocities.values(),
        );
        sum.finish()
    }
}

/// Spawns `count` entities with the simple components ([`simple_values`]), one function per
/// contender, each through that crate's batch spawn. Returns the handles in spawn order.
pub mod spawn_simple {
    use super::{archetypal_simple, freecs_simple};
    use crate::components::simple_values;

    /// archetypal: `spawn_values` of tuples.
    pub fn archetypal(
        world: &mut archetypal_simple::World,
        count: usize,
    ) -> Vec<archetypal::Entity> {
        archetypal_simple::spawn(world, count)
    }

    /// freecs: `spawn_batch`, writing each row in place.
    pub fn freecs(world: &mut freecs_simple::World, count: usize) -> Vec<freecs::Entity> {
        let mut next = 0;
        world.spawn_batch(freecs_simple::ALL, count, |table, row| {
            let (transform, position, rotation, velocity) = simple_values(next);
            next += 1;
            table.transform[row] = transform;
            table.position[row] = position;
            table.rotation[row] = rotation;
            table.velocity[row] = velocity;
        })
    }

    /// hecs: `spawn_batch` of tuples.
    pub fn hecs(world: &mut hecs::World, count: usize) -> Vec<hecs::Entity> {
        world.spawn_batch((0..count).map(simple_values)).collect()
    }

    /// bevy_ecs: `spawn_batch` of tuples.
    pub fn bevy(world: &mut bevy_ecs::world::World, count: usize) -> Vec<bevy_ecs::entity::Entity> {
        world.spawn_batch((0..count).map(simple_values)).collect()
    }

    /// flecs: `entity_bulk` adding the four components with their defaults, then the values
    /// written in place through the new rows' column slices ([`flecs_new_rows`](super::flecs_new_rows)),
    /// which measured several times faster than `entity_bulk(..).set(&values)` with four slices.
    pub fn flecs(
        world: &flecs_ecs::prelude::World,
        count: usize,
    ) -> Vec<flecs_ecs::prelude::Entity> {
        use crate::components::{Position, Rotation, Transform, Velocity};
        use flecs_ecs::prelude::TableOperations;
        let entities = world
            .entity_bulk(u32::try_from(count).expect("a bulk of at most u32::MAX"))
            .add::<Transform>()
            .add::<Position>()
            .add::<Rotation>()
            .add::<Velocity>()
            .build();
        let Some(rows) = super::flecs_new_rows(world, &entities) else {
            return entities;
        };
        let (mut transforms, mut positions, mut rotations, mut velocities) =
            (rows, rows, rows, rows);
        let columns = transforms
            .get_mut::<Transform>()
            .expect("a Transform column")
            .iter_mut()
            .zip(positions.get_mut::<Position>().expect("a Position column"))
            .zip(rotations.get_mut::<Rotation>().expect("a Rotation column"))
            .zip(velocities.get_mut::<Velocity>().expect("a Velocity column"));
        for (index, (((transform, position), rotation), velocity)) in columns.enumerate() {
            (*transform, *position, *rotation, *velocity) = simple_values(index);
        }
        entities
    }
}

/// Writes the `Position` and `Velocity` of flecs rows just created ([`flecs_new_rows`]) in
/// place, `values(index)` into the `index`-th row, through the two column slices: the
/// spawners of mixed worlds, tag_filter's ships and parent_propagate's ships.
pub fn flecs_write_moving(
    rows: flecs_ecs::prelude::TableRange<'_>,
    mut values: impl FnMut(usize) -> (Position, Velocity),
) {
    use flecs_ecs::prelude::TableOperations;
    let (mut positions, mut velocities) = (rows, rows);
    let columns = positions
        .get_mut::<Position>()
        .expect("a Position column")
        .iter_mut()
        .zip(velocities.get_mut::<Velocity>().expect("a Velocity column"));
    for (index, (position, velocity)) in columns.enumerate() {
        (*position, *velocity) = values(index);
    }
}

/// flecs's fastest loop over a cached `(&mut Position, &Velocity)` query: `run`, each table's
/// columns as slices (`field_mut` / `field`; ahead of `each`, its per-entity closure), `f` per
/// row. The movement system of simple_iter, churn, tag_filter and game_frame.
pub fn flecs_run_moving(
    query: &flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    mut f: impl FnMut(&mut Position, &Velocity),
) {
    use flecs_ecs::prelude::QueryAPI;
    query.run(|mut it| {
        while it.next() {
            let mut positions = it.field_mut::<Position>(0);
            let velocities = it.field::<Velocity>(1);
            for (position, velocity) in positions
                .as_mut_slice()
                .iter_mut()
                .zip(velocities.as_slice())
            {
                f(position, velocity);
            }
        }
    });
}

/// The table rows of the entities one flecs `entity_bulk(..).build()` just created, in the
/// order of its handles (`None` for an empty bulk): their columns, taken as slices with
/// `TableRange::get_mut`, are where a spawner writes their values in place.
pub fn flecs_new_rows<'w>(
    world: &'w flecs_ecs::prelude::World,
    entities: &[flecs_ecs::prelude::Entity],
) -> Option<flecs_ecs::prelude::TableRange<'w>> {
    use flecs_ecs::prelude::{TableOperations, TableRange};
    let row = |entity| {
        world
            .entity_from_id(entity)
            .range()
            .expect("a spawned entity is in a table")
    };
    let (first, last) = (row(*entities.first()?), row(*entities.last()?));
    // A bulk appends its rows to one table, in the order of the handles it returns.
    assert!(
        first.table == last.table && last.offset() - first.offset() + 1 == entities.len() as i32
    );
    Some(TableRange::new(
        first.table,
        first.offset(),
        entities.len() as i32,
    ))
}

/// A fixed permutation of `0..count` (Fisher-Yates over xorshift64*), the same every run.
pub fn shuffled_indices(count: usize) -> Vec<usize> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut indices: Vec<usize> = (0..count).collect();
    for last in (1..count).rev() {
        let pick = (next() % (last as u64 + 1)) as usize;
        indices.swap(last, pick);
    }
    indices
}
