//! The multi-world form's runtime: what a `Game { Core { .. } Render { .. } }` does across its
//! sub-worlds (spawning, despawning with cascades, its queued commands, its invariants),
//! written once here, generic over the sub-worlds. `ecs!` implements [`SubWorld`] for each
//! sub-world and [`MultiWorld`] for the game by listing its sub-worlds; each generated method
//! of the game is one call to a function of this module.
//!
//! The game owns the entities: one [`EntityIndex`] in [`MultiWorldEntities`] issues every handle
//! and holds the reservations of queued spawns, writing every id's generation and state into each
//! sub-world's [`EntityRecords`](crate::EntityRecords) at once (the list of sub-worlds is its
//! [`IdRecords`](crate::entity::IdRecords)). So every sub-world agrees on which entities are alive, and its accessors refuse
//! a stale handle by the generation in its own record, exactly as a world's do; the first
//! sub-world's records answer for the game. A sub-world's storage only places and detaches rows: it
//! never issues or frees an id.
//!
//! A game hands its sub-worlds over as a list of nested pairs, `(&mut Core, (&mut Render, ()))`
//! (`list.rs`): each operation is written once for a pair (the head sub-world, then the rest)
//! and once for the empty list, so it reaches sub-worlds of different table types on stable
//! Rust without `dyn`, and the values a despawn takes out of every sub-world are held in a
//! list of the same shape until every sub-world has let go of the entity. The loops of
//! despawning themselves (a cascade, a list with its panic guard) are the world's
//! (`storage/despawn.rs`), run over the game and every sub-world at once.

mod clone;
mod commands;
mod list;
mod spawn;
mod values;

use alloc::vec::Vec;

use crate::archetype::Archetype;
use crate::builder::EntityValues;
use crate::commands::{
    BuilderStaging, CommandBuffer, CommandQueue, CommandReport, QueuedCommand, SpawningCommand,
};
use crate::entity::{Entity, EntityIndex, EntityReserver};
use crate::storage::despawn::{self, Parts, Whole};
use crate::storage::staged::PlaceBuilt;
use crate::storage::{InvariantError, Storage};
use crate::system::SystemMemories;
use crate::tick::Tick;

pub use clone::clone_from;
pub use commands::{apply_commands, apply_commands_with_hooks, apply_lifecycle, clear_commands};
pub use list::{SubWorlds, SubWorldsMut};
pub use spawn::{MultiWorldBuilder, spawn_built, spawn_one};
pub use values::{GameColumn, GameValues, spawn_values};

/// One sub-world of a multi-world, as the game's runtime reaches it (implemented by `ecs!`).
pub trait SubWorld {
    /// The sub-world's table type.
    type Tables: Archetype;
    /// The sub-world's part of the game's `EntityBuilder` (`CoreEntityValues`).
    type Values: EntityValues<Archetype = Self::Tables>;
    /// The sub-world's name, for the invariant checker's messages.
    const NAME: &'static str;

    /// The sub-world's storage.
    fn storage(&self) -> &Storage<Self::Tables>;

    /// The sub-world's storage, mutably.
    fn storage_mut(&mut self) -> &mut Storage<Self::Tables>;
}

/// A multi-world game: its sub-worlds, listed by `ecs!`, and its own part, [`MultiWorldEntities`].
pub trait MultiWorld: Sized {
    /// The game's `EntityBuilder`.
    type Builder: MultiWorldBuilder;
    /// The game's command enum (`GameCommand`): its spawns and despawns and every sub-world's
    /// commands.
    type Command: SpawningCommand<
            Values = Self::Builder,
            Spawn = (),
            Staging = BuilderStaging<<Self::Builder as MultiWorldBuilder>::Values>,
        >;
    /// The sub-worlds borrowed: `(&Core, (&Render, ()))`.
    type SubWorlds<'a>: SubWorlds
    where
        Self: 'a;
    /// The sub-worlds borrowed mutably: `(&mut Core, (&mut Render, ()))`, and as the records
    /// the game's index writes.
    type SubWorldsMut<'a>: SubWorldsMut<Built = <Self::Builder as MultiWorldBuilder>::Values>
        + Parts
        + PlaceBuilt<<Self::Builder as MultiWorldBuilder>::Values>
    where
        Self: 'a;

