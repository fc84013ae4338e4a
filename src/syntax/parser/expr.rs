//! Expressions: precedence climbing over operators, primaries, quantifiers and dice.

use super::{Builder, R, Rule, internal, is_keyword, last_inner, next, too_large};
use super::{Pair, Pairs};
use crate::diag::Diag;
use crate::syntax::ast::*;

/// Where an operator stands: between two operands, before one or after one.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Affix {
    /// Left-associative: `a - b - c` is `(a - b) - c`.
    Infix,
    Prefix,
    Postfix,
}

/// The operators of an expression by precedence, loosest first: the operators of a level bind
/// alike, and tighter than every level above it. The one table of the language's precedence
/// (docs/language.md, "Operators"), which [`Builder::climb`] reads.
const LEVELS: &[&[(Rule, Affix)]] = &[
    &[(Rule::op_or, Affix::Infix)],
    &[(Rule::op_and, Affix::Infix)],
    &[(Rule::op_not, Affix::Prefix)],
    &[
        (Rule::op_eq, Affix::Infix),
        (Rule::op_ne, Affix::Infix),
        (Rule::op_lt, Affix::Infix),
        (Rule::op_le, Affix::Infix),
        (Rule::op_gt, Affix::Infix),
        (Rule::op_ge, Affix::Infix),
    ],
    &[(Rule::op_add, Affix::Infix), (Rule::op_sub, Affix::Infix)],
    &[(Rule::op_mul, Affix::Infix), (Rule::op_div, Affix::Infix)],
    &[(Rule::op_neg, Affix::Prefix)],
    &[(Rule::op_is, Affix::Postfix)],
    &[(Rule::op_field, Affix::Postfix)],
];

/// An operator's place and how tightly it binds (1 for the loosest level, as `LEVELS` reads);
/// `None` for an operand.
fn operator(r: Rule) -> Option<(Affix, u32)> {
    (1..).zip(LEVELS).find_map(|(level, ops)| {
        let (_, affix) = ops.iter().find(|(op, _)| *op == r)?;
        Some((*affix, level))
    })
}

