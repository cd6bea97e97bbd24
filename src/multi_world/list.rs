//! A game's sub-worlds as a list of nested pairs, `(&mut Core, (&mut Render, ()))`, and each
//! operation over every sub-world written once for a pair and once for the empty list `()`.

use alloc::vec::Vec;
use core::any::TypeId;

use super::SubWorld;
use crate::archetype::Archetype;
use crate::builder::EntityValues;
use crate::entity::{Entity, EntityIndex, EntityLocation, EntityRecords, IdRecords};
use crate::mask::Bitmask;
use crate::storage::despawn::Parts;
use crate::storage::staged::PlaceBuilt;
use crate::storage::{InvariantError, Storage};
use crate::tick::Tick;

/// The sub-worlds of a game, borrowed: `(&Core, (&Render, ()))`.
pub trait SubWorlds {
    /// The first sub-world's records, which answer for the game's (`None` for the empty list;
    /// a game has at least one sub-world).
    fn first_records(&self) -> Option<&EntityRecords>;

    /// Whether a change waits for a sub-world's declared hooks.
    fn hooks_pending(&self) -> bool;

    /// Checks each sub-world's invariants, and that it records the same ids at the same
    /// generations and states as `first` (the first sub-world's records; `None` from it).
    fn check_invariants(&self, first: Option<&EntityRecords>) -> Result<(), InvariantError>;

    /// Whether `entity` is alive and disabled in every sub-world (`true` for the empty list).
    fn all_disabled(&self, entity: Entity) -> bool;
}

impl SubWorlds for () {
    #[inline]
    fn first_records(&self) -> Option<&EntityRecords> {
        None
    }

    #[inline]
    fn hooks_pending(&self) -> bool {
        false
    }

    #[inline]
    fn check_invariants(&self, _first: Option<&EntityRecords>) -> Result<(), InvariantError> {
        Ok(())
    }

    #[inline]
    fn all_disabled(&self, _entity: Entity) -> bool {
        true
    }
}

impl<W: SubWorld, R: SubWorlds> SubWorlds for (&W, R) {
    #[inline]
    fn first_records(&self) -> Option<&EntityRecords> {
        Some(self.0.storage().records())
    }

    #[inline]
    fn hooks_pending(&self) -> bool {
        self.0.storage().hooks_pending() || self.1.hooks_pending()
    }

    fn check_invariants(&self, first: Option<&EntityRecords>) -> Result<(), InvariantError> {
        let storage = self.0.storage();
        storage.check_invariants()?;
        let records = storage.records();
        if first.is_some_and(|first| !records.same_ids(first)) {
            return Err(InvariantError {
                message: format!(
                    "the sub-world `{}` disagrees with its game on which entities exist",
                    W::NAME
                ),
            });
        }
        self.1.check_invariants(Some(first.unwrap_or(records)))
    }

    #[inline]
    fn all_disabled(&self, entity: Entity) -> bool {
        self.0.storage().is_disabled(entity) && self.1.all_disabled(entity)
    }
}

/// What a value spawn gives one sub-world's table: the sub-world (its table type), the mask
/// of the tuple's components there (`asked`) and of the table the sub-world's rules make of
/// them (`mask`: with what they require), the table and its rows before the batch.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct NamedTable {
    pub(crate) sub_world: TypeId,
    pub(crate) asked: u128,
    pub(crate) mask: u128,
    pub(crate) table: usize,
    pub(crate) first_row: usize,
}

impl NamedTable {
    /// The table's columns the tuple has no values for (what its components require).
    #[inline]
    fn required(&self) -> u128 {
        self.mask & !self.asked
    }
}

/// The sub-worlds of a game, borrowed mutably: `(&mut Core, (&mut Render, ()))`.
pub trait SubWorldsMut {
    /// The values one entity leaves in every sub-world: `(Option<Core's>, (Option<Render's>,
    /// ()))`, dropped once it is gone from all.
    type Values;
    /// The values a cascade takes out of every sub-world: `(Vec<Core's>, (Vec<Render's>, ()))`.
    type Gathered: Default;
    /// The values a game's `EntityBuilder` holds for every sub-world:
    /// `(CoreEntityValues, (RenderEntityValues, ()))`.
    type Built;

    /// Applies `write` to every sub-world's records (see [`IdRecords`]).
    fn write_records(&mut self, write: &mut impl FnMut(&mut EntityRecords));