    /// Every sub-world, in declaration order, and the game's entities.
    fn parts(&self) -> (Self::SubWorlds<'_>, &MultiWorldEntities<Self::Command>);

    /// Every sub-world, in declaration order, and the game's entities, borrowed apart.
    fn parts_mut(
        &mut self,
    ) -> (
        Self::SubWorldsMut<'_>,
        &mut MultiWorldEntities<Self::Command>,
    );

    /// What every system run on the game remembers (a snapshot saves it).
    fn systems(&self) -> &SystemMemories;

    /// What every system run on the game remembers, mutably (a loaded snapshot's goes here).
    fn systems_mut(&mut self) -> &mut SystemMemories;

    /// Applies one queued command: a spawn or despawn to every sub-world
    /// ([`apply_lifecycle`]), a sub-world's command to that sub-world.
    fn apply_command(
        &mut self,
        command: Self::Command,
        staged: &mut <Self::Command as QueuedCommand>::Staging,
        report: &mut CommandReport,
    );
}

/// A multi-world game's own part: the index of its entities (which issues, recycles and
/// reserves their handles) and its command buffer (`C`, the game's `GameCommand`): its queued
/// spawns and despawns and every sub-world's queued changes, in order.
pub struct MultiWorldEntities<C: QueuedCommand> {
    index: EntityIndex,
    queue: CommandBuffer<C>,
}

impl<C: QueuedCommand> Default for MultiWorldEntities<C> {
    #[inline]
    fn default() -> Self {
        Self {
            index: EntityIndex::default(),
            queue: CommandBuffer::new(),
        }
    }
}

impl<C: QueuedCommand> MultiWorldEntities<C> {
    /// The index of the game's entities: the recycling stack and the reservations.
    #[inline]
    pub fn index(&self) -> &EntityIndex {
        &self.index
    }

    /// The index of the game's entities, mutably (a loaded game's is put in place through it).
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn index_mut(&mut self) -> &mut EntityIndex {
        &mut self.index
    }

    /// The commands queued on the game, in order, and the values of its queued spawns
    /// (`staged().spawns()`).
    #[inline]
    pub fn queued_commands(&self) -> &CommandBuffer<C> {
        &self.queue
    }

    /// The game's command queue, reserving through `reserver` (lent by the game's index, see
    /// [`entity_reserver`]), so it can be used while the sub-worlds are borrowed.
    #[inline]
    pub fn commands(&mut self, reserver: EntityReserver) -> CommandQueue<'_, C> {
        CommandQueue::lent(&mut self.queue, reserver)
    }
}

/// Lends a reserver of the game's index, for the queued spawns of its command part.
#[inline]
pub fn entity_reserver<G: MultiWorld>(game: &mut G) -> EntityReserver {
    let (mut sub_worlds, entities) = game.parts_mut();
    entities.index.lend_reserver(&mut sub_worlds)
}

/// Despawns `entity` from every sub-world, every sub-world's relations applying their
/// policies (see `storage/despawn.rs`); `false`, changing nothing, for a dead handle.
#[inline]
pub fn despawn<G: MultiWorld>(game: &mut G, entity: Entity) -> bool {
    with_whole(game, |whole| despawn::despawn(whole, entity))
}

/// Runs `despawning` on the game as the despawn loops' target: its index and its sub-worlds.
#[inline]
pub(crate) fn with_whole<G: MultiWorld, O>(
    game: &mut G,
    despawning: impl FnOnce(&mut Whole<'_, G::SubWorldsMut<'_>>) -> O,
) -> O {
    let (mut sub_worlds, entities) = game.parts_mut();
    despawning(&mut Whole {
        index: &mut entities.index,
        parts: &mut sub_worlds,
    })
}

/// Spawns an entity with no components, in every sub-world.
#[inline]
pub fn spawn<G: MultiWorld>(game: &mut G) -> Entity {
    let (mut sub_worlds, entities) = game.parts_mut();
    let entity = entities.index.allocate(&mut sub_worlds);
    sub_worlds.spawn_placed(&[entity]);
    entity
}

/// Spawns `count` entities with no components, in every sub-world.
#[inline]
pub fn spawn_entities<G: MultiWorld>(game: &mut G, count: usize) -> Vec<Entity> {
    let (mut sub_worlds, entities) = game.parts_mut();
    let spawned = entities.index.allocate_many(count, &mut sub_worlds);
    sub_worlds.spawn_placed(&spawned);
    spawned
}

