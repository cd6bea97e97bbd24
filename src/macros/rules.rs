//! `__ecs_rules!`: the `Rules` block, a world's or a sub-world's. Its tables get the constant of its required
//! components and exclusive groups (`@set`, inside the `Archetype` impl), built from the rules
//! by name and closed at compile time by the `const fn`s of `rules.rs` (a cycle, an unknown
//! name, a contradiction: a compile error in ecs!'s words), and forced to be evaluated
//! (`@check`) whether or not the program reaches a structural change. A world without rules
//! gets none of it: the tables' default, `Rules::NONE`, folds every rule path away.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_rules {
    // A sub-world's rules (`(sub_world [..])`) name its components only: its messages say so.
    (@set $world:ident $mask_ty:ty [ $($components:tt)* ] (sub_world $rules:tt)) => {
        $crate::__ecs_rules! { @set_by sub_world $world $mask_ty [ $($components)* ] $rules }
    };
    (@set $world:ident $mask_ty:ty [ $($components:tt)* ] $rules:tt) => {
        $crate::__ecs_rules! { @set_by new $world $mask_ty [ $($components)* ] $rules }
    };
    (@set_by $new:ident $world:ident $mask_ty:ty [ $($components:tt)* ] []) => {};
    (
        @set_by $new:ident $world:ident $mask_ty:ty
        [ $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:ident)*] ),+ ]
        [ $( { $($rule:tt)* } )+ ]
    ) => {
        const RULES: $crate::Rules<$mask_ty> = {
            // The components' mask constants in bit order (a `#[cfg]` removes its name too).
            let rules = $crate::Rules::<$mask_ty>::$new(
                ::core::stringify!($world),
                &[ $( $(#[$attr])* ::core::stringify!($mask) ),+ ],
            );
            $( let rules = $crate::__ecs_rules! { @rule rules $($rule)* }; )+
            rules.closed()
        };
    };
    (@check $world:ident []) => {};
    (@check $world:ident [ $($rules:tt)+ ]) => {
        $crate::__private::paste::paste! {
            const _: $crate::Rules<[<$world Mask>]> = <[<$world ComponentArrays>] as $crate::Archetype>::RULES;
        }
    };
    (@rule $rules:ident [] $requirer:ident requires $required:ident) => {
        $rules.requires(::core::stringify!($requirer), ::core::stringify!($required), false)
    };
    (@rule $rules:ident [refuse] $requirer:ident requires $required:ident) => {
        $rules.requires(::core::stringify!($requirer), ::core::stringify!($required), true)
    };
    (@rule $rules:ident [$($policy:tt)*] $requirer:ident requires $required:ident) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown policy `",
            ::core::stringify!($($policy)*),
            "` for `",
            ::core::stringify!($requirer requires $required),
            "`; the only one is `[refuse]` (refuse removing `",
            ::core::stringify!($required),
            "` while `",
            ::core::stringify!($requirer),
            "` stays; by default removing it removes `",
            ::core::stringify!($requirer),
            "` too)"
        ))
    };
    (@rule $rules:ident [] exclusive ( $($member:ident),+ )) => {
        $rules.exclusive(&[ $( ::core::stringify!($member) ),+ ])
    };
    (@rule $rules:ident [$($policy:tt)*] $($rule:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown rule `",
            ::core::stringify!($($rule)*),
            "`; a rule is `VELOCITY requires POSITION` (optionally followed by `[refuse]`) or `exclusive(IDLE, MOVING, ATTACKING)`"
        ))
    };
}
