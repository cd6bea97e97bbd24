//! Hooks declared in `ecs!`: a spatial index kept in step with the world by hooks, instead of
//! rebuilt from scratch every frame.
//!
//! A herd lives on a grid of cells. `on_add(POSITION)` files a creature in its cell and
//! `on_remove(POSITION)` unfiles it (a despawn included), each in O(1): the removal's hook
//! reads the cell the creature was filed in from its `Cell`, the value that went with a
//! despawn (kept aside for the hooks) or the one it keeps when it only burrows, so the grid
//! keeps no copy of it. A system re-files only the creatures whose position changed since it
//! last ran. Every frame creatures are spawned
//! (directly and by queued commands), despawned (directly, queued, and by a `[cascade]`: riders
//! go with their mount), and some burrow (lose `Position`) or resurface (regain it).
//!
//! The same game also rebuilds a second grid from a query every frame, the "before". Each
//! frame the two grids must file the same entities in every cell; the output gives the cost
//! per frame of each and their ratio. Two more hooks a game would write: `on_add(HEALTH)`
//! queues a health bar linked to its owner, and `on_unlink(BAR_OF)` counts the bars freed.
//! Hooks run at the sync point (`apply_commands`, after each system of the `Schedule`), and
//! every firing the game can predict is asserted.
//!
//! `cargo run --release --example observers`

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use archetypal::{Changed, Entity, Res, ResMut, Schedule, With, Without, ecs};

/// Creatures the spawner keeps the herd at (mounts and riders come on top).
const POPULATION: usize = 30_000;
const FRAMES: usize = 200;
const DELTA_TIME: f32 = 1.0 / 60.0;
const WORLD_SIZE: f32 = 1_000.0;
const CELL_SIZE: f32 = 25.0;
const GRID_WIDTH: usize = (WORLD_SIZE / CELL_SIZE) as usize;
/// Most of a herd grazes: only this share of newcomers walks, so most positions never change.
const WALKER_CHANCE: f32 = 0.2;
const BURROW_CHANCE: f32 = 0.002;
const RESURFACE_CHANCE: f32 = 0.05;
/// One mount joins per frame with its riders; past this many, the oldest leaves (despawned).
const MOUNTS: usize = 50;
const RIDERS_PER_MOUNT: usize = 3;

#[derive(Default, Clone, Copy, Debug, PartialEq)]
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

/// Seconds left to live. Mounts and riders have none: they leave with the mount roster.
#[derive(Default, Clone, Copy, Debug)]
pub struct Lifetime(pub f32);

/// A health bar drawn above its owner (linked by `bar_of`).
#[derive(Default, Clone, Copy, Debug)]
pub struct HealthBar {
    pub fill: f32,
}

/// The grid cell a creature is filed in, kept beside its position so that re-filing a mover
/// reads its old cell in the row it iterates, and touches the grid only when the cell changes;
/// the one record of it (the grid keeps a slot per creature, not its cell).
#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub struct Cell(pub usize);

/// Where the grid files `position`.
fn cell_of(position: Position) -> usize {
    // `as usize` saturates negatives to 0; `min` catches a walker overshooting for a frame.
    let column = ((position.x / CELL_SIZE) as usize).min(GRID_WIDTH - 1);
    let row = ((position.y / CELL_SIZE) as usize).min(GRID_WIDTH - 1);
    row * GRID_WIDTH + column
}

/// Where the grid holds an entity in its cell's list (the cell is its `Cell` component).
#[derive(Clone, Copy, Debug)]
struct Filing {
    entity: Entity,
    slot: usize,
}

/// The hook-maintained index: each cell's entities, and each entity's filing by id, so that
/// moving or removing one is O(1) (a swap-remove, then the moved neighbour's slot fixed).
#[derive(Debug)]
pub struct SpatialGrid {
    cells: Vec<Vec<Entity>>,
    filings: Vec<Option<Filing>>,
}

impl Default for SpatialGrid {
    fn default() -> Self {
        SpatialGrid {
            cells: vec![Vec::new(); GRID_WIDTH * GRID_WIDTH],
            filings: Vec::new(),
        }
    }
}

impl SpatialGrid {
    /// Files `entity`, not filed yet, in `cell`.
    fn file(&mut self, entity: Entity, cell: usize) {
        let id = entity.id as usize;
        if self.filings.len() <= id {
            self.filings.resize(id + 1, None);
        }
        let slot = self.cells[cell].len();
        self.cells[cell].push(entity);
        self.filings[id] = Some(Filing { entity, slot });
    }

