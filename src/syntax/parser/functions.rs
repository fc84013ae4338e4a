//! The statements of issue 26's functions: counted loops (`for each i in A [down] to B`, read
//! from a `for_stmt`) and `give EXPR`; and a routine's `gives TYPE`.

use super::Pair;

use super::{Builder, Parts, R, Rule, next};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Builder {
    /// `for each i in A [down] to B { ... }`: the `count_range` and the block after `i`.
    pub(super) fn count_stmt(
        &self,
        together: bool,
        var: Ident,
        range: Pair<'_>,
        mut it: Parts<'_>,
        span: Span,
    ) -> R<Stmt> {
        if together {
            return Err(Diag::new("syntax::parse", "a counted loop cannot be `together`")
                .label(span, "numbers counted, not members walked")
                .help("`together for each` walks a collection; count inside it, or walk the collection"));
        }
        let rspan = self.span(&range);
        let mut r = range.into_inner().filter(|p| p.as_rule() != Rule::kw_to).peekable();
        let from = self.expr(next(&mut r, rspan)?)?;
        let down = r.next_if(|p| p.as_rule() == Rule::count_down).is_some();
        let to = self.expr(next(&mut r, rspan)?)?;
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
