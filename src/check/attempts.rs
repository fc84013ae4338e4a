//! `attempt NAME [(c)] [at MOMENT, ...] [when C] { ... }`: its name, its moments (levels and
//! decisions that exist, whose turn it is bound alike by every moment), its `when` and its body.

use super::checker::Checker;
use super::suggest::unknown;
use super::{CHAR, CHARACTER, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    pub(super) fn attempt(&mut self, a: &AttemptDecl) {
        let name = &a.name;
        if self.decls.entity(&name.node).is_some() {
            self.err(
                Diag::new(
                    "check::duplicate",
                    format!("`{}` is an entity's name, not an attempt", name.node),
                )
                .label(name.span, "declared here")
                .help("name the attempt itself (`attempt interrupt(c) { ... }`); `c` is who attempts it"),
            );
        }
        if let Some(Sym::Action(_)) = self.decls.lookup(&name.node) {
            self.err(
                Diag::new("check::duplicate", format!("`{}` is an action, not an attempt", name.node))
                    .label(name.span, "declared here")
                    .help("an action is taken through a decision's `option action`; give the attempt a name of its own, and `do` what it shares with the action from a routine"),
            );
        }
        let mut turn_var: Option<&Ident> = None;
        for m in &a.at {
            match &m.node {
                Moment::LevelStart(l) | Moment::LevelEnd(l) if !self.decls.level_names.contains_key(&l.node) => {
                    let d = unknown("level", &l.node, l.span, self.decls.level_names.keys());
                    self.err(d.help("`start of LEVEL` and `end of LEVEL` name a level of `setup` or `play`"));
                }
                Moment::Decision(d, _) if !self.decls.decision_names.contains_key(&d.node) => {
                    let e = unknown("decision", &d.node, d.span, self.decls.decision_names.keys());
                    self.err(e.help(
                        "a moment is `before turn`, `after turn`, `start of LEVEL`, `end of LEVEL`, or the name of a decision (while it is asked)",
                    ));
                }
                Moment::BeforeTurn(Some(x)) | Moment::AfterTurn(Some(x)) | Moment::Decision(_, Some(x)) => {
                    match turn_var {
                        Some(t) if t.node != x.node => self.err(
                            Diag::new(
                                "check::attempt_moment",
                                format!(
                                    "whose turn it is (or who decides) is `{}` at one moment and `{}` at another",
                                    t.node, x.node
                                ),
                            )
                            .label(x.span, "bound again here")
                            .label(t.span, "first bound here")
                            .help("bind whose turn it is, or who decides, by one name at every moment of the attempt"),
                        ),
                        _ => turn_var = Some(x),
                    }
                }
                _ => {}
            }
        }
        // Whose turn it is is bound only before and after a turn, and who decides only at a
        // decision: at any other moment (or one that does not bind it) it would name no one.
        if let Some(t) = turn_var {
            let other = a.at.iter().find(|m| {
                !matches!(
                    m.node,
                    Moment::BeforeTurn(Some(_)) | Moment::AfterTurn(Some(_)) | Moment::Decision(_, Some(_))
                )
            });
            if let Some(m) = other {
                self.err(
                    Diag::new(
                        "check::attempt_moment",
                        format!("`{}` names whose turn it is or who decides, and this moment binds no one", t.node),
                    )
                    .label(m.span, "binds no one here")
                    .label(t.span, "bound here")
                    .help(format!(
                        "write `before turn({0})`, `after turn({0})` or `DECISION({0})` at every moment, or declare another attempt for this moment",
                        t.node
                    )),
                );
            }
        }
        let mut vars: Vec<(Ident, Ty)> = Vec::new();
        if let Some(w) = &a.who {
            vars.push((w.clone(), CHAR));
        }
        if let Some(t) = turn_var {
            if a.who.as_ref().is_some_and(|w| w.node == t.node) {
                self.err(
                    Diag::new("check::duplicate", format!("`{}` is bound twice", t.node))
                        .label(t.span, "whose turn it is")
                        .help("who attempts and whose turn it is need names of their own"),
                );
            }
            vars.push((t.clone(), Ty::Entity(CHARACTER)));
        }
        if let Some(w) = &a.when
            && let Some(span) = self.decls.rolls(w)
        {
            self.err(
                Diag::new("check::rolled", "an attempt's `when` cannot roll dice")
                    .label(span, "rolls here")
                    .help("it is worked out only when the attempt is made, so its dice would depend on the answers; test a field or a global that holds the roll"),
            );
        }
        if let Some(w) = &a.when {
            let depth = self.scopes.len();
            for (v, t) in &vars {
                self.scopes.push((v.node.clone(), *t));
            }
            self.expect(w, Ty::Bool, "an attempt's `when`");
            self.scopes.truncate(depth);
        }
        self.detached(&vars, None, &a.body);
    }
}
