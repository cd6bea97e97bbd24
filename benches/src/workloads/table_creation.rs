//! `table_creation` and `table_creation_128`: a new world, then one spawn into each of 4,000
//! new tables, whose masks differ only in their lowest 12 bits (the reference) or only in
//! their highest 12 bits, in a world of 63 components (a `u64` mask) and one of 127 (a
//! `u128` mask; a mask's top bit marks disabled entities, so these are the widest worlds). Every table created looks up its neighbour across each component bit, so
//! the pass is dominated by the mask-keyed table lookup: the ratio of the two rows is the
//! test that the lookup's hasher mixes high bits as well as low ones (a hasher blind to the
//! high bits makes the high-bit row quadratic). No peer: this measures archetypal against
//! itself.

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Tables created per pass: 12-bit patterns 1 to 4,000.
pub const TABLES: u32 = 4_000;

/// Bits the masks vary in.
const VARYING_BITS: u32 = 12;

/// The 63-component world (a `u64` mask: its top bit marks disabled entities).
pub mod world_64 {
    archetypal::ecs! {
        World {
            c0: u8 => C0, c1: u8 => C1, c2: u8 => C2, c3: u8 => C3, c4: u8 => C4, c5: u8 => C5,
            c6: u8 => C6, c7: u8 => C7, c8: u8 => C8, c9: u8 => C9, c10: u8 => C10, c11: u8 => C11,
            c12: u8 => C12, c13: u8 => C13, c14: u8 => C14, c15: u8 => C15, c16: u8 => C16, c17: u8 => C17,
            c18: u8 => C18, c19: u8 => C19, c20: u8 => C20, c21: u8 => C21, c22: u8 => C22, c23: u8 => C23,
            c24: u8 => C24, c25: u8 => C25, c26: u8 => C26, c27: u8 => C27, c28: u8 => C28, c29: u8 => C29,
            c30: u8 => C30, c31: u8 => C31, c32: u8 => C32, c33: u8 => C33, c34: u8 => C34, c35: u8 => C35,
            c36: u8 => C36, c37: u8 => C37, c38: u8 => C38, c39: u8 => C39, c40: u8 => C40, c41: u8 => C41,
            c42: u8 => C42, c43: u8 => C43, c44: u8 => C44, c45: u8 => C45, c46: u8 => C46, c47: u8 => C47,
            c48: u8 => C48, c49: u8 => C49, c50: u8 => C50, c51: u8 => C51, c52: u8 => C52, c53: u8 => C53,
            c54: u8 => C54, c55: u8 => C55, c56: u8 => C56, c57: u8 => C57, c58: u8 => C58, c59: u8 => C59,
            c60: u8 => C60, c61: u8 => C61, c62: u8 => C62,
        }
    }
}

/// The 127-component world (a `u128` mask: its top bit marks disabled entities).
pub mod world_128 {
    archetypal::ecs! {
        World {
            c0: u8 => C0, c1: u8 => C1, c2: u8 => C2, c3: u8 => C3, c4: u8 => C4, c5: u8 => C5,
            c6: u8 => C6, c7: u8 => C7, c8: u8 => C8, c9: u8 => C9, c10: u8 => C10, c11: u8 => C11,
            c12: u8 => C12, c13: u8 => C13, c14: u8 => C14, c15: u8 => C15, c16: u8 => C16, c17: u8 => C17,
            c18: u8 => C18, c19: u8 => C19, c20: u8 => C20, c21: u8 => C21, c22: u8 => C22, c23: u8 => C23,
            c24: u8 => C24, c25: u8 => C25, c26: u8 => C26, c27: u8 => C27, c28: u8 => C28, c29: u8 => C29,
            c30: u8 => C30, c31: u8 => C31, c32: u8 => C32, c33: u8 => C33, c34: u8 => C34, c35: u8 => C35,
            c36: u8 => C36, c37: u8 => C37, c38: u8 => C38, c39: u8 => C39, c40: u8 => C40, c41: u8 => C41,
            c42: u8 => C42, c43: u8 => C43, c44: u8 => C44, c45: u8 => C45, c46: u8 => C46, c47: u8 => C47,
            c48: u8 => C48, c49: u8 => C49, c50: u8 => C50, c51: u8 => C51, c52: u8 => C52, c53: u8 => C53,
            c54: u8 => C54, c55: u8 => C55, c56: u8 => C56, c57: u8 => C57, c58: u8 => C58, c59: u8 => C59,
            c60: u8 => C60, c61: u8 => C61, c62: u8 => C62, c63: u8 => C63, c64: u8 => C64, c65: u8 => C65,
            c66: u8 => C66, c67: u8 => C67, c68: u8 => C68, c69: u8 => C69, c70: u8 => C70, c71: u8 => C71,
            c72: u8 => C72, c73: u8 => C73, c74: u8 => C74, c75: u8 => C75, c76: u8 => C76, c77: u8 => C77,
            c78: u8 => C78, c79: u8 => C79, c80: u8 => C80, c81: u8 => C81, c82: u8 => C82, c83: u8 => C83,
            c84: u8 => C84, c85: u8 => C85, c86: u8 => C86, c87: u8 => C87, c88: u8 => C88, c89: u8 => C89,
            c90: u8 => C90, c91: u8 => C91, c92: u8 => C92, c93: u8 => C93, c94: u8 => C94, c95: u8 => C95,
            c96: u8 => C96, c97: u8 => C97, c98: u8 => C98, c99: u8 => C99, c100: u8 => C100, c101: u8 => C101,
            c102: u8 => C102, c103: u8 => C103, c104: u8 => C104, c105: u8 => C105, c106: u8 => C106, c107: u8 => C107,
            c108: u8 => C108, c109: u8 => C109, c110: u8 => C110, c111: u8 => C111, c112: u8 => C112, c113: u8 => C113,
            c114: u8 => C114, c115: u8 => C115, c116: u8 => C116, c117: u8 => C117, c118: u8 => C118, c119: u8 => C119,
            c120: u8 => C120, c121: u8 => C121, c122: u8 => C122, c123: u8 => C123, c124: u8 => C124, c125: u8 => C125,
            c126: u8 => C126,
        }
    }
}

