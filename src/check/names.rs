//! Collecting declarations: the symbol table ([`Decls`]) every later stage resolves names with.
// Each arm declares, then records: the `if` reads better than a match guard here.
#![allow(clippy::collapsible_match)]

use std::collections::HashMap;

use crate::diag::Diag;
use crate::syntax::ast::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Stat,
    Resource,
    Flag,
    /// A number of the table (`global`), not of a character.
    Global,
    /// An effect: true on a character while an instance is active.
    Effect,
}

impl FieldKind {
    /// The noun with its article: "a stat", "an effect".
    pub fn a(self) -> String {
        match self {
            FieldKind::Effect => "an effect".into(),
            k => format!("a {}", k.noun()),
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            FieldKind::Stat => "stat",
            FieldKind::Resource => "resource",
            FieldKind::Flag => "flag",
            FieldKind::Global => "global",
            FieldKind::Effect => "effect",
        }
    }
}

/// What a declared name is, with its index among its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sym {
    Param(u16),
    Field(u16, FieldKind),
    Side(u16),
    Tag(u16),
    Action(u16),
    Order(u16),
    Role(u16),
    Trigger(u16),
    Unit(u16),
    Routine(u16),
}

/// Every declared name of a run, by kind, in declaration order.
#[derive(Debug, Default)]
pub struct Decls {
    pub ruleset_name: Option<String>,
    pub encounter_name: Option<String>,
    globals: HashMap<String, (Sym, Span)>,
    pub params: Vec<String>,
    /// The expression in force for each param: the last file that sets it wins.
    pub param_exprs: Vec<Expr>,
    /// The arguments of each param (empty for a plain param): name, and whether a character.
    pub param_args: Vec<Vec<(String, bool)>>,
    /// Whether each param may roll dice (through its body or the params it uses).
    pub param_rolls: Vec<bool>,
    pub fields: Vec<(String, FieldKind)>,
    pub sides: Vec<String>,
    pub tags: Vec<String>,
    pub actions: Vec<String>,
    pub orders: Vec<String>,
    pub policies: HashMap<String, Span>,
    /// Level names in the order they first appear in `setup` and `play`, with their kind.
    pub levels: Vec<(String, LevelKind)>,
    pub level_names: HashMap<String, u16>,
    pub decisions: Vec<String>,
    pub decision_names: HashMap<String, u16>,
    pub options: Vec<String>,
    pub option_names: HashMap<String, u16>,
    /// Stats that every character must give, with the span of their declaration.
    pub stats_without_default: Vec<(String, Span)>,
    pub roles: Vec<String>,
    /// Each trigger's name and number of arguments.
    pub triggers: Vec<(String, usize)>,
    /// Units of the game clock: name and size in the base unit.
    pub units: Vec<(String, i64)>,
    /// Kinds of action (`kind K`), in the order they first appear.
    pub kinds: Vec<String>,
    /// Each routine's name and number of parameters.
    pub routines: Vec<(String, usize)>,
    /// The characters' names, in the order they are declared (their ids).
    pub character_names: Vec<String>,
}

impl Decls {
    pub fn lookup(&self, name: &str) -> Option<Sym> {
        self.globals.get(name).map(|(s, _)| *s)
    }

    pub fn field(&self, name: &str) -> Option<(u16, FieldKind)> {
        match self.lookup(name) {
            Some(Sym::Field(i, k)) => Some((i, k)),
            _ => None,
        }
    }

    /// A unit by its name or its plural (`minute`, `minutes`).
    pub fn unit(&self, name: &str) -> Option<u16> {
        let find = |n: &str| match self.lookup(n) {
            Some(Sym::Unit(i)) => Some(i),
            _ => None,
        };
        find(name).or_else(|| name.strip_suffix('s').and_then(find))
    }

    pub fn kind(&self, name: &str) -> Option<u16> {
        self.kinds.iter().position(|k| k == name).map(|i| i as u16)
    }

    pub fn field_names(&self) -> impl Iterator<Item = &String> {
        self.fields.iter().map(|f| &f.0)
    }

    /// The span of the first dice expression `e` may roll, following params.
    pub fn rolls(&self, e: &Expr) -> Option<Span> {
        let mut found = None;
        walk_expr(e, &mut |x| {
            if found.is_some() {
                return;
            }
            let param = match &x.node {
                ExprKind::Dice(_) => {
                    found = Some(x.span);
                    return;
                }
                ExprKind::Name(n) => self.lookup(n),
                ExprKind::Call(f, _) => self.lookup(&f.node),
                _ => None,
            };
            if let Some(Sym::Param(i)) = param
                && self.param_rolls.get(i as usize).copied().unwrap_or(false)
            {
                found = Some(x.span);
            }
        });
        found
    }

