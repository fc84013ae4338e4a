//! The first pass: gathering the declarations of all files into [`Decls`], reporting duplicates,
//! cyclic params and bad units.

use std::collections::HashMap;

use super::decls::has_dice;
use super::{CHARACTER, Decls, FieldKind, Sym, Ty};
use crate::diag::{Capped, Diag};
use crate::limits::MAX_DIAGNOSTICS_PER_FILE;
use crate::syntax::ast::*;

/// Gathers the declarations of all files, reporting duplicates and cyclic params (at most
/// [`MAX_DIAGNOSTICS_PER_FILE`] held per file, the rest counted in `capped`).
pub fn collect<'f>(files: &'f [File], diags: &mut Vec<Diag>, capped: &mut Capped) -> Decls<'f> {
    let mut d = Decls::default();
    d.things.push(("character".into(), "characters".into()));
    let items = files.iter().flat_map(|f| &f.items);
    let characters = items.clone().filter(|i| matches!(i, Item::Character(_))).count();
    d.reserve(items.count(), characters);
    // Types first, so any declaration may name a thing declared after it.
    for item in files.iter().flat_map(|f| &f.items) {
        if let Item::Thing { name, plural, .. } = item {
            d.declare_thing(name, plural, diags);
        }
    }
    for (file_index, file) in files.iter().enumerate() {
        let mut params_here: HashMap<&str, Span> = HashMap::new();
        let mut default_here: Option<Span> = None;
        for item in &file.items {
            if let Item::DefaultPolicy(name) = item {
                default_policy_once(name, &mut default_here, diags);
            }
            d.declare_item(item, file_index, &mut params_here, diags);
            capped.compact(diags, MAX_DIAGNOSTICS_PER_FILE);
        }
    }
    params_graph(&mut d, diags);
    d
}

impl<'f> Decls<'f> {
    /// `thing NAME, PLURAL { ... }`: a type of entity, and the collection of all of them.
    fn declare_thing(&mut self, name: &Ident, plural: &Ident, diags: &mut Vec<Diag>) {
        let t = self.things.len() as u16;
        if name.node == "character" {
            diags.push(
                Diag::new("check::duplicate", "`character` is a built-in type")
                    .label(name.span, "already declared")
                    .help("characters are declared with `character NAME { ... }`; pick another name for this thing"),
            );
            return;
        }
        if self.declare(name, Sym::Thing(t), diags) {
            self.declare(plural, Sym::Plural(t), diags);
            self.things.push((name.node.clone(), plural.node.clone()));
        }
    }

