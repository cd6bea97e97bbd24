//! Spawning with values in every sub-world at once: a game's `EntityBuilder` holds one part per
//! sub-world (`CoreEntityValues`, ...), and its spawn places the same handles in each, or, if a
//! value's `Default` or `Clone` panics, in none.

use alloc::vec::Vec;

use super::MultiWorld;
use super::list::SubWorldsMut;
use crate::entity::{Entity, EntityIndex, IdRecords};
use crate::storage::place_or_free;

/// A multi-world game's `EntityBuilder`: the values it holds for every sub-world (implemented
/// by `ecs!`).
pub trait GameBuilder {
    /// The values for every sub-world, as a list of the sub-worlds' shape:
    /// `(CoreEntityValues, (RenderEntityValues, ()))`.
    type Values;

    /// The values for every sub-world, taken out of the builder.
    fn into_values(self) -> Self::Values;
}

/// Spawns `count` entities in every sub-world with the builder's values, each a copy (the last
/// takes the originals): the game's `EntityBuilder::spawn`. Every sub-world's first copy is
/// made before any handle is issued, so a value whose type is not `Clone` panics with nothing
/// spawned.
pub fn spawn_built<G: MultiWorld>(game: &mut G, builder: G::Builder, count: usize) -> Vec<Entity> {
    let values = builder.into_values();
    let (mut sub_worlds, own) = game.parts_mut();
    let first_copy = (count > 1).then(|| G::SubWorldsMut::copy_built(&values));
    let entities = own.index.allocate_many(count, &mut sub_worlds);
    place_built(
        &mut sub_worlds,
        &mut own.index,
        &entities,
        first_copy,
        values,
    );
    entities
}

/// Spawns one entity in every sub-world with the builder's values, moved: the game's
/// `EntityBuilder::spawn_one`, [`spawn_built`] without its batch's `Vec`.
pub fn spawn_one<G: MultiWorld>(game: &mut G, builder: G::Builder) -> Entity {
    let values = builder.into_values();
    let (mut sub_worlds, own) = game.parts_mut();
    let entity = own.index.allocate(&mut sub_worlds);
    place_built(&mut sub_worlds, &mut own.index, &[entity], None, values);
    entity
}

/// Gives `entities`, alive in every sub-world's records (issued by the game's `index`), rows
/// with `values` in every sub-world; if a value's `Default` or `Clone` panics, no sub-world
/// keeps them and the index frees them.
pub(super) fn place_built<L: SubWorldsMut + IdRecords>(
    sub_worlds: &mut L,
    index: &mut EntityIndex,
    entities: &[Entity],
    first_copy: Option<L::Built>,
    values: L::Built,
) {
    place_or_free(index, sub_worlds, entities, |sub_worlds| {
        sub_worlds.spawn_built(entities, first_copy, values);
    });
}
