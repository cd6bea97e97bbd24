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
//! Every component a query borrows mutably is stamped as changed in every table the query
//! visits (one column stamp per table, or the rows handed out when tag bits filter the rows),
//! as `get_*_mut` does for one entity: writes through a typed query are never invisible to
//! `for_each_mut_changed` and `query_entities_changed_since`.

use core::marker::PhantomData;

use crate::{Archetype, Bitmask, Entity, Storage};

/// One component of a generated table type, picked by its type `C` and a marker `M` that
/// `ecs!` generates per component (so two components of the same type have distinct impls).
///
/// Implemented by `ecs!` for its `ComponentArrays` type; not meant to be implemented by hand.
pub trait ComponentColumn<C: 'static, M>: Archetype {
    /// The component's mask bit, widened to `u128`.
    const BIT: u128;

    /// Moves the component's column out of `view` (leaving an empty slice behind): a borrow
    /// of exactly that column, for the view's whole lifetime.
    fn take_column<'v>(view: &mut Self::ViewMut<'v>) -> &'v mut [C];

    /// The component's column in `view`, shared.
    fn column<'r>(view: &'r Self::ViewMut<'_>) -> &'r [C];

    /// Whether the table `view` shows holds the component.
    fn has_column(view: &Self::ViewMut<'_>) -> bool;
}

/// The components a query reads and writes, as `u128` bit sets (so they can be combined in
/// constants), and whether its elements' borrows conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryAccess {
    /// Components borrowed shared.
    pub reads: u128,
    /// Components borrowed mutably.
    pub writes: u128,
    /// Components a table must hold to match (not the `Option` elements).
    pub required: u128,
    /// Whether a component is borrowed mutably by one element and borrowed again by another.
    pub conflicts: bool,
}

impl QueryAccess {
    /// No component at all (an [`Entity`] element).
    pub const NONE: QueryAccess = QueryAccess {
        reads: 0,
        writes: 0,
        required: 0,
        conflicts: false,
    };

    /// A shared borrow of `bit`, required or optional.
    pub const fn read(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: bit,
            writes: 0,
            required: if required { bit } else { 0 },
            conflicts: false,
        }
    }

    /// A mutable borrow of `bit`, required or optional.
    pub const fn write(bit: u128, required: bool) -> QueryAccess {
        QueryAccess {
            reads: 0,
            writes: bit,
            required: if required { bit } else { 0 },
            conflicts: false,
        }
    }

    /// The access of two elements of one query: a conflict if either writes what the other
    /// touches.
    pub const fn and(self, other: QueryAccess) -> QueryAccess {
        let conflicts = self.conflicts
            || other.conflicts
            || self.writes & (other.reads | other.writes) != 0
            || other.writes & self.reads != 0;
        QueryAccess {
            reads: self.reads | other.reads,
            writes: self.writes | other.writes,
            required: self.required | other.required,
            conflicts,
        }
    }
}

/// What a typed query fetches per row: a component element, an [`Entity`], or a tuple of
/// fetches. `M` is the marker (or tuple of markers) that says which column each element
/// means; it is inferred, never written.
///
/// The methods are the query's plumbing, called once per table (`take`, `slices`) and once per
/// row (`row`); a user only names the implementing types.
pub trait Fetch<T: Archetype, M> {
    /// What the closure gets for one row (`&'s mut Position`, `(Entity, &'s Velocity)`, ...).
    type Item<'s>;
    /// The columns moved out of a table view before the shared ones are reborrowed.
    #[doc(hidden)]
    type Taken<'v>;
    /// The columns of one table (or run of rows), cut to its number of rows.
    #[doc(hidden)]
    type Slices<'r>;

    /// The components read and written, and whether the borrows conflict.
    const ACCESS: QueryAccess;

    /// Moves the mutably borrowed columns out of `view`.
    #[doc(hidden)]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> Self::Taken<'v>;

    /// Adds the shared columns and cuts every column to `entities.len()` rows.
    #[doc(hidden)]
    fn slices<'r, 'v: 'r>(
        taken: Self::Taken<'v>,
        entities: &'r [Entity],
        view: &'r T::ViewMut<'v>,
    ) -> Self::Slices<'r>;

    /// The item of `row` (below the length `slices` cut to).
    #[doc(hidden)]
    fn row<'s>(slices: &'s mut Self::Slices<'_>, row: usize) -> Self::Item<'s>;
}

impl<T: Archetype> Fetch<T, ()> for Entity {
    type Item<'s> = Entity;
    type Taken<'v> = ();
    type Slices<'r> = &'r [Entity];

    const ACCESS: QueryAccess = QueryAccess::NONE;

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        entities: &'r [Entity],
        _view: &'r T::ViewMut<'v>,
    ) -> &'r [Entity] {
        entities
    }

    #[inline]
    fn row(slices: &mut &[Entity], row: usize) -> Entity {
        slices[row]
    }
}

