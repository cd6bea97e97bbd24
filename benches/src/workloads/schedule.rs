//! `schedule`: 10,000 entities each of (A, B), (A, B, C), (A, B, C, D) and (A, B, C, E); three
//! systems run in order, swapping the values of (A, B), (C, D) and (C, E). Only the systems
//! are timed (world and queries are built in setup). archetypal has no scheduler yet, so every
//! contender calls its three systems in sequence, bevy through three cached `QueryState`s
//! rather than a `Schedule` (no executor overhead for anyone).

use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::query::QueryState;

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities per archetype (ecs_bench_suite's size).
pub const PER_GROUP: usize = 10_000;

macro_rules! value_components {
    ($($name:ident),*) => {
        $(
            #[doc = concat!("Component `", stringify!($name), "`: one `f32`.")]
            #[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
            pub struct $name(pub f32);

            impl AsMut<f32> for $name {
                fn as_mut(&mut self) -> &mut f32 {
                    &mut self.0
                }
            }
        )*
    };
}

value_components!(A, B, C, D, E);

/// The values of the `index`-th entity (all distinct, so every swap shows in the checksum).
fn values(index: usize) -> (A, B, C, D, E) {
    let base = index as f32 * 8.0;
    (
        A(base),
        B(base + 1.0),
        C(base + 2.0),
        D(base + 3.0),
        E(base + 4.0),
    )
}

#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn add<'a, T: 'a>(
        &mut self,
        field: u32,
        values: impl IntoIterator<Item = &'a T>,
        f: fn(&T) -> f32,
    ) {
        values
            .into_iter()
            .for_each(|value| self.0.f32(field, f(value)));
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "schedule",
        description: "3 systems swapping (A,B), (C,D), (C,E) over 4 archetypes x 10,000",
        contenders: vec![
            archetypal(),
            archetypal_for_each_mut(),
            hecs(),
            bevy(),
            bevy_iter_mut(),
            freecs(),
            vec_baseline(),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world.
pub mod archetypal_world {
    pub use super::{A, B, C, D, E};

    archetypal::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
            c: C => C_BIT,
            d: D => D_BIT,
            e: E => E_BIT,
        }
    }

    /// The four archetypes.
    pub const GROUPS: [WorldMask; 4] = [
        A_BIT | B_BIT,
        A_BIT | B_BIT | C_BIT,
        A_BIT | B_BIT | C_BIT | D_BIT,
        A_BIT | B_BIT | C_BIT | E_BIT,
    ];

    /// 10,000 entities of each archetype.
    pub fn new() -> World {
        let mut world = World::new();
        let mut next = 0;
        for mask in GROUPS {
            world.spawn_batch(mask, super::PER_GROUP, |table, row| {
                let (a, b, c, d, e) = super::values(next);
                next += 1;
                table.a[row] = a;
                table.b[row] = b;
                if mask & C_BIT != 0 {
                    table.c[row] = c;
                }
                if mask & D_BIT != 0 {
                    table.d[row] = d;
                }
                if mask & E_BIT != 0 {
                    table.e[row] = e;
                }
            });
        }
        world
    }

    /// Checksum of every component value.
    pub fn checksum(world: &World) -> u64 {
        let mut sum = super::Sum::default();
        for table in world.tables() {
            sum.add(0, &table.a, |v| v.0);
            sum.add(1, &table.b, |v| v.0);
            sum.add(2, &table.c, |v| v.0);
            sum.add(3, &table.d, |v| v.0);
            sum.add(4, &table.e, |v| v.0);
        }
        sum.0.finish()
    }
}

struct ArchetypalTables(archetypal_world::World);

