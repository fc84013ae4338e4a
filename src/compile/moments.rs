//! Lowering the moments before and after (`on before turn(c)`, `on before|after ACTION(c)`),
//! effects' hooks (`on start|end of EFFECT(c)`) and readied responses (`ready`). Their tables
//! live in one part of the program, [`Moments`].

use super::Lower;
use super::ir::*;
use crate::source::Span;
use crate::syntax::ast::{self, ActionSel, CountAt, HookOn};

/// Which actions a moment before or after an action answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionMatch {
    Any,
    One(ActionId),
    /// Actions of any of these kinds.
    Kinds(Vec<KindId>),
}

impl ActionMatch {
    pub fn matches(&self, a: ActionId, kinds: &[KindId]) -> bool {
        match self {
            ActionMatch::Any => true,
            ActionMatch::One(b) => *b == a,
            ActionMatch::Kinds(ks) => ks.iter().any(|k| kinds.contains(k)),
        }
    }
}

/// The point a readied response answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadyOn {
    Trigger(TriggerId),
    Join,
    Leave,
    /// An action's moment: before it resolves (`false`) or after (`true`).
    Action(bool, ActionMatch),
}

/// A point of play as the runtime reaches it, matched against [`ReadyOn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    Trigger(TriggerId),
    Join,
    Leave,
    Before(ActionId),
    After(ActionId),
}

/// `ready OWNER on POINT [where C] [until EDGE] { ... }`, compiled: what the statement arms.
#[derive(Debug, Clone)]
pub struct ReadyDef {
    pub on: ReadyOn,
    /// The point as written, for the trace: `moves`, `before strike`, `after action of kind attack`.
    pub text: String,
    /// The slots bound to the point's arguments.
    pub vars: Vec<Slot>,
    pub filter: Option<Ex>,
    /// Where the condition is written (the REPL shows its text).
    pub filter_span: Option<Span>,
    pub body: Block,
    /// The slots the condition and block bind (the point's variables, their `let`s): saved and
    /// restored around a firing.
    pub frame: (Slot, Slot),
    /// The locals in scope where the statement is written, captured by value when it arms.
    pub captured: Vec<Slot>,
}

/// The tables of the moments before and after, effects' hooks and readied responses.
#[derive(Debug, Clone, Default)]
pub struct Moments {
    /// `on before turn(c)`, in declaration order.
    pub turn_before: Vec<HookId>,
    /// `on before ...(c)` / `on after ...(c)` as written, resolved into `before`/`after`.
    pub action_hooks: Vec<(bool, ActionMatch, HookId)>,
    /// Each action's hooks before it resolves and after, in declaration order (by action id).
    pub before: Vec<Vec<HookId>>,
    pub after: Vec<Vec<HookId>>,
    /// `on start of EFFECT(c)` / `on end of EFFECT(c)`: the effect (a field) and the hook.
    pub effect_start: Vec<(FieldId, HookId)>,
    pub effect_end: Vec<(FieldId, HookId)>,
    pub readies: Vec<ReadyDef>,
}

impl Moments {
    /// Whether an effect has a hook at its start or end: its ends are then queued to run them.
    pub fn effect_hooked(&self, effect: FieldId) -> bool {
        self.effect_start
            .iter()
            .chain(&self.effect_end)
            .any(|(f, _)| *f == effect)
    }

    /// Resolves the action hooks into per-action lists, once every action is known.
    pub fn resolve(&mut self, actions: &[ActionDef]) {
        self.before = vec![Vec::new(); actions.len()];
        self.after = vec![Vec::new(); actions.len()];
        for (after, m, id) in &self.action_hooks {
            for (a, def) in actions.iter().enumerate() {
                if m.matches(a as ActionId, &def.kinds) {
                    let list = if *after {
                        &mut self.after[a]
                    } else {
                        &mut self.before[a]
                    };
                    list.push(*id);
                }
            }
        }
    }
}

/// The text of an action selector, as written after `before`/`after`.
fn sel_text(sel: &ActionSel) -> String {
    match sel {
        ActionSel::Any => "action".into(),
        ActionSel::Named(a) => a.node.clone(),
        ActionSel::Kinds(ks) => {
            let ks: Vec<&str> = ks.iter().map(|k| k.node.as_str()).collect();
            format!("action of kind {}", ks.join(", "))
        }
    }
}

