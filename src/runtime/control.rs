//! The control surface of a run, for tools that drive it decision by decision (the REPL).
//!
//! A [`Control`] is consulted at each decision instead of the [`Decider`]. Through an [`Editor`]
//! it can read a [`Snapshot`] of the state and change it by hand at that point (a field, the
//! next dice, the seed, who is in play), each change traced as an event; then it picks an option
//! or pauses the run. A paused run returns [`Ran::Paused`] with the pending decision. The run is
//! deterministic given its seed, its changes and its answers, so a tool may resume by running
//! again from the start and making the same changes at the same decisions; or its control may
//! keep the run waiting inside [`Control::decide`] (on a thread of its own) and go on from there.

use super::attempts::AGAIN;
use super::decide::{Decider, DecisionPoint, MomentPoint, Policy};
use super::stmt::Flow;
use super::{Machine, Outcome, R, RunConfig, run_with};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::{DecidedBy, Event, Sink};

/// What a [`Control`] does with a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Pick the option at this index.
    Pick(usize, DecidedBy),
    /// An attempt (an index among the attempts, as for `Pick`) made at this decision by this
    /// character or role: refused or carried out, and the decision is asked again.
    Attempt(usize, Who),
    /// Stop the run here, with this decision pending.
    Pause,
}

/// Consulted at each decision of a controlled run.
pub trait Control {
    /// Decision `d` is about to be asked; `ed` reads and edits the state at this point.
    fn decide(&mut self, ed: &mut Editor<'_, '_>, d: &DecisionPoint<'_>) -> Result<Verdict, Diag>;

    /// The policy that answers for this control when it lets the policy answer `chooser`: the
    /// runtime works out that policy's conditional preferences for it (as for a decider).
    fn policy(&self, chooser: Who) -> Option<PolicyRef> {
        let _ = chooser;
        None
    }

    /// Whether attempts wait for moments (`attempt WHO NAME after X` queued at the REPL): the
    /// runtime asks [`Control::moment`] at the moments only while this holds, read after each
    /// decision the control answers (nothing is asked per step while it does not).
    fn moments(&self) -> bool {
        false
    }

    /// An attempt made at moment `m`: who makes it and which (an index into
    /// `Program::attempts`). Asked again at the same moment until it gives `None`.
    fn moment(&mut self, m: &MomentPoint<'_>) -> Option<(Who, usize)> {
        let _ = m;
        None
    }

    /// The run has ended (or paused, or failed): `hidden` and `uncounted` as at a decision
    /// ([`Pending::hidden`], [`Pending::uncounted`]): the answers that choices still held
    /// took, which a view must never show; `last`: the state it ended in.
    fn ended(&mut self, hidden: Vec<u32>, uncounted: u32, last: Snapshot) {
        let _ = (hidden, uncounted, last);
    }
}

/// The state of a run at a decision, read-only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub n_fields: usize,
    /// Every character's fields, character-major.
    pub values: Vec<i64>,
    /// The table's globals, by field id.
    pub globals: Vec<i64>,
    /// The sides' fields, side-major (empty when no side has fields).
    pub sides: Vec<i64>,
    /// The current iteration of each level (0 before it first runs).
    pub counters: Vec<u64>,
    /// Each order's kept ranking, from its last `rank`.
    pub ranked: Vec<Vec<EntityId>>,
    /// The game clock, in the base unit.
    pub clock: i64,
    /// Characters out of play.
    pub absent: Vec<bool>,
    /// The fields of never-joined characters worked out only when they join (see
    /// `Machine::pending`): they have no value yet.
    pub pending: Vec<bool>,
    /// The effects running: effect, the character it is on, counts left, where it is counted.
    pub effects: Vec<(FieldId, EntityId, i64, Anchor)>,
    /// The responses armed by `ready`, in the order they were armed: the `ready` statement's
    /// definition, its owner, and the edge it expires at.
    pub armed: Vec<(ReadyId, EntityId, Option<Anchor>)>,
    /// Each deck's piles as the table sees them: how many cards are in the draw pile (never
    /// which, nor their order), and the discard pile face up (its top last).
    pub piles: Vec<(usize, Vec<EntityId>)>,
}

impl Snapshot {
    /// A character's field, or a global's value for [`TABLE`].
    pub fn get(&self, e: EntityId, f: FieldId) -> i64 {
        if e == TABLE {
            return self.globals.get(f as usize).copied().unwrap_or(0);
        }
        // A side's field (`Program::side_owner`: counted down from just below `TABLE`).
        let sides = self.sides.len().checked_div(self.n_fields).unwrap_or(0);
        if let Some(s) = Program::side_among(e, sides) {
            return self.sides.get(s * self.n_fields + f as usize).copied().unwrap_or(0);
        }
        self.values
            .get(e as usize * self.n_fields + f as usize)
            .copied()
            .unwrap_or(0)
    }

