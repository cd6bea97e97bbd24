//! [`Query`]: a system's typed query, its filters written as types ([`With`], [`Without`],
//! [`Changed`], [`Added`], [`Allow`]): `Query<(&mut Position, &Velocity), Without<Frozen>>`.
//! "Changed" and "added" mean since this system last ran, with no tick to pass; disabled
//! entities are skipped unless the filter names [`Disabled`].

use core::marker::PhantomData;

use super::access::{PartBits, SystemAccess};
use super::param::{ParamSource, ParamWorld, SystemParam};
use super::parts::{PartList, PartOf, StorageSource};
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::Storage;
use crate::storage::lending::{LentTable, Loan};
use crate::tick::Tick;
use crate::typed_query::{
    ComponentColumn, Fetch, LentQuery, ParentsFirst, ParentsFirstSource, QueryFilters,
    ReadOnlyFetch, TypedQuery, TypedQueryIter, TypedQueryRef, TypedTable, to_mask,
};

/// A system's typed query over the world's components: `Q` is what each entity gives (as in
/// `typed_query`: `&C`, `&mut C`, `Option<&C>`, `Option<&mut C>`, [`Entity`], tuples), `F` the
/// filter (`()`, [`With`], [`Without`], [`Changed`], [`Added`], [`Allow`], or a tuple of
/// them; `With<Disabled>` for the disabled entities, which every other query skips). bevy's
/// `Query<D, F>`. `ecs!` names it for each world as `Query<'w, Q, F = ()>` (and
/// `WorldQuery`), so a system writes `fn movement(mut query: Query<(&mut Position,
/// &Velocity)>)`; in a multi-world game, for each sub-world by its name (`CoreQuery<Q, F>`
/// reads `Core`, `RenderQuery<Q, F>` reads `Render`): `T` picks the part.
///
/// A `&mut C` element stamps only the rows written through it, as `typed_query` does; `Changed`
/// and `Added` compare with the tick this system last ran at. A system may take several
/// queries, where no entity can match two of them that would alias (one writing what the other
/// reads or writes): their filters tell at compile time.
pub struct Query<'w, T: TypedTable, Q, F = ()> {
    tables: QueryTables<'w, T>,
    /// The tick this system last ran at, for `Changed` and `Added`.
    since: Tick,
    query: PhantomData<fn() -> (Q, F)>,
}

/// What a query reads: the whole storage (the system's only query), or the storage shared
/// with the columns it writes lent to it (one of several queries of a system, or a system run
/// beside others), with the tick its writes are stamped with.
enum QueryTables<'w, T: TypedTable> {
    Whole(&'w mut Storage<T>),
    Lent {
        storage: &'w Storage<T>,
        tables: &'w mut [LentTable<T>],
        tick: Tick,
    },
}

/// Applies a query's filter `F`, its change filters compared with `since`, to a typed query
/// builder (the storage's or the lent tables').
macro_rules! filtered {
    ($query:expr, $filter:ty, $since:expr) => {{
        const {
            assert!(
                <$filter>::CHANGE_FILTERS <= 1,
                "a query takes one change filter: one `Changed<C>` or one `Added<C>` (any of \
                 several components: `Changed<(A, B)>`)"
            )
        };
        let mut query = $query
            .with(to_mask(<$filter>::INCLUDE))
            .without(to_mask(<$filter>::EXCLUDE));
        if <$filter>::DISABLED_ONLY {
            query = query.with(Bitmask::DISABLED);
        } else if <$filter>::ALLOW_DISABLED {
            query = query.allow_disabled();
        }
        if <$filter>::CHANGED != 0 {
            query = query.changed_since(to_mask(<$filter>::CHANGED), $since);
        }
        if <$filter>::ADDED != 0 {
            query = query.added_since(to_mask(<$filter>::ADDED), $since);
        }
        query
    }};
}

/// `filters` with a query's filter `F` added, its change filters compared with `since`: what
/// a parents-first walk over a system's query filters on.
pub(crate) fn add_filter<T, F, FM>(
    filters: QueryFilters<T::Mask>,
    since: Tick,
) -> QueryFilters<T::Mask>
where
    T: TypedTable,
    F: QueryFilter<T, FM>,
{
    filtered!(filters, F, since)
}

