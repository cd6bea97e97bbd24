//! [`SystemParam`]: what a system's parameter takes from the world, and the world's side of it,
//! [`ParamWorld`]: the parts a world lends its systems' parameters ([`ParamSource`]); and
//! [`SystemWorld`], what a schedule needs of any world, with [`BatchMember`], one system of a
//! batch as the world's `run_batch` receives it. They are here, not in the schedule, so the
//! schedule builds on the parameters and nothing here names the schedule's types (a batch's
//! member is reached through [`BatchSystem`], which the schedule implements).

use super::access::SystemAccess;
use super::memory::{KeptValues, LentValues, MemoryKey, SystemMemories, SystemTicks};
use super::parts::PartList;
use super::slot::Slot;
use alloc::boxed::Box;

use crate::commands::CommandReport;
use crate::tick::Tick;

/// A world whose systems take parameters: `ecs!` implements it for every world and every
/// multi-world game it generates (a world is a game with one part).
pub trait ParamWorld: SystemWorld + Sized + 'static {
    /// The world's table types, which its queries read, one per part: `(WorldComponentArrays,
    /// ())` for a world, `(CoreComponentArrays, (RenderComponentArrays, ()))` for a game of
    /// `Core` and `Render` (see [`PartList`]).
    type Parts: PartList;
    /// The world's resources (`WorldResources`).
    type Resources: ResourceSet;
    /// The world's event channels (`WorldEvents`).
    type Events: EventSet;
    /// The world's command queue (`WorldCommands`).
    type Commands<'w>: LentCommands<Self>;

    /// The command queue over a shorter borrow (it is covariant; a generic projection is not
    /// known to be).
    fn shorten_commands<'a, 'b: 'a>(commands: Self::Commands<'b>) -> Self::Commands<'a>;

    /// Lends the world's parts to one system's parameters (the command queue only if
    /// `commands`: lending it shares the entity index behind a lock), beside the memory of
    /// every system.
    fn lend(&mut self, commands: bool) -> (Lent<'_, Self>, &mut SystemMemories);
}

/// The parts of a world a [`ParamWorld`] lends, before a system's memory joins them.
pub struct Lent<'w, W: ParamWorld> {
    /// Each part's component storage, for the system's queries.
    pub storages: <W::Parts as PartList>::Storages<'w>,
    /// One slot per resource.
    pub resources: <W::Resources as ResourceSet>::Slots<'w>,
    /// One slot per event channel.
    pub events: <W::Events as EventSet>::Slots<'w>,
    /// The command queue, if asked for.
    pub commands: Option<W::Commands<'w>>,
}

/// Everything one run of a system hands its parameters: the world's parts, the system's kept
/// values (in parameter order) and its ticks.
pub struct ParamSource<'w, W: ParamWorld> {
    pub(crate) storages: <W::Parts as PartList>::Sources<'w>,
    pub(crate) resources: <W::Resources as ResourceSet>::Slots<'w>,
    pub(crate) events: <W::Events as EventSet>::Slots<'w>,
    pub(crate) commands: Option<W::Commands<'w>>,
    pub(crate) kept: LentValues<'w>,
    pub(crate) ticks: SystemTicks,
}

impl<'w, W: ParamWorld> ParamSource<'w, W> {
    /// The source of a system's parameters: `lent`'s parts but the storages, which reach the
    /// queries through `storages`.
    pub(crate) fn new(
        storages: <W::Parts as PartList>::Sources<'w>,
        (resources, events, commands): LentSingletons<'w, W>,
        kept: LentValues<'w>,
        ticks: SystemTicks,
    ) -> Self {
        ParamSource {
            storages,
            resources,
            events,
            commands,
            kept,
            ticks,
        }
    }
}

/// A world's lent parts besides its storage: the resources' and channels' slots and the
/// command queue.
pub(crate) type LentSingletons<'w, W> = (
    <<W as ParamWorld>::Resources as ResourceSet>::Slots<'w>,
    <<W as ParamWorld>::Events as EventSet>::Slots<'w>,
    Option<<W as ParamWorld>::Commands<'w>>,
);

impl<'w, W: ParamWorld> Lent<'w, W> {
    /// The storages, and the other parts.
    pub(crate) fn into_parts(
        self,
    ) -> (<W::Parts as PartList>::Storages<'w>, LentSingletons<'w, W>) {
        (self.storages, (self.resources, self.events, self.commands))
    }
}

