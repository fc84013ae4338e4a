//! Secret choices (`choose ... in secret`): made at a member's moment of a `together` walk, held,
//! and revealed, in the order they were made, when the walk ends; or, `in secret until revealed`,
//! made anywhere and held until a `reveal` names them ([`Machine::reveal_held`]), never shown if
//! none does.
//!
//! Until its reveal nothing names what a secret choice chose or what its chooser attempted: the
//! trace shows only a `secret` event (who chose, not what). Everything the asking traces that
//! depends on the answers - each refused answer, the decision, a `no_choice` - is held ([`Held`])
//! and traced at the reveal. The secret choices written at the head of the block of the option
//! picked are part of the pick: they are asked at once, in secret, and everything their asking
//! traces is held too (whether they are asked at all depends on the pick). The checker keeps
//! dice out of what is worked out only because of a secret answer (`check::rolled`); a roll
//! there would still be held, not shown. A control's rulings made meanwhile (the REPL's) are
//! traced as they are made.

use super::state::{Machine, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::syntax::ast::Dice;
use crate::trace::{DecidedBy, Event};

use super::decide::SecretAt;

/// An event a secret choice's asking traced, held until its reveal.
enum Held {
    Decision {
        decision: DecisionId,
        chooser: Who,
        options: Vec<OptionKey>,
        picked: usize,
        by: DecidedBy,
    },
    Refused {
        decision: DecisionId,
        chooser: Who,
        option: OptionKey,
        reasons: Vec<String>,
    },
    NoChoice {
        decision: DecisionId,
        chooser: Who,
        refused: Vec<(OptionKey, Vec<String>)>,
    },
    Roll {
        actor: Option<EntityId>,
        label: LabelId,
        dice: Dice,
        faces: Vec<i64>,
        total: i64,
    },
}

impl Held {
    /// The event held, if it is one a choice's asking traces.
    fn of(e: &Event<'_>) -> Option<Held> {
        Some(match *e {
            Event::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => Held::Decision {
                decision,
                chooser,
                options: options.to_vec(),
                picked,
                by,
            },
            Event::Refused {
                decision,
                chooser,
                option,
                reasons,
            } => Held::Refused {
                decision,
                chooser,
                option,
                reasons: reasons.to_vec(),
            },
            Event::NoChoice {
                decision,
                chooser,
                refused,
            } => Held::NoChoice {
                decision,
                chooser,
                refused: refused.to_vec(),
            },
            Event::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => Held::Roll {
                actor,
                label,
                dice,
                faces: faces.to_vec(),
                total,
            },
            _ => return None,
        })
    }

    fn event(&self) -> Event<'_> {
        match self {
            Held::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => Event::Decision {
                decision: *decision,
                chooser: *chooser,
                options,
                picked: *picked,
                by: *by,
            },
            Held::Refused {
                decision,
                chooser,
                option,
                reasons,
            } => Event::Refused {
                decision: *decision,
                chooser: *chooser,
                option: *option,
                reasons,
            },
            Held::NoChoice {
                decision,
                chooser,
                refused,
            } => Event::NoChoice {
                decision: *decision,
                chooser: *chooser,
                refused,
            },
            Held::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => Event::Roll {
                actor: *actor,
                label: *label,
                dice: *dice,
                faces,
                total: *total,
            },
        }
    }
}

/// A secret choice being asked: what its asking has traced so far, the answers it took (their
/// numbers in the run), and how many of them were picks (not refused).
#[derive(Default)]
struct Hiding {
    held: Vec<Held>,
    answers: Vec<u32>,
    picks: u32,
}

/// A secret choice made, held until its walk ends: what its asking traced (its decision last,
/// none when nothing could be chosen), the answers it took, the body to run then
/// (`Program::bodies`), the slots as they were when it was made, and the secret choices at the
/// head of that body, made with it.
pub(super) struct Secret {
    held: Vec<Held>,
    answers: Vec<u32>,
    /// How many of `answers` were picks; whether this is an outermost choice that picked.
    picks: u32,
    shown: bool,
    body: Option<u32>,
    locals: Vec<i64>,
    nested: Vec<Secret>,
}

impl Secret {
    /// The numbers of the answers this choice and those made with it took.
    fn answers(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.answers);
        for n in &self.nested {
            n.answers(out);
        }
    }

    /// The picks this choice and those made with it made that a view must not count yet: all
    /// but the one its `secret` event shows.
    fn uncounted(&self) -> u32 {
        let nested: u32 = self.nested.iter().map(Secret::uncounted).sum();
        (self.picks + nested).saturating_sub(u32::from(self.shown))
    }
}

/// A choice held until a `reveal` shows it (`in secret until revealed`): its decision and
/// chooser, and the choice.
pub(super) struct Kept {
    decision: DecisionId,
    chooser: Who,
    secret: Secret,
}

