//! Typed tuple queries: `world.typed_query::<(&mut Position, &Velocity)>().for_each(|(p, v)| ..)`.
//!
//! A query type is a [`Fetch`]: a component element (`&C`, `&mut C`, `Option<&C>`,
//! `Option<&mut C>`), [`Entity`], or a tuple of fetches (up to 12, nested as deep as wanted).
//! For every matching table the query moves the columns it writes out of the table's slice view
//! (`core::mem::take` of a `&mut [C]`, so the borrows are split without `unsafe`), reborrows the
//! columns it reads, cuts every slice to the number of rows, and calls the closure once per row
//! with an index loop the optimiser proves in bounds: no per-entity lookup, no bounds check.
//!
//! # Which column an element means
//!
//! `ecs!` implements [`ComponentColumn<C, M>`] for its table type once per component, with a
//! marker type `M` of its own for each. An element `&C` asks for "the column of type `C`"; the
//! compiler infers the marker when exactly one component has type `C`. A world may give two
//! components the same type: the world still compiles, and querying that type by element is a
//! compile error (`type annotations needed`), while every other component stays queryable.
//!
//! # Borrow rules
//!
//! A query may read a component several times, but a component it writes (`&mut C` or
//! `Option<&mut C>`) must appear once and not be read by another element: the same rules as
//! Rust's borrows. Breaking them is a compile error when the query is built into a program
//! (`cargo build`, `cargo test`: "a typed query borrows a component mutably twice, or mutably
//! and shared at once"); `cargo check` alone does not evaluate that constant. Nothing could
//! alias regardless: the columns are split by moving them out of the table view, so a column
//! taken twice would be empty the second time and the query would panic on cutting it.
//!
//! # Change detection
//!
//! A `&mut C` element hands out a [`Mut<C>`](Mut) guard: reading through it stamps nothing, a
//! mutable dereference records the write. So a query reports as changed exactly the rows it
//! wrote, and the change filters ([`TypedQuery::changed_since`],
//! [`TypedQuery::added_since`]) see them and nothing else.
//!
//! How a write is recorded depends on the loop. In `for_each`, rows go by in chunks of 64: a
//! guard sets its row's bit in a word per written column (an `or` in a register), and after
//! each chunk the set bits become row stamps; a table (or run of rows) written whole becomes
//! one column stamp instead. So writing every row costs about what an `[untracked]` component
//! costs, and writing a few rows costs a store per row written. In `iter()` and `get()` a
//! guard stamps its row directly (items outlive any chunk).

use core::marker::PhantomData;

use crate::archetype::Archetype;
use crate::entity::Entity;
use crate::mask::Bitmask;
use crate::storage::{Storage, TablesRef};
use crate::tick::Tick;

/// The filter builders of both typed query forms (`TypedQuery` and `TypedQueryRef`, each with
/// a `filters: QueryFilters` field): written once, for `T`, the table type of the impl.
macro_rules! filter_builders {
    () => {
        /// Only entities holding every component and tag of `mask` as well.
        pub fn with(mut self, mask: T::Mask) -> Self {
            self.filters = self.filters.with(mask);
            self
        }

        /// Only entities holding none of the components and tags of `mask`.
        pub fn without(mut self, mask: T::Mask) -> Self {
            self.filters = self.filters.without(mask);
            self
        }

        /// Disabled entities too, beside the enabled ones (bevy's `Allow<Disabled>`): every
        /// query skips the disabled entities unless it asks for them, `with(DISABLED)` (the
        /// world's `WorldMask::DISABLED`) for them alone, this for both.
        pub fn allow_disabled(mut self) -> Self {
            self.filters = self.filters.allow_disabled();
            self
        }

        /// Only entities one of whose tracked components of `mask` was written after `since`
        /// (stamped at a newer tick: a system's own cursor; record `current_tick()` when
        /// reading, then `increment_tick()`). The entities
        /// must hold the components of `mask` too. A second change filter replaces the first.
        pub fn changed_since(mut self, mask: T::Mask, since: Tick) -> Self {
            self.filters = self.filters.changed_since(mask, since);
            self
        }

        /// Only entities one of whose tracked components of `mask` was added after `since`:
        /// spawned with it, or given it by `add_*` / `set_*` / `add_components` (a migration);
        /// writes to a component it already had do not count. The entities must hold the
        /// components of `mask`. A second change filter replaces the first.
        pub fn added_since(mut self, mask: T::Mask, since: Tick) -> Self {
            self.filters = self.filters.added_since(mask, since);
            self
        }
    };
}

