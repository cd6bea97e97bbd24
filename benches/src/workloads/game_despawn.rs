//! `game_despawn`: the cost of the multi-world form (issue 26). 100,000 entities, each with
//! `Position` and `Velocity` in a `Core` sub-world and `Rotation` in a `Render` sub-world of one
//! game, against the same entities with the same three components in one world. A pass
//! despawns a rotating tenth of them (the 10,000 after the ones the previous pass despawned, in
//! the order they were spawned) and respawns as many with the same components, so every pass
//! does the same work. The values depend on the pass number, so the checksum (every position,
//! velocity and rotation alive) sees the latest pass; which ids are reused is each world's to
//! decide, so the checksum holds values only. World setup is untimed.
//!
//! The game respawns each entity with its builder (`GameEntityBuilder::..spawn_one`, a row in
//! each sub-world with its values), and in the row `spawn_values` by value; the world through
//! its value spawn, and in the row `[builder]` through its builder, as the game does.

use crate::components::{Position, Rotation, Velocity, field};
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Living entities (before and after every pass).
pub const ENTITIES: usize = 100_000;

/// Entities despawned and respawned per pass.
pub const PER_PASS: usize = ENTITIES / 10;

/// The values of the `index`-th entity spawned in pass `pass`.
#[inline]
fn values(index: usize, pass: u32) -> (Position, Velocity, Rotation) {
    let (index, pass) = (index as f32, pass as f32);
    (
        Position(Vec3::new(index, pass, -index)),
        Velocity(Vec3::new(0.5 * pass, 0.25 * index, 1.0)),
        Rotation(Vec3::new(pass, 1.0, index)),
    )
}

/// The checksum: every position, velocity and rotation alive.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn add(&mut self, position: &Position, velocity: &Velocity) {
        self.0.vec3(field::POSITION, position.0);
        self.0.vec3(field::VELOCITY, velocity.0);
    }

    fn rotation(&mut self, rotation: &Rotation) {
        self.0.vec3(field::ROTATION, rotation.0);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "game_despawn",
        description: "despawn a rotating 10% of 100,000 entities spread over two sub-worlds, respawn as many; against one world",
        contenders: vec![
            contender::<Game>(
                "archetypal",
                "game.despawn_entities(&handles); GameEntityBuilder::new().with_position(..).with_velocity(..).with_rotation(..).spawn_one(&mut game) per entity",
                Kind::Archetypal,
            ),
            contender::<GameByValue>(
                "archetypal spawn_values",
                "game.despawn_entities(&handles); game.spawn_values(iter of (Position, Velocity, Rotation)), over two sub-worlds",
                Kind::ArchetypalVariant,
            ),
            contender::<OneWorld<false>>(
                "archetypal one world",
                "world.despawn_entities(&handles), spawn_values(iter of (Position, Velocity, Rotation))",
                Kind::ArchetypalVariant,
            ),
            contender::<OneWorld<true>>(
                "archetypal one world [builder]",
                "world.despawn_entities(&handles); EntityBuilder::new().with_position(..).with_velocity(..).with_rotation(..).spawn_one(&mut world) per entity",
                Kind::ArchetypalVariant,
            ),
        ],
    }
}

/// A world holding the entities, and how a pass despawns and respawns.
trait Despawning: 'static {
    type Entity: Copy;
    /// An empty world.
    fn new() -> Self;
    /// Spawns `count` entities with pass `pass`'s values, appending their handles to `out`.
    fn spawn(&mut self, count: usize, pass: u32, out: &mut Vec<Self::Entity>);
    /// Despawns every one of `victims` (all alive).
    fn despawn(&mut self, victims: &[Self::Entity]);
    fn checksum(&mut self) -> u64;
}

/// A world, its living handles in spawn order, and the pass number.
struct Rotating<W: Despawning> {
    world: W,
    alive: Vec<W::Entity>,
    spawned: Vec<W::Entity>,
    pass: u32,
}

impl<W: Despawning> Pass for Rotating<W> {
    fn run(&mut self) {
        self.pass += 1;
        let start = (self.pass as usize - 1) * PER_PASS % ENTITIES;
        let window = start..start + PER_PASS;
        self.world.despawn(&self.alive[window.clone()]);
        self.spawned.clear();
        self.world.spawn(PER_PASS, self.pass, &mut self.spawned);
        self.alive[window].copy_from_slice(&self.spawned);
    }

    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

fn contender<W: Despawning>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            let mut world = W::new();
            let mut alive = Vec::with_capacity(ENTITIES);
            world.spawn(ENTITIES, 0, &mut alive);
            Box::new(Rotating {
                world,
                alive,
                spawned: Vec::with_capacity(PER_PASS),
                pass: 0,
            })
        },
    }
}

