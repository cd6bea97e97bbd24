//! `game_frame`: one frame of a small whole game, written as each crate's documentation
//! writes systems: archetypal with functions of system parameters (`Query`, `ResMut`,
//! `EventWriter` / `EventReader`, `Commands`, `With`, `Changed`, `Has`) in its `Schedule`; bevy_ecs with systems (`Query`, `Res`, `MessageWriter` / `MessageReader`,
//! `Commands`, `Changed<T>`, `Has<T>`) chained in a `Schedule` (on the single-threaded executor, its
//! fastest for a chain; the default multi-threaded one is a second row); hecs with plain functions and its
//! `CommandBuffer` (it has no events or change detection, so the frame keeps a hit list and
//! a list of the units whose health it wrote); flecs as hecs, with cached queries (its systems
//! would keep the frame's state in singletons, and its change detection is per table, too
//! coarse for the consumer).
//!
//! 4,000 units (Position, Velocity, Health; one in four `Shielded`) in a 64 x 64 arena. A
//! frame: movement (wrapping at the edges); a spatial grid of 1 x 1 cells rebuilt from the
//! positions; collisions (two units of a cell closer than 0.5, L1) send a hit event to each;
//! damage (3, or 1 to a shielded unit); shielded units regenerate 1 (a tag filter); units at
//! or below 0 health are despawned and as many new ones spawned; a change-detection consumer
//! counts the units whose health changed this frame (damaged, regenerated or spawned) and
//! sums their health. Every decision depends on values only, never on entity order, so every
//! crate ends a frame with the same checksum.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::message::{Message, MessageReader, MessageWriter, Messages};
use bevy_ecs::query::{Changed, Has, With};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs, Schedule};
use bevy_ecs::system::{Commands, Query, ResMut};
use flecs_ecs::macros::Component as FlecsComponent;

use crate::components::{Position, Velocity, field};
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Units alive at every frame's end.
pub const UNITS: usize = 4_000;

/// The arena's side (and the grid's, in cells of 1).
const ARENA: usize = 64;

/// A unit's health.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Health(pub i32);

/// The marker of shielded units (hecs, bevy_ecs; archetypal's is a tag, flecs's a tag too).
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default)]
pub struct Shielded;

/// A collision's hit on `target`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit<E> {
    /// The unit hit.
    pub target: E,
}

/// What the change-detection consumer has seen, over every frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Units whose health changed, summed over frames.
    pub changed: u64,
    /// Their health, summed.
    pub health: i64,
}

/// The spatial grid: per cell, the units in it with their position.
#[derive(Clone, Debug)]
pub struct Grid<E>(Vec<Vec<(E, f32, f32)>>);

impl<E> Default for Grid<E> {
    fn default() -> Self {
        Grid((0..ARENA * ARENA).map(|_| Vec::new()).collect())
    }
}

impl<E: Copy> Grid<E> {
    /// Empties every cell (keeping their allocations).
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(Vec::clear);
    }

    /// Puts `entity` in the cell of `position`.
    pub fn insert(&mut self, entity: E, position: &Position) {
        let (x, y) = (position.0.x, position.0.y);
        let cell = (x as usize).min(ARENA - 1) + ARENA * (y as usize).min(ARENA - 1);
        self.0[cell].push((entity, x, y));
    }

    /// Calls `hit(entity)` for each unit of each colliding pair (same cell, closer than 0.5).
    pub fn collide(&self, mut hit: impl FnMut(E)) {
        for cell in &self.0 {
            for (index, &(a, ax, ay)) in cell.iter().enumerate() {
                for &(b, bx, by) in &cell[index + 1..] {
                    if (ax - bx).abs() + (ay - by).abs() < 0.5 {
                        hit(a);
                        hit(b);
                    }
                }
            }
        }
    }
}