/// Runs `$body` with `$query` bound to the query as a typed query over its tables, whichever
/// they are.
macro_rules! with_typed {
    ($self:ident, $filter:ty, $marker:ty, |$query:ident| $body:expr) => {{
        let since = $self.since;
        match &mut $self.tables {
            QueryTables::Whole(storage) => {
                let $query = filtered!(TypedQuery::<T, Q>::new(&mut **storage), $filter, since);
                $body
            }
            QueryTables::Lent {
                storage,
                tables,
                tick,
            } => {
                let $query = filtered!(
                    LentQuery::<T, Q>::new(storage, &mut **tables, *tick),
                    $filter,
                    since
                );
                $body
            }
        }
    }};
}

impl<'w, T: TypedTable, Q, F> Query<'w, T, Q, F> {
    /// Calls `f(item)` for every matching entity, table by table (as `typed_query`'s
    /// `for_each`, the fastest loop).
    #[inline]
    pub fn for_each<M, FM, G>(&mut self, f: G)
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
        G: for<'s> FnMut(Q::Item<'s>),
    {
        with_typed!(self, F, FM, |query| query.for_each(f))
    }

    /// The matching entities' items as an iterator, read only, over a shared borrow: two
    /// loops over one query may nest (each pair of units), and the items can be kept while
    /// `get` looks up others. bevy's `iter`. A query that writes uses
    /// [`iter_mut`](Self::iter_mut) or [`for_each`](Self::for_each).
    pub fn iter<M, FM>(&self) -> impl Iterator<Item = Q::Item<'_>> + '_
    where
        Q: ReadOnlyFetch<T, M>,
        F: QueryFilter<T, FM>,
        M: 'static,
    {
        self.shared::<M, FM>().iter()
    }

    /// The matching entities' items as an iterator (`find`, `any`, `break`, adapters), writes
    /// through [`Mut`](crate::Mut) guards. bevy's `iter_mut`.
    pub fn iter_mut<M, FM>(&mut self) -> TypedQueryIter<'_, T, Q, M>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        with_typed!(self, F, FM, |query| query.iter())
    }

    /// The item of `entity`, read only, if it is alive and matches the query (filters
    /// included). bevy's `get`; a query that writes uses [`get_mut`](Self::get_mut).
    pub fn get<M, FM>(&self, entity: Entity) -> Option<Q::Item<'_>>
    where
        Q: ReadOnlyFetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        self.shared::<M, FM>().get(entity)
    }

    /// The item of `entity`, if it is alive and matches the query (filters included), writes
    /// through [`Mut`](crate::Mut) guards. bevy's `get_mut`.
    #[inline]
    pub fn get_mut<M, FM>(&mut self, entity: Entity) -> Option<Q::Item<'_>>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        with_typed!(self, F, FM, |query| query.into_get(entity))
    }

    /// Number of matching entities.
    pub fn count<M, FM>(&self) -> usize
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        self.shared::<M, FM>().count()
    }

    /// The query over a shared borrow, its filter applied: the storage's tables, or the ones
    /// lent to it (which hold its change filter's ticks).
    fn shared<M, FM>(&self) -> TypedQueryRef<'_, T, Q>
    where
        Q: Fetch<T, M>,
        F: QueryFilter<T, FM>,
    {
        let query = match &self.tables {
            QueryTables::Whole(storage) => TypedQueryRef::new(storage),
            QueryTables::Lent {
                storage, tables, ..
            } => TypedQueryRef::over_lent(storage, tables),
        };
        filtered!(query, F, self.since)
    }

    /// Whether `entity` is alive and holds `X`: a component type, or a tag's name as a type
    /// (`query.has::<SHIELDED, _>(target)`, bevy's `Has<X>`), or is disabled
    /// (`query.has::<Disabled, _>(entity)`), whether or not it matches the query.
    #[inline]
    pub fn has<X, M>(&self, entity: Entity) -> bool
    where
        With<X>: QueryFilter<T, M>,
    {
        let (disabled, _) = disabled_masks::<T::Mask>(
            <With<X> as QueryFilter<T, M>>::DISABLED_ONLY,
            <With<X> as QueryFilter<T, M>>::ALLOW_DISABLED,
        );
        let mask = to_mask::<T::Mask>(<With<X> as QueryFilter<T, M>>::INCLUDE) | disabled;
        self.storage().has_components(entity, mask)
    }

    /// The target of `source` in the relation `R` (a relation's name as a type:
    /// `query.target::<CHILD_OF, _>(turret)`), whether or not `source` matches the query.
    pub fn target<R, M>(&self, source: Entity) -> Option<Entity>
    where
        T: RelationOf<R>,
        With<R>: QueryFilter<T, M>,
    {
        self.storage()
            .related_target(to_mask(<With<R> as QueryFilter<T, M>>::INCLUDE), source)
    }

    /// The sources of `target` in the relation `R`, in link order (a parent's children).
    pub fn sources<R, M>(&self, target: Entity) -> &[Entity]
    where
        T: RelationOf<R>,
        With<R>: QueryFilter<T, M>,
    {
        self.storage()
            .related_sources(to_mask(<With<R> as QueryFilter<T, M>>::INCLUDE), target)
    }

    /// The storage, shared.
    #[inline]
    fn storage(&self) -> &Storage<T> {
        match &self.tables {
            QueryTables::Whole(storage) => storage,
            QueryTables::Lent { storage, .. } => storage,
        }
    }

    /// The query's entities in the order of the relation `R`'s trees, parents first (`R` a
    /// relation's name as a type, `CHILD_OF`): `typed_query`'s
    /// [`parents_first`](crate::TypedQuery::parents_first) in a system, the query's filter
    /// applied. A transform propagation:
    /// `query.parents_first::<CHILD_OF>().for_each(|parent, (local, mut global)| ..)`; see
    /// [`ParentsFirst::for_each`]. The relation's links are read while the query runs; no
    /// system changes them then (they change at sync points).
    pub fn parents_first<R>(&mut self) -> ParentsFirst<'_, T, Q, R, F>
    where
        T: RelationOf<R>,
    {
        let source = match &mut self.tables {
            QueryTables::Whole(storage) => ParentsFirstSource::Whole(storage),
            QueryTables::Lent {
                storage,
                tables,
                tick,
            } => ParentsFirstSource::Lent {
                storage,
                tables,
                tick: *tick,
            },
        };
        ParentsFirst::new(source, self.since)
    }

    /// The tick `Changed` and `Added` compare with: the one this system last ran at.
    pub fn last_run(&self) -> Tick {
        self.since
    }
}

