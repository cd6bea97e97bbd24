//! Worlds whose entities spread over many archetypes, shared by `churn` and `many_archetypes`:
//! every entity has Position and Velocity, plus any subset of ten optional one-`f32`
//! components `O0`..`O9` chosen by the bits of a number (`bits`). Spawning an entity of any
//! archetype, and a checksum of every world, one function per crate.

use bevy_ecs::component::Component;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::Checksum;
use crate::components::{Position, Velocity, field};
use crate::math::Vec3;

macro_rules! optional_components {
    ($($name:ident)*) => {
        $(
            #[doc = concat!("Optional component `", stringify!($name), "`: one `f32`.")]
            #[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
            pub struct $name(pub f32);
        )*
    };
}

optional_components!(O0 O1 O2 O3 O4 O5 O6 O7 O8 O9);

/// The checksum field of `O0` (the component the `many_archetypes` query reads).
pub const O0_FIELD: u32 = 100;

/// The values of the `index`-th spawned entity: simple_iter's position and velocity, and the
/// value of each of its optional components.
#[inline]
pub fn values(index: usize) -> (Position, Velocity, f32) {
    let index = index as f32;
    (
        Position(Vec3::new(index, 1.0, -index)),
        Velocity(Vec3::new(1.0, 0.5 * index, 0.25)),
        index * 0.5 + 1.0,
    )
}

/// archetypal's world.
pub mod archetypal_mixed {
    pub use super::{O0, O1, O2, O3, O4, O5, O6, O7, O8, O9};
    pub use crate::components::{Position, Velocity};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            o0: O0 => O0_BIT, o1: O1 => O1_BIT, o2: O2 => O2_BIT, o3: O3 => O3_BIT,
            o4: O4 => O4_BIT, o5: O5 => O5_BIT, o6: O6 => O6_BIT, o7: O7 => O7_BIT,
            o8: O8 => O8_BIT, o9: O9 => O9_BIT,
        }
    }

    /// The optional components' masks, bit `k` of `bits` selecting `OPTIONAL[k]`.
    pub const OPTIONAL: [WorldMask; 10] = [
        O0_BIT, O1_BIT, O2_BIT, O3_BIT, O4_BIT, O5_BIT, O6_BIT, O7_BIT, O8_BIT, O9_BIT,
    ];

    /// The mask of archetype `bits`.
    pub fn mask(bits: u32) -> WorldMask {
        super::select(bits, &OPTIONAL) | POSITION | VELOCITY
    }

    /// Spawns `count` entities of archetype `bits`, values from `first` on.
    pub fn spawn(
        world: &mut World,
        bits: u32,
        first: usize,
        count: usize,
    ) -> Vec<archetypal::Entity> {
        let mut next = first;
        world.spawn_batch(mask(bits), count, |table, row| {
            let (position, velocity, value) = super::values(next);
            next += 1;
            table.position[row] = position;
            table.velocity[row] = velocity;
            super::fill_optional!(table, row, value, o0 o1 o2 o3 o4 o5 o6 o7 o8 o9);
        })
    }

    /// Every Position and `O0`.
    pub fn checksum(world: &World) -> u64 {
        let tables = world.tables();
        super::checksum(
            tables.iter().flat_map(|table| &table.position),
            tables.iter().flat_map(|table| &table.o0),
        )
    }
}

/// freecs's world.
pub mod freecs_mixed {
    pub use super::{O0, O1, O2, O3, O4, O5, O6, O7, O8, O9};
    pub use crate::components::{Position, Velocity};

