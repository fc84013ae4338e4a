//! The simulator's sink: integer counts of the events of many runs, by slot, with no trace kept.
//!
//! Each encounter's counts go to a scratch [`Counts`] and are added to the totals only at its
//! `encounter_end`, so a run that fails adds nothing but its error. Every total is an integer
//! (counts, sums, histograms), so adding workers' totals in any order gives the same result.

use std::collections::BTreeMap;

use super::Hist;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::trace::{Change, Disarmed, EndReason, Event, FinalState, Sink, World};

/// One more at a declared entity's slot (made entities are not counted).
fn bump_at(list: &mut [u64], e: EntityId) {
    if let Some(x) = list.get_mut(e as usize) {
        *x += 1;
    }
}

/// Saturating addition of the totals' integers.
trait Saturating {
    fn plus(self, o: Self) -> Self;
}

impl Saturating for u64 {
    fn plus(self, o: Self) -> Self {
        self.saturating_add(o)
    }
}

impl Saturating for i128 {
    fn plus(self, o: Self) -> Self {
        self.saturating_add(o)
    }
}

/// Sums of one or many encounters, by slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    /// Iterations of each level (its `level_start` events).
    pub iters: Vec<u64>,
    /// `turn_start` and `action` events of each declared entity.
    pub turns: Vec<u64>,
    pub actions: Vec<u64>,
    /// Amounts spent, gained and forfeited of each field; forfeit events.
    pub spent: Vec<i128>,
    pub gained: Vec<i128>,
    pub forfeited: Vec<i128>,
    pub forfeits: Vec<u64>,
    /// At the end of an encounter, the last `left` seen of each (entity, field), summed per field,
    /// and how many (entity, field) pairs had one.
    pub left: Vec<i128>,
    pub left_known: Vec<u64>,
    /// Iterations of each level that ran to their end, that an enclosing `end` closed, and that
    /// their own `end` stopped (per level, `reasons + 1` slots: `ended` without text, then each
    /// `because` text).
    pub complete: Vec<u64>,
    pub outer: Vec<u64>,
    pub ended: Vec<u64>,
    /// The values of each `measure`.
    pub measures: Vec<Values>,
    /// `(samples, sum)` of each measure's values about each declared entity, then each side:
    /// `about[m * (characters + sides) + e]` (side `s` at `characters + s`).
    pub about: Vec<(u64, i128)>,
    /// Per declared entity: responses armed by `ready`, fired, expired, disarmed otherwise
    /// (left play, replaced, out of play); turns and actions cancelled by a moment before them.
    pub armed: Vec<u64>,
    pub fired: Vec<u64>,
    pub expired: Vec<u64>,
    pub disarmed: Vec<u64>,
    pub cancelled: Vec<u64>,
    /// Changes deferred to the end of a moment that lapsed (`lapsed` events: their entity was
    /// destroyed first).
    pub lapsed: u64,
}

/// How many values, their sum, the least and the most: a field's value at the end of the
/// encounters.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Spread {
    pub n: u64,
    pub sum: i128,
    pub min: i64,
    pub max: i64,
}

impl Spread {
    fn add(&mut self, o: &Spread) {
        if o.n == 0 {
            return;
        }
        (self.min, self.max) = if self.n == 0 {
            (o.min, o.max)
        } else {
            (self.min.min(o.min), self.max.max(o.max))
        };
        self.n = self.n.saturating_add(o.n);
        self.sum = self.sum.saturating_add(o.sum);
    }

    fn one(v: i64) -> Spread {
        Spread {
            n: 1,
            sum: v as i128,
            min: v,
            max: v,
        }
    }
}

/// The values a measure took: how many, their sum and sum of squares, the least and most, and
/// how often each value came up (in bins, past `MAX_SIM_BINS` distinct values). All integers,
/// so merging in any order gives the same totals.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Values {
    /// How many, their sum, the least and most.
    pub spread: Spread,
    /// The sum of squares; `None` once it no longer fits (the spread is then not reported).
    pub sq: Option<u128>,
    pub hist: Hist,
}

impl Values {
    fn new() -> Self {
        Values {
            sq: Some(0),
            ..Values::default()
        }
    }

