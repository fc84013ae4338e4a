//! [`Relabel`] for statements and expressions (see `relabel.rs`).

use super::Relabel;
use crate::syntax::ast::*;

impl Relabel for Stmt {
    fn relabel(&mut self, to: FileId) {
        match self {
            Stmt::Level {
                kind,
                name,
                counting,
                repeat,
                body,
                span,
            } => {
                kind.relabel(to);
                name.relabel(to);
                counting.relabel(to);
                repeat.relabel(to);
                body.relabel(to);
                span.relabel(to);
            }
            Stmt::Turn { actor, body, span } | Stmt::React { actor, body, span } => {
                actor.relabel(to);
                body.relabel(to);
                span.relabel(to);
            }
            Stmt::ForEach(f) => f.relabel(to),
            Stmt::If {
                cond,
                then,
                otherwise,
                span,
            } => {
                cond.relabel(to);
                then.relabel(to);
                otherwise.relabel(to);
                span.relabel(to);
            }
            Stmt::Choose {
                secret,
                held,
                name,
                chooser,
                options,
                span,
            } => {
                secret.relabel(to);
                held.relabel(to);
                name.relabel(to);
                chooser.relabel(to);
                options.relabel(to);
                span.relabel(to);
            }
            Stmt::ChooseFrom(c) => c.relabel(to),
            Stmt::Repeat { repeat, body, span } => {
                repeat.relabel(to);
                body.relabel(to);
                span.relabel(to);
            }
            Stmt::EndRepeat { span } => span.relabel(to),
            Stmt::Create {
                thing,
                fields,
                bind,
                span,
            } => {
                thing.relabel(to);
                fields.relabel(to);
                bind.relabel(to);
                span.relabel(to);
            }
            Stmt::Cards { op, span } => {
                op.relabel(to);
                span.relabel(to);
            }
            Stmt::Presence { who, join, span } => {
                who.relabel(to);
                join.relabel(to);
                span.relabel(to);
            }
            Stmt::Destroy { what, span } => {
                what.relabel(to);
                span.relabel(to);
            }
            Stmt::Pool(p) => p.relabel(to),
            Stmt::Let { name, ty, value, span } => {
                name.relabel(to);
                ty.relabel(to);
                value.relabel(to);
                span.relabel(to);
            }
            Stmt::Rank { order, filter, span } => {
                order.relabel(to);
                filter.relabel(to);
                span.relabel(to);
            }
            Stmt::Transfer(t) => t.relabel(to),
            Stmt::Raise {
                trigger: name,
                args,
                span,
            }
            | Stmt::Do {
                routine: name,
                args,
                span,
            } => {
                name.relabel(to);
                args.relabel(to);
                span.relabel(to);
            }
            Stmt::Place {
                who,
                to: place,
                order,
                span,
            } => {
                who.relabel(to);
                place.relabel(to);
                order.relabel(to);
                span.relabel(to);
            }
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => {
                effect.relabel(to);
                target.relabel(to);
                count.relabel(to);
                at.relabel(to);
                span.relabel(to);
            }
            Stmt::Stop { effect, target, span } => {
                effect.relabel(to);
                target.relabel(to);
                span.relabel(to);
            }
            Stmt::Reveal {
                decision,
                chooser,
                all,
                span,
            } => {
                decision.relabel(to);
                chooser.relabel(to);
                all.relabel(to);
                span.relabel(to);
            }
            Stmt::Count(c) => c.relabel(to),
            Stmt::Give { value, span } => {
                value.relabel(to);
                span.relabel(to);
            }
            Stmt::Ready(r) => r.relabel(to),
            Stmt::Disarm { owner, on, span } => {
                owner.relabel(to);
                on.relabel(to);
                span.relabel(to);
            }
            Stmt::Elapse { amount, unit, span } => {
                amount.relabel(to);
                unit.relabel(to);
                span.relabel(to);
            }
            Stmt::End { level, reason, span } => {
                level.relabel(to);
                reason.relabel(to);
                span.relabel(to);
            }
            Stmt::Spend { amount, target, span } => {
                amount.relabel(to);
                target.relabel(to);
                span.relabel(to);
            }
            Stmt::Gain { amount, target, span } => {
                amount.relabel(to);
                target.relabel(to);
                span.relabel(to);
            }
            Stmt::Reset { target, value, span } | Stmt::Set { target, value, span } => {
                target.relabel(to);
                value.relabel(to);
                span.relabel(to);
            }
            Stmt::Forfeit { target, span } => {
                target.relabel(to);
                span.relabel(to);
            }
            Stmt::Mark { target, on, span } => {
                target.relabel(to);
                on.relabel(to);
                span.relabel(to);
            }
            Stmt::Record {
                measure,
                value,
                about,
                span,
            } => {
                measure.relabel(to);
                value.relabel(to);
                about.relabel(to);
                span.relabel(to);
            }
            Stmt::Moment { body, span } => {
                body.relabel(to);
                span.relabel(to);
            }
            Stmt::Deferred(d) => d.relabel(to),
        }
    }
}

