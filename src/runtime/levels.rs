//! Levels, turns and `repeat`: the loops that count (level iterations, `--until` and the default
//! stop) and the hooks and count-downs at their starts and ends.

use super::state::{Ctx, Machine, NO_CTX, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::DEFAULT_OUTER_LIMIT;
use crate::source::Span;
use crate::trace::{EndReason, Event};

impl Machine<'_> {
    /// A level: its iterations, each numbered (1, 2, 3, ... or the game's way, `counting`),
    /// traced, with its hooks and count-downs at their starts and ends, until its `repeat` or its
    /// last number ends it, an `end` closes it, or the run stops.
    pub(super) fn level(
        &mut self,
        level: LevelId,
        (repeat, counting): (&Repeat, Option<&CountingEx>),
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        // Entered again inside itself (through a routine, an action or a hook: the checker
        // refuses it written inside itself), its numbers would be the inner one's from then on.
        if self.running[level as usize] {
            let name = &self.p.levels[level as usize].name;
            return Err(Box::new(
                Diag::new("run::nested_level", format!("the level `{name}` is entered inside itself"))
                    .label(span, "entered again here, while it is running")
                    .help(format!(
                        "give this level a name of its own: inside `{name}`, a level of the same name would take over `{name}.number`, `end {name}` and its hooks"
                    )),
            ));
        }
        let ctx = Ctx {
            label: NO_LABEL,
            actor: None,
        };
        let mut numbers = match counting {
            Some(c) => Numbers::new(self, c, span)?,
            None => Numbers::plain(),
        };
        // Said as the level begins only when it is sure: one statement opens the level, its
        // numbers are written as plain numbers, and no outer iteration is named.
        let sure = self.p.levels[level as usize].statements == 1
            && self.until_within.is_empty()
            && counting.is_none_or(|c| {
                matches!(c.from, Ex::Int(_))
                    && c.to.as_ref().is_none_or(|t| matches!(t, Ex::Int(_)))
                    && c.within
                        .as_ref()
                        .is_none_or(|(lo, hi)| matches!((lo, hi), (Ex::Int(_), Ex::Int(_))))
            });
        if let Some((l, n)) = self.until
            && l == level
            && sure
            && !numbers.reaches(n)
        {
            return Err(Box::new(
                Diag::new(
                    "run::counting",
                    format!(
                        "--until {}={n} never comes: {}",
                        self.p.levels[level as usize].name,
                        numbers.describe()
                    ),
                )
                .label(span, "this level")
                .help("stop at a number the level reaches"),
            ));
        }
        self.counters[level as usize] = 0;
        self.running[level as usize] = true;
        self.loops.push(span);
        // Iterations run, whatever their numbers: the default stop counts these.
        let mut iteration = 0u64;
        let result = loop {
            if let Repeat::While(c) = repeat
                && self.eval(c, ctx)? == 0
            {
                break Flow::Next;
            }
            let Some(n) = numbers.next() else {
                break Flow::Next;
            };
            self.tick(span)?;
            iteration += 1;
            self.counters[level as usize] = n;
            let p = self.p;
            self.emit(Event::LevelStart { level, n });
            // `per` flags clear as the iteration starts; a flag that was set is traced as cleared.
            for f in &p.levels[level as usize].clears {
                for e in 0..p.characters.len() {
                    if self.get(e as EntityId, *f) != 0 {
                        self.put(e as EntityId, *f, 0);
                        self.emit(Event::Flag {
                            actor: e as EntityId,
                            flag: *f,
                            on: false,
                        });
                    }
                }
            }
            let def = &p.levels[level as usize];
            self.count_down(Anchor::LevelStart(level));
            self.expire_ready(Anchor::LevelStart(level));
            let mut flow = self.effect_hooks(span)?;
            if let Flow::Next = flow {
                flow = self.hooks(&def.on_start, &[], span)?;
            }
            if let Flow::Next = flow {
                flow = self.moment(Moment::LevelStart(level), span)?;
            }
            if let Flow::Next = flow {
                flow = self.block(body)?;
            }
            // The changes deferred to the iteration's end are made first (dropped if the
            // encounter is ending).
            flow = self.settle_level(level, flow, span)?;
            // The iteration is over, however it ended, unless the run itself is stopping.
            if !matches!(flow, Flow::Stop(_)) {
                let outer = self.ending.replace(Anchor::LevelEnd(level));
                match self.hooks(&def.on_end, &[], span)? {
                    Flow::Next => {}
                    other => flow = flow.then(other),
                }
                // What the end hooks deferred to this iteration's end is made after them.
                flow = self.settle_level(level, flow, span)?;
                if !matches!(flow, Flow::Stop(_) | Flow::End(None, _)) {
                    match self.moment(Moment::LevelEnd(level), span)? {
                        Flow::Next => {}
                        other => flow = flow.then(other),
                    }
                    // What the attempts made there deferred to this iteration's end, after them.
                    flow = self.settle_level(level, flow, span)?;
                }
                self.ending = outer;
                self.count_down(Anchor::LevelEnd(level));
                self.expire_ready(Anchor::LevelEnd(level));
                match self.end_edge_hooks(Anchor::LevelEnd(level), span)? {
                    Flow::Next => {}
                    other => flow = flow.then(other),
                }
                // And what the hooks of effects ending there deferred to it.
                flow = self.settle_level(level, flow, span)?;
            }
            match flow {
                Flow::Next => self.emit(Event::LevelEnd { level, n, reason: None }),
                Flow::End(Some(l), r) if l == level => {
                    self.emit(Event::LevelEnd {
                        level,
                        n,
                        reason: Some(r),
                    });
                    if self.stops_after(level, (n, iteration), repeat, numbers.bounded()) {
                        break Flow::Stop(EndReason::Until {
                            level,
                            n,
                            default: self.until_default,
                        });
                    }
                    break Flow::Next;
                }
                other => {
                    self.emit(Event::LevelEnd { level, n, reason: None });
                    break other;
                }
            }
            if self.stops_after(level, (n, iteration), repeat, numbers.bounded()) {
                break Flow::Stop(EndReason::Until {
                    level,
                    n,
                    default: self.until_default,
                });
            }
            match repeat {
                // A level counting to a last number goes on to it.
                Repeat::Once if !numbers.bounded() => break Flow::Next,
                Repeat::Until(c) if self.eval(c, ctx)? != 0 => break Flow::Next,
                _ => {}
            }
        };
        self.running[level as usize] = false;
        self.loops.pop();
        Ok(result)
    }

    /// Whether the run stops after the iteration numbered `n` (the `iteration`-th) of `level`:
    /// `--until` (by the level's own numbers), or the default stop (the 10th iteration of a level
    /// repeating with no condition and no last number).
    fn stops_after(&self, level: LevelId, (n, iteration): (u64, u64), repeat: &Repeat, bounded: bool) -> bool {
        match self.until {
            Some(u) => {
                u == (level, n)
                    && self.until_within.iter().all(|&(l, m)| {
                        self.running.get(l as usize).copied().unwrap_or(false)
                            && self.counters.get(l as usize).copied() == Some(m)
                    })
            }
            None => {
                self.until_default && matches!(repeat, Repeat::Forever) && !bounded && iteration == DEFAULT_OUTER_LIMIT
            }
        }
    }

    pub(super) fn repeat(&mut self, repeat: &Repeat, body: &Block, span: Span) -> R<Flow> {
        // Popped on every path: a routine called in the condition may end the encounter, an
        // `Err` that the statement turns back into a flow (`Machine::unwound`), after which the
        // end hooks run.
        self.loops.push(span);
        let result = self.repeat_passes(repeat, body, span);
        self.loops.pop();
        result
    }

    fn repeat_passes(&mut self, repeat: &Repeat, body: &Block, span: Span) -> R<Flow> {
        Ok(loop {
            if let Repeat::While(c) = repeat
                && self.eval(c, NO_CTX)? == 0
            {
                break Flow::Next;
            }
            self.tick(span)?;
            match self.block(body)? {
                Flow::Next => {}
                Flow::EndRepeat => break Flow::Next,
                other => break other,
            }
            match repeat {
                Repeat::Once => break Flow::Next,
                Repeat::Until(c) if self.eval(c, NO_CTX)? != 0 => break Flow::Next,
                _ => {}
            }
        })
    }

    /// `turn`: count-downs at the actor's place and turn start, the turn-start hooks, the body,
    /// then (however it ended, unless the run is stopping) the turn-end hooks and count-downs.
    #[inline(never)]
    pub(super) fn st_turn(&mut self, actor: &Ex, body: &Block, span: Span) -> R<Flow> {
        if !self.p.fixed.turn_edges && !self.asks_moments {
            return self.plain_turn(actor, body, span);
        }
        let a = self.alive(actor, span)?;
        // `on before turn(c)`: outside the turn, before it starts.
        if let Some(flow) = self.before_turn(a, span)? {
            return Ok(flow);
        }
        // Attempts made before the turn, after those hooks, outside it; one that takes the actor
        // out of play takes its turn with it (traced `cancelled`, as for the hooks).
        let was_in = !self.out_of_play(a);
        match self.moment(Moment::BeforeTurn(a), span)? {
            Flow::Next if was_in && self.out_of_play(a) => {
                self.emit(Event::Cancelled { actor: a, action: None });
                return Ok(Flow::Next);
            }
            Flow::Next => {}
            other => return Ok(other),
        }
        let p = self.p;
        // Durations counted at a place end right before a turn begins at that place.
        self.count_down_places(a);
        match self.effect_hooks(span)? {
            Flow::Next => {}
            other => return Ok(other),
        }
        self.emit(Event::TurnStart { actor: a });
        self.acting.push(a);
        // `flag F per turn`: the actor's clear as its turn starts (traced when one was set).
        for &f in &p.turn_clears {
            if p.fields[f as usize].owner == self.types.get(a as usize).copied().unwrap_or(0) && self.get(a, f) != 0 {
                self.put(a, f, 0);
                self.emit(Event::Flag {
                    actor: a,
                    flag: f,
                    on: false,
                });
            }
        }
        self.turns.push(a);
        self.clear_any_turn();
        self.count_down(Anchor::TurnStart(a));
        self.expire_ready(Anchor::TurnStart(a));
        let mut flow = self.effect_hooks(span)?;
        if let Flow::Next = flow {
            flow = self.turn_hooks(&p.turn_start, a, span)?;
        }
        if let Flow::Next = flow {
            flow = self.block(body)?;
        }
        // The turn is over, however it ended, unless the run itself is stopping.
        if !matches!(flow, Flow::Stop(_)) {
            let outer = self.ending.replace(Anchor::TurnEnd(a));
            match self.turn_hooks(&p.turn_end, a, span)? {
                Flow::Next => {}
                other => flow = flow.then(other),
            }
            self.ending = outer;
            self.count_down(Anchor::TurnEnd(a));
            self.expire_ready(Anchor::TurnEnd(a));
            match self.end_edge_hooks(Anchor::TurnEnd(a), span)? {
                Flow::Next => {}
                other => flow = flow.then(other),
            }
        }
        self.clear_react_marks(!matches!(flow, Flow::Stop(_)));
        self.turns.pop();
        self.acting.pop();
        self.emit(Event::TurnEnd { actor: a });
        // `on after turn(c)`: after the turn is over, outside it (a delayed turn does not nest).
        if matches!(flow, Flow::Next) {
            flow = self.turn_hooks(&p.turn_after, a, span)?;
        }
        // Attempts made once the turn is over.
        if matches!(flow, Flow::Next) {
            flow = self.moment(Moment::AfterTurn(a), span)?;
        }
        Ok(flow)
    }
}