    fn add(&mut self, v: i64) {
        self.spread.add(&Spread::one(v));
        self.sq = self
            .sq
            .and_then(|s| s.checked_add(v.unsigned_abs() as u128 * v.unsigned_abs() as u128));
        self.hist.add(v, 1);
    }

    fn merge(&mut self, o: &Values) {
        if o.spread.n == 0 {
            return;
        }
        self.spread.add(&o.spread);
        self.sq = self.sq.zip(o.sq).and_then(|(a, b)| a.checked_add(b));
        self.hist.merge(&o.hist);
    }
}

impl Counts {
    pub fn new(p: &Program) -> Self {
        let (l, c, f) = (p.levels.len(), p.characters.len(), p.fields.len());
        Counts {
            iters: vec![0; l],
            turns: vec![0; c],
            actions: vec![0; c],
            spent: vec![0; f],
            gained: vec![0; f],
            forfeited: vec![0; f],
            forfeits: vec![0; f],
            left: vec![0; f],
            left_known: vec![0; f],
            complete: vec![0; l],
            outer: vec![0; l],
            ended: vec![0; l * (p.reasons.len() + 1)],
            measures: vec![Values::new(); p.measures.len()],
            about: vec![(0, 0); p.measures.len() * (c + p.sides.len())],
            armed: vec![0; c],
            fired: vec![0; c],
            expired: vec![0; c],
            disarmed: vec![0; c],
            cancelled: vec![0; c],
            lapsed: 0,
        }
    }

    fn clear(&mut self) {
        for v in [
            &mut self.iters,
            &mut self.turns,
            &mut self.actions,
            &mut self.forfeits,
            &mut self.left_known,
            &mut self.complete,
            &mut self.outer,
            &mut self.ended,
            &mut self.armed,
            &mut self.fired,
            &mut self.expired,
            &mut self.disarmed,
            &mut self.cancelled,
        ] {
            v.fill(0);
        }
        for v in [&mut self.spent, &mut self.gained, &mut self.forfeited, &mut self.left] {
            v.fill(0);
        }
        for m in &mut self.measures {
            *m = Values::new();
        }
        self.about.fill((0, 0));
        self.lapsed = 0;
    }

    fn add(&mut self, o: &Counts) {
        // Saturating: no run comes near, but `sim merge` reads totals from files.
        fn sum<T: Copy + Saturating>(a: &mut [T], b: &[T]) {
            for (x, y) in a.iter_mut().zip(b) {
                *x = x.plus(*y);
            }
        }
        sum(&mut self.iters, &o.iters);
        sum(&mut self.turns, &o.turns);
        sum(&mut self.actions, &o.actions);
        sum(&mut self.spent, &o.spent);
        sum(&mut self.gained, &o.gained);
        sum(&mut self.forfeited, &o.forfeited);
        sum(&mut self.forfeits, &o.forfeits);
        sum(&mut self.left, &o.left);
        sum(&mut self.left_known, &o.left_known);
        sum(&mut self.complete, &o.complete);
        sum(&mut self.outer, &o.outer);
        sum(&mut self.ended, &o.ended);
        sum(&mut self.armed, &o.armed);
        sum(&mut self.fired, &o.fired);
        sum(&mut self.expired, &o.expired);
        sum(&mut self.disarmed, &o.disarmed);
        sum(&mut self.cancelled, &o.cancelled);
        for (a, b) in self.measures.iter_mut().zip(&o.measures) {
            a.merge(b);
        }
        for (a, b) in self.about.iter_mut().zip(&o.about) {
            a.0 = a.0.plus(b.0);
            a.1 = a.1.plus(b.1);
        }
        self.lapsed = self.lapsed.plus(o.lapsed);
    }
}

