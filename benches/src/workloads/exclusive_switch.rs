//! `exclusive_switch` (issue 42): switching a state among three exclusive components.
//!
//! 10,000 entities with a `Position` and one state of `Idle`, `Moving` and `Attacking` (each
//! one `f32`: how long idle, the speed, the damage). Entity `i` is in state `(i + pass) % 3`
//! after pass `pass`: a pass moves every entity to its next state (Idle to Moving, Moving to
//! Attacking, Attacking to Idle), with a value of the pass and the index, so every entity
//! changes table every pass. The checksum holds every entity's position and state with its
//! value, so a contender that left an old state behind does not match.
//!
//! archetypal declares `Rules { exclusive(IDLE, MOVING, ATTACKING) }` and calls `set_<next>(e,
//! value)`: the world removes the state held in the same migration, without being told which.
//! `archetypal [no rules]` runs on the same world declared without its `Rules` block and does
//! it by hand: `remove_components(e, OLD)` then `set_<next>(e, value)`, two migrations. bevy_ecs
//! has no exclusive components: `entity_mut(e).remove::<Old>()` then `.insert(New(v))`, two
//! archetype moves (the program knows the old state, as these rows do). hecs has one call for
//! it: `exchange_one::<Old, New>(e, New(v))`, one archetype move. flecs has exclusive
//! relationships: `State` carries the `Exclusive` trait and the three states are pair targets
//! holding their data, so `set_pair::<State, New>(New(v))` replaces the `(State, Old)` pair in
//! one move. The `Vec` row is the hand-kept enum: one column of `enum State`, written in place
//! (no table moves at all: what a game does when it gives up on querying by state).

use bevy_ecs::component::Component;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::components::Position;
use crate::math::Vec3;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Entities switched per pass.
pub const ENTITIES: usize = 10_000;

/// Idle: for how long.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Idle(pub f32);

/// Moving: at what speed.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Moving(pub f32);

/// Attacking: with what damage.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Attacking(pub f32);

/// flecs's exclusive relationship whose targets are the three states.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct State;

/// Entity `index`'s state after pass `pass` (0: idle, 1: moving, 2: attacking) and its value.
#[inline]
fn state(index: usize, pass: u32) -> (usize, f32) {
    (
        (index + pass as usize) % 3,
        index as f32 * 0.5 + pass as f32,
    )
}

/// The position of entity `index` (never changed by a pass: it moves with the row).
fn position(index: usize) -> Position {
    let index = index as f32;
    Position(Vec3::new(index, -index, 1.0))
}

/// The checksum: every position, and every state with its value.
#[derive(Default)]
struct Sum(Checksum);

impl Sum {
    fn position(&mut self, position: &Position) {
        self.0.vec3(0, position.0);
    }
    fn state(&mut self, which: usize, value: f32) {
        self.0.f32(1 + which as u32, value);
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "exclusive_switch",
        description: "10,000 entities (Position + one of Idle, Moving, Attacking) each switched to its next state",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "Rules { exclusive(IDLE, MOVING, ATTACKING) }; set_<next>(e, value): one migration",
                Kind::Archetypal,
            ),
            contender::<ArchetypalByHand>(
                "archetypal [no rules]",
                "the world without its Rules block: remove_components(e, OLD), set_<next>(e, value): two migrations",
                Kind::ArchetypalVariant,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "entity_mut(e).remove::<Old>().insert(New(v)): two archetype moves",
                Kind::Peer,
            ),
            contender::<Hecs>(
                "hecs",
                "exchange_one::<Old, New>(e, New(v)): one archetype move",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "State with the Exclusive trait; entity_from_id(e).set_pair::<State, New>(New(v)) replaces (State, Old)",
                Kind::Peer,
            ),
            contender::<VecFloor>(
                "Vec (enum)",
                "one Vec<enum State> column written in place (no moves)",
                Kind::Baseline,
            ),
        ],
    }
}

/// One crate's world of the entities in their states.
trait SwitchWorld: 'static {
    /// The entities in their states of pass 0.
    fn new() -> Self;
    /// Moves every entity to its state of pass `pass`.
    fn switch(&mut self, pass: u32);
    fn checksum(&mut self) -> u64;
}

/// A world and its pass number.
struct Passes<W> {
    world: W,
    pass: u32,
}

impl<W: SwitchWorld> Pass for Passes<W> {
    fn run(&mut self) {
        self.pass += 1;
        self.world.switch(self.pass);
    }
    fn checksum(&mut self) -> u64 {
        self.world.checksum()
    }
}

fn contender<W: SwitchWorld>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            Box::new(Passes {
                world: W::new(),
                pass: 0,
            })
        },
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world with the exclusive group.
pub mod archetypal_rules {
    pub use super::{Attacking, Idle, Moving};
    pub use crate::components::Position;

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            idle: Idle => IDLE,
            moving: Moving => MOVING,
            attacking: Attacking => ATTACKING,
        }
        Rules {
            exclusive(IDLE, MOVING, ATTACKING),
        }
    }
}