impl Pass for ArchetypalTables {
    fn run(&mut self) {
        use archetypal_world::{A_BIT, B_BIT, C_BIT, D_BIT, E_BIT};
        let world = &mut self.0;
        world.for_each_table_mut(A_BIT | B_BIT, 0, |table| {
            for (a, b) in table.a.iter_mut().zip(table.b.iter_mut()) {
                core::mem::swap(&mut a.0, &mut b.0);
            }
        });
        world.for_each_table_mut(C_BIT | D_BIT, 0, |table| {
            for (c, d) in table.c.iter_mut().zip(table.d.iter_mut()) {
                core::mem::swap(&mut c.0, &mut d.0);
            }
        });
        world.for_each_table_mut(C_BIT | E_BIT, 0, |table| {
            for (c, e) in table.c.iter_mut().zip(table.e.iter_mut()) {
                core::mem::swap(&mut c.0, &mut e.0);
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
        api: "3 x for_each_table_mut + slice zip",
        kind: Kind::Archetypal,
        setup: || Box::new(ArchetypalTables(archetypal_world::new())),
    }
}

struct ArchetypalRows(archetypal_world::World);

impl Pass for ArchetypalRows {
    fn run(&mut self) {
        use archetypal_world::{A_BIT, B_BIT, C_BIT, D_BIT, E_BIT};
        let world = &mut self.0;
        world.for_each_mut(A_BIT | B_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.a[index].0, &mut table.b[index].0);
        });
        world.for_each_mut(C_BIT | D_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.c[index].0, &mut table.d[index].0);
        });
        world.for_each_mut(C_BIT | E_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.c[index].0, &mut table.e[index].0);
        });
    }
    fn checksum(&mut self) -> u64 {
        archetypal_world::checksum(&self.0)
    }
}

