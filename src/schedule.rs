//! Schedules: named systems run one after another over a world, each with its own memory.
//!
//! A system is a function over the world, `FnMut(&mut W)`, or, when it wants to know what
//! changed since it last ran or to read events, `FnMut(&mut W, &mut SystemContext<W>)`: the
//! schedule keeps one [`SystemContext`] per system (see [`system`]). Names make the order
//! editable after the fact: a plugin can insert its system before or after one it knows, or
//! replace it, without rebuilding the list. Mistakes in names are error values, never panics,
//! so a game can report them.
//!
//! Between two systems the schedule applies the commands the first queued, so the second sees
//! them: a sync point nobody has to remember. Stages are optional named marks in the order
//! ("update", "render"): a system can be pushed to the end of a stage, one stage can run on its
//! own (a fixed-step update several times a frame, say), and a deferred stage applies its
//! systems' commands once, at its end.

mod batch;
mod conditional;
pub mod system;
mod timing;

use crate::commands::CommandReport;
pub use crate::system::BatchMember;
use crate::system::BatchSystem;
use crate::system::SystemAccess;
pub use crate::system::SystemWorld;
use crate::system::access::{first_system_conflict, together_message};
use alloc::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};
pub use batch::run_batch;
use batch::{DynSystem, Marked, Member};
pub use conditional::{Conditional, ConditionalSystem, RunIf};
use core::fmt;
pub use system::{System, SystemContext};
use timing::Stopwatch;
#[cfg(feature = "std")]
pub use timing::SystemTiming;
#[cfg(not(feature = "std"))]
use timing::SystemTiming;

/// A boxed system over a world of type `W`.
type BoxedSystem<W> = Box<dyn DynSystem<W>>;

/// A boxed run condition: the system runs only when it returns `true`.
type BoxedCondition<W> = Box<dyn FnMut(&W) -> bool>;

/// One place in the run order: a stage mark, or a named system. A schedule holds tens of
/// entries, walked in order: a boxed system variant would cost a pointer chase per run.
#[allow(clippy::large_enum_variant)]
enum Entry<W: SystemWorld> {
    /// Starts the stage of this name; it runs up to the next stage mark. A deferred stage
    /// applies its systems' commands at its end rather than after each system.
    Stage { name: String, deferred: bool },
    System {
        name: String,
        run: BoxedSystem<W>,
        /// What a system of parameters borrows (`None`: a whole-world system, run alone). Read
        /// when the batches are planned, not at every run.
        access: Option<SystemAccess>,
        /// Whether the system starts a group stated to run together ([`together`]): a batch
        /// starts with it.
        group_start: bool,
        /// The system's memory between runs.
        context: SystemContext<W>,
        /// When set, the system runs only if it says so.
        condition: Option<BoxedCondition<W>>,
        /// Its time and runs while the schedule times its systems.
        timing: SystemTiming,
    },
}

impl<W: SystemWorld> Entry<W> {
    fn system<Marker: 'static, S: System<W, Marker> + 'static>(name: String, system: S) -> Self {
        Entry::System {
            access: S::ACCESS,
            group_start: false,
            run: Box::new(Marked(system, core::marker::PhantomData)),
            context: SystemContext::named(name.clone()),
            name,
            condition: None,
            timing: SystemTiming::default(),
        }
    }

    fn system_name(&self) -> Option<&str> {
        match self {
            Entry::System { name, .. } => Some(name),
            Entry::Stage { .. } => None,
        }
    }
}

/// Why a schedule refused an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScheduleError {
    /// A system with this name is already in the schedule.
    DuplicateName(String),
    /// No system has this name.
    UnknownName(String),
    /// A stage with this name is already in the schedule.
    DuplicateStage(String),
    /// No stage has this name.
    UnknownStage(String),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::DuplicateName(name) => {
                write!(
                    formatter,
                    "the schedule already has a system named `{name}`"
                )
            }
            ScheduleError::UnknownName(name) => {
                write!(formatter, "the schedule has no system named `{name}`")
            }
            ScheduleError::DuplicateStage(name) => {
                write!(formatter, "the schedule already has a stage named `{name}`")
            }
            ScheduleError::UnknownStage(name) => {
                write!(formatter, "the schedule has no stage named `{name}`")
            }
        }
    }
}

