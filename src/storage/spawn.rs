//! Spawning: one entity, a batch of default rows (`spawn_batch`), rows for the handles a game
//! or a queued spawn issued, and the links their builders hold. Every spawn path ends in
//! [`Storage::place_rows`] and [`Storage::settle_rows`] (values, ticks, locations, the tag
//! segment, the log); a placement that panics frees the handles it was given
//! ([`place_or_free`]).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::{Storage, without};
use crate::archetype::Archetype;
use crate::change_log::StructuralChange;
use crate::column;
use crate::entity::{Entity, EntityIndex, EntityLocation, IdRecords};
use crate::mask::Bitmask;

impl<T: Archetype> Storage<T> {
    /// Spawns one entity issued by `index` with the components of `mask`,
    /// default-initialised, and its tags.
    pub(crate) fn spawn(&mut self, index: &mut EntityIndex, mask: T::Mask) -> Entity {
        let entities = [index.allocate(&mut *self.records)];
        place_or_free(index, self, &entities, |storage| {
            storage.place_spawned(mask, &entities)
        });
        entities[0]
    }

    /// Spawns `count` entities issued by `index` with the components (and tags) of `mask` in
    /// one reservation, then calls `init(view, row)` for each new row of the table.
    pub(crate) fn spawn_batch<F>(
        &mut self,
        index: &mut EntityIndex,
        mask: T::Mask,
        count: usize,
        mut init: F,
    ) -> Vec<Entity>
    where
        F: FnMut(&mut T::ViewMut<'_>, usize),
    {
        let entities = index.allocate_many(count, &mut *self.records);
        // Only the placement frees the handles if it panics: once the rows exist, a panicking
        // `init` leaves them spawned, some initialised and the rest default.
        let (table_index, first_row, moved) = place_or_free(index, self, &entities, |storage| {
            storage.place_spawned(mask, &entities)
        });
        // The columns of the table the rules gave the rows (`mask` itself without rules).
        let columns = T::RULES.spawn_mask(mask) & T::COMPONENTS;
        let (_, mut view) = self.tables[table_index].view_mut(columns);
        if moved {
            // The rows joined their tag segment by swaps: each entity's row, in spawn order.
            for &entity in &entities {
                if let Some(location) = self.records.location(entity) {
                    init(&mut view, location.row());
                }
            }
        } else {
            for offset in 0..entities.len() {
                init(&mut view, first_row + offset);
            }
        }
        entities
    }

    /// Gives freshly allocated `entities` their rows (default components, spawn ticks,
    /// locations) in the table of `mask`: [`place_rows`](Self::place_rows).
    fn place_spawned(&mut self, mask: T::Mask, entities: &[Entity]) -> (usize, usize, bool) {
        let count = entities.len();
        self.place_rows(mask, T::Mask::EMPTY, entities.iter().copied(), |table| {
            let mask = table.mask();
            table.for_each_column(&mut column::PushDefaults { mask, count });
        })
    }

    /// Gives freshly allocated `entities` their rows in the table of `mask` with what the
    /// world's rules add to it or leave out of it (`fill` pushes the component values, one per
    /// entity in every column of the table it is given), spawn ticks and
    /// locations, in the segment of the tags of `mask`, and logs the spawns; every spawn path
    /// ends here. Returns the table, the first appended row, and whether the rows were then
    /// moved into their tag segment (else they are the appended rows, in order).
    ///
    /// A `fill` that panics (a component's `Default` or `Clone`) leaves the table as it was;
    /// the index that issued the handles frees them then (see [`place_or_free`]).
    ///
    /// `entities` iterates over a batch's slice, or is one entity's `iter::once`: a handle in a
    /// one-element slice is written to memory as its two halves and read back whole, a load
    /// the processor cannot serve from those stores (it waits for them to reach the cache),
    /// which cost a single spawn a third of its time.
    pub(super) fn place_rows<E: ExactSizeIterator<Item = Entity> + Clone>(
        &mut self,
        mask: T::Mask,
        linked: T::Mask,
        entities: E,
        fill: impl FnOnce(&mut T),
    ) -> (usize, usize, bool) {
        // What the world's rules make of the mask: what it requires, one member per group.
        let mask = T::RULES.spawn_mask(mask);
        let table_index = self.table_for(mask);
        let table = &mut self.tables[table_index];
        let first_row = table.len();
        table.push_rows(entities.clone(), fill);
        let moved = self.settle_rows(mask, linked, table_index, first_row, entities, false);
        (table_index, first_row, moved)
    }

    /// The end of every spawn: `entities`, whose rows were just appended to table
    /// `table_index` from `first_row` on (values and entity column), get their spawn ticks and
    /// locations (unless `located`: issued at their rows already, see
    /// `EntityIndex::allocate_many_at`), join the segment of the tags of `mask`, and their
    /// spawns are logged. Returns whether the rows were moved into their tag segment (else
    /// they are where they were appended, in order).
    #[inline]
    pub(super) fn settle_rows<E: ExactSizeIterator<Item = Entity>>(
        &mut self,
        mask: T::Mask,
        linked: T::Mask,
        table_index: usize,
        first_row: usize,
        entities: E,
        located: bool,
    ) -> bool {
        let count = entities.len();
        self.ticks[table_index].push_rows(count, self.tick);
        // Relation bits come from linking only: a mask's are dropped, and the rows join the
        // segment of the relations they are about to be linked in (`linked`, see
        // `link_spawned`), which they would otherwise leave again at once.
        let tags = mask & T::TAGS & !T::RELATIONS;
        let logged = (mask & T::COMPONENTS) | tags;
        let tags = tags | linked;
        for (offset, entity) in entities.enumerate() {
            if !located {
                let location = EntityLocation::new(table_index, first_row + offset);
                // Just made alive by whoever issued it: a write only.
                self.records.relocate(entity.id, location);
            }
            self.record(StructuralChange::Spawned {
                entity,
                mask: logged,
            });
        }
        self.join_segment(table_index, count, tags)
    }

    /// Gives `entities`, issued by the multi-world game this storage is a sub-world of (alive
    /// in its records already), rows with no components.
    pub(crate) fn spawn_placed(&mut self, entities: &[Entity]) {
        self.place_spawned(T::Mask::EMPTY, entities);
    }

    /// Spawns the handles of `entities` that `index` still holds reserved with the components
    /// and tags of `mask`; returns how many it spawned (a handle already spawned or released
    /// is skipped).
    pub(crate) fn spawn_reserved(
        &mut self,
        index: &mut EntityIndex,
        mask: T::Mask,
        entities: &[Entity],
    ) -> usize {
        let activated = activate_reserved(index, &mut *self.records, entities);
        place_or_free(index, self, &activated, |storage| {
            storage.place_spawned(mask, &activated)
        });
        activated.len()
    }

    /// The relations in which each of `rows` rows about to be placed will be linked to a live
    /// target: `links` holds the rows' links (relation, target), at most one per row and
    /// relation, as builders hold them. A spawn places its rows among those relations' linked
    /// rows (their tag segment) at once, so linking them after moves no row (see
    /// [`link_spawned`](Self::link_spawned)).
    pub(super) fn linked_by_every_row(
        &self,
        rows: usize,
        links: impl Iterator<Item = (T::Mask, Entity)> + Clone,
    ) -> T::Mask {
        let mut linked = T::Mask::EMPTY;
        if rows == 0 {
            return linked;
        }
        for bit in T::RELATIONS.bits() {
            let relation = T::Mask::bit(bit);
            let live = links
                .clone()
                .filter(|&(other, target)| other == relation && self.is_alive(target))
                .count();
            if live == rows {
                linked |= relation;
            }
        }
        linked
    }

    /// Links just-spawned entities to the targets their builders held: `(source, relation,
    /// target)`, in order, once every row of the batch exists (a target spawned in the same
    /// batch is alive by then). A link that fails leaves the entity unlinked (documented: a
    /// target not alive at the spawn), and takes its row back out of the relation's linked
    /// rows if it was placed there (`joined`: see
    /// [`linked_by_every_row`](Self::linked_by_every_row)).
    pub(crate) fn link_spawned(
        &mut self,
        links: impl IntoIterator<Item = (Entity, T::Mask, Entity)>,
        joined: T::Mask,
    ) {
        for (source, relation, target) in links {
            if self.link(relation, source, target).is_err() && joined.intersects(relation) {
                if let Some(location) = self.locate(source) {
                    let tags = self.tags_at(location);
                    self.retag(location, tags & !relation);
                }
            }
        }
    }
}

/// Runs `place` (a spawn pushing the rows of `entities`, just issued by `index` into
/// `records`: a world's storage, or every sub-world of a game), and if it panics (a
/// component's `Default` or `Clone`), has `index` free the handles in every copy of the
/// records, so none is alive without a row.
pub(crate) fn place_or_free<R: IdRecords + ?Sized, O>(
    index: &mut EntityIndex,
    records: &mut R,
    entities: &[Entity],
    place: impl FnOnce(&mut R) -> O,
) -> O {
    let guard = FreeOnUnwind {
        index,
        records,
        entities,
    };
    let placed = place(&mut *guard.records);
    core::mem::forget(guard);
    placed
}

/// Frees freshly issued handles if dropped: armed by [`place_or_free`] while a spawn places
/// them, forgotten once it has.
struct FreeOnUnwind<'a, R: IdRecords + ?Sized> {
    index: &'a mut EntityIndex,
    records: &'a mut R,
    entities: &'a [Entity],
}

impl<R: IdRecords + ?Sized> Drop for FreeOnUnwind<'_, R> {
    fn drop(&mut self) {
        for &entity in self.entities {
            self.index.free(entity, &mut self.records);
        }
    }
}

/// Makes the handles of `entities` that `index` still holds reserved alive in every copy of
/// `records`, and returns them: `entities` itself, allocating nothing, when all were (as every
/// queued spawn's are unless its reservation was given back), else those, in order. What a
/// world's and a game's queued spawns of empty entities both do.
pub(crate) fn activate_reserved<'e>(
    index: &mut EntityIndex,
    records: &mut impl IdRecords,
    entities: &'e [Entity],
) -> Cow<'e, [Entity]> {
    let refused = index.activate_all(entities, records);
    if refused.is_empty() {
        Cow::Borrowed(entities)
    } else {
        Cow::Owned(without(entities.iter().copied(), &refused).collect())
    }
}