    pub fn is_absent(&self, e: EntityId) -> bool {
        self.absent.get(e as usize).copied().unwrap_or(false)
    }

    /// Whether a character's field has a value: false only for one a never-joined character
    /// gets when it joins.
    pub fn is_set(&self, e: EntityId, f: FieldId) -> bool {
        !self
            .pending
            .get(e as usize * self.n_fields + f as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// The decision a paused run is waiting on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub decision: DecisionId,
    pub chooser: Who,
    pub options: Vec<OptionKey>,
    /// Options the rules refuse now: an answer naming one is `options.len() + j` for
    /// `refused[j]` (traced as refused, then the decision is asked again).
    pub refused: Vec<OptionKey>,
    /// Why each of `refused` is refused (its rules' texts, joined with `; `).
    pub reasons: Vec<String>,
    /// Members a `choose ... from` does not offer for being out of play (or in it, or
    /// destroyed): an answer naming one is `options.len() + refused.len() + attempts + m` for
    /// `outside[m]` (`attempts`: `Program::attempts.len()`), and refused with why.
    pub outside: Vec<OptionKey>,
    pub span: Span,
    /// The state at the decision, after the changes made there.
    pub snapshot: Snapshot,
    /// Asked in secret (part of a secret choice being made).
    pub secret: bool,
    /// The answers (numbered from 0, in the order the run took them, refused ones too) that
    /// secret choices not yet revealed took: a view of the run must not show them.
    pub hidden: Vec<u32>,
    /// How many of the decisions made so far were made in secret beyond what the trace shows
    /// (a choice made with a secret pick, the pick being made): a view's count leaves them out,
    /// or it would tell what was picked.
    pub uncounted: u32,
    /// The choices held until revealed (`in secret until revealed`), in the order made: who
    /// holds one, of which decision (never what was chosen).
    pub held: Vec<(Who, DecisionId)>,
    /// Whether an attempt made here can be carried out (the decision is offered anew after it);
    /// false at a tie broken by a person, where every attempt is refused.
    pub reoffered: bool,
}

impl Pending {
    /// Decision `d`, pending, with the state as `ed` sees it now.
    pub fn at(ed: &Editor<'_, '_>, d: &DecisionPoint<'_>) -> Pending {
        Pending {
            decision: d.decision,
            chooser: d.chooser,
            options: d.options.to_vec(),
            refused: d.refused.to_vec(),
            reasons: d.reasons.to_vec(),
            outside: d.outside.to_vec(),
            span: d.span,
            snapshot: ed.snapshot(),
            secret: d.secret.is_some(),
            hidden: ed.m.secrecy.hidden(),
            uncounted: ed.m.secrecy.uncounted(),
            held: ed.m.secrecy.kept().collect(),
            reoffered: ed.m.reoffer,
        }
    }
}

/// How a controlled run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    Finished(Outcome),
    Paused(Box<Pending>),
}

/// Reads and edits a running machine at a decision. Every edit is traced.
pub struct Editor<'m, 'a> {
    m: &'m mut Machine<'a>,
}

/// The state `m` is in, read-only (as the run ends, for a control).
pub(super) fn snapshot_of(m: &mut Machine<'_>) -> Snapshot {
    Editor { m }.snapshot()
}

impl Editor<'_, '_> {
    pub fn snapshot(&self) -> Snapshot {
        let m = &*self.m;
        Snapshot {
            n_fields: m.n_fields,
            values: m.values.clone(),
            globals: m.globals.clone(),
            sides: m.side_values.clone(),
            counters: m.counters.clone(),
            ranked: m.ranked.clone(),
            clock: m.clock,
            absent: m.absent.clone(),
            pending: m.pending.clone(),
            effects: m
                .effects
                .iter()
                .map(|a| (a.effect, a.target, a.left, a.anchor))
                .collect(),
            armed: m.readied.armed.iter().map(|a| (a.ready, a.owner, a.until)).collect(),
            piles: m.piles.iter().map(|p| (p.draw.len(), p.discard.clone())).collect(),
        }
    }

