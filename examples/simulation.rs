//! The main demo: a herd of 100,000 creatures over 300 frames, run as a game would run it.
//!
//! A `Schedule` holds the systems by name and runs them once per frame, then `world.step()` ends
//! the frame. Along the way the demo uses every part of the game-loop layer:
//!
//! - components for data (`Burning` keeps its damage and time left; starting and putting out a
//!   fire adds and removes it, a migration each way), and tags for markers: `player` (the units
//!   the player steers) and `dead` (corpses waiting to be cleared away);
//! - systems of parameters: each system is a plain function whose parameters say what it
//!   touches (`Query` with filters as types, `Res`/`ResMut`, `EventReader`/`EventWriter`,
//!   `Commands`, `Local`), so one loop over the components queues commands, sends events and
//!   updates resources, with nothing collected in between;
//! - events: the fire system sends `ignited`, the vitals system sends `died`; other systems
//!   read them, each `EventReader` through its own cursor, kept in the world (`died` has two
//!   readers);
//! - commands: systems queue structural changes (`queue_*`); the schedule applies them after
//!   each system, before the next one runs, and the `CommandReport` it returns is summed for
//!   the summary;
//! - change detection: a spatial index re-files only the creatures whose position changed
//!   since it last ran (`Changed<Position>`), and the player's health bars, a system the
//!   schedule runs every tenth frame (`run_if`), redraw only the units whose health changed
//!   since their last redraw;
//! - timing: the schedule times each system (`set_timing`), read back for the summary
//!   (`timings`), with no wrapper around the systems, so each still says what it touches.
//!
//! Every frame it spawns newcomers (and a few births), migrates thousands of creatures and
//! despawns cleared corpses. Runs are deterministic: one seeded xorshift generator drives it all.
//!
//! It also draws the world every tenth frame into an animated GIF (`simulation/draw.rs`): the
//! herd as points, burning creatures in orange, corpses faded, the player's units as blue
//! squares and their rally point as a white cross. Drawing reads the world between frames, after the timed
//! systems, and its time is reported apart from the frame time. The GIF and its last frame
//! alone go to `target/simulation/` (`$CARGO_TARGET_DIR/simulation/` if that is set), named in
//! the last line printed.
//!
//! `cargo run --release --example simulation` (options after `--`: `--no-picture` skips the
//! drawing, `--picture-dir DIR` writes it to `DIR`)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use archetypal::{
    Changed, CommandReport, Entity, EventReader, EventWriter, Has, Local, Res, ResMut, RunIf,
    Schedule, With, Without, ecs,
};

#[path = "simulation/draw.rs"]
mod draw;

/// Living creatures the spawner keeps the world at, the player's units included.
const POPULATION: usize = 100_000;
/// Units the player steers: they follow a rally point and respawn instead of dying.
const PLAYER_UNITS: usize = 1_000;
const FRAMES: usize = 300;
const WORLD_SIZE: f32 = 1_000.0;
/// The spatial index files creatures in square cells of this side; fire spreads within a cell.
const CELL_SIZE: f32 = 20.0;
const GRID_WIDTH: usize = (WORLD_SIZE / CELL_SIZE) as usize;
/// How long a corpse lies before it is cleared away (despawned).
const CORPSE_SECONDS: f32 = 1.0;
/// Health bars redraw every this many frames, like a UI refreshed at a lower rate.
const HEALTH_BAR_PERIOD: usize = 10;
/// The picture draws every this many frames, the last frame included.
const DRAW_PERIOD: usize = 10;

/// Per-frame chances. Walkers stop as often as resters start, so about half the herd rests
/// at any time: those positions do not change, which is what change detection skips.
const STOP_CHANCE: f32 = 0.01;
const START_CHANCE: f32 = 0.01;
const BIRTH_CHANCE: f32 = 0.0002;
/// A spark can set anyone alight; each burning creature in a cell adds `SPREAD_CHANCE` of
/// catching fire to everyone else in it.
const SPARK_CHANCE: f32 = 0.0005;
const SPREAD_CHANCE: f32 = 0.0002;

