//! The interleaved report: every workload, every contender timed back to back, measured in
//! child processes that take turns across workloads.
//!
//! `benches/aligned.sh cargo run -p benches --release --bin report [-- --quick] [--only NAME]
//! [--processes N] [--out DIR]`
//! (`--only NAME` runs workload `NAME`, or every workload named `NAME_*`; several names,
//! comma-separated, run in one report)
//! (the workspace's release profile has `lto = "thin"`, `codegen-units = 1`, and criterion's
//! `bench` profile inherits it).
//!
//! On a shared machine, timings drift by tens of percent between runs and even between
//! minutes of one run. So contenders of a workload are never timed in separate phases: each
//! round times a sample of every contender back to back (in a rotated order), many passes per
//! sample, and the report takes the median over rounds. Worlds are rebuilt every few rounds, so
//! no contender keeps one lucky or unlucky memory layout. archetypal's ratio to a contender is
//! the median over rounds of the per-round ratio, so a slow minute slows both sides of it.
//!
//! Each workload is measured in several processes (`--processes N`, 15 by default, 1 with
//! `--quick`), each with its share of the rounds: a process fixes where the code and the heap
//! landed, which moves a tight loop by more than the noise of a minute, so the report takes
//! the median over processes and shows the range of the ratio across them. The processes take
//! turns across workloads (process 1 of each, then process 2 of each, ...), so every workload
//! is sampled over the whole run, not over the minute it happened to be measured in.
//!
//! Before timing, every contender runs three passes from a fresh setup and the checksums of a
//! workload must agree: no contender is measured doing less work. The parent checks this once
//! per workload, before any child runs; a child (the same executable) only measures.
//!
//! Every sample starts with one untimed pass of its contender, so its timed passes find its own
//! world in the caches, not the one the contender timed before it left there.
//!
//! Writes the markdown table to `benches/report.md` and a bar chart of the ratios to
//! `benches/report.svg` (or to `report.md` and `report.svg` in `--out DIR`), and prints the
//! table. The markdown ends with a goals table ([`GOALS`]) when a workload with a goal ran.
//!
//! While it runs, stderr shows the step it is on (a workload's checksums, or process `k` of a
//! workload), the steps done and an estimate of the time left ([`progress`]): a progress bar
//! on a terminal, one line per step otherwise.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use benches::{Contender, Kind, Pass, Workload, checksum_after_checked_passes, workloads};
use plotters::prelude::*;
use progress::{Progress, Step};

#[path = "report/progress.rs"]
mod progress;

/// How long the rounds run: the number of rounds per process, the length of one sample, and
/// the number of processes a workload is measured in.
#[derive(Clone, Copy, Debug)]
struct Budget {
    rounds: usize,
    sample: Duration,
    processes: usize,
    /// Whether this is the `--quick` budget (a child process is given the same).
    quick: bool,
}

const FULL: Budget = Budget {
    rounds: 9,
    sample: Duration::from_millis(8),
    processes: 15,
    quick: false,
};

const QUICK: Budget = Budget {
    rounds: 9,
    sample: Duration::from_millis(3),
    processes: 1,
    quick: true,
};

/// A goal set for one row: an archetypal row's time (or bytes per entity) at most `at_most`
/// times a contender's. The report's goals table shows each goal whose workload it measured,
/// and whether the median ratio meets it.
struct Goal {
    workload: &'static str,
    /// The archetypal row the goal is about: the workload's reference row (`archetypal`) or a
    /// variant of it (`archetypal [untracked]`).
    archetypal: &'static str,
    contender: &'static str,
    label: &'static str,
    at_most: f64,
    of: Quantity,
}

/// What a goal compares.
#[derive(Clone, Copy, PartialEq)]
enum Quantity {
    Time,
    /// The bytes each entity of the world holds (the `memory` workload).
    Bytes,
}

/// A goal on the reference row's time.
const fn time_goal(
    workload: &'static str,
    contender: &'static str,
    label: &'static str,
    at_most: f64,
) -> Goal {
    Goal {
        workload,
        archetypal: "archetypal",
        contender,
        label,
        at_most,
        of: Quantity::Time,
    }
}

