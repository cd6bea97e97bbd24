//! Plain functions as systems: a `fn` whose parameters are all [`SystemParam`]s is a
//! [`System`], up to 8 parameters. Its parameters' access is checked when the program is built
//! (two that alias are a compile error naming them), and each run fetches them from the world,
//! with the system's memory, kept in the world under its name.

use super::access::{MAX_PARTS, conflict_message, first_conflict, lent_parts};
use alloc::boxed::Box;

use super::access::SystemAccess;
use super::memory::KeptValues;
use super::param::{ParamSource, ParamWorld, SystemParam, shorten};
use super::parts::PartList;
use crate::schedule::{System, SystemContext};

/// Marks the impls of [`System`] for functions of parameters.
#[doc(hidden)]
pub struct ParamFunction<F>(F);

/// Fetches a system's parameters from `world` and calls it: finds the system's memory (under
/// its schedule name, or its function's for a system run on its own), starts the run, lends the
/// world's parts and the memory's kept values to the parameters.
macro_rules! param_systems {
    ($call_with:ident; $($param:ident $marker:ident),*) => {
        /// Calls a system with its parameters through a function taking the items' types, so
        /// the compiler picks the `FnMut` of the items (bevy's trick): `F` implements it for
        /// every lifetime.
        #[allow(non_snake_case, clippy::too_many_arguments)]
        fn $call_with<$($param),*>(mut function: impl FnMut($($param),*), $($param: $param),*) {
            function($($param),*)
        }

        #[allow(non_snake_case)]
        impl<W, F, $($param, $marker),*> System<W, ParamFunction<(fn($($param),*), $($marker,)*)>> for F
        where
            W: ParamWorld,
            F: FnMut($($param),*) + for<'w> FnMut($($param::Item<'w>),*) + Send,
            $($param: SystemParam<W, $marker> + 'static, $marker: 'static,)*
        {
            const ACCESS: Option<SystemAccess> = Some(SystemAccess::NONE $(.and($param::ACCESS))*);

            fn loans(&self, loans: &mut <W::Parts as PartList>::Loans) {
                let _ = &loans;
                $($param::loan(loans);)*
            }

            fn keep(&self, values: &mut KeptValues<'_>) {
                let _ = &values;
                $($param::keep(values);)*
            }

            fn prepare<'a>(
                &'a mut self,
                source: &mut ParamSource<'a, W>,
            ) -> Option<Box<dyn FnOnce() + Send + 'a>> {
                let _ = &source;
                $(let $param = $param::fetch(source);)*
                Some(Box::new(move || $call_with(self, $($param),*)))
            }

            #[inline]
            fn call(&mut self, world: &mut W, context: &mut SystemContext<W>) {
                const {
                    if let Some((first, second)) = first_conflict(&[$($param::ACCESS),*]) {
                        panic!("{}", conflict_message(first, second));
                    }
                };
                let function = core::any::type_name::<F>();
                let commands = false $(|| $param::ACCESS.commands)*;
                let lent_parts = const { lent_parts(&[$($param::ACCESS),*]) };
                let now = world.current_tick();
                let (lent, memories) = world.lend(commands);
                let (storages, singletons) = lent.into_parts();
                let memory = memories.find(context.memory_key(function), function);
                memory.begin(now);
                #[allow(unused_mut, unused_variables)]
                let mut kept = memory.prepare();
                $($param::keep(&mut kept);)*
                let ticks = memory.ticks();
                // A part's one query gets its storage whole; several share it, each lent the
                // columns it writes (taken back when `lendings` is dropped, a panic included),
                // as does a query that reads its rows' targets.
                #[allow(unused_mut)]
                let mut loans = <<W::Parts as PartList>::Loans as Default>::default();
                if lent_parts != [false; MAX_PARTS] {
                    $($param::loan(&mut loans);)*
                }
                let mut lendings = <W::Parts as PartList>::lend(storages, &loans, &lent_parts);
                let singletons = shorten::<W>(singletons);
                let storages = <W::Parts as PartList>::sources(&mut lendings);
                let mut source = ParamSource::<W>::new(storages, singletons, memory.lend(), ticks);
                $(let $param = $param::fetch(&mut source);)*
                let _ = &mut source;
                $call_with(self, $($param),*);
            }
        }
    };
}

param_systems!(call_with_0;);
param_systems!(call_with_1; P0 M0);
param_systems!(call_with_2; P0 M0, P1 M1);
param_systems!(call_with_3; P0 M0, P1 M1, P2 M2);
param_systems!(call_with_4; P0 M0, P1 M1, P2 M2, P3 M3);
param_systems!(call_with_5; P0 M0, P1 M1, P2 M2, P3 M3, P4 M4);
param_systems!(call_with_6; P0 M0, P1 M1, P2 M2, P3 M3, P4 M4, P5 M5);
param_systems!(call_with_7; P0 M0, P1 M1, P2 M2, P3 M3, P4 M4, P5 M5, P6 M6);
param_systems!(call_with_8; P0 M0, P1 M1, P2 M2, P3 M3, P4 M4, P5 M5, P6 M6, P7 M7);

/// The name a system added without one gets: its function's, without the module path or
/// generic arguments (`movement`; a closure is `{{closure}}`).
pub(crate) fn short_name(type_name: &str) -> &str {
    let without_generics = type_name.split('<').next().unwrap_or(type_name);
    match without_generics.strip_suffix("::{{closure}}") {
        Some(_) => "{{closure}}",
        None => without_generics
            .rsplit("::")
            .next()
            .unwrap_or(without_generics),
    }
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn a_function_is_named_by_its_last_path_segment() {
        assert_eq!(short_name("game::systems::movement"), "movement");
        assert_eq!(short_name("movement"), "movement");
        assert_eq!(short_name("game::main::{{closure}}"), "{{closure}}");
        assert_eq!(short_name("game::run<game::World>"), "run");
    }
}
