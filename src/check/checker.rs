//! The second pass's walker: the `Checker`, its scopes of variables and levels, and the helpers
//! every part of the checker shares (reporting, type names, params' types).

use super::{ANY, CHARACTER, Decls, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

/// The levels (`lo..hi` of the enclosing ones) and `repeat` loops (`lo..hi` deep) over by a
/// reveal, and the option whose block runs then (see `Checker::revealed`).
pub(super) type Revealed = ((usize, usize), (usize, usize), Span);

/// What a checked part is, for the message when it is wrong ("the left of `and`"): text, or
/// `format_args!`, or [`Lazy`], written only when an error is reported, never on a check that
/// passes (formatting each one eagerly was a tenth of checking a ruleset).
pub(super) trait What: std::fmt::Display + Copy {}
impl<T: std::fmt::Display + Copy> What for T {}

/// A message part written by a function, only when it is shown (see [`What`]).
#[derive(Clone, Copy)]
pub(super) struct Lazy<F>(pub(super) F);

impl<F: Fn(&mut std::fmt::Formatter<'_>) -> std::fmt::Result> std::fmt::Display for Lazy<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (self.0)(f)
    }
}

pub(super) struct Checker<'a> {
    pub(super) decls: &'a Decls<'a>,
    pub(super) diags: &'a mut Vec<Diag>,
    /// Variables in scope with their types, innermost last.
    pub(super) scopes: Vec<(String, Ty)>,
    /// Names of the enclosing levels (where each is written), innermost last.
    pub(super) levels: Vec<Ident>,
    /// How many `repeat` loops enclose the statement being checked.
    pub(super) repeats: usize,
    /// The type each param with arguments gives, once worked out.
    pub(super) param_tys: Vec<Option<Ty>>,
    /// Working out a type: report nothing.
    pub(super) silent: bool,
    /// How many `together` walks enclose the statement being checked (in its own body).
    pub(super) together: usize,
    /// Inside the block of an option chosen in secret (run at the reveal): how many `together`
    /// walks enclosed that block, and the option.
    pub(super) deferred: Option<(usize, Span)>,
    /// The levels and `repeat` loops enclosing each `together` walk as it begins, innermost last.
    pub(super) walks: Vec<(usize, usize)>,
    /// Inside the block of an option chosen in secret: the levels and loops entered inside its
    /// walk, before the block (`levels[lo..hi]`, and loops `lo..hi` deep), which are over by the
    /// reveal; and the option.
    pub(super) revealed: Option<Revealed>,
    /// The statement being checked heads the block of an option chosen in secret (only secret
    /// choices before it there): a secret choice here is made with that pick.
    pub(super) heading: bool,
    /// Secret picks held past reveals (see `reveal.rs`): the choice being checked is held
    /// (`until revealed`); inside the block of a held option; the `as` picks in scope; the
    /// secret choice whose `where`/`unless` is being checked; the choices that read a pick; the
    /// `reveal`s and held decisions met.
    pub(super) holding: bool,
    pub(super) in_held: bool,
    pub(super) picks: Vec<super::reveal::Pick>,
    pub(super) reading: Option<super::reveal::Reader>,
    pub(super) reads: std::collections::HashSet<Span>,
    /// The type whose fields are being checked: [`super::CHARACTER`], a thing, or
    /// [`super::SIDE`] (whom `resource NAME(c)` names).
    pub(super) field_owner: u16,
    /// Choosers that are expressions giving a role (`Checked::role_choosers`).
    pub(super) role_choosers: super::Found<Span, ()>,
    pub(super) reveals: Vec<Ident>,
    pub(super) held_names: std::collections::HashSet<String>,
    /// Inside an ordering key's `when`: the type of the tied group `tied` names.
    pub(super) tied: Option<Ty>,
    pub(super) fields_at: super::Found<Span, u16>,
    /// Refusal text parts that are numbers (see [`super::Checked::numbers_at`]).
    pub(super) numbers_at: super::Found<Span, ()>,
    /// Numbers widened to more decimals (see [`super::Checked::widen_at`]).
    pub(super) widen_at: super::Found<(Span, Span), i64>,
    /// Where the expressions being checked are compiled, when one expression is compiled at
    /// several places (a policy's condition at each `choose` of its decision): the span of that
    /// place, else the default span.
    pub(super) site: Span,
    /// Numbers shown with decimals (see [`super::Checked::decimals_at`]).
    pub(super) decimals_at: super::Found<Span, u8>,
    /// The moments enclosing the statement being checked (see `moments.rs`).
    pub(super) moments: super::moments::Scope,
    /// Changes a held option's block defers, and the `reveal`s that run such blocks.
    pub(super) held_moments: super::moments::HeldMoments,
    /// Dice pools: where they may be read, which are being walked (see `pools.rs`).
    pub(super) pools: super::pools::PoolState,
    /// Issue 26's functions (see `functions.rs`): what the routine being checked gives, and what
    /// the next routine body checked gives; the places in `scopes` bound by `let` (the locals
    /// `set` may change) and the first place a block run later (on a copy) may change; whether
    /// the statement being checked may call a routine that gives a value.
    pub(super) giving: Option<Ty>,
    pub(super) next_giving: Option<Ty>,
    pub(super) lets: Vec<usize>,
    pub(super) fence: usize,
    /// Where the innermost block's own names start in `scopes` (a `let` may not name again a
    /// changing local of a block around it: see `relet`).
    pub(super) block_start: usize,
    pub(super) calls: bool,
    /// How many turns, reactions and levels enclose the statement, in the block being checked
    /// (a `give` there would skip their ends).
    pub(super) sheltered: usize,
}

