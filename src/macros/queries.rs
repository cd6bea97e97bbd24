//! `__ecs_queries!`: entity queries, the `for_each` family and `par_for_each_mut` with the
//! `parallel` feature, on the component part. Matching tables come from the query cache.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_queries {
    ($world:ident $components:tt) => {
        $crate::__private::paste::paste! {
            impl [<$world Components>] {
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

                /// Stamps the tracked components of `mask` of `entity` as changed now (a
                /// change the world cannot see by itself), in O(1). `false` for a dead, stale
                /// (id reused) or never-issued handle.
                #[inline]
                pub fn mark_changed(&mut self, entity: $crate::Entity, mask: [<$world Mask>]) -> bool {
                    self.storage.mark_changed(entity, mask)
                }
            }

            $crate::__ecs_if_parallel! {
                impl [<$world Components>] {
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
        $crate::__ecs_typed_queries! { $world $components }
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
