//! A system's own memory: the tick it last ran at and its event cursors, kept between runs.
//!
//! A [`Schedule`](super::Schedule) keeps one [`SystemContext`] per system and hands it in
//! beside the world, so a system asks "changed since I last ran" (`context.last_run()`) and
//! reads each event channel from its own cursor (`context.cursors.<event>`) without storing
//! either. A system run outside a schedule keeps a context itself and runs through
//! [`SystemContext::run`], which does the same bookkeeping.

use crate::commands::CommandReport;
use crate::system::memory::{MemoryKey, since_last_run};
use crate::system::{KeptValues, ParamSource, ParamWorld, PartList, SystemAccess, SystemWorld};
use crate::tick::Tick;
use alloc::boxed::Box;
use alloc::string::String;

/// One system's memory between its runs: the tick it last ran at and one event cursor per
/// channel.
///
/// A schedule keeps one per system; a system takes it as its second argument,
/// `fn(&mut World, &mut SystemContext<World>)`:
///
/// - [`last_run`](Self::last_run) is the tick "changed since this system last ran" and "added
///   since this system last ran" compare against: `changed_since(HEALTH, context.last_run())`.
///   On a system's first run it is older than every stamp, so everything that exists counts as
///   changed and added.
/// - `cursors.<event>` is this system's own [`EventCursor`](crate::EventCursor) for each
///   channel: `world.events.died.consume(&mut context.cursors.died)` hands each event to each
///   system once. A new cursor starts at the oldest stored event.
///
/// The world does not carry this memory: its clones, restores and snapshots leave it behind.
/// If a system finds the world's tick not after the tick it last ran at (the world was
/// restored to an earlier state, or loaded from a snapshot of one), it treats the run as its
/// first: everything counts as changed. Its event cursors, then ahead of the restored
/// channels, read every stored event as new. So a restored world's systems see too much once,
/// never too little.
pub struct SystemContext<W: SystemWorld> {
    /// This system's cursor in each event channel of the world.
    pub cursors: W::EventCursors,
    /// The tick the system's previous run ended at; `None` before its first run.
    ended_at: Option<Tick>,
    /// What the running system compares stamps against: `ended_at`, or, on a first run, a
    /// tick older than every stamp.
    since: Tick,
    first_run: bool,
    /// The name a system of parameters keeps its memory under in the world: the schedule's
    /// name for it (empty outside a schedule: then its function's).
    name: String,
    /// Where that memory was last found among the world's.
    memory_hint: usize,
    /// Whether that memory starts afresh at the next run (the system was replaced).
    restart_memory: bool,
}

impl<W: SystemWorld> Default for SystemContext<W> {
    fn default() -> Self {
        SystemContext {
            cursors: W::EventCursors::default(),
            ended_at: None,
            since: Tick::ZERO,
            first_run: true,
            name: String::new(),
            memory_hint: 0,
            restart_memory: false,
        }
    }
}

impl<W: SystemWorld> core::fmt::Debug for SystemContext<W> {
    /// The tick the last run ended at (cursors are the world's generated type, without
    /// `Debug`).
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        formatter
            .debug_struct("SystemContext")
            .field("ended_at", &self.ended_at)
            .finish_non_exhaustive()
    }
}

impl<W: SystemWorld> SystemContext<W> {
    /// The memory of a system that has not run yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The context of the system a schedule runs under `name`.
    pub(crate) fn named(name: String) -> Self {
        SystemContext {
            name,
            ..Self::default()
        }
    }

    /// The context of a system that replaces another under `name`: its memory in the world
    /// starts afresh, whatever function the other was.
    pub(crate) fn replacing(name: String) -> Self {
        SystemContext {
            restart_memory: true,
            ..Self::named(name)
        }
    }

    /// The key a system of parameters keeps its memory under in the world: the name (the
    /// schedule's, or else its `function`'s), where the world last had it, and whether it
    /// starts afresh this run (once, after a replace).
    pub(crate) fn memory_key<'a>(&'a mut self, function: &'a str) -> MemoryKey<'a> {
        let name = if self.name.is_empty() {
            function
        } else {
            self.name.as_str()
        };
        MemoryKey {
            name,
            hint: &mut self.memory_hint,
            restart: core::mem::take(&mut self.restart_memory),
        }
    }

    /// The tick this system last ran at: pass it to `changed_since` and `added_since` for
    /// what happened since. Every write of other systems and of the game after this system's
    /// previous run is newer than it; this system's own writes in that run are not. On a
    /// first run, older than every stamp.
    pub fn last_run(&self) -> Tick {
        self.since
    }

