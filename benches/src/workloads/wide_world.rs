//! `wide_world_iter` and `wide_world_add_remove`: `simple_iter`'s and `add_remove`'s passes in
//! a world of 128 component types (Position, Velocity and `W0`..`W125`, one `f32` each):
//! archetypal with `u128` masks, declaring 127 of them (all but `W0`: the mask's top bit marks
//! disabled entities); hecs and bevy_ecs with the same 128 types (freecs stops at
//! 64 components). The entities live in the high bits too: each has Position, Velocity and
//! `W125`; `wide_world_add_remove` adds and removes `W100`. World setup is untimed.

use bevy_ecs::component::Component;
use bevy_ecs::query::{QueryState, With};

use crate::components::{Position, SIMPLE_ENTITIES, Velocity, field};
use crate::mixed;
use crate::{Checksum, Contender, Kind, Pass, Workload};

macro_rules! wide_components {
    ($($name:ident)*) => {
        $(
            #[doc = concat!("Wide-world component `", stringify!($name), "`: one `f32`.")]
            #[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
            pub struct $name(pub f32);
        )*
    };
}

wide_components!(W0 W1 W2 W3 W4 W5 W6 W7 W8 W9 W10 W11 W12 W13 W14 W15 W16 W17 W18 W19 W20 W21 W22 W23 W24 W25 W26 W27 W28 W29 W30 W31 W32 W33 W34 W35 W36 W37 W38 W39 W40 W41 W42 W43 W44 W45 W46 W47 W48 W49 W50 W51 W52 W53 W54 W55 W56 W57 W58 W59 W60 W61 W62 W63 W64 W65 W66 W67 W68 W69 W70 W71 W72 W73 W74 W75 W76 W77 W78 W79 W80 W81 W82 W83 W84 W85 W86 W87 W88 W89 W90 W91 W92 W93 W94 W95 W96 W97 W98 W99 W100 W101 W102 W103 W104 W105 W106 W107 W108 W109 W110 W111 W112 W113 W114 W115 W116 W117 W118 W119 W120 W121 W122 W123 W124 W125);

/// archetypal's 127-component world (`W0` left out: a mask's top bit marks disabled entities).
pub mod archetypal_wide {
    pub use super::*;

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            w1: W1 => W1_BIT, w2: W2 => W2_BIT, w3: W3 => W3_BIT,
            w4: W4 => W4_BIT, w5: W5 => W5_BIT, w6: W6 => W6_BIT, w7: W7 => W7_BIT,
            w8: W8 => W8_BIT, w9: W9 => W9_BIT, w10: W10 => W10_BIT, w11: W11 => W11_BIT,
            w12: W12 => W12_BIT, w13: W13 => W13_BIT, w14: W14 => W14_BIT, w15: W15 => W15_BIT,
            w16: W16 => W16_BIT, w17: W17 => W17_BIT, w18: W18 => W18_BIT, w19: W19 => W19_BIT,
            w20: W20 => W20_BIT, w21: W21 => W21_BIT, w22: W22 => W22_BIT, w23: W23 => W23_BIT,
            w24: W24 => W24_BIT, w25: W25 => W25_BIT, w26: W26 => W26_BIT, w27: W27 => W27_BIT,
            w28: W28 => W28_BIT, w29: W29 => W29_BIT, w30: W30 => W30_BIT, w31: W31 => W31_BIT,
            w32: W32 => W32_BIT, w33: W33 => W33_BIT, w34: W34 => W34_BIT, w35: W35 => W35_BIT,
            w36: W36 => W36_BIT, w37: W37 => W37_BIT, w38: W38 => W38_BIT, w39: W39 => W39_BIT,
            w40: W40 => W40_BIT, w41: W41 => W41_BIT, w42: W42 => W42_BIT, w43: W43 => W43_BIT,
            w44: W44 => W44_BIT, w45: W45 => W45_BIT, w46: W46 => W46_BIT, w47: W47 => W47_BIT,
            w48: W48 => W48_BIT, w49: W49 => W49_BIT, w50: W50 => W50_BIT, w51: W51 => W51_BIT,
            w52: W52 => W52_BIT, w53: W53 => W53_BIT, w54: W54 => W54_BIT, w55: W55 => W55_BIT,
            w56: W56 => W56_BIT, w57: W57 => W57_BIT, w58: W58 => W58_BIT, w59: W59 => W59_BIT,
            w60: W60 => W60_BIT, w61: W61 => W61_BIT, w62: W62 => W62_BIT, w63: W63 => W63_BIT,
            w64: W64 => W64_BIT, w65: W65 => W65_BIT, w66: W66 => W66_BIT, w67: W67 => W67_BIT,
            w68: W68 => W68_BIT, w69: W69 => W69_BIT, w70: W70 => W70_BIT, w71: W71 => W71_BIT,
            w72: W72 => W72_BIT, w73: W73 => W73_BIT, w74: W74 => W74_BIT, w75: W75 => W75_BIT,
            w76: W76 => W76_BIT, w77: W77 => W77_BIT, w78: W78 => W78_BIT, w79: W79 => W79_BIT,
            w80: W80 => W80_BIT, w81: W81 => W81_BIT, w82: W82 => W82_BIT, w83: W83 => W83_BIT,
            w84: W84 => W84_BIT, w85: W85 => W85_BIT, w86: W86 => W86_BIT, w87: W87 => W87_BIT,
            w88: W88 => W88_BIT, w89: W89 => W89_BIT, w90: W90 => W90_BIT, w91: W91 => W91_BIT,
            w92: W92 => W92_BIT, w93: W93 => W93_BIT, w94: W94 => W94_BIT, w95: W95 => W95_BIT,
            w96: W96 => W96_BIT, w97: W97 => W97_BIT, w98: W98 => W98_BIT, w99: W99 => W99_BIT,
            w100: W100 => W100_BIT, w101: W101 => W101_BIT, w102: W102 => W102_BIT, w103: W103 => W103_BIT,
            w104: W104 => W104_BIT, w105: W105 => W105_BIT, w106: W106 => W106_BIT, w107: W107 => W107_BIT,
            w108: W108 => W108_BIT, w109: W109 => W109_BIT, w110: W110 => W110_BIT, w111: W111 => W111_BIT,
            w112: W112 => W112_BIT, w113: W113 => W113_BIT, w114: W114 => W114_BIT, w115: W115 => W115_BIT,
            w116: W116 => W116_BIT, w117: W117 => W117_BIT, w118: W118 => W118_BIT, w119: W119 => W119_BIT,
            w120: W120 => W120_BIT, w121: W121 => W121_BIT, w122: W122 => W122_BIT, w123: W123 => W123_BIT,
            w124: W124 => W124_BIT, w125: W125 => W125_BIT,
        }
    }
}

