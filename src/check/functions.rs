//! Issue 26's functions in the checker: routines with typed arguments and routines that give a
//! value (`gives TYPE`, `give EXPR`, called in an expression), locals that change (`set x = ...`
//! on a `let`), counted loops (`for each i in 1 to n`), and where a routine that gives may be
//! called (only in the statements that may run one: see `may_call`).

use super::checker::Checker;
use super::stmt::Call;
use super::{ANY, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// One statement: whether it may call a routine that gives, then its own check. A `set` of a
    /// local is a change of that local, not of a global.
    pub(super) fn stmt(&mut self, s: &Stmt) {
        let calls = std::mem::replace(&mut self.calls, may_call(s));
        match s {
            Stmt::Set { target, value, .. } if self.local_target(target) => {
                self.set_local(&target.field, value);
            }
            Stmt::Spend { target, .. }
            | Stmt::Gain { target, .. }
            | Stmt::Reset { target, .. }
            | Stmt::Forfeit { target, .. }
            | Stmt::Mark { target, .. }
                if self.local_target(target) =>
            {
                let n = &target.field.node;
                self.err(
                    Diag::new(
                        "check::immutable",
                        format!("`{n}` is a local: it changes only with `set`"),
                    )
                    .label(target.field.span, "a local, not a resource, a flag or a global")
                    .help(format!("write `set {n} = {n} + 1` (or `- 1`, or the new value)")),
                );
            }
            Stmt::Deferred(d) if matches!(&d.stmt, Stmt::Set { target, .. } if self.local_target(target)) => {
                self.err(
                    Diag::new(
                        "check::immutable",
                        "a local changes at once: it cannot wait for the end of a moment or a level",
                    )
                    .label(d.at, "deferred here")
                    .help("set it now (drop `at end of ...`), or defer a change of a global or a field"),
                );
            }
            Stmt::Turn { .. } | Stmt::React { .. } | Stmt::Level { .. } => {
                self.sheltered += 1;
                self.stmt_kind(s);
                self.sheltered -= 1;
            }
            _ => self.stmt_kind(s),
        }
        self.calls = calls;
    }

    /// Whether a statement's target is a bare name of a local (`set x = ...`), not also a
    /// declared name (a local taking a global's name is `check::shadow`: the change is the
    /// global's, as before).
    fn local_target(&self, t: &Target) -> bool {
        let n = &t.field.node;
        t.var.is_none() && t.base.is_none() && self.var(n).is_some() && self.decls.lookup(n).is_none()
    }

    /// A param's arguments with their types, to bind in its body.
    pub(super) fn param_vars(&self, i: usize) -> Vec<(String, Ty)> {
        let tys = self.decls.param_arg_tys.get(i);
        (self.decls.param_args.get(i).into_iter().flatten())
            .enumerate()
            .map(|(k, a)| (a.0.clone(), tys.and_then(|t| t.get(k)).copied().unwrap_or(Ty::Int)))
            .collect()
    }

    /// `routine NAME(a, n: number, ...) [gives TYPE] { ... }`: its parameters, then its body
    /// detached from any level; a routine that gives must give on every path.
    pub(super) fn routine(&mut self, name: &Ident, params: &[Typed], gives: Option<&Ident>, body: &Block) {
        self.arg_count("routine", name, params.len());
        self.distinct("routine", &params.iter().map(|p| &p.name).collect::<Vec<_>>());
        let i = match self.decls.lookup(&name.node) {
            Some(Sym::Routine(i)) => i as usize,
            _ => usize::MAX,
        };
        let types = self.decls.routines.get(i).map(|r| r.1.clone()).unwrap_or_default();
        let vars: Vec<(Ident, Ty)> = params
            .iter()
            .enumerate()
            .map(|(k, p)| (p.name.clone(), types.get(k).copied().unwrap_or(Ty::Error)))
            .collect();
        let gives_ty = self.decls.routine_gives.get(i).copied().flatten();
        if let (Some(t), Some(Ty::Entity(ANY))) = (gives, gives_ty) {
            self.err(
                Diag::new(
                    "check::type",
                    format!("a routine cannot give {}", self.tn(gives_ty.unwrap_or(Ty::Error))),
                )
                .label(t.span, "not a value to give")
                .help("a routine gives a `number`, a `truth` value, a `side`, a `role`, a `character` or a thing"),
            );
        }
        self.next_giving = gives.map(|_| gives_ty.unwrap_or(Ty::Error));
        self.detached(&vars, None, body);
        self.next_giving = None;
        if let Some(t) = gives
            && !block_gives(body)
        {
            self.err(
                Diag::new(
                    "check::no_give",
                    format!("the routine `{}` may end without giving a value", name.node),
                )
                .label(name.span, "declared to give a value")
                .label(t.span, "the value's type")
                .help(
                    "end every path with `give EXPR`: the block's last statement is a `give`, or an `if` \
                         (with `else`) or a `choose` whose every branch gives",
                ),
            );
        }
    }

    /// `give EXPR`: in a routine declared with `gives TYPE`, outside any block run later or at
    /// a moment's end (a `together` walk, a secret option's block, a readied response).
    pub(super) fn give(&mut self, value: &Expr, span: Span) {
        let Some(want) = self.giving else {
            self.expr(value);
            self.err(
                Diag::new("check::give_outside", "`give` is written outside a routine that gives a value")
                    .label(span, "nothing to give this to")
                    .help("declare the routine with the type it gives: `routine NAME(c, n: number) gives number { ... give n }`"),
            );
            return;
        };
        if self.sheltered > 0 {
            self.err(
                Diag::new("check::give_outside", "`give` cannot be written inside a `turn`, a reaction or a level")
                    .label(span, "given here")
                    .help("let the turn, reaction or level end as it does: keep the value in a `let` declared before it (`set x = ...` inside), and `give` it after"),
            );
        } else if self.together > 0 || self.deferred.is_some() {
            self.err(
                Diag::new("check::give_outside", "`give` cannot be written inside a `together` walk or a secret option's block")
                    .label(span, "given here")
                    .help("work the value out inside, keep it in a `let` declared before the walk (`set x = ...`), and `give` it after the walk"),
            );
        }
        self.expect(value, want, "the value a routine gives");
    }

    /// `R(args)` in an expression: a routine declared with `gives TYPE`, where a statement may
    /// run it; its arguments as `do` checks them.
    pub(super) fn routine_call(&mut self, e: &Expr, name: &Ident, args: &[Expr]) -> Ty {
        let i = match self.decls.lookup(&name.node) {
            Some(Sym::Routine(i)) => i as usize,
            _ => usize::MAX,
        };
        let call = Call {
            what: "routine",
            name,
            label: "called here",
            help: "pass one argument per parameter the routine declares, of its type",
            declare: "declare it with `routine NAME(c) gives number { ... }`",
            argument: "a routine's argument",
        };
        self.character_call(&call, &self.decls.routines, args, e.span);
        let Some(t) = self.decls.routine_gives.get(i).copied().flatten() else {
            self.err(
                Diag::new("check::type", format!("the routine `{}` gives no value", name.node))
                    .label(e.span, "used as a value")
                    .help(format!(
                        "run it with `do {}(...)`, or declare the type it gives (`routine {0}(...) gives number {{ ... }}`) and `give` a value on every path",
                        name.node
                    )),
            );
            return Ty::Error;
        };
        if !self.calls {
            self.err(
                Diag::new(
                    "check::call_here",
                    format!("the routine `{}` runs statements, so it cannot be called here", name.node),
                )
                .label(e.span, "called here")
                .help(
                    "call it where a statement works a value out (`let`, `set`, `gain`, `spend`, `reset`, `transfer`, `if`, \
                     `repeat while|until`, `do`, `raise`, `give`, a counted loop's bounds, `roll ... as`, `remove`), then use the local: \
                     `let n = ROUTINE(...)` before this",
                ),
            );
        }
        t
    }

    /// `set x = EXPR` on a local: only one named with `let`, in this block or one around it that
    /// runs now (not a readied response's or a secret option's block, which work on a copy).
    fn set_local(&mut self, name: &Ident, value: &Expr) {
        let n = &name.node;
        let at = self.scopes.iter().rposition(|s| &s.0 == n).unwrap_or(0);
        let t = self.scopes.get(at).map_or(Ty::Error, |s| s.1);
        if !self.lets.contains(&at) {
            self.expr(value);
            self.err(
                Diag::new("check::immutable", format!("`{n}` cannot change: it is not a `let`"))
                    .label(name.span, "bound by a loop, a quantifier, a choice or as an argument")
                    .help(format!(
                        "only a local named with `let` changes with `set`; copy this one first: `let my_{n} = {n}`, then `set my_{n} = ...`"
                    )),
            );
        } else if at < self.fence {
            self.expr(value);
            self.err(
                Diag::new("check::immutable", format!("`{n}` cannot change here: this block runs later, on a copy"))
                    .label(name.span, "named outside this block")
                    .help("a readied response and a secret option's block run later with a copy of the locals, so the change would be lost; keep the value in a global or a field"),
            );
        } else {
            self.expect(value, t, format_args!("the new value of `{n}`"));
        }
    }

    /// A `let` inside a block naming again a local that a block around it named with `let`: the
    /// inner one would be a new local for the inner block only, so `let total = total + f` in a
    /// loop would leave the outer `total` as it was. A local changes with `set`.
    pub(super) fn relet(&mut self, name: &Ident) {
        let n = &name.node;
        let Some(at) = self.scopes.iter().rposition(|s| &s.0 == n) else {
            return;
        };
        if at < self.block_start && self.lets.contains(&at) {
            self.err(
                Diag::new("check::shadow", format!("`{n}` is already a local of a block around this one"))
                    .label(name.span, "named again here")
                    .help(if at < self.fence {
                        format!(
                            "this block runs later, on a copy of `{n}`: name the copy otherwise (`let my_{n} = {n}`), or keep the value in a global"
                        )
                    } else {
                        format!(
                            "this `let` would name a new `{n}` for this block only, leaving the other as it was: change it with `set {n} = ...`, or choose another name"
                        )
                    }),
            );
        }
    }

    /// `let x = EXPR`: a local that `set` may change.
    pub(super) fn let_local(&mut self) {
        if let Some(i) = self.scopes.len().checked_sub(1) {
            self.lets.push(i);
        }
    }

    /// `for each i in A [down] to B { ... }`: whole numbers; `i` does not change.
    pub(super) fn count(&mut self, c: &CountLoop) {
        self.expect(&c.from, Ty::Int, "a counted loop's first number");
        self.expect(&c.to, Ty::Int, "a counted loop's last number");
        let depth = self.scopes.len();
        self.bind(&c.var, Ty::Int);
        self.block(&c.body);
        self.scopes.truncate(depth);
    }
}

