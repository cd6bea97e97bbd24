//! A system added with its run condition: `schedule.add((movement, draw_bars.run_if(every_tenth)))`
//! ([`RunIf::run_if`]), the form of [`Schedule::run_if`] that needs no name and no `Result`.

use alloc::boxed::Box;

use super::{Schedule, System, SystemWorld, Systems};

/// A system and its run condition, made by [`RunIf::run_if`]; [`Schedule::add`] adds both.
pub struct Conditional<S, C> {
    system: S,
    condition: C,
}

/// `system.run_if(condition)`: a system that runs only when `condition` returns `true` (every
/// `n`th frame, while a resource says the game is not paused), added with [`Schedule::add`]
/// alone or in a tuple. A skipped system does not run at all: its memory stays at its last real
/// run, so when it runs again it sees everything since. bevy's `system.run_if(condition)`; the
/// condition reads the whole world (`|world: &World| ..`), so the system starts a batch of its
/// own (see [`Schedule::run_if`], which sets the condition of a system already in, by name).
pub trait RunIf<W: SystemWorld, Marker>: System<W, Marker> + Sized {
    /// This system with `condition` (see the trait).
    fn run_if<C: FnMut(&W) -> bool + 'static>(self, condition: C) -> Conditional<Self, C> {
        Conditional {
            system: self,
            condition,
        }
    }
}

impl<W: SystemWorld, Marker, S: System<W, Marker>> RunIf<W, Marker> for S {}

/// Marks the impl for a system with its run condition.
#[doc(hidden)]
pub struct ConditionalSystem<M>(M);

impl<W, M, S, C> Systems<W, ConditionalSystem<M>> for Conditional<S, C>
where
    W: SystemWorld,
    M: 'static,
    S: System<W, M> + 'static,
    C: FnMut(&W) -> bool + 'static,
{
    fn add_to(self, schedule: &mut Schedule<W>) {
        schedule.add_one(self.system);
        let last = schedule.entries.len() - 1;
        schedule.set_condition(last, Box::new(self.condition));
    }
}
