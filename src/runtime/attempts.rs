//! Attempts (`attempt`, `forbid`): made at a moment (before or after a turn, as a level's
//! iteration starts or ends) or at a decision being asked, by anyone; refused with every reason
//! that applies (outside the attempt's moments, its `when` not holding, each `forbid` line of its
//! name that holds, who attempts being out of play), or carried out: an `attempt` event, then its
//! block. A decision at which an attempt was carried out is offered anew.

use super::decide::MomentPoint;
use super::state::{Machine, NO_CTX, R, too_deep};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::{MAX_CALL_DEPTH, MAX_REFUSALS};
use crate::source::Span;
use crate::trace::{Event, World};

/// What `ask_until_accepted` returns when an attempt was carried out at the decision: nothing
/// was picked, and the decision is offered anew (its options worked out again).
pub(super) const AGAIN: usize = usize::MAX;

/// A refusal: every reason, and the error a run that stops on refusals reports.
type Refusal = (Vec<String>, Diag);

impl Machine<'_> {
    /// A moment: the attempts the decider makes here, each refused or carried out, in turn.
    /// Nothing is asked when no attempt can be made (see `Machine::asks_moments`).
    #[inline]
    pub(super) fn moment(&mut self, at: Moment, span: Span) -> R<Flow> {
        if !self.asks_moments {
            return Ok(Flow::Next);
        }
        self.ask_at_moment(at, span)
    }

    /// [`Machine::moment`] when attempts can be made.
    #[inline(never)]
    fn ask_at_moment(&mut self, at: Moment, span: Span) -> R<Flow> {
        for _ in 0..=MAX_REFUSALS {
            let w = World {
                p: self.p,
                made: &self.made,
                values: &self.values,
                types: &self.types,
            };
            let point = MomentPoint {
                moment: at,
                counters: &self.counters,
                running: &self.running,
            };
            // A control (the REPL) makes the attempts queued for this moment.
            let made = match self.control.take() {
                Some(c) => {
                    let made = c.moment(&point);
                    self.asks_moments = c.moments();
                    self.control = Some(c);
                    made
                }
                None => self.decider.moment(&w, &point),
            };
            let Some((who, k)) = made else {
                return Ok(Flow::Next);
            };
            if k >= self.p.attempts.len() {
                return Err(Box::new(
                    Diag::new("run::bad_answer", "the decider made an attempt that does not exist")
                        .label(span, "at this moment")
                        .help("this is a bug in the decider"),
                ));
            }
            match self.make_attempt(who, k, at, span)? {
                Ok(Flow::Next) => {}
                Ok(other) => return Ok(other),
                Err((reasons, first)) => {
                    if self.stop_on_refusal {
                        return Err(Box::new(first));
                    }
                    self.emit(Event::AttemptRefused {
                        actor: who,
                        attempt: self.p.attempts[k],
                        reasons: &reasons,
                    });
                }
            }
        }
        Err(Box::new(
            Diag::new(
                "run::refused",
                format!("more than {MAX_REFUSALS} attempts were made at one moment"),
            )
            .label(span, "at this moment")
            .help("the answers keep addressing attempts to this moment; check the answers file"),
        ))
    }

    /// Attempt `k` (of `Program::attempts`) made by `who` at `at`: `Err` with every reason the
    /// rules give for refusing it, else carried out (`attempt` event, its block) and how its
    /// block ended.
    pub(super) fn make_attempt(&mut self, who: Who, k: usize, at: Moment, span: Span) -> R<Result<Flow, Refusal>> {
        let p = self.p;
        let Some(def) = p.attempt_defs.get(k).and_then(Option::as_ref) else {
            // Only `forbid` names it: never carried out.
            let forbid = &p.forbids[k];
            let holding = self.forbidding(who, forbid)?;
            let name = p.option_name(p.attempts[k]);
            if holding.is_empty() {
                let text = match at {
                    Moment::Decision(d, _) => format!("{name} is not an option of {} now", p.decisions[d as usize]),
                    _ => format!("{name} cannot be done now"),
                };
                let diag = Diag::new("run::refused", text.clone())
                    .label(span, "attempted here")
                    .help(format!("{name} could not be done here; the attempt was refused"));
                return Ok(Err((vec![text], diag)));
            }
            return self.explain(name, &holding, span).map(Err);
        };
        let h = &p.hooks[def.hook as usize];
        let (lo, hi) = (h.frame.0 as usize, h.frame.1 as usize);
        let mark = self.saved.len();
        self.saved.extend_from_slice(&self.locals[lo..hi]);
        // The members the decision being asked does not offer are its own: a choice in the
        // block has none of them.
        let outside = std::mem::take(&mut self.outside);
        let result = self.attempt_in_frame(def, who, k, at, span);
        self.outside = outside;
        self.locals[lo..hi].copy_from_slice(&self.saved[mark..]);
        self.saved.truncate(mark);
        result
    }

    fn attempt_in_frame(
        &mut self,
        def: &AttemptDef,
        who: Who,
        k: usize,
        at: Moment,
        span: Span,
    ) -> R<Result<Flow, Refusal>> {
        let p = self.p;
        let option = p.attempts[k];
        let name = p.option_name(option);
        let mut reasons = Vec::new();
        // Who attempts: someone in play, and a character when the attempt names who.
        let me = match who {
            Who::Character(e) if self.gone.get(e as usize).copied().unwrap_or(false) => {
                reasons.push(format!("{} is gone", self.world().character_name(e)));
                None
            }
            Who::Character(e) if self.absent.get(e as usize).copied().unwrap_or(false) => {
                reasons.push(format!("{} is out of play", self.world().character_name(e)));
                None
            }
            Who::Character(e) if self.types.get(e as usize) == Some(&CHARACTER) => Some(e),
            _ if def.who.is_some() => {
                reasons.push(format!(
                    "{name} is attempted by a character, not by {}",
                    p.who_name(who)
                ));
                None
            }
            _ => None,
        };
        if let (Some(s), Some(e)) = (def.who, me) {
            self.locals[s as usize] = e as i64;
        }
        let open = def.at.is_empty()
            || def.at.iter().any(|m| match (*m, at) {
                (MomentDef::BeforeTurn, Moment::BeforeTurn(_)) | (MomentDef::AfterTurn, Moment::AfterTurn(_)) => true,
                (MomentDef::LevelStart(l), Moment::LevelStart(n)) | (MomentDef::LevelEnd(l), Moment::LevelEnd(n)) => {
                    l == n
                }
                (MomentDef::Decision(d), Moment::Decision(n, _)) => d == n,
                _ => false,
            });
        // Whose turn it is, or who decides: `x` of `before turn(x)`, `after turn(x)`, `DECISION(x)`.
        let subject = match at {
            Moment::BeforeTurn(e) | Moment::AfterTurn(e) | Moment::Decision(_, Who::Character(e)) => Some(e),
            Moment::LevelStart(_) | Moment::LevelEnd(_) | Moment::Decision(_, Who::Role(_)) => None,
        };
        if let (Some(s), Some(e)) = (def.turn, subject) {
            self.locals[s as usize] = e as i64;
        }
        // It is bound as a character (the checker reads its fields as one's): at a thing's turn,
        // a thing's or a role's decision, the attempt is not open.
        let thing_turn = match (def.turn, at, subject) {
            (Some(_), Moment::Decision(d, Who::Role(r)), _) => Some(format!(
                "{name} names who decides {}, a character, and it is asked of {}, a role",
                p.decisions[d as usize],
                p.roles.get(r as usize).map_or("?", String::as_str)
            )),
            (Some(_), at, Some(e)) => self.types.get(e as usize).filter(|t| **t != CHARACTER).map(|t| {
                let whose = match at {
                    Moment::Decision(d, _) => format!("who decides {}", p.decisions[d as usize]),
                    _ => "whose turn it is".to_string(),
                };
                format!(
                    "{name} names {whose}, a character, and this is {}'s, a {}'s",
                    self.world().character_name(e),
                    p.things.get(*t as usize).map_or("thing", |t| t.0.as_str())
                )
            }),
            _ => None,
        };
        let h = &p.hooks[def.hook as usize];
        if !open {
            reasons.push(format!("{name} can be attempted only {}", def.windows));
        } else if let Some(reason) = thing_turn {
            reasons.push(reason);
        } else if reasons.is_empty()
            && let Some(cond) = &h.filter
            && self.eval(cond, NO_CTX)? == 0
        {
            reasons.push(format!("{name} is not open now: its `when` does not hold"));
        }
        let holding = self.forbidding(who, &p.forbids[k])?;
        let mut first = None;
        if !holding.is_empty() {
            let (more, diag) = self.explain(name, &holding, span)?;
            reasons.extend(more);
            first = Some(diag);
        }
        // Carried out, its block would show what a secret choice is being made with; and a
        // decision that is not offered anew (a tie broken by a person) cannot wait for it.
        if reasons.is_empty() {
            if self.secrecy.asking().is_some() {
                reasons.push(format!("{name} cannot be carried out while a choice is made in secret"));
            } else if let (false, Moment::Decision(d, _)) = (self.reoffer, at) {
                reasons.push(format!(
                    "{name} cannot be carried out while {} is asked",
                    p.decisions[d as usize]
                ));
            }
        }
        if !reasons.is_empty() {
            let diag = match first {
                Some(d) if reasons.len() == holding.len() => d,
                _ => Diag::new("run::refused", reasons[0].clone())
                    .label(span, "attempted here")
                    .help(format!("{name} could not be done here; the attempt was refused")),
            };
            return Ok(Err((reasons, diag)));
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Box::new(too_deep(span)));
        }
        self.emit(Event::Attempt {
            actor: who,
            attempt: option,
        });
        self.depth += 1;
        let flow = self.block(&h.body);
        self.depth -= 1;
        flow.map(Ok)
    }

    /// The `forbid` lines of an attempt that hold for `who`. A line that names who attempts
    /// (`forbid NAME(c)`) speaks of characters: it applies only when a character attempts.
    pub(super) fn forbidding<'p>(&mut self, who: Who, forbid: &'p ForbidDef) -> R<Vec<&'p RefusalDef>> {
        let me = match who {
            Who::Character(e) if self.types.get(e as usize) == Some(&CHARACTER) => Some(e as i64),
            _ => None,
        };
        for (slot, _) in &forbid.rules {
            if let (Some(s), Some(me)) = (slot, me) {
                self.locals[*s as usize] = me;
            }
        }
        let mut holding = Vec::new();
        for (slot, rule) in &forbid.rules {
            if (slot.is_none() || me.is_some()) && self.eval(&rule.cond, NO_CTX)? != 0 {
                holding.push(rule);
            }
        }
        Ok(holding)
    }

    /// After a decision was asked (`flow`: how it went on): `None` when an attempt was carried
    /// out there and its block ended nothing, so the decision is offered anew (its options worked
    /// out again), else how to go on. More than `MAX_REFUSALS` attempts carried out at one
    /// decision stop the run (`run::refused`), as at a moment.
    #[inline]
    pub(super) fn offered_anew(&mut self, flow: Flow, tries: usize, span: Span) -> R<Option<Flow>> {
        if self.attempt_flow.is_none() {
            return Ok(Some(flow));
        }
        self.after_attempt(flow, tries, span)
    }

    /// [`Machine::offered_anew`] when an attempt was carried out at the decision.
    #[inline(never)]
    fn after_attempt(&mut self, flow: Flow, tries: usize, span: Span) -> R<Option<Flow>> {
        match self.attempt_flow.take() {
            None => Ok(Some(flow)),
            Some(Flow::Next) if tries < MAX_REFUSALS => Ok(None),
            Some(Flow::Next) => Err(Box::new(
                Diag::new(
                    "run::refused",
                    format!("more than {MAX_REFUSALS} attempts were carried out at one decision"),
                )
                .label(span, "offered anew again and again here")
                .help("the answers keep making attempts at this decision; check the answers file"),
            )),
            Some(other) => Ok(Some(other)),
        }
    }
}
