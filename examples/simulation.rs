//! The main demo: a world of 100,000 creatures over 300 frames. Every frame it spawns newcomers,
//! moves everything, sets some creatures on fire and puts others out (migrations both ways),
//! lets some stop and others start moving (more migrations), and despawns the dead.
//!
//! `cargo run --release --example simulation`

use std::time::{Duration, Instant};

use archetypal::{Entity, ecs};

const POPULATION: usize = 100_000;
const FRAMES: usize = 300;
const WORLD_SIZE: f32 = 1_000.0;

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

#[derive(Default, Clone, Copy, Debug)]
pub struct Lifetime(pub f32);

#[derive(Default, Clone, Copy, Debug)]
pub struct Burning {
    pub damage_per_second: f32,
    pub seconds_left: f32,
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
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        lifetime: Lifetime => LIFETIME,
        burning: Burning => BURNING,
    }
    Resources {
        delta_time: f32,
        rng: Rng,
    }
}

/// Time spent in each phase, summed over the frames.
#[derive(Default)]
struct PhaseTimes {
    spawn: Duration,
    movement: Duration,
    fire: Duration,
    walking: Duration,
    despawn: Duration,
    frame_max: Duration,
}

#[derive(Default)]
struct Counts {
    spawned: usize,
    despawned: usize,
    migrations: usize,
}

/// Brings the population back to `POPULATION` with fresh creatures.
fn spawn_newcomers(world: &mut World, counts: &mut Counts) {
    let missing = POPULATION.saturating_sub(world.entity_count());
    let mut rng = world.resources.rng;
    world.spawn_batch(
        POSITION | VELOCITY | HEALTH | LIFETIME,
        missing,
        |table, index| {
            table.position[index] = Position {
                x: rng.range(0.0, WORLD_SIZE),
                y: rng.range(0.0, WORLD_SIZE),
            };
            table.velocity[index] = Velocity {
                x: rng.range(-20.0, 20.0),
                y: rng.range(-20.0, 20.0),
            };
            table.health[index] = Health(rng.range(50.0, 100.0));
            table.lifetime[index] = Lifetime(rng.range(2.0, 20.0));
        },
    );
    world.resources.rng = rng;
    counts.spawned += missing;
}

/// Integrates positions, bouncing off the world's edges: the hot loop, over whole tables.
fn move_creatures(world: &mut World) {
    let delta_time = world.resources.delta_time;
    world.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
        for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter_mut()) {
            position.x += velocity.x * delta_time;
            position.y += velocity.y * delta_time;
            if !(0.0..WORLD_SIZE).contains(&position.x) {
                velocity.x = -velocity.x;
            }
            if !(0.0..WORLD_SIZE).contains(&position.y) {
                velocity.y = -velocity.y;
            }
        }
    });
}

/// Burning creatures lose health; fires go out; a few new fires start. Starting and stopping a
/// fire adds and removes the `Burning` component: a migration each.
fn spread_fire(world: &mut World, counts: &mut Counts) {
    let delta_time = world.resources.delta_time;
    let mut extinguished = Vec::new();
    world.for_each_mut(HEALTH | BURNING, 0, |entity, table, index| {
        let burning = &mut table.burning[index];
        table.health[index].0 -= burning.damage_per_second * delta_time;
        burning.seconds_left -= delta_time;
        if burning.seconds_left <= 0.0 {
            extinguished.push(entity);
        }
    });
    let mut rng = world.resources.rng;
    let mut ignited = Vec::new();
    world.for_each(HEALTH, BURNING, |entity, _, _| {
        if rng.chance(0.004) {
            ignited.push(entity);
        }
    });
    for &entity in &extinguished {
        world.remove_burning(entity);
    }
    for &entity in &ignited {
        let fire = Burning {
            damage_per_second: rng.range(5.0, 40.0),
            seconds_left: rng.range(0.5, 3.0),
        };
        world.set_burning(entity, fire);
    }
    world.resources.rng = rng;
    counts.migrations += extinguished.len() + ignited.len();
}

