//! Change detection: systems that do work only for what changed.
//!
//! A row is reported changed when the program wrote it. Three consumers of changes run here:
//!
//! - a spatial index re-files the units that moved since the last frame
//!   (`changed_since(POSITION, last_tick())`: changed since the last `step()`);
//! - health bars redraw every few frames, only for the units whose health changed since their
//!   last redraw (a system's own cursor: `typed_query().changed_since(mask, tick)`);
//! - a sprite loader sets up units that arrived since it last ran (`added_since`).
//!
//! A typed query's `&mut` element reports only the rows written through it; a component
//! declared `[untracked]` is never reported (and costs nothing to write).
//!
//! `cargo run --example change_detection`

use archetypal::{Entity, Tick, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

/// Per-frame scratch data that nobody watches: `[untracked]` below.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Scratch(pub u32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        scratch: Scratch => SCRATCH [untracked],
    }
    Resources {
        /// When the health bars were last drawn: the bars' own cursor.
        bars_drawn_at: Tick,
        /// When the sprite loader last ran.
        sprites_loaded_at: Tick,
    }
}

const UNITS: usize = 1_000;
/// One unit in this many walks; the others stand still.
const WALKER_EVERY: usize = 10;
/// One unit in this many is hit each frame, a different one every frame.
const HIT_EVERY: usize = 100;
const BAR_PERIOD: usize = 5;

/// Walkers walk. The typed query visits every unit with a velocity but reports only the rows
/// it writes: standing units (velocity zero) are skipped and stay unchanged.
fn walk(world: &mut World) {
    world
        .typed_query::<(&mut Position, &Velocity)>()
        .for_each(|(mut position, velocity)| {
            if velocity.x != 0.0 || velocity.y != 0.0 {
                position.x += velocity.x;
                position.y += velocity.y;
            }
        });
}

/// Some units are hit; every unit's scratch counter is bumped (untracked: never reported).
fn fight(world: &mut World, units: &[Entity], frame: usize) {
    for unit in units.iter().skip(frame % HIT_EVERY).step_by(HIT_EVERY) {
        if let Some(health) = world.get_health_mut(*unit) {
            health.0 -= 1;
        }
    }
    // A typed query names the one column it writes. (A table view, `for_each_table_mut`,
    // hands out every column of the table and so reports them all changed: the fast but
    // coarse writer.)
    world
        .typed_query::<&mut Scratch>()
        .for_each(|mut scratch| scratch.0 += 1);
}

/// The spatial index: re-files the units that moved since the last `step()`.
fn index_positions(world: &mut World) -> usize {
    let since = world.last_tick();
    world
        .typed_query_ref::<&Position>()
        .changed_since(POSITION, since)
        .count()
}

/// Health bars: redrawn for the units whose health changed since the last redraw.
fn draw_health_bars(world: &mut World) -> usize {
    let since = world.resources.bars_drawn_at;
    let redrawn = world
        .typed_query::<(Entity, &Health)>()
        .changed_since(HEALTH, since)
        .count();
    world.resources.bars_drawn_at = world.current_tick();
    redrawn
}

/// The sprite loader: units that got a position since it last ran.
fn load_sprites(world: &mut World) -> usize {
    let since = world.resources.sprites_loaded_at;
    let arrived = world
        .typed_query::<&Position>()
        .added_since(POSITION, since)
        .count();
    world.resources.sprites_loaded_at = world.current_tick();
    arrived
}

fn main() {
    let mut world = World::new();
    let units = world.spawn_batch(
        POSITION | VELOCITY | HEALTH | SCRATCH,
        UNITS,
        |table, row| {
            table.health[row] = Health(100);
            if row % WALKER_EVERY == 0 {
                table.velocity[row] = Velocity { x: 1.0, y: 0.5 };
            }
        },
    );
    // Everything spawned is new: the loader sets up all of it.
    assert_eq!(load_sprites(&mut world), UNITS);
    let spawned_at = world.current_tick();
    world.step();

    for frame in 0..20 {
        walk(&mut world);
        fight(&mut world, &units, frame);
        if frame == 12 {
            // Reinforcements arrive mid-game.
            world.spawn_entities(POSITION | VELOCITY | HEALTH, 5);
            assert_eq!(load_sprites(&mut world), 5, "only the newcomers");
        }

        let refiled = index_positions(&mut world);
        assert_eq!(
            refiled,
            UNITS / WALKER_EVERY + if frame == 12 { 5 } else { 0 }
        );

        if frame % BAR_PERIOD == BAR_PERIOD - 1 {
            let redrawn = draw_health_bars(&mut world);
            // Frame 4 redraws the initial bars too (spawned after the cursor's tick 0).
            let expected = if frame == BAR_PERIOD - 1 {
                UNITS
            } else {
                BAR_PERIOD * UNITS / HIT_EVERY + if frame == 14 { 5 } else { 0 }
            };
            assert_eq!(redrawn, expected);
            println!(
                "frame {frame:2}: re-filed {refiled} moved units, redrew {redrawn} health bars"
            );
        }
        world.step(); // ends the frame: "changed since the last step" starts over
    }

    // Since the spawn: the untracked scratch column was written every frame and is never
    // reported.
    assert_eq!(world.get_scratch(units[1]), Some(&Scratch(20)));
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(SCRATCH, spawned_at)
            .iter()
            .count(),
        0
    );
    // Standing units were visited by `walk` every frame but never written: not changed.
    let standing = units[1];
    assert!(
        world
            .typed_query::<&Position>()
            .changed_since(POSITION, spawned_at)
            .get(standing)
            .is_none()
    );
    println!("the untracked scratch counters and the standing units were never reported");
}
