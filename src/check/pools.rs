//! Checking dice pools: exploding dice's thresholds, quantifiers over a roll's faces, and pools
//! (`roll DICE as p`): read through their faces and size only, in the block they are rolled in,
//! never by a block that runs later (a readied response, a secret option revealed later).

use super::Ty;
use super::checker::Checker;
use crate::diag::Diag;
use crate::source::Span;
use crate::syntax::ast::*;

/// What the checker keeps about pools while it walks.
#[derive(Default)]
pub(crate) struct PoolState {
    /// Variables bound below this depth of `scopes` are outside the block being checked, which
    /// runs later: a pool among them may be gone by then.
    pub(super) barrier: usize,
    /// The places in `scopes` of the pools a `for each` is walking: none is changed meanwhile.
    walked: Vec<usize>,
    /// The names that read a pool, by span (`Checked::pools_at`).
    pub(super) at: super::Found<Span, ()>,
}

impl Checker<'_> {
    /// The `!T` of dice with computed parts: a number; written out with listed faces, one that
    /// lets the dice stop exploding.
    pub(super) fn explode_part(&mut self, d: &DynDice, span: Span) {
        let t = match (&d.explode, &d.faces) {
            (Some(Some(t)), _) => t,
            // `!` on listed faces explodes on the highest: some face must be lower.
            (Some(None), Some(faces)) => {
                let hi = faces.iter().copied().max().unwrap_or(0);
                if !crate::syntax::explode_ends(hi, faces) {
                    self.err(
                        Diag::new(
                            "check::explode",
                            "these dice would explode for ever: every face is the highest",
                        )
                        .label(span, "these dice")
                        .help("list a face below the highest, or drop the `!`"),
                    );
                }
                return;
            }
            _ => return,
        };
        self.expect(t, Ty::Int, "the face a die explodes on");
        if let (ExprKind::Int(v), Some(faces)) = (&t.node, &d.faces)
            && !crate::syntax::explode_ends(*v, faces)
        {
            self.err(
                Diag::new(
                    "check::explode",
                    format!("these dice would explode on {v} for ever or never"),
                )
                .label(t.span, "explodes on this face or more")
                .label(span, "these dice")
                .help("explode on a face above the lowest and at most the highest"),
            );
        }
    }

    /// `count f in 6d10 where f >= 7: ...`: the variable is each face, a number.
    pub(super) fn faces_quant(&mut self, q: &FacesQuant, span: Span) -> Ty {
        let FacesQuant {
            quant,
            var,
            dice,
            filter,
            body,
        } = q;
        self.expect(dice, Ty::Int, "dice");
        self.faces_parts(*quant, var, filter.as_deref(), body.as_deref(), span)
    }

    /// What a quantifier over faces binds and checks: its variable (a number), filter and body.
    fn faces_parts(&mut self, quant: Quant, var: &Ident, filter: Option<&Expr>, body: Option<&Expr>, span: Span) -> Ty {
        self.bind(var, Ty::Int);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, "a `where` filter");
        }
        let ty = match quant {
            Quant::First | Quant::Last => {
                self.err(
                    Diag::new(
                        "check::faces",
                        "`first` and `last` give an entity, but faces are numbers",
                    )
                    .label(span, "over the faces of a roll")
                    .help("count the faces (`count f in 5d6 where f == 6`), or take the best: `max f in 5d6: f`"),
                );
                if let Some(b) = body {
                    self.expr(b);
                }
                Ty::Error
            }
            Quant::Any | Quant::All | Quant::Count => {
                if let Some(b) = body {
                    self.expect(b, Ty::Bool, "the condition of a quantifier");
                }
                if quant == Quant::Count { Ty::Int } else { Ty::Bool }
            }
            Quant::Sum | Quant::Max | Quant::Min => match body {
                Some(b) => Ty::of_scale(self.number(b, "the value of a quantifier")),
                None => {
                    self.err(
                        Diag::new("check::quantifier", "this quantifier needs a value after `:`")
                            .label(span, "value of what?")
                            .help("write e.g. `sum f in 6d10 where f >= 7: if f == 10 then 2 else 1`"),
                    );
                    Ty::Int
                }
            },
        };
        self.scopes.pop();
        ty
    }
}

