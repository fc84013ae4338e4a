//! The policy fast path of `choose` (issue 31): a decision answered by a policy alone, with
//! nothing that could be refused, attempted or held secret, is worked out in one pass: the
//! options offered, the policy's pick, the `decision` event, then the pick performed. The general
//! path (`decisions.rs`) does the same with the machinery for refusals, attempts, answers naming
//! options the chooser cannot take, secret choices and controls; here none of it can apply, so
//! none of it is set up. The trace, the step count and the dice drawn are the general path's:
//! `tests/policy_path.rs` runs every bundled ruleset both ways and compares the traces.

use super::decide::DecisionPoint;
use super::decisions::no_such_option;
use super::state::{Ctx, Machine, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::source::Span;
use crate::trace::{Event, World};

impl Machine<'_> {
    /// Whether `choose` may take the fast path here: no control, a decider that is a policy and
    /// nothing else (no answers that could name an option), a program without attempts, a
    /// choice that is not secret, and no option with an `unless`.
    pub(super) fn policy_path(&self, options: &[OptionDef], secret: bool) -> bool {
        !secret
            && self.control.is_none()
            && self.p.attempts.is_empty()
            && self.decider.policy_only()
            && options.iter().all(|o| o.refusals.is_empty())
    }

    /// `choose` on the fast path ([`Machine::policy_path`] holds): what the general path does
    /// when nothing is refused, attempted or secret, in the same order.
    pub(super) fn choose_by_policy(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        (options, prefs): (&[OptionDef], &[PolicyPrefs]),
        span: Span,
    ) -> R<Flow> {
        let who = self.who(chooser, span)?;
        let actor = match who {
            Who::Character(e) => Some(e),
            Who::Role(_) => None,
        };
        let (mut keys, mut sources) = (self.keys.take(), self.indices.take());
        let offered = self.offer_plain(options, actor, &mut keys, &mut sources);
        let picked = offered.and_then(|()| self.pick_by_policy(decision, who, &keys, prefs, span));
        let picked = match picked {
            Ok(i) => i,
            Err(e) => {
                self.keys.put(keys);
                self.indices.put(sources);
                return Err(e);
            }
        };
        let (key, option) = (keys[picked], &options[sources[picked]]);
        self.keys.put(keys);
        self.indices.put(sources);
        match (key, actor) {
            (OptionKey::Action(a), Some(e)) => match self.perform(a, e, option.using, span)? {
                Flow::Next => self.block(&option.body),
                other => Ok(other),
            },
            _ => self.block(&option.body),
        }
    }

    /// The options offered now, as `offered` in `decisions.rs` finds them when no option has
    /// an `unless` and no action need be listed as unaffordable.
    fn offer_plain(
        &mut self,
        options: &[OptionDef],
        actor: Option<EntityId>,
        keys: &mut Vec<OptionKey>,
        sources: &mut Vec<usize>,
    ) -> R<()> {
        let p = self.p;
        self.unaffordable.clear();
        let ctx = Ctx { label: NO_LABEL, actor };
        for (i, o) in options.iter().enumerate() {
            if let Some(w) = &o.when
                && self.eval(w, ctx)? == 0
            {
                continue;
            }
            match (o.name, actor) {
                (Some(n), _) => {
                    keys.push(OptionKey::Named(n));
                    sources.push(i);
                }
                (None, Some(e)) => {
                    for (ai, a) in p.actions.iter().enumerate() {
                        let of_kind = o.kinds.is_empty() || a.kinds.iter().any(|k| o.kinds.contains(k));
                        if !of_kind {
                            continue;
                        }
                        // A cost the compiler fixed is tested as it is (`Fixed::costs`).
                        let open = match p.fixed.costs.get(ai).copied().flatten() {
                            Some((f, cost)) => self.covers(e, o.using.unwrap_or(f), cost)?,
                            None => self.shortfall(a, e, o.using)?.is_none(),
                        };
                        if open {
                            keys.push(OptionKey::Action(ai as ActionId));
                            sources.push(i);
                        }
                    }
                }
                (None, None) => {}
            }
        }
        Ok(())
    }

    /// The policy's pick among `keys` (its conditional preferences worked out first), traced as
    /// the `decision` event.
    fn pick_by_policy(
        &mut self,
        decision: DecisionId,
        who: Who,
        keys: &[OptionKey],
        prefs: &[PolicyPrefs],
        span: Span,
    ) -> R<usize> {
        let p = self.p;
        if keys.is_empty() {
            return Err(Box::new(super::decisions::no_option(p, who, decision, span)));
        }
        let suggested = self.suggest(who, prefs, keys)?;
        // As `ask_until_accepted` leaves it: an attempt made here could be carried out.
        self.reoffer = true;
        let point = DecisionPoint {
            decision,
            chooser: who,
            options: keys,
            refused: &[],
            attempts: &p.attempts,
            outside: &[],
            reasons: &[],
            suggested,
            counters: &self.counters,
            running: &self.running,
            span,
            secret: self.secrecy.asking(),
        };
        let w = World {
            p,
            made: &self.made,
            values: &self.values,
            types: &self.types,
        };
        let (picked, by) = self.decider.decide(&w, &point).map_err(Box::new)?;
        self.secrecy.answered(picked < keys.len());
        if picked >= keys.len() {
            return Err(no_such_option(span));
        }
        self.emit(Event::Decision {
            decision,
            chooser: who,
            options: keys,
            picked,
            by,
        });
        Ok(picked)
    }
}
