//! The simulator: play one compiled program many times, on many threads, and count what happens.
//!
//! Encounter `i` (from 0) of a simulation with seed `S` runs with the seed [`encounter_seed`]`(S,
//! i)`: the `i+1`-th output of SplitMix64 started at `S`. A simulation runs the encounters of its
//! range ([`SimOptions::encounters`]: all `N`, or the part `--shard I/K` names). The workers take
//! chunks of consecutive encounters from one counter (a chunk at a time, never one lock or one
//! message per encounter), so a worker that gets less of the machine does less of the work; each
//! counts into a [`Tally`] of its own that it reuses for every encounter. The tallies hold only
//! integer counts and are added together at the end, so the results for a seed are identical
//! whatever the number of threads, the chunks or the shards ([`shard`], [`merge`]). Each worker is
//! a thread with the run stack ([`crate::limits::RUN_STACK_BYTES`]) and calls
//! [`crate::runtime::run`] for each of its encounters; the program is compiled once and shared by
//! reference. A worker that cannot be started (no memory for its stack, too many threads) is an
//! error ([`SimError::Threads`]), never a panic.

mod hist;
pub mod merge;
pub mod plot;
mod report;
pub mod shard;
mod tally;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::compile::Program;
use crate::limits::MAX_SIM_THREADS;
use crate::project::{RunOptions, SetupError};

pub use hist::Hist;
pub use report::{Format, HeldRow, MADE_IN_PLAY, MeasureRow, Report};
pub use shard::Shard;
pub use tally::{Counts, Held, Holder, Stats, Tally};

/// What a simulation runs.
#[derive(Clone, Debug, Default)]
pub struct SimOptions {
    /// How many encounters.
    pub n: u64,
    /// The seed every encounter's seed is derived from.
    pub seed: u64,
    /// `first`, `random`, or a policy of the ruleset; `None`: the ruleset's default policy.
    pub policy: Option<String>,
    /// `LEVEL=N`: stop each encounter after the N-th iteration of a level.
    pub until: Option<String>,
    /// Step budget of each encounter; 0 is the default budget.
    pub max_steps: u64,
    /// Worker threads; 0: one per core.
    pub threads: usize,
    /// `--shard I/K`: run only the `I`-th of `K` parts of the `n` encounters.
    pub shard: Option<Shard>,
}

impl SimOptions {
    /// The encounters this simulation runs: `0..n`, or its shard's part of them.
    pub fn encounters(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(s) => s.range(self.n),
            None => 0..self.n,
        }
    }
}

/// The seed of encounter `i` of a simulation with seed `seed`: the `i+1`-th output of SplitMix64
/// started at `seed`, that is `mix(seed + (i+1)·0x9E3779B97F4A7C15)` (wrapping), where `mix` is
/// SplitMix64's finaliser.
pub fn encounter_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The run options of encounter `i` (as `turnscript run --seed encounter_seed(S, i)` takes them).
pub fn run_options(opts: &SimOptions, i: u64) -> RunOptions {
    RunOptions {
        seed: encounter_seed(opts.seed, i),
        policy: opts.policy.clone(),
        until: opts.until.clone(),
        max_steps: opts.max_steps,
        ..RunOptions::default()
    }
}

/// Why a simulation did not run.
#[derive(Debug)]
pub enum SimError {
    /// An option the program cannot honour: the user's error.
    Setup(SetupError),
    /// A worker thread could not be started (the encounters of those that were are dropped).
    Threads(std::io::Error),
}

impl From<SetupError> for SimError {
    fn from(e: SetupError) -> Self {
        SimError::Setup(e)
    }
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Setup(e) => e.fmt(f),
            SimError::Threads(e) => write!(
                f,
                "error: cannot start the simulation's threads: {e}\n  help: give fewer --threads, or free memory\n"
            ),
        }
    }
}

/// A finished simulation: its totals, the threads it used and how long it took.
pub struct Outcome {
    pub stats: Stats,
    pub threads: usize,
    pub elapsed: Duration,
}

/// How many workers a simulation starts, and the note to give when `--threads` asked for more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workers {
    pub count: usize,
    /// Why fewer threads than asked are used, when they are.
    pub note: Option<String>,
}

/// The number of workers `threads` asks for (0: one per core): never more than the machine's
/// cores, [`MAX_SIM_THREADS`] or the encounters, and at least one.
pub fn workers(threads: usize, n: u64) -> Workers {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    workers_on(threads, n, cores)
}