impl Checker<'_> {
    /// Whether a collection names a pool in scope.
    pub(super) fn is_pool(&self, coll: &Collection) -> bool {
        matches!(coll, Collection::Ranked(o) if self.var(&o.node) == Some(Ty::Pool))
    }

    /// Whether an expression is a pool's name (the base of `p.size`).
    pub(super) fn names_pool(&self, e: &Expr) -> bool {
        matches!(&e.node, ExprKind::Name(n) if self.var(n) == Some(Ty::Pool))
    }

    /// A pool read by name: one rolled in a block that is still running when this runs.
    fn pool_ref(&mut self, name: &Ident) -> Option<usize> {
        let at = self.scopes.iter().rposition(|s| s.0 == name.node);
        match at {
            Some(i) if self.scopes[i].1 == Ty::Pool => {
                if i < self.pools.barrier {
                    self.err(
                        Diag::new("check::pool", format!("the pool `{}` cannot be read here", name.node))
                            .label(name.span, "rolled outside this block, which runs later")
                            .help("a readied response or an option chosen in secret runs later, when the pool's block may be over: work out the number now (`let hits = count f in p where f >= 5`) and read that"),
                    );
                }
                self.pools.at.insert(name.span, ());
                Some(i)
            }
            _ => {
                let what = match at.map(|i| self.scopes[i].1) {
                    Some(t) => format!("this is {}", self.tn(t)),
                    None => "no pool of this name is in scope".into(),
                };
                self.err(
                    Diag::new("check::pool", format!("`{}` is not a pool of dice", name.node))
                        .label(name.span, what)
                        .help("roll a pool first, in this block or one around it: `roll 5d6 as p`"),
                );
                None
            }
        }
    }

    /// A pool's name used as a value (`let q = p`, `p + 1`): refused, with how to read it.
    pub(super) fn pool_as_value(&mut self, n: &str, span: Span) -> Ty {
        self.err(
            Diag::new("check::pool", format!("the pool `{n}` is many dice, not a value"))
                .label(span, "a pool used as a value")
                .help(format!(
                    "read its faces: `count f in {n} where f >= 5`, `sum f in {n}: f`, `max f in {n}: f`, or its size: `{n}.size`"
                )),
        );
        Ty::Error
    }

    /// `p.size`: how many dice the pool holds.
    pub(super) fn pool_size(&mut self, base: &Expr, f: &Ident) -> Ty {
        if let ExprKind::Name(n) = &base.node {
            self.pool_ref(&Ident::new(n.clone(), base.span));
        }
        if f.node != "size" {
            self.err(
                Diag::new("check::pool", format!("a pool has no `{}`", f.node))
                    .label(f.span, "not a pool's")
                    .help("a pool gives its `size`; read its faces with a quantifier: `count f in p where f == 6`"),
            );
            return Ty::Error;
        }
        Ty::Int
    }

    /// `count f in p [where C] [: V]`: over the pool's faces, in rolled order.
    pub(super) fn pool_quant(&mut self, q: &QuantExpr, span: Span) -> Ty {
        let QuantExpr {
            quant,
            var,
            coll,
            presence,
            filter,
            by,
            body,
        } = q;
        if let Collection::Ranked(o) = coll {
            self.pool_ref(o);
        }
        if *presence != Presence::InPlay || by.is_some() {
            self.err(
                Diag::new(
                    "check::pool",
                    "a pool's faces are numbers: they are not in play or sorted",
                )
                .label(span, "over a pool")
                .help("drop `out of play` or `by ORDER`: `count f in p where f >= 5`"),
            );
        }
        self.faces_parts(*quant, var, filter.as_deref(), body.as_deref(), span)
    }

    /// `for each f in p [where C] { ... }`: each face, in rolled order; the pool is not changed
    /// meanwhile.
    pub(super) fn for_faces(&mut self, f: &ForEach) {
        let ForEach {
            together,
            anew,
            ties,
            again,
            var,
            coll,
            presence,
            backwards,
            from,
            filter,
            order,
            body,
            span,
        } = f;
        let walked = match coll {
            Collection::Ranked(o) => self.pool_ref(o),
            Collection::Characters | Collection::Pile(_, _) => None,
        };
        if *together
            || *anew
            || *ties
            || *again
            || *backwards
            || from.is_some()
            || order.is_some()
            || *presence != Presence::InPlay
        {
            self.err(
                Diag::new("check::pool", "a walk over a pool's faces takes only `where`")
                    .label(*span, "over a pool")
                    .help("write `for each f in p where f >= 5 { ... }`: faces are numbers, walked in rolled order"),
            );
        }
        self.bind(var, Ty::Int);
        if let Some(c) = filter {
            self.expect(c, Ty::Bool, "a `where` filter");
        }
        self.pools.walked.extend(walked);
        self.block(body);
        if walked.is_some() {
            self.pools.walked.pop();
        }
        self.scopes.pop();
    }

    /// `roll DICE as p`, `remove FACE from p`.
    pub(super) fn pool_stmt(&mut self, p: &PoolStmt) {
        match &p.op {
            PoolOp::RollAs { dice, name } => {
                self.expect(dice, Ty::Int, "dice");
                self.bind(name, Ty::Pool);
            }
            PoolOp::Remove { face, pool } => {
                self.expect(face, Ty::Int, "the face taken out");
                if let Some(i) = self.pool_ref(pool)
                    && self.pools.walked.contains(&i)
                {
                    self.err(
                        Diag::new("check::pool", format!("`{}` is being walked here", pool.node))
                            .label(p.span, "takes a die out of it")
                            .help("take dice out after the walk, or walk a count: mark what to take out, then `remove` it after the `for each`"),
                    );
                }
            }
        }
    }
}
