//! `__ecs_hooks!`: the `Hooks` block. A world's tables get the constant set of changes the
//! hooks wait for (`@set`, inside the `Archetype` impl), its `apply_commands` runs them
//! (`@apply_commands`), and the world gets `run_hooks`, which calls each hook declared for a
//! waiting change, in declaration order, with the world split apart as a system gets it.
//! A world without a `Hooks` block gets none of it.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_hooks {
    // `Archetype::HOOKS`: the bits and kinds of change some hook is declared on. Only the
    // forms `@fire` knows reach a builder; the others are reported there, once.
    (@set { $( $event:ident $( ( $mask:ident ) )? => $hook:path ),* $(,)? }) => {
        const HOOKS: $crate::HookSet<Self::Mask> = {
            let hooks = $crate::HookSet::<Self::Mask>::new(Self::COMPONENTS | Self::TAGS, Self::RELATIONS);
            $( let hooks = $crate::__ecs_hooks!(@declare hooks $event $( ( $mask ) )?); )*
            hooks
        };
    };
    (@set $($no_hooks_or_malformed:tt)*) => {};
    (@declare $hooks:ident on_spawn) => { $hooks.on_spawn() };
    (@declare $hooks:ident on_despawn) => { $hooks.on_despawn() };
    (@declare $hooks:ident on_add ($mask:ident)) => { $hooks.on_add($mask) };
    (@declare $hooks:ident on_remove ($mask:ident)) => { $hooks.on_remove($mask) };
    (@declare $hooks:ident on_link ($mask:ident)) => { $hooks.on_link($mask) };
    (@declare $hooks:ident on_unlink ($mask:ident)) => { $hooks.on_unlink($mask) };
    (@declare $hooks:ident $($unknown:tt)*) => { $hooks };

    // The body of `apply_commands`: with hooks, they run before the queue is applied and
    // after each pass of it.
    (@apply_commands none ($($apply:tt)*)) => {
        $crate::__private::apply_queued($($apply)*)
    };
    (@apply_commands { $($hooks:tt)* } ($($apply:tt)*)) => {
        $crate::__private::hooks::apply_queued_with_hooks($($apply)*, Self::run_hooks)
    };

    // One declared hook, called if `$change` is what it waits for.
    (@fire $change:ident $world:ident on_spawn => $hook:path) => {
        if let ::core::option::Option::Some(entity) = $crate::__private::hooks::on_spawn(&$change) {
            $hook(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_despawn => $hook:path) => {
        if let ::core::option::Option::Some(entity) = $crate::__private::hooks::on_despawn(&$change) {
            $hook(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_add ($mask:ident) => $hook:path) => {
        if let ::core::option::Option::Some(entity) = $crate::__private::hooks::on_add(&$change, $mask) {
            $hook(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_remove ($mask:ident) => $hook:path) => {
        if let ::core::option::Option::Some(entity) = $crate::__private::hooks::on_remove(&$change, $mask) {
            $hook(&mut $world, entity);
        }
    };
    (@fire $change:ident $world:ident on_link ($mask:ident) => $hook:path) => {
        if let ::core::option::Option::Some((source, target)) = $crate::__private::hooks::on_link(&$change, $mask) {
            $hook(&mut $world, source, target);
        }
    };
    (@fire $change:ident $world:ident on_unlink ($mask:ident) => $hook:path) => {
        if let ::core::option::Option::Some((source, target)) = $crate::__private::hooks::on_unlink(&$change, $mask) {
            $hook(&mut $world, source, target);
        }
    };
    (@fire $change:ident $world:ident $event:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown hook `",
            ::core::stringify!($event),
            "`; a hook is `on_spawn`, `on_despawn`, `on_add(MASK)`, `on_remove(MASK)`, `on_link(RELATION)` or `on_unlink(RELATION)`, then `=> function`"
        ));
    };

    ($world:ident none) => {};
    ($world:ident { $( $event:ident $( ( $mask:ident ) )? => $hook:path ),* $(,)? }) => {
        // Evaluated here, so a hook on a bit the world has no such hook for is refused even
        // before anything runs (the builders' messages say what is wrong).
        $crate::__private::paste::paste! {
            const _: $crate::HookSet<[<$world Mask>]> = <[<$world ComponentArrays>] as $crate::Archetype>::HOOKS;
        }

        impl $world {
                /// Runs the declared hooks of every change made since the last sync point,
                /// oldest change first, and for each change the hooks in declaration order,
                /// each given the world split apart (`split_mut()`) and the entity (a link's
                /// hooks: its source and target). Changes a hook makes are run in the same
                /// pass, after those already waiting. `apply_commands` calls it.
                fn run_hooks(&mut self) {
                    if !self.components.storage.hooks_pending() {
                        return;
                    }
                    // One loan of the allocator for the whole pass: each `split_mut` below
                    // shares it rather than lending (and allocating) its own.
                    let _loan = $crate::__private::lifecycle::entity_reserver(&mut self.components.storage);
                    while let ::core::option::Option::Some(change) =
                        $crate::__private::lifecycle::next_hooked_change(&mut self.components.storage)
                    {
                        let mut world = self.split_mut();
                        $( $crate::__ecs_hooks! { @fire change world $event $( ( $mask ) )? => $hook } )*
                    }
                }
        }
    };
    ($world:ident { $($malformed:tt)* }) => {
        ::core::compile_error!(
            "ecs!: malformed `Hooks` block; write each hook as `on_add(POSITION) => function`, separated by commas"
        );
        // What `apply_commands` calls, so the message above is the only error.
        impl $world {
            fn run_hooks(&mut self) {}
        }
    };
}
