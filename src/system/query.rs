//! [`Query`]: a system's typed query, its filters written as types ([`With`], [`Without`],
//! [`Changed`], [`Added`]): `Query<(&mut Position, &Velocity), Without<Frozen>>`. "Changed" and
//! "added" mean since this system last ran, with no tick to pass.

use core::marker::PhantomData;

use super::access::SystemAccess;
use super::param::{ParamSource, ParamWorld, SystemParam};
use crate::entity::Entity;
use crate::storage::Storage;
use crate::tick::Tick;
use crate::typed_query::{ComponentColumn, Fetch, TypedQuery, TypedQueryIter, TypedTable, to_mask};

/// A system's typed query over the world's components: `Q` is what each entity gives (as in
/// `typed_query`: `&C`, `&mut C`, `Option<&C>`, `Option<&mut C>`, [`Entity`], tuples), `F` the
/// filter (`()`, [`With`], [`Without`], [`Changed`], [`Added`], or a tuple of them). bevy's
/// `Query<D, F>`. `ecs!` names it for each world as `Query<'w, Q, F = ()>`, so a system writes
/// `fn movement(mut query: Query<(&mut Position, &Velocity)>)`.
///
/// A `&mut C` element stamps only the rows written through it, as `typed_query` does; `Changed`
/// and `Added` compare with the tick this system last ran at. A system takes one query.
pub struct Query<'w, T: TypedTable, Q, F = ()> {
    storage: &'w mut Storage<T>,
    /// The tick this system last ran at, for `Changed` and `Added`.
    since: Tick,
    query: PhantomData<fn() -> (Q, F)>,
}

impl<'w, T: TypedTable, Q, F> Query<'w, T, Q, F> {
    /// The underlying typed query, with the filter of `F` applied.
    fn typed<M, FM>(&mut self) -> TypedQuery<'_, T, Q>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        const {
            assert!(
                (F::CHANGED != 0) as u32 + (F::ADDED != 0) as u32 <= 1
                    && F::CHANGED.count_ones() <= 1
                    && F::ADDED.count_ones() <= 1,
                "a query takes one change filter: one `Changed<C>` or one `Added<C>`"
            )
        };
        let mut query = TypedQuery::new(&mut *self.storage)
            .with(to_mask(F::INCLUDE))
            .without(to_mask(F::EXCLUDE));
        if F::CHANGED != 0 {
            query = query.changed_since(to_mask(F::CHANGED), self.since);
        }
        if F::ADDED != 0 {
            query = query.added_since(to_mask(F::ADDED), self.since);
        }
        query
    }

    /// Calls `f(item)` for every matching entity, table by table (as `typed_query`'s
    /// `for_each`, the fastest loop).
    #[inline]
    pub fn for_each<M, FM, G>(&mut self, f: G)
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
        G: for<'s> FnMut(Q::Item<'s>),
    {
        self.typed::<M, FM>().for_each(f);
    }

    /// The matching entities' items as an iterator (`find`, `any`, `break`, adapters).
    pub fn iter<M, FM>(&mut self) -> TypedQueryIter<'_, T, Q, M>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        self.typed::<M, FM>().iter()
    }

    /// The item of `entity`, if it is alive and matches the query (filters included).
    pub fn get<M, FM>(&mut self, entity: Entity) -> Option<Q::Item<'_>>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        self.typed::<M, FM>().into_get(entity)
    }

    /// Number of matching entities.
    pub fn count<M, FM>(&mut self) -> usize
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        self.typed::<M, FM>().count()
    }

    /// Whether `entity` is alive and holds `X`: a component type, or a tag's name as a type
    /// (`query.has::<SHIELDED>(target)`, bevy's `Has<X>`), whether or not it matches the query.
    pub fn has<X, M>(&self, entity: Entity) -> bool
    where
        With<X>: QueryFilter<T, M>,
    {
        self.storage
            .has_components(entity, to_mask(<With<X> as QueryFilter<T, M>>::INCLUDE))
    }

    /// The tick `Changed` and `Added` compare with: the one this system last ran at.
    pub fn last_run(&self) -> Tick {
        self.since
    }
}

/// Marks the impl of the query parameter.
#[doc(hidden)]
pub struct QueryParam<M, FM>(M, FM);