    /// Sets a character's field (or a global, for [`TABLE`]) by hand. A resource or global is
    /// kept within its limits, as every change to it is; returns the value set.
    pub fn set(&mut self, e: EntityId, f: FieldId, value: i64) -> i64 {
        let kind = self.m.p.fields.get(f as usize).map(|d| d.kind);
        let v = match kind {
            // A limit that cannot be worked out for the owner now (it reads a value not yet
            // set) leaves the GM's value as given.
            Some(crate::check::FieldKind::Resource | crate::check::FieldKind::Global) => {
                self.m.clamp_for(e, f, value).unwrap_or(value)
            }
            _ => value,
        };
        self.m.put(e, f, v);
        self.m.emit(Event::Manual {
            actor: e,
            field: f,
            value: v,
        });
        v
    }

    /// Forces the next dice, after any forced values still waiting.
    pub fn force(&mut self, rolls: &[i64]) {
        self.m.dice.force(rolls);
        self.m.emit(Event::Forced { rolls });
    }

    /// Forces the next cards drawn, after any forced draws still waiting.
    pub fn force_draws(&mut self, cards: &[EntityId]) {
        self.m.forced_draws.extend(cards.iter().copied());
        self.m.emit(Event::ForcedDraws { cards });
    }

    /// Restarts the dice stream from `seed` (forced values still come first).
    pub fn reseed(&mut self, seed: u64) {
        self.m.dice.reseed(seed);
        self.m.emit(Event::Reseed { seed });
    }

    /// Traces a ruling made by hand (`manual` in the trace); the events it causes follow it.
    pub fn ruling(&mut self, text: &str) {
        self.m.emit(Event::Ruling { text });
    }

    /// The place (0-based) a character holds now in a kept order.
    pub fn place_of(&self, e: EntityId, order: OrderId) -> Option<usize> {
        self.m.ranked.get(order as usize)?.iter().position(|x| *x == e)
    }

    /// Begins an instance of an effect on a character by hand, for `count` counts at `at`, as
    /// `begin` does (traced `effect_start`; a count of 0 or less ends it at once); the
    /// ruleset's `on start of EFFECT(c)` (and `on end of ...`) hooks run.
    pub fn begin(&mut self, effect: FieldId, e: EntityId, count: i64, at: Anchor) -> R<()> {
        self.m.begin_effect(effect, e, count, at);
        self.m.effect_hooks(Span::default()).map(|_| ())
    }

    /// Ends every instance of an effect on a character by hand, as `stop` does; the ruleset's
    /// `on end of EFFECT(c)` hooks run.
    pub fn stop(&mut self, effect: FieldId, e: EntityId) -> R<()> {
        self.m.stop_effect(effect, e);
        self.m.effect_hooks(Span::default()).map(|_| ())
    }

    /// Moves a character within a kept order, as `place` does: first, last, or before or after
    /// another in it (`to`: `Err(true)` first, `Err(false)` last, `Ok((other, after))`). The
    /// error says why not.
    pub fn place(&mut self, e: EntityId, order: OrderId, to: Result<(EntityId, bool), bool>) -> Result<(), String> {
        let p = self.m.p;
        let Some(list) = self.m.ranked.get_mut(order as usize) else {
            return Err("no such order".into());
        };
        if to.is_ok_and(|(o, _)| o == e) {
            return Ok(());
        }
        list.retain(|x| *x != e);
        let at = match to {
            Err(true) => Some(0),
            Err(false) => Some(list.len()),
            Ok((other, after)) => list.iter().position(|x| *x == other).map(|i| i + after as usize),
        };
        let Some(at) = at else {
            return Err(format!(
                "{} is not in the order `{}`",
                to.map_or("?", |(o, _)| p.character_name(o)),
                p.orders[order as usize].name
            ));
        };
        list.insert(at, e);
        let ids = std::mem::take(&mut self.m.ranked[order as usize]);
        self.m.emit(Event::Order { order, ids: &ids });
        self.m.ranked[order as usize] = ids;
        Ok(())
    }

    /// Ranks a kept order again by its keys, as `rank` does (ties broken anew).
    pub fn rank(&mut self, order: OrderId) -> R<()> {
        self.m.st_rank(order, None).map(|_| ())
    }

    /// Takes a character out of play, as `leave` does: loops, quantifiers, choices and `rank` skip
    /// it from now on, and the ruleset's `on leave` hooks run.
    pub fn leave(&mut self, e: EntityId) -> R<()> {
        let flow = self.m.presence(e, false, Span::default())?;
        self.ruled(flow)
    }