    fn declare(&mut self, name: &Ident, sym: Sym, diags: &mut Vec<Diag>) -> bool {
        if let Some((_, first)) = self.globals.get(&name.node) {
            diags.push(
                Diag::new("check::duplicate", format!("`{}` is declared twice", name.node))
                    .label(name.span, "declared again here")
                    .label(*first, "first declared here")
                    .help("every param, stat, resource, flag, side, tag, action, order, role, trigger, unit, global and routine needs its own name"),
            );
            return false;
        }
        self.globals.insert(name.node.clone(), (sym, name.span));
        true
    }
}

/// Gathers the declarations of all files, reporting duplicates and cyclic params.
pub fn collect(files: &[File], diags: &mut Vec<Diag>) -> Decls {
    let mut d = Decls::default();
    for (file_index, file) in files.iter().enumerate() {
        let mut params_here: HashMap<&str, Span> = HashMap::new();
        for item in &file.items {
            match item {
                Item::Ruleset(n) => d.ruleset_name = Some(n.node.clone()),
                Item::Encounter(n) => d.encounter_name = Some(n.node.clone()),
                Item::Param { name, args, value } => {
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
                        continue;
                    }
                    params_here.insert(&name.node, name.span);
                    match d.lookup(&name.node) {
                        Some(Sym::Param(i)) if file_index > 0 => {
                            let want = &d.param_args[i as usize];
                            if want.len() != args.len()
                                || want.iter().zip(args).any(|(a, b)| a.0 != b.0.node || a.1 != b.1)
                            {
                                let list: Vec<&str> = want.iter().map(|a| a.0.as_str()).collect();
                                diags.push(
                                    Diag::new(
                                        "check::arity",
                                        format!(
                                            "`{}` is overridden with other arguments than the ruleset's",
                                            name.node
                                        ),
                                    )
                                    .label(name.span, "overridden here")
                                    .help(format!("keep its arguments: ({})", list.join(", "))),
                                );
                            } else {
                                d.param_exprs[i as usize] = value.clone();
                            }
                        }
                        _ => {
                            let i = d.params.len() as u16;
                            if d.declare(name, Sym::Param(i), diags) {
                                d.params.push(name.node.clone());
                                d.param_exprs.push(value.clone());
                                d.param_args
                                    .push(args.iter().map(|a| (a.0.node.clone(), a.1)).collect());
                            }
                        }
                    }
                }
                Item::Stat { name, default } => {
                    if d.declare(name, Sym::Field(d.fields.len() as u16, FieldKind::Stat), diags) {
                        d.fields.push((name.node.clone(), FieldKind::Stat));
                        if default.is_none() {
                            d.stats_without_default.push((name.node.clone(), name.span));
                        }
                    }
                }
                Item::Resource { name, .. } => {
                    if d.declare(name, Sym::Field(d.fields.len() as u16, FieldKind::Resource), diags) {
                        d.fields.push((name.node.clone(), FieldKind::Resource));
                    }
                }
                Item::Effect(names) => {
                    for n in names {
                        if d.declare(n, Sym::Field(d.fields.len() as u16, FieldKind::Effect), diags) {
                            d.fields.push((n.node.clone(), FieldKind::Effect));
                        }
                    }
                }
                Item::Global { name, .. } => {
                    if d.declare(name, Sym::Field(d.fields.len() as u16, FieldKind::Global), diags) {
                        d.fields.push((name.node.clone(), FieldKind::Global));
                    }
                }
                Item::Flag { name, .. } => {
                    if d.declare(name, Sym::Field(d.fields.len() as u16, FieldKind::Flag), diags) {
                        d.fields.push((name.node.clone(), FieldKind::Flag));
                    }
                }
                Item::Side(names) => {
                    for n in names {
                        if d.declare(n, Sym::Side(d.sides.len() as u16), diags) {
                            d.sides.push(n.node.clone());
                        }
                    }
                }
                Item::Tag(names) => {
                    for n in names {
                        if d.declare(n, Sym::Tag(d.tags.len() as u16), diags) {
                            d.tags.push(n.node.clone());
                        }
                    }
                }
                Item::Action(a) => {
                    if d.declare(&a.name, Sym::Action(d.actions.len() as u16), diags) {
                        d.actions.push(a.name.node.clone());
                    }
                    for k in &a.kinds {
                        if d.kind(&k.node).is_none() {
                            d.kinds.push(k.node.clone());
                        }
                    }
                    walk_block(&a.body, &mut d);
                }
                Item::Role(names) => {
                    for n in names {
                        if d.declare(n, Sym::Role(d.roles.len() as u16), diags) {
                            d.roles.push(n.node.clone());
                        }
                    }
                }
                Item::Trigger { name, params } => {
                    if d.declare(name, Sym::Trigger(d.triggers.len() as u16), diags) {
                        d.triggers.push((name.node.clone(), params.len()));
                    }
                }
                Item::Unit { name, of } => {
                    let size = match of {
                        None if d.units.is_empty() => Some(1),
                        None => {
                            diags.push(
                                Diag::new("check::unit", format!("`{}` would be a second base unit", name.node))
                                    .label(name.span, "no size given")
                                    .help(format!(
                                        "the first unit, `{}`, is the base; give this one a size: `unit {} = N {}`",
                                        d.units[0].0, name.node, d.units[0].0
                                    )),
                            );
                            None
                        }
                        Some((n, u)) => match d.unit(&u.node) {
                            Some(i) => d.units[i as usize].1.checked_mul(*n).filter(|s| *s > 0).or_else(|| {
                                diags.push(
                                    Diag::new("check::unit", format!("`{}` has no usable size", name.node))
                                        .label(name.span, "its size is zero, negative or too large")
                                        .help("give a positive size that fits in 64 bits"),
                                );
                                None
                            }),
                            None => {
                                let names: Vec<&String> = d.units.iter().map(|u| &u.0).collect();
                                let diag = crate::check::unknown("unit", &u.node, u.span, names.into_iter());
                                diags.push(diag.help("a unit is a multiple of a unit declared before it"));
                                None
                            }
                        },
                    };
                    if let Some(size) = size
                        && d.declare(name, Sym::Unit(d.units.len() as u16), diags)
                    {
                        d.units.push((name.node.clone(), size));
                    }
                }
                Item::Hook(h) => walk_block(&h.body, &mut d),
                Item::Character(c) => d.character_names.push(c.name.node.clone()),
                Item::Routine { name, params, body } => {
                    if d.declare(name, Sym::Routine(d.routines.len() as u16), diags) {
                        d.routines.push((name.node.clone(), params.len()));
                    }
                    walk_block(body, &mut d);
                }
                Item::Order(o) => {
                    if d.declare(&o.name, Sym::Order(d.orders.len() as u16), diags) {
                        d.orders.push(o.name.node.clone());
                    }
                }
                Item::Policy { name, .. } => {
                    if let Some(first) = d.policies.get(&name.node) {
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
                        d.policies.insert(name.node.clone(), name.span);
                    }
                }
                Item::Setup(b) | Item::Play(b) => walk_block(b, &mut d),
                _ => {}
            }
        }
    }
    params_graph(&mut d, diags);
    d
}

