//! A session: an immutable base (ruleset, encounter, seed) and a log of the commands that changed
//! the state. The state at any point is a replay of the log from the start, so undo and redo move
//! a cursor, save writes the log, and load and reload replay it.

use std::cell::RefCell;
use std::rc::Rc;

use crate::compile::Program;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::project::Project;
use crate::runtime::RunConfig;
use crate::runtime::control::{Control, Editor, Pending, Ran, Snapshot, Verdict, run_controlled};
use crate::runtime::decide::{DecisionPoint, Policy};
use crate::source::Sources;
use crate::syntax::ast::Item;
use crate::trace::{DecidedBy, Event, Sink, Text};

pub use super::modes::{Mode, Modes};

/// One change to the state, as the log keeps it: by name, so a replay under an edited ruleset can
/// tell where it no longer fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A decision answered: which decision, whose, the option picked, and by whom.
    Pick {
        decision: String,
        chooser: String,
        option: String,
        by: DecidedBy,
    },
    /// Force the next dice.
    Roll(Vec<i64>),
    /// Force the next cards drawn, by name.
    Draw(Vec<String>),
    /// Restart the dice and policy streams from a seed (before the first decision: the run's seed).
    Seed(u64),
    /// Set a character's field (`who: None`: a global) by hand.
    Set {
        who: Option<String>,
        field: String,
        /// The value as written, in units of 10^-`decimals` (5.75 is 575 with 2 decimals): it
        /// is replayed in the decimals the field keeps then.
        value: i64,
        decimals: u8,
    },
    /// Take a character out of play.
    Remove(String),
    /// Characters in encounter syntax; before the first decision they are in from the start,
    /// later they join at that point.
    Add(String),
    /// Set a field that holds an entity to one by name (`None`: `none`).
    SetEntity {
        who: Option<String>,
        field: String,
        entity: Option<String>,
    },
    /// Begin an effect on a character by hand, for a count, counted at a place (as the
    /// language writes it after `counted at`; `None`: the end of the character's turns).
    Begin {
        effect: String,
        on: String,
        count: i64,
        at: Option<String>,
    },
    /// End every instance of an effect on a character by hand.
    Stop { effect: String, on: String },
    /// Move a character in a kept order: `first`, `last`, `before X`, `after X`.
    Place { who: String, to: String, order: String },
    /// Rank a kept order again by its keys.
    Rank(String),
    /// Who answers the decisions of a side, a role, a character, everyone (`all`), or the
    /// decisions with one option (`single`): the person at the REPL, or a policy.
    Mode { target: String, mode: Mode },
}

/// A command as typed and the changes it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub line: String,
    pub ops: Vec<Op>,
}

/// A file of the base: the path as given, and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
}

/// What a session starts from.
#[derive(Clone, Debug)]
pub struct Base {
    pub ruleset: SourceFile,
    pub encounter: Option<SourceFile>,
    pub seed: u64,
}

/// Where a replay goes once the log is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Stop at the next decision.
    Pause,
    /// Answer the next decision with this option, then stop.
    Answer(usize),
    /// Let the policy answer this many decisions, then stop.
    Decisions(u32),
    /// Let the policy answer until the current (or next) turn is over.
    Turn,
    /// Let the policy answer until the current (or next) iteration of this level is over.
    Level(LevelId),
    /// Let the policy answer to the end of the encounter.
    End,
    /// Let the policy answer until iteration N of this level is over (by its own numbers).
    Until(LevelId, u64),
    /// Play on: the policy answers the pending decision and every later one except those of
    /// choosers set to `ask`; to the end, or (with a level) until that iteration is over.
    Continue(Option<(LevelId, u64)>),
}

/// Where the open levels and turns stand, from the events so far.
#[derive(Clone, Debug)]
pub enum Frame {
    Level {
        level: LevelId,
        n: u64,
        /// The last order made inside this iteration, and who started a turn since.
        order: Option<(OrderId, Vec<EntityId>)>,
        acted: Vec<EntityId>,
    },
    Turn(EntityId),
    React(EntityId),
}

