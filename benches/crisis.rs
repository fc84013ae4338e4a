//! Crisis Mode, the interpreter beside the same rules written by hand (`native_crisis.rs`), on
//! generated casts of 6, 100 and 1,000 characters: `distinct` Finesse values (ties in AP settled
//! by Finesse) and `equal` ones (three values, so the Finesse Check Dice roll every Round). Seed 1,
//! `--until turn=3`, the default policy `eager`. Two modes: counting the events (nothing written),
//! and writing the JSON lines trace into a `Vec<u8>` reused from run to run. The program is
//! compiled once, outside the timed loop; each timed run starts from a fresh decider and machine.
//!
//! `cargo bench --bench crisis`; the figures are in docs/performance.md.

#[path = "native_crisis.rs"]
mod native;

use divan::Bencher;
use divan::counter::ItemsCount;
use native::{Cast, Count, Json};
use turnscript::compile::PolicyRef;
use turnscript::runtime::decide::Policy;
use turnscript::trace::{Event, JsonLines, Sink, World};
use turnscript::{Program, Project, RunConfig, RunOptions};

const SEED: u64 = 1;
const TURNS: u64 = 3;
const RULESET: &str = include_str!("../rulesets/crisis-mode.turn");

const CASTS: [&str; 6] = [
    "6 distinct",
    "6 equal",
    "100 distinct",
    "100 equal",
    "1000 distinct",
    "1000 equal",
];

fn main() {
    divan::main();
}

/// The cast an argument names: `N distinct` or `N equal`.
fn cast(arg: &str) -> Cast {
    let (n, mix) = arg.split_once(' ').expect("`N mix`");
    let n: usize = n.parse().expect("a number of characters");
    match mix {
        "distinct" => Cast::distinct(n),
        _ => Cast::equal(n),
    }
}

/// The interpreter's side, made once: the compiled program, the run's configuration, and the
/// default policy.
struct Interpreter {
    program: Program,
    config: RunConfig,
    policy: PolicyRef,
}

impl Interpreter {
    fn new(cast: &Cast) -> Self {
        let project = Project::load([
            ("crisis-mode.turn", RULESET.to_string()),
            ("cast.turn", cast.encounter_text()),
        ]);
        let program = project.compile().expect("Crisis Mode and a generated cast compile");
        let options = RunOptions {
            seed: SEED,
            until: Some(format!("turn={TURNS}")),
            ..RunOptions::default()
        };
        let config = options.prepare(&program).expect("turn is a level").config;
        let policy = program.default_policy.expect("Crisis Mode has a default policy");
        Interpreter {
            program,
            config,
            policy,
        }
    }

    fn run(&self, sink: &mut dyn Sink) {
        let mut decider = Policy::new(self.policy, SEED);
        // On the bench's own thread: Crisis Mode nests a few blocks deep, far from any stack limit.
        turnscript::runtime::run(&self.program, &self.config, &mut decider, sink).expect("the run finishes");
    }
}

/// A sink that counts the events.
#[derive(Default)]
struct Counter(u64);

impl Sink for Counter {
    fn event(&mut self, _: &World<'_>, _: &Event<'_>) {
        self.0 += 1;
    }
}

/// How many events a run of the cast makes (the same for both sides; the test checks the traces).
fn events(cast: &Cast) -> u64 {
    let mut count = Count::default();
    native::run(cast, SEED, Some(TURNS), &mut count);
    count.events
}

#[divan::bench(args = CASTS)]
fn count_native(bencher: Bencher, arg: &str) {
    let cast = cast(arg);
    bencher.counter(ItemsCount::new(events(&cast))).bench_local(|| {
        let mut count = Count::default();
        native::run(&cast, SEED, Some(TURNS), &mut count);
        count.events
    });
}

#[divan::bench(args = CASTS)]
fn count_interpreter(bencher: Bencher, arg: &str) {
    let cast = cast(arg);
    let interpreter = Interpreter::new(&cast);
    let mut check = Counter::default();
    interpreter.run(&mut check);
    assert_eq!(check.0, events(&cast), "both sides make as many events");
    bencher.counter(ItemsCount::new(check.0)).bench_local(|| {
        let mut count = Counter::default();
        interpreter.run(&mut count);
        count.0
    });
}

#[divan::bench(args = CASTS)]
fn json_native(bencher: Bencher, arg: &str) {
    let cast = cast(arg);
    let mut buf: Vec<u8> = Vec::new();
    bencher.counter(ItemsCount::new(events(&cast))).bench_local(|| {
        buf.clear();
        let mut out = Json::new(&mut buf);
        native::run(&cast, SEED, Some(TURNS), &mut out);
        out.error.is_none()
    });
}

#[divan::bench(args = CASTS)]
fn json_interpreter(bencher: Bencher, arg: &str) {
    let cast = cast(arg);
    let interpreter = Interpreter::new(&cast);
    // The same bytes as the native side (what tests/differential.rs checks, here on these casts).
    let mut mine = JsonLines::default();
    interpreter.run(&mut mine);
    let mut theirs = Json::new(Vec::new());
    native::run(&cast, SEED, Some(TURNS), &mut theirs);
    assert!(mine.out().as_bytes() == theirs.w.as_slice(), "the traces differ");
    let mut buf: Vec<u8> = Vec::new();
    bencher.counter(ItemsCount::new(events(&cast))).bench_local(|| {
        buf.clear();
        let mut out = JsonLines::new(&mut buf);
        interpreter.run(&mut out);
        out.error().is_none()
    });
}