    freecs::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            o0: O0 => O0_BIT, o1: O1 => O1_BIT, o2: O2 => O2_BIT, o3: O3 => O3_BIT,
            o4: O4 => O4_BIT, o5: O5 => O5_BIT, o6: O6 => O6_BIT, o7: O7 => O7_BIT,
            o8: O8 => O8_BIT, o9: O9 => O9_BIT,
        }
        Resources {}
    }

    /// The optional components' masks, bit `k` of `bits` selecting `OPTIONAL[k]`.
    pub const OPTIONAL: [u64; 10] = [
        O0_BIT, O1_BIT, O2_BIT, O3_BIT, O4_BIT, O5_BIT, O6_BIT, O7_BIT, O8_BIT, O9_BIT,
    ];

    /// The mask of archetype `bits`.
    pub fn mask(bits: u32) -> u64 {
        super::select(bits, &OPTIONAL) | POSITION | VELOCITY
    }

    /// Spawns `count` entities of archetype `bits`, values from `first` on.
    pub fn spawn(world: &mut World, bits: u32, first: usize, count: usize) -> Vec<freecs::Entity> {
        let mut next = first;
        world.spawn_batch(mask(bits), count, |table, row| {
            let (position, velocity, value) = super::values(next);
            next += 1;
            table.position[row] = position;
            table.velocity[row] = velocity;
            super::fill_optional!(table, row, value, o0 o1 o2 o3 o4 o5 o6 o7 o8 o9);
        })
    }

    /// Every Position and `O0`.
    pub fn checksum(world: &World) -> u64 {
        let tables = &world.tables;
        super::checksum(
            tables.iter().flat_map(|table| &table.position),
            tables.iter().flat_map(|table| &table.o0),
        )
    }
}

/// Writes `value` into every optional column a freshly spawned row's table has (a table
/// lacking a component has an empty column).
macro_rules! fill_optional {
    ($table:ident, $row:ident, $value:ident, $($column:ident)*) => {
        $(
            if let Some(slot) = $table.$column.get_mut($row) {
                slot.0 = $value;
            }
        )*
    };
}
use fill_optional;

/// The OR of `masks[k]` over the set bits `k` of `bits`.
fn select<M: Copy + core::ops::BitOr<Output = M> + Default>(bits: u32, masks: &[M]) -> M {
    masks
        .iter()
        .enumerate()
        .filter(|&(bit, _)| bits & (1 << bit) != 0)
        .fold(M::default(), |mask, (_, &bit)| mask | bit)
}

/// hecs: one entity of archetype `bits` through `EntityBuilder` (hecs's dynamic spawn).
pub fn hecs_spawn(
    world: &mut hecs::World,
    builder: &mut hecs::EntityBuilder,
    bits: u32,
    index: usize,
) -> hecs::Entity {
    let (position, velocity, value) = values(index);
    builder.add(position).add(velocity);
    macro_rules! optional {
        ($($bit:literal $name:ident)*) => {
            $( if bits & (1 << $bit) != 0 { builder.add($name(value)); } )*
        };
    }
    optional!(0 O0 1 O1 2 O2 3 O3 4 O4 5 O5 6 O6 7 O7 8 O8 9 O9);
    world.spawn(builder.build())
}

/// bevy_ecs: one entity of archetype `bits`: spawn with Position and Velocity, then insert
/// each optional component (bevy has no safe dynamic bundle; each insert is a migration).
pub fn bevy_spawn(
    world: &mut bevy_ecs::world::World,
    bits: u32,
    index: usize,
) -> bevy_ecs::entity::Entity {
    let (position, velocity, value) = values(index);
    let mut entity = world.spawn((position, velocity));
    macro_rules! optional {
        ($($bit:literal $name:ident)*) => {
            $( if bits & (1 << $bit) != 0 { entity.insert($name(value)); } )*
        };
    }
    optional!(0 O0 1 O1 2 O2 3 O3 4 O4 5 O5 6 O6 7 O7 8 O8 9 O9);
    entity.id()
}

