//! A multi-world game's queued spawns and despawns: how its builders' values wait
//! ([`StageSpawn`] for [`BuilderStaging`]), how a queued spawn or despawn reaches every
//! sub-world ([`LifecycleTarget`] for the game's index and sub-worlds), and the game's
//! `apply_commands` and `clear_commands`. The queue and its apply loop are the world's
//! (`crate::commands`): a game's generated command enum (`GameCommand`) holds its lifecycle
//! commands and every sub-world's commands in one buffer, applied in the order queued.

use alloc::collections::vec_deque::Drain;

use super::list::SubWorldsMut;
use super::spawn::MultiWorldBuilder;
use super::{MultiWorld, with_whole};
use crate::commands::{
    BuilderStaging, CommandBuffer, CommandReport, LifecycleCommand, LifecycleTarget, StageSpawn,
    apply_queued, apply_queued_with_hooks,
};
use crate::entity::{Entity, EntityIndex};
use crate::storage::despawn::{self, Parts, Whole};
use crate::storage::staged::PlaceBuilt;
use crate::storage::{activate_reserved, place_or_free};

/// A game's queued spawn with values waits as the builder's values, one part per sub-world.
impl<B: MultiWorldBuilder> StageSpawn<B> for BuilderStaging<B::Values> {
    type Spawn = ();

    #[inline]
    fn stage(&mut self, builder: B, reserve: impl FnOnce() -> Entity) -> ((), Entity) {
        let values = builder.into_values();
        let entity = reserve();
        self.push(entity, values);
        ((), entity)
    }
}

/// A game as its queued spawns and despawns reach it: its index and every sub-world.
impl<L: SubWorldsMut + Parts + PlaceBuilt<L::Built>> LifecycleTarget for Whole<'_, L> {
    type Spawn = ();
    type Staging = BuilderStaging<L::Built>;

    #[inline]
    fn spawn_reserved(&mut self, (): (), entities: &[Entity]) -> usize {
        let activated = activate_reserved(self.index, self.parts, entities);
        self.parts.spawn_placed(&activated);
        activated.len()
    }

    /// Spawns the staged spawns one by one: each entity's values go into every sub-world, or,
    /// if a value's `Default` or `Clone` panics, into none (its handle freed, and the handles
    /// of the run's spawns not reached yet given back).
    fn spawn_staged(&mut self, (): (), count: usize, staged: &mut Self::Staging) -> usize {
        let mut run = SpawningRun {
            index: self.index,
            parts: self.parts,
            rest: staged.take(count),
        };
        let mut spawned = 0;
        for (entity, values) in run.rest.by_ref() {
            if run.index.activate(entity, run.parts) {
                let entities = [entity];
                place_or_free(run.index, run.parts, &entities, |parts| {
                    parts.place_built(&entities, None, values);
                });
                spawned += 1;
            }
        }
        spawned
    }

    #[inline]
    fn despawn(&mut self, entity: Entity) -> bool {
        despawn::despawn(self, entity)
    }

    #[inline]
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        self.parts.set_disabled(entity, disabled)
    }
}

/// The spawns of a run not spawned yet: dropped with some left only when a spawn panicked,
/// giving their reserved handles back (none of them becomes alive).
struct SpawningRun<'a, 'r, L: Parts, V> {
    index: &'a mut EntityIndex,
    parts: &'a mut L,
    rest: Drain<'r, (Entity, V)>,
}

impl<L: Parts, V> Drop for SpawningRun<'_, '_, L, V> {
    fn drop(&mut self) {
        for (entity, _values) in self.rest.by_ref() {
            self.index.release(entity, self.parts);
        }
    }
}

/// Applies a queued spawn or despawn to `game` (a generated `GameCommand::apply`): in every
/// sub-world at once; a spawn with values takes them from `staged`.
#[inline]
pub fn apply_lifecycle<G: MultiWorld>(
    game: &mut G,
    command: LifecycleCommand<()>,
    staged: &mut BuilderStaging<<G::Builder as MultiWorldBuilder>::Values>,
    report: &mut CommandReport,
) {
    with_whole(game, |whole| command.apply(whole, staged, report));
}

/// The game's command buffer.
#[inline]
fn queue<G: MultiWorld>(game: &mut G) -> &mut CommandBuffer<G::Command> {
    &mut game.parts_mut().1.queue
}

/// Applies every queued command, the game's spawns and despawns and every sub-world's
/// changes, in the order queued, as a world's `apply_commands` does (see
/// [`apply_queued`]), and empties the queue.
#[inline]
pub fn apply_commands<G: MultiWorld>(game: &mut G) -> CommandReport {
    apply_queued(game, queue, G::apply_command)
}

/// A game's `apply_commands()` when it or a sub-world declares hooks: as a world's (see
/// [`apply_queued_with_hooks`]).
#[inline]
pub fn apply_commands_with_hooks<G: MultiWorld>(
    game: &mut G,
    run_hooks: fn(&mut G, u32),
) -> CommandReport {
    apply_queued_with_hooks(game, queue, G::apply_command, run_hooks)
}

/// Drops every queued command without applying it; handles reserved by a queued spawn are
/// given back (in ascending id order, as a clone or a snapshot gives them back) and never
/// become alive.
pub fn clear_commands<G: MultiWorld>(game: &mut G) {
    let (mut sub_worlds, own) = game.parts_mut();
    // Given back before any command is dropped: a value whose `Drop` panics finds the
    // reservations already released.
    own.index.release_all_reserved(&mut sub_worlds);
    own.queue.clear();
}
