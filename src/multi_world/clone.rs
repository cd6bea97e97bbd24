//! Copying a multi-world game (its `Clone` and `restore`), as a world's copy: no queued command
//! is copied (the handles their spawns reserved are given back, in the index's one order), and
//! every sub-world's storage and the game's index are copied by the same two passes
//! ([`copy_whole`]), so the copy issues the same next handles as the original and every
//! sub-world stays in step with it. The game's resources and events are the generated code's
//! to copy.

use super::commands::clear_commands;
use super::{MultiWorld, SubWorld};
use crate::entity::EntityRecords;
use crate::storage::state::{CopyParts, CopySource, copy_whole};

/// The sub-worlds of a game, `(&mut Core, (&mut Render, ()))`, copied from those of another
/// game of the same type, `(&Core, (&Render, ()))`, each pass over every sub-world:
/// implemented when every sub-world's tables are `Clone`.
impl CopyParts<()> for () {
    #[inline]
    fn copy_all_but_records(&mut self, _source: &()) {}

    #[inline]
    fn copy_records(&mut self, _source: &()) {}

    #[inline]
    fn empty_beyond(&mut self, _source: &(), _records: &EntityRecords) {}
}

impl<W, R, S> CopyParts<(&W, S)> for (&mut W, R)
where
    W: SubWorld,
    W::Tables: Clone,
    R: CopyParts<S>,
{
    #[inline]
    fn copy_all_but_records(&mut self, source: &(&W, S)) {
        CopyParts::copy_all_but_records(self.0.storage_mut(), source.0.storage());
        self.1.copy_all_but_records(&source.1);
    }

    #[inline]
    fn copy_records(&mut self, source: &(&W, S)) {
        CopyParts::copy_records(self.0.storage_mut(), source.0.storage());
        self.1.copy_records(&source.1);
    }

    #[inline]
    fn empty_beyond(&mut self, source: &(&W, S), records: &EntityRecords) {
        CopyParts::empty_beyond(self.0.storage_mut(), source.0.storage(), records);
        self.1.empty_beyond(&source.1, records);
    }
}

/// A game's sub-worlds as a copy's source: the first one's records answer for the game.
impl<W: SubWorld, S> CopySource for (&W, S) {
    #[inline]
    fn source_records(&self) -> &EntityRecords {
        self.0.storage().records()
    }
}

/// Makes `game`'s entities and sub-worlds a copy of `source`'s, reusing `game`'s allocations;
/// queued commands are dropped, not copied. If a component's `Clone` (or the `Drop` of a value
/// it overwrites) panics, `game` is left empty in every sub-world, with an index that never
/// issues a handle either game issued: neither a handle held from before nor a queued command
/// reaches an entity spawned afterwards.
pub fn clone_from<'a, G: MultiWorld>(game: &'a mut G, source: &'a G)
where
    G::SubWorldsMut<'a>: CopyParts<G::SubWorlds<'a>>,
    G::SubWorlds<'a>: CopySource,
{
    // The queues go first: if a copy panics below, no command queued before is left to reach
    // an entity spawned afterwards.
    clear_commands(&mut *game);
    let (mut sub_worlds, own) = game.parts_mut();
    let (source_worlds, source_own) = source.parts();
    copy_whole(
        &mut own.index,
        &mut sub_worlds,
        &source_own.index,
        &source_worlds,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;
    use crate::multi_world::check_invariants;
    use alloc::vec::Vec;

    use crate::multi_world::tests::plain_game::*;

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
