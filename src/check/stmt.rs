//! Checking statements: blocks, levels, loops, `end`, entities made and destroyed, effects,
//! `raise` and `do`. Decisions are in `decisions.rs`, changes to fields in `targets.rs`.

use super::checker::Checker;
use super::suggest::unknown;
use super::{ANY, CHAR, CHARACTER, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// A block's statements; the names `let` and `create ... as` bind end with it.
    pub(super) fn block(&mut self, b: &Block) {
        let depth = self.scopes.len();
        let start = std::mem::replace(&mut self.block_start, depth);
        for s in &b.stmts {
            self.stmt(s);
        }
        self.block_start = start;
        self.scopes.truncate(depth);
        self.forget_picks();
    }

    /// The block of an option chosen in secret (`option`: its span), run when the choice is
    /// revealed. The secret choices at its head are made with the pick; no other secret choice
    /// may be in it, unless inside a `together` walk of its own (see `secret`).
    pub(super) fn deferred_block(&mut self, b: &Block, option: Span) {
        let outer = self.deferred.replace((self.together, option));
        // A held choice's block runs where it is revealed: every level and loop around it may be
        // over by then.
        let held = self.holding;
        let outer_held = std::mem::replace(&mut self.in_held, held);
        let (levels, repeats) = match held {
            true => (0, 0),
            false => self.walks.last().copied().unwrap_or((self.levels.len(), self.repeats)),
        };
        let outer_revealed = self
            .revealed
            .replace(((levels, self.levels.len()), (repeats, self.repeats), option));
        // Its deferred changes wait for a moment or level open where it is revealed.
        let outer_moments = self.held_block(held);
        let depth = self.scopes.len();
        // It runs later, when the block a pool was rolled in may be over: no pool is read in it.
        let barrier = std::mem::replace(&mut self.pools.barrier, depth);
        let fence = std::mem::replace(&mut self.fence, depth);
        let mut head = true;
        for s in &b.stmts {
            head &= matches!(s, Stmt::Choose { secret: true, .. }) || matches!(s, Stmt::ChooseFrom(c) if c.secret);
            self.heading = head;
            self.stmt(s);
            self.heading = false;
        }
        self.scopes.truncate(depth);
        self.pools.barrier = barrier;
        self.fence = fence;
        self.forget_picks();
        self.deferred = outer;
        self.revealed = outer_revealed;
        self.in_held = outer_held;
        self.holding = held;
        self.moments = outer_moments;
    }

    /// One statement. A dispatch, as long as the kinds of statement are many: each arm is one
    /// call (two for `transfer`), to a method named after the statement.
    pub(super) fn stmt_kind(&mut self, s: &Stmt) {
        match s {
            Stmt::Level {
                name,
                repeat,
                body,
                counting,
                ..
            } => {
                if let Some(c) = counting {
                    self.counting(c);
                }
                self.level(name, repeat, body)
            }
            Stmt::Turn { actor, body, .. } => self.acting(actor, "`turn`", body),
            Stmt::ForEach(f) if self.is_pool(&f.coll) => self.for_faces(f),
            Stmt::ForEach(f) => {
                let ForEach {
                    var,
                    coll,
                    presence,
                    filter,
                    order,
                    body,
                    from,
                    together,
                    anew,
                    ties,
                    again,
                    backwards,
                    span,
                } = &**f;
                self.walk_words(f);
                self.side_for_each(f);
                if *anew && (*together || *backwards || from.is_some()) {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            "a walk sorted `anew` cannot also be `together`, `backwards` or `from` a place",
                        )
                        .label(*span, "this walk")
                        .help("`anew` sorts before each moment, one member at a time; drop `anew`, or the other word"),
                    );
                }
                // A `ties together` walk's groups are `together` moments: secret choices may be
                // made in its body, revealed at each group's end.
                let moment = *together || *ties;
                self.together += usize::from(moment);
                if moment {
                    self.walks.push((self.levels.len(), self.repeats));
                }
                // A moment: a `together` walk, each group of a `ties together` walk.
                self.moments.depth += usize::from(moment);
                // `repeat for first`: `end repeat` leaves it.
                self.repeats += usize::from(*again);
                self.for_each(
                    var,
                    (coll, *presence),
                    from.as_ref(),
                    filter.as_ref(),
                    order.as_ref(),
                    body,
                );
                self.repeats -= usize::from(*again);
                self.moments.depth -= usize::from(moment);
                if moment {
                    self.walks.pop();
                }
                self.together -= usize::from(moment);
            }
            Stmt::Create {
                thing, fields, bind, ..
            } => self.create(thing, fields, bind.as_ref()),
            Stmt::Destroy { what, .. } => self.destroy(what),
            Stmt::Cards { op, .. } => self.cards(op),
            Stmt::Let { name, ty, value, .. } => self.let_(name, ty.as_ref(), value),
            Stmt::Pool(p) => self.pool_stmt(p),
            Stmt::If {
                cond, then, otherwise, ..
            } => self.if_(cond, then, otherwise.as_ref()),
            Stmt::Choose {
                chooser,
                options,
                span,
                name,
                secret,
                held,
            } => {
                let hidden = self.secret((*secret, *held), name, options.iter().any(|o| o.name.is_none()));
                self.offered_once(name, options);
                self.holding = *held;
                self.moments.choice = Some(name.clone());
                self.choose(name, chooser, options, *span, (*secret, hidden));
                self.holding = false;
            }
            Stmt::Reveal { decision, chooser, .. } => self.reveal(decision, chooser),
            Stmt::End { level: Some(l), .. } => self.end(l),
            Stmt::End { level: None, .. } => {}
            Stmt::ChooseFrom(c) => {
                let hidden = self.secret((c.secret, c.held), &c.name, false);
                self.holding = c.held;
                self.moments.choice = Some(c.name.clone());
                self.choose_from(c, hidden);
                self.holding = false;
            }
            Stmt::Repeat { repeat, body, .. } => self.repeat(repeat, body),
            Stmt::EndRepeat { span } => self.end_repeat(*span),
            Stmt::Rank { order, filter, .. } => {
                let t = self.order(order);
                if let Some(f) = filter {
                    let var = match self.decls.lookup(&order.node) {
                        Some(Sym::Order(i)) => self.decls.order_vars.get(i as usize).cloned(),
                        _ => None,
                    };
                    let depth = self.scopes.len();
                    if let Some(v) = var {
                        self.scopes.push((v, t));
                    }
                    self.expect(f, Ty::Bool, "a `rank`'s `where`");
                    self.scopes.truncate(depth);
                }
            }
            Stmt::Transfer(t) => {
                let Transfer { amount, from, to, .. } = &**t;
                let a = self.resource(amount.as_ref(), "an amount", from, "transfer");
                let b = self.resource(None, "", to, "transfer");
                if let (Some(a), Some(b)) = (a, b) {
                    self.same_decimals(a, b, to);
                }
            }
            Stmt::Raise { trigger, args, span } => self.raise(trigger, args, *span),
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                ..
            } => self.begin(effect, target, count, at),
            Stmt::Stop { effect, target, .. } => self.stop(effect, target),
            Stmt::Place { who, to, order, .. } => self.place(who, to, order),
            Stmt::Do { routine, args, span } => self.do_(routine, args, *span),
            Stmt::Count(c) => self.count(c),
            Stmt::Give { value, span } => self.give(value, *span),
            Stmt::React { actor, body, .. } => self.acting(actor, "`react`", body),
            Stmt::Ready(r) => self.ready(r),
            Stmt::Disarm { owner, on, span } => self.disarm(owner, on.as_ref(), *span),
            Stmt::Elapse { amount, unit, .. } => self.elapse(amount, unit),
            Stmt::Spend { amount, target, .. } => {
                self.resource(amount.as_ref(), "an amount", target, "spend");
            }
            Stmt::Gain { amount, target, .. } => {
                self.resource(Some(amount), "an amount", target, "gain");
            }
            Stmt::Reset { target, value, .. } => {
                self.resource(Some(value), "a resource's new value", target, "reset");
            }
            Stmt::Forfeit { target, .. } => {
                self.resource(None, "", target, "forfeit");
            }
            Stmt::Set { target, value, .. } => self.set(target, value),
            Stmt::Record { value, .. } => self.record(value),
            Stmt::Presence { who, join, .. } => {
                let what = if *join { "`join`" } else { "`leave`" };
                self.expect(who, Ty::Entity(CHARACTER), what);
            }
            Stmt::Mark { target, on, .. } => {
                self.target(target, FieldKind::Flag, if *on { "mark" } else { "clear" });
            }
            Stmt::Moment { body, .. } => self.moment_body(body, true),
            Stmt::Deferred(d) => self.deferred(d),
        }
    }

    /// `LEVEL NAME [while C | until C] { ... }`: `end NAME` may be used inside.
    /// `counting from A [down] [to B | within LO to HI]`: numbers, read as the level begins.
    fn counting(&mut self, c: &Counting) {
        self.expect(&c.from, Ty::Int, "a level's first number");
        if let Some(to) = &c.to {
            self.expect(to, Ty::Int, "a level's last number");
        }
        if let Some((lo, hi)) = &c.within {
            self.expect(lo, Ty::Int, "the lowest number of a level's cycle");
            self.expect(hi, Ty::Int, "the highest number of a level's cycle");
        }
    }

    fn level(&mut self, name: &Ident, repeat: &Loop, body: &Block) {
        match repeat {
            Loop::While(e) | Loop::Until(e) => {
                self.expect(e, Ty::Bool, "a loop condition");
            }
            _ => {}
        }
        // Inside a level of its own name the inner one's iterations would be the outer one's:
        // `LEVEL.number`, `end LEVEL`, `--until`, its hooks and `per` flags could not tell them apart.
        if let Some(outer) = self.levels.iter().find(|l| l.node == name.node) {
            self.err(
                Diag::new(
                    "check::duplicate",
                    format!("a level named `{}` inside a level of the same name", name.node),
                )
                .label(name.span, "the inner level")
                .label(outer.span, "the outer level, of the same name")
                .help(format!(
                    "give the inner level a name of its own (`round NAME`, `phase NAME`, `level NAME`): otherwise `{0}.number` after it, `end {0}` and `--until {0}=N` would mean the inner one",
                    name.node
                )),
            );
        }
        self.levels.push(name.clone());
        self.block(body);
        self.levels.pop();
    }

    /// `turn X { ... }` and `react X { ... }`: an entity acts through the block.
    fn acting(&mut self, actor: &Expr, what: &str, body: &Block) {
        self.entity(actor, what);
        self.block(body);
    }

    /// `for each x in COLL [from X] [where C] [by ORDER] { ... }`.
    fn for_each(
        &mut self,
        var: &Ident,
        (coll, presence): (&Collection, Presence),
        from: Option<&Expr>,
        filter: Option<&Expr>,
        order: Option<&Ident>,
        body: &Block,
    ) {
        let t = self.collection(coll);
        self.presence_of(presence, t, var.span);
        if let Some(o) = order {
            self.order_for(o, t);
        }
        if let Some(x) = from {
            self.expect(x, t, "where a walk starts (`from`)");
        }
        self.bind(var, t);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a `where` filter");
        }
        self.block(body);
        self.scopes.pop();
    }

    /// `create THING { field = value } [as x]`: a thing, not a character.
    fn create(&mut self, thing: &Ident, fields: &[(Ident, Expr)], bind: Option<&Ident>) {
        self.type_name(thing);
        if let Some(t) = self.decls.thing(&thing.node) {
            if t == CHARACTER {
                self.err(
                    Diag::new("check::wrong_kind", "characters are not created in play")
                        .label(thing.span, "a character")
                        .help("declare characters in an encounter; `create` makes things declared with `thing`"),
                );
            }
            self.given_fields(t, format_args!("the new {}", thing.node), fields);
            if let Some(b) = bind {
                self.bind(b, Ty::Entity(t));
            }
        }
    }

    /// `destroy X`: a thing, not a character.
    fn destroy(&mut self, what: &Expr) {
        let t = self.entity(what, "`destroy`");
        if t == CHAR {
            self.err(
                Diag::new("check::wrong_kind", "characters are not destroyed")
                    .label(what.span, "a character")
                    .help("`destroy` removes things made by `create` or declared in an encounter"),
            );
        }
    }

    /// `let x [: TYPE] = VALUE`: names a value until the block ends; `none` only with a type.
    fn let_(&mut self, name: &Ident, ty: Option<&Ident>, value: &Expr) {
        let t = match ty {
            Some(ty) => {
                let mut diags = Vec::new();
                let want = self.decls.arg_type(Some(ty), Ty::Error, &mut diags);
                diags.into_iter().for_each(|d| self.err(d));
                self.expect(value, want, format_args!("the value of `{}`", name.node));
                want
            }
            None => self.expr(value),
        };
        if matches!(t, Ty::Entity(ANY)) {
            self.err(
                Diag::new(
                    "check::type",
                    format!("`let` cannot name {} without a type", self.tn(t)),
                )
                .label(value.span, self.tn(t))
                .help(format!(
                    "say what `{0}` will hold: `let {0}: character = none` (or `side`, `role`, a thing)",
                    name.node
                )),
            );
        }
        self.relet(name);
        self.bind(name, t);
        self.let_local();
    }

    /// `if C { ... } [else { ... }]`.
    fn if_(&mut self, cond: &Expr, then: &Block, otherwise: Option<&Block>) {
        self.expect(cond, Ty::Bool, "an `if` condition");
        self.block(then);
        if let Some(o) = otherwise {
            self.block(o);
        }
    }

    /// `end LEVEL`: inside a level of that name.
    fn end(&mut self, l: &Ident) {
        // A level entered inside a `together` walk is over when a secret option's block runs.
        if let (Some(i), Some(((lo, hi), _, option))) =
            (self.levels.iter().rposition(|n| n.node == l.node), self.revealed)
            && (lo..hi).contains(&i)
        {
            self.err(Diag::new(
                "check::secret_end",
                format!("`end {}` would run at the reveal, when this `{}` is over", l.node, l.node),
            )
            .label(l.span, if self.in_held { "ends a level the choice is made in" } else { "ends a level the walk is in" })
            .label(option, if self.in_held { "this option's block runs where a `reveal` shows it" } else { "this option's block runs when the `together` walk ends" })
            .help(if self.in_held {
                format!("a held option's block runs where it is revealed; end the level there, after the `reveal` (`if ... {{ end {} }}`), or end the encounter", l.node)
            } else {
                format!("end it where the choice is asked, after the choice (`if ... {{ end {} }}`), or end a level around the `together` walk", l.node)
            }));
        }
        if !self.levels.iter().any(|n| n.node == l.node) {
            let mut d = Diag::new(
                "check::end_outside",
                format!("`end {}` is not inside a level named `{}`", l.node, l.node),
            )
            .label(l.span, "no enclosing level has this name");
            d = if self.levels.is_empty() {
                d.help("`end` must be inside the level it ends; `end encounter` ends the whole encounter")
            } else {
                let names: Vec<&str> = self.levels.iter().map(|n| n.node.as_str()).collect();
                d.help(format!("the enclosing levels here are: {}", names.join(", ")))
            };
            self.err(d);
        }
    }

    /// `repeat [while C | until C] { ... }`: `end repeat` may be used inside.
    fn repeat(&mut self, repeat: &Loop, body: &Block) {
        if let Loop::While(e) | Loop::Until(e) = repeat {
            self.expect(e, Ty::Bool, "a loop condition");
        }
        self.repeats += 1;
        self.block(body);
        self.repeats -= 1;
    }

    /// `end repeat`: inside a `repeat`.
    fn end_repeat(&mut self, span: Span) {
        // A loop entered inside a `together` walk is over when a secret option's block runs.
        if let Some((_, (lo, hi), option)) = self.revealed
            && self.repeats == hi
            && hi > lo
        {
            self.err(
                Diag::new(
                    "check::secret_end",
                    "`end repeat` would run at the reveal, when this loop is over",
                )
                .label(
                    span,
                    if self.in_held {
                        "leaves a loop the choice is made in"
                    } else {
                        "leaves a loop the walk is in"
                    },
                )
                .label(
                    option,
                    if self.in_held {
                        "this option's block runs where a `reveal` shows it"
                    } else {
                        "this option's block runs when the `together` walk ends"
                    },
                )
                .help(if self.in_held {
                    "a held option's block runs where it is revealed; leave the loop there, after the `reveal` (`if ... { end repeat }`)"
                } else {
                    "leave the loop where the choice is asked, after it (`if ... { end repeat }`)"
                }),
            );
        }
        if self.repeats == 0 {
            self.err(
                Diag::new("check::end_outside", "`end repeat` is not inside a `repeat` loop")
                    .label(span, "no loop to leave")
                    .help("`end repeat` leaves the innermost `repeat { ... }`; levels end with `end LEVEL`"),
            );
        }
    }

    /// `raise T(args)`.
    fn raise(&mut self, trigger: &Ident, args: &[Expr], span: Span) {
        let call = Call {
            what: "trigger",
            name: trigger,
            label: "raised here",
            help: "pass one character per argument the trigger declares",
            declare: "declare it with `trigger NAME(c)`",
            argument: "a trigger's argument",
        };
        self.character_call(&call, &self.decls.triggers, args, span);
    }

    /// `begin EFFECT on X for N counted at ...`: a known effect, a duration, what counts it.
    fn begin(&mut self, effect: &Ident, target: &Expr, count: &Lasting, at: &CountAt) {
        self.effect(effect);
        self.expect(target, CHAR, "the character an effect is on");
        if let Lasting::For(count) = count {
            self.expect(count, Ty::Int, "a duration");
        }
        match at {
            CountAt::Place(who, order) => {
                let t = self.order(order);
                self.expect(who, t, "the entity whose place counts a duration");
            }
            CountAt::TurnStart(who) | CountAt::TurnEnd(who) => {
                self.entity(who, "the entity whose turn counts a duration");
            }
            CountAt::LevelStart(l) | CountAt::LevelEnd(l) => {
                if !self.decls.level_names.contains_key(&l.node) {
                    let d = unknown("level", &l.node, l.span, self.decls.level_names.keys());
                    self.err(d.help("count a duration at the start or end of a level of `play`"));
                }
            }
        }
    }

    /// `stop EFFECT on X`.
    fn stop(&mut self, effect: &Ident, target: &Expr) {
        self.effect(effect);
        self.expect(target, CHAR, "the character an effect is on");
    }

    /// `place X first | last | before Y | after Y in ORDER`: entities of the order's type.
    fn place(&mut self, who: &Expr, to: &PlaceTo, order: &Ident) {
        let t = self.order(order);
        self.expect(who, t, "the entity `place` moves");
        match to {
            PlaceTo::Before(x) | PlaceTo::After(x) => {
                self.expect(x, t, "the entity `place` moves next to");
            }
            PlaceTo::Swap(x) => {
                self.expect(x, t, "the entity `swap` trades places with");
            }
            PlaceTo::First | PlaceTo::Last => {}
        }
    }

    /// `do R(args)`.
    fn do_(&mut self, routine: &Ident, args: &[Expr], span: Span) {
        let call = Call {
            what: "routine",
            name: routine,
            label: "run here",
            help: "pass one argument per parameter the routine declares, of its type",
            declare: "declare it with `routine NAME(c) { ... }`",
            argument: "a routine's argument",
        };
        self.character_call(&call, &self.decls.routines, args, span);
    }

    /// `elapse N UNIT`: a number of a declared unit of the clock.
    fn elapse(&mut self, amount: &Expr, unit: &Ident) {
        self.expect(amount, Ty::Int, "an amount of time");
        if self.decls.unit(&unit.node).is_none() {
            let names: Vec<&String> = self.decls.units.iter().map(|u| &u.0).collect();
            let d = unknown("unit", &unit.node, unit.span, names.into_iter());
            self.err(d.help("declare the clock's units: `unit second`, `unit minute = 60 seconds`"));
        }
    }

    /// `raise T(args)` and `do R(args)`: a declared name, and one character per declared argument.
    pub(super) fn character_call(
        &mut self,
        call: &Call<'_>,
        declared: &[(String, Vec<Ty>)],
        args: &[Expr],
        span: Span,
    ) {
        let name = call.name;
        let types = declared.iter().find(|d| d.0 == name.node).map(|d| d.1.clone());
        match types.as_ref().map(Vec::len) {
            Some(want) if want != args.len() => {
                self.err(
                    Diag::new(
                        "check::arity",
                        format!(
                            "the {} `{}` takes {want} argument(s), not {}",
                            call.what,
                            name.node,
                            args.len()
                        ),
                    )
                    .label(span, call.label)
                    .help(call.help),
                );
            }
            Some(_) => {}
            None => {
                let names: Vec<&String> = declared.iter().map(|t| &t.0).collect();
                let d = unknown(call.what, &name.node, name.span, names.into_iter());
                self.err(d.help(call.declare));
            }
        }
        for (i, a) in args.iter().enumerate() {
            let want = types
                .as_ref()
                .and_then(|t| t.get(i))
                .copied()
                .unwrap_or(Ty::Entity(CHARACTER));
            if !self.role_named(a, want) {
                self.expect(a, want, call.argument);
            }
        }
    }
}