#[cfg(test)]
thread_local! {
    /// Every expression through the precedence climbing, a lone operand too (`tests::one_operand`).
    static PRATT_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The rules of an expression's operators (all the others are its operands).
fn is_operator(r: Rule) -> bool {
    operator(r).is_some()
}

/// The rules of the operators between two operands (those the nesting bound counts), as
/// `LEVELS` has them.
pub(super) fn is_infix(r: Rule) -> bool {
    matches!(operator(r), Some((Affix::Infix, _)))
}

impl Builder {
    pub(super) fn expr(&self, pair: Pair) -> R<Expr> {
        let span = self.span(&pair);
        if pair.as_rule() != Rule::expr {
            return Err(internal(span, pair.as_rule()));
        }
        let inner = pair.into_inner();
        // One operand and no operator (`1`, `c.pool`): what the precedence climbing would make
        // of it, the operand, without setting it up.
        #[cfg(test)]
        let pratt_only = PRATT_ONLY.get();
        #[cfg(not(test))]
        let pratt_only = false;
        if inner.len() == 1
            && !pratt_only
            && let Some(p) = inner.peek()
            && !is_operator(p.as_rule())
        {
            return self.primary(p);
        }
        self.check_operators(&inner)?;
        self.climb(&mut inner.clone(), 0, span)
    }

    /// The expression of `pairs` (operands and operators, in the order written) up to the first
    /// operator that binds no tighter than `bound` (0: to the end), by precedence climbing over
    /// [`LEVELS`], as pest's `PrattParser` reads them. The first error met, in the order written,
    /// is the one returned. Its depth is bounded with the operators' (`check_operators`).
    fn climb(&self, pairs: &mut Pairs, bound: u32, span: Span) -> R<Expr> {
        let first = next(pairs, span)?;
        let mut lhs = match operator(first.as_rule()) {
            None => self.primary(first)?,
            Some((Affix::Prefix, level)) => {
                let rhs = self.climb(pairs, level - 1, span)?;
                let s = self.span(&first);
                let span = Span::new(self.file, s.start as usize, rhs.span.end as usize);
                let u = if first.as_rule() == Rule::op_neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                };
                Spanned::new(ExprKind::Unary(u, Box::new(rhs)), span)
            }
            Some(_) => return Err(internal(self.span(&first), first.as_rule())),
        };
        while let Some(op) = pairs.peek() {
            let Some((affix, level)) = operator(op.as_rule()) else {
                return Err(internal(self.span(&op), op.as_rule()));
            };
            if level <= bound {
                break;
            }
            pairs.next();
            lhs = match affix {
                Affix::Infix => {
                    let rhs = self.climb(pairs, level, span)?;
                    self.infix(lhs, &op, rhs)
                }
                Affix::Postfix => self.postfix(lhs, op)?,
                Affix::Prefix => return Err(internal(self.span(&op), op.as_rule())),
            };
        }
        Ok(lhs)
    }

    /// `lhs OP rhs`.
    fn infix(&self, lhs: Expr, op: &Pair, rhs: Expr) -> Expr {
        let b = match op.as_rule() {
            Rule::op_or => BinOp::Or,
            Rule::op_and => BinOp::And,
            Rule::op_eq => BinOp::Eq,
            Rule::op_ne => BinOp::Ne,
            Rule::op_lt => BinOp::Lt,
            Rule::op_le => BinOp::Le,
            Rule::op_gt => BinOp::Gt,
            Rule::op_ge => BinOp::Ge,
            Rule::op_add => BinOp::Add,
            Rule::op_sub => BinOp::Sub,
            Rule::op_mul => BinOp::Mul,
            _ => BinOp::Div,
        };
        let span = Span::new(self.file, lhs.span.start as usize, rhs.span.end as usize);
        Spanned::new(ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)), span)
    }

    /// `lhs.field`, `lhs is KIND`.
    fn postfix(&self, lhs: Expr, op: Pair) -> R<Expr> {
        let s = self.span(&op);
        let span = Span::new(self.file, lhs.span.start as usize, s.end as usize);
        if op.as_rule() == Rule::op_field {
            let name = op.into_inner().next().map(|p| self.ident(p));
            let name = name.ok_or_else(|| internal(s, Rule::op_field))?;
            return Ok(Spanned::new(ExprKind::Field(Box::new(lhs), name), span));
        }
        let name = op
            .into_inner()
            .find(|p| p.as_rule() == Rule::ident)
            .map(|p| self.ident(p));
        let name = name.ok_or_else(|| internal(s, Rule::op_is))?;
        Ok(Spanned::new(ExprKind::Is(Box::new(lhs), name), span))
    }

    pub(super) fn primary(&self, pair: Pair) -> R<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::expr => return self.expr(pair),
            Rule::number => ExprKind::Int(pair.as_str().parse::<i64>().map_err(|_| too_large(span))?),
            Rule::decimal => {
                let (whole, frac) = pair.as_str().split_once('.').unwrap_or((pair.as_str(), ""));
                if frac.len() > crate::limits::MAX_DECIMALS as usize {
                    return Err(Diag::new(
                        "syntax::number",
                        format!(
                            "`{}` has more than {} decimals",
                            pair.as_str(),
                            crate::limits::MAX_DECIMALS
                        ),
                    )
                    .label(span, "too many digits after the point")
                    .help(format!("numbers keep at most {} decimals", crate::limits::MAX_DECIMALS)));
                }
                let digits = format!("{whole}{frac}");
                ExprKind::Dec(digits.parse::<i64>().map_err(|_| too_large(span))?, frac.len() as u8)
            }
            Rule::if_expr => {
                let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
                let c = self.expr(next(&mut it, span)?)?;
                let a = self.expr(next(&mut it, span)?)?;
                let b = self.expr(next(&mut it, span)?)?;
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::dice => {
                let after = self.after(&pair);
                super::pools::explode_and_keep(pair.as_str().contains('k') && pair.as_str().contains('!'), span)?;
                let kind = ExprKind::Dice(parse_dice(pair.as_str()).ok_or_else(|| {
                    Diag::new(
                        "syntax::dice",
                        format!("`{}` is not a dice expression turnscript can roll", pair.as_str()),
                    )
                    .label(span, "here")
                    .help(match pair.as_str().contains('!') {
                        true => "exploding dice: write NdS! (each die showing its highest face rolled again and added) or NdS!T (again on T or more, 2 ≤ T ≤ S), with 1 to 1000 dice of 2 to 1000000 sides",
                        false => "write NdS with 1 to 1000 dice of 2 to 1000000 sides, optionally khK or klK keeping K of them",
                    })
                })?);
                super::pools::explode_then_compare(&kind, after, span)?;
                kind
            }
            Rule::dyn_dice => {
                let after = self.after(&pair);
                let kind = self.dyn_dice(pair, span)?;
                super::pools::explode_then_compare(&kind, after, span)?;
                kind
            }
            Rule::face_dice => {
                let after = self.after(&pair);
                let explodes = pair.as_str().contains('!');
                let kind = self.face_dice(pair, span)?.ok_or_else(|| {
                    Diag::new("syntax::dice", "these dice cannot be rolled")
                        .label(span, "here")
                        .help(match explodes {
                            true => "exploding dice: write [N]d[F, F, ...]! (again on the highest face) or [N]d[F, ...]!T (again on T or more: T above the lowest face and at most the highest), with 1 to 1000 dice",
                            false => "write [N]d[F, F, ...] with 1 to 1000 dice, at most 1000000 whole-number faces, optionally khK or klK keeping K of them",
                        })
                })?;
                super::pools::explode_then_compare(&kind, after, span)?;
                kind
            }
            Rule::paren => {
                let after = self.after(&pair);
                let e = self.paren(pair, span)?;
                super::pools::explode_then_compare(&e.node, after, span)?;
                return Ok(e);
            }
            Rule::entity_name => {
                let sspan = span;
                let text = self.string(next(&mut pair.into_inner(), sspan)?);
                ExprKind::Name(text.node)
            }
            Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
            Rule::none_lit => ExprKind::None,
            Rule::path => {
                let mut it = pair.into_inner();
                let base = self.ident(next(&mut it, span)?);
                match it.next() {
                    None => ExprKind::Name(base.node),
                    Some(f) => {
                        let bspan = base.span;
                        ExprKind::Field(Box::new(Spanned::new(ExprKind::Name(base.node), bspan)), self.ident(f))
                    }
                }
            }
            Rule::call => {
                let mut it = pair.into_inner();
                let name = self.ident(next(&mut it, span)?);
                let args = next(&mut it, span)?;
                let args = args.into_inner().map(|p| self.expr(p)).collect::<R<Vec<_>>>()?;
                ExprKind::Call(name, args)
            }
            Rule::quantifier => self.quantifier(pair, span)?,
            Rule::faces_quant => self.faces_quant(pair, span)?,
            r => return Err(internal(span, r)),
        };
        Ok(Spanned::new(kind, span))
    }
    /// `any c in characters where ...: ...`, and the other quantifiers.
    fn quantifier(&self, pair: Pair, span: Span) -> R<ExprKind> {
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let quant = quant_word(next(&mut it, span)?.as_str());
        let var = self.ident(next(&mut it, span)?);
        let coll = self.collection(next(&mut it, span)?)?;
        let (mut filter, mut body, mut by, mut presence) = (None, None, None, Presence::InPlay);
        for p in it {
            let r = p.as_rule();
            if r == Rule::presence {
                presence = Self::presence(p);
                continue;
            }
            if r == Rule::quant_by {
                by = Some(self.ident(last_inner(p, span)?));
                continue;
            }
            let e = Box::new(self.expr(last_inner(p, span)?)?);
            if r == Rule::quant_where {
                filter = Some(e)
            } else {
                body = Some(e)
            }
        }
        Ok(ExprKind::Quant(Box::new(QuantExpr {
            quant,
            var,
            coll,
            presence,
            filter,
            by,
            body,
        })))
    }
}

