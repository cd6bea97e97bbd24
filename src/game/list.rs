//! A game's sub-worlds as a list of nested pairs, `(&mut Core, (&mut Render, ()))`, and each
//! operation over every sub-world written once for a pair and once for the empty list `()`.
//!
//! An operation whose result every sub-world gives (a spawned handle, whether an entity was
//! taken out) answers `None` for the empty list and the head's answer for a pair, having
//! checked in debug builds that the rest of the list answered the same: the sub-worlds'
//! replicas of the id space move in lockstep.

use alloc::vec::Vec;
use core::fmt::Debug;

use super::SubWorld;
use crate::{Archetype, Bitmask, CommandReport, Entity, EntityAllocator, EntityReserver};
use crate::{InvariantError, Tick};

/// The sub-worlds of a game, borrowed: `(&Core, (&Render, ()))`.
pub trait SubWorlds {
    /// Number of commands queued in the sub-worlds' own queues.
    fn command_count(&self) -> usize;

    /// Checks each sub-world's invariants, and that its ids are those of `first` (the name and
    /// allocator of the game's first sub-world; `None` when the list is the whole game's).
    fn check_invariants(
        &self,
        first: Option<(&'static str, &EntityAllocator)>,
    ) -> Result<(), InvariantError>;
}

impl SubWorlds for () {
    #[inline]
    fn command_count(&self) -> usize {
        0
    }

    #[inline]
    fn check_invariants(
        &self,
        _first: Option<(&'static str, &EntityAllocator)>,
    ) -> Result<(), InvariantError> {
        Ok(())
    }
}

impl<W: SubWorld, R: SubWorlds> SubWorlds for (&W, R) {
    #[inline]
    fn command_count(&self) -> usize {
        self.0.command_count() + self.1.command_count()
    }

    fn check_invariants(
        &self,
        first: Option<(&'static str, &EntityAllocator)>,
    ) -> Result<(), InvariantError> {
        let storage = self.0.storage();
        storage.check_invariants()?;
        let first = match first {
            None => (W::NAME, storage.allocator()),
            Some((name, allocator)) => {
                if !allocator.same_ids(storage.allocator()) {
                    return Err(InvariantError {
                        message: format!(
                            "the sub-worlds `{name}` and `{}` disagree on which entities exist",
                            W::NAME
                        ),
                    });
                }
                (name, allocator)
            }
        };
        self.1.check_invariants(Some(first))
    }
}

/// The sub-worlds of a game, borrowed mutably: `(&mut Core, (&mut Render, ()))`.
pub trait SubWorldsMut {
    /// The values one entity leaves in every sub-world: `(Option<Core's>, (Option<Render's>,
    /// ()))`, dropped once it is gone from all.
    type Values;
    /// The values a cascade takes out of every sub-world: `(Vec<Core's>, (Vec<Render's>, ()))`.
    type Gathered: Default;
    /// One reserver per sub-world: `(EntityReserver, (EntityReserver, ()))`.
    type Reservers: Reservers;

    /// Whether `entity` is alive (asked of the first sub-world).
    fn is_alive(&self, entity: Entity) -> bool;

    /// Spawns an entity with no components in every sub-world.
    fn spawn(&mut self) -> Option<Entity>;

    /// Spawns `count` entities with no components in every sub-world.
    fn spawn_entities(&mut self, count: usize) -> Option<Vec<Entity>>;

    /// Spawns the still-reserved handles of `entities` in every sub-world; how many.
    fn spawn_reserved(&mut self, entities: &[Entity]) -> Option<usize>;

    /// Whether despawning `entity` cascades, by the relations of any sub-world.
    fn has_cascading_sources(&self, entity: Entity) -> bool;

    /// Pushes the sources of `entity` in every sub-world's `[cascade]` relations onto `stack`,
    /// sub-world by sub-world.
    fn push_cascading_sources(&self, entity: Entity, stack: &mut Vec<Entity>);

    /// Takes `entity` out of every sub-world; whether it was alive, and its values.
    fn detach(&mut self, entity: Entity) -> (Option<bool>, Self::Values);

    /// Takes `entity` out of every sub-world within a cascade, adding its values to
    /// `gathered`.
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut Self::Gathered);

    /// Applies every sub-world's own queued commands, in order, counting them in `report`.
    fn apply_commands(&mut self, report: &mut CommandReport);

    /// Gives back, in every sub-world, every handle reserved for a queued spawn.
    fn release_all_reserved(&mut self);

    /// Drops every sub-world's own queued commands.
    fn clear_commands(&mut self);

    /// Advances every sub-world's tick; the first one's new tick.
    fn increment_tick(&mut self) -> Option<Tick>;

    /// Ends a frame in every sub-world.
    fn end_frame(&mut self);

    /// Lends a reserver of every sub-world.
    fn reservers(&mut self) -> Self::Reservers;
}

impl SubWorldsMut for () {
    type Values = ();
    type Gathered = ();
    type Reservers = ();

