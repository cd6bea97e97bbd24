//! `rollback`: the restore and re-simulation of rollback netcode (issue 27).
//!
//! A world of 10,000 entities with Transform, Position, Rotation and Velocity, and a copy of it
//! saved at setup (the last frame every peer confirmed). A pass restores the copy, applies a
//! late input (a new velocity for one entity, which the pass number picks and sets), then
//! re-simulates 8 frames: `position += velocity`, the rotation turned by the velocity, the
//! transform's translation set to the position. The input changes with the pass, so a second
//! pass changes the checksum (every value of the four columns).
//!
//! - archetypal: `world.restore(&saved)` (`clone_from`, reusing the world's tables), then
//!   `set_velocity(handle, ..)` and, per frame, one `for_each_table_mut` over the four columns
//!   and `step()`, as a game's frame ends.
//! - `Vec` (the floor; the goal is archetypal at most 1.5 times its time): a struct of
//!   four `Vec`s, `clone_from` the saved one, then the same frames over the four slices.
//!
//! hecs and bevy_ecs have no world copy, freecs's world is not `Clone` (its command buffer's
//! type is not) and flecs (v4, `flecs_ecs` 0.2.2) has no snapshot or restore: no rows.

use crate::components::{Position, Rotation, SIMPLE_ENTITIES, Transform, Velocity};
use crate::math::Vec3;
use crate::worlds::{SimpleVecs, archetypal_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// Frames re-simulated after each restore.
pub const FRAMES: usize = 8;

/// The entity whose late input pass `pass` applies, and its new velocity.
fn late_input(pass: u32) -> (usize, Velocity) {
    let entity = (pass as usize).wrapping_mul(7_919) % SIMPLE_ENTITIES;
    let pass = pass as f32;
    (entity, Velocity(Vec3::new(-pass, 0.5 * pass, 2.0)))
}

/// One entity's frame: it moves, turns, and its transform follows its position.
#[inline]
fn advance(
    transform: &mut Transform,
    position: &mut Position,
    rotation: &mut Rotation,
    velocity: &Velocity,
) {
    let v = velocity.0;
    position.0 += v;
    rotation.0 += Vec3::new(0.01 * v.z, 0.01 * v.x, 0.01 * v.y);
    let p = position.0;
    transform.0.0[3] = [p.x, p.y, p.z, 1.0];
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "rollback",
        description: "restore a saved 10,000-entity world (4 components), apply a late input, re-simulate 8 frames",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "restore(&saved), set_velocity(e, ..), 8 x (for_each_table_mut over 4 columns, step())",
                kind: Kind::Archetypal,
                setup: || Box::new(Archetypal::new()),
            },
            Contender {
                name: "Vec",
                api: "4 x Vec: clone_from(&saved), velocities[i] = .., 8 x a loop over 4 slices",
                kind: Kind::Baseline,
                setup: || Box::new(Vecs::new()),
            },
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

struct Archetypal {
    world: archetypal_simple::World,
    saved: archetypal_simple::World,
    /// Every entity's handle, in spawn order: valid in the saved copy and after a restore.
    handles: Vec<archetypal::Entity>,
    passes: u32,
}

impl Archetypal {
    fn new() -> Self {
        let mut world = archetypal_simple::World::new();
        let handles = spawn_simple::archetypal(&mut world, SIMPLE_ENTITIES);
        Archetypal {
            saved: world.clone(),
            world,
            handles,
            passes: 0,
        }
    }
}

impl Pass for Archetypal {
    fn run(&mut self) {
        use archetypal_simple::ALL;
        self.passes += 1;
        let world = &mut self.world;
        world.restore(&self.saved);
        let (entity, velocity) = late_input(self.passes);
        world.set_velocity(self.handles[entity], velocity);
        for _ in 0..FRAMES {
            world.for_each_table_mut(ALL, 0, |table| {
                let rows = table
                    .transform
                    .iter_mut()
                    .zip(table.position.iter_mut())
                    .zip(table.rotation.iter_mut())
                    .zip(table.velocity.iter());
                for (((transform, position), rotation), velocity) in rows {
                    advance(transform, position, rotation, velocity);
                }
            });
            world.step();
        }
    }

    fn checksum(&mut self) -> u64 {
        simple_checksum::archetypal(&self.world)
    }
}

// ----- Vec floor ----------------------------------------------------------------------------

struct Vecs {
    world: SimpleVecs,
    saved: SimpleVecs,
    passes: u32,
}

impl Vecs {
    fn new() -> Self {
        let world = SimpleVecs::new(SIMPLE_ENTITIES);
        Vecs {
            saved: world.clone(),
            world,
            passes: 0,
        }
    }
}

impl Pass for Vecs {
    fn run(&mut self) {
        self.passes += 1;
        let world = &mut self.world;
        world.clone_from(&self.saved);
        let (entity, velocity) = late_input(self.passes);
        world.velocities[entity] = velocity;
        for _ in 0..FRAMES {
            let rows = world
                .transforms
                .iter_mut()
                .zip(world.positions.iter_mut())
                .zip(world.rotations.iter_mut())
                .zip(world.velocities.iter());
            for (((transform, position), rotation), velocity) in rows {
                advance(transform, position, rotation, velocity);
            }
        }
    }

    fn checksum(&mut self) -> u64 {
        simple_checksum::vecs(&self.world)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass starts from the saved world whatever the pass before it left: restoring, then
    /// replaying the same input, ends where the first replay ended.
    #[test]
    fn a_pass_replays_from_the_saved_world() {
        let mut rollback = Archetypal::new();
        rollback.run();
        let first = rollback.checksum();
        rollback.run();
        rollback.passes = 0;
        rollback.run();
        assert_eq!(rollback.checksum(), first);
    }
}