/// The totals of a set of encounters.
#[derive(Clone, Debug)]
pub struct Stats {
    /// Encounters run, and those that finished (reached `encounter_end`).
    pub runs: u64,
    pub finished: u64,
    /// Steps of the finished runs: sum, least, most.
    pub steps: u128,
    pub steps_min: u64,
    pub steps_max: u64,
    pub sum: Counts,
    /// Per level: `hist[v]` finished encounters had `v` iterations of it.
    pub hist: Vec<Vec<u64>>,
    /// Per order: in how many encounters it was made; `place[(o * c + e) * c + k]`: in how many
    /// the first order `o` made put entity `e` at place `k`.
    pub made: Vec<u64>,
    pub place: Vec<u64>,
    /// How the encounters ended.
    pub ends: Vec<(EndReason, u64)>,
    /// Level iterations closed by the run's own stop (`--until`, the limit, `end encounter`):
    /// (level, the encounter's end, count).
    pub stopped: Vec<(LevelId, EndReason, u64)>,
    /// Failed runs by diagnostic code, and the failure of the lowest-numbered encounter:
    /// (index, seed, diagnostic).
    pub errors: Vec<(std::borrow::Cow<'static, str>, u64)>,
    pub first_error: Option<(u64, u64, Diag)>,
    /// Each declared entity's fields at the end (its `final` event), while in play:
    /// `finals[e * fields + f]`; and each global's, by field.
    pub finals: Vec<Spread>,
    pub final_globals: Vec<Spread>,
    /// Each side's fields at the end: `final_sides[s * fields + f]`.
    pub final_sides: Vec<Spread>,
    /// The fields that hold an entity, a side or a role, at the end: in how many encounters each
    /// held each value ([`Held`]).
    pub held: BTreeMap<(Holder, FieldId, Held), u64>,
}

/// Who holds a field: the table (a global), a side, or a declared entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holder {
    Table,
    Side(u32),
    Entity(EntityId),
}

/// What a field that holds an entity, a side or a role held at the end: a declared entity, a
/// side or role (by index), an entity made in play (whichever), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Held {
    Id(i64),
    Made,
    None,
}

impl Stats {
    pub fn new(p: &Program) -> Self {
        let (o, c) = (p.orders.len(), p.characters.len());
        Stats {
            runs: 0,
            finished: 0,
            steps: 0,
            steps_min: u64::MAX,
            steps_max: 0,
            sum: Counts::new(p),
            hist: vec![Vec::new(); p.levels.len()],
            made: vec![0; o],
            place: vec![0; o * c * c],
            ends: Vec::new(),
            stopped: Vec::new(),
            errors: Vec::new(),
            first_error: None,
            finals: vec![Spread::default(); c * p.fields.len()],
            final_globals: vec![Spread::default(); p.fields.len()],
            final_sides: vec![Spread::default(); p.sides.len() * p.fields.len()],
            held: BTreeMap::new(),
        }
    }

    /// Adds another set's totals. Every total is an integer, so the order of merging does not
    /// change the result; the first error is the one of the lowest-numbered encounter.
    pub fn merge(&mut self, o: Stats) {
        self.runs = self.runs.plus(o.runs);
        self.finished = self.finished.plus(o.finished);
        self.steps = self.steps.saturating_add(o.steps);
        self.steps_min = self.steps_min.min(o.steps_min);
        self.steps_max = self.steps_max.max(o.steps_max);
        self.sum.add(&o.sum);
        for (h, oh) in self.hist.iter_mut().zip(&o.hist) {
            if h.len() < oh.len() {
                h.resize(oh.len(), 0);
            }
            for (x, y) in h.iter_mut().zip(oh) {
                *x = x.plus(*y);
            }
        }
        for (x, y) in self.made.iter_mut().zip(&o.made) {
            *x = x.plus(*y);
        }
        for (x, y) in self.place.iter_mut().zip(&o.place) {
            *x = x.plus(*y);
        }
        for (r, n) in o.ends {
            bump(&mut self.ends, r, n);
        }
        for (l, r, n) in o.stopped {
            match self.stopped.iter_mut().find(|(a, b, _)| *a == l && *b == r) {
                Some(e) => e.2 = e.2.plus(n),
                None => self.stopped.push((l, r, n)),
            }
        }
        for (c, n) in o.errors {
            bump(&mut self.errors, c, n);
        }
        for (a, b) in self.finals.iter_mut().zip(&o.finals) {
            a.add(b);
        }
        for (a, b) in self.final_globals.iter_mut().zip(&o.final_globals) {
            a.add(b);
        }
        for (a, b) in self.final_sides.iter_mut().zip(&o.final_sides) {
            a.add(b);
        }
        for (k, n) in o.held {
            let x = self.held.entry(k).or_insert(0);
            *x = x.plus(n);
        }
        if let Some(e) = o.first_error
            && self.first_error.as_ref().is_none_or(|f| e.0 < f.0)
        {
            self.first_error = Some(e);
        }
    }