    /// Declares what one item of file number `file_index` names. A dispatch: each arm is one
    /// call, or a short loop declaring a list of names.
    fn declare_item(
        &mut self,
        item: &'f Item,
        file_index: usize,
        params_here: &mut HashMap<&'f str, Span>,
        diags: &mut Vec<Diag>,
    ) {
        match item {
            Item::Ruleset(n) => self.ruleset_name = Some(n.node.clone()),
            Item::Encounter { name, .. } => self.encounter_name = Some(name.node.clone()),
            Item::Param { name, args, value } => self.declare_param(name, args, value, file_index, params_here, diags),
            Item::Global {
                name,
                ty,
                decimals,
                default,
                min,
                max,
            } if self.starts_global(name, file_index) => {
                let given = (ty.as_ref(), *decimals, min.as_deref().or(max.as_deref()));
                self.declare_global_start(name, given, default.as_deref(), diags);
            }
            Item::Stat { .. } | Item::Resource { .. } | Item::Global { .. } | Item::Flag { .. } => {
                self.declare_field(item, CHARACTER, diags);
            }
            Item::Thing { name, fields, .. } => {
                if let Some(t) = self.thing(&name.node) {
                    for f in fields {
                        self.declare_field(f, t, diags);
                    }
                }
            }
            Item::Instance { ty, name, .. } => {
                let known = self.thing(&ty.node).is_some();
                let t = self.resolve_type(Some(ty), diags);
                self.declare_entity(name, t);
                if !known {
                    self.untyped.insert(name.node.clone());
                }
            }
            Item::Effect(names) => {
                for n in names {
                    if self.declare(n, Sym::Field(self.fields.len() as u16, FieldKind::Effect), diags) {
                        self.push_field(&n.node, FieldKind::Effect, CHARACTER, None);
                    }
                }
            }
            Item::Side(names, fields) => {
                for n in names {
                    if self.declare(n, Sym::Side(self.sides.len() as u16), diags) {
                        self.sides.push(n.node.clone());
                    }
                }
                for f in fields {
                    self.declare_field(f, super::decls::SIDE, diags);
                }
            }
            Item::Tag(names) => {
                for n in names {
                    if self.declare(n, Sym::Tag(self.tags.len() as u16), diags) {
                        self.tags.push(n.node.clone());
                    }
                }
            }
            Item::Action(a) => self.declare_action(a, diags),
            Item::Kind(names) => {
                for k in names {
                    if self.kind(&k.node).is_none() {
                        self.kinds.push(k.node.clone());
                    }
                }
            }
            Item::Role(names) => {
                for n in names {
                    if self.declare(n, Sym::Role(self.roles.len() as u16), diags) {
                        self.roles.push(n.node.clone());
                    }
                }
            }
            Item::Trigger { name, params } => self.declare_trigger(name, params, diags),
            Item::Unit { name, of } => self.declare_unit(name, of, diags),
            Item::Hook(h) => walk_block(&h.body, self),
            Item::Measure(m) => {
                if self.declare(&m.name, Sym::Measure(self.measures.len() as u16), diags) {
                    self.measures.push(m.name.node.clone());
                }
                walk_block(&m.hook().body, self);
            }
            Item::Character(c) => {
                for m in c.members() {
                    self.declare_entity(&m, CHARACTER);
                }
            }
            Item::Routine {
                name,
                params,
                gives,
                body,
            } => self.declare_routine(name, params, gives.as_ref(), body, diags),
            Item::Order(o) => self.declare_order(o, diags),
            Item::Policy { name, prefs } => {
                self.declare_policy(name, diags);
                self.policy_prefs.push(prefs);
            }
            Item::Setup(b) | Item::Play(b) => walk_block(b, self),
            Item::Deck {
                name,
                copies,
                refill,
                cast,
            } => {
                if let Some(t) = self.thing(&name.node) {
                    self.declare_deck(t, copies, *refill, cast.as_deref());
                    if cast.is_none() {
                        self.deck_names_once(copies, diags);
                    }
                }
            }
            Item::Forbid { name, .. } => intern(&mut self.option_names, &mut self.options, &name.node),
            Item::Attempt(a) => {
                intern(&mut self.option_names, &mut self.options, &a.name.node);
                if let Some(first) = self.attempts.get(&a.name.node) {
                    diags.push(
                        Diag::new(
                            "check::duplicate",
                            format!("the attempt `{}` is declared twice", a.name.node),
                        )
                        .label(a.name.span, "declared again here")
                        .label(*first, "first declared here")
                        .help(
                            "an attempt has one `attempt` declaration; give the rules that refuse it as `forbid` lines",
                        ),
                    );
                } else {
                    self.attempts.insert(a.name.node.clone(), a.name.span);
                }
                walk_block(&a.body, self);
            }
            _ => {}
        }
    }

