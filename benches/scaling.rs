//! How the interpreter's cost grows with the table:
//! - `order_10000`: one Round of ordering 10,000 characters by an order like Crisis Mode's
//!   `by_ap` (AP desc, Finesse desc, `roll d10 desc until settled`) and walking them with an empty
//!   body, `--until round=1`; `walk_10000` is the same walk without the order, for reference.
//!   `ties`: 110 (AP, Finesse) pairs among the 10,000, so every group of ~91 rolls off, and its
//!   ties again; `distinct`: every Finesse different, so no die is rolled. Target: ≤ 50 ms.
//! - `capes_until_page`: the bundled Capes example, seed 1, `--policy first` (every Action makes a
//!   Conflict and none is Resolved, so things pile up: the bundled policy ends after ~4 Pages),
//!   `--until page=N`;
//!   the counter is the run's steps (`Outcome.steps`), so divan's throughput is steps per second.
//!   Target: the cost per step at Page 200 within 2× of that at Page 10.
//!
//! `cargo bench --bench scaling`; the figures are in docs/performance.md.

use divan::Bencher;
use divan::counter::ItemsCount;
use turnscript::compile::PolicyRef;
use turnscript::runtime::decide::Policy;
use turnscript::trace::{Event, NullSink, Sink, World};
use turnscript::{Outcome, Program, Project, RunConfig, RunOptions};

const SEED: u64 = 1;
const BUDGET: u64 = 1_000_000_000;

fn main() {
    divan::main();
}

/// A compiled program, its run's configuration and its policy, made once outside the timed loop.
struct Prepared {
    program: Program,
    config: RunConfig,
    policy: PolicyRef,
}

impl Prepared {
    fn new(files: Vec<(String, String)>, until: &str) -> Self {
        let project = Project::load(files);
        let program = project
            .compile()
            .unwrap_or_else(|d| panic!("{}", project.render(&d, Default::default())));
        let options = RunOptions {
            seed: SEED,
            until: Some(until.to_string()),
            max_steps: BUDGET,
            ..RunOptions::default()
        };
        let config = options.prepare(&program).expect("the level exists").config;
        let policy = program.default_policy.unwrap_or(PolicyRef::First);
        Prepared {
            program,
            config,
            policy,
        }
    }

    /// One run on the bench's thread (these rulesets nest a few blocks deep, far from any stack
    /// limit), its events dropped.
    fn run(&self) -> Outcome {
        self.run_into(&mut NullSink)
    }

    fn run_into(&self, sink: &mut dyn Sink) -> Outcome {
        let mut decider = Policy::new(self.policy, SEED);
        turnscript::runtime::run(&self.program, &self.config, &mut decider, sink).expect("the run finishes")
    }
}

/// What the ordering runs did: the dice rolled, and the length of each order made.
#[derive(Default)]
struct Ordered {
    rolls: usize,
    orders: Vec<usize>,
}

impl Sink for Ordered {
    fn event(&mut self, _: &World<'_>, event: &Event<'_>) {
        match event {
            Event::Roll { .. } => self.rolls += 1,
            Event::Order { ids, .. } => self.orders.push(ids.len()),
            _ => {}
        }
    }
}

const ORDERING: &str = r#"
ruleset "Ordering"
stat ap
stat finesse
param finesse_check = d10
order by_ap(c) {
  c.ap desc
  c.finesse desc
  roll finesse_check desc until settled
}
play {
  round repeat {
    for each c in characters by by_ap { }
  }
}
"#;

const WALK: &str = r#"
ruleset "Walk"
stat ap
stat finesse
play {
  round repeat {
    for each c in characters { }
  }
}
"#;

/// 10,000 characters: AP from 2 to 12 spread evenly; Finesse in ten values (`ties`) or all
/// different (`distinct`).
fn ten_thousand(mix: &str) -> String {
    let mut s = String::from("encounter \"Ten thousand\"\n");
    for i in 0..10_000usize {
        let ap = 2 + (i * 7) % 11;
        let finesse = if mix == "ties" { i % 10 } else { i };
        s.push_str(&format!("character C{i} {{ ap = {ap}, finesse = {finesse} }}\n"));
    }
    s
}

fn one_round(ruleset: &str, mix: &str) -> Prepared {
    let files = vec![
        ("ruleset.turn".to_string(), ruleset.to_string()),
        ("cast.turn".to_string(), ten_thousand(mix)),
    ];
    Prepared::new(files, "round=1")
}

#[divan::bench(args = ["ties", "distinct"], sample_count = 20)]
fn order_10000(bencher: Bencher, mix: &str) {
    let prepared = one_round(ORDERING, mix);
    let mut seen = Ordered::default();
    prepared.run_into(&mut seen);
    assert_eq!(seen.orders, [10_000], "one order of everyone");
    // Ties: every (AP, Finesse) group of ~91 rolls off, and again; distinct: no die at all.
    assert!(
        if mix == "ties" {
            seen.rolls > 10_000
        } else {
            seen.rolls == 0
        },
        "{} rolls",
        seen.rolls
    );
    bencher.bench_local(|| prepared.run().steps);
}

#[divan::bench(sample_count = 20)]
fn walk_10000(bencher: Bencher) {
    let prepared = one_round(WALK, "distinct");
    bencher.bench_local(|| prepared.run().steps);
}

/// Pages 10 and 200, and Pages to difference them with: 20 − 10, 200 − 100 and 200 − 190 give
/// the cost of the steps of those Pages alone.
#[divan::bench(args = [10, 20, 100, 190, 200], sample_count = 30)]
fn capes_until_page(bencher: Bencher, page: u64) {
    let read = |path: &str| {
        let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        (path.to_string(), text)
    };
    let files = vec![read("rulesets/capes.turn"), read("rulesets/encounters/capes.turn")];
    let mut prepared = Prepared::new(files, &format!("page={page}"));
    prepared.policy = PolicyRef::First;
    let steps = prepared.run().steps;
    bencher
        .counter(ItemsCount::new(steps))
        .bench_local(|| prepared.run().steps);
}
