//! Statements and blocks, and the `{...}` parts of refusal messages.

use pest::Parser as _;

use super::{Builder, Grammar, Pair, Pairs, Parts, R, Rule, internal, is_keyword, last_inner, next, parts};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Builder {
    fn refusal(&self, pair: Pair) -> R<Refusal> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let cond = self.expr(next(&mut it, span)?)?;
        self.reason(cond, next(&mut it, span)?, span)
    }

    /// A refusal of `cond` whose reason is the string `text` (its `{...}` parts read in place).
    pub(super) fn reason(&self, cond: Expr, text: Pair, span: Span) -> R<Refusal> {
        let inner = text.into_inner().next().ok_or_else(|| internal(span, Rule::string))?;
        let base = self.offset + inner.as_span().start();
        Ok(Refusal {
            cond,
            message: self.message(inner.as_str(), base)?,
            span,
        })
    }

    /// Splits `text {expr} text` into parts, parsing each `{...}` as an expression in place.
    fn message(&self, text: &str, base: usize) -> R<Vec<Part>> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut at = base;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                return Err(Diag::new("syntax::message", "a `{` in this message is never closed")
                    .label(Span::new(self.file, at + open, at + rest.len()), "opened here")
                    .help("write `{c}` to fill in a character's name, with a closing `}`"));
            };
            let inner = &after[..close];
            let start = at + open + 1;
            let sub = Builder {
                file: self.file,
                offset: start,
                lean: self.lean,
            };
            super::bounds::check_nesting_at(inner, self.file, start)?;
            let read = match self.lean {
                true => super::lean::Lean::parse(Rule::expr, inner),
                false => Grammar::parse(Rule::expr, inner).ok().map(super::node::queue_of),
            };
            let queue = read.ok_or_else(|| {
                Diag::new("syntax::message", format!("`{inner}` is not an expression"))
                    .label(Span::new(self.file, start, start + inner.len()), "inside `{...}`")
                    .help("put a character expression between the braces, such as `{c}`")
            })?;
            let pair = Pairs::new(inner, &queue)
                .next()
                .ok_or_else(|| internal(Span::new(self.file, start, start), Rule::expr))?;
            if pair.as_str().len() != inner.len() {
                return Err(Diag::new("syntax::message", format!("`{inner}` is not an expression"))
                    .label(Span::new(self.file, start, start + inner.len()), "inside `{...}`")
                    .help("put a character expression between the braces, such as `{c}`"));
            }
            parts.push(Part::Name(sub.expr(pair)?));
            rest = &after[close + 1..];
            at = start + close + 1;
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(parts)
    }

    pub(super) fn block(&self, pair: Pair) -> R<Block> {
        let span = self.span(&pair);
        let stmts = pair.into_inner().map(|p| self.stmt(p)).collect::<R<Vec<_>>>()?;
        Ok(Block { stmts, span })
    }

    fn repeat(&self, pair: Pair) -> R<Loop> {
        let span = self.span(&pair);
        match pair.into_inner().find(|p| !is_keyword(p.as_rule())) {
            None => Ok(Loop::Forever),
            Some(p) => {
                let r = p.as_rule();
                let e = self.expr(last_inner(p, span)?)?;
                Ok(if r == Rule::repeat_while {
                    Loop::While(e)
                } else {
                    Loop::Until(e)
                })
            }
        }
    }

    fn target(&self, pair: Pair) -> R<Target> {
        let span = self.span(&pair);
        let mut it = pair.into_inner();
        let first = next(&mut it, span)?;
        let mut fields: Vec<Ident> = it.map(|f| self.ident(f)).collect();
        let last = fields.pop();
        // The owner: a parenthesized expression, an entity named in quotes (as in expressions:
        // `"Big Bob".hp`) or a variable, each followed by all but the last field.
        let through = |e: Expr, fields: Vec<Ident>| {
            fields.into_iter().fold(e, |e, f| {
                let fspan = Span {
                    file: e.span.file,
                    start: e.span.start,
                    end: f.span.end,
                };
                Spanned::new(ExprKind::Field(Box::new(e), f), fspan)
            })
        };
        let (var, base) = match first.as_rule() {
            Rule::target_paren => {
                let fspan = self.span(&first);
                let e = self.expr(last_inner(first, fspan)?)?;
                (None, Some(Box::new(through(e, fields))))
            }
            Rule::entity_name => {
                let nspan = self.span(&first);
                let text = self.string(next(&mut first.into_inner(), nspan)?);
                let e = Spanned::new(ExprKind::Name(text.node), nspan);
                (None, Some(Box::new(through(e, fields))))
            }
            _ => {
                let v = self.ident(first);
                match fields.is_empty() {
                    true => (Some(v), None),
                    false => {
                        let e = Spanned::new(ExprKind::Name(v.node.clone()), v.span);
                        (None, Some(Box::new(through(e, fields))))
                    }
                }
            }
        };
        Ok(match (last, var, base) {
            (Some(field), var, base) => Target { var, base, field, span },
            // A bare name: a global.
            (None, Some(v), None) => Target {
                var: None,
                base: None,
                field: v,
                span,
            },
            (None, _, _) => {
                return Err(Diag::new(
                    "syntax::parse",
                    "a parenthesized expression or a quoted name needs a field: `(EXPR).FIELD`, `\"NAME\".FIELD`",
                )
                .label(span, "which field?")
                .help("write the field after it, e.g. `(first x in cards where x.up).fast`"));
            }
        })
    }

    fn stmt(&self, pair: Pair) -> R<Stmt> {
        // `... at end of moment|LEVEL`: the change statement, deferred.
        let deferrable = matches!(
            pair.as_rule(),
            Rule::spend_stmt
                | Rule::gain_stmt
                | Rule::reset_stmt
                | Rule::forfeit_stmt
                | Rule::set_stmt
                | Rule::mark_stmt
                | Rule::clear_stmt
                | Rule::transfer_stmt
                | Rule::join_stmt
                | Rule::leave_stmt
                | Rule::destroy_stmt
                | Rule::stop_stmt
                | Rule::begin_stmt
        );
        let at_end = match deferrable {
            true => pair.clone().into_inner().last().filter(|p| p.as_rule() == Rule::at_end),
            false => None,
        };
        let span = self.span(&pair);
        let stmt = self.plain_stmt(pair)?;
        let Some(at_end) = at_end else {
            return Ok(stmt);
        };
        let at = self.span(&at_end);
        let what = last_inner(at_end, at)?;
        let level = (what.as_rule() == Rule::level_name).then(|| self.ident(what));
        Ok(Stmt::Deferred(Box::new(Deferred { stmt, level, at, span })))
    }

    fn plain_stmt(&self, pair: Pair) -> R<Stmt> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut it = parts(pair);
        // One arm per statement: each is a one-line call or a short constructor.
        Ok(match rule {
            Rule::level_stmt | Rule::phase_stmt | Rule::round_stmt => self.level_stmt(it, span, rule)?,
            Rule::create_stmt => self.create_stmt(it, span)?,
            Rule::shuffle_stmt => {
                let first = next(&mut it, span)?;
                let op = match first.as_rule() {
                    Rule::shuffle_card => {
                        let fspan = self.span(&first);
                        let card = self.expr(last_inner(first, fspan)?)?;
                        CardOp::ShuffleIn(card, self.deck_ref(next(&mut it, span)?)?)
                    }
                    _ => CardOp::Shuffle(self.deck_ref(first)?),
                };
                Stmt::Cards { op, span }
            }
            Rule::take_stmt => Stmt::Cards {
                op: CardOp::Take(self.expr(next(&mut it, span)?)?, self.deck_ref(next(&mut it, span)?)?),
                span,
            },
            Rule::draw_stmt => {
                let deck = self.deck_ref(next(&mut it, span)?)?;
                let (mut by, mut bind) = (None, None);
                for p in it {
                    match p.as_rule() {
                        Rule::ident => bind = Some(self.ident(p)),
                        _ => by = Some(self.expr(p)?),
                    }
                }
                Stmt::Cards {
                    op: CardOp::Draw { deck, by, bind },
                    span,
                }
            }
            Rule::discard_stmt => Stmt::Cards {
                op: CardOp::Discard(self.expr(next(&mut it, span)?)?),
                span,
            },
            Rule::return_stmt => Stmt::Cards {
                op: CardOp::Return(self.expr(next(&mut it, span)?)?, self.deck_ref(next(&mut it, span)?)?),
                span,
            },
            Rule::destroy_stmt => Stmt::Destroy {
                what: self.expr(next(&mut it, span)?)?,
                span,
            },
            Rule::let_stmt => self.let_stmt(it, span)?,
            Rule::roll_as_stmt | Rule::remove_stmt => self.pool_stmt(rule, it, span)?,
            Rule::turn_stmt => self.turn_stmt(it, span)?,
            Rule::for_stmt => self.for_stmt(it, span)?,
            Rule::if_stmt => self.if_stmt(it, span)?,
            Rule::choose_stmt => self.choose_stmt(it, span)?,
            Rule::end_stmt => self.end_stmt(it, span)?,
            Rule::spend_stmt => self.spend_stmt(it, span)?,
            Rule::gain_stmt => self.gain_stmt(it, span)?,
            Rule::reset_stmt => self.reset_stmt(it, span)?,
            Rule::forfeit_stmt => Stmt::Forfeit {
                target: self.target(next(&mut it, span)?)?,
                span,
            },
            Rule::set_stmt => self.set_stmt(it, span)?,
            Rule::mark_stmt => Stmt::Mark {
                target: self.target(next(&mut it, span)?)?,
                on: true,
                span,
            },
            Rule::clear_stmt => Stmt::Mark {
                target: self.target(next(&mut it, span)?)?,
                on: false,
                span,
            },
            Rule::repeat_stmt => self.repeat_stmt(it, span)?,
            Rule::join_stmt | Rule::leave_stmt => Stmt::Presence {
                who: self.expr(next(&mut it, span)?)?,
                join: rule == Rule::join_stmt,
                span,
            },
            Rule::rank_stmt => Stmt::Rank {
                order: self.ident(next(&mut it, span)?),
                filter: it.next().map(|f| self.expr(f)).transpose()?,
                span,
            },
            Rule::transfer_stmt => self.transfer_stmt(it, span)?,
            Rule::raise_stmt => self.raise_stmt(it, span)?,
            Rule::begin_stmt => self.begin_stmt(it, span)?,
            Rule::stop_stmt => self.stop_stmt(it, span)?,
            Rule::reveal_stmt => {
                let all = it.peek().is_some_and(|p| p.as_rule() == Rule::reveal_all);
                if all {
                    next(&mut it, span)?;
                }
                Stmt::Reveal {
                    decision: self.ident(next(&mut it, span)?),
                    chooser: self.expr(next(&mut it, span)?)?,
                    all,
                    span,
                }
            }
            Rule::place_stmt => self.place_stmt(it, span)?,
            Rule::swap_stmt => Stmt::Place {
                who: self.expr(next(&mut it, span)?)?,
                to: Box::new(PlaceTo::Swap(self.expr(next(&mut it, span)?)?)),
                order: self.ident(next(&mut it, span)?),
                span,
            },
            Rule::do_stmt => self.do_stmt(it, span)?,
            Rule::give_stmt => self.give_stmt(it, span)?,
            Rule::react_stmt => self.react_stmt(it, span)?,
            Rule::ready_stmt => self.ready_stmt(it, span)?,
            Rule::disarm_stmt => self.disarm_stmt(it, span)?,
            Rule::elapse_stmt => self.elapse_stmt(it, span)?,
            Rule::moment_stmt => Stmt::Moment {
                body: self.block(next(&mut it, span)?)?,
                span,
            },
            Rule::pick_stmt => self.pick_stmt(it, span)?,
            _ => return Err(internal(span, rule)),
        })
    }

    /// `counting from A [down] [to B | within LO to HI]`.
    fn counting(&self, pair: Pair) -> R<Counting> {
        let span = self.span(&pair);
        let mut it = parts(pair);
        let from = self.expr(next(&mut it, span)?)?;
        let mut c = Counting {
            from,
            down: false,
            to: None,
            within: None,
        };
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::count_down => c.down = true,
                Rule::count_to => c.to = Some(self.expr(last_inner(p, pspan)?)?),
                _ => {
                    let mut wi = parts(p);
                    let lo = self.expr(next(&mut wi, pspan)?)?;
                    let hi = self.expr(next(&mut wi, pspan)?)?;
                    c.within = Some((lo, hi));
                }
            }
        }
        Ok(c)
    }

    fn level_stmt(&self, mut it: Parts<'_>, span: Span, rule: Rule) -> R<Stmt> {
        let kind = match rule {
            Rule::level_stmt => LevelKind::Level,
            Rule::phase_stmt => LevelKind::Phase,
            _ => LevelKind::Round,
        };
        let name = match it.peek() {
            Some(p) if p.as_rule() == Rule::level_name => self.ident(next(&mut it, span)?),
            _ => Spanned::new(
                "round".to_string(),
                Span::new(self.file, span.start as usize, span.start as usize + 5),
            ),
        };
        let mut repeat = Loop::Once;
        let mut body = Block::default();
        let mut counting = None;
        for p in it {
            match p.as_rule() {
                Rule::repeat => repeat = self.repeat(p)?,
                Rule::counting => counting = Some(Box::new(self.counting(p)?)),
                _ => body = self.block(p)?,
            }
        }
        Ok(Stmt::Level {
            kind,
            name,
            counting,
            repeat,
            body,
            span,
        })
    }

    fn create_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let thing = self.ident(next(&mut it, span)?);
        let mut fields = Vec::new();
        let mut bind = None;
        for p in it {
            if p.as_rule() == Rule::ident {
                bind = Some(self.ident(p));
            } else {
                fields.push(self.field_value(p)?);
            }
        }
        Ok(Stmt::Create {
            thing,
            fields,
            bind,
            span,
        })
    }

    fn let_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let name = self.ident(next(&mut it, span)?);
        let ty = self.of_type(&mut it);
        Ok(Stmt::Let {
            name,
            ty,
            value: self.expr(next(&mut it, span)?)?,
            span,
        })
    }

    fn turn_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let actor = self.expr(next(&mut it, span)?)?;
        Ok(Stmt::Turn {
            actor,
            body: self.block(next(&mut it, span)?)?,
            span,
        })
    }

    fn for_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let together = it.peek().is_some_and(|p| p.as_rule() == Rule::together);
        if together {
            next(&mut it, span)?;
        }
        let var = self.ident(next(&mut it, span)?);
        if let Some(range) = it.next_if(|p| p.as_rule() == Rule::count_range) {
            return self.count_stmt(together, var, range, it, span);
        }
        let coll = self.collection(next(&mut it, span)?)?;
        let (mut filter, mut order, mut body, mut backwards) = (None, None, Block::default(), false);
        let (mut from, mut anew, mut ties, mut presence) = (None, false, false, Presence::InPlay);
        for p in it {
            match p.as_rule() {
                Rule::presence => presence = Self::presence(p),
                Rule::anew => anew = true,
                Rule::ties_together => ties = true,
                Rule::expr => filter = Some(self.expr(p)?),
                Rule::ident => order = Some(self.ident(p)),
                Rule::backwards => backwards = true,
                Rule::walk_from => {
                    let wspan = self.span(&p);
                    from = Some(self.expr(last_inner(p, wspan)?)?);
                }
                _ => body = self.block(p)?,
            }
        }
        Ok(Stmt::ForEach(Box::new(ForEach {
            together,
            anew,
            ties,
            again: false,
            var,
            coll,
            presence,
            backwards,
            from,
            filter,
            order,
            body,
            span,
        })))
    }

    /// `repeat for first c in COLL [where C] by ORDER { ... }`: a walk that picks again.
    fn pick_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let var = self.ident(next(&mut it, span)?);
        let coll = self.collection(next(&mut it, span)?)?;
        let (mut filter, mut order, mut body, mut presence) = (None, None, Block::default(), Presence::InPlay);
        for p in it {
            match p.as_rule() {
                Rule::presence => presence = Self::presence(p),
                Rule::expr => filter = Some(self.expr(p)?),
                Rule::ident => order = Some(self.ident(p)),
                _ => body = self.block(p)?,
            }
        }
        Ok(Stmt::ForEach(Box::new(ForEach {
            together: false,
            anew: false,
            ties: false,
            again: true,
            var,
            coll,
            presence,
            backwards: false,
            from: None,
            filter,
            order,
            body,
            span,
        })))
    }

    fn if_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let cond = self.expr(next(&mut it, span)?)?;
        let then = self.block(next(&mut it, span)?)?;
        let otherwise = match it.next() {
            None => None,
            Some(p) if p.as_rule() == Rule::block => Some(self.block(p)?),
            Some(p) => {
                let s = self.span(&p);
                Some(Block {
                    stmts: vec![self.stmt(p)?],
                    span: s,
                })
            }
        };
        Ok(Stmt::If {
            cond,
            then,
            otherwise,
            span,
        })
    }

    fn choose_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let name = self.ident(next(&mut it, span)?);
        let chooser = self.expr(next(&mut it, span)?)?;
        let secret = it.peek().is_some_and(|p| p.as_rule() == Rule::in_secret);
        let mut held = false;
        if secret {
            let s = next(&mut it, span)?;
            held = s.into_inner().any(|p| p.as_rule() == Rule::held_secret);
        }
        if it.peek().is_some_and(|p| p.as_rule() == Rule::choose_from) {
            let from = next(&mut it, span)?;
            return self.choose_from((name, chooser, (secret, held)), from, span);
        }
        let options = it.map(|o| self.option(o)).collect::<R<Vec<_>>>()?;
        Ok(Stmt::Choose {
            secret,
            held,
            name,
            chooser,
            options,
            span,
        })
    }

    /// `choose NAME by WHO from c in COLLECTION ...`: the rest of the statement, from `from`.
    fn choose_from(
        &self,
        (name, chooser, (secret, held)): (Ident, Expr, (bool, bool)),
        from: Pair,
        span: Span,
    ) -> R<Stmt> {
        let fspan = self.span(&from);
        let mut fi = from.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let var = self.ident(next(&mut fi, fspan)?);
        let coll = self.collection(next(&mut fi, fspan)?)?;
        let (mut filter, mut order, mut body, mut decline) = (None, None, Block::default(), None);
        let (mut refusals, mut bind) = (Vec::new(), None);
        let mut presence = Presence::InPlay;
        for p in fi {
            match p.as_rule() {
                Rule::presence => presence = Self::presence(p),
                Rule::pick_as => bind = Some(self.ident(last_inner(p, fspan)?)),
                Rule::expr => filter = Some(self.expr(p)?),
                Rule::refusal => refusals.push(self.refusal(p)?),
                Rule::ident => order = Some(self.ident(p)),
                Rule::decline => {
                    let dspan = self.span(&p);
                    let mut di = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    let option = self.ident(next(&mut di, dspan)?);
                    let mut refusals = Vec::new();
                    let mut block = Block {
                        stmts: Vec::new(),
                        span: dspan,
                    };
                    for part in di {
                        match part.as_rule() {
                            Rule::refusal => refusals.push(self.refusal(part)?),
                            _ => block = self.block(part)?,
                        }
                    }
                    decline = Some(Box::new(Decline {
                        option,
                        refusals,
                        block,
                    }));
                }
                _ => body = self.block(p)?,
            }
        }
        Ok(Stmt::ChooseFrom(Box::new(ChooseFrom {
            secret,
            held,
            bind,
            name,
            chooser,
            var,
            coll,
            presence,
            filter,
            order,
            body,
            decline,
            refusals,
            span,
        })))
    }

    /// One `option` of a `choose`.
    fn option(&self, o: Pair) -> R<OptionDecl> {
        let ospan = self.span(&o);
        let mut opt = OptionDecl {
            name: None,
            kinds: Vec::new(),
            using: None,
            when: None,
            refusals: Vec::new(),
            body: Block {
                stmts: vec![],
                span: ospan,
            },
            span: ospan,
        };
        for p in o.into_inner().filter(|p| !is_keyword(p.as_rule())) {
            match p.as_rule() {
                Rule::ident => opt.name = Some(self.ident(p)),
                Rule::action_option => {
                    for q in p.into_inner().filter(|p| !is_keyword(p.as_rule())) {
                        let qspan = self.span(&q);
                        let r = q.as_rule();
                        let last = last_inner(q, qspan)?;
                        if r == Rule::of_kind {
                            opt.kinds = self.ident_list(last);
                        } else {
                            opt.using = Some(self.ident(last));
                        }
                    }
                }
                Rule::expr => opt.when = Some(self.expr(p)?),
                Rule::refusal => opt.refusals.push(self.refusal(p)?),
                _ => opt.body = self.block(p)?,
            }
        }
        Ok(opt)
    }

    fn end_stmt(&self, it: Parts<'_>, span: Span) -> R<Stmt> {
        let mut level = None;
        let mut reason = None;
        for p in it {
            match p.as_rule() {
                Rule::level_name => level = Some(self.ident(p)),
                Rule::string => reason = Some(self.string(p)),
                Rule::end_repeat => return Ok(Stmt::EndRepeat { span }),
                _ => {}
            }
        }
        Ok(Stmt::End { level, reason, span })
    }

    fn spend_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let a = next(&mut it, span)?;
        let amount = if a.as_rule() == Rule::spend_all {
            None
        } else {
            Some(self.expr(a)?)
        };
        Ok(Stmt::Spend {
            amount,
            target: self.target(next(&mut it, span)?)?,
            span,
        })
    }

    fn gain_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let amount = self.expr(next(&mut it, span)?)?;
        Ok(Stmt::Gain {
            amount,
            target: self.target(next(&mut it, span)?)?,
            span,
        })
    }

    fn reset_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let target = self.target(next(&mut it, span)?)?;
        Ok(Stmt::Reset {
            target,
            value: self.expr(next(&mut it, span)?)?,
            span,
        })
    }

    fn set_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let target = self.target(next(&mut it, span)?)?;
        Ok(Stmt::Set {
            target,
            value: self.expr(next(&mut it, span)?)?,
            span,
        })
    }

    fn repeat_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let repeat = self.repeat(next(&mut it, span)?)?;
        Ok(Stmt::Repeat {
            repeat,
            body: self.block(next(&mut it, span)?)?,
            span,
        })
    }

    fn transfer_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let a = next(&mut it, span)?;
        let amount = if a.as_rule() == Rule::spend_all {
            None
        } else {
            Some(self.expr(a)?)
        };
        let from = self.target(next(&mut it, span)?)?;
        Ok(Stmt::Transfer(Box::new(Transfer {
            amount,
            from,
            to: self.target(next(&mut it, span)?)?,
            span,
        })))
    }

    fn raise_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let trigger = self.ident(next(&mut it, span)?);
        Ok(Stmt::Raise {
            trigger,
            args: it.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?,
            span,
        })
    }

    fn begin_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let effect = self.ident(next(&mut it, span)?);
        let target = self.expr(next(&mut it, span)?)?;
        let first = next(&mut it, span)?;
        let (count, at_pair) = match first.as_rule() {
            Rule::count_until => {
                let uspan = self.span(&first);
                let next_of = first.clone().into_inner().any(|p| p.as_rule() == Rule::until_next);
                let lasting = Lasting::Until {
                    next: next_of,
                    span: uspan,
                };
                (lasting, first)
            }
            _ => (Lasting::For(self.expr(first)?), next(&mut it, span)?),
        };
        let at = if at_pair.as_rule() == Rule::count_place {
            let aspan = self.span(&at_pair);
            let mut ai = at_pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
            let who = self.expr(next(&mut ai, aspan)?)?;
            CountAt::Place(who, self.ident(next(&mut ai, aspan)?))
        } else {
            self.count_edge_at(at_pair)?
        };
        Ok(Stmt::Begin {
            effect,
            target,
            count: Box::new(count),
            at: Box::new(at),
            span,
        })
    }

    fn stop_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let effect = self.ident(next(&mut it, span)?);
        Ok(Stmt::Stop {
            effect,
            target: self.expr(next(&mut it, span)?)?,
            span,
        })
    }

    fn place_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let who = self.expr(next(&mut it, span)?)?;
        let how = next(&mut it, span)?;
        let to = match how.as_rule() {
            Rule::place_first => PlaceTo::First,
            Rule::place_last => PlaceTo::Last,
            Rule::place_before => PlaceTo::Before(self.expr(next(&mut it, span)?)?),
            _ => PlaceTo::After(self.expr(next(&mut it, span)?)?),
        };
        Ok(Stmt::Place {
            who,
            to: Box::new(to),
            order: self.ident(next(&mut it, span)?),
            span,
        })
    }

    fn do_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let routine = self.ident(next(&mut it, span)?);
        Ok(Stmt::Do {
            routine,
            args: it.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?,
            span,
        })
    }

    fn react_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let actor = self.expr(next(&mut it, span)?)?;
        Ok(Stmt::React {
            actor,
            body: self.block(next(&mut it, span)?)?,
            span,
        })
    }

    fn elapse_stmt(&self, mut it: Parts<'_>, span: Span) -> R<Stmt> {
        let amount = self.expr(next(&mut it, span)?)?;
        Ok(Stmt::Elapse {
            amount,
            unit: self.ident(next(&mut it, span)?),
            span,
        })
    }
}
