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
        let (mut groups, mut next, mut runs) = (self.spans.take(), self.spans.take(), self.spans.take());
        let (mut work, mut keyed) = (self.groups.take(), self.keyed.take());
        groups.push((0usize, ids.len()));
        for (k, key) in order.keys.iter().enumerate() {
            next.clear();
            // Each tied group carries how many times it has been rolled: the limit is per group
            // (a runaway tie), not per sort, so many distinct ties in a large cast are no error.
            work.clear();
            work.extend(groups.iter().rev().map(|&(s, e)| (s, e, 0)));
            // `until settled at most N`: read once per key.
            let most = match &key.at_most {
                Some(n) => {
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
                    Some(n.min(MAX_TIE_ROLLS as i64) as u32)
                }
                None => None,
            };
            while let Some((s, e, rolls)) = work.pop() {
                if e - s <= 1 {
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
                    next.extend((s..e).map(|i| (i, i + 1)));
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
                    self.locals[order.var as usize] = id as i64;
                    let v = self.eval(
                        &key.value,
                        Ctx {
                            label: order.label,
                            actor: Some(id),
                        },
                    )?;
                    match memo.as_deref_mut() {
                        Some(m) if key.roll => m.keep_roll(k, id, round, v),
                        Some(m) => m.value(id, v),
                        None => {}
                    }
                    keyed.push((v, id));
                }
                if key.descending {
                    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
                } else {
                    keyed.sort_by_key(|k| k.0);
                }
                runs.clear();
                let mut start = s;
                for (i, (_, id)) in keyed.iter().enumerate() {
                    ids[s + i] = *id;
                    if i > 0 && keyed[i].0 != keyed[i - 1].0 {
                        runs.push((start, s + i));
                        start = s + i;
                    }
                }
                runs.push((start, e));
                for &(rs, re) in runs.iter().rev() {
                    if key.roll && key.until_settled && re - rs > 1 {
                        work.push((rs, re, rolls));
                    } else {
                        next.push((rs, re));
                    }
                }
            }
            next.sort_unstable();
            std::mem::swap(&mut groups, &mut next);
            // The last value key before a tie-breaker: the runs tied on all of them.
            if let (Some(t), true) = (tied.as_deref_mut(), k + 1 == lead) {
                t.clear();
                t.extend_from_slice(&groups);
            }
        }
        self.spans.put(groups);
        self.spans.put(next);
        self.spans.put(runs);
        self.groups.put(work);
        self.keyed.put(keyed);
        Ok(())
    }
}
