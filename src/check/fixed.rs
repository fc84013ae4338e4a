//! Working out, at check time, a number that must be fixed before the run starts: a resource's or
//! global's `min` and `max`. They are evaluated once as the run starts, before any field or global
//! has its value, so they may use numbers, params and arithmetic, but nothing of the state.

use super::{Decls, Sym};
use crate::syntax::ast::*;

/// A fixed value: a number kept with so many decimals (`Num(575, 2)` is 5.75), or a truth value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Val {
    Num(i64, u8),
    Bool(bool),
}

/// What working out an expression gave.
pub(super) enum Fixed {
    /// Its value.
    Is(Val),
    /// It reads the state (a global, a field, a quantifier, a level's number, an order) at
    /// this span: it has no value before the run starts.
    Reads(Span),
    /// Fixed, but with no value to give here: dice (reported as `check::rolled`), a division by
    /// zero or an overflow (the run stops on it, as it would anywhere), or a type error
    /// (reported by the checker).
    Unknown,
}

use Fixed::{Is, Reads, Unknown};

/// The value of a fixed expression. `args` are the arguments of the params being worked out.
pub(super) fn fixed(d: &Decls<'_>, e: &Expr, args: &[(String, Val)], depth: usize) -> Fixed {
    if depth > crate::limits::MAX_PARAM_DEPTH {
        // A cycle or a chain too deep: reported when params are collected.
        return Unknown;
    }
    match &e.node {
        ExprKind::Int(n) => Is(Val::Num(*n, 0)),
        ExprKind::Dec(n, s) => Is(Val::Num(*n, *s)),
        ExprKind::Bool(b) => Is(Val::Bool(*b)),
        ExprKind::Dice(_) | ExprKind::DynDice(_) | ExprKind::FaceDice(_) | ExprKind::Faces(_) | ExprKind::None => {
            Unknown
        }
        ExprKind::Name(n) => {
            if let Some((_, v)) = args.iter().rev().find(|(a, _)| a == n) {
                return Is(*v);
            }
            match d.lookup(n) {
                Some(Sym::Param(i)) if d.param_args[i as usize].is_empty() => {
                    fixed(d, d.param_exprs[i as usize], &[], depth + 1)
                }
                Some(Sym::Field(..)) => Reads(e.span),
                // A declared entity by name, a side, or a name the checker reports.
                _ => Unknown,
            }
        }
        ExprKind::Unary(UnOp::Neg, x) => num(d, x, args, depth, |v, s| v.checked_neg().map(|v| Val::Num(v, s))),
        ExprKind::Unary(UnOp::Not, x) => match fixed(d, x, args, depth) {
            Is(Val::Bool(b)) => Is(Val::Bool(!b)),
            Is(_) => Unknown,
            other => other,
        },
        ExprKind::Binary(op, l, r) => binary(d, *op, l, r, args, depth),
        ExprKind::If(c, a, b) => match fixed(d, c, args, depth) {
            Is(Val::Bool(true)) => fixed(d, a, args, depth),
            Is(Val::Bool(false)) => fixed(d, b, args, depth),
            Is(_) => Unknown,
            other => other,
        },
        ExprKind::Call(f, xs) => call(d, f, xs, e.span, args, depth),
        ExprKind::Field(..) | ExprKind::Is(..) | ExprKind::Quant(_) => Reads(e.span),
    }
}

/// A number's value and decimals, then `f` of them.
fn num(d: &Decls<'_>, x: &Expr, args: &[(String, Val)], depth: usize, f: impl Fn(i64, u8) -> Option<Val>) -> Fixed {
    match fixed(d, x, args, depth) {
        Is(Val::Num(v, s)) => f(v, s).map_or(Unknown, Is),
        Is(_) => Unknown,
        other => other,
    }
}

/// Two numbers at the same decimals (the most of the two), or `None` past 64 bits.
fn common(a: (i64, u8), b: (i64, u8)) -> Option<(i64, i64, u8)> {
    let s = a.1.max(b.1);
    Some((widen(a.0, s - a.1)?, widen(b.0, s - b.1)?, s))
}

pub(super) fn widen(v: i64, by: u8) -> Option<i64> {
    v.checked_mul(10i64.checked_pow(u32::from(by))?)
}