/// The goals the issues set for single rows (issue 27's performance round, issue 24's system
/// rows, issue 25's hook rows, issue 44's schedule rows, issue 43's batch spawns and large
/// iteration). Ahead of a peer is at most 1.0.
const GOALS: &[Goal] = &[
    time_goal("simple_iter", "flecs", "simple_iter vs flecs (ahead)", 1.0),
    time_goal(
        "disabled_iter",
        "bevy_ecs",
        "disabled_iter vs bevy_ecs (ahead)",
        1.0,
    ),
    time_goal(
        "disabled_iter",
        benches::workloads::disabled_iter::NO_DISABLING,
        "disabled_iter vs no disabling (within 2%)",
        1.02,
    ),
    time_goal("simple_insert", "Vec", "simple_insert vs Vec floor", 1.25),
    time_goal(
        "simple_insert",
        "hecs",
        "simple_insert vs hecs (ahead)",
        1.0,
    ),
    time_goal(
        "simple_insert",
        "bevy_ecs",
        "simple_insert vs bevy_ecs (ahead)",
        1.0,
    ),
    time_goal(
        "simple_insert",
        "freecs",
        "simple_insert vs freecs (ahead)",
        1.0,
    ),
    time_goal(
        "simple_insert",
        "flecs",
        "simple_insert vs flecs (ahead)",
        1.0,
    ),
    time_goal(
        "large_iter",
        "Vec",
        "large_iter vs Vec floor (within 5%)",
        1.05,
    ),
    time_goal("large_iter", "flecs", "large_iter vs flecs (ahead)", 1.0),
    time_goal(
        "fragmented_iter",
        "Vec",
        "fragmented_iter vs unfragmented Vec",
        2.0,
    ),
    time_goal(
        "random_get_mut",
        "bevy_ecs",
        "random writes, tracked, vs bevy_ecs (which tracks)",
        0.6,
    ),
    Goal {
        archetypal: "archetypal [untracked]",
        ..time_goal(
            "random_get_mut",
            "hecs",
            "random writes, [untracked], vs hecs (ahead)",
            1.0,
        )
    },
    Goal {
        of: Quantity::Bytes,
        ..time_goal(
            "memory",
            "bevy_ecs",
            "bytes per entity, tracked, vs bevy_ecs",
            1.0,
        )
    },
    Goal {
        archetypal: "archetypal [untracked]",
        of: Quantity::Bytes,
        ..time_goal(
            "memory",
            "hecs",
            "bytes per entity, [untracked], vs hecs",
            1.0,
        )
    },
    time_goal("game_frame", "bevy_ecs", "game_frame vs bevy_ecs", 0.8),
    time_goal("rollback", "Vec", "rollback vs Vec floor", 1.5),
    time_goal(
        "game_despawn",
        "archetypal one world [builder]",
        "game_despawn vs one world, same builder API",
        1.3,
    ),
    time_goal(
        "queued_spawn",
        "archetypal spawn_values (floor)",
        "queued_spawn vs spawn_values floor",
        1.3,
    ),
    time_goal("queued_spawn", "hecs", "queued_spawn vs hecs (ahead)", 1.0),
    time_goal(
        "queued_spawn",
        "bevy_ecs",
        "queued_spawn vs bevy_ecs (ahead)",
        1.0,
    ),
    time_goal(
        "parent_propagate",
        "bevy_ecs",
        "parent_propagate vs bevy_ecs (ahead)",
        1.0,
    ),
    time_goal(
        "parent_propagate",
        "hecs",
        "parent_propagate vs hecs (ahead)",
        1.0,
    ),
    time_goal(
        "schedule_overhead",
        "bevy_ecs",
        "schedule_overhead vs bevy_ecs (ahead)",
        1.0,
    ),
    Goal {
        archetypal: "archetypal parallel schedule",
        ..time_goal(
            "schedule_overhead",
            "archetypal",
            "schedule_overhead, parallel schedule vs in order",
            2.0,
        )
    },
    time_goal(
        "parallel_systems",
        "archetypal in order",
        "parallel_systems, side by side vs in order (1.6x faster)",
        0.625,
    ),
    time_goal(
        "parallel_systems",
        "bevy_ecs multi-threaded executor",
        "parallel_systems vs bevy_ecs multi-threaded (ahead)",
        1.0,
    ),
    time_goal(
        "observer_add_remove",
        "bevy_ecs [hooks]",
        "observer_add_remove vs bevy_ecs hooks (ahead)",
        1.0,
    ),
    time_goal(
        "observer_add_remove",
        "bevy_ecs [observers]",
        "observer_add_remove vs bevy_ecs observers (ahead)",
        1.0,
    ),
    time_goal(
        "observer_despawn",
        "bevy_ecs [hooks]",
        "observer_despawn vs bevy_ecs hooks (ahead)",
        1.0,
    ),
    time_goal(
        "observer_despawn",
        "bevy_ecs [observers]",
        "observer_despawn vs bevy_ecs observers (ahead)",
        1.0,
    ),
    time_goal(
        "required_spawn",
        "bevy_ecs",
        "required_spawn vs bevy_ecs #[require] (ahead)",
        1.0,
    ),
    time_goal(
        "exclusive_switch",
        "bevy_ecs",
        "exclusive_switch vs bevy_ecs remove+insert (ahead)",
        1.0,
    ),
    time_goal(
        "exclusive_switch",
        "flecs",
        "exclusive_switch vs flecs Exclusive pair (ahead)",
        1.0,
    ),
];

/// A goal's ratio and, for a time, the lowest and highest of the processes' ratios.
type GoalRatio = (f64, Option<(f64, f64)>);

impl Goal {
    /// The goal's ratio; `None` if a row is missing. A variant's time ratio is derived from the
    /// two rows' ratios to the reference (each a median of per-round ratios), its range from
    /// their ranges' extremes.
    fn ratio(&self, rows: &[Measured]) -> Option<GoalRatio> {
        let row = |name: &str| rows.iter().find(|measured| measured.contender.name == name);
        let (archetypal, contender) = (row(self.archetypal)?, row(self.contender)?);
        match self.of {
            Quantity::Bytes => Some((
                archetypal.bytes_per_entity? / contender.bytes_per_entity?,
                None,
            )),
            Quantity::Time if archetypal.contender.kind == Kind::Archetypal => {
                Some((contender.ratio?, contender.ratio_range))
            }
            Quantity::Time => {
                let range = match (contender.ratio_range, archetypal.ratio_range) {
                    (Some((low, high)), Some((variant_low, variant_high))) => {
                        Some((low / variant_high, high / variant_low))
                    }
                    _ => None,
                };
                Some((contender.ratio? / archetypal.ratio?, range))
            }
        }
    }
}

/// The options, for `--help` and a mistyped argument.
const USAGE: &str = "[--quick] [--only WORKLOAD[,WORKLOAD..]] [--processes N] [--out DIRECTORY]";

/// The line prefix a child process reports a contender's figures with.
const RESULT_LINE: &str = "@result";