impl Checker<'_> {
    /// Reports `d`, once: a policy's condition is checked at every `choose` of its decision, and
    /// the same mistake found there twice is one error.
    pub(super) fn err(&mut self, d: Diag) {
        // A name declared twice is reported once; what it then fails to resolve to is an echo.
        let quoted = d
            .message
            .strip_suffix('`')
            .and_then(|m| m.rsplit_once('`'))
            .map(|(_, n)| n);
        if d.code == "check::unknown" && quoted.is_some_and(|n| self.decls.duplicates.contains(n)) {
            return;
        }
        let same = |e: &Diag| e.code == d.code && e.message == d.message && e.labels.first() == d.labels.first();
        if !self.silent && !self.diags.iter().rev().take(64).any(same) {
            self.diags.push(d);
        }
    }

    /// The type of a variable in scope.
    pub(super) fn var(&self, name: &str) -> Option<Ty> {
        self.scopes.iter().rev().find(|s| s.0 == name).map(|s| s.1)
    }

    /// Records that the number at `span`, kept with `from` decimals, is used with `to`: the
    /// compiler multiplies it by 10^(to - from).
    pub(super) fn widen(&mut self, span: Span, from: u8, to: u8) {
        if to > from {
            self.widen_at.insert((self.site, span), 10i64.pow(u32::from(to - from)));
        }
    }

    /// A number (of any decimals): its decimals, or 0 after reporting what it is instead.
    pub(super) fn number(&mut self, e: &Expr, what: impl What) -> u8 {
        let t = self.expr(e);
        match t.scale() {
            Some(s) => s,
            None => {
                self.err(
                    Diag::new(
                        "check::type",
                        format!("{what} must be a number, but this is {}", self.tn(t)),
                    )
                    .label(e.span, self.tn(t))
                    .help("use a number, a stat, a resource, dice or a param"),
                );
                0
            }
        }
    }

    /// Numbers used together (added, compared, the arguments of `max`): each widened to the most
    /// decimals among them, which it gives.
    pub(super) fn common(&mut self, es: &[&Expr], what: impl What) -> u8 {
        let scales: Vec<u8> = es.iter().map(|e| self.number(e, what)).collect();
        let top = scales.iter().copied().max().unwrap_or(0);
        for (e, s) in es.iter().zip(scales) {
            self.widen(e.span, s, top);
        }
        top
    }

    /// More decimals than a number keeps, for a product (`quotient`: false) or while a
    /// quotient is worked out (`true`): reported at `span`.
    pub(super) fn too_precise(&mut self, span: Span, s: u8, quotient: bool) -> u8 {
        let most = crate::limits::MAX_DECIMALS;
        if s > most {
            let (msg, help) = if quotient {
                (
                    format!(
                        "this division is worked out at {s} decimals (the left's and the right's together), more than {most}"
                    ),
                    "divide by a whole number, or keep fewer decimals in the numbers divided",
                )
            } else {
                (
                    format!("this product keeps {s} decimals, more than {most}"),
                    "multiply by a whole number, or keep fewer decimals in the fields multiplied",
                )
            };
            self.err(
                Diag::new("check::decimals", msg)
                    .label(span, format!("{s} decimals"))
                    .help(help),
            );
            return most;
        }
        s
    }

    /// Binds a variable (`let`, `for each`, a quantifier, `choose ... from`, `as`, an action's,
    /// hook's, routine's or order's variable) for the scope being checked.
    pub(super) fn bind(&mut self, name: &Ident, t: Ty) {
        self.fresh(name);
        let depth = self.scopes.len();
        self.lets.retain(|&i| i < depth);
        self.scopes.push((name.node.clone(), t));
    }

    /// A variable may not take a declared name: inside its scope the name would read the
    /// variable, while what names the declaration directly (`gain 1 doom`, `c is heroes`, an
    /// order, a level's `.number`) would still mean the declaration.
    pub(super) fn fresh(&mut self, name: &Ident) {
        let n = &name.node;
        let (what, at) = if let Some(sym) = self.decls.lookup(n) {
            (sym_noun(sym), self.decls.declared_at(n))
        } else if let Some(i) = self.decls.entity(n) {
            let t = self.decls.entity_types.get(i).copied().unwrap_or(CHARACTER);
            (self.decls.a_thing(t), self.decls.entity_spans.get(i).copied())
        } else if self.decls.level_names.contains_key(n) {
            ("a level".to_string(), None)
        } else {
            return;
        };
        let help = match self.decls.lookup(n) {
            None if self.decls.entity(n).is_some() => format!(
                "rename the variable, or the {} (it may be declared in the encounter): while the variable is in scope, `{n}` would mean it, not the {0}",
                what.trim_start_matches("an ").trim_start_matches("a ")
            ),
            Some(Sym::Field(_, super::FieldKind::Global)) => format!(
                "give the variable a name of its own: while it is in scope `{n}` would read the variable, but `gain`, `set` and the other changes would still change the global"
            ),
            _ => format!(
                "give the variable a name of its own: while it is in scope, `{n}` would mean the variable, not {what}"
            ),
        };
        let mut d = Diag::new("check::shadow", format!("the variable `{n}` takes the name of {what}"))
            .label(name.span, "this variable");
        if let Some(at) = at {
            d = d.label(at, "declared here");
        }
        self.err(d.help(help));
    }

    /// A type's name with its article, for messages.
    pub(super) fn tn(&self, t: Ty) -> String {
        match t {
            Ty::Int => "a number".into(),
            Ty::Dec(s) => format!("a number with {s} decimal{}", if s == 1 { "" } else { "s" }),
            Ty::Bool => "a truth value".into(),
            Ty::Entity(ANY) => "`none`".into(),
            Ty::Entity(t) => self.decls.a_thing(t),
            Ty::Side => "a side".into(),
            Ty::Role => "a role".into(),
            Ty::Pool => "a pool of dice".into(),
            Ty::Error => "an invalid value".into(),
        }
    }

    /// A written type (`None`: a character).
    pub(super) fn thing_ty(&self, t: Option<&Ident>) -> Ty {
        match t.map(|t| t.node.as_str()) {
            Some("side") => return Ty::Side,
            Some("role") => return Ty::Role,
            Some("truth") if self.decls.thing("truth").is_none() => return Ty::Bool,
            _ => {}
        }
        Ty::Entity(t.and_then(|t| self.decls.thing(&t.node)).unwrap_or(CHARACTER))
    }

    /// Puts a param's arguments in scope (numbers, or entities), returning what was there.
    pub(super) fn bind_args(&mut self, args: impl Iterator<Item = (String, Ty)>) -> Vec<(String, Ty)> {
        let scopes = std::mem::take(&mut self.scopes);
        for (a, t) in args {
            self.scopes.push((a, t));
        }
        scopes
    }

    /// The type a param gives (its body's: for a plain param a number or a truth value), worked
    /// out once, silently.
    pub(super) fn param_type(&mut self, i: usize) -> Ty {
        if let Some(t) = self.param_tys.get(i).copied().flatten() {
            return t;
        }
        let Some(&body) = self.decls.param_exprs.get(i) else {
            return Ty::Error;
        };
        self.param_tys[i] = Some(Ty::Error); // a cycle (reported elsewhere) gives an error type
        let args = self.param_vars(i);
        let silent = std::mem::replace(&mut self.silent, true);
        let scopes = self.bind_args(args.into_iter());
        let t = match (self.decls.param_args[i].is_empty(), self.expr(body)) {
            // A plain param is a number or a truth value (`param surprise_round = true`).
            (true, Ty::Bool) => Ty::Bool,
            (true, Ty::Dec(s)) => Ty::Dec(s),
            (true, _) => Ty::Int,
            (false, t) => t,
        };
        self.scopes = scopes;
        self.silent = silent;
        self.param_tys[i] = Some(t);
        t
    }
}

/// What a declared name is, with its article: "a global", "an order".
fn sym_noun(sym: Sym) -> String {
    match sym {
        Sym::Param(_) => "a param".into(),
        Sym::Field(_, k) => k.a(),
        Sym::Side(_) => "a side".into(),
        Sym::Tag(_) => "a tag".into(),
        Sym::Action(_) => "an action".into(),
        Sym::Order(_) => "an order".into(),
        Sym::Role(_) => "a role".into(),
        Sym::Trigger(_) => "a trigger".into(),
        Sym::Unit(_) => "a unit".into(),
        Sym::Routine(_) => "a routine".into(),
        Sym::Thing(_) => "a type of entity".into(),
        Sym::Plural(_) => "a collection".into(),
        Sym::Measure(_) => "a measure".into(),
    }
}