    /// Whether this run is the system's first (or the first since the world's tick went back,
    /// see the type's docs): every existing entity counts as changed and added.
    pub fn is_first_run(&self) -> bool {
        self.first_run
    }

    /// Runs `system` once with this memory, as a schedule runs one of its systems: the
    /// system sees what changed since its previous run through this context; afterwards the
    /// tick advances (so later writes are newer than this run) and the commands it queued
    /// are applied. Returns what applying them did.
    pub fn run<Marker>(
        &mut self,
        world: &mut W,
        mut system: impl System<W, Marker>,
    ) -> CommandReport {
        self.run_deferred(world, &mut |world, context| system.call(world, context));
        world.apply_commands()
    }

    /// One run without the sync point: the schedule applies the commands of a deferred
    /// stage at its end.
    pub(crate) fn run_deferred(
        &mut self,
        world: &mut W,
        system: &mut dyn FnMut(&mut W, &mut SystemContext<W>),
    ) {
        self.begin(world.current_tick());
        system(world, self);
        // The end, not the start: a system that advances the tick itself (an old-style one
        // that calls `increment_tick`) has written up to here.
        self.ended_at = Some(world.current_tick());
        world.increment_tick();
    }

    /// Decides what this run compares against.
    fn begin(&mut self, now: Tick) {
        (self.since, self.first_run) = since_last_run(self.ended_at, now);
    }
}

/// A function a [`Schedule`](super::Schedule) can run over a world of type `W`: either
/// `FnMut(&mut W)` (a system with no memory of its own) or `FnMut(&mut W, &mut
/// SystemContext<W>)` (one that asks what changed since it last ran, or reads events). The
/// `Marker` tells the two apart; it is inferred.
///
/// A closure names its argument types (`|world: &mut World| ..`), as a closure passed to any
/// generic function does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system of this world",
    note = "a system is a `fn` whose parameters are `Query<Q, F>` (in a multi-world game, a sub-world's: `CoreQuery<Q, F>`), `Res<R>`, `ResMut<R>`, `EventReader<E>`, `EventWriter<E>`, `Commands`, `Local<T>`, `SavedLocal<T>` (feature `serde`) or `SystemTicks` (up to 8), or `fn(&mut World)` for whole-world work; a closure names its parameters' types"
)]
pub trait System<W: SystemWorld, Marker> {
    /// The function's type name (its path): a schedule names a system added without a name
    /// after it.
    fn function_name(&self) -> &'static str {
        core::any::type_name::<Self>()
    }

    /// Calls the system once with `context` (a system without a memory ignores it). Only the
    /// call: a schedule, or [`SystemContext::run`], also keeps the context's bookkeeping and
    /// applies commands. A wrapper that times or logs a system calls this.
    fn call(&mut self, world: &mut W, context: &mut SystemContext<W>);

    /// What the system borrows, so a schedule can run it beside others: a system of
    /// parameters' access; `None` for a whole-world system, which runs alone.
    #[doc(hidden)]
    const ACCESS: Option<SystemAccess> = None;

    /// The loans of the system's queries, each to its part's, in parameter order (see
    /// [`Loan`](crate::storage::lending::Loan)).
    #[doc(hidden)]
    fn loans(&self, loans: &mut <W::Parts as PartList>::Loans)
    where
        W: ParamWorld,
    {
        let _ = loans;
    }

    /// Sets up the values the system's parameters keep between runs, in parameter order.
    #[doc(hidden)]
    fn keep(&self, values: &mut KeptValues<'_>)
    where
        W: ParamWorld,
    {
        let _ = values;
    }

    /// Fetches the system's parameters from `source` (a batch of systems' shared parts, with
    /// this system's memory and ticks in place) and returns its call, to run on any thread;
    /// `None` for a whole-world system.
    #[doc(hidden)]
    fn prepare<'a>(
        &'a mut self,
        source: &mut ParamSource<'a, W>,
    ) -> Option<Box<dyn FnOnce() + Send + 'a>>
    where
        W: ParamWorld,
    {
        let _ = source;
        None
    }
}

impl<W: SystemWorld, F: FnMut(&mut W)> System<W, fn(&mut W)> for F {
    #[inline]
    fn call(&mut self, world: &mut W, _: &mut SystemContext<W>) {
        self(world)
    }
}

impl<W: SystemWorld, F: FnMut(&mut W, &mut SystemContext<W>)>
    System<W, fn(&mut W, &mut SystemContext<W>)> for F
{
    #[inline]
    fn call(&mut self, world: &mut W, context: &mut SystemContext<W>) {
        self(world, context)
    }
}