/// The same world without the `Rules` block.
pub mod archetypal_plain {
    pub use super::{Attacking, Idle, Moving};
    pub use crate::components::Position;

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            idle: Idle => IDLE,
            moving: Moving => MOVING,
            attacking: Attacking => ATTACKING,
        }
    }
}

/// Spawns the entities in their states of pass 0 into either archetypal world (the two types
/// differ only in their rules).
macro_rules! archetypal_new {
    ($module:ident) => {{
        let mut world = $module::World::new();
        let entities = (0..ENTITIES)
            .map(|index| {
                let builder = $module::EntityBuilder::new().with_position(position(index));
                match state(index, 0) {
                    (0, value) => builder.with_idle(Idle(value)).spawn_one(&mut world),
                    (1, value) => builder.with_moving(Moving(value)).spawn_one(&mut world),
                    (_, value) => builder
                        .with_attacking(Attacking(value))
                        .spawn_one(&mut world),
                }
            })
            .collect();
        (world, entities)
    }};
}

/// Every position and state of an archetypal world.
macro_rules! archetypal_checksum {
    ($world:expr) => {{
        let mut sum = Sum::default();
        for table in $world.tables() {
            table.position.iter().for_each(|p| sum.position(p));
            table.idle.iter().for_each(|s| sum.state(0, s.0));
            table.moving.iter().for_each(|s| sum.state(1, s.0));
            table.attacking.iter().for_each(|s| sum.state(2, s.0));
        }
        sum.0.finish()
    }};
}

struct Archetypal {
    world: archetypal_rules::World,
    entities: Vec<archetypal::Entity>,
}

impl SwitchWorld for Archetypal {
    fn new() -> Self {
        let (world, entities) = archetypal_new!(archetypal_rules);
        Archetypal { world, entities }
    }
    fn switch(&mut self, pass: u32) {
        for (index, &entity) in self.entities.iter().enumerate() {
            match state(index, pass) {
                (0, value) => self.world.set_idle(entity, Idle(value)),
                (1, value) => self.world.set_moving(entity, Moving(value)),
                (_, value) => self.world.set_attacking(entity, Attacking(value)),
            };
        }
    }
    fn checksum(&mut self) -> u64 {
        archetypal_checksum!(self.world)
    }
}

struct ArchetypalByHand {
    world: archetypal_plain::World,
    entities: Vec<archetypal::Entity>,
}

