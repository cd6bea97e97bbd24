//! Adding systems by their functions: one, a tuple of them (run in order), or a group stated
//! to run side by side ([`together`]), whose conflicts are compile errors.

use super::{Entry, Schedule, System, SystemWorld};
use crate::system::access::{first_system_conflict, together_message};
use alloc::string::String;

impl<W: SystemWorld> Schedule<W> {
    /// Appends one system under the name of its function (unique: `#2`, `#3` after a taken one).
    pub(super) fn add_one<Marker: 'static>(&mut self, system: impl System<W, Marker> + 'static) {
        let function = crate::system::short_name(system.function_name());
        let mut name = String::from(function);
        let mut count = 1;
        while self.contains(&name) {
            count += 1;
            name = format!("{function}#{count}");
        }
        self.plan.clear();
        self.entries.push(Entry::system(name, system));
    }
}

/// Systems stated to run side by side: `schedule.add(together((movement, regenerate)))`. A
/// program where two of them conflict does not compile (the message names the two, counted
/// from 1): one writes a component, resource or event channel the other reads or writes, both
/// filter on one component's changes, one takes the whole world, or a system that queues
/// commands is not the last. They start a batch of their own, and, in a parallel schedule, run
/// at the same time (a run condition given to one of them later splits the group there).
pub fn together<S>(systems: S) -> Together<S> {
    Together(systems)
}

/// A tuple of systems stated to run together: see [`together`].
pub struct Together<S>(S);

/// Marks the impls for systems stated to run together.
#[doc(hidden)]
pub struct TogetherMarker<M>(M);

impl<W: SystemWorld> Schedule<W> {
    /// Marks the system at `index` as the start of a group stated to run together.
    fn start_group(&mut self, index: usize) {
        if let Some(Entry::System { group_start, .. }) = self.edit().get_mut(index) {
            *group_start = true;
        }
    }
}

macro_rules! together_tuples {
    ($($system:ident $marker:ident),+) => {
        #[allow(non_snake_case)]
        impl<W: SystemWorld, $($marker: 'static, $system: System<W, $marker> + 'static),+>
            Systems<W, TogetherMarker<($($marker,)+)>> for Together<($($system,)+)>
        {
            fn add_to(self, schedule: &mut Schedule<W>) {
                const {
                    if let Some((first, second)) = first_system_conflict(&[$($system::ACCESS),+]) {
                        panic!("{}", together_message(first, second));
                    }
                };
                let Together(($($system,)+)) = self;
                let first = schedule.entries.len();
                $(schedule.add_one($system);)+
                schedule.start_group(first);
            }
        }
    };
}

together_tuples!(S0 M0, S1 M1);
together_tuples!(S0 M0, S1 M1, S2 M2);
together_tuples!(S0 M0, S1 M1, S2 M2, S3 M3);
together_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4);
together_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5);
together_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6);
together_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7);

/// One system, a system with its run condition ([`RunIf::run_if`]), systems stated to run
/// together ([`together`]), or a tuple of any of them, for [`Schedule::add`]. `Marker` is
/// inferred.
///
/// [`RunIf::run_if`]: super::RunIf::run_if
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system, or a tuple of systems, of this world",
    note = "a system is a `fn` whose parameters are `Query<Q, F>` (in a multi-world game, a sub-world's: `CoreQuery<Q, F>`), `Res<R>`, `ResMut<R>`, `EventReader<E>`, `EventWriter<E>`, `Commands`, `Local<T>`, `SavedLocal<T>` (feature `serde`) or `SystemTicks` (up to 8), or `fn(&mut World)` for whole-world work; a closure names its parameters' types, and is written where it is added (a function returning `impl FnMut(..)` is not a system)"
)]
pub trait Systems<W: SystemWorld, Marker> {
    /// Appends the systems to `schedule`, in order.
    fn add_to(self, schedule: &mut Schedule<W>);
}

/// Marks the impl for one system.
#[doc(hidden)]
pub struct OneSystem<M>(M);

impl<W: SystemWorld, M: 'static, S: System<W, M> + 'static> Systems<W, OneSystem<M>> for S {
    fn add_to(self, schedule: &mut Schedule<W>) {
        schedule.add_one(self);
    }
}

macro_rules! system_tuples {
    ($($system:ident $marker:ident),+) => {
        #[allow(non_snake_case)]
        impl<W: SystemWorld, $($marker, $system: Systems<W, $marker>),+>
            Systems<W, ($($marker,)+)> for ($($system,)+)
        {
            fn add_to(self, schedule: &mut Schedule<W>) {
                let ($($system,)+) = self;
                $($system.add_to(schedule);)+
            }
        }
    };
}

// One system in a tuple too: `add((movement,))` is what a list cut down to one reads as.
system_tuples!(S0 M0);
system_tuples!(S0 M0, S1 M1);
system_tuples!(S0 M0, S1 M1, S2 M2);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7, S8 M8);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7, S8 M8, S9 M9);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7, S8 M8, S9 M9, S10 M10);
system_tuples!(S0 M0, S1 M1, S2 M2, S3 M3, S4 M4, S5 M5, S6 M6, S7 M7, S8 M8, S9 M9, S10 M10, S11 M11);
