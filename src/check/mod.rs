//! Stage 2: the checker. Finds every error of a set of parsed files in one pass: unknown and
//! duplicate names, wrong kinds, type errors, `end` outside its level, decisions without options,
//! characters missing a stat. Its output, [`Checked`], is the symbol table the compiler lowers with.

mod names;

use crate::diag::Diag;
use crate::syntax::ast::*;
pub use names::{Decls, FieldKind, Sym};

/// Parsed files that passed the checker, with their symbol table.
#[derive(Debug)]
pub struct Checked {
    pub files: Vec<File>,
    pub decls: Decls,
}

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Entity,
    Side,
    /// A decider who is not a character (declared with `role NAME`).
    Role,
    /// An error was already reported for this expression.
    Error,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "a number",
            Ty::Bool => "a truth value",
            Ty::Entity => "a character",
            Ty::Side => "a side",
            Ty::Role => "a role",
            Ty::Error => "an invalid value",
        }
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
        nums: Vec::new(),
        param_tys: vec![None; decls.params.len()],
        silent: false,
    };
    for file in &files {
        for item in &file.items {
            c.item(item);
        }
    }
    c.characters(&files);
    if diags.is_empty() {
        Ok(Checked { files, decls })
    } else {
        Err(diags)
    }
}

struct Checker<'a> {
    decls: &'a Decls,
    diags: &'a mut Vec<Diag>,
    /// Entity variables in scope, innermost last.
    scopes: Vec<String>,
    /// Names of the enclosing levels, innermost last.
    levels: Vec<String>,
    /// How many `repeat` loops enclose the statement being checked.
    repeats: usize,
    /// Number arguments in scope (inside a `param NAME(a, b)`).
    nums: Vec<String>,
    /// The type each param with arguments gives, once worked out.
    param_tys: Vec<Option<Ty>>,
    /// Working out a type: report nothing.
    silent: bool,
}

