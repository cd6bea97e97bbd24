//! A multi-world game's own queued commands: spawns (with no components, or with a builder's
//! values) and despawns, which reach every sub-world (each sub-world queues its own component
//! changes), and how they are applied, counted and cleared.

use alloc::vec::Vec;
use core::mem;

use super::list::{SubWorlds, SubWorldsMut};
use super::spawn::{GameBuilder, place_built};
use super::{GameEntities, MultiWorld};
use crate::commands::CommandReport;
use crate::entity::{Entity, EntityReserver};
use crate::storage::activate_reserved;
use crate::storage::despawn::{self, Whole};

/// A spawn or despawn queued on a multi-world game, applied by its `apply_commands`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameCommand {
    /// Spawn the reserved entities (empty in every sub-world).
    SpawnEntities(Vec<Entity>),
    /// Spawn the reserved entity with the values of the next builder queued (`queue_spawn`).
    Spawn(Entity),
    /// Despawn the entity from every sub-world.
    Despawn(Entity),
    /// Despawn every entity of the list (those still alive) from every sub-world.
    DespawnEntities(Vec<Entity>),
}

/// The command queue of a multi-world game, from its `commands()` or `split_mut().commands`
/// (usable while the sub-worlds are borrowed): queued spawns and despawns, applied by the
/// game's `apply_commands()`; `B` is the game's `EntityBuilder`.
pub struct GameCommandQueue<'a, B> {
    queue: &'a mut Vec<GameCommand>,
    spawns: &'a mut Vec<B>,
    reserver: EntityReserver,
}

impl<'a, B> GameCommandQueue<'a, B> {
    /// The queue over the game's `queue` and the builders of its queued spawns, reserving from
    /// the game's index with `reserver`.
    #[inline]
    pub(super) fn new(
        queue: &'a mut Vec<GameCommand>,
        spawns: &'a mut Vec<B>,
        reserver: EntityReserver,
    ) -> Self {
        Self {
            queue,
            spawns,
            reserver,
        }
    }

    /// Queues a spawn of one entity with the builder's values, in every sub-world, and returns
    /// its handle now, so later queued commands (here or in a sub-world) can target it. It is
    /// not alive until `apply_commands`, which links it to the builder's targets alive then.
    #[inline]
    pub fn queue_spawn(&mut self, builder: B) -> Entity {
        let entity = self.reserver.reserve_one();
        self.queue.push(GameCommand::Spawn(entity));
        self.spawns.push(builder);
        entity
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
/// alive is skipped; the report counts both. If a spawn's `Default` or `Clone`, a sub-world's
/// command or a despawn panics, the commands not applied yet go back into the game's queue
/// (the one that panicked is dropped; a spawn's handle is freed).
pub fn apply_commands<G: MultiWorld>(game: &mut G) -> CommandReport {
    let (mut sub_worlds, own) = game.parts_mut();
    let GameEntities {
        index,
        queue,
        spawns,
    } = own;
    let mut report = CommandReport::default();
    let mut pending = Requeue {
        commands: mem::take(queue).into_iter(),
        builders: mem::take(spawns).into_iter(),
        despawns: Vec::new(),
        despawned: 0,
        queue,
        spawns,
    };
    for command in pending.commands.by_ref() {
        match command {
            GameCommand::SpawnEntities(entities) => {
                let activated = activate_reserved(index, &mut sub_worlds, &entities);
                sub_worlds.spawn_placed(&activated);
                report.record(activated.len() == entities.len());
            }
            GameCommand::Spawn(entity) => {
                let builder = pending.builders.next();
                let spawned = match builder {
                    Some(builder) if index.activate(entity, &mut sub_worlds) => {
                        let values = builder.into_values();
                        place_built(&mut sub_worlds, index, &[entity], None, values);
                        true
                    }
                    // Released behind the queue's back, or pushed without its builder.
                    _ => false,
                };
                report.record(spawned);
            }
            GameCommand::Despawn(entity) => pending.despawns.push(entity),
            GameCommand::DespawnEntities(entities) => pending.despawns.extend(entities),
        }
    }
    sub_worlds.apply_commands(&mut report);
    let mut whole = Whole {
        index,
        parts: &mut sub_worlds,
    };
    while let Some(&entity) = pending.despawns.get(pending.despawned) {
        pending.despawned += 1;
        report.record(despawn::despawn(&mut whole, entity));
    }
    report
}

/// The commands of an `apply_commands` not applied yet. Dropped with some left only when a
/// spawn, a sub-world's command or a despawn panicked: they go back into the game's queue (the
/// despawns gathered first, then the commands not reached, with their builders), so nothing
/// queued is lost.
struct Requeue<'a, B> {
    commands: alloc::vec::IntoIter<GameCommand>,
    builders: alloc::vec::IntoIter<B>,
    despawns: Vec<Entity>,
    despawned: usize,
    queue: &'a mut Vec<GameCommand>,
    spawns: &'a mut Vec<B>,
}

impl<B> Drop for Requeue<'_, B> {
    fn drop(&mut self) {
        let despawns = self.despawns.get(self.despawned..).unwrap_or_default();
        self.queue
            .extend(despawns.iter().copied().map(GameCommand::Despawn));
        self.queue.extend(self.commands.by_ref());
        self.spawns.extend(self.builders.by_ref());
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
    // the index's one order (ascending id).
    own.index.release_all_reserved(&mut sub_worlds);
    own.queue.clear();
    own.spawns.clear();
    sub_worlds.clear_commands();
}
