//! The statements of timing that arm, give up and anchor: `ready`, `disarm`, and the edges
//! (`start|end of turn(x)|LEVEL`) a duration or an expiry is anchored to.

use super::Pair;

use super::{Builder, Parts, R, Rule, is_keyword, last_inner, next};
use crate::syntax::ast::*;

impl Builder {
    /// `ready OWNER on POINT [where C] [until EDGE] { ... }`.
    pub(super) fn ready_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let owner = self.expr(next(&mut it, span)?)?;
        let point = next(&mut it, span)?;
        let pspan = self.span(&point);
        let (on, vars) = match point.as_rule() {
            Rule::hook_trigger => {
                let mut pi = point.into_inner();
                let trigger = self.ident(next(&mut pi, pspan)?);
                let vars = self.ident_list(next(&mut pi, pspan)?);
                let on = match trigger.node.as_str() {
                    "join" => HookOn::Join,
                    "leave" => HookOn::Leave,
                    _ => HookOn::Trigger(trigger),
                };
                (on, vars)
            }
            edge => {
                let (sel, var) = self.hook_action(next(&mut it, span)?)?;
                let on = if edge == Rule::hook_after {
                    HookOn::ActionAfter(sel)
                } else {
                    HookOn::ActionBefore(sel)
                };
                (on, vec![var])
            }
        };
        let (mut filter, mut until, mut body) = (None, None, Block::default());
        for p in it {
            match p.as_rule() {
                Rule::ready_until => {
                    let uspan = self.span(&p);
                    until = Some(self.count_edge_at(last_inner(p, uspan)?)?);
                }
                Rule::block => body = self.block(p)?,
                _ => filter = Some(self.expr(p)?),
            }
        }
        Ok(Stmt::Ready(Box::new(Ready {
            owner,
            on,
            vars,
            filter,
            until,
            body,
            span,
        })))
    }

    /// `disarm OWNER [on POINT]`.
    pub(super) fn disarm_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let owner = self.expr(next(&mut it, span)?)?;
        let on = match it.next() {
            None => None,
            Some(point) => {
                let pspan = self.span(&point);
                let mut pi = point.into_inner().peekable();
                let first = next(&mut pi, pspan)?;
                match first.as_rule() {
                    Rule::hook_after | Rule::hook_before => {
                        let after = first.as_rule() == Rule::hook_after;
                        let mut sel = ActionSel::Any;
                        for p in pi {
                            match p.as_rule() {
                                Rule::of_kind => sel = self.of_kind(p)?,
                                Rule::ident => sel = ActionSel::Named(self.ident(p)),
                                _ => {}
                            }
                        }
                        Some(if after {
                            HookOn::ActionAfter(sel)
                        } else {
                            HookOn::ActionBefore(sel)
                        })
                    }
                    _ => {
                        let name = self.ident(first);
                        Some(match name.node.as_str() {
                            "join" => HookOn::Join,
                            "leave" => HookOn::Leave,
                            _ => HookOn::Trigger(name),
                        })
                    }
                }
            }
        };
        Ok(Stmt::Disarm { owner, on, span })
    }

    /// `start|end of turn(x)|LEVEL`: an edge a duration or an expiry is anchored to.
    pub(super) fn count_edge_at(&self, pair: Pair) -> R<CountAt> {
        let aspan = self.span(&pair);
        let mut ai = pair
            .into_inner()
            .filter(|p| !is_keyword(p.as_rule()) && p.as_rule() != Rule::until_next);
        let start = next(&mut ai, aspan)?.as_rule() == Rule::hook_start;
        let what = next(&mut ai, aspan)?;
        Ok(if what.as_rule() == Rule::count_turn {
            let wspan = self.span(&what);
            let who = self.expr(last_inner(what, wspan)?)?;
            if start {
                CountAt::TurnStart(who)
            } else {
                CountAt::TurnEnd(who)
            }
        } else {
            let level = self.ident(what);
            if start {
                CountAt::LevelStart(level)
            } else {
                CountAt::LevelEnd(level)
            }
        })
    }
}
