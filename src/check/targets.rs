//! Checking what a statement acts on and changes: the statements that change a field (`spend`,
//! `set`, ...), `x.FIELD` or a global as a target, a field of the kind a statement needs, an effect.

use super::checker::Checker;
use super::suggest::unknown;
use super::{ANY, CHARACTER, FieldKind, SIDE, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// `spend`, `gain`, `reset`, `forfeit` and `transfer`: a resource, and the number the
    /// statement takes (`what`), if it takes one.
    /// The number is widened to the resource's decimals; gives the resource when it resolves.
    pub(super) fn resource(&mut self, value: Option<&Expr>, what: &str, target: &Target, verb: &str) -> Option<u16> {
        let f = self.target(target, FieldKind::Resource, verb);
        // A truth global, refused: its value is not checked as a number (no echo).
        let truth = target.var.is_none()
            && target.base.is_none()
            && matches!(self.decls.field(&target.field.node), Some((i, FieldKind::Global)) if self.decls.truth(i));
        if let Some(v) = value {
            match f {
                None if truth => {
                    self.expr(v);
                }
                f => {
                    let want = f.map_or(Ty::Int, |f| self.decls.field_ty(f));
                    self.expect(v, want, what);
                }
            }
        }
        f
    }

    /// `set x.STAT = VALUE`: a stat, and a value of its type.
    pub(super) fn set(&mut self, target: &Target, value: &Expr) {
        let want = match self.target(target, FieldKind::Stat, "set") {
            Some(f) => self.decls.field_ty(f),
            None => Ty::Error,
        };
        let what = if target.var.is_none() && target.base.is_none() {
            "a global's new value"
        } else {
            "a stat's new value"
        };
        if want == Ty::Error {
            self.expr(value);
        } else {
            self.expect(value, want, what);
        }
    }

    /// The field `f` of the entity an expression gives, as a statement's target.
    fn field_through(&mut self, base: &Expr, f: &Ident, want: FieldKind, verb: &str) -> Option<u16> {
        match self.expr(base) {
            Ty::Entity(o) if o != ANY => self.field(o, f, want, verb),
            Ty::Side => self.field(SIDE, f, want, verb),
            Ty::Error => None,
            other => {
                self.err(
                    Diag::new(
                        "check::type",
                        format!("this is {}: it has no fields to {verb}", self.tn(other)),
                    )
                    .label(base.span, self.tn(other))
                    .help("reach a character or a thing: a variable, a global holding one, a field holding one, or `first x in ...`"),
                );
                None
            }
        }
    }

    /// `x.FIELD` or a global as a statement's target; gives the field when it resolves.
    pub(super) fn target(&mut self, t: &Target, want: FieldKind, verb: &str) -> Option<u16> {
        let f = &t.field;
        // A field reached through an expression: `c.held.out`, `(first x in cards ...).fast`.
        if let Some(base) = &t.base {
            return self.field_through(base, f, want, verb);
        }
        match (&t.var, self.decls.field(&f.node)) {
            (Some(v), field) => {
                let owner = match self.var(&v.node) {
                    Some(Ty::Entity(o)) if o != ANY => o,
                    Some(Ty::Side) => SIDE,
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
                    // A declared character or thing by its name (`gain 1 Ana.hp`), or a global
                    // holding one (`gain 1 leader.hp`): the owner is that expression.
                    None if self.decls.entity(&v.node).is_some()
                        || matches!(self.decls.lookup(&v.node), Some(Sym::Side(_)))
                        || matches!(self.decls.field(&v.node), Some((_, FieldKind::Global))) =>
                    {
                        let base = Expr {
                            node: ExprKind::Name(v.node.clone()),
                            span: v.span,
                        };
                        return self.field_through(&base, f, want, verb);
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
            // A truth global: `set`, `mark` and `clear`; not the statements that change a number.
            (None, Some((i, FieldKind::Global))) if self.decls.truth(i) && want == FieldKind::Resource => {
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        format!("cannot {verb} `{}`: it is a truth global, not a number", f.node),
                    )
                    .label(f.span, "a truth value")
                    .help(format!(
                        "change a truth value with `set {0} = CONDITION`, `mark {0}` or `clear {0}`",
                        f.node
                    )),
                );
                None
            }
            (None, Some((i, FieldKind::Global))) if want != FieldKind::Flag || self.decls.truth(i) => {
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
                    .help("`mark` and `clear` work on flags and on truth globals (`global NAME: truth`); give a number a value with `set` or `reset`"),
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
    pub(super) fn field(&mut self, owner: u16, f: &Ident, want: FieldKind, verb: &str) -> Option<u16> {
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
                    "declare it in {} with `{} {}`",
                    self.decls.declared_in(owner),
                    want.noun(),
                    f.node
                )));
            }
            // The built-in `c.group` (and `c.in_play`) are read, never changed.
            None if matches!(f.node.as_str(), "group" | "in_play") => {
                self.err(
                    Diag::new("check::wrong_kind", format!("cannot {verb} `{}`: the runtime keeps it", f.node))
                        .label(f.span, "read only")
                        .help(if f.node == "group" {
                            "`c.group` is the first of the group `c` was declared in (`character 3 × NAME`) still in play; to group characters otherwise, declare a stat: `stat leader: character`"
                        } else {
                            "`c.in_play` changes with `join` and `leave`"
                        }),
                );
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

    pub(super) fn effect(&mut self, e: &Ident) {
        if !matches!(self.decls.field(&e.node), Some((_, FieldKind::Effect))) {
            let d = self.unknown_effect(e);
            self.err(d.help(format!("declare it with `effect {}`", e.node)));
        }
    }

    /// `check::unknown` for a name that is no declared effect, with the effects there are (the
    /// caller adds the help for its place).
    pub(super) fn unknown_effect(&self, e: &Ident) -> Diag {
        let names = self
            .decls
            .fields
            .iter()
            .filter(|f| f.1 == FieldKind::Effect)
            .map(|f| &f.0);
        unknown("effect", &e.node, e.span, names)
    }
}