/// Every contender's world is rebuilt (untimed) after this many rounds.
const REBUILD_EVERY: usize = 2;

/// The timings of one contender: of one process, or the median over processes.
#[derive(Clone, Copy)]
struct Measured {
    contender: Contender,
    /// Rounds timed, over every process.
    rounds: usize,
    /// Median time per pass over rounds (over processes: the median of those).
    median: Duration,
    /// Interquartile range of the rounds' times, relative to the median (over processes: the
    /// median of those).
    spread: f64,
    /// archetypal's time over this contender's, median over rounds (over processes: the
    /// median of those); `None` without an archetypal reference.
    ratio: Option<f64>,
    /// The lowest and highest of the processes' ratios.
    ratio_range: Option<(f64, f64)>,
    /// `memory` only: the bytes the world built by one pass holds, per entity.
    bytes_per_entity: Option<f64>,
}

/// The results of one workload.
struct WorkloadResult {
    workload: Workload,
    checksum: u64,
    measured: Vec<Measured>,
}

fn main() {
    let mut budget = FULL;
    let mut processes = None;
    let mut only: Option<String> = None;
    let mut child: Option<String> = None;
    let mut layout_seed = 1;
    let mut directory = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => budget = QUICK,
            "--only" => only = args.next(),
            "--out" => directory = args.next().map(PathBuf::from).unwrap_or(directory),
            "--processes" => processes = args.next().and_then(|n| n.parse::<usize>().ok()),
            // Internal: measure the workload of exactly this name in this process and print
            // its figures for the parent.
            "--child" => child = args.next(),
            // Internal: which process of the workload this is, the seed of its layouts.
            "--layout" => layout_seed = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--help" => {
                println!("usage: report {USAGE}");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}; usage: report {USAGE}");
                std::process::exit(2);
            }
        }
    }
    if let Some(processes) = processes {
        budget.processes = processes.max(1);
    }

    if let Some(name) = child {
        let workload = workloads()
            .into_iter()
            .find(|workload| workload.name == name)
            .unwrap_or_else(|| panic!("no workload named {name}"));
        // The parent verified this workload's checksums before starting any child: a child
        // only measures.
        print_for_parent(&measure(&workload, budget, layout_seed));
        return;
    }

    // Said once, by the parent (a child would repeat them for every process).
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; run with --release");
    }
    if !loops_aligned() {
        eprintln!(
            "warning: loop alignment not pinned; run through benches/aligned.sh for figures \
             that repeat"
        );
    }

    let fixed_addresses = budget.processes > 1 && setarch_available();
    if budget.processes > 1 && !fixed_addresses {
        eprintln!(
            "warning: `setarch` not found: the measuring processes run with address-space \
             randomisation on, and two runs may disagree on rows that depend on the layout"
        );
    }

    let selected: Vec<Workload> = workloads()
        .into_iter()
        .filter(|workload| {
            only.as_deref()
                .is_none_or(|names| selects(names, workload.name))
        })
        .collect();
    let results = measure_in_processes(selected, budget, fixed_addresses);

    let markdown = markdown(&results, budget, fixed_addresses);
    println!("{markdown}");
    let markdown_path = directory.join("report.md");
    std::fs::create_dir_all(&directory).expect("create the --out directory");
    std::fs::write(&markdown_path, &markdown).expect("write report.md");
    let chart_path = directory.join("report.svg");
    chart(&results, &chart_path).expect("draw report.svg");
    eprintln!(
        "wrote {} and {}",
        markdown_path.display(),
        chart_path.display()
    );
}

