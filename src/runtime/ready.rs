//! The moments before and after: `on before turn(c)` (outside the turn, before it starts),
//! `on before|after ACTION(c)` (around an action's resolution), effects' hooks
//! (`on start|end of EFFECT(c)`), and readied responses (`ready`): armed at run time, fired once
//! right after their point's hooks, disarmed when they fire, expire, their owner leaves play or
//! they are replaced.

use super::state::{Machine, NO_CTX, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::compile::{Point, ReadyOn};
use crate::diag::Diag;
use crate::limits::{MAX_ARMED, MAX_CALL_DEPTH};
use crate::source::Span;
use crate::trace::{Disarmed, Event};

/// A response armed by `ready`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Armed {
    pub ready: ReadyId,
    pub owner: EntityId,
    /// The edge that disarms it, if it has not fired by then.
    pub until: Option<Anchor>,
    /// The values of the definition's captured slots when it was armed.
    pub captured: Vec<i64>,
    /// When it was armed, counted from 1: a point fires only responses armed before it began.
    seq: u64,
    /// Armed while the hooks of its own expiry edge run (`ready ... until end of turn(c)` in
    /// `on end of turn(c)`): that edge has not passed for it, so it lasts to the next one, as an
    /// effect begun there does (`Machine::ending`).
    spared: bool,
}

/// The responses armed, in the order they were armed, and the effects' starts and ends whose
/// hooks are still to run.
#[derive(Default)]
pub(super) struct Readied {
    pub(super) armed: Vec<Armed>,
    next: u64,
    /// Spare lists for captured values, so arming again reuses one.
    spare: Vec<Vec<i64>>,
    /// Effects begun (`true`) or ended on an entity, whose hooks run at the next point that
    /// drains them (right after the statement or count-down that began or ended them).
    pub(super) fx: Vec<(FieldId, EntityId, bool)>,
    /// How many of `fx` belong to the drains in progress (see `effect_hooks`).
    floor: usize,
}

impl Readied {
    pub(super) fn new() -> Readied {
        Readied {
            armed: Vec::with_capacity(MAX_ARMED),
            next: 1,
            spare: Vec::new(),
            fx: Vec::new(),
            floor: 0,
        }
    }
}

/// Whether a response readied on `on` answers the point `at`.
fn fires(p: &Program, on: &ReadyOn, at: Point) -> bool {
    match (on, at) {
        (ReadyOn::Trigger(t), Point::Trigger(u)) => *t == u,
        (ReadyOn::Join, Point::Join) | (ReadyOn::Leave, Point::Leave) => true,
        (ReadyOn::Action(false, m), Point::Before(a)) | (ReadyOn::Action(true, m), Point::After(a)) => {
            m.matches(a, p.actions.get(a as usize).map_or(&[][..], |d| d.kinds.as_slice()))
        }
        _ => false,
    }
}