impl core::error::Error for ScheduleError {}

/// Named systems over a world of type `W`, run in order.
///
/// Names are unique (system names among systems, stage names among stages); every edit that
/// would break that, or that names a missing system or stage, returns a [`ScheduleError`] and
/// leaves the schedule as it was. Edits return `&mut Self`, so they chain with `?`.
pub struct Schedule<W: SystemWorld> {
    /// Stage marks and systems, in run order.
    entries: Vec<Entry<W>>,
    /// Whether neighbouring systems of parameters with disjoint access run side by side.
    parallel: bool,
    /// The batches, planned once after the last edit: `plan[i]` is the length of the batch that
    /// starts at entry `i` (see [`batch_end`](Self::batch_end)), for every `i`, since a system
    /// skipped by its condition or the first system on an unsettled world moves the start.
    /// Empty when stale: every edit clears it (through [`edit`](Self::edit)) and a parallel
    /// run plans again, so a frame reads no access.
    plan: Vec<usize>,
    /// Whether each system's runs are timed (see [`set_timing`](Self::set_timing)).
    timing: bool,
}

impl<W: SystemWorld> Default for Schedule<W> {
    /// An empty schedule; `W` need not be `Default`.
    fn default() -> Self {
        Schedule {
            entries: Vec::new(),
            parallel: cfg!(feature = "parallel"),
            plan: Vec::new(),
            timing: false,
        }
    }
}

impl<W: SystemWorld> fmt::Debug for Schedule<W> {
    /// The system names, in run order: the systems themselves have nothing to show.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_list().entries(self.names()).finish()
    }
}

impl<W: SystemWorld> Schedule<W> {
    /// An empty schedule.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `systems` (one system, or a tuple of them, run in the tuple's order) after every
    /// system already in (in the last stage, if there are stages), each named after its
    /// function (`movement`; a second `movement` is `movement#2`):
    /// `schedule.add((movement, collide, damage))`.
    pub fn add<Marker>(&mut self, systems: impl Systems<W, Marker>) -> &mut Self {
        systems.add_to(self);
        self
    }