impl Machine<'_> {
    /// A turn in a program whose turns' edges can have no work (`Fixed::turn_edges`), with no
    /// attempt asked at moments: what [`Machine::st_turn`] does when every list it visits is
    /// empty (the turn traced, its body run), without visiting them.
    fn plain_turn(&mut self, actor: &Ex, body: &Block, span: Span) -> R<Flow> {
        let a = self.alive(actor, span)?;
        self.emit(Event::TurnStart { actor: a });
        self.acting.push(a);
        self.turns.push(a);
        let mut flow = self.block(body)?;
        self.turns.pop();
        self.acting.pop();
        self.emit(Event::TurnEnd { actor: a });
        // A ruling made in the turn may have queued an attempt for the moment after it.
        if matches!(flow, Flow::Next) {
            flow = self.moment(Moment::AfterTurn(a), span)?;
        }
        Ok(flow)
    }
}

/// The numbers of a level's iterations: 1, 2, 3, ... or, with `counting`, from a first number up
/// or down, to a last one or wrapping round within a range.
struct Numbers {
    next: i64,
    step: i64,
    last: Option<i64>,
    within: Option<(i64, i64)>,
    done: bool,
}

impl Numbers {
    fn plain() -> Self {
        Numbers {
            next: 1,
            step: 1,
            last: None,
            within: None,
            done: false,
        }
    }