/// The `index`-th unit ever spawned: position, velocity, health, shielded.
pub fn unit(index: usize) -> (Position, Velocity, Health, bool) {
    let x = ((index * 37) % 6_400) as f32 / 100.0;
    let y = ((index * 91 + 13) % 6_400) as f32 / 100.0;
    let vx = ((index % 7) as f32 - 3.0) * 0.1;
    let vy = ((index % 5) as f32 - 2.0) * 0.1;
    (
        Position(Vec3::new(x, y, 0.0)),
        Velocity(Vec3::new(vx, vy, 0.0)),
        Health(10),
        index.is_multiple_of(4),
    )
}

/// Moves a position by a velocity, wrapping at the arena's edges.
#[inline]
fn advance(position: &mut Position, velocity: &Velocity) {
    let wrap = |c: f32| {
        if c >= ARENA as f32 {
            c - ARENA as f32
        } else if c < 0.0 {
            c + ARENA as f32
        } else {
            c
        }
    };
    position.0.x = wrap(position.0.x + velocity.0.x);
    position.0.y = wrap(position.0.y + velocity.0.y);
}

/// The damage of one hit.
fn damage(shielded: bool) -> i32 {
    if shielded { 1 } else { 3 }
}

/// The checksum: every unit's position, health and shield, and the score.
#[derive(Default)]
struct GameSum(Checksum);

impl GameSum {
    fn unit(&mut self, position: &Position, health: &Health, shielded: bool) {
        self.0.vec3(field::POSITION, position.0);
        self.0.f32(40, health.0 as f32);
        self.0.f32(41, f32::from(u8::from(shielded)));
    }
    fn finish(mut self, score: &Score) -> u64 {
        self.0.count(42, score.changed);
        self.0.count(43, score.health as u64);
        self.0.finish()
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "game_frame",
        description: "one frame of a small game: 4,000 units move, grid, collision events, damage, shield regen (tag), deaths + spawns, changed-health consumer",
        contenders: vec![archetypal(), hecs(), bevy(), bevy_multi_threaded(), flecs()],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's game world.
pub mod archetypal_game {
    pub use super::{Grid, Health, Hit, Score};
    pub use crate::components::{Position, Velocity};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            health: Health => HEALTH,
        }
        Tags {
            shielded => SHIELDED,
        }
        Events {
            hit: Hit<archetypal::Entity>,
        }
        Resources {
            grid: Grid<archetypal::Entity>,
            next_unit: usize,
            score: Score,
        }
    }
}

mod archetypal_systems {
    use archetypal::{Changed, Entity, EventReader, EventWriter, Has, ResMut, With};

    use super::archetypal_game::*;
    use super::{advance, damage, unit};

    pub fn spawn_units(commands: &mut WorldCommands<'_>, next_unit: &mut usize, count: usize) {
        for _ in 0..count {
            let (position, velocity, health, shielded) = unit(*next_unit);
            *next_unit += 1;
            let unit = EntityBuilder::new()
                .with_position(position)
                .with_velocity(velocity)
                .with_health(health)
                .with_mask(if shielded { SHIELDED } else { 0 });
            commands.queue_spawn(unit);
        }
    }

    pub fn movement(mut units: Query<(&mut Position, &Velocity)>) {
        units.for_each(|(mut position, velocity)| advance(&mut position, velocity));
    }

    pub fn collide(
        mut units: Query<(Entity, &Position)>,
        mut grid: ResMut<Grid<Entity>>,
        mut hits: EventWriter<Hit<Entity>>,
    ) {
        grid.clear();
        units.for_each(|(entity, position)| grid.insert(entity, position));
        grid.collide(|target| {
            hits.send(Hit { target });
        });
    }

    pub fn apply_damage(
        mut hits: EventReader<Hit<Entity>>,
        mut units: Query<(&mut Health, Has<SHIELDED>)>,
    ) {
        for hit in hits.read() {
            if let Some((mut health, shielded)) = units.get_mut(hit.target) {
                health.0 -= damage(shielded);
            }
        }
    }

    pub fn regenerate(mut shielded: Query<&mut Health, With<SHIELDED>>) {
        shielded.for_each(|mut health| health.0 += 1);
    }

