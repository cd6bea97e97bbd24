//! `disabled_iter`: `simple_iter`'s pass (`position += velocity`) over 10,000 entities of the
//! simple world, one in ten of them disabled: the disabled ones keep their values (the checksum
//! sums every entity, disabled or not) and the pass skips them.
//!
//! - archetypal: `disable(e)` (the entity moves to its table's disabled twin, which every query
//!   skips when it matches tables), then `for_each_table_mut` as in `simple_iter`;
//! - archetypal with no disabling at all: the 9,000 enabled entities alone in the iterated world
//!   (the 1,000 others in a second world the pass never sees), so the ratio of the two rows is
//!   what disabled entities cost a world's iteration (the bar: within 2%);
//! - bevy_ecs: its `Disabled` component, which the default query filter excludes (registered
//!   when the world is made, so the cached query, built after, excludes it), then the cached
//!   query's table slices as in `simple_iter`.

use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::query::{Allow, QueryState};

use crate::components::{Position, Rotation, SIMPLE_ENTITIES, Transform, Velocity, simple_values};
use crate::worlds::{archetypal_simple, simple_checksum};
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Whether entity `index` of the world is disabled: one in ten.
fn is_disabled(index: usize) -> bool {
    index % 10 == 3
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "disabled_iter",
        description: "position += velocity over 10,000 entities, one in ten disabled",
        contenders: vec![
            Contender {
                name: "archetypal",
                api: "disable(e); for_each_table_mut + slice zip",
                kind: Kind::Archetypal,
                setup: || Box::new(ArchetypalDisabled::new()),
            },
            Contender {
                name: NO_DISABLING,
                api: "the 9,000 enabled entities alone; for_each_table_mut + slice zip",
                kind: Kind::ArchetypalVariant,
                setup: || Box::new(ArchetypalNoDisabling::new()),
            },
            Contender {
                name: "bevy_ecs",
                api: "insert(Disabled); cached QueryState::contiguous_iter_mut + slice zip",
                kind: Kind::Peer,
                setup: || Box::new(BevyDisabled::new()),
            },
        ],
    }
}

/// The row of archetypal's world with no disabled entity.
pub const NO_DISABLING: &str = "archetypal no disabling";

/// The pass over an archetypal simple world: `position += velocity` in table slices.
fn move_all(world: &mut archetypal_simple::World) {
    use archetypal_simple::{POSITION, VELOCITY};
    world.for_each_table_mut(POSITION | VELOCITY, 0, |table| {
        for (position, velocity) in table.position.iter_mut().zip(table.velocity.iter()) {
            position.0 += velocity.0;
        }
    });
}

// ----- archetypal: disable(e) ---------------------------------------------------------------

struct ArchetypalDisabled(archetypal_simple::World);

impl ArchetypalDisabled {
    fn new() -> Self {
        let mut world = archetypal_simple::World::new();
        let entities = archetypal_simple::spawn(&mut world, SIMPLE_ENTITIES);
        for (index, &entity) in entities.iter().enumerate() {
            if is_disabled(index) {
                assert!(world.disable(entity));
            }
        }
        ArchetypalDisabled(world)
    }
}

impl Pass for ArchetypalDisabled {
    fn run(&mut self) {
        move_all(&mut self.0);
    }
    fn checksum(&mut self) -> u64 {
        // Every table, the disabled entities' too.
        simple_checksum::archetypal(&self.0)
    }
}

// ----- archetypal: no disabling -------------------------------------------------------------

struct ArchetypalNoDisabling {
    active: archetypal_simple::World,
    /// The entities the other contenders disable, where no pass sees them.
    parked: archetypal_simple::World,
}

impl ArchetypalNoDisabling {
    fn new() -> Self {
        let mut active = archetypal_simple::World::new();
        let mut parked = archetypal_simple::World::new();
        active.spawn_values(
            (0..SIMPLE_ENTITIES)
                .filter(|&index| !is_disabled(index))
                .map(simple_values),
        );
        parked.spawn_values(
            (0..SIMPLE_ENTITIES)
                .filter(|&index| is_disabled(index))
                .map(simple_values),
        );
        ArchetypalNoDisabling { active, parked }
    }
}

impl Pass for ArchetypalNoDisabling {
    fn run(&mut self) {
        move_all(&mut self.active);
    }
    fn checksum(&mut self) -> u64 {
        let mut sum = Checksum::new();
        for world in [&self.active, &self.parked] {
            for table in world.tables() {
                simple_checksum::add(
                    &mut sum,
                    &table.transform,
                    &table.position,
                    &table.rotation,
                    &table.velocity,
                );
            }
        }
        sum.finish()
    }
}

// ----- bevy_ecs: Disabled -------------------------------------------------------------------

struct BevyDisabled {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static Velocity)>,
}

impl BevyDisabled {
    fn new() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let entities: Vec<_> = world
            .spawn_batch((0..SIMPLE_ENTITIES).map(simple_values))
            .collect();
        for (index, &entity) in entities.iter().enumerate() {
            if is_disabled(index) {
                world.entity_mut(entity).insert(Disabled);
            }
        }
        let query = world.query::<(&mut Position, &Velocity)>();
        BevyDisabled { world, query }
    }
}

impl Pass for BevyDisabled {
    fn run(&mut self) {
        let tables = self
            .query
            .contiguous_iter_mut(&mut self.world)
            .expect("table components: the query is dense");
        for (mut positions, velocities) in tables {
            for (position, velocity) in positions.iter_mut().zip(velocities) {
                position.0 += velocity.0;
            }
        }
    }
    fn checksum(&mut self) -> u64 {
        // `Allow<Disabled>`: every entity, the disabled ones too.
        let world = &mut self.world;
        let mut sum = Checksum::new();
        let transforms: Vec<Transform> = world
            .query_filtered::<&Transform, Allow<Disabled>>()
            .iter(world)
            .copied()
            .collect();
        let positions: Vec<Position> = world
            .query_filtered::<&Position, Allow<Disabled>>()
            .iter(world)
            .copied()
            .collect();
        let rotations: Vec<Rotation> = world
            .query_filtered::<&Rotation, Allow<Disabled>>()
            .iter(world)
            .copied()
            .collect();
        let velocities: Vec<Velocity> = world
            .query_filtered::<&Velocity, Allow<Disabled>>()
            .iter(world)
            .copied()
            .collect();
        simple_checksum::add(&mut sum, &transforms, &positions, &rotations, &velocities);
        sum.finish()
    }
}
