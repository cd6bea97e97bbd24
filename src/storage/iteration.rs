//! The read-only query forms over the one walk ([`Storage::walk`]): the matching tables, the
//! matching entities, and the `for_each` closure walk. Over `&self`, they use the query cache
//! when it holds the query's components and scan the tables otherwise (`warm_query` fills it).

use super::Storage;
use crate::archetype::Archetype;
use crate::entity::Entity;
use crate::mask::Bitmask;

impl<T: Archetype> Storage<T> {
    /// Caches the tables matching `include`, so `&self` queries on it (which cannot fill the
    /// cache) skip the other tables. O(tables) the first time for a mask, then nothing; the
    /// cache stays right as tables are created.
    pub fn warm_query(&mut self, include: T::Mask) {
        self.queries.get_or_insert(include & !T::TAGS);
    }

    /// Non-empty tables holding every component of `include` and none of `exclude` (tag bits
    /// are not table properties and are ignored here). Uses the query cache when `include` is
    /// cached, else scans the tables (a `&self` query cannot fill it).
    #[doc(hidden)]
    pub fn matching_tables(&self, include: T::Mask, exclude: T::Mask) -> MatchingTables<'_, T> {
        MatchingTables {
            walk: self.walk(include, exclude),
        }
    }

    /// Every entity with all components and tags of `include` and none of `exclude`.
    #[doc(hidden)]
    pub fn matching_entities(
        &self,
        include: T::Mask,
        exclude: T::Mask,
    ) -> impl Iterator<Item = Entity> + '_ {
        self.walk(include, exclude)
            .flat_map(|(_, table, runs)| {
                let entities = table.entities();
                runs.flat_map(move |run| entities[run].iter())
            })
            .copied()
    }

    /// Every entity that has all components and tags of `include`: O(matching tables) plus
    /// their rows when `include` is cached (queried mutably before, or [`warm_query`]), else a
    /// scan of every table's mask first.
    ///
    /// [`warm_query`]: Self::warm_query
    pub fn query_entities(&self, include: T::Mask) -> impl Iterator<Item = Entity> + '_ {
        self.matching_entities(include, T::Mask::EMPTY)
    }

    /// Calls `f(entity, table, row)` for every entity with all components and tags of
    /// `include` and none of `exclude` (`table.position[row]`): O(matching tables) plus their
    /// rows when `include` is cached, else a scan of every table's mask first (`&self` cannot
    /// fill the query cache: see [`warm_query`](Self::warm_query)).
    pub fn for_each<F>(&self, include: T::Mask, exclude: T::Mask, mut f: F)
    where
        F: FnMut(Entity, &T, usize),
    {
        for (_, table, runs) in self.walk(include, exclude) {
            let entities = table.entities();
            for run in runs {
                // Four rows per step: one row per step (a bounds check and a load per row for
                // a closure reading one column) was slower, and its speed swung from one build
                // to the next with where the loop fell against 64-byte code boundaries.
                let mut index = run.start;
                let mut fours = entities[run].chunks_exact(4);
                for four in &mut fours {
                    f(four[0], table, index);
                    f(four[1], table, index + 1);
                    f(four[2], table, index + 2);
                    f(four[3], table, index + 3);
                    index += 4;
                }
                for &entity in fours.remainder() {
                    f(entity, table, index);
                    index += 1;
                }
            }
        }
    }
}

/// Iterator over the tables matching a query; see [`Storage::matching_tables`].
pub struct MatchingTables<'a, T: Archetype> {
    walk: super::walk::Walk<'a, T>,
}

impl<'a, T: Archetype> Iterator for MatchingTables<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        self.walk.next().map(|(_, table, _)| table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;
    use alloc::vec::Vec;

    /// What `for_each` should visit: every row of every table holding `include`, whose tags
    /// match, in table then row order.
    fn expected(
        storage: &Storage<TestWorldComponentArrays>,
        include: u64,
        exclude: u64,
    ) -> Vec<(Entity, usize)> {
        let mut rows = Vec::new();
        for table in storage.tables() {
            if !table.mask().contains(include & !MARKED) {
                continue;
            }
            for (index, &entity) in table.entities().iter().enumerate() {
                let marked = storage.has_components(entity, MARKED);
                let wanted = if include & MARKED != 0 {
                    marked
                } else {
                    exclude & MARKED == 0 || !marked
                };
                if wanted {
                    rows.push((entity, index));
                }
            }
        }
        rows
    }

    #[test]
    fn for_each_visits_every_row_of_runs_of_any_length_in_order() {
        // Tables of 0 to 9 and of 3 to 12 rows, every third entity tagged: whole tables and
        // tag runs of every length modulo four.
        for rows in 0..10 {
            let mut storage = TestStorage::<TestWorldComponentArrays>::new();
            let numbers: Vec<Entity> = (0..rows).map(|_| storage.spawn(NUMBER)).collect();
            let both: Vec<Entity> = (0..rows + 3)
                .map(|_| storage.spawn(NUMBER | FLAG))
                .collect();
            for (position, &entity) in numbers.iter().chain(&both).enumerate() {
                if position % 3 == 0 {
                    storage.add_tags(entity, MARKED);
                }
            }
            for (include, exclude) in [(NUMBER, 0), (NUMBER | MARKED, 0), (NUMBER, MARKED)] {
                let mut visited = Vec::new();
                storage.for_each(include, exclude, |entity, table, index| {
                    assert_eq!(table.entities()[index], entity);
                    visited.push((entity, index));
                });
                assert_eq!(
                    visited,
                    expected(&storage, include, exclude),
                    "{rows} rows, include {include:#b}, exclude {exclude:#b}"
                );
            }
        }
    }
}
