//! `fragmented_iter`: 26 component types `A`..`Z`, 20 entities of each, every entity also with
//! a shared `Data`; double every `Data`. 26 archetypes of 20 rows: the cost is per archetype
//! (query matching, loop setup), not per row. World setup is untimed.

use bevy_ecs::component::Component;
use bevy_ecs::query::QueryState;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::workloads::simple_iter::{BEVY_CONTIGUOUS, BEVY_PER_ITEM};
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities per letter type (ecs_bench_suite's size).
pub const PER_LETTER: usize = 20;

/// The shared component every entity has.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Data(pub f32);

macro_rules! letter_components {
    ($($letter:ident)*) => {
        $(
            #[doc = concat!("Letter component `", stringify!($letter), "`: one per archetype.")]
            #[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
            pub struct $letter(pub f32);
        )*
    };
}

letter_components!(A B C D E F G H I J K L M N O P Q R S T U V W X Y Z);

/// Calls `function::<L>(arguments)` for every letter type `L`, in order.
macro_rules! with_every_letter {
    ($function:ident($($argument:expr),*)) => {
        with_every_letter!(@each $function ($($argument),*) A B C D E F G H I J K L M N O P Q R S T U V W X Y Z)
    };
    (@each $function:ident $arguments:tt $($letter:ident)*) => {
        $( with_every_letter!(@one $function $arguments $letter); )*
    };
    (@one $function:ident ($($argument:expr),*) $letter:ident) => {
        $function::<$letter>($($argument),*)
    };
}

/// The `Data` value of the `index`-th spawned entity.
fn data(index: usize) -> Data {
    Data(index as f32 + 1.0)
}

fn data_checksum<'a>(values: impl IntoIterator<Item = &'a Data>) -> u64 {
    let mut sum = Checksum::new();
    values.into_iter().for_each(|data| sum.f32(0, data.0));
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "fragmented_iter",
        description: "data *= 2 over 26 archetypes x 20 entities",
        contenders: vec![
            archetypal(),
            archetypal_for_each_mut(),
            hecs(),
            bevy(),
            bevy_iter_mut(),
            freecs(),
            flecs(),
            vec_baseline(),
            vecs_per_letter(),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's fragmented world.
pub mod archetypal_world {
    use super::*;

    archetypal::ecs! {
        World {
            a: A => LETTER_A, b: B => LETTER_B, c: C => LETTER_C, d: D => LETTER_D,
            e: E => LETTER_E, f: F => LETTER_F, g: G => LETTER_G, h: H => LETTER_H,
            i: I => LETTER_I, j: J => LETTER_J, k: K => LETTER_K, l: L => LETTER_L,
            m: M => LETTER_M, n: N => LETTER_N, o: O => LETTER_O, p: P => LETTER_P,
            q: Q => LETTER_Q, r: R => LETTER_R, s: S => LETTER_S, t: T => LETTER_T,
            u: U => LETTER_U, v: V => LETTER_V, w: W => LETTER_W, x: X => LETTER_X,
            y: Y => LETTER_Y, z: Z => LETTER_Z,
            data: Data => DATA,
        }
    }

    /// Every letter's mask, in order.
    pub const LETTERS: [WorldMask; 26] = [
        LETTER_A, LETTER_B, LETTER_C, LETTER_D, LETTER_E, LETTER_F, LETTER_G, LETTER_H, LETTER_I,
        LETTER_J, LETTER_K, LETTER_L, LETTER_M, LETTER_N, LETTER_O, LETTER_P, LETTER_Q, LETTER_R,
        LETTER_S, LETTER_T, LETTER_U, LETTER_V, LETTER_W, LETTER_X, LETTER_Y, LETTER_Z,
    ];

    /// 20 entities per letter, each with that letter and `Data`.
    pub fn new() -> World {
        let mut world = World::new();
        let mut next = 0;
        for letter in LETTERS {
            world.spawn_batch(letter | DATA, super::PER_LETTER, |table, row| {
                table.data[row] = super::data(next);
                next += 1;
            });
        }
        world
    }

    /// Checksum of every `Data`.
    pub fn checksum(world: &World) -> u64 {
        super::data_checksum(world.tables().iter().flat_map(|table| &table.data))
    }
}

struct ArchetypalTables(archetypal_world::World);

impl Pass for ArchetypalTables {
    fn run(&mut self) {
        self.0
            .for_each_table_mut(archetypal_world::DATA, 0, |table| {
                for data in table.data.iter_mut() {
                    data.0 *= 2.0;
                }
            });
    }
    fn checksum(&mut self) -> u64 {
        archetypal_world::checksum(&self.0)
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "for_each_table_mut + slice loop",
        kind: Kind::Archetypal,
        setup: || Box::new(ArchetypalTables(archetypal_world::new())),
    }
}

struct ArchetypalRows(archetypal_world::World);

impl Pass for ArchetypalRows {
    fn run(&mut self) {
        self.0
            .for_each_mut(archetypal_world::DATA, 0, |_entity, table, index| {
                table.data[index].0 *= 2.0;
            });
    }
    fn checksum(&mut self) -> u64 {
        archetypal_world::checksum(&self.0)
    }
}

fn archetypal_for_each_mut() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "for_each_mut(|entity, table, index| ..)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalRows(archetypal_world::new())),
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

fn spawn_hecs<Letter: hecs::Component + Default>(world: &mut hecs::World, next: &mut usize) {
    let first = *next;
    *next += PER_LETTER;
    world.spawn_batch((first..*next).map(|index| (Letter::default(), data(index))));
}

impl Pass for Hecs {
    fn run(&mut self) {
        for data in self.0.query_mut::<&mut Data>() {
            data.0 *= 2.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        data_checksum(self.0.query::<&Data>().iter())
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "query_mut::<&mut Data>()",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            let mut next = 0;
            with_every_letter!(spawn_hecs(&mut world, &mut next));
            Box::new(Hecs(world))
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<&'static mut Data>,
}

fn spawn_bevy<Letter: Component + Default>(world: &mut bevy_ecs::world::World, next: &mut usize) {
    let first = *next;
    *next += PER_LETTER;
    world.spawn_batch((first..*next).map(|index| (Letter::default(), data(index))));
}

impl Bevy {
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let mut next = 0;
        with_every_letter!(spawn_bevy(&mut world, &mut next));
        let query = world.query::<&mut Data>();
        Bevy { world, query }
    }
    fn checksum(&mut self) -> u64 {
        let mut query = self.world.query::<&Data>();
        data_checksum(query.iter(&self.world))
    }
}

struct BevyContiguous(Bevy);

impl Pass for BevyContiguous {
    fn run(&mut self) {
        let bevy = &mut self.0;
        let tables = bevy
            .query
            .contiguous_iter_mut(&mut bevy.world)
            .expect("a table component: the query is dense");
        for mut table in tables {
            for data in table.iter_mut() {
                data.0 *= 2.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

struct BevyPerItem(Bevy);

impl Pass for BevyPerItem {
    fn run(&mut self) {
        let bevy = &mut self.0;
        bevy.query
            .iter_mut(&mut bevy.world)
            .for_each(|mut data| data.0 *= 2.0);
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: BEVY_CONTIGUOUS,
        kind: Kind::Peer,
        setup: || Box::new(BevyContiguous(Bevy::new())),
    }
}

fn bevy_iter_mut() -> Contender {
    Contender {
        name: "bevy_ecs iter_mut",
        api: BEVY_PER_ITEM,
        kind: Kind::Peer,
        setup: || Box::new(BevyPerItem(Bevy::new())),
    }
}

// ----- freecs -------------------------------------------------------------------------------

/// freecs's fragmented world.
pub mod freecs_world {
    // The letter types are named by path: a bare `R` or `F` would be captured by the generic
    // parameters of the generated methods (`modify_r<R>`, freecs's `<F>`).
    freecs::ecs! {
        World {
            a: super::A => LETTER_A, b: super::B => LETTER_B, c: super::C => LETTER_C, d: super::D => LETTER_D,
            e: super::E => LETTER_E, f: super::F => LETTER_F, g: super::G => LETTER_G, h: super::H => LETTER_H,
            i: super::I => LETTER_I, j: super::J => LETTER_J, k: super::K => LETTER_K, l: super::L => LETTER_L,
            m: super::M => LETTER_M, n: super::N => LETTER_N, o: super::O => LETTER_O, p: super::P => LETTER_P,
            q: super::Q => LETTER_Q, r: super::R => LETTER_R, s: super::S => LETTER_S, t: super::T => LETTER_T,
            u: super::U => LETTER_U, v: super::V => LETTER_V, w: super::W => LETTER_W, x: super::X => LETTER_X,
            y: super::Y => LETTER_Y, z: super::Z => LETTER_Z,
            data: super::Data => DATA,
        }
        Resources {}
    }

    /// Every letter's mask, in order.
    pub const LETTERS: [u64; 26] = [
        LETTER_A, LETTER_B, LETTER_C, LETTER_D, LETTER_E, LETTER_F, LETTER_G, LETTER_H, LETTER_I,
        LETTER_J, LETTER_K, LETTER_L, LETTER_M, LETTER_N, LETTER_O, LETTER_P, LETTER_Q, LETTER_R,
        LETTER_S, LETTER_T, LETTER_U, LETTER_V, LETTER_W, LETTER_X, LETTER_Y, LETTER_Z,
    ];

    /// 20 entities per letter, each with that letter and `Data`.
    pub fn new() -> World {
        let mut world = World::default();
        let mut next = 0;
        for letter in LETTERS {
            world.spawn_batch(letter | DATA, super::PER_LETTER, |table, row| {
                table.data[row] = super::data(next);
                next += 1;
            });
        }
        world
    }
}

struct Freecs(freecs_world::World);

impl Pass for Freecs {
    fn run(&mut self) {
        self.0.for_each_data_mut(|data| data.0 *= 2.0);
    }
    fn checksum(&mut self) -> u64 {
        data_checksum(self.0.tables.iter().flat_map(|table| &table.data))
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "for_each_data_mut(|data| ..) (cached tables, its per-component loop)",
        kind: Kind::Peer,
        setup: || Box::new(Freecs(freecs_world::new())),
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    // Declared before the world, so it is dropped first: a query must not outlive its world.
    query: flecs_ecs::prelude::Query<&'static mut Data>,
    world: flecs_ecs::prelude::World,
}

/// 20 entities with `Letter` and `Data` (defaults), then their `Data` written in place.
fn spawn_flecs<Letter: flecs_ecs::prelude::ComponentOrPairId>(
    world: &flecs_ecs::prelude::World,
    next: &mut usize,
) {
    use flecs_ecs::prelude::TableOperations;
    let entities = world
        .entity_bulk(PER_LETTER as u32)
        .add::<Letter>()
        .add::<Data>()
        .build();
    let mut rows = crate::worlds::flecs_new_rows(world, &entities).expect("20 entities");
    for value in rows.get_mut::<Data>().expect("a Data column") {
        *value = data(*next);
        *next += 1;
    }
}

impl Pass for Flecs {
    /// `each` on the cached query: with 20 rows per table the per-table cost dominates, and
    /// `each` measured a few percent ahead of `run` with `field_mut` slices (simple_iter's loop).
    fn run(&mut self) {
        use flecs_ecs::prelude::QueryAPI;
        self.query.each(|data| data.0 *= 2.0);
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut values = Vec::new();
        self.world
            .new_query::<&Data>()
            .each(|data| values.push(*data));
        data_checksum(&values)
    }
}

fn flecs() -> Contender {
    Contender {
        name: "flecs",
        api: "cached query, each(|data| ..)",
        kind: Kind::Peer,
        setup: || {
            use flecs_ecs::prelude::{Builder, QueryBuilderImpl};
            let world = flecs_ecs::prelude::World::new();
            let mut next = 0;
            with_every_letter!(spawn_flecs(&world, &mut next));
            let query = world.query::<&mut Data>().set_cached().build();
            Box::new(Flecs { query, world })
        },
    }
}

// ----- baseline -----------------------------------------------------------------------------

struct Vecs(Vec<Data>);

impl Pass for Vecs {
    fn run(&mut self) {
        for data in self.0.iter_mut() {
            data.0 *= 2.0;
        }
    }
    fn checksum(&mut self) -> u64 {
        data_checksum(&self.0)
    }
}

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "one Vec<Data> of 520 (no fragmentation)",
        kind: Kind::Baseline,
        setup: || Box::new(Vecs((0..26 * PER_LETTER).map(data).collect())),
    }
}

/// The same 520 values split as the ECSs hold them, one `Vec` of 20 per letter, with no ECS
/// around them: the floor of iterating 26 short slices (a loop's setup and tail per slice).
struct VecPerLetter(Vec<Vec<Data>>);

impl Pass for VecPerLetter {
    fn run(&mut self) {
        for letter in &mut self.0 {
            for data in letter.iter_mut() {
                data.0 *= 2.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        data_checksum(&self.0.concat())
    }
}

fn vecs_per_letter() -> Contender {
    Contender {
        name: "Vec per letter",
        api: "26 Vec<Data> of 20 (the fragmentation, no ECS)",
        kind: Kind::Baseline,
        setup: || {
            let values: Vec<Data> = (0..26 * PER_LETTER).map(data).collect();
            Box::new(VecPerLetter(
                values.chunks(PER_LETTER).map(<[Data]>::to_vec).collect(),
            ))
        },
    }
}
