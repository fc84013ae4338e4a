//! What keeps a character from taking an action now (its `when`, a cost it cannot pay), for
//! the options a `choose` offers and for the reason an answer naming such an action is refused.

use super::state::{Ctx, Machine, R};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;

/// What keeps a character from taking an action now ([`Machine::shortfall`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shortfall {
    /// Its `when` does not hold.
    When,
    /// A cost worked out below zero.
    Negative(i64),
    /// Paying `cost` would take `field` (holding `has`) below its minimum.
    Short { field: FieldId, cost: i64, has: i64 },
}

impl Machine<'_> {
    /// What keeps `who` from taking action `a` now, if anything: the first of its `when`, a
    /// negative cost, or a resource its costs would take below its minimum.
    #[inline(always)]
    pub(super) fn shortfall(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<Option<Shortfall>> {
        // The common shape, worked out without binding the actor: no `when`, one cost, a number
        // (or a param that is one), which reads nothing.
        if a.when.is_none()
            && let [(amount, f)] = &a.costs[..]
            && let Some(cost) = constant(self.p, amount)
        {
            if cost < 0 {
                return Ok(Some(Shortfall::Negative(cost)));
            }
            let field = using.unwrap_or(*f);
            if self.covers(who, field, cost)? {
                return Ok(None);
            }
            let has = self.get(who, field);
            return Ok(Some(Shortfall::Short { field, cost, has }));
        }
        self.shortfall_of(a, who, using)
    }

    /// Whether `who` can pay a fixed `cost` of `field` now (`Fixed::costs`): what
    /// [`Machine::shortfall`] finds for an action whose only cost it is (its fast path asks this).
    #[inline(always)]
    pub(super) fn covers(&mut self, who: EntityId, field: FieldId, cost: i64) -> R<bool> {
        if cost < 0 {
            return Ok(false);
        }
        let has = self.get(who, field);
        Ok(affords(has, self.bounds(who, field)?.0, cost))
    }

    /// [`Machine::shortfall`] of any action: its `when` and costs worked out with the actor bound.
    #[inline(never)]
    fn shortfall_of(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<Option<Shortfall>> {
        let slot = a.actor as usize;
        let saved = self.locals[slot];
        self.locals[slot] = who as i64;
        let short = self.first_shortfall(a, who, using);
        self.locals[slot] = saved;
        short
    }

    fn first_shortfall(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<Option<Shortfall>> {
        let ctx = Ctx {
            label: a.label,
            actor: Some(who),
        };
        if let Some(w) = &a.when
            && self.eval(w, ctx)? == 0
        {
            return Ok(Some(Shortfall::When));
        }
        // With `using`, every cost comes out of the one resource: they must be affordable
        // together. Otherwise costs in the same resource are paid together: each resource is
        // checked once, for its total.
        for (i, (_, f)) in a.costs.iter().enumerate() {
            let field = using.unwrap_or(*f);
            if using.is_some() && i > 0 || using.is_none() && a.costs[..i].iter().any(|(_, g)| g == f) {
                continue;
            }
            let mut total = 0i64;
            for (amount, g) in &a.costs[i..] {
                if using.is_some() || g == f {
                    let cost = self.eval(amount, ctx)?;
                    if cost < 0 {
                        return Ok(Some(Shortfall::Negative(cost)));
                    }
                    total = total.saturating_add(cost);
                }
            }
            let has = self.get(who, field);
            if self
                .bounds(who, field)?
                .0
                .is_some_and(|lo| has.saturating_sub(total) < lo)
            {
                return Ok(Some(Shortfall::Short {
                    field,
                    cost: total,
                    has,
                }));
            }
        }
        Ok(None)
    }

    /// Why `actor` cannot take action `a` now (an answer named it): its shortfall, in words.
    pub(super) fn explain_unaffordable(&mut self, a: ActionId, actor: EntityId, span: Span) -> R<(Vec<String>, Diag)> {
        let p = self.p;
        let using = self.unaffordable.iter().find(|(x, _)| *x == a).and_then(|(_, u)| *u);
        let name = p.option_name(OptionKey::Action(a));
        let who = self.world().character_name(actor).to_string();
        let text = match p.actions.get(a as usize) {
            Some(def) => match self.shortfall(def, actor, using)? {
                Some(Shortfall::When) => format!("{name} is not open to {who} now: its `when` does not hold"),
                Some(Shortfall::Negative(cost)) => format!("{name} would cost {cost}, less than nothing"),
                Some(Shortfall::Short { field, cost, has }) => {
                    let f = &p.fields[field as usize];
                    let (cost, has) = (
                        crate::trace::Decimal(cost, f.decimals),
                        crate::trace::Decimal(has, f.decimals),
                    );
                    format!("{name} costs {cost} {}; {who} has {has}", f.name)
                }
                // Unaffordable when asked, affordable now: a ruling made since (the offer is not
                // worked out again at a ruling).
                None => format!(
                    "{name} was not offered when {who} was asked, and a change made since allows it: it is offered at {who}'s next decision"
                ),
            },
            None => format!("{name} cannot be taken now"),
        };
        let diag = Diag::new("run::refused", text.clone())
            .label(span, "while this was being decided")
            .help(format!("{name} is not offered to {who} now; the answer was refused"));
        Ok((vec![text], diag))
    }
}

/// The value of an expression that is a number, or a param that is one (params are fixed once
/// the program is compiled): what the run may use without evaluating it.
#[inline]
pub(super) fn constant(p: &Program, e: &Ex) -> Option<i64> {
    match e {
        Ex::Int(v) => Some(*v),
        Ex::Param(i) => match p.params.get(*i as usize) {
            Some((_, Ex::Int(v))) => Some(*v),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `has` of a resource whose lower limit is `lo` pays `cost`: a cost is never below 0,
/// and what is left stays at or above the limit. What [`Machine::covers`] asks, and the listed
/// choices of `policy_path.rs` with the amount and limit read once.
#[inline(always)]
pub(super) fn affords(has: i64, lo: Option<i64>, cost: i64) -> bool {
    cost >= 0 && lo.is_none_or(|lo| has.saturating_sub(cost) >= lo)
}
