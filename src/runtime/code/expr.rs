//! Expressions compiled to closures: the kinds a run meets at every step (numbers, locals, a
//! local's field, params that are numbers, operators, `if`, the quantifiers that fold) each a
//! closure over its compiled parts; every other kind a closure calling the walk's evaluation of
//! that node ([`Machine::eval`]), so that its errors, steps and dice are the walk's.

use crate::compile::ir::*;
use crate::runtime::eval::{Fold, division_by_zero};
use crate::runtime::state::{Ctx, Machine, R, checked};
use crate::source::Span;
use crate::syntax::ast::{BinOp, Presence, Quant};

/// A compiled expression.
pub(in crate::runtime) type ExFn = Box<dyn Fn(&mut Machine<'_>, Ctx) -> R<i64> + Send + Sync>;

/// An operand: read in place when it is a number, a local or a local's field (`c.speed`), as the
/// walk's `operand` reads it; else its compiled closure.
pub(in crate::runtime) enum Opd {
    Int(i64),
    Local(Slot),
    LocalField(Slot, FieldId, Span),
    Code(ExFn),
}

impl Opd {
    #[inline(always)]
    pub(in crate::runtime) fn get(&self, m: &mut Machine<'_>, ctx: Ctx) -> R<i64> {
        match self {
            Opd::Int(i) => Ok(*i),
            Opd::Local(s) => Ok(m.locals[*s as usize]),
            Opd::LocalField(s, f, span) => m.field_of(m.locals[*s as usize], *f, *span),
            Opd::Code(c) => c(m, ctx),
        }
    }
}

/// An expression asked of each member a walk visits (`for each ... where C`, a quantifier's
/// filter and body): as written, or compiled.
#[derive(Clone, Copy)]
pub(in crate::runtime) enum Filter<'f> {
    Tree(&'f Ex),
    Code(&'f Opd),
}

impl Machine<'_> {
    /// A filter's (or a quantifier body's) value for the member bound.
    #[inline(always)]
    pub(in crate::runtime) fn test(&mut self, f: Filter<'_>, ctx: Ctx) -> R<i64> {
        match f {
            Filter::Tree(e) => self.eval(e, ctx),
            Filter::Code(o) => o.get(self, ctx),
        }
    }
}

/// `e` as an operand.
pub(in crate::runtime) fn operand(p: &Program, e: &Ex) -> Opd {
    match e {
        Ex::Int(i) => Opd::Int(*i),
        Ex::Local(s) => Opd::Local(*s),
        Ex::Field(base, f, span) if let Ex::Local(s) = **base => Opd::LocalField(s, *f, *span),
        // A param that is a number is that number (the walk reads it so, in place).
        Ex::Param(i) if let Some((_, Ex::Int(v))) = p.params.get(*i as usize) => Opd::Int(*v),
        _ => Opd::Code(compile(p, e)),
    }
}

/// `e` compiled.
pub(in crate::runtime) fn compile(p: &Program, e: &Ex) -> ExFn {
    match e {
        Ex::Int(_) | Ex::Local(_) => {
            let o = operand(p, e);
            Box::new(move |m, ctx| o.get(m, ctx))
        }
        Ex::Param(i) if let Some((_, Ex::Int(v))) = p.params.get(*i as usize) => {
            let v = *v;
            Box::new(move |_, _| Ok(v))
        }
        Ex::Field(base, f, span) => {
            let (base, f, span) = (operand(p, base), *f, *span);
            Box::new(move |m, ctx| {
                let v = base.get(m, ctx)?;
                m.field_of(v, f, span)
            })
        }
        Ex::Not(x) => {
            let x = operand(p, x);
            Box::new(move |m, ctx| Ok((x.get(m, ctx)? == 0) as i64))
        }
        Ex::Bin(op, l, r, span) => binary(*op, operand(p, l), operand(p, r), *span),
        Ex::If(c, a, b) => {
            let (c, a, b) = (operand(p, c), operand(p, a), operand(p, b));
            Box::new(move |m, ctx| {
                if c.get(m, ctx)? != 0 {
                    a.get(m, ctx)
                } else {
                    b.get(m, ctx)
                }
            })
        }
        Ex::Quant {
            quant,
            var,
            coll,
            presence,
            filter,
            by: None,
            body,
            span,
        } if !matches!(quant, Quant::First | Quant::Last) => {
            let q = Quantifier {
                quant: *quant,
                var: *var,
                coll: *coll,
                // `tied` is the group being sorted: whom the walk or choice drew, in play or out.
                presence: if *coll == Coll::Tied { Presence::Both } else { *presence },
                filter: filter.as_ref().map(|f| operand(p, f)),
                body: body.as_ref().map(|b| operand(p, b)),
                span: *span,
            };
            Box::new(move |m, ctx| q.value(m, ctx))
        }
        _ => {
            let e = e.clone();
            Box::new(move |m, ctx| m.eval(&e, ctx))
        }
    }
}

/// A binary operator over two compiled operands, one closure per operator: `and`/`or`
/// short-circuit, arithmetic is checked, division rounds down and refuses 0 (as the walk's
/// `binary`).
fn binary(op: BinOp, l: Opd, r: Opd, span: Span) -> ExFn {
    fn cmp(l: Opd, r: Opd, f: impl Fn(i64, i64) -> bool + Send + Sync + 'static) -> ExFn {
        Box::new(move |m, ctx| {
            let a = l.get(m, ctx)?;
            let b = r.get(m, ctx)?;
            Ok(f(a, b) as i64)
        })
    }
    fn arith(l: Opd, r: Opd, span: Span, f: impl Fn(i64, i64) -> Option<i64> + Send + Sync + 'static) -> ExFn {
        Box::new(move |m, ctx| {
            let a = l.get(m, ctx)?;
            let b = r.get(m, ctx)?;
            checked(f(a, b), span)
        })
    }
    // The shape met at every step, fused: a local's field compared with a number (`c.speed > 0`).
    if let (Opd::LocalField(slot, f, at), Opd::Int(k)) = (&l, &r) {
        let fused = (*slot, *f, *at, *k);
        match op {
            BinOp::Eq => return field_cmp(fused, |a, b| a == b),
            BinOp::Ne => return field_cmp(fused, |a, b| a != b),
            BinOp::Lt => return field_cmp(fused, |a, b| a < b),
            BinOp::Le => return field_cmp(fused, |a, b| a <= b),
            BinOp::Gt => return field_cmp(fused, |a, b| a > b),
            BinOp::Ge => return field_cmp(fused, |a, b| a >= b),
            _ => {}
        }
    }
    match op {
        BinOp::And => Box::new(move |m, ctx| Ok((l.get(m, ctx)? != 0 && r.get(m, ctx)? != 0) as i64)),
        BinOp::Or => Box::new(move |m, ctx| Ok((l.get(m, ctx)? != 0 || r.get(m, ctx)? != 0) as i64)),
        BinOp::Eq => cmp(l, r, |a, b| a == b),
        BinOp::Ne => cmp(l, r, |a, b| a != b),
        BinOp::Lt => cmp(l, r, |a, b| a < b),
        BinOp::Le => cmp(l, r, |a, b| a <= b),
        BinOp::Gt => cmp(l, r, |a, b| a > b),
        BinOp::Ge => cmp(l, r, |a, b| a >= b),
        BinOp::Add => arith(l, r, span, i64::checked_add),
        BinOp::Sub => arith(l, r, span, i64::checked_sub),
        BinOp::Mul => arith(l, r, span, i64::checked_mul),
        BinOp::Div => Box::new(move |m, ctx| {
            let a = l.get(m, ctx)?;
            let b = r.get(m, ctx)?;
            if b == 0 {
                return Err(division_by_zero(span));
            }
            checked(a.checked_div_euclid(b), span)
        }),
    }
}

/// `x.f OP k`, `x` a local: the field read in place, compared with the number.
fn field_cmp(
    (slot, f, span, k): (Slot, FieldId, Span, i64),
    op: impl Fn(i64, i64) -> bool + Send + Sync + 'static,
) -> ExFn {
    Box::new(move |m, _| {
        let v = m.field_of(m.locals[slot as usize], f, span)?;
        Ok(op(v, k) as i64)
    })
}

/// A quantifier that folds (`any`, `all`, `count`, `sum`, `max`, `min`) with no order, its
/// filter and body compiled: the walk's `quant`, its loop the walk's `quant_walk`.
struct Quantifier {
    quant: Quant,
    var: Slot,
    coll: Coll,
    presence: Presence,
    filter: Option<Opd>,
    body: Option<Opd>,
    span: Span,
}

impl Quantifier {
    fn value(&self, m: &mut Machine<'_>, ctx: Ctx) -> R<i64> {
        let n = m.members(self.coll).len();
        let saved = m.locals[self.var as usize];
        let mut fold = Fold::new(self.quant);
        // A folding quantifier keeps no member: the list stays empty and allocates nothing.
        let mut found = Vec::new();
        // The variable is given back on every path, as the walk does.
        let walked = m.quant_walk(
            (self.quant, false),
            self.var,
            (self.coll, self.presence, n),
            self.filter.as_ref().map(Filter::Code),
            self.body.as_ref().map(Filter::Code),
            &mut fold,
            &mut found,
            ctx,
            self.span,
        );
        m.locals[self.var as usize] = saved;
        walked.map(|()| fold.value())
    }
}