impl Lower<'_> {
    fn action_match(&self, sel: &ActionSel) -> ActionMatch {
        match sel {
            ActionSel::Any => ActionMatch::Any,
            ActionSel::Named(a) => {
                ActionMatch::One(self.d.actions.iter().position(|n| *n == a.node).unwrap_or(0) as ActionId)
            }
            ActionSel::Kinds(ks) => ActionMatch::Kinds(
                ks.iter()
                    .filter_map(|k| self.d.kind(&k.node))
                    .map(|k| k as KindId)
                    .collect(),
            ),
        }
    }

    /// Files hook `id` under its moment, for the moments this module adds; `false` for others.
    pub(super) fn moment_hook(&mut self, on: &HookOn, id: HookId) -> bool {
        match on {
            HookOn::TurnBefore => self.p.moments.turn_before.push(id),
            HookOn::ActionBefore(sel) | HookOn::ActionAfter(sel) => {
                let after = matches!(on, HookOn::ActionAfter(_));
                let m = self.action_match(sel);
                self.p.moments.action_hooks.push((after, m, id));
            }
            HookOn::EffectStart(e) => {
                let f = self.field_id(&e.node);
                self.p.moments.effect_start.push((f, id));
            }
            HookOn::EffectEnd(e) => {
                let f = self.field_id(&e.node);
                self.p.moments.effect_end.push((f, id));
            }
            _ => return false,
        }
        true
    }

    /// The point a response is readied on (or disarmed from), and its text for the trace.
    fn ready_on(&self, on: &HookOn) -> (ReadyOn, String) {
        match on {
            HookOn::Trigger(t) => (
                ReadyOn::Trigger(self.d.triggers.iter().position(|x| x.0 == t.node).unwrap_or(0) as TriggerId),
                t.node.clone(),
            ),
            HookOn::Join => (ReadyOn::Join, "join".into()),
            HookOn::Leave => (ReadyOn::Leave, "leave".into()),
            HookOn::ActionAfter(sel) => (
                ReadyOn::Action(true, self.action_match(sel)),
                format!("after {}", sel_text(sel)),
            ),
            // The parser builds no other point for `ready` and `disarm`.
            other => {
                let sel = match other {
                    HookOn::ActionBefore(sel) => sel,
                    _ => &ActionSel::Any,
                };
                (
                    ReadyOn::Action(false, self.action_match(sel)),
                    format!("before {}", sel_text(sel)),
                )
            }
        }
    }

    /// `disarm OWNER [on POINT]`.
    pub(super) fn disarm(&mut self, owner: &ast::Expr, on: Option<&HookOn>, span: Span) -> St {
        St::Disarm {
            owner: self.expr(owner),
            on: on.map(|o| self.ready_on(o).0),
            span,
        }
    }

    /// `ready`: its definition (the block compiled here, with the locals in scope visible), and
    /// the statement that arms it.
    pub(super) fn ready(&mut self, r: &ast::Ready) -> St {
        let ast::Ready {
            owner,
            on,
            vars,
            filter,
            until,
            body,
            span,
        } = r;
        let owner = self.expr(owner);
        let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().unwrap_or(0);
        let until = match until {
            None => None,
            Some(CountAt::TurnStart(who)) => Some(CountEx::TurnStart(self.expr(who))),
            Some(CountAt::TurnEnd(who)) => Some(CountEx::TurnEnd(self.expr(who))),
            Some(CountAt::LevelStart(l)) => Some(CountEx::LevelStart(level(l))),
            Some(CountAt::LevelEnd(l)) => Some(CountEx::LevelEnd(level(l))),
            // Refused by the checker.
            Some(CountAt::Place(_, _)) => None,
        };
        let (on, text) = self.ready_on(on);
        // The innermost binding of each name in scope: what the block may read, by value.
        let mut captured: Vec<Slot> = Vec::new();
        for (i, (name, slot)) in self.scopes.iter().enumerate().rev() {
            if !self.scopes[i + 1..].iter().any(|s| s.0 == *name) {
                captured.push(*slot);
            }
        }
        captured.reverse();
        let lo = self.max_locals as Slot;
        let slots: Vec<Slot> = vars.iter().map(|v| self.bind(&v.node)).collect();
        let filter_ex = filter.as_ref().map(|f| self.expr(f));
        let body = self.block(body);
        self.scopes.truncate(self.scopes.len() - slots.len());
        let id = self.p.moments.readies.len() as ReadyId;
        self.p.moments.readies.push(ReadyDef {
            on,
            text,
            vars: slots,
            filter: filter_ex,
            filter_span: filter.as_ref().map(|f| f.span),
            body,
            frame: (lo, self.max_locals as Slot),
            captured,
        });
        St::Ready {
            ready: id,
            owner,
            until,
            span: *span,
        }
    }
}