/// How `character_call` names what is called, in its messages.
pub(super) struct Call<'a> {
    pub(super) what: &'a str,
    pub(super) name: &'a Ident,
    pub(super) label: &'a str,
    pub(super) help: &'a str,
    pub(super) declare: &'a str,
    pub(super) argument: &'a str,
}

impl Checker<'_> {
    /// `transfer` between two resources that keep the same decimals.
    fn same_decimals(&mut self, a: u16, b: u16, to: &Target) {
        let (x, y) = (self.decls.field_ty(a), self.decls.field_ty(b));
        if x != y {
            self.err(
                Diag::new(
                    "check::type",
                    format!("`transfer` moves {} into {}", self.tn(x), self.tn(y)),
                )
                .label(to.field.span, self.tn(y))
                .help("transfer between resources that keep the same decimals (`decimals N`)"),
            );
        }
    }

    /// A measure's value: a number (with its decimals), or a truth value (recorded as 1 or 0).
    fn record(&mut self, value: &Expr) {
        let got = self.expr(value);
        if let Ty::Dec(s) = got {
            self.decimals_at.insert(value.span, s);
            return;
        }
        if !got.fits(Ty::Int) && !got.fits(Ty::Bool) {
            self.err(
                Diag::new(
                    "check::type",
                    format!("a measure must be a number or a truth value, but this is {}", self.tn(got)),
                )
                .label(value.span, self.tn(got))
                .help("measure a count or a field, e.g. `count c in characters: c.ap > 0`; a truth value counts as 1 or 0"),
            );
        }
    }
}