#[derive(Default, Clone, Copy, Debug)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Clone, Copy, Debug)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Clone, Copy, Debug)]
pub struct Health(pub f32);

/// Seconds left to live; for a corpse, seconds until it is cleared away.
#[derive(Default, Clone, Copy, Debug)]
pub struct Lifetime(pub f32);

#[derive(Default, Clone, Copy, Debug)]
pub struct Burning {
    pub damage_per_second: f32,
    pub seconds_left: f32,
}

/// The spatial index's grid cell of a creature: derived from its position by `index_positions`.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(pub u32);

impl Cell {
    fn of(position: Position) -> Cell {
        // `as usize` saturates a negative coordinate to 0; `min` catches the far edges (a
        // creature may overshoot the world for a frame before it bounces back).
        let column = ((position.x / CELL_SIZE) as usize).min(GRID_WIDTH - 1);
        let row = ((position.y / CELL_SIZE) as usize).min(GRID_WIDTH - 1);
        Cell((row * GRID_WIDTH + column) as u32)
    }
}

/// Event: `entity` caught fire, from a spark or from a burning neighbour.
#[derive(Clone, Copy, Debug)]
pub struct Ignited {
    pub entity: Entity,
    pub spread: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Burned,
    OldAge,
}

/// Event: `entity` died.
#[derive(Clone, Copy, Debug)]
pub struct Died {
    pub entity: Entity,
    pub cause: Cause,
}

/// A small deterministic generator (xorshift64*), so every run simulates the same world.
#[derive(Clone, Copy, Debug)]
pub struct Rng(u64);

impl Default for Rng {
    fn default() -> Self {
        Rng(0x2545_f491_4f6c_dd1d)
    }
}

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }

    fn chance(&mut self, probability: f32) -> bool {
        self.unit() < probability
    }

    fn walking_velocity(&mut self) -> Velocity {
        Velocity {
            x: self.range(-20.0, 20.0),
            y: self.range(-20.0, 20.0),
        }
    }

    fn fire(&mut self) -> Burning {
        Burning {
            damage_per_second: self.range(5.0, 40.0),
            seconds_left: self.range(0.5, 3.0),
        }
    }
}

/// Where the player ordered the units to go: its angle around the world's centre.
#[derive(Default, Clone, Copy, Debug)]
pub struct Rally {
    pub angle: f32,
}

/// What the systems counted over the run, for the summary.
#[derive(Default, Debug)]
pub struct Stats {
    spawned: usize,
    born: usize,
    despawned: usize,
    migrations_queued: usize,
    ignited_by_spark: usize,
    ignited_by_spread: usize,
    died_burned: usize,
    died_of_old_age: usize,
    players_respawned: usize,
    events_lost: u64,
    commands: CommandReport,
    busiest_frame_commands: usize,
    positions_indexed: usize,
    positions_total: usize,
    cell_changes: usize,
    health_bars_redrawn: usize,
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        // Lifetimes tick down every frame and cells are derived data: nobody asks which of them
        // changed, so they carry no change ticks.
        lifetime: Lifetime => LIFETIME [untracked],
        burning: Burning => BURNING,
        cell: Cell => CELL [untracked],
    }
    Tags {
        player => PLAYER,
        dead => DEAD,
    }
    Events {
        ignited: Ignited,
        died: Died,
    }
    Resources {
        delta_time: f32,
        rng: Rng,
        /// Where the player ordered the units to go: it circles the world's centre.
        rally: Rally,
        stats: Stats,
    }
}

/// The creatures a fresh spawn gets: everything but fire and tags.
const CREATURE: Mask = POSITION | VELOCITY | HEALTH | LIFETIME | CELL;