mod access;
mod fetch;
mod filter;
mod iter;
mod lent;
mod mut_ref;
mod parents_first;
mod read_only;
pub(crate) mod split;
mod visit;
mod written;

pub use crate::storage::RunTags;
pub use access::{QueryAccess, TargetAccess};
pub use fetch::{Fetch, Run, SharedAnswer};
pub use filter::ChangeFilter;
pub(crate) use filter::QueryFilters;
pub use iter::TypedQueryIter;
pub use lent::LentQuery;
pub use mut_ref::Mut;
pub use parents_first::ParentsFirst;
pub(crate) use parents_first::ParentsFirstSource;
pub use read_only::{ReadOnlyFetch, TypedQueryRef};
pub(crate) use visit::{SharedTable, row_item, visit_newer, visit_run, visit_spans};
pub(crate) use written::CHUNK;
pub use written::{RowAt, WrittenColumn};

/// A generated table type whose columns a typed query can borrow one by one: besides the
/// mutable slice view of [`Archetype`], a shared view (`Columns`) that a query reads from for
/// as long as the table is borrowed.
///
/// Implemented by `ecs!`; not meant to be implemented by hand.
pub trait TypedTable: Archetype {
    /// Every column of the table as a shared slice.
    type Columns<'v>;

    /// Turns what is left of a mutable view (once the written columns were moved out) into
    /// shared columns that live as long as the view.
    fn share<'v>(view: Self::ViewMut<'v>) -> Self::Columns<'v>;

    /// The shared columns of a table.
    fn columns(&self) -> Self::Columns<'_>;

    /// The mask of the table a view shows.
    fn view_mask(view: &Self::ViewMut<'_>) -> Self::Mask;

    /// The read side of [`Storage::split_tables`] (`WorldTables`:
    /// the shared side of the split with a generated getter per component).
    type TablesRead<'a>;

    /// The read side of a split, typed.
    fn read_side(tables: TablesRef<'_, Self>) -> Self::TablesRead<'_>;

    /// [`Archetype::TRACKED`] widened to `u128`, for the constants of [`ComponentColumn`]
    /// (a generic mask type has no arithmetic in constant expressions).
    const TRACKED_BITS: u128;

    /// [`Archetype::COMPONENTS`] widened to `u128` (its tags and relations left out).
    const COMPONENT_BITS: u128;
}

/// One component of a generated table type, picked by its type `C` and a marker `M` that
/// `ecs!` generates per component (so two components of the same type have distinct impls).
///
/// Implemented by `ecs!` for its `ComponentArrays` type; not meant to be implemented by hand.
pub trait ComponentColumn<C: 'static, M>: TypedTable {
    /// The component's mask bit, widened to `u128`.
    const BIT: u128;

    /// Whether writes to the component are tracked (it is not `[untracked]`).
    const IS_TRACKED: bool = Self::TRACKED_BITS & Self::BIT != 0;

    /// Moves the component's column out of `view` (leaving an empty slice behind): a borrow
    /// of exactly that column, for the view's whole lifetime.
    fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [C];

    /// The component's column in `columns`, shared.
    fn column<'v>(columns: &Self::Columns<'v>) -> &'v [C];

    /// Whether a table of mask `mask` holds the component.
    #[inline]
    fn has_column(mask: Self::Mask) -> bool {
        mask.intersects(Self::Mask::bit(Self::BIT.trailing_zeros()))
    }
}

