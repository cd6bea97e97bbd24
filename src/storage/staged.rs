//! Spawning rows whose values are ready: a queued spawn's staged run
//! ([`SpawnStaging`](crate::SpawnStaging)), appended column by column, and an `EntityBuilder`'s
//! copies, pushed row by row.

use alloc::vec::Vec;

use super::{FreeOnUnwind, Storage};
use crate::column;
use crate::commands::StagedRun;
use crate::{Archetype, Entity};

impl<T: Archetype> Storage<T> {
    /// Spawns `count` new entities with the components and tags of `mask`, `fill` pushing
    /// their component values (one per entity in every column of the table).
    pub(crate) fn spawn_rows(
        &mut self,
        mask: T::Mask,
        count: usize,
        fill: impl FnOnce(&mut T),
    ) -> Vec<Entity> {
        let entities = self.allocator.allocate_many(count);
        self.place_rows(mask, &entities, fill);
        entities
    }

    /// Spawns the rows of a staged run with the components and tags of `mask`: their handles
    /// (the run's entity column, reserved by `queue_spawn`) come alive, and the values move
    /// into the table of `mask` with one `append` per column; then each is linked to the
    /// targets of `links` (`(row of the run, relation, target)`). Returns how many it
    /// spawned: a row whose handle is no longer reserved is dropped with its values.
    pub(crate) fn spawn_staged(
        &mut self,
        mask: T::Mask,
        mut run: StagedRun<'_, T>,
        links: &mut dyn Iterator<Item = (usize, T::Mask, Entity)>,
    ) -> usize {
        let rows = run.rows();
        let links: Vec<(Entity, T::Mask, Entity)> = links
            .map(|(row, relation, target)| (rows.entities()[row], relation, target))
            .collect();
        let refused = self.allocator.activate_all(rows.entities());
        let mut kept;
        let rows = if refused.is_empty() {
            rows
        } else {
            // Only a spawn command pushed by hand names handles that are not reserved: the
            // rows of those are moved out with the others and dropped there, the handles
            // made alive freed again if a `Drop` panics meanwhile.
            kept = T::new(rows.mask());
            let columns = kept.mask();
            kept.for_each_column_pair(rows, &mut column::AppendAll { mask: columns });
            kept.entities_mut().append(rows.entities_mut());
            let activated: Vec<Entity> =
                super::without(kept.entities().iter().copied(), &refused).collect();
            let unplaced = FreeOnUnwind {
                allocator: &mut self.allocator,
                entities: &activated,
            };
            kept.for_each_column(&mut column::RemoveRows {
                mask: columns,
                rows: &refused,
            });
            core::mem::forget(unplaced);
            *kept.entities_mut() = activated;
            &mut kept
        };
        let entities = core::mem::take(rows.entities_mut());
        self.place_rows(mask, &entities, |table| {
            let columns = table.mask();
            table.for_each_column_pair(rows, &mut column::AppendAll { mask: columns });
        });
        self.link_spawned(&links);
        let spawned = entities.len();
        // The staging table keeps its entity column's memory too.
        let mut entities = entities;
        entities.clear();
        *rows.entities_mut() = entities;
        spawned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SpawnStaging;
    use crate::commands::Staging;
    use crate::storage::tests::test_world::*;
    use alloc::string::{String, ToString};

    #[test]
    fn a_staged_row_whose_handle_is_not_reserved_is_dropped_and_the_rest_spawned() {
        let mut storage: Storage<TestWorldComponentArrays> = Storage::new();
        let mut staging = SpawnStaging::default();
        let mut staged = Vec::new();
        for number in 0..4 {
            let builder = TestWorldEntityBuilder::new()
                .with_number(number)
                .with_name(number.to_string());
            staged.push(staging.stage(builder, || storage.allocator.reserve()));
        }
        // Given back behind the queue's back (only a command pushed by hand can do this).
        assert!(storage.allocator.release(staged[1]));
        let spawned = staging
            .take(NUMBER | NAME, 4, |run, links| {
                storage.spawn_staged(NUMBER | NAME, run, links)
            })
            .unwrap();
        assert_eq!(spawned, 3);
        assert!(staging.is_empty());
        assert!(!storage.is_alive(staged[1]));
        for (number, &entity) in staged.iter().enumerate() {
            if number == 1 {
                continue;
            }
            let name: Option<&String> = storage.get(entity, NAME, |table| &table.name);
            assert_eq!(name, Some(&number.to_string()));
        }
        storage.check_invariants().unwrap();
    }
}
