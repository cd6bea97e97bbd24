//! The query builders: `world.query_mut().with(A | B).without(C).iter(|entity, table, index| ...)`.
//! Masks may hold component and tag bits alike.

use crate::{Archetype, Bitmask, Entity, Storage};

/// A read-only query under construction; see [`Storage::for_each`].
pub struct Query<'w, T: Archetype> {
    storage: &'w Storage<T>,
    include: T::Mask,
    exclude: T::Mask,
}

impl<'w, T: Archetype> Query<'w, T> {
    /// A query over `storage` that matches every entity until narrowed.
    pub fn new(storage: &'w Storage<T>) -> Self {
        Query {
            storage,
            include: T::Mask::EMPTY,
            exclude: T::Mask::EMPTY,
        }
    }

    /// Only entities holding every component of `mask`.
    pub fn with(mut self, mask: T::Mask) -> Self {
        self.include |= mask;
        self
    }

    /// Only entities holding none of the components of `mask`.
    pub fn without(mut self, mask: T::Mask) -> Self {
        self.exclude |= mask;
        self
    }

    /// Calls `f(entity, table, index)` for every matching entity.
    pub fn iter<F>(self, f: F)
    where
        F: FnMut(Entity, &T, usize),
    {
        self.storage.for_each(self.include, self.exclude, f);
    }

    /// The matching entities.
    pub fn entities(self) -> impl Iterator<Item = Entity> + 'w {
        self.storage.matching_entities(self.include, self.exclude)
    }

    /// Number of matching entities.
    pub fn count(self) -> usize {
        self.entities().count()
    }
}

/// A mutable query under construction; see [`Storage::for_each_mut`].
pub struct QueryMut<'w, T: Archetype> {
    storage: &'w mut Storage<T>,
    include: T::Mask,
    exclude: T::Mask,
}

impl<'w, T: Archetype> QueryMut<'w, T> {
    /// A query over `storage` that matches every entity until narrowed.
    pub fn new(storage: &'w mut Storage<T>) -> Self {
        QueryMut {
            storage,
            include: T::Mask::EMPTY,
            exclude: T::Mask::EMPTY,
        }
    }

    /// Only entities holding every component of `mask`.
    pub fn with(mut self, mask: T::Mask) -> Self {
        self.include |= mask;
        self
    }

    /// Only entities holding none of the components of `mask`.
    pub fn without(mut self, mask: T::Mask) -> Self {
        self.exclude |= mask;
        self
    }

    /// Calls `f(entity, table, index)` for every matching entity, with a mutable slice view of
    /// its table.
    pub fn iter<F>(self, f: F)
    where
        F: FnMut(Entity, &mut T::ViewMut<'_>, usize),
    {
        self.storage.for_each_mut(self.include, self.exclude, f);
    }

    /// Calls `f(table)` once per matching non-empty table, for slice loops.
    pub fn tables<F>(self, f: F)
    where
        F: FnMut(&mut T::ViewMut<'_>),
    {
        self.storage
            .for_each_table_mut(self.include, self.exclude, f);
    }

    /// Number of matching entities.
    pub fn count(self) -> usize {
        self.storage
            .matching_entities(self.include, self.exclude)
            .count()
    }
}
