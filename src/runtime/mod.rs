//! Stage 4: the runtime. Runs a [`Program`] and emits its trace of events to a [`Sink`].
//!
//! A tree-walking interpreter over the compiled form: every name is already a slot, so the run
//! loop touches no strings and no hash maps. It charges one step per statement and per loop
//! iteration against a budget, and all arithmetic is checked.
//!
//! The `Machine` is one struct (`state.rs`) with its methods in rooms by concern: `eval.rs`
//! (expressions), `stmt.rs` (blocks, the statement dispatch, `Flow`), `levels.rs` (levels, turns,
//! `repeat`), `orders.rs` (kept orders, `for each` walks), `sorting.rs` (sorting by an order's keys), `decisions.rs` (`choose`,
//! actions), `effects.rs` (effects and their count-downs), `hooks.rs` (hooks, triggers, routines),
//! `resources.rs` (spending, gaining, transferring), `cards.rs` (decks and their piles),
//! `policy_path.rs` (`choose` when a policy alone decides: the fast path of issue 31).

mod afford;
mod attempts;
mod cards;
mod code;
pub mod control;
pub mod decide;
mod decisions;
pub mod dice;
mod effects;
mod eval;
mod functions;
mod hooks;
mod levels;
mod limits;
mod moments;
mod orders;
mod perform;
mod policy_path;
mod pools;
mod presence;
mod ready;
mod resources;
mod secrets;
mod sides;
mod sorting;
mod state;
mod stmt;

use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::{EndReason, Event, Sink};
use decide::Decider;
use state::{Machine, R};
use stmt::Flow;

/// [`try_on_run_stack`] for tests, benches and fuzz targets, which have the memory for it.
///
/// # Panics
/// When the thread cannot be made. The library and its front ends call [`try_on_run_stack`].
pub fn on_run_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    try_on_run_stack(f).unwrap_or_else(|e| panic!("cannot start the run thread: {e}"))
}

/// Runs `f` on a thread with [`crate::limits::RUN_STACK_BYTES`] of stack, so the deepest nesting
/// the limits allow is an error, never a stack overflow (only the pages used are ever touched).
/// A thread that cannot be made (no memory for its stack, too many threads) is an error.
pub fn try_on_run_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("turnscript-run".into())
            .stack_size(crate::limits::RUN_STACK_BYTES)
            .spawn_scoped(scope, f)?;
        match spawned.join() {
            Ok(v) => Ok(v),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// How to run: the seed, forced rolls, the step budget and where to stop.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub seed: u64,
    pub rolls: Vec<i64>,
    pub max_steps: u64,
    /// Stop after the N-th iteration of a level. `None`: the ruleset's own end, or the default
    /// stop: the first level repeating with no condition to finish [`crate::limits::DEFAULT_OUTER_LIMIT`]
    /// iterations.
    pub until: Option<(LevelId, u64)>,
    /// With `until`: enclosing levels that must be running at these iterations for it to stop
    /// (`--until battle=2,round=2`: round 2 of battle 2, since a level's count restarts).
    pub until_within: Vec<(LevelId, u64)>,
    /// An answer naming an option the rules refuse stops the run with `run::refused` (the old
    /// behaviour, for tests that want it); by default it is traced and the decision asked again.
    pub stop_on_refusal: bool,
    /// Forced draws, in order (`--draws`): the cards the next `draw` statements take.
    pub draws: Vec<EntityId>,
    /// Whether the default stop applies (a level repeating with no condition stops after
    /// [`crate::limits::DEFAULT_OUTER_LIMIT`] iterations). The REPL turns it off: a fight there
    /// goes on until the rules end it, the step budget guarding it.
    pub default_limit: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            seed: 0,
            rolls: Vec::new(),
            max_steps: crate::limits::DEFAULT_MAX_STEPS,
            until: None,
            until_within: Vec::new(),
            stop_on_refusal: false,
            draws: Vec::new(),
            default_limit: true,
        }
    }
}

/// What a finished run reports besides its trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    pub steps: u64,
    /// Forced rolls never used.
    pub unused_rolls: usize,
    /// Forced draws never used.
    pub unused_draws: usize,
}

/// Runs an encounter to its end, emitting every event to `sink`. A runtime error stops the run;
/// the events before it have been emitted.
pub fn run(p: &Program, cfg: &RunConfig, decider: &mut dyn Decider, sink: &mut dyn Sink) -> Result<Outcome, Diag> {
    run_with(p, cfg, decider, sink, None, Vec::new())
}

/// [`run`] by walking the program's tree, without its compiled code (`code/`): the reference
/// the compiled run loop is compared with (`tests/compiled.rs`), with the same trace, outcome
/// and errors.
pub fn run_walked(
    p: &Program,
    cfg: &RunConfig,
    decider: &mut dyn Decider,
    sink: &mut dyn Sink,
) -> Result<Outcome, Diag> {
    let mut m = Machine::new(p, cfg, decider, sink, None, Vec::new());
    m.code = None;
    play(&mut m, cfg.seed).map_err(|e| *e)
}

/// [`run`] with a [`control::Control`] consulted at each decision instead of `decider`, and the
/// characters that start out of play (`absent[id]`; their fields are set when they join).
fn run_with<'a>(
    p: &'a Program,
    cfg: &RunConfig,
    decider: &'a mut dyn Decider,
    sink: &'a mut dyn Sink,
    control: Option<&'a mut dyn control::Control>,
    absent: Vec<bool>,
) -> Result<Outcome, Diag> {
    let mut m = Machine::new(p, cfg, decider, sink, control, absent);
    let result = play(&mut m, cfg.seed).map_err(|e| *e);
    // A control hears which answers choices still held took: never to be shown.
    let (hidden, uncounted) = (m.secrecy.hidden(), m.secrecy.uncounted());
    if m.control.is_some() {
        let last = control::snapshot_of(&mut m);
        if let Some(c) = m.control.as_deref_mut() {
            c.ended(hidden, uncounted, last);
        }
    }
    result
}

/// The run itself: the encounter's start, `setup` and `play`, its end and final state.
fn play(m: &mut Machine<'_>, seed: u64) -> R<Outcome> {
    let p = m.p;
    m.emit(Event::EncounterStart { seed });
    m.init()?;
    m.deal_decks();
    let mut flow = m.hooks(&p.encounter_start, &[], Span::default())?;
    for part in [&p.setup, &p.play] {
        if !matches!(flow, Flow::Next | Flow::EndRepeat | Flow::Give) {
            break;
        }
        flow = m.block(part)?;
    }
    let reason = match flow {
        Flow::Next | Flow::EndRepeat | Flow::Give => EndReason::Complete,
        // `end encounter`, or an `end` of a level that `play` is not inside: the run is over.
        Flow::End(_, r) => EndReason::Ended(r),
        Flow::Stop(r) => r,
    };
    // The encounter's end hooks (and measures) run however it ended; an `end` in them changes
    // nothing, the encounter is already ending.
    m.hooks(&p.encounter_end, &[], Span::default())?;
    m.emit(Event::EncounterEnd { reason: reason.clone() });
    m.emit_final();
    Ok(Outcome {
        reason,
        steps: m.steps,
        unused_rolls: m.dice.forced_left(),
        unused_draws: m.forced_draws.len(),
    })
}
