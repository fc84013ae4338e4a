//! Stage 4: the runtime. Runs a [`Program`] and emits its trace of events to a [`Sink`].
//!
//! A tree-walking interpreter over the compiled form: every name is already a slot, so the run
//! loop touches no strings and no hash maps. It charges one step per statement and per loop
//! iteration against a budget, and all arithmetic is checked.

pub mod control;
pub mod decide;
pub mod dice;

use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::{DEFAULT_OUTER_LIMIT, MAX_CALL_DEPTH, MAX_RUN_NESTING, MAX_TIE_ROLLS, MAX_TRIGGER_ARGS};
use crate::source::Span;
use crate::syntax::ast::{BinOp, Keep, Quant};
use crate::trace::{Change, EndReason, Event, Sink, World};
use decide::{Decider, DecisionPoint};
use dice::DiceStream;

/// Runs `f` on a thread with [`crate::limits::RUN_STACK_BYTES`] of stack, so the deepest nesting
/// the limits allow is an error, never a stack overflow. (Only the pages used are ever touched.)
pub fn on_run_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("turnscript-run".into())
            .stack_size(crate::limits::RUN_STACK_BYTES)
            .spawn_scoped(scope, f);
        match spawned.map(|h| h.join()) {
            Ok(Ok(v)) => v,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            // No thread could be made: nothing else can be done here.
            Err(e) => panic!("cannot start the run thread: {e}"),
        }
    })
}

/// How to run: the seed, forced rolls, the step budget and where to stop.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub seed: u64,
    pub rolls: Vec<i64>,
    pub max_steps: u64,
    /// Stop after the N-th iteration of a level. `None`: the ruleset's own end, or the default
    /// stop: the first level repeating with no condition to finish [`DEFAULT_OUTER_LIMIT`]
    /// iterations.
    pub until: Option<(LevelId, u64)>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            seed: 0,
            rolls: Vec::new(),
            max_steps: crate::limits::DEFAULT_MAX_STEPS,
            until: None,
        }
    }
}

/// What a finished run reports besides its trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub reason: EndReason,
    pub steps: u64,
    /// Forced rolls never used.
    pub unused_rolls: usize,
}

/// Runs an encounter to its end, emitting every event to `sink`. A runtime error stops the run;
/// the events before it have been emitted.
pub fn run(p: &Program, cfg: &RunConfig, decider: &mut dyn Decider, sink: &mut dyn Sink) -> Result<Outcome, Diag> {
    run_with(p, cfg, decider, sink, None, Vec::new())
}

/// [`run`] with a [`control::Control`] consulted at each decision instead of `decider`, and the
/// characters that start out of play (`absent[id]`; their fields are set when they join).
fn run_with<'a>(
    p: &'a Program,
    cfg: &RunConfig,
    decider: &'a mut dyn Decider,
    sink: &'a mut dyn Sink,
    control: Option<&'a mut dyn control::Control>,
    mut absent: Vec<bool>,
) -> Result<Outcome, Diag> {
    absent.resize(p.characters.len(), false);
    let n_fields = p.fields.len();
    let types: Vec<TypeId> = p.characters.iter().map(|c| c.ty).collect();
    let (until, until_default) = (cfg.until, cfg.until.is_none());
    let mut m = Machine {
        p,
        n_fields,
        values: vec![0; n_fields * p.characters.len()],
        globals: vec![0; n_fields],
        limits: vec![(None, None); n_fields],
        locals: vec![0; p.n_locals.max(1)],
        counters: vec![0; p.levels.len()],
        dice: DiceStream::new(cfg.seed, &cfg.rolls),
        faces: Vec::new(),
        steps: 0,
        max_steps: cfg.max_steps,
        loops: Vec::new(),
        until,
        until_default,
        decider,
        sink,
        ranked: vec![Vec::new(); p.orders.len()],
        clock: 0,
        saved: Vec::new(),
        depth: 0,
        nesting: 0,
        effects: Vec::new(),
        walking: Vec::new(),
        control,
        absent,
        types,
        made: Vec::new(),
        serials: vec![0; p.things.len()],
    };
    m.emit(Event::EncounterStart { seed: cfg.seed });
    m.init()?;
    let mut reason = EndReason::Complete;
    for part in [&p.setup, &p.play] {
        match m.block(part)? {
            Flow::Next | Flow::EndRepeat => {}
            // `end encounter`, or an `end` of a level that `play` is not inside: the run is over.
            Flow::End(_, r) => {
                reason = EndReason::Ended(r);
                break;
            }
            Flow::Stop(r) => {
                reason = r;
                break;
            }
        }
    }
    m.emit(Event::EncounterEnd { reason: reason.clone() });
    Ok(Outcome {
        reason,
        steps: m.steps,
        unused_rolls: m.dice.forced_left(),
    })
}

/// What a `for each` walks and how.
#[derive(Clone, Copy)]
struct Walk {
    var: Slot,
    coll: Coll,
    backwards: bool,
    /// Where the walk starts, wrapping round.
    from: Option<EntityId>,
    order: Option<OrderId>,
}

/// How a statement finished.
enum Flow {
    Next,
    /// `end LEVEL` (or `end encounter` with `None`), with the `because` text.
    End(Option<LevelId>, Option<u16>),
    /// `--until` or the default limit was reached.
    Stop(EndReason),
    /// `end repeat`: leave the innermost `repeat` loop.
    EndRepeat,
}

/// Who a roll is for, for the trace.
#[derive(Clone, Copy)]
struct Ctx {
    label: LabelId,
    actor: Option<EntityId>,
}

const NO_LABEL: LabelId = LabelId::MAX;

type R<T> = Result<T, Diag>;

struct Machine<'a> {
    p: &'a Program,
    n_fields: usize,
    /// Every character's fields, character-major.
    values: Vec<i64>,
    /// The table's globals, by field id.
    globals: Vec<i64>,
    limits: Vec<(Option<i64>, Option<i64>)>,
    locals: Vec<i64>,
    counters: Vec<u64>,
    dice: DiceStream,
    faces: Vec<u32>,
    steps: u64,
    max_steps: u64,
    /// Spans of the loops being run, innermost last: named by a step-budget error.
    loops: Vec<Span>,
    until: Option<(LevelId, u64)>,
    until_default: bool,
    decider: &'a mut dyn Decider,
    sink: &'a mut dyn Sink,
    /// Each order's kept ranking, from its last `rank`.
    ranked: Vec<Vec<EntityId>>,
    /// The game clock, in the base unit.
    clock: i64,
    /// Slots saved by the actions and hooks running, so they may nest.
    saved: Vec<i64>,
    /// How many actions and hooks are running.
    depth: u32,
    /// How many blocks are running, one inside another.
    nesting: u32,
    /// The effects running, in the order they began.
    effects: Vec<Active>,
    /// The kept-order walks under way, innermost last: the order and the place reached.
    walking: Vec<(OrderId, usize)>,
    /// Consulted at each decision instead of the decider, when set (see `control.rs`).
    control: Option<&'a mut dyn control::Control>,
    /// Entities out of play (characters not yet joined, things destroyed): skipped by every
    /// loop, quantifier, choice and `rank`.
    absent: Vec<bool>,
    /// Every entity's type: the declared ones, then those made by `create`.
    types: Vec<TypeId>,
    /// The names of the entities made by `create`, in the order they were made.
    made: Vec<String>,
    /// How many of each type `create` has made (their names count from 1).
    serials: Vec<u32>,
}

