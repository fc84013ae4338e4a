//! Lowering dice pools: listed faces after a computed count, exploding dice, and quantifiers over
//! a roll's faces.

use super::Lower;
use crate::compile::ir::*;
use crate::source::Span;
use crate::syntax::ast::{self, DynDice, FaceDice, FacesQuant};

impl Lower<'_> {
    /// Listed faces, kept once in `Program::faces`.
    fn face_list(&mut self, faces: &[i64]) -> u16 {
        self.p.faces.push(faces.to_vec());
        (self.p.faces.len() - 1) as u16
    }

    /// `[N]d[F, ...][khK][!T]`: literal dice with listed faces; `!` explodes on the highest face.
    pub(super) fn face_dice(&mut self, d: &FaceDice, span: Span) -> Ex {
        let FaceDice {
            count,
            faces,
            keep,
            explode,
        } = d;
        let explode = explode.map(|t| t.unwrap_or_else(|| faces.iter().copied().max().unwrap_or(0)));
        let dice = ast::Dice {
            count: *count,
            sides: faces.len() as u32,
            keep: *keep,
            faces: Some(self.face_list(faces)),
            explode,
        };
        self.p.dice.push((dice, span));
        Ex::Dice((self.p.dice.len() - 1) as DiceId)
    }

    /// Dice with computed parts (the count, the size, the number kept, the face they explode on).
    pub(super) fn dyn_dice(&mut self, d: &DynDice, span: Span) -> Ex {
        let DynDice {
            count,
            sides,
            keep,
            faces,
            explode,
        } = d;
        let keep = keep.as_ref().map(|(k, x)| (*k, self.expr(x)));
        let (count, sides) = (self.expr(count), self.expr(sides));
        let faces = faces.as_ref().map(|f| self.face_list(f));
        let explode = explode.as_ref().map(|t| t.as_ref().map(|t| self.expr(t)));
        Ex::DynDice(
            Box::new(DynDiceEx {
                count,
                sides,
                keep,
                faces,
                explode,
            }),
            span,
        )
    }

    /// `count f in DICE [where C] [: V]`: the variable in its own slot.
    pub(super) fn faces_quant(&mut self, q: &FacesQuant, span: Span) -> Ex {
        let FacesQuant {
            quant,
            var,
            dice,
            filter,
            body,
        } = q;
        let dice = self.expr(dice);
        let slot = self.bind(&var.node);
        let filter = filter.as_ref().map(|f| self.expr(f));
        let body = body.as_ref().map(|b| self.expr(b));
        self.scopes.pop();
        Ex::Faces(Box::new(FacesEx {
            quant: *quant,
            var: slot,
            dice,
            filter,
            body,
            span,
        }))
    }
}

impl Lower<'_> {
    /// Whether a collection is a pool's name (the checker says so, by span).
    pub(super) fn walks_pool(&self, coll: &ast::Collection) -> bool {
        matches!(coll, ast::Collection::Ranked(o) if self.pools_at.contains(&o.span))
    }

    /// A pool's slot, by name (the checker found it in scope).
    fn pool_slot(&self, name: &str) -> Slot {
        self.local(name).unwrap_or_default()
    }

    /// `p.size`.
    pub(super) fn pool_size(&mut self, base: &ast::Expr) -> Ex {
        match &base.node {
            ast::ExprKind::Name(n) => Ex::PoolSize(self.pool_slot(n)),
            _ => Ex::Int(0),
        }
    }

    /// `count f in p [where C] [: V]`: a quantifier over the pool's faces.
    pub(super) fn pool_quant(&mut self, q: &ast::QuantExpr, span: Span) -> Ex {
        // The checker refuses `out of play` and `by` over a pool.
        let ast::QuantExpr {
            quant,
            var,
            coll,
            presence: _,
            filter,
            by: _,
            body,
        } = q;
        let pool = match coll {
            ast::Collection::Ranked(o) => self.pool_slot(&o.node),
            ast::Collection::Characters | ast::Collection::Pile(_, _) => 0,
        };
        let slot = self.bind(&var.node);
        let filter = filter.as_ref().map(|f| self.expr(f));
        let body = body.as_ref().map(|b| self.expr(b));
        self.scopes.pop();
        Ex::Faces(Box::new(FacesEx {
            quant: *quant,
            var: slot,
            dice: Ex::Local(pool),
            filter,
            body,
            span,
        }))
    }

    /// `for each f in p [where C] { ... }` (the checker refuses every other part of a walk).
    pub(super) fn for_faces(&mut self, f: &ast::ForEach) -> St {
        let ast::ForEach {
            together: _,
            anew: _,
            ties: _,
            again: _,
            var,
            coll,
            presence: _,
            backwards: _,
            from: _,
            filter,
            order: _,
            body,
            span,
        } = f;
        let pool = match coll {
            ast::Collection::Ranked(o) => self.pool_slot(&o.node),
            ast::Collection::Characters | ast::Collection::Pile(_, _) => 0,
        };
        let slot = self.bind(&var.node);
        let filter = filter.as_ref().map(|c| self.expr(c));
        let body = self.block(body);
        self.scopes.pop();
        St::Pool(Box::new(PoolSt::ForFaces {
            var: slot,
            pool,
            filter,
            body,
            span: *span,
        }))
    }

    /// `roll DICE as p`, `remove FACE from p`.
    pub(super) fn pool_stmt(&mut self, p: &ast::PoolStmt) -> St {
        let ast::PoolStmt { op, span } = p;
        St::Pool(Box::new(match op {
            ast::PoolOp::RollAs { dice, name } => {
                let dice = self.expr(dice);
                PoolSt::RollAs {
                    slot: self.bind(&name.node),
                    dice,
                    span: *span,
                }
            }
            ast::PoolOp::Remove { face, pool } => PoolSt::Remove {
                slot: self.pool_slot(&pool.node),
                face: self.expr(face),
                span: *span,
            },
        }))
    }
}