/// Whether `setarch` (util-linux) can run a command here with address-space randomisation
/// off (`-R`).
fn setarch_available() -> bool {
    Command::new("setarch")
        .args([std::env::consts::ARCH, "-R", "true"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Measures every workload in `budget.processes` child processes of this executable and takes,
/// per workload, the median of its processes' figures. With one process, measures each here.
/// Either way each workload's checksums are verified once, here, before it is timed.
///
/// The processes take turns across workloads: process 1 of every workload, then process 2 of
/// every workload, and so on. A workload's processes are thus spread over the whole run, and a
/// slow or fast stretch of a shared machine (they last minutes, and moved some ratios by 20%
/// between two runs when a workload's processes ran back to back) weighs on every workload
/// alike instead of deciding the few measured during it.
///
/// Process `k` lays its worlds out from seed `k` ([`Layout`]), and with `fixed_addresses` it
/// runs with address-space randomisation off (`setarch -R`), so its code, stack and heap
/// start where process `k` of the last run had them: every run samples the same layouts,
/// and two runs of the same code agree even on rows whose time depends on the layout.
fn measure_in_processes(
    workloads: Vec<Workload>,
    budget: Budget,
    fixed_addresses: bool,
) -> Vec<WorkloadResult> {
    if budget.processes == 1 {
        let steps = workloads
            .iter()
            .map(|workload| Step::Measure {
                workload: workload.name,
            })
            .collect();
        let mut progress = Progress::new(steps);
        let results = workloads
            .into_iter()
            .map(|workload| {
                progress.step(|| {
                    let checksum = verify(&workload);
                    let measured = measure(&workload, budget, 1);
                    WorkloadResult {
                        workload,
                        checksum,
                        measured,
                    }
                })
            })
            .collect();
        progress.finish();
        return results;
    }
    let checks = workloads.iter().map(|workload| Step::Check {
        workload: workload.name,
    });
    let timings = (1..=budget.processes).flat_map(|process| {
        workloads.iter().map(move |workload| Step::Time {
            workload: workload.name,
            process,
            processes: budget.processes,
        })
    });
    let mut progress = Progress::new(checks.chain(timings).collect());
    // Every checksum first, and only here: a disagreement stops the run before any timing, and
    // the children (this same executable) do not verify again.
    let checksums: Vec<u64> = workloads
        .iter()
        .map(|workload| progress.step(|| verify(workload)))
        .collect();
    let mut runs: Vec<Vec<Vec<Measured>>> = vec![Vec::new(); workloads.len()];
    for process in 1..=budget.processes {
        for (workload, runs) in workloads.iter().zip(&mut runs) {
            let (measured, messages) =
                progress.step(|| run_child(workload, process, budget, fixed_addresses));
            progress.print(&messages);
            runs.push(measured);
        }
    }
    progress.finish();
    workloads
        .into_iter()
        .zip(checksums)
        .zip(runs)
        .map(|((workload, checksum), runs)| combine(workload, checksum, &runs))
        .collect()
}

/// Measures `workload` in one child process, its layouts from seed `process`. Returns its
/// figures and what it wrote to stderr, for the caller to print where the progress display
/// allows.
fn run_child(
    workload: &Workload,
    process: usize,
    budget: Budget,
    fixed_addresses: bool,
) -> (Vec<Measured>, String) {
    let executable = std::env::current_exe().expect("the report's own path");
    let mut command = if fixed_addresses {
        let mut setarch = Command::new("setarch");
        setarch
            .args([std::env::consts::ARCH, "-R"])
            .arg(&executable);
        setarch
    } else {
        Command::new(&executable)
    };
    let output = command
        .args(["--child", workload.name])
        .args(["--layout", &process.to_string()])
        .args(budget.quick.then_some("--quick"))
        .output()
        .expect("run a child process of the report");
    let messages = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{}: a child process failed:\n{messages}",
        workload.name
    );
    (
        parse_child(workload, &String::from_utf8_lossy(&output.stdout)),
        messages,
    )
}

/// A workload's result from its processes' figures: per contender, the median of their
/// medians and ratios, and the range of their ratios.
fn combine(workload: Workload, checksum: u64, runs: &[Vec<Measured>]) -> WorkloadResult {
    let measured = (0..workload.contenders.len())
        .map(|index| {
            let of: Vec<Measured> = runs.iter().map(|run| run[index]).collect();
            let ratios: Vec<f64> = of.iter().filter_map(|measured| measured.ratio).collect();
            let medians: Vec<f64> = of.iter().map(|m| m.median.as_secs_f64()).collect();
            let spreads: Vec<f64> = of.iter().map(|m| m.spread).collect();
            Measured {
                contender: of[0].contender,
                rounds: of.iter().map(|m| m.rounds).sum(),
                median: Duration::from_secs_f64(median(&medians)),
                spread: median(&spreads),
                ratio: (!ratios.is_empty()).then(|| median(&ratios)),
                ratio_range: (!ratios.is_empty()).then(|| {
                    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
                    let high = ratios.iter().copied().fold(0.0, f64::max);
                    (low, high)
                }),
                bytes_per_entity: of[0].bytes_per_entity,
            }
        })
        .collect();
    WorkloadResult {
        checksum,
        workload,
        measured,
    }
}

/// A child's report to its parent: one line per contender, in the workload's order.
fn print_for_parent(measured: &[Measured]) {
    for measured in measured {
        println!(
            "{RESULT_LINE}\t{}\t{}\t{}\t{}\t{}",
            measured.rounds,
            measured.median.as_secs_f64(),
            measured.spread,
            measured.ratio.unwrap_or(f64::NAN),
            measured.bytes_per_entity.unwrap_or(f64::NAN),
        );
    }
}

/// The figures a child printed, matched to `workload`'s contenders in order.
fn parse_child(workload: &Workload, stdout: &str) -> Vec<Measured> {
    let lines: Vec<Vec<&str>> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix(RESULT_LINE))
        .map(|line| line.trim_start_matches('\t').split('\t').collect())
        .collect();
    assert_eq!(
        lines.len(),
        workload.contenders.len(),
        "{}: a child reported another number of contenders",
        workload.name
    );
    let number = |field: &str| field.parse::<f64>().expect("a number from a child");
    let present = |value: f64| (!value.is_nan()).then_some(value);
    workload
        .contenders
        .iter()
        .zip(lines)
        .map(|(contender, fields)| Measured {
            contender: *contender,
            rounds: fields[0].parse().expect("a round count from a child"),
            median: Duration::from_secs_f64(number(fields[1])),
            spread: number(fields[2]),
            ratio: present(number(fields[3])),
            ratio_range: None,
            bytes_per_entity: present(number(fields[4])),
        })
        .collect()
}

/// Whether `--only NAMES` selects `workload`: NAMES is a comma-separated list, each an exact
/// workload name or a family of workloads named `NAME_...` (`--only tag_filter,tracking` runs
/// every `tag_filter_*` and `tracking_*` workload, in one report).
fn selects(names: &str, workload: &str) -> bool {
    names.split(',').any(|name| {
        workload
            .strip_prefix(name.trim())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
    })
}

/// Times every contender of `workload` interleaved, here, its worlds laid out from
/// `layout_seed` ([`Layout`]). Checks no checksum: the caller has run [`verify`] once for the
/// workload (the parent, before any child process).
fn measure(workload: &Workload, budget: Budget, layout_seed: u64) -> Vec<Measured> {
    let bytes: Vec<Option<f64>> = workload
        .contenders
        .iter()
        .map(|contender| {
            let entities = workload.memory_entities()?;
            Some(bytes_held_after_one_pass(contender) as f64 / entities as f64)
        })
        .collect();

    let mut passes: Vec<Box<dyn Pass>> = workload
        .contenders
        .iter()
        .map(|contender| (contender.setup)())
        .collect();
    let calls: Vec<u32> = passes
        .iter_mut()
        .map(|pass| calls_per_sample(pass.as_mut(), budget.sample))
        .collect();

    let count = passes.len();
    let mut per_pass = vec![Vec::with_capacity(budget.rounds); count];
    let mut layout = Layout::new(layout_seed);
    for round in 0..budget.rounds {
        if round > 0 && round % REBUILD_EVERY == 0 {
            // Fresh worlds at fresh addresses: a pass is sensitive to where its columns landed
            // (their offsets within a page, which cache sets they share), and one unlucky
            // layout must not decide the median.
            for (pass, contender) in passes.iter_mut().zip(&workload.contenders) {
                layout.shift();
                *pass = (contender.setup)();
                pass.run();
            }
        }
        for offset in 0..count {
            let index = (round + offset) % count;
            per_pass[index].push(sample(passes[index].as_mut(), calls[index]));
        }
    }

    let reference = workload
        .contenders
        .iter()
        .position(|contender| contender.kind == Kind::Archetypal);
    workload
        .contenders
        .iter()
        .zip(per_pass.iter())
        .zip(bytes)
        .map(|((contender, times), bytes_per_entity)| Measured {
            bytes_per_entity,
            contender: *contender,
            rounds: times.len(),
            ratio_range: None,
            median: median_duration(times),
            spread: spread(times),
            ratio: reference.map(|reference| {
                let ratios: Vec<f64> = per_pass[reference]
                    .iter()
                    .zip(times)
                    .map(|(archetypal, other)| archetypal.as_secs_f64() / other.as_secs_f64())
                    .collect();
                median(&ratios)
            }),
        })
        .collect()
}

/// A block of memory of a pseudo-random size held before each rebuild, so the next world's
/// allocations start at another offset of the heap: without it a rebuilt world reuses the
/// memory (and the page offsets) of the one it replaces, and a process keeps one layout. The
/// sizes follow from a seed, the process's number, so a run repeats the last one's layouts.
struct Layout {
    state: u64,
    spacer: Vec<u8>,
}

impl Layout {
    fn new(seed: u64) -> Self {
        Layout {
            // xorshift needs a state other than 0; spread small seeds over the bits.
            state: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            spacer: Vec::new(),
        }
    }

    /// Replaces the spacer by one of another size: a multiple of 16 bytes (the allocator's
    /// alignment) below 96 KiB, under the size the allocator would map on its own.
    fn shift(&mut self) {
        // xorshift64
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let bytes = (self.state % (96 * 1024 / 16)) as usize * 16;
        self.spacer = Vec::with_capacity(bytes);
    }
}

/// [`CHECKED_PASSES`](benches::CHECKED_PASSES) passes of every contender from a fresh setup;
/// panics unless all checksums agree.
fn verify(workload: &Workload) -> u64 {
    let checksums: Vec<(&str, u64)> = workload
        .contenders
        .iter()
        .map(|contender| (contender.name, checksum_after_checked_passes(contender)))
        .collect();
    let first = checksums[0].1;
    assert!(
        checksums.iter().all(|&(_, checksum)| checksum == first),
        "{}: contenders disagree after {} passes: {checksums:#x?}",
        benches::CHECKED_PASSES,
        workload.name
    );
    first
}

/// The bytes still allocated after one pass of `contender` from a fresh setup (the world it
/// built), counted by the global allocator of `allocation_counter` (this thread only: every
/// contender builds its world on the calling thread).
fn bytes_held_after_one_pass(contender: &Contender) -> i64 {
    let mut pass = (contender.setup)();
    allocation_counter::measure(|| pass.run()).bytes_current
}

/// Warms `pass` up and returns how many passes fill about one sample.
fn calls_per_sample(pass: &mut dyn Pass, sample: Duration) -> u32 {
    pass.run();
    let mut calls = 1u32;
    loop {
        let elapsed = time(pass, calls) * calls;
        if elapsed >= sample / 4 || calls >= 1 << 20 {
            let per_pass = elapsed.as_secs_f64() / f64::from(calls);
            let wanted = (sample.as_secs_f64() / per_pass).round();
            return (wanted as u32).clamp(1, 1 << 20);
        }
        calls *= 2;
    }
}

/// One sample of a contender in a round: one untimed pass, then [`time`] of `calls` passes.
/// The contender timed just before this one has filled the caches with its own world; the
/// untimed pass brings this contender's back, so the sample measures its passes and not what
/// the previous contender left behind (without it `large_iter`, a million entities, read 1.2x
/// flecs and the `Vec` while a pass alone took the same time in all three).
fn sample(pass: &mut dyn Pass, calls: u32) -> Duration {
    pass.run();
    // `run` returns nothing: what a pass produces is the world it leaves, so that is what the
    // optimiser is told may be read.
    std::hint::black_box(&mut *pass);
    time(pass, calls)
}

/// Runs `calls` passes and returns the time per pass.
fn time(pass: &mut dyn Pass, calls: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        pass.run();
    }
    start.elapsed() / calls
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    }
}

