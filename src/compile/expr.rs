//! Lowering expressions.

use super::Lower;
use crate::check::{FieldKind, Sym};
use crate::compile::ir::*;
use crate::syntax::ast::{self, Expr, ExprKind, UnOp};

impl Lower<'_> {
    /// One expression. A dispatch: each arm is a value, one line, or one call to a method named
    /// after the kind of expression.
    pub(super) fn expr(&mut self, e: &Expr) -> Ex {
        let ex = self.expr_as_written(e);
        // A number used with more decimals than it keeps is multiplied up (checked at run time).
        match self.widen_at.get(&(self.site, e.span)) {
            Some(&k) => Ex::Bin(ast::BinOp::Mul, Box::new(ex), Box::new(Ex::Int(k)), e.span),
            None => ex,
        }
    }

    fn expr_as_written(&mut self, e: &Expr) -> Ex {
        match &e.node {
            ExprKind::Int(i) => Ex::Int(*i),
            ExprKind::Dec(v, _) => Ex::Int(*v),
            ExprKind::Bool(b) => Ex::Int(*b as i64),
            ExprKind::None => Ex::Int(NONE),
            ExprKind::Dice(d) => {
                self.p.dice.push((*d, e.span));
                Ex::Dice((self.p.dice.len() - 1) as DiceId)
            }
            ExprKind::FaceDice(d) => self.face_dice(d, e.span),
            ExprKind::DynDice(d) => self.dyn_dice(d, e.span),
            ExprKind::Faces(q) => self.faces_quant(q, e.span),
            ExprKind::Name(n) => self.name(e, n),
            ExprKind::Field(base, _) if self.pools_at.contains(&base.span) => self.pool_size(base),
            ExprKind::Field(base, f) => self.field(e, base, f),
            ExprKind::If(c, a, b) => Ex::If(Box::new(self.expr(c)), Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Is(base, name) => self.is(base, name, e.span),
            ExprKind::Unary(UnOp::Neg, x) => Ex::Neg(Box::new(self.expr(x)), e.span),
            ExprKind::Unary(UnOp::Not, x) => Ex::Not(Box::new(self.expr(x))),
            ExprKind::Binary(op, l, r) => Ex::Bin(*op, Box::new(self.expr(l)), Box::new(self.expr(r)), e.span),
            ExprKind::Call(name, args) if crate::check::ORDER_QUERIES.contains(&name.node.as_str()) => {
                self.order_query(name, args)
            }
            ExprKind::Call(name, args) if matches!(self.d.lookup(&name.node), Some(Sym::Param(_))) => {
                self.param_call(name, args)
            }
            ExprKind::Call(name, args) if matches!(self.d.lookup(&name.node), Some(Sym::Routine(_))) => {
                self.routine_call(e, name, args)
            }
            ExprKind::Call(name, args) => self.call(e, name, args),
            ExprKind::Quant(q) if self.walks_pool(&q.coll) => self.pool_quant(q, e.span),
            ExprKind::Quant(_) => self.quant(e),
        }
    }

    /// A bare name: a variable's slot, a param, a global (a field of the table), a side, or a
    /// declared entity.
    fn name(&mut self, e: &Expr, n: &str) -> Ex {
        match self.local(n) {
            Some(slot) => Ex::Local(slot),
            None => match self.d.lookup(n) {
                Some(Sym::Param(i)) => Ex::Param(i),
                Some(Sym::Field(f, _)) => Ex::Field(Box::new(Ex::Int(TABLE as i64)), f, e.span),
                // An entity named like a side or a role is the entity (as in the checker).
                Some(Sym::Side(i)) if self.d.entity(n).is_none() => Ex::Int(i as i64),
                Some(Sym::Role(r)) if self.d.entity(n).is_none() => Ex::Int(r as i64),
                // A declared entity by name.
                _ => Ex::Int(self.d.entity(n).map_or(0, |i| i as i64)),
            },
        }
    }

    /// `x.FIELD`: a field (an effect holds while it has an instance), `x.side`, or `LEVEL.number`.
    fn field(&mut self, e: &Expr, base: &Expr, f: &ast::Ident) -> Ex {
        if let ExprKind::Name(n) = &base.node
            && self.local(n).is_none()
            && let Some(l) = self.d.level_names.get(n)
        {
            return Ex::LevelNumber(*l);
        }
        let b = Box::new(self.expr(base));
        if f.node == "side" {
            return Ex::SideOf(b, e.span);
        }
        // The checker resolved every declared field it found here: none means `x.in_play`.
        if f.node == "in_play" && !self.fields_at.contains(&f.span) {
            return Ex::InPlay(b, e.span);
        }
        // Likewise `c.group`: the first of its group in play.
        if f.node == "group" && !self.fields_at.contains(&f.span) {
            return Ex::GroupOf(b, e.span);
        }
        let id = self.field_at(f);
        let field = Ex::Field(self.side_owner(id, b, base.span), id, e.span);
        // An effect's field counts its active instances: it holds while there is one.
        if self
            .p
            .fields
            .get(id as usize)
            .is_some_and(|d| d.kind == FieldKind::Effect)
        {
            return Ex::Bin(ast::BinOp::Gt, Box::new(field), Box::new(Ex::Int(0)), e.span);
        }
        field
    }

    /// `x is SIDE` or `x is TAG`.
    fn is(&mut self, base: &Expr, name: &ast::Ident, span: ast::Span) -> Ex {
        let m = match self.d.lookup(&name.node) {
            Some(Sym::Tag(i)) => Member::Tag(i),
            Some(Sym::Side(i)) => Member::Side(i),
            _ => Member::Tag(u16::MAX),
        };
        Ex::Is(Box::new(self.expr(base)), m, span)
    }

    /// `below(c, ORDER)`, `position(c, ORDER)`, `next(c, ORDER)` and `previous(c, ORDER)`: an entity
    /// and a kept order.
    fn order_query(&mut self, name: &ast::Ident, args: &[Expr]) -> Ex {
        let order = match args.get(1).map(|a| &a.node) {
            Some(ExprKind::Name(o)) => match self.d.lookup(o) {
                Some(Sym::Order(i)) => i,
                _ => 0,
            },
            _ => 0,
        };
        let who = Box::new(args.first().map(|a| self.expr(a)).unwrap_or(Ex::Int(0)));
        match name.node.as_str() {
            "below" => Ex::Below(who, order),
            "next" => Ex::Next(who, order, true),
            "previous" => Ex::Next(who, order, false),
            _ => Ex::Position(who, order),
        }
    }

    /// `P(a, b)`: a param with arguments.
    fn param_call(&mut self, name: &ast::Ident, args: &[Expr]) -> Ex {
        let i = match self.d.lookup(&name.node) {
            Some(Sym::Param(i)) => i,
            _ => 0,
        };
        Ex::ParamCall(i, args.iter().map(|a| self.expr(a)).collect())
    }

    /// A built-in function: `highest`, `lowest` or `abs`.
    fn call(&mut self, e: &Expr, name: &ast::Ident, args: &[Expr]) -> Ex {
        let f = match name.node.as_str() {
            "highest" => Func::Highest,
            "lowest" => Func::Lowest,
            _ => Func::Abs,
        };
        Ex::Call(f, args.iter().map(|a| self.expr(a)).collect(), e.span)
    }

    /// A quantifier over a collection, its variable in its own slot. Takes the whole expression:
    /// its parts are many.
    fn quant(&mut self, e: &Expr) -> Ex {
        let ExprKind::Quant(q) = &e.node else {
            return Ex::Int(0);
        };
        let ast::QuantExpr {
            quant,
            var,
            coll,
            presence,
            filter,
            by,
            body,
        } = &**q;
        let slot = self.bind(&var.node);
        let filter = filter.as_ref().map(|f| Box::new(self.expr(f)));
        let body = body.as_ref().map(|b| Box::new(self.expr(b)));
        self.scopes.pop();
        Ex::Quant {
            quant: *quant,
            var: slot,
            coll: self.coll(coll),
            presence: *presence,
            filter,
            by: by.as_ref().map(|o| self.order_id(o)),
            body,
            span: e.span,
        }
    }
}