    /// Gives the game's new `entities` rows with no components in every sub-world.
    fn spawn_placed(&mut self, entities: &[Entity]);

    /// Disables (`true`) or enables (`false`) `entity` in every sub-world; `false`, changing
    /// nothing, for a dead handle (`true` for the empty list).
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool;

    /// Where a value spawn pushes its values in the sub-world whose table type is
    /// `sub_world`, for the components `asked`: the table (made if needed), its rows and its
    /// mask (with what the sub-world's rules add to `asked`).
    fn value_table(&mut self, sub_world: TypeId, asked: u128) -> (usize, usize, u128);

    /// Pushes `count` defaults onto the columns of each table of `named` that the tuple has
    /// no values for (what its components require there).
    fn push_required(&mut self, named: &[NamedTable], count: usize);

    /// Cuts the columns [`push_required`](Self::push_required) pushed onto back to their
    /// rows before the batch: a value spawn that did not complete.
    fn cut_back_required(&mut self, named: &[NamedTable]);

    /// Gives the game's new `entities` the rows a value spawn pushed in each sub-world of
    /// `named`, and rows with no components in every other sub-world.
    fn settle_values(&mut self, entities: &[Entity], named: &[NamedTable]);

    /// Whether despawning `entity` cascades, by the relations of any sub-world.
    fn has_cascading_sources(&self, entity: Entity) -> bool;

    /// Pushes the sources of `entity` in every sub-world's `[cascade]` relations onto `stack`,
    /// sub-world by sub-world.
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>);

    /// Where each sub-world keeps `entity`'s row, read ahead of a despawn (`None` for a
    /// sub-world whose relations may move the row first): `(Option<Core's>, (Option<Render's>,
    /// ()))`.
    type Located: Copy;

    /// Reads where each sub-world keeps `entity`'s row, for
    /// [`detach_located`](Self::detach_located) once the entity is known to be alive.
    fn locate_for_detach(&self, entity: Entity) -> Self::Located;

    /// Takes the game's live `entity` out of every sub-world, from the rows `located` read
    /// before anything changed, without checking the handle again; its values.
    fn detach_located(&mut self, entity: Entity, located: Self::Located) -> Self::Values;

    /// Takes the game's live `entity` out of every sub-world within a cascade, adding its
    /// values to `gathered`.
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut Self::Gathered);

    /// Advances every sub-world's tick; the first one's new tick.
    fn increment_tick(&mut self) -> Option<Tick>;

    /// Ends a frame in every sub-world.
    fn end_frame(&mut self);
}

impl SubWorldsMut for () {
    type Values = ();
    type Gathered = ();
    type Built = ();

    #[inline]
    fn write_records(&mut self, _write: &mut impl FnMut(&mut EntityRecords)) {}

    #[inline]
    fn spawn_placed(&mut self, _entities: &[Entity]) {}

    #[inline]
    fn set_disabled(&mut self, _entity: Entity, _disabled: bool) -> bool {
        true
    }

    #[inline]
    fn value_table(&mut self, _sub_world: TypeId, _asked: u128) -> (usize, usize, u128) {
        (0, 0, 0)
    }

    #[inline]
    fn push_required(&mut self, _named: &[NamedTable], _count: usize) {}

    #[inline]
    fn cut_back_required(&mut self, _named: &[NamedTable]) {}

    #[inline]
    fn settle_values(&mut self, _entities: &[Entity], _named: &[NamedTable]) {}

    #[inline]
    fn has_cascading_sources(&self, _entity: Entity) -> bool {
        false
    }

    #[inline]
    fn push_cascading_sources(&self, _entity: Entity, _stack: &mut Vec<Entity>) {}

    type Located = ();

    #[inline]
    fn locate_for_detach(&self, _entity: Entity) {}

    #[inline]
    fn detach_located(&mut self, _entity: Entity, _located: ()) {}

    #[inline]
    fn detach_cascading(&mut self, _entity: Entity, _gathered: &mut ()) {}

    #[inline]
    fn increment_tick(&mut self) -> Option<Tick> {
        None
    }

    #[inline]
    fn end_frame(&mut self) {}
}

impl<W: SubWorld, R: SubWorldsMut> SubWorldsMut for (&mut W, R) {
    type Values = (Option<<W::Tables as Archetype>::Removed>, R::Values);
    type Gathered = (Vec<<W::Tables as Archetype>::Removed>, R::Gathered);
    type Built = (W::Values, R::Built);