/// Brings the living population back to `POPULATION`: one queued batch, each value moved
/// once, spawned at the sync point after it, before the next system runs.
fn spawn_newcomers(
    living: Query<Entity, Without<DEAD>>,
    mut rng: ResMut<Rng>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    let missing = POPULATION.saturating_sub(living.count());
    commands.queue_spawn_values((0..missing).map(|_| {
        (
            Position {
                x: rng.range(0.0, WORLD_SIZE),
                y: rng.range(0.0, WORLD_SIZE),
            },
            rng.walking_velocity(),
            Health(rng.range(50.0, 100.0)),
            Lifetime(rng.range(2.0, 20.0)),
            Cell::default(),
        )
    }));
    stats.spawned += missing;
}

/// Where the player ordered the units to go when the rally angle is `angle`: a point circling
/// the world's centre.
fn rally_point(angle: f32) -> Position {
    Position {
        x: WORLD_SIZE / 2.0 + 250.0 * angle.cos(),
        y: WORLD_SIZE / 2.0 + 250.0 * angle.sin(),
    }
}

/// The player's units head for the rally point, each to its own place in a square formation
/// (so they do not pile into one cell, where a single fire would reach them all).
fn steer_player_units(
    delta_time: Res<f32>,
    mut rally: ResMut<Rally>,
    mut units: Query<(Entity, &Position, &mut Velocity), With<PLAYER>>,
) {
    let delta_time = *delta_time;
    rally.angle += 0.2 * delta_time;
    let rally = rally_point(rally.angle);
    // A tag filter: only the player's rows. A typed query, so only `Velocity` is reported
    // changed (a table view would report the players' health too, and the health bars would
    // be redrawn for every player).
    units.for_each(|(entity, position, mut velocity)| {
        let slot = entity.id as usize % PLAYER_UNITS;
        let target_x = rally.x + (slot % 32) as f32 * 8.0 - 128.0;
        let target_y = rally.y + (slot / 32) as f32 * 8.0 - 128.0;
        let (dx, dy) = (target_x - position.x, target_y - position.y);
        let distance = (dx * dx + dy * dy).sqrt().max(1.0);
        let speed = 30.0_f32.min(distance / delta_time);
        *velocity = Velocity {
            x: dx / distance * speed,
            y: dy / distance * speed,
        };
    });
}

/// Integrates positions, bouncing off the world's edges: the hot loop. Corpses and resting
/// creatures have no `Velocity`, so they are not in its tables at all. A typed query stamps
/// what it writes: every mover's position, and a velocity only where it bounces. (A table
/// view, `for_each_table_mut`, cannot see its writes, so it would report every column of
/// these tables changed, `Health` included.)
fn move_creatures(delta_time: Res<f32>, mut movers: Query<(&mut Position, &mut Velocity)>) {
    let delta_time = *delta_time;
    movers.for_each(|(mut position, mut velocity)| {
        position.x += velocity.x * delta_time;
        position.y += velocity.y * delta_time;
        if !(0.0..WORLD_SIZE).contains(&position.x) {
            velocity.x = -velocity.x;
        }
        if !(0.0..WORLD_SIZE).contains(&position.y) {
            velocity.y = -velocity.y;
        }
    });
}

/// Everyone ages, corpses included. A typed query writes only `Lifetime` (untracked: no
/// stamps). A table view (`for_each_table_mut`) cannot see which columns it writes, so it
/// would stamp every tracked column of the herd's tables, and the spatial index would re-file
/// everyone.
fn age(delta_time: Res<f32>, mut everyone: Query<&mut Lifetime>) {
    let delta_time = *delta_time;
    everyone.for_each(|mut lifetime| lifetime.0 -= delta_time);
}

/// Reports deaths as `died` events and queues the despawn of cleared corpses, from inside the
/// loops that find them.
fn vitals(
    mut living: Query<(Entity, &Health, &Lifetime), Without<DEAD>>,
    mut corpses: Query<(Entity, &Lifetime), With<DEAD>>,
    mut died: EventWriter<Died>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    living.for_each(|(entity, health, lifetime)| {
        let cause = if health.0 <= 0.0 {
            Cause::Burned
        } else if lifetime.0 <= 0.0 {
            Cause::OldAge
        } else {
            return;
        };
        died.send(Died { entity, cause });
    });
    corpses.for_each(|(entity, lifetime)| {
        if lifetime.0 <= 0.0 {
            commands.queue_despawn(entity);
            stats.despawned += 1;
        }
    });
}