    pub fn deaths(
        mut units: Query<(Entity, &Health)>,
        mut commands: Commands,
        mut next_unit: ResMut<usize>,
    ) {
        let mut deaths = 0;
        units.for_each(|(entity, health)| {
            if health.0 <= 0 {
                commands.queue_despawn(entity);
                deaths += 1;
            }
        });
        spawn_units(&mut commands, &mut next_unit, deaths);
    }

    pub fn count_changed(mut changed: Query<&Health, Changed<Health>>, mut score: ResMut<Score>) {
        changed.for_each(|health| {
            score.changed += 1;
            score.health += i64::from(health.0);
        });
    }
}

struct Archetypal {
    world: archetypal_game::World,
    schedule: archetypal::Schedule<archetypal_game::World>,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        self.schedule.run(&mut self.world);
        self.world.step();
    }
    fn checksum(&mut self) -> u64 {
        use archetypal::Has;
        use archetypal_game::SHIELDED;
        let world = &self.world;
        let mut sum = GameSum::default();
        world
            .typed_query_ref::<(&Position, &Health, Has<SHIELDED>)>()
            .for_each(|(position, health, shielded)| sum.unit(position, health, shielded));
        sum.finish(&world.resources.score)
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "Schedule of fns of system parameters: Query (With, Changed, Has), ResMut, EventWriter/Reader, Commands (applied by the schedule)",
        kind: Kind::Archetypal,
        setup: || {
            use archetypal_systems::*;
            let mut world = archetypal_game::World::new();
            let mut parts = world.split_mut();
            spawn_units(&mut parts.commands, &mut parts.resources.next_unit, UNITS);
            world.apply_commands();
            let mut schedule = archetypal::Schedule::new();
            schedule.add((
                movement,
                collide,
                apply_damage,
                regenerate,
                deaths,
                count_changed,
            ));
            Box::new(Archetypal { world, schedule })
        },
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    grid: Grid<hecs::Entity>,
    hits: Vec<Hit<hecs::Entity>>,
    commands: hecs::CommandBuffer,
    /// Units whose health this frame wrote (hecs has no change detection).
    touched: Vec<hecs::Entity>,
    next_unit: usize,
    score: Score,
}

impl Hecs {
    fn spawn_units(&mut self, count: usize) {
        for _ in 0..count {
            let (position, velocity, health, shielded) = unit(self.next_unit);
            self.next_unit += 1;
            let entity = if shielded {
                self.world.spawn((position, velocity, health, Shielded))
            } else {
                self.world.spawn((position, velocity, health))
            };
            self.touched.push(entity);
        }
    }
}