/// The mask of `T`'s width holding the bits of `bits`.
#[inline]
pub(crate) fn to_mask<M: Bitmask>(bits: u128) -> M {
    let mut mask = M::EMPTY;
    let mut remaining = bits;
    while remaining != 0 {
        mask |= M::bit(remaining.trailing_zeros());
        remaining &= remaining - 1;
    }
    mask
}

/// A typed query under construction: `world.typed_query::<Q>().with(A).without(B)`, then
/// [`for_each`](Self::for_each), [`iter`](Self::iter) or [`get`](Self::get). `Q` is a
/// [`Fetch`]: `&C`, `&mut C`, `Option<&C>`, `Option<&mut C>`, [`Entity`], or a tuple of them.
///
/// The query matches the entities holding every component `Q` requires (all but the `Option`
/// elements) and every component and tag of `with`, and none of `without`; with
/// [`changed_since`](Self::changed_since), only those whose given components were written
/// after a tick.
#[must_use = "a typed query does nothing until `for_each`, `iter` or `get` runs it"]
pub struct TypedQuery<'w, T: Archetype, Q> {
    storage: &'w mut Storage<T>,
    filters: QueryFilters<T::Mask>,
    query: PhantomData<fn() -> Q>,
}

impl<T: TypedTable> Storage<T> {
    /// A typed query over slices:
    /// `world.typed_query::<(&mut Position, &Velocity)>().with(A).without(B).for_each(|(position, velocity)| ..)`,
    /// or `.iter()`, `.get(entity)`, `.changed_since(mask, tick)`.
    /// Elements are `&C`, `&mut C` (a [`Mut`] guard that stamps the row when written
    /// through), `Option<&C>`, `Option<&mut C>` and [`Entity`], in tuples of up to 12.
    /// O(matching tables) plus their rows, the first query of a mask caching its tables
    /// (O(tables), once); `.get(entity)` is O(1), `None` for a dead, stale or never-issued
    /// handle.
    pub fn typed_query<Q>(&mut self) -> TypedQuery<'_, T, Q> {
        TypedQuery::new(self)
    }

    /// A read-only typed query over a shared borrow (elements `&C`, `Option<&C>`, [`Entity`]),
    /// so the loop can call the world's `&self` methods:
    /// `world.typed_query_ref::<(Entity, &Position)>().for_each(|(entity, position)| ..)`.
    /// It cannot fill the query cache; [`warm_query`](Self::warm_query) does, ahead of time
    /// (an uncached mask scans every table's mask first).
    pub fn typed_query_ref<Q>(&self) -> TypedQueryRef<'_, T, Q> {
        TypedQueryRef::new(self)
    }
}

impl<'w, T: TypedTable, Q> TypedQuery<'w, T, Q> {
    /// A query over `storage` that matches every entity holding the components `Q` requires
    /// (what `world.typed_query()` returns).
    #[doc(hidden)]
    pub fn new(storage: &'w mut Storage<T>) -> Self {
        TypedQuery {
            storage,
            filters: QueryFilters::NONE,
            query: PhantomData,
        }
    }

    filter_builders!();

