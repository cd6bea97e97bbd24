//! Spawning rows whose values are ready: a queued spawn's staged run
//! ([`SpawnStaging`](crate::SpawnStaging)), appended column by column, an `EntityBuilder`'s
//! copies, pushed row by row, and an iterator's tuples of values (`spawn_values`), each value
//! moved into its column once.

use alloc::vec::Vec;

use super::{Storage, place_or_free};
use crate::archetype::{Archetype, TableRollback};
use crate::builder::EntityValues;
use crate::column;
use crate::component_values::{BatchColumns, ComponentValues};
use crate::entity::{Entity, EntityIndex, EntityLocation};
use crate::mask::Bitmask;
use crate::typed_query::TypedTable;

/// The parts a spawn with a builder's values gives rows to: a world's storage (`V`, its
/// `EntityValues`), or every sub-world of a game (`V`, each one's values as a list). The
/// spawns of `lifecycle.rs` are written once over it, a world's and a game's alike.
pub trait PlaceBuilt<V> {
    /// A copy of the values `values` holds (see [`EntityValues::copy_held`]).
    fn copy_built(values: &V) -> V;

    /// Gives `entities`, just issued into these parts' records, rows with the values: the
    /// first gets `first_copy` (made before anything was issued, when there is more than
    /// one), each next one a fresh copy, the last `values` itself. A value's `Default` or
    /// `Clone` that panics leaves no part holding them (the caller frees their ids).
    fn place_built(&mut self, entities: &[Entity], first_copy: Option<V>, values: V);

    /// Gives `entity`, just issued into these parts' records, a row with the values, taken
    /// out of `values` (left holding none): [`place_built`](Self::place_built) for one entity,
    /// which moves no values but the ones it pushes. A value's `Default` that panics leaves no
    /// part holding it (the caller frees its id).
    fn place_one(&mut self, entity: Entity, values: &mut V);
}

impl<T: Archetype, V: EntityValues<Archetype = T>> PlaceBuilt<V> for Storage<T> {
    #[inline]
    fn copy_built(values: &V) -> V {
        values.copy_held()
    }

    #[inline]
    fn place_built(&mut self, entities: &[Entity], first_copy: Option<V>, values: V) {
        Storage::place_built(self, entities, first_copy, values);
    }

    #[inline]
    fn place_one(&mut self, entity: Entity, values: &mut V) {
        Storage::place_one(self, entity, values);
    }
}

impl<T: Archetype> Storage<T> {
    /// Gives `entities` (just allocated here, or placed by the game of this sub-world) rows
    /// with the builder's `values`: the first gets `first_copy` (made by the caller before
    /// anything was spawned, when there is more than one), each next one a fresh copy, the
    /// last `values` itself; then links each to the targets `values` holds. A value's
    /// `Default` or `Clone` that panics leaves the table as it was (see
    /// [`place_rows`](Self::place_rows)).
    pub(crate) fn place_built<V: EntityValues<Archetype = T>>(
        &mut self,
        entities: &[Entity],
        first_copy: Option<V>,
        values: V,
    ) {
        let count = entities.len();
        let mask = values.mask();
        let links = values.links().to_vec();
        // Every entity of the batch is linked by the same links.
        let linked = self.linked_by_every_row(1, links.iter().copied());
        self.place_rows(mask, linked, entities.iter().copied(), |table| {
            if count == 0 {
                return;
            }
            if let Some(first) = first_copy {
                first.push(table);
            }
            for _ in 2..count {
                values.copy_held().push(table);
            }
            values.push(table);
        });
        if !links.is_empty() {
            for &entity in entities {
                let linked_from = links
                    .iter()
                    .map(|&(relation, target)| (entity, relation, target));
                self.link_spawned(linked_from, linked);
            }
        }
    }

    /// Gives `entity` (just allocated here, or placed by the game of this sub-world) a row
    /// with the builder's `values`, taken out of them where they are (the builder's own
    /// place: moving the whole builder first copied it with loads wider than the stores that
    /// had just written it, which the processor cannot forward), then links it to the targets
    /// `values` holds. A value's `Default` that panics leaves the table as it was.
    #[inline]
    pub(crate) fn place_one<V: EntityValues<Archetype = T>>(
        &mut self,
        entity: Entity,
        values: &mut V,
    ) {
        let linked = self.linked_by_every_row(1, values.links().iter().copied());
        self.place_rows(values.mask(), linked, core::iter::once(entity), |table| {
            values.take_into(table);
        });
        let links = values.links().iter();
        self.link_spawned(
            links.map(|&(relation, target)| (entity, relation, target)),
            linked,
        );
    }