/// The workloads and their contenders.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "wide_world_iter",
            description: "position += velocity over 10,000 entities (P, V, W125) of a 128-component world",
            contenders: vec![
                contender::<Archetypal, Iter>(
                    "archetypal",
                    "for_each_table_mut + slice zip (u128 masks)",
                    Kind::Archetypal,
                ),
                contender::<Hecs, Iter>("hecs", "query_mut::<(&mut P, &V)>()", Kind::Peer),
                contender::<Bevy, Iter>(
                    "bevy_ecs",
                    "cached QueryState::contiguous_iter_mut + slice zip",
                    Kind::Peer,
                ),
            ],
        },
        Workload {
            name: "wide_world_add_remove",
            description: "add W100 to 10,000 entities (P, V, W125) of a 128-component world, then remove it",
            contenders: vec![
                contender::<Archetypal, AddRemove>(
                    "archetypal",
                    "add_components(e, W100) / remove_components(e, W100)",
                    Kind::Archetypal,
                ),
                contender::<Hecs, AddRemove>(
                    "hecs",
                    "insert_one(e, W100) / remove_one::<W100>(e)",
                    Kind::Peer,
                ),
                contender::<Bevy, AddRemove>(
                    "bevy_ecs",
                    "entity_mut(e).insert(W100) / .remove::<W100>()",
                    Kind::Peer,
                ),
            ],
        },
    ]
}

/// What the two passes need of a crate.
trait WideWorld: 'static {
    /// The crate's handle.
    type Entity: Copy;
    /// [`SIMPLE_ENTITIES`] entities with Position, Velocity (simple_iter's values) and `W125`.
    fn new() -> (Self, Vec<Self::Entity>)
    where
        Self: Sized;
    /// `position += velocity` over every entity.
    fn iterate(&mut self);
    /// Adds `W100` to every one of `entities`, then removes it; returns how many entities held
    /// it after the add half.
    fn add_remove(&mut self, entities: &[Self::Entity]) -> u64;
    /// Every Position, and how many entities have `W100` (0 between passes).
    fn checksum(&mut self) -> (Checksum, u64);
}

/// Which pass a contender times.
trait WidePass: 'static {
    /// Runs the pass; returns the rows moved (0 for iteration).
    fn run<W: WideWorld>(world: &mut W, entities: &[W::Entity]) -> u64;
}

struct Iter;

impl WidePass for Iter {
    fn run<W: WideWorld>(world: &mut W, _entities: &[W::Entity]) -> u64 {
        world.iterate();
        0
    }
}

struct AddRemove;

impl WidePass for AddRemove {
    fn run<W: WideWorld>(world: &mut W, entities: &[W::Entity]) -> u64 {
        world.add_remove(entities)
    }
}

struct Wide<W: WideWorld, P> {
    world: W,
    entities: Vec<W::Entity>,
    moved: u64,
    pass: core::marker::PhantomData<P>,
}

impl<W: WideWorld, P: WidePass> Pass for Wide<W, P> {
    fn run(&mut self) {
        self.moved += P::run(&mut self.world, &self.entities);
    }
    fn checksum(&mut self) -> u64 {
        let (mut sum, with_w100) = self.world.checksum();
        sum.count(1, with_w100);
        sum.count(2, self.moved);
        sum.finish()
    }
}