impl Relabel for ExprKind {
    fn relabel(&mut self, to: FileId) {
        match self {
            ExprKind::Int(n) => n.relabel(to),
            ExprKind::Dec(digits, places) => {
                digits.relabel(to);
                places.relabel(to);
            }
            ExprKind::Bool(b) => b.relabel(to),
            ExprKind::Dice(d) => d.relabel(to),
            ExprKind::DynDice(d) => d.relabel(to),
            ExprKind::FaceDice(d) => d.relabel(to),
            ExprKind::Name(name) => name.relabel(to),
            ExprKind::Field(e, field) | ExprKind::Is(e, field) => {
                e.relabel(to);
                field.relabel(to);
            }
            ExprKind::Unary(op, e) => {
                op.relabel(to);
                e.relabel(to);
            }
            ExprKind::Binary(op, a, b) => {
                op.relabel(to);
                a.relabel(to);
                b.relabel(to);
            }
            ExprKind::Call(name, args) => {
                name.relabel(to);
                args.relabel(to);
            }
            ExprKind::Quant(q) => q.relabel(to),
            ExprKind::None => {}
            ExprKind::If(c, a, b) => {
                c.relabel(to);
                a.relabel(to);
                b.relabel(to);
            }
            ExprKind::Faces(f) => f.relabel(to),
        }
    }
}

impl Relabel for Dice {
    fn relabel(&mut self, to: FileId) {
        let Dice {
            count,
            sides,
            keep,
            faces,
            explode,
        } = self;
        count.relabel(to);
        sides.relabel(to);
        keep.relabel(to);
        // An index into the program's face lists (none when parsed), not a file.
        let _: &mut Option<u16> = faces;
        explode.relabel(to);
    }
}

impl Relabel for FaceDice {
    fn relabel(&mut self, to: FileId) {
        let FaceDice {
            count,
            faces,
            keep,
            explode,
        } = self;
        count.relabel(to);
        faces.relabel(to);
        keep.relabel(to);
        explode.relabel(to);
    }
}

impl Relabel for DynDice {
    fn relabel(&mut self, to: FileId) {
        let DynDice {
            count,
            sides,
            keep,
            faces,
            explode,
        } = self;
        count.relabel(to);
        sides.relabel(to);
        keep.relabel(to);
        faces.relabel(to);
        explode.relabel(to);
    }
}

impl Relabel for QuantExpr {
    fn relabel(&mut self, to: FileId) {
        let QuantExpr {
            quant,
            var,
            coll,
            presence,
            filter,
            by,
            body,
        } = self;
        quant.relabel(to);
        var.relabel(to);
        coll.relabel(to);
        presence.relabel(to);
        filter.relabel(to);
        by.relabel(to);
        body.relabel(to);
    }
}

impl Relabel for PoolStmt {
    fn relabel(&mut self, to: FileId) {
        let PoolStmt { op, span } = self;
        op.relabel(to);
        span.relabel(to);
    }
}

impl Relabel for PoolOp {
    fn relabel(&mut self, to: FileId) {
        match self {
            PoolOp::RollAs { dice, name } => {
                dice.relabel(to);
                name.relabel(to);
            }
            PoolOp::Remove { face, pool } => {
                face.relabel(to);
                pool.relabel(to);
            }
        }
    }
}

impl Relabel for FacesQuant {
    fn relabel(&mut self, to: FileId) {
        let FacesQuant {
            quant,
            var,
            dice,
            filter,
            body,
        } = self;
        quant.relabel(to);
        var.relabel(to);
        dice.relabel(to);
        filter.relabel(to);
        body.relabel(to);
    }
}