    /// Moves `entity` from the cell it is filed in, `from`, to `to`.
    fn refile(&mut self, entity: Entity, from: usize, to: usize) {
        self.unfile(entity, from);
        self.file(entity, to);
    }

    /// Takes `entity` out of `cell`, the cell it is filed in, if it is filed (a creature
    /// spawned without a position left before the sync point never was).
    fn unfile(&mut self, entity: Entity, cell: usize) {
        let Some(Filing { slot, .. }) = self.filing(entity) else {
            return;
        };
        self.filings[entity.id as usize] = None;
        let list = &mut self.cells[cell];
        list.swap_remove(slot);
        if let Some(&moved) = list.get(slot) {
            self.filings[moved.id as usize] = Some(Filing {
                entity: moved,
                slot,
            });
        }
    }

    /// The filing of `entity` itself: an id may be filed under an older generation until that
    /// entity's removal hook runs.
    fn filing(&self, entity: Entity) -> Option<Filing> {
        let filing = (*self.filings.get(entity.id as usize)?)?;
        (filing.entity == entity).then_some(filing)
    }
}

/// A small deterministic generator (xorshift64*, seeded in `main`), so every run simulates
/// the same herd.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }

    fn chance(&mut self, probability: f32) -> bool {
        self.unit() < probability
    }

    fn place(&mut self) -> Position {
        Position {
            x: self.range(0.0, WORLD_SIZE),
            y: self.range(0.0, WORLD_SIZE),
        }
    }
}

/// What the game did (counted where it does it), what the hooks saw (counted in them: each
/// count is asserted against the game's prediction every frame), and what each index cost.
#[derive(Default, Debug, Clone)]
pub struct Tally {
    spawned_directly: usize,
    spawned_queued: usize,
    despawned_queued: usize,
    despawned_directly: usize,
    despawned_by_cascade: usize,
    /// Positions taken away by burrowing or by a despawn: each must be unfiled once.
    positions_lost: usize,
    positions_regained: usize,
    filed: usize,
    unfiled: usize,
    bars_attached: usize,
    bars_freed: usize,
    despawn_hooks: usize,
    movers: usize,
    refiled: usize,
    /// The grid's two hooks, at the sync points.
    hooks_time: Duration,
    refile_time: Duration,
    /// Clearing and refilling the rebuilt grid (the "before").
    rebuild_time: Duration,
}

impl Tally {
    fn creatures_spawned(&self) -> usize {
        self.spawned_directly + self.spawned_queued
    }

    fn creatures_despawned(&self) -> usize {
        self.despawned_queued + self.despawned_directly + self.despawned_by_cascade
    }
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        lifetime: Lifetime => LIFETIME [untracked],
        health_bar: HealthBar => HEALTH_BAR,
        // Derived from the position, and nobody asks which changed: no change ticks.
        cell: Cell => CELL [untracked],
    }
    Relations {
        rides / riders => RIDES [cascade],
        bar_of / bars => BAR_OF [cascade],
    }
    Resources {
        grid: SpatialGrid,
        /// The "before": every cell's entities, cleared and refilled each frame.
        rebuilt: Vec<Vec<Entity>>,
        rng: Rng,
        /// The mounts in the order they joined: the oldest leaves first.
        mounts: VecDeque<Entity>,
        tally: Tally,
    }
    Hooks {
        on_add(POSITION) => file_position,
        on_remove(POSITION) => unfile_position,
        on_add(HEALTH) => attach_health_bar,
        on_unlink(BAR_OF) => free_health_bar,
        on_despawn => count_despawn,
    }
}

// The hooks. The grid's two time themselves (one clock read pair per firing, counted against
// them), as they run inside `apply_commands` beside the commands, where no system timer sees.

fn file_position(world: &mut WorldParts<'_>, entity: Entity) {
    let start = Instant::now();
    // `None` when the creature lost its position (or died) before the sync point: its removal
    // hook follows, and there is nothing to file.
    if let Some(&position) = world.components.get_position(entity) {
        let cell = cell_of(position);
        world.resources.grid.file(entity, cell);
        world.components.set_cell(entity, Cell(cell));
    }
    world.resources.tally.filed += 1;
    world.resources.tally.hooks_time += start.elapsed();
}

