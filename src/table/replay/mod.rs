//! Replaying a session's log, and the run that then waits at its pending decision.
//!
//! [`replay`] builds the program of a base and a log, and starts the run on a thread of its own
//! (with the run stack): a [`Ctl`] applies the log's changes and answers at each decision, then
//! follows the goal. Where the run would pause, it tells the REPL what happened (a [`Progress`])
//! and waits there. A new command ([`go_on`]) is sent to the waiting run, which applies it at the
//! decision it waits at and goes on: the same changes at the same decision as a replay of the
//! whole log would make, without replaying it. Commands that change what the run starts from
//! (`seed`, `add`) or what the pending decision was built with (`auto`, `ask`) replay instead,
//! and so do undo, redo, load and reload.

mod ctl;

use ctl::Ctl;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use super::session::{
    Base, CountAt, Divergence, End, Entry, Frame, Goal, Modes, Op, State, Trace, count_at, declared_names, files,
};
use crate::compile::Program;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::project::Project;
use crate::runtime::RunConfig;
use crate::runtime::control::{Control, Editor, Pending, Ran, Verdict, run_controlled};
use crate::runtime::decide::{DecisionPoint, MomentPoint, Policy, parse_moment, within};
use crate::source::Sources;
use crate::trace::{DecidedBy, Event, Sink, Text};

/// What a goal waits for: the number of open frames of a kind to drop below `depth`.
#[derive(Clone, Copy, Debug)]
enum Watch {
    Turn(usize),
    Level(LevelId, usize),
    /// The end of this iteration (by the level's own numbers).
    Iteration(LevelId, u64),
}

/// The sink of the run: the GM's text view, where each event ends in it, the open frames, and
/// how much of it the REPL has been sent.
struct Recorder {
    text: Text,
    /// The length of `text.out()` after each event.
    ends: Vec<usize>,
    /// The events only the GM sees (`Trace::gm_only`).
    gm_only: Vec<usize>,
    open: Vec<Frame>,
    watch: Option<Watch>,
    hit: bool,
    /// The text and events already sent to the REPL.
    sent: (usize, usize),
    /// Each attempt traced (carried out, or refused; a refused answer counts as one) not yet sent
    /// to the REPL.
    attempts: Vec<bool>,
}

impl Recorder {
    fn new(p: &Program) -> Self {
        Recorder {
            text: Text::new(p),
            ends: Vec::new(),
            gm_only: Vec::new(),
            open: Vec::new(),
            watch: None,
            hit: false,
            sent: (0, 0),
            attempts: Vec::new(),
        }
    }

    /// What the REPL has not been sent yet: the text and event ends since, and the open frames.
    fn delta(&mut self) -> Trace {
        // The bytes since (`out()` would check the whole text again each time).
        let bytes = self.text.get_ref();
        let text = String::from_utf8_lossy(bytes.get(self.sent.0..).unwrap_or(&[])).into_owned();
        let ends = self.ends.get(self.sent.1..).unwrap_or(&[]).to_vec();
        let since = self.gm_only.partition_point(|&i| i < self.sent.1);
        let gm_only = self.gm_only[since..].to_vec();
        self.sent = (bytes.len(), self.ends.len());
        Trace {
            text,
            ends,
            gm_only,
            open: self.open.clone(),
        }
    }

    fn turns(&self) -> usize {
        self.open.iter().filter(|f| matches!(f, Frame::Turn(_))).count()
    }

    fn levels(&self, id: LevelId) -> usize {
        self.open
            .iter()
            .filter(|f| matches!(f, Frame::Level { level, .. } if *level == id))
            .count()
    }

    fn start_watch(&mut self, goal: Goal) {
        self.hit = false;
        self.watch = match goal {
            Goal::Turn => Some(Watch::Turn(self.turns().max(1))),
            Goal::Level(l) => Some(Watch::Level(l, self.levels(l).max(1))),
            Goal::Until(l, n) | Goal::Continue(Some((l, n))) => Some(Watch::Iteration(l, n)),
            _ => None,
        };
    }

    fn innermost_level(&mut self) -> Option<&mut Frame> {
        self.open.iter_mut().rev().find(|f| matches!(f, Frame::Level { .. }))
    }
}

/// Shares the recorder between the sink and the control of one replay.
struct RecSink(Rc<RefCell<Recorder>>);