/// The workload of the 64-component world.
pub fn workload() -> Workload {
    Workload {
        name: "table_creation",
        description: "new 63-component world, one spawn into each of 4,000 new tables: masks differing in bits 0..12 vs in bits 51..63",
        contenders: vec![low_64(), high_64()],
    }
}

/// The workload of the 128-component world.
pub fn workload_128() -> Workload {
    Workload {
        name: "table_creation_128",
        description: "new 127-component world, one spawn into each of 4,000 new tables: masks differing in bits 0..12 vs in bits 115..127",
        contenders: vec![low_128(), high_128()],
    }
}

/// Checksum of a world built by a pass: its table count and the sum of its tables' component
/// counts (the same whichever bits the masks use).
fn checksum(tables: usize, components: u64, entities: usize) -> u64 {
    let mut sum = Checksum::new();
    sum.count(0, tables as u64);
    sum.count(1, components);
    sum.count(2, entities as u64);
    sum.finish()
}

/// The world of the last pass and the bit the masks' varying pattern starts at.
struct Creation<W> {
    world: Option<W>,
    shift: u32,
}

macro_rules! creation_pass {
    ($module:ident, $mask:ty) => {
        impl Pass for Creation<$module::World> {
            fn run(&mut self) {
                let mut world = $module::World::new();
                for pattern in 1..=TABLES {
                    world.spawn(<$mask>::from(pattern) << self.shift);
                }
                self.world = Some(world);
            }
            fn checksum(&mut self) -> u64 {
                let world = self.world.as_ref().expect("run first");
                let tables = world.tables();
                checksum(
                    tables.len(),
                    tables
                        .iter()
                        .map(|table| u64::from(table.mask.count_ones()))
                        .sum(),
                    world.entity_count(),
                )
            }
        }
    };
}

creation_pass!(world_64, u64);
creation_pass!(world_128, u128);

fn contender(name: &'static str, kind: Kind, setup: fn() -> Box<dyn Pass>) -> Contender {
    Contender {
        name,
        api: "spawn(mask) into a new table",
        kind,
        setup,
    }
}

fn low_64() -> Contender {
    contender("archetypal, low bits", Kind::Archetypal, || {
        Box::new(Creation::<world_64::World> {
            world: None,
            shift: 0,
        })
    })
}

fn high_64() -> Contender {
    contender("archetypal, high bits", Kind::ArchetypalVariant, || {
        Box::new(Creation::<world_64::World> {
            world: None,
            shift: 63 - VARYING_BITS,
        })
    })
}

fn low_128() -> Contender {
    contender("archetypal, low bits", Kind::Archetypal, || {
        Box::new(Creation::<world_128::World> {
            world: None,
            shift: 0,
        })
    })
}

fn high_128() -> Contender {
    contender("archetypal, high bits", Kind::ArchetypalVariant, || {
        Box::new(Creation::<world_128::World> {
            world: None,
            shift: 127 - VARYING_BITS,
        })
    })
}
