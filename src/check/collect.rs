//! The first pass: gathering the declarations of all files into [`Decls`], reporting duplicates,
//! cyclic params and bad units.
// Each arm declares, then records: the `if` reads better than a match guard here.
#![allow(clippy::collapsible_match)]

use std::collections::HashMap;

use super::decls::has_dice;
use super::{CHARACTER, Decls, FieldKind, Sym};
use crate::diag::Diag;
use crate::syntax::ast::*;

/// Gathers the declarations of all files, reporting duplicates and cyclic params.
pub fn collect(files: &[File], diags: &mut Vec<Diag>) -> Decls {
    let mut d = Decls::default();
    d.things.push(("character".into(), "characters".into()));
    // Types first, so any declaration may name a thing declared after it.
    for item in files.iter().flat_map(|f| &f.items) {
        if let Item::Thing { name, plural, .. } = item {
            let t = d.things.len() as u16;
            if name.node == "character" {
                diags.push(
                    Diag::new("check::duplicate", "`character` is a built-in type")
                        .label(name.span, "already declared")
                        .help(
                            "characters are declared with `character NAME { ... }`; pick another name for this thing",
                        ),
                );
                continue;
            }
            if d.declare(name, Sym::Thing(t), diags) {
                d.declare(plural, Sym::Plural(t), diags);
                d.things.push((name.node.clone(), plural.node.clone()));
            }
        }
    }
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
                                || want
                                    .iter()
                                    .zip(args)
                                    .any(|(a, b)| a.0 != b.0.node || a.1.is_some() != b.1.is_some())
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
                                let args = args
                                    .iter()
                                    .map(|a| (a.0.node.clone(), a.1.as_ref().map(|t| d.resolve_type(Some(t), diags))))
                                    .collect();
                                d.param_args.push(args);
                            }
                        }
                    }
                }
                Item::Stat { .. } | Item::Resource { .. } | Item::Global { .. } | Item::Flag { .. } => {
                    d.declare_field(item, CHARACTER, diags);
                }
                Item::Thing { name, fields, .. } => {
                    if let Some(t) = d.thing(&name.node) {
                        for f in fields {
                            d.declare_field(f, t, diags);
                        }
                    }
                }
                Item::Instance { ty, name, .. } => {
                    let t = d.resolve_type(Some(ty), diags);
                    d.character_names.push(name.node.clone());
                    d.entity_types.push(t);
                }
                Item::Effect(names) => {
                    for n in names {
                        if d.declare(n, Sym::Field(d.fields.len() as u16, FieldKind::Effect), diags) {
                            d.push_field(&n.node, FieldKind::Effect, CHARACTER, None);
                        }
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
                        let types = params.iter().map(|p| d.resolve_type(p.ty.as_ref(), diags)).collect();
                        d.triggers.push((name.node.clone(), types));
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
                Item::Character(c) => {
                    d.character_names.push(c.name.node.clone());
                    d.entity_types.push(CHARACTER);
                }
                Item::Routine { name, params, body } => {
                    if d.declare(name, Sym::Routine(d.routines.len() as u16), diags) {
                        let types = params.iter().map(|p| d.resolve_type(p.ty.as_ref(), diags)).collect();
                        d.routines.push((name.node.clone(), types));
                    }
                    walk_block(body, &mut d);
                }
                Item::Order(o) => {
                    if d.declare(&o.name, Sym::Order(d.orders.len() as u16), diags) {
                        d.orders.push(o.name.node.clone());
                        let t = d.resolve_type(o.ty.as_ref(), diags);
                        d.order_types.push(t);
                        if let Some(k) = o.keys.iter().find(|k| k.roll || has_dice(&k.value)) {
                            d.order_rolls.insert(o.name.node.clone(), k.span);
                        }
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