impl Builder {
    /// `(EXPR)`, or dice counted by it: `(EXPR)d...`.
    fn paren(&self, pair: Pair, span: Span) -> R<Expr> {
        let mut it = pair.into_inner();
        let inner = next(&mut it, span)?;
        let ispan = self.span(&inner);
        let count = self.expr(last_inner(inner, ispan)?)?;
        match it.next() {
            // The parentheses belong to the expression: `(x).hp` reads from its `(`.
            None => Ok(Spanned::new(count.node, span)),
            Some(tail) => {
                let kind = self.dice_parts(tail.into_inner(), Some(count), span)?;
                Ok(Spanned::new(kind, span))
            }
        }
    }

    /// `NdS[khK]` with some part computed: each part an expression in parentheses or digits; a
    /// missing count is 1.
    fn dyn_dice(&self, pair: Pair, span: Span) -> R<ExprKind> {
        let count = match pair.as_str().starts_with('d') {
            // An empty span of its own: spans key what the checker records about an expression.
            true => Some(Spanned::new(
                ExprKind::Int(1),
                Span {
                    end: span.start,
                    ..span
                },
            )),
            false => None,
        };
        self.dice_parts(pair.into_inner(), count, span)
    }

    /// The parts of computed dice, in order: the count (unless given), the sides, the number kept.
    fn dice_parts(&self, pairs: Pairs, count: Option<Expr>, span: Span) -> R<ExprKind> {
        let mut parts: Vec<Expr> = count.into_iter().collect();
        let mut kind = Keep::Highest;
        let (mut faces, mut explode) = (None, None);
        for part in pairs {
            let pspan = self.span(&part);
            match part.as_rule() {
                Rule::dice_keep if part.as_str() == "kl" => kind = Keep::Lowest,
                Rule::dice_keep => kind = Keep::Highest,
                Rule::dice_faces => {
                    let listed = super::pools::listed_faces(part).ok_or_else(|| super::pools::bad_faces(pspan))?;
                    parts.push(Spanned::new(ExprKind::Int(listed.len() as i64), pspan));
                    faces = Some(listed);
                }
                Rule::dice_bang => explode = Some(self.bang(part)?),
                Rule::dice_digits => {
                    let n = part.as_str().parse::<i64>().map_err(|_| too_large(pspan))?;
                    parts.push(Spanned::new(ExprKind::Int(n), pspan));
                }
                _ => parts.push(self.expr(last_inner(part, pspan)?)?),
            }
        }
        let mut parts = parts.into_iter();
        let count = parts.next().ok_or_else(|| internal(span, Rule::dyn_dice))?;
        let sides = parts.next().ok_or_else(|| internal(span, Rule::dyn_dice))?;
        let keep = parts.next().map(|k| (kind, k));
        super::pools::explode_and_keep(keep.is_some() && explode.is_some(), span)?;
        Ok(ExprKind::DynDice(Box::new(DynDice {
            count,
            sides,
            keep,
            faces,
            explode,
        })))
    }
}