impl<T, C, M> Fetch<T, M> for &C
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = &'s C;
    type Taken<'v> = ();
    type Slices<'r> = &'r [C];

    const ACCESS: QueryAccess = QueryAccess::read(T::BIT, true);

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(_taken: (), entities: &'r [Entity], view: &'r T::ViewMut<'v>) -> &'r [C] {
        &T::column(view)[..entities.len()]
    }

    #[inline]
    fn row<'s>(slices: &'s mut &[C], row: usize) -> &'s C {
        &slices[row]
    }
}

impl<T, C, M> Fetch<T, M> for &mut C
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = &'s mut C;
    type Taken<'v> = &'v mut [C];
    type Slices<'r> = &'r mut [C];

    const ACCESS: QueryAccess = QueryAccess::write(T::BIT, true);

    #[inline]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> &'v mut [C] {
        T::take_column(view)
    }

    #[inline]
    fn slices<'r, 'v: 'r>(
        taken: &'v mut [C],
        entities: &'r [Entity],
        _view: &'r T::ViewMut<'v>,
    ) -> &'r mut [C] {
        &mut taken[..entities.len()]
    }

    #[inline]
    fn row<'s>(slices: &'s mut &mut [C], row: usize) -> &'s mut C {
        &mut slices[row]
    }
}

impl<T, C, M> Fetch<T, M> for Option<&C>
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = Option<&'s C>;
    type Taken<'v> = ();
    type Slices<'r> = Option<&'r [C]>;

    const ACCESS: QueryAccess = QueryAccess::read(T::BIT, false);

    #[inline]
    fn take<'v>(_view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {}

    #[inline]
    fn slices<'r, 'v: 'r>(
        _taken: (),
        entities: &'r [Entity],
        view: &'r T::ViewMut<'v>,
    ) -> Option<&'r [C]> {
        T::has_column(view).then(|| &T::column(view)[..entities.len()])
    }

    #[inline]
    fn row<'s>(slices: &'s mut Option<&[C]>, row: usize) -> Option<&'s C> {
        slices.map(|column| &column[row])
    }
}

impl<T, C, M> Fetch<T, M> for Option<&mut C>
where
    T: ComponentColumn<C, M>,
    C: 'static,
{
    type Item<'s> = Option<&'s mut C>;
    type Taken<'v> = Option<&'v mut [C]>;
    type Slices<'r> = Option<&'r mut [C]>;

    const ACCESS: QueryAccess = QueryAccess::write(T::BIT, false);

    #[inline]
    fn take<'v>(view: &mut T::ViewMut<'v>) -> Option<&'v mut [C]> {
        T::has_column(view).then(|| T::take_column(view))
    }

    #[inline]
    fn slices<'r, 'v: 'r>(
        taken: Option<&'v mut [C]>,
        entities: &'r [Entity],
        _view: &'r T::ViewMut<'v>,
    ) -> Option<&'r mut [C]> {
        taken.map(|column| &mut column[..entities.len()])
    }

    #[inline]
    fn row<'s>(slices: &'s mut Option<&mut [C]>, row: usize) -> Option<&'s mut C> {
        slices.as_deref_mut().map(|column| &mut column[row])
    }
}

/// `Fetch` for tuples of fetches: one item per element, markers in a tuple of the same shape.
macro_rules! tuple_fetch {
    ($( ($element:ident, $marker:ident, $index:tt) ),+) => {
        impl<T: Archetype, $($element, $marker),+> Fetch<T, ($($marker,)+)> for ($($element,)+)
        where
            $($element: Fetch<T, $marker>,)+
        {
            type Item<'s> = ($($element::Item<'s>,)+);
            type Taken<'v> = ($($element::Taken<'v>,)+);
            type Slices<'r> = ($($element::Slices<'r>,)+);

            const ACCESS: QueryAccess = QueryAccess::NONE $(.and($element::ACCESS))+;

            #[inline]
            fn take<'v>(view: &mut T::ViewMut<'v>) -> Self::Taken<'v> {
                ($($element::take(view),)+)
            }

            #[inline]
            fn slices<'r, 'v: 'r>(
                taken: Self::Taken<'v>,
                entities: &'r [Entity],
                view: &'r T::ViewMut<'v>,
            ) -> Self::Slices<'r> {
                ($($element::slices(taken.$index, entities, view),)+)
            }

            #[inline]
            fn row<'s>(slices: &'s mut Self::Slices<'_>, row: usize) -> Self::Item<'s> {
                ($($element::row(&mut slices.$index, row),)+)
            }
        }
    };
}