    #[inline]
    fn write_records(&mut self, write: &mut impl FnMut(&mut EntityRecords)) {
        write(self.0.storage_mut().records_mut());
        self.1.write_records(write);
    }

    #[inline]
    fn spawn_placed(&mut self, entities: &[Entity]) {
        self.0.storage_mut().spawn_placed(entities);
        self.1.spawn_placed(entities);
    }

    #[inline]
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        let storage = self.0.storage_mut();
        // Every sub-world agrees on which entities are alive: a dead handle stops here.
        let alive = if disabled {
            storage.disable(entity)
        } else {
            storage.enable(entity)
        };
        alive && self.1.set_disabled(entity, disabled)
    }

    #[inline]
    fn value_table(&mut self, sub_world: TypeId, asked: u128) -> (usize, usize, u128) {
        if sub_world == TypeId::of::<W::Tables>() {
            self.0.storage_mut().value_table(asked)
        } else {
            self.1.value_table(sub_world, asked)
        }
    }

    #[inline]
    fn push_required(&mut self, named: &[NamedTable], count: usize) {
        // Only a sub-world's rules make a table wider than the tuple.
        if !<W::Tables as Archetype>::RULES.is_empty() {
            let own = TypeId::of::<W::Tables>();
            if let Some(table) = named.iter().find(|table| table.sub_world == own) {
                let storage = self.0.storage_mut();
                storage.push_default_columns(table.table, table.required(), count);
            }
        }
        self.1.push_required(named, count);
    }

    #[inline]
    fn cut_back_required(&mut self, named: &[NamedTable]) {
        if !<W::Tables as Archetype>::RULES.is_empty() {
            let own = TypeId::of::<W::Tables>();
            if let Some(table) = named.iter().find(|table| table.sub_world == own) {
                let storage = self.0.storage_mut();
                storage.cut_back_columns(table.table, table.required(), table.first_row);
            }
        }
        self.1.cut_back_required(named);
    }

    #[inline]
    fn settle_values(&mut self, entities: &[Entity], named: &[NamedTable]) {
        let own = TypeId::of::<W::Tables>();
        let storage = self.0.storage_mut();
        match named.iter().find(|table| table.sub_world == own) {
            Some(table) => storage.settle_values(
                entities,
                <W::Tables as Archetype>::Mask::narrow(table.mask),
                table.table,
                table.first_row,
            ),
            None => storage.spawn_placed(entities),
        }
        self.1.settle_values(entities, named);
    }

    #[inline]
    fn has_cascading_sources(&self, entity: Entity) -> bool {
        let storage = self.0.storage();
        (!<W::Tables as Archetype>::CASCADE.is_empty() && storage.has_cascading_sources(entity))
            || self.1.has_cascading_sources(entity)
    }

    #[inline]
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>) {
        self.0.storage().push_cascading_sources(entity, stack);
        self.1.push_cascading_sources(entity, stack);
    }

    type Located = (Option<EntityLocation>, R::Located);

    #[inline]
    fn locate_for_detach(&self, entity: Entity) -> Self::Located {
        (
            self.0.storage().locate_for_detach(entity),
            self.1.locate_for_detach(entity),
        )
    }

    #[inline]
    fn detach_located(&mut self, entity: Entity, located: Self::Located) -> Self::Values {
        let values = self.0.storage_mut().detach_alive(entity, located.0);
        debug_assert!(values.is_some(), "{entity} missing from `{}`", W::NAME);
        (values, self.1.detach_located(entity, located.1))
    }

    #[inline]
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut Self::Gathered) {
        // A push rather than `extend` of the `Option`: no iterator code compiled for it.
        if let Some(removed) = self.0.storage_mut().detach_cascading(entity, None) {
            gathered.0.push(removed);
        }
        self.1.detach_cascading(entity, &mut gathered.1);
    }

    #[inline]
    fn increment_tick(&mut self) -> Option<Tick> {
        let tick = self.0.storage_mut().increment_tick();
        self.1.increment_tick();
        Some(tick)
    }

    #[inline]
    fn end_frame(&mut self) {
        self.0.storage_mut().end_frame();
        self.1.end_frame();
    }
}

/// The empty list places nothing.
impl PlaceBuilt<()> for () {
    #[inline]
    fn copy_built(_values: &()) {}