/// The secrecy of a run: the choices held, those being asked, the answers given.
#[derive(Default)]
pub(super) struct Secrecy {
    /// The choices held until revealed, in the order they were made.
    kept: Vec<Kept>,
    /// The secret choices of each `together` walk under way, innermost last; while a pick's
    /// nested secret choices are asked, a frame of their own.
    frames: Vec<Vec<Secret>>,
    /// The secret choices being asked, the outermost first: a nested one is asked while the
    /// choice whose option it heads is still being made.
    hiding: Vec<Hiding>,
    /// The outermost secret choice being asked.
    top: Option<SecretAt>,
    /// What was being asked when a control was consulted (its rulings are traced at once).
    suspended: Vec<(Vec<Hiding>, Option<SecretAt>)>,
    /// How many answers the run has taken (accepted or refused).
    answers: u32,
}

impl Secrecy {
    /// Whether what is traced is being held now (a secret choice is being asked).
    #[inline]
    pub(super) fn hides(&self) -> bool {
        !self.hiding.is_empty()
    }

    /// The outermost secret choice being asked, if one is: all a message may name.
    pub(super) fn asking(&self) -> Option<SecretAt> {
        self.top.filter(|_| !self.hiding.is_empty())
    }

    /// Counts an answer taken (`picked`: not refused); one taken in secret is kept with its
    /// choice.
    pub(super) fn answered(&mut self, picked: bool) {
        let n = self.answers;
        self.answers = self.answers.saturating_add(1);
        if let Some(h) = self.hiding.last_mut() {
            h.answers.push(n);
            h.picks += u32::from(picked);
        }
    }

    /// Before a control is consulted: nothing it does is held.
    pub(super) fn suspend(&mut self) {
        let was = (std::mem::take(&mut self.hiding), self.top.take());
        self.suspended.push(was);
    }

    /// Whether the control being consulted was asked inside a secret choice (its `asking`, as it
    /// was before [`Secrecy::suspend`]).
    pub(super) fn consulted_in_secret(&self) -> bool {
        self.suspended
            .last()
            .is_some_and(|(hiding, top)| top.is_some() && !hiding.is_empty())
    }

    /// After a control was consulted: the choice being asked goes on.
    pub(super) fn resume(&mut self) {
        if let Some((hiding, top)) = self.suspended.pop() {
            self.hiding = hiding;
            self.top = top;
        }
    }

    /// The numbers of the answers still hidden: taken by secret choices not yet revealed.
    pub(super) fn hidden(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (hiding, _) in &self.suspended {
            for h in hiding {
                out.extend_from_slice(&h.answers);
            }
        }
        for h in &self.hiding {
            out.extend_from_slice(&h.answers);
        }
        for s in self.frames.iter().flatten().chain(self.kept.iter().map(|k| &k.secret)) {
            s.answers(&mut out);
        }
        out.sort_unstable();
        out
    }

    /// How many of the decisions made so far a view must not count yet, so that the count does
    /// not tell what was picked in secret: each secret choice made counts as one (its `secret`
    /// event), whatever was made with it; the one being made counts when it is made.
    pub(super) fn uncounted(&self) -> u32 {
        let asking: u32 = self
            .suspended
            .iter()
            .flat_map(|(h, _)| h)
            .chain(&self.hiding)
            .map(|h| h.picks)
            .sum();
        let held: u32 = self
            .frames
            .iter()
            .flatten()
            .chain(self.kept.iter().map(|k| &k.secret))
            .map(Secret::uncounted)
            .sum();
        asking + held
    }

    /// The choices held until revealed, in the order made: who holds one, of which decision.
    pub(super) fn kept(&self) -> impl Iterator<Item = (Who, DecisionId)> + '_ {
        self.kept.iter().map(|k| (k.chooser, k.decision))
    }
}

/// How many statements at the head of `body` are secret choices (made with the pick whose
/// option `body` is).
fn leading(body: &[St]) -> usize {
    body.iter()
        .take_while(|s| matches!(s, St::Choose { secret: true, .. } | St::ChooseFrom { secret: true, .. }))
        .count()
}

