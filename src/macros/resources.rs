//! `__ecs_resources!`: the world's singletons, `world.resources.<name>`.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_resources {
    ($world:ident none) => {
        $crate::__ecs_resources! { $world {} }
    };
    ($world:ident { $( $(#[$attr:meta])* $name:ident : $ty:ty ),* $(,)? }) => {
        $crate::__private::paste::paste! {
            #[doc = "The singletons of `" $world "`, declared in its `Resources` block."]
            #[derive(::core::default::Default)]
            pub struct [<$world Resources>] {
                $(
                    #[doc = "The `" $name "` resource."]
                    $(#[$attr])*
                    pub $name: $ty,
                )*
            }
        }
    };
    ($world:ident { $($input:tt)* }) => {
        ::core::compile_error!(
            "ecs!: malformed `Resources` block; write each resource as `name: Type`, separated by commas"
        );
        // An empty stand-in, so the world still type-checks and the message above is the only one.
        $crate::__ecs_resources! { $world {} }
    };
}