    /// Brings a character into play, as `join` does: its fields are set the first time (given
    /// values, else defaults, rolling any dice they take), and the ruleset's `on join` hooks run
    /// (a newcomer placed in a kept order, say).
    pub fn join(&mut self, e: EntityId) -> R<()> {
        let flow = self.m.presence(e, true, Span::default())?;
        self.ruled(flow)
    }

    /// A ruling's hooks ended the encounter (`end encounter` in an `on leave` hook): play ends at
    /// this decision, which is left unanswered. Where the decision cannot be left (a tie a person
    /// breaks, which is not offered anew; a choice made in secret, whose picks so far are held)
    /// the ruling is refused instead.
    fn ruled(&mut self, flow: Flow) -> R<()> {
        if matches!(flow, Flow::Next) {
            return Ok(());
        }
        let while_ = if !self.m.reoffer {
            Some("a tie is broken by a person")
        } else if self.m.secrecy.consulted_in_secret() {
            Some("a choice is made in secret")
        } else {
            None
        };
        if let Some(while_) = while_ {
            return Err(Box::new(
                Diag::new(
                    "run::ruling",
                    format!("this ruling would end the encounter while {while_}: answer the pending decision first"),
                )
                .help("answer the pending decision first, then make the ruling"),
            ));
        }
        self.m.ruling_flow.get_or_insert(flow);
        Ok(())
    }

    /// Whether a ruling made here has ended the encounter: the control answers nothing more.
    pub fn ending(&self) -> bool {
        self.m.ruling_flow.is_some()
    }
}

const PAUSED: &str = "run::paused";

/// Asks `c` about decision `d`; a pause unwinds the run as an error that [`run_controlled`]
/// turns back into [`Ran::Paused`].
pub(super) fn consult<'a>(m: &mut Machine<'a>, c: &'a mut dyn Control, d: &DecisionPoint<'_>) -> R<(usize, DecidedBy)> {
    let verdict = c.decide(&mut Editor { m }, d);
    m.asks_moments = c.moments();
    m.control = Some(c);
    let verdict = verdict?;
    // A ruling ended the encounter: the decision is left, as after an attempt carried out.
    if let Some(flow) = m.ruling_flow.take() {
        m.attempt_flow = Some(flow);
        return Ok((AGAIN, DecidedBy::Answer));
    }
    match verdict {
        Verdict::Pick(i, by) => Ok((i, by)),
        Verdict::Attempt(i, who) => {
            m.attempter = Some(who);
            Ok((i, DecidedBy::Answer))
        }
        Verdict::Pause => Err(Box::new(
            Diag::new(PAUSED, "paused").label(d.span, "paused at this decision"),
        )),
    }
}

/// Remembers the decision the run paused at.
struct Gate<'c> {
    inner: &'c mut dyn Control,
    pending: Option<Pending>,
}

impl Control for Gate<'_> {
    fn moments(&self) -> bool {
        self.inner.moments()
    }

    fn moment(&mut self, m: &MomentPoint<'_>) -> Option<(Who, usize)> {
        self.inner.moment(m)
    }

    fn policy(&self, chooser: Who) -> Option<PolicyRef> {
        self.inner.policy(chooser)
    }

    fn ended(&mut self, hidden: Vec<u32>, uncounted: u32, last: Snapshot) {
        self.inner.ended(hidden, uncounted, last);
    }

    fn decide(&mut self, ed: &mut Editor<'_, '_>, d: &DecisionPoint<'_>) -> Result<Verdict, Diag> {
        let v = self.inner.decide(ed, d)?;
        if v == Verdict::Pause {
            self.pending = Some(Pending::at(ed, d));
        }
        Ok(v)
    }
}

/// Runs `p` with `control` consulted at every decision. `absent`: characters out of play from the
/// start (by id; missing entries are in play). Events go to `sink` as in [`super::run`].
pub fn run_controlled(
    p: &Program,
    cfg: &RunConfig,
    control: &mut dyn Control,
    absent: Vec<bool>,
    sink: &mut dyn Sink,
) -> Result<Ran, Diag> {
    let mut gate = Gate {
        inner: control,
        pending: None,
    };
    // Never asked: the control answers every decision.
    let mut unused = Policy::new(PolicyRef::First, cfg.seed);
    let result = run_with(p, cfg, &mut unused as &mut dyn Decider, sink, Some(&mut gate), absent);
    match (result, gate.pending) {
        (Ok(o), _) => Ok(Ran::Finished(o)),
        (Err(d), Some(pending)) if d.code == PAUSED => Ok(Ran::Paused(Box::new(pending))),
        (Err(d), _) => Err(d),
    }
}