impl Machine<'_> {
    /// Whether a choice written `in secret` is made in secret now: inside a `together` walk, or
    /// anywhere when it is held until revealed (`held`).
    pub(super) fn in_secret(&self, secret: bool, held: bool) -> bool {
        secret && (held || !self.secrecy.frames.is_empty())
    }

    /// Whether a secret choice made now is part of another's pick (at the head of the block of
    /// the option picked).
    pub(super) fn nested_secret(&self, secret: bool) -> bool {
        secret && !self.secrecy.hiding.is_empty()
    }

    /// Holds what is traced from here for the secret choice being asked; `top`: it is the
    /// outermost one (for a nested one, `None`).
    pub(super) fn hide(&mut self, top: Option<SecretAt>) {
        if top.is_some() {
            self.secrecy.top = top;
        }
        self.secrecy.hiding.push(Hiding::default());
    }

    /// Holds `e` for a reveal, when a secret choice is being asked and `e` is one of what its
    /// asking traces; `false`: trace it now.
    pub(super) fn held(&mut self, e: &Event<'_>) -> bool {
        let Some(h) = self.secrecy.hiding.last_mut() else {
            return false;
        };
        match Held::of(e) {
            Some(held) => {
                h.held.push(held);
                true
            }
            None => false,
        }
    }

    /// A `together` walk begins: a frame for its secret choices.
    pub(super) fn open_secrets(&mut self) {
        self.secrecy.frames.push(Vec::new());
    }

    /// A `together` walk's members have all had their moment: reveal its secret choices, in
    /// the order they were made; the first flow other than going on is the walk's. Once play is
    /// not going on (the walk was cut short by an `end` or `--until`, or a revealed block ended
    /// something), the choices left are shown, what was chosen and refused, but their blocks do
    /// not run: nothing rolls, fires or is asked after the stop.
    pub(super) fn reveal_secrets(&mut self, mut flow: Flow) -> R<Flow> {
        let secrets = self.secrecy.frames.pop().unwrap_or_default();
        for s in secrets {
            if matches!(flow, Flow::Next) {
                flow = self.reveal(s)?;
            } else {
                self.show(&s);
            }
        }
        Ok(flow)
    }

    /// A secret choice shown without running its block: its events, then those of the choices
    /// made with it.
    fn show(&mut self, s: &Secret) {
        for h in &s.held {
            self.emit(h.event());
        }
        for n in &s.nested {
            self.show(n);
        }
    }

    /// Keeps the secret choice just asked (`at`: the decision and who decides; `chosen`: whether
    /// anything could be chosen): the secret choices at the head of the option picked (`body`)
    /// are asked now, in secret, as part of it; then it is held for the reveal, traced as
    /// `secret` when it is the outermost and something was chosen (or, `always`, whatever was).
    /// The outermost, `held`, waits for a `reveal`; any other for the end of its walk.
    pub(super) fn keep_secret(
        &mut self,
        (at, chosen): ((DecisionId, Who), bool),
        body: Option<u32>,
        (keep, always): (bool, bool),
    ) -> R<()> {
        let chosen = (chosen || always).then_some(at);
        let p = self.p;
        let locals = self.locals.clone();
        let lead = match body.and_then(|id| p.bodies.get(id as usize)) {
            Some(b) => &b[..leading(b)],
            None => &[],
        };
        self.secrecy.frames.push(Vec::new());
        let asked = self.block(lead);
        let nested = self.secrecy.frames.pop().unwrap_or_default();
        asked?;
        let Hiding { held, answers, picks } = self.secrecy.hiding.pop().unwrap_or_default();
        let mut shown = false;
        let outermost = self.secrecy.hiding.is_empty();
        if outermost {
            self.secrecy.top = None;
            if let Some((decision, chooser)) = chosen {
                self.emit(Event::Secret { decision, chooser });
                shown = true;
            }
        }
        let secret = Secret {
            held,
            answers,
            picks,
            shown,
            body,
            locals,
            nested,
        };
        if outermost && keep {
            let (decision, chooser) = at;
            self.secrecy.kept.push(Kept {
                decision,
                chooser,
                secret,
            });
        } else if let Some(frame) = self.secrecy.frames.last_mut() {
            frame.push(secret);
        }
        Ok(())
    }

    /// `reveal [all] DECISION of WHO`: the earliest choice of `decision` that `who` holds (`all`:
    /// every one, in the order made) is revealed, as a walk's are at its end: what its asking
    /// traced, then its block, with the slots as they were when it was made. Nothing held:
    /// nothing happens. Once play is not going on (a revealed block ended something), the rest
    /// are shown without running their blocks. The one entry point for held choices.
    pub(super) fn reveal_held(&mut self, decision: DecisionId, who: Who, all: bool) -> R<Flow> {
        let mut flow = Flow::Next;
        loop {
            let found = self
                .secrecy
                .kept
                .iter()
                .position(|k| k.decision == decision && k.chooser == who);
            let Some(i) = found else {
                break;
            };
            let k = self.secrecy.kept.remove(i);
            if matches!(flow, Flow::Next) {
                flow = self.reveal(k.secret)?;
            } else {
                self.show(&k.secret);
            }
            if !all {
                break;
            }
        }
        Ok(flow)
    }

    /// Reveals a secret choice: what its asking traced (refusals, then its decision), then its
    /// body, run with the slots as they were when it was made; the secret choices at the head of
    /// the body were made with it, and are revealed in their places.
    fn reveal(&mut self, s: Secret) -> R<Flow> {
        for h in &s.held {
            self.emit(h.event());
        }
        let p = self.p;
        let Some(body) = s.body.and_then(|id| p.bodies.get(id as usize)) else {
            return Ok(Flow::Next);
        };
        let saved = std::mem::replace(&mut self.locals, s.locals);
        let flow = self.reveal_body(body, s.nested);
        self.locals = saved;
        // The loops and levels the choice was made inside may be over by now: an `end` of one
        // that no longer runs, or an `end repeat`, has nothing left to end.
        Ok(match flow? {
            Flow::End(Some(l), _) if !self.running.get(l as usize).copied().unwrap_or(false) => Flow::Next,
            Flow::EndRepeat => Flow::Next,
            other => other,
        })
    }

    fn reveal_body(&mut self, body: &[St], nested: Vec<Secret>) -> R<Flow> {
        for n in nested {
            match self.reveal(n)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        self.block(&body[leading(body)..])
    }
}
