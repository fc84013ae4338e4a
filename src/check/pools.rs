//! Checking dice pools: exploding dice's thresholds, and quantifiers over a roll's faces.

use super::Ty;
use super::checker::Checker;
use crate::diag::Diag;
use crate::source::Span;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// The `!T` of dice with computed parts: a number; written out with listed faces, one that
    /// lets the dice stop exploding.
    pub(super) fn explode_part(&mut self, d: &DynDice, span: Span) {
        let Some(Some(t)) = &d.explode else {
            return;
        };
        self.expect(t, Ty::Int, "the face a die explodes on");
        if let (ExprKind::Int(v), Some(faces)) = (&t.node, &d.faces)
            && !crate::syntax::explode_ends(*v, faces)
        {
            self.err(
                Diag::new(
                    "check::explode",
                    format!("these dice would explode on {v} for ever or never"),
                )
                .label(t.span, "explodes on this face or more")
                .label(span, "these dice")
                .help("explode on a face above the lowest and at most the highest"),
            );
        }
    }

    /// `count f in 6d10 where f >= 7: ...`: the variable is each face, a number.
    pub(super) fn faces_quant(&mut self, q: &FacesQuant, span: Span) -> Ty {
        let FacesQuant {
            quant,
            var,
            dice,
            filter,
            body,
        } = q;
        self.expect(dice, Ty::Int, "dice");
        self.bind(var, Ty::Int);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a `where` filter");
        }
        let ty = match quant {
            Quant::First | Quant::Last => {
                self.err(
                    Diag::new(
                        "check::faces",
                        "`first` and `last` give an entity, but faces are numbers",
                    )
                    .label(span, "over the faces of a roll")
                    .help("count the faces (`count f in 5d6 where f == 6`), or take the best: `max f in 5d6: f`"),
                );
                if let Some(b) = body {
                    self.expr(b);
                }
                Ty::Error
            }
            Quant::Any | Quant::All | Quant::Count => {
                if let Some(b) = body {
                    self.expect(b, Ty::Bool, "the condition of a quantifier");
                }
                if *quant == Quant::Count { Ty::Int } else { Ty::Bool }
            }
            Quant::Sum | Quant::Max | Quant::Min => match body {
                Some(b) => Ty::of_scale(self.number(b, "the value of a quantifier")),
                None => {
                    self.err(
                        Diag::new("check::quantifier", "this quantifier needs a value after `:`")
                            .label(span, "value of what?")
                            .help("write e.g. `sum f in 6d10 where f >= 7: if f == 10 then 2 else 1`"),
                    );
                    Ty::Int
                }
            },
        };
        self.scopes.pop();
        ty
    }
}