/// Turns `died` events into corpses, or respawns the player's units. The events are read
/// through the system's own reader, whose cursor the world keeps.
fn reap(
    mut died: EventReader<Died>,
    units: Query<(Has<Burning>, Has<Velocity>, Has<PLAYER>)>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    let consumed = died.read();
    stats.events_lost += consumed.lost();
    for &Died { entity, .. } in consumed {
        let Some((burning, moving, player)) = units.get(entity) else {
            continue;
        };
        if player {
            // The player's units are not lost: they go back to base, healed.
            commands.queue_set_health(entity, Health(100.0));
            commands.queue_set_position(entity, Position { x: 50.0, y: 50.0 });
            if burning {
                commands.queue_remove_components(entity, BURNING);
                stats.migrations_queued += 1;
            }
            stats.players_respawned += 1;
            continue;
        }
        // A tag is a sparse-set insert, not a migration: applied at the sync point right after
        // this system, so every later system this frame leaves the corpse alone (no fire, no
        // walking, no births).
        commands.queue_add_dead(entity);
        // The corpse stops and its fire goes out: a migration (not queued at all for a resting
        // creature that was not burning).
        if burning || moving {
            commands.queue_remove_components(entity, VELOCITY | BURNING);
            stats.migrations_queued += 1;
        }
        commands.queue_set_lifetime(entity, Lifetime(CORPSE_SECONDS));
    }
}

/// Fire burns the living and spreads within a cell; new fires are only announced (`ignited`),
/// `catch_fire` lights them. The burning are written while the others are read: `Burning`
/// required by one query and excluded by the other keeps them apart.
#[allow(clippy::too_many_arguments, clippy::type_complexity)] // each parameter a part it touches
fn burn(
    mut burning: Query<(Entity, &mut Health, &mut Burning, &Cell), Without<DEAD>>,
    mut exposed: Query<(Entity, &Cell), (With<Health>, Without<Burning>, Without<DEAD>)>,
    mut heat: Local<Vec<u32>>,
    delta_time: Res<f32>,
    mut rng: ResMut<Rng>,
    mut stats: ResMut<Stats>,
    mut ignited: EventWriter<Ignited>,
    mut commands: Commands,
) {
    let delta_time = *delta_time;
    // How many creatures burn in each cell: the data fire spreads by, kept between runs so its
    // memory is reused.
    heat.clear();
    heat.resize(GRID_WIDTH * GRID_WIDTH, 0);
    burning.for_each(|(entity, mut health, mut fire, cell)| {
        health.0 -= fire.damage_per_second * delta_time;
        fire.seconds_left -= delta_time;
        heat[cell.0 as usize] += 1;
        if fire.seconds_left <= 0.0 {
            commands.queue_remove_components(entity, BURNING);
            stats.migrations_queued += 1;
        }
    });
    exposed.for_each(|(entity, cell)| {
        let neighbours_on_fire = heat[cell.0 as usize];
        if rng.chance(SPARK_CHANCE) {
            ignited.send(Ignited {
                entity,
                spread: false,
            });
        } else if neighbours_on_fire > 0 && rng.chance(SPREAD_CHANCE * neighbours_on_fire as f32) {
            ignited.send(Ignited {
                entity,
                spread: true,
            });
        }
    });
}

/// Lights the fires announced by `ignited`: adding `Burning` is a migration, so it is queued.
fn catch_fire(
    mut ignited: EventReader<Ignited>,
    mut rng: ResMut<Rng>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    let consumed = ignited.read();
    stats.events_lost += consumed.lost();
    for &Ignited { entity, spread } in consumed {
        commands.queue_set_burning(entity, rng.fire());
        stats.migrations_queued += 1;
        if spread {
            stats.ignited_by_spread += 1;
        } else {
            stats.ignited_by_spark += 1;
        }
    }
}

