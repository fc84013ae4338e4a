//! The statements of issue 26's functions: counted loops (`for each i in A [down] to B`) and
//! `give EXPR`; and a routine's `gives TYPE`.

use super::{Builder, Parts, R, Rule, next};
use crate::syntax::ast::*;

impl Builder {
    /// `for each i in A [down] to B { ... }`.
    pub(super) fn count_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let var = self.ident(next(&mut it, span)?);
        let from = self.expr(next(&mut it, span)?)?;
        let down = it.next_if(|p| p.as_rule() == Rule::count_down).is_some();
        let to = self.expr(next(&mut it, span)?)?;
        let body = self.block(next(&mut it, span)?)?;
        Ok(Stmt::Count(Box::new(CountLoop {
            var,
            from,
            to,
            down,
            body,
            span,
        })))
    }

    /// `give EXPR`.
    pub(super) fn give_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        Ok(Stmt::Give {
            value: self.expr(next(&mut it, span)?)?,
            span,
        })
    }

    /// A routine's `gives TYPE`, if written next in `it`.
    pub(super) fn routine_gives(&self, it: &mut Parts<'_>) -> Option<Ident> {
        let p = it.next_if(|p| p.as_rule() == Rule::routine_gives)?;
        let t = p.into_inner().find(|p| p.as_rule() == Rule::type_name)?;
        Some(self.ident(t))
    }
}