impl SwitchWorld for ArchetypalByHand {
    fn new() -> Self {
        let (world, entities) = archetypal_new!(archetypal_plain);
        ArchetypalByHand { world, entities }
    }
    fn switch(&mut self, pass: u32) {
        use archetypal_plain::{ATTACKING, IDLE, MOVING};
        let world = &mut self.world;
        for (index, &entity) in self.entities.iter().enumerate() {
            match state(index, pass) {
                (0, value) => {
                    world.remove_components(entity, ATTACKING);
                    world.set_idle(entity, Idle(value))
                }
                (1, value) => {
                    world.remove_components(entity, IDLE);
                    world.set_moving(entity, Moving(value))
                }
                (_, value) => {
                    world.remove_components(entity, MOVING);
                    world.set_attacking(entity, Attacking(value))
                }
            };
        }
    }
    fn checksum(&mut self) -> u64 {
        archetypal_checksum!(self.world)
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: bevy_ecs::world::World,
    entities: Vec<bevy_ecs::entity::Entity>,
}

impl SwitchWorld for Bevy {
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let entities = (0..ENTITIES)
            .map(|index| {
                let mut entity = world.spawn(position(index));
                match state(index, 0) {
                    (0, value) => entity.insert(Idle(value)),
                    (1, value) => entity.insert(Moving(value)),
                    (_, value) => entity.insert(Attacking(value)),
                };
                entity.id()
            })
            .collect();
        Bevy { world, entities }
    }
    fn switch(&mut self, pass: u32) {
        for (index, &entity) in self.entities.iter().enumerate() {
            let mut entity = self.world.entity_mut(entity);
            match state(index, pass) {
                (0, value) => entity.remove::<Attacking>().insert(Idle(value)),
                (1, value) => entity.remove::<Idle>().insert(Moving(value)),
                (_, value) => entity.remove::<Moving>().insert(Attacking(value)),
            };
        }
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        let world = &mut self.world;
        for position in world.query::<&Position>().iter(world) {
            sum.position(position);
        }
        for idle in world.query::<&Idle>().iter(world) {
            sum.state(0, idle.0);
        }
        for moving in world.query::<&Moving>().iter(world) {
            sum.state(1, moving.0);
        }
        for attacking in world.query::<&Attacking>().iter(world) {
            sum.state(2, attacking.0);
        }
        sum.0.finish()
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    entities: Vec<hecs::Entity>,
}

impl SwitchWorld for Hecs {
    fn new() -> Self {
        let mut world = hecs::World::new();
        let entities = (0..ENTITIES)
            .map(|index| match state(index, 0) {
                (0, value) => world.spawn((position(index), Idle(value))),
                (1, value) => world.spawn((position(index), Moving(value))),
                (_, value) => world.spawn((position(index), Attacking(value))),
            })
            .collect();
        Hecs { world, entities }
    }
    fn switch(&mut self, pass: u32) {
        let world = &mut self.world;
        for (index, &entity) in self.entities.iter().enumerate() {
            match state(index, pass) {
                (0, value) => world
                    .exchange_one::<Attacking, _>(entity, Idle(value))
                    .map(drop),
                (1, value) => world
                    .exchange_one::<Idle, _>(entity, Moving(value))
                    .map(drop),
                (_, value) => world
                    .exchange_one::<Moving, _>(entity, Attacking(value))
                    .map(drop),
            }
            .expect("the entity holds its previous state");
        }
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for position in self.world.query::<&Position>().iter() {
            sum.position(position);
        }
        for idle in self.world.query::<&Idle>().iter() {
            sum.state(0, idle.0);
        }
        for moving in self.world.query::<&Moving>().iter() {
            sum.state(1, moving.0);
        }
        for attacking in self.world.query::<&Attacking>().iter() {
            sum.state(2, attacking.0);
        }
        sum.0.finish()
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    entities: Vec<flecs_ecs::prelude::Entity>,
}

impl SwitchWorld for Flecs {
    fn new() -> Self {
        use flecs_ecs::core::IdOperations;
        use flecs_ecs::prelude::flecs;
        let world = flecs_ecs::prelude::World::new();
        world.component::<State>().add_trait::<flecs::Exclusive>();
        let entities = (0..ENTITIES)
            .map(|index| {
                let entity = world.entity().set(position(index));
                match state(index, 0) {
                    (0, value) => entity.set_pair::<State, Idle>(Idle(value)),
                    (1, value) => entity.set_pair::<State, Moving>(Moving(value)),
                    (_, value) => entity.set_pair::<State, Attacking>(Attacking(value)),
                }
                .id()
            })
            .collect();
        Flecs { world, entities }
    }
    fn switch(&mut self, pass: u32) {
        for (index, &entity) in self.entities.iter().enumerate() {
            let entity = self.world.entity_from_id(entity);
            match state(index, pass) {
                (0, value) => entity.set_pair::<State, Idle>(Idle(value)),
                (1, value) => entity.set_pair::<State, Moving>(Moving(value)),
                (_, value) => entity.set_pair::<State, Attacking>(Attacking(value)),
            };
        }
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut sum = Sum::default();
        let world = &self.world;
        world
            .new_query::<&Position>()
            .each(|position| sum.position(position));
        world
            .new_query::<&(State, Idle)>()
            .each(|idle| sum.state(0, idle.0));
        world
            .new_query::<&(State, Moving)>()
            .each(|moving| sum.state(1, moving.0));
        world
            .new_query::<&(State, Attacking)>()
            .each(|attacking| sum.state(2, attacking.0));
        sum.0.finish()
    }
}

// ----- Vec (enum) ---------------------------------------------------------------------------

/// The hand-kept enum: what a game writes when its states are not components.
#[derive(Clone, Copy)]
enum EnumState {
    Idle(Idle),
    Moving(Moving),
    Attacking(Attacking),
}

struct VecFloor {
    positions: Vec<Position>,
    states: Vec<EnumState>,
}

impl SwitchWorld for VecFloor {
    fn new() -> Self {
        let mut floor = VecFloor {
            positions: (0..ENTITIES).map(position).collect(),
            states: vec![EnumState::Idle(Idle(0.0)); ENTITIES],
        };
        floor.switch(0);
        floor
    }
    fn switch(&mut self, pass: u32) {
        for (index, slot) in self.states.iter_mut().enumerate() {
            *slot = match state(index, pass) {
                (0, value) => EnumState::Idle(Idle(value)),
                (1, value) => EnumState::Moving(Moving(value)),
                (_, value) => EnumState::Attacking(Attacking(value)),
            };
        }
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        self.positions.iter().for_each(|p| sum.position(p));
        for state in &self.states {
            match *state {
                EnumState::Idle(idle) => sum.state(0, idle.0),
                EnumState::Moving(moving) => sum.state(1, moving.0),
                EnumState::Attacking(attacking) => sum.state(2, attacking.0),
            }
        }
        sum.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass leaves every entity with its position and exactly its next state.
    #[test]
    fn a_switch_leaves_one_state_per_entity() {
        use archetypal_rules::{ATTACKING, IDLE, MOVING, POSITION};
        let mut world = Archetypal::new();
        world.switch(1);
        world.switch(2);
        for (index, &entity) in world.entities.iter().enumerate() {
            let expected = [IDLE, MOVING, ATTACKING][state(index, 2).0];
            assert_eq!(
                world.world.component_mask(entity),
                Some(POSITION | expected)
            );
        }
        world.world.check_invariants().expect("the rules hold");
    }
}