    /// Records a run that failed with `d`.
    pub fn failed(&mut self, index: u64, seed: u64, d: Diag) {
        bump(&mut self.errors, std::borrow::Cow::Borrowed(d.code), 1);
        if self.first_error.as_ref().is_none_or(|f| index < f.0) {
            self.first_error = Some((index, seed, d));
        }
    }
}

fn bump<K: PartialEq>(v: &mut Vec<(K, u64)>, k: K, n: u64) {
    match v.iter_mut().find(|(x, _)| *x == k) {
        Some(e) => e.1 = e.1.plus(n),
        None => v.push((k, n)),
    }
}

/// A [`Sink`] that counts: one per worker, reused for every encounter it runs.
pub struct Tally {
    pub stats: Stats,
    cur: Counts,
    /// Orders already made in this encounter.
    seen: Vec<bool>,
    /// The places of the first order of each kind made in this encounter: (order, entity, k).
    places: Vec<(OrderId, EntityId, u32)>,
    /// Levels whose iteration ended without a reason, not yet known to be complete or closed by
    /// an enclosing `end` (or the run's stop).
    tail: Vec<LevelId>,
    /// The last `left` of each (entity, field) in this encounter, with the encounter it is of.
    last: Vec<(u64, i64)>,
    encounter: u64,
    n_chars: usize,
    /// How many sides there are: a measure's values about a side are kept after the entities'.
    n_sides: usize,
    n_fields: usize,
    n_reasons: usize,
}

impl Tally {
    pub fn new(p: &Program) -> Self {
        Tally {
            stats: Stats::new(p),
            cur: Counts::new(p),
            seen: vec![false; p.orders.len()],
            places: Vec::new(),
            tail: Vec::new(),
            last: vec![(0, 0); p.characters.len() * p.fields.len()],
            encounter: 0,
            n_chars: p.characters.len(),
            n_sides: p.sides.len(),
            n_fields: p.fields.len(),
            n_reasons: p.reasons.len() + 1,
        }
    }

    /// Adds a finished run's steps (its events were counted at its `encounter_end`).
    pub fn steps(&mut self, steps: u64) {
        let s = &mut self.stats;
        s.steps += steps as u128;
        s.steps_min = s.steps_min.min(steps);
        s.steps_max = s.steps_max.max(steps);
    }

    /// The levels in `tail` ran to their end: an event other than another level's end came.
    #[inline(always)]
    fn flush_complete(&mut self) {
        if !self.tail.is_empty() {
            self.flush_tail();
        }
    }

    #[inline(never)]
    fn flush_tail(&mut self) {
        for l in self.tail.drain(..) {
            self.cur.complete[l as usize] += 1;
        }
    }

    fn left(&mut self, e: EntityId, f: FieldId, v: i64) {
        if let Some(slot) = self.slot(e, f) {
            self.last[slot] = (self.encounter, v);
        }
    }

    /// The state at the end of a finished encounter: each declared entity in play, each global,
    /// each side's fields. A field that holds an entity, a side or a role is counted by what it
    /// held, not added up.
    #[inline(never)]
    fn finals(&mut self, p: &Program, state: &FinalState<'_>) {
        let nf = self.n_fields;
        for (e, in_play) in state.entities(p) {
            if !in_play || e as usize >= self.n_chars {
                continue;
            }
            for (f, v) in state.fields(p, e) {
                if !self.held(p, Holder::Entity(e), f, v)
                    && let Some(x) = self.stats.finals.get_mut(e as usize * nf + f as usize)
                {
                    x.add(&Spread::one(v));
                }
            }
        }
        for (f, v) in state.globals(p) {
            if !self.held(p, Holder::Table, f, v)
                && let Some(x) = self.stats.final_globals.get_mut(f as usize)
            {
                x.add(&Spread::one(v));
            }
        }
        for s in 0..p.sides.len() {
            for (f, v) in state.side_fields(p, s) {
                if !self.held(p, Holder::Side(s as u32), f, v)
                    && let Some(x) = self.stats.final_sides.get_mut(s * nf + f as usize)
                {
                    x.add(&Spread::one(v));
                }
            }
        }
    }

