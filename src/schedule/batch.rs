//! Systems run side by side: a schedule's systems in batches of neighbours whose access is
//! disjoint, each batch's parameters fetched from one split of the world, the calls run on
//! rayon's threads (feature `parallel`; without it, one after another on this one), and the
//! world after the batch exactly the world running them in order gives.
//!
//! Why the answer is the sequential one: the systems of a batch touch disjoint parts of the
//! world (components, their change ticks, resources, event channels; at most one holds the
//! command queue, and a system that queues commands ends its batch, so what it queued is
//! applied before any later system runs); each is given the tick it would have had in order,
//! so its writes are stamped as they would have been; and a system that runs alone (a whole-
//! world system, one with a run condition, the first one when the world had work pending)
//! starts a batch of its own, where the world is exactly as the sequential run leaves it.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::marker::PhantomData;

use super::timing::{Stopwatch, SystemTiming};
use super::{System, SystemContext, SystemWorld};
use crate::system::memory::MemoryKey;
use crate::system::{
    BatchMember, BatchSystem, KeptValues, LentValues, MAX_PARTS, ParamSource, ParamWorld, PartList,
    SystemAccess, shorten,
};

/// A system of any kind behind one type: what a schedule keeps per system (the `Marker` of
/// [`System`] erased).
pub(crate) trait DynSystem<W: SystemWorld> {
    fn function_name(&self) -> &'static str;
    fn call(&mut self, world: &mut W, context: &mut SystemContext<W>);
    fn access(&self) -> Option<SystemAccess>;
    fn loans(&self, loans: &mut <W::Parts as PartList>::Loans)
    where
        W: ParamWorld;
    fn keep(&self, values: &mut KeptValues<'_>)
    where
        W: ParamWorld;
    fn prepare<'a>(
        &'a mut self,
        source: &mut ParamSource<'a, W>,
    ) -> Option<Box<dyn FnOnce() + Send + 'a>>
    where
        W: ParamWorld;
}

/// A [`System`] with its marker, as a [`DynSystem`].
pub(crate) struct Marked<S, M>(pub(crate) S, pub(crate) PhantomData<fn() -> M>);

impl<W: SystemWorld, M, S: System<W, M>> DynSystem<W> for Marked<S, M> {
    fn function_name(&self) -> &'static str {
        self.0.function_name()
    }

    #[inline]
    fn call(&mut self, world: &mut W, context: &mut SystemContext<W>) {
        self.0.call(world, context)
    }

    fn access(&self) -> Option<SystemAccess> {
        S::ACCESS
    }

    fn loans(&self, loans: &mut <W::Parts as PartList>::Loans)
    where
        W: ParamWorld,
    {
        self.0.loans(loans)
    }

    fn keep(&self, values: &mut KeptValues<'_>)
    where
        W: ParamWorld,
    {
        self.0.keep(values)
    }

    fn prepare<'a>(
        &'a mut self,
        source: &mut ParamSource<'a, W>,
    ) -> Option<Box<dyn FnOnce() + Send + 'a>>
    where
        W: ParamWorld,
    {
        self.0.prepare(source)
    }
}

/// One system of a batch, as the schedule holds it: its context (its name, the key of its
/// memory, and where the memory was last found), the system, and its timing when the schedule
/// times its systems; a [`BatchMember`] lends it.
pub(crate) struct Member<'s, W: SystemWorld> {
    pub(crate) context: &'s mut SystemContext<W>,
    pub(crate) system: &'s mut dyn DynSystem<W>,
    pub(crate) timing: Option<&'s mut SystemTiming>,
}