impl Sink for RecSink {
    fn event(&mut self, p: &crate::trace::World<'_>, e: &Event<'_>) {
        let mut r = self.0.borrow_mut();
        r.text.event(p, e);
        let len = r.text.get_ref().len();
        r.ends.push(len);
        if matches!(
            e,
            Event::EncounterStart { .. } | Event::Forced { .. } | Event::ForcedDraws { .. } | Event::Reseed { .. }
        ) {
            let i = r.ends.len() - 1;
            r.gm_only.push(i);
        }
        match e {
            Event::LevelStart { level, n } => r.open.push(Frame::Level {
                level: *level,
                n: *n,
                order: None,
                acted: Vec::new(),
            }),
            Event::LevelEnd { level, n, .. } => {
                r.open.pop();
                match r.watch {
                    Some(Watch::Level(l, depth)) if l == *level && r.levels(l) < depth => r.hit = true,
                    Some(Watch::Iteration(l, m)) if l == *level && m == *n => r.hit = true,
                    _ => {}
                }
            }
            Event::Order { order, ids } => {
                if let Some(Frame::Level { order: o, acted, .. }) = r.innermost_level() {
                    *o = Some((*order, ids.to_vec()));
                    acted.clear();
                }
            }
            Event::TurnStart { actor } => {
                if matches!(r.open.last(), Some(Frame::Level { .. }))
                    && let Some(Frame::Level { acted, .. }) = r.innermost_level()
                {
                    acted.push(*actor);
                }
                r.open.push(Frame::Turn(*actor));
            }
            Event::TurnEnd { .. } => {
                r.open.pop();
                if let Some(Watch::Turn(depth)) = r.watch
                    && r.turns() < depth
                {
                    r.hit = true;
                }
            }
            Event::Attempt { .. } => r.attempts.push(true),
            Event::AttemptRefused { .. } | Event::Refused { .. } => r.attempts.push(false),
            Event::ReactionStart { actor } => r.open.push(Frame::React(*actor)),
            Event::ReactionEnd { .. } => {
                r.open.pop();
            }
            _ => {}
        }
    }
}

/// What the run thread tells the REPL: the trace since it last told it, and where the run is now.
pub(super) struct Progress {
    trace: Trace,
    end: End,
    decisions: usize,
    made: Vec<Op>,
    divergence: Option<Divergence>,
    modes: Modes,
    /// The run waits at the pending decision for the next command.
    alive: bool,
    /// When the run is over: the answers choices still held took, and the picks not counted.
    held: (Vec<u32>, u32),
    /// The attempts queued for moments, waiting.
    queued: Vec<String>,
    /// The attempts traced since the REPL was last told (carried out, or refused).
    attempts: Vec<bool>,
}

/// The next command for a waiting run: its changes (the log entry `entry`), and the goal.
struct Resume {
    entry: usize,
    ops: Vec<Op>,
    goal: Goal,
}

/// A run waiting at its pending decision, on its thread. Dropping it stops the run.
pub(super) struct Live {
    to_run: Option<Sender<Resume>>,
    from_run: Receiver<Progress>,
    thread: Option<JoinHandle<()>>,
}

