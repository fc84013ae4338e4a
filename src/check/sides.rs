//! Sides and roles as values: the fields every side has (`side NAME, ... { FIELDS }`), read as
//! `s.FIELD` through anything that gives a side (`heroes.init`, `c.side.init`), and choosers
//! that are computed roles (`choose next by c.side.controller { ... }`).

use super::checker::Checker;
use super::suggest::unknown;
use super::{SIDE, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// The fields of a `side` block: checked as a thing's are. A flag cleared `per LEVEL` is
    /// refused: levels clear the flags of entities, and a side is none.
    pub(super) fn side_fields(&mut self, fields: &[Item]) {
        let outer = std::mem::replace(&mut self.field_owner, SIDE);
        for f in fields {
            if let Item::Flag { name, per, .. } = f
                && let Some(first) = per.first()
            {
                let at = match first {
                    Per::Level(l) => l.span,
                    Per::AnyTurn(s) => *s,
                };
                self.err(
                    Diag::new(
                        "check::side_field",
                        format!("a side's flag `{}` cannot be cleared `per` a level or turn", name.node),
                    )
                    .label(at, "cleared per this")
                    .help("clear it by hand in the level's `on start of` hook: `clear heroes.FLAG`"),
                );
                continue;
            }
            self.item(f);
        }
        self.field_owner = outer;
    }

    /// `s.FIELD` where `s` gives a side: a field declared in a `side` block.
    pub(super) fn side_field(&mut self, f: &Ident) -> Ty {
        match self.owned_field(SIDE, f) {
            Some(t) => t,
            None => {
                let names = self.decls.fields_of(SIDE);
                let d = unknown("side field", &f.node, f.span, names.into_iter());
                self.err(d.help("declare it in a side's block: `side NAME, ... { stat FIELD }`"));
                Ty::Error
            }
        }
    }
}

/// The words a walk or quantifier of `sides` may not take, for `check::side_walk`.
const SIDE_WALK_HELP: &str = "sides are walked in the order they are declared or by an order of sides: `for each s in sides [backwards] [where C] [by ORDER] { ... }` with `order ORDER(s: side) { s.FIELD desc }`, and quantified the same way (`any s in sides: ...`, `first s in sides where ... by ORDER`)";

impl Checker<'_> {
    /// Whether a collection is `sides`: every declared side (when no other name is `sides`).
    pub(super) fn is_sides(&self, coll: &Collection) -> bool {
        matches!(coll, Collection::Ranked(o) if o.node == "sides")
            && self.decls.lookup("sides").is_none()
            && !self.decls.sides.is_empty()
    }

    /// `check::side_walk` at `span`: `what` cannot be done with `sides`.
    pub(super) fn side_walk(&mut self, what: &str, span: Span) {
        self.err(
            Diag::new("check::side_walk", format!("{what} cannot walk the sides"))
                .label(span, "here")
                .help(SIDE_WALK_HELP),
        );
    }

    /// Whether `o` is an order of sides (`order NAME(s: side)`).
    pub(super) fn is_side_order(&self, o: &Ident) -> bool {
        matches!(self.decls.lookup(&o.node), Some(Sym::Order(i)) if self.decls.order_types.get(i as usize) == Some(&SIDE))
    }

    /// An order of sides sorts by values: a roll-off, `chosen by` or `when` is for entities
    /// (who rolls, who is offered, who is tied).
    pub(super) fn side_order_keys(&mut self, o: &OrderDecl) {
        if !matches!(o.ty.as_ref(), Some(t) if t.node == "side") {
            return;
        }
        for k in &o.keys {
            if k.roll || k.chosen.is_some() || k.when.is_some() {
                self.err(
                    Diag::new("check::side_walk", "an order of sides sorts by values only")
                        .label(k.span, "a roll-off, `chosen by` or `when`")
                        .help("sort sides by their fields (`s.init desc`); roll into a field first (`for each s in sides { set s.init = d6 }`), and settle ties with another value key"),
                );
            }
        }
    }

    /// A `for each` of `sides` takes `backwards`, `where` and `by ORDER` only.
    pub(super) fn side_for_each(&mut self, f: &ForEach) {
        if !self.is_sides(&f.coll) {
            return;
        }
        let what = if f.together {
            "a `together` walk"
        } else if f.ties || f.anew || f.again {
            "a walk sorted anew, with ties together or `repeat for first`"
        } else if f.from.is_some() {
            "`from`"
        } else if f.presence != Presence::InPlay {
            "`out of play`"
        } else {
            return;
        };
        self.side_walk(what, f.span);
    }
}
