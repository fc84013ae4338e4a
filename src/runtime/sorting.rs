//! Sorting by an order's keys (`sort_with`): each key splits the groups the earlier keys left
//! tied, roll-offs roll again among the still tied, `chosen by` asks who goes first, `when` tests
//! the tied group (`tied`).

use super::moments::{SKIPPED, TieMemo};
use super::state::{Ctx, Machine, NO_CTX, R};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::MAX_TIE_ROLLS;
use crate::source::Span;

impl Machine<'_> {
    /// Whether `cond` holds with `tied` naming `group`. (Saved and restored around it: the
    /// condition may itself sort.)
    fn holds_of_group(&mut self, cond: &Ex, group: &[EntityId]) -> R<bool> {
        let mut tied = self.ids.take();
        tied.extend_from_slice(group);
        let outer = std::mem::replace(&mut self.tied, tied);
        let holds = self.eval(cond, NO_CTX).map(|v| v != 0);
        let tied = std::mem::replace(&mut self.tied, outer);
        self.ids.put(tied);
        holds
    }

    /// `chosen by WHO`: WHO (read with `tied` naming the group) picks who goes first among the
    /// group, then who goes next among the rest, until one is left: a decision each, named after
    /// the order, its options the members left in their current order.
    fn chosen_order(
        &mut self,
        (who, prefs): (&ChooserEx, &[PolicyPrefs]),
        decision: DecisionId,
        group: &mut [EntityId],
        span: Span,
    ) -> R<()> {
        let mut tied = self.ids.take();
        tied.extend_from_slice(group);
        let outer = std::mem::replace(&mut self.tied, tied);
        let who = self.who(who, span);
        let tied = std::mem::replace(&mut self.tied, outer);
        self.ids.put(tied);
        let who = who?;
        for place in 0..group.len().saturating_sub(1) {
            let mut keys = self.keys.take();
            keys.extend(group[place..].iter().map(|e| OptionKey::Character(*e)));
            // An attempt made here is not carried out: the tie is broken at once.
            let picked = self.suggest(who, prefs, &keys).and_then(|suggested| {
                self.ask_until_accepted(decision, who, (&keys, &[], suggested), (false, span), |_, _| {
                    Ok((Vec::new(), Diag::new("run::refused", "refused")))
                })
            });
            self.keys.put(keys);
            let (picked, _) = picked?;
            // The pick goes to this place; the others keep their order after it.
            group[place..=place + picked].rotate_right(1);
        }
        Ok(())
    }

    /// `chosen by WHO` in a walk that keeps answers: the members whose place is kept (the same
    /// value keys before this key as when they were placed) keep their order among themselves;
    /// WHO places each of the others, picking who goes next among them and the first of the
    /// kept ones still to place (a pick with one candidate is no decision). Everyone in the group
    /// is then kept in its new order.
    fn chosen_kept(
        &mut self,
        (who, prefs): (&ChooserEx, &[PolicyPrefs]),
        (decision, key, memo): (DecisionId, usize, &mut TieMemo),
        group: &mut [EntityId],
        span: Span,
    ) -> R<()> {
        let mut kept: Vec<(i64, EntityId)> = group
            .iter()
            .filter_map(|e| memo.place(key, *e).map(|p| (p, *e)))
            .collect();
        kept.sort_by_key(|k| k.0);
        if kept.len() < group.len() {
            let mut tied = self.ids.take();
            tied.extend_from_slice(group);
            let outer = std::mem::replace(&mut self.tied, tied);
            let who = self.who(who, span);
            let tied = std::mem::replace(&mut self.tied, outer);
            self.ids.put(tied);
            let who = who?;
            let mut next_kept = 0;
            for place in 0..group.len() {
                // The candidates: the members not placed whose place is not kept, and the first
                // kept one still to place, in their current order.
                let first_kept = kept.get(next_kept).map(|k| k.1);
                let mut keys = self.keys.take();
                keys.extend(
                    group[place..]
                        .iter()
                        .filter(|e| Some(**e) == first_kept || kept.iter().all(|k| k.1 != **e))
                        .map(|e| OptionKey::Character(*e)),
                );
                let picked = match keys.len() {
                    0 | 1 => Ok(0),
                    _ => self.suggest(who, prefs, &keys).and_then(|suggested| {
                        // An attempt made here is not carried out: the tie is broken at once.
                        self.ask_until_accepted(decision, who, (&keys, &[], suggested), (false, span), |_, _| {
                            Ok((Vec::new(), Diag::new("run::refused", "refused")))
                        })
                        .map(|(i, _)| i)
                    }),
                };
                let chosen = keys.get(picked.as_ref().copied().unwrap_or(0)).copied();
                self.keys.put(keys);
                picked?;
                let Some(OptionKey::Character(c)) = chosen else { break };
                if Some(c) == first_kept {
                    next_kept += 1;
                }
                if let Some(at) = group[place..].iter().position(|e| *e == c) {
                    group[place..=place + at].rotate_right(1);
                }
            }
        } else {
            for (slot, (_, e)) in group.iter_mut().zip(&kept) {
                *slot = *e;
            }
        }
        for e in group.iter() {
            memo.keep_place(key, *e);
        }
        Ok(())
    }

    /// Sorts by an order's keys; each key splits the groups the earlier keys left tied.
    pub(super) fn sort(&mut self, o: OrderId, ids: &mut [EntityId]) -> R<()> {
        self.sort_with(o, ids, None, None)
    }

    /// Sorts by an order's keys, keeping tie-breakers in `memo` (a walk that sorts again), and
    /// gives in `tied` the runs of members tied on the value keys before the order's first
    /// roll-off or `chosen by` key (`ties together`; each member alone when it has none).
    ///
    /// Each key keys the members of the groups the earlier keys left tied (a group of one is
    /// never keyed), once each, into a flat list reused from sort to sort, and sorts each group
    /// once; only the groups of two or more are kept from key to key, in the order of their
    /// places, and a roll-off rolls again among the members still tied at once (depth first,
    /// left to right), so the dice and the steps are those the language describes.
    pub(super) fn sort_with(
        &mut self,
        o: OrderId,
        ids: &mut [EntityId],
        mut memo: Option<&mut TieMemo>,
        mut tied: Option<&mut Vec<(usize, usize)>>,
    ) -> R<()> {
        let p = self.p;
        let order = &p.orders[o as usize];
        // The value keys before the first tie-breaker: those that tie members for a moment.
        let lead = order
            .keys
            .iter()
            .position(|k| k.roll || k.chosen.is_some())
            .unwrap_or(order.keys.len());
        if let Some(m) = memo.as_deref_mut() {
            m.begin(ids);
        }
        if let (Some(t), 0) = (tied.as_deref_mut(), lead) {
            t.clear();
            t.extend((0..ids.len()).map(|i| (i, i + 1)));
        }
        // The groups still tied (two or more members each), in the order of their places.
        let (mut groups, mut next) = (self.spans.take(), self.spans.take());
        let (mut work, mut keyed) = (self.groups.take(), self.keyed.take());
        if ids.len() > 1 {
            groups.push((0usize, ids.len()));
        }
        let sorted = self.sort_keys(
            o,
            ids,
            memo,
            (&mut groups, &mut next),
            (&mut work, &mut keyed),
            (lead, tied),
        );
        self.spans.put(groups);
        self.spans.put(next);
        self.groups.put(work);
        self.keyed.put(keyed);
        sorted
    }

    /// The keys of `sort_with`, one after another, over the tied `groups` (the rest is scratch).
    fn sort_keys(
        &mut self,
        o: OrderId,
        ids: &mut [EntityId],
        mut memo: Option<&mut TieMemo>,
        (groups, next): (&mut Runs, &mut Runs),
        (work, keyed): (&mut Work, &mut Keyed),
        (lead, mut tied): (usize, Option<&mut Vec<(usize, usize)>>),
    ) -> R<()> {
        let p = self.p;
        let order = &p.orders[o as usize];
        for (k, key) in order.keys.iter().enumerate() {
            next.clear();
            match (key.roll, &key.chosen, &key.when, memo.is_some()) {
                // A plain value key (the usual case): each group keyed and sorted once.
                (false, None, None, false) => {
                    self.at_most(key)?;
                    for &(s, e) in groups.iter() {
                        self.sort_group(order, key, &mut ids[s..e], keyed, s, next)?;
                    }
                }
                _ => self.tie_break(
                    o,
                    k,
                    ids,
                    memo.as_deref_mut(),
                    (&*groups, &mut *next),
                    (&mut *work, &mut *keyed),
                )?,
            }
            std::mem::swap(groups, next);
            // The last value key before a tie-breaker: the runs tied on all of them, the members
            // alone between them each a run of one.
            if let (Some(t), true) = (tied.as_deref_mut(), k + 1 == lead) {
                t.clear();
                let mut at = 0;
                for &(s, e) in groups.iter() {
                    t.extend((at..s).map(|i| (i, i + 1)));
                    t.push((s, e));
                    at = e;
                }
                t.extend((at..ids.len()).map(|i| (i, i + 1)));
                if ids.is_empty() {
                    t.push((0, 0));
                }
            }
        }
        Ok(())
    }

    /// `until settled at most N`: read once per key (whether or not any group is tied).
    fn at_most(&mut self, key: &KeyDef) -> R<Option<u32>> {
        let Some(n) = &key.at_most else {
            return Ok(None);
        };
        let n = self.eval(n, NO_CTX)?;
        if n < 1 {
            return Err(Box::new(
                Diag::new(
                    "run::at_most",
                    format!("`until settled at most {n}` would never roll: the key would be skipped"),
                )
                .label(key.span, "this key")
                .help("`at most N` counts every roll of a tied group, the first included: N must be at least 1"),
            ));
        }
        Ok(Some(n.min(MAX_TIE_ROLLS as i64) as u32))
    }

    /// One member's value of a value key. A field of the member itself (`c.speed`) is read straight
    /// from the state, as `eval` would read it; any other expression is evaluated.
    fn key_value(&mut self, order: &OrderDef, key: &KeyDef, id: EntityId) -> R<i64> {
        self.locals[order.var as usize] = id as i64;
        if let Ex::Field(base, f, span) = &key.value
            && let Ex::Local(s) = **base
        {
            let v = self.locals[s as usize];
            let owner = if v == TABLE as i64 {
                TABLE
            } else {
                self.owner_id(v, *span)?
            };
            return self.read(owner, *f, *span);
        }
        self.eval(
            &key.value,
            Ctx {
                label: order.label,
                actor: Some(id),
            },
        )
    }

    /// A plain value key over one tied group (`group`, at place `s`): every member keyed (a step
    /// each), the group sorted stably by the value, and the runs still tied pushed to `next`.
    fn sort_group(
        &mut self,
        order: &OrderDef,
        key: &KeyDef,
        group: &mut [EntityId],
        keyed: &mut Keyed,
        s: usize,
        next: &mut Runs,
    ) -> R<()> {
        // Every member keyed is a step.
        self.charge(group.len() as u64, key.span)?;
        keyed.clear();
        keyed.reserve(group.len());
        match &key.value {
            // The member's own field (`c.speed`), the usual key: read as `key_value` reads it, with
            // the expression looked at once for the group.
            Ex::Field(base, f, span) if matches!(**base, Ex::Local(s) if s == order.var) => {
                for &id in group.iter() {
                    self.locals[order.var as usize] = id as i64;
                    let owner = if id == TABLE {
                        TABLE
                    } else {
                        self.owner_id(id as i64, *span)?
                    };
                    keyed.push((self.read(owner, *f, *span)?, id));
                }
            }
            _ => {
                for &id in group.iter() {
                    let v = self.key_value(order, key, id)?;
                    keyed.push((v, id));
                }
            }
        }
        settle_runs(key.descending, keyed, group);
        let mut start = 0;
        for i in 1..=keyed.len() {
            if i == keyed.len() || keyed[i].0 != keyed[i - 1].0 {
                if i - start > 1 {
                    next.push((s + start, s + i));
                }
                start = i;
            }
        }
        Ok(())
    }

    /// A key that breaks ties (`roll`, `chosen by`), sorts only when a condition holds (`when`),
    /// or keeps what it gave (`memo`), over the tied `groups`: the groups still tied after it go to
    /// `next`, in the order of their places.
    fn tie_break(
        &mut self,
        o: OrderId,
        k: usize,
        ids: &mut [EntityId],
        mut memo: Option<&mut TieMemo>,
        (groups, next): (&Runs, &mut Runs),
        (work, keyed): (&mut Work, &mut Keyed),
    ) -> R<()> {
        let p = self.p;
        let order = &p.orders[o as usize];
        let key = &order.keys[k];
        // Each tied group carries how many times it has been rolled: the limit is per group
        // (a runaway tie), not per sort, so many distinct ties in a large cast are no error. A
        // group that needs no more rolling waits on the stack, `SETTLED`, so that the groups
        // reach `next` in the order of their places.
        work.clear();
        work.extend(groups.iter().rev().map(|&(s, e)| (s, e, 0)));
        let most = self.at_most(key)?;
        while let Some((s, e, rolls)) = work.pop() {
            if rolls == SETTLED {
                next.push((s, e));
                continue;
            }
            // `when COND`: this key sorts the group only when COND holds of it.
            if let Some(w) = &key.when
                && !self.holds_of_group(w, &ids[s..e])?
            {
                if let (Some(m), false, None) = (memo.as_deref_mut(), key.roll, &key.chosen) {
                    ids[s..e].iter().for_each(|id| m.value(*id, SKIPPED));
                }
                next.push((s, e));
                continue;
            }
            // `chosen by WHO`: WHO puts the group in order, one pick at a time (asked only
            // about members whose place is not kept, in a walk that keeps them).
            if let Some((who, decision, prefs)) = &key.chosen {
                match memo.as_deref_mut() {
                    Some(m) => self.chosen_kept((who, prefs), (*decision, k, m), &mut ids[s..e], key.span)?,
                    None => self.chosen_order((who, prefs), *decision, &mut ids[s..e], key.span)?,
                }
                continue;
            }
            let rolls = rolls + u32::from(key.roll);
            // A group that has rolled as often as allowed stays tied, for the next key.
            if most.is_some_and(|m| rolls > m) {
                next.push((s, e));
                continue;
            }
            if rolls > MAX_TIE_ROLLS {
                return Err(Box::new(
                    Diag::new(
                        "run::unsettled",
                        format!("a tie was still unsettled after {MAX_TIE_ROLLS} rolls"),
                    )
                    .label(key.span, "rolled again and again here")
                    .help("roll dice with more than one face, or add another key before this one"),
                ));
            }
            keyed.clear();
            // Every member keyed is a step.
            self.charge((e - s) as u64, key.span)?;
            for &id in &ids[s..e] {
                // A roll-off kept while the tie lasts is not rolled again.
                let round = rolls.saturating_sub(1) as usize;
                if let (true, Some(v)) = (key.roll, memo.as_deref().and_then(|m| m.roll(k, id, round))) {
                    keyed.push((v, id));
                    continue;
                }
                let v = self.key_value(order, key, id)?;
                match memo.as_deref_mut() {
                    Some(m) if key.roll => m.keep_roll(k, id, round, v),
                    Some(m) => m.value(id, v),
                    None => {}
                }
                keyed.push((v, id));
            }
            settle_runs(key.descending, keyed, &mut ids[s..e]);
            // The runs, last first: each tied one rolled again at once (`until settled`), or
            // left tied for the next key.
            let again = key.roll && key.until_settled;
            let mut end = keyed.len();
            for i in (0..keyed.len()).rev() {
                if i == 0 || keyed[i].0 != keyed[i - 1].0 {
                    if end - i > 1 {
                        work.push((s + i, s + end, if again { rolls } else { SETTLED }));
                    }
                    end = i;
                }
            }
        }
        Ok(())
    }
}

/// Runs of places in the list sorted, `(start, end)`.
type Runs = Vec<(usize, usize)>;
/// The tied groups `tie_break` has still to look at: `(start, end, rolls so far)`.
type Work = Vec<(usize, usize, u32)>;
/// The members of a group with their value of a key.
type Keyed = Vec<(i64, EntityId)>;

/// On the work stack of `tie_break`: a group no key rolls again (it waits for its turn to be
/// passed on, in place order).
const SETTLED: u32 = u32::MAX;

/// Sorts a group's keyed members stably by value (highest first when `descending`) and writes
/// them back in that order into `group`.
fn settle_runs(descending: bool, keyed: &mut [(i64, EntityId)], group: &mut [EntityId]) {
    if descending {
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    } else {
        keyed.sort_by_key(|k| k.0);
    }
    for (slot, (_, id)) in group.iter_mut().zip(keyed.iter()) {
        *slot = *id;
    }
}