    /// `param NAME = EXPR`, set once per file: a later file (an encounter) may override a
    /// ruleset's param, keeping its arguments.
    fn declare_param(
        &mut self,
        name: &'f Ident,
        args: &[(Ident, Option<Ident>)],
        value: &'f Expr,
        file_index: usize,
        params_here: &mut HashMap<&'f str, Span>,
        diags: &mut Vec<Diag>,
    ) {
        if let Some(first) = params_here.get(name.node.as_str()) {
            diags.push(
                Diag::new(
                    "check::duplicate",
                    format!("the param `{}` is set twice in this file", name.node),
                )
                .label(name.span, "set again here")
                .label(*first, "first set here")
                .help("keep one; a later file (an encounter) may override a ruleset's param"),
            );
            return;
        }
        params_here.insert(&name.node, name.span);
        match self.lookup(&name.node) {
            Some(Sym::Param(i)) if file_index > 0 => {
                let want = &self.param_args[i as usize];
                let tys: Vec<Ty> = args
                    .iter()
                    .map(|a| self.arg_type(a.1.as_ref(), Ty::Int, diags))
                    .collect();
                if want.len() != args.len()
                    || want.iter().zip(args).any(|(a, b)| a.0 != b.0.node)
                    || self.param_arg_tys[i as usize] != tys
                {
                    let list: Vec<&str> = want.iter().map(|a| a.0.as_str()).collect();
                    diags.push(
                        Diag::new(
                            "check::arity",
                            format!("`{}` is overridden with other arguments than the ruleset's", name.node),
                        )
                        .label(name.span, "overridden here")
                        .help(format!("keep its arguments: ({})", list.join(", "))),
                    );
                } else {
                    self.param_exprs[i as usize] = value;
                }
            }
            _ => {
                let i = self.params.len() as u16;
                if self.declare(name, Sym::Param(i), diags) {
                    self.params.push(name.node.clone());
                    self.param_exprs.push(value);
                    let tys: Vec<Ty> = args
                        .iter()
                        .map(|a| self.arg_type(a.1.as_ref(), Ty::Int, diags))
                        .collect();
                    for (a, _) in args.iter().zip(&tys).filter(|(_, t)| **t == Ty::Role) {
                        let span = a.1.as_ref().map_or(a.0.span, |t| t.span);
                        diags.push(
                            Diag::new("check::type", "a param's argument cannot be a role")
                                .label(span, "a role")
                                .help("a role only makes decisions, which a param cannot ask: pass it to a routine (`routine NAME(r: role) { choose ... by r { ... } }`)"),
                        );
                    }
                    let args = args
                        .iter()
                        .zip(&tys)
                        .map(|(a, t)| (a.0.node.clone(), if let Ty::Entity(e) = t { Some(*e) } else { None }))
                        .collect();
                    self.param_args.push(args);
                    self.param_arg_tys.push(tys);
                }
            }
        }
    }

    /// `unit NAME [= N UNIT]`: the first unit is the base; each other is a multiple of one declared
    /// before it.
    fn declare_unit(&mut self, name: &Ident, of: &Option<(i64, Ident)>, diags: &mut Vec<Diag>) {
        let size = match of {
            None if self.units.is_empty() => Some(1),
            None => {
                diags.push(
                    Diag::new("check::unit", format!("`{}` would be a second base unit", name.node))
                        .label(name.span, "no size given")
                        .help(format!(
                            "the first unit, `{}`, is the base; give this one a size: `unit {} = N {}`",
                            self.units[0].0, name.node, self.units[0].0
                        )),
                );
                None
            }
            Some((n, u)) => match self.unit(&u.node) {
                Some(i) => self.units[i as usize].1.checked_mul(*n).filter(|s| *s > 0).or_else(|| {
                    diags.push(
                        Diag::new("check::unit", format!("`{}` has no usable size", name.node))
                            .label(name.span, "its size is zero, negative or too large")
                            .help("give a positive size that fits in 64 bits"),
                    );
                    None
                }),
                None => {
                    let names: Vec<&String> = self.units.iter().map(|u| &u.0).collect();
                    let diag = crate::check::unknown("unit", &u.node, u.span, names.into_iter());
                    diags.push(diag.help("a unit is a multiple of a unit declared before it"));
                    None
                }
            },
        };
        // `elapse 2 ticks` would mean either `tick`s or the unit `ticks`.
        let clash = self.units.iter().find_map(|(u, _)| {
            let other = if format!("{u}s") == name.node {
                format!("`{}` is also the plural of the unit `{u}`", name.node)
            } else if format!("{}s", name.node) == *u {
                format!("the plural of `{}` is the unit `{u}`", name.node)
            } else {
                return None;
            };
            Some((other, self.declared_at(u)))
        });
        if let Some((message, other)) = clash {
            let mut d = Diag::new("check::duplicate", message).label(name.span, "declared here");
            if let Some(at) = other {
                d = d.label(at, "the other unit");
            }
            diags.push(d.help(
                "a unit is named in the singular or with an `s` added, so `elapse N NAME` could mean either: give this unit a name of its own",
            ));
            return;
        }
        if let Some(size) = size
            && self.declare(name, Sym::Unit(self.units.len() as u16), diags)
        {
            self.units.push((name.node.clone(), size));
        }
    }