    /// Spawns the rows of a staged run (`rows`, taken from the staging) with the components and
    /// tags of `mask`: their handles
    /// (the run's entity column, reserved by `queue_spawn`) come alive, and the values move
    /// into the table of `mask` with one `append` per column; then each is linked to the
    /// targets of `links` (`(row of the run, relation, target)`). Returns how many it
    /// spawned: a row whose handle is no longer reserved is dropped with its values.
    pub(crate) fn spawn_staged(
        &mut self,
        index: &mut EntityIndex,
        mask: T::Mask,
        rows: &mut T,
        links: &mut dyn Iterator<Item = (usize, T::Mask, Entity)>,
    ) -> usize {
        let refused = index.activate_all(rows.entities(), &mut *self.records);
        // The links of the rows that spawn (a refused row's handle is not theirs to link).
        let links: Vec<(Entity, T::Mask, Entity)> = links
            .filter(|(row, _, _)| !refused.contains(row))
            .map(|(row, relation, target)| (rows.entities()[row], relation, target))
            .collect();
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
            place_or_free(index, self, &activated, |_| {
                kept.for_each_column(&mut column::RemoveRows {
                    mask: columns,
                    rows: &refused,
                });
            });
            *kept.entities_mut() = activated;
            &mut kept
        };
        let entities = core::mem::take(rows.entities_mut());
        let by_row = links
            .iter()
            .map(|&(_, relation, target)| (relation, target));
        let linked = self.linked_by_every_row(entities.len(), by_row);
        place_or_free(index, self, &entities, |storage| {
            storage.place_rows(mask, linked, entities.iter().copied(), |table| {
                let columns = table.mask();
                table.for_each_column_pair(rows, &mut column::AppendAll { mask: columns });
                if !T::RULES.is_empty() {
                    // The table's columns the run lacks (what its components require) get
                    // defaults; the run's the table lacks (a group's member left out) go.
                    let staged = rows.mask();
                    let count = entities.len();
                    table.for_each_column(&mut column::PushDefaults {
                        mask: columns & !staged,
                        count,
                    });
                    rows.for_each_column(&mut column::ClearColumns {
                        mask: staged & !columns,
                    });
                }
            })
        });
        self.link_spawned(links, linked);
        let spawned = entities.len();
        // The staging table keeps its entity column's memory too.
        let mut entities = entities;
        entities.clear();
        *rows.entities_mut() = entities;
        spawned
    }
}

impl<T: TypedTable> Storage<T> {
    /// Spawns one entity issued by `index` per tuple `values` yields, with the tuple's
    /// components: the table's columns of the tuple are taken out (reserving the lower bound
    /// of the iterator's size hint once), each value moved onto its column, the columns put
    /// back, and then as many handles issued as rows were pushed, so a size hint that is too
    /// low or too high changes nothing but the reservation. An iterator that panics (a value's
    /// `Clone` in `.cloned()`) leaves the table as it was: the values it had yielded are
    /// dropped, no handle is issued. Returns the handles in the order of the values.
    ///
    /// # Panics
    /// If the tuple names a component twice, before anything changes.
    pub(crate) fn spawn_values<V, M>(
        &mut self,
        index: &mut EntityIndex,
        values: impl IntoIterator<Item = V>,
    ) -> Vec<Entity>
    where
        V: ComponentValues<T, M>,
    {
        assert!(
            V::DISTINCT,
            "archetypal: `spawn_values` was given a tuple naming one component twice"
        );
        let asked = T::Mask::narrow(V::MASK);
        let (table_index, mask) = self.rules_table(asked);
        let first_row = self.tables[table_index].len();
        let mut batch = BatchColumns::<T, V, M>::take(&mut self.tables[table_index]);
        let count = batch.push_all(values);
        // Issued at their rows (one write per record), while the batch can still be cut back:
        // running out of ids spawns nothing.
        let first = EntityLocation::new(table_index, first_row);
        let entities = if mask == asked {
            index.allocate_many_at(count, &mut *self.records, first)
        } else {
            // What the tuple's components require, default-initialised first: a `Default`
            // that panics has them cut back with the batch, and no handle issued.
            let mut defaults = TableRollback::new(batch.table());
            defaults.table().for_each_column(&mut column::PushDefaults {
                mask: mask & !asked,
                count,
            });
            let entities = index.allocate_many_at(count, &mut *self.records, first);
            defaults.commit();
            entities
        };
        batch.commit();
        self.settle_pushed(&entities, mask, table_index, first_row, true);
        entities
    }
}

