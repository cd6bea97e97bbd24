//! `schedule_overhead`: what running a system costs a scheduler (issue 24).
//!
//! 100 near-empty systems, each adding 1 to a counter resource (so the checksum sees that
//! every system ran), run once per pass by each crate's scheduler:
//!
//! - archetypal: a `Schedule<World>` of 100 systems of parameters, `fn(ResMut<u64>)`, run in
//!   order: around each, finding its memory in the world, fetching the resource, the tick
//!   advance and the sync point (`apply_commands` of an empty queue). A second row runs the
//!   same schedule with `set_parallel(true)` (every system writes the counter, so each is a
//!   batch of its own: the row is the cost of planning batches); a third puts the systems in a
//!   deferred stage (one `apply_commands` at its end); a fourth runs 100 whole-world systems
//!   `fn(&mut World)`.
//! - bevy_ecs: a `Schedule` of 100 systems taking `ResMut<Runs>` on the
//!   `SingleThreadedExecutor` (its fastest for systems that all conflict; unordered, so no
//!   dependency edges), and the same on the default multi-threaded executor.
//! - hecs has no scheduler: no row. The `fn pointers` row calls the same 100 archetypal
//!   functions from a `Vec<fn(&mut World)>`, the floor of any scheduler of that world.

use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::Schedule as BevySchedule;
use bevy_ecs::system::ResMut;
use bevy_ecs::world::World as BevyWorld;

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Systems per schedule.
pub const SYSTEMS: usize = 100;

/// The checksum: how many system runs the counter saw.
fn checksum(runs: u64) -> u64 {
    let mut sum = Checksum::new();
    sum.count(0, runs);
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "schedule_overhead",
        description: "100 systems, each adding 1 to a counter resource, run by the crate's schedule",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "Schedule<World>::run over 100 systems fn(ResMut<u64>), in order (sync point after each)",
                kind: Kind::Archetypal,
                setup: || archetypal(Form::InOrder),
            },
            Contender {
                name: "archetypal parallel schedule",
                api: "the same schedule, set_parallel(true) (each system conflicts with the others: batches of one)",
                kind: Kind::ArchetypalVariant,
                setup: || archetypal(Form::Parallel),
            },
            Contender {
                name: "archetypal deferred stage",
                api: "the same systems in an add_deferred_stage stage (one apply_commands at its end)",
                kind: Kind::ArchetypalVariant,
                setup: || archetypal(Form::Deferred),
            },
            Contender {
                name: "archetypal fn(&mut World)",
                api: "Schedule<World>::run over 100 whole-world systems fn(&mut World)",
                kind: Kind::ArchetypalVariant,
                setup: || archetypal(Form::WholeWorld),
            },
            Contender {
                name: "bevy_ecs",
                api: "Schedule (SingleThreadedExecutor) of 100 systems taking ResMut<Runs>",
                kind: Kind::Peer,
                setup: || bevy(bevy_ecs::schedule::SingleThreadedExecutor::new()),
            },
            Contender {
                name: "bevy_ecs multi-threaded executor",
                api: "the same Schedule on the default MultiThreadedExecutor",
                kind: Kind::Peer,
                setup: || bevy(bevy_ecs::schedule::MultiThreadedExecutor::new()),
            },
            Contender {
                name: "fn pointers (no scheduler)",
                api: "the 100 archetypal systems called from a Vec<fn(&mut World)>",
                kind: Kind::Baseline,
                setup: || {
                    Box::new(Plain {
                        world: archetypal_counter::World::new(),
                        systems: vec![count_run_whole; SYSTEMS],
                    })
                },
            },
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world: only the counter.
pub mod archetypal_counter {
    archetypal::ecs! {
        World {
            unused: u8 => UNUSED,
        }
        Resources {
            runs: u64,
        }
    }
}

/// The system the archetypal rows run 100 times.
fn count_run(mut runs: archetypal::ResMut<u64>) {
    *runs += 1;
}

/// The same system over the whole world (the whole-world row and the `fn pointers` row).
fn count_run_whole(world: &mut archetypal_counter::World) {
    world.resources.runs += 1;
}

/// How an archetypal row runs its systems.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    InOrder,
    Parallel,
    Deferred,
    WholeWorld,
}

struct Archetypal {
    world: archetypal_counter::World,
    schedule: archetypal::Schedule<archetypal_counter::World>,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }
    fn checksum(&mut self) -> u64 {
        checksum(self.world.resources.runs)
    }
}

fn archetypal(form: Form) -> Box<dyn Pass> {
    let mut schedule = archetypal::Schedule::new();
    schedule.set_parallel(form == Form::Parallel);
    if form == Form::Deferred {
        schedule.add_deferred_stage("systems").expect("a new stage");
    }
    for _ in 0..SYSTEMS {
        if form == Form::WholeWorld {
            schedule.add(count_run_whole);
        } else {
            schedule.add(count_run);
        }
    }
    Box::new(Archetypal {
        world: archetypal_counter::World::new(),
        schedule,
    })
}

struct Plain {
    world: archetypal_counter::World,
    systems: Vec<fn(&mut archetypal_counter::World)>,
}

impl Pass for Plain {
    fn run(&mut self) {
        for system in &self.systems {
            system(&mut self.world);
        }
    }
    fn checksum(&mut self) -> u64 {
        checksum(self.world.resources.runs)
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// bevy's counter.
#[derive(Resource, Default)]
struct Runs(u64);

fn bevy_count_run(mut runs: ResMut<Runs>) {
    runs.0 += 1;
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
        checksum(self.world.resource::<Runs>().0)
    }
}

fn bevy(executor: impl bevy_ecs::schedule::SystemExecutor + 'static) -> Box<dyn Pass> {
    let mut world = BevyWorld::new();
    world.init_resource::<Runs>();
    let mut schedule = BevySchedule::default();
    schedule.set_executor(executor);
    for _ in 0..SYSTEMS {
        schedule.add_systems(bevy_count_run);
    }
    // Built outside the timed region (its first run would build it).
    schedule.initialize(&mut world).expect("a valid schedule");
    Box::new(Bevy { world, schedule })
}
