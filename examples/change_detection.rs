//! Change detection: systems that do work only for what changed.
//!
//! A row is reported changed when the program wrote it. Three consumers of changes run here,
//! each a system of a `Schedule` whose query is filtered by type: `Changed<Position>`,
//! `Changed<Health>`, `Added<Position>` mean "since this system last ran", kept in the world,
//! so no system stores a tick.
//!
//! - a spatial index re-files the units that moved since it last ran (every frame);
//! - health bars redraw every few frames (`run_if`), only for the units whose health changed
//!   since their last redraw;
//! - a sprite loader sets up units that arrived since it last ran (`Added`).
//!
//! A typed query's `&mut` element reports only the rows written through it; a component
//! declared `[untracked]` is never reported (and costs nothing to write).
//!
//! `cargo run --example change_detection`

use archetypal::{Added, Changed, Entity, Res, ResMut, RunIf, Schedule, ecs};

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
        frame: Frame,
        units: Vec<Entity>,
        report: Report,
    }
}

/// The frame number. (A system picks a resource by its type, so counters get types of their
/// own rather than sharing `usize`.)
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Frame(pub usize);

/// What the consumers did in their last run.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Report {
    pub refiled: usize,
    pub redrawn: Option<usize>,
    pub loaded: usize,
}

const UNITS: usize = 1_000;
/// One unit in this many walks; the others stand still.
const WALKER_EVERY: usize = 10;
/// One unit in this many is hit each frame, a different one every frame.
const HIT_EVERY: usize = 100;
const BAR_PERIOD: usize = 5;

/// Walkers walk. The typed query visits every unit with a velocity but reports only the rows
/// it writes: standing units (velocity zero) are skipped and stay unchanged.
fn walk(mut walkers: Query<(&mut Position, &Velocity)>) {
    walkers.for_each(|(mut position, velocity)| {
        if velocity.x != 0.0 || velocity.y != 0.0 {
            position.x += velocity.x;
            position.y += velocity.y;
        }
    });
}

/// Some units are hit, a different few every frame; every unit's scratch counter is bumped
/// (untracked: never reported).
fn fight(
    frame: Res<Frame>,
    units: Res<Vec<Entity>>,
    mut healths: Query<&mut Health>,
    mut scratches: Query<&mut Scratch>,
) {
    for unit in units.iter().skip(frame.0 % HIT_EVERY).step_by(HIT_EVERY) {
        if let Some(mut health) = healths.get_mut(*unit) {
            health.0 -= 1;
        }
    }
    // A typed query names the one column it writes. (A table view, `for_each_table_mut`,
    // hands out every column of the table and so reports them all changed: the fast but
    // coarse writer.)
    scratches.for_each(|mut scratch| scratch.0 += 1);
}

/// The spatial index: re-files the units that moved since it last ran.
fn index_positions(moved: Query<&Position, Changed<Position>>, mut report: ResMut<Report>) {
    report.refiled = moved.count();
}

/// Health bars: redrawn for the units whose health changed since the last redraw (the
/// schedule runs this system every `BAR_PERIOD` frames, so its last run is the last redraw).
fn draw_health_bars(hurt: Query<(Entity, &Health), Changed<Health>>, mut report: ResMut<Report>) {
    report.redrawn = Some(hurt.count());
}

/// The sprite loader: units that got a position since it last ran.
fn load_sprites(arrived: Query<&Position, Added<Position>>, mut report: ResMut<Report>) {
    report.loaded = arrived.count();
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
    schedule.add((
        walk,
        fight,
        load_sprites,
        index_positions,
        draw_health_bars
            .run_if(|world: &World| world.resources.frame.0 % BAR_PERIOD == BAR_PERIOD - 1),
    ));

    for frame in 0..20 {
        world.resources.frame = Frame(frame);
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
        assert_eq!(
            world.resources.report.loaded, expected_loaded,
            "frame {frame}"
        );
        let expected_refiled = match frame {
            0 => UNITS,
            12 => UNITS / WALKER_EVERY + 5,
            _ => UNITS / WALKER_EVERY,
        };
        assert_eq!(
            world.resources.report.refiled, expected_refiled,
            "frame {frame}"
        );

        if let Some(redrawn) = world.resources.report.redrawn.take() {
            // The first redraw draws every bar; later ones the units hit since the last.
            let expected = if frame == BAR_PERIOD - 1 {
                UNITS
            } else {
                BAR_PERIOD * UNITS / HIT_EVERY + if frame == 14 { 5 } else { 0 }
            };
            assert_eq!(redrawn, expected, "frame {frame}");
            println!(
                "frame {frame:2}: re-filed {} moved units, loaded {} sprites, redrew {redrawn} health bars",
                world.resources.report.refiled, world.resources.report.loaded
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