    /// Reads `counting` as the level begins; a range that is empty or does not hold the first
    /// number is an error.
    fn new(m: &mut Machine<'_>, c: &CountingEx, span: Span) -> R<Self> {
        let from = m.eval(&c.from, NO_CTX)?;
        let last = match &c.to {
            Some(t) => Some(m.eval(t, NO_CTX)?),
            None => None,
        };
        let within = match &c.within {
            Some((lo, hi)) => Some((m.eval(lo, NO_CTX)?, m.eval(hi, NO_CTX)?)),
            None => None,
        };
        let bad =
            |msg: String| {
                Box::new(Diag::new("run::counting", msg).label(span, "this level").help(
                    "a level's numbers are whole numbers from 0 up; `within LOW to HIGH` needs LOW <= first <= HIGH",
                ))
            };
        if from < 0 || last.is_some_and(|l| l < 0) {
            return Err(bad(format!(
                "a level cannot be numbered below 0 (it counts from {from})"
            )));
        }
        if let Some((lo, hi)) = within
            && !(0 <= lo && lo <= from && from <= hi)
        {
            return Err(bad(format!("the first number {from} is not within {lo} to {hi}")));
        }
        // Counting the wrong way to the last number would run no iteration at all.
        if let Some(last) = last
            && (if c.down { last > from } else { last < from })
        {
            let (way, other) = if c.down { ("down", "") } else { ("up", " down") };
            return Err(Box::new(
                Diag::new(
                    "run::counting",
                    format!("counting {way} from {from} never reaches {last}: the level would run no iteration"),
                )
                .label(span, "this level")
                .help(format!(
                    "write `counting from {from}{other} to {last}`, or guard the level with `if`"
                )),
            ));
        }
        Ok(Numbers {
            next: from,
            step: if c.down { -1 } else { 1 },
            last,
            within,
            done: false,
        })
    }

