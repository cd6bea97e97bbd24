//! Copying a multi-world game (its `Clone` and `restore`), under the rules a world's copy
//! follows: no queued command is copied (the handles their spawns reserved are given back, in
//! the allocator's one order), every sub-world's storage is copied whole (tables, change ticks,
//! relations, tags, the change log, the caches, the records of every id), and the game's index
//! with them, so the copy issues the same next handles as the original and every sub-world
//! stays in step with it. The game's resources and events are the generated code's to copy.

use super::commands::clear_commands;
use super::{MultiWorld, SubWorld};
use crate::entity::{EntityIndex, EntityRecords, IdRecords};

/// The sub-worlds of a game, `(&mut Core, (&mut Render, ()))`, copied from those of another
/// game of the same type, `(&Core, (&Render, ()))`: implemented when every sub-world's tables
/// are `Clone`.
pub trait CopySubWorlds<Source> {
    /// Overwrites every sub-world's storage with a copy of the source's, reusing its
    /// allocations (`Storage::clone_from`).
    fn clone_from(&mut self, source: &Source);

    /// Empties every sub-world after a copy failed half-way, each left with `records` (an
    /// index's emptied records, see [`EntityIndex::empty_beyond`]).
    fn empty_beyond(&mut self, source: &Source, records: &EntityRecords);

    /// The source's first sub-world's records.
    fn source_records(source: &Source) -> Option<&EntityRecords>;
}

impl CopySubWorlds<()> for () {
    #[inline]
    fn clone_from(&mut self, _source: &()) {}

    #[inline]
    fn empty_beyond(&mut self, _source: &(), _records: &EntityRecords) {}

    #[inline]
    fn source_records(_source: &()) -> Option<&EntityRecords> {
        None
    }
}

impl<W, R, S> CopySubWorlds<(&W, S)> for (&mut W, R)
where
    W: SubWorld,
    W::Tables: Clone,
    R: CopySubWorlds<S>,
{
    #[inline]
    fn clone_from(&mut self, source: &(&W, S)) {
        self.0.storage_mut().clone_from(source.0.storage());
        self.1.clone_from(&source.1);
    }

    #[inline]
    fn empty_beyond(&mut self, source: &(&W, S), records: &EntityRecords) {
        self.0
            .storage_mut()
            .empty_beyond_with(source.0.storage(), records);
        self.1.empty_beyond(&source.1, records);
    }

    #[inline]
    fn source_records<'s>(source: &'s (&W, S)) -> Option<&'s EntityRecords> {
        Some(source.0.storage().allocator().records())
    }
}

/// Makes `game`'s entities and sub-worlds a copy of `source`'s, reusing `game`'s allocations;
/// queued commands are dropped, not copied. If a component's `Clone` (or the `Drop` of a value
/// it overwrites) panics, `game` is left empty in every sub-world, with an index that never
/// issues a handle either game issued: neither a handle held from before nor a queued command
/// reaches an entity spawned afterwards.
pub fn clone_from<'a, G: MultiWorld>(game: &'a mut G, source: &'a G)
where
    G::SubWorldsMut<'a>: CopySubWorlds<G::SubWorlds<'a>>,
{
    // The queues go first: if a copy panics below, no command queued before is left to reach
    // an entity spawned afterwards.
    clear_commands(&mut *game);
    let (sub_worlds, own) = game.parts_mut();
    let (source_worlds, source_own) = source.parts();
    let mut guard = EmptyOnUnwind {
        // Kept apart: a copy that panics half-way leaves some sub-worlds' records the
        // source's and one emptied, and the game's index is emptied beyond both games' ids.
        records: sub_worlds.reference().clone(),
        sub_worlds,
        source_worlds,
        index: &mut own.index,
        source_index: &source_own.index,
        done: false,
    };
    // The one copy that runs component code comes first, so a panic finds the game's own
    // index and records still its own.
    guard.sub_worlds.clone_from(&guard.source_worlds);
    guard
        .index
        .clone_from_with(guard.source_index, &mut guard.sub_worlds);
    // The source's queued spawns are not copied: their reservations come back in the index's
    // one order, as `clear_commands` gives them back, in every sub-world.
    guard.index.release_all_reserved(&mut guard.sub_worlds);
    guard.done = true;
}

/// Empties every sub-world of the game it guards, and its index beyond both games', when
/// dropped before `done` is set: by a panic in the middle of a copy, which would otherwise
/// leave some sub-worlds copied and others not.
struct EmptyOnUnwind<'a, L: CopySubWorlds<S> + IdRecords, S> {
    /// The game's records before the copy.
    records: EntityRecords,
    sub_worlds: L,
    source_worlds: S,
    index: &'a mut EntityIndex,
    source_index: &'a EntityIndex,
    done: bool,
}

impl<L: CopySubWorlds<S> + IdRecords, S> Drop for EmptyOnUnwind<'_, L, S> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let source_records =
            L::source_records(&self.source_worlds).expect("a game has at least one sub-world");
        let (index, records) =
            self.index
                .empty_beyond(&self.records, self.source_index, source_records);
        self.sub_worlds.empty_beyond(&self.source_worlds, &records);
        *self.index = index;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Entity;
    use crate::game::check_invariants;
    use alloc::vec::Vec;

    use crate::game::tests::plain_game::*;

    #[test]
    fn a_copy_has_no_commands_and_issues_the_original_s_next_handles() {
        let mut original = busy_game();
        let mut copy = PlainGame::new();
        copy.spawn_entities(9);
        clone_from(&mut copy, &original);
        copy.resources.frames = original.resources.frames;
        check_invariants(&copy).unwrap();
        assert_eq!(copy.command_count(), 0);
        assert_eq!(
            copy.entities().collect::<Vec<Entity>>(),
            original.entities().collect::<Vec<Entity>>()
        );
        original.clear_commands();
        let expected = original.spawn_entities(6);
        assert_eq!(copy.spawn_entities(6), expected);
        check_invariants(&copy).unwrap();
        let root = original.entities().next().unwrap();
        assert!(
            copy.despawn(root),
            "the link was copied: a cascade follows it"
        );
        assert!(original.despawn(root));
        assert_eq!(
            copy.entities().collect::<Vec<Entity>>(),
            original.entities().collect::<Vec<Entity>>()
        );
    }
}
