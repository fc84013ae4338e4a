//! Lowering statements, and what they name: targets, refusals, collections, orders, choosers,
//! loops.

use super::{Lower, head};
use crate::check::Sym;
use crate::compile::ir::*;
use crate::syntax::ast::{self, Collection, CountAt, Expr, ExprKind, Loop, PlaceTo, Stmt};

impl Lower<'_> {
    /// A block; the names its `let` and `create ... as` bind end with it.
    /// Each block is numbered as it is made, for the runtime's compiled code (`Block::id`).
    pub(super) fn block(&mut self, b: &ast::Block) -> Block {
        let depth = self.scopes.len();
        let stmts = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.scopes.truncate(depth);
        Block {
            id: self.next_block(),
            stmts,
        }
    }

    /// The next block's number.
    pub(super) fn next_block(&mut self) -> BlockId {
        let id = self.p.n_blocks;
        self.p.n_blocks += 1;
        id
    }

    pub(super) fn target(&mut self, t: &ast::Target) -> Target {
        let ast::Target { var, base, field, span } = t;
        let label = self.label(&field.node);
        // The owner: a variable, or a name read as an expression (a declared entity, a global
        // holding one), or an expression.
        let (var, named) = match var.as_ref().map(|v| (self.local(&v.node), v)) {
            Some((Some(slot), _)) => (Some(slot), None),
            Some((None, v)) => (
                None,
                Some(self.expr(&ast::Expr {
                    node: ast::ExprKind::Name(v.node.clone()),
                    span: v.span,
                })),
            ),
            None => (None, None),
        };
        let base = named.or_else(|| base.as_ref().map(|b| self.expr(b))).map(Box::new);
        let field = self.field_at(field);
        // A side's field: its owner is the side's, whoever gives it (`sides.rs`).
        let (var, base) = match (var, base) {
            (Some(slot), None) if self.is_side_field(field) => {
                (None, Some(self.side_owner(field, Box::new(Ex::Local(slot)), *span)))
            }
            (var, Some(b)) => (var, Some(self.side_owner(field, b, *span))),
            other => other,
        };
        Target {
            var,
            base,
            field,
            label,
            span: *span,
        }
    }

    pub(super) fn refusals(&mut self, refusals: &[ast::Refusal]) -> Vec<RefusalDef> {
        refusals
            .iter()
            .map(|ast::Refusal { cond, message, span }| RefusalDef {
                cond: self.expr(cond),
                message: message
                    .iter()
                    .map(|part| match part {
                        ast::Part::Text(t) => MessagePart::Text(t.clone()),
                        ast::Part::Name(e) if self.numbers_at.contains(&e.span) => {
                            MessagePart::Number(self.expr(e), self.decimals_at.get(&e.span).copied().unwrap_or(0))
                        }
                        ast::Part::Name(e) => MessagePart::Name(self.expr(e)),
                    })
                    .collect(),
                span: *span,
            })
            .collect()
    }

    pub(super) fn coll(&self, c: &Collection) -> Coll {
        match c {
            Collection::Characters => Coll::All(CHARACTER),
            Collection::Ranked(o) if o.node == "tied" && self.in_tied => Coll::Tied,
            // Every side, when no other name is `sides` (the checker refuses the rest).
            Collection::Ranked(o) if o.node == "sides" && self.d.lookup("sides").is_none() => Coll::Sides,
            Collection::Ranked(o) => match self.d.lookup(&o.node) {
                Some(Sym::Plural(t)) => Coll::All(t),
                _ => Coll::Ranked(self.order_id(o)),
            },
            Collection::Pile(d, discard) => {
                Coll::Pile(self.d.deck_named(&d.name.node).ok().flatten().unwrap_or(0), *discard)
            }
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
        if let Some(c) = self.role_chooser(e) {
            return c;
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

    /// One statement. A dispatch, as long as the kinds of statement are many: each arm is one
    /// call, to a method named after the statement, or a one-line statement.
    pub(super) fn stmt(&mut self, s: &Stmt) -> St {
        match s {
            Stmt::Level {
                // Level, phase or round: in the levels table (`Decls::levels`).
                kind: _,
                name,
                repeat,
                body,
                span,
                counting,
            } => {
                let counting = counting.as_ref().map(|c| {
                    let ast::Counting { from, down, to, within } = &**c;
                    Box::new(CountingEx {
                        from: self.expr(from),
                        down: *down,
                        to: to.as_ref().map(|t| self.expr(t)),
                        within: within.as_ref().map(|(lo, hi)| (self.expr(lo), self.expr(hi))),
                    })
                });
                self.level(name, repeat, counting, body, span)
            }
            Stmt::Turn { actor, body, span } => self.turn(actor, body, span),
            Stmt::ForEach(f) if self.walks_pool(&f.coll) => self.for_faces(f),
            Stmt::ForEach(f) => self.for_each(f),
            Stmt::If {
                cond,
                then,
                otherwise,
                span: _,
            } => self.if_(cond, then, otherwise),
            Stmt::Choose {
                name,
                chooser,
                options,
                span,
                secret,
                held,
            } => self.choose(name, chooser, options, span, (*secret, *held)),
            Stmt::Reveal {
                decision,
                chooser,
                all,
                span,
            } => St::Reveal {
                decision: self.d.decision_names.get(&decision.node).copied().unwrap_or(0),
                chooser: self.chooser(chooser),
                all: *all,
                span: *span,
            },
            Stmt::End { level, reason, span: _ } => self.end(level, reason),
            Stmt::Spend { amount, target, span } => self.spend(amount, target, span),
            Stmt::Gain { amount, target, span } => self.gain(amount, target, span),
            Stmt::Reset { target, value, span } => self.reset(target, value, span),
            Stmt::Forfeit { target, span: _ } => St::Forfeit {
                target: self.target(target),
            },
            Stmt::Set { target, value, span } => match self.set_local(target, value) {
                Some(st) => st,
                None => self.set(target, value, span),
            },
            Stmt::Mark { target, on, span: _ } => self.mark(target, on),
            Stmt::ChooseFrom(c) => self.choose_from(c),
            Stmt::Repeat { repeat, body, span } => self.repeat_stmt(repeat, body, span),
            Stmt::EndRepeat { span: _ } => St::EndRepeat,
            Stmt::Create {
                thing,
                fields,
                bind,
                span,
            } => self.create(thing, fields, bind, span),
            Stmt::Destroy { what, span } => self.destroy(what, span),
            Stmt::Cards { op, span } => self.cards(op, *span),
            Stmt::Let {
                name,
                ty: _,
                value,
                span: _,
            } => self.let_(name, value),
            Stmt::Pool(p) => self.pool_stmt(p),
            Stmt::Rank { order, filter, span: _ } => {
                let id = self.order_id(order);
                let filter = filter.as_ref().map(|f| {
                    let var = self.d.order_vars.get(id as usize).cloned().unwrap_or_default();
                    let slot = self.bind(&var);
                    let f = self.expr(f);
                    self.scopes.pop();
                    (slot, f)
                });
                St::Rank { order: id, filter }
            }
            Stmt::Transfer(t) => {
                let ast::Transfer { amount, from, to, span } = &**t;
                self.transfer(amount, from, to, span)
            }
            Stmt::Raise { trigger, args, span } => self.raise(trigger, args, span),
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => self.begin(effect, target, count, at, span),
            Stmt::Stop { effect, target, span } => self.stop(effect, target, *span),
            Stmt::Place { who, to, order, span } => self.place(who, to, order, span),
            Stmt::Do { routine, args, span } => self.do_(routine, args, span),
            Stmt::Count(c) => self.count(c),
            Stmt::Give { value, span: _ } => St::Give {
                value: self.expr(value),
            },
            Stmt::React { actor, body, span: _ } => self.react(actor, body, actor.span),
            Stmt::Ready(r) => self.ready(r),
            Stmt::Disarm { owner, on, span } => self.disarm(owner, on.as_ref(), *span),
            Stmt::Elapse { amount, unit, span } => self.elapse(amount, unit, span),
            Stmt::Presence { who, join, span } => St::Presence {
                who: self.expr(who),
                join: *join,
                span: *span,
            },
            Stmt::Moment { body, span } => St::Moment {
                body: self.block(body),
                span: *span,
            },
            Stmt::Deferred(d) => {
                let ast::Deferred { stmt, level, at, span } = &**d;
                St::Deferred {
                    change: Box::new(self.stmt(stmt)),
                    level: level
                        .as_ref()
                        .map(|l| self.d.level_names.get(&l.node).copied().unwrap_or(0)),
                    at: *at,
                    span: *span,
                }
            }
            Stmt::Record {
                measure,
                value,
                about,
                span: _,
            } => {
                let id = self.d.measures.iter().position(|m| *m == measure.node).unwrap_or(0);
                if let (Some(d), Some(slot)) = (self.decimals_at.get(&value.span), self.p.measure_decimals.get_mut(id))
                {
                    *slot = *d;
                }
                let about = about.as_ref().and_then(|a| self.local(&a.node));
                St::Record {
                    measure: id as MeasureId,
                    value: self.expr(value),
                    about,
                    side: about.is_some_and(|s| self.side_slots.contains(&s)),
                }
            }
        }
    }

    /// `LEVEL NAME [while C | until C] { ... }`: a level of `setup` or `play`.
    fn level(
        &mut self,
        name: &ast::Ident,
        repeat: &ast::Loop,
        counting: Option<Box<CountingEx>>,
        body: &ast::Block,
        span: &ast::Span,
    ) -> St {
        let level = self.d.level_names.get(&name.node).copied().unwrap_or(0);
        St::Level {
            level,
            counting: {
                if let Some(def) = self.p.levels.get_mut(level as usize) {
                    def.counting |= counting.is_some();
                    def.statements = def.statements.saturating_add(1);
                }
                counting
            },
            repeat: self.repeat(repeat),
            body: self.block(body),
            span: *span,
        }
    }

    /// `turn X { ... }`.
    fn turn(&mut self, actor: &ast::Expr, body: &ast::Block, span: &ast::Span) -> St {
        St::Turn {
            actor: self.expr(actor),
            body: self.block(body),
            span: *span,
        }
    }

    /// `for each x in COLL [backwards] [from X] [where C] [by ORDER] { ... }`. Takes the whole
    /// statement: its parts are more than a method should take one by one.
    fn for_each(&mut self, s: &ast::ForEach) -> St {
        let ast::ForEach {
            together,
            anew,
            ties,
            again,
            var,
            coll,
            presence,
            backwards,
            filter,
            order,
            body,
            span,
            from,
        } = s;
        let order = order.as_ref().map(|o| self.order_id(o));
        let from = from.as_ref().map(|x| self.expr(x));
        let slot = self.bind(&var.node);
        let coll = self.coll(coll);
        if coll == Coll::Sides {
            self.side_slots.insert(slot);
        }
        let filter = filter.as_ref().map(|f| self.expr(f));
        let body = self.block(body);
        self.scopes.pop();
        St::ForEach {
            together: *together,
            anew: *anew,
            ties: *ties,
            again: *again,
            var: slot,
            coll,
            presence: *presence,
            backwards: *backwards,
            from,
            filter,
            order,
            body,
            span: *span,
        }
    }

    /// Keeps a secret choice's body in the program, to be run when the choice is revealed.
    fn defer(&mut self, body: Block) -> u32 {
        self.p.bodies.push(body);
        (self.p.bodies.len() - 1) as u32
    }

    /// `if C { ... } [else { ... }]`.
    fn if_(&mut self, cond: &ast::Expr, then: &ast::Block, otherwise: &Option<ast::Block>) -> St {
        St::If {
            cond: self.expr(cond),
            then: self.block(then),
            otherwise: otherwise.as_ref().map(|o| self.block(o)).unwrap_or_default(),
        }
    }

    /// `choose NAME by WHO { option ... }`; its errors point at its head.
    fn choose(
        &mut self,
        name: &ast::Ident,
        chooser: &ast::Expr,
        options: &[ast::OptionDecl],
        span: &ast::Span,
        (secret, held): (bool, bool),
    ) -> St {
        let prefs = self.prefs_at(name);
        let mut st = St::Choose {
            secret,
            held,
            prefs,
            decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
            chooser: self.chooser(chooser),
            options: options
                .iter()
                .map(|o| {
                    let ast::OptionDecl {
                        name,
                        kinds,
                        using,
                        when,
                        refusals,
                        body,
                        span: _,
                    } = o;
                    OptionDef {
                        name: name.as_ref().and_then(|n| self.d.option_names.get(&n.node).copied()),
                        kinds: kinds.iter().filter_map(|k| self.d.kind(&k.node)).collect(),
                        using: using.as_ref().map(|u| self.field_id(&u.node)),
                        when: when.as_ref().map(|w| self.expr(w)),
                        refusals: self.refusals(refusals),
                        body: self.block(body),
                        deferred: None,
                    }
                })
                .collect::<Vec<_>>(),
            span: head(*span, chooser.span),
        };
        // A secret choice keeps its options' bodies aside, to run when it is revealed.
        if let St::Choose {
            options,
            secret: true,
            held: _,
            decision: _,
            chooser: _,
            prefs: _,
            span: _,
        } = &mut st
        {
            for o in options.iter_mut() {
                let body = std::mem::take(&mut o.body);
                self.p.bodies.push(body);
                o.deferred = Some((self.p.bodies.len() - 1) as u32);
            }
        }
        st
    }

    /// `end [LEVEL] [because "..."]`: the reason's text is kept in the program.
    fn end(&mut self, level: &Option<ast::Ident>, reason: &Option<ast::Spanned<String>>) -> St {
        let reason = reason.as_ref().map(|r| {
            self.p.reasons.push(r.node.clone());
            (self.p.reasons.len() - 1) as u16
        });
        St::End {
            level: level.as_ref().and_then(|l| self.d.level_names.get(&l.node).copied()),
            reason,
        }
    }

    /// `spend [N] x.RES`.
    fn spend(&mut self, amount: &Option<ast::Expr>, target: &ast::Target, span: &ast::Span) -> St {
        St::Spend {
            amount: amount.as_ref().map(|a| self.expr(a)),
            target: self.target(target),
            span: *span,
        }
    }

    /// `gain N x.RES`.
    fn gain(&mut self, amount: &ast::Expr, target: &ast::Target, span: &ast::Span) -> St {
        St::Gain {
            amount: self.expr(amount),
            target: self.target(target),
            span: *span,
        }
    }

    /// `reset x.RES to N`.
    fn reset(&mut self, target: &ast::Target, value: &ast::Expr, span: &ast::Span) -> St {
        St::Reset {
            target: self.target(target),
            value: self.expr(value),
            span: *span,
        }
    }

    /// `set x.STAT = VALUE`.
    fn set(&mut self, target: &ast::Target, value: &ast::Expr, span: &ast::Span) -> St {
        St::Set {
            target: self.target(target),
            value: self.expr(value),
            span: *span,
        }
    }

    /// `mark x.FLAG` and `clear x.FLAG`.
    fn mark(&mut self, target: &ast::Target, on: &bool) -> St {
        St::Mark {
            target: self.target(target),
            on: *on,
        }
    }

    /// `choose NAME by WHO from x in COLL [where C] [by ORDER] { ... }`. Takes the whole
    /// statement: its parts are more than a method should take one by one.
    fn choose_from(&mut self, s: &ast::ChooseFrom) -> St {
        let ast::ChooseFrom {
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
        } = s;
        let decline = decline.as_deref().map(|d| Decline {
            option: self.d.option_names.get(&d.option.node).copied().unwrap_or(0),
            refusals: self.refusals(&d.refusals),
            block: self.block(&d.block),
        });
        let chooser_span = chooser.span;
        let chooser = self.chooser(chooser);
        let prefs = self.prefs_at(name);
        let slot = self.bind(&var.node);
        let filter = filter.as_ref().map(|f| self.expr(f));
        let refusals = self.refusals(refusals);
        let mut body = self.block(body);
        self.scopes.pop();
        let mut decline = decline;
        let deferred = secret.then(|| {
            let b = self.defer(std::mem::take(&mut body));
            let d = decline.as_mut().map(|d| self.defer(std::mem::take(&mut d.block)));
            (b, d)
        });
        let bind = bind.as_ref().map(|b| self.bind(&b.node));
        St::ChooseFrom {
            deferred,
            secret: *secret,
            held: *held,
            bind,
            reads: self.reads_picks.contains(span),
            refusals,
            prefs,
            decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
            chooser,
            var: slot,
            coll: self.coll(coll),
            presence: *presence,
            filter,
            order: order.as_ref().map(|o| self.order_id(o)),
            body,
            decline,
            span: head(*span, chooser_span),
        }
    }

    /// `repeat [while C | until C] { ... }`.
    fn repeat_stmt(&mut self, repeat: &ast::Loop, body: &ast::Block, span: &ast::Span) -> St {
        St::Repeat {
            repeat: self.repeat(repeat),
            body: self.block(body),
            span: *span,
        }
    }

    /// `create THING { field = value } [as x]`: `x` is bound after the fields are lowered.
    fn create(
        &mut self,
        thing: &ast::Ident,
        fields: &[(ast::Ident, ast::Expr)],
        bind: &Option<ast::Ident>,
        span: &ast::Span,
    ) -> St {
        let fields = self.given(fields);
        St::Create {
            thing: self.thing_id(thing),
            fields,
            bind: bind.as_ref().map(|b| self.bind(&b.node)),
            span: *span,
        }
    }

    /// `shuffle`, `draw`, `discard`, `return`, `take`, `shuffle ... into`.
    fn cards(&mut self, op: &ast::CardOp, span: ast::Span) -> St {
        let deck = |l: &mut Self, at: &ast::DeckRef| match &at.owner {
            Some(owner) => DeckAt {
                deck: l.d.owned_deck(&at.name.node),
                owner: Some(l.expr(owner)),
            },
            None => DeckAt {
                deck: l.d.deck_named(&at.name.node).ok().flatten().unwrap_or(0),
                owner: None,
            },
        };
        let act = match op {
            ast::CardOp::Shuffle(d) => CardAct::Shuffle(deck(self, d)),
            ast::CardOp::Draw { deck: d, by, bind } => CardAct::Draw {
                deck: deck(self, d),
                by: by.as_ref().map(|b| self.expr(b)),
                bind: bind.as_ref().map(|b| self.bind(&b.node)),
            },
            ast::CardOp::Discard(x) => CardAct::Discard(self.expr(x)),
            ast::CardOp::Return(x, d) => CardAct::Return(self.expr(x), deck(self, d)),
            ast::CardOp::Take(x, d) => CardAct::Take(self.expr(x), deck(self, d)),
            ast::CardOp::ShuffleIn(x, d) => CardAct::ShuffleIn(self.expr(x), deck(self, d)),
        };
        St::Cards { act, span }
    }

    /// `destroy x`.
    fn destroy(&mut self, what: &ast::Expr, span: &ast::Span) -> St {
        St::Destroy {
            what: self.expr(what),
            span: *span,
        }
    }

    /// `let x = EXPR`: `x` is bound after its value is lowered.
    fn let_(&mut self, name: &ast::Ident, value: &ast::Expr) -> St {
        let value = self.expr(value);
        St::Let {
            slot: self.bind(&name.node),
            value,
        }
    }

    /// `transfer N|all from a.RES to b.RES`.
    fn transfer(&mut self, amount: &Option<ast::Expr>, from: &ast::Target, to: &ast::Target, span: &ast::Span) -> St {
        St::Transfer {
            amount: amount.as_ref().map(|a| self.expr(a)),
            from: self.target(from),
            to: self.target(to),
            span: *span,
        }
    }

    /// `raise TRIGGER(args)`.
    fn raise(&mut self, trigger: &ast::Ident, args: &[ast::Expr], span: &ast::Span) -> St {
        St::Raise {
            trigger: match self.d.lookup(&trigger.node) {
                Some(Sym::Trigger(i)) => i,
                _ => 0,
            },
            args: args.iter().map(|a| self.expr(a)).collect(),
            span: *span,
        }
    }

    /// `begin EFFECT on c for N counted at ...`.
    fn begin(
        &mut self,
        effect: &ast::Ident,
        target: &ast::Expr,
        count: &ast::Lasting,
        at: &ast::CountAt,
        span: &ast::Span,
    ) -> St {
        let count = match count {
            ast::Lasting::For(n) => Lasts::For(self.expr(n)),
            ast::Lasting::Until { next, span: _ } => Lasts::Until { next: *next },
        };
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
            count,
            at,
            span: *span,
        }
    }

    /// `stop EFFECT on c`.
    fn stop(&mut self, effect: &ast::Ident, target: &ast::Expr, span: ast::Span) -> St {
        St::Stop {
            effect: self.field_id(&effect.node),
            target: self.expr(target),
            span,
        }
    }

    /// `place c first|last|before x|after x in ORDER`.
    fn place(&mut self, who: &ast::Expr, to: &ast::PlaceTo, order: &ast::Ident, span: &ast::Span) -> St {
        St::Place {
            who: self.expr(who),
            to: match to {
                PlaceTo::First => PlaceAt::First,
                PlaceTo::Last => PlaceAt::Last,
                PlaceTo::Before(x) => PlaceAt::Before(self.expr(x)),
                PlaceTo::After(x) => PlaceAt::After(self.expr(x)),
                PlaceTo::Swap(x) => PlaceAt::Swap(self.expr(x)),
            },
            order: self.order_id(order),
            span: *span,
        }
    }

    /// `do ROUTINE(args)`: runs the hook the routine was given.
    fn do_(&mut self, routine: &ast::Ident, args: &[ast::Expr], span: &ast::Span) -> St {
        St::Do {
            hook: match self.d.lookup(&routine.node) {
                Some(Sym::Routine(i)) => self.p.routines.get(i as usize).copied().unwrap_or(0),
                _ => 0,
            },
            args: args.iter().map(|a| self.expr(a)).collect(),
            span: *span,
        }
    }

    /// `react c { ... }`.
    fn react(&mut self, actor: &ast::Expr, body: &ast::Block, span: ast::Span) -> St {
        St::React {
            actor: self.expr(actor),
            body: self.block(body),
            span,
        }
    }

    /// `elapse N UNIT`.
    fn elapse(&mut self, amount: &ast::Expr, unit: &ast::Ident, span: &ast::Span) -> St {
        St::Elapse {
            amount: self.expr(amount),
            unit: self.d.unit(&unit.node).unwrap_or(0),
            span: *span,
        }
    }
}