/// flecs: `count` entities of archetype `bits` (values from `first` on) in one `entity_bulk`
/// (the optional components added by bit), then the values written in place through the new
/// rows' column slices, as `spawn_simple::flecs` does.
pub fn flecs_spawn(
    world: &flecs_ecs::prelude::World,
    bits: u32,
    first: usize,
    count: usize,
) -> Vec<flecs_ecs::prelude::Entity> {
    use flecs_ecs::prelude::TableOperations;
    let mut bulk = world.entity_bulk(count as u32);
    bulk.add::<Position>().add::<Velocity>();
    macro_rules! optional {
        ($($bit:literal $name:ident)*) => {
            $( if bits & (1 << $bit) != 0 { bulk.add::<$name>(); } )*
        };
    }
    optional!(0 O0 1 O1 2 O2 3 O3 4 O4 5 O5 6 O6 7 O7 8 O8 9 O9);
    let entities = bulk.build();
    let Some(rows) = crate::worlds::flecs_new_rows(world, &entities) else {
        return entities;
    };
    crate::worlds::flecs_write_moving(rows, |row| {
        let (position, velocity, _) = values(first + row);
        (position, velocity)
    });
    macro_rules! fill {
        ($($name:ident)*) => {
            $(
                let mut column = rows;
                if let Some(column) = column.get_mut::<$name>() {
                    for (index, value) in (first..).zip(column) {
                        value.0 = values(index).2;
                    }
                }
            )*
        };
    }
    fill!(O0 O1 O2 O3 O4 O5 O6 O7 O8 O9);
    entities
}

/// flecs's checksum.
pub fn flecs_checksum(world: &flecs_ecs::prelude::World) -> u64 {
    use flecs_ecs::prelude::QueryAPI;
    let (mut positions, mut o0) = (Vec::new(), Vec::new());
    world
        .new_query::<&Position>()
        .each(|position| positions.push(*position));
    world.new_query::<&O0>().each(|value| o0.push(*value));
    checksum(&positions, &o0)
}

/// The checksum of a mixed world: every Position and every `O0`.
pub fn checksum<'a>(
    positions: impl IntoIterator<Item = &'a Position>,
    o0: impl IntoIterator<Item = &'a O0>,
) -> u64 {
    let mut sum = Checksum::new();
    positions
        .into_iter()
        .for_each(|p| sum.vec3(field::POSITION, p.0));
    o0.into_iter().for_each(|o| sum.f32(O0_FIELD, o.0));
    sum.finish()
}

/// hecs's checksum.
pub fn hecs_checksum(world: &hecs::World) -> u64 {
    checksum(
        world.query::<&Position>().iter(),
        world.query::<&O0>().iter(),
    )
}

/// bevy_ecs's checksum.
pub fn bevy_checksum(world: &mut bevy_ecs::world::World) -> u64 {
    let positions: Vec<Position> = world.query::<&Position>().iter(world).copied().collect();
    let o0: Vec<O0> = world.query::<&O0>().iter(world).copied().collect();
    checksum(&positions, &o0)
}

/// A deterministic xorshift64* generator (the same sequence for every contender).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// bevy_ecs: `spawn_batch` of entities of archetype `bits` (of the first six optional
/// components), values `indices`, appending the handles to `out`. bevy's batch spawn needs the
/// bundle's type at compile time, so each of the 64 archetypes gets its own nested tuple type
/// (`(((Position, Velocity), O0), O2)`), chosen by one branch per bit.
pub fn bevy_spawn_batch_6(
    world: &mut bevy_ecs::world::World,
    bits: u32,
    indices: core::ops::Range<usize>,
    out: &mut Vec<bevy_ecs::entity::Entity>,
) {
    let base = |index: usize| {
        let (position, velocity, _) = values(index);
        (position, velocity)
    };
    macro_rules! level {
        ($make:expr;) => {
            out.extend(world.spawn_batch(indices.map($make)))
        };
        ($make:expr; $bit:literal $name:ident $($rest:tt)*) => {
            if bits & (1 << $bit) != 0 {
                level!(|index: usize| (($make)(index), $name(values(index).2)); $($rest)*)
            } else {
                level!($make; $($rest)*)
            }
        };
    }
    level!(base; 0 O0 1 O1 2 O2 3 O3 4 O4 5 O5);
}
