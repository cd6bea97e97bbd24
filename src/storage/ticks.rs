//! The storage's ticks: the frame counter, and the periodic clamp of old change stamps.

use super::Storage;
use crate::archetype::Archetype;
#[cfg(feature = "serde")]
use crate::archetype::TicksOf;
use crate::tick::{MAX_TICK_AGE, Tick};

impl<T: Archetype> Storage<T> {
    /// The current tick: the frame counter writes are stamped with.
    pub fn current_tick(&self) -> Tick {
        self.tick
    }

    /// The tick at which the last frame ended (the world's last `step()`).
    pub fn last_tick(&self) -> Tick {
        self.last_tick
    }

    /// The change ticks of every table, indexed like [`tables`](Self::tables) (what a snapshot
    /// saves of them: see `snapshot/change_ticks.rs`).
    #[cfg(feature = "serde")]
    pub(crate) fn table_ticks(&self) -> &[TicksOf<T>] {
        &self.ticks
    }

    /// Advances the current tick without ending the frame; returns the new tick. O(1), except
    /// once every 2^29 ticks, when every change stamp is clamped so none wraps around
    /// (O(tracked rows)).
    pub fn increment_tick(&mut self) -> Tick {
        self.tick = self.tick.next();
        // Well before any stamp can be 2^31 ticks old and wrap around to look new.
        if self.tick.0 % (MAX_TICK_AGE / 2) == 0 {
            for ticks in &mut self.ticks {
                ticks.clamp(self.tick);
            }
            self.last_tick = self.last_tick.clamp_age(self.tick);
        }
        self.tick
    }

    /// Ends a frame: the current tick becomes the last one and the tick advances.
    pub(crate) fn end_frame(&mut self) {
        self.last_tick = self.tick;
        self.increment_tick();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Entity;
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;
    use crate::typed_query::TypedQueryRef;
    use alloc::vec::Vec;

    /// Rows nobody writes for more than 2^31 ticks would wrap around and look newer than the
    /// present; `increment_tick` clamps their stamps every `MAX_TICK_AGE / 2` ticks. The world
    /// lives through every clamp boundary up to 2^31 + 2^29 ticks (the tick is set just before
    /// each boundary, then incremented across it), and the changed-since answers are checked
    /// before the first clamp and after the last.
    #[test]
    fn idle_stamps_are_clamped_so_they_never_wrap_around_to_look_new() {
        let interval = MAX_TICK_AGE / 2;
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let idle = storage.spawn_batch(NUMBER, 2, |_, _| {});
        let spawned_at = storage.current_tick();
        storage.end_frame();
        let changed = |storage: &Storage<TestWorldComponentArrays>, since: Tick| {
            TypedQueryRef::<_, Entity>::new(storage)
                .changed_since(NUMBER, since)
                .iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(changed(&storage, Tick::ZERO), idle, "written at tick 1");
        assert!(changed(&storage, spawned_at).is_empty());

        let last_boundary = 5 * interval;
        let mut boundary = interval;
        while boundary <= last_boundary {
            storage.tick = Tick(boundary - 1);
            storage.increment_tick();
            boundary += interval;
        }
        storage.tick = Tick(last_boundary + 7);
        storage.end_frame();
        assert!(
            storage.current_tick().0 - spawned_at.0 > 1 << 31,
            "the idle stamps are more than 2^31 ticks old"
        );
        assert!(
            changed(&storage, storage.last_tick()).is_empty(),
            "idle rows do not look newer than the present"
        );
        *storage
            .get_mut(idle[1], NUMBER, |t| &mut t.number[..])
            .unwrap() = 5;
        assert_eq!(changed(&storage, storage.last_tick()), vec![idle[1]]);
        let earlier = Tick(storage.last_tick().0 - interval);
        assert_eq!(changed(&storage, earlier), vec![idle[1]]);
        storage.check_invariants().unwrap();
    }

    #[test]
    fn change_detection_works_across_the_tick_wrap_around() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        storage.tick = Tick(u32::MAX - 1);
        storage.last_tick = Tick(u32::MAX - 2);
        let entities = storage.spawn_batch(NUMBER, 3, |_, _| {});
        let changed = |storage: &Storage<TestWorldComponentArrays>| {
            TypedQueryRef::<_, Entity>::new(storage)
                .changed_since(NUMBER, storage.last_tick())
                .iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(changed(&storage), entities, "spawned at u32::MAX - 1");
        storage.end_frame();
        storage.end_frame();
        assert_eq!(storage.current_tick(), Tick(0), "wrapped");
        assert!(changed(&storage).is_empty());
        *storage
            .get_mut(entities[1], NUMBER, |t| &mut t.number[..])
            .unwrap() = 5;
        assert_eq!(
            changed(&storage),
            vec![entities[1]],
            "a stamp at tick 0 is newer than u32::MAX"
        );
        storage.end_frame();
        assert!(changed(&storage).is_empty());
        storage.check_invariants().unwrap();
    }
}