fn unfile_position(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    let start = Instant::now();
    // Where it was filed: its `Cell` went with it if it died (every value of a despawned
    // entity is kept for `on_despawn`), or it still has it if it only burrowed.
    let cell = removed
        .cell
        .or_else(|| world.components.get_cell(entity).copied());
    if let Some(Cell(cell)) = cell {
        world.resources.grid.unfile(entity, cell);
    }
    world.resources.tally.unfiled += 1;
    world.resources.tally.hooks_time += start.elapsed();
}

fn attach_health_bar(world: &mut WorldParts<'_>, owner: Entity) {
    // An owner gone before the sync point needs no bar (the bar would spawn unlinked).
    if !world.components.is_alive(owner) {
        return;
    }
    let bar = EntityBuilder::new()
        .with_health_bar(HealthBar { fill: 1.0 })
        .with_bar_of(owner);
    world.commands.queue_spawn(bar);
    world.resources.tally.bars_attached += 1;
}

fn free_health_bar(world: &mut WorldParts<'_>, _bar: Entity, _owner: Entity) {
    world.resources.tally.bars_freed += 1;
}

fn count_despawn(world: &mut WorldParts<'_>, _entity: Entity, _dead: &WorldRemoved) {
    world.resources.tally.despawn_hooks += 1;
}

// The systems, in schedule order.

