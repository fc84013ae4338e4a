//! Moments: `together { ... }` blocks, the changes deferred to the end of a moment or of a level's
//! iteration (`... at end of moment`, `... at end of LEVEL`), walks whose tied groups act as one
//! moment (`by ORDER ties together`), walks that pick again (`repeat for first ...`), and the
//! tie-breakers a re-sorting walk keeps while a tie lasts (`TieMemo`).

use super::state::{Machine, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::MAX_DEFERRED;
use crate::source::Span;
use crate::trace::{Change, Event};

/// The moments open and the changes waiting for their ends.
#[derive(Default)]
pub(super) struct Moments {
    /// How many moments are open: the innermost one's number (0: none).
    open: u32,
    /// The changes waiting, in the order they were deferred.
    queue: Vec<Waiting>,
    /// The changes being made at an end (reused).
    due: Vec<Waiting>,
}

/// What a deferred change waits for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    /// The end of the moment open at this depth.
    Moment(u32),
    /// The end of the level's current iteration.
    Level(LevelId),
}

/// A change with its target and amount worked out.
#[derive(Clone, Copy)]
enum Pending {
    Spend(EntityId, FieldId, i64),
    Gain(EntityId, FieldId, i64),
    Reset(EntityId, FieldId, i64),
    Forfeit(EntityId, FieldId),
    Set(EntityId, FieldId, i64),
    Mark(EntityId, FieldId, bool),
    Transfer((EntityId, FieldId), (EntityId, FieldId), i64),
    Presence(EntityId, bool),
    Destroy(EntityId),
    Begin(FieldId, EntityId, i64, Anchor),
    Stop(FieldId, EntityId),
}

#[derive(Clone, Copy)]
struct Waiting {
    until: Until,
    change: Pending,
    span: Span,
}

impl Pending {
    /// The statement's word, for the `lapsed` event.
    fn word(self) -> &'static str {
        match self {
            Pending::Spend(..) => "spend",
            Pending::Gain(..) => "gain",
            Pending::Reset(..) => "reset",
            Pending::Forfeit(..) => "forfeit",
            Pending::Set(..) => "set",
            Pending::Mark(_, _, true) => "mark",
            Pending::Mark(_, _, false) => "clear",
            Pending::Transfer(..) => "transfer",
            Pending::Presence(_, true) => "join",
            Pending::Presence(_, false) => "leave",
            Pending::Destroy(..) => "destroy",
            Pending::Begin(..) => "begin",
            Pending::Stop(..) => "stop",
        }
    }

    /// The entities it changes (the giver first), each with the field or effect it names there.
    fn parties(self) -> [Option<(EntityId, Option<FieldId>)>; 2] {
        match self {
            Pending::Spend(e, f, _)
            | Pending::Gain(e, f, _)
            | Pending::Reset(e, f, _)
            | Pending::Forfeit(e, f)
            | Pending::Set(e, f, _)
            | Pending::Mark(e, f, _)
            | Pending::Begin(f, e, _, _)
            | Pending::Stop(f, e) => [Some((e, Some(f))), None],
            Pending::Transfer((a, f), (b, g), _) => [Some((a, Some(f))), Some((b, Some(g)))],
            Pending::Presence(e, _) | Pending::Destroy(e) => [Some((e, None)), None],
        }
    }
}