/// Marks the impl of the query parameter: the markers of its data and filter, and its part's
/// place.
#[doc(hidden)]
pub struct QueryParam<M, FM, I>(M, FM, I);

impl<W, T, Q, F, M, FM, I> SystemParam<W, QueryParam<M, FM, I>> for Query<'_, T, Q, F>
where
    W: ParamWorld,
    W::Parts: PartOf<T, I>,
    T: TypedTable + Send + Sync,
    T::Removed: Send + Sync,
    Q: Fetch<T, M> + 'static,
    F: QueryFilter<T, FM> + 'static,
{
    type Item<'w> = Query<'w, T, Q, F>;

    const ACCESS: SystemAccess = {
        let access = <Q as Fetch<T, M>>::ACCESS;
        let part = <W::Parts as PartOf<T, I>>::PLACE;
        // The disabled bit counts as a component the tables of the disabled entities hold: a
        // query of them and one skipping them never meet.
        let disabled = 1 << (<T::Mask as Bitmask>::CAPACITY - 1);
        let query = SystemAccess {
            components_read: PartBits::of(
                part,
                access.reads | F::INCLUDE | F::EXCLUDE | F::CHANGED | F::ADDED,
            ),
            components_written: PartBits::of(part, access.writes),
            ticks: PartBits::of(
                part,
                (access.writes & T::TRACKED_BITS) | F::CHANGED | F::ADDED,
            ),
            query: true,
            query_part: part,
            query_include: ((access.required | F::INCLUDE) & T::COMPONENT_BITS)
                | if F::DISABLED_ONLY { disabled } else { 0 },
            query_exclude: (F::EXCLUDE & T::COMPONENT_BITS)
                | if F::DISABLED_ONLY || F::ALLOW_DISABLED {
                    0
                } else {
                    disabled
                },
            targets: access.targets,
            ..SystemAccess::NONE
        };
        assert!(
            !query.targets_meet_writes_of(query),
            "a query's `Target` term reads a component the query writes, from targets that may \
             be the query's own rows: give the term a filter that keeps them apart (`Without<C>`, \
             C a component the query requires, or `With<C>`, C one it excludes)"
        );
        query
    };

    #[inline]
    fn loan(loans: &mut <W::Parts as PartList>::Loans) {
        let access = <Q as Fetch<T, M>>::ACCESS;
        let (disabled_include, disabled_exclude) =
            disabled_masks::<T::Mask>(F::DISABLED_ONLY, F::ALLOW_DISABLED);
        <W::Parts as PartOf<T, I>>::loans(loans).push(Loan {
            include: to_mask::<T::Mask>(access.required | F::INCLUDE) | disabled_include,
            exclude: to_mask::<T::Mask>(F::EXCLUDE) | disabled_exclude,
            columns: to_mask(access.writes),
            ticks: to_mask(access.writes | F::CHANGED | F::ADDED),
        });
    }

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> Query<'w, T, Q, F> {
        let tables = match <W::Parts as PartOf<T, I>>::source(&mut source.storages) {
            StorageSource::Whole(storage) => QueryTables::Whole(
                storage
                    .take()
                    .expect("a system with one query lends it the storage"),
            ),
            StorageSource::Lent { storage, loans } => QueryTables::Lent {
                storage,
                tables: loans
                    .next()
                    .expect("a system with several queries of a part lends each its columns"),
                tick: source.ticks.this_run(),
            },
        };
        Query {
            tables,
            since: source.ticks.last_run(),
            query: PhantomData,
        }
    }
}