    /// `policy NAME { ... }`: once, and not named like a built-in policy.
    fn declare_policy(&mut self, name: &Ident, diags: &mut Vec<Diag>) {
        if let Some(first) = self.policies.get(&name.node) {
            diags.push(
                Diag::new(
                    "check::duplicate",
                    format!("the policy `{}` is declared twice", name.node),
                )
                .label(name.span, "declared again here")
                .label(*first, "first declared here")
                .help("give each policy its own name"),
            );
        } else if crate::check::is_builtin_policy(&name.node) {
            diags.push(
                Diag::new("check::duplicate", format!("`{}` is a built-in policy", name.node))
                    .label(name.span, "already means something")
                    .help("pick another name; `first` and `random` are built in"),
            );
        } else {
            self.policies.insert(name.node.clone(), name.span);
        }
    }

    /// An action, its kinds, and the levels and decisions in its body.
    fn declare_action(&mut self, a: &ActionDecl, diags: &mut Vec<Diag>) {
        for k in &a.kinds {
            if self.kind(&k.node).is_none() {
                self.kinds.push(k.node.clone());
            }
        }
        if self.declare(&a.name, Sym::Action(self.actions.len() as u16), diags) {
            self.actions.push(a.name.node.clone());
            let kinds = a.kinds.iter().filter_map(|k| self.kind(&k.node)).collect();
            self.action_kinds.push(kinds);
        }
        walk_block(&a.body, self);
    }

    /// `trigger NAME(a, b)`, with the types of its arguments.
    fn declare_trigger(&mut self, name: &Ident, params: &[Typed], diags: &mut Vec<Diag>) {
        if self.declare(name, Sym::Trigger(self.triggers.len() as u16), diags) {
            let types: Vec<Ty> = params
                .iter()
                .map(|p| self.arg_type(p.ty.as_ref(), Ty::Entity(CHARACTER), diags))
                .collect();
            for (p, _) in params.iter().zip(&types).filter(|(_, t)| **t == Ty::Role) {
                diags.push(
                    Diag::new("check::type", "a trigger's argument cannot be a role")
                        .label(p.ty.as_ref().map_or(p.name.span, |t| t.span), "a role")
                        .help("a trigger passes what happened to whom: entities, numbers, truth values and sides; pass a role to a routine"),
                );
            }
            self.triggers.push((name.node.clone(), types));
        }
    }

    /// `routine NAME(a, b) { ... }`, with the types of its parameters, and the levels and
    /// decisions in its body.
    fn declare_routine(
        &mut self,
        name: &Ident,
        params: &[Typed],
        gives: Option<&Ident>,
        body: &Block,
        diags: &mut Vec<Diag>,
    ) {
        if self.declare(name, Sym::Routine(self.routines.len() as u16), diags) {
            let types = params
                .iter()
                .map(|p| self.arg_type(p.ty.as_ref(), Ty::Entity(CHARACTER), diags))
                .collect();
            self.routines.push((name.node.clone(), types));
            let gives = gives.map(|t| self.arg_type(Some(t), Ty::Entity(CHARACTER), diags));
            self.routine_gives.push(gives);
        }
        walk_block(body, self);
    }

