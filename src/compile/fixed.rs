//! What the compiler fixes once for the run loop (issue 31), so the runtime reads it instead of
//! working it out at every decision, action and turn: each declared policy's preferences as a
//! rank table per decision, each action's cost when it is one constant, whether anything can run
//! around an action, and whether a turn's edges can ever have work. Every table is a shortcut
//! to what the general code finds: the runtime takes it only where it gives the same trace.

use super::ReadyOn;
use super::ir::*;
use crate::check::FieldKind;

/// What is fixed for the whole program (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Fixed {
    /// For each declared policy, for each decision: the rank of each option and action it
    /// prefers (named options by id, then actions after `options`; `u16::MAX`: not preferred),
    /// so its pick is the offered option of the lowest rank. `None` where a preference names a character, or the
    /// decision has none (the preferences are then walked, as written).
    pub ranks: Vec<Vec<Option<Vec<u16>>>>,
    /// How many named options the program has: actions rank after them.
    pub options: usize,
    /// For each action: its cost when it has no `when` and one cost that is a number (or a param
    /// that is one), which reads nothing: the resource and the amount.
    pub costs: Vec<Option<(FieldId, i64)>>,
    /// For each action: whether anything can run around it (`on before` or `on after` hooks of
    /// it, or a `ready` response on an action's moment anywhere in the program).
    pub edges: Vec<bool>,
    /// Whether a turn's edges can ever have work: hooks before, at the start or end of, or after
    /// a turn; `per turn` or `per any turn` flags; effects (their count-downs and hooks); readied
    /// responses (their expiry). Attempts at the moments around a turn are the run's to know.
    pub turn_edges: bool,
}

impl Fixed {
    /// Worked out once the whole program is lowered.
    pub fn new(p: &Program) -> Fixed {
        let options = p.options.len();
        let ranks = p
            .policies
            .iter()
            .map(|pol| {
                pol.prefs
                    .iter()
                    .map(|prefs| rank_table(prefs, options, p.actions.len()))
                    .collect()
            })
            .collect();
        let costs = p.actions.iter().map(|a| fixed_cost(p, a)).collect();
        let readied_actions = p.moments.readies.iter().any(|r| matches!(r.on, ReadyOn::Action(_, _)));
        let hooked = |table: &Vec<Vec<HookId>>, a: usize| table.get(a).is_some_and(|h| !h.is_empty());
        let edges = (0..p.actions.len())
            .map(|a| readied_actions || hooked(&p.moments.before, a) || hooked(&p.moments.after, a))
            .collect();
        let turn_edges = !(p.moments.turn_before.is_empty()
            && p.turn_start.is_empty()
            && p.turn_end.is_empty()
            && p.turn_after.is_empty()
            && p.turn_clears.is_empty()
            && p.any_turn_clears.is_empty()
            && p.moments.readies.is_empty()
            && p.fields.iter().all(|f| f.kind != FieldKind::Effect));
        Fixed {
            ranks,
            options,
            costs,
            edges,
            turn_edges,
        }
    }
}

/// A decision's preferences as ranks: the first place each option or action is preferred at.
fn rank_table(prefs: &[OptionKey], options: usize, actions: usize) -> Option<Vec<u16>> {
    if prefs.is_empty() || prefs.len() >= u16::MAX as usize {
        return None;
    }
    let mut ranks = vec![u16::MAX; options + actions];
    for (rank, key) in prefs.iter().enumerate() {
        let at = match *key {
            OptionKey::Named(n) => n as usize,
            OptionKey::Action(a) => options + a as usize,
            OptionKey::Character(_) => return None,
        };
        let slot = ranks.get_mut(at)?;
        if *slot == u16::MAX {
            *slot = rank as u16;
        }
    }
    Some(ranks)
}

/// An action's cost, when it is fixed: no `when`, one cost, a number or a param that is one.
fn fixed_cost(p: &Program, a: &ActionDef) -> Option<(FieldId, i64)> {
    let [(amount, f)] = &a.costs[..] else {
        return None;
    };
    if a.when.is_some() {
        return None;
    }
    let cost = match amount {
        Ex::Int(v) => *v,
        Ex::Param(i) => match p.params.get(*i as usize) {
            Some((_, Ex::Int(v))) => *v,
            _ => return None,
        },
        _ => return None,
    };
    Some((*f, cost))
}
