//! `rollback_frame`: what rollback netcode adds to a frame of the `rollback_netcode` example's
//! game (issue 45), at 10,000 entities: the example's own game (`examples/rollback_netcode/
//! game.rs`, its `Schedule` of ten systems of parameters), in a crowded arena (one ship and
//! 9,999 of its bullets, all linked to it, moving, ageing and checked against the ship every
//! frame; nothing is hit, so the world keeps its size).
//!
//! - archetypal (the rollback): one save, one load and the frame resimulated, as ggrs asks of a
//!   game every frame it rolls back one: `saved.restore(&world)` (the save: a `clone_from` into
//!   the saved slot, reusing its allocations, as a ring of saved frames does),
//!   `world.restore(&saved)` (the load), then the frame.
//! - `frame once` (the baseline): the same frame, run once, no copy.
//!
//! The ratio is the rollback's cost over a plain frame. Both run the same frames, so both end
//! with the same world (the checksum is the crate's, `world.snapshot().checksum()`). The bytes a
//! saved frame keeps are measured by `benches/tests/checksums.rs`
//! (`a_saved_frame_of_the_crowded_arena_keeps_its_bytes`). The schedule runs its systems one
//! after another (`set_parallel(false)`), so the figures do not depend on rayon's threads.

#[path = "../../../examples/rollback_netcode/game.rs"]
#[allow(dead_code)]
pub mod game;

use crate::{Contender, Kind, Pass, Workload};
use game::{EntityBuilder, Lifetime, Owner, Position, Velocity};

/// Entities in the arena.
pub const ROLLBACK_FRAME_ENTITIES: usize = 10_000;

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "rollback_frame",
        description: "the rollback_netcode example's frame at 10,000 entities: one save + load + the frame resimulated, against the frame run once",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "saved.restore(&world), world.restore(&saved), schedule.run(&mut world), step()",
                kind: Kind::Archetypal,
                setup: || Box::new(Frames::new(true)),
            },
            Contender {
                name: "frame once",
                api: "schedule.run(&mut world), step()",
                kind: Kind::Baseline,
                setup: || Box::new(Frames::new(false)),
            },
        ],
    }
}

/// The crowded arena: the game's one-player world (one ship) and `entities - 1` of the ship's
/// bullets, every one linked to it, spread over the arena and flying every way, none expiring
/// for a long while; nothing is hit (a ship's own bullets pass it).
fn crowded_world(entities: usize) -> game::World {
    let mut world = game::new_world(1);
    let ship = world
        .typed_query_ref::<archetypal::Entity>()
        .iter()
        .next()
        .expect("the ship");
    for bullet in 1..entities as i32 {
        EntityBuilder::new()
            .with_position(Position {
                x: bullet * 37 % 240,
                y: bullet * 91 % 240,
            })
            .with_velocity(Velocity {
                x: bullet % 7 - 3,
                y: bullet % 5 - 2,
            })
            .with_owner(Owner(0))
            .with_lifetime(Lifetime(1 << 30))
            .with_fired_by(ship)
            .spawn_one(&mut world);
    }
    world
}

/// The crowded arena, its schedule, and (for the rollback) its saved slot.
pub struct Frames {
    world: game::World,
    saved: game::World,
    schedule: archetypal::Schedule<game::World>,
    rollback: bool,
}

impl Frames {
    /// The arena; `rollback`: each pass saves, loads and resimulates.
    pub fn new(rollback: bool) -> Self {
        let world = crowded_world(ROLLBACK_FRAME_ENTITIES);
        let mut schedule = game::new_schedule();
        schedule.set_parallel(false);
        Frames {
            saved: world.clone(),
            world,
            schedule,
            rollback,
        }
    }

    /// The world, for measuring what a saved copy keeps.
    pub fn world(&self) -> &game::World {
        &self.world
    }
}

impl Pass for Frames {
    fn run(&mut self) {
        if self.rollback {
            self.saved.restore(&self.world);
            self.world.restore(&self.saved);
        }
        // The ship steers right and up; nobody fires.
        let mut inputs = game::Inputs::default();
        inputs.0[0] = game::Input::new(1, 1, false);
        game::advance(&mut self.world, &mut self.schedule, inputs);
    }

    fn checksum(&mut self) -> u64 {
        self.world.snapshot().checksum()
    }
}
