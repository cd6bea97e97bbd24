fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (workload, contender, passes) = (&args[1], &args[2], args[3].parse::<usize>().unwrap());
    let w = benches::workloads()
        .into_iter()
        .find(|w| w.name == workload)
        .unwrap();
    let c = w.contenders.iter().find(|c| c.name == contender).unwrap();
    let mut pass = (c.setup)();
    let start = std::time::Instant::now();
    for _ in 0..passes {
        pass.run();
    }
    eprintln!("{:?} per pass", start.elapsed() / passes as u32);
}