impl Checker<'_> {
    /// `choose ... in secret`: only inside a `together` walk (whose end reveals it), and with
    /// no `option action` (an action is performed when picked, not later). Inside the block of
    /// an option chosen in secret, only at its head (made with that pick), or inside a
    /// `together` walk of its own. Whether it is made with another's pick (at such a head).
    fn secret(&mut self, (secret, held): (bool, bool), name: &Ident, offers_actions: bool) -> bool {
        let heading = std::mem::take(&mut self.heading);
        if !secret {
            return false;
        }
        if held {
            self.held_names.insert(name.node.clone());
        }
        let in_deferred = self.deferred.is_some_and(|(walks, _)| walks == self.together);
        if let Some((_, option)) = self.deferred
            && in_deferred
            && !heading
            && !held
        {
            self.err(
                Diag::new(
                    "check::secret_nested",
                    format!(
                        "`{}` is chosen in secret inside an option chosen in secret, but not at the head of its block",
                        name.node
                    ),
                )
                .label(name.span, "chosen in secret here")
                .label(option, "picked in secret: its block runs at the reveal")
                .help(
                    "a secret choice inside a secret option is made with the pick: write it first in the option's block (before any other statement, not inside `if` or a loop), or give it a `together` walk of its own",
                ),
            );
        }
        if held && in_deferred && heading {
            self.held_with_pick(name);
        }
        if self.together == 0 && !held {
            self.err(
                Diag::new(
                    "check::secret_outside_together",
                    format!("`{}` is chosen in secret, but not inside a `together` walk", name.node),
                )
                .label(name.span, "chosen in secret here")
                .help(
                    "secret choices are revealed when a `together for each ...` walk, a `together { ... }` block or a group of a `... ties together` walk ends: put the choice inside one, or hold it with `in secret until revealed` and show it with `reveal`",
                ),
            );
        }
        if offers_actions {
            self.err(
                Diag::new("check::secret_action", "a secret choice cannot offer `option action`")
                    .label(name.span, "chosen in secret here")
                    .help("an action is performed when it is picked; choose a named option in secret, and act on it after the reveal"),
            );
        }
        in_deferred && heading
    }
}