    /// Whether the level stops by itself at a last number.
    fn bounded(&self) -> bool {
        self.last.is_some()
    }

    /// Whether the numbers ever come to `n` (for `--until`).
    fn reaches(&self, n: u64) -> bool {
        let Ok(n) = i64::try_from(n) else {
            return false;
        };
        match (self.within, self.step < 0) {
            (Some((lo, hi)), _) => (lo..=hi).contains(&n),
            (None, false) => n >= self.next && self.last.is_none_or(|l| n <= l),
            (None, true) => n <= self.next && n >= self.last.unwrap_or(0).max(0),
        }
    }

    /// The numbers, for a message: "it counts from 5 up".
    fn describe(&self) -> String {
        let way = if self.step < 0 { "down" } else { "up" };
        match (self.within, self.last) {
            (Some((lo, hi)), _) => format!("it counts from {} {way} within {lo} to {hi}", self.next),
            (None, Some(l)) => format!("it counts from {} {way} to {l}", self.next),
            (None, None) => format!("it counts from {} {way}", self.next),
        }
    }

    /// The next iteration's number; `None` once past the last number (or below 0 counting down).
    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let n = self.next;
        if let Some(last) = self.last {
            let past = if self.step < 0 { n < last } else { n > last };
            if past {
                return None;
            }
            self.done = n == last;
        }
        if n < 0 {
            return None;
        }
        let after = match (n.checked_add(self.step), self.within) {
            (Some(a), Some((lo, hi))) if a > hi => lo,
            (Some(a), Some((lo, hi))) if a < lo => hi,
            (Some(a), _) => a,
            // Past the largest number: round again within a range, else there is no next.
            (None, Some((lo, _))) => lo,
            (None, None) => {
                self.done = true;
                n
            }
        };
        self.next = after;
        Some(n as u64)
    }
}