/// Walkers stop to rest (they lose `Velocity`), resters set off again (they gain one). The
/// player's units never rest; corpses never get up.
#[allow(clippy::type_complexity)] // query filters as types, read as written
fn wander(
    mut walkers: Query<Entity, (With<Velocity>, Without<PLAYER>, Without<DEAD>)>,
    mut resters: Query<Entity, (With<Position>, Without<Velocity>, Without<DEAD>)>,
    mut rng: ResMut<Rng>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    walkers.for_each(|entity| {
        if rng.chance(STOP_CHANCE) {
            commands.queue_remove_components(entity, VELOCITY);
            stats.migrations_queued += 1;
        }
    });
    resters.for_each(|entity| {
        if rng.chance(START_CHANCE) {
            commands.queue_set_velocity(entity, rng.walking_velocity());
            stats.migrations_queued += 1;
        }
    });
}

/// Healthy resting creatures now and then have a calf beside them: a queued spawn with its
/// values, from inside the loop (the handle it returns is good for later commands at once).
#[allow(clippy::type_complexity)] // query filters as types, read as written
fn breed(
    mut resters: Query<(&Position, &Health), (Without<Velocity>, Without<DEAD>)>,
    mut rng: ResMut<Rng>,
    mut stats: ResMut<Stats>,
    mut commands: Commands,
) {
    resters.for_each(|(parent, health)| {
        if health.0 >= 80.0 && rng.chance(BIRTH_CHANCE) {
            // Calves are born resting (no `Velocity`): `wander` gets them going.
            let calf = EntityBuilder::new()
                .with_position(Position {
                    x: parent.x + rng.range(-2.0, 2.0),
                    y: parent.y + rng.range(-2.0, 2.0),
                })
                .with_health(Health(60.0))
                .with_lifetime(Lifetime(rng.range(5.0, 20.0)))
                .with_mask(CELL);
            commands.queue_spawn(calf);
            stats.born += 1;
        }
    });
}

/// The spatial index: re-files in its grid cell every creature whose position changed since
/// it last ran (movers, newcomers, calves, respawned units) and skips the rest.
fn index_positions(
    mut moved: Query<(&Position, &mut Cell), Changed<Position>>,
    everyone: Query<Entity>,
    mut stats: ResMut<Stats>,
) {
    let (mut indexed, mut cell_changes) = (0, 0);
    moved.for_each(|(position, mut cell)| {
        indexed += 1;
        let filed = Cell::of(*position);
        if *cell != filed {
            *cell = filed;
            cell_changes += 1;
        }
    });
    stats.positions_indexed += indexed;
    stats.positions_total += everyone.count();
    stats.cell_changes += cell_changes;
}

/// The player's health bars, redrawn for the units whose health changed since the last
/// redraw. The schedule runs it every `HEALTH_BAR_PERIOD` frames (`run_if`), so its last run
/// is the last redraw.
fn redraw_health_bars(
    hurt: Query<Entity, (Changed<Health>, With<PLAYER>)>,
    mut stats: ResMut<Stats>,
) {
    stats.health_bars_redrawn += hurt.count();
}

/// The kill feed: deaths by cause. A second reader of `died`, with its own cursor.
fn chronicle(mut died: EventReader<Died>, mut stats: ResMut<Stats>) {
    let consumed = died.read();
    let burned = consumed
        .iter()
        .filter(|died| died.cause == Cause::Burned)
        .count();
    stats.events_lost += consumed.lost();
    stats.died_burned += burned;
    stats.died_of_old_age += consumed.len() - burned;
}