impl Checker<'_> {
    /// Each action is offered by at most one option of a `choose`: an action of two kinds that
    /// two `option action of kind ...` lines both offer (or an option named like an action one
    /// offers) would be offered twice under one name, and an answer or a policy, which name it,
    /// could only ever pick the first.
    fn offered_once(&mut self, name: &Ident, options: &[OptionDecl]) {
        let lines: Vec<&OptionDecl> = options.iter().filter(|o| o.name.is_none()).collect();
        let offers = |o: &OptionDecl, a: usize| {
            o.kinds.is_empty()
                || o.kinds.iter().any(|k| {
                    self.decls
                        .kind(&k.node)
                        .is_some_and(|k| self.decls.action_kinds.get(a).is_some_and(|ks| ks.contains(&k)))
                })
        };
        let mut found = Vec::new();
        for (j, later) in lines.iter().enumerate() {
            for earlier in &lines[..j] {
                // The same line twice is `check::duplicate` already.
                if same_line(earlier, later) {
                    continue;
                }
                let both: Vec<&str> = (0..self.decls.actions.len())
                    .filter(|&a| offers(earlier, a) && offers(later, a))
                    .map(|a| self.decls.actions[a].as_str())
                    .collect();
                if let Some(first) = both.first() {
                    let help = format!(
                        "an answer or a policy names `{first}`, so only the first could ever be picked: give `{first}` one of these kinds only, or offer both in one line (`option action of kind A, B`)"
                    );
                    found.push((later.span, earlier.span, (*first).to_string(), both.len(), help));
                }
            }
        }
        for o in options {
            let Some(n) = &o.name else { continue };
            let by = (0..self.decls.actions.len())
                .find(|&a| self.decls.actions[a] == n.node)
                .and_then(|a| lines.iter().find(|l| offers(l, a)));
            if let Some(line) = by {
                let help = format!(
                    "an answer or a policy names `{0}`, so only one of them could ever be picked: give this option another name, or leave `{0}` to the `option action` line",
                    n.node
                );
                found.push((n.span, line.span, n.node.clone(), 1, help));
            }
        }
        for (again, first, action, count, help) in found {
            let others = match count {
                1 => String::new(),
                2 => " (and one more action)".to_string(),
                n => format!(" (and {} more actions)", n - 1),
            };
            self.err(
                Diag::new(
                    "check::duplicate",
                    format!("`{action}` would be offered twice in `{}`{others}", name.node),
                )
                .label(again, "offers it again")
                .label(first, "offers it first")
                .help(help),
            );
        }
    }
}

/// Two `option action` lines offering the same: the same kinds and `using`.
fn same_line(a: &OptionDecl, b: &OptionDecl) -> bool {
    let names = |o: &OptionDecl| o.kinds.iter().map(|k| k.node.clone()).collect::<Vec<_>>();
    names(a) == names(b) && a.using.as_ref().map(|u| &u.node) == b.using.as_ref().map(|u| &u.node)
}