impl Machine<'_> {
    /// Opens a moment: the changes deferred `at end of moment` from now on wait for its end.
    pub(super) fn open_moment(&mut self) {
        self.moments.open += 1;
    }

    /// Closes the innermost moment: its deferred changes are made now, in the order they were
    /// deferred (with their usual events), unless the encounter is ending (`flow`).
    pub(super) fn close_moment(&mut self, flow: Flow, span: Span) -> R<Flow> {
        let depth = self.moments.open;
        let flow = self.settle(Until::Moment(depth), flow, span);
        self.moments.open = depth.saturating_sub(1);
        flow
    }

    /// The changes deferred to the end of `level`'s current iteration, made as it ends (before
    /// its `on end of` hooks), unless the encounter is ending.
    pub(super) fn settle_level(&mut self, level: LevelId, flow: Flow, span: Span) -> R<Flow> {
        self.settle(Until::Level(level), flow, span)
    }

    /// `together { ... }`: a moment with no walk, traced as a `together` group of no one; secret
    /// choices made in it are revealed, and then its deferred changes made, as it ends.
    pub(super) fn st_moment(&mut self, body: &Block, span: Span) -> R<Flow> {
        self.emit(Event::TogetherStart { actors: &[] });
        self.open_moment();
        self.open_secrets();
        let flow = self.block(body);
        let flow = match flow {
            Ok(f) => self.reveal_secrets(f),
            Err(e) => Err(e),
        };
        let flow = match flow {
            Ok(f) => self.close_moment(f, span),
            Err(e) => {
                self.moments.open = self.moments.open.saturating_sub(1);
                Err(e)
            }
        }?;
        self.emit(Event::TogetherEnd);
        Ok(flow)
    }

    /// `CHANGE at end of ...`: whose field and how much are worked out now (dice rolled and
    /// traced now); the change waits in the queue.
    pub(super) fn st_deferred(&mut self, change: &St, level: Option<LevelId>, at: Span, span: Span) -> R<Flow> {
        let until = match level {
            None if self.moments.open == 0 => {
                return Err(Box::new(
                    Diag::new("run::no_moment", "this change waits for the end of a moment, but no moment is open")
                        .label(at, "deferred to the end of the moment")
                        .help("perform it inside `together { ... }`, a `together for each` walk or a `... ties together` walk, or defer it to a level: `at end of LEVEL`"),
                ));
            }
            None => Until::Moment(self.moments.open),
            Some(l) if !self.running.get(l as usize).copied().unwrap_or(false) => {
                let name = &self.p.levels[l as usize].name;
                return Err(Box::new(
                    Diag::new(
                        "run::no_moment",
                        format!("this change waits for the end of `{name}`, but `{name}` is not running"),
                    )
                    .label(at, "deferred to the end of the level's iteration")
                    .help("defer it to a level that is running where this runs, or to the end of the moment: `at end of moment`"),
                ));
            }
            Some(l) => Until::Level(l),
        };
        let pending = self.work_out(change, span)?;
        if self.moments.queue.len() >= MAX_DEFERRED {
            return Err(Box::new(
                Diag::new(
                    "run::too_many_deferred",
                    format!("more than {MAX_DEFERRED} changes wait for the end of a moment"),
                )
                .label(span, "deferred here")
                .help("a moment or level that never ends keeps what is deferred to its end: end it, or make the change now"),
            ));
        }
        self.moments.queue.push(Waiting {
            until,
            change: pending,
            span,
        });
        Ok(Flow::Next)
    }

    /// The target and amount of a change statement, now.
    fn work_out(&mut self, change: &St, span: Span) -> R<Pending> {
        Ok(match change {
            St::Spend { amount, target, span } => {
                let e = self.owner(target, *span)?;
                Pending::Spend(e, target.field, self.amount(amount.as_ref(), e, target)?)
            }
            St::Gain { amount, target, span } => {
                let e = self.owner(target, *span)?;
                Pending::Gain(e, target.field, self.value_for(amount, e, target)?)
            }
            St::Reset { target, value, span } => {
                let e = self.owner(target, *span)?;
                Pending::Reset(e, target.field, self.value_for(value, e, target)?)
            }
            St::Forfeit { target } => Pending::Forfeit(self.owner(target, target.span)?, target.field),
            St::Set { target, value, span } => {
                let e = self.owner(target, *span)?;
                Pending::Set(e, target.field, self.value_for(value, e, target)?)
            }
            St::Mark { target, on } => Pending::Mark(self.owner(target, target.span)?, target.field, *on),
            St::Transfer { amount, from, to, span } => {
                let a = self.owner(from, *span)?;
                let b = self.owner(to, *span)?;
                let n = self.amount(amount.as_ref(), a, from)?;
                Pending::Transfer((a, from.field), (b, to.field), n)
            }
            St::Presence { who, join, span } => Pending::Presence(self.entity(who, *span)?, *join),
            St::Destroy { what, span } => Pending::Destroy(self.alive(what, *span)?),
            St::Stop { effect, target, span } => Pending::Stop(*effect, self.entity(target, *span)?),
            St::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => {
                let (t, n, anchor) = self.begin_parts(target, count, at, *span)?;
                Pending::Begin(*effect, t, n, anchor)
            }
            _ => {
                return Err(Box::new(
                    Diag::new("internal", "only a change can be deferred to the end of a moment")
                        .label(span, "deferred here")
                        .help("this is a bug in turnscript: please report it"),
                ));
            }
        })
    }

    /// Makes the changes waiting for `until`, in order; those its changes defer to it again (a
    /// `join` hook's) are made after them. When the encounter is ending (`end encounter`,
    /// `--until`, the default stop) they are dropped, untraced: nothing takes effect after the end.
    #[inline]
    fn settle(&mut self, until: Until, flow: Flow, span: Span) -> R<Flow> {
        // Nothing waits (no change was deferred, or all have been made): nothing to do.
        if self.moments.queue.is_empty() {
            return Ok(flow);
        }
        self.settle_waiting(until, flow, span)
    }

    /// [`Machine::settle`] when some changes wait.
    #[inline(never)]
    fn settle_waiting(&mut self, until: Until, mut flow: Flow, span: Span) -> R<Flow> {
        loop {
            let mut due = std::mem::take(&mut self.moments.due);
            due.clear();
            let queue = &mut self.moments.queue;
            if !queue.iter().any(|w| w.until == until) {
                self.moments.due = due;
                return Ok(flow);
            }
            due.extend(queue.iter().filter(|w| w.until == until).copied());
            queue.retain(|w| w.until != until);
            for w in &due {
                if matches!(flow, Flow::End(None, _) | Flow::Stop(_)) {
                    break;
                }
                self.tick(span)?;
                match self.apply(w.change, w.span)? {
                    Flow::Next => {}
                    other => flow = flow.then_hook(other),
                }
            }
            self.moments.due = due;
        }
    }

    /// One deferred change, made now with its usual events; on an entity destroyed meanwhile it
    /// lapses, traced as such (one out of play keeps its fields: the change is made).
    fn apply(&mut self, change: Pending, span: Span) -> R<Flow> {
        if let Some((gone, field)) = change
            .parties()
            .into_iter()
            .flatten()
            .find(|(e, _)| self.gone.get(*e as usize).copied().unwrap_or(false))
        {
            self.emit(Event::Lapsed {
                actor: gone,
                change: change.word(),
                field,
            });
            return Ok(Flow::Next);
        }
        match change {
            Pending::Spend(e, f, n) => self.spend(e, f, n, span)?,
            Pending::Gain(e, f, n) => {
                let have = self.read(e, f, span)?;
                let new = self.clamp_for(e, f, super::state::checked(have.checked_add(n), span)?)?;
                self.put_traced(Change::Gain, e, f, new - have, new);
            }
            Pending::Reset(e, f, v) => {
                let v = self.clamp_for(e, f, v)?;
                self.put_traced(Change::Reset, e, f, v, v);
            }
            Pending::Forfeit(e, f) => self.forfeit(e, f, span)?,
            Pending::Set(e, f, v) => self.put_traced(Change::Set, e, f, v, v),
            Pending::Mark(e, f, on) => {
                self.put(e, f, on as i64);
                self.emit(Event::Flag { actor: e, flag: f, on });
            }
            Pending::Transfer(from, to, n) => self.move_amount(from, to, n, span)?,
            Pending::Presence(e, join) => return self.presence(e, join, span),
            Pending::Destroy(e) => self.destroy(e),
            Pending::Begin(effect, e, n, anchor) => {
                self.begin_effect(effect, e, n, anchor);
                return self.effect_hooks(span);
            }
            Pending::Stop(effect, e) => {
                self.stop_effect(effect, e);
                return self.effect_hooks(span);
            }
        }
        Ok(Flow::Next)
    }
}