impl<T: Archetype> Storage<T> {
    /// Table `index`, mutably (a game's value spawn takes columns out of it).
    #[inline]
    pub(crate) fn table_at_mut(&mut self, index: usize) -> &mut T {
        &mut self.tables[index]
    }

    /// The table a game's value spawn puts its rows in, in this sub-world, for a tuple whose
    /// components here are `asked` (as `u128`): the table of what the sub-world's rules make
    /// of them (made if needed), its rows, and its mask (as `u128`).
    ///
    /// # Panics
    /// If the rules would leave one of `asked` out (two members of one exclusive group), as a
    /// world's `spawn_values` does, before the table is made.
    #[inline]
    pub(crate) fn value_table(&mut self, asked: u128) -> (usize, usize, u128) {
        let (table, mask) = self.rules_table(T::Mask::narrow(asked));
        (table, self.tables[table].len(), mask.widen())
    }

    /// The table of what the rules make of a value spawn's components `asked` (made if
    /// needed), and its mask: the rules may add columns (defaults, pushed by the caller),
    /// never leave one out.
    ///
    /// # Panics
    /// If they would (two members of one exclusive group), before the table is made.
    #[inline]
    fn rules_table(&mut self, asked: T::Mask) -> (usize, T::Mask) {
        let mask = T::RULES.spawn_mask(asked);
        assert!(
            mask.contains(asked),
            "archetypal: `spawn_values` was given a tuple holding two members of one exclusive group (or what requires one of them)"
        );
        (self.table_for(mask), mask)
    }

    /// Pushes `count` defaults onto the columns of `columns` (as `u128`) of table
    /// `table_index`: what a game's value spawn's components require here. A `Default` that
    /// panics leaves the pushed ones for [`cut_back_columns`](Self::cut_back_columns).
    #[inline]
    pub(crate) fn push_default_columns(&mut self, table_index: usize, columns: u128, count: usize) {
        self.tables[table_index].for_each_column(&mut column::PushDefaults {
            mask: T::Mask::narrow(columns),
            count,
        });
    }

    /// Cuts the columns of `columns` (as `u128`) of table `table_index` back to `rows`
    /// values: a game's value spawn that did not complete takes its defaults back.
    pub(crate) fn cut_back_columns(&mut self, table_index: usize, columns: u128, rows: usize) {
        let table = &mut self.tables[table_index];
        for bit in T::Mask::narrow(columns).bits() {
            table.edit_column(bit, column::ColumnEdit::Truncate { rows });
        }
    }

    /// The end of a value spawn: `entities`, just issued, take the rows their values were
    /// pushed to in table `table_index` of mask `mask` from `first_row` on (their handles
    /// joining the entity column), with spawn ticks, locations and their tag segment.
    #[inline]
    pub(crate) fn settle_values(
        &mut self,
        entities: &[Entity],
        mask: T::Mask,
        table_index: usize,
        first_row: usize,
    ) {
        self.settle_pushed(entities, mask, table_index, first_row, false);
    }

    /// [`settle_values`](Self::settle_values), the locations already written (`located`) or
    /// not.
    #[inline]
    fn settle_pushed(
        &mut self,
        entities: &[Entity],
        mask: T::Mask,
        table_index: usize,
        first_row: usize,
        located: bool,
    ) {
        self.tables[table_index]
            .entities_mut()
            .extend_from_slice(entities);
        self.settle_rows(
            mask,
            T::Mask::EMPTY,
            table_index,
            first_row,
            entities.iter().copied(),
            located,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::{SpawnStaging, StageSpawn, Staging};
    use crate::storage::tests::TestStorage;
    use crate::storage::tests::test_world::*;
    use alloc::string::{String, ToString};

    #[test]
    fn a_staged_row_whose_handle_is_not_reserved_is_dropped_and_the_rest_spawned() {
        let mut storage = TestStorage::<TestWorldComponentArrays>::new();
        let mut staging = SpawnStaging::default();
        let mut staged = Vec::new();
        for number in 0..4 {
            let builder = TestWorldEntityBuilder::new()
                .with_number(number)
                .with_name(number.to_string());
            staged.push(
                staging
                    .stage(builder, || storage.index.reserve(&mut storage.storage))
                    .1,
            );
        }
        // Given back behind the queue's back (only a command pushed by hand can do this).
        assert!(storage.index.release(staged[1], &mut storage.storage));
        let spawned = staging
            .take(NUMBER | NAME, 4, |mut run, links| {
                storage
                    .storage
                    .spawn_staged(&mut storage.index, NUMBER | NAME, run.rows(), links)
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
