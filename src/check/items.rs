//! Checking each kind of top-level item: params, fields, actions, orders, policies, hooks,
//! routines and triggers.

use super::checker::Checker;
use super::fixed::{Fixed, Val, above, fixed, widen};
use super::suggest::unknown;
use super::{CHAR, CHARACTER, FieldKind, ROLE, SIDE, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// One top-level item. A dispatch: each arm is one call (or a loop of them), in source order.
    pub(super) fn item(&mut self, item: &Item) {
        match item {
            Item::Param { name, args, value } => self.param(name, args, value),
            Item::Stat {
                ty,
                default: Some(e),
                decimals,
                ..
            } => self.field_default(ty.as_ref(), *decimals, e, "a stat's default"),
            Item::Thing {
                fields,
                name,
                stands_for,
                ..
            } => {
                let t = self.decls.thing(&name.node).unwrap_or(CHARACTER);
                let outer = std::mem::replace(&mut self.field_owner, t);
                for f in fields {
                    self.item(f);
                }
                self.field_owner = outer;
                if let Some(f) = stands_for {
                    self.stands_for(name, f);
                }
            }
            Item::Side(_, fields) => self.side_fields(fields),
            Item::Resource {
                owner: Some(owner),
                min,
                max,
                decimals,
                default,
                ..
            } => self.owned_limits(owner, [min.as_deref(), max.as_deref()], default.as_deref(), *decimals),
            Item::Resource {
                name,
                min,
                max,
                decimals,
                default,
                ..
            } => {
                if let Some(e) = default {
                    self.field_default(None, *decimals, e, "a resource's default");
                }
                self.limits(name, min.as_deref(), max.as_deref(), *decimals, "a resource limit")
            }
            Item::Global { name, default, .. } if self.global_start(name, default.as_deref()) => {}
            Item::Global {
                name,
                default,
                min,
                max,
                ty,
                decimals,
            } => {
                if let Some(e) = default {
                    self.field_default(ty.as_ref(), *decimals, e, "a global's default");
                }
                // A truth global's limits are refused as it is declared (`truth.rs`).
                if !self.decls.is_truth(ty.as_ref()) {
                    self.limits(name, min.as_deref(), max.as_deref(), *decimals, "a global's limit");
                }
            }
            Item::Flag { per, default, .. } => {
                if let Some(d) = default {
                    self.expect(d, Ty::Bool, "a flag's default");
                }
                for level in per {
                    if let Per::Level(level) = level {
                        self.flag_per(level);
                    }
                }
            }
            Item::Action(a) => self.action(a),
            Item::Order(o) => self.order_decl(o),
            Item::Policy { prefs, .. } => self.policy(prefs),
            Item::DefaultPolicy(name) => self.default_policy(name),
            Item::Setup(b) => self.play_block(b),
            Item::Play(b) => self.play_block(b),
            Item::Hook(h) => self.hook(h),
            Item::Measure(m) => self.hook(&m.hook()),
            Item::Routine {
                name,
                params,
                gives,
                body,
            } => self.routine(name, params, gives.as_ref(), body),
            Item::Forbid { who, rule, name } => {
                if self.decls.entity(&name.node).is_some() {
                    self.err(
                        Diag::new(
                            "check::duplicate",
                            format!("`{}` is an entity's name, not an attempt", name.node),
                        )
                        .label(name.span, "forbidden here")
                        .help("name the attempt itself (`forbid act_early(c) ...`); `c` is who attempts it"),
                    );
                }
                if let Some(w) = who {
                    self.bind(w, CHAR);
                }
                self.refusals(std::slice::from_ref(rule), "a `forbid` condition");
                // Worked out only when the attempt is answered: a roll would make the dice
                // depend on the answers (and, in a secret choice, tell what was attempted).
                if let Some(span) = self.decls.rolls(&rule.cond) {
                    self.err(
                        Diag::new("check::rolled", "a `forbid` condition cannot roll dice")
                            .label(span, "rolls here")
                            .help("it is worked out only when the attempt is answered, so its dice would depend on the answers; test a field or a global that holds the roll"),
                    );
                }
                if who.is_some() {
                    self.scopes.pop();
                }
            }
            Item::Attempt(a) => self.attempt(a),
            Item::Trigger { name, params } => {
                self.arg_count("trigger", name, params.len());
                self.distinct("trigger", &params.iter().map(|p| &p.name).collect::<Vec<_>>());
            }
            _ => {}
        }
    }

    /// `param NAME = EXPR` gives a number; `param NAME(a, b) = EXPR` anything but a role.
    fn param(&mut self, name: &Ident, args: &[(Ident, Option<Ident>)], value: &Expr) {
        self.arg_count("param", name, args.len());
        self.distinct("param", &args.iter().map(|a| &a.0).collect::<Vec<_>>());
        // Arguments may take declared names (`param plus(die) = die + 1` beside `param die`): a
        // param's body only reads, and reads its arguments first; nothing in it can change the
        // declaration they hide.
        if args.is_empty() {
            let t = self.expr(value);
            if t.scale().is_none() && !t.fits(Ty::Bool) {
                self.err(
                    Diag::new(
                        "check::type",
                        format!("a param must be a number or a truth value, but this is {}", self.tn(t)),
                    )
                    .label(value.span, self.tn(t))
                    .help("give it a number, dice, or `true`/`false`; a param with arguments may give an entity"),
                );
            }
        } else {
            let params = self.decls.lookup(&name.node);
            let types = match params {
                Some(Sym::Param(i)) => self.param_vars(i as usize),
                _ => Vec::new(),
            };
            let scopes = self.bind_args(types.into_iter());
            let t = self.expr(value);
            if matches!(t, Ty::Role) {
                self.err(
                    Diag::new("check::type", "a param cannot give a role")
                        .label(value.span, "a role")
                        .help("a param with arguments gives a number, a truth value, an entity or a side"),
                );
            }
            self.scopes = scopes;
        }
    }

    /// A stat's or global's default: a number, or an entity of its type (`stat NAME: TYPE`).
    fn field_default(&mut self, ty: Option<&Ident>, decimals: u8, e: &Expr, what: &str) {
        let want = if ty.is_some() {
            self.thing_ty(ty)
        } else {
            Ty::of_scale(decimals)
        };
        self.expect(e, want, what);
    }

    /// A resource's or global's `min` and `max`: fixed numbers, in its decimals, worked out here
    /// (they are evaluated as the run starts, before any field or global has its value), and
    /// `min` no more than `max`.
    fn limits(&mut self, name: &Ident, min: Option<&Expr>, max: Option<&Expr>, decimals: u8, what: &str) {
        let mut values = Vec::new();
        for e in min.into_iter().chain(max) {
            let before = self.diags.len();
            self.expect(e, Ty::of_scale(decimals), what);
            self.no_dice(e, what);
            match fixed(self.decls, e, &[], 0) {
                // Kept at the field's decimals, it must still fit in 64 bits.
                Fixed::Is(Val::Num(n, s))
                    if self.diags.len() == before && widen(n, decimals.saturating_sub(s)).is_none() =>
                {
                    values.push(None);
                    self.err(
                        Diag::new(
                            "check::limits",
                            format!("{what} is too large to keep at {decimals} decimals"),
                        )
                        .label(e.span, "past the largest number at these decimals")
                        .help("use fewer decimals, or a smaller limit"),
                    );
                }
                Fixed::Is(v) if self.diags.len() == before => values.push(Some(v)),
                Fixed::Reads(at) if self.diags.len() == before => {
                    values.push(None);
                    let mut d = Diag::new(
                        "check::limits",
                        format!("{what} must be a fixed number, but this reads the state"),
                    )
                    .label(at, "read as the run starts, before anything has its value");
                    if at != e.span {
                        d = d.label(e.span, "in this limit");
                    }
                    self.err(d.help(
                        "write a number, a param, or arithmetic of them: limits are worked out once, as the run starts",
                    ));
                }
                // Fixed, with no error of its own reported, but no value: it divides by zero or
                // runs past the largest number; the run would stop on it as it starts.
                Fixed::Unknown if self.diags.len() == before => {
                    values.push(None);
                    self.err(
                        Diag::new("check::limits", format!("{what} cannot be worked out"))
                            .label(e.span, "divides by zero, or runs past the largest number")
                            .help("write the limit as a number, or fix the arithmetic"),
                    );
                }
                _ => values.push(None),
            }
        }
        if let (Some(lo), Some(hi), [Some(a), Some(b)]) = (min, max, values.as_slice())
            && above(*a, *b)
        {
            self.err(
                Diag::new("check::limits", format!("`{}` has a `min` above its `max`", name.node))
                    .label(lo.span, format!("min {}", shown(*a)))
                    .label(hi.span, format!("max {}", shown(*b)))
                    .help("no value lies between them: swap them, or fix the one that is wrong"),
            );
        }
    }

    /// `flag NAME per LEVEL`: a known level.
    fn flag_per(&mut self, level: &Ident) {
        // `per turn` with no level named `turn`: cleared as each of its owner's turns starts.
        if level.node == "turn" && !self.decls.level_names.contains_key("turn") {
            return;
        }
        if !self.decls.level_names.contains_key(&level.node) {
            let d = unknown("level", &level.node, level.span, self.decls.level_names.keys());
            self.err(
                d.help("a flag `per LEVEL` is cleared as each iteration of that level starts; name a level of `play`"),
            );
        }
    }

    /// `thing NAME, PLURAL for FIELD`: a field of the thing that holds an entity.
    fn stands_for(&mut self, thing: &Ident, f: &Ident) {
        let Some(t) = self.decls.thing(&thing.node) else {
            return;
        };
        match self.decls.field_of(t, &f.node) {
            Some((i, _)) if matches!(self.decls.field_refers[i as usize], Some(t) if t != SIDE && t != ROLE) => {}
            found => {
                let what = if found.is_some() {
                    "does not hold an entity"
                } else {
                    "is not one of its fields"
                };
                self.err(
                    Diag::new(
                        "check::type",
                        format!(
                            "a {} stands for the entity a field holds, but `{}` {what}",
                            thing.node, f.node
                        ),
                    )
                    .label(f.span, "not a field holding an entity")
                    .help(format!("declare it in the thing: `stat {}: character`", f.node)),
                );
            }
        }
    }

    /// An action: its costs, its `when` and its body, with the actor in scope.
    fn action(&mut self, a: &ActionDecl) {
        self.bind(&a.actor, CHAR);
        for c in &a.costs {
            let f = self.field(CHARACTER, &c.resource, FieldKind::Resource, "pay a cost in");
            let want = f.map_or(Ty::Int, |f| self.decls.field_ty(f));
            self.expect(&c.amount, want, "a cost");
            self.no_dice(&c.amount, "a cost");
        }
        if let Some(w) = &a.when {
            self.expect(w, Ty::Bool, "an action's `when`");
        }
        self.block(&a.body);
        self.scopes.pop();
    }

    /// `order NAME(x) { KEY ... }`: keys that are numbers or truth values; `until settled` rolls.
    fn order_decl(&mut self, o: &OrderDecl) {
        self.side_order_keys(o);
        let t = self.thing_ty(o.ty.as_ref());
        let t_order = t;
        self.bind(&o.var, t);
        for k in &o.keys {
            // A truth value sorts false before true: `c.FLAG asc` puts those with the flag last.
            let t = if k.chosen.is_some() {
                Ty::Int
            } else {
                self.expr(&k.value)
            };
            if !matches!(t, Ty::Int | Ty::Dec(_) | Ty::Bool | Ty::Error) {
                self.err(
                    Diag::new(
                        "check::type",
                        format!(
                            "an ordering key must be a number or a truth value, but this is {}",
                            self.tn(t)
                        ),
                    )
                    .label(k.value.span, self.tn(t))
                    .help("sort by a stat, a resource, a flag or an expression of them"),
                );
            }
            if let Some(n) = &k.at_most {
                self.expect(n, Ty::Int, "`at most`");
                // A fixed count below 1 would never roll (`run::at_most` if it comes to that).
                if let Fixed::Is(Val::Num(v, 0)) = fixed(self.decls, n, &[], 0)
                    && v < 1
                {
                    self.err(
                        Diag::new("check::limits", format!("`until settled at most {v}` would never roll"))
                            .label(n.span, "the most rolls of a tied group, the first included")
                            .help("write at least 1, or drop the `roll` key"),
                    );
                }
            }
            // `tied`: the group the key would sort, in its `when` and its chooser.
            self.tied = Some(t_order);
            if let Some(w) = &k.when {
                self.expect(w, Ty::Bool, "a key's `when`");
            }
            if let Some(who) = &k.chosen {
                self.chooser(who);
                // The decision is named after the order; its policies' conditions are read here.
                self.policy_conditions(&o.name, Some(t_order));
            }
            self.tied = None;
            if k.until_settled && !k.roll {
                self.err(
                    Diag::new("check::settled_without_roll", "`until settled` needs a key that rolls")
                        .label(k.span, "this key does not roll")
                        .help("write `roll DICE desc until settled`"),
                );
            }
        }
        self.scopes.pop();
    }

    /// `policy NAME { DECISION: OPTION, ... }`: known decisions, and options each could offer.
    fn policy(&mut self, prefs: &[(Ident, Vec<Pref>)]) {
        for (decision, options) in prefs {
            if !self.decls.decision_names.contains_key(&decision.node) {
                let d = unknown(
                    "decision",
                    &decision.node,
                    decision.span,
                    self.decls.decision_names.keys(),
                );
                self.err(d.help("a policy lists options for decisions named by `choose NAME by ...`"));
                continue;
            }
            // A `where` preference names a variable, not an option.
            for o in options.iter().filter(|o| !matches!(o.cond, Some((PrefCond::Where, _)))) {
                let o = &o.name;
                let known = self.decls.option_names.contains_key(&o.node)
                    || matches!(self.decls.lookup(&o.node), Some(Sym::Action(_)))
                    || self.decls.entity(&o.node).is_some();
                if !known {
                    let d = unknown("option", &o.node, o.span, self.decls.option_names.keys());
                    self.err(d.help(
                        "name an option of that decision, an action, or a character (a policy in an encounter file may name its cast)",
                    ));
                }
            }
        }
    }

    /// `default policy NAME`: a declared or built-in policy.
    fn default_policy(&mut self, name: &Ident) {
        if !self.decls.policies.contains_key(&name.node) && !is_builtin_policy(&name.node) {
            let d = unknown("policy", &name.node, name.span, self.decls.policies.keys());
            self.err(d.help("declare it with `policy NAME { ... }`, or use `first` or `random`"));
        }
    }

    /// Rejects a parameter list that names the same argument twice.
    pub(super) fn distinct(&mut self, what: &str, args: &[&Ident]) {
        for (i, a) in args.iter().enumerate() {
            if args[..i].iter().any(|b| b.node == a.node) {
                self.err(
                    Diag::new(
                        "check::duplicate",
                        format!("the {what} names `{}` twice among its arguments", a.node),
                    )
                    .label(a.span, "again here")
                    .help("give each argument its own name"),
                );
            }
        }
    }

    pub(super) fn arg_count(&mut self, what: &str, name: &Ident, n: usize) {
        let most = crate::limits::MAX_TRIGGER_ARGS;
        if n > most {
            self.err(
                Diag::new(
                    "check::arity",
                    format!("the {what} `{}` has {n} parameters; the most is {most}", name.node),
                )
                .label(name.span, "too many parameters")
                .help("pass fewer characters; the body can find the others with a quantifier"),
            );
        }
    }

    pub(super) fn hook(&mut self, h: &HookDecl) {
        if matches!(h.on, HookOn::Join | HookOn::Leave) && h.vars.len() != 1 {
            self.err(
                Diag::new(
                    "check::arity",
                    format!("`on join` and `on leave` bind one character, not {}", h.vars.len()),
                )
                .label(h.span, "this hook")
                .help("write `on join(c) { ... }`"),
            );
        }
        match &h.on {
            HookOn::LevelStart(l) | HookOn::LevelEnd(l) if !self.decls.level_names.contains_key(&l.node) => {
                self.not_a_level(l);
            }
            HookOn::Trigger(t) => match self.decls.lookup(&t.node) {
                Some(Sym::Trigger(i)) => {
                    let want = self.decls.triggers[i as usize].1.len();
                    if want != h.vars.len() {
                        self.err(
                            Diag::new(
                                "check::arity",
                                format!("the trigger `{}` has {want} argument(s), not {}", t.node, h.vars.len()),
                            )
                            .label(t.span, "bound here")
                            .help("bind one variable per argument the trigger declares"),
                        );
                    }
                }
                _ => {
                    let names: Vec<&String> = self.decls.triggers.iter().map(|t| &t.0).collect();
                    let d = unknown("trigger", &t.node, t.span, names.into_iter());
                    self.err(d.help("declare it with `trigger NAME(c)`; raise it with `raise NAME(c)`"));
                }
            },
            other => self.hook_point(other),
        }
        let types: Vec<Ty> = match &h.on {
            HookOn::Trigger(t) => match self.decls.lookup(&t.node) {
                Some(Sym::Trigger(i)) => self.decls.triggers[i as usize].1.clone(),
                _ => Vec::new(),
            },
            _ => vec![Ty::Entity(
                self.decls
                    .thing(h.turn_ty.as_ref().map_or("character", |t| t.node.as_str()))
                    .unwrap_or(CHARACTER),
            )],
        };
        if let Some(t) = &h.turn_ty {
            self.type_name(t);
        }
        let vars: Vec<(Ident, Ty)> = h
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.clone(), types.get(i).copied().unwrap_or(Ty::Entity(CHARACTER))))
            .collect();
        self.detached(&vars, h.filter.as_ref(), &h.body);
    }

    /// Reports a written type that is neither `character` nor a declared thing.
    pub(super) fn type_name(&mut self, t: &Ident) {
        if self.decls.thing(&t.node).is_none() {
            let names: Vec<&String> = self.decls.things.iter().map(|t| &t.0).collect();
            let d = unknown("type", &t.node, t.span, names.into_iter());
            self.err(d.help("a type is `character` or a thing declared with `thing NAME, PLURAL { ... }`"));
        }
    }

    /// A hook's or routine's body: its variables in scope, inside no level and no `repeat`.
    pub(super) fn detached(&mut self, vars: &[(Ident, Ty)], filter: Option<&Expr>, body: &Block) {
        let depth = self.scopes.len();
        // It runs later (a readied response): no pool rolled around it may be read in it.
        let barrier = std::mem::replace(&mut self.pools.barrier, depth);
        for (v, t) in vars {
            self.bind(v, *t);
        }
        let (levels, repeats, together, deferred) = (
            std::mem::take(&mut self.levels),
            std::mem::replace(&mut self.repeats, 0),
            std::mem::replace(&mut self.together, 0),
            self.deferred.take(),
        );
        let (walks, revealed) = (std::mem::take(&mut self.walks), self.revealed.take());
        // A routine that gives checks its `give`s; any other block run later gives nothing, and
        // changes no local named outside it (it runs on a copy).
        let giving = std::mem::replace(&mut self.giving, self.next_giving.take());
        let fence = std::mem::replace(&mut self.fence, depth);
        let sheltered = std::mem::replace(&mut self.sheltered, 0);
        // It runs wherever it is performed or fired: no moment written around it is open then.
        let moments = std::mem::take(&mut self.moments);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a hook's `where`");
        }
        self.block(body);
        self.moments = moments;
        self.levels = levels;
        self.repeats = repeats;
        self.together = together;
        self.deferred = deferred;
        self.walks = walks;
        self.revealed = revealed;
        self.pools.barrier = barrier;
        self.giving = giving;
        self.fence = fence;
        self.sheltered = sheltered;
        self.scopes.truncate(depth);
    }
}

pub fn is_builtin_policy(name: &str) -> bool {
    matches!(name, "first" | "random")
}

/// A fixed number as written: `5`, `9.5`.
fn shown(v: Val) -> String {
    match v {
        Val::Num(n, 0) => n.to_string(),
        Val::Num(n, s) => match 10u64.checked_pow(u32::from(s)) {
            Some(p) => {
                let sign = if n < 0 { "-" } else { "" };
                let n = n.unsigned_abs();
                format!("{sign}{}.{:0width$}", n / p, n % p, width = usize::from(s))
            }
            None => format!("{n} × 10^-{s}"),
        },
        Val::Bool(b) => b.to_string(),
    }
}
