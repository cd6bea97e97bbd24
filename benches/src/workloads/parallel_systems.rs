//! `parallel_systems`: four independent systems, each doing real work over its own component of
//! the same 4,000 entities (a few dozen float operations per entity), run by each crate's
//! schedule. Their access is disjoint, so a parallel schedule can run them at once:
//!
//! - archetypal: a `Schedule` of four systems of parameters (`Query<&mut A>`, ...), run side by
//!   side (`set_parallel(true)`, rayon) and, as a second row, in order (`set_parallel(false)`):
//!   the speed-up reads off the table;
//! - bevy_ecs: the same four systems in a `Schedule` on its multi-threaded executor and, as a
//!   second row, its single-threaded one;
//! - hecs has no scheduler: its row calls four `query_mut` loops in order, the serial floor.

use bevy_ecs::component::Component;
use bevy_ecs::schedule::Schedule as BevySchedule;
use bevy_ecs::system::Query as BevyQuery;
use bevy_ecs::world::World as BevyWorld;

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities, each with the four components.
pub const ENTITIES: usize = 4_000;

/// Rounds of work per component per pass.
const ROUNDS: usize = 24;

macro_rules! components {
    ($($name:ident),*) => {
        $(
            /// One system's own component: a small state it iterates.
            #[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
            pub struct $name(pub [f32; 4]);
        )*
    };
}

components!(Alpha, Beta, Gamma, Delta);

/// One system's work on one value: a few rounds of a damped rotation, the same in every crate.
#[inline]
fn work(state: &mut [f32; 4], factor: f32) {
    for _ in 0..ROUNDS {
        let [a, b, c, d] = *state;
        *state = [
            (a * 0.98 - b * factor).sin() + 0.01,
            (b * 0.98 + a * factor).cos() - 0.01,
            c * 0.97 + d * 0.03 + factor,
            (d * 0.5 + c * 0.25).tanh(),
        ];
    }
}

/// The starting state of entity `index`'s component `which`.
fn start(index: usize, which: usize) -> [f32; 4] {
    let base = (index * 7 + which * 13) as f32 * 0.001;
    [base, base + 0.5, base * 2.0, 1.0 - base]
}

fn checksum(values: impl Iterator<Item = [[f32; 4]; 4]>) -> u64 {
    let mut sum = Checksum::new();
    let mut count = 0;
    for components in values {
        for (which, state) in components.iter().enumerate() {
            for (lane, value) in state.iter().enumerate() {
                sum.f32((which * 4 + lane) as u32, *value);
            }
        }
        count += 1;
    }
    sum.count(99, count);
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "parallel_systems",
        description: "4 independent systems, each a few dozen float operations per entity on its own component of 4,000 entities",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "Schedule of 4 systems of parameters (Query<&mut C>), side by side (set_parallel(true), rayon)",
                kind: Kind::Archetypal,
                setup: || archetypal(true),
            },
            Contender {
                name: "archetypal in order",
                api: "the same Schedule, set_parallel(false): one system after another",
                kind: Kind::ArchetypalVariant,
                setup: || archetypal(false),
            },
            Contender {
                name: "bevy_ecs multi-threaded executor",
                api: "Schedule of the 4 systems (Query<&mut C>), MultiThreadedExecutor",
                kind: Kind::Peer,
                setup: || bevy(true),
            },
            Contender {
                name: "bevy_ecs",
                api: "the same Schedule, SingleThreadedExecutor",
                kind: Kind::Peer,
                setup: || bevy(false),
            },
            Contender {
                name: "hecs",
                api: "four query_mut loops, in order (no scheduler)",
                kind: Kind::Peer,
                setup: hecs,
            },
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world: the four components.
pub mod archetypal_world {
    pub use super::{Alpha, Beta, Delta, Gamma};

    archetypal::ecs! {
        World {
            alpha: Alpha => ALPHA,
            beta: Beta => BETA,
            gamma: Gamma => GAMMA,
            delta: Delta => DELTA,
        }
    }
}

mod archetypal_systems {
    use super::archetypal_world::*;
    use super::work;

    pub fn alpha(mut values: Query<&mut Alpha>) {
        values.for_each(|mut value| work(&mut value.0, 0.1));
    }

    pub fn beta(mut values: Query<&mut Beta>) {
        values.for_each(|mut value| work(&mut value.0, 0.2));
    }

    pub fn gamma(mut values: Query<&mut Gamma>) {
        values.for_each(|mut value| work(&mut value.0, 0.3));
    }