impl Flow {
    /// The flow after a deferred change's hooks gave `hook`: the first that is not going on.
    fn then_hook(self, hook: Flow) -> Flow {
        match self {
            Flow::Next => hook,
            other => other,
        }
    }
}

/// The tie-breakers a walk that sorts again (`anew`, `repeat for first`) keeps while a tie lasts:
/// each member's roll-off results (one per roll of `until settled`) and its place in a `chosen
/// by` answer, per key, with the values of the order's value keys before that key when they were
/// given. At a later sort a member whose value keys before the key are the same keeps them: it is
/// not rolled for again, nor asked about; one new to the tie, or whose values changed, is.
#[derive(Default)]
pub(super) struct TieMemo {
    /// In the sort under way: each member's values of the value keys evaluated so far, by member.
    pre: Vec<(EntityId, Vec<i64>)>,
    /// What each tie-breaking key gave each member, by (key, member).
    kept: Vec<Kept>,
    /// The next place to hand out in a `chosen by` answer (places only grow, so members placed
    /// at different times keep their order among themselves).
    next_place: i64,
}

struct Kept {
    key: usize,
    e: EntityId,
    /// The member's values of the value keys before `key`, when it was given.
    prefix: Vec<i64>,
    /// The rolls (one per roll of the group), or the member's place in a `chosen by` answer.
    values: Vec<i64>,
}

