//! Schedules: named systems run one after another over a world.
//!
//! A system is any `FnMut(&mut W)`, so plain functions and closures that keep their own state
//! (an event cursor, a timer) both fit. Names make the order editable after the fact: a plugin
//! can insert its system before or after one it knows, or replace it, without rebuilding the
//! list. Mistakes in names are error values, never panics, so a game can report them.
//!
//! Stages are optional named marks in the order ("update", "render"): a system can be pushed
//! to the end of a stage, and one stage can run on its own (a fixed-step update several times
//! a frame, say).

use alloc::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};
use core::fmt;

/// A boxed system over a world of type `W`.
type BoxedSystem<W> = Box<dyn FnMut(&mut W)>;

/// One place in the run order: a stage mark, or a named system.
enum Entry<W> {
    /// Starts the stage of this name; it runs up to the next stage mark.
    Stage(String),
    System(String, BoxedSystem<W>),
}

impl<W> Entry<W> {
    fn system_name(&self) -> Option<&str> {
        match self {
            Entry::System(name, _) => Some(name),
            Entry::Stage(_) => None,
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
pub struct Schedule<W> {
    /// Stage marks and systems, in run order.
    entries: Vec<Entry<W>>,
}

impl<W> Default for Schedule<W> {
    /// An empty schedule; `W` need not be `Default`.
    fn default() -> Self {
        Schedule {
            entries: Vec::new(),
        }
    }
}

impl<W> fmt::Debug for Schedule<W> {
    /// The system names, in run order: the systems themselves have nothing to show.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_list().entries(self.names()).finish()
    }
}

impl<W> Schedule<W> {
    /// An empty schedule.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `system` under `name`, to run after every system already in (in the last
    /// stage, if there are stages).
    pub fn push(
        &mut self,
        name: impl Into<String>,
        system: impl FnMut(&mut W) + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.entries.push(Entry::System(name, Box::new(system)));
        Ok(self)
    }

    /// Appends a stage named `name`: systems pushed from now on (with [`push`](Self::push)) or
    /// pushed to it (with [`push_to_stage`](Self::push_to_stage)) run in it, after the
    /// systems of earlier stages.
    pub fn add_stage(&mut self, name: impl Into<String>) -> Result<&mut Self, ScheduleError> {
        let name = name.into();
        if self.stage_position(&name).is_ok() {
            return Err(ScheduleError::DuplicateStage(name));
        }
        self.entries.push(Entry::Stage(name));
        Ok(self)
    }

    /// Appends `system` under `name` at the end of the stage `stage`, before the systems of
    /// later stages.
    ///
    /// A taken `name` is reported before a missing `stage`.
    pub fn push_to_stage(
        &mut self,
        stage: &str,
        name: impl Into<String>,
        system: impl FnMut(&mut W) + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        let end = self.stage_range(stage)?.end;
        self.entries
            .insert(end, Entry::System(name, Box::new(system)));
        Ok(self)
    }

    /// The stage names, in run order.
    pub fn stage_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Stage(name) => Some(name.as_str()),
            Entry::System(..) => None,
        })
    }

    /// Runs the systems of the stage `stage` once, in order, on `world`.
    pub fn run_stage(&mut self, stage: &str, world: &mut W) -> Result<(), ScheduleError> {
        let range = self.stage_range(stage)?;
        Self::run_entries(&mut self.entries[range], world);
        Ok(())
    }

    /// Inserts `system` under `name`, to run right before the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_before(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl FnMut(&mut W) + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        self.insert_next_to(anchor, 0, name.into(), Box::new(system))
    }

    /// Inserts `system` under `name`, to run right after the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_after(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl FnMut(&mut W) + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        self.insert_next_to(anchor, 1, name.into(), Box::new(system))
    }

    /// Inserts at `anchor`'s index plus `offset` (0: before it, 1: after it).
    fn insert_next_to(
        &mut self,
        anchor: &str,
        offset: usize,
        name: String,
        system: BoxedSystem<W>,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name)?;
        let index = self.position(anchor)?;
        self.entries
            .insert(index + offset, Entry::System(name, system));
        Ok(self)
    }

    /// Swaps the system named `name` for `system`, keeping its place in the order. The old
    /// system, and any state it held, is dropped.
    pub fn replace(
        &mut self,
        name: &str,
        system: impl FnMut(&mut W) + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(name)?;
        self.entries[index] = Entry::System(name.to_owned(), Box::new(system));
        Ok(self)
    }

    /// Removes the system named `name`. Returns `false` if there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.position(name) {
            Ok(index) => {
                // Dropping the system drops whatever state it held.
                drop(self.entries.remove(index));
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

    /// Runs every system once, in order, on `world`.
    pub fn run(&mut self, world: &mut W) {
        Self::run_entries(&mut self.entries, world);
    }

    fn run_entries(entries: &mut [Entry<W>], world: &mut W) {
        for entry in entries {
            if let Entry::System(_, system) = entry {
                system(world);
            }
        }
    }

    /// The entries of the stage `stage`: after its mark, up to the next mark.
    fn stage_range(&self, stage: &str) -> Result<core::ops::Range<usize>, ScheduleError> {
        let start = self.stage_position(stage)? + 1;
        let length = self.entries[start..]
            .iter()
            .position(|entry| matches!(entry, Entry::Stage(_)))
            .unwrap_or(self.entries.len() - start);
        Ok(start..start + length)
    }

    fn stage_position(&self, stage: &str) -> Result<usize, ScheduleError> {
        self.entries
            .iter()
            .position(|entry| matches!(entry, Entry::Stage(name) if name == stage))
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// A stand-in world: systems append their mark to the log.
    #[derive(Default)]
    struct Log {
        marks: Vec<String>,
    }

    /// A system that appends `mark` to the log.
    fn mark(mark: &'static str) -> impl FnMut(&mut Log) + 'static {
        move |log: &mut Log| log.marks.push(mark.to_owned())
    }

    fn plain_function_system(log: &mut Log) {
        log.marks.push("plain".to_owned());
    }

    /// The marks one run of `schedule` leaves.
    fn run_once(schedule: &mut Schedule<Log>) -> Vec<String> {
        let mut log = Log::default();
        schedule.run(&mut log);
        log.marks
    }

    fn names(schedule: &Schedule<Log>) -> Vec<&str> {
        schedule.names().collect()
    }

    /// A schedule of systems "a", "b", "c", each marking its own name.
    fn abc() -> Schedule<Log> {
        let mut schedule = Schedule::new();
        for name in ["a", "b", "c"] {
            schedule.push(name, mark(name)).unwrap();
        }
        schedule
    }

    #[test]
    fn a_new_schedule_is_empty_and_runs_nothing() {
        let mut schedule: Schedule<Log> = Schedule::default();
        assert!(schedule.is_empty());
        assert_eq!(schedule.len(), 0);
        assert_eq!(schedule.names().count(), 0);
        assert!(run_once(&mut schedule).is_empty());
    }

    #[test]
    fn default_does_not_need_a_default_world() {
        struct NoDefault;
        let schedule: Schedule<NoDefault> = Schedule::default();
        assert!(schedule.is_empty());
    }

    #[test]
    fn systems_run_once_each_in_push_order() {
        let mut schedule = abc();
        assert_eq!(run_once(&mut schedule), ["a", "b", "c"]);
        assert_eq!(names(&schedule), ["a", "b", "c"]);
        assert_eq!(schedule.len(), 3);
    }

    #[test]
    fn push_chains_with_question_mark() -> Result<(), ScheduleError> {
        let mut schedule = Schedule::new();
        schedule
            .push("a", mark("a"))?
            .push(String::from("b"), mark("b"))?
            .insert_before("a", "first", mark("first"))?;
        assert_eq!(run_once(&mut schedule), ["first", "a", "b"]);
        Ok(())
    }

    #[test]
    fn a_plain_function_is_a_system() {
        let mut schedule = Schedule::new();
        schedule.push("plain", plain_function_system).unwrap();
        let pointer: fn(&mut Log) = plain_function_system;
        schedule.push("pointer", pointer).unwrap();
        assert_eq!(run_once(&mut schedule), ["plain", "plain"]);
    }

    #[test]
    fn pushing_a_taken_name_is_an_error_and_changes_nothing() {
        let mut schedule = abc();
        let error = schedule.push("b", mark("other")).err();
        assert_eq!(error, Some(ScheduleError::DuplicateName("b".to_owned())));
        assert_eq!(run_once(&mut schedule), ["a", "b", "c"]);
    }

    #[test]
    fn insert_before_goes_right_before_the_anchor() {
        let mut schedule = abc();
        schedule.insert_before("a", "x", mark("x")).unwrap();
        schedule.insert_before("c", "y", mark("y")).unwrap();
        assert_eq!(names(&schedule), ["x", "a", "b", "y", "c"]);
        assert_eq!(run_once(&mut schedule), ["x", "a", "b", "y", "c"]);
    }

    #[test]
    fn insert_after_goes_right_after_the_anchor() {
        let mut schedule = abc();
        schedule.insert_after("c", "x", mark("x")).unwrap();
        schedule.insert_after("a", "y", mark("y")).unwrap();
        assert_eq!(names(&schedule), ["a", "y", "b", "c", "x"]);
        assert_eq!(run_once(&mut schedule), ["a", "y", "b", "c", "x"]);
    }

    #[test]
    fn inserting_next_to_an_inserted_system_works() {
        let mut schedule = abc();
        schedule.insert_after("a", "x", mark("x")).unwrap();
        schedule.insert_after("x", "y", mark("y")).unwrap();
        schedule.insert_before("x", "w", mark("w")).unwrap();
        assert_eq!(names(&schedule), ["a", "w", "x", "y", "b", "c"]);
    }

    #[test]
    fn inserting_with_a_missing_anchor_is_an_error_and_changes_nothing() {
        let mut schedule = abc();
        let unknown = Some(ScheduleError::UnknownName("zz".to_owned()));
        assert_eq!(schedule.insert_before("zz", "x", mark("x")).err(), unknown);
        assert_eq!(schedule.insert_after("zz", "x", mark("x")).err(), unknown);
        assert!(!schedule.contains("x"));
        assert_eq!(run_once(&mut schedule), ["a", "b", "c"]);
    }

    #[test]
    fn inserting_a_taken_name_is_an_error_and_changes_nothing() {
        let mut schedule = abc();
        let duplicate = Some(ScheduleError::DuplicateName("c".to_owned()));
        assert_eq!(schedule.insert_before("a", "c", mark("x")).err(), duplicate);
        assert_eq!(schedule.insert_after("a", "c", mark("x")).err(), duplicate);
        assert_eq!(
            schedule.insert_after("c", "c", mark("x")).err(),
            duplicate,
            "its own anchor"
        );
        assert_eq!(run_once(&mut schedule), ["a", "b", "c"]);
    }

    #[test]
    fn a_taken_name_is_reported_before_a_missing_anchor() {
        let mut schedule = abc();
        let error = schedule.insert_before("zz", "a", mark("x")).err();
        assert_eq!(error, Some(ScheduleError::DuplicateName("a".to_owned())));
    }

    #[test]
    fn replace_keeps_the_position() {
        let mut schedule = abc();
        schedule.replace("b", mark("B")).unwrap();
        assert_eq!(names(&schedule), ["a", "b", "c"]);
        assert_eq!(run_once(&mut schedule), ["a", "B", "c"]);
    }

    #[test]
    fn replacing_a_missing_system_is_an_error_and_changes_nothing() {
        let mut schedule = abc();
        let error = schedule.replace("zz", mark("x")).err();
        assert_eq!(error, Some(ScheduleError::UnknownName("zz".to_owned())));
        assert_eq!(run_once(&mut schedule), ["a", "b", "c"]);
    }

    #[test]
    fn remove_takes_out_only_the_named_system() {
        let mut schedule = abc();
        assert!(schedule.remove("b"));
        assert!(!schedule.contains("b"));
        assert!(!schedule.remove("b"), "already gone");
        assert!(!schedule.remove("zz"));
        assert_eq!(run_once(&mut schedule), ["a", "c"]);
        schedule.push("b", mark("b2")).unwrap();
        assert_eq!(run_once(&mut schedule), ["a", "c", "b2"], "name free again");
        assert!(schedule.remove("a") && schedule.remove("c") && schedule.remove("b"));
        assert!(schedule.is_empty());
    }

    #[test]
    fn contains_matches_whole_names_only() {
        let schedule = abc();
        assert!(schedule.contains("a"));
        assert!(!schedule.contains("A"));
        assert!(!schedule.contains("ab"));
        assert!(!schedule.contains(""));
    }

    #[test]
    fn a_stateful_closure_keeps_its_state_across_runs() {
        #[derive(Default)]
        struct Counter {
            seen: Vec<u32>,
        }
        let mut schedule: Schedule<Counter> = Schedule::new();
        let mut calls = 0;
        schedule
            .push("count", move |world: &mut Counter| {
                calls += 1;
                world.seen.push(calls);
            })
            .unwrap();
        let mut world = Counter::default();
        for _ in 0..3 {
            schedule.run(&mut world);
        }
        assert_eq!(world.seen, [1, 2, 3]);
    }

    #[test]
    fn replace_drops_the_old_state() {
        let mut schedule = Schedule::new();
        let mut runs = 0;
        schedule
            .push("count", move |log: &mut Log| {
                runs += 1;
                log.marks.push(runs.to_string());
            })
            .unwrap();
        run_once(&mut schedule);
        assert_eq!(run_once(&mut schedule), ["2"]);
        let mut runs = 0;
        schedule
            .replace("count", move |log: &mut Log| {
                runs += 10;
                log.marks.push(runs.to_string());
            })
            .unwrap();
        assert_eq!(run_once(&mut schedule), ["10"]);
    }

    #[test]
    fn later_systems_see_earlier_systems_writes() {
        let mut schedule = Schedule::new();
        schedule
            .push("write", |value: &mut u32| *value = 5)
            .unwrap()
            .push("double", |value: &mut u32| *value *= 2)
            .unwrap();
        let mut value = 1;
        schedule.run(&mut value);
        assert_eq!(value, 10);
    }

    #[test]
    fn errors_display_the_name_and_are_std_errors() {
        let duplicate = ScheduleError::DuplicateName("physics".to_owned());
        let unknown = ScheduleError::UnknownName("render".to_owned());
        assert_eq!(
            duplicate.to_string(),
            "the schedule already has a system named `physics`"
        );
        assert_eq!(
            unknown.to_string(),
            "the schedule has no system named `render`"
        );
        let boxed: Box<dyn core::error::Error> = Box::new(unknown.clone());
        assert_eq!(boxed.to_string(), unknown.to_string());
    }

    /// Stages "input" (system "read") and "update" ("move"), built out of order.
    fn staged() -> Schedule<Log> {
        let mut schedule = Schedule::new();
        schedule
            .add_stage("input")
            .unwrap()
            .add_stage("update")
            .unwrap();
        schedule
            .push_to_stage("update", "move", mark("move"))
            .unwrap();
        schedule
            .push_to_stage("input", "read", mark("read"))
            .unwrap();
        schedule
    }

    #[test]
    fn stages_run_in_order_whatever_order_systems_were_pushed_in() {
        let mut schedule = staged();
        assert_eq!(
            schedule.stage_names().collect::<Vec<_>>(),
            ["input", "update"]
        );
        assert_eq!(names(&schedule), ["read", "move"]);
        assert_eq!(run_once(&mut schedule), ["read", "move"]);
        // `push` goes to the last stage; `push_to_stage` to the end of its stage.
        schedule.push("late", mark("late")).unwrap();
        schedule
            .push_to_stage("input", "read2", mark("read2"))
            .unwrap();
        assert_eq!(run_once(&mut schedule), ["read", "read2", "move", "late"]);
        assert_eq!(schedule.len(), 4);
    }

    #[test]
    fn a_stage_runs_on_its_own() {
        let mut schedule = staged();
        schedule
            .push_to_stage("update", "move2", mark("move2"))
            .unwrap();
        let mut log = Log::default();
        schedule.run_stage("update", &mut log).unwrap();
        schedule.run_stage("update", &mut log).unwrap();
        assert_eq!(log.marks, ["move", "move2", "move", "move2"]);
        schedule.run_stage("input", &mut log).unwrap();
        assert_eq!(log.marks.last().map(String::as_str), Some("read"));
    }

    #[test]
    fn systems_before_the_first_stage_run_first_and_belong_to_none() {
        let mut schedule = Schedule::new();
        schedule.push("setup", mark("setup")).unwrap();
        schedule.add_stage("update").unwrap();
        schedule.push("tick", mark("tick")).unwrap();
        assert_eq!(run_once(&mut schedule), ["setup", "tick"]);
        let mut log = Log::default();
        schedule.run_stage("update", &mut log).unwrap();
        assert_eq!(log.marks, ["tick"]);
    }

    #[test]
    fn stage_mistakes_are_errors_and_change_nothing() {
        let mut schedule = staged();
        assert_eq!(
            schedule.add_stage("input").err(),
            Some(ScheduleError::DuplicateStage("input".into()))
        );
        assert_eq!(
            schedule.push_to_stage("render", "draw", mark("draw")).err(),
            Some(ScheduleError::UnknownStage("render".into()))
        );
        assert_eq!(
            schedule.push_to_stage("render", "move", mark("move")).err(),
            Some(ScheduleError::DuplicateName("move".into())),
            "a taken name is reported before a missing stage"
        );
        let mut log = Log::default();
        assert_eq!(
            schedule.run_stage("render", &mut log),
            Err(ScheduleError::UnknownStage("render".into()))
        );
        assert!(log.marks.is_empty());
        assert_eq!(names(&schedule), ["read", "move"]);
        assert_eq!(schedule.stage_names().count(), 2);
        assert_eq!(
            ScheduleError::UnknownStage("render".into()).to_string(),
            "the schedule has no stage named `render`"
        );
    }

    #[test]
    fn a_system_and_a_stage_may_share_a_name() {
        let mut schedule = Schedule::new();
        schedule.add_stage("physics").unwrap();
        schedule.push("physics", mark("physics")).unwrap();
        assert!(schedule.contains("physics"));
        schedule
            .insert_before("physics", "pre", mark("pre"))
            .unwrap();
        assert_eq!(run_once(&mut schedule), ["pre", "physics"]);
        assert!(schedule.remove("physics"));
        assert_eq!(schedule.stage_names().collect::<Vec<_>>(), ["physics"]);
    }

    #[test]
    fn debug_lists_the_names_in_order() {
        assert_eq!(format!("{:?}", abc()), r#"["a", "b", "c"]"#);
    }
}
