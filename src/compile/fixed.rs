//! What the compiler fixes once for the run loop (issue 31), so the runtime reads it instead of
//! working it out at every decision, action and turn: each declared policy's preferences as a
//! rank table per decision, each action's cost when it is one constant, whether anything can run
//! around an action, and whether a turn's edges can ever have work. Every table is a shortcut
//! to what the general code finds: the runtime takes it only where it gives the same trace.

use super::ReadyOn;
use super::ir::*;
use crate::check::FieldKind;

/// What is fixed for the whole program (see the module doc). Its default is the table of a
/// program nothing was worked out for: every general path taken (no ranks, no fixed costs, every
/// action's and turn's edges visited).
#[derive(Debug, Clone)]
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

impl Default for Fixed {
    fn default() -> Self {
        Fixed {
            ranks: Vec::new(),
            options: 0,
            costs: Vec::new(),
            edges: Vec::new(),
            turn_edges: true,
        }
    }
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

/// A rank table is made only when it holds at most this many entries ...
const TABLE_BASE: usize = 64;
/// ... plus this many for each preference: the tables grow with the preferences written, not
/// with policies × options (a short preference list is walked as cheaply as a table is read).
const TABLE_PER_PREFERENCE: usize = 16;

/// A decision's preferences as ranks: the first place each option or action is preferred at.
fn rank_table(prefs: &[OptionKey], options: usize, actions: usize) -> Option<Vec<u16>> {
    let size = options.saturating_add(actions);
    if prefs.is_empty()
        || prefs.len() >= u16::MAX as usize
        || size > TABLE_BASE.saturating_add(prefs.len().saturating_mul(TABLE_PER_PREFERENCE))
    {
        return None;
    }
    let mut ranks = vec![u16::MAX; size];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A table as large as every option and action the program has, for a short preference
    /// list, would make the tables grow as policies × options (a small file could ask for
    /// hundreds of MB): none is made, and the preferences are walked as written.
    #[test]
    fn a_rank_table_is_made_only_in_proportion_to_its_preferences() {
        let prefs = [OptionKey::Named(0)];
        assert_eq!(
            rank_table(&prefs, 2, 3),
            Some(vec![0, u16::MAX, u16::MAX, u16::MAX, u16::MAX])
        );
        assert_eq!(rank_table(&prefs, 19_000, 4), None);
        let long: Vec<OptionKey> = (0..2_000).map(OptionKey::Named).collect();
        assert!(rank_table(&long, 19_000, 4).is_some_and(|t| t.len() == 19_004 && t[1_999] == 1_999));
    }

    /// A program whose table was never worked out takes every general path: its turns' edges
    /// are visited, not skipped.
    #[test]
    fn the_default_table_visits_every_turn_edge() {
        let f = Fixed::default();
        assert!(f.turn_edges);
        assert!(f.ranks.is_empty() && f.costs.is_empty() && f.edges.is_empty());
    }
}
