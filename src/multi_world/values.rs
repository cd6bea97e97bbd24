//! A game's `spawn_values`: tuples of component values whose elements may live in any of its
//! sub-worlds (`(Position, Sprite)`, one in `Core`, one in `Render`). Each element finds its
//! sub-world through [`GameColumn`] (one generic impl per sub-world, by `ecs!`: the sub-world
//! whose table type has a column of the element's type) and its column there, as a world's
//! `spawn_values` does; every value is moved into its column once, the handles are issued by
//! the game once the iterator is done, and every sub-world the tuple names nothing in gives
//! them rows with no components.

use alloc::vec::Vec;
use core::any::TypeId;

use super::MultiWorld;
use super::list::{NamedTable, SubWorldsMut};
use crate::component_values::swap_column;
use crate::entity::Entity;
use crate::storage::Storage;
use crate::typed_query::{ComponentColumn, TypedTable};

/// The sub-world of a game that holds the component of type `C` (implemented by `ecs!` once
/// per sub-world, for every component of it; `M` is `(the sub-world, its column's marker)`,
/// inferred, never written).
pub trait GameColumn<C: 'static, M>: MultiWorld {
    /// The sub-world's table type.
    type Tables: TypedTable + ComponentColumn<C, Self::Marker>;
    /// The marker of the component's column in the sub-world.
    type Marker;

    /// The sub-world's storage.
    fn sub_world(game: &mut Self) -> &mut Storage<Self::Tables>;
}

/// A tuple of component values of a game's sub-worlds, one entity's: what a game's
/// `spawn_values` takes from an iterator (tuples of one to twelve components, each named by a
/// type only it has in the game).
pub trait GameValues<G: MultiWorld, M>: Sized {
    /// Each element's sub-world (its table type) and component bit, in the tuple's order.
    #[doc(hidden)]
    fn elements() -> Vec<(TypeId, u128)>;

    /// The tuple's columns, `(Vec<A>, Vec<B>, ..)`, while a batch fills them.
    #[doc(hidden)]
    type Columns: Default;

    /// Exchanges each of `columns` with its column in its sub-world's table `tables[i]`.
    #[doc(hidden)]
    fn swap_columns(game: &mut G, tables: &[usize], columns: &mut Self::Columns);

    /// Makes room for `additional` more values in each column.
    #[doc(hidden)]
    fn reserve(columns: &mut Self::Columns, additional: usize);

    /// Moves each value onto the end of its column.
    #[doc(hidden)]
    fn push(self, columns: &mut Self::Columns);

    /// Cuts each column `i` back to `rows[i]` values.
    #[doc(hidden)]
    fn truncate(columns: &mut Self::Columns, rows: &[usize]);
}

/// `GameValues` for a tuple of components, markers in a tuple of the same shape.
macro_rules! tuple_game_values {
    ($( ($element:ident, $marker:ident, $index:tt) ),+) => {
        impl<Game: MultiWorld, $($element: 'static, $marker),+> GameValues<Game, ($($marker,)+)> for ($($element,)+)
        where
            $(Game: GameColumn<$element, $marker>,)+
        {
            #[inline]
            fn elements() -> Vec<(TypeId, u128)> {
                alloc::vec![$((
                    TypeId::of::<<Game as GameColumn<$element, $marker>>::Tables>(),
                    <<Game as GameColumn<$element, $marker>>::Tables as ComponentColumn<
                        $element,
                        <Game as GameColumn<$element, $marker>>::Marker,
                    >>::BIT,
                )),+]
            }

            type Columns = ($(Vec<$element>,)+);

            #[inline]
            fn swap_columns(game: &mut Game, tables: &[usize], columns: &mut Self::Columns) {
                $(
                    let storage = <Game as GameColumn<$element, $marker>>::sub_world(game);
                    swap_column::<_, $element, <Game as GameColumn<$element, $marker>>::Marker>(
                        storage.table_at_mut(tables[$index]),
                        &mut columns.$index,
                    );
                )+
            }

            #[inline]
            fn reserve(columns: &mut Self::Columns, additional: usize) {
                $(columns.$index.reserve(additional);)+
            }

            #[inline(always)]
            fn push(self, columns: &mut Self::Columns) {
                $(columns.$index.push(self.$index);)+
            }

            #[inline]
            fn truncate(columns: &mut Self::Columns, rows: &[usize]) {
                $(columns.$index.truncate(rows[$index]);)+
            }
        }
    };
}

/// [`tuple_game_values!`] for every prefix of the list.
macro_rules! tuples_game_values {
    ([$($done:tt)*]) => {};
    ([$($done:tt)*] $next:tt $($rest:tt)*) => {
        tuple_game_values!($($done,)* $next);
        tuples_game_values!([$($done)* $next] $($rest)*);
    };
}

tuples_game_values! {
    []
    (A, MA, 0)
    (B, MB, 1)
    (C, MC, 2)
    (D, MD, 3)
    (E, ME, 4)
    (F, MF, 5)
    (G, MG, 6)
    (H, MH, 7)
    (I, MI, 8)
    (J, MJ, 9)
    (K, MK, 10)
    (L, ML, 11)
}

/// The tuple's columns taken out of their sub-worlds' tables, put back when dropped (cut back
/// to the rows the tables had unless committed): [`BatchColumns`](crate::component_values)
/// over a game.
struct GameBatch<'g, G: MultiWorld, V: GameValues<G, M>, M> {
    game: &'g mut G,
    /// The tables the batch pushes to, one per sub-world it names: cut back too, unless
    /// committed (the defaults of what the tuple's components require).
    named: &'g [NamedTable],
    tables: Vec<usize>,
    rows: Vec<usize>,
    columns: V::Columns,
    committed: bool,
}