/// The disabled bit a filter `F` puts in a query's include and exclude masks: in the include
/// mask for `With<Disabled>` (the disabled entities only), in both for `Allow<Disabled>`
/// (enabled and disabled alike, see [`Bitmask::DISABLED`]), in neither otherwise.
fn disabled_masks<M: Bitmask>(disabled_only: bool, allow_disabled: bool) -> (M, M) {
    match (disabled_only, allow_disabled) {
        (true, _) => (M::DISABLED, M::EMPTY),
        (false, true) => (M::DISABLED, M::DISABLED),
        (false, false) => (M::EMPTY, M::EMPTY),
    }
}

/// A query's filter as a type: `()`, [`With`], [`Without`], [`Changed`], [`Added`],
/// [`Allow`], or a tuple of them (all must hold). `M` is inferred.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query filter of this world",
    note = "a filter is `With<X>` or `Without<X>` (X a component type, or a tag's name as a type: `With<FROZEN>`), `Changed<C>` or `Added<C>` (C a component type, or a tuple of them: any of them), `With<Disabled>` or `Allow<Disabled>`, or a tuple of filters"
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
    /// How many change filters (`Changed`, `Added`) the filter holds: a query takes at most
    /// one, which may name several components (any of them). A tuple `(Changed<A>,
    /// Changed<B>)` (both) holds two, `Changed<(A, B)>` (any) one.
    const CHANGE_FILTERS: u32 = 0;
    /// Whether only disabled entities pass (`With<Disabled>`).
    const DISABLED_ONLY: bool = false;
    /// Whether disabled entities pass beside the enabled ones (`Allow<Disabled>`).
    const ALLOW_DISABLED: bool = false;
}

/// Only entities holding `X`: a component type, or a tag's name as a type (`With<FROZEN>`).
pub struct With<X>(PhantomData<fn() -> X>);

/// Only entities not holding `X`: a component type, or a tag's name as a type.
pub struct Without<X>(PhantomData<fn() -> X>);

/// Lets in the entities every query skips unless it asks: `Allow<Disabled>`, the disabled
/// entities beside the enabled ones (bevy's `Allow<Disabled>`).
pub struct Allow<X>(PhantomData<fn() -> X>);

/// The disabled entities (`world.disable(e)`), as a filter names them: `With<Disabled>`, only
/// them; `Allow<Disabled>`, them and the enabled ones. Every query without either skips them.
/// A filter reads nothing, so neither adds to a system's access; a query `With<Disabled>` and
/// one without it never meet (they match different tables), so one system may take both.
#[derive(Clone, Copy, Debug)]
pub enum Disabled {}

/// Only entities whose component `C` was written since the system last ran (bevy's `Changed`).
/// `C` may be a tuple of components, `Changed<(Position, Health)>`: the entities holding all of
/// them, any of which was written (bevy's `Or<(Changed<A>, Changed<B>)>`, over entities with
/// both). A query takes one change filter.
pub struct Changed<C>(PhantomData<fn() -> C>);

/// Only entities that got component `C` (spawned with it, or given it) since the system last
/// ran (bevy's `Added`). `C` may be a tuple, as with [`Changed`]: any of them added. A query
/// takes one change filter.
pub struct Added<C>(PhantomData<fn() -> C>);

