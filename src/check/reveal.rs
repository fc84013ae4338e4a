//! Checking secrets held past their moment: `choose ... in secret until revealed`, `reveal`, and
//! the secret picks named with `as NAME`.
//!
//! A secret pick named with `as` may be read only where reading it shows nothing before its
//! reveal: in the `where` and `unless` of a later secret `choose ... from` of the **same
//! decision** by the **same chooser** (the same variable, or the same role), held the same way
//! (both `until revealed`, or both revealed when the same `together` walk ends). Choices of one
//! decision by one chooser are revealed in the order they were made (a walk's in the order made,
//! `reveal` the earliest held first), so by the time the later choice's candidates, refusals or
//! block are shown, the earlier pick has been shown. Anywhere else it is `check::secret_pick`.

use super::checker::Checker;
use super::suggest::unknown;
use super::{Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

/// Who makes a secret choice, as far as the checker can tell the same one: a variable (its place
/// in the scopes), or a role or declared entity by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Chooser {
    Var(usize),
    Named(String),
}

/// A pick named with `as`: its name and place in the scopes, the decision, its chooser, whether
/// it was secret and held, and how many `together` walks enclosed it.
#[derive(Clone, Debug)]
pub(super) struct Pick {
    name: String,
    scope: usize,
    decision: String,
    chooser: Option<Chooser>,
    secret: bool,
    held: bool,
    walks: usize,
}

/// A secret `choose ... from` whose `where` and `unless` are being checked.
#[derive(Clone, Debug)]
pub(super) struct Reader {
    decision: String,
    chooser: Option<Chooser>,
    held: bool,
    walks: usize,
    span: Span,
}

impl Checker<'_> {
    fn chooser_of(&self, e: &Expr) -> Option<Chooser> {
        let ExprKind::Name(n) = &e.node else {
            return None;
        };
        if let Some(i) = self.scopes.iter().rposition(|s| s.0 == *n) {
            return Some(Chooser::Var(i));
        }
        match self.decls.lookup(n) {
            Some(Sym::Role(_)) => Some(Chooser::Named(n.clone())),
            _ => self.decls.entity(n).map(|_| Chooser::Named(n.clone())),
        }
    }

    /// The reader a secret `choose ... from` is while its `where` and `unless` are checked.
    pub(super) fn reader(&self, c: &ChooseFrom) -> Option<Reader> {
        c.secret.then(|| Reader {
            decision: c.name.node.clone(),
            chooser: self.chooser_of(&c.chooser),
            held: c.held,
            walks: self.together,
            span: c.span,
        })
    }

    /// Forgets the picks whose names have gone out of scope.
    pub(super) fn forget_picks(&mut self) {
        let n = self.scopes.len();
        self.picks.retain(|p| p.scope < n);
    }

    /// After a `choose ... from` (`t`: its candidates' type): its `as NAME`, bound for the rest
    /// of the block; and, when its `where` or `unless` read an earlier secret pick, no dice in
    /// what is worked out to ask it.
    pub(super) fn bind_pick(&mut self, c: &ChooseFrom, t: Ty) {
        if self.reads.contains(&c.span) {
            self.reader_dice(c);
        }
        let Some(b) = &c.bind else {
            return;
        };
        let chooser = self.chooser_of(&c.chooser);
        self.forget_picks();
        self.bind(b, t);
        self.picks.push(Pick {
            name: b.node.clone(),
            scope: self.scopes.len() - 1,
            decision: c.name.node.clone(),
            chooser,
            secret: c.secret,
            held: c.held,
            walks: self.together,
        });
    }

    /// A variable `n` read at `span`: when it names a secret pick, only where that shows nothing.
    pub(super) fn read_pick(&mut self, n: &str, span: Span) {
        let Some(i) = self.scopes.iter().rposition(|s| s.0 == n) else {
            return;
        };
        let Some(p) = self.picks.iter().rev().find(|p| p.scope == i && p.name == n) else {
            return;
        };
        if !p.secret {
            return;
        }
        let fits = |r: &Reader| {
            r.decision == p.decision
                && r.chooser.is_some()
                && r.chooser == p.chooser
                && r.held == p.held
                && (p.held || r.walks == p.walks)
        };
        match &self.reading {
            Some(r) if fits(r) => {
                self.reads.insert(r.span);
            }
            _ => {
                let d = Diag::new(
                    "check::secret_pick",
                    format!("`{n}` is a pick made in secret, read where it could be shown before its reveal"),
                )
                .label(span, "read here")
                .help(format!(
                    "a secret pick named with `as` may be read only in the `where` or `unless` of a later secret `choose {} by ... from` by the same chooser, kept the same way; read it after the reveal from a field the pick's block sets",
                    p.decision
                ));
                self.err(d);
            }
        }
    }

    /// A secret choice that reads an earlier pick cannot roll dice to work out what it offers:
    /// how many candidates pass would tell the rolls apart, and everyone's dice after would
    /// depend on the secret.
    fn reader_dice(&mut self, c: &ChooseFrom) {
        let declines = c.decline.iter().flat_map(|d| d.refusals.iter());
        let conds = c
            .filter
            .iter()
            .chain(c.refusals.iter().chain(declines).map(|r| &r.cond));
        let rolls: Vec<Span> = conds.filter_map(|e| self.decls.rolls(e)).collect();
        let sorts = c
            .order
            .as_ref()
            .and_then(|o| self.decls.order_rolls.get(&o.node).map(|_| o.span));
        for span in rolls.into_iter().chain(sorts) {
            self.err(
                Diag::new(
                    "check::rolled",
                    "a secret choice that reads an earlier secret pick cannot roll dice to work out what it offers",
                )
                .label(span, "rolls here")
                .label(c.name.span, "reads a pick made in secret")
                .help("what it offers depends on the secret pick, so a roll here would tell it; roll in its block, or keep a roll made before in a field"),
            );
        }
    }

    /// `choose ... in secret until revealed` at the head of a secret option's block: it is made
    /// with that pick, and revealed with it.
    pub(super) fn held_with_pick(&mut self, name: &Ident) {
        self.err(
            Diag::new(
                "check::secret_nested",
                format!("`{}` is made with a secret pick, so it is revealed with it, not held", name.node),
            )
            .label(name.span, "held until revealed here")
            .help("drop `until revealed` here: hold the outer choice, or write this one after another statement of the block"),
        );
    }

    /// `reveal [all] DECISION of WHO`: a character or a role; the decision is checked once every
    /// choice is known (`reveals_held`).
    pub(super) fn reveal(&mut self, decision: &Ident, chooser: &Expr) {
        self.chooser(chooser);
        self.reveal_site(decision);
        self.reveals.push(decision.clone());
    }

    /// Every `reveal` names a decision that some choice holds (`in secret until revealed`).
    pub(super) fn reveals_held(&mut self) {
        let reveals = std::mem::take(&mut self.reveals);
        for d in &reveals {
            if !self.decls.decision_names.contains_key(&d.node) {
                let e = unknown("decision", &d.node, d.span, self.decls.decision_names.keys());
                self.err(e.help("`reveal` names a decision made `in secret until revealed`"));
            } else if !self.held_names.contains(&d.node) {
                self.err(
                    Diag::new(
                        "check::reveal_unheld",
                        format!("`{}` is never held until revealed, so there is nothing to reveal", d.node),
                    )
                    .label(d.span, "revealed here")
                    .help(format!(
                        "hold the choice: `choose {} by WHO in secret until revealed ...`; a secret choice without `until revealed` is revealed when its `together` walk ends",
                        d.node
                    )),
                );
            }
        }
    }
}
