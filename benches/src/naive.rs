//! The design the archetype layout replaces: one `HashMap<Entity, T>` per component type.
//!
//! Spawning inserts into each map; a system walks one map and looks every entity up in the
//! others; a handle lookup is one hash probe. std's default hasher, as a first version would
//! use.

use std::collections::HashMap;

use crate::components::{Position, Rotation, Transform, Velocity, simple_values};

/// An entity of the naive world: a plain id.
pub type NaiveEntity = u32;

/// One map per component of the simple world.
#[derive(Default)]
pub struct NaiveWorld {
    next_id: NaiveEntity,
    /// Every `Transform`.
    pub transforms: HashMap<NaiveEntity, Transform>,
    /// Every `Position`.
    pub positions: HashMap<NaiveEntity, Position>,
    /// Every `Rotation`.
    pub rotations: HashMap<NaiveEntity, Rotation>,
    /// Every `Velocity`.
    pub velocities: HashMap<NaiveEntity, Velocity>,
}

impl NaiveWorld {
    /// A world of `count` entities with the simple components ([`simple_values`]).
    pub fn simple(count: usize) -> (Self, Vec<NaiveEntity>) {
        let mut world = NaiveWorld::default();
        let entities = (0..count)
            .map(|index| {
                let (transform, position, rotation, velocity) = simple_values(index);
                let entity = world.next_id;
                world.next_id += 1;
                world.transforms.insert(entity, transform);
                world.positions.insert(entity, position);
                world.rotations.insert(entity, rotation);
                world.velocities.insert(entity, velocity);
                entity
            })
            .collect();
        (world, entities)
    }
}