impl Live {
    /// The run's answer to the next command; `None` if the run is gone.
    fn resume(&mut self, resume: Resume) -> Option<Progress> {
        self.to_run.as_ref()?.send(resume).ok()?;
        self.from_run.recv().ok()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // The waiting run sees its channel closed, unwinds and ends.
        self.to_run = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Replays `log` over `base`, then follows `goal`; the run then waits at its pending decision.
/// Errors only when the files do not build.
pub fn replay(base: &Base, log: &[Entry], goal: Goal) -> Result<State, (Sources, Vec<Diag>)> {
    let project = Project::load(files(base, log));
    let program = match project.compile() {
        Ok(p) => Arc::new(p),
        Err(d) => return Err((project.into_sources(), d)),
    };
    let sources = project.into_sources();
    let plan = Plan::of(&program, base, log);
    let seed = plan.seed;
    let (to_run, from_repl) = channel();
    let (to_repl, from_run) = channel();
    let shared = program.clone();
    let entries = log.len();
    let spawned = std::thread::Builder::new()
        .name("turnscript-session".into())
        .stack_size(crate::limits::RUN_STACK_BYTES)
        .spawn(move || run(&shared, plan, goal, entries, to_repl, from_repl));
    let thread = match spawned {
        Ok(t) => t,
        Err(e) => {
            return Err((
                sources,
                vec![Diag::new("repl::thread", format!("cannot start the run: {e}"))],
            ));
        }
    };
    let mut live = Live {
        to_run: Some(to_run),
        from_run,
        thread: Some(thread),
    };
    let Ok(first) = live.from_run.recv() else {
        // The run thread ended without a word: it panicked. Pass the panic on.
        if let Some(Err(panic)) = live.thread.take().map(JoinHandle::join) {
            std::panic::resume_unwind(panic);
        }
        return Err((
            sources,
            vec![Diag::new("repl::thread", "the run stopped without a word")],
        ));
    };
    Ok(State {
        program,
        sources,
        rec: first.trace,
        end: first.end,
        held: first.held,
        decisions: first.decisions,
        made: first.made,
        divergence: first.divergence,
        seed,
        modes: first.modes,
        live: first.alive.then_some(live),
        went_on: 0,
        queued: first.queued,
        attempts: first.attempts,
    })
}

/// What a command sent to the waiting run did.
pub(super) enum Went {
    /// It went on: the trace it added (the state now includes it).
    On(String),
    /// It would stop the run with this error; the state is as it was.
    Failed(Diag),
    /// It does not fit where the run waits; the state is as it was.
    Diverged(Divergence),
}

/// Sends the command that makes log entry `entry` to the run waiting in `st`, and takes in what
/// it did. `None` when it cannot go that way (nothing waits, or the command changes what the run
/// starts from or what the pending decision was built with): replay instead. A refused command
/// leaves the state as it was, with no run waiting (the next command replays).
pub(super) fn go_on(st: &mut State, entry: usize, ops: &[Op], goal: Goal) -> Option<Went> {
    if ops
        .iter()
        .any(|o| matches!(o, Op::Seed(_) | Op::Add(_) | Op::Mode { .. }))
    {
        return None;
    }
    let resume = Resume {
        entry,
        ops: ops.to_vec(),
        goal,
    };
    let Some(p) = st.live.as_mut().and_then(|l| l.resume(resume)) else {
        st.live = None;
        return None;
    };
    if let End::Failed(d) = p.end {
        st.live = None;
        return Some(Went::Failed(d));
    }
    if let Some(d) = p.divergence {
        st.live = None;
        return Some(Went::Diverged(d));
    }
    st.rec.text.push_str(&p.trace.text);
    st.rec.ends.extend(p.trace.ends);
    st.rec.gm_only.extend(p.trace.gm_only);
    st.rec.open = p.trace.open;
    st.end = p.end;
    st.held = p.held;
    st.decisions = p.decisions;
    st.made = p.made;
    st.modes = p.modes;
    st.divergence = None;
    st.went_on += 1;
    st.queued = p.queued;
    st.attempts.extend(p.attempts);
    if !p.alive {
        st.live = None;
    }
    Some(Went::On(p.trace.text))
}

/// The run thread: the log, then the goal, then each command the REPL sends, until the run ends
/// or the REPL stops waiting for it.
fn run(
    program: &Program,
    plan: Plan,
    goal: Goal,
    entries: usize,
    to_repl: Sender<Progress>,
    from_repl: Receiver<Resume>,
) {
    let rec = Rc::new(RefCell::new(Recorder::new(program)));
    let mut ctl = Ctl {
        p: program,
        ops: plan.ops,
        entries,
        next: 0,
        first_pick: plan.first_pick,
        policies: Vec::new(),
        seed: plan.seed,
        policy_ref: program.default_policy.unwrap_or(PolicyRef::Random),
        modes: Modes::default(),
        asked_made: 0,
        goal,
        goal_started: false,
        made: Vec::new(),
        rec: rec.clone(),
        divergence: None,
        decisions: 0,
        link: Some((to_repl, from_repl)),
        held: (Vec::new(), 0),
        last: None,
        queue: Vec::new(),
    };
    // No default stop: a fight goes on until the rules end it (the step budget guards).
    let cfg = RunConfig {
        seed: plan.seed,
        default_limit: false,
        ..RunConfig::default()
    };
    let mut sink = RecSink(rec.clone());
    let ran = run_controlled(program, &cfg, &mut ctl, plan.absent, &mut sink);
    // Told to stop (the REPL dropped the run): no one waits for the rest.
    let Some((to_repl, _)) = ctl.link.take() else {
        return;
    };
    let (mut end, divergence) = ending(ran, &ctl.ops, ctl.entries, ctl.divergence.take(), ctl.next);
    if let End::Finished(_, last) = &mut end {
        *last = ctl.last.take();
    }
    let trace = rec.borrow_mut().delta();
    let attempts = std::mem::take(&mut rec.borrow_mut().attempts);
    let _ = to_repl.send(Progress {
        trace,
        end,
        decisions: ctl.decisions,
        made: std::mem::take(&mut ctl.made),
        divergence,
        modes: std::mem::take(&mut ctl.modes),
        alive: false,
        held: std::mem::take(&mut ctl.held),
        queued: ctl.queue.iter().map(|q| q.text.clone()).collect(),
        attempts,
    });
}

/// What a replay starts from: the log's operations in order (with their entries), where the
/// first pick is, and what holds from the start (a seed and the cast given before any pick).
struct Plan {
    ops: Vec<(usize, Op)>,
    first_pick: usize,
    seed: u64,
    absent: Vec<bool>,
}

impl Plan {
    fn of(program: &Program, base: &Base, log: &[Entry]) -> Plan {
        let ops: Vec<(usize, Op)> = log
            .iter()
            .enumerate()
            .flat_map(|(i, e)| e.ops.iter().cloned().map(move |o| (i, o)))
            .collect();
        // Seeds and casts given before the first decision hold from the start.
        let first_pick = ops
            .iter()
            .position(|(_, o)| matches!(o, Op::Pick { .. }))
            .unwrap_or(ops.len());
        let mut seed = base.seed;
        let mut absent = vec![false; program.characters.len()];
        for (i, (_, op)) in ops.iter().enumerate() {
            match op {
                Op::Seed(s) if i < first_pick => seed = *s,
                Op::Add(text) if i >= first_pick => {
                    for name in declared_names(text) {
                        if let Some(id) = program.characters.iter().position(|c| c.name == name) {
                            absent[id] = true;
                        }
                    }
                }
                _ => {}
            }
        }
        Plan {
            ops,
            first_pick,
            seed,
            absent,
        }
    }
}

/// How a replay ended, and where the log stopped fitting: a run that finished or failed before
/// the log's operations were all used diverges at the entry of the first one left.
fn ending(
    ran: Result<Ran, Diag>,
    ops: &[(usize, Op)],
    entries: usize,
    mut divergence: Option<Divergence>,
    next: usize,
) -> (End, Option<Divergence>) {
    let n_ops = ops.len();
    let op_entry = |k: usize| -> usize { ops.get(k).map_or(entries, |(e, _)| *e) };
    let end = match ran {
        Ok(Ran::Paused(p)) => End::Paused(p),
        Ok(Ran::Finished(o)) => {
            if divergence.is_none() && next < n_ops {
                divergence = Some(Divergence {
                    entry: op_entry(next),
                    reason: "the encounter ended before this command's decision".into(),
                });
            }
            End::Finished(o.reason, None)
        }
        Err(d) => {
            if divergence.is_none() && next < n_ops {
                divergence = Some(Divergence {
                    entry: op_entry(next.saturating_sub(1)),
                    reason: format!("the run stopped with an error: {}", d.message),
                });
            }
            End::Failed(d)
        }
    };
    (end, divergence)
}

/// `v`, kept with `from` decimals, kept with `to` instead: exact, or `None` when digits would be
/// lost or it would not fit.
fn rescale(v: i64, from: u8, to: u8) -> Option<i64> {
    if to >= from {
        v.checked_mul(10i64.checked_pow(u32::from(to - from))?)
    } else {
        let k = 10i64.checked_pow(u32::from(from - to))?;
        (v % k == 0).then_some(v / k)
    }
}

/// The effect a logged change names, by name in `p` now.
fn effect_of(p: &Program, effect: &str) -> Result<FieldId, String> {
    p.fields
        .iter()
        .position(|d| d.name == effect && d.kind == crate::check::FieldKind::Effect)
        .map(|f| f as FieldId)
        .ok_or_else(|| format!("no effect is called `{effect}` now"))
}

/// The entity (`None`: the table) and field a logged change names, by name in `p` now.
fn field_of(p: &Program, who: Option<&str>, field: &str) -> Result<(EntityId, usize), String> {
    // An entity's field, a side's (`heroes.init`), or a global: the field of the owner's type,
    // never another type's field of the same name.
    let (e, ty) = match who {
        None => (TABLE, None),
        Some(w) => {
            let (e, ty) =
                crate::table::sides::owner_named(p, w).ok_or_else(|| format!("no character is called `{w}` now"))?;
            (e, Some(ty))
        }
    };
    let f =
        crate::table::sides::field_owned(p, field, ty).ok_or_else(|| format!("no field is called `{field}` now"))?;
    Ok((e, f as usize))
}