/// The frame, in order. Each system is named after its function; the schedule applies each
/// system's commands before the next runs, and times each system's calls (not the commands
/// applied after them: their time is the frame's).
fn build_schedule() -> Schedule<World> {
    let mut schedule = Schedule::new();
    schedule
        .add((
            spawn_newcomers,
            steer_player_units,
            move_creatures,
            age,
            vitals,
            reap,
            burn,
        ))
        .add((
            catch_fire,
            wander,
            breed,
            index_positions,
            redraw_health_bars.run_if(every_nth_frame(HEALTH_BAR_PERIOD)),
            chronicle,
        ))
        .set_timing(true);
    schedule
}

/// A run condition that holds on the first frame and on every `period`th after it.
fn every_nth_frame(period: usize) -> impl FnMut(&World) -> bool {
    let mut frame = 0;
    move |_| {
        frame += 1;
        (frame - 1) % period == 0
    }
}

/// The player's units, placed before the first frame. They never age. A mask with a tag
/// (`PLAYER`), most components left at their defaults: `spawn_batch`'s rows written in place.
fn spawn_player_units(world: &mut World) {
    let mut rng = world.resources.rng;
    world.spawn_batch(CREATURE | PLAYER, PLAYER_UNITS, |table, index| {
        table.position[index] = Position {
            x: rng.range(0.0, 200.0),
            y: rng.range(0.0, 200.0),
        };
        table.health[index] = Health(100.0);
        table.lifetime[index] = Lifetime(f32::INFINITY);
    });
    world.resources.rng = rng;
    world.resources.stats.spawned += PLAYER_UNITS;
}

/// The folder the picture goes to unless `--picture-dir` names another: `simulation/` in
/// cargo's target folder, never the source tree.
fn default_picture_folder() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("simulation")
}

/// The folder the command line asks the picture to go to; `None` for `--no-picture`.
fn picture_folder_from_arguments() -> Option<PathBuf> {
    let mut folder = Some(default_picture_folder());
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        folder = match argument.as_str() {
            "--no-picture" => None,
            "--picture-dir" => match arguments.next() {
                Some(directory) => Some(PathBuf::from(directory)),
                None => usage(),
            },
            _ => usage(),
        };
    }
    folder
}

fn usage() -> ! {
    eprintln!("usage: simulation [--no-picture | --picture-dir DIRECTORY]");
    std::process::exit(2);
}

fn main() {
    let picture_folder = picture_folder_from_arguments();
    let mut world = World::new();
    world.resources.delta_time = 1.0 / 60.0;
    spawn_player_units(&mut world);
    let mut schedule = build_schedule();
    // Each GIF frame is shown for the simulated time it stands for (in hundredths of a second).
    let delay = (DRAW_PERIOD as f32 * world.resources.delta_time * 100.0).round() as u16;
    let mut recording = picture_folder.map(|folder| {
        let (path, still) = (folder.join("simulation.gif"), folder.join("last-frame.gif"));
        draw::Recording::create(&path, &still, delay).expect("start the picture")
    });

    let mut total = Duration::ZERO;
    let mut slowest_frame = Duration::ZERO;
    for frame in 1..=FRAMES {
        let frame_start = Instant::now();
        let commands = schedule.run(&mut world);
        let stats = &mut world.resources.stats;
        stats.commands.absorb(commands);
        stats.busiest_frame_commands = stats.busiest_frame_commands.max(commands.total());
        // Ends the frame: the tick advances, events older than two frames expire.
        world.step();
        let frame_time = frame_start.elapsed();
        total += frame_time;
        slowest_frame = slowest_frame.max(frame_time);
        // Between frames, outside the frame's time: the recording times itself.
        if let Some(recording) = recording.as_mut().filter(|_| frame % DRAW_PERIOD == 0) {
            recording.draw(&world).expect("draw a frame of the picture");
        }
    }
    let drawing = recording.map(|recording| recording.finish().expect("finish the picture"));

    if let Err(error) = world.check_invariants() {
        panic!("the simulation broke the world: {error}");
    }
    print_summary(&world, &schedule, total, slowest_frame);
    if let Some(drawing) = &drawing {
        println!(
            "  drawing (ms per drawn frame) {:>10.3} ({} frames, one in {DRAW_PERIOD}: {:.1}% of the frames' total time, not counted in it)",
            drawing.time.as_secs_f64() * 1_000.0 / drawing.frames as f64,
            drawing.frames,
            100.0 * drawing.time.as_secs_f64() / total.as_secs_f64(),
        );
    }
    // Change detection reports what was written: the health bars are redrawn for the player
    // units whose health changed, not for every unit that moved, and the spatial index
    // re-files the movers only.
    let stats = &world.resources.stats;
    let redraws = FRAMES.div_ceil(HEALTH_BAR_PERIOD);
    assert!(
        stats.health_bars_redrawn > 0,
        "no player unit was ever hurt"
    );
    assert!(
        stats.health_bars_redrawn < redraws * PLAYER_UNITS / 2,
        "{} health bars redrawn: reported changed without a health write",
        stats.health_bars_redrawn
    );
    assert!(stats.positions_indexed < stats.positions_total);

    // The last line says where the picture is.
    match drawing {
        Some(drawing) => println!(
            "picture: {} ({} frames), its last frame alone: {}",
            drawing.path.display(),
            drawing.frames,
            drawing.still.display()
        ),
        None => println!("picture: skipped (--no-picture)"),
    }
}

