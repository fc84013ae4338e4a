//! Issue 26's functions at run time: counted loops, `give`, and routines called for their value
//! (a hook run as `do` runs one, its frame saved and restored; `run::too_deep` bounds the
//! nesting). A routine's block that ends the encounter inside an expression unwinds to the
//! statement that called it (`Machine::unwind`), which then ends as that block did.

use super::state::{Ctx, Machine, NO_CTX, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;

impl Machine<'_> {
    /// `for each i in A [down] to B { ... }`: both bounds worked out once; a pass per number, each
    /// charged a step (the step budget bounds the loop).
    pub(super) fn st_count(
        &mut self,
        var: Slot,
        (from, to, down): (&Ex, &Ex, bool),
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        let (i, last) = (self.eval(from, NO_CTX)?, self.eval(to, NO_CTX)?);
        // Popped on every path, as `repeat`'s loop is.
        self.loops.push(span);
        let result = self.count_passes(var, (i, last, down), body, span);
        self.loops.pop();
        result
    }

    fn count_passes(&mut self, var: Slot, (mut i, last, down): (i64, i64, bool), body: &Block, span: Span) -> R<Flow> {
        Ok(loop {
            if (down && i < last) || (!down && i > last) {
                break Flow::Next;
            }
            self.locals[var as usize] = i;
            self.tick(span)?;
            match self.block(body)? {
                Flow::Next => {}
                other => break other,
            }
            match if down { i.checked_sub(1) } else { i.checked_add(1) } {
                Some(n) => i = n,
                None => break Flow::Next,
            }
        })
    }

    /// `give EXPR`: the value is kept for the call, which the `Give` flow returns to.
    pub(super) fn st_give(&mut self, value: &Ex) -> R<Flow> {
        self.given = self.eval(value, NO_CTX)?;
        Ok(Flow::Give)
    }

    /// `R(args)` in an expression: the routine's hook, run with its arguments; its `give`.
    pub(super) fn routine_value(&mut self, hook: HookId, args: &[Ex], span: Span, ctx: Ctx) -> R<i64> {
        let (vals, n) = self.eval_args(args, ctx)?;
        match self.hooks(&[hook], &vals[..n], span)? {
            Flow::Give => Ok(self.given),
            // The checker sees that every path gives: a defined error all the same.
            Flow::Next | Flow::EndRepeat => Err(Box::new(
                Diag::new("run::no_value", "the routine called here ended without giving a value")
                    .label(span, "called here")
                    .help("end every path of the routine with `give EXPR`"),
            )),
            other => {
                self.unwind = Some(other);
                Err(Box::new(
                    Diag::new("run::unwind", "the encounter ended inside a routine").label(span, "here"),
                ))
            }
        }
    }

    /// A statement whose expression called a routine that ended the encounter (or reached the
    /// run's stop): it ends as the routine's block did.
    pub(super) fn unwound(&mut self, r: R<Flow>) -> R<Flow> {
        match r {
            Err(e) => match self.unwind.take() {
                Some(flow) => Ok(flow),
                None => Err(e),
            },
            ok => ok,
        }
    }
}
