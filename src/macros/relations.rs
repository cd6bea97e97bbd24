//! `__ecs_relations!`: the per-relation methods (`set_child_of`, `get_children`, ...), in the
//! component part's impl block, their queued forms in the command part's (`@queue`) and the
//! read side of `split_tables`'s getters (`@tables`).
//! Everything they do is the generic runtime's (`Storage::link` and friends, over
//! `archetypal::RelationStore`); only the names and the relation's bit are generated.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_relations {
    // The methods, in the component part's impl block.
    ($world:ident [ $( $(#[$attr:meta])* $relation:ident / $reverse:ident => $mask:ident [$($policy:tt)*] ),* ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Links `source` to `target` in the `" $relation "` relation, replacing and returning its previous target. No migration: `source` gets the `" $mask "` bit like a tag (its row moves to its tag group inside its table). Cost: O(1) for a `source` with no sources of its own (a leaf: no cycle possible), else O(depth of `target`) for the cycle check; replacing a target also removes `source` from the old target's list (O(its length)). An error changes nothing: a dead, stale, never-issued or reserved handle, `source == target`, or a `target` below `source` (a cycle)."]
                $(#[$attr])*
                #[inline]
                pub fn [<set_ $relation>](&mut self, source: $crate::Entity, target: $crate::Entity) -> ::core::result::Result<::core::option::Option<$crate::Entity>, $crate::RelationError> {
                    self.storage.link($mask, source, target)
                }

                #[doc = "Unlinks `source` from its `" $relation "` target and returns it (no migration); O(the target's sources), which keep their order. `None`, and nothing changes, for a dead, stale (id reused) or never-issued handle or an unlinked `source`."]
                $(#[$attr])*
                #[inline]
                pub fn [<remove_ $relation>](&mut self, source: $crate::Entity) -> ::core::option::Option<$crate::Entity> {
                    self.storage.unlink($mask, source)
                }

                #[doc = "The `" $relation "` target of `source`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an unlinked `source`."]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $relation>](&self, source: $crate::Entity) -> ::core::option::Option<$crate::Entity> {
                    self.storage.related_target($mask, source)
                }

                #[doc = "The entities whose `" $relation "` target is `target` (its `" $reverse "`), in the order they were linked, in O(1); empty for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $reverse>](&self, target: $crate::Entity) -> &[$crate::Entity] {
                    self.storage.related_sources($mask, target)
                }

                #[doc = "The `" $relation "` ancestors of `entity`, nearest first, `entity` excluded: O(1) per step, lazily; none for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<ancestors_ $relation>](&self, entity: $crate::Entity) -> $crate::relation::Ancestors<'_> {
                    self.storage.ancestors($mask, entity)
                }

                #[doc = "The `" $relation "` descendants of `entity`, depth first in pre-order, each level in `get_" $reverse "` order, `entity` excluded: O(1) per entity, lazily; none for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<descendants_ $relation>](&self, entity: $crate::Entity) -> $crate::relation::Descendants<'_> {
                    self.storage.descendants($mask, entity)
                }

                #[doc = "The `" $relation "` links, read-only (`roots()`, `descendants(e)`, `target(e)`, `sources(e)`), beside every entity's components by handle, mutably: a walk down the hierarchy writes each entity while it reads its parent (transform propagation), with no list collected first. O(1) to lend; the rows are read by handle in O(1) each."]
                $(#[$attr])*
                #[inline]
                pub fn [<split_ $relation>](&mut self) -> (&$crate::RelationStore, [<$world RowsMut>]<'_>) {
                    let (links, rows) = self.storage.split_relation($mask);
                    (links, [<$world RowsMut>] { rows })
                }
            )*
        }
    };
    // The queued forms, in the command part's impl block.
    (@queue [ $( $(#[$attr:meta])* $relation:ident / $reverse:ident => $mask:ident [$($policy:tt)*] ),* ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Queues `set_" $relation "(source, target)`, applied in order by `apply_commands` (handles from `queue_spawn_entities` work); O(1) to queue; skipped and counted if a handle died (or was never alive) or the link became a cycle."]
                $(#[$attr])*
                #[inline]
                pub fn [<queue_set_ $relation>](&mut self, source: $crate::Entity, target: $crate::Entity) {
                    self.queue.queue_link($mask, source, target);
                }

                #[doc = "Queues `remove_" $relation "(source)`, applied in order by `apply_commands`; O(1) to queue; skipped and counted if `source` died (or was never alive)."]
                $(#[$attr])*
                #[inline]
                pub fn [<queue_remove_ $relation>](&mut self, source: $crate::Entity) {
                    self.queue.queue_unlink($mask, source);
                }
            )*
        }
    };
    // The getters of the read side of `split_tables`, in its impl block.
    (@tables [ $( $(#[$attr:meta])* $relation:ident / $reverse:ident => $mask:ident [$($policy:tt)*] ),* ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "The `" $relation "` target of `source`, which may be on either side of the split, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an unlinked `source`. A child being written reads its parent: `tables.get_" $relation "(child).and_then(|parent| tables.get_<c>(parent))`."]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $relation>](&self, source: $crate::Entity) -> ::core::option::Option<$crate::Entity> {
                    self.tables.target($mask, source)
                }

                #[doc = "The entities whose `" $relation "` target is `target` (its `" $reverse "`), on either side of the split, in link order, in O(1); empty for a dead, stale (id reused) or never-issued handle. A parent being written reads its children."]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $reverse>](&self, target: $crate::Entity) -> &'a [$crate::Entity] {
                    self.tables.sources($mask, target)
                }
            )*
        }
    };
}

/// `<World>RowsMut`, what `split_child_of()` lends beside the links: every component by handle,
/// typed (`@types`, and its impl block). Generated only for a world with relations.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_relation_rows {
    (@types $world:ident []) => {};
    (@types $world:ident $relations:tt) => {
        $crate::__private::paste::paste! {
            #[doc = "Every `" $world "` entity's components by handle, read and written in place (no spawn, despawn or migration): lent by `split_<relation>()` beside the relation's links. Writes are stamped for change detection."]
            pub struct [<$world RowsMut>]<'a> {
                rows: $crate::RowsMut<'a, [<$world ComponentArrays>]>,
            }
        }
    };
    ($world:ident $part:ident $components:tt []) => {};
    ($world:ident $part:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ] $relations:tt) => {
        $crate::__private::paste::paste! {
            impl [<$world RowsMut>]<'_> {
                /// Whether `entity` is alive, in O(1) (a stale or never-issued handle is not).
                #[inline]
                pub fn contains(&self, entity: $crate::Entity) -> bool {
                    self.rows.contains(entity)
                }

                $(
                    #[doc = "The `" $field "` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<get_ $field>](&self, entity: $crate::Entity) -> ::core::option::Option<&$ty> {
                        self.rows.get(entity, $mask, $part::[<__ref_ $field>])
                    }

                    #[doc = "The `" $field "` of `entity`, mutably (stamped as changed), in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without one."]
                    $(#[$attr])*
                    #[inline]
                    pub fn [<get_ $field _mut>](&mut self, entity: $crate::Entity) -> ::core::option::Option<&mut $ty> {
                        self.rows.get_mut(entity, $mask, $part::[<__mut_ $field>])
                    }
                )+
            }
        }
    };
}

/// A relation's mask if its policy is `[cascade]`, else 0 (the default, no policy, unlinks); an
/// unknown policy is reported here, its one use (the tables' `CASCADE` constant).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_relation_policy {
    ($relation:ident $mask:ident) => {
        0
    };
    ($relation:ident $mask:ident cascade) => {
        $mask
    };
    ($relation:ident $mask:ident $($policy:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown policy `",
            ::core::stringify!($($policy)*),
            "` for the relation `",
            ::core::stringify!($relation),
            "`; the only policy is `[cascade]` (without it, despawning a target unlinks its sources)"
        ))
    };
}
