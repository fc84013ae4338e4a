//! Lowering issue 26's functions: counted loops, `set` on a local, and calls of routines that
//! give a value (run as their hook, like `do`).

use super::Lower;
use super::ir::*;
use crate::check::Sym;
use crate::syntax::ast;

impl Lower<'_> {
    /// `for each i in A [down] to B { ... }`: the bounds lowered outside the loop's variable.
    pub(super) fn count(&mut self, c: &ast::CountLoop) -> St {
        let ast::CountLoop {
            var,
            from,
            to,
            down,
            body,
            span,
        } = c;
        let (from, to) = (self.expr(from), self.expr(to));
        let slot = self.bind(&var.node);
        let body = self.block(body);
        self.scopes.pop();
        St::Count {
            var: slot,
            from,
            to,
            down: *down,
            body,
            span: *span,
        }
    }

    /// `set x = EXPR` on a local (the checker allows it only on a `let`): the local's slot
    /// takes the value, as `let` gives it.
    pub(super) fn set_local(&mut self, t: &ast::Target, value: &ast::Expr) -> Option<St> {
        if t.var.is_some() || t.base.is_some() {
            return None;
        }
        let slot = self.local(&t.field.node)?;
        Some(St::Let {
            slot,
            value: self.expr(value),
        })
    }

    /// `R(args)`: the hook the routine was given, run for its value.
    pub(super) fn routine_call(&mut self, e: &ast::Expr, name: &ast::Ident, args: &[ast::Expr]) -> Ex {
        let hook = match self.d.lookup(&name.node) {
            Some(Sym::Routine(i)) => self.p.routines.get(i as usize).copied().unwrap_or(0),
            _ => 0,
        };
        Ex::Routine(hook, args.iter().map(|a| self.expr(a)).collect(), e.span)
    }
}

/// What a trigger's argument of type `t` is, for the trace.
pub(super) fn arg_kind(t: crate::check::Ty) -> ArgKind {
    use crate::check::Ty;
    match t {
        Ty::Int | Ty::Dec(_) => ArgKind::Number,
        Ty::Bool => ArgKind::Truth,
        Ty::Side => ArgKind::Side,
        Ty::Entity(_) | Ty::Role | Ty::Pool | Ty::Error => ArgKind::Entity,
    }
}