    /// Counts what field `f` of `who` held at the end, if it holds an entity, a side or a role;
    /// false for a field that holds a number.
    fn held(&mut self, p: &Program, who: Holder, f: FieldId, v: i64) -> bool {
        let Some(t) = p.fields.get(f as usize).and_then(|d| d.refers) else {
            return false;
        };
        let what = if v < 0 {
            Held::None
        } else if t == crate::check::SIDE || t == crate::check::ROLE || v < self.n_chars as i64 {
            Held::Id(v)
        } else {
            Held::Made
        };
        *self.stats.held.entry((who, f, what)).or_insert(0) += 1;
        true
    }

    fn measure(&mut self, m: MeasureId, about: Option<EntityId>, v: i64) {
        let m = m as usize;
        if let Some(values) = self.cur.measures.get_mut(m) {
            values.add(v);
        }
        // A side is its owner id, counted down from below `TABLE` (see `Program::side_owner`).
        let side = |e: EntityId| Program::side_among(e, self.n_sides);
        let at = about.and_then(|e| match side(e) {
            Some(s) => Some(self.n_chars + s),
            None => Some(e as usize).filter(|e| *e < self.n_chars),
        });
        if let Some(e) = at
            && let Some(x) = self.cur.about.get_mut(m * (self.n_chars + self.n_sides) + e)
        {
            x.0 += 1;
            x.1 += v as i128;
        }
    }

    fn slot(&self, e: EntityId, f: FieldId) -> Option<usize> {
        let (e, f) = (e as usize, f as usize);
        (e < self.n_chars && f < self.n_fields).then_some(e * self.n_fields + f)
    }

    #[inline(never)]
    fn start(&mut self) {
        self.stats.runs += 1;
        self.encounter += 1;
        self.cur.clear();
        self.seen.fill(false);
        self.places.clear();
        self.tail.clear();
    }

    #[inline(never)]
    fn end(&mut self, reason: &EndReason) {
        if *reason == EndReason::Complete {
            self.flush_complete();
        } else {
            for l in std::mem::take(&mut self.tail) {
                let s = &mut self.stats.stopped;
                match s.iter_mut().find(|(a, b, _)| *a == l && b == reason) {
                    Some(e) => e.2 += 1,
                    None => s.push((l, reason.clone(), 1)),
                }
            }
        }
        for (slot, &(enc, v)) in self.last.iter().enumerate() {
            if enc == self.encounter {
                let f = slot % self.n_fields;
                self.cur.left[f] += v as i128;
                self.cur.left_known[f] += 1;
            }
        }
        let s = &mut self.stats;
        s.finished += 1;
        s.sum.add(&self.cur);
        for (h, &n) in s.hist.iter_mut().zip(&self.cur.iters) {
            let n = n as usize;
            if h.len() <= n {
                h.resize(n + 1, 0);
            }
            h[n] += 1;
        }
        let c = self.n_chars;
        for &(o, e, k) in &self.places {
            let o = o as usize;
            if let Some(x) = s.place.get_mut((o * c + e as usize) * c + k as usize) {
                *x += 1;
            }
        }
        for (m, &seen) in s.made.iter_mut().zip(&self.seen) {
            *m += seen as u64;
        }
        bump(&mut s.ends, reason.clone(), 1);
    }
}

