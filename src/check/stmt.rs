//! Checking statements: blocks, levels, loops, decisions, `end`, effects, `raise` and `do`.

use super::checker::Checker;
use super::suggest::unknown;
use super::{ANY, CHAR, CHARACTER, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// A block's statements; the names `let` and `create ... as` bind end with it.
    pub(super) fn block(&mut self, b: &Block) {
        let depth = self.scopes.len();
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.truncate(depth);
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Level { name, repeat, body, .. } => {
                match repeat {
                    Loop::While(e) | Loop::Until(e) => {
                        self.expect(e, Ty::Bool, "a loop condition");
                    }
                    _ => {}
                }
                self.levels.push(name.node.clone());
                self.block(body);
                self.levels.pop();
            }
            Stmt::Turn { actor, body, .. } => {
                self.entity(actor, "`turn`");
                self.block(body);
            }
            Stmt::ForEach {
                var,
                coll,
                filter,
                order,
                body,
                from,
                ..
            } => {
                let t = self.collection(coll);
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
            Stmt::Create {
                thing, fields, bind, ..
            } => {
                self.type_name(thing);
                if let Some(t) = self.decls.thing(&thing.node) {
                    if t == CHARACTER {
                        self.err(
                            Diag::new("check::wrong_kind", "characters are not created in play")
                                .label(thing.span, "a character")
                                .help(
                                    "declare characters in an encounter; `create` makes things declared with `thing`",
                                ),
                        );
                    }
                    self.given_fields(t, &format!("the new {}", thing.node), fields);
                    if let Some(b) = bind {
                        self.bind(b, Ty::Entity(t));
                    }
                }
            }
            Stmt::Destroy { what, .. } => {
                let t = self.entity(what, "`destroy`");
                if t == CHAR {
                    self.err(
                        Diag::new("check::wrong_kind", "characters are not destroyed")
                            .label(what.span, "a character")
                            .help("`destroy` removes things made by `create` or declared in an encounter"),
                    );
                }
            }
            Stmt::Let { name, value, .. } => {
                let t = self.expr(value);
                if matches!(t, Ty::Role | Ty::Entity(ANY)) {
                    self.err(
                        Diag::new("check::type", format!("`let` cannot name {}", self.tn(t)))
                            .label(value.span, self.tn(t))
                            .help("`let` names a number, a truth value, an entity or a side"),
                    );
                }
                self.bind(name, t);
            }
            Stmt::If {
                cond, then, otherwise, ..
            } => {
                self.expect(cond, Ty::Bool, "an `if` condition");
                self.block(then);
                if let Some(o) = otherwise {
                    self.block(o);
                }
            }
            Stmt::Choose {
                chooser,
                options,
                span,
                name,
            } => {
                let who = self.chooser(chooser);
                if options.is_empty() {
                    self.err(
                        Diag::new(
                            "check::no_options",
                            format!("the decision `{}` has no options", name.node),
                        )
                        .label(*span, "nothing to choose from")
                        .help("add `option NAME { ... }` lines, or `option action` for the action catalogue"),
                    );
                }
                let mut seen: Vec<&str> = Vec::new();
                for o in options {
                    let key = o.name.as_ref().map(|n| n.node.as_str()).unwrap_or("action");
                    if seen.contains(&key) {
                        self.err(
                            Diag::new(
                                "check::duplicate",
                                format!("the option `{key}` appears twice in `{}`", name.node),
                            )
                            .label(o.span, "again here")
                            .help("each option of a decision needs its own name"),
                        );
                    }
                    seen.push(key);
                    self.refusals(&o.refusals);
                    if o.name.is_none() && who == Ty::Role {
                        self.err(
                            Diag::new(
                                "check::role_action",
                                "a role cannot take an action: actions belong to characters",
                            )
                            .label(o.span, "offered to a role")
                            .help("let a character choose the action, e.g. `choose act by c { option action }`"),
                        );
                    }
                    for k in &o.kinds {
                        if self.decls.kind(&k.node).is_none() {
                            let d = unknown("kind of action", &k.node, k.span, self.decls.kinds.iter());
                            self.err(d.help("give actions a kind with `action NAME(c) kind K costs ...`"));
                        }
                    }
                    if let Some(u) = &o.using {
                        self.field(CHARACTER, u, FieldKind::Resource, "pay costs from");
                    }
                    if o.name.is_none() && self.decls.actions.is_empty() {
                        self.err(
                            Diag::new(
                                "check::no_actions",
                                "`option action` offers the action catalogue, but no action is declared",
                            )
                            .label(o.span, "offers nothing")
                            .help("declare actions with `action NAME(c) costs N RESOURCE`"),
                        );
                    }
                    if let Some(w) = &o.when {
                        self.expect(w, Ty::Bool, "an option's `when`");
                    }
                    self.block(&o.body);
                }
            }
            Stmt::End { level: Some(l), .. } => {
                if !self.levels.iter().any(|n| n == &l.node) {
                    let mut d = Diag::new(
                        "check::end_outside",
                        format!("`end {}` is not inside a level named `{}`", l.node, l.node),
                    )
                    .label(l.span, "no enclosing level has this name");
                    d = if self.levels.is_empty() {
                        d.help("`end` must be inside the level it ends; `end encounter` ends the whole encounter")
                    } else {
                        d.help(format!("the enclosing levels here are: {}", self.levels.join(", ")))
                    };
                    self.err(d);
                }
            }
            Stmt::End { level: None, .. } => {}
            Stmt::ChooseFrom {
                chooser,
                var,
                coll,
                filter,
                order,
                body,
                decline,
                refusals,
                ..
            } => {
                self.chooser(chooser);
                if let Some((_, block)) = decline.as_deref() {
                    self.block(block);
                }
                let t = self.collection(coll);
                if let Some(o) = order {
                    self.order_for(o, t);
                }
                self.bind(var, t);
                if let Some(f) = filter {
                    self.expect(f, Ty::Bool, "a `where` filter");
                }
                self.refusals(refusals);
                self.block(body);
                self.scopes.pop();
            }
            Stmt::Repeat { repeat, body, .. } => {
                if let Loop::While(e) | Loop::Until(e) = repeat {
                    self.expect(e, Ty::Bool, "a loop condition");
                }
                self.repeats += 1;
                self.block(body);
                self.repeats -= 1;
            }
            Stmt::EndRepeat { span } => {
                if self.repeats == 0 {
                    self.err(
                        Diag::new("check::end_outside", "`end repeat` is not inside a `repeat` loop")
                            .label(*span, "no loop to leave")
                            .help("`end repeat` leaves the innermost `repeat { ... }`; levels end with `end LEVEL`"),
                    );
                }
            }
            Stmt::Rank { order, .. } => {
                self.order(order);
            }
            Stmt::Transfer { amount, from, to, .. } => {
                if let Some(a) = amount {
                    self.expect(a, Ty::Int, "an amount");
                }
                self.target(from, FieldKind::Resource, "transfer");
                self.target(to, FieldKind::Resource, "transfer");
            }
            Stmt::Raise { trigger, args, span } => {
                let call = Call {
                    what: "trigger",
                    name: trigger,
                    label: "raised here",
                    help: "pass one character per argument the trigger declares",
                    declare: "declare it with `trigger NAME(c)`",
                    argument: "a trigger's argument",
                };
                self.character_call(&call, &self.decls.triggers, args, *span);
            }
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                ..
            } => {
                self.effect(effect);
                self.expect(target, CHAR, "the character an effect is on");
                self.expect(count, Ty::Int, "a duration");
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
            Stmt::Stop { effect, target, .. } => {
                self.effect(effect);
                self.expect(target, CHAR, "the character an effect is on");
            }
            Stmt::Place { who, to, order, .. } => {
                let t = self.order(order);
                self.expect(who, t, "the entity `place` moves");
                if let PlaceTo::Before(x) | PlaceTo::After(x) = to {
                    self.expect(x, t, "the entity `place` moves next to");
                }
            }
            Stmt::Do { routine, args, span } => {
                let call = Call {
                    what: "routine",
                    name: routine,
                    label: "run here",
                    help: "pass one character per parameter the routine declares",
                    declare: "declare it with `routine NAME(c) { ... }`",
                    argument: "a routine's argument",
                };
                self.character_call(&call, &self.decls.routines, args, *span);
            }
            Stmt::React { actor, body, .. } => {
                self.entity(actor, "`react`");
                self.block(body);
            }
            Stmt::Elapse { amount, unit, .. } => {
                self.expect(amount, Ty::Int, "an amount of time");
                if self.decls.unit(&unit.node).is_none() {
                    let names: Vec<&String> = self.decls.units.iter().map(|u| &u.0).collect();
                    let d = unknown("unit", &unit.node, unit.span, names.into_iter());
                    self.err(d.help("declare the clock's units: `unit second`, `unit minute = 60 seconds`"));
                }
            }
            Stmt::Spend { amount, target, .. } => {
                if let Some(a) = amount {
                    self.expect(a, Ty::Int, "an amount");
                }
                self.target(target, FieldKind::Resource, "spend");
            }
            Stmt::Gain { amount, target, .. } => {
                self.expect(amount, Ty::Int, "an amount");
                self.target(target, FieldKind::Resource, "gain");
            }
            Stmt::Reset { target, value, .. } => {
                self.expect(value, Ty::Int, "a resource's new value");
                self.target(target, FieldKind::Resource, "reset");
            }
            Stmt::Forfeit { target, .. } => {
                self.target(target, FieldKind::Resource, "forfeit");
            }
            Stmt::Set { target, value, .. } => {
                let want = match self.target(target, FieldKind::Stat, "set") {
                    Some(f) => self.decls.field_refers[f as usize].map_or(Ty::Int, Ty::Entity),
                    None => Ty::Error,
                };
                if want == Ty::Error {
                    self.expr(value);
                } else {
                    self.expect(value, want, "a stat's new value");
                }
            }
            Stmt::Mark { target, on, .. } => {
                self.target(target, FieldKind::Flag, if *on { "mark" } else { "clear" });
            }
        }
    }

    /// The chooser of a decision: a character, or a role named directly.
    pub(super) fn chooser(&mut self, e: &Expr) -> Ty {
        if let ExprKind::Name(n) = &e.node
            && self.var(n).is_none()
            && let Some(Sym::Role(_)) = self.decls.lookup(n)
        {
            return Ty::Role;
        }
        let t = self.expr(e);
        if !t.is_entity() {
            self.err(
                Diag::new(
                    "check::type",
                    format!(
                        "the chooser of a decision must be an entity (a character, a player, ...) or a role, but this is {}",
                        self.tn(t)
                    ),
                )
                .label(e.span, self.tn(t))
                .help("name a variable holding a character or a thing, or a role declared with `role NAME`"),
            );
        }
        t
    }

    /// `unless C because "..."` lines.
    pub(super) fn refusals(&mut self, refusals: &[Refusal]) {
        for r in refusals {
            self.expect(&r.cond, Ty::Bool, "an `unless` condition");
            for part in &r.message {
                if let Part::Name(e) = part {
                    self.entity(e, "a name in a message");
                }
            }
        }
    }

    /// `raise T(args)` and `do R(args)`: a declared name, and one character per declared argument.
    fn character_call(&mut self, call: &Call<'_>, declared: &[(String, Vec<u16>)], args: &[Expr], span: Span) {
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
            let want = types.as_ref().and_then(|t| t.get(i)).copied().unwrap_or(CHARACTER);
            self.expect(a, Ty::Entity(want), call.argument);
        }
    }
}

/// How `character_call` names what is called, in its messages.
struct Call<'a> {
    what: &'a str,
    name: &'a Ident,
    label: &'a str,
    help: &'a str,
    declare: &'a str,
    argument: &'a str,
}