/// What a goal waits for: the number of open frames of a kind to drop below `depth`.
#[derive(Clone, Copy, Debug)]
enum Watch {
    Turn(usize),
    Level(LevelId, usize),
    /// The end of this iteration (by the level's own numbers).
    Iteration(LevelId, u64),
}

/// The sink of a replay: the GM's text view, where each event ends in it, and the open frames.
pub struct Recorder {
    pub text: Text,
    /// The length of `text.out()` after each event.
    pub ends: Vec<usize>,
    pub open: Vec<Frame>,
    watch: Option<Watch>,
    hit: bool,
}

impl Recorder {
    fn new(p: &Program) -> Self {
        Recorder {
            text: Text::new(p),
            ends: Vec::new(),
            open: Vec::new(),
            watch: None,
            hit: false,
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

    /// The trace text of events `from..`.
    pub fn text_from(&self, from: usize) -> &str {
        let start = if from == 0 {
            0
        } else {
            self.ends.get(from - 1).copied().unwrap_or(self.text.get_ref().len())
        };
        self.text.out().get(start..).unwrap_or("")
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
            Event::ReactionStart { actor } => r.open.push(Frame::React(*actor)),
            Event::ReactionEnd { .. } => {
                r.open.pop();
            }
            _ => {}
        }
    }
}

/// How the replay of a log ended.
pub enum End {
    Paused(Pending),
    Finished(crate::trace::EndReason),
    /// A run error (rendered with the state's sources).
    Failed(Diag),
}

/// Where a replay stopped fitting its log.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// The index of the log entry that no longer fits.
    pub entry: usize,
    pub reason: String,
}

/// The state after a replay.
pub struct State {
    pub program: Program,
    pub sources: Sources,
    pub rec: Recorder,
    pub end: End,
    /// The decisions answered so far.
    pub decisions: usize,
    /// The picks made after the log was used up (by the goal).
    pub made: Vec<Op>,
    pub divergence: Option<Divergence>,
    pub seed: u64,
    /// Who the REPL asks and who plays by a policy, at the end of the replay.
    pub modes: Modes,
}

impl State {
    pub fn pending(&self) -> Option<&Pending> {
        match &self.end {
            End::Paused(p) => Some(p),
            _ => None,
        }
    }

    pub fn snapshot(&self) -> Option<&Snapshot> {
        self.pending().map(|p| &p.snapshot)
    }

    pub fn character(&self, name: &str) -> Option<EntityId> {
        self.program
            .characters
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as EntityId)
    }

    pub fn field(&self, name: &str) -> Option<FieldId> {
        self.program
            .fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as FieldId)
    }
}

/// Where an effect begun by hand is counted, resolved to ids (a place still by who holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountAt {
    Place(EntityId, OrderId),
    TurnStart(EntityId),
    TurnEnd(EntityId),
    LevelStart(LevelId),
    LevelEnd(LevelId),
}

/// Reads `place of X in ORDER`, `start of turn(X)`, `end of turn(X)`, `start of LEVEL`,
/// `end of LEVEL`; the error says what is wrong.
pub fn count_at(p: &Program, text: &str) -> Result<CountAt, String> {
    let who = |name: &str| -> Result<EntityId, String> {
        let name = name.trim();
        p.characters
            .iter()
            .position(|c| c.name == name)
            .map(|i| i as EntityId)
            .ok_or_else(|| format!("no character is called `{name}`"))
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["place", "of", x, "in", o] => {
            let order = p
                .orders
                .iter()
                .position(|d| d.name == *o)
                .ok_or_else(|| format!("no order is called `{o}`"))?;
            Ok(CountAt::Place(who(x)?, order as OrderId))
        }
        [edge @ ("start" | "end"), "of", rest @ ..] => {
            let rest = rest.join(" ");
            let start = *edge == "start";
            if let Some(inner) = rest.strip_prefix("turn(").and_then(|r| r.strip_suffix(')')) {
                let e = who(inner)?;
                return Ok(if start {
                    CountAt::TurnStart(e)
                } else {
                    CountAt::TurnEnd(e)
                });
            }
            let l = p
                .level_id(&rest)
                .ok_or_else(|| format!("no level is called `{rest}` (a turn is written turn(NAME))"))?;
            Ok(if start {
                CountAt::LevelStart(l)
            } else {
                CountAt::LevelEnd(l)
            })
        }
        _ => Err(format!(
            "`{text}` is not a place to count at: write place of NAME in ORDER, start of turn(NAME), end of turn(NAME), start of LEVEL or end of LEVEL"
        )),
    }
}