    /// An order, its type, and whether a key rolls dice.
    fn declare_order(&mut self, o: &OrderDecl, diags: &mut Vec<Diag>) {
        if self.declare(&o.name, Sym::Order(self.orders.len() as u16), diags) {
            self.orders.push(o.name.node.clone());
            self.order_vars.push(o.var.node.clone());
            let t = match o.ty.as_ref() {
                Some(t) if t.node == "side" => super::SIDE,
                t => self.resolve_type(t, diags),
            };
            self.order_types.push(t);
            // `ties together`: where its first roll-off or `chosen by` key is written, if first.
            if let Some(k) = o.keys.first().filter(|k| k.roll || k.chosen.is_some()) {
                self.order_tiebreak_first.insert(o.name.node.clone(), k.span);
            }
            if let Some(k) = o
                .keys
                .iter()
                .find(|k| k.roll || k.chosen.is_some() || has_dice(&k.value))
            {
                self.order_rolls.insert(o.name.node.clone(), k.span);
            }
            // `chosen by`: a decision named after the order.
            if o.keys.iter().any(|k| k.chosen.is_some()) {
                intern(&mut self.decision_names, &mut self.decisions, &o.name.node);
            }
        }
    }
}

/// `default policy NAME`, once per file: a later file (an encounter) may replace the ruleset's,
/// but two in one file would leave one of them silently unused.
fn default_policy_once(name: &Ident, here: &mut Option<Span>, diags: &mut Vec<Diag>) {
    match here {
        Some(first) => diags.push(
            Diag::new("check::duplicate", "`default policy` is given twice in this file")
                .label(name.span, "given again here")
                .label(*first, "first given here")
                .help("keep one; a later file (an encounter) may replace the ruleset's default policy"),
        ),
        None => *here = Some(name.span),
    }
}

/// The params a param's body uses (its own arguments are not params there), with where.
fn param_uses(d: &Decls<'_>, i: usize) -> Vec<(usize, Span)> {
    let mut names = Vec::new();
    names_in(d.param_exprs[i], &mut names);
    let args = &d.param_args[i];
    names
        .into_iter()
        .filter(|(n, _)| !args.iter().any(|a| a.0 == *n))
        .filter_map(|(n, span)| match d.lookup(&n) {
            Some(Sym::Param(j)) => Some((j as usize, span)),
            _ => None,
        })
        .collect()
}

/// Params may use other params, but not in a cycle, and not in chains deeper than
/// `MAX_PARAM_DEPTH`. One iterative depth-first pass finds cycles and works out which params
/// roll dice, so no input can make it slow or deep.
fn params_graph(d: &mut Decls<'_>, diags: &mut Vec<Diag>) {
    let n = d.params.len();
    let uses: Vec<Vec<(usize, Span)>> = (0..n).map(|i| param_uses(d, i)).collect();
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    let mut depth = vec![0usize; n];
    let mut rolls: Vec<bool> = (0..n).map(|i| has_dice(d.param_exprs[i])).collect();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        // (param, index of the next use to follow)
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (cur, ref mut next)) = stack.last_mut() {
            if let Some(&(j, span)) = uses[cur].get(*next) {
                *next += 1;
                match state[j] {
                    0 => {
                        state[j] = 1;
                        stack.push((j, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|(p, _)| *p == j).unwrap_or(0);
                        let mut names: Vec<&str> = stack[from..].iter().map(|(p, _)| d.params[*p].as_str()).collect();
                        names.push(d.params[j].as_str());
                        diags.push(
                            Diag::new("check::cycle", format!("the param `{}` depends on itself", d.params[j]))
                                .label(span, format!("cycle: {}", names.join(" → ")))
                                .help("a param may use other params, but not in a circle"),
                        );
                        d.param_rolls = vec![false; n];
                        return;
                    }
                    _ => {}
                }
                continue;
            }
            stack.pop();
            state[cur] = 2;
            depth[cur] = 1 + uses[cur].iter().map(|(j, _)| depth[*j]).max().unwrap_or(0);
            rolls[cur] = rolls[cur] || uses[cur].iter().any(|(j, _)| rolls[*j]);
            if depth[cur] > crate::limits::MAX_PARAM_DEPTH {
                diags.push(
                    Diag::new(
                        "check::too_deep",
                        format!(
                            "params use each other more than {} deep",
                            crate::limits::MAX_PARAM_DEPTH
                        ),
                    )
                    .label(
                        uses[cur].first().map_or(Span::default(), |u| u.1),
                        "the chain goes on here",
                    )
                    .help("shorten the chain: a param may use others, but not in chains this long"),
                );
                d.param_rolls = vec![false; n];
                return;
            }
        }
    }
    d.param_rolls = rolls;
}