/// Despawns every live entity of `entities` from every sub-world; returns those despawned. A
/// component `Drop` that panics does so after its entity left every sub-world, and the
/// entities after it are despawned while the panic unwinds.
#[inline]
pub fn despawn_entities<G: MultiWorld>(game: &mut G, entities: &[Entity]) -> Vec<Entity> {
    with_whole(game, |whole| despawn::despawn_entities(whole, entities))
}

/// Disables (`disabled`) or enables `entity` in every sub-world at once (see
/// [`Storage::disable`]): every sub-world's queries skip it, or find it again. `false`,
/// changing nothing, for a dead, stale or never-issued handle.
#[inline]
pub fn set_disabled<G: MultiWorld>(game: &mut G, entity: Entity, disabled: bool) -> bool {
    game.parts_mut().0.set_disabled(entity, disabled)
}

/// Whether `entity` is alive and disabled in every sub-world (as [`set_disabled`] leaves it;
/// an entity disabled in some sub-worlds only is not).
#[inline]
pub fn is_disabled<G: MultiWorld>(game: &G, entity: Entity) -> bool {
    game.parts().0.all_disabled(entity)
}

/// Whether a change waits for a sub-world's declared hooks (or the game's own).
#[inline]
pub fn hooks_pending<G: MultiWorld>(game: &G) -> bool {
    game.parts().0.hooks_pending()
}

/// Advances every sub-world's tick without ending the frame; returns the first sub-world's.
#[inline]
pub fn increment_tick<G: MultiWorld>(game: &mut G) -> Tick {
    game.parts_mut()
        .0
        .increment_tick()
        .expect("a multi-world has at least one sub-world")
}

/// Ends a frame in every sub-world (the game's events are the caller's).
#[inline]
pub fn end_frame<G: MultiWorld>(game: &mut G) {
    game.parts_mut().0.end_frame();
}

