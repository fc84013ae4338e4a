//! Dice pools in the syntax: listed faces (`d[0,1,2]`, also after a computed count) and
//! exploding dice (`d6!`, `d10!9`, `(n)d(s)!(t)`), and the refusals that keep them unambiguous.

use super::Pair;

use super::{Builder, R, Rule, is_keyword, last_inner, next};
use crate::diag::Diag;
use crate::source::Span;
use crate::syntax::ast::*;

impl Builder {
    /// The character right after a pair (to tell `d10!>=9` from `d10! >= 9`), if any in the text
    /// read (the rest of the file, or a message's `{...}`).
    pub(super) fn after(&self, pair: &Pair<'_>) -> Option<char> {
        let s = pair.as_span();
        s.get_input().get(s.end()..).and_then(|t| t.chars().next())
    }
}

fn explodes(kind: &ExprKind) -> bool {
    match kind {
        ExprKind::Dice(d) => d.explode.is_some(),
        ExprKind::FaceDice(d) => d.explode.is_some(),
        ExprKind::DynDice(d) => d.explode.is_some(),
        _ => false,
    }
}

/// `d10!>=9` reads two ways (Roll20's "explode on 9 or more", or exploding dice compared with 9):
/// refused, with both ways to say it.
pub(super) fn explode_then_compare(kind: &ExprKind, after: Option<char>, span: Span) -> R<()> {
    if explodes(kind) && matches!(after, Some('>' | '<')) {
        return Err(Diag::new("syntax::explode", "a comparison right after `!` reads two ways")
            .label(span, "exploding dice, then a comparison with no space")
            .help("write `d10!9` for a die rolled again on 9 or more, or `d10! >= 9` (with a space) to compare the exploding die's total"));
    }
    Ok(())
}

/// Keeping some of exploding dice (`4d6!kh3`) is refused: which faces would count is unclear.
pub(super) fn explode_and_keep(both: bool, span: Span) -> R<()> {
    if both {
        return Err(
            Diag::new("syntax::explode", "exploding dice cannot also keep some of their dice")
                .label(span, "both `!` and `kh`/`kl`")
                .help("explode each die and keep the best with a function: `highest(d8!, d6!)`"),
        );
    }
    Ok(())
}

/// The faces of `[F, F, ...]`, within the limit of sides.
pub(super) fn listed_faces(pair: Pair) -> Option<Vec<i64>> {
    let faces = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::face)
        .map(|p| p.as_str().parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()?;
    (!faces.is_empty() && faces.len() <= crate::limits::MAX_SIDES as usize).then_some(faces)
}

pub(super) fn bad_faces(span: Span) -> Diag {
    Diag::new("syntax::dice", "these faces cannot be rolled")
        .label(span, "here")
        .help(format!(
            "list 1 to {} whole-number faces: `d[0,0,1,2]`",
            crate::limits::MAX_SIDES
        ))
}

/// Whether `!T` on dice of these faces can end: `T` above the lowest face (and at most the
/// highest, or no die would ever explode).
pub fn explode_ends(t: i64, faces: &[i64]) -> bool {
    let lo = faces.iter().copied().min().unwrap_or(0);
    let hi = faces.iter().copied().max().unwrap_or(0);
    t > lo && t <= hi
}