    #[inline]
    fn is_alive(&self, _entity: Entity) -> bool {
        false
    }

    #[inline]
    fn spawn(&mut self) -> Option<Entity> {
        None
    }

    #[inline]
    fn spawn_entities(&mut self, _count: usize) -> Option<Vec<Entity>> {
        None
    }

    #[inline]
    fn spawn_reserved(&mut self, _entities: &[Entity]) -> Option<usize> {
        None
    }

    #[inline]
    fn has_cascading_sources(&self, _entity: Entity) -> bool {
        false
    }

    #[inline]
    fn push_cascading_sources(&self, _entity: Entity, _stack: &mut Vec<Entity>) {}

    #[inline]
    fn detach(&mut self, _entity: Entity) -> (Option<bool>, ()) {
        (None, ())
    }

    #[inline]
    fn detach_cascading(&mut self, _entity: Entity, _gathered: &mut ()) {}

    #[inline]
    fn apply_commands(&mut self, _report: &mut CommandReport) {}

    #[inline]
    fn release_all_reserved(&mut self) {}

    #[inline]
    fn clear_commands(&mut self) {}

    #[inline]
    fn increment_tick(&mut self) -> Option<Tick> {
        None
    }

    #[inline]
    fn end_frame(&mut self) {}

    #[inline]
    fn reservers(&mut self) {}
}

impl<W: SubWorld, R: SubWorldsMut> SubWorldsMut for (&mut W, R) {
    type Values = (Option<<W::Tables as Archetype>::Removed>, R::Values);
    type Gathered = (Vec<<W::Tables as Archetype>::Removed>, R::Gathered);
    type Reservers = (EntityReserver, R::Reservers);

    #[inline]
    fn is_alive(&self, entity: Entity) -> bool {
        self.0.storage().is_alive(entity)
    }

    #[inline]
    fn spawn(&mut self) -> Option<Entity> {
        let entity = self.0.storage_mut().spawn(Bitmask::EMPTY);
        in_step(entity, self.1.spawn())
    }

    #[inline]
    fn spawn_entities(&mut self, count: usize) -> Option<Vec<Entity>> {
        let entities = self
            .0
            .storage_mut()
            .spawn_batch(Bitmask::EMPTY, count, |_, _| {});
        in_step(entities, self.1.spawn_entities(count))
    }

    #[inline]
    fn spawn_reserved(&mut self, entities: &[Entity]) -> Option<usize> {
        let spawned = self
            .0
            .storage_mut()
            .spawn_reserved(Bitmask::EMPTY, entities);
        in_step(spawned, self.1.spawn_reserved(entities))
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

    #[inline]
    fn detach(&mut self, entity: Entity) -> (Option<bool>, Self::Values) {
        let values = self.0.storage_mut().detach(entity);
        let (rest, rest_values) = self.1.detach(entity);
        (in_step(values.is_some(), rest), (values, rest_values))
    }

    #[inline]
    fn detach_cascading(&mut self, entity: Entity, gathered: &mut Self::Gathered) {
        // A push rather than `extend` of the `Option`: no iterator code compiled for it.
        if let Some(removed) = self.0.storage_mut().detach_cascading(entity) {
            gathered.0.push(removed);
        }
        self.1.detach_cascading(entity, &mut gathered.1);
    }

    #[inline]
    fn apply_commands(&mut self, report: &mut CommandReport) {
        report.absorb(self.0.apply_commands());
        self.1.apply_commands(report);
    }

    #[inline]
    fn release_all_reserved(&mut self) {
        self.0.storage_mut().release_all_reserved();
        self.1.release_all_reserved();
    }

    #[inline]
    fn clear_commands(&mut self) {
        self.0.clear_commands();
        self.1.clear_commands();
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

    #[inline]
    fn reservers(&mut self) -> Self::Reservers {
        (self.0.storage_mut().entity_reserver(), self.1.reservers())
    }
}

/// One reserver per sub-world, `(EntityReserver, (EntityReserver, ()))`, reserving the same
/// handles in each.
pub trait Reservers {
    /// Reserves `count` handles in every sub-world.
    fn reserve(&self, count: usize) -> Option<Vec<Entity>>;
}

impl Reservers for () {
    #[inline]
    fn reserve(&self, _count: usize) -> Option<Vec<Entity>> {
        None
    }
}

impl<R: Reservers> Reservers for (EntityReserver, R) {
    #[inline]
    fn reserve(&self, count: usize) -> Option<Vec<Entity>> {
        in_step(self.0.reserve(count), self.1.reserve(count))
    }
}

/// The head sub-world's answer, checked in debug builds against the rest's (none when the
/// head is the last sub-world).
#[inline]
fn in_step<V: PartialEq + Debug>(head: V, rest: Option<V>) -> Option<V> {
    if let Some(rest) = rest {
        debug_assert_eq!(rest, head, "sub-worlds out of lockstep");
    }
    Some(head)
}