/// [`workers`] on a machine of `cores` cores.
pub fn workers_on(threads: usize, n: u64, cores: usize) -> Workers {
    let cap = cores.clamp(1, MAX_SIM_THREADS);
    let asked = if threads == 0 { cap } else { threads };
    let count = (asked.min(cap) as u64).min(n).max(1) as usize;
    let note = (asked > cap).then(|| {
        let why = if cores > MAX_SIM_THREADS {
            format!("the most sim runs at once (Limits::sim_threads, {MAX_SIM_THREADS})")
        } else {
            format!("this machine's {cores} core{}", if cores == 1 { "" } else { "s" })
        };
        format!("--threads {asked} clamped to {cap}: {why}; more threads than cores only slow a simulation down")
    });
    Workers { count, note }
}

/// Runs the simulation. `progress` is called now and then on the calling thread with the number
/// of encounters done so far (for a progress indicator). An option the program cannot honour (an
/// unknown policy or level) is an error before anything runs; a run that fails is counted in the
/// totals.
pub fn simulate(
    program: &Program,
    opts: &SimOptions,
    mut progress: Option<&mut dyn FnMut(u64)>,
) -> Result<Outcome, SimError> {
    // The same resolution every encounter gets: an error here is the user's.
    run_options(opts, 0).prepare(program)?;
    let start = Instant::now();
    let range = opts.encounters();
    let len = range.end - range.start;
    let threads = workers(opts.threads, len).count;
    let done = AtomicU64::new(0);
    let chunks = Chunks {
        range,
        size: chunk_size(len, threads),
        next: AtomicU64::new(0),
    };
    let results = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        let mut failed = None;
        for _ in 0..threads {
            let (done, chunks) = (&done, &chunks);
            let spawned = std::thread::Builder::new()
                .name("turnscript-sim".into())
                .stack_size(crate::limits::RUN_STACK_BYTES)
                .spawn_scoped(scope, move || work(program, opts, chunks, done));
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if let Some(report) = progress.as_mut() {
            while !handles.iter().all(|h| h.is_finished()) {
                report(done.load(Ordering::Relaxed));
                std::thread::sleep(Duration::from_millis(100));
            }
            report(done.load(Ordering::Relaxed));
        }
        let results: Vec<Stats> = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect();
        match failed {
            Some(e) => Err(SimError::Threads(e)),
            None => Ok(results),
        }
    })?;
    let mut stats = Stats::new(program);
    for s in results {
        stats.merge(s);
    }
    Ok(Outcome {
        stats,
        threads,
        elapsed: start.elapsed(),
    })
}

/// The encounters still to run, handed out a chunk at a time: chunk `k` is the encounters
/// `start + k·size ..` (at most `size` of them, never past the end).
struct Chunks {
    range: std::ops::Range<u64>,
    size: u64,
    next: AtomicU64,
}

impl Chunks {
    /// The next chunk to run, or `None` when every chunk has been taken.
    fn take(&self) -> Option<std::ops::Range<u64>> {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        let lo = k.checked_mul(self.size)?.checked_add(self.range.start)?;
        (lo < self.range.end).then(|| lo..lo.saturating_add(self.size).min(self.range.end))
    }
}

/// Encounters per chunk: about 16 chunks per worker, so the last ones even out who finishes
/// when, and at most [`MAX_SIM_CHUNK`] (a few hundred milliseconds of work), at least 1. The
/// results do not depend on it.
fn chunk_size(len: u64, threads: usize) -> u64 {
    (len / (threads as u64 * 16).max(1)).clamp(1, MAX_SIM_CHUNK)
}

/// The most encounters one chunk holds.
const MAX_SIM_CHUNK: u64 = 1024;

/// One worker: chunks of encounters, one encounter after another, on one tally.
fn work(program: &Program, opts: &SimOptions, chunks: &Chunks, done: &AtomicU64) -> Stats {
    let mut tally = Tally::new(program);
    let mut run = run_options(opts, 0);
    while let Some(chunk) = chunks.take() {
        let n = chunk.end - chunk.start;
        for i in chunk {
            run.seed = encounter_seed(opts.seed, i);
            match run.prepare(program) {
                Ok(mut prepared) => {
                    match crate::runtime::run(program, &prepared.config, &mut prepared.decider, &mut tally) {
                        Ok(outcome) => tally.steps(outcome.steps),
                        Err(d) => tally.stats.failed(i, run.seed, d),
                    }
                }
                // Checked before the workers start; counted like a failed run if it ever happens.
                Err(e) => tally
                    .stats
                    .failed(i, run.seed, crate::diag::Diag::new("run::setup", e.0)),
            }
        }
        done.fetch_add(n, Ordering::Relaxed);
    }
    tally.stats
}