/// Some walkers stop (lose `Velocity`), some resting creatures start walking again.
fn start_and_stop(world: &mut World, counts: &mut Counts) {
    let mut rng = world.resources.rng;
    let mut stopping = Vec::new();
    world.for_each(VELOCITY, 0, |entity, _, _| {
        if rng.chance(0.005) {
            stopping.push(entity);
        }
    });
    let mut starting = Vec::new();
    world.for_each(POSITION, VELOCITY, |entity, _, _| {
        if rng.chance(0.05) {
            starting.push(entity);
        }
    });
    for &entity in &stopping {
        world.remove_velocity(entity);
    }
    for &entity in &starting {
        let velocity = Velocity {
            x: rng.range(-20.0, 20.0),
            y: rng.range(-20.0, 20.0),
        };
        world.set_velocity(entity, velocity);
    }
    world.resources.rng = rng;
    counts.migrations += stopping.len() + starting.len();
}

/// Ages every creature and despawns those out of health or time.
fn despawn_the_dead(world: &mut World, counts: &mut Counts) {
    let delta_time = world.resources.delta_time;
    let mut dead: Vec<Entity> = Vec::new();
    world.for_each_mut(HEALTH | LIFETIME, 0, |entity, table, index| {
        table.lifetime[index].0 -= delta_time;
        if table.lifetime[index].0 <= 0.0 || table.health[index].0 <= 0.0 {
            dead.push(entity);
        }
    });
    counts.despawned += world.despawn_entities(&dead).len();
}

fn timed(total: &mut Duration, phase: impl FnOnce()) {
    let start = Instant::now();
    phase();
    *total += start.elapsed();
}

fn main() {
    let mut world = World::new();
    world.resources.delta_time = 1.0 / 60.0;
    let mut times = PhaseTimes::default();
    let mut counts = Counts::default();

    let run_start = Instant::now();
    for _ in 0..FRAMES {
        let frame_start = Instant::now();
        timed(&mut times.spawn, || {
            spawn_newcomers(&mut world, &mut counts)
        });
        timed(&mut times.movement, || move_creatures(&mut world));
        timed(&mut times.fire, || spread_fire(&mut world, &mut counts));
        timed(&mut times.walking, || {
            start_and_stop(&mut world, &mut counts)
        });
        timed(&mut times.despawn, || {
            despawn_the_dead(&mut world, &mut counts)
        });
        times.frame_max = times.frame_max.max(frame_start.elapsed());
    }
    let total = run_start.elapsed();

    if let Err(error) = world.check_invariants() {
        panic!("the simulation broke the world: {error}");
    }

    let per_frame = |duration: Duration| duration.as_secs_f64() * 1_000.0 / FRAMES as f64;
    println!("archetypal simulation: {FRAMES} frames, population kept at {POPULATION}");
    println!("  entities alive at the end   {:>10}", world.entity_count());
    println!(
        "  burning / resting now       {:>10} / {}",
        world.query_entities(BURNING).count(),
        world.query().with(POSITION).without(VELOCITY).count()
    );
    println!(
        "  archetypes                  {:>10}",
        world.archetype_count()
    );
    println!(
        "  spawned / despawned         {:>10} / {}",
        counts.spawned, counts.despawned
    );
    println!("  migrations                  {:>10}", counts.migrations);
    println!("  phase (ms per frame)");
    println!(
        "    spawn                     {:>10.3}",
        per_frame(times.spawn)
    );
    println!(
        "    movement                  {:>10.3}",
        per_frame(times.movement)
    );
    println!(
        "    fire (migrations)         {:>10.3}",
        per_frame(times.fire)
    );
    println!(
        "    start/stop (migrations)   {:>10.3}",
        per_frame(times.walking)
    );
    println!(
        "    despawn                   {:>10.3}",
        per_frame(times.despawn)
    );
    println!(
        "  frame time mean / max (ms)  {:>10.3} / {:.3}",
        per_frame(total),
        times.frame_max.as_secs_f64() * 1_000.0
    );
}