fn print_summary(world: &World, schedule: &Schedule<World>, total: Duration, slowest: Duration) {
    let stats = &world.resources.stats;
    let per_frame = |duration: Duration| duration.as_secs_f64() * 1_000.0 / FRAMES as f64;
    let corpses = world.query_entities(DEAD).count();
    println!(
        "archetypal simulation: {FRAMES} frames, {POPULATION} creatures ({PLAYER_UNITS} player units), {} systems",
        schedule.len()
    );
    println!(
        "  entities at the end          {:>10} ({} alive, {} corpses)",
        world.entity_count(),
        world.entity_count() - corpses,
        corpses
    );
    println!(
        "  archetypes                   {:>10}",
        world.archetype_count()
    );
    println!(
        "  burning / resting now        {:>10} / {}",
        world.query_entities(BURNING).count(),
        world
            .typed_query_ref::<Entity>()
            .with(HEALTH)
            .without(VELOCITY | DEAD)
            .count()
    );
    println!(
        "  spawned / born / despawned   {:>10} / {} / {}",
        stats.spawned, stats.born, stats.despawned
    );
    println!(
        "  migrations queued            {:>10}",
        stats.migrations_queued
    );
    println!("  events");
    println!(
        "    ignited (spark / spread)   {:>10} ({} / {})",
        stats.ignited_by_spark + stats.ignited_by_spread,
        stats.ignited_by_spark,
        stats.ignited_by_spread
    );
    println!(
        "    died (burned / old age)    {:>10} ({} / {}), {} player units respawned",
        stats.died_burned + stats.died_of_old_age,
        stats.died_burned,
        stats.died_of_old_age,
        stats.players_respawned
    );
    println!("    lost                       {:>10}", stats.events_lost);
    println!(
        "  commands applied / skipped   {:>10} / {} (busiest frame {})",
        stats.commands.applied, stats.commands.skipped, stats.busiest_frame_commands
    );
    println!("  change detection");
    println!(
        "    positions re-indexed       {:>10} of {} ({:.0}%), {} changed cell",
        stats.positions_indexed,
        stats.positions_total,
        100.0 * stats.positions_indexed as f64 / stats.positions_total as f64,
        stats.cell_changes
    );
    println!(
        "    health bars redrawn        {:>10} in {} redraws of {PLAYER_UNITS} units",
        stats.health_bars_redrawn,
        FRAMES.div_ceil(HEALTH_BAR_PERIOD)
    );
    println!("  systems (ms per frame)");
    for (name, timing) in schedule.timings() {
        println!("    {name:<26} {:>10.3}", per_frame(timing.total));
    }
    println!(
        "  frame time mean / max (ms)   {:>10.3} / {:.3}",
        per_frame(total),
        slowest.as_secs_f64() * 1_000.0
    );
}
