//! Criterion benches: one group per workload, one function per contender, running the same
//! `Pass` code as the interleaved report (`src/bin/report.rs`).
//!
//! `cargo bench -p benches` (all), `cargo bench -p benches -- simple_iter` (one workload).
//! Medians drift between runs on a shared machine; compare contenders with the report.

use criterion::{Criterion, criterion_group, criterion_main};

fn ecs(c: &mut Criterion) {
    for workload in benches::workloads() {
        let mut group = c.benchmark_group(workload.name);
        for contender in &workload.contenders {
            // Built on first use, so a filtered-out bench never builds its world.
            let mut pass = None;
            group.bench_function(contender.name, |bencher| {
                let pass = pass.get_or_insert_with(contender.setup);
                bencher.iter(|| pass.run());
            });
        }
        group.finish();
    }
}

criterion_group!(benches, ecs);
criterion_main!(benches);
