//! `queued_spawn`: spawns queued from inside a loop over existing entities (issue 24).
//!
//! 10,000 spawner entities (`Emitter`, `Position`, `Velocity`). A pass loops over them; each
//! queues one spawn of an entity with four values derived from its own (`Transform`,
//! `Position`, `Rotation`, `Velocity`, as `simple_insert`'s entities), and the queue is
//! applied. The harness has no untimed reset, so every pass starts by despawning the previous
//! pass's 10,000 spawns (each crate's fastest despawn of a handle list): in the steady state a
//! pass is 10,000 despawns plus 10,000 queued spawns, the same for every contender. The
//! spawned values depend on the pass number, so a second pass changes the checksum, which sees
//! the spawners and the entities the last pass spawned.
//!
//! The `archetypal spawn_values` row is the floor: the same pass with the spawns collected into
//! a `Vec` and batch-spawned by value (no queue), so the ratio of the reference row to it is
//! what queueing costs. The spawns land in a table the pass's despawns emptied, and
//! archetypal's queue then hands its staged columns to the table whole (buffers traded, no
//! copy); into a table still holding rows they would be copied once more than the floor's.
//! The `archetypal system` row queues from a system of parameters, whose queue reserves
//! handles with no lock (`split_mut()`'s takes one per spawn).

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::system::{Commands, Query, SystemState};
use bevy_ecs::world::World as BevyWorld;

use crate::components::{Position, Rotation, Transform, Velocity, field};
use crate::math::{Mat4, Vec3};
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Spawner entities, and entities spawned per pass.
pub const SPAWNERS: usize = 10_000;

/// A spawner's own value (its index).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Emitter(pub f32);

/// The checksum field of [`Emitter`] (the simple components use 0..16).
const EMITTER_FIELD: u32 = 100;

/// The `index`-th spawner's values.
fn spawner(index: usize) -> (Emitter, Position, Velocity) {
    let index = index as f32;
    (
        Emitter(index),
        Position(Vec3::new(index, -index, 0.5 * index)),
        Velocity(Vec3::new(0.25, 1.0 + 0.001 * index, -0.5)),
    )
}

/// The four values a spawner queues at pass `pass`: its position advanced `pass` steps (also
/// as the transform's translation), its emitter and the pass as rotation, its velocity.
#[inline]
fn spawned_values(
    emitter: &Emitter,
    position: &Position,
    velocity: &Velocity,
    pass: f32,
) -> (Transform, Position, Rotation, Velocity) {
    let (p, v) = (position.0, velocity.0);
    let at = Vec3::new(p.x + v.x * pass, p.y + v.y * pass, p.z + v.z * pass);
    let mut transform = Mat4::IDENTITY;
    transform.0[3] = [at.x, at.y, at.z, 1.0];
    (
        Transform(transform),
        Position(at),
        Rotation(Vec3::new(emitter.0, pass, 0.0)),
        *velocity,
    )
}

/// The checksum of a world: every value of every column, spawners and spawned alike.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn transform(&mut self, value: &Transform) {
        self.0.mat4(field::TRANSFORM, &value.0);
    }
    fn position(&mut self, value: &Position) {
        self.0.vec3(field::POSITION, value.0);
    }
    fn rotation(&mut self, value: &Rotation) {
        self.0.vec3(field::ROTATION, value.0);
    }
    fn velocity(&mut self, value: &Velocity) {
        self.0.vec3(field::VELOCITY, value.0);
    }
    fn emitter(&mut self, value: &Emitter) {
        self.0.f32(EMITTER_FIELD, value.0);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "queued_spawn",
        description: "10,000 spawners each queue a spawn of 4 values from inside a loop, applied (after despawning the last pass's)",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "split_mut(): typed_query_ref over the spawners, commands.queue_spawn(EntityBuilder..) in the loop, apply_commands(); despawn_entities",
                Kind::Archetypal,
            ),
            contender::<ArchetypalSystem>(
                "archetypal system",
                "a system: Query over the spawners, Commands::queue_spawn(EntityBuilder..) in the loop, applied by the Schedule; despawn_entities",
                Kind::ArchetypalVariant,
            ),
            contender::<ArchetypalFloor>(
                "archetypal spawn_values (floor)",
                "typed_query_ref collecting the values into a Vec, then spawn_values(values.drain(..)); despawn_entities",
                Kind::ArchetypalVariant,
            ),
            contender::<Hecs>(
                "hecs",
                "query_mut over the spawners, CommandBuffer::spawn per spawner, run_on; despawn(e) (handles listed by a query_mut)",
                Kind::Peer,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "SystemState<(Query, Commands)>: Commands::spawn((..)) per spawner, SystemState::apply; World::despawn(e)",
                Kind::Peer,
            ),
        ],
    }
}