impl Machine<'_> {
    pub(super) fn out_of_play(&self, e: EntityId) -> bool {
        let i = e as usize;
        self.absent.get(i).copied().unwrap_or(false) || self.gone.get(i).copied().unwrap_or(false)
    }

    /// `on before turn(c)`: the hooks before `a`'s turn, outside it. `Some(flow)`: the turn does
    /// not happen (a hook ended something, or took `a` out of play: traced `cancelled`).
    pub(super) fn before_turn(&mut self, a: EntityId, span: Span) -> R<Option<Flow>> {
        let p = self.p;
        if p.moments.turn_before.is_empty() {
            return Ok(None);
        }
        let was_in = !self.out_of_play(a);
        match self.turn_hooks(&p.moments.turn_before, a, span)? {
            Flow::Next => {}
            other => return Ok(Some(other)),
        }
        if was_in && self.out_of_play(a) {
            self.emit(Event::Cancelled { actor: a, action: None });
            return Ok(Some(Flow::Next));
        }
        Ok(None)
    }

    /// An action's resolution between its moments: its `on before` hooks and readied responses,
    /// then (unless they took the actor out of play: traced `cancelled`) `resolve`, then its
    /// `on after` hooks and responses.
    pub(super) fn around_action(
        &mut self,
        a: ActionId,
        who: EntityId,
        span: Span,
        resolve: impl FnOnce(&mut Self) -> R<Flow>,
    ) -> R<Flow> {
        let p = self.p;
        let (before, after) = (
            p.moments.before.get(a as usize).map_or(&[][..], Vec::as_slice),
            p.moments.after.get(a as usize).map_or(&[][..], Vec::as_slice),
        );
        let was_in = !self.out_of_play(who);
        let mut flow = self.hooks(before, &[who as i64], span)?;
        if matches!(flow, Flow::Next) {
            flow = self.fire_ready(Point::Before(a), &[who as i64], span)?;
        }
        if !matches!(flow, Flow::Next) {
            return Ok(flow);
        }
        if was_in && self.out_of_play(who) {
            self.emit(Event::Cancelled {
                actor: who,
                action: Some(a),
            });
            return Ok(Flow::Next);
        }
        let flow = resolve(self)?;
        if !matches!(flow, Flow::Next) {
            return Ok(flow);
        }
        let flow = self.hooks(after, &[who as i64], span)?;
        if !matches!(flow, Flow::Next) {
            return Ok(flow);
        }
        self.fire_ready(Point::After(a), &[who as i64], span)
    }

    /// Runs the hooks of the effects begun and ended, in the order they began or ended: those
    /// queued since the drains in progress around this one took theirs (a hook that begins an
    /// effect answers that effect itself, not the moments still waiting in the drain that runs
    /// the hook). Called right after every statement or count-down that begins or ends effects.
    #[inline]
    pub(super) fn effect_hooks(&mut self, span: Span) -> R<Flow> {
        if self.readied.fx.len() <= self.readied.floor {
            return Ok(Flow::Next);
        }
        self.drain_effect_hooks(span)
    }

    /// [`Machine::effect_hooks`] when some are queued.
    #[inline(never)]
    fn drain_effect_hooks(&mut self, span: Span) -> R<Flow> {
        let p = self.p;
        let start = self.readied.floor;
        while self.readied.fx.len() > start {
            let (effect, e, begun) = self.readied.fx.remove(start);
            let list = if begun {
                &p.moments.effect_start
            } else {
                &p.moments.effect_end
            };
            for &(f, id) in list {
                if f != effect {
                    continue;
                }
                // The moments still waiting here are this drain's, not the hook's.
                let outer = std::mem::replace(&mut self.readied.floor, self.readied.fx.len());
                let ran = self.hooks(&[id], &[e as i64], span);
                self.readied.floor = outer;
                match ran? {
                    Flow::Next => {}
                    other => {
                        self.readied.fx.truncate(start);
                        return Ok(other);
                    }
                }
            }
        }
        Ok(Flow::Next)
    }

    /// Queues an effect's start or end for its hooks, if it has any.
    pub(super) fn effect_moment(&mut self, effect: FieldId, e: EntityId, start: bool) {
        if self.p.moments.effect_hooked(effect) {
            self.readied.fx.push((effect, e, start));
        }
    }

    /// `ready`: arms response `id` for the owner (replacing one it has on the same point), with
    /// the captured locals' values now, traced `ready`.
    pub(super) fn st_ready(&mut self, id: ReadyId, owner: &Ex, until: Option<&CountEx>, span: Span) -> R<Flow> {
        let p = self.p;
        let o = self.alive(owner, span)?;
        let until = match until {
            None => None,
            Some(CountEx::TurnStart(who)) => Some(Anchor::TurnStart(self.entity(who, span)?)),
            Some(CountEx::TurnEnd(who)) => Some(Anchor::TurnEnd(self.entity(who, span)?)),
            Some(CountEx::LevelStart(l)) => Some(Anchor::LevelStart(*l)),
            Some(CountEx::LevelEnd(l)) => Some(Anchor::LevelEnd(*l)),
            Some(CountEx::Place(who, ord)) => {
                let e = self.entity(who, span)?;
                let i = self.ranked[*ord as usize].iter().position(|x| *x == e).unwrap_or(0);
                Some(Anchor::Place(*ord, i))
            }
        };
        if self.out_of_play(o) {
            self.emit(Event::Ready {
                actor: o,
                ready: id,
                until,
            });
            self.emit(Event::ReadyEnd {
                actor: o,
                ready: id,
                reason: Disarmed::OutOfPlay,
            });
            return Ok(Flow::Next);
        }
        let def = &p.moments.readies[id as usize];
        if let Some(i) = self
            .readied
            .armed
            .iter()
            .position(|x| x.owner == o && p.moments.readies[x.ready as usize].on == def.on)
        {
            let old = self.readied.armed.remove(i);
            self.readied.spare.push(old.captured);
            self.emit(Event::ReadyEnd {
                actor: o,
                ready: old.ready,
                reason: Disarmed::Replaced,
            });
        }
        if self.readied.armed.len() >= MAX_ARMED {
            return Err(Box::new(
                Diag::new(
                    "run::too_many_armed",
                    format!("{MAX_ARMED} responses are armed already; the limit is {MAX_ARMED}"),
                )
                .label(span, "one more armed here")
                .help("give responses an `until` so they expire, or arm one per owner and point (arming again replaces it)"),
            ));
        }
        let mut captured = self.readied.spare.pop().unwrap_or_default();
        captured.clear();
        captured.extend(def.captured.iter().map(|s| self.locals[*s as usize]));
        let seq = self.readied.next;
        self.readied.next += 1;
        self.readied.armed.push(Armed {
            ready: id,
            owner: o,
            until,
            captured,
            seq,
            spared: until.is_some() && until == self.ending,
        });
        self.emit(Event::Ready {
            actor: o,
            ready: id,
            until,
        });
        Ok(Flow::Next)
    }

    /// The responses armed on `at` before it began whose condition holds: each disarmed
    /// (`fired`) and run, in the order they were armed, with its captured locals and the
    /// point's arguments bound. Those armed while this runs wait for the next such point.
    #[inline]
    pub(super) fn fire_ready(&mut self, at: Point, args: &[i64], span: Span) -> R<Flow> {
        if self.readied.armed.is_empty() {
            return Ok(Flow::Next);
        }
        self.fire_armed(at, args, span)
    }

    /// [`Machine::fire_ready`] when some responses are armed.
    #[inline(never)]
    fn fire_armed(&mut self, at: Point, args: &[i64], span: Span) -> R<Flow> {
        let p = self.p;
        let upto = self.readied.next;
        let mut from = 0u64;
        loop {
            let found =
                self.readied.armed.iter().position(|x| {
                    x.seq >= from && x.seq < upto && fires(p, &p.moments.readies[x.ready as usize].on, at)
                });
            let Some(i) = found else {
                return Ok(Flow::Next);
            };
            from = self.readied.armed[i].seq + 1;
            let owner = self.readied.armed[i].owner;
            if self.out_of_play(owner) {
                continue;
            }
            let ready = self.readied.armed[i].ready;
            let def = &p.moments.readies[ready as usize];
            if self.depth >= MAX_CALL_DEPTH {
                return Err(Box::new(super::state::too_deep(span)));
            }
            // Save what the response binds: its captured slots and its own frame.
            let mark = self.saved.len();
            for s in &def.captured {
                self.saved.push(self.locals[*s as usize]);
            }
            let (lo, hi) = (def.frame.0 as usize, def.frame.1 as usize);
            self.saved.extend_from_slice(&self.locals[lo..hi]);
            for (k, s) in def.captured.iter().enumerate() {
                self.locals[*s as usize] = self.readied.armed[i].captured.get(k).copied().unwrap_or(0);
            }
            for (slot, v) in def.vars.iter().zip(args) {
                self.locals[*slot as usize] = *v;
            }
            self.depth += 1;
            let run = match &def.filter {
                Some(f) => self.eval(f, NO_CTX).map(|v| v != 0),
                None => Ok(true),
            };
            let flow = match run {
                Ok(true) => {
                    let x = self.readied.armed.remove(i);
                    self.readied.spare.push(x.captured);
                    self.emit(Event::ReadyEnd {
                        actor: owner,
                        ready,
                        reason: Disarmed::Fired,
                    });
                    self.acting.push(owner);
                    let flow = self.block(&def.body);
                    self.acting.pop();
                    flow
                }
                Ok(false) => Ok(Flow::Next),
                Err(e) => Err(e),
            };
            self.depth -= 1;
            let n = def.captured.len();
            for (k, s) in def.captured.iter().enumerate() {
                self.locals[*s as usize] = self.saved[mark + k];
            }
            self.locals[lo..hi].copy_from_slice(&self.saved[mark + n..]);
            self.saved.truncate(mark);
            match flow? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
    }

    /// `disarm`: the owner's responses (on `on` only, if set), traced `disarmed`, in the order
    /// they were armed.
    pub(super) fn st_disarm(&mut self, owner: &Ex, on: Option<&ReadyOn>, span: Span) -> R<Flow> {
        let p = self.p;
        let o = self.alive(owner, span)?;
        self.disarm_where(Disarmed::Disarmed, |x| {
            x.owner == o && on.is_none_or(|on| p.moments.readies[x.ready as usize].on == *on)
        });
        Ok(Flow::Next)
    }

    /// The responses whose `until` is `anchor`: disarmed, traced `expired` (one armed while
    /// this edge's hooks ran is spared once: it lasts to the next such edge).
    #[inline(always)]
    pub(super) fn expire_ready(&mut self, anchor: Anchor) {
        if self.readied.armed.is_empty() {
            return;
        }
        self.expire_armed(anchor);
    }

    /// [`Machine::expire_ready`] when some responses are armed.
    #[inline(never)]
    fn expire_armed(&mut self, anchor: Anchor) {
        self.disarm_where(Disarmed::Expired, |x| {
            let due = x.until == Some(anchor);
            if due && x.spared {
                x.spared = false;
                return false;
            }
            due
        });
    }

    /// Every response `e` owns: disarmed as `e` goes out of play, traced `left play`.
    pub(super) fn disarm_owner(&mut self, e: EntityId) {
        self.disarm_where(Disarmed::LeftPlay, |x| x.owner == e);
    }

    /// Disarms, in the order they were armed, every response `pick` says to, each traced
    /// `ready_end` with `reason`; its captured values' buffer is kept for the next one armed.
    fn disarm_where(&mut self, reason: Disarmed, mut pick: impl FnMut(&mut Armed) -> bool) {
        let mut i = 0;
        while i < self.readied.armed.len() {
            if pick(&mut self.readied.armed[i]) {
                let x = self.readied.armed.remove(i);
                self.emit(Event::ReadyEnd {
                    actor: x.owner,
                    ready: x.ready,
                    reason,
                });
                self.readied.spare.push(x.captured);
            } else {
                i += 1;
            }
        }
    }
}