/// The names of the characters an `add` text declares.
pub fn declared_names(text: &str) -> Vec<String> {
    match crate::syntax::parse(text, 0) {
        Ok(f) => f
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Character(c) => Some(c.name.node.clone()),
                _ => None,
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The files a log builds: the base, then each `add`.
pub fn files(base: &Base, log: &[Entry]) -> Vec<(String, String)> {
    let mut files = vec![(base.ruleset.path.clone(), base.ruleset.text.clone())];
    if let Some(e) = &base.encounter {
        files.push((e.path.clone(), e.text.clone()));
    }
    for e in log {
        for op in &e.ops {
            if let Op::Add(text) = op {
                files.push(("command".to_string(), text.clone()));
            }
        }
    }
    files
}

/// Replays `log` over `base`, then follows `goal`. Errors only when the files do not build.
pub fn replay(base: &Base, log: &[Entry], goal: Goal) -> Result<State, (Sources, Vec<Diag>)> {
    let project = Project::load(files(base, log));
    let program = match project.compile() {
        Ok(p) => p,
        Err(d) => return Err((project.into_sources(), d)),
    };
    let sources = project.into_sources();
    let plan = Plan::of(&program, base, log);
    let policy_ref = program.default_policy.unwrap_or(PolicyRef::Random);
    let rec = Rc::new(RefCell::new(Recorder::new(&program)));
    let mut ctl = Ctl {
        p: &program,
        ops: plan.ops,
        next: 0,
        first_pick: plan.first_pick,
        policies: Vec::new(),
        seed: plan.seed,
        policy_ref,
        modes: Modes::default(),
        asked_made: 0,
        goal,
        goal_started: false,
        made: Vec::new(),
        rec: rec.clone(),
        divergence: None,
        decisions: 0,
    };
    // No default stop: a fight goes on until the rules end it (the step budget guards).
    let cfg = RunConfig {
        seed: plan.seed,
        default_limit: false,
        ..RunConfig::default()
    };
    let mut sink = RecSink(rec.clone());
    // The caller runs on the run stack (see `repl::main`).
    let ran = run_controlled(&program, &cfg, &mut ctl, plan.absent, &mut sink);
    let made = std::mem::take(&mut ctl.made);
    let modes = std::mem::take(&mut ctl.modes);
    let (decisions, next, n_ops) = (ctl.decisions, ctl.next, ctl.ops.len());
    let (end, divergence) = ending(ran, log, ctl.divergence.take(), next, n_ops);
    drop(ctl);
    drop(sink);
    // The sink and the control are gone: this is the last handle.
    let rec = Rc::into_inner(rec).map_or_else(|| Recorder::new(&program), RefCell::into_inner);
    Ok(State {
        program,
        sources,
        rec,
        end,
        decisions,
        made,
        divergence,
        seed: plan.seed,
        modes,
    })
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
    log: &[Entry],
    mut divergence: Option<Divergence>,
    next: usize,
    n_ops: usize,
) -> (End, Option<Divergence>) {
    let op_entry = |k: usize| -> usize {
        log.iter()
            .enumerate()
            .scan(0usize, |acc, (i, e)| {
                *acc += e.ops.len();
                Some((i, *acc))
            })
            .find(|(_, acc)| *acc > k)
            .map_or(log.len(), |(i, _)| i)
    };
    let end = match ran {
        Ok(Ran::Paused(p)) => End::Paused(*p),
        Ok(Ran::Finished(o)) => {
            if divergence.is_none() && next < n_ops {
                divergence = Some(Divergence {
                    entry: op_entry(next),
                    reason: "the encounter ended before this command's decision".into(),
                });
            }
            End::Finished(o.reason)
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

/// Applies the log at each decision, then follows the goal.
struct Ctl<'p> {
    p: &'p Program,
    ops: Vec<(usize, Op)>,
    next: usize,
    first_pick: usize,
    /// The policies' streams, each made from the seed when first used.
    policies: Vec<(PolicyRef, Policy)>,
    seed: u64,
    /// The session's policy (the ruleset's default, else `random`).
    policy_ref: PolicyRef,
    modes: Modes,
    /// Decisions the goal let the policy answer that were not auto (for `step N`).
    asked_made: u32,
    goal: Goal,
    goal_started: bool,
    made: Vec<Op>,
    rec: Rc<RefCell<Recorder>>,
    divergence: Option<Divergence>,
    decisions: usize,
}

impl Ctl<'_> {
    /// The policy `who`'s decisions are answered by when the policy answers them.
    fn policy_ref_for(&self, who: Who) -> PolicyRef {
        self.modes.policy_for(self.p, who, self.policy_ref)
    }

    /// Lets the policy that answers `d`'s chooser pick (each policy keeps its own stream).
    fn policy_pick(&mut self, d: &DecisionPoint<'_>) -> usize {
        let r = self.policy_ref_for(d.chooser);
        let i = match self.policies.iter().position(|(x, _)| *x == r) {
            Some(i) => i,
            None => {
                self.policies.push((r, Policy::new(r, self.seed)));
                self.policies.len() - 1
            }
        };
        self.policies[i].1.pick(self.p, d)
    }

    fn diverge(&mut self, entry: usize, reason: String) -> Verdict {
        self.divergence = Some(Divergence { entry, reason });
        Verdict::Pause
    }

    /// Applies one change; the reason when it no longer fits the program.
    fn apply(&mut self, ed: &mut Editor<'_, '_>, i: usize, op: &Op) -> Result<(), String> {
        let p = self.p;
        let find = |name: &str| p.characters.iter().position(|c| c.name == name).map(|i| i as EntityId);
        match op {
            Op::Pick { .. } => {}
            Op::Roll(r) => ed.force(r),
            Op::Draw(names) => {
                let cards = names
                    .iter()
                    .map(|n| find(n).filter(|e| p.decks.contains(&p.characters[*e as usize].ty)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("the cards {} are not all in a deck any more", names.join(", ")))?;
                ed.force_draws(&cards);
            }
            Op::Seed(_) | Op::Add(_) if i < self.first_pick => {}
            Op::Seed(s) => {
                ed.reseed(*s);
                self.policies.clear();
                self.seed = *s;
            }
            Op::Mode { target, mode } => self.modes.apply(p, self.policy_ref, target, mode)?,
            Op::SetEntity { who, field, entity } => {
                let (e, f) = field_of(p, who.as_deref(), field)?;
                let v = match entity {
                    None => NONE,
                    Some(n) => find(n).ok_or_else(|| format!("no character is called `{n}` now"))? as i64,
                };
                ed.set(e, f as FieldId, v);
            }
            Op::Begin { effect, on, count, at } => {
                let f = p
                    .fields
                    .iter()
                    .position(|d| d.name == *effect && d.kind == crate::check::FieldKind::Effect)
                    .ok_or_else(|| format!("no effect is called `{effect}` now"))? as FieldId;
                let e = find(on).ok_or_else(|| format!("no character is called `{on}` now"))?;
                let spec = match at {
                    Some(text) => count_at(p, text)?,
                    None => CountAt::TurnEnd(e),
                };
                let anchor = match spec {
                    CountAt::Place(x, o) => {
                        let i = ed.place_of(x, o).ok_or_else(|| {
                            format!(
                                "{} has no place in the order `{}` now",
                                p.character_name(x),
                                p.orders[o as usize].name
                            )
                        })?;
                        Anchor::Place(o, i)
                    }
                    CountAt::TurnStart(x) => Anchor::TurnStart(x),
                    CountAt::TurnEnd(x) => Anchor::TurnEnd(x),
                    CountAt::LevelStart(l) => Anchor::LevelStart(l),
                    CountAt::LevelEnd(l) => Anchor::LevelEnd(l),
                };
                let where_ = match at {
                    Some(t) => t.clone(),
                    None => format!("end of turn({on})"),
                };
                ed.ruling(&format!("begin {effect} on {on} for {count} counted at {where_}"));
                ed.begin(f, e, *count, anchor);
            }
            Op::Stop { effect, on } => {
                let f = p
                    .fields
                    .iter()
                    .position(|d| d.name == *effect && d.kind == crate::check::FieldKind::Effect)
                    .ok_or_else(|| format!("no effect is called `{effect}` now"))? as FieldId;
                let e = find(on).ok_or_else(|| format!("no character is called `{on}` now"))?;
                ed.ruling(&format!("stop {effect} on {on}"));
                ed.stop(f, e);
            }
            Op::Place { who, to, order } => {
                let e = find(who).ok_or_else(|| format!("no character is called `{who}` now"))?;
                let o = p
                    .orders
                    .iter()
                    .position(|d| d.name == *order)
                    .ok_or_else(|| format!("no order is called `{order}` now"))? as OrderId;
                let dest = match to.split_once(' ') {
                    None if to == "first" => Err(true),
                    None if to == "last" => Err(false),
                    Some((rel @ ("before" | "after"), x)) => {
                        let x = find(x.trim()).ok_or_else(|| format!("no character is called `{x}` now"))?;
                        Ok((x, rel == "after"))
                    }
                    _ => return Err(format!("`{to}` is not first, last, before NAME or after NAME")),
                };
                ed.ruling(&format!("place {who} {to} in {order}"));
                ed.place(e, o, dest)?;
            }
            Op::Rank(order) => {
                let o = p
                    .orders
                    .iter()
                    .position(|d| d.name == *order)
                    .ok_or_else(|| format!("no order is called `{order}` now"))? as OrderId;
                ed.ruling(&format!("rank {order}"));
                ed.rank(o).map_err(|d| d.message)?;
            }
            Op::Set {
                who,
                field,
                value,
                decimals,
            } => {
                let (e, f) = field_of(p, who.as_deref(), field)?;
                let now = p.fields[f].decimals;
                let v = rescale(*value, *decimals, now).ok_or_else(|| {
                    format!(
                        "`{field}` now keeps {now} decimal{}: {} does not fit",
                        if now == 1 { "" } else { "s" },
                        crate::trace::Decimal(*value, *decimals)
                    )
                })?;
                ed.set(e, f as FieldId, v);
            }
            Op::Remove(w) => {
                let e = find(w).ok_or_else(|| format!("no character is called `{w}` now"))?;
                ed.leave(e).map_err(|d| d.message)?;
            }
            Op::Add(text) => {
                for name in declared_names(text) {
                    if let Some(e) = find(&name) {
                        ed.join(e).map_err(|d| d.message)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn pick_by_name(&self, d: &DecisionPoint<'_>, op: &Op) -> Result<(usize, DecidedBy), String> {
        let p = self.p;
        let Op::Pick {
            decision,
            chooser,
            option,
            by,
        } = op
        else {
            return Err("not a decision".into());
        };
        let now = p.decisions.get(d.decision as usize).map(String::as_str).unwrap_or("?");
        let who = p.who_name(d.chooser);
        if now != decision || who != chooser {
            return Err(format!(
                "the decision here is now `{now}` by {who}, where it was `{decision}` by {chooser}"
            ));
        }
        // An attempt the rules refused (a refused option, or one a `forbid` names) is replayed
        // as one: refused again, and asked again.
        match (0..d.answerable()).find(|i| d.key(*i).is_some_and(|o| p.option_name(o) == option)) {
            Some(i) => Ok((i, *by)),
            None => {
                let names: Vec<&str> = d.options.iter().map(|o| p.option_name(*o)).collect();
                Err(format!(
                    "`{option}` is no longer an option of `{decision}` for {chooser} (the options are: {})",
                    names.join(", ")
                ))
            }
        }
    }

    fn record(&mut self, d: &DecisionPoint<'_>, i: usize, by: DecidedBy) -> Verdict {
        let p = self.p;
        self.made.push(Op::Pick {
            decision: p.decisions.get(d.decision as usize).cloned().unwrap_or_default(),
            chooser: p.who_name(d.chooser).to_string(),
            option: d.key(i).map(|o| p.option_name(o).to_string()).unwrap_or_default(),
            by,
        });
        // A refused attempt is not a decision made: the same decision is asked again.
        if i < d.options.len() {
            self.decisions += 1;
        }
        Verdict::Pick(i, by)
    }
}

impl Control for Ctl<'_> {
    fn policy(&self, who: Who) -> Option<PolicyRef> {
        // The modes as they will be at this decision: an `auto` given here counts already.
        let mut modes = self.modes.clone();
        for (_, op) in self.ops.iter().skip(self.next) {
            match op {
                Op::Pick { .. } => break,
                Op::Mode { target, mode } => {
                    let _ = modes.apply(self.p, self.policy_ref, target, mode);
                }
                _ => {}
            }
        }
        Some(modes.policy_for(self.p, who, self.policy_ref))
    }

    fn decide(&mut self, ed: &mut Editor<'_, '_>, d: &DecisionPoint<'_>) -> Result<Verdict, Diag> {
        // The log first: its changes at this decision, then its answer.
        while let Some((entry, op)) = self.ops.get(self.next).cloned() {
            if let Op::Pick { by, .. } = &op {
                self.next += 1;
                if *by == DecidedBy::Policy {
                    // Keep the policy's stream where it was when this was first picked.
                    self.policy_pick(d);
                }
                return Ok(match self.pick_by_name(d, &op) {
                    Ok((i, by)) => {
                        if i < d.options.len() {
                            self.decisions += 1;
                        }
                        Verdict::Pick(i, by)
                    }
                    Err(reason) => {
                        self.next -= 1;
                        self.diverge(entry, reason)
                    }
                });
            }
            self.next += 1;
            if let Err(reason) = self.apply(ed, self.next - 1, &op) {
                return Ok(self.diverge(entry, reason));
            }
        }
        // Then the goal. The first decision is the one the REPL showed as pending: the goal
        // decides it (`Pause` stops there, even at a decision that would answer itself). Later
        // ones that answer themselves (auto, or one option) are answered on the way.
        let first = !self.goal_started;
        self.goal_started = true;
        if first {
            self.rec.borrow_mut().start_watch(self.goal);
        }
        if self.goal == Goal::Pause {
            return Ok(Verdict::Pause);
        }
        // Past the point a goal plays to, the run stops at the next decision, whoever's.
        let hit = self.rec.borrow().hit;
        if !first && !hit && self.modes.auto(self.p, d, self.policy_ref).is_some() {
            let i = self.policy_pick(d);
            return Ok(self.record(d, i, DecidedBy::Policy));
        }
        let policy = |s: &mut Self| {
            let i = s.policy_pick(d);
            s.record(d, i, DecidedBy::Policy)
        };
        Ok(match self.goal {
            Goal::Pause => Verdict::Pause,
            Goal::Answer(i) if first && i < d.answerable() => self.record(d, i, DecidedBy::Answer),
            Goal::Answer(_) => Verdict::Pause,
            Goal::Decisions(n) if self.asked_made < n => {
                self.asked_made += 1;
                policy(self)
            }
            Goal::Decisions(_) => Verdict::Pause,
            Goal::End => policy(self),
            Goal::Turn | Goal::Level(_) | Goal::Until(..) => {
                if first || !hit {
                    policy(self)
                } else {
                    Verdict::Pause
                }
            }
            Goal::Continue(_) => {
                if first || !(hit || self.modes.asks(self.p, d.chooser)) {
                    policy(self)
                } else {
                    Verdict::Pause
                }
            }
        })
    }
}

/// FNV-1a, 64 bits: the hash a session file keeps of each file it was made with.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
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

/// The entity (`None`: the table) and field a logged change names, by name in `p` now.
fn field_of(p: &Program, who: Option<&str>, field: &str) -> Result<(EntityId, usize), String> {
    let f = p
        .fields
        .iter()
        .position(|d| d.name == field)
        .ok_or_else(|| format!("no field is called `{field}` now"))?;
    let e = match who {
        None => TABLE,
        Some(w) => p
            .characters
            .iter()
            .position(|c| c.name == w)
            .map(|i| i as EntityId)
            .ok_or_else(|| format!("no character is called `{w}` now"))?,
    };
    Ok((e, f))
}
