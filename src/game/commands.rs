//! A multi-world game's own queued commands: spawns of entities with no components and
//! despawns, which reach every sub-world (each sub-world queues its own component changes),
//! and how they are applied, counted and cleared.

use alloc::vec::Vec;
use core::mem;

use super::list::{SubWorlds, SubWorldsMut};
use super::{MultiWorld, Whole};
use crate::storage::despawn;
use crate::{CommandReport, Entity, EntityReserver};

/// A spawn or despawn queued on a multi-world game, applied by its `apply_commands`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameCommand {
    /// Spawn the reserved entities (empty in every sub-world).
    SpawnEntities(Vec<Entity>),
    /// Despawn the entity from every sub-world.
    Despawn(Entity),
    /// Despawn every entity of the list (those still alive) from every sub-world.
    DespawnEntities(Vec<Entity>),
}

/// The command queue of a multi-world game, from its `commands()` or `split_mut().commands`
/// (usable while the sub-worlds are borrowed): queued spawns and despawns, applied by the
/// game's `apply_commands()`.
pub struct GameCommandQueue<'a> {
    queue: &'a mut Vec<GameCommand>,
    reserver: EntityReserver,
}

impl<'a> GameCommandQueue<'a> {
    /// The queue over the game's `queue`, reserving from the game's allocator with `reserver`.
    #[inline]
    pub(super) fn new(queue: &'a mut Vec<GameCommand>, reserver: EntityReserver) -> Self {
        Self { queue, reserver }
    }

    /// Queues a spawn of `count` entities with no components and returns their handles now,
    /// so later queued commands (here or in a sub-world) can target them. They are not alive
    /// until `apply_commands`.
    #[inline]
    pub fn queue_spawn_entities(&mut self, count: usize) -> Vec<Entity> {
        let entities = self.reserver.reserve(count);
        self.queue
            .push(GameCommand::SpawnEntities(entities.clone()));
        entities
    }

    /// Queues a despawn of `entity` from every sub-world (O(1)); skipped and counted by
    /// `apply_commands` if `entity` is dead by then.
    #[inline]
    pub fn queue_despawn(&mut self, entity: Entity) {
        self.queue.push(GameCommand::Despawn(entity));
    }

    /// Queues a despawn of every entity of `entities` from every sub-world, as one command;
    /// applying it counts each handle, as if queued one by one.
    #[inline]
    pub fn queue_despawn_entities(&mut self, entities: &[Entity]) {
        self.queue
            .push(GameCommand::DespawnEntities(entities.to_vec()));
    }
}

/// Applies the queued commands, the game's and every sub-world's, and empties the queues: first
/// the game's queued spawns, then each sub-world's queue (in order), then the game's queued
/// despawns. That ends in the state applying everything in the order queued would give, since
/// a despawned entity takes no further changes (though a sub-world command on an entity
/// despawned in the same batch counts as applied, not skipped). A command whose entity is not
/// alive is skipped; the report counts both. If a sub-world's command or a despawn panics, the
/// despawns not applied yet go back into the game's queue.
pub fn apply_commands<G: MultiWorld>(game: &mut G) -> CommandReport {
    let (mut sub_worlds, own) = game.parts_mut();
    let mut report = CommandReport::default();
    let mut despawns = Vec::new();
    // Spawns of empty rows call no component code: nothing here panics.
    for command in mem::take(&mut own.queue) {
        match command {
            GameCommand::SpawnEntities(entities) => {
                let refused = own.allocator.activate_all(&entities);
                if refused.is_empty() {
                    sub_worlds.spawn_placed(&entities);
                } else {
                    let activated: Vec<Entity> = (0..entities.len())
                        .filter(|index| !refused.contains(index))
                        .map(|index| entities[index])
                        .collect();
                    sub_worlds.spawn_placed(&activated);
                }
                report.record(refused.is_empty());
            }
            GameCommand::Despawn(entity) => despawns.push(entity),
            GameCommand::DespawnEntities(entities) => despawns.extend(entities),
        }
    }
    let mut despawning = Requeue {
        queue: &mut own.queue,
        rest: despawns.into_iter(),
    };
    sub_worlds.apply_commands(&mut report);
    let mut whole = Whole {
        allocator: &mut own.allocator,
        sub_worlds,
    };
    for entity in despawning.rest.by_ref() {
        report.record(despawn::despawn(&mut whole, entity));
    }
    report
}

/// The despawns of an `apply_commands` not applied yet. Dropped with some left only when a
/// sub-world's command or a despawn panicked: they go back into the game's queue, so nothing
/// queued is lost.
struct Requeue<'a> {
    queue: &'a mut Vec<GameCommand>,
    rest: alloc::vec::IntoIter<Entity>,
}

impl Drop for Requeue<'_> {
    fn drop(&mut self) {
        self.queue
            .extend(self.rest.by_ref().map(GameCommand::Despawn));
    }
}

/// Number of queued commands, the game's and every sub-world's.
#[inline]
pub fn command_count<G: MultiWorld>(game: &G) -> usize {
    let (sub_worlds, own) = game.parts();
    own.queue.len() + sub_worlds.command_count()
}

/// Drops every queued command, the game's and every sub-world's, without applying it; handles
/// reserved by a queued spawn are given back and never become alive.
pub fn clear_commands<G: MultiWorld>(game: &mut G) {
    let (mut sub_worlds, own) = game.parts_mut();
    // Every reservation is held by a spawn queued here: they are given back all at once, in
    // the allocator's one order (ascending id).
    own.allocator.release_all_reserved();
    own.queue.clear();
    sub_worlds.clear_commands();
}
