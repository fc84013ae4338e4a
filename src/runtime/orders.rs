//! Orders and walks: `rank` and `place` on kept orders (sorting is in `sorting.rs`), gathering the
//! members of a collection that pass a filter, and `for each` walks (of kept orders, place by place).

use super::code::Filter;
use super::moments::TieMemo;
use super::state::{Ctx, Machine, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::Event;

/// What a `for each` walks and how.
#[derive(Clone, Copy)]
struct Walk {
    /// `together`: one moment for all: traced as a group, no member re-checked, secret choices
    /// revealed at its end.
    together: bool,
    /// `ties together`: each group tied on the order's value keys is one moment.
    ties: bool,
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
        (backwards, together, anew, ties, again): (bool, bool, bool, bool, bool),
        from: Option<&Ex>,
        filter: Option<Filter<'_>>,
        order: Option<OrderId>,
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        let start = match from {
            Some(x) => Some(self.entity(x, span)?),
            None => None,
        };
        if let (true, Some(o)) = (again, order) {
            self.loops.push(span);
            let flow = self.walk_again((var, coll), filter, o, body, span);
            self.loops.pop();
            return flow;
        }
        if let (true, Some(o)) = (anew, order) {
            self.loops.push(span);
            let flow = self.walk_anew((var, coll), filter, (o, ties), body, span);
            self.loops.pop();
            return flow;
        }
        let walk = Walk {
            together,
            ties,
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
            Some((slot, cond)) => self.gather((*slot, Coll::All(ty)), Some(Filter::Tree(cond)), &mut ids, span)?,
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

    fn for_each(&mut self, w: &Walk, filter: Option<Filter<'_>>, body: &Block, span: Span) -> R<Flow> {
        let Walk {
            together,
            ties,
            var,
            coll,
            backwards,
            from,
            order,
        } = *w;
        if coll == Coll::Sides {
            return self.walk_sides((var, order), backwards, filter, body, span);
        }
        let mut ids = self.ids.take();
        self.gather((var, coll), filter, &mut ids, span)?;
        // `ties together`: the runs of members tied on the order's value keys.
        let mut runs = self.spans.take();
        // An empty walk has nothing to order, and traces no `order`.
        if let Some(o) = order
            && !ids.is_empty()
        {
            self.sort_with(o, &mut ids, None, ties.then_some(&mut runs))?;
            self.emit(Event::Order { order: o, ids: &ids });
        }
        if ties {
            self.loops.push(span);
            let flow = self.walk_ties(&ids, &runs, var, filter, body, span);
            self.loops.pop();
            self.ids.put(ids);
            self.spans.put(runs);
            return flow;
        }
        self.spans.put(runs);
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
    fn together(&mut self, ids: &[EntityId], var: Slot, body: &Block, span: Span) -> R<Flow> {
        // A walk over nobody is no moment: nothing is traced, as for `for each` over nothing.
        if ids.is_empty() {
            return Ok(Flow::Next);
        }
        self.emit(Event::TogetherStart { actors: ids });
        self.open_moment();
        self.open_secrets();
        let mut flow = Flow::Next;
        for &e in ids {
            self.tick(span)?;
            if !self.present(e, self.drawing) {
                continue;
            }
            self.locals[var as usize] = e as i64;
            flow = self.block(body)?;
            if !matches!(flow, Flow::Next) {
                break;
            }
        }
        let flow = self.reveal_secrets(flow)?;
        // The changes deferred to the moment's end are made after the reveal, before its end.
        let flow = self.close_moment(flow, span)?;
        self.emit(Event::TogetherEnd);
        Ok(flow)
    }

    /// `for each ... by ORDER anew`: before each member's moment, those not yet walked who pass
    /// the filter now (newcomers included) are sorted again (an `order` event), and the first
    /// has its moment. Roll-offs and `chosen by` answers are kept while a tie lasts (`TieMemo`).
    /// With `ties together`, the first and everyone tied with it on the order's value keys have
    /// one moment together (all are walked).
    fn walk_anew(
        &mut self,
        (var, coll): (Slot, Coll),
        filter: Option<Filter<'_>>,
        (order, ties): (OrderId, bool),
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        let mut walked = self.ids.take();
        let mut runs = self.spans.take();
        let mut memo = TieMemo::default();
        let keeps = self.breaks_ties(order);
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
            self.sort_with(order, &mut ids, keeps.then_some(&mut memo), ties.then_some(&mut runs))?;
            self.emit(Event::Order { order, ids: &ids });
            let first = match ties {
                true => runs.first().map_or(1, |r| r.1.max(1)),
                false => 1,
            };
            for e in &ids[..first] {
                if let Err(at) = walked.binary_search(e) {
                    walked.insert(at, *e);
                }
            }
            let moment = match (ties, first) {
                (false, _) => self.visit(ids[0], var, filter, body, span),
                (true, 1) => self.alone(ids[0], var, filter, body, span),
                (true, _) => self.together(&ids[..first], var, body, span),
            };
            self.ids.put(ids);
            flow = moment?;
            if !matches!(flow, Flow::Next) {
                break;
            }
        }
        self.ids.put(walked);
        self.spans.put(runs);
        Ok(flow)
    }

    /// `repeat for first c in COLL [where C] by ORDER`: before every pass, those who pass the
    /// filter now are sorted (an `order` event, roll-offs and `chosen by` answers kept while a tie
    /// lasts), and the first has the moment (the same one again, maybe); until no one passes, `end
    /// repeat`, or an `end`.
    fn walk_again(
        &mut self,
        (var, coll): (Slot, Coll),
        filter: Option<Filter<'_>>,
        order: OrderId,
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        let mut memo = TieMemo::default();
        let keeps = self.breaks_ties(order);
        loop {
            self.tick(span)?;
            let mut ids = self.ids.take();
            self.gather((var, coll), filter, &mut ids, span)?;
            if ids.is_empty() {
                self.ids.put(ids);
                return Ok(Flow::Next);
            }
            let sorted = self.sort_with(order, &mut ids, keeps.then_some(&mut memo), None);
            if sorted.is_ok() {
                self.emit(Event::Order { order, ids: &ids });
            }
            let e = ids[0];
            self.ids.put(ids);
            sorted?;
            self.locals[var as usize] = e as i64;
            match self.block(body)? {
                Flow::Next => {}
                Flow::EndRepeat => return Ok(Flow::Next),
                other => return Ok(other),
            }
        }
    }

    /// Whether an order has a tie-breaker a re-sorting walk keeps (a `roll` or `chosen by` key).
    fn breaks_ties(&self, order: OrderId) -> bool {
        self.p.orders[order as usize]
            .keys
            .iter()
            .any(|k| k.roll || k.chosen.is_some())
    }

    /// `ties together`: each run of members tied on the order's value keys is one `together`
    /// moment; a member tied with no one walks as in a plain walk (checked again), a moment of
    /// one (the changes it defers are made when its body ends, with no `together` events).
    fn walk_ties(
        &mut self,
        ids: &[EntityId],
        runs: &[(usize, usize)],
        var: Slot,
        filter: Option<Filter<'_>>,
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        for &(s, e) in runs {
            let flow = match e - s {
                0 => Flow::Next,
                1 => self.alone(ids[s], var, filter, body, span)?,
                _ => self.together(&ids[s..e], var, body, span)?,
            };
            if !matches!(flow, Flow::Next) {
                return Ok(flow);
            }
        }
        Ok(Flow::Next)
    }

    /// A member tied with no one in a `ties together` walk: visited as in a plain walk, in a
    /// moment of its own (its secret choices revealed, then its deferred changes made, as its
    /// body ends; no `together` events).
    fn alone(&mut self, e: EntityId, var: Slot, filter: Option<Filter<'_>>, body: &Block, span: Span) -> R<Flow> {
        self.open_moment();
        self.open_secrets();
        let flow = self.visit(e, var, filter, body, span)?;
        let flow = self.reveal_secrets(flow)?;
        self.close_moment(flow, span)
    }

    fn walk(&mut self, ids: &[EntityId], var: Slot, filter: Option<Filter<'_>>, body: &Block, span: Span) -> R<Flow> {
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
        filter: Option<Filter<'_>>,
        body: &Block,
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

    /// Whether `e` is drawn (in play, or out of it as the walk says) and passes `filter`, with `var` bound to it (and left bound).
    #[inline(always)]
    fn eligible(&mut self, e: EntityId, var: Slot, filter: Option<Filter<'_>>) -> R<bool> {
        if !self.present(e, self.drawing) {
            return Ok(false);
        }
        self.locals[var as usize] = e as i64;
        match filter {
            Some(f) => Ok(self.test(
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
    fn visit(&mut self, e: EntityId, var: Slot, filter: Option<Filter<'_>>, body: &Block, span: Span) -> R<Flow> {
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
        filter: Option<Filter<'_>>,
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
}
