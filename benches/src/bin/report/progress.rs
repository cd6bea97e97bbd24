//! What the report shows while it runs: the step it is on (which workload, which process), how
//! many steps are done and about how long is left. A progress bar (indicatif) where stderr is a
//! terminal; one plain line per step where it is a file, a pipe or CI, so a log reads in order.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// One step of a run: what it does to which workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Every contender's checksum after the checked passes, compared, in the report's process.
    Check { workload: &'static str },
    /// One child process timing the workload.
    Time {
        workload: &'static str,
        process: usize,
        processes: usize,
    },
    /// The whole workload measured in the report's process (one process, `--quick`).
    Measure { workload: &'static str },
}

impl Step {
    fn label(self) -> String {
        match self {
            Step::Check { workload } => format!("checksums: {workload}"),
            Step::Time {
                workload,
                process,
                processes,
            } => format!("process {process} of {processes}: {workload}"),
            Step::Measure { workload } => format!("measuring: {workload}"),
        }
    }

    fn workload(self) -> &'static str {
        match self {
            Step::Check { workload } | Step::Time { workload, .. } | Step::Measure { workload } => {
                workload
            }
        }
    }

    fn same_kind(self, other: Step) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// Whether `other` does the same work as this step (the same kind of step on the same
    /// workload), so its time predicts this one's.
    fn same_work(self, other: Step) -> bool {
        self.same_kind(other) && self.workload() == other.workload()
    }
}

/// The time the steps not yet done should take: each step the mean time of the done steps of
/// the same work, or failing that of the same kind, or of every done step. `None` before the
/// first step is done.
///
/// The processes take turns across workloads, so once every workload has had its first
/// process, each later step is predicted by its own workload's earlier ones: a workload that
/// takes a minute and one that takes a second are not averaged into one rate.
pub fn time_left(steps: &[Step], took: &[Duration]) -> Option<Duration> {
    let done = &steps[..took.len()];
    let mean_of = |matches: &dyn Fn(Step) -> bool| {
        let times: Vec<Duration> = done
            .iter()
            .zip(took)
            .filter(|&(&step, _)| matches(step))
            .map(|(_, &time)| time)
            .collect();
        (!times.is_empty()).then(|| times.iter().sum::<Duration>() / times.len() as u32)
    };
    steps[took.len()..]
        .iter()
        .try_fold(Duration::ZERO, |left, &step| {
            let estimate = mean_of(&|done| done.same_work(step))
                .or_else(|| mean_of(&|done| done.same_kind(step)))
                .or_else(|| mean_of(&|_| true))?;
            Some(left + estimate)
        })
}

/// A duration of minutes or hours as a person reads it: `1h 05m`, `12m 30s`, `45s`.
pub fn format_long_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match (seconds / 3600, seconds / 60 % 60, seconds % 60) {
        (0, 0, seconds) => format!("{seconds}s"),
        (0, minutes, seconds) => format!("{minutes}m {seconds:02}s"),
        (hours, minutes, _) => format!("{hours}h {minutes:02}m"),
    }
}

/// The progress of a run planned as a list of [`Step`]s, done in order through [`step`].
///
/// [`step`]: Progress::step
pub struct Progress {
    steps: Vec<Step>,
    /// How long each done step took, in order.
    took: Vec<Duration>,
    /// The bar where stderr is a terminal; `None` prints plain lines.
    bar: Option<ProgressBar>,
    started: Instant,
}

impl Progress {
    pub fn new(steps: Vec<Step>) -> Progress {
        let terminal = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let bar = terminal.then(|| {
            // No steady tick: the bar is redrawn when a step starts or ends, and between them
            // this process only waits for a child that is timing, which a redrawing thread
            // would compete with for a core.
            let bar = ProgressBar::new(steps.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        Progress {
            steps,
            took: Vec::new(),
            bar,
            started: Instant::now(),
        }
    }

    /// Shows the next step and the time left, runs `work` (the step) and records its time.
    pub fn step<R>(&mut self, work: impl FnOnce() -> R) -> R {
        let index = self.took.len();
        let step = self.steps[index];
        let left = time_left(&self.steps, &self.took).map_or_else(
            || "time left known after the first step".to_string(),
            |left| format!("about {} left", format_long_duration(left)),
        );
        let line = format!("{}, {left}", step.label());
        match &self.bar {
            Some(bar) => bar.set_message(line),
            None => eprintln!("[{}/{}] {line}", index + 1, self.steps.len()),
        }
        let start = Instant::now();
        let result = work();
        self.took.push(start.elapsed());
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        result
    }

    /// Prints `text` (a child process's messages) to stderr, above the bar if there is one.
    pub fn print(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }

    /// Takes the bar away and says how long the whole run took.
    pub fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        eprintln!(
            "{} steps done in {}",
            self.took.len(),
            format_long_duration(self.started.elapsed())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(workload: &'static str, process: usize) -> Step {
        Step::Time {
            workload,
            process,
            processes: 3,
        }
    }

    #[test]
    fn time_left_predicts_each_step_from_its_own_workload() {
        let steps = [
            Step::Check { workload: "slow" },
            Step::Check { workload: "fast" },
            time("slow", 1),
            time("fast", 1),
            time("slow", 2),
            time("fast", 2),
        ];
        let seconds = Duration::from_secs;
        assert_eq!(time_left(&steps, &[]), None);
        // Only a check is done: every step is predicted from it.
        assert_eq!(time_left(&steps, &[seconds(2)]), Some(seconds(5 * 2)));
        // Both checks done: the timing steps, of another kind, are predicted by their mean.
        assert_eq!(
            time_left(&steps, &[seconds(2), seconds(4)]),
            Some(seconds(4 * 3))
        );
        // The first round done: each workload's second process takes what its first took.
        let took = [seconds(2), seconds(4), seconds(60), seconds(10)];
        assert_eq!(time_left(&steps, &took), Some(seconds(60 + 10)));
        let all = [seconds(1); 6];
        assert_eq!(time_left(&steps, &all), Some(Duration::ZERO));
    }

    #[test]
    fn long_durations_read_as_hours_minutes_or_seconds() {
        assert_eq!(format_long_duration(Duration::from_secs(45)), "45s");
        assert_eq!(format_long_duration(Duration::from_secs(750)), "12m 30s");
        assert_eq!(format_long_duration(Duration::from_secs(3900)), "1h 05m");
    }
}