/// One crate's world with its spawners.
trait SpawnWorld: 'static {
    fn new() -> Self;
    /// Despawns the last pass's spawns, then queues and applies this pass's.
    fn pass(&mut self, pass: f32);
    fn checksum(&mut self) -> u64;
}

/// A world and the number of passes run on it.
struct Spawning<W> {
    world: W,
    passes: u32,
}

impl<W: SpawnWorld> Pass for Spawning<W> {
    fn run(&mut self) {
        self.passes += 1;
        self.world.pass(self.passes as f32);
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

fn contender<W: SpawnWorld>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            Box::new(Spawning {
                world: W::new(),
                passes: 0,
            })
        },
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world: the simple components and the spawners' `Emitter`.
pub mod archetypal_spawn {
    pub use super::Emitter;
    pub use crate::components::{Position, Rotation, Transform, Velocity};

    archetypal::ecs! {
        World {
            transform: Transform => TRANSFORM,
            position: Position => POSITION,
            rotation: Rotation => ROTATION,
            velocity: Velocity => VELOCITY,
            emitter: Emitter => EMITTER,
        }
        Resources {
            spawned: Vec<archetypal::Entity>,
            pass: f32,
        }
    }

    /// Every spawner queues the spawn of its four values for the pass (applied by the
    /// schedule), keeping the handles for the next pass's despawn.
    pub fn emit(
        mut spawners: Query<(&Emitter, &Position, &Velocity)>,
        mut commands: Commands,
        mut spawned: archetypal::ResMut<Vec<archetypal::Entity>>,
        pass: archetypal::Res<f32>,
    ) {
        spawners.for_each(|(emitter, position, velocity)| {
            let (transform, position, rotation, velocity) =
                super::spawned_values(emitter, position, velocity, *pass);
            spawned.push(
                commands.queue_spawn(
                    EntityBuilder::new()
                        .with_transform(transform)
                        .with_position(position)
                        .with_rotation(rotation)
                        .with_velocity(velocity),
                ),
            );
        });
    }
}

/// archetypal's spawners, and the handles the last pass spawned.
fn archetypal_new() -> (archetypal_spawn::World, Vec<archetypal::Entity>) {
    use archetypal_spawn::{EMITTER, POSITION, VELOCITY};
    let mut world = archetypal_spawn::World::new();
    world.spawn_batch(EMITTER | POSITION | VELOCITY, SPAWNERS, |table, row| {
        let (emitter, position, velocity) = spawner(row);
        table.emitter[row] = emitter;
        table.position[row] = position;
        table.velocity[row] = velocity;
    });
    (world, Vec::with_capacity(SPAWNERS))
}

fn archetypal_checksum(world: &archetypal_spawn::World) -> u64 {
    let mut sum = Sum::default();
    for table in world.tables() {
        table
            .transform
            .iter()
            .for_each(|value| sum.transform(value));
        table.position.iter().for_each(|value| sum.position(value));
        table.rotation.iter().for_each(|value| sum.rotation(value));
        table.velocity.iter().for_each(|value| sum.velocity(value));
        table.emitter.iter().for_each(|value| sum.emitter(value));
    }
    sum.0.finish()
}

struct Archetypal {
    world: archetypal_spawn::World,
    spawned: Vec<archetypal::Entity>,
}

impl SpawnWorld for Archetypal {
    fn new() -> Self {
        let (world, spawned) = archetypal_new();
        Archetypal { world, spawned }
    }

    fn pass(&mut self, pass: f32) {
        use archetypal_spawn::{Emitter, EntityBuilder, Position, Velocity};
        let Archetypal { world, spawned } = self;
        world.despawn_entities(spawned);
        spawned.clear();
        let mut parts = world.split_mut();
        parts
            .components
            .typed_query_ref::<(&Emitter, &Position, &Velocity)>()
            .for_each(|(emitter, position, velocity)| {
                let (transform, position, rotation, velocity) =
                    spawned_values(emitter, position, velocity, pass);
                spawned.push(
                    parts.commands.queue_spawn(
                        EntityBuilder::new()
                            .with_transform(transform)
                            .with_position(position)
                            .with_rotation(rotation)
                            .with_velocity(velocity),
                    ),
                );
            });
        world.apply_commands();
    }

    fn checksum(&mut self) -> u64 {
        archetypal_checksum(&self.world)
    }
}

/// The spawners' loop as a system of parameters (its queue reserves handles with no lock).
struct ArchetypalSystem {
    world: archetypal_spawn::World,
    schedule: archetypal::Schedule<archetypal_spawn::World>,
}

impl SpawnWorld for ArchetypalSystem {
    fn new() -> Self {
        let (mut world, spawned) = archetypal_new();
        world.resources.spawned = spawned;
        let mut schedule = archetypal::Schedule::new();
        schedule.add(archetypal_spawn::emit);
        ArchetypalSystem { world, schedule }
    }

