//! Checking decisions: `choose NAME by WHO { option ... }` and `choose NAME by WHO from COLL`,
//! their chooser, options and refusals.

use super::checker::Checker;
use super::decls::has_dice;
use super::suggest::unknown;
use super::{CHARACTER, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// What is worked out to ask a secret choice made with another's pick (at the head of a
    /// secret option's block) cannot roll dice, nor sort by an order that rolls or asks: it is
    /// asked only when that option is picked, so its rolls (or its question) would tell what was
    /// picked, and the dice of everyone after would depend on it.
    pub(super) fn hidden_ask(&mut self, e: Option<&Expr>, order: Option<&Ident>) {
        let rolls = e.and_then(|e| self.decls.rolls(e));
        let sorts = order.and_then(|o| self.decls.order_rolls.get(&o.node).map(|at| (o.span, *at)));
        let (span, at) = match (rolls, sorts) {
            (Some(span), _) => (span, None),
            (None, Some((o, at))) => (o, Some(at)),
            (None, None) => return,
        };
        let mut d = Diag::new(
            "check::rolled",
            "a secret choice made with another's pick cannot roll dice to work out what it offers",
        )
        .label(
            span,
            if at.is_some() {
                "sorted by an order that rolls or asks"
            } else {
                "rolls here"
            },
        );
        if let Some(at) = at {
            d = d.label(at, "rolls or asks here");
        }
        self.err(d.help(
            "it is asked only when that option is picked, so a roll here would tell what was picked; roll in its block, or keep a roll made before the walk in a field",
        ));
    }

    /// `choose NAME by WHO { option ... }`: at least one option, each named once. `hidden`: a
    /// secret choice made with another's pick.
    pub(super) fn choose(
        &mut self,
        name: &Ident,
        chooser: &Expr,
        options: &[OptionDecl],
        span: Span,
        secret: (bool, bool),
    ) {
        let (secret, hidden) = secret;
        if hidden {
            self.hidden_ask(Some(chooser), None);
            for o in options {
                self.hidden_ask(o.when.as_ref(), None);
                for r in &o.refusals {
                    self.hidden_ask(Some(&r.cond), None);
                }
            }
        }
        let who = self.chooser(chooser);
        if options.is_empty() {
            self.err(
                Diag::new(
                    "check::no_options",
                    format!("the decision `{}` has no options", name.node),
                )
                .label(span, "nothing to choose from")
                .help("add `option NAME { ... }` lines, or `option action` for the action catalogue"),
            );
        }
        let mut seen: Vec<String> = Vec::new();
        for o in options {
            // `option action` may appear once per kind (and `using`) it offers.
            let key = match &o.name {
                Some(n) => n.node.clone(),
                None => {
                    let kinds: Vec<&str> = o.kinds.iter().map(|k| k.node.as_str()).collect();
                    let using = o
                        .using
                        .as_ref()
                        .map(|u| format!(" using {}", u.node))
                        .unwrap_or_default();
                    match kinds.is_empty() {
                        true => format!("action{using}"),
                        false => format!("action of kind {}{using}", kinds.join(", ")),
                    }
                }
            };
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
            self.option(o, who, secret);
        }
        self.policy_conditions(name, None);
    }

    /// The conditions of every policy's preferences for the decision `name`, read here, where it
    /// is made: with the names in scope here, and for `x where C` (only for a `choose ... from`,
    /// whose candidates are of type `candidates`) `x` bound to a candidate.
    pub(super) fn policy_conditions(&mut self, name: &Ident, candidates: Option<Ty>) {
        // Compiled at this `choose`: what is widened here is recorded for here.
        let site = std::mem::replace(&mut self.site, name.span);
        self.policy_conditions_here(name, candidates);
        self.site = site;
    }

    fn policy_conditions_here(&mut self, name: &Ident, candidates: Option<Ty>) {
        let decls = self.decls;
        for (decision, options) in decls.policy_prefs.iter().copied().flatten() {
            if decision.node != name.node {
                continue;
            }
            for pref in options {
                let Some((kind, cond)) = &pref.cond else {
                    continue;
                };
                if has_dice(cond) {
                    self.err(
                        Diag::new("check::policy_dice", "a policy's condition cannot roll dice")
                            .label(cond.span, "dice here")
                            .help("a policy only chooses; keep what is rolled in a field or a global and test that"),
                    );
                }
                match (kind, candidates) {
                    (PrefCond::When, _) => {
                        self.expect(cond, Ty::Bool, "a policy's `when`");
                    }
                    (PrefCond::Where, Some(t)) => {
                        self.bind(&pref.name, t);
                        self.expect(cond, Ty::Bool, "a policy's `where`");
                        self.scopes.pop();
                    }
                    (PrefCond::Where, None) => self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` offers options, not candidates to pick with `where`", name.node),
                        )
                        .label(pref.name.span, "a candidate picked here")
                        .label(name.span, "the decision")
                        .help("name an option, with `when COND` to take it only when COND holds"),
                    ),
                }
            }
        }
    }

    /// One option of a decision whose chooser is of type `who`: `option action` is offered to a
    /// character, and only when actions are declared. In a secret choice (`secret`), its block
    /// runs at the reveal.
    fn option(&mut self, o: &OptionDecl, who: Ty, secret: bool) {
        self.refusals(&o.refusals, "an `unless` condition");
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
                self.err(d.help(
                    "give actions a kind with `action NAME(c) kind K costs ...`, or declare it with `kind K`; a ruleset checked on its own does not see the kinds of actions its encounters declare",
                ));
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
        match secret {
            true => self.deferred_block(&o.body, o.name.as_ref().map_or(o.span, |n| n.span)),
            false => self.block(&o.body),
        }
    }

    /// `choose NAME by WHO from COLL [where C] [by ORDER] [or OPTION { ... }] { ... }`. Takes the
    /// whole statement: it has more parts than a method should take one by one.
    pub(super) fn choose_from(&mut self, c: &ChooseFrom, hidden: bool) {
        if hidden {
            self.hidden_ask(Some(&c.chooser), c.order.as_ref());
            self.hidden_ask(c.filter.as_ref(), None);
            let declines = c.decline.iter().flat_map(|d| d.refusals.iter());
            for r in c.refusals.iter().chain(declines) {
                self.hidden_ask(Some(&r.cond), None);
            }
        }
        let ChooseFrom {
            name,
            chooser,
            var,
            coll,
            filter,
            order,
            body,
            decline,
            refusals,
            ..
        } = c;
        self.chooser(chooser);
        if let Some(decline) = decline.as_deref() {
            let r = self.reader(c);
            let outer = std::mem::replace(&mut self.reading, r);
            self.refusals(&decline.refusals, "an `unless` condition");
            self.reading = outer;
            match c.secret {
                true => self.deferred_block(&decline.block, decline.option.span),
                false => self.block(&decline.block),
            }
        }
        let t = self.collection(coll);
        if t == Ty::Side {
            self.side_walk("a choice", var.span);
        }
        self.presence_of(c.presence, t, var.span);
        if let Some(o) = order {
            self.order_for(o, t);
        }
        self.policy_conditions(name, Some(t));
        self.bind(var, t);
        let r = self.reader(c);
        let outer = std::mem::replace(&mut self.reading, r);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a `where` filter");
        }
        self.refusals(refusals, "an `unless` condition");
        self.reading = outer;
        match c.secret {
            true => self.deferred_block(body, name.span),
            false => self.block(body),
        }
        self.scopes.pop();
        self.bind_pick(c, t);
    }

    /// `out of play`, `including out of play` after a collection of `t` (a `choose ... from`, a
    /// quantifier, a `for each`): only characters go out of play and come back (`leave`,
    /// `join`); a thing is in play until destroyed, and a destroyed one is never walked.
    pub(super) fn presence_of(&mut self, presence: Presence, t: Ty, var: Span) {
        if presence != Presence::InPlay
            && let Ty::Entity(ty) = t
            && ty != CHARACTER
            && ty != super::ANY
        {
            self.err(
                Diag::new(
                    "check::type",
                    format!(
                        "{} never goes out of play, so {} here",
                        self.decls.a_thing(ty),
                        match presence {
                            Presence::Both => "`including out of play` adds no one",
                            _ => "`out of play` names no one",
                        }
                    ),
                )
                .label(var, "drawn from these")
                .help("only characters leave play and join it; a thing is in play until `destroy` takes it for good"),
            );
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
        if t == Ty::Role {
            self.role_choosers.insert(e.span, ());
            return t;
        }
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

    /// `unless C because "..."` lines. A text cannot roll dice: it is worked out when an answer
    /// is refused (and for the REPL's list of what is refused), so a roll there would make the
    /// dice depend on the answers, and in a secret choice tell that an answer was refused.
    pub(super) fn refusals(&mut self, refusals: &[Refusal], what: &str) {
        for r in refusals {
            self.expect(&r.cond, Ty::Bool, what);
            for part in &r.message {
                if let Part::Name(e) = part {
                    if let Some(span) = self.decls.rolls(e) {
                        self.err(
                            Diag::new("check::rolled", "a refusal's text cannot roll dice")
                                .label(span, "rolls here")
                                .help("a text is worked out only when an answer is refused, so its dice would depend on the answers; name a field or a global that holds the roll"),
                        );
                    }
                    // An entity is written by name; a number or truth value as a number.
                    match self.expr(e) {
                        Ty::Int | Ty::Bool => {
                            self.numbers_at.insert(e.span, ());
                        }
                        Ty::Dec(s) => {
                            self.numbers_at.insert(e.span, ());
                            self.decimals_at.insert(e.span, s);
                        }
                        Ty::Entity(_) | Ty::Error => {}
                        other => self.err(
                            Diag::new(
                                "check::type",
                                format!(
                                    "a part of a message must be an entity or a number, but this is {}",
                                    self.tn(other)
                                ),
                            )
                            .label(e.span, self.tn(other))
                            .help("write a character (`{c}`), a field or global (`{c.ap}`, `{malice}`), or a count"),
                        ),
                    }
                }
            }
        }
    }
}
