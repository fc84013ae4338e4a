//! Stage 2: the checker. Finds every error of a set of parsed files in one pass: unknown and
//! duplicate names, wrong kinds, type errors, `end` outside its level, decisions without options,
//! characters missing a stat. Its output, [`Checked`], is the symbol table the compiler lowers with.

mod names;

use crate::diag::Diag;
use crate::syntax::ast::*;
pub use names::{CHARACTER, Decls, FieldKind, Sym};

use std::collections::HashMap;

/// Parsed files that passed the checker, with their symbol table.
#[derive(Debug)]
pub struct Checked {
    pub files: Vec<File>,
    pub decls: Decls,
    /// The field each `x.FIELD` and target names, by the span of the field's name: a thing's
    /// fields are found through the type of `x`, which only the checker knows.
    pub fields_at: HashMap<Span, u16>,
}

/// `none`'s type: an entity of any type.
pub const ANY: u16 = u16::MAX;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    /// An entity of a type ([`CHARACTER`], a thing, or [`ANY`] for `none`).
    Entity(u16),
    Side,
    /// A decider who is not a character (declared with `role NAME`).
    Role,
    /// An error was already reported for this expression.
    Error,
}

const CHAR: Ty = Ty::Entity(CHARACTER);

impl Ty {
    /// Whether a value of this type may stand where `want` is expected (`none` is any entity).
    fn fits(self, want: Ty) -> bool {
        self == want || self == Ty::Error || matches!((self, want), (Ty::Entity(ANY), Ty::Entity(_)))
    }

    fn is_entity(self) -> bool {
        matches!(self, Ty::Entity(_) | Ty::Error)
    }
}

/// Checks the files of one run (a ruleset, then encounters) together.
pub fn check(files: Vec<File>) -> Result<Checked, Vec<Diag>> {
    let mut diags = Vec::new();
    let decls = names::collect(&files, &mut diags);
    let mut c = Checker {
        decls: &decls,
        diags: &mut diags,
        scopes: Vec::new(),
        levels: Vec::new(),
        repeats: 0,
        param_tys: vec![None; decls.params.len()],
        silent: false,
        fields_at: HashMap::new(),
    };
    for file in &files {
        for item in &file.items {
            c.item(item);
        }
    }
    c.characters(&files);
    let fields_at = std::mem::take(&mut c.fields_at);
    if diags.is_empty() {
        Ok(Checked {
            files,
            decls,
            fields_at,
        })
    } else {
        Err(diags)
    }
}

struct Checker<'a> {
    decls: &'a Decls,
    diags: &'a mut Vec<Diag>,
    /// Variables in scope with their types, innermost last.
    scopes: Vec<(String, Ty)>,
    /// Names of the enclosing levels, innermost last.
    levels: Vec<String>,
    /// How many `repeat` loops enclose the statement being checked.
    repeats: usize,
    /// The type each param with arguments gives, once worked out.
    param_tys: Vec<Option<Ty>>,
    /// Working out a type: report nothing.
    silent: bool,
    fields_at: HashMap<Span, u16>,
}