impl Machine<'_> {
    /// `flag F per any turn`: cleared for everyone as any turn starts (traced when one was set).
    #[inline]
    fn clear_any_turn(&mut self) {
        if !self.p.any_turn_clears.is_empty() {
            self.clear_any_turn_flags();
        }
    }

    #[inline(never)]
    fn clear_any_turn_flags(&mut self) {
        let p = self.p;
        for &f in &p.any_turn_clears {
            let owner = p.fields[f as usize].owner;
            for e in 0..self.types.len() {
                if self.types[e] == owner && self.get(e as EntityId, f) != 0 {
                    self.put(e as EntityId, f, 0);
                    self.emit(Event::Flag {
                        actor: e as EntityId,
                        flag: f,
                        on: false,
                    });
                }
            }
        }
    }

    /// A `per turn` flag marked while its owner acts out of turn (a `react` window) during
    /// another's turn belongs to that turn: kept, to clear as that turn ends. Only when it was
    /// not set already (`was`): one set in the owner's own turn lasts until its next turn. Marked
    /// in the owner's own turn (one stepped in inside another's), it is no reaction's any more.
    pub(super) fn mark_in_reaction(&mut self, e: EntityId, f: FieldId, was: bool) {
        let Some(&turn) = self.turns.last() else {
            return;
        };
        if turn == e {
            self.react_marks.retain(|m| (m.1, m.2) != (e, f));
            return;
        }
        let mark = (self.turns.len(), e, f);
        if !was && self.acting.contains(&e) && self.p.turn_clears.contains(&f) && !self.react_marks.contains(&mark) {
            self.react_marks.push(mark);
        }
    }

    /// As a turn ends: the `per turn` flags marked in reactions during it clear (traced when
    /// still set), unless the run is stopping (`clear`: false).
    #[inline]
    fn clear_react_marks(&mut self, clear: bool) {
        if self.react_marks.is_empty() {
            return;
        }
        self.clear_marks_of_turn(clear);
    }

    #[inline(never)]
    fn clear_marks_of_turn(&mut self, clear: bool) {
        let depth = self.turns.len();
        let start = self
            .react_marks
            .iter()
            .position(|m| m.0 >= depth)
            .unwrap_or(self.react_marks.len());
        for i in start..self.react_marks.len() {
            let (_, e, f) = self.react_marks[i];
            if clear && self.get(e, f) != 0 {
                self.put(e, f, 0);
                self.emit(Event::Flag {
                    actor: e,
                    flag: f,
                    on: false,
                });
            }
        }
        self.react_marks.truncate(start);
    }
}