tuple_fetch!((A, MA, 0));
tuple_fetch!((A, MA, 0), (B, MB, 1));
tuple_fetch!((A, MA, 0), (B, MB, 1), (C, MC, 2));
tuple_fetch!((A, MA, 0), (B, MB, 1), (C, MC, 2), (D, MD, 3));
tuple_fetch!((A, MA, 0), (B, MB, 1), (C, MC, 2), (D, MD, 3), (E, ME, 4));
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6),
    (H, MH, 7)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6),
    (H, MH, 7),
    (I, MI, 8)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6),
    (H, MH, 7),
    (I, MI, 8),
    (J, MJ, 9)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6),
    (H, MH, 7),
    (I, MI, 8),
    (J, MJ, 9),
    (K, MK, 10)
);
tuple_fetch!(
    (A, MA, 0),
    (B, MB, 1),
    (C, MC, 2),
    (D, MD, 3),
    (E, ME, 4),
    (F, MF, 5),
    (G, MG, 6),
    (H, MH, 7),
    (I, MI, 8),
    (J, MJ, 9),
    (K, MK, 10),
    (L, ML, 11)
);

/// The mask of `T`'s width holding the bits of `bits`.
#[inline]
fn to_mask<M: Bitmask>(bits: u128) -> M {
    let mut mask = M::EMPTY;
    let mut remaining = bits;
    while remaining != 0 {
        mask |= M::bit(remaining.trailing_zeros());
        remaining &= remaining - 1;
    }
    mask
}

/// A typed query under construction: `world.typed_query::<Q>().with(A).without(B)`, then
/// [`for_each`](Self::for_each). `Q` is a [`Fetch`]: `&C`, `&mut C`, `Option<&C>`,
/// `Option<&mut C>`, [`Entity`], or a tuple of them.
///
/// The query matches the entities holding every component `Q` requires (all but the `Option`
/// elements) and every component and tag of `with`, and none of `without`.
#[must_use = "a typed query does nothing until `for_each` runs it"]
pub struct TypedQuery<'w, T: Archetype, Q> {
    storage: &'w mut Storage<T>,
    include: T::Mask,
    exclude: T::Mask,
    query: PhantomData<fn() -> Q>,
}

impl<'w, T: Archetype, Q> TypedQuery<'w, T, Q> {
    /// A query over `storage` that matches every entity holding the components `Q` requires.
    pub fn new(storage: &'w mut Storage<T>) -> Self {
        TypedQuery {
            storage,
            include: T::Mask::EMPTY,
            exclude: T::Mask::EMPTY,
            query: PhantomData,
        }
    }

    /// Only entities holding every component and tag of `mask` as well.
    pub fn with(mut self, mask: T::Mask) -> Self {
        self.include |= mask;
        self
    }

    /// Only entities holding none of the components and tags of `mask`.
    pub fn without(mut self, mask: T::Mask) -> Self {
        self.exclude |= mask;
        self
    }

    /// Calls `f(item)` for every matching entity, table by table, in table order then row
    /// order. The components `Q` borrows mutably are stamped as changed in every table
    /// visited.
    ///
    /// A `Q` that borrows one component mutably twice, or mutably and shared, is a compile
    /// error when the program is built (see the [module docs](crate::typed_query)).
    #[inline]
    pub fn for_each<M, F>(self, mut f: F)
    where
        Q: Fetch<T, M>,
        F: for<'s> FnMut(Q::Item<'s>),
    {
        const {
            assert!(
                !<Q as Fetch<T, M>>::ACCESS.conflicts,
                "a typed query borrows a component mutably twice, or mutably and shared at once"
            )
        };
        let access = <Q as Fetch<T, M>>::ACCESS;
        let include = self.include | to_mask::<T::Mask>(access.required);
        let written = to_mask::<T::Mask>(access.writes);
        self.storage
            .for_each_run_mut(include, self.exclude, written, |entities, mut view| {
                let taken = Q::take(&mut view);
                let mut slices = Q::slices(taken, entities, &view);
                for row in 0..entities.len() {
                    f(Q::row(&mut slices, row));
                }
            });
    }

    /// Number of matching entities (nothing is borrowed or stamped).
    pub fn count<M>(self) -> usize
    where
        Q: Fetch<T, M>,
    {
        let include = self.include | to_mask::<T::Mask>(<Q as Fetch<T, M>>::ACCESS.required);
        self.storage
            .matching_entities(include, self.exclude)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_world::*;

    mod test_world {
        #![allow(dead_code)]
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
            .for_each(|(entity, number, name)| {
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
        let mut changed: Vec<Entity> = world.query_entities_changed_since(NUMBER, since).collect();
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
            .for_each(|(entity, name)| {
                name.push('!');
                tagged.push(entity);
            });
        assert_eq!(tagged, vec![named[1]]);
        assert_eq!(world.get_name(named[1]).map(String::as_str), Some("n1!"));
        assert_eq!(world.get_name(named[0]).map(String::as_str), Some("n0"));
        let changed: Vec<Entity> = world
            .query_entities_changed_since(NAME, world.last_tick())
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
                if let Some(other) = other {
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
