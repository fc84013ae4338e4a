//! Performing an action (issue 31, moved out of `decisions.rs` unchanged): traced, its frame of
//! slots kept and put back around it, its costs paid, its body run between its moments.

use super::state::{Ctx, Machine, R, too_deep};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::limits::MAX_CALL_DEPTH;
use crate::source::Span;
use crate::trace::Event;

impl Machine<'_> {
    /// An action performed by `who`: traced, its frame of slots kept and put back around it
    /// (actions may nest), its costs paid, then its body between its moments.
    pub(super) fn perform(&mut self, a: ActionId, who: EntityId, using: Option<FieldId>, span: Span) -> R<Flow> {
        let p = self.p;
        let def = &p.actions[a as usize];
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Box::new(too_deep(span)));
        }
        self.emit(Event::Action { actor: who, action: a });
        let (lo, hi) = (def.frame.0 as usize, def.frame.1 as usize);
        // A frame of one slot (the actor alone) is kept in a register, not in `saved`.
        if hi == lo + 1 {
            let kept = self.locals[lo];
            let flow = self.acting_out(def, a, who, using, span);
            self.locals[lo] = kept;
            return flow;
        }
        let mark = self.saved.len();
        self.saved.extend_from_slice(&self.locals[lo..hi]);
        let flow = self.acting_out(def, a, who, using, span);
        self.locals[lo..hi].copy_from_slice(&self.saved[mark..]);
        self.saved.truncate(mark);
        flow
    }

    /// [`Machine::perform`] inside the action's frame: the actor bound and acting, the action
    /// paid for and run.
    #[inline]
    fn acting_out(
        &mut self,
        def: &ActionDef,
        a: ActionId,
        who: EntityId,
        using: Option<FieldId>,
        span: Span,
    ) -> R<Flow> {
        self.depth += 1;
        self.locals[def.actor as usize] = who as i64;
        self.acting.push(who);
        let flow = self.pay_and_run(def, a, who, using, span);
        self.acting.pop();
        self.depth -= 1;
        flow
    }

    /// The costs, then (between the action's moments before and after, see `ready.rs`) its body.
    fn pay_and_run(
        &mut self,
        def: &ActionDef,
        a: ActionId,
        who: EntityId,
        using: Option<FieldId>,
        span: Span,
    ) -> R<Flow> {
        let p = self.p;
        // A cost the compiler fixed is paid as it is (`Fixed::costs`).
        match p.fixed.costs.get(a as usize).copied().flatten() {
            Some((f, cost)) => self.spend(who, using.unwrap_or(f), cost, span)?,
            None => {
                for (amount, f) in &def.costs {
                    let ctx = Ctx {
                        label: def.label,
                        actor: Some(who),
                    };
                    let cost = match super::afford::constant(p, amount) {
                        Some(cost) => cost,
                        None => self.eval(amount, ctx)?,
                    };
                    self.spend(who, using.unwrap_or(*f), cost, span)?;
                }
            }
        }
        // Nothing can run around an action with no hooks where no response readies on actions.
        if p.fixed.edges.get(a as usize).copied().unwrap_or(true) {
            self.around_action(a, who, span, |m| m.block(&def.body))
        } else if def.body.is_empty() {
            Ok(Flow::Next)
        } else {
            self.block(&def.body)
        }
    }
}