impl Sink for Tally {
    /// The events every encounter sends by the thousand (turns, actions, decisions, rolls,
    /// resources) are counted here; the rest ([`Tally::rare`]) out of line, so this stays small.
    #[inline]
    fn event(&mut self, w: &World<'_>, event: &Event<'_>) {
        match event {
            Event::LevelEnd {
                level, reason: None, ..
            } => self.tail.push(*level),
            Event::TurnEnd { .. }
            | Event::ReactionEnd { .. }
            | Event::EffectEnd { .. }
            | Event::EffectTick { .. }
            | Event::Flag { .. } => {}
            Event::Resource {
                change,
                actor,
                field,
                amount,
                left,
            } => {
                let f = *field as usize;
                if f < self.n_fields {
                    let a = *amount as i128;
                    match change {
                        Change::Spend => self.cur.spent[f] += a,
                        Change::Gain => self.cur.gained[f] += a,
                        Change::Forfeit => {
                            self.cur.forfeited[f] += a;
                            self.cur.forfeits[f] += 1;
                        }
                        Change::Reset | Change::Set => {}
                    }
                }
                self.left(*actor, *field, *left);
            }
            Event::TurnStart { actor } => {
                self.flush_complete();
                if let Some(x) = self.cur.turns.get_mut(*actor as usize) {
                    *x += 1;
                }
            }
            Event::Action { actor, .. } => {
                self.flush_complete();
                if let Some(x) = self.cur.actions.get_mut(*actor as usize) {
                    *x += 1;
                }
            }
            Event::LevelStart { level, .. } => {
                self.flush_complete();
                if let Some(x) = self.cur.iters.get_mut(*level as usize) {
                    *x += 1;
                }
            }
            Event::Decision { .. } | Event::Roll { .. } => self.flush_complete(),
            _ => self.rare(w, event),
        }
    }
}

impl Tally {
    /// [`Sink::event`] for every event it does not count itself.
    #[inline(never)]
    fn rare(&mut self, w: &World<'_>, event: &Event<'_>) {
        match event {
            Event::Transfer {
                from, to, left, total, ..
            } => {
                self.flush_complete();
                self.left(from.0, from.1, *left);
                self.left(to.0, to.1, *total);
            }
            Event::LevelEnd {
                level, reason: Some(r), ..
            } => {
                for l in self.tail.drain(..) {
                    self.cur.outer[l as usize] += 1;
                }
                let k = r.map_or(0, |i| i as usize + 1);
                if k < self.n_reasons
                    && let Some(x) = self.cur.ended.get_mut(*level as usize * self.n_reasons + k)
                {
                    *x += 1;
                }
            }
            Event::EncounterStart { .. } => self.start(),
            Event::EncounterEnd { reason } => self.end(reason),
            Event::Final { state } => self.finals(w.p, state),
            // Counted in `event`, never sent here.
            Event::LevelEnd { reason: None, .. }
            | Event::TurnEnd { .. }
            | Event::ReactionEnd { .. }
            | Event::EffectEnd { .. }
            | Event::EffectTick { .. }
            | Event::Flag { .. }
            | Event::Resource { .. }
            | Event::TurnStart { .. }
            | Event::Action { .. }
            | Event::Decision { .. }
            | Event::Roll { .. }
            | Event::LevelStart { .. } => {}
            other => {
                self.flush_complete();
                match other {
                    Event::Order { order, ids } => {
                        let o = *order as usize;
                        if o < self.seen.len() && !self.seen[o] {
                            self.seen[o] = true;
                            for (k, &e) in ids.iter().enumerate() {
                                if (e as usize) < self.n_chars && k < self.n_chars {
                                    self.places.push((*order, e, k as u32));
                                }
                            }
                        }
                    }
                    Event::Manual { actor, field, value } => self.left(*actor, *field, *value),
                    Event::Measure { measure, about, value } => self.measure(*measure, *about, *value),
                    Event::Ready { actor, .. } => bump_at(&mut self.cur.armed, *actor),
                    Event::ReadyEnd { actor, reason, .. } => {
                        let list = match reason {
                            Disarmed::Fired => &mut self.cur.fired,
                            Disarmed::Expired => &mut self.cur.expired,
                            Disarmed::LeftPlay | Disarmed::Replaced | Disarmed::OutOfPlay | Disarmed::Disarmed => {
                                &mut self.cur.disarmed
                            }
                        };
                        bump_at(list, *actor);
                    }
                    Event::Cancelled { actor, .. } => bump_at(&mut self.cur.cancelled, *actor),
                    Event::Lapsed { .. } => self.cur.lapsed += 1,
                    _ => {}
                }
            }
        }
    }
}