impl<W, T, Q, F, M, FM> SystemParam<W, QueryParam<M, FM>> for Query<'_, T, Q, F>
where
    W: ParamWorld<Tables = T>,
    T: TypedTable,
    Q: Fetch<T, M> + 'static,
    F: QueryFilter<T, FM> + 'static,
{
    type Item<'w> = Query<'w, T, Q, F>;

    const ACCESS: SystemAccess = {
        let access = <Q as Fetch<T, M>>::ACCESS;
        SystemAccess {
            components_read: access.reads | F::INCLUDE | F::EXCLUDE | F::CHANGED | F::ADDED,
            components_written: access.writes,
            storage: true,
            ..SystemAccess::NONE
        }
    };

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> Query<'w, T, Q, F> {
        Query {
            storage: source
                .storage
                .take()
                .expect("a system takes one query (checked at build)"),
            since: source.ticks.last_run(),
            query: PhantomData,
        }
    }
}

/// A query's filter as a type: `()`, [`With`], [`Without`], [`Changed`], [`Added`], or a
/// tuple of them (all must hold). `M` is inferred.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query filter of this world",
    note = "a filter is `With<X>` or `Without<X>` (X a component type, or a tag's name as a type: `With<FROZEN>`), `Changed<C>` or `Added<C>` (C a component type), or a tuple of them"
)]
pub trait QueryFilter<T, M> {
    /// Components and tags an entity must hold.
    const INCLUDE: u128;
    /// Components and tags an entity must not hold.
    const EXCLUDE: u128;
    /// Components one of which must have been written since the system last ran.
    const CHANGED: u128;
    /// Components one of which must have been added since the system last ran.
    const ADDED: u128;
}

/// Only entities holding `X`: a component type, or a tag's name as a type (`With<FROZEN>`).
pub struct With<X>(PhantomData<fn() -> X>);

/// Only entities not holding `X`: a component type, or a tag's name as a type.
pub struct Without<X>(PhantomData<fn() -> X>);

/// Only entities whose component `C` was written since the system last ran (bevy's `Changed`).
/// A query takes one change filter.
pub struct Changed<C>(PhantomData<fn() -> C>);

/// Only entities that got component `C` (spawned with it, or given it) since the system last
/// ran (bevy's `Added`). A query takes one change filter.
pub struct Added<C>(PhantomData<fn() -> C>);

/// A tag of a world as a type: `ecs!` generates, for a tag `frozen => FROZEN`, a type named
/// `FROZEN` beside the mask constant, so a filter writes `With<FROZEN>`.
pub trait TagOf<X>: TypedTable {
    /// The tag's mask bit.
    const BIT: u128;
}

/// Marks filter impls that pick a component.
#[doc(hidden)]
pub struct ComponentFilter<M>(M);

/// Marks filter impls that pick a tag.
#[doc(hidden)]
pub enum TagFilter {}

impl<T> QueryFilter<T, ()> for () {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
}

impl<T: ComponentColumn<C, M>, C: 'static, M> QueryFilter<T, ComponentFilter<M>> for With<C> {
    const INCLUDE: u128 = T::BIT;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
}

impl<T: TagOf<X>, X> QueryFilter<T, TagFilter> for With<X> {
    const INCLUDE: u128 = <T as TagOf<X>>::BIT;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
}

impl<T: ComponentColumn<C, M>, C: 'static, M> QueryFilter<T, ComponentFilter<M>> for Without<C> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = T::BIT;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
}

impl<T: TagOf<X>, X> QueryFilter<T, TagFilter> for Without<X> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = <T as TagOf<X>>::BIT;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
}

impl<T: ComponentColumn<C, M>, C: 'static, M> QueryFilter<T, ComponentFilter<M>> for Changed<C> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = T::BIT;
    const ADDED: u128 = 0;
}

impl<T: ComponentColumn<C, M>, C: 'static, M> QueryFilter<T, ComponentFilter<M>> for Added<C> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = T::BIT;
}

macro_rules! tuple_filters {
    ($($filter:ident $marker:ident),+) => {
        impl<T, $($filter: QueryFilter<T, $marker>, $marker),+> QueryFilter<T, ($($marker,)+)>
            for ($($filter,)+)
        {
            const INCLUDE: u128 = 0 $(| $filter::INCLUDE)+;
            const EXCLUDE: u128 = 0 $(| $filter::EXCLUDE)+;
            const CHANGED: u128 = 0 $(| $filter::CHANGED)+;
            const ADDED: u128 = 0 $(| $filter::ADDED)+;
        }
    };
}

tuple_filters!(F0 M0);
tuple_filters!(F0 M0, F1 M1);
tuple_filters!(F0 M0, F1 M1, F2 M2);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3, F4 M4);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3, F4 M4, F5 M5);