impl<G: MultiWorld, V: GameValues<G, M>, M> Drop for GameBatch<'_, G, V, M> {
    fn drop(&mut self) {
        if !self.committed {
            V::truncate(&mut self.columns, &self.rows);
            self.game.parts_mut().0.cut_back_required(self.named);
        }
        V::swap_columns(&mut *self.game, &self.tables, &mut self.columns);
    }
}

/// Spawns one entity per tuple `values` yields, each value moved into its column in its
/// sub-world once, the rest of the game's sub-worlds given rows with no components: a game's
/// `spawn_values`. An iterator that panics leaves every sub-world as it was (no handle
/// issued, the values yielded dropped).
///
/// # Panics
/// If the tuple names a component twice, or two members of one exclusive group of a
/// sub-world's rules, before anything changes.
pub fn spawn_values<G, V, M>(game: &mut G, values: impl IntoIterator<Item = V>) -> Vec<Entity>
where
    G: MultiWorld,
    V: GameValues<G, M>,
{
    let elements = V::elements();
    let mut named: Vec<NamedTable> = Vec::new();
    for (i, &(sub_world, bit)) in elements.iter().enumerate() {
        assert!(
            !elements[..i].contains(&(sub_world, bit)),
            "archetypal: `spawn_values` was given a tuple naming one component twice"
        );
        match named.iter_mut().find(|table| table.sub_world == sub_world) {
            Some(table) => table.asked |= bit,
            None => named.push(NamedTable {
                sub_world,
                asked: bit,
                mask: bit,
                table: 0,
                first_row: 0,
            }),
        }
    }
    {
        let (mut sub_worlds, _) = game.parts_mut();
        for table in &mut named {
            (table.table, table.first_row, table.mask) =
                sub_worlds.value_table(table.sub_world, table.asked);
        }
    }
    let table_of = |sub_world: TypeId| {
        named
            .iter()
            .find(|table| table.sub_world == sub_world)
            .map_or((0, 0), |table| (table.table, table.first_row))
    };
    let (tables, rows) = elements
        .iter()
        .map(|&(sub_world, _)| table_of(sub_world))
        .unzip();
    let values = values.into_iter();
    let mut batch = GameBatch::<G, V, M> {
        game: &mut *game,
        named: &named,
        tables,
        rows,
        columns: V::Columns::default(),
        committed: false,
    };
    V::swap_columns(batch.game, &batch.tables, &mut batch.columns);
    V::reserve(&mut batch.columns, values.size_hint().0);
    let mut count = 0;
    for value in values {
        value.push(&mut batch.columns);
        count += 1;
    }
    let entities = {
        let (mut sub_worlds, own) = batch.game.parts_mut();
        // What the tuple's components require, by the sub-worlds' rules, default-initialised
        // and the handles issued while the batch can still be cut back: a `Default` that
        // panics, or running out of ids, spawns nothing.
        sub_worlds.push_required(batch.named, count);
        own.index.allocate_many(count, &mut sub_worlds)
    };
    batch.committed = true;
    drop(batch);
    let (mut sub_worlds, _) = game.parts_mut();
    sub_worlds.settle_values(&entities, &named);
    entities
}
