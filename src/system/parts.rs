//! A world's storages as its systems' queries reach them: one per part (a world has one, a
//! multi-world game one per sub-world), listed by table type as nested pairs, `(CoreTables,
//! (RenderTables, ()))` ([`PartList`]). A query finds its part by its table type ([`PartOf`],
//! the place inferred: every part's table type is its own), so `CoreQuery<&Position>` reads
//! `Core`'s storage. Each part is lent on its own: taken whole by its one query, or shared by
//! several, each lent the columns it writes.

use alloc::vec::Vec;

use crate::archetype::Archetype;
use crate::storage::Storage;
use crate::storage::lending::{Lending, LentTable, Loan};
use crate::typed_query::TypedTable;

/// How a part's storage reaches a system's queries: whole, to its one query, or shared, with
/// the columns each query writes lent to it (in parameter order).
#[doc(hidden)]
pub enum StorageSource<'w, T: TypedTable> {
    Whole(Option<&'w mut Storage<T>>),
    Lent {
        storage: &'w Storage<T>,
        loans: core::slice::IterMut<'w, Vec<LentTable<T>>>,
    },
}

/// The parts of a world, by table type: `(T, ())` for a world, `(T0, (T1, ..()))` for a game,
/// in the order its sub-worlds are declared. Implemented here for every such list; `ecs!` names
/// the world's list ([`ParamWorld::Parts`](super::ParamWorld::Parts)).
pub trait PartList: 'static {
    /// Number of parts.
    const COUNT: usize;
    /// Each part's storage, borrowed mutably.
    type Storages<'w>;
    /// Each part's loans (one per query over it that shares it), in parameter order.
    type Loans: Default;
    /// Each part as a system's queries hold it: whole, or lent.
    type Lendings<'w>;
    /// Each part as a system's queries are handed it (see [`StorageSource`]).
    #[doc(hidden)]
    type Sources<'a>;

    /// Lends each part: the one at place `p` shared among its loans when `lent[p]`, else whole.
    #[doc(hidden)]
    fn lend<'w>(
        storages: Self::Storages<'w>,
        loans: &Self::Loans,
        lent: &[bool],
    ) -> Self::Lendings<'w>;

    /// What the system's queries are handed, from the parts lent.
    #[doc(hidden)]
    fn sources<'a, 'w: 'a>(lendings: &'a mut Self::Lendings<'w>) -> Self::Sources<'a>;
}

/// One part as a system's queries hold it while they run: whole (its one query's), or with
/// the columns its queries write lent out (taken back when this is dropped).
#[doc(hidden)]
pub enum PartLending<'w, T: TypedTable> {
    Whole(&'w mut Storage<T>),
    Lent(Lending<'w, T>),
}

impl PartList for () {
    const COUNT: usize = 0;
    type Storages<'w> = ();
    type Loans = ();
    type Lendings<'w> = ();
    type Sources<'a> = ();

    #[inline]
    fn lend<'w>(storages: (), loans: &(), lent: &[bool]) -> Self::Lendings<'w> {
        let _ = (storages, loans, lent);
    }

    #[inline]
    fn sources<'a, 'w: 'a>(lendings: &'a mut Self::Lendings<'w>) -> Self::Sources<'a> {
        let _ = lendings;
    }
}

impl<T: TypedTable, Rest: PartList> PartList for (T, Rest) {
    const COUNT: usize = 1 + Rest::COUNT;
    type Storages<'w> = (&'w mut Storage<T>, Rest::Storages<'w>);
    type Loans = (Vec<Loan<T::Mask>>, Rest::Loans);
    type Lendings<'w> = (PartLending<'w, T>, Rest::Lendings<'w>);
    type Sources<'a> = (StorageSource<'a, T>, Rest::Sources<'a>);

    #[inline]
    fn lend<'w>(
        (storage, rest): Self::Storages<'w>,
        (loans, rest_loans): &Self::Loans,
        lent: &[bool],
    ) -> Self::Lendings<'w> {
        let (lend_this, lent_rest) = lent.split_first().unwrap_or((&false, &[]));
        let this = if *lend_this {
            PartLending::Lent(storage.lend(loans))
        } else {
            PartLending::Whole(storage)
        };
        (this, Rest::lend(rest, rest_loans, lent_rest))
    }

    #[inline]
    fn sources<'a, 'w: 'a>((this, rest): &'a mut Self::Lendings<'w>) -> Self::Sources<'a> {
        let this = match this {
            PartLending::Whole(storage) => StorageSource::Whole(Some(&mut **storage)),
            PartLending::Lent(lending) => {
                let (storage, loans) = lending.parts();
                StorageSource::Lent {
                    storage,
                    loans: loans.iter_mut(),
                }
            }
        };
        (this, Rest::sources(rest))
    }
}

/// The part of a world whose table type is `T`, at the place `I` says (`Here`, `There<Here>`,
/// ..): inferred, never written.
#[diagnostic::on_unimplemented(
    message = "this world has no part whose tables are `{T}`",
    note = "a system's queries read the world's own components: in a multi-world game, each sub-world's query alias (`CoreQuery<Q, F>` for `Core`)"
)]
pub trait PartOf<T: TypedTable, I>: PartList {
    /// The part's place in the list: its bits' index in a [`PartBits`](super::PartBits).
    const PLACE: usize;

    /// The part's loans.
    #[doc(hidden)]
    fn loans(loans: &mut Self::Loans) -> &mut Vec<Loan<<T as Archetype>::Mask>>;

    /// The part as its queries are handed it.
    #[doc(hidden)]
    fn source<'s, 'a>(sources: &'s mut Self::Sources<'a>) -> &'s mut StorageSource<'a, T>;
}

/// The place of the list's first part.
#[doc(hidden)]
pub enum Here {}

/// The place after `I`.
#[doc(hidden)]
pub struct There<I>(I);

impl<T: TypedTable, Rest: PartList> PartOf<T, Here> for (T, Rest) {
    const PLACE: usize = 0;

    #[inline]
    fn loans(loans: &mut Self::Loans) -> &mut Vec<Loan<T::Mask>> {
        &mut loans.0
    }

    #[inline]
    fn source<'s, 'a>(sources: &'s mut Self::Sources<'a>) -> &'s mut StorageSource<'a, T> {
        &mut sources.0
    }
}

impl<T: TypedTable, H: TypedTable, Rest: PartOf<T, I>, I> PartOf<T, There<I>> for (H, Rest) {
    const PLACE: usize = 1 + Rest::PLACE;

    #[inline]
    fn loans(loans: &mut Self::Loans) -> &mut Vec<Loan<T::Mask>> {
        Rest::loans(&mut loans.1)
    }

    #[inline]
    fn source<'s, 'a>(sources: &'s mut Self::Sources<'a>) -> &'s mut StorageSource<'a, T> {
        Rest::source(&mut sources.1)
    }
}