impl Checker<'_> {
    fn err(&mut self, d: Diag) {
        if !self.silent {
            self.diags.push(d);
        }
    }

    /// The type of a variable in scope.
    fn var(&self, name: &str) -> Option<Ty> {
        self.scopes.iter().rev().find(|s| s.0 == name).map(|s| s.1)
    }

    fn bind(&mut self, name: &Ident, t: Ty) {
        self.scopes.push((name.node.clone(), t));
    }

    /// A type's name with its article, for messages.
    fn tn(&self, t: Ty) -> String {
        match t {
            Ty::Int => "a number".into(),
            Ty::Bool => "a truth value".into(),
            Ty::Entity(ANY) => "`none`".into(),
            Ty::Entity(t) => self.decls.a_thing(t),
            Ty::Side => "a side".into(),
            Ty::Role => "a role".into(),
            Ty::Error => "an invalid value".into(),
        }
    }

    /// A written type (`None`: a character).
    fn thing_ty(&self, t: Option<&Ident>) -> Ty {
        Ty::Entity(t.and_then(|t| self.decls.thing(&t.node)).unwrap_or(CHARACTER))
    }

    /// Puts a param's arguments in scope (numbers, or entities), returning what was there.
    fn bind_args(&mut self, args: impl Iterator<Item = (String, Option<u16>)>) -> Vec<(String, Ty)> {
        let scopes = std::mem::take(&mut self.scopes);
        for (a, t) in args {
            self.scopes.push((a, t.map_or(Ty::Int, Ty::Entity)));
        }
        scopes
    }

    /// The type a param with arguments gives (its body's), worked out once, silently.
    fn param_type(&mut self, i: usize) -> Ty {
        if let Some(t) = self.param_tys.get(i).copied().flatten() {
            return t;
        }
        let Some(body) = self.decls.param_exprs.get(i) else {
            return Ty::Error;
        };
        let body = body.clone();
        self.param_tys[i] = Some(Ty::Error); // a cycle (reported elsewhere) gives an error type
        let args = self.decls.param_args[i].clone();
        let silent = std::mem::replace(&mut self.silent, true);
        let scopes = self.bind_args(args.into_iter());
        let t = if self.decls.param_args[i].is_empty() {
            Ty::Int
        } else {
            self.expr(&body)
        };
        self.scopes = scopes;
        self.silent = silent;
        self.param_tys[i] = Some(t);
        t
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Param { name, args, value } => {
                self.arg_count("param", name, args.len());
                self.distinct("param", &args.iter().map(|a| &a.0).collect::<Vec<_>>());
                if args.is_empty() {
                    self.expect(value, Ty::Int, "a param");
                } else {
                    let params = self.decls.lookup(&name.node);
                    let types = match params {
                        Some(Sym::Param(i)) => self.decls.param_args[i as usize].clone(),
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
            Item::Stat {
                ty, default: Some(e), ..
            } => {
                let want = if ty.is_some() {
                    self.thing_ty(ty.as_ref())
                } else {
                    Ty::Int
                };
                self.expect(e, want, "a stat's default");
            }
            Item::Thing { fields, .. } => {
                for f in fields {
                    self.item(f);
                }
            }
            Item::Resource { min, max, .. } => {
                for e in min.iter().chain(max.iter()) {
                    self.expect(e, Ty::Int, "a resource limit");
                    self.no_dice(e, "a resource limit");
                }
            }
            Item::Global {
                default, min, max, ty, ..
            } => {
                if let Some(e) = default {
                    let want = if ty.is_some() {
                        self.thing_ty(ty.as_ref())
                    } else {
                        Ty::Int
                    };
                    self.expect(e, want, "a global's default");
                }
                for e in min.iter().chain(max.iter()) {
                    self.expect(e, Ty::Int, "a global's limit");
                    self.no_dice(e, "a global's limit");
                }
            }
            Item::Flag { per: Some(level), .. } if !self.decls.level_names.contains_key(&level.node) => {
                let d = unknown("level", &level.node, level.span, self.decls.level_names.keys());
                self.err(d.help(
                    "a flag `per LEVEL` is cleared as each iteration of that level starts; name a level of `play`",
                ));
            }
            Item::Action(a) => {
                self.bind(&a.actor, CHAR);
                for c in &a.costs {
                    self.expect(&c.amount, Ty::Int, "a cost");
                    self.no_dice(&c.amount, "a cost");
                    self.field(CHARACTER, &c.resource, FieldKind::Resource, "pay a cost in");
                }
                if let Some(w) = &a.when {
                    self.expect(w, Ty::Bool, "an action's `when`");
                }
                self.block(&a.body);
                self.scopes.pop();
            }
            Item::Order(o) => {
                let t = self.thing_ty(o.ty.as_ref());
                self.bind(&o.var, t);
                for k in &o.keys {
                    // A truth value sorts false before true: `c.FLAG asc` puts those with the flag last.
                    let t = self.expr(&k.value);
                    if !matches!(t, Ty::Int | Ty::Bool | Ty::Error) {
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
            Item::Policy { prefs, .. } => {
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
                    for o in options {
                        let known = self.decls.option_names.contains_key(&o.node)
                            || matches!(self.decls.lookup(&o.node), Some(Sym::Action(_)))
                            || self.decls.character_names.contains(&o.node);
                        if !known {
                            let d = unknown("option", &o.node, o.span, self.decls.option_names.keys());
                            self.err(d.help(
                                "name an option of that decision, an action, or a character (a policy in an encounter file may name its cast)",
                            ));
                        }
                    }
                }
            }
            Item::DefaultPolicy(name)
                if !self.decls.policies.contains_key(&name.node) && !is_builtin_policy(&name.node) =>
            {
                let d = unknown("policy", &name.node, name.span, self.decls.policies.keys());
                self.err(d.help("declare it with `policy NAME { ... }`, or use `first` or `random`"));
            }
            Item::Setup(b) => self.block(b),
            Item::Play(b) => self.block(b),
            Item::Hook(h) => self.hook(h),
            Item::Routine { name, params, body } => {
                self.arg_count("routine", name, params.len());
                self.distinct("routine", &params.iter().map(|p| &p.name).collect::<Vec<_>>());
                let vars: Vec<(Ident, Ty)> = params
                    .iter()
                    .map(|p| (p.name.clone(), self.thing_ty(p.ty.as_ref())))
                    .collect();
                self.detached(&vars, None, body);
            }
            Item::Trigger { name, params } => {
                self.arg_count("trigger", name, params.len());
                self.distinct("trigger", &params.iter().map(|p| &p.name).collect::<Vec<_>>());
            }
            _ => {}
        }
    }

    fn effect(&mut self, e: &Ident) {
        if !matches!(self.decls.field(&e.node), Some((_, FieldKind::Effect))) {
            let names: Vec<&String> = self
                .decls
                .fields
                .iter()
                .filter(|f| f.1 == FieldKind::Effect)
                .map(|f| &f.0)
                .collect();
            let d = unknown("effect", &e.node, e.span, names.into_iter());
            self.err(d.help(format!("declare it with `effect {}`", e.node)));
        }
    }

    /// Rejects a parameter list that names the same argument twice.
    fn distinct(&mut self, what: &str, args: &[&Ident]) {
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

    fn arg_count(&mut self, what: &str, name: &Ident, n: usize) {
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

    fn hook(&mut self, h: &HookDecl) {
        match &h.on {
            HookOn::LevelStart(l) | HookOn::LevelEnd(l) if !self.decls.level_names.contains_key(&l.node) => {
                let d = unknown("level", &l.node, l.span, self.decls.level_names.keys());
                self.err(d.help("a hook `on start of LEVEL` names a level of `setup` or `play`"));
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
            _ => {}
        }
        let types: Vec<u16> = match &h.on {
            HookOn::Trigger(t) => match self.decls.lookup(&t.node) {
                Some(Sym::Trigger(i)) => self.decls.triggers[i as usize].1.clone(),
                _ => Vec::new(),
            },
            _ => vec![
                self.decls
                    .thing(h.turn_ty.as_ref().map_or("character", |t| t.node.as_str()))
                    .unwrap_or(CHARACTER),
            ],
        };
        if let Some(t) = &h.turn_ty {
            self.type_name(t);
        }
        let vars: Vec<(Ident, Ty)> = h
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.clone(), Ty::Entity(types.get(i).copied().unwrap_or(CHARACTER))))
            .collect();
        self.detached(&vars, h.filter.as_ref(), &h.body);
    }

    /// Reports a written type that is neither `character` nor a declared thing.
    fn type_name(&mut self, t: &Ident) {
        if self.decls.thing(&t.node).is_none() {
            let names: Vec<&String> = self.decls.things.iter().map(|t| &t.0).collect();
            let d = unknown("type", &t.node, t.span, names.into_iter());
            self.err(d.help("a type is `character` or a thing declared with `thing NAME, PLURAL { ... }`"));
        }
    }

    /// A hook's or routine's body: its variables in scope, inside no level and no `repeat`.
    fn detached(&mut self, vars: &[(Ident, Ty)], filter: Option<&Expr>, body: &Block) {
        let depth = self.scopes.len();
        self.scopes.extend(vars.iter().map(|(v, t)| (v.node.clone(), *t)));
        let (levels, repeats) = (
            std::mem::take(&mut self.levels),
            std::mem::replace(&mut self.repeats, 0),
        );
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a hook's `where`");
        }
        self.block(body);
        self.levels = levels;
        self.repeats = repeats;
        self.scopes.truncate(depth);
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

    /// A collection: `characters`, a thing's plural, or a ranked order; gives the type it holds.
    fn collection(&mut self, coll: &Collection) -> Ty {
        match coll {
            Collection::Characters => CHAR,
            Collection::Ranked(o) => match self.decls.lookup(&o.node) {
                Some(Sym::Plural(t)) => Ty::Entity(t),
                _ => self.order(o),
            },
        }
    }

    /// An order by name; gives the type it sorts.
    fn order(&mut self, o: &Ident) -> Ty {
        match self.decls.lookup(&o.node) {
            Some(Sym::Order(i)) => Ty::Entity(self.decls.order_types.get(i as usize).copied().unwrap_or(CHARACTER)),
            _ => {
                let plurals = self.decls.things.iter().map(|t| &t.1);
                let names: Vec<&String> = self.decls.orders.iter().chain(plurals).collect();
                let d = unknown("order or collection", &o.node, o.span, names.into_iter());
                self.err(d.help("declare an order with `order NAME(c) { c.stat desc ... }`, or a thing with `thing NAME, PLURAL { ... }`"));
                Ty::Error
            }
        }
    }

    /// `by ORDER` on a walk of `coll`: the order must sort the same type.
    fn order_for(&mut self, o: &Ident, elem: Ty) {
        let t = self.order(o);
        if t != Ty::Error && elem != Ty::Error && t != elem {
            self.err(
                Diag::new(
                    "check::type",
                    format!("`{}` sorts {}, but this walks {}", o.node, self.tn(t), self.tn(elem)),
                )
                .label(o.span, "another type of entity")
                .help("sort a collection by an order declared for its type: `order NAME(x: TYPE) { ... }`"),
            );
        }
    }

    /// The chooser of a decision: a character, or a role named directly.
    fn chooser(&mut self, e: &Expr) -> Ty {
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

    /// Every character: known side and tags, known fields of the right kind, every stat given.
    fn characters(&mut self, files: &[File]) {
        let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
        for file in files {
            for item in &file.items {
                if let Item::Instance { ty, name, fields } = item {
                    self.type_name(ty);
                    if let Some(first) = seen.get(name.node.as_str()) {
                        self.err(
                            Diag::new("check::duplicate", format!("two entities are called {}", name.node))
                                .label(name.span, "again here")
                                .label(*first, "first here")
                                .help("give each its own name: answers and the trace name them"),
                        );
                    }
                    seen.insert(&name.node, name.span);
                    if let Some(t) = self.decls.thing(&ty.node) {
                        if t == CHARACTER {
                            self.err(
                                Diag::new("check::wrong_kind", "declare a character with `character NAME { ... }`")
                                    .label(ty.span, "not a thing")
                                    .help("`character` declarations also take `side` and `tag`"),
                            );
                        }
                        self.given_fields(t, &name.node, fields);
                    }
                    continue;
                }
                let Item::Character(ch) = item else { continue };
                // Answers, the trace and the REPL name characters: two of one name would be ambiguous.
                if let Some(first) = seen.get(ch.name.node.as_str()) {
                    self.err(
                        Diag::new(
                            "check::duplicate",
                            format!("two characters are called {}", ch.name.node),
                        )
                        .label(ch.name.span, "again here")
                        .label(*first, "first here")
                        .help("give each character its own name: answers and the trace name characters"),
                    );
                }
                seen.insert(&ch.name.node, ch.name.span);
                if seen.len() == crate::limits::MAX_CHARACTERS + 1 {
                    self.err(
                        Diag::new(
                            "check::too_many",
                            format!("more than {} characters", crate::limits::MAX_CHARACTERS),
                        )
                        .label(ch.name.span, "one too many")
                        .help("split the encounter: this is far beyond a table's cast"),
                    );
                }
                if let Some(side) = &ch.side
                    && !matches!(self.decls.lookup(&side.node), Some(Sym::Side(_)))
                {
                    let d = unknown("side", &side.node, side.span, self.decls.sides.iter());
                    self.err(d.help("declare it in the ruleset with `side NAME`"));
                }
                for tag in &ch.tags {
                    if !matches!(self.decls.lookup(&tag.node), Some(Sym::Tag(_))) {
                        let d = unknown("tag", &tag.node, tag.span, self.decls.tags.iter());
                        self.err(d.help("declare it in the ruleset with `tag NAME`"));
                    }
                }
                let given = self.given_fields(CHARACTER, &ch.name.node, &ch.fields);
                for (name, span) in &self.decls.stats_without_default {
                    if !given.contains(&name.as_str()) {
                        let d = Diag::new("check::missing_stat", format!("{} has no `{}`", ch.name.node, name))
                            .label(ch.name.span, format!("`{name}` is not given here"))
                            .label(*span, "the stat is declared here without a default")
                            .help(format!("add `{name} = N` to this character, or give the stat a default: `stat {name} default N`"));
                        self.err(d);
                    }
                }
            }
        }
    }

    /// `field = value` lines for an entity of type `owner`: known fields of the right kind, each
    /// once, values of the field's type. Gives the names given.
    fn given_fields<'f>(&mut self, owner: u16, who: &str, fields: &'f [(Ident, Expr)]) -> Vec<&'f str> {
        let mut given: Vec<&str> = Vec::new();
        for (f, e) in fields {
            if given.contains(&f.node.as_str()) {
                self.err(
                    Diag::new("check::duplicate", format!("`{}` is given twice for {who}", f.node))
                        .label(f.span, "given again here")
                        .help("keep one of them"),
                );
            }
            given.push(&f.node);
            match self.decls.field_of(owner, &f.node) {
                Some((i, FieldKind::Stat | FieldKind::Resource)) => {
                    self.fields_at.insert(f.span, i);
                    let want = self.decls.field_refers[i as usize].map_or(Ty::Int, Ty::Entity);
                    self.expect(e, want, &format!("{}'s stat", self.decls.a_thing(owner)));
                }
                Some((i, FieldKind::Flag)) => {
                    self.fields_at.insert(f.span, i);
                    self.expect(e, Ty::Bool, &format!("{}'s flag", self.decls.a_thing(owner)));
                }
                Some((_, FieldKind::Effect)) => {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` is an effect: it is begun in play", f.node),
                        )
                        .label(f.span, "an effect")
                        .help(format!("begin it with `begin {} on c for N counted at ...`", f.node)),
                    );
                }
                _ if owner == CHARACTER && matches!(self.decls.field(&f.node), Some((_, FieldKind::Global))) => {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` is a global: it belongs to no character", f.node),
                        )
                        .label(f.span, "a global")
                        .help("set a global's start with `default` in its declaration, or in `setup`"),
                    );
                }
                _ if owner == CHARACTER => {
                    let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                    self.err(d.help("declare it in the ruleset with `stat NAME` or `resource NAME`"));
                }
                _ => {
                    let names = self.decls.fields_of(owner);
                    let d = unknown("field", &f.node, f.span, names.into_iter());
                    self.err(d.help(format!(
                        "declare it in `thing {}` with `stat NAME`, `resource NAME` or `flag NAME`",
                        self.decls.things[owner as usize].0
                    )));
                }
            }
        }
        given
    }

    /// A block's statements; the names `let` and `create ... as` bind end with it.
    fn block(&mut self, b: &Block) {
        let depth = self.scopes.len();
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.truncate(depth);
    }

    fn stmt(&mut self, s: &Stmt) {
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

    /// `x.FIELD` or a global as a statement's target; gives the field when it resolves.
    fn target(&mut self, t: &Target, want: FieldKind, verb: &str) -> Option<u16> {
        let f = &t.field;
        match (&t.var, self.decls.field(&f.node)) {
            (Some(v), field) => {
                let owner = match self.var(&v.node) {
                    Some(Ty::Entity(o)) if o != ANY => o,
                    Some(Ty::Error) => return None,
                    Some(other) => {
                        self.err(
                            Diag::new(
                                "check::type",
                                format!("`{}` is {}: it has no fields", v.node, self.tn(other)),
                            )
                            .label(v.span, self.tn(other))
                            .help("name a variable holding a character or a thing"),
                        );
                        return None;
                    }
                    None => {
                        let names: Vec<&String> = self.scopes.iter().map(|s| &s.0).collect();
                        let d = unknown("character variable", &v.node, v.span, names.into_iter());
                        self.err(d.help("bind a character first, e.g. `for each c in characters { ... }`"));
                        CHARACTER
                    }
                };
                if owner != CHARACTER {
                    return self.field(owner, f, want, verb);
                }
                if let Some((_, FieldKind::Global)) = field {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` is a global: it belongs to no character", f.node),
                        )
                        .label(t.span, "a global")
                        .help(format!("write it alone: `{verb} ... {}`", f.node)),
                    );
                } else {
                    return self.field(CHARACTER, f, want, verb);
                }
                None
            }
            (None, Some((i, FieldKind::Global))) if want != FieldKind::Flag => {
                self.fields_at.insert(f.span, i);
                Some(i)
            }
            (None, Some((_, FieldKind::Global))) => {
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        format!("cannot {verb} `{}`: it is a global, not a flag", f.node),
                    )
                    .label(f.span, "a global")
                    .help("`mark` and `clear` work on flags; give a global a value with `set` or `reset`"),
                );
                None
            }
            (None, Some(_)) => {
                self.err(
                    Diag::new(
                        "check::unqualified",
                        format!("`{}` belongs to a character: say whose", f.node),
                    )
                    .label(f.span, "whose?")
                    .help(format!("write `c.{}` with a character variable `c`", f.node)),
                );
                None
            }
            (None, None) => {
                let d = unknown("global", &f.node, f.span, self.decls.field_names());
                self.err(d.help(format!(
                    "declare it with `global {}`, or write `c.{}` for a character's",
                    f.node, f.node
                )));
                None
            }
        }
    }

    /// A field of an entity of type `owner` that a statement acts on, of the kind it needs.
    fn field(&mut self, owner: u16, f: &Ident, want: FieldKind, verb: &str) -> Option<u16> {
        let found = if owner == CHARACTER {
            self.decls.field(&f.node)
        } else {
            self.decls.field_of(owner, &f.node)
        };
        if let Some((i, kind)) = found
            && kind == want
        {
            self.fields_at.insert(f.span, i);
            return Some(i);
        }
        match found {
            None if owner != CHARACTER => {
                let names = self.decls.fields_of(owner);
                let d = unknown(want.noun(), &f.node, f.span, names.into_iter());
                self.err(d.help(format!(
                    "declare it in `thing {}` with `{} {}`",
                    self.decls.things[owner as usize].0,
                    want.noun(),
                    f.node
                )));
            }
            None => {
                let d = unknown(want.noun(), &f.node, f.span, self.decls.field_names());
                self.err(d.help(format!("declare it with `{} {}`", want.noun(), f.node)));
            }
            Some((_, kind)) if kind != want => {
                self.err(
                    Diag::new("check::wrong_kind", format!("cannot {verb} `{}`: it is {}, not {}", f.node, kind.a(), want.a()))
                        .label(f.span, kind.a())
                        .help(match want {
                            FieldKind::Resource => "spend, gain, reset and forfeit work on resources; use `set` for stats, `mark`/`clear` for flags",
                            FieldKind::Stat => "`set` works on stats; use `reset` for resources, `mark`/`clear` for flags",
                            FieldKind::Flag => "`mark` and `clear` work on flags",
                            FieldKind::Global => "a global is written alone, without `c.`",
                            FieldKind::Effect => "effects are begun with `begin` and ended with `stop`",
                        }),
                );
            }
            Some(_) => {}
        }
        None
    }

    /// An expression that must give an entity of any type; gives its type.
    fn entity(&mut self, e: &Expr, what: &str) -> Ty {
        let t = self.expr(e);
        if !t.is_entity() {
            self.err(
                Diag::new(
                    "check::type",
                    format!("{what} needs an entity, but this is {}", self.tn(t)),
                )
                .label(e.span, self.tn(t))
                .help("use a variable holding a character or a thing"),
            );
        }
        t
    }

    /// `unless C because "..."` lines.
    fn refusals(&mut self, refusals: &[Refusal]) {
        for r in refusals {
            self.expect(&r.cond, Ty::Bool, "an `unless` condition");
            for part in &r.message {
                if let Part::Name(e) = part {
                    self.entity(e, "a name in a message");
                }
            }
        }
    }

    /// An order used inside an expression must not roll: an expression only reads the state.
    fn no_rolling_order(&mut self, o: &Ident) {
        let keys = self.decls.order_rolls.get(&o.node).copied();
        if let Some(span) = keys {
            self.err(
                Diag::new(
                    "check::rolled",
                    format!(
                        "`{}` rolls dice to sort, so it cannot sort inside an expression",
                        o.node
                    ),
                )
                .label(o.span, "used here")
                .label(span, "rolls here")
                .help("sort by an order whose keys do not roll, or `rank` it first and walk the kept order"),
            );
        }
    }

    fn no_dice(&mut self, e: &Expr, what: &str) {
        if let Some(span) = self.decls.rolls(e) {
            self.err(
                Diag::new(
                    "check::rolled",
                    format!("{what} must be a fixed number, but this rolls dice"),
                )
                .label(span, "rolls here")
                .help("use a number or a param holding a number"),
            );
        }
    }

    fn expect(&mut self, e: &Expr, want: Ty, what: &str) -> Ty {
        let got = self.expr(e);
        if !got.fits(want) && want != Ty::Error {
            self.err(
                Diag::new(
                    "check::type",
                    format!("{what} must be {}, but this is {}", self.tn(want), self.tn(got)),
                )
                .label(e.span, self.tn(got))
                .help(match want {
                    Ty::Bool if got == Ty::Side => {
                        "test membership with `c is SIDE`, or compare sides: `a.side == b.side`"
                    }
                    Ty::Bool => "compare it, e.g. `c.FIELD > 0`, or use a flag",
                    Ty::Int => "use a number, a stat, a resource, dice or a param",
                    Ty::Entity(CHARACTER) => "use a character variable bound by `for each` or a quantifier",
                    _ => "use a variable holding an entity of that type, or `none`",
                }),
            );
        }
        got
    }

    fn expr(&mut self, e: &Expr) -> Ty {
        match &e.node {
            ExprKind::Int(_) | ExprKind::Dice(_) => Ty::Int,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::None => Ty::Entity(ANY),
            ExprKind::Name(n) => {
                // Quantifier variables are bound inside a param's body, so they shadow its arguments.
                if let Some(t) = self.var(n) {
                    return t;
                }
                match self.decls.lookup(n) {
                    Some(Sym::Param(i)) => {
                        let args = &self.decls.param_args[i as usize];
                        if !args.is_empty() {
                            let list = args.iter().map(|a| a.0.as_str()).collect::<Vec<_>>().join(", ");
                            self.err(
                                Diag::new("check::arity", format!("the param `{n}` takes arguments: ({list})"))
                                    .label(e.span, "used without them")
                                    .help(format!("call it: `{n}({list})`")),
                            );
                            return Ty::Error;
                        }
                        Ty::Int
                    }
                    Some(Sym::Field(i, FieldKind::Global)) => {
                        self.decls.field_refers[i as usize].map_or(Ty::Int, Ty::Entity)
                    }
                    Some(Sym::Side(_)) => Ty::Side,
                    Some(Sym::Role(_)) => {
                        self.err(
                            Diag::new("check::type", format!("the role `{n}` can only make decisions"))
                                .label(e.span, "used as a value")
                                .help(format!(
                                    "name it as the chooser of a decision: `choose NAME by {n} {{ ... }}`"
                                )),
                        );
                        Ty::Error
                    }
                    Some(Sym::Tag(_)) => {
                        self.err(
                            Diag::new("check::membership", format!("`{n}` is a tag, not a value"))
                                .label(e.span, "used as a value")
                                .help(format!("test membership with `c is {n}`")),
                        );
                        Ty::Error
                    }
                    Some(Sym::Field(..)) => {
                        self.err(
                            Diag::new("check::unqualified", format!("`{n}` belongs to a character: say whose"))
                                .label(e.span, "whose?")
                                .help(format!("write `c.{n}` with a character variable `c`")),
                        );
                        Ty::Error
                    }
                    _ => {
                        // A declared entity by its name: `owner = Bolt` in an encounter.
                        if let Some(i) = self.decls.character_names.iter().position(|c| c == n) {
                            return Ty::Entity(self.decls.entity_types[i]);
                        }
                        let cands: Vec<String> = self
                            .scopes
                            .iter()
                            .map(|s| s.0.clone())
                            .chain(self.decls.params.iter().cloned())
                            .collect();
                        let d = unknown("name", n, e.span, cands.iter());
                        self.err(d.help("a bare name is a param, a variable, a global or a declared entity"));
                        Ty::Error
                    }
                }
            }
            ExprKind::Field(base, f) => {
                if let ExprKind::Name(n) = &base.node
                    && self.var(n).is_none()
                    && self.decls.level_names.contains_key(n)
                {
                    if f.node != "number" {
                        self.err(
                            Diag::new("check::unknown", format!("a level has no `{}`", f.node))
                                .label(f.span, "not a property of a level")
                                .help(format!("`{n}.number` is the level's current iteration, from 1")),
                        );
                        return Ty::Error;
                    }
                    return Ty::Int;
                }
                let bt = self.expr(base);
                if f.node == "side" && matches!(bt, Ty::Entity(CHARACTER) | Ty::Error) {
                    return Ty::Side;
                }
                let owner = match bt {
                    Ty::Error => return Ty::Error,
                    Ty::Entity(t) if t != ANY => t,
                    _ => {
                        self.err(
                            Diag::new(
                                "check::type",
                                format!("only a character or a thing has fields, but this is {}", self.tn(bt)),
                            )
                            .label(base.span, self.tn(bt))
                            .help("write `c.field` with a variable holding a character or a thing"),
                        );
                        return Ty::Error;
                    }
                };
                if owner != CHARACTER {
                    return match self.decls.field_of(owner, &f.node) {
                        Some((i, kind)) => {
                            self.fields_at.insert(f.span, i);
                            match kind {
                                FieldKind::Flag | FieldKind::Effect => Ty::Bool,
                                _ => self.decls.field_refers[i as usize].map_or(Ty::Int, Ty::Entity),
                            }
                        }
                        None => {
                            let names = self.decls.fields_of(owner);
                            let d = unknown("field", &f.node, f.span, names.into_iter());
                            self.err(d.help(format!(
                                "{} has the fields declared in `thing {}`",
                                self.decls.a_thing(owner),
                                self.decls.things[owner as usize].0
                            )));
                            Ty::Error
                        }
                    };
                }
                if let Some((i, _)) = self.decls.field(&f.node) {
                    self.fields_at.insert(f.span, i);
                }
                match self.decls.field(&f.node) {
                    Some((_, FieldKind::Flag | FieldKind::Effect)) => Ty::Bool,
                    Some((_, FieldKind::Global)) => {
                        self.err(
                            Diag::new(
                                "check::wrong_kind",
                                format!("`{}` is a global: it belongs to no character", f.node),
                            )
                            .label(e.span, "a global")
                            .help(format!("write it alone: `{}`", f.node)),
                        );
                        Ty::Error
                    }
                    Some((i, _)) => self.decls.field_refers[i as usize].map_or(Ty::Int, Ty::Entity),
                    None => {
                        let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                        self.err(d.help("declare it with `stat`, `resource` or `flag`"));
                        Ty::Error
                    }
                }
            }
            ExprKind::Is(base, name) => {
                self.expect(base, CHAR, "the left of `is`");
                if !matches!(self.decls.lookup(&name.node), Some(Sym::Side(_) | Sym::Tag(_))) {
                    let cands: Vec<&String> = self.decls.sides.iter().chain(self.decls.tags.iter()).collect();
                    let d = unknown("side or tag", &name.node, name.span, cands.into_iter());
                    self.err(d.help("declare it with `side NAME` or `tag NAME`"));
                }
                Ty::Bool
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                self.expect(x, Ty::Int, "the operand of `-`");
                Ty::Int
            }
            ExprKind::Unary(UnOp::Not, x) => {
                self.expect(x, Ty::Bool, "the operand of `not`");
                Ty::Bool
            }
            ExprKind::Binary(op, l, r) => match op {
                BinOp::And | BinOp::Or => {
                    self.expect(l, Ty::Bool, &format!("the left of `{}`", op.symbol()));
                    self.expect(r, Ty::Bool, &format!("the right of `{}`", op.symbol()));
                    Ty::Bool
                }
                BinOp::Eq | BinOp::Ne => {
                    let lt = self.expr(l);
                    let rt = self.expr(r);
                    if !lt.fits(rt) && !rt.fits(lt) {
                        self.err(
                            Diag::new(
                                "check::type",
                                format!("cannot compare {} with {}", self.tn(lt), self.tn(rt)),
                            )
                            .label(l.span, self.tn(lt))
                            .label(r.span, self.tn(rt))
                            .help("both sides of `==` and `!=` must be the same kind of value"),
                        );
                    }
                    Ty::Bool
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    self.expect(l, Ty::Int, &format!("the left of `{}`", op.symbol()));
                    self.expect(r, Ty::Int, &format!("the right of `{}`", op.symbol()));
                    Ty::Bool
                }
                _ => {
                    self.expect(l, Ty::Int, &format!("the left of `{}`", op.symbol()));
                    self.expect(r, Ty::Int, &format!("the right of `{}`", op.symbol()));
                    Ty::Int
                }
            },
            // Queries on a kept order: `position(c, ORDER)` (from 1, 0 when absent), `below(c, ORDER)`
            // (the next one down, itself when last), `next(c, ORDER)` and `previous(c, ORDER)` (round
            // the table: the last wraps to the first).
            ExprKind::Call(name, args) if ORDER_QUERIES.contains(&name.node.as_str()) => {
                let f = name.node.as_str();
                let order = match args.get(1).map(|a| &a.node) {
                    Some(ExprKind::Name(o)) if args.len() == 2 => match self.decls.lookup(o) {
                        Some(Sym::Order(i)) => Some(Ty::Entity(self.decls.order_types[i as usize])),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(t) = order else {
                    if let Some(a) = args.first() {
                        self.expr(a);
                    }
                    let at = args.get(1).map_or(e.span, |a| a.span);
                    self.err(
                        Diag::new("check::arity", format!("`{f}` takes an entity and a ranked order"))
                            .label(at, "not an order")
                            .help(format!("write `{f}(c, ORDER)`, with an order kept by `rank ORDER`")),
                    );
                    return Ty::Error;
                };
                if let Some(a) = args.first() {
                    self.expect(a, t, &format!("the first argument of `{f}`"));
                }
                if f == "position" { Ty::Int } else { t }
            }
            ExprKind::Call(name, args) if matches!(self.decls.lookup(&name.node), Some(Sym::Param(_))) => {
                let index = match self.decls.lookup(&name.node) {
                    Some(Sym::Param(i)) => i as usize,
                    _ => 0,
                };
                let kinds: Vec<Option<u16>> = self.decls.param_args[index].iter().map(|a| a.1).collect();
                let want = kinds.len();
                if want != args.len() {
                    self.err(
                        Diag::new(
                            "check::arity",
                            format!("the param `{}` takes {want} argument(s), not {}", name.node, args.len()),
                        )
                        .label(e.span, "here")
                        .help("pass one number per argument the param declares"),
                    );
                }
                for (a, kind) in args.iter().zip(kinds.iter().chain(std::iter::repeat(&None))) {
                    let t = kind.map_or(Ty::Int, Ty::Entity);
                    self.expect(a, t, &format!("an argument of `{}`", name.node));
                }
                self.param_type(index)
            }
            ExprKind::Call(name, args) => {
                let arity = match name.node.as_str() {
                    "highest" | "lowest" => None,
                    "abs" => Some(1),
                    _ => {
                        let d = unknown("function", &name.node, name.span, FUNCTIONS.iter());
                        self.err(d.help(
                            "the functions are highest(a, b, ...), lowest(a, b, ...), abs(x), position(c, ORDER), below(c, ORDER), next(c, ORDER), previous(c, ORDER) and params declared with arguments",
                        ));
                        for a in args {
                            self.expr(a);
                        }
                        return Ty::Error;
                    }
                };
                if let Some(n) = arity
                    && args.len() != n
                {
                    self.err(
                        Diag::new(
                            "check::arity",
                            format!("`{}` takes {n} argument(s), not {}", name.node, args.len()),
                        )
                        .label(e.span, "here")
                        .help(format!("call it as `{}(x)`", name.node)),
                    );
                }
                for a in args {
                    self.expect(a, Ty::Int, &format!("an argument of `{}`", name.node));
                }
                Ty::Int
            }
            ExprKind::If(c, a, b) => {
                self.expect(c, Ty::Bool, "the condition of `if`");
                let at = self.expr(a);
                let bt = self.expr(b);
                if !at.fits(bt) && !bt.fits(at) {
                    self.err(
                        Diag::new(
                            "check::type",
                            format!("the branches of `if` differ: {} and {}", self.tn(at), self.tn(bt)),
                        )
                        .label(a.span, self.tn(at))
                        .label(b.span, self.tn(bt))
                        .help("both branches must give the same kind of value"),
                    );
                    return Ty::Error;
                }
                if at == Ty::Error || at == Ty::Entity(ANY) {
                    bt
                } else {
                    at
                }
            }
            ExprKind::Quant {
                quant,
                var,
                coll,
                filter,
                by,
                body,
            } => {
                let elem = self.collection(coll);
                if let Some(o) = by {
                    if matches!(quant, Quant::First | Quant::Last) {
                        self.order_for(o, elem);
                        self.no_rolling_order(o);
                    } else {
                        self.err(
                            Diag::new("check::quantifier", "only `first` and `last` take `by ORDER`")
                                .label(o.span, "sorts nothing here")
                                .help("write `first x in COLL where ... by ORDER`"),
                        );
                    }
                }
                self.bind(var, elem);
                if let Some(f) = filter {
                    self.expect(f, Ty::Bool, "a `where` filter");
                }
                let ty = match quant {
                    Quant::First | Quant::Last => {
                        if let Some(b) = body {
                            self.err(
                                Diag::new(
                                    "check::quantifier",
                                    "`first` and `last` give an entity, not a value after `:`",
                                )
                                .label(b.span, "not used")
                                .help("write `first x in COLL where CONDITION by ORDER`, then use its fields"),
                            );
                        }
                        elem
                    }
                    Quant::Any | Quant::All | Quant::Count => {
                        if let Some(b) = body {
                            self.expect(b, Ty::Bool, "the condition of a quantifier");
                        }
                        if *quant == Quant::Count { Ty::Int } else { Ty::Bool }
                    }
                    Quant::Sum | Quant::Max | Quant::Min => {
                        match body {
                            Some(b) => {
                                self.expect(b, Ty::Int, "the value of a quantifier");
                            }
                            None => self.err(
                                Diag::new("check::quantifier", "this quantifier needs a value after `:`")
                                    .label(e.span, "value of what?")
                                    .help("write e.g. `min c in characters: c.STAT`"),
                            ),
                        }
                        Ty::Int
                    }
                };
                self.scopes.pop();
                ty
            }
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

const FUNCTIONS: [&str; 7] = ["highest", "lowest", "abs", "position", "below", "next", "previous"];
/// The functions that query a kept order (the compiler lowers them by these names too).
pub const ORDER_QUERIES: [&str; 4] = ["position", "below", "next", "previous"];

pub fn is_builtin_policy(name: &str) -> bool {
    matches!(name, "first" | "random")
}

/// "unknown X `name`", with a "did you mean" label when a close name exists.
pub fn unknown<'a, I, S>(what: &str, name: &str, span: Span, candidates: I) -> Diag
where
    I: Iterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let best = candidates
        .map(|c| (distance(name, c.as_ref()), c.as_ref().to_string()))
        .filter(|(d, c)| *d <= 2.max(name.len() / 3) && c != name)
        .min();
    let label = match best {
        Some((_, c)) => format!("did you mean `{c}`?"),
        None => format!("no {what} is called this"),
    };
    Diag::new("check::unknown", format!("unknown {what} `{name}`")).label(span, label)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = if ca == *cb { 0 } else { 1 };
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