/// Brings the herd back to `POPULATION` with grazers and walkers, queued: they arrive at the
/// sync point after this system, where the hooks file them.
fn spawn_newcomers(
    herd: Query<Entity, With<Lifetime>>,
    mut rng: ResMut<Rng>,
    mut tally: ResMut<Tally>,
    mut commands: Commands,
) {
    for _ in herd.count()..POPULATION {
        let mut creature = EntityBuilder::new()
            .with_position(rng.place())
            .with_health(Health(100.0))
            .with_mask(CELL)
            .with_lifetime(Lifetime(rng.range(0.5, 6.0)));
        if rng.chance(WALKER_CHANCE) {
            let (x, y) = (rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
            creature = creature.with_velocity(Velocity { x, y });
        }
        commands.queue_spawn(creature);
        tally.spawned_queued += 1;
    }
}

/// A mount joins (spawned directly) with riders (queued spawns linked to it); past `MOUNTS`
/// the oldest leaves, despawned directly, its riders with it through the cascade.
// Whole-world on purpose: it spawns and despawns directly, so the hooks fire inside those
// calls, the path the other systems (which queue) do not take.
fn cavalry(world: &mut World) {
    let place = world.resources.rng.place();
    let mount = EntityBuilder::new()
        .with_position(place)
        .with_velocity(Velocity { x: 10.0, y: 5.0 })
        .with_health(Health(300.0))
        .with_mask(CELL)
        .spawn_one(world);
    world.resources.mounts.push_back(mount);
    let mut commands = world.commands();
    for _ in 0..RIDERS_PER_MOUNT {
        let rider = EntityBuilder::new()
            .with_position(place)
            .with_health(Health(100.0))
            .with_mask(CELL)
            .with_rides(mount);
        commands.queue_spawn(rider);
    }
    let tally = &mut world.resources.tally;
    tally.spawned_directly += 1;
    tally.spawned_queued += RIDERS_PER_MOUNT;
    if world.resources.mounts.len() > MOUNTS {
        let oldest = world.resources.mounts.pop_front().expect("a full roster");
        let riders = world.get_riders(oldest).len();
        assert!(world.despawn(oldest));
        let tally = &mut world.resources.tally;
        tally.despawned_directly += 1;
        tally.despawned_by_cascade += riders;
        // Mounts and riders never burrow: each had a position to unfile.
        tally.positions_lost += 1 + riders;
    }
}

/// Walkers and mounts walk, bouncing off the world's edges. A typed query stamps what it
/// writes: every walker's position, a velocity only where it bounces.
fn movement(mut walkers: Query<(&mut Position, &mut Velocity)>) {
    walkers.for_each(|(mut position, mut velocity)| {
        position.x += velocity.x * DELTA_TIME;
        position.y += velocity.y * DELTA_TIME;
        if !(0.0..WORLD_SIZE).contains(&position.x) {
            velocity.x = -velocity.x;
        }
        if !(0.0..WORLD_SIZE).contains(&position.y) {
            velocity.y = -velocity.y;
        }
    });
}

/// Riders sit beside their mount, side by side. Mounts walk and riders do not, so the two
/// queries never meet one entity: the riders' positions are written while the mounts' are read.
fn carry_riders(
    roster: Res<VecDeque<Entity>>,
    mounts: Query<&Position, With<Velocity>>,
    mut riders: Query<&mut Position, (With<RIDES>, Without<Velocity>)>,
) {
    for &mount in roster.iter() {
        let Some(&at) = mounts.get(mount) else {
            continue;
        };
        for (seat, &rider) in mounts.sources::<RIDES, _>(mount).iter().enumerate() {
            if let Some(mut position) = riders.get_mut(rider) {
                position.x = at.x + seat as f32 - 1.0;
                position.y = at.y;
            }
        }
    }
}

/// Ages the herd and queues the despawn of the expired, from inside the loop that finds them.
/// A typed query writes only `Lifetime` (untracked): a table view cannot see which columns it
/// writes, so it would stamp every tracked column of the herd's tables, positions included,
/// and the index would re-file every creature as if it had moved.
fn reap(
    mut herd: Query<(Entity, &mut Lifetime, Option<&Position>)>,
    mut tally: ResMut<Tally>,
    mut commands: Commands,
) {
    herd.for_each(|(entity, mut lifetime, position)| {
        lifetime.0 -= DELTA_TIME;
        if lifetime.0 <= 0.0 {
            commands.queue_despawn(entity);
            tally.despawned_queued += 1;
            // A burrowed creature dies with no position to unfile.
            if position.is_some() {
                tally.positions_lost += 1;
            }
        }
    });
}

/// Grazers burrow (lose `Position`); the burrowed resurface somewhere (regain one). Queued.
#[allow(clippy::type_complexity)] // query filters as types, read as written
fn burrow(
    mut grazers: Query<Entity, (With<Position>, With<Lifetime>, Without<Velocity>)>,
    mut burrowed: Query<Entity, (With<Lifetime>, Without<Position>)>,
    mut rng: ResMut<Rng>,
    mut tally: ResMut<Tally>,
    mut commands: Commands,
) {
    grazers.for_each(|entity| {
        if rng.chance(BURROW_CHANCE) {
            commands.queue_remove_components(entity, POSITION);
            tally.positions_lost += 1;
        }
    });
    burrowed.for_each(|entity| {
        if rng.chance(RESURFACE_CHANCE) {
            commands.queue_set_position(entity, rng.place());
            tally.positions_regained += 1;
        }
    });
}

/// The "after": re-files only the creatures whose position changed since this system last
/// ran. Arrivals and departures were filed and unfiled by the hooks already.
fn refile_movers(
    mut movers: Query<(Entity, &Position, &mut Cell), Changed<Position>>,
    mut grid: ResMut<SpatialGrid>,
    mut tally: ResMut<Tally>,
) {
    let start = Instant::now();
    movers.for_each(|(entity, position, mut cell)| {
        tally.movers += 1;
        let now = cell_of(*position);
        if cell.0 != now {
            grid.refile(entity, cell.0, now);
            cell.0 = now;
            tally.refiled += 1;
        }
    });
    tally.refile_time += start.elapsed();
}

/// The "before": every cell cleared (its memory kept) and refilled from a query.
fn rebuild_grid(
    mut herd: Query<(Entity, &Position)>,
    mut cells: ResMut<Vec<Vec<Entity>>>,
    mut tally: ResMut<Tally>,
) {
    let start = Instant::now();
    cells.resize_with(GRID_WIDTH * GRID_WIDTH, Vec::new);
    cells.iter_mut().for_each(Vec::clear);
    herd.for_each(|(entity, position)| cells[cell_of(*position)].push(entity));
    tally.rebuild_time += start.elapsed();
}

/// Asserts that both grids file exactly the same entities in every cell, and that every hook
/// fired as often as the game predicts.
fn check(world: &mut World, scratch: &mut Vec<Entity>) {
    let resources = &mut world.resources;
    for (cell, rebuilt) in resources.rebuilt.iter_mut().enumerate() {
        scratch.clear();
        scratch.extend_from_slice(&resources.grid.cells[cell]);
        scratch.sort_unstable();
        rebuilt.sort_unstable();
        assert_eq!(scratch, rebuilt, "cell {cell} differs");
    }
    let tally = &resources.tally;
    let spawned = tally.creatures_spawned();
    assert_eq!(tally.filed, spawned + tally.positions_regained);
    assert_eq!(tally.unfiled, tally.positions_lost);
    assert_eq!(tally.bars_attached, spawned);
    // Every despawned creature took its health bar with it (a second despawn, by cascade).
    assert_eq!(tally.bars_freed, tally.creatures_despawned());
    assert_eq!(tally.despawn_hooks, 2 * tally.creatures_despawned());
}

fn main() {
    let mut world = World::new();
    world.resources.rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut schedule = Schedule::new();
    schedule.add((
        spawn_newcomers,
        cavalry,
        movement,
        carry_riders,
        reap,
        burrow,
        refile_movers,
        rebuild_grid,
    ));

    // The first frame files the whole herd at once: a load, not a frame, so it is not timed.
    let mut scratch = Vec::new();
    schedule.run(&mut world);
    check(&mut world, &mut scratch);
    world.step();
    let load = world.resources.tally.clone();
    for _ in 1..FRAMES {
        schedule.run(&mut world);
        check(&mut world, &mut scratch);
        world.step();
    }
    assert_eq!(world.check_invariants(), Ok(()));

    // Every creature alive has one bar; every mount still carries all its riders.
    let creatures = world.query_entities(HEALTH).count();
    assert_eq!(world.query_entities(HEALTH_BAR).count(), creatures);
    let tally = &world.resources.tally;
    let alive = tally.creatures_spawned() - tally.creatures_despawned();
    assert_eq!(creatures, alive);
    assert_eq!(world.resources.mounts.len(), MOUNTS);
    for &mount in &world.resources.mounts {
        assert_eq!(world.get_riders(mount).len(), RIDERS_PER_MOUNT);
    }
    print_summary(&world, &load);
}

/// What a pair of clock reads costs: each timed hook firing carries one.
fn clock_pair_cost() -> Duration {
    const PAIRS: u32 = 100_000;
    let start = Instant::now();
    for _ in 0..PAIRS {
        std::hint::black_box(Instant::now().elapsed());
    }
    start.elapsed() / PAIRS
}

fn print_summary(world: &World, load: &Tally) {
    let tally = &world.resources.tally;
    let timed = (FRAMES - 1) as f64;
    let ms = |now: Duration, then: Duration| (now - then).as_secs_f64() * 1e3 / timed;
    let per_frame = |now: usize, then: usize| (now - then) as f64 / timed;
    let creatures = world.query_entities(HEALTH).count();
    println!("archetypal observers: {FRAMES} frames, a herd of {POPULATION}, {MOUNTS} mounts");
    println!(
        "  creatures now {creatures}, {} on the grid; spawned {} directly, {} queued",
        world.query_entities(POSITION).count(),
        tally.spawned_directly,
        tally.spawned_queued
    );
    println!(
        "  despawned {} queued, {} directly, {} by cascade; positions lost {}, regained {}",
        tally.despawned_queued,
        tally.despawned_directly,
        tally.despawned_by_cascade,
        tally.positions_lost,
        tally.positions_regained
    );
    println!(
        "  hook firings, each as predicted: on_add(POSITION) {}, on_remove(POSITION) {},",
        tally.filed, tally.unfiled
    );
    println!(
        "    on_add(HEALTH) {}, on_unlink(BAR_OF) {}, on_despawn {}",
        tally.bars_attached, tally.bars_freed, tally.despawn_hooks
    );
    let grid_firings = tally.filed + tally.unfiled - load.filed - load.unfiled;
    println!(
        "  spatial index, per frame after the first: {:.0} grid hook firings, {:.0} movers, {:.0} changed cell",
        per_frame(grid_firings, 0),
        per_frame(tally.movers, load.movers),
        per_frame(tally.refiled, load.refiled)
    );
    let before = ms(tally.rebuild_time, load.rebuild_time);
    let hooks = ms(tally.hooks_time, load.hooks_time);
    let refile = ms(tally.refile_time, load.refile_time);
    let clock = clock_pair_cost().as_secs_f64() * 1e3 * per_frame(grid_firings, 0);
    println!("    before: rebuilt every frame  {before:>7.4} ms");
    println!(
        "    after: hooks + re-file       {:>7.4} ms ({hooks:.4} + {refile:.4}; ~{clock:.4} of it the hooks' clock reads)",
        hooks + refile
    );
    println!(
        "    before / after               {:>7.2}x",
        before / (hooks + refile)
    );
}