fn median_duration(times: &[Duration]) -> Duration {
    let seconds: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    Duration::from_secs_f64(median(&seconds))
}

/// Interquartile range over median.
fn spread(times: &[Duration]) -> f64 {
    let mut seconds: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    seconds.sort_by(f64::total_cmp);
    let quartile = |q: f64| seconds[((seconds.len() - 1) as f64 * q).round() as usize];
    (quartile(0.75) - quartile(0.25)) / median(&seconds)
}

fn format_duration(duration: Duration) -> String {
    let nanos = duration.as_secs_f64() * 1e9;
    if nanos < 1e3 {
        format!("{nanos:.1} ns")
    } else if nanos < 1e6 {
        format!("{:.2} µs", nanos / 1e3)
    } else {
        format!("{:.3} ms", nanos / 1e6)
    }
}

/// The contenders shown as columns of the ratio matrix and bars of the chart, in order.
fn columns<'a>(results: impl IntoIterator<Item = &'a WorkloadResult>) -> Vec<&'static str> {
    let mut names: Vec<(Kind, usize, &'static str)> = Vec::new();
    for result in results {
        for (position, measured) in result.measured.iter().enumerate() {
            let contender = measured.contender;
            if contender.kind != Kind::Archetypal
                && !names.iter().any(|&(_, _, name)| name == contender.name)
            {
                names.push((contender.kind, position, contender.name));
            }
        }
    }
    // Peers first, then baselines, then archetypal's other APIs.
    let rank = |kind: Kind| match kind {
        Kind::Peer => 0,
        Kind::Baseline => 1,
        Kind::ArchetypalVariant | Kind::Archetypal => 2,
    };
    names.sort_by_key(|&(kind, position, _)| (rank(kind), position));
    names.into_iter().map(|(_, _, name)| name).collect()
}