/// The parts besides the storages over a shorter borrow: the one the storage is lent for, when
/// several queries share it.
pub(crate) fn shorten<'a, 'b: 'a, W: ParamWorld>(
    (resources, events, commands): LentSingletons<'b, W>,
) -> LentSingletons<'a, W> {
    (
        <W::Resources as ResourceSet>::shorten(resources),
        <W::Events as EventSet>::shorten(events),
        commands.map(W::shorten_commands),
    )
}

/// A parameter of a system: a [`Query`](crate::Query), [`Res`](crate::Res),
/// [`ResMut`](crate::ResMut), [`EventReader`](crate::EventReader),
/// [`EventWriter`](crate::EventWriter), the world's `Commands`, a [`Local`](crate::Local) or
/// [`SystemTicks`]. `Marker` tells apart the impls that pick a component, resource or channel by
/// its type; it is inferred, never written.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system parameter of this world",
    label = "not a system parameter",
    note = "a system's parameters are `Query<Q, F>` (in a multi-world game, a sub-world's: `CoreQuery<Q, F>`), `Res<R>`, `ResMut<R>`, `EventReader<E>`, `EventWriter<E>`, `Commands`, `Local<T>`, `SavedLocal<T>` (feature `serde`) and `SystemTicks`, with `R` a resource, `E` an event and `Q` components of the world; whole-world work takes `fn(&mut World)` alone"
)]
pub trait SystemParam<W: ParamWorld, Marker>: Sized {
    /// The parameter as the system gets it for one run, borrowing the world for `'w`. `Send`:
    /// a schedule may run the system on another thread, beside others.
    type Item<'w>: Send;

    /// What the parameter borrows.
    const ACCESS: SystemAccess;

    /// Sets up the values the parameter keeps between runs (an event cursor, a local), in
    /// parameter order. Most keep none.
    #[doc(hidden)]
    #[inline]
    fn keep(values: &mut KeptValues<'_>) {
        let _ = values;
    }

    /// What a query parameter borrows from its part's storage when it runs beside other
    /// queries: the columns lent to it, pushed to its part's loans. Others borrow none.
    #[doc(hidden)]
    #[inline]
    fn loan(loans: &mut <W::Parts as PartList>::Loans) {
        let _ = loans;
    }

    /// Takes the parameter's part of the world.
    #[doc(hidden)]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> Self::Item<'w>;
}

/// A world's resources, lent to systems one slot per resource. `ecs!` implements it for the
/// world's `Resources` type.
pub trait ResourceSet: 'static {
    /// One [`Slot`] per resource.
    type Slots<'w>;

    /// The slots over every resource.
    fn slots(&mut self) -> Self::Slots<'_>;

    /// The slots over a shorter borrow (they are covariant; a generic projection is not known
    /// to be).
    fn shorten<'a, 'b: 'a>(slots: Self::Slots<'b>) -> Self::Slots<'a>;
}

/// One resource of type `R` of a world, picked by its type and a marker `M` that `ecs!`
/// generates per resource (inferred: `Res<Score>` finds `score`).
#[diagnostic::on_unimplemented(
    message = "the world has no resource of type `{R}`",
    note = "`Res<R>` and `ResMut<R>` pick the resource of type `R` declared in the world's `Resources` block; two resources of one type cannot be picked by type (give each a type of its own)"
)]
pub trait ResourceOf<R, M>: ResourceSet {
    /// The resource's bit in a system's access (its place in the block).
    const BIT: u128;

    /// The resource's slot.
    fn slot<'s, 'w>(slots: &'s mut Self::Slots<'w>) -> &'s mut Slot<'w, R>;
}

/// A world's event channels, lent to systems one slot per channel. `ecs!` implements it for the
/// world's `Events` type.
pub trait EventSet: 'static {
    /// One [`Slot`] per channel.
    type Slots<'w>;

    /// The slots over every channel.
    fn slots(&mut self) -> Self::Slots<'_>;

    /// The slots over a shorter borrow (see [`ResourceSet::shorten`]).
    fn shorten<'a, 'b: 'a>(slots: Self::Slots<'b>) -> Self::Slots<'a>;
}

