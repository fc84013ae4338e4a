//! Effects: `begin` and `stop`, the effects running and their count-downs (at turns, levels and
//! places in kept orders).

use super::state::{Machine, NO_CTX, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::Event;

/// An effect running on a character, and how many more counts it lasts.
#[derive(Clone, Copy)]
pub(super) struct Active {
    pub(super) effect: FieldId,
    pub(super) target: EntityId,
    pub(super) left: i64,
    pub(super) anchor: Anchor,
}

impl Machine<'_> {
    /// `begin`: the effect's mark goes up by one, and it runs for `count` counts at its anchor
    /// (a count of 0 or less ends it at once).
    pub(super) fn st_begin(
        &mut self,
        effect: FieldId,
        target: &Ex,
        count: &Lasts,
        at: &CountEx,
        span: Span,
    ) -> R<Flow> {
        let (t, n, anchor) = self.begin_parts(target, count, at, span)?;
        self.begin_effect(effect, t, n, anchor);
        self.effect_hooks(span)
    }

    /// What a `begin` starts: on whom, for how many counts, counted where.
    pub(super) fn begin_parts(
        &mut self,
        target: &Ex,
        count: &Lasts,
        at: &CountEx,
        span: Span,
    ) -> R<(EntityId, i64, Anchor)> {
        let t = self.alive(target, span)?;
        let n = match count {
            Lasts::For(count) => self.eval(count, NO_CTX)?,
            Lasts::Until { .. } => 1,
        };
        let anchor = match at {
            CountEx::Place(who, o) => {
                let e = self.entity(who, span)?;
                match self.ranked[*o as usize].iter().position(|x| *x == e) {
                    Some(i) => Anchor::Place(*o, i),
                    None => {
                        let p = self.p;
                        return Err(Box::new(
                            Diag::new(
                                "run::not_ranked",
                                format!(
                                    "{} has no place in the order `{}`",
                                    p.character_name(e),
                                    p.orders[*o as usize].name
                                ),
                            )
                            .label(span, "counted at their place here")
                            .help("`rank` the order before counting a duration at a place in it"),
                        ));
                    }
                }
            }
            CountEx::TurnStart(who) => Anchor::TurnStart(self.entity(who, span)?),
            CountEx::TurnEnd(who) => Anchor::TurnEnd(self.entity(who, span)?),
            CountEx::LevelStart(l) => Anchor::LevelStart(*l),
            CountEx::LevelEnd(l) => Anchor::LevelEnd(*l),
        };
        let n = match count {
            Lasts::Until { next: true } => n + i64::from(self.under_way(anchor)),
            // Begun as that very end is answered (in its end hooks), before it is counted down.
            Lasts::Until { next: false } if self.ending == Some(anchor) => n + 1,
            _ => n,
        };
        Ok((t, n, anchor))
    }

    /// `until end of next ...`: whether the edge `anchor` counts at has a turn (an iteration)
    /// under way whose end is not the one meant. A start under way has already passed.
    fn under_way(&self, anchor: Anchor) -> bool {
        if self.past_end == Some(anchor) {
            return false; // its end is counted already: an `on end of EFFECT` hook runs after it
        }
        match anchor {
            Anchor::TurnEnd(x) => self.turns.contains(&x),
            Anchor::LevelEnd(l) => self.running.get(l as usize).copied().unwrap_or(false),
            Anchor::TurnStart(_) | Anchor::LevelStart(_) | Anchor::Place(..) => false,
        }
    }

    /// Starts an instance of `effect` on `t` for `n` counts at `anchor` (ended at once if `n <= 0`).
    pub(super) fn begin_effect(&mut self, effect: FieldId, t: EntityId, n: i64, anchor: Anchor) {
        let had = self.get(t, effect);
        self.put(t, effect, had.saturating_add(1));
        self.emit(Event::EffectStart {
            effect,
            target: t,
            count: n,
            at: anchor,
        });
        self.effect_moment(effect, t, true);
        if n <= 0 {
            self.end_effect(effect, t);
        } else {
            self.effects.push(Active {
                effect,
                target: t,
                left: n,
                anchor,
            });
        }
    }

    /// `stop`: ends every run of the effect on the target.
    pub(super) fn st_stop(&mut self, effect: FieldId, target: &Ex, span: Span) -> R<Flow> {
        let t = self.entity(target, span)?;
        self.stop_effect(effect, t);
        self.effect_hooks(span)
    }

    /// Ends every instance of `effect` on `t`.
    pub(super) fn stop_effect(&mut self, effect: FieldId, t: EntityId) {
        let mut i = 0;
        while i < self.effects.len() {
            if self.effects[i].effect == effect && self.effects[i].target == t {
                self.effects.remove(i);
                self.end_effect(effect, t);
            } else {
                i += 1;
            }
        }
    }

    /// Ticks every effect counted at `anchor`; those that reach zero end now.
    #[inline]
    pub(super) fn count_down(&mut self, anchor: Anchor) {
        if self.effects.is_empty() {
            return;
        }
        self.count_down_where(|_, at| at == anchor);
    }

    /// At an end edge, once its durations are counted down: the hooks of the effects that ended
    /// there run with that end passed (an effect begun in one `until end of next turn(x)` lasts
    /// until the end of `x`'s next turn, not the one after).
    pub(super) fn end_edge_hooks(&mut self, anchor: Anchor, span: Span) -> R<Flow> {
        let outer = self.past_end.replace(anchor);
        let flow = self.effect_hooks(span);
        self.past_end = outer;
        flow
    }

    /// Ticks the effects counted at the place where `a`'s turn begins: the place a walk of a kept
    /// order has reached, or, for a turn outside such a walk, the place `a` holds now.
    #[inline]
    pub(super) fn count_down_places(&mut self, a: EntityId) {
        if self.effects.is_empty() {
            return;
        }
        let walking = self.walking.last().copied();
        self.count_down_where(|m, at| match (at, walking) {
            (Anchor::Place(o, place), Some((w, reached))) if o == w => place == reached,
            (Anchor::Place(o, place), _) => m.ranked[o as usize].get(place) == Some(&a),
            _ => false,
        });
    }

    /// Ticks the effects whose anchor `hit` accepts; those that reach zero end now.
    #[inline(never)]
    fn count_down_where(&mut self, hit: impl Fn(&Self, Anchor) -> bool) {
        let mut i = 0;
        while i < self.effects.len() {
            if !hit(self, self.effects[i].anchor) {
                i += 1;
                continue;
            }
            self.effects[i].left -= 1;
            let fx = self.effects[i];
            if fx.left > 0 {
                self.emit(Event::EffectTick {
                    effect: fx.effect,
                    target: fx.target,
                    left: fx.left,
                });
                i += 1;
                continue;
            }
            let fx = self.effects.remove(i);
            self.end_effect(fx.effect, fx.target);
        }
    }

    fn end_effect(&mut self, effect: FieldId, target: EntityId) {
        let n = self.get(target, effect);
        self.put(target, effect, (n - 1).max(0));
        self.emit(Event::EffectEnd { effect, target });
        self.effect_moment(effect, target, false);
    }
}
