//! Checking the moments before and after (`on before turn(c)`, `on before|after ACTION(c)`),
//! effects' hooks (`on start|end of EFFECT(c)`) and readied responses (`ready`).

use super::checker::Checker;
use super::suggest::unknown;
use super::{CHAR, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::source::Span;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// The names a hook's point holds beyond a level or trigger: an action or kinds of action,
    /// an effect.
    pub(super) fn hook_point(&mut self, on: &HookOn) {
        match on {
            HookOn::ActionBefore(sel) | HookOn::ActionAfter(sel) => self.action_sel(sel),
            HookOn::EffectStart(e) | HookOn::EffectEnd(e) => self.effect_point(e),
            _ => {}
        }
    }

    /// `on before NAME(c)` names a declared action; `action of kind K(c)` declared kinds.
    fn action_sel(&mut self, sel: &ActionSel) {
        match sel {
            ActionSel::Any => {}
            ActionSel::Named(a) => {
                if !matches!(self.decls.lookup(&a.node), Some(Sym::Action(_))) {
                    let d = unknown("action", &a.node, a.span, self.decls.actions.iter());
                    self.err(d.help(
                        "`on before NAME(c)` names a declared action; `on before action(c)` answers every action, \
                         `on before action of kind K(c)` those of a kind",
                    ));
                }
            }
            ActionSel::Kinds(kinds) => {
                for k in kinds {
                    if self.decls.kind(&k.node).is_none() {
                        let d = unknown("kind of action", &k.node, k.span, self.decls.kinds.iter());
                        self.err(
                            d.help("give actions a kind with `action NAME(c) kind K ...`, or declare it with `kind K`"),
                        );
                    }
                }
            }
        }
    }

    /// `on start|end of NAME(c)`: NAME is a declared effect; a level binds no variable.
    fn effect_point(&mut self, e: &Ident) {
        if matches!(self.decls.field(&e.node), Some((_, FieldKind::Effect))) {
            return;
        }
        if self.decls.level_names.contains_key(&e.node) {
            self.err(
                Diag::new(
                    "check::wrong_kind",
                    format!("`{}` is a level, not an effect: its hooks bind no variable", e.node),
                )
                .label(e.span, "a level")
                .help(format!(
                    "write `on start of {0}` or `on end of {0}`; `on end of NAME(c)` is for an effect NAME",
                    e.node
                )),
            );
            return;
        }
        let d = self.unknown_effect(e);
        self.err(d.help(format!(
            "`on end of {0}(c)` answers an effect declared with `effect {0}`; a level's hook is `on end of LEVEL`",
            e.node
        )));
    }

    /// A hook `on start|end of NAME` where NAME is no level: said so, and if NAME is an effect,
    /// how to write its hook.
    pub(super) fn not_a_level(&mut self, l: &Ident) {
        let d = unknown("level", &l.node, l.span, self.decls.level_names.keys());
        if matches!(self.decls.field(&l.node), Some((_, FieldKind::Effect))) {
            self.err(d.help(format!(
                "`{0}` is an effect: its hook binds the character it is on, `on end of {0}(c)`",
                l.node
            )));
        } else {
            self.err(
                d.help("a hook `on end of LEVEL` or a measure `at end of LEVEL` names a level of `setup` or `play`"),
            );
        }
    }

    /// `disarm OWNER [on POINT]`: the owner a character; the point a declared trigger, `join`,
    /// `leave` or an action's moment.
    pub(super) fn disarm(&mut self, owner: &Expr, on: Option<&HookOn>, span: Span) {
        self.expect(owner, CHAR, "the owner of readied responses");
        match on {
            Some(HookOn::Trigger(t)) if !matches!(self.decls.lookup(&t.node), Some(Sym::Trigger(_))) => {
                let names: Vec<&String> = self.decls.triggers.iter().map(|t| &t.0).collect();
                let d = unknown("trigger", &t.node, t.span, names.into_iter());
                self.err(d.help(
                    "`disarm c on NAME` names a declared trigger, `join`, `leave`, or an action's moment: \
                     `before NAME`, `after action of kind K`",
                ));
            }
            Some(HookOn::ActionBefore(sel) | HookOn::ActionAfter(sel)) => self.action_sel(sel),
            Some(HookOn::Trigger(_) | HookOn::Join | HookOn::Leave) | None => {}
            Some(_) => {
                // The parser builds no other point for `disarm`.
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        "responses are disarmed on a trigger or an action's moment",
                    )
                    .label(span, "here")
                    .help("write `disarm c on NAME` or `disarm c on before ACTION`"),
                );
            }
        }
    }

    /// `ready OWNER on POINT [where C] [until EDGE] { ... }`: the owner a character, the point a
    /// trigger (with one variable per argument), `join`/`leave` or an action's moment; the
    /// expiry an edge; the condition and block checked like a hook's, with the locals in scope
    /// (captured when it is armed) and the point's variables.
    pub(super) fn ready(&mut self, r: &Ready) {
        self.expect(&r.owner, CHAR, "the owner of a readied response");
        let types: Vec<Ty> = match &r.on {
            HookOn::Trigger(t) => match self.decls.lookup(&t.node) {
                Some(Sym::Trigger(i)) => {
                    let want = self.decls.triggers[i as usize].1.clone();
                    if want.len() != r.vars.len() {
                        self.err(
                            Diag::new(
                                "check::arity",
                                format!(
                                    "the trigger `{}` has {} argument(s), not {}",
                                    t.node,
                                    want.len(),
                                    r.vars.len()
                                ),
                            )
                            .label(t.span, "bound here")
                            .help("bind one variable per argument the trigger declares"),
                        );
                    }
                    want
                }
                _ => {
                    let names: Vec<&String> = self.decls.triggers.iter().map(|t| &t.0).collect();
                    let d = unknown("trigger", &t.node, t.span, names.into_iter());
                    self.err(d.help(
                        "a response is readied on a declared trigger (`trigger NAME(c)`), `join(c)`, `leave(c)`, \
                         or an action's moment: `before NAME(c)`, `after action(c)`",
                    ));
                    Vec::new()
                }
            },
            HookOn::Join | HookOn::Leave => {
                if r.vars.len() != 1 {
                    self.err(
                        Diag::new(
                            "check::arity",
                            format!("`join` and `leave` bind one character, not {}", r.vars.len()),
                        )
                        .label(r.span, "this response")
                        .help("write `ready c on leave(x) { ... }`"),
                    );
                }
                vec![CHAR]
            }
            on => {
                self.hook_point(on);
                vec![CHAR]
            }
        };
        let names: Vec<&Ident> = r.vars.iter().collect();
        self.distinct("response", &names);
        match &r.until {
            None => {}
            Some(CountAt::TurnStart(who) | CountAt::TurnEnd(who)) => {
                self.entity(who, "the entity whose turn ends a readied response");
            }
            Some(CountAt::LevelStart(l) | CountAt::LevelEnd(l)) if !self.decls.level_names.contains_key(&l.node) => {
                let d = unknown("level", &l.node, l.span, self.decls.level_names.keys());
                self.err(d.help("a response lasts until the start or end of a level of `play`, or of a turn"));
            }
            Some(CountAt::LevelStart(_) | CountAt::LevelEnd(_)) => {}
            Some(CountAt::Place(_, o)) => {
                // The grammar offers no place here; said, should an AST be built by hand.
                self.err(
                    Diag::new(
                        "check::wrong_kind",
                        "a readied response cannot last until a place in an order",
                    )
                    .label(o.span, "here")
                    .help("write `until start of turn(c)` or `until end of LEVEL`"),
                );
            }
        }
        let vars: Vec<(Ident, Ty)> = r
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| (v.clone(), types.get(i).copied().unwrap_or(CHAR)))
            .collect();
        let before = self.diags.len();
        self.detached(&vars, r.filter.as_ref(), &r.body);
        // The block runs later, where its point happens: inside no level or loop written around it.
        for d in self.diags[before..]
            .iter_mut()
            .filter(|d| d.code == "check::end_outside")
        {
            d.help = Some(
                "a readied response runs later, when its point happens, inside no level or loop: it cannot end one; \
                 mark a flag in it and `end` the level where the flag is tested (`end encounter` may be written here)"
                    .into(),
            );
        }
    }
}
