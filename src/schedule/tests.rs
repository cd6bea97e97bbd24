use super::*;
use crate::commands::CommandReport;
use crate::events::{EventChannel, EventCursor};
use crate::tick::Tick;
use alloc::borrow::ToOwned;
use alloc::string::ToString;

/// A stand-in world: systems append their mark to the log, or queue it as a command that
/// `apply_commands` appends; it keeps a tick and one event channel.
#[derive(Default)]
struct Log {
    marks: Vec<String>,
    queued: Vec<String>,
    tick: Tick,
    events: EventChannel<u32>,
}

/// The stand-in world's per-system cursors: one channel.
#[derive(Default)]
struct LogCursors {
    events: EventCursor,
}

impl SystemWorld for Log {
    type EventCursors = LogCursors;

    fn apply_commands(&mut self) -> CommandReport {
        let applied = self.queued.len();
        self.marks.append(&mut self.queued);
        CommandReport {
            applied,
            skipped: 0,
        }
    }

    fn current_tick(&self) -> Tick {
        self.tick
    }

    fn increment_tick(&mut self) -> Tick {
        self.tick = self.tick.next();
        self.tick
    }
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
fn add_takes_one_system_alone_or_in_a_tuple_of_any_length() {
    let mut schedule = Schedule::new();
    schedule.add(plain_function_system);
    schedule.add((plain_function_system,));
    schedule.add((plain_function_system, plain_function_system));
    assert_eq!(
        names(&schedule),
        [
            "plain_function_system",
            "plain_function_system#2",
            "plain_function_system#3",
            "plain_function_system#4"
        ]
    );
    assert_eq!(run_once(&mut schedule), ["plain"; 4]);
}

#[test]
fn add_takes_systems_with_their_conditions_in_nested_tuples() {
    fn other(log: &mut Log) {
        log.marks.push("other".to_owned());
    }
    let mut schedule = Schedule::new();
    let mut calls = 0;
    schedule.add((
        plain_function_system.run_if(move |_: &Log| {
            calls += 1;
            calls % 2 == 0
        }),
        (plain_function_system, other),
    ));
    assert_eq!(
        names(&schedule),
        ["plain_function_system", "plain_function_system#2", "other"]
    );
    // The condition holds on every second run: the first system runs then.
    assert_eq!(run_once(&mut schedule), ["plain", "other"]);
    assert_eq!(run_once(&mut schedule), ["plain", "plain", "other"]);
    assert_eq!(run_once(&mut schedule), ["plain", "other"]);
    // Replaced by name, the system loses its condition.
    schedule
        .replace("plain_function_system", plain_function_system)
        .unwrap();
    assert_eq!(run_once(&mut schedule), ["plain", "plain", "other"]);
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
    struct NoDefault(Tick);
    impl SystemWorld for NoDefault {
        type EventCursors = ();
        fn apply_commands(&mut self) -> CommandReport {
            CommandReport::default()
        }
        fn current_tick(&self) -> Tick {
            self.0
        }
        fn increment_tick(&mut self) -> Tick {
            self.0 = self.0.next();
            self.0
        }
    }
    let mut schedule: Schedule<NoDefault> = Schedule::default();
    assert!(schedule.is_empty());
    schedule.push("noop", |_: &mut NoDefault| {}).unwrap();
    let mut world = NoDefault(Tick(7));
    schedule.run(&mut world);
    assert_eq!(world.0, Tick(8), "one system: one tick");
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
    let mut schedule: Schedule<Log> = Schedule::new();
    let mut calls = 0;
    schedule
        .push("count", move |log: &mut Log| {
            calls += 1;
            log.marks.push(calls.to_string());
        })
        .unwrap();
    let mut log = Log::default();
    for _ in 0..3 {
        schedule.run(&mut log);
    }
    assert_eq!(log.marks, ["1", "2", "3"]);
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
        .push("write", |log: &mut Log| log.marks.push("5".to_owned()))
        .unwrap()
        .push("double", |log: &mut Log| {
            let value: u32 = log.marks[0].parse().unwrap();
            log.marks[0] = (value * 2).to_string();
        })
        .unwrap();
    assert_eq!(run_once(&mut schedule), ["10"]);
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

/// A system that records, per run, whether it was a first run and the tick it compares against.
fn remembering(name: &'static str) -> impl FnMut(&mut Log, &mut SystemContext<Log>) + 'static {
    move |log: &mut Log, context: &mut SystemContext<Log>| {
        log.marks.push(format!(
            "{name}: first {} since {}",
            context.is_first_run(),
            context.last_run().0
        ));
    }
}

#[test]
fn each_system_compares_against_the_tick_its_own_previous_run_ended_at() {
    let mut schedule = Schedule::new();
    schedule
        .push("a", remembering("a"))
        .unwrap()
        .push("b", remembering("b"))
        .unwrap();
    let mut log = Log {
        tick: Tick(10),
        ..Log::default()
    };
    schedule.run(&mut log);
    // A first run compares against a tick older than any stamp: 2^31 - 1 behind.
    let oldest = |now: u32| now.wrapping_sub(i32::MAX as u32);
    assert_eq!(
        log.marks,
        [
            format!("a: first true since {}", oldest(10)),
            format!("b: first true since {}", oldest(11)),
        ]
    );
    assert_eq!(log.tick, Tick(12), "the tick advances after every system");
    log.marks.clear();
    log.increment_tick(); // the game's own frame end
    schedule.run(&mut log);
    assert_eq!(
        log.marks,
        ["a: first false since 10", "b: first false since 11"]
    );
}

#[test]
fn a_system_added_late_or_replaced_starts_with_a_first_run() {
    let mut schedule = Schedule::new();
    schedule.push("a", remembering("a")).unwrap();
    let mut log = Log::default();
    schedule.run(&mut log);
    schedule.push("late", remembering("late")).unwrap();
    log.marks.clear();
    schedule.run(&mut log);
    assert_eq!(log.marks[0], "a: first false since 0");
    assert!(
        log.marks[1].starts_with("late: first true"),
        "{:?}",
        log.marks
    );
    schedule.replace("a", remembering("a")).unwrap();
    log.marks.clear();
    schedule.run(&mut log);
    assert!(log.marks[0].starts_with("a: first true"), "{:?}", log.marks);
    assert_eq!(log.marks[1], "late: first false since 2");
}

#[test]
fn a_system_that_skips_runs_sees_everything_since_its_own_last_run() {
    let mut schedule = Schedule::new();
    schedule.add_stage("every_frame").unwrap();
    schedule.push("often", remembering("often")).unwrap();
    schedule.add_stage("rarely").unwrap();
    schedule.push("rare", remembering("rare")).unwrap();
    let mut log = Log::default();
    schedule.run(&mut log); // often at 0, rare at 1
    for _ in 0..3 {
        schedule.run_stage("every_frame", &mut log).unwrap(); // at 2, 3, 4
    }
    log.marks.clear();
    schedule.run(&mut log);
    assert_eq!(
        log.marks,
        ["often: first false since 4", "rare: first false since 1"]
    );
}

#[test]
fn a_world_whose_tick_went_back_is_seen_whole_again() {
    let mut schedule = Schedule::new();
    schedule.push("a", remembering("a")).unwrap();
    let mut log = Log {
        tick: Tick(100),
        ..Log::default()
    };
    schedule.run(&mut log);
    schedule.run(&mut log);
    log.tick = Tick(50); // restored to an earlier state
    log.marks.clear();
    schedule.run(&mut log);
    assert!(log.marks[0].starts_with("a: first true"), "{:?}", log.marks);
    log.marks.clear();
    schedule.run(&mut log);
    assert_eq!(log.marks, ["a: first false since 50"]);
}

#[test]
fn commands_are_applied_after_each_system_unless_the_stage_is_deferred() {
    /// Queues `name` as a command, and marks what it sees applied so far.
    fn queuer(name: &'static str) -> impl FnMut(&mut Log) + 'static {
        move |log: &mut Log| {
            log.marks.push(format!("{name} sees {}", log.marks.len()));
            log.queued.push(name.to_owned());
        }
    }
    let mut schedule = Schedule::new();
    schedule.push("first", queuer("first")).unwrap();
    schedule.add_deferred_stage("batch").unwrap();
    schedule.push("b1", queuer("b1")).unwrap();
    schedule.push("b2", queuer("b2")).unwrap();
    schedule.add_stage("after").unwrap();
    schedule.push("last", queuer("last")).unwrap();
    let mut log = Log::default();
    let report = schedule.run(&mut log);
    assert_eq!(
        log.marks,
        [
            "first sees 0",
            "first",
            "b1 sees 2",
            "b2 sees 3",
            "b1",
            "b2",
            "last sees 6",
            "last"
        ]
    );
    assert_eq!(report.applied, 4);
    assert!(log.queued.is_empty());

    log.marks.clear();
    let report = schedule.run_stage("batch", &mut log).unwrap();
    assert_eq!(log.marks, ["b1 sees 0", "b2 sees 1", "b1", "b2"]);
    assert_eq!(report.applied, 2);
    log.marks.clear();
    schedule.run_stage("after", &mut log).unwrap();
    assert_eq!(log.marks, ["last sees 0", "last"]);
}

#[test]
fn each_system_reads_each_event_once_through_its_own_cursor() {
    fn reader(name: &'static str) -> impl FnMut(&mut Log, &mut SystemContext<Log>) + 'static {
        move |log: &mut Log, context: &mut SystemContext<Log>| {
            let read: Vec<u32> = log
                .events
                .consume(&mut context.cursors.events)
                .into_iter()
                .copied()
                .collect();
            log.marks.push(format!("{name} {read:?}"));
        }
    }
    let mut schedule = Schedule::new();
    schedule.push("early", reader("early")).unwrap();
    schedule
        .push("send", |log: &mut Log| {
            let next = log.events.next_sequence() as u32;
            log.events.send(next);
        })
        .unwrap();
    schedule.push("late", reader("late")).unwrap();
    let mut log = Log::default();
    schedule.run(&mut log);
    schedule.run(&mut log);
    assert_eq!(log.marks, ["early []", "late [1]", "early [1]", "late [2]"]);
}

#[test]
fn a_context_runs_a_system_outside_a_schedule_as_a_schedule_would() {
    let mut log = Log::default();
    let mut context = SystemContext::<Log>::new();
    let mut system = remembering("alone");
    context.run(&mut log, &mut system);
    let report = context.run(
        &mut log,
        |log: &mut Log, context: &mut SystemContext<Log>| {
            log.queued
                .push(format!("queued, first {}", context.is_first_run()));
        },
    );
    assert_eq!(report.applied, 1);
    context.run(&mut log, &mut system);
    assert!(log.marks[0].starts_with("alone: first true"));
    assert_eq!(
        log.marks[1..],
        ["queued, first false", "alone: first false since 1"]
    );
}

#[test]
fn a_system_skipped_by_its_condition_keeps_its_memory_and_its_commands_unapplied() {
    let mut schedule = Schedule::new();
    schedule.push("a", remembering("a")).unwrap();
    let mut frame = 0;
    schedule
        .run_if("a", move |_: &Log| {
            frame += 1;
            frame % 3 == 1
        })
        .unwrap();
    let mut log = Log::default();
    for _ in 0..4 {
        schedule.run(&mut log);
        log.increment_tick(); // the frame's end
    }
    assert_eq!(log.marks.len(), 2, "frames 1 and 4: {:?}", log.marks);
    assert!(log.marks[0].starts_with("a: first true"));
    assert_eq!(
        log.marks[1], "a: first false since 0",
        "everything since its real run"
    );
    assert_eq!(
        schedule.run_if("zz", |_: &Log| true).err(),
        Some(ScheduleError::UnknownName("zz".to_owned()))
    );
    schedule.replace("a", remembering("again")).unwrap();
    log.marks.clear();
    schedule.run(&mut log);
    assert_eq!(log.marks.len(), 1, "replace clears the condition");
}

/// Each system's runs, by name, in run order.
#[cfg(feature = "std")]
fn runs(schedule: &Schedule<Log>) -> Vec<(&str, u64)> {
    schedule
        .timings()
        .map(|(name, timing)| (name, timing.runs))
        .collect()
}

#[cfg(feature = "std")]
#[test]
fn timing_counts_each_systems_runs_while_on_and_its_condition_lets_it_run() {
    let mut schedule = abc();
    let mut frame = 0;
    schedule
        .run_if("b", move |_: &Log| {
            frame += 1;
            frame % 2 == 0
        })
        .unwrap();
    assert!(!schedule.is_timing(), "off by default");
    let mut log = Log::default();
    schedule.run(&mut log);
    assert_eq!(
        runs(&schedule),
        [("a", 0), ("b", 0), ("c", 0)],
        "off: nothing"
    );
    assert!(schedule.set_timing(true).is_timing());
    for _ in 0..4 {
        schedule.run(&mut log);
    }
    assert_eq!(
        runs(&schedule),
        [("a", 4), ("b", 2), ("c", 4)],
        "b skipped every other frame, by its condition"
    );
    schedule.set_timing(false).run(&mut log);
    assert_eq!(
        runs(&schedule),
        [("a", 4), ("b", 2), ("c", 4)],
        "off keeps the sums"
    );
    schedule.clear_timings();
    assert!(
        schedule
            .timings()
            .all(|(_, timing)| timing == SystemTiming::default())
    );
}

#[cfg(feature = "std")]
#[test]
fn timing_sums_the_time_of_each_call() {
    let mut schedule = Schedule::new();
    schedule
        .push("sleeper", |_: &mut Log| {
            std::thread::sleep(core::time::Duration::from_millis(2))
        })
        .unwrap()
        .push("quick", mark("quick"))
        .unwrap()
        .set_timing(true);
    let mut log = Log::default();
    schedule.run(&mut log);
    schedule.run(&mut log);
    let timings: Vec<(&str, SystemTiming)> = schedule.timings().collect();
    assert_eq!(timings[0].0, "sleeper");
    assert!(
        timings[0].1.total >= core::time::Duration::from_millis(4),
        "a sleep is at least as long as asked: {:?}",
        timings[0].1
    );
    assert_eq!((timings[1].0, timings[1].1.runs), ("quick", 2));
}

#[cfg(feature = "std")]
#[test]
fn a_stage_run_alone_is_timed_and_a_replaced_or_added_system_counts_from_then() {
    let mut schedule = staged();
    schedule.set_timing(true);
    let mut log = Log::default();
    schedule.run(&mut log);
    schedule.run_stage("input", &mut log).unwrap();
    assert_eq!(runs(&schedule), [("read", 2), ("move", 1)]);
    schedule.replace("read", mark("new read")).unwrap();
    schedule.push("late", mark("late")).unwrap();
    assert_eq!(runs(&schedule), [("read", 0), ("move", 1), ("late", 0)]);
    schedule.run(&mut log);
    assert_eq!(runs(&schedule), [("read", 1), ("move", 2), ("late", 1)]);
}

/// A batch run by a pool of one thread (one core, or `RAYON_NUM_THREADS=1`) runs its calls
/// in order on the calling thread, and leaves the world a pool of two leaves.
#[cfg(feature = "parallel")]
mod one_thread {
    // The world's generated items this test does not use.
    #![allow(dead_code)]
    use crate::ResMut;

    #[derive(Default, Clone, Copy, Debug, PartialEq)]
    pub struct Speed(pub u32);
    #[derive(Default, Clone, Copy, Debug, PartialEq)]
    pub struct Frames(pub u32);

    crate::ecs! {
        World {
            number: u32 => NUMBER,
            speed: Speed => SPEED,
        }
        Resources {
            frames: Frames,
        }
    }

    fn grow(mut numbers: Query<&mut u32>) {
        numbers.for_each(|mut number| *number = *number * 3 + 1);
    }

    fn accelerate(mut speeds: Query<&mut Speed>) {
        speeds.for_each(|mut speed| speed.0 += 2);
    }

    fn count(mut frames: ResMut<Frames>) {
        frames.0 += 1;
    }

    fn frames_in_a_pool_of(threads: usize) -> (alloc::vec::Vec<(u32, Speed)>, Frames) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| {
            assert_eq!(rayon::current_num_threads(), threads);
            let mut world = World::new();
            for index in 0..10 {
                EntityBuilder::new()
                    .with_number(index)
                    .with_speed(Speed(index))
                    .spawn_one(&mut world);
            }
            let mut schedule = super::Schedule::new();
            schedule.add((grow, accelerate, count)).set_parallel(true);
            assert_eq!(schedule.batches(), [["grow", "accelerate", "count"]]);
            for _ in 0..3 {
                schedule.run(&mut world);
                world.step();
            }
            let rows = world
                .typed_query_ref::<(&u32, &Speed)>()
                .iter()
                .map(|(number, speed)| (*number, *speed))
                .collect();
            (rows, world.resources.frames)
        })
    }

    #[test]
    fn a_batch_in_a_pool_of_one_thread_runs_every_call() {
        let (rows, frames) = frames_in_a_pool_of(1);
        assert_eq!(frames, Frames(3));
        assert_eq!(rows[2], (((2 * 3 + 1) * 3 + 1) * 3 + 1, Speed(8)));
        assert_eq!(frames_in_a_pool_of(2), (rows, frames));
    }
}