/// A note on a row that its label alone would misread: (a word for the ratio matrix, a
/// sentence for the table). freecs's `par_for_each_mut` splits work across tables only, and
/// `heavy_compute` has one table, so its row is a serial loop, not a parallel contender.
fn row_note(workload: &str, contender: &str) -> Option<(&'static str, &'static str)> {
    match (workload, contender) {
        ("heavy_compute", "freecs") => Some((
            "serial",
            "not a parallel contender: parallel across tables only, one table here",
        )),
        _ => None,
    }
}

/// A contender's label in the table: its name and, if it has one, its [`row_note`].
fn row_label(workload: &str, contender: &str) -> String {
    match row_note(workload, contender) {
        Some((_, note)) => format!("{contender} ({note})"),
        None => contender.to_string(),
    }
}

/// Whether this binary was built with every loop aligned to 64 bytes (`benches/aligned.sh`).
fn loops_aligned() -> bool {
    env!("BENCHES_RUSTFLAGS").contains("-align-loops=")
}

/// The processor the report ran on, as Linux names it, with its family and model numbers and
/// cache sizes: ratios move with the machine (two hosts of the same workplace gave
/// fragmented_iter 3.09 and 3.80 against the flat `Vec`), so a report says which it measured.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let Some(model_name) = field("model name") else {
        return "processor not named by /proc/cpuinfo".to_string();
    };
    let mut out = model_name;
    if let (Some(family), Some(model)) = (field("cpu family"), field("model")) {
        let _ = write!(out, ", family {family} model {model}");
    }
    let caches: Vec<String> = (0..8)
        .map_while(|index| {
            let read = |file: &str| {
                std::fs::read_to_string(format!(
                    "/sys/devices/system/cpu/cpu0/cache/index{index}/{file}"
                ))
                .ok()
                .map(|text| text.trim().to_string())
            };
            let (level, kind, size) = (read("level")?, read("type")?, read("size")?);
            Some(match kind.as_str() {
                "Data" => format!("L{level}d {size}"),
                "Instruction" => format!("L{level}i {size}"),
                _ => format!("L{level} {size}"),
            })
        })
        .collect();
    if !caches.is_empty() {
        let _ = write!(out, ", caches {}", caches.join(" / "));
    }
    out
}