impl Builder {
    /// `[N]d[F, ...][khK|klK][!|!T]`: within the limits of literal dice; `None` when out of them.
    pub(super) fn face_dice(&self, pair: Pair, span: Span) -> R<Option<ExprKind>> {
        let text = pair.as_str();
        let count: u32 = match text.split_once('d') {
            Some(("", _)) | None => 1,
            Some((n, _)) => match n.parse() {
                Ok(n) => n,
                Err(_) => return Ok(None),
            },
        };
        let mut faces = Vec::new();
        let mut keep = None;
        let mut kind = None;
        let mut explode = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::dice_faces => match listed_faces(p) {
                    Some(f) => faces = f,
                    None => return Ok(None),
                },
                Rule::dice_keep => {
                    kind = Some(if p.as_str() == "kh" {
                        Keep::Highest
                    } else {
                        Keep::Lowest
                    })
                }
                Rule::dice_digits if kind.is_some() => keep = kind.map(|k| (k, p.as_str().parse::<u32>().unwrap_or(0))),
                Rule::dice_bang => explode = Some(self.bang(p)?),
                _ => {}
            }
        }
        explode_and_keep(keep.is_some() && explode.is_some(), span)?;
        let explode = match explode {
            None => None,
            Some(None) => Some(None),
            Some(Some(Spanned {
                node: ExprKind::Int(t),
                span: _,
            })) => Some(Some(t)),
            // `d[0,1,2]!(t)`: the face they explode on is computed.
            Some(Some(t)) => {
                // Empty spans of their own: spans key what the checker records about an expression.
                let n = |v: i64| {
                    Spanned::new(
                        ExprKind::Int(v),
                        Span {
                            end: span.start,
                            ..span
                        },
                    )
                };
                let ok = (1..=crate::limits::MAX_DICE).contains(&count) && !faces.is_empty();
                return Ok(ok.then(|| {
                    ExprKind::DynDice(Box::new(DynDice {
                        count: n(count.into()),
                        sides: n(faces.len() as i64),
                        keep: None,
                        faces: Some(faces),
                        explode: Some(Some(t)),
                    }))
                }));
            }
        };
        let ok = (1..=crate::limits::MAX_DICE).contains(&count)
            && !faces.is_empty()
            && keep.is_none_or(|(_, k)| k >= 1 && k <= count)
            && explode.is_none_or(|t: Option<i64>| t.is_none_or(|t| explode_ends(t, &faces)))
            && explode.is_none_or(|t| t.is_some() || faces.iter().any(|f| *f != faces[0]));
        Ok(ok.then(|| {
            ExprKind::FaceDice(Box::new(FaceDice {
                count,
                faces,
                keep,
                explode,
            }))
        }))
    }

    /// `!` (on the highest face), `!N` or `!(EXPR)`.
    pub(super) fn bang(&self, pair: Pair) -> R<Option<Expr>> {
        match pair.into_inner().next() {
            None => Ok(None),
            Some(p) if p.as_rule() == Rule::dice_digits => {
                let pspan = self.span(&p);
                let n = p.as_str().parse::<i64>().map_err(|_| super::too_large(pspan))?;
                Ok(Some(Spanned::new(ExprKind::Int(n), pspan)))
            }
            Some(p) => {
                let pspan = self.span(&p);
                Ok(Some(self.expr(last_inner(p, pspan)?)?))
            }
        }
    }
}

impl Builder {
    /// `count f in 6d10 where f >= 7: ...`: a quantifier over the faces of one roll.
    pub(super) fn faces_quant(&self, pair: Pair, span: Span) -> R<ExprKind> {
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let quant = super::expr::quant_word(next(&mut it, span)?.as_str());
        let var = self.ident(next(&mut it, span)?);
        let dice = self.one_roll(
            next(&mut it, span)?,
            "a quantifier over faces walks the dice of one roll",
            "roll the dice here: `count f in (c.pool)d10 where f >= 7`",
        )?;
        let (mut filter, mut body) = (None, None);
        for p in it {
            let r = p.as_rule();
            let e = Box::new(self.expr(last_inner(p, span)?)?);
            if r == Rule::quant_where {
                filter = Some(e)
            } else {
                body = Some(e)
            }
        }
        Ok(ExprKind::Faces(Box::new(FacesQuant {
            quant,
            var,
            dice,
            filter,
            body,
        })))
    }
}

impl Builder {
    /// `roll DICE as p`, `remove FACE from p`.
    pub(super) fn pool_stmt(&self, rule: Rule, mut it: super::Parts<'_>, span: Span) -> R<Stmt> {
        let op = match rule {
            Rule::roll_as_stmt => {
                let dice = self.one_roll(
                    next(&mut it, span)?,
                    "a pool holds the dice of one roll",
                    "roll dice into it: `roll (c.pool)d6 as p`",
                )?;
                PoolOp::RollAs {
                    dice,
                    name: self.ident(next(&mut it, span)?),
                }
            }
            _ => PoolOp::Remove {
                face: self.expr(next(&mut it, span)?)?,
                pool: self.ident(next(&mut it, span)?),
            },
        };
        Ok(Stmt::Pool(Box::new(PoolStmt { op, span })))
    }

    /// The dice of one roll (`6d10`, `(n)d[0,1,2]`, `d(s)!`) that a quantifier over faces walks
    /// or a pool holds; anything else is `syntax::faces`, with `message` and `help`.
    fn one_roll(&self, source: Pair, message: &str, help: &str) -> R<Expr> {
        let sspan = self.span(&source);
        let dice = self.primary(last_inner(source, sspan)?)?;
        if !matches!(
            dice.node,
            ExprKind::Dice(_) | ExprKind::FaceDice(_) | ExprKind::DynDice(_)
        ) {
            return Err(Diag::new("syntax::faces", message.to_string())
                .label(dice.span, "not dice")
                .help(help.to_string()));
        }
        Ok(dice)
    }
}