/// Whether a routine that gives may be called in this statement's own expressions.
fn may_call(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Let { .. }
            | Stmt::Set { .. }
            | Stmt::Spend { .. }
            | Stmt::Gain { .. }
            | Stmt::Reset { .. }
            | Stmt::Transfer(_)
            | Stmt::If { .. }
            | Stmt::Repeat { .. }
            | Stmt::Do { .. }
            | Stmt::Raise { .. }
            | Stmt::Give { .. }
            | Stmt::Count(_)
            | Stmt::Pool(_)
    )
}

/// Whether a block gives a value on every path: it holds a `give`, an `end`, or an `if` with
/// `else` or a `choose` (of named options) whose every branch gives.
pub(super) fn block_gives(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Give { .. } | Stmt::End { .. } => true,
        Stmt::If {
            then,
            otherwise: Some(o),
            ..
        } => block_gives(then) && block_gives(o),
        Stmt::Choose { options, .. } => {
            !options.is_empty() && options.iter().all(|o| o.name.is_some() && block_gives(&o.body))
        }
        _ => false,
    })
}

impl Checker<'_> {
    /// A role written by its name where a routine's `r: role` argument is passed: a role is a
    /// value only there (and as a chooser).
    pub(super) fn role_named(&self, a: &Expr, want: Ty) -> bool {
        want == Ty::Role
            && matches!(&a.node, ExprKind::Name(n) if self.var(n).is_none() && matches!(self.decls.lookup(n), Some(Sym::Role(_))))
    }
}
