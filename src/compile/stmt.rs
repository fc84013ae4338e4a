//! Lowering statements, and what they name: targets, refusals, collections, orders, choosers,
//! loops.

use super::{Lower, head};
use crate::check::Sym;
use crate::compile::ir::*;
use crate::syntax::ast::{self, Collection, CountAt, Expr, ExprKind, Loop, PlaceTo, Stmt};

impl Lower<'_> {
    /// A block; the names its `let` and `create ... as` bind end with it.
    pub(super) fn block(&mut self, b: &ast::Block) -> Vec<St> {
        let depth = self.scopes.len();
        let out = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.scopes.truncate(depth);
        out
    }

    pub(super) fn target(&mut self, t: &ast::Target) -> Target {
        let label = self.label(&t.field.node);
        Target {
            var: t.var.as_ref().map(|v| self.local(&v.node).unwrap_or(0)),
            field: self.field_at(&t.field),
            label,
        }
    }

    pub(super) fn refusals(&mut self, refusals: &[ast::Refusal]) -> Vec<RefusalDef> {
        refusals
            .iter()
            .map(|r| RefusalDef {
                cond: self.expr(&r.cond),
                message: r
                    .message
                    .iter()
                    .map(|part| match part {
                        ast::Part::Text(t) => Ok(t.clone()),
                        ast::Part::Name(e) => Err(self.expr(e)),
                    })
                    .collect(),
                span: r.span,
            })
            .collect()
    }

    pub(super) fn coll(&self, c: &Collection) -> Coll {
        match c {
            Collection::Characters => Coll::All(CHARACTER),
            Collection::Ranked(o) => match self.d.lookup(&o.node) {
                Some(Sym::Plural(t)) => Coll::All(t),
                _ => Coll::Ranked(self.order_id(o)),
            },
        }
    }

    pub(super) fn order_id(&self, o: &ast::Ident) -> OrderId {
        match self.d.lookup(&o.node) {
            Some(Sym::Order(i)) => i,
            _ => 0,
        }
    }

    pub(super) fn chooser(&mut self, e: &Expr) -> ChooserEx {
        if let ExprKind::Name(n) = &e.node
            && self.local(n).is_none()
            && let Some(Sym::Role(r)) = self.d.lookup(n)
        {
            return ChooserEx::Role(r);
        }
        ChooserEx::Character(self.expr(e))
    }

    pub(super) fn repeat(&mut self, r: &Loop) -> Repeat {
        match r {
            Loop::Once => Repeat::Once,
            Loop::Forever => Repeat::Forever,
            Loop::While(e) => Repeat::While(self.expr(e)),
            Loop::Until(e) => Repeat::Until(self.expr(e)),
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> St {
        match s {
            Stmt::Level {
                name,
                repeat,
                body,
                span,
                ..
            } => {
                let level = self.d.level_names.get(&name.node).copied().unwrap_or(0);
                St::Level {
                    level,
                    repeat: self.repeat(repeat),
                    body: self.block(body),
                    span: *span,
                }
            }
            Stmt::Turn { actor, body, span } => St::Turn {
                actor: self.expr(actor),
                body: self.block(body),
                span: *span,
            },
            Stmt::ForEach {
                var,
                coll,
                backwards,
                filter,
                order,
                body,
                span,
                from,
            } => {
                let order = order.as_ref().map(|o| self.order_id(o));
                let from = from.as_ref().map(|x| self.expr(x));
                let slot = self.bind(&var.node);
                let filter = filter.as_ref().map(|f| self.expr(f));
                let body = self.block(body);
                self.scopes.pop();
                St::ForEach {
                    var: slot,
                    coll: self.coll(coll),
                    backwards: *backwards,
                    from,
                    filter,
                    order,
                    body,
                    span: *span,
                }
            }
            Stmt::If {
                cond, then, otherwise, ..
            } => St::If {
                cond: self.expr(cond),
                then: self.block(then),
                otherwise: otherwise.as_ref().map(|o| self.block(o)).unwrap_or_default(),
            },
            Stmt::Choose {
                name,
                chooser,
                options,
                span,
            } => St::Choose {
                decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
                chooser: self.chooser(chooser),
                options: options
                    .iter()
                    .map(|o| OptionDef {
                        name: o.name.as_ref().and_then(|n| self.d.option_names.get(&n.node).copied()),
                        kinds: o.kinds.iter().filter_map(|k| self.d.kind(&k.node)).collect(),
                        using: o.using.as_ref().map(|u| self.field_id(&u.node)),
                        when: o.when.as_ref().map(|w| self.expr(w)),
                        refusals: self.refusals(&o.refusals),
                        body: self.block(&o.body),
                    })
                    .collect(),
                span: head(*span, chooser.span),
            },
            Stmt::End { level, reason, .. } => {
                let reason = reason.as_ref().map(|r| {
                    self.p.reasons.push(r.node.clone());
                    (self.p.reasons.len() - 1) as u16
                });
                St::End {
                    level: level.as_ref().and_then(|l| self.d.level_names.get(&l.node).copied()),
                    reason,
                }
            }
            Stmt::Spend { amount, target, span } => St::Spend {
                amount: amount.as_ref().map(|a| self.expr(a)),
                target: self.target(target),
                span: *span,
            },
            Stmt::Gain { amount, target, span } => St::Gain {
                amount: self.expr(amount),
                target: self.target(target),
                span: *span,
            },
            Stmt::Reset { target, value, span } => St::Reset {
                target: self.target(target),
                value: self.expr(value),
                span: *span,
            },
            Stmt::Forfeit { target, .. } => St::Forfeit {
                target: self.target(target),
            },
            Stmt::Set { target, value, span } => St::Set {
                target: self.target(target),
                value: self.expr(value),
                span: *span,
            },
            Stmt::Mark { target, on, .. } => St::Mark {
                target: self.target(target),
                on: *on,
            },
            Stmt::ChooseFrom {
                name,
                chooser,
                var,
                coll,
                filter,
                order,
                body,
                decline,
                refusals,
                span,
            } => {
                let decline = decline.as_deref().map(|(o, b)| {
                    let id = self.d.option_names.get(&o.node).copied().unwrap_or(0);
                    (id, self.block(b))
                });
                let chooser_span = chooser.span;
                let chooser = self.chooser(chooser);
                let slot = self.bind(&var.node);
                let filter = filter.as_ref().map(|f| self.expr(f));
                let refusals = self.refusals(refusals);
                let body = self.block(body);
                self.scopes.pop();
                St::ChooseFrom {
                    refusals,
                    decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
                    chooser,
                    var: slot,
                    coll: self.coll(coll),
                    filter,
                    order: order.as_ref().map(|o| self.order_id(o)),
                    body,
                    decline,
                    span: head(*span, chooser_span),
                }
            }
            Stmt::Repeat { repeat, body, span } => St::Repeat {
                repeat: self.repeat(repeat),
                body: self.block(body),
                span: *span,
            },
            Stmt::EndRepeat { .. } => St::EndRepeat,
            Stmt::Create {
                thing,
                fields,
                bind,
                span,
            } => {
                let fields = self.given(fields);
                St::Create {
                    thing: self.thing_id(thing),
                    fields,
                    bind: bind.as_ref().map(|b| self.bind(&b.node)),
                    span: *span,
                }
            }
            Stmt::Destroy { what, span } => St::Destroy {
                what: self.expr(what),
                span: *span,
            },
            Stmt::Let { name, value, .. } => {
                let value = self.expr(value);
                St::Let {
                    slot: self.bind(&name.node),
                    value,
                }
            }
            Stmt::Rank { order, .. } => St::Rank {
                order: self.order_id(order),
            },
            Stmt::Transfer { amount, from, to, span } => St::Transfer {
                amount: amount.as_ref().map(|a| self.expr(a)),
                from: self.target(from),
                to: self.target(to),
                span: *span,
            },
            Stmt::Raise { trigger, args, span } => St::Raise {
                trigger: match self.d.lookup(&trigger.node) {
                    Some(Sym::Trigger(i)) => i,
                    _ => 0,
                },
                args: args.iter().map(|a| self.expr(a)).collect(),
                span: *span,
            },
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => {
                let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().unwrap_or(0);
                let at = match at {
                    CountAt::Place(who, o) => CountEx::Place(self.expr(who), self.order_id(o)),
                    CountAt::TurnStart(who) => CountEx::TurnStart(self.expr(who)),
                    CountAt::TurnEnd(who) => CountEx::TurnEnd(self.expr(who)),
                    CountAt::LevelStart(l) => CountEx::LevelStart(level(l)),
                    CountAt::LevelEnd(l) => CountEx::LevelEnd(level(l)),
                };
                St::Begin {
                    effect: self.field_id(&effect.node),
                    target: self.expr(target),
                    count: self.expr(count),
                    at,
                    span: *span,
                }
            }
            Stmt::Stop { effect, target, .. } => St::Stop {
                effect: self.field_id(&effect.node),
                target: self.expr(target),
            },
            Stmt::Place { who, to, order, span } => St::Place {
                who: self.expr(who),
                to: match to {
                    PlaceTo::First => PlaceAt::First,
                    PlaceTo::Last => PlaceAt::Last,
                    PlaceTo::Before(x) => PlaceAt::Before(self.expr(x)),
                    PlaceTo::After(x) => PlaceAt::After(self.expr(x)),
                },
                order: self.order_id(order),
                span: *span,
            },
            Stmt::Do { routine, args, span } => St::Do {
                hook: match self.d.lookup(&routine.node) {
                    Some(Sym::Routine(i)) => self.p.routines.get(i as usize).copied().unwrap_or(0),
                    _ => 0,
                },
                args: args.iter().map(|a| self.expr(a)).collect(),
                span: *span,
            },
            Stmt::React { actor, body, .. } => St::React {
                actor: self.expr(actor),
                body: self.block(body),
            },
            Stmt::Elapse { amount, unit, span } => St::Elapse {
                amount: self.expr(amount),
                unit: self.d.unit(&unit.node).unwrap_or(0),
                span: *span,
            },
        }
    }
}
