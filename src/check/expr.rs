//! Checking expressions: the type of each, what an expression must be, collections and orders.

use super::checker::{Checker, What};
use super::suggest::unknown;
use super::{ANY, CHAR, CHARACTER, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    pub(super) fn expect(&mut self, e: &Expr, want: Ty, what: impl What) -> Ty {
        let got = self.expr(e);
        // A number with fewer decimals than wanted is widened.
        if let (Some(g), Ty::Dec(w)) = (got.scale(), want) {
            self.widen(e.span, g, w);
            // A number written out that cannot be kept at those decimals: said here, not as the
            // run's overflow when it is first used.
            let literal = match &e.node {
                ExprKind::Int(v) | ExprKind::Dec(v, _) => Some(*v),
                ExprKind::Unary(UnOp::Neg, x) => match &x.node {
                    ExprKind::Int(v) | ExprKind::Dec(v, _) => v.checked_neg(),
                    _ => None,
                },
                _ => None,
            };
            if w > g
                && let Some(v) = literal
                && 10i64
                    .checked_pow(u32::from(w - g))
                    .and_then(|k| v.checked_mul(k))
                    .is_none()
            {
                self.err(
                    Diag::new(
                        "check::decimals",
                        format!("{what} is too large to keep at {w} decimals"),
                    )
                    .label(e.span, "past the largest number at these decimals")
                    .help("use fewer decimals, or a smaller number"),
                );
            }
        }
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
                    Ty::Int if matches!(got, Ty::Dec(_)) => {
                        "this takes a whole number: a number with decimals does not fit here"
                    }
                    Ty::Int => "use a number, a stat, a resource, dice or a param",
                    Ty::Dec(_) => "a number keeps the decimals its field declares: round it into fewer decimals first",
                    Ty::Entity(CHARACTER) => "use a character variable bound by `for each` or a quantifier",
                    Ty::Side => {
                        "use a side's name (`heroes`), a character's side (`c.side`), a field, global or argument holding a side, or `none`"
                    }
                    Ty::Role => "use a role's name, a field, global or argument holding a role, or `none`",
                    _ => "use a variable holding an entity of that type, or `none`",
                }),
            );
        }
        got
    }

    /// An expression that must give an entity of any type; gives its type.
    pub(super) fn entity(&mut self, e: &Expr, what: impl What) -> Ty {
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

    /// The type of an expression, reporting what is wrong in it. A dispatch: each arm is a type or
    /// one call, to a method named after the kind of expression.
    pub(super) fn expr(&mut self, e: &Expr) -> Ty {
        match &e.node {
            ExprKind::Int(_) | ExprKind::Dice(_) | ExprKind::FaceDice(_) => Ty::Int,
            ExprKind::Dec(_, s) => Ty::of_scale(*s),
            ExprKind::DynDice(d) => {
                self.expect(&d.count, Ty::Int, "a number of dice");
                self.expect(&d.sides, Ty::Int, "a die's size");
                if let Some((_, k)) = &d.keep {
                    self.expect(k, Ty::Int, "a number of dice kept");
                }
                self.explode_part(d, e.span);
                Ty::Int
            }
            ExprKind::Faces(q) => self.walking(|c| c.faces_quant(q, e.span)),
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::None => Ty::Entity(ANY),
            ExprKind::Name(n) => self.name(e, n),
            ExprKind::Field(base, f) if self.names_pool(base) => self.pool_size(base, f),
            ExprKind::Field(base, f) => self.field_expr(e, base, f),
            ExprKind::Is(base, name) => self.is(base, name),
            ExprKind::Unary(UnOp::Neg, x) => Ty::of_scale(self.number(x, "the operand of `-`")),
            ExprKind::Unary(UnOp::Not, x) => {
                self.expect(x, Ty::Bool, "the operand of `not`");
                Ty::Bool
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r),
            ExprKind::Call(name, args) if ORDER_QUERIES.contains(&name.node.as_str()) => {
                self.order_query(e, name, args)
            }
            ExprKind::Call(name, args) if matches!(self.decls.lookup(&name.node), Some(Sym::Param(_))) => {
                self.param_call(e, name, args)
            }
            ExprKind::Call(name, args) if matches!(self.decls.lookup(&name.node), Some(Sym::Routine(_))) => {
                self.routine_call(e, name, args)
            }
            ExprKind::Call(name, args) => self.call(e, name, args),
            ExprKind::If(c, a, b) => self.if_expr(c, a, b),
            ExprKind::Quant(q) if self.is_pool(&q.coll) => self.walking(|c| c.pool_quant(q, e.span)),
            ExprKind::Quant(_) => self.walking(|c| c.quant(e)),
        }
    }

    /// A bare name: a variable, a param without arguments, a global, a side or a declared entity.
    fn name(&mut self, e: &Expr, n: &str) -> Ty {
        // Quantifier variables are bound inside a param's body, so they shadow its arguments.
        if let Some(t) = self.var(n) {
            self.read_pick(n, e.span);
            if t == Ty::Pool {
                return self.pool_as_value(n, e.span);
            }
            return t;
        }
        // An entity named like a side or a role is the entity (as before they were values).
        let lookup = match self.decls.lookup(n) {
            Some(Sym::Side(_) | Sym::Role(_)) if self.decls.entity(n).is_some() => None,
            s => s,
        };
        match lookup {
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
                self.param_type(i as usize)
            }
            Some(Sym::Field(i, FieldKind::Global)) => self.decls.field_ty(i),
            Some(Sym::Side(_)) => Ty::Side,
            Some(Sym::Role(_)) => Ty::Role,
            Some(Sym::Tag(_)) => {
                self.err(
                    Diag::new("check::membership", format!("`{n}` is a tag, not a value"))
                        .label(e.span, "used as a value")
                        .help(format!("test membership with `c is {n}`")),
                );
                Ty::Error
            }
            Some(Sym::Measure(_)) => {
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        format!("`{n}` is a measure: it is recorded, not read"),
                    )
                    .label(e.span, "a measure, not a value")
                    .help("the rules cannot read a measure; keep the number in a `global` and measure that"),
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
                if let Some(i) = self.decls.entity(n) {
                    // An entity of an unknown type (already reported) fits anywhere: no echoes.
                    if self.decls.untyped.contains(n) {
                        return Ty::Error;
                    }
                    return Ty::Entity(self.decls.entity_types[i]);
                }
                let cands =
                    (self.scopes.iter().map(|s| s.0.as_str())).chain(self.decls.params.iter().map(String::as_str));
                let d = unknown("name", n, e.span, cands);
                self.err(d.help("a bare name is a param, a variable, a global or a declared entity"));
                Ty::Error
            }
        }
    }

    /// `x.FIELD`: a field of a character or a thing, `c.side`, or `LEVEL.number`.
    fn field_expr(&mut self, e: &Expr, base: &Expr, f: &Ident) -> Ty {
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
        if bt == Ty::Side {
            return self.side_field(f);
        }
        // `x.in_play`: every entity's, unless its type declares a field of that name.
        if f.node == "in_play"
            && let Ty::Entity(t) = bt
            && t != ANY
            && (if t == CHARACTER {
                self.decls.field(&f.node).is_none()
            } else {
                self.decls.field_of(t, &f.node).is_none()
            })
        {
            return Ty::Bool;
        }
        // `c.group`: a character's, unless a field of that name is declared (`group_of`).
        if f.node == "group" && matches!(bt, Ty::Entity(CHARACTER)) && self.decls.field(&f.node).is_none() {
            return Ty::Entity(CHARACTER);
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
            return match self.owned_field(owner, f) {
                Some(t) => t,
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
            Some((i, _)) => self.decls.field_ty(i),
            None => {
                let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                self.err(d.help("declare it with `stat`, `resource` or `flag`"));
                Ty::Error
            }
        }
    }

    /// `x is SIDE` or `x is TAG`.
    fn is(&mut self, base: &Expr, name: &Ident) -> Ty {
        self.expect(base, CHAR, "the left of `is`");
        if !matches!(self.decls.lookup(&name.node), Some(Sym::Side(_) | Sym::Tag(_))) {
            let cands: Vec<&String> = self.decls.sides.iter().chain(self.decls.tags.iter()).collect();
            let d = unknown("side or tag", &name.node, name.span, cands.into_iter());
            self.err(d.help("declare it with `side NAME` or `tag NAME`"));
        }
        Ty::Bool
    }

    /// The help for `l == r` of two kinds: a side compared with something else is told what a
    /// side compares with; with a param's argument (a number unless typed), how to pass a side.
    fn compare_help(&self, l: (&Expr, Ty), r: (&Expr, Ty)) -> String {
        let other = match (l.1, r.1) {
            (Ty::Side, t) if t != Ty::Side => r.0,
            (t, Ty::Side) if t != Ty::Side => l.0,
            _ => return "both sides of `==` and `!=` must be the same kind of value".to_string(),
        };
        let side = self.decls.sides.first().map_or("SIDE", String::as_str);
        // A param's argument without a type, in that param's body.
        let argument = match &other.node {
            ExprKind::Name(n) if self.var(n) == Some(Ty::Int) => self
                .decls
                .param_exprs
                .iter()
                .zip(&self.decls.param_args)
                .position(|(body, args)| {
                    body.span.file == other.span.file
                        && body.span.start <= other.span.start
                        && other.span.end <= body.span.end
                        && args.iter().any(|(a, t)| a == n && t.is_none())
                }),
            _ => None,
        };
        match (argument, &other.node) {
            (Some(i), ExprKind::Name(n)) => {
                let param = &self.decls.params[i];
                format!(
                    "`{n}` is a number: a param's arguments are numbers, or entities when written `{n}: character` \
                     (or a thing's type); a side cannot be passed. Pass a character of the side and compare sides: \
                     `param {param}({n}: character) = ... == {n}.side`; or write the side's name in the rule: \
                     `c.side == {side}`, `c is {side}`"
                )
            }
            _ => format!(
                "a side compares with a side: another character's side (`c.side == x.side`) or a side's name \
                 (`c.side == {side}`); `c is {side}` tests it too"
            ),
        }
    }

    /// `l OP r`: truth values for `and` and `or`, two of a kind for `==`, numbers otherwise.
    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr) -> Ty {
        match op {
            BinOp::And | BinOp::Or => {
                self.expect(l, Ty::Bool, format_args!("the left of `{}`", op.symbol()));
                self.expect(r, Ty::Bool, format_args!("the right of `{}`", op.symbol()));
                Ty::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                let lt = self.expr(l);
                let rt = self.expr(r);
                // Numbers compare at the most decimals of the two.
                if let (Some(a), Some(b)) = (lt.scale(), rt.scale()) {
                    let top = a.max(b);
                    self.widen(l.span, a, top);
                    self.widen(r.span, b, top);
                    return Ty::Bool;
                }
                if !lt.fits(rt) && !rt.fits(lt) {
                    let help = self.compare_help((l, lt), (r, rt));
                    self.err(
                        Diag::new(
                            "check::type",
                            format!("cannot compare {} with {}", self.tn(lt), self.tn(rt)),
                        )
                        .label(l.span, self.tn(lt))
                        .label(r.span, self.tn(rt))
                        .help(help),
                    );
                }
                Ty::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Add | BinOp::Sub => {
                let s = self.common(&[l, r], format_args!("each side of `{}`", op.symbol()));
                if matches!(op, BinOp::Add | BinOp::Sub) {
                    Ty::of_scale(s)
                } else {
                    Ty::Bool
                }
            }
            // A product keeps the decimals of both factors: exact.
            BinOp::Mul => {
                let a = self.number(l, "the left of `*`");
                let b = self.number(r, "the right of `*`");
                Ty::of_scale(self.too_precise(r.span, a + b, false))
            }
            // A quotient keeps the decimals of the left, cut toward zero as whole numbers are:
            // the left is widened by the right's decimals first.
            _ => {
                let a = self.number(l, "the left of `/`");
                let b = self.number(r, "the right of `/`");
                let wide = self.too_precise(r.span, a + b, true);
                self.widen(l.span, a, wide);
                Ty::of_scale(a)
            }
        }
    }

    /// Queries on a kept order: `position(c, ORDER)` (from 1, 0 when absent), `below(c, ORDER)`
    /// (the next one down, itself when last), `next(c, ORDER)` and `previous(c, ORDER)` (round
    /// the table: the last wraps to the first).
    fn order_query(&mut self, e: &Expr, name: &Ident, args: &[Expr]) -> Ty {
        let f = name.node.as_str();
        let order = match args.get(1).map(|a| &a.node) {
            Some(ExprKind::Name(o)) if args.len() == 2 => match self.decls.lookup(o) {
                Some(Sym::Order(i)) if self.decls.order_types[i as usize] != super::SIDE => {
                    Some(Ty::Entity(self.decls.order_types[i as usize]))
                }
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
            self.expect(a, t, format_args!("the first argument of `{f}`"));
        }
        if f == "position" { Ty::Int } else { t }
    }

    /// `P(a, b)`: a param with arguments, called with one argument of its type per argument.
    fn param_call(&mut self, e: &Expr, name: &Ident, args: &[Expr]) -> Ty {
        let index = match self.decls.lookup(&name.node) {
            Some(Sym::Param(i)) => i as usize,
            _ => 0,
        };
        let kinds: Vec<Ty> = self.decls.param_arg_tys.get(index).cloned().unwrap_or_default();
        let want = kinds.len();
        if want != args.len() {
            self.err(
                Diag::new(
                    "check::arity",
                    format!("the param `{}` takes {want} argument(s), not {}", name.node, args.len()),
                )
                .label(e.span, "here")
                .help("pass one value per argument the param declares, of its type (a number unless written `NAME: TYPE`)"),
            );
        }
        for (a, kind) in args.iter().zip(kinds.iter().chain(std::iter::repeat(&Ty::Int))) {
            self.expect(a, *kind, format_args!("an argument of `{}`", name.node));
        }
        self.param_type(index)
    }

    /// A built-in function: `highest`, `lowest` or `abs`, on numbers.
    fn call(&mut self, e: &Expr, name: &Ident, args: &[Expr]) -> Ty {
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
        if arity.is_none() && args.is_empty() {
            self.err(
                Diag::new(
                    "check::arity",
                    format!("`{}` takes one argument or more, not none", name.node),
                )
                .label(e.span, "here")
                .help(format!("call it as `{}(a, b)`", name.node)),
            );
        }
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
        let args: Vec<&Expr> = args.iter().collect();
        Ty::of_scale(self.common(&args, format_args!("an argument of `{}`", name.node)))
    }

    /// `if C then A else B`: both branches of one kind.
    fn if_expr(&mut self, c: &Expr, a: &Expr, b: &Expr) -> Ty {
        self.expect(c, Ty::Bool, "the condition of `if`");
        let at = self.expr(a);
        let bt = self.expr(b);
        if let (Some(x), Some(y)) = (at.scale(), bt.scale())
            && x != y
        {
            let top = x.max(y);
            self.widen(a.span, x, top);
            self.widen(b.span, y, top);
            return Ty::of_scale(top);
        }
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

    /// Field `f` of an owner type (a thing, or the sides), recorded for the compiler: its type,
    /// or `None` when that type declares no such field.
    pub(super) fn owned_field(&mut self, owner: u16, f: &Ident) -> Option<Ty> {
        let (i, kind) = self.decls.field_of(owner, &f.node)?;
        self.fields_at.insert(f.span, i);
        Some(match kind {
            FieldKind::Flag | FieldKind::Effect => Ty::Bool,
            _ => self.decls.field_ty(i),
        })
    }

    /// A quantifier's parts: no routine that gives is called in them (`check::call_here`). The
    /// walk reads its collection as it stands, and a routine run from its filter or body could
    /// draw, create or rank and change the collection under it.
    fn walking(&mut self, check: impl FnOnce(&mut Self) -> Ty) -> Ty {
        let calls = std::mem::replace(&mut self.calls, false);
        let t = check(self);
        self.calls = calls;
        t
    }

    /// A quantifier: `any`, `all`, `count`, `sum`, `max`, `min`, `first` or `last` `x in COLL
    /// [where C] [by ORDER] [: VALUE]`. Takes the whole expression: its parts are many.
    fn quant(&mut self, e: &Expr) -> Ty {
        let ExprKind::Quant(q) = &e.node else {
            return Ty::Error;
        };
        let QuantExpr {
            quant,
            var,
            coll,
            presence,
            filter,
            by,
            body,
        } = &**q;
        let elem = self.collection(coll);
        if elem == Ty::Side && *presence != Presence::InPlay {
            self.side_walk("`out of play`", e.span);
        }
        self.presence_of(*presence, elem, var.span);
        if *presence != Presence::InPlay
            && matches!(coll, Collection::Ranked(o) if o.node == "tied" && self.tied.is_some())
        {
            self.err(
                Diag::new("check::quantifier", "`tied` is the group being sorted: it takes no `out of play`")
                    .label(var.span, "drawn from the group")
                    .help("the group is whom the walk or choice being sorted drew, in play or out of it: write `... in tied` alone"),
            );
        }
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
            Quant::Sum | Quant::Max | Quant::Min => match body {
                Some(b) => Ty::of_scale(self.number(b, "the value of a quantifier")),
                None => {
                    self.err(
                        Diag::new("check::quantifier", "this quantifier needs a value after `:`")
                            .label(e.span, "value of what?")
                            .help("write e.g. `min c in characters: c.STAT`"),
                    );
                    Ty::Int
                }
            },
        };
        self.scopes.pop();
        ty
    }

    /// A collection: `characters`, a thing's plural, or a ranked order; gives the type it holds.
    pub(super) fn collection(&mut self, coll: &Collection) -> Ty {
        match coll {
            Collection::Characters => CHAR,
            Collection::Ranked(o) if o.node == "tied" && self.tied.is_some() => self.tied.unwrap_or(Ty::Error),
            c if self.is_sides(c) => Ty::Side,
            Collection::Ranked(o) => match self.decls.lookup(&o.node) {
                Some(Sym::Plural(t)) => Ty::Entity(t),
                _ => self.order(o),
            },
            Collection::Pile(deck, _) => self.pile(deck),
        }
    }

    /// An order by name; gives the type it sorts.
    pub(super) fn order(&mut self, o: &Ident) -> Ty {
        if self.is_side_order(o) {
            self.err(
                Diag::new("check::side_walk", format!("`{}` sorts sides: it is never kept", o.node))
                    .label(o.span, "an order of sides")
                    .help("an order of sides sorts a walk or a quantifier (`for each s in sides by ORDER`); `rank`, `place`, `swap`, places and the queries of a kept order are for entities"),
            );
            return Ty::Error;
        }
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
    pub(super) fn order_for(&mut self, o: &Ident, elem: Ty) {
        let t = if self.is_side_order(o) { Ty::Side } else { self.order(o) };
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

    /// An order used inside an expression must not roll: an expression only reads the state.
    pub(super) fn no_rolling_order(&mut self, o: &Ident) {
        let keys = self.decls.order_rolls.get(&o.node).copied();
        if let Some(span) = keys {
            self.err(
                Diag::new(
                    "check::rolled",
                    format!(
                        "`{}` rolls dice or asks who goes first to sort, so it cannot sort inside an expression",
                        o.node
                    ),
                )
                .label(o.span, "used here")
                .label(span, "rolls or asks here")
                .help("sort by an order whose keys neither roll nor ask, or `rank` it first and walk the kept order"),
            );
        }
    }

    pub(super) fn no_dice(&mut self, e: &Expr, what: &str) {
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
}

const FUNCTIONS: [&str; 7] = ["highest", "lowest", "abs", "position", "below", "next", "previous"];
/// The functions that query a kept order (the compiler lowers them by these names too).
pub const ORDER_QUERIES: [&str; 4] = ["position", "below", "next", "previous"];