fn archetypal_for_each_mut() -> Contender {
    Contender {
        name: "archetypal for_each_mut",
        api: "3 x for_each_mut(|entity, table, index| ..)",
        kind: Kind::ArchetypalVariant,
        setup: || Box::new(ArchetypalRows(archetypal_world::new())),
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Pass for Hecs {
    fn run(&mut self) {
        let world = &mut self.0;
        for (a, b) in world.query_mut::<(&mut A, &mut B)>() {
            core::mem::swap(&mut a.0, &mut b.0);
        }
        for (c, d) in world.query_mut::<(&mut C, &mut D)>() {
            core::mem::swap(&mut c.0, &mut d.0);
        }
        for (c, e) in world.query_mut::<(&mut C, &mut E)>() {
            core::mem::swap(&mut c.0, &mut e.0);
        }
    }
    fn checksum(&mut self) -> u64 {
        let world = &self.0;
        let mut sum = Sum::default();
        sum.add(0, world.query::<&A>().iter(), |v| v.0);
        sum.add(1, world.query::<&B>().iter(), |v| v.0);
        sum.add(2, world.query::<&C>().iter(), |v| v.0);
        sum.add(3, world.query::<&D>().iter(), |v| v.0);
        sum.add(4, world.query::<&E>().iter(), |v| v.0);
        sum.0.finish()
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "3 x query_mut::<(&mut X, &mut Y)>()",
        kind: Kind::Peer,
        setup: || {
            let mut world = hecs::World::new();
            let groups = [0, 1, 2, 3].map(|group| group * PER_GROUP..(group + 1) * PER_GROUP);
            let [ab, abc, abcd, abce] = groups;
            world.spawn_batch(ab.map(values).map(|(a, b, ..)| (a, b)));
            world.spawn_batch(abc.map(values).map(|(a, b, c, ..)| (a, b, c)));
            world.spawn_batch(abcd.map(values).map(|(a, b, c, d, _)| (a, b, c, d)));
            world.spawn_batch(abce.map(values).map(|(a, b, c, _, e)| (a, b, c, e)));
            Box::new(Hecs(world))
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

type SwapQuery<X, Y> = QueryState<(&'static mut X, &'static mut Y)>;

struct Bevy {
    world: bevy_ecs::world::World,
    ab: SwapQuery<A, B>,
    cd: SwapQuery<C, D>,
    ce: SwapQuery<C, E>,
}

/// One system through table slices: swaps the two columns of every matching table.
fn swap_contiguous<X, Y>(query: &mut SwapQuery<X, Y>, world: &mut bevy_ecs::world::World)
where
    X: Component<Mutability = Mutable> + AsMut<f32>,
    Y: Component<Mutability = Mutable> + AsMut<f32>,
{
    let tables = query
        .contiguous_iter_mut(world)
        .expect("table components: the query is dense");
    for (mut xs, mut ys) in tables {
        for (x, y) in xs.iter_mut().zip(ys.iter_mut()) {
            core::mem::swap(x.as_mut(), y.as_mut());
        }
    }
}

/// One system through per-item `Mut` guards.
fn swap_per_item<X, Y>(query: &mut SwapQuery<X, Y>, world: &mut bevy_ecs::world::World)
where
    X: Component<Mutability = Mutable> + AsMut<f32>,
    Y: Component<Mutability = Mutable> + AsMut<f32>,
{
    query
        .iter_mut(world)
        .for_each(|(mut x, mut y)| core::mem::swap(x.as_mut().as_mut(), y.as_mut().as_mut()));
}

impl Bevy {
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let groups = [0, 1, 2, 3].map(|group| group * PER_GROUP..(group + 1) * PER_GROUP);
        let [ab, abc, abcd, abce] = groups;
        world.spawn_batch(ab.map(values).map(|(a, b, ..)| (a, b)));
        world.spawn_batch(abc.map(values).map(|(a, b, c, ..)| (a, b, c)));
        world.spawn_batch(abcd.map(values).map(|(a, b, c, d, _)| (a, b, c, d)));
        world.spawn_batch(abce.map(values).map(|(a, b, c, _, e)| (a, b, c, e)));
        let ab = world.query::<(&mut A, &mut B)>();
        let cd = world.query::<(&mut C, &mut D)>();
        let ce = world.query::<(&mut C, &mut E)>();
        Bevy { world, ab, cd, ce }
    }

    fn checksum(&mut self) -> u64 {
        fn add<T: Component>(
            sum: &mut Sum,
            world: &mut bevy_ecs::world::World,
            field: u32,
            f: fn(&T) -> f32,
        ) {
            let mut query = world.query::<&T>();
            sum.add(field, query.iter(world), f);
        }
        let world = &mut self.world;
        let mut sum = Sum::default();
        add::<A>(&mut sum, world, 0, |v| v.0);
        add::<B>(&mut sum, world, 1, |v| v.0);
        add::<C>(&mut sum, world, 2, |v| v.0);
        add::<D>(&mut sum, world, 3, |v| v.0);
        add::<E>(&mut sum, world, 4, |v| v.0);
        sum.0.finish()
    }
}

struct BevyContiguous(Bevy);

impl Pass for BevyContiguous {
    fn run(&mut self) {
        let Bevy { world, ab, cd, ce } = &mut self.0;
        swap_contiguous(ab, world);
        swap_contiguous(cd, world);
        swap_contiguous(ce, world);
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

struct BevyPerItem(Bevy);

impl Pass for BevyPerItem {
    fn run(&mut self) {
        let Bevy { world, ab, cd, ce } = &mut self.0;
        swap_per_item(ab, world);
        swap_per_item(cd, world);
        swap_per_item(ce, world);
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "3 cached QueryState::contiguous_iter_mut + slice zip",
        kind: Kind::Peer,
        setup: || Box::new(BevyContiguous(Bevy::new())),
    }
}

fn bevy_iter_mut() -> Contender {
    Contender {
        name: "bevy_ecs iter_mut",
        api: "3 cached QueryState::iter_mut().for_each",
        kind: Kind::Peer,
        setup: || Box::new(BevyPerItem(Bevy::new())),
    }
}

// ----- freecs -------------------------------------------------------------------------------

/// freecs's world.
pub mod freecs_world {
    pub use super::{A, B, C, D, E};

    freecs::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
            c: C => C_BIT,
            d: D => D_BIT,
            e: E => E_BIT,
        }
        Resources {}
    }

    /// The four archetypes.
    pub const GROUPS: [u64; 4] = [
        A_BIT | B_BIT,
        A_BIT | B_BIT | C_BIT,
        A_BIT | B_BIT | C_BIT | D_BIT,
        A_BIT | B_BIT | C_BIT | E_BIT,
    ];

    /// 10,000 entities of each archetype.
    pub fn new() -> World {
        let mut world = World::default();
        let mut next = 0;
        for mask in GROUPS {
            world.spawn_batch(mask, super::PER_GROUP, |table, row| {
                let (a, b, c, d, e) = super::values(next);
                next += 1;
                table.a[row] = a;
                table.b[row] = b;
                if mask & C_BIT != 0 {
                    table.c[row] = c;
                }
                if mask & D_BIT != 0 {
                    table.d[row] = d;
                }
                if mask & E_BIT != 0 {
                    table.e[row] = e;
                }
            });
        }
        world
    }
}

struct Freecs(freecs_world::World);

impl Pass for Freecs {
    fn run(&mut self) {
        use freecs_world::{A_BIT, B_BIT, C_BIT, D_BIT, E_BIT};
        let world = &mut self.0;
        world.for_each_mut(A_BIT | B_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.a[index].0, &mut table.b[index].0);
        });
        world.for_each_mut(C_BIT | D_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.c[index].0, &mut table.d[index].0);
        });
        world.for_each_mut(C_BIT | E_BIT, 0, |_entity, table, index| {
            core::mem::swap(&mut table.c[index].0, &mut table.e[index].0);
        });
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for table in &self.0.tables {
            sum.add(0, &table.a, |v| v.0);
            sum.add(1, &table.b, |v| v.0);
            sum.add(2, &table.c, |v| v.0);
            sum.add(3, &table.d, |v| v.0);
            sum.add(4, &table.e, |v| v.0);
        }
        sum.0.finish()
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "3 x for_each_mut(|entity, table, index| ..)",
        kind: Kind::Peer,
        setup: || Box::new(Freecs(freecs_world::new())),
    }
}