/// Checks every sub-world's invariants, and that each records the same ids at the same
/// generations and states as the first.
pub fn check_invariants<G: MultiWorld>(game: &G) -> Result<(), InvariantError> {
    let (sub_worlds, _) = game.parts();
    sub_worlds.check_invariants(None)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use alloc::vec;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    /// A component whose `Drop` panics when armed.
    #[derive(Default)]
    pub(crate) struct Fuse(bool);

    impl Drop for Fuse {
        fn drop(&mut self) {
            if self.0 && !std::thread::panicking() {
                panic!("the fuse blew");
            }
        }
    }

    mod test_game {
        #![allow(dead_code)]
        use super::Fuse;
        crate::ecs! {
            TestGame {
                Core {
                    number: u32 => NUMBER,
                    fuse: Fuse => FUSE,
                }
                Relations {
                    child_of / children => CHILD_OF [cascade],
                }
                Render {
                    tint: u8 => TINT,
                }
                Relations {
                    owned_by / owned => OWNED_BY [cascade],
                    seen_by / seen => SEEN_BY,
                }
            }
        }
    }
    use test_game::*;

    /// A game of plain values (every type `Clone` and serde), for the tests of its copies
    /// (`clone.rs`) and snapshots (`src/snapshot/multi_world.rs`).
    pub(crate) mod plain_game {
        #![allow(dead_code)]
        crate::ecs! {
            PlainGame {
                Core {
                    number: u32 => NUMBER,
                }
                Tags {
                    marked => MARKED,
                }
                Relations {
                    child_of / children => CHILD_OF [cascade],
                }
                Render {
                    tint: u8 => TINT,
                }
            }
            Resources {
                frames: u64,
            }
        }

        /// A game with a recycled id, free ids, a tag, a link, queued spawns (reserving the
        /// free ids and a fresh one) and a queued sub-world command.
        pub(crate) fn busy_game() -> PlainGame {
            let mut game = PlainGame::new();
            let entities = game.spawn_entities(5);
            game.core.set_number(entities[0], 1);
            game.render.set_tint(entities[4], 2);
            game.core.add_marked(entities[4]);
            game.core.set_child_of(entities[4], entities[0]).unwrap();
            for &entity in &entities[1..4] {
                game.despawn(entity);
            }
            game.spawn();
            game.commands().queue_spawn_entities(3);
            game.commands().core().queue_set_number(entities[4], 9);
            game.resources.frames = 9;
            game
        }
    }

    fn same_everywhere(game: &TestGame) {
        check_invariants(game).unwrap();
        let live: Vec<Entity> = game.entities().collect();
        let core: Vec<Entity> = game.core.entities().collect();
        let render: Vec<Entity> = game.render.entities().collect();
        assert_eq!(core, live, "every sub-world knows the game's entities");
        assert_eq!(render, live, "every sub-world knows the game's entities");
        assert!(
            game.render.records().same_ids(game.core.records()),
            "every sub-world records the same ids"
        );
    }

    #[test]
    fn spawns_reach_every_sub_world_and_recycle_ids_in_step() {
        let mut game = TestGame::new();
        let first = spawn(&mut game);
        let batch = spawn_entities(&mut game, 3);
        assert_eq!(batch.len(), 3);
        assert!(game.core.is_alive(first) && game.render.is_alive(first));
        assert!(despawn(&mut game, batch[1]));
        assert!(!despawn(&mut game, batch[1]), "already gone");
        let recycled = spawn(&mut game);
        assert_eq!(recycled.id, batch[1].id, "the game recycles the id");
        assert!(game.core.is_alive(recycled) && game.render.is_alive(recycled));
        // The sub-worlds know the generation the game issued.
        game.core.set_number(recycled, 3);
        assert_eq!(game.core.get_number(batch[1]), None);
        assert!(!game.core.set_number(batch[1], 4));
        assert_eq!(game.core.get_number(recycled), Some(&3));
        assert!(
            !game.render.is_alive(batch[1]),
            "the stale handle is refused everywhere"
        );
        same_everywhere(&game);
    }

    #[test]
    fn a_cascade_follows_every_sub_world_s_relations_depth_first() {
        let mut game = TestGame::new();
        let [root, child, owned, grandchild, watcher] = [(); 5].map(|()| spawn(&mut game));
        game.core.set_child_of(child, root).unwrap();
        game.render.set_owned_by(owned, root).unwrap();
        game.render.set_owned_by(grandchild, child).unwrap();
        game.render.set_seen_by(watcher, child).unwrap();
        game.core.set_number(grandchild, 7);
        assert!(despawn(&mut game, root));
        for entity in [root, child, owned, grandchild] {
            assert!(!game.core.is_alive(entity), "{entity} cascades");
        }
        // Not cascading: unlinked, alive.
        assert!(game.core.is_alive(watcher));
        assert_eq!(game.render.get_seen_by(watcher), None);
        assert!(!despawn(&mut game, root), "a dead root cascades nowhere");
        same_everywhere(&game);
    }

    #[test]
    fn despawn_entities_reports_the_live_ones_and_finishes_after_a_panic() {
        let mut game = TestGame::new();
        let entities = spawn_entities(&mut game, 4);
        assert_eq!(
            despawn_entities(&mut game, &[entities[0], entities[0], entities[1]]),
            vec![entities[0], entities[1]]
        );
        game.core.set_fuse(entities[2], Fuse(true));
        let blown = catch_unwind(AssertUnwindSafe(|| {
            despawn_entities(&mut game, &[entities[2], entities[3]])
        }));
        assert!(blown.is_err());
        assert_eq!(
            game.core.entity_count(),
            0,
            "the entity after the panic went too"
        );
        same_everywhere(&game);
    }

    #[test]
    fn the_game_s_and_the_sub_worlds_commands_apply_in_the_order_queued() {
        let mut game = TestGame::new();
        let kept = spawn(&mut game);
        let doomed = spawn(&mut game);
        let mut parts = game.split_mut();
        parts.commands.core().queue_set_number(doomed, 3);
        let reserved = parts.commands.queue_spawn_entities(2);
        parts.commands.queue_despawn(doomed);
        parts.commands.queue_despawn_entities(&[doomed, kept]);
        parts.commands.core().queue_set_number(reserved[0], 1);
        parts.commands.render().queue_set_tint(doomed, 2);
        assert_eq!(game.command_count(), 6);
        let report = apply_commands(&mut game);
        // Applied: the first number, the spawn, a despawn, `kept`'s despawn and the second
        // number. Skipped: `doomed` despawned again, and tinted once dead.
        assert_eq!((report.applied, report.skipped), (5, 2));
        assert_eq!(game.core.get_number(reserved[0]), Some(&1));
        assert!(game.render.is_alive(reserved[1]));
        assert!(!game.core.is_alive(kept) && !game.core.is_alive(doomed));
        assert_eq!(game.command_count(), 0);
        same_everywhere(&game);
    }

    #[test]
    fn commands_after_a_panic_go_back_into_the_queue() {
        let mut game = TestGame::new();
        let [lit, next, last] = [(); 3].map(|()| spawn(&mut game));
        game.core.set_fuse(lit, Fuse(true));
        let mut commands = game.commands();
        commands.queue_despawn(lit);
        commands.queue_despawn(last);
        commands.core().queue_set_number(next, 4);
        let blown = catch_unwind(AssertUnwindSafe(|| apply_commands(&mut game)));
        assert!(blown.is_err());
        assert!(!game.core.is_alive(lit));
        assert_eq!(game.command_count(), 2, "the two after the panic wait");
        same_everywhere(&game);
        assert_eq!(apply_commands(&mut game).applied, 2);
        assert!(!game.core.is_alive(last));
        assert_eq!(game.core.get_number(next), Some(&4));
        same_everywhere(&game);
    }

    #[test]
    fn clearing_gives_reserved_handles_back_in_every_sub_world() {
        let mut game = TestGame::new();
        let reserved = game.commands().queue_spawn_entities(3);
        game.commands().core().queue_set_number(reserved[0], 1);
        clear_commands(&mut game);
        assert_eq!(game.command_count(), 0);
        same_everywhere(&game);
        // Given back in every sub-world: their ids are reused, the reserved handles stale.
        let spawned = spawn_entities(&mut game, 3);
        let mut ids: Vec<u32> = spawned.iter().map(|entity| entity.id).collect();
        ids.sort_unstable();
        assert_eq!(ids, [0, 1, 2]);
        assert!(reserved.iter().all(|&entity| !game.render.is_alive(entity)));
        same_everywhere(&game);
    }

    #[test]
    fn disabling_reaches_every_sub_world_and_refuses_a_dead_handle() {
        let mut game = TestGame::new();
        let [ship, other] = [(); 2].map(|()| spawn(&mut game));
        game.render.set_tint(ship, 1);
        assert!(set_disabled(&mut game, ship, true));
        assert!(is_disabled(&game, ship) && !is_disabled(&game, other));
        assert!(game.core.is_disabled(ship) && game.render.is_disabled(ship));
        assert_eq!(game.render.query_entities(TINT).count(), 0);
        same_everywhere(&game);
        // Disabled in one sub-world only: not the game's; enabling undoes it everywhere.
        assert!(game.core.disable(other));
        assert!(!is_disabled(&game, other));
        assert!(set_disabled(&mut game, other, false));
        assert!(!game.core.is_disabled(other));
        // Queued, then applied in order; a dead handle is skipped.
        game.commands().queue_enable(ship);
        game.commands().queue_despawn(other);
        game.commands().queue_disable(other);
        let report = apply_commands(&mut game);
        assert_eq!((report.applied, report.skipped), (2, 1));
        assert!(!is_disabled(&game, ship));
        assert!(!set_disabled(&mut game, other, true) && !is_disabled(&game, other));
        same_everywhere(&game);
    }

    #[test]
    fn ticks_advance_in_every_sub_world() {
        let mut game = TestGame::new();
        let tick = increment_tick(&mut game);
        assert_eq!(game.render.current_tick(), tick);
        end_frame(&mut game);
        assert_eq!(game.core.last_tick(), game.render.last_tick());
        assert_eq!(game.core.current_tick(), game.render.current_tick());
    }

    #[test]
    fn the_checker_names_a_sub_world_out_of_step_with_its_game() {
        let mut game = TestGame::new();
        let entity = spawn(&mut game);
        // Only the render sub-world lets go of the entity, row and record.
        let render = game.render.storage_mut();
        let _ = render.detach(entity, None);
        assert!(EntityIndex::default().free(entity, render.records_mut()));
        render.check_invariants().unwrap();
        let error = check_invariants(&game).unwrap_err();
        assert_eq!(
            error.message,
            "the sub-world `Render` disagrees with its game on which entities exist"
        );
    }

    #[test]
    fn a_queued_spawn_whose_handle_was_given_back_is_skipped() {
        let mut game = TestGame::new();
        let reserved = game.commands().queue_spawn_entities(2);
        let (mut sub_worlds, own) = game.parts_mut();
        assert!(own.index.release(reserved[1], &mut sub_worlds));
        let report = apply_commands(&mut game);
        assert_eq!((report.applied, report.skipped), (0, 1));
        assert!(
            game.render.is_alive(reserved[0]),
            "the other one is spawned"
        );
        assert!(!game.render.is_alive(reserved[1]));
        same_everywhere(&game);
    }
}