impl<W: SystemWorld> BatchSystem<W> for Member<'_, W> {
    fn run_alone(&mut self, world: &mut W) {
        let system = &mut *self.system;
        let stopwatch = Stopwatch::start(self.timing.is_some());
        self.context
            .run_deferred(world, &mut |world, context| system.call(world, context));
        if let Some(timing) = self.timing.as_deref_mut() {
            stopwatch.stop(timing);
        }
    }

    fn function_name(&self) -> &'static str {
        self.system.function_name()
    }

    fn memory_key(&mut self) -> MemoryKey<'_> {
        let function = self.system.function_name();
        self.context.memory_key(function)
    }

    fn access(&self) -> Option<SystemAccess> {
        self.system.access()
    }

    fn loans(&self, loans: &mut <W::Parts as PartList>::Loans)
    where
        W: ParamWorld,
    {
        self.system.loans(loans)
    }

    fn keep(&self, values: &mut KeptValues<'_>)
    where
        W: ParamWorld,
    {
        self.system.keep(values)
    }

    fn prepare<'a>(
        &'a mut self,
        source: &mut ParamSource<'a, W>,
    ) -> Option<Box<dyn FnOnce() + Send + 'a>>
    where
        W: ParamWorld,
    {
        // Timed, the call is timed on the thread that runs it (its parameters are fetched
        // with the whole batch's, before any call starts).
        let Some(timing) = self.timing.as_deref_mut() else {
            return self.system.prepare(source);
        };
        let call = self.system.prepare(source)?;
        Some(Box::new(move || {
            let stopwatch = Stopwatch::start(true);
            call();
            stopwatch.stop(timing);
        }))
    }
}

/// Runs the systems of one batch (two or more systems of parameters, disjoint, in schedule
/// order) as running them in order would, their calls side by side. Commands are not applied
/// here: the schedule's sync point follows.
pub fn run_batch<W: ParamWorld>(world: &mut W, members: &mut [BatchMember<'_, W>]) {
    let base = world.current_tick();
    let commands = members
        .iter()
        .any(|member| member.0.access().is_some_and(|access| access.commands));
    let mut loans = <<W::Parts as PartList>::Loans as Default>::default();
    for member in members.iter() {
        member.0.loans(&mut loans);
    }
    let count = members.len();
    {
        let (lent, memories) = world.lend(commands);
        let (storages, singletons) = lent.into_parts();
        // Each system's memory, begun at the tick it would run at in order.
        let mut indices = Vec::with_capacity(count);
        for member in members.iter_mut() {
            let function = member.0.function_name();
            indices.push(memories.find_index(member.0.memory_key(), function));
        }
        let mut memory = memories.disjoint_mut(&indices);
        let mut now = base;
        for (member, memory) in members.iter().zip(memory.iter_mut()) {
            memory.begin(now);
            member.0.keep(&mut memory.prepare());
            now = now.next();
        }
        // Every part shared, each query of each system lent the columns it writes.
        let mut lendings = <W::Parts as PartList>::lend(storages, &loans, &[true; MAX_PARTS]);
        let mut source = ParamSource::<W>::new(
            <W::Parts as PartList>::sources(&mut lendings),
            shorten::<W>(singletons),
            LentValues::none(),
            memory[0].ticks(),
        );
        let mut calls = Vec::with_capacity(count);
        for (member, memory) in members.iter_mut().zip(memory) {
            source.ticks = memory.ticks();
            source.kept = memory.lend();
            calls.extend(member.0.prepare(&mut source));
        }
        drop(source);
        run_calls(calls);
    }
    for _ in 0..count {
        world.increment_tick();
    }
}

/// The calls of a batch, side by side: the first on this thread, the others on rayon's. This
/// thread would otherwise only wait, and the pool's threads, asleep after the serial work
/// before the batch, wake slowly: handing every call to them took 0.84 of the in-order time
/// on two cores between other work (`parallel_systems`), 0.51 with this thread taking its
/// share. With one thread in rayon's pool (one core available, or `RAYON_NUM_THREADS=1`)
/// nothing could run beside anything: the calls run here, in order.
#[cfg(feature = "parallel")]
fn run_calls(calls: Vec<Box<dyn FnOnce() + Send + '_>>) {
    if rayon::current_num_threads() < 2 {
        for call in calls {
            call();
        }
        return;
    }
    let mut calls = calls.into_iter();
    let here = calls.next();
    rayon::in_place_scope(|scope| {
        for call in calls {
            scope.spawn(move |_| call());
        }
        if let Some(call) = here {
            call();
        }
    });
}

/// The calls of a batch, one after another (without the `parallel` feature).
#[cfg(not(feature = "parallel"))]
fn run_calls(calls: Vec<Box<dyn FnOnce() + Send + '_>>) {
    for call in calls {
        call();
    }
}
