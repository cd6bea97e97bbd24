//! `__ecs_accessors!`: the typed per-component methods (get, get_mut, get_disjoint_mut, set,
//! add, remove, has), in the component part's impl block (the world reaches them through
//! `Deref`). Each is one call into the generic storage with the component's bit and the
//! function picking its column (`Self::__ref_<field>` / `Self::__mut_<field>`, among the helpers,
//! shared by every method of the component). The form (`world` or `sub_world`) picks the docs'
//! words for whose `Rules` block applies.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_accessors {
    ($form:ident [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]) => {
        $crate::__private::paste::paste! {
            $(
                #[doc = $crate::__ecs_accessor_doc!(get $field)]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $field>](&self, entity: $crate::Entity) -> ::core::option::Option<&$ty> {
                    self.storage.get(entity, $mask, Self::[<__ref_ $field>])
                }

                #[doc = $crate::__ecs_accessor_doc!(get_mut $field)]
                $(#[$attr])*
                #[inline]
                pub fn [<get_ $field _mut>](&mut self, entity: $crate::Entity) -> ::core::option::Option<&mut $ty> {
                    self.storage.get_mut(entity, $mask, Self::[<__mut_ $field>])
                }

                #[doc = $crate::__ecs_accessor_doc!(get_disjoint_mut $field)]
                $(#[$attr])*
                #[inline]
                pub fn [<get_disjoint_ $field _mut>]<const __N: usize>(
                    &mut self,
                    entities: [$crate::Entity; __N],
                ) -> ::core::option::Option<[&mut $ty; __N]> {
                    self.storage.get_disjoint_mut(entities, $mask, Self::[<__mut_ $field>])
                }

                #[doc = $crate::__ecs_accessor_doc!(set $field $form)]
                $(#[$attr])*
                #[inline]
                pub fn [<set_ $field>](&mut self, entity: $crate::Entity, value: $ty) -> bool {
                    self.storage.set(entity, $mask, value, Self::[<__mut_ $field>])
                }

                #[doc = $crate::__ecs_accessor_doc!(add $field $form)]
                $(#[$attr])*
                #[inline]
                pub fn [<add_ $field>](&mut self, entity: $crate::Entity) -> bool {
                    self.storage.add_components(entity, $mask)
                }

                #[doc = $crate::__ecs_accessor_doc!(remove $field $form)]
                $(#[$attr])*
                #[inline]
                pub fn [<remove_ $field>](&mut self, entity: $crate::Entity) -> ::core::option::Option<$ty> {
                    self.storage.take(entity, $mask, Self::[<__mut_ $field>])
                }

                #[doc = $crate::__ecs_accessor_doc!(has $field)]
                $(#[$attr])*
                #[inline]
                pub fn [<has_ $field>](&self, entity: $crate::Entity) -> bool {
                    self.storage.has_components(entity, $mask)
                }
            )+
        }
    };
}

/// The doc comment of each per-component accessor (kept apart so the methods read as code).
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_accessor_doc {
    (get $field:ident) => {
        ::core::concat!("The `", ::core::stringify!($field), "` of `entity`, in O(1); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `", ::core::stringify!($field), "`.")
    };
    (get_mut $field:ident) => {
        ::core::concat!("The `", ::core::stringify!($field), "` of `entity`, mutably, in O(1) (stamped as changed); `None` for a dead, stale (id reused) or never-issued handle or an entity without a `", ::core::stringify!($field), "`.")
    };
    (get_disjoint_mut $field:ident) => {
        ::core::concat!("The `", ::core::stringify!($field), "` of each of `entities` at once, mutably (collision response between two ships), after the standard library's `get_disjoint_mut`, in O(1) per handle (O(N²) comparisons for the repeats); `None` if a handle is dead, stale or never issued, lacks a `", ::core::stringify!($field), "`, or is repeated. Each is stamped as changed.")
    };
    (set $field:ident $form:ident) => {
        ::core::concat!("Writes the `", ::core::stringify!($field), "` of `entity`: O(1) when it has one; otherwise the component is added first, one migration (the row moves to the table with `", ::core::stringify!($field), "`: O(the entity's components))", $crate::__ecs_accessor_doc!(@adds $form), ". `false`, and nothing written, for a dead, stale (id reused) or never-issued handle", $crate::__ecs_accessor_doc!(@refused change $form), ".")
    };
    (add $field:ident $form:ident) => {
        ::core::concat!("Adds a default `", ::core::stringify!($field), "` to `entity`: one migration (the row moves to the table with `", ::core::stringify!($field), "`: O(the entity's components))", $crate::__ecs_accessor_doc!(@adds $form), "; if it has one already, its value is kept and nothing moves. `false` for a dead, stale (id reused) or never-issued handle", $crate::__ecs_accessor_doc!(@refused change $form), ".")
    };
    (remove $field:ident $form:ident) => {
        ::core::concat!("Removes the `", ::core::stringify!($field), "` of `entity` and returns it: one migration (the row moves to the table without it: O(the entity's components))", $crate::__ecs_accessor_doc!(@removes $form), ". `None`, and nothing moves, for a dead, stale (id reused) or never-issued handle, an entity without a `", ::core::stringify!($field), "`", $crate::__ecs_accessor_doc!(@refused removal $form), ".")
    };
    // The world's rules (its `Rules` block), or the sub-world's.
    (@adds world) => { ", with what the world's `Rules` add or remove in it" };
    (@removes world) => { ", with the components the world's `Rules` remove with it" };
    (@adds sub_world) => { ", with what the sub-world's `Rules` add or remove in it" };
    (@removes sub_world) => { ", with the components the sub-world's `Rules` remove with it" };
    (@refused $what:ident $form:ident) => { ::core::concat!(", or a ", ::core::stringify!($what), " the rules refuse") };
    (has $field:ident) => {
        ::core::concat!("Whether `entity` is alive and has a `", ::core::stringify!($field), "`, in O(1); `false` for a dead, stale (id reused) or never-issued handle.")
    };
}
