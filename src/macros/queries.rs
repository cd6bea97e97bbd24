//! `__ecs_queries!`: entity queries, the `for_each` family, the query builders and the
//! per-component column iterators, and `par_for_each_mut` with the `parallel` feature. Matching
//! tables come from the query cache.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_queries {
    // On the world and on its component part alike, as the accessors (a call on the world
    // keeps two-phase borrows: `world.mark_changed(world.query_first_entity(A)?, A)`).
    ($world:ident $components:tt) => {
        $crate::__private::paste::paste! {
            $crate::__ecs_queries! { @impl ($world) $world $components }
            $crate::__ecs_queries! { @impl ([<$world Components>]) $world $components }
        }
        $crate::__ecs_queries! { @columns $world $components }
        $crate::__ecs_typed_queries! { $world $components }
    };
    // The per-component column iterators: the component part's call the generic storage
    // (each returns a named iterator type, which costs the compiler less per method than an
    // `impl Iterator`); the world's forward to them through the field, as the accessors do.
    (@columns $world:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident ),+ ]) => {
        $crate::__private::paste::paste! {
            impl $world {
                $(
                    #[doc = "Every `" $field "` in the world, table by table: O(tables) at most (the tables holding it, when cached) plus their rows."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<query_ $field>](&self) -> $crate::ColumnValues<'_, [<$world ComponentArrays>], $ty> {
                        self.components.[<query_ $field>]()
                    }

                    #[doc = "The `" $field "` column of every table that has one, as slices: O(tables) at most (the tables holding it, when cached)."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<iter_ $field _slices>](&self) -> $crate::ColumnSlices<'_, [<$world ComponentArrays>], $ty> {
                        self.components.[<iter_ $field _slices>]()
                    }

                    #[doc = "The `" $field "` column of every table that has one, as mutable slices (every row handed out is stamped as changed, in O(1) per table): O(tables holding it), caching them on first use."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<iter_ $field _slices_mut>](&mut self) -> $crate::ColumnSlicesMut<'_, [<$world ComponentArrays>], $ty> {
                        self.components.[<iter_ $field _slices_mut>]()
                    }
                )+
            }

            impl [<$world Components>] {
                $(
                    #[doc = "Every `" $field "` in the world, table by table: O(tables) at most (the tables holding it, when cached) plus their rows."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<query_ $field>](&self) -> $crate::ColumnValues<'_, [<$world ComponentArrays>], $ty> {
                        self.storage.column_values($mask, [<__ $world ColumnRef>]::$field)
                    }

                    #[doc = "The `" $field "` column of every table that has one, as slices: O(tables) at most (the tables holding it, when cached)."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<iter_ $field _slices>](&self) -> $crate::ColumnSlices<'_, [<$world ComponentArrays>], $ty> {
                        self.storage.column_slices($mask, [<__ $world ColumnRef>]::$field)
                    }

                    #[doc = "The `" $field "` column of every table that has one, as mutable slices (every row handed out is stamped as changed, in O(1) per table): O(tables holding it), caching them on first use."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<iter_ $field _slices_mut>](&mut self) -> $crate::ColumnSlicesMut<'_, [<$world ComponentArrays>], $ty> {
                        self.storage.column_slices_mut($mask, [<__ $world ColumnMut>]::$field)
                    }
                )+
            }
        }
    };
    (@impl ($target:ty) $world:ident $components:tt) => {
        $crate::__private::paste::paste! {
            impl $target {
                /// Caches the tables matching `include`, so `&self` queries on it (which
                /// cannot fill the cache) skip the other tables. O(tables) the first time for
                /// a mask, then nothing; the cache stays right as tables are created.
                #[inline]
                pub fn warm_query(&mut self, include: [<$world Mask>]) {
                    self.storage.warm_query(include);
                }

                /// Every entity that has all components of `mask`: O(matching tables) plus
                /// their rows when `mask` is cached (queried mutably before, or `warm_query`),
                /// else a scan of every table's mask first.
                #[inline]
                pub fn query_entities(&self, mask: [<$world Mask>]) -> impl ::core::iter::Iterator<Item = $crate::Entity> + '_ {
                    self.storage.query_entities(mask)
                }

                /// The first entity that has all components of `mask`, in table order; stops at
                /// the first non-empty matching table.
                #[inline]
                pub fn query_first_entity(&self, mask: [<$world Mask>]) -> ::core::option::Option<$crate::Entity> {
                    self.storage.query_first_entity(mask)
                }

                /// Calls `f(entity, table, index)` for every entity with all components of
                /// `include` and none of `exclude`: O(matching tables) plus their rows when
                /// `include` is cached, else a scan of every table's mask first (`&self` cannot
                /// fill the query cache: see `warm_query`).
                #[inline]
                pub fn for_each<F>(&self, include: [<$world Mask>], exclude: [<$world Mask>], f: F)
                where
                    F: ::core::ops::FnMut($crate::Entity, &[<$world ComponentArrays>], usize),
                {
                    self.storage.for_each(include, exclude, f);
                }

                /// Calls `f(entity, table, index)` for every entity with all components of
                /// `include` and none of `exclude`; `table` is a slice view of its table
                /// (`table.position[index].x += 1.0`). The view can write any column, so every
                /// tracked component of the tables visited is reported changed (in O(1) per
                /// table). O(matching tables) plus their rows; the first query of a mask
                /// caches its tables (O(tables), once).
                // Inlined into the caller (it is instantiated per closure anyway): the masks
                // are constants there, so the view's columns the closure never reads are never
                // built, which is most of the cost per table in a world of many small tables.
                #[inline(always)]
                pub fn for_each_mut<F>(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], f: F)
                where
                    F: ::core::ops::FnMut($crate::Entity, &mut [<$world ComponentArraysMut>]<'_>, usize),
                {
                    self.storage.for_each_mut(include, exclude, f);
                }

                /// Calls `f(table)` once per non-empty table matching `include` / `exclude`:
                /// the fastest loop (`table.position.iter_mut().zip(table.velocity.iter())`).
                /// Every tracked component of the rows handed out is reported changed.
                /// O(matching tables), plus what `f` does; the first query of a mask caches its
                /// tables (O(tables), once).
                // Inlined into the caller, as `for_each_mut` is.
                #[inline(always)]
                pub fn for_each_table_mut<F>(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], f: F)
                where
                    F: ::core::ops::FnMut(&mut [<$world ComponentArraysMut>]<'_>),
                {
                    self.storage.for_each_table_mut(include, exclude, f);
                }

                /// `for_each_mut` over the entities one of whose tracked `include` components
                /// changed since the last `step()` (written at a tick newer than `last_tick()`).
                /// A table none of whose `include` columns changed is skipped without looking
                /// at its rows: O(matching tables) plus the rows of the tables written to.
                #[inline]
                pub fn for_each_mut_changed<F>(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], f: F)
                where
                    F: ::core::ops::FnMut($crate::Entity, &mut [<$world ComponentArraysMut>]<'_>, usize),
                {
                    let since = self.storage.last_tick();
                    self.storage.for_each_mut_changed_since(include, exclude, since, f);
                }

                /// `for_each_mut` over the entities one of whose tracked `include` components
                /// was written at a tick newer than `since` (a consumer's own cursor: record
                /// `current_tick()` when reading, then `increment_tick()`). Untouched tables
                /// are skipped as in `for_each_mut_changed`.
                #[inline]
                pub fn for_each_mut_changed_since<F>(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], since: $crate::Tick, f: F)
                where
                    F: ::core::ops::FnMut($crate::Entity, &mut [<$world ComponentArraysMut>]<'_>, usize),
                {
                    self.storage.for_each_mut_changed_since(include, exclude, since, f);
                }

                /// The entities with every component and tag of `mask`, one of whose tracked
                /// components of `mask` changed since the last `step()` (written at a tick
                /// newer than `last_tick()`): a health bar redraws these. O(tables) plus the
                /// rows of the tables whose `mask` columns were written to (the others are
                /// skipped without looking at their rows).
                #[inline]
                pub fn query_entities_changed(&self, mask: [<$world Mask>]) -> impl ::core::iter::Iterator<Item = $crate::Entity> + '_ {
                    self.storage.query_entities_changed_since(mask, self.storage.last_tick())
                }

                /// The entities with every component and tag of `mask`, one of whose tracked
                /// components of `mask` was written at a tick newer than `since`; costs as
                /// `query_entities_changed`.
                #[inline]
                pub fn query_entities_changed_since(&self, mask: [<$world Mask>], since: $crate::Tick) -> impl ::core::iter::Iterator<Item = $crate::Entity> + '_ {
                    self.storage.query_entities_changed_since(mask, since)
                }

                /// Stamps the tracked components of `mask` of `entity` as changed now (a
                /// change the world cannot see by itself), in O(1). `false` for a dead, stale
                /// (id reused) or never-issued handle.
                #[inline]
                pub fn mark_changed(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) -> bool {
                    self.storage.mark_changed(entity, mask)
                }

                /// Marks the tracked `columns` of every table matching `include` / `exclude`
                /// as changed now, in constant time per table: for writes through raw slices.
                #[inline]
                pub fn mark_columns_changed(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], columns: [<$world Mask>]) {
                    self.storage.mark_columns_changed(include, exclude, columns);
                }

                /// A read-only query builder: `world.query().with(A).without(B).iter(...)`;
                /// costs as `for_each`.
                #[inline]
                pub fn query(&self) -> $crate::Query<'_, [<$world ComponentArrays>]> {
                    $crate::Query::new(&self.storage)
                }

                /// A mutable query builder: `world.query_mut().with(A).without(B).iter(...)`;
                /// costs as `for_each_mut`.
                #[inline]
                pub fn query_mut(&mut self) -> $crate::QueryMut<'_, [<$world ComponentArrays>]> {
                    $crate::QueryMut::new(&mut self.storage)
                }

            }

            $crate::__ecs_if_parallel! {
                impl $target {
                    /// Parallel `for_each_mut` (feature `parallel`): the same closure contract,
                    /// run by rayon over tables and chunks of rows. Callable when every
                    /// component type is `Send`. O(matching tables) plus their rows, shared
                    /// among rayon's threads.
                    #[inline]
                    pub fn par_for_each_mut<F>(&mut self, include: [<$world Mask>], exclude: [<$world Mask>], f: F)
                    where
                        F: ::core::ops::Fn($crate::Entity, &mut [<$world ComponentArraysMut>]<'_>, usize) + ::core::marker::Sync + ::core::marker::Send,
                        for<'a> [<$world ComponentArrays>]: ::core::marker::Send,
                        for<'a> [<$world ComponentArraysMut>]<'a>: ::core::marker::Send,
                    {
                        self.storage.par_for_each_mut(include, exclude, f);
                    }
                }
            }
        }
    };
}

/// Emits its input only when archetypal is built with the `parallel` feature (a `#[cfg]` in
/// generated code would test the feature of the user's crate instead).
#[cfg(feature = "parallel")]
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_if_parallel {
    ($($items:tt)*) => { $($items)* };
}

/// See the `parallel` version above.
#[cfg(not(feature = "parallel"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_if_parallel {
    ($($items:tt)*) => {};
}