fn names_in(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.node {
        ExprKind::Name(n) => out.push((n.clone(), e.span)),
        ExprKind::Field(b, _) | ExprKind::Is(b, _) | ExprKind::Unary(_, b) => names_in(b, out),
        ExprKind::Binary(_, l, r) => {
            names_in(l, out);
            names_in(r, out);
        }
        ExprKind::Call(f, args) => {
            out.push((f.node.clone(), f.span));
            args.iter().for_each(|a| names_in(a, out));
        }
        ExprKind::Quant(q) => {
            q.filter.iter().chain(q.body.iter()).for_each(|x| names_in(x, out));
        }
        ExprKind::If(c, a, b) => [c, a, b].iter().for_each(|x| names_in(x, out)),
        ExprKind::Faces(q) => {
            names_in(&q.dice, out);
            q.filter.iter().chain(q.body.iter()).for_each(|x| names_in(x, out));
        }
        _ => {}
    }
}

/// Gives `name` an index in `list` the first time it is seen.
fn intern(index: &mut HashMap<String, u16>, list: &mut Vec<String>, name: &str) {
    if !index.contains_key(name) {
        index.insert(name.to_string(), list.len() as u16);
        list.push(name.to_string());
    }
}

fn walk_block(b: &Block, d: &mut Decls<'_>) {
    for s in &b.stmts {
        match s {
            Stmt::Level { kind, name, body, .. } => {
                if !d.level_names.contains_key(&name.node) {
                    d.level_names.insert(name.node.clone(), d.levels.len() as u16);
                    d.levels.push((name.node.clone(), *kind));
                }
                walk_block(body, d);
            }
            Stmt::Turn { body, .. } | Stmt::Repeat { body, .. } | Stmt::React { body, .. } => walk_block(body, d),
            Stmt::Moment { body, .. } => walk_block(body, d),
            Stmt::ForEach(f) => walk_block(&f.body, d),
            Stmt::Count(c) => walk_block(&c.body, d),
            Stmt::ChooseFrom(c) => {
                let ChooseFrom {
                    name, body, decline, ..
                } = &**c;
                intern(&mut d.decision_names, &mut d.decisions, &name.node);
                walk_block(body, d);
                if let Some(decline) = decline.as_deref() {
                    intern(&mut d.option_names, &mut d.options, &decline.option.node);
                    walk_block(&decline.block, d);
                }
            }
            Stmt::If { then, otherwise, .. } => {
                walk_block(then, d);
                if let Some(o) = otherwise {
                    walk_block(o, d);
                }
            }
            Stmt::Choose { name, options, .. } => {
                intern(&mut d.decision_names, &mut d.decisions, &name.node);
                for o in options {
                    if let Some(n) = &o.name {
                        intern(&mut d.option_names, &mut d.options, &n.node);
                    }
                    walk_block(&o.body, d);
                }
            }
            _ => {}
        }
    }
}
