//! Change detection: systems that do work only for what changed.
//!
//! A row is reported changed when the program wrote it. Three consumers of changes run here,
//! each a system of a `Schedule` that takes its `SystemContext`: "since this system last ran"
//! is `context.last_run()`, kept by the schedule, so no system stores a tick.
//!
//! - a spatial index re-files the units that moved since it last ran (every frame);
//! - health bars redraw every few frames (`run_if`), only for the units whose health changed
//!   since their last redraw;
//! - a sprite loader sets up units that arrived since it last ran (`added_since`).
//!
//! A typed query's `&mut` element reports only the rows written through it; a component
//! declared `[untracked]` is never reported (and costs nothing to write).
//!
//! `cargo run --example change_detection`

use archetypal::{Entity, Schedule, SystemContext, ecs};

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
        frame: usize,
        units: Vec<Entity>,
        /// What the consumers did in their last run.
        refiled: usize,
        redrawn: Option<usize>,
        loaded: usize,
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

/// Some units are hit, a different few every frame; every unit's scratch counter is bumped
/// (untracked: never reported).
fn fight(world: &mut World) {
    let parts = world.split_mut();
    let frame = parts.resources.frame;
    for unit in parts
        .resources
        .units
        .iter()
        .skip(frame % HIT_EVERY)
        .step_by(HIT_EVERY)
    {
        if let Some(health) = parts.components.get_health_mut(*unit) {
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

/// The spatial index: re-files the units that moved since it last ran.
fn index_positions(world: &mut World, context: &mut SystemContext<World>) {
    world.resources.refiled = world
        .typed_query_ref::<&Position>()
        .changed_since(POSITION, context.last_run())
        .count();
}

/// Health bars: redrawn for the units whose health changed since the last redraw (the
/// schedule runs this system every `BAR_PERIOD` frames, so its last run is the last redraw).
fn draw_health_bars(world: &mut World, context: &mut SystemContext<World>) {
    let redrawn = world
        .typed_query_ref::<(Entity, &Health)>()
        .changed_since(HEALTH, context.last_run())
        .count();
    world.resources.redrawn = Some(redrawn);
}

/// The sprite loader: units that got a position since it last ran.
fn load_sprites(world: &mut World, context: &mut SystemContext<World>) {
    world.resources.loaded = world
        .typed_query_ref::<&Position>()
        .added_since(POSITION, context.last_run())
        .count();
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
    world.resources.units = units.clone();
    let spawned_at = world.current_tick();

    let mut schedule = Schedule::new();
    schedule
        .push("walk", walk)
        .and_then(|schedule| schedule.push("fight", fight))
        .and_then(|schedule| schedule.push("load_sprites", load_sprites))
        .and_then(|schedule| schedule.push("index_positions", index_positions))
        .and_then(|schedule| schedule.push("health_bars", draw_health_bars))
        .and_then(|schedule| {
            schedule.run_if("health_bars", |world: &World| {
                world.resources.frame % BAR_PERIOD == BAR_PERIOD - 1
            })
        })
        .expect("unique names");

    for frame in 0..20 {
        world.resources.frame = frame;
        if frame == 12 {
            // Reinforcements arrive mid-game.
            world.spawn_entities(POSITION | VELOCITY | HEALTH, 5);
        }
        schedule.run(&mut world);

        // The first run sees everything (the spawns); later ones only what is new.
        let expected_loaded = match frame {
            0 => UNITS,
            12 => 5,
            _ => 0,
        };
        assert_eq!(world.resources.loaded, expected_loaded, "frame {frame}");
        let expected_refiled = match frame {
            0 => UNITS,
            12 => UNITS / WALKER_EVERY + 5,
            _ => UNITS / WALKER_EVERY,
        };
        assert_eq!(world.resources.refiled, expected_refiled, "frame {frame}");

        if let Some(redrawn) = world.resources.redrawn.take() {
            // The first redraw draws every bar; later ones the units hit since the last.
            let expected = if frame == BAR_PERIOD - 1 {
                UNITS
            } else {
                BAR_PERIOD * UNITS / HIT_EVERY + if frame == 14 { 5 } else { 0 }
            };
            assert_eq!(redrawn, expected, "frame {frame}");
            println!(
                "frame {frame:2}: re-filed {} moved units, loaded {} sprites, redrew {redrawn} health bars",
                world.resources.refiled, world.resources.loaded
            );
        }
        world.step(); // ends the frame: the tick advances, old events expire
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