/// What a value key with a `when` that did not hold gave (nothing sorts on it).
pub(super) const SKIPPED: i64 = i64::MIN;

impl TieMemo {
    /// A sort begins over `ids`: no value key evaluated yet.
    pub(super) fn begin(&mut self, ids: &[EntityId]) {
        // The members' lists are reused from sort to sort.
        self.pre.truncate(ids.len());
        for (slot, e) in self.pre.iter_mut().zip(ids) {
            slot.0 = *e;
            slot.1.clear();
        }
        let have = self.pre.len();
        self.pre.extend(ids[have..].iter().map(|e| (*e, Vec::new())));
        self.pre.sort_unstable_by_key(|p| p.0);
    }

    /// `e`'s value of the value key just evaluated.
    pub(super) fn value(&mut self, e: EntityId, v: i64) {
        if let Ok(i) = self.pre.binary_search_by_key(&e, |p| p.0) {
            self.pre[i].1.push(v);
        }
    }

    fn prefix(&self, e: EntityId) -> &[i64] {
        match self.pre.binary_search_by_key(&e, |p| p.0) {
            Ok(i) => &self.pre[i].1,
            Err(_) => &[],
        }
    }

    fn find(&self, key: usize, e: EntityId) -> Result<usize, usize> {
        self.kept.binary_search_by(|k| (k.key, k.e).cmp(&(key, e)))
    }

    /// What `key` gave `e` the `round`-th time, if it is kept (the same value keys before it).
    pub(super) fn roll(&self, key: usize, e: EntityId, round: usize) -> Option<i64> {
        let k = &self.kept[self.find(key, e).ok()?];
        (k.prefix == self.prefix(e))
            .then(|| k.values.get(round).copied())
            .flatten()
    }

    /// Keeps what `key` gave `e` the `round`-th time (the rounds after it are forgotten).
    pub(super) fn keep_roll(&mut self, key: usize, e: EntityId, round: usize, v: i64) {
        let prefix = self.prefix(e).to_vec();
        let i = match self.find(key, e) {
            Ok(i) => i,
            Err(i) => {
                self.kept.insert(
                    i,
                    Kept {
                        key,
                        e,
                        prefix: Vec::new(),
                        values: Vec::new(),
                    },
                );
                i
            }
        };
        let k = &mut self.kept[i];
        if k.prefix != prefix {
            k.prefix = prefix;
            k.values.clear();
        }
        k.values.truncate(round);
        k.values.push(v);
    }

    /// `e`'s place in a kept `chosen by` answer of `key`.
    pub(super) fn place(&self, key: usize, e: EntityId) -> Option<i64> {
        self.roll(key, e, 0)
    }

    /// Gives `e` the next place in `key`'s answer.
    pub(super) fn keep_place(&mut self, key: usize, e: EntityId) {
        let place = self.next_place;
        self.next_place += 1;
        self.keep_roll(key, e, 0, place);
    }
}