fn binary(d: &Decls<'_>, op: BinOp, l: &Expr, r: &Expr, args: &[(String, Val)], depth: usize) -> Fixed {
    let (a, b) = match (fixed(d, l, args, depth), fixed(d, r, args, depth)) {
        (Reads(s), _) | (_, Reads(s)) => return Reads(s),
        (Is(a), Is(b)) => (a, b),
        _ => return Unknown,
    };
    let v = match (a, b) {
        (Val::Bool(x), Val::Bool(y)) => match op {
            BinOp::And => Some(Val::Bool(x && y)),
            BinOp::Or => Some(Val::Bool(x || y)),
            BinOp::Eq => Some(Val::Bool(x == y)),
            BinOp::Ne => Some(Val::Bool(x != y)),
            _ => None,
        },
        (Val::Num(x, sx), Val::Num(y, sy)) => match op {
            BinOp::Mul => x.checked_mul(y).zip(sx.checked_add(sy)).map(|(v, s)| Val::Num(v, s)),
            // The left is widened by the right's decimals, and keeps its own.
            BinOp::Div if y != 0 => widen(x, sy).map(|x| Val::Num(x.div_euclid(y), sx)),
            BinOp::Div => None,
            _ => common((x, sx), (y, sy)).and_then(|(x, y, s)| match op {
                BinOp::Add => x.checked_add(y).map(|v| Val::Num(v, s)),
                BinOp::Sub => x.checked_sub(y).map(|v| Val::Num(v, s)),
                BinOp::Eq => Some(Val::Bool(x == y)),
                BinOp::Ne => Some(Val::Bool(x != y)),
                BinOp::Lt => Some(Val::Bool(x < y)),
                BinOp::Le => Some(Val::Bool(x <= y)),
                BinOp::Gt => Some(Val::Bool(x > y)),
                BinOp::Ge => Some(Val::Bool(x >= y)),
                _ => None,
            }),
        },
        _ => None,
    };
    v.map_or(Unknown, Is)
}

/// `highest`, `lowest`, `abs`, or a param with arguments; anything else (an order query) reads the
/// state.
fn call(d: &Decls<'_>, f: &Ident, xs: &[Expr], span: Span, args: &[(String, Val)], depth: usize) -> Fixed {
    let mut vals = Vec::with_capacity(xs.len());
    for x in xs {
        match fixed(d, x, args, depth) {
            Is(v) => vals.push(v),
            other => return other,
        }
    }
    if let Some(Sym::Param(i)) = d.lookup(&f.node) {
        let names = &d.param_args[i as usize];
        if names.len() != vals.len() {
            return Unknown;
        }
        let bound: Vec<(String, Val)> = names.iter().map(|a| a.0.clone()).zip(vals).collect();
        return fixed(d, d.param_exprs[i as usize], &bound, depth + 1);
    }
    let nums: Option<Vec<(i64, u8)>> = vals
        .iter()
        .map(|v| match v {
            Val::Num(n, s) => Some((*n, *s)),
            Val::Bool(_) => None,
        })
        .collect();
    let Some(nums) = nums else { return Unknown };
    match f.node.as_str() {
        "abs" => match nums.as_slice() {
            [(n, s)] => n.checked_abs().map_or(Unknown, |n| Is(Val::Num(n, *s))),
            _ => Unknown,
        },
        "highest" | "lowest" => {
            let top = nums.iter().map(|n| n.1).max().unwrap_or(0);
            let wide: Option<Vec<i64>> = nums.iter().map(|(n, s)| widen(*n, top - s)).collect();
            let pick = wide.and_then(|w| {
                if f.node == "highest" {
                    w.into_iter().max()
                } else {
                    w.into_iter().min()
                }
            });
            pick.map_or(Unknown, |v| Is(Val::Num(v, top)))
        }
        q if super::ORDER_QUERIES.contains(&q) => Reads(span),
        // Reported by the checker.
        _ => Unknown,
    }
}

/// `a` and `b` compared as numbers: `a > b`.
pub(super) fn above(a: Val, b: Val) -> bool {
    match (a, b) {
        (Val::Num(x, sx), Val::Num(y, sy)) => common((x, sx), (y, sy)).is_some_and(|(x, y, _)| x > y),
        _ => false,
    }
}
