//! `__ecs_tags!`: the per-tag methods, in the component part's impl block, and their queued
//! forms, in the command part's (`@queue`). A tag is not a table property: adding one never
//! migrates the entity (its row moves to its tag segment inside its table); tag bits work in
//! every query mask.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_tags {
    ([ $( $(#[$attr:meta])* $tag:ident => $tag_mask:ident ),* ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Tags `entity` as `" $tag "`: no migration (tags create no tables); the row moves to its tag group inside its table, at most one row swap per tag group of that table. Already tagged: nothing moves. `false` for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<add_ $tag>](&mut self, entity: $crate::Entity) -> bool {
                    self.storage.add_tags(entity, $tag_mask)
                }

                #[doc = "Removes the `" $tag "` tag from `entity`: no migration, as for `add_" $tag "`. Not tagged: nothing moves, still `true`. `false` for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<remove_ $tag>](&mut self, entity: $crate::Entity) -> bool {
                    self.storage.remove_tags(entity, $tag_mask)
                }

                #[doc = "Whether `entity` is alive and tagged `" $tag "`, in O(log(tag groups of its table)) (a binary search for its row's tag group); `false` for a dead, stale (id reused) or never-issued handle."]
                $(#[$attr])*
                #[inline]
                pub fn [<has_ $tag>](&self, entity: $crate::Entity) -> bool {
                    self.storage.has_components(entity, $tag_mask)
                }
            )*
        }
    };
    (@queue [ $( $(#[$attr:meta])* $tag:ident => $tag_mask:ident ),* ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = "Queues tagging `entity` as `" $tag "` (O(1)), applied in order by `apply_commands`; skipped and counted there if `entity` is dead by then."]
                $(#[$attr])*
                #[inline]
                pub fn [<queue_add_ $tag>](&mut self, entity: $crate::Entity) {
                    self.queue.queue_add_components(entity, $tag_mask);
                }

                #[doc = "Queues removing the `" $tag "` tag from `entity` (O(1)), applied in order by `apply_commands`; skipped and counted there if `entity` is dead by then."]
                $(#[$attr])*
                #[inline]
                pub fn [<queue_remove_ $tag>](&mut self, entity: $crate::Entity) {
                    self.queue.queue_remove_components(entity, $tag_mask);
                }
            )*
        }
    };
}
