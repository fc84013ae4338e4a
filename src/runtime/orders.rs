//! Orders and walks: sorting by an order's keys, `rank` and `place` on kept orders, gathering the
//! members of a collection that pass a filter, and `for each` walks (of kept orders, place by place).

use super::state::{Ctx, Machine, NO_CTX, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::MAX_TIE_ROLLS;
use crate::source::Span;
use crate::trace::Event;

/// What a `for each` walks and how.
#[derive(Clone, Copy)]
struct Walk {
    /// `together`: one moment for all: traced as a group, no member re-checked, secret choices
    /// revealed at its end.
    together: bool,
    var: Slot,
    coll: Coll,
    backwards: bool,
    /// Where the walk starts, wrapping round.
    from: Option<EntityId>,
    order: Option<OrderId>,
}

impl Machine<'_> {
    /// `for each`: its start (`from X`) is evaluated first, then the walk.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn st_for_each(
        &mut self,
        var: Slot,
        coll: Coll,
        (backwards, together, anew): (bool, bool, bool),
        from: Option<&Ex>,
        filter: Option<&Ex>,
        order: Option<OrderId>,
        body: &[St],
        span: Span,
    ) -> R<Flow> {
        let start = match from {
            Some(x) => Some(self.entity(x, span)?),
            None => None,
        };
        if let (true, Some(o)) = (anew, order) {
            self.loops.push(span);
            let flow = self.walk_anew(var, coll, filter, o, body, span);
            self.loops.pop();
            return flow;
        }
        let walk = Walk {
            together,
            var,
            coll,
            backwards,
            from: start,
            order,
        };
        self.for_each(&walk, filter, body, span)
    }

    /// `rank [where C]`: the order's type's entities in play (for whom C holds), sorted, kept as
    /// the order's ranking.
    pub(super) fn st_rank(&mut self, order: OrderId, filter: Option<&(Slot, Ex)>) -> R<Flow> {
        let ty = self.p.orders[order as usize].ty;
        // Where a budget spent here is reported (inside a level, the loop that runs it).
        let span = self.p.orders[order as usize]
            .keys
            .first()
            .map(|k| k.span)
            .unwrap_or_default();
        let mut ids = self.ids.take();
        match filter {
            None => ids.extend(
                self.members(Coll::All(ty))
                    .iter()
                    .filter(|e| !self.absent[**e as usize]),
            ),
            Some((slot, cond)) => self.gather((*slot, Coll::All(ty)), Some(cond), &mut ids, span)?,
        }
        // Every member looked at is a step (`gather` charges its own).
        if filter.is_none() {
            self.charge(self.members(Coll::All(ty)).len() as u64, span)?;
        }
        self.sort(order, &mut ids)?;
        self.emit(Event::Order { order, ids: &ids });
        let old = std::mem::replace(&mut self.ranked[order as usize], ids);
        self.ids.put(old);
        Ok(Flow::Next)
    }

    /// `place`: moves one entity within a kept order (first, last, or next to another in it).
    pub(super) fn st_place(&mut self, who: &Ex, to: &PlaceAt, order: OrderId, span: Span) -> R<Flow> {
        let e = self.alive(who, span)?;
        let anchor = match to {
            PlaceAt::Before(x) | PlaceAt::After(x) | PlaceAt::Swap(x) => Some(self.alive(x, span)?),
            _ => None,
        };
        if anchor == Some(e) {
            return Ok(Flow::Next); // next to oneself, or with oneself: nowhere to go
        }
        if let (PlaceAt::Swap(_), Some(x)) = (to, anchor) {
            return self.swap(e, x, order, span);
        }
        let list = &mut self.ranked[order as usize];
        list.retain(|x| *x != e);
        let at = match (to, anchor) {
            (PlaceAt::First, _) => Some(0),
            (PlaceAt::Last, _) => Some(list.len()),
            (PlaceAt::Before(_), Some(a)) => list.iter().position(|x| *x == a),
            (PlaceAt::After(_), Some(a)) => list.iter().position(|x| *x == a).map(|i| i + 1),
            _ => None,
        };
        let Some(at) = at else {
            let p = self.p;
            let other = anchor.map_or("?", |a| p.character_name(a));
            return Err(Box::new(
                Diag::new(
                    "run::not_ranked",
                    format!("{other} is not in the order `{}`", p.orders[order as usize].name),
                )
                .label(span, "placed next to them here")
                .help("`rank` the order first, or place next to a character who is in it"),
            ));
        };
        list.insert(at, e);
        let ids = std::mem::take(&mut self.ranked[order as usize]);
        self.emit(Event::Order { order, ids: &ids });
        self.ranked[order as usize] = ids;
        Ok(Flow::Next)
    }

    /// `swap e with x in ORDER`: both must be in the kept order; they trade places.
    fn swap(&mut self, e: EntityId, x: EntityId, order: OrderId, span: Span) -> R<Flow> {
        let list = &mut self.ranked[order as usize];
        let (Some(i), Some(j)) = (list.iter().position(|y| *y == e), list.iter().position(|y| *y == x)) else {
            let p = self.p;
            let missing = if list.contains(&e) { x } else { e };
            return Err(Box::new(
                Diag::new(
                    "run::not_ranked",
                    format!(
                        "{} is not in the order `{}`",
                        p.character_name(missing),
                        p.orders[order as usize].name
                    ),
                )
                .label(span, "swapped here")
                .help("`rank` the order first, or `place` them in it before they trade places"),
            ));
        };
        list.swap(i, j);
        let ids = std::mem::take(&mut self.ranked[order as usize]);
        self.emit(Event::Order { order, ids: &ids });
        self.ranked[order as usize] = ids;
        Ok(Flow::Next)
    }

    fn for_each(&mut self, w: &Walk, filter: Option<&Ex>, body: &[St], span: Span) -> R<Flow> {
        let Walk {
            together,
            var,
            coll,
            backwards,
            from,
            order,
        } = *w;
        let mut ids = self.ids.take();
        self.gather((var, coll), filter, &mut ids, span)?;
        // An empty walk has nothing to order, and traces no `order`.
        if let Some(o) = order
            && !ids.is_empty()
        {
            self.sort(o, &mut ids)?;
            self.emit(Event::Order { order: o, ids: &ids });
        }
        if backwards {
            ids.reverse();
        }
        // `from X`: round the list from X (or from where X would be, had it passed the filter),
        // in the walk's direction.
        if let Some(x) = from {
            // Round from someone the walk has no place for would start at someone else.
            let placed = match order {
                Some(_) => ids.iter().position(|e| *e == x),
                None => self
                    .members(coll)
                    .contains(&x)
                    .then(|| self.first_from(coll, backwards, x, &ids)),
            };
            let Some(k) = placed else {
                self.ids.put(ids);
                return Err(Box::new(self.no_place_to_start(x, coll, order, span)));
            };
            ids.rotate_left(k);
        }
        self.loops.push(span);
        if together {
            let flow = self.together(&ids, var, body, span);
            self.loops.pop();
            self.ids.put(ids);
            return flow;
        }
        let flow = match (coll, order, backwards || from.is_some()) {
            (Coll::Ranked(o), None, false) => {
                let mut snapshot = self.ids.take();
                snapshot.extend_from_slice(&self.ranked[o as usize]);
                let flow = self.walk_places(o, &snapshot, &ids, var, filter, body, span);
                self.ids.put(snapshot);
                flow
            }
            _ => self.walk(&ids, var, filter, body, span),
        };
        self.loops.pop();
        self.ids.put(ids);
        flow
    }

    /// The error of a walk `from X` with no place for X to start from.
    fn no_place_to_start(&self, x: EntityId, coll: Coll, order: Option<OrderId>, span: Span) -> Diag {
        if let Err(gone) = self.not_gone(x, span) {
            return *gone;
        }
        let p = self.p;
        let who = self.world().character_name(x).to_string();
        let (what, help) = match (order, coll) {
            (Some(o), _) => (
                format!("the walk sorted by `{}`", p.orders[o as usize].name),
                "a sorted walk starts from one of its members: start from someone who passed the filter",
            ),
            (None, Coll::Ranked(o)) => (
                format!("the order `{}`", p.orders[o as usize].name),
                "`rank` or `place` them in the order before walking round from them",
            ),
            (None, _) => ("the collection".to_string(), "walk round from one of its members"),
        };
        Diag::new(
            "run::not_ranked",
            format!("{who} has no place in {what}: the walk cannot start from them"),
        )
        .label(span, "walked round from here")
        .help(help)
    }

    /// Where a walk of `coll` round from `x` starts in `ids` (the part of the collection that
    /// passed, in the walk's direction): how many of `ids` come before `x`'s place in the
    /// collection. (All of them when `x` is last; none when `x` is not in the collection.)
    fn first_from(&self, coll: Coll, backwards: bool, x: EntityId, ids: &[EntityId]) -> usize {
        let all = self.members(coll);
        let n = all.len();
        let nth = |i: usize| if backwards { all[n - 1 - i] } else { all[i] };
        let Some(at) = (0..n).position(|i| nth(i) == x) else {
            return 0;
        };
        let mut k = 0;
        for i in 0..at {
            if ids.get(k) == Some(&nth(i)) {
                k += 1;
            }
        }
        k
    }

    /// `together for each`: the members, as gathered, at one moment: traced between
    /// `together_start` and `together_end`; none is re-checked against the filter (what an
    /// earlier member does cannot stop a later one acting); the secret choices made in the walk
    /// are revealed, in the order they were made, once every member has had its moment.
    fn together(&mut self, ids: &[EntityId], var: Slot, body: &[St], span: Span) -> R<Flow> {
        // A walk over nobody is no moment: nothing is traced, as for `for each` over nothing.
        if ids.is_empty() {
            return Ok(Flow::Next);
        }
        self.emit(Event::TogetherStart { actors: ids });
        self.open_secrets();
        let mut flow = Flow::Next;
        for &e in ids {
            self.tick(span)?;
            if self.absent.get(e as usize).copied().unwrap_or(false) {
                continue;
            }
            self.locals[var as usize] = e as i64;
            flow = self.block(body)?;
            if !matches!(flow, Flow::Next) {
                break;
            }
        }
        let flow = self.reveal_secrets(flow)?;
        self.emit(Event::TogetherEnd);
        Ok(flow)
    }

    /// `for each ... by ORDER anew`: before each member's moment, those not yet walked who pass
    /// the filter now (newcomers included) are sorted again (an `order` event), and the first
    /// has its moment.
    fn walk_anew(
        &mut self,
        var: Slot,
        coll: Coll,
        filter: Option<&Ex>,
        order: OrderId,
        body: &[St],
        span: Span,
    ) -> R<Flow> {
        let mut walked = self.ids.take();
        let mut flow = Flow::Next;
        loop {
            let mut ids = self.ids.take();
            self.gather((var, coll), filter, &mut ids, span)?;
            // `walked` is kept sorted: each member is looked up in it in log time.
            ids.retain(|e| walked.binary_search(e).is_err());
            if ids.is_empty() {
                self.ids.put(ids);
                break;
            }
            self.sort(order, &mut ids)?;
            self.emit(Event::Order { order, ids: &ids });
            let e = ids[0];
            self.ids.put(ids);
            if let Err(at) = walked.binary_search(&e) {
                walked.insert(at, e);
            }
            flow = self.visit(e, var, filter, body, span)?;
            if !matches!(flow, Flow::Next) {
                break;
            }
        }
        self.ids.put(walked);
        Ok(flow)
    }

    fn walk(&mut self, ids: &[EntityId], var: Slot, filter: Option<&Ex>, body: &[St], span: Span) -> R<Flow> {
        for &e in ids {
            match self.visit(e, var, filter, body, span)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// A forward walk of a kept order: each turn taken in it is at the place the walk has reached
    /// in the list as it was when the walk began (so a `place` during the walk moves no place).
    #[allow(clippy::too_many_arguments)]
    fn walk_places(
        &mut self,
        o: OrderId,
        snapshot: &[EntityId],
        ids: &[EntityId],
        var: Slot,
        filter: Option<&Ex>,
        body: &[St],
        span: Span,
    ) -> R<Flow> {
        // `ids` is the part of `snapshot` in play and passing the filter, in the same order.
        let mut next = 0;
        for (place, e) in snapshot.iter().enumerate() {
            if ids.get(next) != Some(e) {
                continue;
            }
            next += 1;
            self.walking.push((o, place));
            let flow = self.visit(*e, var, filter, body, span);
            self.walking.pop();
            match flow? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// Whether `e` is in play and passes `filter`, with `var` bound to it (and left bound).
    fn eligible(&mut self, e: EntityId, var: Slot, filter: Option<&Ex>) -> R<bool> {
        if self.absent.get(e as usize).copied().unwrap_or(false) {
            return Ok(false);
        }
        self.locals[var as usize] = e as i64;
        match filter {
            Some(f) => Ok(self.eval(
                f,
                Ctx {
                    label: NO_LABEL,
                    actor: Some(e),
                },
            )? != 0),
            None => Ok(true),
        }
    }

    /// One character's moment in a `for each`: eligibility is checked again, then the body runs.
    fn visit(&mut self, e: EntityId, var: Slot, filter: Option<&Ex>, body: &[St], span: Span) -> R<Flow> {
        self.tick(span)?;
        // Checked again: the character may have left play, or stopped passing, since the list was made.
        if !self.eligible(e, var, filter)? {
            return Ok(Flow::Next);
        }
        self.block(body)
    }

    /// The characters of a collection that pass a filter, in the collection's order, into `out`.
    pub(super) fn gather(
        &mut self,
        (var, coll): (Slot, Coll),
        filter: Option<&Ex>,
        out: &mut Vec<EntityId>,
        span: Span,
    ) -> R<()> {
        // Expressions make and destroy nothing, so the collection keeps its length meanwhile.
        let mut i = 0;
        while let Some(e) = self.member(coll, i) {
            // Every member looked at is a step.
            self.tick(span)?;
            if self.eligible(e, var, filter)? {
                out.push(e);
            }
            i += 1;
        }
        Ok(())
    }

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
            let reoffer = std::mem::replace(&mut self.reoffer, false);
            let picked = self.suggest(who, prefs, &keys).and_then(|suggested| {
                self.ask_until_accepted(decision, who, (&keys, &[], suggested), span, |_, _| {
                    Ok((Vec::new(), Diag::new("run::refused", "refused")))
                })
            });
            self.reoffer = reoffer;
            self.keys.put(keys);
            let (picked, _) = picked?;
            // The pick goes to this place; the others keep their order after it.
            group[place..=place + picked].rotate_right(1);
        }
        Ok(())
    }

    /// Sorts by an order's keys; each key splits the groups the earlier keys left tied.
    pub(super) fn sort(&mut self, o: OrderId, ids: &mut [EntityId]) -> R<()> {
        let p = self.p;
        let order = &p.orders[o as usize];
        let (mut groups, mut next, mut runs) = (self.spans.take(), self.spans.take(), self.spans.take());
        let (mut work, mut keyed) = (self.groups.take(), self.keyed.take());
        groups.push((0usize, ids.len()));
        for key in &order.keys {
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
                    next.push((s, e));
                    continue;
                }
                // `chosen by WHO`: WHO puts the group in order, one pick at a time.
                if let Some((who, decision, prefs)) = &key.chosen {
                    self.chosen_order((who, prefs), *decision, &mut ids[s..e], key.span)?;
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
                    self.locals[order.var as usize] = id as i64;
                    let v = self.eval(
                        &key.value,
                        Ctx {
                            label: order.label,
                            actor: Some(id),
                        },
                    )?;
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
        }
        self.spans.put(groups);
        self.spans.put(next);
        self.spans.put(runs);
        self.groups.put(work);
        self.keyed.put(keyed);
        Ok(())
    }
}
