//! `change_detection`: 100,000 entities with a Position; each pass writes every tenth one
//! (10,000) through the crate's change-stamping access, then runs a changed-only query that
//! reads what changed, then ends the frame so the next pass starts clean. World setup is
//! untimed.
//!
//! Contenders are the crates with built-in change detection: archetypal and freecs
//! (`for_each_mut_changed`, stamped by `get_*_mut`) and bevy_ecs (`Changed<T>` filter).
//! hecs has none.

use bevy_ecs::query::{Changed, QueryState};

use crate::components::{Position, simple_values};
use crate::worlds::{archetypal_simple, freecs_simple};
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities in the world.
pub const ENTITIES: usize = 100_000;

/// Every `WRITE_STRIDE`-th entity is written each pass (10%).
pub const WRITE_STRIDE: usize = 10;

fn position(index: usize) -> Position {
    simple_values(index).1
}

/// The handles written each pass: every tenth, in spawn order.
fn written<H: Copy>(handles: &[H]) -> Vec<H> {
    handles.iter().copied().step_by(WRITE_STRIDE).collect()
}

/// What the last changed-only query saw, and the world's positions.
fn checksum(seen: &Checksum, positions: impl IntoIterator<Item = Position>) -> u64 {
    let mut sum = *seen;
    positions.into_iter().for_each(|p| sum.vec3(1, p.0));
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "change_detection",
        description: "write 10% of 100,000 positions, then a changed-only query",
        contenders: vec![archetypal(), bevy(), freecs()],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

struct Archetypal {
    world: archetypal_simple::World,
    written: Vec<archetypal::Entity>,
    seen: Checksum,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        for &entity in &self.written {
            if let Some(position) = self.world.get_position_mut(entity) {
                position.0.x += 1.0;
            }
        }
        let mut seen = Checksum::new();
        let since = self.world.last_tick();
        self.world
            .typed_query_ref::<&Position>()
            .changed_since(archetypal_simple::POSITION, since)
            .for_each(|position| seen.vec3(0, position.0));
        self.seen = seen;
        self.world.step();
    }
    fn checksum(&mut self) -> u64 {
        checksum(
            &self.seen,
            self.world.typed_query_ref::<&Position>().iter().copied(),
        )
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "get_position_mut writes; typed_query_ref changed_since; step()",
        kind: Kind::Archetypal,
        setup: || {
            let mut world = archetypal_simple::World::new();
            let handles = world.spawn_batch(archetypal_simple::POSITION, ENTITIES, |table, row| {
                table.position[row] = position(row);
            });
            world.step();
            Box::new(Archetypal {
                written: written(&handles),
                world,
                seen: Checksum::new(),
            })
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    writer: QueryState<&'static mut Position>,
    changed: QueryState<&'static Position, Changed<Position>>,
    written: Vec<bevy_ecs::entity::Entity>,
    seen: Checksum,
}

impl Pass for Bevy {
    fn run(&mut self) {
        let mut writer = self.writer.query_mut(&mut self.world);
        for &entity in &self.written {
            if let Ok(mut position) = writer.get_mut(entity) {
                position.0.x += 1.0;
            }
        }
        let mut seen = Checksum::new();
        for position in self.changed.iter(&self.world) {
            seen.vec3(0, position.0);
        }
        self.seen = seen;
        self.world.clear_trackers();
    }
    fn checksum(&mut self) -> u64 {
        let mut query = self.world.query::<&Position>();
        checksum(&self.seen, query.iter(&self.world).copied())
    }
}

fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "query_mut once, Query::get_mut writes; QueryState<&P, Changed<P>>",
        kind: Kind::Peer,
        setup: || {
            let mut world = bevy_ecs::world::World::new();
            let handles: Vec<_> = world.spawn_batch((0..ENTITIES).map(position)).collect();
            world.clear_trackers();
            let writer = world.query::<&mut Position>();
            let changed = world.query_filtered::<&Position, Changed<Position>>();
            Box::new(Bevy {
                world,
                writer,
                changed,
                written: written(&handles),
                seen: Checksum::new(),
            })
        },
    }
}

// ----- freecs -------------------------------------------------------------------------------

struct Freecs {
    world: freecs_simple::World,
    written: Vec<freecs::Entity>,
    seen: Checksum,
}

impl Pass for Freecs {
    fn run(&mut self) {
        for &entity in &self.written {
            if let Some(position) = self.world.get_position_mut(entity) {
                position.0.x += 1.0;
            }
        }
        let mut seen = Checksum::new();
        self.world
            .for_each_mut_changed(freecs_simple::POSITION, 0, |_entity, table, index| {
                seen.vec3(0, table.position[index].0);
            });
        self.seen = seen;
        self.world.step();
    }
    fn checksum(&mut self) -> u64 {
        let tables = &self.world.tables;
        checksum(
            &self.seen,
            tables
                .iter()
                .flat_map(|table| table.position.iter().copied()),
        )
    }
}

fn freecs() -> Contender {
    Contender {
        name: "freecs",
        api: "get_position_mut writes; for_each_mut_changed; step()",
        kind: Kind::Peer,
        setup: || {
            let mut world = freecs_simple::World::default();
            let mut next = 0;
            let handles = world.spawn_batch(freecs_simple::POSITION, ENTITIES, |table, row| {
                table.position[row] = position(next);
                next += 1;
            });
            world.step();
            Box::new(Freecs {
                written: written(&handles),
                world,
                seen: Checksum::new(),
            })
        },
    }
}