    fn pass(&mut self, pass: f32) {
        // The last pass's spawns despawned as the other rows do, on the world itself (through
        // `split_mut()`, its command part would hold a reserver the freed ids go through).
        let mut spawned = core::mem::take(&mut self.world.resources.spawned);
        self.world.despawn_entities(&spawned);
        spawned.clear();
        self.world.resources.spawned = spawned;
        self.world.resources.pass = pass;
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> u64 {
        archetypal_checksum(&self.world)
    }
}

struct ArchetypalFloor {
    world: archetypal_spawn::World,
    spawned: Vec<archetypal::Entity>,
    /// The values collected from the spawners, kept between passes.
    values: Vec<(Transform, Position, Rotation, Velocity)>,
}

impl SpawnWorld for ArchetypalFloor {
    fn new() -> Self {
        let (world, spawned) = archetypal_new();
        ArchetypalFloor {
            world,
            spawned,
            values: Vec::with_capacity(SPAWNERS),
        }
    }

    fn pass(&mut self, pass: f32) {
        use archetypal_spawn::{Emitter, Position, Velocity};
        let ArchetypalFloor {
            world,
            spawned,
            values,
        } = self;
        world.despawn_entities(spawned);
        values.clear();
        world
            .typed_query_ref::<(&Emitter, &Position, &Velocity)>()
            .for_each(|(emitter, position, velocity)| {
                values.push(spawned_values(emitter, position, velocity, pass));
            });
        *spawned = world.spawn_values(values.drain(..));
    }

    fn checksum(&mut self) -> u64 {
        archetypal_checksum(&self.world)
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    commands: hecs::CommandBuffer,
    spawned: Vec<hecs::Entity>,
}

impl SpawnWorld for Hecs {
    fn new() -> Self {
        let mut world = hecs::World::new();
        world.spawn_batch((0..SPAWNERS).map(spawner));
        Hecs {
            world,
            commands: hecs::CommandBuffer::new(),
            spawned: Vec::with_capacity(SPAWNERS),
        }
    }

    fn pass(&mut self, pass: f32) {
        let Hecs {
            world,
            commands,
            spawned,
        } = self;
        for entity in spawned.drain(..) {
            let _ = world.despawn(entity);
        }
        for (emitter, position, velocity) in world.query_mut::<(&Emitter, &Position, &Velocity)>() {
            commands.spawn(spawned_values(emitter, position, velocity, pass));
        }
        commands.run_on(world);
        // `CommandBuffer::spawn` returns no handle: the next pass's victims are listed here.
        spawned.extend(world.query_mut::<hecs::Entity>().with::<&Transform>());
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &self.world;
        world
            .query::<&Transform>()
            .iter()
            .for_each(|value| sum.transform(value));
        world
            .query::<&Position>()
            .iter()
            .for_each(|value| sum.position(value));
        world
            .query::<&Rotation>()
            .iter()
            .for_each(|value| sum.rotation(value));
        world
            .query::<&Velocity>()
            .iter()
            .for_each(|value| sum.velocity(value));
        world
            .query::<&Emitter>()
            .iter()
            .for_each(|value| sum.emitter(value));
        sum.0.finish()
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// The system's parameters: the spawners and the command queue.
type BevySpawners = (
    Query<'static, 'static, (&'static Emitter, &'static Position, &'static Velocity)>,
    Commands<'static, 'static>,
);

struct Bevy {
    world: BevyWorld,
    state: SystemState<BevySpawners>,
    spawned: Vec<BevyEntity>,
}

impl SpawnWorld for Bevy {
    fn new() -> Self {
        let mut world = BevyWorld::new();
        world.spawn_batch((0..SPAWNERS).map(spawner));
        let state = SystemState::new(&mut world);
        Bevy {
            world,
            state,
            spawned: Vec::with_capacity(SPAWNERS),
        }
    }

    fn pass(&mut self, pass: f32) {
        let Bevy {
            world,
            state,
            spawned,
        } = self;
        for entity in spawned.drain(..) {
            world.despawn(entity);
        }
        let (spawners, mut commands) = state.get_mut(world).expect("valid parameters");
        for (emitter, position, velocity) in &spawners {
            spawned.push(
                commands
                    .spawn(spawned_values(emitter, position, velocity, pass))
                    .id(),
            );
        }
        state.apply(world);
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &mut self.world;
        let mut query = world.query::<(
            Option<&Transform>,
            Option<&Position>,
            Option<&Rotation>,
            Option<&Velocity>,
            Option<&Emitter>,
        )>();
        for (transform, position, rotation, velocity, emitter) in query.iter(world) {
            if let Some(value) = transform {
                sum.transform(value);
            }
            if let Some(value) = position {
                sum.position(value);
            }
            if let Some(value) = rotation {
                sum.rotation(value);
            }
            if let Some(value) = velocity {
                sum.velocity(value);
            }
            if let Some(value) = emitter {
                sum.emitter(value);
            }
        }
        sum.0.finish()
    }
}
