//! `sim`'s scaling (issue 31): 4,000 Crisis Mode encounters of the bundled example (default
//! policy, seed 0) on 1 and 2 worker threads; the counter is encounters, so divan's throughput is
//! encounters per second. On an idle machine of 2 cores, `threads = 2` should take half the time
//! of `threads = 1`: the workers share nothing but one counter they take chunks of encounters
//! from. Target (the issue's): one million encounters in ≤ 15 s on 2 idle cores, 66,700
//! encounters/s.
//!
//! `cargo bench --bench sim`; the figures are in docs/performance.md.

use divan::Bencher;
use divan::counter::ItemsCount;
use turnscript::sim::{SimOptions, simulate};
use turnscript::{Program, Project};

const N: u64 = 4000;

fn main() {
    divan::main();
}

fn crisis() -> Program {
    let files: Vec<(String, String)> = ["rulesets/crisis-mode.turn", "rulesets/encounters/crisis-mode.turn"]
        .iter()
        .map(|p| (p.to_string(), std::fs::read_to_string(p).expect("the bundled example")))
        .collect();
    Project::load(files).compile().expect("the bundled example compiles")
}

#[divan::bench(args = [1, 2], sample_count = 10, sample_size = 1)]
fn crisis_4000(bencher: Bencher, threads: usize) {
    let program = crisis();
    let opts = SimOptions {
        n: N,
        threads,
        ..SimOptions::default()
    };
    bencher.counter(ItemsCount::new(N)).bench(|| {
        simulate(&program, &opts, None)
            .expect("the simulation runs")
            .stats
            .finished
    });
}