/// An effect running on a character, and how many more counts it lasts.
pub(crate) struct Active {
    effect: FieldId,
    target: EntityId,
    left: i64,
    anchor: Anchor,
}

const NO_CTX: Ctx = Ctx {
    label: NO_LABEL,
    actor: None,
};

impl Machine<'_> {
    fn emit(&mut self, e: Event<'_>) {
        let w = World {
            p: self.p,
            made: &self.made,
        };
        self.sink.event(&w, &e);
    }

    fn tick(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps > self.max_steps {
            let at = self.loops.last().copied().unwrap_or(span);
            return Err(Diag::new(
                "run::step_budget",
                format!("the run took more than {} steps", self.max_steps),
            )
            .label(at, "this loop was still running")
            .help(if self.until_default {
                "check that the loop's condition can become false, or raise the budget with --max-steps"
            } else {
                "check that the loop's condition can become false, that the iteration --until names is ever reached (a level's count restarts each time it is entered), or raise the budget with --max-steps"
            }));
        }
        Ok(())
    }

    /// Whose field a target names: an entity's, or the table's (a global).
    fn owner(&self, t: &Target, span: Span) -> R<EntityId> {
        match t.var {
            None => Ok(TABLE),
            Some(s) => self.id(self.locals[s as usize], span),
        }
    }

    /// A value as an entity: `none` (or anything else no entity has) is an error here.
    fn id(&self, v: i64, span: Span) -> R<EntityId> {
        if v >= 0 && (v as usize) < self.types.len() {
            return Ok(v as EntityId);
        }
        Err(Diag::new("run::none", "this names no entity: it is `none`")
            .label(span, "used here")
            .help("test it first, e.g. `if x != none { ... }`, or filter the loop with `where x != none`"))
    }

    /// Evaluates an expression giving an entity.
    fn entity(&mut self, e: &Ex, span: Span) -> R<EntityId> {
        let v = self.eval(e, NO_CTX)?;
        self.id(v, span)
    }

    /// The entities of a collection, in its order (those out of play included).
    fn members(&self, coll: Coll) -> Vec<EntityId> {
        match coll {
            Coll::All(t) => (0..self.types.len() as EntityId)
                .filter(|e| self.types[*e as usize] == t)
                .collect(),
            Coll::Ranked(o) => self.ranked[o as usize].clone(),
        }
    }

    /// The world the trace views name entities in: the program, and the names `create` gave.
    fn world(&self) -> World<'_> {
        World {
            p: self.p,
            made: &self.made,
        }
    }

    fn get(&self, e: EntityId, f: FieldId) -> i64 {
        if e == TABLE {
            return self.globals.get(f as usize).copied().unwrap_or(0);
        }
        self.values
            .get(e as usize * self.n_fields + f as usize)
            .copied()
            .unwrap_or(0)
    }

    fn put(&mut self, e: EntityId, f: FieldId, v: i64) {
        if e == TABLE {
            if let Some(slot) = self.globals.get_mut(f as usize) {
                *slot = v;
            }
            return;
        }
        if let Some(slot) = self.values.get_mut(e as usize * self.n_fields + f as usize) {
            *slot = v;
        }
    }

    fn clamp(&self, f: FieldId, v: i64) -> i64 {
        let (lo, hi) = self.limits[f as usize];
        let v = hi.map_or(v, |h| v.min(h));
        lo.map_or(v, |l| v.max(l))
    }

    /// Resource limits, then every character's fields in declaration order.
    fn init(&mut self) -> R<()> {
        let p = self.p;
        for (i, f) in p.fields.iter().enumerate() {
            let ctx = Ctx {
                label: NO_LABEL,
                actor: None,
            };
            let lo = f.min.as_ref().map(|e| self.eval(e, ctx)).transpose()?;
            let hi = f.max.as_ref().map(|e| self.eval(e, ctx)).transpose()?;
            self.limits[i] = (lo, hi);
        }
        for (i, f) in p.fields.iter().enumerate() {
            if f.kind == FieldKind::Global
                && let Some(e) = &f.default
            {
                let v = self.eval(e, NO_CTX)?;
                let v = self.clamp(i as FieldId, v);
                self.put(TABLE, i as FieldId, v);
            }
        }
        for id in 0..p.characters.len() {
            // A character out of play from the start gets its fields when it joins.
            if !self.absent[id] {
                self.init_character(id as EntityId)?;
            }
        }
        Ok(())
    }

    /// Sets one declared entity's fields: given values, else defaults, in declaration order.
    fn init_character(&mut self, id: EntityId) -> R<()> {
        let p = self.p;
        if let Some(ch) = p.characters.get(id as usize) {
            self.init_fields(id, ch.ty, &ch.fields)?;
        }
        Ok(())
    }

    /// Sets the fields of entity `id` of type `ty`: given values (evaluated now, in the current
    /// frame), else the fields' defaults.
    fn init_fields(&mut self, id: EntityId, ty: TypeId, given: &[(FieldId, Ex)]) -> R<()> {
        let p = self.p;
        for (fi, f) in p.fields.iter().enumerate() {
            if f.kind == FieldKind::Global || f.owner != ty {
                continue;
            }
            let value = given.iter().find(|(g, _)| *g as usize == fi).map(|(_, e)| e);
            let Some(e) = value.or(f.default.as_ref()) else {
                continue;
            };
            let v = self.eval(
                e,
                Ctx {
                    label: NO_LABEL,
                    actor: Some(id),
                },
            )?;
            let v = if f.kind == FieldKind::Resource {
                self.clamp(fi as FieldId, v)
            } else {
                v
            };
            self.put(id, fi as FieldId, v);
        }
        Ok(())
    }

    /// `create`: a new entity of type `ty`, in play from now, named after its type.
    fn create(&mut self, ty: TypeId, given: &[(FieldId, Ex)], span: Span) -> R<EntityId> {
        if self.types.len() >= crate::limits::MAX_ENTITIES {
            return Err(Diag::new(
                "run::too_many",
                format!(
                    "more than {} entities in play at once or made in one run",
                    crate::limits::MAX_ENTITIES
                ),
            )
            .label(span, "one too many made here")
            .help("`destroy` what is no longer needed does not free its place; check that this loop can end"));
        }
        let id = self.types.len() as EntityId;
        self.types.push(ty);
        self.absent.push(false);
        self.values.resize(self.values.len() + self.n_fields, 0);
        let serial = self.serials.get_mut(ty as usize).map_or(1, |s| {
            *s += 1;
            *s
        });
        let kind = self.p.things.get(ty as usize).map_or("thing", |t| t.0.as_str());
        self.made.push(format!("{kind} {serial}"));
        // Given values may read the slots the caller has bound.
        self.init_fields(id, ty, given)?;
        Ok(id)
    }

    fn block(&mut self, stmts: &[St]) -> R<Flow> {
        self.nesting += 1;
        let flow = self.block_inner(stmts);
        self.nesting -= 1;
        flow
    }

    fn block_inner(&mut self, stmts: &[St]) -> R<Flow> {
        for s in stmts {
            if self.nesting > MAX_RUN_NESTING
                && let Some(span) = stmt_span(s)
            {
                return Err(too_deep(span));
            }
            match self.stmt(s)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, s: &St) -> R<Flow> {
        self.steps += 1;
        match s {
            St::Level {
                level,
                repeat,
                body,
                span,
            } => self.level(*level, repeat, body, *span),
            St::Turn { actor, body, span } => {
                let a = self.entity(actor, *span)?;
                let p = self.p;
                // Durations counted at a place end right before a turn begins at that place.
                self.count_down_places(a);
                self.emit(Event::TurnStart { actor: a });
                self.count_down(Anchor::TurnStart(a));
                let mut flow = self.turn_hooks(&p.turn_start, a, *span)?;
                if let Flow::Next = flow {
                    flow = self.block(body)?;
                }
                // The turn is over, however it ended, unless the run itself is stopping.
                if !matches!(flow, Flow::Stop(_)) {
                    match self.turn_hooks(&p.turn_end, a, *span)? {
                        Flow::Next => {}
                        other => flow = other,
                    }
                    self.count_down(Anchor::TurnEnd(a));
                }
                self.emit(Event::TurnEnd { actor: a });
                Ok(flow)
            }
            St::ForEach {
                var,
                coll,
                backwards,
                from,
                filter,
                order,
                body,
                span,
            } => {
                let start = match from {
                    Some(x) => Some(self.entity(x, *span)?),
                    None => None,
                };
                let walk = Walk {
                    var: *var,
                    coll: *coll,
                    backwards: *backwards,
                    from: start,
                    order: *order,
                };
                self.for_each(&walk, filter.as_ref(), body, *span)
            }
            St::Create {
                thing,
                fields,
                bind,
                span,
            } => {
                let id = self.create(*thing, fields, *span)?;
                if let Some(slot) = bind {
                    self.locals[*slot as usize] = id as i64;
                }
                // Every field of the new thing, given or defaulted, in declaration order.
                let p = self.p;
                let values: Vec<(FieldId, i64)> = (0..p.fields.len())
                    .filter(|f| p.fields[*f].owner == *thing && p.fields[*f].kind != FieldKind::Global)
                    .map(|f| (f as FieldId, self.get(id, f as FieldId)))
                    .collect();
                self.emit(Event::Create {
                    id,
                    ty: *thing,
                    values: &values,
                });
                Ok(Flow::Next)
            }
            St::Destroy { what, span } => {
                let e = self.entity(what, *span)?;
                if !self.absent[e as usize] {
                    self.emit(Event::Destroy { id: e });
                    self.absent[e as usize] = true;
                    self.effects.retain(|fx| fx.target != e);
                    for list in &mut self.ranked {
                        list.retain(|x| *x != e);
                    }
                }
                Ok(Flow::Next)
            }
            St::Let { slot, value } => {
                self.locals[*slot as usize] = self.eval(value, NO_CTX)?;
                Ok(Flow::Next)
            }
            St::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => {
                let t = self.eval(target, NO_CTX)? as EntityId;
                let n = self.eval(count, NO_CTX)?;
                let anchor = match at {
                    CountEx::Place(who, o) => {
                        let e = self.eval(who, NO_CTX)? as EntityId;
                        match self.ranked[*o as usize].iter().position(|x| *x == e) {
                            Some(i) => Anchor::Place(*o, i),
                            None => {
                                let p = self.p;
                                return Err(Diag::new(
                                    "run::not_ranked",
                                    format!(
                                        "{} has no place in the order `{}`",
                                        p.character_name(e),
                                        p.orders[*o as usize].name
                                    ),
                                )
                                .label(*span, "counted at their place here")
                                .help("`rank` the order before counting a duration at a place in it"));
                            }
                        }
                    }
                    CountEx::TurnStart(who) => Anchor::TurnStart(self.eval(who, NO_CTX)? as EntityId),
                    CountEx::TurnEnd(who) => Anchor::TurnEnd(self.eval(who, NO_CTX)? as EntityId),
                    CountEx::LevelStart(l) => Anchor::LevelStart(*l),
                    CountEx::LevelEnd(l) => Anchor::LevelEnd(*l),
                };
                let had = self.get(t, *effect);
                self.put(t, *effect, had.saturating_add(1));
                self.emit(Event::EffectStart {
                    effect: *effect,
                    target: t,
                    count: n,
                    at: anchor,
                });
                if n <= 0 {
                    self.end_effect(*effect, t);
                } else {
                    self.effects.push(Active {
                        effect: *effect,
                        target: t,
                        left: n,
                        anchor,
                    });
                }
                Ok(Flow::Next)
            }
            St::Stop { effect, target } => {
                let t = self.eval(target, NO_CTX)? as EntityId;
                let mut i = 0;
                while i < self.effects.len() {
                    if self.effects[i].effect == *effect && self.effects[i].target == t {
                        self.effects.remove(i);
                        self.end_effect(*effect, t);
                    } else {
                        i += 1;
                    }
                }
                Ok(Flow::Next)
            }
            St::Place { who, to, order, span } => {
                let e = self.eval(who, NO_CTX)? as EntityId;
                let anchor = match to {
                    PlaceAt::Before(x) | PlaceAt::After(x) => Some(self.eval(x, NO_CTX)? as EntityId),
                    _ => None,
                };
                if anchor == Some(e) {
                    return Ok(Flow::Next); // next to oneself: nowhere to go
                }
                let list = &mut self.ranked[*order as usize];
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
                    return Err(Diag::new(
                        "run::not_ranked",
                        format!("{other} is not in the order `{}`", p.orders[*order as usize].name),
                    )
                    .label(*span, "placed next to them here")
                    .help("`rank` the order first, or place next to a character who is in it"));
                };
                list.insert(at, e);
                let ids = std::mem::take(&mut self.ranked[*order as usize]);
                self.emit(Event::Order {
                    order: *order,
                    ids: &ids,
                });
                self.ranked[*order as usize] = ids;
                Ok(Flow::Next)
            }
            St::ChooseFrom {
                decision,
                chooser,
                var,
                coll,
                filter,
                order,
                body,
                decline,
                refusals,
                span,
            } => {
                let who = self.who(chooser, *span)?;
                let mut ids = self.gather(*var, *coll, filter.as_ref())?;
                // Candidates a rule refuses are not offered; remember which rule refused each.
                let mut refused: Vec<(EntityId, usize)> = Vec::new();
                if !refusals.is_empty() {
                    let mut kept = Vec::with_capacity(ids.len());
                    for e in ids {
                        self.locals[*var as usize] = e as i64;
                        let mut by = None;
                        for (r, rule) in refusals.iter().enumerate() {
                            if self.eval(&rule.cond, NO_CTX)? != 0 {
                                by = Some(r);
                                break;
                            }
                        }
                        match by {
                            Some(r) => refused.push((e, r)),
                            None => kept.push(e),
                        }
                    }
                    ids = kept;
                }
                // Nothing to choose: not asked, unless the choice can be declined and some candidate
                // was refused (an answer naming it must hear why).
                if ids.is_empty() && (decline.is_none() || refused.is_empty()) {
                    return Ok(Flow::Next);
                }
                if let Some(o) = order {
                    self.sort(*o, &mut ids)?;
                }
                let mut keys: Vec<OptionKey> = ids.iter().map(|e| OptionKey::Character(*e)).collect();
                if let Some((option, _)) = decline {
                    keys.push(OptionKey::Named(*option));
                }
                let refused_keys: Vec<OptionKey> = refused.iter().map(|(e, _)| OptionKey::Character(*e)).collect();
                let picked = match self.ask_refusing(*decision, who, &keys, &refused_keys, *span)? {
                    Ok(i) => i,
                    Err(j) => {
                        let (e, r) = refused[j];
                        return Err(self.refusal(*var, e, &refusals[r], *span));
                    }
                };
                match (ids.get(picked), decline) {
                    (Some(e), _) => {
                        self.locals[*var as usize] = *e as i64;
                        self.block(body)
                    }
                    (None, Some((_, block))) => self.block(block),
                    (None, None) => Ok(Flow::Next),
                }
            }
            St::Repeat { repeat, body, span } => self.repeat(repeat, body, *span),
            St::EndRepeat => Ok(Flow::EndRepeat),
            St::Rank { order } => {
                let ty = self.p.orders[*order as usize].ty;
                let mut ids: Vec<EntityId> = self
                    .members(Coll::All(ty))
                    .into_iter()
                    .filter(|e| !self.absent[*e as usize])
                    .collect();
                self.sort(*order, &mut ids)?;
                self.emit(Event::Order {
                    order: *order,
                    ids: &ids,
                });
                self.ranked[*order as usize] = ids;
                Ok(Flow::Next)
            }
            St::Transfer { amount, from, to, span } => {
                self.transfer(amount.as_ref(), from, to, *span)?;
                Ok(Flow::Next)
            }
            St::Raise { trigger, args, span } => {
                let (vals, n) = self.eval_args(args, NO_CTX)?;
                self.emit(Event::Trigger {
                    trigger: *trigger,
                    args: &vals[..n],
                });
                let p = self.p;
                self.hooks(&p.triggers[*trigger as usize].hooks, &vals[..n], *span)
            }
            St::Do { hook, args, span } => {
                let (vals, n) = self.eval_args(args, NO_CTX)?;
                self.hooks(&[*hook], &vals[..n], *span)
            }
            St::React { actor, body } => {
                let v = self.eval(actor, NO_CTX)?;
                let a = self.id(v, stmt_span(s).unwrap_or_default())?;
                self.emit(Event::ReactionStart { actor: a });
                let flow = self.block(body)?;
                self.emit(Event::ReactionEnd { actor: a });
                Ok(flow)
            }
            St::Elapse { amount, unit, span } => {
                let n = self.eval(amount, NO_CTX)?;
                let size = self.p.units.get(*unit as usize).map_or(1, |u| u.1);
                let base = checked(n.checked_mul(size), *span)?;
                if base < 0 {
                    return Err(
                        Diag::new("run::negative_time", format!("time cannot run backwards ({n})"))
                            .label(*span, "a negative amount")
                            .help("elapse a zero or positive amount"),
                    );
                }
                self.clock = checked(self.clock.checked_add(base), *span)?;
                self.emit(Event::Time {
                    amount: n,
                    unit: *unit,
                    clock: self.clock,
                });
                Ok(Flow::Next)
            }
            St::If { cond, then, otherwise } => {
                if self.eval(
                    cond,
                    Ctx {
                        label: NO_LABEL,
                        actor: None,
                    },
                )? != 0
                {
                    self.block(then)
                } else {
                    self.block(otherwise)
                }
            }
            St::Choose {
                decision,
                chooser,
                options,
                span,
            } => self.choose(*decision, chooser, options, *span),
            St::End { level, reason } => Ok(Flow::End(*level, *reason)),
            St::Spend { amount, target, span } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                let amount = self.amount(amount.as_ref(), e, target)?;
                self.spend(e, target.field, amount, *span)?;
                Ok(Flow::Next)
            }
            St::Gain { amount, target, span } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                let amount = self.eval(
                    amount,
                    Ctx {
                        label: target.label,
                        actor: Some(e),
                    },
                )?;
                let have = self.get(e, target.field);
                let new = self.clamp(target.field, checked(have.checked_add(amount), *span)?);
                self.put(e, target.field, new);
                self.emit(Event::Resource {
                    change: Change::Gain,
                    actor: e,
                    field: target.field,
                    amount: new - have,
                    left: new,
                });
                Ok(Flow::Next)
            }
            St::Reset { target, value, .. } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                let v = self.eval(
                    value,
                    Ctx {
                        label: target.label,
                        actor: Some(e),
                    },
                )?;
                let v = self.clamp(target.field, v);
                self.put(e, target.field, v);
                self.emit(Event::Resource {
                    change: Change::Reset,
                    actor: e,
                    field: target.field,
                    amount: v,
                    left: v,
                });
                Ok(Flow::Next)
            }
            St::Forfeit { target } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                let have = self.get(e, target.field);
                let floor = self.clamp(target.field, 0);
                if have != floor {
                    self.put(e, target.field, floor);
                    self.emit(Event::Resource {
                        change: Change::Forfeit,
                        actor: e,
                        field: target.field,
                        amount: have - floor,
                        left: floor,
                    });
                }
                Ok(Flow::Next)
            }
            St::Set { target, value, .. } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                let v = self.eval(
                    value,
                    Ctx {
                        label: target.label,
                        actor: Some(e),
                    },
                )?;
                self.put(e, target.field, v);
                self.emit(Event::Resource {
                    change: Change::Set,
                    actor: e,
                    field: target.field,
                    amount: v,
                    left: v,
                });
                Ok(Flow::Next)
            }
            St::Mark { target, on } => {
                let e = self.owner(target, stmt_span(s).unwrap_or_default())?;
                self.put(e, target.field, *on as i64);
                Ok(Flow::Next)
            }
        }
    }

    /// What is left after taking `amount` from a resource, or the error if it cannot be taken.
    fn take(&self, e: EntityId, f: FieldId, amount: i64, span: Span) -> R<i64> {
        let have = self.get(e, f);
        let left = checked(have.checked_sub(amount), span)?;
        let floor = self.limits[f as usize].0;
        if amount < 0 || floor.is_some_and(|lo| left < lo) {
            let p = self.p;
            return Err(Diag::new(
                "run::overspend",
                format!("{} cannot spend {amount} {}: they have {have}", p.character_name(e), p.fields[f as usize].name),
            )
            .label(span, "spent here")
            .help("guard the spend with a condition, or make it the cost of an action so it is offered only when affordable"));
        }
        Ok(left)
    }

    /// How much `spend`/`transfer` takes from `e`'s resource: the amount written, or with `all`,
    /// everything above the resource's floor.
    fn amount(&mut self, amount: Option<&Ex>, e: EntityId, target: &Target) -> R<i64> {
        match amount {
            Some(x) => self.eval(
                x,
                Ctx {
                    label: target.label,
                    actor: Some(e),
                },
            ),
            None => {
                let have = self.get(e, target.field);
                Ok(have - self.limits[target.field as usize].0.unwrap_or(0).min(have))
            }
        }
    }

    fn transfer(&mut self, amount: Option<&Ex>, from: &Target, to: &Target, span: Span) -> R<()> {
        let a = self.owner(from, span)?;
        let b = self.owner(to, span)?;
        let have = self.get(a, from.field);
        let amount = self.amount(amount, a, from)?;
        let left = self.take(a, from.field, amount, span)?;
        self.put(a, from.field, left);
        let had = self.get(b, to.field);
        let got = checked(had.checked_add(amount), span)?;
        if let Some(hi) = self.limits[to.field as usize].1
            && got > hi
        {
            self.put(a, from.field, have);
            let p = self.p;
            return Err(Diag::new(
                "run::overfill",
                format!(
                    "{} cannot take {amount} more {}: they have {had} and the most is {hi}",
                    p.character_name(b),
                    p.fields[to.field as usize].name
                ),
            )
            .label(span, "transferred here")
            .help("guard the transfer with a condition on what the receiver already has"));
        }
        self.put(b, to.field, got);
        self.emit(Event::Transfer {
            from: (a, from.field),
            to: (b, to.field),
            amount,
            left,
            total: got,
        });
        Ok(())
    }

    /// Runs hooks in order, each with its variables bound to `args`. `span`: what ran them.
    /// The turn hooks answering the turns of `a`'s type of entity.
    fn turn_hooks(&mut self, ids: &[HookId], a: EntityId, span: Span) -> R<Flow> {
        let p = self.p;
        let ty = self.types.get(a as usize).copied();
        for &id in ids {
            if Some(p.hooks[id as usize].ty) != ty {
                continue;
            }
            match self.hooks(&[id], &[a as i64], span)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn hooks(&mut self, ids: &[HookId], args: &[i64], span: Span) -> R<Flow> {
        let p = self.p;
        if !ids.is_empty() && self.depth >= MAX_CALL_DEPTH {
            return Err(too_deep(span));
        }
        for &id in ids {
            let h = &p.hooks[id as usize];
            let (lo, hi) = (h.frame.0 as usize, h.frame.1 as usize);
            let mark = self.saved.len();
            self.saved.extend_from_slice(&self.locals[lo..hi]);
            self.depth += 1;
            for (slot, v) in h.vars.iter().zip(args) {
                self.locals[*slot as usize] = *v;
            }
            let run = match &h.filter {
                Some(f) => self.eval(f, NO_CTX).map(|v| v != 0),
                None => Ok(true),
            };
            let flow = match run {
                Ok(true) => self.block(&h.body),
                Ok(false) => Ok(Flow::Next),
                Err(e) => Err(e),
            };
            self.depth -= 1;
            self.locals[lo..hi].copy_from_slice(&self.saved[mark..]);
            self.saved.truncate(mark);
            match flow? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn repeat(&mut self, repeat: &Repeat, body: &[St], span: Span) -> R<Flow> {
        self.loops.push(span);
        let result = loop {
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
        };
        self.loops.pop();
        Ok(result)
    }

    fn who(&mut self, chooser: &ChooserEx, span: Span) -> R<Who> {
        Ok(match chooser {
            ChooserEx::Role(r) => Who::Role(*r),
            ChooserEx::Character(e) => {
                let v = self.eval(e, NO_CTX)?;
                Who::Character(self.id(v, span)?)
            }
        })
    }

    /// Asks the decider; `Err(j)` when it named `refused[j]`, a candidate a rule refuses.
    fn ask_refusing(
        &mut self,
        decision: DecisionId,
        who: Who,
        keys: &[OptionKey],
        refused: &[OptionKey],
        span: Span,
    ) -> R<Result<usize, usize>> {
        let p = self.p;
        let point = DecisionPoint {
            decision,
            chooser: who,
            options: keys,
            refused,
            span,
        };
        let (picked, by) = match self.control.take() {
            Some(c) => control::consult(self, c, &point)?,
            None => {
                let w = World { p, made: &self.made };
                self.decider.decide(&w, &point)?
            }
        };
        if picked >= keys.len() && picked - keys.len() < refused.len() {
            return Ok(Err(picked - keys.len()));
        }
        if picked >= keys.len() {
            return Err(
                Diag::new("run::bad_answer", "the decider picked an option that does not exist")
                    .label(span, "this decision")
                    .help("this is a bug in the decider"),
            );
        }
        self.emit(Event::Decision {
            decision,
            chooser: who,
            options: keys,
            picked,
            by,
        });
        Ok(Ok(picked))
    }

    /// The error for an answer naming a candidate a rule refuses: the rule's text, names filled in.
    fn refusal(&mut self, var: Slot, e: EntityId, rule: &RefusalDef, span: Span) -> Diag {
        self.locals[var as usize] = e as i64;
        let name = self.world().character_name(e).to_string();
        self.refused(&name, rule, span)
    }

    /// The error for an answer naming `what`, which `rule` refuses now.
    fn refused(&mut self, what: &str, rule: &RefusalDef, span: Span) -> Diag {
        let mut text = String::new();
        for part in &rule.message {
            match part {
                Ok(t) => text.push_str(t),
                Err(x) => match self.eval(x, NO_CTX) {
                    Ok(id) if id >= 0 => text.push_str(self.world().character_name(id as EntityId)),
                    Ok(_) => text.push_str("none"),
                    Err(_) => text.push('?'),
                },
            }
        }
        Diag::new("run::refused", text)
            .label(rule.span, "refused by this rule")
            .label(span, "while this was being decided")
            .help(format!("{what} could not be chosen here; the answer was refused"))
    }

    /// The characters of a collection that pass a filter, in the collection's order.
    fn gather(&mut self, var: Slot, coll: Coll, filter: Option<&Ex>) -> R<Vec<EntityId>> {
        let all = self.members(coll);
        let mut ids = Vec::with_capacity(all.len());
        for e in all {
            if self.eligible(e, var, filter)? {
                ids.push(e);
            }
        }
        Ok(ids)
    }

    fn spend(&mut self, e: EntityId, f: FieldId, amount: i64, span: Span) -> R<()> {
        let left = self.take(e, f, amount, span)?;
        self.put(e, f, left);
        self.emit(Event::Resource {
            change: Change::Spend,
            actor: e,
            field: f,
            amount,
            left,
        });
        Ok(())
    }

    fn level(&mut self, level: LevelId, repeat: &Repeat, body: &[St], span: Span) -> R<Flow> {
        let ctx = Ctx {
            label: NO_LABEL,
            actor: None,
        };
        self.counters[level as usize] = 0;
        self.loops.push(span);
        let result = loop {
            if let Repeat::While(c) = repeat
                && self.eval(c, ctx)? == 0
            {
                break Flow::Next;
            }
            self.tick(span)?;
            self.counters[level as usize] += 1;
            let n = self.counters[level as usize];
            let p = self.p;
            for f in &p.levels[level as usize].clears {
                for e in 0..p.characters.len() {
                    self.put(e as EntityId, *f, 0);
                }
            }
            self.emit(Event::LevelStart { level, n });
            let def = &p.levels[level as usize];
            self.count_down(Anchor::LevelStart(level));
            let mut flow = self.hooks(&def.on_start, &[], span)?;
            if let Flow::Next = flow {
                flow = self.block(body)?;
            }
            // The iteration is over, however it ended, unless the run itself is stopping.
            if !matches!(flow, Flow::Stop(_)) {
                match self.hooks(&def.on_end, &[], span)? {
                    Flow::Next => {}
                    other => flow = other,
                }
                self.count_down(Anchor::LevelEnd(level));
            }
            match flow {
                Flow::Next => self.emit(Event::LevelEnd { level, n, reason: None }),
                Flow::End(Some(l), r) if l == level => {
                    self.emit(Event::LevelEnd {
                        level,
                        n,
                        reason: Some(r),
                    });
                    if self.stops_after(level, n, repeat) {
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
            if self.stops_after(level, n, repeat) {
                break Flow::Stop(EndReason::Until {
                    level,
                    n,
                    default: self.until_default,
                });
            }
            match repeat {
                Repeat::Once => break Flow::Next,
                Repeat::Until(c) if self.eval(c, ctx)? != 0 => break Flow::Next,
                _ => {}
            }
        };
        self.loops.pop();
        Ok(result)
    }

    /// Whether the run stops after iteration `n` of `level`: `--until`, or the default stop (the
    /// 10th iteration of a level repeating with no condition).
    fn stops_after(&self, level: LevelId, n: u64, repeat: &Repeat) -> bool {
        match self.until {
            Some(u) => u == (level, n),
            None => matches!(repeat, Repeat::Forever) && n == DEFAULT_OUTER_LIMIT,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn for_each(&mut self, w: &Walk, filter: Option<&Ex>, body: &[St], span: Span) -> R<Flow> {
        let Walk {
            var,
            coll,
            backwards,
            from,
            order,
        } = *w;
        let mut ids = self.gather(var, coll, filter)?;
        if let Some(o) = order {
            self.sort(o, &mut ids)?;
            self.emit(Event::Order { order: o, ids: &ids });
        }
        if backwards {
            ids.reverse();
        }
        // `from X`: round the list from X (or from where X would be, had it passed the filter),
        // in the walk's direction.
        if let Some(x) = from {
            let list = match order {
                Some(_) => ids.clone(),
                None => {
                    let mut all = self.members(coll);
                    if backwards {
                        all.reverse();
                    }
                    all
                }
            };
            let at = list.iter().position(|e| *e == x).unwrap_or(0);
            let rest: Vec<EntityId> = list[at..].iter().chain(&list[..at]).copied().collect();
            ids = rest.into_iter().filter(|e| ids.contains(e)).collect();
        }
        self.loops.push(span);
        let flow = match (coll, order, backwards || from.is_some()) {
            (Coll::Ranked(o), None, false) => {
                let snapshot = self.ranked[o as usize].clone();
                self.walk_places(o, &snapshot, &ids, var, filter, body, span)
            }
            _ => self.walk(&ids, var, filter, body, span),
        };
        self.loops.pop();
        flow
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
        for (place, e) in snapshot.iter().enumerate() {
            if !ids.contains(e) {
                continue;
            }
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

    /// Ticks every effect counted at `anchor`; those that reach zero end now.
    fn count_down(&mut self, anchor: Anchor) {
        self.count_down_where(|_, at| at == anchor);
    }

    /// Ticks the effects counted at the place where `a`'s turn begins: the place a walk of a kept
    /// order has reached, or, for a turn outside such a walk, the place `a` holds now.
    fn count_down_places(&mut self, a: EntityId) {
        if self.effects.is_empty() {
            return;
        }
        let walking = self.walking.last().copied();
        self.count_down_where(|m, at| match (at, walking) {
            (Anchor::Place(o, place), Some((w, reached))) if o == w => place == reached,
            (Anchor::Place(o, place), _) => m.ranked[o as usize].get(place) == Some(&a),
            _ => false,
        });
    }

    /// Ticks the effects whose anchor `hit` accepts; those that reach zero end now.
    fn count_down_where(&mut self, hit: impl Fn(&Self, Anchor) -> bool) {
        let mut i = 0;
        while i < self.effects.len() {
            if !hit(self, self.effects[i].anchor) {
                i += 1;
                continue;
            }
            self.effects[i].left -= 1;
            if self.effects[i].left > 0 {
                i += 1;
                continue;
            }
            let fx = self.effects.remove(i);
            self.end_effect(fx.effect, fx.target);
        }
    }

    fn end_effect(&mut self, effect: FieldId, target: EntityId) {
        let n = self.get(target, effect);
        self.put(target, effect, (n - 1).max(0));
        self.emit(Event::EffectEnd { effect, target });
    }

    /// Sorts by an order's keys; each key splits the groups the earlier keys left tied.
    fn sort(&mut self, o: OrderId, ids: &mut [EntityId]) -> R<()> {
        let p = self.p;
        let order = &p.orders[o as usize];
        let mut groups = vec![(0usize, ids.len())];
        let mut keyed: Vec<(i64, EntityId)> = Vec::with_capacity(ids.len());
        for key in &order.keys {
            let mut next = Vec::new();
            let mut work: Vec<(usize, usize)> = groups.iter().rev().copied().collect();
            let mut rolls = 0u32;
            while let Some((s, e)) = work.pop() {
                if e - s <= 1 {
                    next.push((s, e));
                    continue;
                }
                if key.roll {
                    rolls += 1;
                    if rolls > MAX_TIE_ROLLS {
                        return Err(Diag::new(
                            "run::unsettled",
                            format!("a tie was still unsettled after {MAX_TIE_ROLLS} rolls"),
                        )
                        .label(key.span, "rolled again and again here")
                        .help("roll dice with more than one face, or add another key before this one"));
                    }
                }
                keyed.clear();
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
                let mut runs = Vec::new();
                let mut start = s;
                for (i, (_, id)) in keyed.iter().enumerate() {
                    ids[s + i] = *id;
                    if i > 0 && keyed[i].0 != keyed[i - 1].0 {
                        runs.push((start, s + i));
                        start = s + i;
                    }
                }
                runs.push((start, e));
                for (rs, re) in runs.into_iter().rev() {
                    if key.roll && key.until_settled && re - rs > 1 {
                        work.push((rs, re));
                    } else {
                        next.push((rs, re));
                    }
                }
            }
            next.sort();
            groups = next;
        }
        Ok(())
    }

    fn choose(&mut self, decision: DecisionId, chooser: &ChooserEx, options: &[OptionDef], span: Span) -> R<Flow> {
        let p = self.p;
        let who = self.who(chooser, span)?;
        let actor = match who {
            Who::Character(e) => Some(e),
            Who::Role(_) => None,
        };
        let mut keys = Vec::new();
        let mut sources = Vec::new();
        // Named options an `unless` refuses now: (the option, the rule).
        let mut refused: Vec<(OptionKey, &RefusalDef)> = Vec::new();
        for (i, o) in options.iter().enumerate() {
            if let Some(w) = &o.when
                && self.eval(w, Ctx { label: NO_LABEL, actor })? == 0
            {
                continue;
            }
            if let Some(n) = o.name {
                let mut rule = None;
                for r in &o.refusals {
                    if self.eval(&r.cond, Ctx { label: NO_LABEL, actor })? != 0 {
                        rule = Some(r);
                        break;
                    }
                }
                if let Some(r) = rule {
                    refused.push((OptionKey::Named(n), r));
                    continue;
                }
            }
            match (o.name, actor) {
                (Some(n), _) => {
                    keys.push(OptionKey::Named(n));
                    sources.push(i);
                }
                (None, Some(e)) => {
                    for (ai, a) in p.actions.iter().enumerate() {
                        let of_kind = o.kinds.is_empty() || a.kinds.iter().any(|k| o.kinds.contains(k));
                        if of_kind && self.affordable(a, e, o.using)? {
                            keys.push(OptionKey::Action(ai as ActionId));
                            sources.push(i);
                        }
                    }
                }
                (None, None) => {}
            }
        }
        if keys.is_empty() {
            return Err(Diag::new(
                "run::no_option",
                format!(
                    "{} has no option in the decision `{}`",
                    p.who_name(who),
                    p.decisions[decision as usize]
                ),
            )
            .label(span, "nothing could be chosen here")
            .help("add an option without `when`, which is always available, or guard the decision with `if`"));
        }
        let refused_keys: Vec<OptionKey> = refused.iter().map(|r| r.0).collect();
        let picked = match self.ask_refusing(decision, who, &keys, &refused_keys, span)? {
            Ok(i) => i,
            Err(j) => {
                let (key, rule) = refused[j];
                let name = format!("`{}`", p.option_name(key));
                return Err(self.refused(&name, rule, span));
            }
        };
        let option = &options[sources[picked]];
        match (keys[picked], actor) {
            (OptionKey::Action(a), Some(e)) => match self.perform(a, e, option.using, span)? {
                Flow::Next => self.block(&option.body),
                other => Ok(other),
            },
            _ => self.block(&option.body),
        }
    }

    /// Whether `who` may take action `a` now: its `when` holds and every cost can be paid
    /// (from `using`, when the option says so).
    fn affordable(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<bool> {
        let slot = a.actor as usize;
        let saved = self.locals[slot];
        self.locals[slot] = who as i64;
        let ok = self.can_pay(a, who, using);
        self.locals[slot] = saved;
        ok
    }

    fn can_pay(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<bool> {
        let ctx = Ctx {
            label: a.label,
            actor: Some(who),
        };
        if let Some(w) = &a.when
            && self.eval(w, ctx)? == 0
        {
            return Ok(false);
        }
        if let Some(f) = using {
            // Every cost comes out of the one resource: they must be affordable together.
            let mut total = 0i64;
            for (amount, _) in &a.costs {
                let cost = self.eval(amount, ctx)?;
                if cost < 0 {
                    return Ok(false);
                }
                total = total.saturating_add(cost);
            }
            let left = self.get(who, f).saturating_sub(total);
            return Ok(self.limits[f as usize].0.is_none_or(|lo| left >= lo));
        }
        // Costs in the same resource are paid together: check each resource once, for its total.
        for (i, (_, f)) in a.costs.iter().enumerate() {
            if a.costs[..i].iter().any(|(_, g)| g == f) {
                continue;
            }
            let mut total = 0i64;
            for (amount, g) in &a.costs[i..] {
                if g == f {
                    let cost = self.eval(amount, ctx)?;
                    if cost < 0 {
                        return Ok(false);
                    }
                    total = total.saturating_add(cost);
                }
            }
            let left = self.get(who, *f).saturating_sub(total);
            if self.limits[*f as usize].0.is_some_and(|lo| left < lo) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn perform(&mut self, a: ActionId, who: EntityId, using: Option<FieldId>, span: Span) -> R<Flow> {
        let p = self.p;
        let def = &p.actions[a as usize];
        if self.depth >= MAX_CALL_DEPTH {
            return Err(too_deep(span));
        }
        self.emit(Event::Action { actor: who, action: a });
        let (lo, hi) = (def.frame.0 as usize, def.frame.1 as usize);
        let mark = self.saved.len();
        self.saved.extend_from_slice(&self.locals[lo..hi]);
        self.depth += 1;
        self.locals[def.actor as usize] = who as i64;
        let flow = self.pay_and_run(def, who, using, span);
        self.depth -= 1;
        self.locals[lo..hi].copy_from_slice(&self.saved[mark..]);
        self.saved.truncate(mark);
        flow
    }

    fn pay_and_run(&mut self, def: &ActionDef, who: EntityId, using: Option<FieldId>, span: Span) -> R<Flow> {
        for (amount, f) in &def.costs {
            let cost = self.eval(
                amount,
                Ctx {
                    label: def.label,
                    actor: Some(who),
                },
            )?;
            self.spend(who, using.unwrap_or(*f), cost, span)?;
        }
        self.block(&def.body)
    }

    fn roll(&mut self, d: DiceId, ctx: Ctx) -> R<i64> {
        let p = self.p;
        let (dice, span) = p.dice[d as usize];
        self.faces.clear();
        for _ in 0..dice.count {
            match self.dice.die(dice.sides) {
                Ok(f) => self.faces.push(f),
                Err(e) => {
                    return Err(Diag::new(
                        "run::impossible_roll",
                        format!("the forced roll {} cannot come up on a d{}", e.value, e.sides),
                    )
                    .label(span, format!("this {dice} took it"))
                    .help(format!(
                        "forced rolls for a d{} must be between 1 and {}",
                        e.sides, e.sides
                    )));
                }
            }
        }
        let total: i64 = match dice.keep {
            None => self.faces.iter().map(|f| *f as i64).sum(),
            Some((keep, k)) => {
                let mut sorted = self.faces.clone();
                sorted.sort_unstable();
                let k = k as usize;
                match keep {
                    Keep::Highest => sorted.iter().rev().take(k).map(|f| *f as i64).sum(),
                    Keep::Lowest => sorted.iter().take(k).map(|f| *f as i64).sum(),
                }
            }
        };
        let faces = std::mem::take(&mut self.faces);
        self.emit(Event::Roll {
            actor: ctx.actor,
            label: ctx.label,
            dice: d,
            faces: &faces,
            total,
        });
        self.faces = faces;
        Ok(total)
    }

    /// Evaluates the arguments of a trigger, routine or param (at most `MAX_TRIGGER_ARGS`, checked).
    fn eval_args(&mut self, args: &[Ex], ctx: Ctx) -> R<([i64; MAX_TRIGGER_ARGS], usize)> {
        let mut vals = [0i64; MAX_TRIGGER_ARGS];
        for (v, a) in vals.iter_mut().zip(args) {
            *v = self.eval(a, ctx)?;
        }
        Ok((vals, args.len().min(MAX_TRIGGER_ARGS)))
    }

    fn eval(&mut self, e: &Ex, ctx: Ctx) -> R<i64> {
        Ok(match e {
            Ex::Int(i) => *i,
            Ex::Local(s) => self.locals[*s as usize],
            Ex::Param(i) => {
                let p = self.p;
                self.eval(&p.params[*i as usize].1, ctx)?
            }
            Ex::Field(base, f, span) => {
                let v = self.eval(base, ctx)?;
                let id = if v == TABLE as i64 { TABLE } else { self.id(v, *span)? };
                self.get(id, *f)
            }
            Ex::Is(base, m) => {
                let id = self.eval(base, ctx)?.max(0) as usize;
                let ch = &self.p.characters[id.min(self.p.characters.len().saturating_sub(1))];
                (match m {
                    Member::Side(s) => ch.side == Some(*s),
                    Member::Tag(t) => ch.tags.contains(t),
                }) as i64
            }
            Ex::Dice(d) => self.roll(*d, ctx)?,
            Ex::Neg(x, span) => checked(self.eval(x, ctx)?.checked_neg(), *span)?,
            Ex::Not(x) => (self.eval(x, ctx)? == 0) as i64,
            Ex::Bin(op, l, r, span) => {
                let a = self.eval(l, ctx)?;
                match op {
                    BinOp::And if a == 0 => return Ok(0),
                    BinOp::Or if a != 0 => return Ok(1),
                    _ => {}
                }
                let b = self.eval(r, ctx)?;
                match op {
                    BinOp::And | BinOp::Or => (b != 0) as i64,
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::Gt => (a > b) as i64,
                    BinOp::Ge => (a >= b) as i64,
                    BinOp::Add => checked(a.checked_add(b), *span)?,
                    BinOp::Sub => checked(a.checked_sub(b), *span)?,
                    BinOp::Mul => checked(a.checked_mul(b), *span)?,
                    BinOp::Div => {
                        if b == 0 {
                            return Err(Diag::new("run::division_by_zero", "division by zero")
                                .label(*span, "the right-hand side is 0 here")
                                .help("guard the division with a condition"));
                        }
                        checked(a.checked_div_euclid(b), *span)?
                    }
                }
            }
            Ex::Call(f, args, span) => {
                let mut acc: Option<i64> = None;
                for a in args {
                    let v = self.eval(a, ctx)?;
                    acc = Some(match (f, acc) {
                        (Func::Highest, Some(x)) => x.max(v),
                        (Func::Lowest, Some(x)) => x.min(v),
                        (Func::Abs, _) => checked(v.checked_abs(), *span)?,
                        (_, None) => v,
                    });
                }
                acc.unwrap_or(0)
            }
            Ex::If(c, a, b) => {
                if self.eval(c, ctx)? != 0 {
                    self.eval(a, ctx)?
                } else {
                    self.eval(b, ctx)?
                }
            }
            Ex::SideOf(base) => {
                let id = self.eval(base, ctx)?.max(0) as usize;
                self.p.characters.get(id).and_then(|c| c.side).map_or(-1, i64::from)
            }
            Ex::LevelNumber(l) => self.counters[*l as usize] as i64,
            Ex::ParamCall(i, args) => {
                let p = self.p;
                let slots = &p.param_slots[*i as usize];
                let (vals, _) = self.eval_args(args, ctx)?;
                for (s, v) in slots.iter().zip(vals) {
                    self.locals[*s as usize] = v;
                }
                self.eval(&p.params[*i as usize].1, ctx)?
            }
            Ex::Below(who, o) => {
                let e = self.eval(who, ctx)? as EntityId;
                let list = &self.ranked[*o as usize];
                let next = list.iter().position(|x| *x == e).and_then(|i| list.get(i + 1));
                next.copied().unwrap_or(e) as i64
            }
            Ex::Next(who, o, forward) => {
                let e = self.eval(who, ctx)?;
                let list = &self.ranked[*o as usize];
                match list.iter().position(|x| *x as i64 == e) {
                    Some(i) if *forward => list[(i + 1) % list.len()] as i64,
                    Some(i) => list[(i + list.len() - 1) % list.len()] as i64,
                    None => NONE,
                }
            }
            Ex::Position(who, o) => {
                let e = self.eval(who, ctx)? as EntityId;
                self.ranked[*o as usize]
                    .iter()
                    .position(|x| *x == e)
                    .map_or(0, |i| i as i64 + 1)
            }
            Ex::Quant {
                quant,
                var,
                coll,
                filter,
                by,
                body,
            } => {
                let n = match coll {
                    Coll::All(_) => self.types.len(),
                    Coll::Ranked(o) => self.ranked[*o as usize].len(),
                };
                let saved = self.locals[*var as usize];
                let mut acc: Option<i64> = None;
                let mut count = 0i64;
                let mut found: Vec<EntityId> = Vec::new();
                for i in 0..n {
                    let id = match coll {
                        Coll::All(t) if self.types[i] != *t => continue,
                        Coll::All(_) => i as EntityId,
                        Coll::Ranked(o) => self.ranked[*o as usize][i],
                    };
                    if self.absent.get(id as usize).copied().unwrap_or(false) {
                        continue;
                    }
                    self.locals[*var as usize] = id as i64;
                    if let Some(f) = filter
                        && self.eval(f, ctx)? == 0
                    {
                        continue;
                    }
                    if matches!(quant, Quant::First | Quant::Last) {
                        found.push(id);
                        if *quant == Quant::First && by.is_none() {
                            break;
                        }
                        continue;
                    }
                    let v = match body {
                        Some(b) => self.eval(b, ctx)?,
                        None => 1,
                    };
                    match quant {
                        Quant::Any if v != 0 => {
                            acc = Some(1);
                            break;
                        }
                        Quant::All if v == 0 => {
                            acc = Some(0);
                            break;
                        }
                        Quant::Count if v != 0 => count += 1,
                        Quant::Sum => acc = Some(checked(acc.unwrap_or(0).checked_add(v), Span::default())?),
                        Quant::Max => acc = Some(acc.map_or(v, |a| a.max(v))),
                        Quant::Min => acc = Some(acc.map_or(v, |a| a.min(v))),
                        _ => {}
                    }
                }
                if let Some(o) = by {
                    // The checker allows only orders whose keys do not roll here.
                    self.sort(*o, &mut found)?;
                }
                self.locals[*var as usize] = saved;
                match quant {
                    Quant::Any => acc.unwrap_or(0),
                    Quant::All => acc.unwrap_or(1),
                    Quant::Count => count,
                    Quant::First => found.first().map_or(NONE, |e| *e as i64),
                    Quant::Last => found.last().map_or(NONE, |e| *e as i64),
                    _ => acc.unwrap_or(0),
                }
            }
        })
    }
}

fn stmt_span(s: &St) -> Option<Span> {
    match s {
        St::Level { span, .. }
        | St::Turn { span, .. }
        | St::ForEach { span, .. }
        | St::Choose { span, .. }
        | St::ChooseFrom { span, .. }
        | St::Repeat { span, .. }
        | St::Transfer { span, .. }
        | St::Raise { span, .. }
        | St::Do { span, .. }
        | St::Place { span, .. }
        | St::Begin { span, .. }
        | St::Elapse { span, .. }
        | St::Spend { span, .. }
        | St::Gain { span, .. }
        | St::Reset { span, .. }
        | St::Set { span, .. } => Some(*span),
        _ => None,
    }
}

fn too_deep(span: Span) -> Diag {
    Diag::new(
        "run::too_deep",
        format!("actions and hooks nest more than {MAX_CALL_DEPTH} deep, or blocks more than {MAX_RUN_NESTING}"),
    )
    .label(span, "one level too deep here")
    .help("something keeps triggering itself (a hook, a reaction): add a condition (a flag, a resource) that stops it")
}

fn checked(v: Option<i64>, span: Span) -> R<i64> {
    v.ok_or_else(|| {
        Diag::new("run::overflow", "arithmetic overflow")
            .label(span, "the result does not fit in 64 bits")
            .help("numbers in turnscript are 64-bit integers; check for a runaway value")
    })
}