/// A tag of a world as a type: `ecs!` generates, for a tag `frozen => FROZEN`, a type named
/// `FROZEN` beside the mask constant, so a filter writes `With<FROZEN>`.
pub trait TagOf<X>: TypedTable {
    /// The tag's mask bit.
    const BIT: u128;
}

/// A relation of a world as a type: `ecs!` generates, for a relation `child_of / children =>
/// CHILD_OF`, a type named `CHILD_OF` beside the mask constant (also a [`TagOf`]: `With<CHILD_OF>`
/// matches the linked entities).
pub trait RelationOf<R>: TagOf<R> {}

/// Marks filter impls that pick a component.
#[doc(hidden)]
pub struct ComponentFilter<M>(M);

/// Marks filter impls that pick a tag.
#[doc(hidden)]
pub enum TagFilter {}

/// Marks the filter impls over [`Disabled`].
#[doc(hidden)]
pub enum DisabledFilter {}

/// Marks the impls of `Changed` and `Added` over a tuple of components (any of them): the
/// components' markers.
#[doc(hidden)]
pub struct AnyOf<M>(M);

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

impl<T> QueryFilter<T, DisabledFilter> for With<Disabled> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
    const DISABLED_ONLY: bool = true;
}

impl<T> QueryFilter<T, DisabledFilter> for Allow<Disabled> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = 0;
    const ALLOW_DISABLED: bool = true;
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
    const CHANGE_FILTERS: u32 = 1;
}

impl<T: ComponentColumn<C, M>, C: 'static, M> QueryFilter<T, ComponentFilter<M>> for Added<C> {
    const INCLUDE: u128 = 0;
    const EXCLUDE: u128 = 0;
    const CHANGED: u128 = 0;
    const ADDED: u128 = T::BIT;
    const CHANGE_FILTERS: u32 = 1;
}

/// `Changed<(A, B, ..)>` and `Added<(A, B, ..)>`: one change filter over several components.
macro_rules! any_of_filters {
    ($($component:ident $marker:ident),+) => {
        impl<T, $($component: 'static, $marker),+> QueryFilter<T, AnyOf<($($marker,)+)>>
            for Changed<($($component,)+)>
        where
            $(T: ComponentColumn<$component, $marker>,)+
        {
            const INCLUDE: u128 = 0;
            const EXCLUDE: u128 = 0;
            const CHANGED: u128 = 0 $(| <T as ComponentColumn<$component, $marker>>::BIT)+;
            const ADDED: u128 = 0;
            const CHANGE_FILTERS: u32 = 1;
        }

        impl<T, $($component: 'static, $marker),+> QueryFilter<T, AnyOf<($($marker,)+)>>
            for Added<($($component,)+)>
        where
            $(T: ComponentColumn<$component, $marker>,)+
        {
            const INCLUDE: u128 = 0;
            const EXCLUDE: u128 = 0;
            const CHANGED: u128 = 0;
            const ADDED: u128 = 0 $(| <T as ComponentColumn<$component, $marker>>::BIT)+;
            const CHANGE_FILTERS: u32 = 1;
        }
    };
}

any_of_filters!(C0 M0, C1 M1);
any_of_filters!(C0 M0, C1 M1, C2 M2);
any_of_filters!(C0 M0, C1 M1, C2 M2, C3 M3);

macro_rules! tuple_filters {
    ($($filter:ident $marker:ident),+) => {
        impl<T, $($filter: QueryFilter<T, $marker>, $marker),+> QueryFilter<T, ($($marker,)+)>
            for ($($filter,)+)
        {
            const INCLUDE: u128 = 0 $(| $filter::INCLUDE)+;
            const EXCLUDE: u128 = 0 $(| $filter::EXCLUDE)+;
            const CHANGED: u128 = 0 $(| $filter::CHANGED)+;
            const ADDED: u128 = 0 $(| $filter::ADDED)+;
            const CHANGE_FILTERS: u32 = 0 $(+ $filter::CHANGE_FILTERS)+;
            const DISABLED_ONLY: bool = false $(|| $filter::DISABLED_ONLY)+;
            const ALLOW_DISABLED: bool = false $(|| $filter::ALLOW_DISABLED)+;
        }
    };
}

tuple_filters!(F0 M0);
tuple_filters!(F0 M0, F1 M1);
tuple_filters!(F0 M0, F1 M1, F2 M2);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3, F4 M4);
tuple_filters!(F0 M0, F1 M1, F2 M2, F3 M3, F4 M4, F5 M5);