impl Pass for Hecs {
    fn run(&mut self) {
        // movement
        for (position, velocity) in self.world.query_mut::<(&mut Position, &Velocity)>() {
            advance(position, velocity);
        }
        // grid and collisions
        self.grid.clear();
        for (entity, position) in self.world.query_mut::<(hecs::Entity, &Position)>() {
            self.grid.insert(entity, position);
        }
        let hits = &mut self.hits;
        self.grid.collide(|target| hits.push(Hit { target }));
        // damage
        let mut view = self.world.view_mut::<(&mut Health, Option<&Shielded>)>();
        for hit in self.hits.drain(..) {
            if let Some((health, shielded)) = view.get_mut(hit.target) {
                health.0 -= damage(shielded.is_some());
                self.touched.push(hit.target);
            }
        }
        // shield regeneration
        for (entity, health) in self
            .world
            .query_mut::<(hecs::Entity, &mut Health)>()
            .with::<&Shielded>()
        {
            health.0 += 1;
            self.touched.push(entity);
        }
        // deaths and spawns
        let mut deaths = 0;
        for (entity, health) in self.world.query_mut::<(hecs::Entity, &Health)>() {
            if health.0 <= 0 {
                self.commands.despawn(entity);
                deaths += 1;
            }
        }
        self.commands.run_on(&mut self.world);
        self.spawn_units(deaths);
        // the changed-health consumer
        self.touched.sort_unstable();
        self.touched.dedup();
        for entity in self.touched.drain(..) {
            if let Ok(health) = self.world.get::<&Health>(entity) {
                self.score.changed += 1;
                self.score.health += i64::from(health.0);
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = GameSum::default();
        for (position, health, shielded) in self
            .world
            .query_mut::<(&Position, &Health, Option<&Shielded>)>()
        {
            sum.unit(position, health, shielded.is_some());
        }
        sum.finish(&self.score)
    }
}

fn hecs() -> Contender {
    Contender {
        name: "hecs",
        api: "fns over query_mut, view_mut, CommandBuffer; a hit list and a written-health list",
        kind: Kind::Peer,
        setup: || {
            let mut game = Hecs {
                world: hecs::World::new(),
                grid: Grid::default(),
                hits: Vec::new(),
                commands: hecs::CommandBuffer::new(),
                touched: Vec::new(),
                next_unit: 0,
                score: Score::default(),
            };
            game.spawn_units(UNITS);
            Box::new(game)
        },
    }
}

// ----- flecs --------------------------------------------------------------------------------

/// flecs as hecs's row: functions over cached queries, a hit list and a written-health list.
/// flecs's systems would need the grid, hits and score as singletons, and its change
/// detection is per table, not per row, so it could not count the units written.
struct Flecs {
    // Declared before the world, so they are dropped first: a query must not outlive its world.
    movement: flecs_ecs::prelude::Query<(&'static mut Position, &'static Velocity)>,
    positions: flecs_ecs::prelude::Query<&'static Position>,
    shielded: flecs_ecs::prelude::Query<&'static mut Health>,
    healths: flecs_ecs::prelude::Query<&'static Health>,
    world: flecs_ecs::prelude::World,
    grid: Grid<flecs_ecs::prelude::Entity>,
    hits: Vec<Hit<flecs_ecs::prelude::Entity>>,
    /// Units whose health this frame wrote.
    touched: Vec<flecs_ecs::prelude::Entity>,
    dead: Vec<flecs_ecs::prelude::Entity>,
    next_unit: usize,
    score: Score,
}

impl Flecs {
    fn new() -> Self {
        use flecs_ecs::prelude::{Builder, ComponentId, QueryBuilderImpl};
        let world = flecs_ecs::prelude::World::new();
        let movement = world
            .query::<(&mut Position, &Velocity)>()
            .set_cached()
            .build();
        let positions = world.query::<&Position>().set_cached().build();
        let shielded = world
            .query::<&mut Health>()
            .with(Shielded::id())
            .set_cached()
            .build();
        let healths = world.query::<&Health>().set_cached().build();
        Flecs {
            movement,
            positions,
            shielded,
            healths,
            world,
            grid: Grid::default(),
            hits: Vec::new(),
            touched: Vec::new(),
            dead: Vec::new(),
            next_unit: 0,
            score: Score::default(),
        }
    }

    fn spawn_units(&mut self, count: usize) {
        use flecs_ecs::prelude::{ComponentId, IdOperations};
        for _ in 0..count {
            let (position, velocity, health, shielded) = unit(self.next_unit);
            self.next_unit += 1;
            let entity = self.world.entity().set(position).set(velocity).set(health);
            if shielded {
                entity.add(Shielded::id());
            }
            self.touched.push(entity.id());
        }
    }
}

impl Pass for Flecs {
    fn run(&mut self) {
        use flecs_ecs::prelude::{ComponentId, EntityViewGet, IdOperations, QueryAPI};
        // movement: `run` with column slices (a few tables of thousands of units)
        crate::worlds::flecs_run_moving(&self.movement, advance);
        // grid and collisions
        self.grid.clear();
        let grid = &mut self.grid;
        self.positions
            .each_entity(|entity, position| grid.insert(entity.id(), position));
        let hits = &mut self.hits;
        self.grid.collide(|target| hits.push(Hit { target }));
        // damage
        for hit in self.hits.drain(..) {
            let entity = self.world.entity_from_id(hit.target);
            let amount = damage(entity.has(Shielded::id()));
            if entity
                .try_get::<&mut Health>(|health| health.0 -= amount)
                .is_some()
            {
                self.touched.push(hit.target);
            }
        }
        // shield regeneration
        let touched = &mut self.touched;
        self.shielded.each_entity(|entity, health| {
            health.0 += 1;
            touched.push(entity.id());
        });
        // deaths and spawns
        let dead = &mut self.dead;
        self.healths.each_entity(|entity, health| {
            if health.0 <= 0 {
                dead.push(entity.id());
            }
        });
        let deaths = self.dead.len();
        for entity in self.dead.drain(..) {
            self.world.entity_from_id(entity).destruct();
        }
        self.spawn_units(deaths);
        // the changed-health consumer
        self.touched.sort_unstable();
        self.touched.dedup();
        for entity in self.touched.drain(..) {
            let entity = self.world.entity_from_id(entity);
            if entity.is_alive() {
                let health = entity.get::<&Health>(|health| health.0);
                self.score.changed += 1;
                self.score.health += i64::from(health);
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::{ComponentId, QueryAPI};
        let mut sum = GameSum::default();
        self.world
            .new_query::<(&Position, &Health)>()
            .each_entity(|entity, (position, health)| {
                sum.unit(position, health, entity.has(Shielded::id()));
            });
        sum.finish(&self.score)
    }
}

fn flecs() -> Contender {
    Contender {
        name: "flecs",
        api: "fns over cached queries (run, each_entity), try_get, destruct; a hit list and a written-health list",
        kind: Kind::Peer,
        setup: || {
            let mut game = Flecs::new();
            game.spawn_units(UNITS);
            Box::new(game)
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// bevy's hit message.
#[derive(Message, Clone, Copy, Debug)]
pub struct BevyHit(Hit<BevyEntity>);

#[derive(Resource, Default)]
struct BevyGrid(Grid<BevyEntity>);

#[derive(Resource, Default)]
struct NextUnit(usize);

#[derive(Resource, Default)]
struct BevyScore(Score);

fn bevy_spawn_units(commands: &mut Commands<'_, '_>, next_unit: &mut usize, count: usize) {
    for _ in 0..count {
        let (position, velocity, health, shielded) = unit(*next_unit);
        *next_unit += 1;
        if shielded {
            commands.spawn((position, velocity, health, Shielded));
        } else {
            commands.spawn((position, velocity, health));
        }
    }
}

fn bevy_movement(mut units: Query<(&mut Position, &Velocity)>) {
    for (mut position, velocity) in &mut units {
        advance(&mut position, velocity);
    }
}

fn bevy_collide(
    units: Query<(BevyEntity, &Position)>,
    mut grid: ResMut<BevyGrid>,
    mut hits: MessageWriter<BevyHit>,
) {
    let grid = &mut grid.0;
    grid.clear();
    for (entity, position) in &units {
        grid.insert(entity, position);
    }
    grid.collide(|target| {
        hits.write(BevyHit(Hit { target }));
    });
}

fn bevy_damage(mut hits: MessageReader<BevyHit>, mut units: Query<(&mut Health, Has<Shielded>)>) {
    for hit in hits.read() {
        if let Ok((mut health, shielded)) = units.get_mut(hit.0.target) {
            health.0 -= damage(shielded);
        }
    }
}

fn bevy_regenerate(mut shielded: Query<&mut Health, With<Shielded>>) {
    for mut health in &mut shielded {
        health.0 += 1;
    }
}

fn bevy_deaths(
    mut commands: Commands<'_, '_>,
    units: Query<(BevyEntity, &Health)>,
    mut next_unit: ResMut<NextUnit>,
) {
    let mut deaths = 0;
    for (entity, health) in &units {
        if health.0 <= 0 {
            commands.entity(entity).despawn();
            deaths += 1;
        }
    }
    bevy_spawn_units(&mut commands, &mut next_unit.0, deaths);
}

fn bevy_count_changed(changed: Query<&Health, Changed<Health>>, mut score: ResMut<BevyScore>) {
    for health in &changed {
        score.0.changed += 1;
        score.0.health += i64::from(health.0);
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    schedule: Schedule,
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.schedule.run(&mut self.world);
        self.world.resource_mut::<Messages<BevyHit>>().update();
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = GameSum::default();
        let mut units = self.world.query::<(&Position, &Health, Has<Shielded>)>();
        for (position, health, shielded) in units.iter(&self.world) {
            sum.unit(position, health, shielded);
        }
        sum.finish(&self.world.resource::<BevyScore>().0)
    }
}

/// bevy's game: its world with 4,000 units and the six systems chained in a `Schedule` run
/// by `executor`.
fn bevy_game(executor: impl bevy_ecs::schedule::SystemExecutor + 'static) -> Box<dyn Pass> {
    let mut world = bevy_ecs::world::World::new();
    world.init_resource::<BevyGrid>();
    world.init_resource::<BevyScore>();
    world.init_resource::<Messages<BevyHit>>();
    let mut next_unit = 0;
    {
        let mut commands = world.commands();
        bevy_spawn_units(&mut commands, &mut next_unit, UNITS);
    }
    world.flush();
    world.insert_resource(NextUnit(next_unit));
    let mut schedule = Schedule::default();
    schedule.set_executor(executor);
    schedule.add_systems(
        (
            bevy_movement,
            bevy_collide,
            bevy_damage,
            bevy_regenerate,
            bevy_deaths,
            bevy_count_changed,
        )
            .chain(),
    );
    Box::new(Bevy { world, schedule })
}

/// The bevy row: the chained systems cannot run in parallel, so the single-threaded executor
/// is bevy's fastest way to run them.
fn bevy() -> Contender {
    Contender {
        name: "bevy_ecs",
        api: "systems chained in a Schedule (SingleThreadedExecutor): Query, ResMut, MessageWriter/Reader, Commands, With, Changed",
        kind: Kind::Peer,
        setup: || bevy_game(bevy_ecs::schedule::SingleThreadedExecutor::new()),
    }
}

/// The same with the default executor of bevy_ecs's `multi_threaded` feature.
fn bevy_multi_threaded() -> Contender {
    Contender {
        name: "bevy_ecs multi-threaded executor",
        api: "the same systems and Schedule, default MultiThreadedExecutor",
        kind: Kind::Peer,
        setup: || bevy_game(bevy_ecs::schedule::MultiThreadedExecutor::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use archetypal::SystemContext;

    /// The game does what it says: over some frames units collide, die and are replaced, the
    /// population stays at UNITS, and the consumer sees changed health.
    #[test]
    fn frames_collide_kill_and_respawn() {
        let mut world = archetypal_game::World::new();
        let mut parts = world.split_mut();
        archetypal_systems::spawn_units(&mut parts.commands, &mut parts.resources.next_unit, UNITS);
        world.apply_commands();
        world.step();
        let mut hits = 0;
        // Each system with its own memory, run as the schedule runs it (commands applied
        // after each).
        let mut contexts: [SystemContext<archetypal_game::World>; 6] = Default::default();
        for frame in 0..40 {
            let changed_before = world.resources.score.changed;
            let [movement, collide, damage, regenerate, deaths, count] = &mut contexts;
            movement.run(&mut world, archetypal_systems::movement);
            collide.run(&mut world, archetypal_systems::collide);
            hits += world.events.hit.len();
            damage.run(&mut world, archetypal_systems::apply_damage);
            regenerate.run(&mut world, archetypal_systems::regenerate);
            deaths.run(&mut world, archetypal_systems::deaths);
            count.run(&mut world, archetypal_systems::count_changed);
            let changed = world.resources.score.changed - changed_before;
            // Only the first frame sees every unit as new; later ones see the units damaged,
            // regenerated or spawned (movement writes positions only).
            assert!(
                frame == 0 || changed < UNITS as u64,
                "frame {frame}: {changed} of {UNITS} units reported changed"
            );
            world.step();
        }
        assert!(hits > 0, "no collision in 40 frames");
        assert!(world.resources.next_unit > UNITS, "nobody died");
        assert_eq!(world.entity_count(), UNITS);
        assert!(world.resources.score.changed > 0);
    }
}