fn markdown(results: &[WorkloadResult], budget: Budget, fixed_addresses: bool) -> String {
    let mut out = String::new();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let build = if loops_aligned() {
        "`benches/aligned.sh cargo run -p benches --release --bin report` (every loop aligned \
         to 64 bytes)"
    } else {
        "`cargo run -p benches --release --bin report` (loop alignment **not** pinned: \
         figures move with where each loop landed; use `benches/aligned.sh`)"
    };
    let _ = writeln!(out, "# archetypal vs peers: interleaved report\n");
    let _ = writeln!(
        out,
        "Generated by {build} on {threads} hardware threads ({}): each workload measured in {}{}, {} rounds each, \
         each round timing every contender back to back (rotated order), about {} ms of passes \
         per sample after one untimed pass, worlds rebuilt every {REBUILD_EVERY} rounds. Times are the median per \
         pass over rounds, then over processes; IQR is the interquartile range of the rounds \
         over the median. **ratio = archetypal time / contender time**, the median of the \
         per-round ratios, then over processes: below 1.00 archetypal is faster; the range \
         column gives the lowest and highest process's ratio. Every contender's checksum after \
         three passes from a fresh setup was checked equal once, before timing.\n",
        machine(),
        if budget.processes == 1 {
            "one process".to_string()
        } else {
            format!(
                "{} processes taking turns across workloads",
                budget.processes
            )
        },
        if fixed_addresses {
            " (address-space randomisation off, each process's layouts from its number: a run \
             repeats the last one's layouts)"
        } else {
            ""
        },
        budget.rounds,
        budget.sample.as_millis()
    );

    let _ = writeln!(
        out,
        "| workload | contender | API | median / pass | IQR | ratio | ratio range |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---:|---:|---:|");
    for result in results {
        for measured in &result.measured {
            let ratio = match (measured.contender.kind, measured.ratio) {
                (Kind::Archetypal, _) => "(reference)".to_string(),
                (_, Some(ratio)) => format!("{ratio:.2}"),
                (_, None) => "n/a".to_string(),
            };
            let range = match (measured.contender.kind, measured.ratio_range) {
                (Kind::Archetypal, _) | (_, None) => String::new(),
                (_, Some((low, high))) => format!("{low:.2}-{high:.2}"),
            };
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} | {:.0}% | {} | {} |",
                result.workload.name,
                row_label(result.workload.name, measured.contender.name),
                // A `|` splits a table cell even inside a code span.
                measured.contender.api.replace('|', "\\|"),
                format_duration(measured.median),
                measured.spread * 100.0,
                ratio,
                range
            );
        }
    }

    let weighed: Vec<&WorkloadResult> = results
        .iter()
        .filter(|result| result.measured.iter().any(|m| m.bytes_per_entity.is_some()))
        .collect();
    for result in &weighed {
        let _ = writeln!(
            out,
            "\n## {}: bytes per entity\n\nHeld by the world one pass built ({}), counted by a \
             counting global allocator; ratio = archetypal bytes / contender bytes.\n",
            result.workload.name, result.workload.description
        );
        let _ = writeln!(out, "| contender | bytes / entity | ratio |");
        let _ = writeln!(out, "|---|---:|---:|");
        let reference = result
            .measured
            .iter()
            .find(|m| m.contender.kind == Kind::Archetypal)
            .and_then(|m| m.bytes_per_entity);
        for measured in &result.measured {
            let Some(bytes) = measured.bytes_per_entity else {
                continue;
            };
            let ratio = match (measured.contender.kind, reference) {
                (Kind::Archetypal, _) => "(reference)".to_string(),
                (_, Some(reference)) => format!("{:.2}", reference / bytes),
                (_, None) => "n/a".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {bytes:.1} | {ratio} |",
                measured.contender.name
            );
        }
    }

    let columns = columns(results);
    let _ = writeln!(out, "\n## archetypal time / contender time\n");
    let _ = writeln!(out, "| workload | {} |", columns.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(columns.len()));
    for result in results {
        let cells: Vec<String> = columns
            .iter()
            .map(|name| {
                result
                    .measured
                    .iter()
                    .find(|measured| measured.contender.name == *name)
                    .and_then(|measured| measured.ratio)
                    .map_or_else(
                        || "—".to_string(),
                        |ratio| match row_note(result.workload.name, name) {
                            Some((word, _)) => format!("{ratio:.2} ({word})"),
                            None => format!("{ratio:.2}"),
                        },
                    )
            })
            .collect();
        let _ = writeln!(out, "| {} | {} |", result.workload.name, cells.join(" | "));
    }
    for result in &weighed {
        let reference = result
            .measured
            .iter()
            .find(|m| m.contender.kind == Kind::Archetypal)
            .and_then(|m| m.bytes_per_entity);
        let cells: Vec<String> = columns
            .iter()
            .map(|name| {
                let bytes = result
                    .measured
                    .iter()
                    .find(|measured| measured.contender.name == *name)
                    .and_then(|measured| measured.bytes_per_entity);
                match (reference, bytes) {
                    (Some(reference), Some(bytes)) => format!("{:.2}", reference / bytes),
                    _ => "—".to_string(),
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} (bytes, not time) | {} |",
            result.workload.name,
            cells.join(" | ")
        );
    }

    goals(&mut out, results);

    let _ = writeln!(out, "\n## workloads\n");
    for result in results {
        let _ = writeln!(
            out,
            "- `{}`: {} (checksum `{:016x}`, {} rounds)",
            result.workload.name,
            result.workload.description,
            result.checksum,
            result
                .measured
                .first()
                .map_or(0, |measured| measured.rounds)
        );
    }
    out
}