/// The channel of events of type `E` of a world, picked by its type and a marker `M` that
/// `ecs!` generates per channel (inferred: `EventReader<Hit>` finds `hit`).
#[diagnostic::on_unimplemented(
    message = "the world has no event channel of type `{E}`",
    note = "`EventReader<E>` and `EventWriter<E>` pick the channel of type `E` declared in the world's `Events` block"
)]
pub trait EventOf<E, M>: EventSet {
    /// The channel's bit in a system's access (its place in the block).
    const BIT: u128;

    /// The channel's slot.
    fn slot<'s, 'w>(slots: &'s mut Self::Slots<'w>) -> &'s mut Slot<'w, crate::EventChannel<E>>;
}

/// The command queue of a world `W`, as a system parameter: `ecs!` implements it for the world's
/// `Commands` type.
pub trait LentCommands<W: ParamWorld> {}

/// The parameter that is the world's command queue: `mut commands: Commands` (applied at the
/// sync point after the system).
#[doc(hidden)]
pub enum CommandsParam {}

impl<W: ParamWorld, C: LentCommands<W>> SystemParam<W, CommandsParam> for C
where
    for<'w> W::Commands<'w>: LentCommands<W> + Send,
{
    type Item<'w> = W::Commands<'w>;

    const ACCESS: SystemAccess = SystemAccess {
        commands: true,
        ..SystemAccess::NONE
    };

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> W::Commands<'w> {
        source
            .commands
            .take()
            .expect("the schedule lends the queue to a system that takes it, once")
    }
}

impl<W: ParamWorld> SystemParam<W, ()> for SystemTicks {
    type Item<'w> = SystemTicks;

    const ACCESS: SystemAccess = SystemAccess::NONE;

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> SystemTicks {
        source.ticks
    }
}

/// What a [`Schedule`](crate::Schedule) needs of the world it runs systems on. `ecs!`
/// implements it for every world it generates (and for a multi-world game).
pub trait SystemWorld {
    /// One [`EventCursor`](crate::EventCursor) per event channel, as public fields named
    /// after the channels (`cursors.died`). `ecs!` generates it as `<World>EventCursors`.
    type EventCursors: Default;

    /// Applies every queued command (the world's own `apply_commands`): the sync point
    /// between two systems.
    fn apply_commands(&mut self) -> CommandReport;

    /// The tick writes are stamped with now (the world's own `current_tick`).
    fn current_tick(&self) -> Tick;

    /// Advances the tick, so that later writes are newer than everything before (the world's
    /// own `increment_tick`).
    fn increment_tick(&mut self) -> Tick;

    /// Whether nothing waits for a sync point (no queued command, no pending hook): a schedule
    /// starts batching systems only then.
    #[doc(hidden)]
    fn is_settled(&self) -> bool {
        false
    }

    /// Runs a batch of systems of parameters whose access is disjoint, as running them in
    /// order would (see `schedule/batch.rs`); a world without systems of parameters runs them
    /// one after another.
    #[doc(hidden)]
    fn run_batch(&mut self, members: &mut [BatchMember<'_, Self>])
    where
        Self: Sized,
    {
        for member in members {
            member.0.run_alone(self);
        }
    }
}

/// One system of a batch, as the schedule hands it to `SystemWorld::run_batch`: the system
/// beside its context (its name, the key of its memory, where the memory was last found).
pub struct BatchMember<'s, W: SystemWorld>(pub(crate) &'s mut dyn BatchSystem<W>);

/// What running a batch asks of each of its systems; the schedule implements it for a system
/// beside its context.
pub(crate) trait BatchSystem<W: SystemWorld> {
    /// Runs the system once, alone, with its context's bookkeeping (no sync point).
    fn run_alone(&mut self, world: &mut W);

    /// The function's type name.
    fn function_name(&self) -> &'static str;

    /// The key the system keeps its memory under in the world (see `SystemContext`).
    fn memory_key(&mut self) -> MemoryKey<'_>;

    /// The system's access; `None` for a whole-world system.
    fn access(&self) -> Option<SystemAccess>;

    /// The loans of the system's queries, each to its part's.
    fn loans(&self, loans: &mut <W::Parts as PartList>::Loans)
    where
        W: ParamWorld;

    /// Sets up the values the system's parameters keep between runs.
    fn keep(&self, values: &mut KeptValues<'_>)
    where
        W: ParamWorld;

    /// Fetches the system's parameters from `source` and returns its call.
    fn prepare<'a>(
        &'a mut self,
        source: &mut ParamSource<'a, W>,
    ) -> Option<Box<dyn FnOnce() + Send + 'a>>
    where
        W: ParamWorld;
}