    /// Calls `f(item)` for every matching entity, table by table, in table order then row
    /// order. `&mut C` elements are [`Mut`] guards: a row is stamped as changed when the
    /// closure writes through its guard, not when it is only read.
    ///
    /// A `Q` that borrows one component mutably twice, or mutably and shared, is a compile
    /// error when the program is built (see the [module docs](crate::typed_query)).
    #[inline]
    pub fn for_each<M, F>(self, mut f: F)
    where
        Q: Fetch<T, M>,
        F: for<'s> FnMut(Q::Item<'s>),
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let access = <Q as Fetch<T, M>>::ACCESS;
        let (include, exclude) = self.filters.masks(to_mask(access.required));
        let written = to_mask::<T::Mask>(access.writes);
        let filter = self.filters.change;
        let tick = self.storage.current_tick();
        self.storage
            .for_each_run_mut(include, exclude, |run, view, ticks| {
                visit_run::<T, Q, M, F>(run, view, ticks, None, (filter, written, tick), &mut f);
            });
    }

    /// The matching entities' items as an iterator (`find`, `any`, `break`, adapters), in
    /// the order of [`for_each`](Self::for_each). `size_hint` is exact when the query has no
    /// tag bits and no change filter. `for_each` is the faster loop when every row is wanted.
    pub fn iter<M>(self) -> TypedQueryIter<'w, T, Q, M>
    where
        Q: Fetch<T, M>,
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let access = <Q as Fetch<T, M>>::ACCESS;
        let (include, exclude) = self.filters.masks(to_mask(access.required));
        let written = to_mask::<T::Mask>(access.writes);
        TypedQueryIter::new(
            self.storage.typed_tables_mut(include, exclude),
            written,
            self.filters.change,
        )
    }

    /// The item of `entity` through the same elements, if it is alive and matches the query
    /// (components, `with` / `without`, change filter); `None` otherwise. Writes through its
    /// [`Mut`] guards stamp the row.
    pub fn get<M>(&mut self, entity: Entity) -> Option<Q::Item<'_>>
    where
        Q: Fetch<T, M>,
    {
        TypedQuery::<T, Q> {
            storage: &mut *self.storage,
            filters: self.filters,
            query: PhantomData,
        }
        .into_get(entity)
    }

    /// [`get`](Self::get), consuming the query: the item borrows the world for as long as the
    /// query did.
    #[inline]
    pub fn into_get<M>(self, entity: Entity) -> Option<Q::Item<'w>>
    where
        Q: Fetch<T, M>,
    {
        const { <Q as Fetch<T, M>>::ACCESS.assert_borrows() };
        let access = <Q as Fetch<T, M>>::ACCESS;
        let (include, exclude) = self.filters.masks(to_mask(access.required));
        let written = to_mask::<T::Mask>(access.writes);
        let (table, ticks, row, tags, tick) =
            self.storage.typed_row_mut(entity, include, exclude)?;
        let (entities, view) = table.view_mut(include & !T::TAGS);
        row_item::<T, Q, M>(
            entities,
            view,
            ticks,
            (row, tags),
            None,
            (self.filters.change, written, tick),
        )
    }

    /// Number of matching entities (nothing is borrowed or stamped).
    pub fn count<M>(self) -> usize
    where
        Q: Fetch<T, M>,
    {
        let (include, exclude) = self
            .filters
            .masks(to_mask(<Q as Fetch<T, M>>::ACCESS.required));
        match self.filters.change {
            None => self.storage.matching_entities(include, exclude).count(),
            Some(filter) => self
                .storage
                .typed_tables(include, exclude)
                .map(|(table, ticks, tags)| filter.count_rows(table.len(), ticks, tags))
                .sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::{string::String, string::ToString, vec::Vec};
    use test_world::*;

    mod test_world {
        #![allow(dead_code)]
        use alloc::string::String;
        crate::ecs! {
            TestWorld {
                number: u32 => NUMBER,
                name: String => NAME,
                flag: bool => FLAG,
                other: u8 => OTHER [untracked],
            }
            Tags {
                marked => MARKED,
            }
        }
    }

    #[test]
    fn access_combines_and_detects_conflicts() {
        let read_a = QueryAccess::read(1, true);
        let write_a = QueryAccess::write(1, true);
        let write_b = QueryAccess::write(2, false);
        assert!(!read_a.and(read_a).conflicts, "two shared borrows");
        assert!(read_a.and(write_a).conflicts);
        assert!(write_a.and(read_a).conflicts);
        assert!(write_a.and(write_a).conflicts);
        let both = write_a.and(write_b);
        assert!(!both.conflicts);
        assert_eq!((both.reads, both.writes, both.required), (0, 3, 1));
        assert!(both.and(QueryAccess::NONE).and(write_b).conflicts);
        assert!(
            QueryAccess::NONE.and(write_a.and(write_a)).conflicts,
            "nested"
        );
    }

    #[test]
    fn element_access_constants() {
        type T = TestWorldComponentArrays;
        let access =
            <(Entity, &mut u32, &String, Option<&bool>, Option<&mut u8>) as Fetch<T, _>>::ACCESS;
        assert_eq!(access.writes, (NUMBER | OTHER) as u128);
        assert_eq!(access.reads, (NAME | FLAG) as u128);
        assert_eq!(access.required, (NUMBER | NAME) as u128);
        assert!(!access.conflicts);
        let access = <(&mut u32, (&u32,)) as Fetch<T, _>>::ACCESS;
        assert!(access.conflicts, "a nested tuple's reads count too");
    }

    #[test]
    fn masks_convert_to_either_width() {
        assert_eq!(to_mask::<u64>(0b1011), 0b1011u64);
        assert_eq!(to_mask::<u128>(1 << 100 | 1), (1u128 << 100) | 1);
        assert_eq!(to_mask::<u64>(0), 0);
    }

    #[test]
    fn for_each_reads_writes_and_stamps() {
        let mut world = TestWorld::new();
        let plain = world.spawn_batch(NUMBER, 3, |view, row| view.number[row] = row as u32);
        let named = world.spawn_batch(NUMBER | NAME, 2, |view, row| {
            view.number[row] = 10 + row as u32;
            view.name[row] = format!("n{row}");
        });
        let flagged = world.spawn(NUMBER | FLAG | OTHER);
        world.add_marked(named[1]);
        world.step();

        let mut seen = Vec::new();
        world
            .typed_query::<(Entity, &mut u32, Option<&String>)>()
            .without(FLAG)
            .for_each(|(entity, mut number, name)| {
                *number += 100;
                seen.push((entity, *number, name.cloned()));
            });
        assert_eq!(
            seen,
            vec![
                (plain[0], 100, None),
                (plain[1], 101, None),
                (plain[2], 102, None),
                (named[0], 110, Some("n0".to_string())),
                (named[1], 111, Some("n1".to_string())),
            ]
        );
        let since = world.last_tick();
        let mut changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(NUMBER, since)
            .iter()
            .collect();
        changed.sort();
        let mut expected = [plain.clone(), named.clone()].concat();
        expected.sort();
        assert_eq!(changed, expected, "the FLAG table was not visited");
        assert_eq!(world.get_number(flagged), Some(&0));

        world.step();
        let mut tagged = Vec::new();
        world
            .typed_query::<(Entity, &mut String)>()
            .with(MARKED)
            .for_each(|(entity, mut name)| {
                name.push('!');
                tagged.push(entity);
            });
        assert_eq!(tagged, vec![named[1]]);
        assert_eq!(world.get_name(named[1]).map(String::as_str), Some("n1!"));
        assert_eq!(world.get_name(named[0]).map(String::as_str), Some("n0"));
        let changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(NAME, world.last_tick())
            .iter()
            .collect();
        assert_eq!(changed, vec![named[1]], "only the tagged row is stamped");

        assert_eq!(world.typed_query::<&u32>().count(), 6);
        assert_eq!(world.typed_query::<(&u32, &bool)>().count(), 1);
        assert_eq!(world.typed_query::<Option<&bool>>().count(), 6);
        world.check_invariants().unwrap();
    }

    #[test]
    fn option_mut_writes_only_where_present() {
        let mut world = TestWorld::new();
        let without = world.spawn(NUMBER);
        let with = world.spawn(NUMBER | OTHER);
        world
            .typed_query::<(&u32, Option<&mut u8>)>()
            .for_each(|(_, other)| {
                if let Some(mut other) = other {
                    *other = 7;
                }
            });
        assert_eq!(world.get_other(with), Some(&7));
        assert_eq!(world.get_other(without), None);
        world.check_invariants().unwrap();
    }

    #[test]
    fn empty_world_and_no_match_visit_nothing() {
        let mut world = TestWorld::new();
        let mut calls = 0;
        world.typed_query::<&mut u32>().for_each(|_| calls += 1);
        world.spawn(NAME);
        world.typed_query::<&mut u32>().for_each(|_| calls += 1);
        world
            .typed_query::<&String>()
            .without(NAME)
            .for_each(|_| calls += 1);
        assert_eq!(calls, 0);
    }
}
