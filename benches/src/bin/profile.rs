//! One contender of one workload, alone in its process, for a profiler:
//! `cargo build -p benches --release --bin profile`, then
//! `perf record -g ./target/release/profile queued_spawn archetypal 3000` (workload, contender
//! as the report names them, passes). Prints the time per pass, which only compares runs of
//! this binary: the report is where contenders are compared.

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [workload_name, contender_name, passes] = &arguments[..] else {
        eprintln!("usage: profile WORKLOAD CONTENDER PASSES");
        return ExitCode::FAILURE;
    };
    let Ok(passes) = passes.parse::<u32>() else {
        eprintln!("PASSES must be a whole number, not {passes:?}");
        return ExitCode::FAILURE;
    };
    let workloads = benches::workloads();
    let Some(workload) = workloads.iter().find(|w| w.name == workload_name) else {
        let names: Vec<&str> = workloads.iter().map(|w| w.name).collect();
        eprintln!(
            "no workload {workload_name:?}; there are {}",
            names.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let Some(contender) = workload
        .contenders
        .iter()
        .find(|c| c.name == contender_name)
    else {
        let names: Vec<&str> = workload.contenders.iter().map(|c| c.name).collect();
        eprintln!("{workload_name} has no contender {contender_name:?}; it has {names:?}");
        return ExitCode::FAILURE;
    };
    let mut pass = (contender.setup)();
    let start = Instant::now();
    for _ in 0..passes {
        pass.run();
    }
    let per_pass = start.elapsed() / passes.max(1);
    println!("{workload_name} / {contender_name}: {per_pass:?} per pass over {passes} passes");
    ExitCode::SUCCESS
}