    #[inline]
    fn place_built(&mut self, _entities: &[Entity], _first_copy: Option<()>, _values: ()) {}

    #[inline]
    fn place_one(&mut self, _entity: Entity, _values: &mut ()) {}
}

/// The sub-worlds as the parts a spawn with a game builder's values gives rows to, each its
/// part of the values. If a value's `Default` or `Clone` panics, the entities are taken out of
/// the sub-worlds they reached, so no sub-world holds them.
impl<W: SubWorld, R: PlaceBuilt<V>, V> PlaceBuilt<(W::Values, V)> for (&mut W, R) {
    #[inline]
    fn copy_built(values: &(W::Values, V)) -> (W::Values, V) {
        (values.0.copy_held(), R::copy_built(&values.1))
    }

    #[inline]
    fn place_built(
        &mut self,
        entities: &[Entity],
        first_copy: Option<(W::Values, V)>,
        values: (W::Values, V),
    ) {
        let (first_here, first_rest) = match first_copy {
            Some((here, rest)) => (Some(here), Some(rest)),
            None => (None, None),
        };
        let storage = self.0.storage_mut();
        storage.place_built(entities, first_here, values.0);
        let placed = DetachOnUnwind { storage, entities };
        self.1.place_built(entities, first_rest, values.1);
        core::mem::forget(placed);
    }

    #[inline]
    fn place_one(&mut self, entity: Entity, values: &mut (W::Values, V)) {
        let storage = self.0.storage_mut();
        storage.place_one(entity, &mut values.0);
        // The guard's own copy of the handle: `entity` stays out of memory.
        let guarded = [entity];
        let placed = DetachOnUnwind {
            storage,
            entities: &guarded,
        };
        self.1.place_one(entity, &mut values.1);
        core::mem::forget(placed);
    }
}

/// The sub-worlds as the parts a despawn takes an entity out of.
impl<W: SubWorld, R: SubWorldsMut> Parts for (&mut W, R) {
    type Values = <Self as SubWorldsMut>::Values;
    type Gathered = <Self as SubWorldsMut>::Gathered;

    #[inline]
    fn has_cascading_sources(&self, entity: Entity) -> bool {
        SubWorldsMut::has_cascading_sources(self, entity)
    }

    #[inline]
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>) {
        SubWorldsMut::push_cascading_sources(self, entity, stack);
    }

    /// Every sub-world lets go of the row first; then the index frees the id in all their
    /// records at once. The first sub-world's records answer for the game's, so its detach
    /// is the check that the entity is alive.
    #[inline]
    fn detach(&mut self, index: &mut EntityIndex, entity: Entity) -> Option<Self::Values> {
        // Read first, so the sub-worlds' records are fetched together; used only once the
        // first sub-world has found the entity alive.
        let rest = self.1.locate_for_detach(entity);
        let first = self.0.storage_mut().detach_first(entity)?;
        let values = (Some(first), self.1.detach_located(entity, rest));
        index.free_alive(entity, self);
        Some(values)
    }

    #[inline]
    fn detach_cascading(
        &mut self,
        index: &mut EntityIndex,
        entity: Entity,
        gathered: &mut Self::Gathered,
    ) {
        if self.reference().is_alive(entity) {
            SubWorldsMut::detach_cascading(self, entity, gathered);
            index.free_alive(entity, self);
        }
    }
}

/// The sub-worlds as the records a game's index writes: every sub-world's, read in the first.
impl<W: SubWorld, R: SubWorldsMut> IdRecords for (&mut W, R) {
    #[inline]
    fn reference(&self) -> &EntityRecords {
        self.0.storage().records()
    }

    #[inline]
    fn write_each(&mut self, mut write: impl FnMut(&mut EntityRecords)) {
        self.write_records(&mut write);
    }
}

/// Takes entities just placed in a sub-world out of it again if dropped: armed while the
/// sub-worlds after it place them, so a spawn that panics there leaves no sub-world holding
/// entities the game does not.
struct DetachOnUnwind<'a, T: Archetype> {
    storage: &'a mut Storage<T>,
    entities: &'a [Entity],
}

impl<T: Archetype> Drop for DetachOnUnwind<'_, T> {
    fn drop(&mut self) {
        for &entity in self.entities {
            drop(self.storage.detach(entity, None));
        }
    }
}
