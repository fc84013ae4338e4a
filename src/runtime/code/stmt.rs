//! Statements compiled to closures. Each closure is handed the statement it was made from, so
//! it reads its nested blocks from the tree (by their numbers, their own compiled code) and owns
//! only its compiled expressions. The step is charged before it is called, as the walk's
//! dispatch charges it.

use super::expr::{Filter, Opd, operand};
use crate::compile::ir::*;
use crate::runtime::policy_path::Listed;
use crate::runtime::state::{Machine, NO_CTX, R};
use crate::runtime::stmt::Flow;

/// A compiled statement: called with the statement it was compiled from.
pub(in crate::runtime) type StFn = Box<dyn Fn(&mut Machine<'_>, &St) -> R<Flow> + Send + Sync>;

/// `s` compiled, or `None` for a statement walked as before.
pub(super) fn compile(p: &Program, s: &St) -> Option<StFn> {
    match s {
        St::If { cond, .. } => {
            let cond = operand(p, cond);
            Some(Box::new(move |m, s| if_(m, &cond, s)))
        }
        St::Let { slot, value } => {
            let (slot, value) = (*slot, operand(p, value));
            Some(Box::new(move |m, _| {
                let v = value.get(m, NO_CTX)?;
                m.locals[slot as usize] = v;
                Ok(Flow::Next)
            }))
        }
        // A walk with a filter: the filter compiled, asked of each member as it is gathered and
        // again as its moment comes.
        St::ForEach { filter: Some(f), .. } => {
            let f = operand(p, f);
            Some(Box::new(move |m, s| for_each(m, &f, s)))
        }
        // A `choose` whose options are fixed: listed once, here, for its fast path.
        St::Choose {
            options, secret: false, ..
        } => {
            let listed = Listed::new(p, options)?;
            Some(Box::new(move |m, s| m.choose_listed(&listed, s)))
        }
        _ => None,
    }
}

/// `for each ... where C`: the walk's statement, with C compiled.
fn for_each(m: &mut Machine<'_>, filter: &Opd, s: &St) -> R<Flow> {
    let St::ForEach {
        together,
        anew,
        ties,
        again,
        var,
        coll,
        presence,
        backwards,
        from,
        filter: _,
        order,
        body,
        span,
    } = s
    else {
        return m.stmt_rest(s);
    };
    m.drawing_from(*presence, |m| {
        m.st_for_each(
            *var,
            *coll,
            (*backwards, *together, *anew, *ties, *again),
            from.as_ref(),
            Some(Filter::Code(filter)),
            *order,
            body,
            *span,
        )
    })
}

/// `if`: the condition compiled, the branch's block run by its number.
#[inline(always)]
fn if_(m: &mut Machine<'_>, cond: &Opd, s: &St) -> R<Flow> {
    let St::If { then, otherwise, .. } = s else {
        // Never: the closure is called with the statement it was made from.
        return m.stmt_rest(s);
    };
    if cond.get(m, NO_CTX)? != 0 {
        m.block(then)
    } else {
        m.block(otherwise)
    }
}