    /// Appends one system under the name of its function (unique: `#2`, `#3` after a taken one).
    fn add_one<Marker: 'static>(&mut self, system: impl System<W, Marker> + 'static) {
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

    /// Appends `system` under `name`, to run after every system already in (in the last
    /// stage, if there are stages).
    pub fn push<Marker: 'static>(
        &mut self,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.plan.clear();
        self.entries.push(Entry::system(name, system));
        Ok(self)
    }

    /// Appends a stage named `name`: systems pushed from now on (with [`push`](Self::push)) or
    /// pushed to it (with [`push_to_stage`](Self::push_to_stage)) run in it, after the
    /// systems of earlier stages.
    pub fn add_stage(&mut self, name: impl Into<String>) -> Result<&mut Self, ScheduleError> {
        self.push_stage(name.into(), false)
    }

    /// Appends a deferred stage named `name`: like [`add_stage`](Self::add_stage), but the
    /// commands its systems queue are applied together at the stage's end, not after each
    /// system. Faster for many systems that queue little, but a system of the stage does not
    /// see what an earlier one of the same stage queued.
    pub fn add_deferred_stage(
        &mut self,
        name: impl Into<String>,
    ) -> Result<&mut Self, ScheduleError> {
        self.push_stage(name.into(), true)
    }

    fn push_stage(&mut self, name: String, deferred: bool) -> Result<&mut Self, ScheduleError> {
        if self.stage_position(&name).is_ok() {
            return Err(ScheduleError::DuplicateStage(name));
        }
        self.edit().push(Entry::Stage { name, deferred });
        Ok(self)
    }

    /// Appends `system` under `name` at the end of the stage `stage`, before the systems of
    /// later stages.
    ///
    /// A taken `name` is reported before a missing `stage`.
    pub fn push_to_stage<Marker: 'static>(
        &mut self,
        stage: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        let end = self.stage_range(stage)?.end;
        self.edit().insert(end, Entry::system(name, system));
        Ok(self)
    }

    /// The stage names, in run order.
    pub fn stage_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Stage { name, .. } => Some(name.as_str()),
            Entry::System { .. } => None,
        })
    }

    /// Runs the systems of the stage `stage` once, in order, on `world`, with the stage's
    /// sync points (see [`run`](Self::run)). Returns what applying the commands did.
    pub fn run_stage(
        &mut self,
        stage: &str,
        world: &mut W,
    ) -> Result<CommandReport, ScheduleError> {
        // From the stage's own mark, which sets its sync rule.
        let range = self.stage_range(stage)?;
        Ok(self.run_range(range.start - 1..range.end, world))
    }

    /// Inserts `system` under `name`, to run right before the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_before<Marker: 'static>(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.insert_next_to(anchor, 0, Entry::system(name, system))
    }

    /// Inserts `system` under `name`, to run right after the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_after<Marker: 'static>(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.insert_next_to(anchor, 1, Entry::system(name, system))
    }

    /// Inserts `system` (whose name the caller checked is free) at `anchor`'s index plus
    /// `offset` (0: before it, 1: after it).
    fn insert_next_to(
        &mut self,
        anchor: &str,
        offset: usize,
        system: Entry<W>,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(anchor)?;
        self.edit().insert(index + offset, system);
        Ok(self)
    }

    /// Swaps the system named `name` for `system`, keeping its place in the order. The old
    /// system, and any state it held (its closure's and its context), is dropped: the new one
    /// starts with a first run.
    pub fn replace<Marker: 'static>(
        &mut self,
        name: &str,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(name)?;
        let mut entry = Entry::system(name.to_owned(), system);
        if let Entry::System { context, .. } = &mut entry {
            *context = SystemContext::replacing(name.to_owned());
        }
        self.edit()[index] = entry;
        Ok(self)
    }

    /// Runs the system named `name` only when `condition` returns `true` (every `n`th frame,
    /// while a resource says the game is not paused). A skipped system does not run at all:
    /// its memory stays at its last real run, so when it runs again it sees everything since.
    /// Replaces the condition set before; [`replace`](Self::replace) clears it.
    pub fn run_if(
        &mut self,
        name: &str,
        condition: impl FnMut(&W) -> bool + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(name)?;
        self.set_condition(index, Box::new(condition));
        Ok(self)
    }

    /// Sets the run condition of the system at `index` (a stage mark has none).
    fn set_condition(&mut self, index: usize, condition: BoxedCondition<W>) {
        if let Some(Entry::System {
            condition: slot, ..
        }) = self.edit().get_mut(index)
        {
            *slot = Some(condition);
        }
    }

    /// Removes the system named `name`. Returns `false` if there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.position(name) {
            Ok(index) => {
                // Dropping the system drops whatever state it held.
                drop(self.edit().remove(index));
                true
            }
            Err(_) => false,
        }
    }

    /// Whether a system is named `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_ok()
    }

    /// The system names, in run order.
    pub fn names(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.entries.iter().filter_map(Entry::system_name)
    }

    /// Number of systems.
    pub fn len(&self) -> usize {
        self.names().count()
    }

    /// Whether there is no system.
    pub fn is_empty(&self) -> bool {
        self.names().next().is_none()
    }

    /// Whether systems run side by side (see [`set_parallel`](Self::set_parallel)).
    pub fn is_parallel(&self) -> bool {
        self.parallel
    }

    /// Runs neighbouring systems of parameters whose access is disjoint side by side (`true`,
    /// the default with the `parallel` feature: on rayon's threads), or every system alone, in
    /// order (`false`, the default without it). Either way the world after a run is the same,
    /// byte for byte: systems that conflict run in the order they were added, each system
    /// sees the tick it would see in order, and a system that queues commands ends its batch
    /// (its commands are applied before any later system runs). Without the feature, `true`
    /// runs the batches' systems one after another on this thread.
    pub fn set_parallel(&mut self, parallel: bool) -> &mut Self {
        self.parallel = parallel;
        self
    }

    /// Times every system's runs from now on (`true`), or stops (`false`, the default): each
    /// system's [`SystemTiming`] sums the time of its calls (fetching its parameters and
    /// running it, not applying the commands it queued) and counts them; a run its condition
    /// skips is not counted. Each system is timed, not each batch: in a batch run side by side
    /// each system's call is timed on the thread that runs it (the batch's parameters are
    /// fetched together, untimed), so the times of a batch overlap. Turning timing off keeps
    /// the sums; see [`clear_timings`](Self::clear_timings). Off, timing costs one branch per
    /// system run.
    #[cfg(feature = "std")]
    pub fn set_timing(&mut self, timing: bool) -> &mut Self {
        self.timing = timing;
        self
    }

    /// Whether systems are timed (see [`set_timing`](Self::set_timing)).
    #[cfg(feature = "std")]
    pub fn is_timing(&self) -> bool {
        self.timing
    }

    /// Each system's name and timing, in run order (see [`set_timing`](Self::set_timing)). A
    /// system added or replaced since timing began counts from then.
    #[cfg(feature = "std")]
    pub fn timings(&self) -> impl DoubleEndedIterator<Item = (&str, SystemTiming)> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::System { name, timing, .. } => Some((name.as_str(), *timing)),
            Entry::Stage { .. } => None,
        })
    }

    /// Sets every system's timing back to nothing: no run, no time.
    #[cfg(feature = "std")]
    pub fn clear_timings(&mut self) -> &mut Self {
        for entry in &mut self.entries {
            if let Entry::System { timing, .. } = entry {
                *timing = SystemTiming::default();
            }
        }
        self
    }

    /// The systems that run side by side, batch by batch, in run order, when the schedule runs
    /// in parallel on a world with nothing pending (see [`set_parallel`](Self::set_parallel));
    /// a system that runs alone is a batch of one. A system with a run condition starts a batch.
    pub fn batches(&self) -> Vec<Vec<&str>> {
        let mut batches = Vec::new();
        let mut index = 0;
        while index < self.entries.len() {
            let end = Self::batch_end(&self.entries, index);
            let batch: Vec<&str> = self.entries[index..end]
                .iter()
                .filter_map(Entry::system_name)
                .collect();
            if !batch.is_empty() {
                batches.push(batch);
            }
            index = end;
        }
        batches
    }

    /// Runs every system once, in order, on `world`. Each system sees what changed since its
    /// own previous run through its context; after each system the tick advances, and the
    /// commands it queued are applied before the next one runs (in a deferred stage, at the
    /// stage's end). Returns what applying the commands did, summed.
    ///
    /// If a system panics, the ones after it do not run; its commands stay queued.
    pub fn run(&mut self, world: &mut W) -> CommandReport {
        self.run_range(0..self.entries.len(), world)
    }

    /// The entries, for an edit: the batches planned from them are stale. (Appending a system
    /// clears the plan itself: its `self.entries.push(Entry::system(..))` is the line a
    /// conflict's compile error names, pinned in `macro_tests/ui`.)
    fn edit(&mut self) -> &mut Vec<Entry<W>> {
        self.plan.clear();
        &mut self.entries
    }

    /// Runs the entries in `range` (planning the batches first, if the schedule is parallel
    /// and was edited since they were planned).
    fn run_range(&mut self, range: core::ops::Range<usize>, world: &mut W) -> CommandReport {
        if self.parallel && self.plan.len() != self.entries.len() {
            let entries = &self.entries;
            self.plan = (0..entries.len())
                .map(|start| Self::batch_end(entries, start) - start)
                .collect();
        }
        let plan = self.parallel.then(|| &self.plan[range.clone()]);
        Self::run_entries(&mut self.entries[range], plan, self.timing, world)
    }

    /// Runs the systems among `entries` in order. A stage mark starts its stage's sync rule:
    /// commands applied after each system (after each batch, when systems run side by side:
    /// a batch's one system with commands is its last), or, in a deferred stage, once at its
    /// end. `plan` holds each entry's batch length when the systems run side by side.
    fn run_entries(
        entries: &mut [Entry<W>],
        plan: Option<&[usize]>,
        timed: bool,
        world: &mut W,
    ) -> CommandReport {
        let mut report = CommandReport::default();
        let mut deferred = false;
        // Work pending from before the run (queued commands, hooks) is applied at the first
        // sync point: until then, systems run alone.
        let mut batching = plan.is_some() && world.is_settled();
        let mut index = 0;
        while index < entries.len() {
            let end = match plan {
                Some(plan) if batching => index + plan[index],
                _ => index + 1,
            };
            match &mut entries[index] {
                Entry::Stage {
                    deferred: stage_deferred,
                    ..
                } => {
                    if deferred {
                        // The end of the previous, deferred, stage.
                        report.absorb(world.apply_commands());
                    }
                    deferred = *stage_deferred;
                }
                Entry::System {
                    run,
                    context,
                    condition,
                    timing,
                    ..
                } => {
                    if condition
                        .as_mut()
                        .is_some_and(|condition| !condition(world))
                    {
                        index += 1;
                        continue;
                    }
                    if end - index == 1 {
                        let stopwatch = Stopwatch::start(timed);
                        context.run_deferred(world, &mut |world, context| run.call(world, context));
                        stopwatch.stop(timing);
                    } else {
                        let mut held: Vec<Member<'_, W>> = entries[index..end]
                            .iter_mut()
                            .filter_map(|entry| match entry {
                                Entry::System {
                                    run,
                                    context,
                                    timing,
                                    ..
                                } => Some(Member {
                                    context,
                                    system: &mut **run,
                                    timing: timed.then_some(timing),
                                }),
                                Entry::Stage { .. } => None,
                            })
                            .collect();
                        let mut members: Vec<BatchMember<'_, W>> = held
                            .iter_mut()
                            .map(|member| BatchMember(member as &mut dyn BatchSystem<W>))
                            .collect();
                        world.run_batch(&mut members);
                    }
                    if !deferred {
                        report.absorb(world.apply_commands());
                        batching = plan.is_some();
                    }
                }
            }
            index = end;
        }
        if deferred {
            report.absorb(world.apply_commands());
        }
        report
    }

    /// The end of the batch starting at `start`: the systems of parameters after it, up to a
    /// stage mark, a whole-world system, a system with a run condition (its condition reads the
    /// world as the systems before it leave it) or one whose access conflicts with the batch's;
    /// a system that queues commands is a batch's last.
    fn batch_end(entries: &[Entry<W>], start: usize) -> usize {
        let Some(Entry::System {
            access: Some(first),
            ..
        }) = entries.get(start)
        else {
            return start + 1;
        };
        if first.commands {
            return start + 1;
        }
        // The batch's access together: a system conflicts with one of its members exactly
        // when it conflicts with their union (every conflict is an overlap of bit sets).
        let mut batch = *first;
        let mut end = start + 1;
        while let Some(Entry::System {
            access: Some(access),
            condition: None,
            group_start: false,
            ..
        }) = entries.get(end)
        {
            if batch.conflicts_with_system(*access) {
                break;
            }
            batch = batch.and(*access);
            end += 1;
            if access.commands {
                break;
            }
        }
        end
    }

    /// The entries of the stage `stage`: after its mark, up to the next mark.
    fn stage_range(&self, stage: &str) -> Result<core::ops::Range<usize>, ScheduleError> {
        let start = self.stage_position(stage)? + 1;
        let length = self.entries[start..]
            .iter()
            .position(|entry| matches!(entry, Entry::Stage { .. }))
            .unwrap_or(self.entries.len() - start);
        Ok(start..start + length)
    }

    fn stage_position(&self, stage: &str) -> Result<usize, ScheduleError> {
        self.entries
            .iter()
            .position(|entry| matches!(entry, Entry::Stage { name, .. } if name == stage))
            .ok_or_else(|| ScheduleError::UnknownStage(stage.to_owned()))
    }

    fn position(&self, name: &str) -> Result<usize, ScheduleError> {
        // A linear scan: schedules hold tens of systems and are edited rarely, so a name index
        // would cost more to keep in step than it saves.
        self.entries
            .iter()
            .position(|entry| entry.system_name() == Some(name))
            .ok_or_else(|| ScheduleError::UnknownName(name.to_owned()))
    }

    /// `name`, if no system has it yet.
    fn unused(&self, name: String) -> Result<String, ScheduleError> {
        if self.contains(&name) {
            Err(ScheduleError::DuplicateName(name))
        } else {
            Ok(name)
        }
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

#[cfg(test)]
mod tests;