/// The goals table: each of [`GOALS`] whose row was measured, its ratio (and the processes'
/// range) and whether the ratio meets it. Nothing when no goal's workload ran.
fn goals(out: &mut String, results: &[WorkloadResult]) {
    let rows: Vec<(&Goal, Option<GoalRatio>)> = GOALS
        .iter()
        .filter_map(|goal| {
            let result = results
                .iter()
                .find(|result| result.workload.name == goal.workload)?;
            Some((goal, goal.ratio(&result.measured)))
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n## goals\n\nEach goal bounds a ratio: an archetypal row's time (or bytes per entity) \
         over a contender's. Three decimals, so two runs of a ratio far below 1 can be told \
         apart from rounding (0.18 and 0.17 may be 1% apart or 10%).\n"
    );
    let _ = writeln!(out, "| goal | ratio | ratio range | met |");
    let _ = writeln!(out, "|---|---:|---:|---|");
    for (goal, ratio) in rows {
        let (ratio, range, met) = match ratio {
            Some((ratio, range)) => (
                format!("{ratio:.3}"),
                range.map_or_else(String::new, |(low, high)| format!("{low:.3}-{high:.3}")),
                if ratio <= goal.at_most { "yes" } else { "no" },
            ),
            None => ("n/a".to_string(), String::new(), "n/a"),
        };
        let _ = writeln!(
            out,
            "| {} ≤ {:.2} | {ratio} | {range} | {met} |",
            goal.label, goal.at_most
        );
    }
}

/// Workloads per panel of the chart: few enough that every group's name fits under it.
const PANEL_WORKLOADS: usize = 6;

/// Pixel sizes of the chart: the panels' column, the legend's column beside it, one panel.
const CHART_WIDTH: u32 = 1000;
const LEGEND_WIDTH: u32 = 270;
const PANEL_HEIGHT: u32 = 300;

/// Grouped bar charts of the ratios, one panel per [`PANEL_WORKLOADS`] workloads (stacked), one
/// bar per contender, on a log axis with bars drawn from 1.0 (up: archetypal slower, down:
/// archetypal faster). Each contender keeps its colour in every panel; the legend has a
/// column of its own, so it covers no bar.
fn chart(results: &[WorkloadResult], path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    // Workloads without an archetypal contender have no ratio to draw.
    let results: Vec<&WorkloadResult> = results
        .iter()
        .filter(|result| {
            result
                .measured
                .iter()
                .any(|measured| measured.ratio.is_some())
        })
        .collect();
    let columns = columns(results.iter().copied());
    let color = |name: &str| {
        let index = columns
            .iter()
            .position(|column| *column == name)
            .unwrap_or(0);
        Palette99::pick(index).to_rgba()
    };
    let panels: Vec<&[&WorkloadResult]> = results.chunks(PANEL_WORKLOADS).collect();
    let height = 50 + PANEL_HEIGHT * panels.len().max(1) as u32;

    let root = SVGBackend::new(path, (CHART_WIDTH + LEGEND_WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "archetypal time / contender time (log scale; below 1: archetypal faster)",
        ("sans-serif", 22),
    )?;
    let (charts, legend) = root.split_horizontally(CHART_WIDTH);
    for (area, panel) in charts
        .split_evenly((panels.len().max(1), 1))
        .iter()
        .zip(&panels)
    {
        draw_panel(area, panel, &color)?;
    }

    // The legend: one swatch and name per contender, in its own column.
    for (row, name) in columns.iter().enumerate() {
        let y = 20 + row as i32 * 22;
        legend.draw(&Rectangle::new(
            [(8, y), (22, y + 12)],
            color(name).filled(),
        ))?;
        legend.draw(&Text::new(
            name.to_string(),
            (30, y),
            ("sans-serif", 14).into_font().color(&BLACK),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// One panel of [`chart`]: the workloads of `panel`, a bar per contender present in them.
fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    panel: &[&WorkloadResult],
    color: &dyn Fn(&str) -> RGBAColor,
) -> Result<(), Box<dyn std::error::Error>> {
    let columns = columns(panel.iter().copied());
    let ratios: Vec<f64> = panel
        .iter()
        .flat_map(|result| result.measured.iter().filter_map(|measured| measured.ratio))
        .collect();
    let low = ratios.iter().copied().fold(0.5, f64::min) / 1.3;
    let high = ratios.iter().copied().fold(2.0, f64::max) * 1.3;
    // Room left of the first group for the gridline labels; every panel spans
    // PANEL_WORKLOADS groups, so a short last panel keeps the others' spacing.
    const LEFT: f64 = -0.8;
    let right = PANEL_WORKLOADS as f64 - 0.5;

    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(30)
        .build_cartesian_2d(LEFT..right, (low..high).log_scale())?;

    let names: Vec<&str> = panel.iter().map(|result| result.workload.name).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .x_labels(panel.len() + 1)
        .x_label_style(("sans-serif", 13))
        .x_label_formatter(&|x| {
            let index = x.round();
            if (x - index).abs() < 0.01 && index >= 0.0 {
                names.get(index as usize).copied().unwrap_or("").to_string()
            } else {
                String::new()
            }
        })
        .y_desc("ratio")
        .y_label_formatter(&|_| String::new())
        .draw()?;

    // Gridlines and labels at 1-2-5 steps: the log axis alone labels only powers of ten.
    let steps = (-4..4)
        .flat_map(|exponent| [1.0, 2.0, 5.0].map(|step| step * 10f64.powi(exponent)))
        .filter(|y| (low..high).contains(y));
    for y in steps {
        chart.draw_series(LineSeries::new(
            [(LEFT, y), (right, y)],
            BLACK.mix(0.15).stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("{y}"),
            (LEFT + 0.02, y),
            ("sans-serif", 13).into_font().color(&BLACK),
        )))?;
    }

    // A group of one or two bars keeps bars of a readable width, not the whole group.
    let width = 0.84 / columns.len().max(3) as f64;
    for (column, name) in columns.iter().enumerate() {
        let color = color(name);
        let bars = panel
            .iter()
            .enumerate()
            .filter_map(|(group, result)| {
                let measured = result
                    .measured
                    .iter()
                    .find(|measured| measured.contender.name == *name)?;
                let ratio = measured.ratio?;
                let left = group as f64 - 0.42 + column as f64 * width;
                Some(Rectangle::new(
                    [(left, 1.0), (left + width * 0.9, ratio)],
                    color.filled(),
                ))
            })
            .collect::<Vec<_>>();
        chart.draw_series(bars)?;
    }
    chart.draw_series(LineSeries::new(
        [(LEFT, 1.0), (right, 1.0)],
        BLACK.stroke_width(1),
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A renamed workload or row would drop its goal from the report without a word.
    #[test]
    fn every_goal_names_a_row() {
        let workloads = workloads();
        for goal in GOALS {
            let workload = workloads
                .iter()
                .find(|workload| workload.name == goal.workload)
                .unwrap_or_else(|| panic!("{}: no workload {}", goal.label, goal.workload));
            assert!(
                workload
                    .contenders
                    .iter()
                    .any(|contender| contender.name == goal.contender),
                "{}: no row {} in {}",
                goal.label,
                goal.contender,
                goal.workload
            );
            assert!(
                workload
                    .contenders
                    .iter()
                    .any(|contender| contender.name == goal.archetypal),
                "{}: no row {} in {}",
                goal.label,
                goal.archetypal,
                goal.workload
            );
        }
    }
}