/// The quantifier a word names (`any`, `count`, ...).
pub(super) fn quant_word(q: &str) -> Quant {
    match q {
        "any" => Quant::Any,
        "all" => Quant::All,
        "count" => Quant::Count,
        "sum" => Quant::Sum,
        "max" => Quant::Max,
        "first" => Quant::First,
        "last" => Quant::Last,
        _ => Quant::Min,
    }
}

fn parse_dice(text: &str) -> Option<Dice> {
    let (text, explode) = match text.split_once('!') {
        None => (text, None),
        Some((t, "")) => (t, Some(None)),
        Some((t, n)) => (t, Some(Some(n.parse::<i64>().ok()?))),
    };
    let (count, rest) = text.split_once('d')?;
    let count: u32 = if count.is_empty() { 1 } else { count.parse().ok()? };
    let (sides, keep) = if let Some((s, k)) = rest.split_once("kh") {
        (s, Some((Keep::Highest, k.parse().ok()?)))
    } else if let Some((s, k)) = rest.split_once("kl") {
        (s, Some((Keep::Lowest, k.parse().ok()?)))
    } else {
        (rest, None)
    };
    let sides: u32 = sides.parse().ok()?;
    if !(1..=crate::limits::MAX_DICE).contains(&count) || !(2..=crate::limits::MAX_SIDES).contains(&sides) {
        return None;
    }
    if let Some((_, k)) = keep
        && (k == 0 || k > count)
    {
        return None;
    }
    // A die that explodes on its lowest face (or less) would explode for ever.
    let explode = match explode {
        None => None,
        Some(None) => Some(sides as i64),
        Some(Some(t)) if t >= 2 && t <= sides as i64 => Some(t),
        Some(Some(_)) => return None,
    };
    Some(Dice {
        count,
        sides,
        keep,
        faces: None,
        explode,
    })
}

#[cfg(test)]
mod tests {
    use super::{Affix, Builder, LEVELS, PRATT_ONLY, R};
    use crate::syntax::ast::*;
    use crate::syntax::parser::node::{Nodes, queue_of_tokens};
    use crate::syntax::parser::{Grammar, Rule};
    use pest::Parser as _;
    use pest::iterators::Pair;
    use pest::pratt_parser::{Assoc, Op, PrattParser};