// ----- the game -----------------------------------------------------------------------------

/// archetypal's game of two sub-worlds, and the one world with the same components.
pub mod archetypal_game_despawn {
    pub use crate::components::{Position, Rotation, Velocity};

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                velocity: Velocity => VELOCITY,
            }
            Render {
                rotation: Rotation => ROTATION,
            }
        }
    }

    /// The same components in one world.
    pub mod one {
        pub use crate::components::{Position, Rotation, Velocity};

        archetypal::ecs! {
            World {
                position: Position => POSITION,
                velocity: Velocity => VELOCITY,
                rotation: Rotation => ROTATION,
            }
        }
    }
}

use archetypal_game_despawn as games;

struct Game(games::Game);

impl Despawning for Game {
    type Entity = archetypal::Entity;

    fn new() -> Self {
        Game(games::Game::new())
    }

    fn spawn(&mut self, count: usize, pass: u32, out: &mut Vec<archetypal::Entity>) {
        out.extend((0..count).map(|index| {
            let (position, velocity, rotation) = values(index, pass);
            games::GameEntityBuilder::new()
                .with_position(position)
                .with_velocity(velocity)
                .with_rotation(rotation)
                .spawn_one(&mut self.0)
        }));
    }

    fn despawn(&mut self, victims: &[archetypal::Entity]) {
        self.0.despawn_entities(victims);
    }

    fn checksum(&mut self) -> u64 {
        Game::checksum_of(&self.0)
    }
}

impl Game {
    /// Every position, velocity and rotation alive in `game`.
    fn checksum_of(game: &games::Game) -> u64 {
        let mut sum = Sum::default();
        for table in game.core.tables() {
            for (position, velocity) in table.position.iter().zip(&table.velocity) {
                sum.add(position, velocity);
            }
        }
        for table in game.render.tables() {
            for rotation in &table.rotation {
                sum.rotation(rotation);
            }
        }
        sum.0.finish()
    }
}

/// The game respawning by value: `spawn_values`, each value moved into its column in its
/// sub-world once.
struct GameByValue(games::Game);

impl Despawning for GameByValue {
    type Entity = archetypal::Entity;

    fn new() -> Self {
        GameByValue(games::Game::new())
    }

    fn spawn(&mut self, count: usize, pass: u32, out: &mut Vec<archetypal::Entity>) {
        out.extend(
            self.0
                .spawn_values((0..count).map(|index| values(index, pass))),
        );
    }

    fn despawn(&mut self, victims: &[archetypal::Entity]) {
        self.0.despawn_entities(victims);
    }

    fn checksum(&mut self) -> u64 {
        Game::checksum_of(&self.0)
    }
}

// ----- one world ----------------------------------------------------------------------------

/// The same entities in one world, respawned by its batch spawn, or with `BUILDER` by the
/// builder the game uses (the form's cost with the API held equal).
struct OneWorld<const BUILDER: bool>(games::one::World);

impl<const BUILDER: bool> Despawning for OneWorld<BUILDER> {
    type Entity = archetypal::Entity;

    fn new() -> Self {
        OneWorld(games::one::World::new())
    }

    fn spawn(&mut self, count: usize, pass: u32, out: &mut Vec<archetypal::Entity>) {
        if BUILDER {
            out.extend((0..count).map(|index| {
                let (position, velocity, rotation) = values(index, pass);
                games::one::EntityBuilder::new()
                    .with_position(position)
                    .with_velocity(velocity)
                    .with_rotation(rotation)
                    .spawn_one(&mut self.0)
            }));
            return;
        }
        out.extend(
            self.0
                .spawn_values((0..count).map(|index| values(index, pass))),
        );
    }

    fn despawn(&mut self, victims: &[archetypal::Entity]) {
        self.0.despawn_entities(victims);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for table in self.0.tables() {
            for ((position, velocity), rotation) in table
                .position
                .iter()
                .zip(&table.velocity)
                .zip(&table.rotation)
            {
                sum.add(position, velocity);
                sum.rotation(rotation);
            }
        }
        sum.0.finish()
    }
}
