//! The world's components and tags, generically: one enum over them, and a bump (a change
//! every writing pass makes) per component type.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comp {
    Health,
    Level,
    Name,
    Pos,
    Flags,
    Scratch,
}

pub(crate) const COMPS: [Comp; 6] = [
    Comp::Health,
    Comp::Level,
    Comp::Name,
    Comp::Pos,
    Comp::Flags,
    Comp::Scratch,
];

impl Comp {
    /// Position in [`COMPS`] (and in [`ModelEntity::stamps`]).
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn bit(self) -> u64 {
        match self {
            Comp::Health => HEALTH,
            Comp::Level => LEVEL,
            Comp::Name => NAME,
            Comp::Pos => POS,
            Comp::Flags => FLAGS,
            Comp::Scratch => SCRATCH,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Hero,
    Marked,
}

pub(crate) const TAG_LIST: [Tag; 2] = [Tag::Hero, Tag::Marked];

impl Tag {
    pub(crate) fn bit(self) -> u64 {
        match self {
            Tag::Hero => HERO,
            Tag::Marked => MARKED,
        }
    }
}

/// One component value, of any component.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Value {
    Health(Health),
    Level(Level),
    Name(Name),
    Pos(Pos),
    Flags(Flags),
    Scratch(Scratch),
}

impl Value {
    pub(crate) fn comp(&self) -> Comp {
        match self {
            Value::Health(_) => Comp::Health,
            Value::Level(_) => Comp::Level,
            Value::Name(_) => Comp::Name,
            Value::Pos(_) => Comp::Pos,
            Value::Flags(_) => Comp::Flags,
            Value::Scratch(_) => Comp::Scratch,
        }
    }

    pub(crate) fn default_of(comp: Comp) -> Value {
        match comp {
            Comp::Health => Value::Health(Health::default()),
            Comp::Level => Value::Level(Level::default()),
            Comp::Name => Value::Name(Name::default()),
            Comp::Pos => Value::Pos(Pos::default()),
            Comp::Flags => Value::Flags(Flags::default()),
            Comp::Scratch => Value::Scratch(Scratch::default()),
        }
    }

    /// The value `spawn_batch` gives the `k`-th new entity of a batch seeded with `seed`.
    pub(crate) fn batch(comp: Comp, seed: i32, k: usize) -> Value {
        let k32 = k as i32;
        match comp {
            Comp::Health => Value::Health(Health(seed.wrapping_add(k32))),
            Comp::Level => Value::Level(Level(seed.wrapping_add(k32) as u8)),
            Comp::Name => Value::Name(Name(format!("b{seed}.{k}"))),
            Comp::Pos => Value::Pos(Pos { x: seed, y: k32 }),
            Comp::Flags => Value::Flags(Flags(vec![k as u8, seed as u8])),
            Comp::Scratch => Value::Scratch(Scratch(seed.wrapping_add(k32) as u32)),
        }
    }

    pub(crate) fn bump(&mut self) {
        match self {
            Value::Health(value) => value.bump(),
            Value::Level(value) => value.bump(),
            Value::Name(value) => value.bump(),
            Value::Pos(value) => value.bump(),
            Value::Flags(value) => value.bump(),
            Value::Scratch(value) => value.bump(),
        }
    }
}

/// The in-place change the mutating queries apply; the model applies the same one.
pub(crate) trait Bump {
    fn bump(&mut self);
}

impl Bump for Health {
    fn bump(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }
}

impl Bump for Level {
    fn bump(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }
}

impl Bump for Name {
    fn bump(&mut self) {
        self.0.push('+');
    }
}

impl Bump for Pos {
    fn bump(&mut self) {
        self.x = self.x.wrapping_add(1);
        self.y = self.y.wrapping_sub(1);
    }
}

impl Bump for Scratch {
    fn bump(&mut self) {
        self.0 = self.0.wrapping_add(3);
    }
}

impl Bump for Flags {
    fn bump(&mut self) {
        self.0.push(0xAA);
    }
}
