//! Spawning with values in every sub-world at once: a game's `EntityBuilder` holds one part per
//! sub-world (`CoreEntityValues`, ...), and its spawn places the same handles in each, or, if a
//! value's `Default` or `Clone` panics, in none.

use alloc::vec::Vec;

use super::MultiWorld;
use crate::entity::Entity;
use crate::lifecycle;

/// A multi-world game's `EntityBuilder`: the values it holds for every sub-world (implemented
/// by `ecs!`).
pub trait MultiWorldBuilder {
    /// The values for every sub-world, as a list of the sub-worlds' shape:
    /// `(CoreEntityValues, (RenderEntityValues, ()))`.
    type Values;

    /// The values for every sub-world, taken out of the builder.
    fn into_values(self) -> Self::Values;
}

/// Spawns `count` entities in every sub-world with the builder's values, each a copy (the last
/// takes the originals): the game's `EntityBuilder::spawn`, a world's spawn over every
/// sub-world (see `lifecycle::place_built`).
#[inline]
pub fn spawn_built<G: MultiWorld>(game: &mut G, builder: G::Builder, count: usize) -> Vec<Entity> {
    let (mut sub_worlds, own) = game.parts_mut();
    lifecycle::place_built(
        &mut own.index,
        &mut sub_worlds,
        count,
        builder.into_values(),
    )
}

/// Spawns one entity in every sub-world with the builder's values, moved: the game's
/// `EntityBuilder::spawn_one`, [`spawn_built`] without its batch's `Vec`.
#[inline]
pub fn spawn_one<G: MultiWorld>(game: &mut G, builder: G::Builder) -> Entity {
    let (mut sub_worlds, own) = game.parts_mut();
    lifecycle::place_one(&mut own.index, &mut sub_worlds, builder.into_values())
}
