//! `__ecs_resources!`: the world's singletons, `world.resources.<name>`.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_resources {
    ($world:ident [ $( $(#[$attr:meta])* $name:ident : $ty:ty ),* ]) => {
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
}