    /// pest's `PrattParser` made from [`LEVELS`]: the parser `Builder::climb` took the place of.
    fn pest_pratt() -> PrattParser<Rule> {
        LEVELS.iter().fold(PrattParser::new(), |pratt, level| {
            let mut ops = level.iter().map(|&(rule, affix)| match affix {
                Affix::Infix => Op::infix(rule, Assoc::Left),
                Affix::Prefix => Op::prefix(rule),
                Affix::Postfix => Op::postfix(rule),
            });
            let first = ops.next().expect("no level of LEVELS is empty");
            pratt.op(ops.fold(first, |all, op| all | op))
        })
    }

    /// An `expr` pair of pest's read built as it was before `climb`: by pest's `PrattParser`,
    /// each operand and operator handed to the builder as the node of the same pair.
    fn by_pest(b: &Builder, pratt: &PrattParser<Rule>, text: &str, pair: Pair<Rule>) -> R<Expr> {
        let queued = |p: Pair<Rule>| queue_of_tokens(p.tokens());
        let primary = |p: Pair<Rule>| {
            let q = queued(p);
            let node = Nodes::new(text, &q).next().expect("a pair is queued");
            b.primary(node)
        };
        let op = |p: Pair<Rule>, f: &mut dyn FnMut(super::Pair) -> R<Expr>| {
            let q = queued(p);
            f(Nodes::new(text, &q).next().expect("a pair is queued"))
        };
        pratt
            .map_primary(primary)
            .map_prefix(|p, rhs| {
                let rhs = rhs?;
                op(p, &mut |n| {
                    let s = b.span(&n);
                    let span = Span::new(b.file, s.start as usize, rhs.span.end as usize);
                    let u = if n.as_rule() == Rule::op_neg {
                        UnOp::Neg
                    } else {
                        UnOp::Not
                    };
                    Ok(Spanned::new(ExprKind::Unary(u, Box::new(rhs.clone())), span))
                })
            })
            .map_postfix(|lhs, p| {
                let lhs = lhs?;
                op(p, &mut |n| b.postfix(lhs.clone(), n))
            })
            .map_infix(|lhs, p, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                op(p, &mut |n| Ok(b.infix(lhs.clone(), &n, rhs.clone())))
            })
            .parse(pair.into_inner())
    }

    /// `climb` builds what pest's `PrattParser` built from the same table: every expression of
    /// pest's read of every `.turn` file of `rulesets/` and `tests/`, a lone operand too, the same
    /// tree, spans included, or the same error.
    #[test]
    fn climbing_builds_what_pests_pratt_parser_built() {
        let texts = crate::syntax::parser::corpus::files(&["rulesets", "tests"], true);
        let (pratt, b) = (
            pest_pratt(),
            Builder {
                file: FileId::default(),
                offset: 0,
                lean: false,
            },
        );
        let (mut compared, mut with_operators) = (0, 0);
        for text in &texts {
            let Ok(pairs) = Grammar::parse(Rule::file, text) else {
                continue;
            };
            for pair in pairs.flatten().filter(|p| p.as_rule() == Rule::expr) {
                with_operators += usize::from(pair.clone().into_inner().count() > 1);
                let q = queue_of_tokens(pair.clone().tokens());
                let node = Nodes::new(text, &q).next().expect("a pair is queued");
                let mine = b.climb(
                    &mut node.into_inner(),
                    0,
                    b.span(&Nodes::new(text, &q).next().expect("queued")),
                );
                assert_eq!(
                    format!("{mine:?}"),
                    format!("{:?}", by_pest(&b, &pratt, text, pair.clone())),
                    "{}",
                    pair.as_str()
                );
                compared += 1;
            }
        }
        assert!(
            compared > 2_500 && with_operators > 500,
            "{compared} expressions, {with_operators} with operators"
        );
    }

    /// A lone operand built without the Pratt parser is what the Pratt parser builds: every
    /// `.turn` file of `rulesets/` and `tests/` parses to the same tree (spans included) and the
    /// same errors both ways.
    #[test]
    fn one_operand() {
        let texts = crate::syntax::parser::corpus::files(&["rulesets", "tests"], true);
        assert!(texts.len() > 200, "{} files", texts.len());
        let read = |text: &str, pratt_only: bool| {
            PRATT_ONLY.set(pratt_only);
            let tree = crate::syntax::parser::parse(text, FileId::default());
            PRATT_ONLY.set(false);
            format!("{tree:?}")
        };
        let mut parsed = 0;
        for text in &texts {
            let fast = read(text, false);
            assert_eq!(fast, read(text, true), "for:\n{text}");
            parsed += usize::from(fast.starts_with("Ok"));
        }
        assert!(parsed > 150, "{parsed} files parsed");
    }
}
