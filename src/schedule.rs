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

mod add;
mod batch;
mod conditional;
mod edit;
mod run;
pub mod system;
mod timing;

pub use crate::system::BatchMember;
use crate::system::SystemAccess;
pub use crate::system::SystemWorld;
pub use add::{OneSystem, Systems, Together, TogetherMarker, together};
use alloc::{boxed::Box, string::String, vec::Vec};
pub use batch::run_batch;
use batch::{DynSystem, Marked};
pub use conditional::{Conditional, ConditionalSystem, RunIf};
use core::fmt;
pub use system::{System, SystemContext};
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

// `add` and `push` stay in the type's own module: a system they refuse is reported against
// `Schedule::<W>::add` (a method of an impl in a submodule is named by the module's path).
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
}

#[cfg(test)]
mod tests;
