//! The components of ecs_bench_suite's `simple_*` and `heavy_compute` worlds, shared by every
//! contender (one type, so every ECS stores the same bytes).
//!
//! Each derives bevy's `Component` and flecs's (`FlecsComponent`; each ECS needs its own, the
//! others ignore them), `Default` (archetypal and freecs need it; flecs uses it to add a
//! component without a value), `Clone + Copy`, and serde's `Serialize + Deserialize` (the serialize
//! workloads).

use bevy_ecs::component::Component;
use flecs_ecs::macros::Component as FlecsComponent;
use serde::{Deserialize, Serialize};

use crate::math::{Mat4, Vec3};

/// A 4x4 transform.
#[derive(
    Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize,
)]
pub struct Transform(pub Mat4);

/// A position.
#[derive(
    Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize,
)]
pub struct Position(pub Vec3);

/// A rotation (Euler angles; only stored, never used, as in the suite).
#[derive(
    Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize,
)]
pub struct Rotation(pub Vec3);

/// A velocity.
#[derive(
    Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize,
)]
pub struct Velocity(pub Vec3);

/// Number of entities in `simple_insert` and `simple_iter` (ecs_bench_suite's size).
pub const SIMPLE_ENTITIES: usize = 10_000;

/// The components of the `index`-th entity of a simple world.
///
/// The suite gives every entity the same values (a rotation of 1.2 rad about x, unit-x
/// vectors); the position and velocity vary with the index here so the checksums tell
/// entities apart. The work per entity is the same.
#[inline]
pub fn simple_values(index: usize) -> (Transform, Position, Rotation, Velocity) {
    let index = index as f32;
    (
        Transform(Mat4::from_angle_x(1.2)),
        Position(Vec3::new(index, 1.0, -index)),
        Rotation(Vec3::UNIT_X),
        Velocity(Vec3::new(1.0, 0.5 * index, 0.25)),
    )
}

/// The checksum fields of the simple components.
pub mod field {
    /// `Transform`.
    pub const TRANSFORM: u32 = 0;
    /// `Position`.
    pub const POSITION: u32 = 1;
    /// `Rotation`.
    pub const ROTATION: u32 = 2;
    /// `Velocity`.
    pub const VELOCITY: u32 = 3;
}