    pub fn delta(mut values: Query<&mut Delta>) {
        values.for_each(|mut value| work(&mut value.0, 0.4));
    }
}

struct Archetypal {
    world: archetypal_world::World,
    schedule: archetypal::Schedule<archetypal_world::World>,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }
    fn checksum(&mut self) -> u64 {
        checksum(
            self.world
                .typed_query_ref::<(
                    &archetypal_world::Alpha,
                    &archetypal_world::Beta,
                    &archetypal_world::Gamma,
                    &archetypal_world::Delta,
                )>()
                .iter()
                .map(|(a, b, c, d)| [a.0, b.0, c.0, d.0]),
        )
    }
}

fn archetypal(parallel: bool) -> Box<dyn Pass> {
    use archetypal_world::*;
    let mut world = World::new();
    for index in 0..ENTITIES {
        EntityBuilder::new()
            .with_alpha(Alpha(start(index, 0)))
            .with_beta(Beta(start(index, 1)))
            .with_gamma(Gamma(start(index, 2)))
            .with_delta(Delta(start(index, 3)))
            .spawn_one(&mut world);
    }
    let mut schedule = archetypal::Schedule::new();
    schedule
        .add((
            archetypal_systems::alpha,
            archetypal_systems::beta,
            archetypal_systems::gamma,
            archetypal_systems::delta,
        ))
        .set_parallel(parallel);
    debug_assert_eq!(
        schedule.batches().len(),
        1,
        "the four systems share a batch"
    );
    Box::new(Archetypal { world, schedule })
}

// ----- bevy_ecs -----------------------------------------------------------------------------

fn bevy_alpha(mut values: BevyQuery<&mut Alpha>) {
    for mut value in &mut values {
        work(&mut value.0, 0.1);
    }
}

fn bevy_beta(mut values: BevyQuery<&mut Beta>) {
    for mut value in &mut values {
        work(&mut value.0, 0.2);
    }
}

fn bevy_gamma(mut values: BevyQuery<&mut Gamma>) {
    for mut value in &mut values {
        work(&mut value.0, 0.3);
    }
}

fn bevy_delta(mut values: BevyQuery<&mut Delta>) {
    for mut value in &mut values {
        work(&mut value.0, 0.4);
    }
}

struct Bevy {
    world: BevyWorld,
    schedule: BevySchedule,
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }
    fn checksum(&mut self) -> u64 {
        let mut query = self.world.query::<(&Alpha, &Beta, &Gamma, &Delta)>();
        checksum(
            query
                .iter(&self.world)
                .map(|(a, b, c, d)| [a.0, b.0, c.0, d.0]),
        )
    }
}

fn bevy(multi_threaded: bool) -> Box<dyn Pass> {
    let mut world = BevyWorld::new();
    world.spawn_batch((0..ENTITIES).map(|index| {
        (
            Alpha(start(index, 0)),
            Beta(start(index, 1)),
            Gamma(start(index, 2)),
            Delta(start(index, 3)),
        )
    }));
    let mut schedule = BevySchedule::default();
    if multi_threaded {
        schedule.set_executor(bevy_ecs::schedule::MultiThreadedExecutor::new());
    } else {
        schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
    }
    schedule.add_systems((bevy_alpha, bevy_beta, bevy_gamma, bevy_delta));
    schedule.initialize(&mut world).expect("a valid schedule");
    Box::new(Bevy { world, schedule })
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs(hecs::World);

impl Pass for Hecs {
    fn run(&mut self) {
        for value in self.0.query_mut::<&mut Alpha>() {
            work(&mut value.0, 0.1);
        }
        for value in self.0.query_mut::<&mut Beta>() {
            work(&mut value.0, 0.2);
        }
        for value in self.0.query_mut::<&mut Gamma>() {
            work(&mut value.0, 0.3);
        }
        for value in self.0.query_mut::<&mut Delta>() {
            work(&mut value.0, 0.4);
        }
    }
    fn checksum(&mut self) -> u64 {
        checksum(
            self.0
                .query_mut::<(&Alpha, &Beta, &Gamma, &Delta)>()
                .into_iter()
                .map(|(a, b, c, d)| [a.0, b.0, c.0, d.0]),
        )
    }
}

fn hecs() -> Box<dyn Pass> {
    let mut world = hecs::World::new();
    world.spawn_batch((0..ENTITIES).map(|index| {
        (
            Alpha(start(index, 0)),
            Beta(start(index, 1)),
            Gamma(start(index, 2)),
            Delta(start(index, 3)),
        )
    }));
    Box::new(Hecs(world))
}