// ----- baseline -----------------------------------------------------------------------------

/// One hand-written archetype: a `Vec` per component, empty when the group lacks it.
#[derive(Default)]
struct Group {
    a: Vec<A>,
    b: Vec<B>,
    c: Vec<C>,
    d: Vec<D>,
    e: Vec<E>,
}

struct Vecs([Group; 4]);

impl Pass for Vecs {
    fn run(&mut self) {
        for group in &mut self.0 {
            for (a, b) in group.a.iter_mut().zip(group.b.iter_mut()) {
                core::mem::swap(&mut a.0, &mut b.0);
            }
        }
        for group in &mut self.0 {
            for (c, d) in group.c.iter_mut().zip(group.d.iter_mut()) {
                core::mem::swap(&mut c.0, &mut d.0);
            }
        }
        for group in &mut self.0 {
            for (c, e) in group.c.iter_mut().zip(group.e.iter_mut()) {
                core::mem::swap(&mut c.0, &mut e.0);
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for group in &self.0 {
            sum.add(0, &group.a, |v| v.0);
            sum.add(1, &group.b, |v| v.0);
            sum.add(2, &group.c, |v| v.0);
            sum.add(3, &group.d, |v| v.0);
            sum.add(4, &group.e, |v| v.0);
        }
        sum.0.finish()
    }
}

fn vec_baseline() -> Contender {
    Contender {
        name: "Vec",
        api: "4 hand-written groups of Vecs, zip per system",
        kind: Kind::Baseline,
        setup: || {
            // (has C, has D, has E) per group, in the order of the other contenders.
            let shapes = [
                (false, false, false),
                (true, false, false),
                (true, true, false),
                (true, false, true),
            ];
            let mut next = 0;
            let groups = shapes.map(|(has_c, has_d, has_e)| {
                let mut group = Group::default();
                for _ in 0..PER_GROUP {
                    let (a, b, c, d, e) = values(next);
                    next += 1;
                    group.a.push(a);
                    group.b.push(b);
                    if has_c {
                        group.c.push(c);
                    }
                    if has_d {
                        group.d.push(d);
                    }
                    if has_e {
                        group.e.push(e);
                    }
                }
                group
            });
            Box::new(Vecs(groups))
        },
    }
}