impl Checker<'_> {
    fn err(&mut self, d: Diag) {
        if !self.silent {
            self.diags.push(d);
        }
    }

    /// Puts a param's arguments in scope (numbers, or characters), returning what was there.
    fn bind_args(&mut self, args: impl Iterator<Item = (String, bool)>) -> (Vec<String>, Vec<String>) {
        let (nums, scopes) = (std::mem::take(&mut self.nums), std::mem::take(&mut self.scopes));
        for (a, character) in args {
            if character {
                self.scopes.push(a);
            } else {
                self.nums.push(a);
            }
        }
        (nums, scopes)
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
        let (nums, scopes) = self.bind_args(args.into_iter());
        let t = if self.decls.param_args[i].is_empty() {
            Ty::Int
        } else {
            self.expr(&body)
        };
        self.nums = nums;
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
                    let (nums, scopes) = self.bind_args(args.iter().map(|(a, c)| (a.node.clone(), *c)));
                    let t = self.expr(value);
                    if matches!(t, Ty::Role) {
                        self.err(
                            Diag::new("check::type", "a param cannot give a role")
                                .label(value.span, "a role")
                                .help("a param with arguments gives a number, a truth value, a character or a side"),
                        );
                    }
                    self.nums = nums;
                    self.scopes = scopes;
                }
            }
            Item::Stat { default: Some(e), .. } => {
                self.expect(e, Ty::Int, "a stat's default");
            }
            Item::Resource { min, max, .. } => {
                for e in min.iter().chain(max.iter()) {
                    self.expect(e, Ty::Int, "a resource limit");
                    self.no_dice(e, "a resource limit");
                }
            }
            Item::Global { default, min, max, .. } => {
                if let Some(e) = default {
                    self.expect(e, Ty::Int, "a global's default");
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
                self.scopes.push(a.actor.node.clone());
                for c in &a.costs {
                    self.expect(&c.amount, Ty::Int, "a cost");
                    self.no_dice(&c.amount, "a cost");
                    self.field(&c.resource, FieldKind::Resource, "pay a cost in");
                }
                if let Some(w) = &a.when {
                    self.expect(w, Ty::Bool, "an action's `when`");
                }
                self.block(&a.body);
                self.scopes.pop();
            }
            Item::Order(o) => {
                self.scopes.push(o.var.node.clone());
                for k in &o.keys {
                    // A truth value sorts false before true: `c.FLAG asc` puts those with the flag last.
                    let t = self.expr(&k.value);
                    if !matches!(t, Ty::Int | Ty::Bool | Ty::Error) {
                        self.err(
                            Diag::new(
                                "check::type",
                                format!(
                                    "an ordering key must be a number or a truth value, but this is {}",
                                    t.name()
                                ),
                            )
                            .label(k.value.span, t.name())
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
                self.distinct("routine", &params.iter().collect::<Vec<_>>());
                self.detached(params, None, body);
            }
            Item::Trigger { name, params } => {
                self.arg_count("trigger", name, params.len());
                self.distinct("trigger", &params.iter().collect::<Vec<_>>());
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
                    let want = self.decls.triggers[i as usize].1;
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
        self.detached(&h.vars, h.filter.as_ref(), &h.body);
    }

    /// A hook's or routine's body: its variables in scope, inside no level and no `repeat`.
    fn detached(&mut self, vars: &[Ident], filter: Option<&Expr>, body: &Block) {
        let depth = self.scopes.len();
        self.scopes.extend(vars.iter().map(|v| v.node.clone()));
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
    fn character_call(&mut self, call: &Call<'_>, declared: &[(String, usize)], args: &[Expr], span: Span) {
        let name = call.name;
        match declared.iter().find(|d| d.0 == name.node) {
            Some((_, want)) if *want != args.len() => {
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
        for a in args {
            self.expect(a, Ty::Entity, call.argument);
        }
    }

    fn collection(&mut self, coll: &Collection) {
        if let Collection::Ranked(o) = coll {
            self.order(o);
        }
    }

    fn order(&mut self, o: &Ident) {
        if !matches!(self.decls.lookup(&o.node), Some(Sym::Order(_))) {
            let d = unknown("order", &o.node, o.span, self.decls.orders.iter());
            self.err(d.help("declare it with `order NAME(c) { c.stat desc ... }`"));
        }
    }

    /// The chooser of a decision: a character, or a role named directly.
    fn chooser(&mut self, e: &Expr) -> Ty {
        if let ExprKind::Name(n) = &e.node
            && !self.scopes.contains(n)
            && let Some(Sym::Role(_)) = self.decls.lookup(n)
        {
            return Ty::Role;
        }
        let t = self.expr(e);
        if !matches!(t, Ty::Entity | Ty::Error) {
            self.err(
                Diag::new(
                    "check::type",
                    format!(
                        "the chooser of a decision must be a character or a role, but this is {}",
                        t.name()
                    ),
                )
                .label(e.span, t.name())
                .help("name a character variable, or a role declared with `role NAME`"),
            );
        }
        t
    }

    /// Every character: known side and tags, known fields of the right kind, every stat given.
    fn characters(&mut self, files: &[File]) {
        let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
        for file in files {
            for item in &file.items {
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
                let mut given: Vec<&str> = Vec::new();
                for (f, e) in &ch.fields {
                    if given.contains(&f.node.as_str()) {
                        self.err(
                            Diag::new(
                                "check::duplicate",
                                format!("`{}` is given twice for {}", f.node, ch.name.node),
                            )
                            .label(f.span, "given again here")
                            .help("keep one of them"),
                        );
                    }
                    given.push(&f.node);
                    match self.decls.field(&f.node) {
                        Some((_, FieldKind::Stat | FieldKind::Resource)) => {
                            self.expect(e, Ty::Int, "a character's stat");
                        }
                        Some((_, FieldKind::Flag)) => {
                            self.expect(e, Ty::Bool, "a character's flag");
                        }
                        Some((_, FieldKind::Global)) => {
                            self.err(
                                Diag::new(
                                    "check::wrong_kind",
                                    format!("`{}` is a global: it belongs to no character", f.node),
                                )
                                .label(f.span, "a global")
                                .help("set a global's start with `default` in its declaration, or in `setup`"),
                            );
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
                        None => {
                            let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                            self.err(d.help("declare it in the ruleset with `stat NAME` or `resource NAME`"));
                        }
                    }
                }
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

    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
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
                self.expect(actor, Ty::Entity, "`turn`");
                self.block(body);
            }
            Stmt::ForEach {
                var,
                coll,
                filter,
                order,
                body,
                ..
            } => {
                self.collection(coll);
                if let Some(o) = order {
                    self.order(o);
                }
                self.scopes.push(var.node.clone());
                if let Some(f) = filter {
                    self.expect(f, Ty::Bool, "a `where` filter");
                }
                self.block(body);
                self.scopes.pop();
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
                        self.field(u, FieldKind::Resource, "pay costs from");
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
                self.collection(coll);
                if let Some(o) = order {
                    self.order(o);
                }
                self.scopes.push(var.node.clone());
                if let Some(f) = filter {
                    self.expect(f, Ty::Bool, "a `where` filter");
                }
                for r in refusals {
                    self.expect(&r.cond, Ty::Bool, "an `unless` condition");
                    for part in &r.message {
                        if let Part::Name(e) = part {
                            self.expect(e, Ty::Entity, "a name in a message");
                        }
                    }
                }
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
            Stmt::Rank { order, .. } => self.order(order),
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
                self.expect(target, Ty::Entity, "the character an effect is on");
                self.expect(count, Ty::Int, "a duration");
                match at {
                    CountAt::Place(who, order) => {
                        self.expect(who, Ty::Entity, "the character whose place counts a duration");
                        self.order(order);
                    }
                    CountAt::TurnStart(who) | CountAt::TurnEnd(who) => {
                        self.expect(who, Ty::Entity, "the character whose turn counts a duration");
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
                self.expect(target, Ty::Entity, "the character an effect is on");
            }
            Stmt::Place { who, to, order, .. } => {
                self.expect(who, Ty::Entity, "the character `place` moves");
                if let PlaceTo::Before(x) | PlaceTo::After(x) = to {
                    self.expect(x, Ty::Entity, "the character `place` moves next to");
                }
                self.order(order);
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
                self.expect(actor, Ty::Entity, "`react`");
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
            Stmt::Forfeit { target, .. } => self.target(target, FieldKind::Resource, "forfeit"),
            Stmt::Set { target, value, .. } => {
                self.expect(value, Ty::Int, "a stat's new value");
                self.target(target, FieldKind::Stat, "set");
            }
            Stmt::Mark { target, on, .. } => self.target(target, FieldKind::Flag, if *on { "mark" } else { "clear" }),
        }
    }

    fn target(&mut self, t: &Target, want: FieldKind, verb: &str) {
        let f = &t.field;
        match (&t.var, self.decls.field(&f.node)) {
            (Some(v), field) => {
                if !self.scopes.contains(&v.node) {
                    let d = unknown("character variable", &v.node, v.span, self.scopes.iter());
                    self.err(d.help("bind a character first, e.g. `for each c in characters { ... }`"));
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
                    self.field(f, want, verb);
                }
            }
            (None, Some((_, FieldKind::Global))) if want != FieldKind::Flag => {}
            (None, Some((_, FieldKind::Global))) => {
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        format!("cannot {verb} `{}`: it is a global, not a flag", f.node),
                    )
                    .label(f.span, "a global")
                    .help("`mark` and `clear` work on flags; give a global a value with `set` or `reset`"),
                );
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
            }
            (None, None) => {
                let d = unknown("global", &f.node, f.span, self.decls.field_names());
                self.err(d.help(format!(
                    "declare it with `global {}`, or write `c.{}` for a character's",
                    f.node, f.node
                )));
            }
        }
    }

    fn field(&mut self, f: &Ident, want: FieldKind, verb: &str) {
        match self.decls.field(&f.node) {
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
        if got != want && got != Ty::Error {
            self.err(
                Diag::new(
                    "check::type",
                    format!("{what} must be {}, but this is {}", want.name(), got.name()),
                )
                .label(e.span, got.name())
                .help(match want {
                    Ty::Bool if got == Ty::Side => {
                        "test membership with `c is SIDE`, or compare sides: `a.side == b.side`"
                    }
                    Ty::Bool => "compare it, e.g. `c.FIELD > 0`, or use a flag",
                    Ty::Int => "use a number, a stat, a resource, dice or a param",
                    _ => "use a character variable bound by `for each` or a quantifier",
                }),
            );
        }
        got
    }

    fn expr(&mut self, e: &Expr) -> Ty {
        match &e.node {
            ExprKind::Int(_) | ExprKind::Dice(_) => Ty::Int,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Name(n) => {
                // Quantifier variables are bound inside a param's body, so they shadow its arguments.
                if self.scopes.contains(n) {
                    return Ty::Entity;
                }
                if self.nums.contains(n) {
                    return Ty::Int;
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
                    Some(Sym::Field(_, FieldKind::Global)) => Ty::Int,
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
                        let cands: Vec<String> = self
                            .scopes
                            .iter()
                            .cloned()
                            .chain(self.decls.params.iter().cloned())
                            .collect();
                        let d = unknown("name", n, e.span, cands.iter());
                        self.err(d.help("a bare name is a param or a character variable"));
                        Ty::Error
                    }
                }
            }
            ExprKind::Field(base, f) => {
                if let ExprKind::Name(n) = &base.node
                    && !self.scopes.contains(n)
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
                if f.node == "side" && matches!(bt, Ty::Entity | Ty::Error) {
                    return Ty::Side;
                }
                if bt != Ty::Entity && bt != Ty::Error {
                    self.err(
                        Diag::new(
                            "check::type",
                            format!("only a character has fields, but this is {}", bt.name()),
                        )
                        .label(base.span, bt.name())
                        .help("write `c.field` with a character variable `c`"),
                    );
                    return Ty::Error;
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
                    Some(_) => Ty::Int,
                    None => {
                        let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                        self.err(d.help("declare it with `stat`, `resource` or `flag`"));
                        Ty::Error
                    }
                }
            }
            ExprKind::Is(base, name) => {
                self.expect(base, Ty::Entity, "the left of `is`");
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
                    if lt != rt && lt != Ty::Error && rt != Ty::Error {
                        self.err(
                            Diag::new(
                                "check::type",
                                format!("cannot compare {} with {}", lt.name(), rt.name()),
                            )
                            .label(l.span, lt.name())
                            .label(r.span, rt.name())
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
            ExprKind::Call(name, args) if name.node == "position" => {
                let ok = args.len() == 2;
                if let Some(a) = args.first() {
                    self.expect(a, Ty::Entity, "the first argument of `position`");
                }
                match args.get(1).map(|a| &a.node) {
                    Some(ExprKind::Name(o)) if matches!(self.decls.lookup(o), Some(Sym::Order(_))) => {}
                    _ => {
                        let at = args.get(1).map_or(e.span, |a| a.span);
                        self.err(
                            Diag::new("check::arity", "`position` takes a character and a ranked order")
                                .label(at, "not an order")
                                .help("write `position(c, ORDER)`: c's place in the order `rank ORDER` kept, from 1"),
                        );
                        return Ty::Error;
                    }
                }
                if !ok {
                    self.err(
                        Diag::new("check::arity", "`position` takes exactly two arguments")
                            .label(e.span, "here")
                            .help("write `position(c, ORDER)`"),
                    );
                }
                Ty::Int
            }
            ExprKind::Call(name, args) if name.node == "below" => {
                if let Some(a) = args.first() {
                    self.expect(a, Ty::Entity, "the first argument of `below`");
                }
                match args.get(1).map(|a| &a.node) {
                    Some(ExprKind::Name(o))
                        if args.len() == 2 && matches!(self.decls.lookup(o), Some(Sym::Order(_))) => {}
                    _ => {
                        self.err(
                            Diag::new("check::arity", "`below` takes a character and a ranked order")
                                .label(e.span, "here")
                                .help("write `below(c, ORDER)`: the character right below c in the kept order"),
                        );
                        return Ty::Error;
                    }
                }
                Ty::Entity
            }
            ExprKind::Call(name, args) if matches!(self.decls.lookup(&name.node), Some(Sym::Param(_))) => {
                let index = match self.decls.lookup(&name.node) {
                    Some(Sym::Param(i)) => i as usize,
                    _ => 0,
                };
                let kinds: Vec<bool> = self.decls.param_args[index].iter().map(|a| a.1).collect();
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
                for (a, character) in args.iter().zip(kinds.iter().chain(std::iter::repeat(&false))) {
                    let t = if *character { Ty::Entity } else { Ty::Int };
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
                            "the functions are highest(a, b, ...), lowest(a, b, ...), abs(x), position(c, ORDER), below(c, ORDER) and params declared with arguments",
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
                if at != bt && at != Ty::Error && bt != Ty::Error {
                    self.err(
                        Diag::new(
                            "check::type",
                            format!("the branches of `if` differ: {} and {}", at.name(), bt.name()),
                        )
                        .label(a.span, at.name())
                        .label(b.span, bt.name())
                        .help("both branches must give the same kind of value"),
                    );
                    return Ty::Error;
                }
                if at == Ty::Error { bt } else { at }
            }
            ExprKind::Quant {
                quant,
                var,
                coll,
                filter,
                body,
            } => {
                self.collection(coll);
                self.scopes.push(var.node.clone());
                if let Some(f) = filter {
                    self.expect(f, Ty::Bool, "a `where` filter");
                }
                let ty = match quant {
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

const FUNCTIONS: [&str; 5] = ["highest", "lowest", "abs", "position", "below"];

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