/// The params a param's body uses (its own arguments are not params there), with where.
fn param_uses(d: &Decls, i: usize) -> Vec<(usize, Span)> {
    let mut names = Vec::new();
    names_in(&d.param_exprs[i], &mut names);
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
fn params_graph(d: &mut Decls, diags: &mut Vec<Diag>) {
    let n = d.params.len();
    let uses: Vec<Vec<(usize, Span)>> = (0..n).map(|i| param_uses(d, i)).collect();
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    let mut depth = vec![0usize; n];
    let mut rolls: Vec<bool> = (0..n).map(|i| has_dice(&d.param_exprs[i])).collect();
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

fn has_dice(e: &Expr) -> bool {
    let mut found = false;
    walk_expr(e, &mut |x| found |= matches!(x.node, ExprKind::Dice(_)));
    found
}

/// Calls `f` on every sub-expression of `e`, `e` first.
fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.node {
        ExprKind::Field(b, _) | ExprKind::Is(b, _) | ExprKind::Unary(_, b) => walk_expr(b, f),
        ExprKind::Binary(_, l, r) => {
            walk_expr(l, f);
            walk_expr(r, f);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| walk_expr(a, f)),
        ExprKind::Quant { filter, body, .. } => filter.iter().chain(body.iter()).for_each(|x| walk_expr(x, f)),
        ExprKind::If(c, a, b) => [c, a, b].iter().for_each(|x| walk_expr(x, f)),
        _ => {}
    }
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
        ExprKind::Quant { filter, body, .. } => {
            filter.iter().chain(body.iter()).for_each(|x| names_in(x, out));
        }
        ExprKind::If(c, a, b) => [c, a, b].iter().for_each(|x| names_in(x, out)),
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

fn walk_block(b: &Block, d: &mut Decls) {
    for s in &b.stmts {
        match s {
            Stmt::Level { kind, name, body, .. } => {
                if !d.level_names.contains_key(&name.node) {
                    d.level_names.insert(name.node.clone(), d.levels.len() as u16);
                    d.levels.push((name.node.clone(), *kind));
                }
                walk_block(body, d);
            }
            Stmt::Turn { body, .. }
            | Stmt::ForEach { body, .. }
            | Stmt::Repeat { body, .. }
            | Stmt::React { body, .. } => walk_block(body, d),
            Stmt::ChooseFrom {
                name, body, decline, ..
            } => {
                intern(&mut d.decision_names, &mut d.decisions, &name.node);
                walk_block(body, d);
                if let Some((option, block)) = decline.as_deref() {
                    intern(&mut d.option_names, &mut d.options, &option.node);
                    walk_block(block, d);
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