fn contender<W: WideWorld, P: WidePass>(
    name: &'static str,
    api: &'static str,
    kind: Kind,
) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            let (world, entities) = W::new();
            Box::new(Wide::<W, P> {
                world,
                entities,
                moved: 0,
                pass: core::marker::PhantomData,
            })
        },
    }
}

fn positions_checksum<'a>(positions: impl IntoIterator<Item = &'a Position>) -> Checksum {
    let mut sum = Checksum::new();
    positions
        .into_iter()
        .for_each(|p| sum.vec3(field::POSITION, p.0));
    sum
}

// ----- the crates ---------------------------------------------------------------------------

struct Archetypal(archetypal_wide::World);

impl WideWorld for Archetypal {
    type Entity = archetypal::Entity;
    fn new() -> (Self, Vec<Self::Entity>) {
        use archetypal_wide::{POSITION, VELOCITY, W125_BIT};
        let mut world = archetypal_wide::World::new();
        let mut next = 0;
        let entities = world.spawn_batch(
            POSITION | VELOCITY | W125_BIT,
            SIMPLE_ENTITIES,
            |table, row| {
                let (position, velocity, _) = mixed::values(next);
                next += 1;
                table.position[row] = position;
                table.velocity[row] = velocity;
            },
        );
        (Archetypal(world), entities)
    }
    fn iterate(&mut self) {
        use archetypal_wide::{POSITION, VELOCITY};
        self.0.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
            for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
                position.0 += velocity.0;
            }
        });
    }
    fn add_remove(&mut self, entities: &[Self::Entity]) -> u64 {
        for &entity in entities {
            self.0.add_components(entity, archetypal_wide::W100_BIT);
        }
        let moved = self
            .0
            .tables()
            .iter()
            .map(|table| table.w100.len() as u64)
            .sum();
        for &entity in entities {
            self.0.remove_components(entity, archetypal_wide::W100_BIT);
        }
        moved
    }
    fn checksum(&mut self) -> (Checksum, u64) {
        let tables = self.0.tables();
        (
            positions_checksum(tables.iter().flat_map(|table| &table.position)),
            tables.iter().map(|table| table.w100.len() as u64).sum(),
        )
    }
}

struct Hecs(hecs::World);

impl WideWorld for Hecs {
    type Entity = hecs::Entity;
    fn new() -> (Self, Vec<Self::Entity>) {
        let mut world = hecs::World::new();
        let entities = world
            .spawn_batch((0..SIMPLE_ENTITIES).map(|index| {
                let (position, velocity, _) = mixed::values(index);
                (position, velocity, W125::default())
            }))
            .collect();
        (Hecs(world), entities)
    }
    fn iterate(&mut self) {
        for (position, velocity) in self.0.query_mut::<(&mut Position, &Velocity)>() {
            position.0 += velocity.0;
        }
    }
    fn add_remove(&mut self, entities: &[Self::Entity]) -> u64 {
        for &entity in entities {
            self.0.insert_one(entity, W100(0.0)).expect("alive");
        }
        let moved = self.0.query_mut::<&W100>().into_iter().len() as u64;
        for &entity in entities {
            self.0.remove_one::<W100>(entity).expect("has W100");
        }
        moved
    }
    fn checksum(&mut self) -> (Checksum, u64) {
        (
            positions_checksum(self.0.query::<&Position>().iter()),
            self.0.query::<&W100>().iter().count() as u64,
        )
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static Velocity)>,
    with_w100: QueryState<(), With<W100>>,
}

impl WideWorld for Bevy {
    type Entity = bevy_ecs::entity::Entity;
    fn new() -> (Self, Vec<Self::Entity>) {
        let mut world = bevy_ecs::world::World::new();
        let entities = world
            .spawn_batch((0..SIMPLE_ENTITIES).map(|index| {
                let (position, velocity, _) = mixed::values(index);
                (position, velocity, W125::default())
            }))
            .collect();
        let query = world.query::<(&mut Position, &Velocity)>();
        let with_w100 = world.query_filtered::<(), With<W100>>();
        (
            Bevy {
                world,
                query,
                with_w100,
            },
            entities,
        )
    }
    fn iterate(&mut self) {
        let tables = self
            .query
            .contiguous_iter_mut(&mut self.world)
            .expect("table components: the query is dense");
        for (mut positions, velocities) in tables {
            for (position, velocity) in positions.iter_mut().zip(velocities) {
                position.0 += velocity.0;
            }
        }
    }
    fn add_remove(&mut self, entities: &[Self::Entity]) -> u64 {
        for &entity in entities {
            self.world.entity_mut(entity).insert(W100(0.0));
        }
        let moved = self.with_w100.query(&self.world).count() as u64;
        for &entity in entities {
            self.world.entity_mut(entity).remove::<W100>();
        }
        moved
    }
    fn checksum(&mut self) -> (Checksum, u64) {
        let positions: Vec<Position> = self
            .world
            .query::<&Position>()
            .iter(&self.world)
            .copied()
            .collect();
        let with_w100 = self.with_w100.query(&self.world).count() as u64;
        (positions_checksum(&positions), with_w100)
    }
}
