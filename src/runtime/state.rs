//! The machine's state: the `Machine` and its construction, the flat state (entity fields,
//! globals, locals, level counters, resource limits) and its reads and writes, the fields' first
//! values, `create`, step charging, and the errors for overflow and nesting too deep.

use super::RunConfig;
use super::control;
use super::decide::Decider;
use super::dice::DiceStream;
use super::effects::Active;
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::{MAX_CALL_DEPTH, MAX_RUN_NESTING};
use crate::source::Span;
use crate::trace::{Event, FinalState, Sink, World};

/// Who a roll is for, for the trace.
#[derive(Clone, Copy)]
pub(super) struct Ctx {
    pub(super) label: LabelId,
    pub(super) actor: Option<EntityId>,
}

pub(super) const NO_LABEL: LabelId = LabelId::MAX;

pub(super) const NO_CTX: Ctx = Ctx {
    label: NO_LABEL,
    actor: None,
};

/// Results inside the run loop: the error is boxed so that a result is two words, returned in
/// registers (a `Diag` inline would make every `eval` return through memory).
pub(super) type R<T> = Result<T, Box<Diag>>;

/// The interpreter: the whole state of one run. Its methods are spread over the sibling files,
/// one concern each (see the module doc in `mod.rs`).
pub(super) struct Machine<'a> {
    pub(super) p: &'a Program,
    /// The program's compiled blocks (`code/`); `None`: every block is walked.
    pub(super) code: Option<&'a super::code::Code>,
    pub(super) n_fields: usize,
    /// Every character's fields, character-major.
    pub(super) values: Vec<i64>,
    /// The table's globals, by field id.
    pub(super) globals: Vec<i64>,
    /// The sides' fields, side-major like `values` (empty when no side has fields).
    pub(super) side_values: Vec<i64>,
    /// Every side's index, for walks and quantifiers of `sides`.
    pub(super) side_ids: Vec<EntityId>,
    pub(super) limits: Vec<(Option<i64>, Option<i64>)>,
    pub(super) locals: Vec<i64>,
    pub(super) counters: Vec<u64>,
    /// Whether each level is running (inside one of its iterations, or between them).
    pub(super) running: Vec<bool>,
    pub(super) dice: DiceStream,
    pub(super) faces: Vec<i64>,
    pub(super) steps: u64,
    pub(super) max_steps: u64,
    /// Spans of the loops being run, innermost last: named by a step-budget error.
    pub(super) loops: Vec<Span>,
    pub(super) until: Option<(LevelId, u64)>,
    /// Enclosing levels and the iterations they must be at for `until` to stop the run.
    pub(super) until_within: Vec<(LevelId, u64)>,
    pub(super) until_default: bool,
    /// An answer the rules refuse stops the run (else it is traced and the decision asked again).
    pub(super) stop_on_refusal: bool,
    pub(super) decider: &'a mut dyn Decider,
    pub(super) sink: &'a mut dyn Sink,
    /// Each order's kept ranking, from its last `rank`.
    pub(super) ranked: Vec<Vec<EntityId>>,
    /// The game clock, in the base unit.
    pub(super) clock: i64,
    /// Slots saved by the actions and hooks running, so they may nest.
    pub(super) saved: Vec<i64>,
    /// The value the last `give` gave, and the flow a routine called in an expression ended
    /// with when it was not a `give` (see `functions.rs`).
    pub(super) given: i64,
    pub(super) unwind: Option<super::stmt::Flow>,
    /// How many actions and hooks are running.
    pub(super) depth: u32,
    /// How many blocks are running, one inside another.
    pub(super) nesting: u32,
    /// The effects running, in the order they began.
    pub(super) effects: Vec<Active>,
    /// Readied responses armed, and effects' moments whose hooks are to run (see `ready.rs`).
    pub(super) readied: super::ready::Readied,
    /// The kept-order walks under way, innermost last: the order and the place reached.
    pub(super) walking: Vec<(OrderId, usize)>,
    /// Whom the `for each` (or `choose ... from`) under way draws from: read when a member is
    /// looked at (`presence.rs`), set around each walk and restored after it.
    pub(super) drawing: crate::syntax::ast::Presence,
    /// Who is acting: the characters whose turns, reactions and actions are running, innermost
    /// last. A roll that names no one of its own (in an `if`, a `let`, a routine) is theirs.
    pub(super) acting: Vec<EntityId>,
    /// The turns running, innermost last (for `until end of next turn(x)`, and the `per turn`
    /// flags marked in a reaction during one, cleared as it ends: see `levels.rs`).
    pub(super) turns: Vec<EntityId>,
    pub(super) react_marks: Vec<(usize, EntityId, FieldId)>,
    /// The end edge whose durations have just been counted down, while the hooks of the effects
    /// that ended there run: its turn (iteration) is still running but its end has passed.
    pub(super) past_end: Option<crate::compile::ir::Anchor>,
    /// The end edge being answered (its end hooks running), not yet counted down: `until end of
    /// turn(x)` begun there lasts to the next one, not zero time.
    pub(super) ending: Option<crate::compile::ir::Anchor>,
    /// Consulted at each decision instead of the decider, when set (see `control.rs`).
    pub(super) control: Option<&'a mut dyn control::Control>,
    /// Entities out of play (characters not yet joined, things destroyed): skipped by every
    /// loop, quantifier, choice and `rank`.
    pub(super) absent: Vec<bool>,
    /// Whether each declared character has been in play (its fields set): one that joins for the
    /// first time gets its fields then.
    pub(super) joined: Vec<bool>,
    /// The fields of never-joined characters whose value is worked out when they join (it rolls,
    /// or reads the state), entity-major like `values`: reading one before is `run::not_joined`.
    /// Empty when every character is in play from the start.
    pub(super) pending: Vec<bool>,
    /// The globals whose start (a `default`, the ruleset's or an encounter's) is not yet worked
    /// out, while the run starts: reading one is `run::not_set`. Empty once they are.
    pub(super) globals_unset: Vec<bool>,
    /// While the sides' fields start: those whose start (a `default`, or a resource's clamp) is
    /// not worked out yet, side-major; reading one is `run::not_set`. Empty once they have started.
    pub(super) sides_unset: Vec<bool>,
    /// Every entity's type: the declared ones, then those made by `create`.
    pub(super) types: Vec<TypeId>,
    /// The entities of each type, ids ascending: declared, then made. A destroyed thing stays in
    /// its type's list until the destroyed are half of it, then they are dropped all at once, so
    /// walking a type costs in proportion to its live entities, not to every entity ever made.
    pub(super) of_type: Vec<Vec<EntityId>>,
    /// Which entities `destroy` took out for good (empty until the first `destroy`).
    pub(super) gone: Vec<bool>,
    /// How many destroyed entities each type's list still holds.
    pub(super) destroyed: Vec<usize>,
    /// The names of the entities made by `create`, in the order they were made.
    pub(super) made: Vec<String>,
    /// How many of each type `create` has made (their names count from 1).
    pub(super) serials: Vec<u32>,
    /// Spare lists for walks, sorts and choices (see [`Pool`]).
    pub(super) ids: Pool<EntityId>,
    pub(super) keys: Pool<OptionKey>,
    pub(super) spans: Pool<(usize, usize)>,
    pub(super) groups: Pool<(usize, usize, u32)>,
    pub(super) keyed: Pool<(i64, EntityId)>,
    pub(super) indices: Pool<usize>,
    /// Secret choices: those held for the reveal, those being asked (see `secrets.rs`).
    pub(super) secrecy: super::secrets::Secrecy,
    /// The moments open and the changes deferred to their ends (`moments.rs`).
    pub(super) moments: super::moments::Moments,
    /// The tied group an ordering key's `when` is asked about (`tied`).
    pub(super) tied: Vec<EntityId>,
    /// The faces of a roll that keeps some dice, sorted.
    pub(super) sorted: Vec<i64>,
    /// The faces being walked by quantifiers over faces (`count f in 6d10 ...`), innermost last:
    /// a stack, reserved at the first such quantifier (each roll holds at most `MAX_DICE +
    /// MAX_EXPLOSIONS`), so a program without one allocates nothing for it.
    pub(super) held: Vec<i64>,
    /// The faces of the dice pools rolled (`roll DICE as p`) in the blocks running, outermost
    /// first: a stack each block gives back as it ends. A pool's slot holds where its faces are.
    pub(super) pooled: Vec<i64>,
    /// Each deck's draw and discard piles (`Program::decks`).
    pub(super) piles: Vec<super::cards::Piles>,
    /// The cards the next draws must take (`--draws`).
    pub(super) forced_draws: std::collections::VecDeque<EntityId>,
    /// Attempts (see `attempts.rs`): whether the decider is asked at each moment (the program
    /// declares attempts, or answers address moments); whether an attempt made at the decision
    /// being asked may be carried out (the decision is then offered anew); who made the attempt
    /// the last answer named (`None`: the chooser); and how the block of one carried out ended.
    pub(super) asks_moments: bool,
    pub(super) reoffer: bool,
    pub(super) attempter: Option<Who>,
    pub(super) attempt_flow: Option<super::stmt::Flow>,
    /// How a ruling made at the decision being asked (a character taken out of or brought into
    /// play, whose hooks end the encounter) ends play: the decision is then left (`consult`).
    pub(super) ruling_flow: Option<super::stmt::Flow>,
    /// The members of the collection of the `choose ... from` being asked that it does not
    /// offer for being out of play (or in it): an answer naming one is refused (`presence.rs`).
    pub(super) outside: Vec<OptionKey>,
    /// The actions of the `choose` being asked that the chooser cannot take now, with the
    /// resource its option pays from (`using`): `outside` lists them, and an answer naming one is
    /// refused with why (`decisions.rs`).
    pub(super) unaffordable: Vec<(ActionId, Option<FieldId>)>,
}

/// Spare lists of one kind. A walk, sort or choice takes a list, fills it and gives it back, so
/// once the lists have grown to the table's size a run allocates nothing per step. Nested walks
/// each take their own; a list dropped by an error is simply not reused.
pub(super) struct Pool<T>(Vec<Vec<T>>);

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool(Vec::new())
    }
}

impl<T> Pool<T> {
    /// An empty list, with the capacity some earlier use gave it.
    pub(super) fn take(&mut self) -> Vec<T> {
        let mut v = self.0.pop().unwrap_or_default();
        v.clear();
        v
    }

    /// Gives a list back for reuse (a few dozen are kept: as many as walks nest).
    pub(super) fn put(&mut self, v: Vec<T>) {
        if self.0.len() < 64 {
            self.0.push(v);
        }
    }
}

impl<'a> Machine<'a> {
    /// A machine at the start of a run: no field set yet, nothing ranked, no effect running.
    /// `absent[id]`: the characters out of play from the start (missing entries are in play).
    pub(super) fn new(
        p: &'a Program,
        cfg: &RunConfig,
        decider: &'a mut dyn Decider,
        sink: &'a mut dyn Sink,
        control: Option<&'a mut dyn control::Control>,
        mut absent: Vec<bool>,
    ) -> Self {
        absent.resize(p.characters.len(), false);
        // Characters declared `absent` wait for a `join`.
        for (a, c) in absent.iter_mut().zip(&p.characters) {
            *a |= c.absent;
        }
        let joined = absent.iter().map(|a| !a).collect();
        let n_fields = p.fields.len();
        let types: Vec<TypeId> = p.characters.iter().map(|c| c.ty).collect();
        let mut of_type = vec![Vec::new(); p.things.len().max(1)];
        for (id, &ty) in types.iter().enumerate() {
            if let Some(list) = of_type.get_mut(ty as usize) {
                list.push(id as EntityId);
            }
        }
        let (until, until_default) = (cfg.until, cfg.until.is_none() && cfg.default_limit);
        // A control is asked only while it has attempts waiting for moments (`Control::moments`).
        let asks_moments = match &control {
            Some(c) => c.moments(),
            None => p.attempt_defs.iter().any(Option::is_some) || decider.moments(),
        };
        Machine {
            p,
            code: super::code::of(p),
            n_fields,
            values: vec![0; n_fields * p.characters.len()],
            globals: vec![0; n_fields],
            side_ids: (0..p.sides.len() as EntityId).collect(),
            side_values: if p.sides_have_fields() {
                vec![0; n_fields * p.sides.len()]
            } else {
                Vec::new()
            },
            limits: vec![(None, None); n_fields],
            locals: vec![0; p.n_locals.max(1)],
            counters: vec![0; p.levels.len()],
            running: vec![false; p.levels.len()],
            dice: DiceStream::new(cfg.seed, &cfg.rolls),
            faces: Vec::new(),
            steps: 0,
            max_steps: cfg.max_steps,
            loops: Vec::new(),
            until,
            until_within: cfg.until_within.clone(),
            until_default,
            stop_on_refusal: cfg.stop_on_refusal,
            decider,
            sink,
            ranked: vec![Vec::new(); p.orders.len()],
            clock: 0,
            saved: Vec::new(),
            given: 0,
            unwind: None,
            depth: 0,
            nesting: 0,
            effects: Vec::new(),
            readied: super::ready::Readied::new(),
            walking: Vec::new(),
            drawing: crate::syntax::ast::Presence::InPlay,
            acting: Vec::new(),
            turns: Vec::new(),
            react_marks: Vec::new(),
            past_end: None,
            ending: None,
            gone: Vec::new(),
            control,
            absent,
            joined,
            pending: Vec::new(),
            globals_unset: Vec::new(),
            sides_unset: Vec::new(),
            types,
            destroyed: vec![0; of_type.len()],
            of_type,
            made: Vec::new(),
            serials: vec![0; p.things.len()],
            ids: Pool::default(),
            keys: Pool::default(),
            spans: Pool::default(),
            groups: Pool::default(),
            keyed: Pool::default(),
            indices: Pool::default(),
            sorted: Vec::new(),
            held: Vec::new(),
            pooled: Vec::new(),
            tied: Vec::new(),
            secrecy: Default::default(),
            moments: Default::default(),
            piles: vec![super::cards::Piles::default(); p.decks.len()],
            forced_draws: cfg.draws.iter().copied().collect(),
            asks_moments,
            reoffer: true,
            attempter: None,
            attempt_flow: None,
            ruling_flow: None,
            outside: Vec::new(),
            unaffordable: Vec::new(),
        }
    }
}

impl Machine<'_> {
    /// Sends one event to the sink, with the world it names entities in.
    #[inline]
    pub(super) fn emit(&mut self, e: Event<'_>) {
        if self.secrecy.hides() && self.held(&e) {
            return;
        }
        let w = World {
            p: self.p,
            made: &self.made,
            values: &self.values,
            types: &self.types,
        };
        self.sink.event(&w, &e);
    }

    /// Sends the `final` event: the state the run ended in.
    pub(super) fn emit_final(&mut self) {
        let w = World {
            p: self.p,
            made: &self.made,
            values: &self.values,
            types: &self.types,
        };
        let state = FinalState {
            values: &self.values,
            pending: &self.pending,
            globals: &self.globals,
            sides: &self.side_values,
            absent: &self.absent,
            types: &self.types,
            clock: self.clock,
        };
        self.sink.event(&w, &Event::Final { state });
    }

    /// Charges one step of a loop against the budget; past it, the run stops with an error naming
    /// the innermost loop still running.
    pub(super) fn tick(&mut self, span: Span) -> R<()> {
        self.charge(1, span)
    }

    /// Charges `n` steps of work (the members a sort keys, ...) against the budget.
    #[inline]
    pub(super) fn charge(&mut self, n: u64, span: Span) -> R<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.max_steps {
            return Err(self.over_budget(span));
        }
        Ok(())
    }

    /// `run::step_budget`, at the innermost loop still running.
    #[cold]
    #[inline(never)]
    fn over_budget(&self, span: Span) -> Box<Diag> {
        let at = self.loops.last().copied().unwrap_or(span);
        Box::new(
            Diag::new(
                "run::step_budget",
                format!("the run took more than {} steps", self.max_steps),
            )
            .label(at, "this loop was still running")
            .help(if self.until_default {
                "check that the loop's condition can become false, or raise the budget with --max-steps"
            } else {
                "check that the loop's condition can become false, that the iteration --until names is ever reached (a level's count restarts each time it is entered), or raise the budget with --max-steps"
            }),
        )
    }

    /// Whose field a target names: an entity's, or the table's (a global).
    pub(super) fn owner(&mut self, t: &Target, span: Span) -> R<EntityId> {
        if let Some(base) = &t.base {
            let v = self.eval(base, NO_CTX)?;
            return self.owner_id(v, span);
        }
        match t.var {
            None => Ok(TABLE),
            Some(s) => self.id(self.locals[s as usize], span),
        }
    }

    /// A value as an entity: `none` (or anything else no entity has) is an error here.
    #[inline]
    pub(super) fn id(&self, v: i64, span: Span) -> R<EntityId> {
        if v >= 0 && (v as usize) < self.types.len() {
            return Ok(v as EntityId);
        }
        Err(none_here(span))
    }

    /// A value as an entity that can still act and be placed: `none` is `run::none`, and one
    /// `destroy` took out for good is `run::destroyed` (a turn of it, placing it back in an
    /// order, destroying it again).
    pub(super) fn alive(&mut self, e: &Ex, span: Span) -> R<EntityId> {
        let id = self.entity(e, span)?;
        self.not_gone(id, span)?;
        Ok(id)
    }

    /// `run::destroyed` for an entity `destroy` took out for good.
    #[inline]
    pub(super) fn not_gone(&self, id: EntityId, span: Span) -> R<()> {
        if !self.gone.get(id as usize).copied().unwrap_or(false) {
            return Ok(());
        }
        Err(self.destroyed_here(id, span))
    }

    /// `run::destroyed`: `id` was destroyed.
    #[cold]
    #[inline(never)]
    fn destroyed_here(&self, id: EntityId, span: Span) -> Box<Diag> {
        let who = self.world().character_name(id).to_string();
        Box::new(
            Diag::new(
                "run::destroyed",
                format!("{who} was destroyed: it is out of play for good"),
            )
            .label(span, "used here")
            .help("test it first, or keep it and take it out of the order instead of destroying it"),
        )
    }

    /// The entities of a collection, in its order (those out of play included).
    pub(super) fn members(&self, coll: Coll) -> &[EntityId] {
        match coll {
            Coll::All(t) => self.of_type.get(t as usize).map_or(&[], Vec::as_slice),
            Coll::Ranked(o) => self.ranked.get(o as usize).map_or(&[], Vec::as_slice),
            Coll::Tied => &self.tied,
            Coll::Sides => &self.side_ids,
            Coll::Pile(d, discard) => self.piles.get(d as usize).map_or(&[], |p| p.listed(discard)),
        }
    }

    /// The `i`-th entity of a collection, if it has that many.
    pub(super) fn member(&self, coll: Coll, i: usize) -> Option<EntityId> {
        self.members(coll).get(i).copied()
    }

    /// The world the trace views name entities in: the program, and the names `create` gave.
    pub(super) fn world(&self) -> World<'_> {
        World {
            p: self.p,
            made: &self.made,
            values: &self.values,
            types: &self.types,
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, e: EntityId, f: FieldId) -> i64 {
        if e == TABLE {
            return self.globals.get(f as usize).copied().unwrap_or(0);
        }
        if let Some(s) = self.p.side_of_owner(e) {
            return self
                .side_values
                .get(s * self.n_fields + f as usize)
                .copied()
                .unwrap_or(0);
        }
        self.values
            .get(e as usize * self.n_fields + f as usize)
            .copied()
            .unwrap_or(0)
    }

    /// A field's value as a rule reads it: one a never-joined character will only get when it
    /// joins is `run::not_joined`, never a 0 it does not have.
    #[inline]
    pub(super) fn read(&self, e: EntityId, f: FieldId, span: Span) -> R<i64> {
        // Nothing unset anywhere (every run once its start values are worked out): a plain get.
        if e != TABLE && self.all_set() {
            return Ok(self.get(e, f));
        }
        self.read_checked(e, f, span)
    }

    /// Whether every entity's and side's value is set (none pending, none unset): what a read
    /// must otherwise check first. (The table's globals are checked apart.)
    #[inline(always)]
    pub(super) fn all_set(&self) -> bool {
        self.sides_unset.is_empty() && self.pending.is_empty()
    }

    /// [`Machine::read`] where some value may still be unset: each is checked.
    #[inline(never)]
    fn read_checked(&self, e: EntityId, f: FieldId, span: Span) -> R<i64> {
        if e == TABLE && self.globals_unset.get(f as usize).copied().unwrap_or(false) {
            return Err(self.global_unset(f, span));
        }
        if !self.sides_unset.is_empty()
            && let Some(s) = self.p.side_of_owner(e)
            && self
                .sides_unset
                .get(s * self.n_fields + f as usize)
                .copied()
                .unwrap_or(false)
        {
            return Err(self.side_unset(s, f, span));
        }
        if !self.pending.is_empty()
            && self
                .pending
                .get(e as usize * self.n_fields + f as usize)
                .copied()
                .unwrap_or(false)
        {
            let p = self.p;
            let (who, field) = (p.character_name(e), &p.fields[f as usize].name);
            if self.joined.get(e as usize).copied().unwrap_or(true) {
                return Err(Box::new(
                    Diag::new(
                        "run::not_set",
                        format!("{who}'s `{field}` has no value yet: start values are worked out in the order they are declared"),
                    )
                    .label(span, format!("{who}'s `{field}` read here"))
                    .help(format!(
                        "give `{field}` a plain value (a number, a name), declare what it reads first, or read it in `setup`"
                    )),
                ));
            }
            return Err(Box::new(
                Diag::new(
                    "run::not_joined",
                    format!("{who} has not joined yet: its `{field}` is worked out when it joins"),
                )
                .label(span, format!("{who}'s `{field}` read here"))
                .help(format!(
                    "read it after `join {who}`, or give `{field}` a plain number in the encounter: a character that has not joined holds its plain values (and what rules set) from the start"
                )),
            ));
        }
        Ok(self.get(e, f))
    }

    /// `run::not_set` for a global read before its start is worked out.
    fn global_unset(&self, f: FieldId, span: Span) -> Box<Diag> {
        let field = &self.p.fields[f as usize].name;
        Box::new(
            Diag::new(
                "run::not_set",
                format!("the global `{field}` has no value yet: globals start in the order they are declared"),
            )
            .label(span, format!("`{field}` read here"))
            .help(format!(
                "a global's start (the ruleset's `default`, or an encounter's) may read only globals declared before `{field}`; an encounter's start is worked out where the ruleset declares it"
            )),
        )
    }

    pub(super) fn put(&mut self, e: EntityId, f: FieldId, v: i64) {
        if e == TABLE {
            if let Some(slot) = self.globals.get_mut(f as usize) {
                *slot = v;
            }
            return;
        }
        if let Some(s) = self.p.side_of_owner(e) {
            if let Some(slot) = self.side_values.get_mut(s * self.n_fields + f as usize) {
                *slot = v;
            }
            return;
        }
        let i = e as usize * self.n_fields + f as usize;
        if let Some(slot) = self.values.get_mut(i) {
            *slot = v;
        }
        // A value a rule gave a never-joined character is its own: joining keeps it.
        if let Some(pending) = self.pending.get_mut(i) {
            *pending = false;
        }
    }

    pub(super) fn clamp(&self, f: FieldId, v: i64) -> i64 {
        let (lo, hi) = self.limits[f as usize];
        let v = hi.map_or(v, |h| v.min(h));
        lo.map_or(v, |l| v.max(l))
    }

    /// Resource limits, then every character's fields in declaration order.
    pub(super) fn init(&mut self) -> R<()> {
        let p = self.p;
        for (i, f) in p.fields.iter().enumerate() {
            // `resource NAME(c)`: worked out for its owner at each change (`limits.rs`).
            if f.owned.is_some() {
                continue;
            }
            let ctx = Ctx {
                label: NO_LABEL,
                actor: None,
            };
            let lo = f.min.as_ref().map(|e| self.eval(e, ctx)).transpose()?;
            let hi = f.max.as_ref().map(|e| self.eval(e, ctx)).transpose()?;
            self.limits[i] = (lo, hi);
        }
        self.hold_start_values();
        // Sides' fields start after the globals: one read before its start is `run::not_set`.
        self.sides_unset = self.sides_to_start();
        // Globals start in declaration order: one read before its start is `run::not_set`.
        self.globals_unset = p
            .fields
            .iter()
            .map(|f| f.kind == FieldKind::Global && f.default.is_some())
            .collect();
        for (i, f) in p.fields.iter().enumerate() {
            if f.kind == FieldKind::Global
                && let Some(e) = &f.default
            {
                let v = self.eval(e, NO_CTX)?;
                let v = self.clamp(i as FieldId, v);
                self.put(TABLE, i as FieldId, v);
                self.globals_unset[i] = false;
            }
        }
        self.globals_unset = Vec::new();
        self.init_sides()?;
        self.sides_unset = Vec::new();
        for id in 0..p.characters.len() {
            // A character out of play from the start gets its fields when it joins.
            if !self.absent[id] {
                self.init_character(id as EntityId)?;
            }
        }
        // Nothing left to work out (no one waits to join): reads need not look.
        if !self.pending.iter().any(|p| *p) {
            self.pending = Vec::new();
        }
        Ok(())
    }

    /// Every declared entity holds its plain values (a number, a name, `none`, given or
    /// defaulted) from the start, before anything is worked out; the values to work out (they
    /// roll, or read the state) are pending until then: in declaration order at the start, or
    /// when a character out of play first joins. Reading a pending value is an error, never a 0.
    fn hold_start_values(&mut self) {
        let p = self.p;
        for id in 0..p.characters.len() {
            let ch = &p.characters[id];
            for (fi, f) in p.fields.iter().enumerate() {
                if f.kind == FieldKind::Global || f.owner != ch.ty {
                    continue;
                }
                let given = ch.fields.iter().find(|(g, _)| *g as usize == fi).map(|(_, e)| e);
                let i = id * self.n_fields + fi;
                match given.or(f.default.as_ref()) {
                    // A resource whose limits are its owner's is worked out with the rest.
                    _ if f.owned.is_some() => {
                        if self.pending.is_empty() {
                            self.pending = vec![false; self.values.len()];
                        }
                        self.pending[i] = true;
                    }
                    None if f.kind == FieldKind::Resource => self.values[i] = self.clamp(fi as FieldId, 0),
                    None => {}
                    Some(e) if let Some(v) = constant(e) => {
                        let v = if f.kind == FieldKind::Resource {
                            self.clamp(fi as FieldId, v)
                        } else {
                            v
                        };
                        self.values[i] = v;
                    }
                    Some(_) => {
                        if self.pending.is_empty() {
                            self.pending = vec![false; self.values.len()];
                        }
                        self.pending[i] = true;
                    }
                }
            }
        }
    }

    /// Sets one declared entity's fields: given values, else defaults, in declaration order. A
    /// character joining for the first time works out only the fields still pending.
    pub(super) fn init_character(&mut self, id: EntityId) -> R<()> {
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
            let i = id as usize * self.n_fields + fi;
            if id < self.p.characters.len() as EntityId && !self.pending.get(i).copied().unwrap_or(false) {
                // A declared entity's value held from the start, or set by a rule since: kept.
                continue;
            }
            let value = given.iter().find(|(g, _)| *g as usize == fi).map(|(_, e)| e);
            let Some(e) = value.or(f.default.as_ref()) else {
                // A resource nobody gives starts at 0, held within its limits like any value.
                if f.kind == FieldKind::Resource {
                    let v = self.clamp_for(id, fi as FieldId, 0)?;
                    self.put(id, fi as FieldId, v);
                }
                continue;
            };
            let ctx = Ctx {
                label: NO_LABEL,
                actor: Some(id),
            };
            let v = match f.owned {
                // `resource NAME(c) ... default E`: the default is worked out for its owner.
                Some(_) if value.is_none() => self.for_owner(id, fi as FieldId, e, ctx)?,
                _ => self.eval(e, ctx)?,
            };
            let v = if f.kind == FieldKind::Resource {
                self.clamp_for(id, fi as FieldId, v)?
            } else {
                v
            };
            self.put(id, fi as FieldId, v);
        }
        Ok(())
    }

    /// `create`: a new entity of type `ty`, in play from now, named after its type.
    pub(super) fn create(&mut self, ty: TypeId, given: &[(FieldId, Ex)], span: Span) -> R<EntityId> {
        if self.types.len() >= crate::limits::MAX_ENTITIES {
            return Err(Box::new(
                Diag::new(
                    "run::too_many",
                    format!(
                        "more than {} entities in play at once or made in one run",
                        crate::limits::MAX_ENTITIES
                    ),
                )
                .label(span, "one too many made here")
                .help("`destroy` what is no longer needed does not free its place; check that this loop can end"),
            ));
        }
        let id = self.types.len() as EntityId;
        self.types.push(ty);
        if let Some(list) = self.of_type.get_mut(ty as usize) {
            list.push(id);
        }
        // Out of play while its given fields are evaluated, so a field that counts its own
        // collection does not count the thing being made.
        self.absent.push(true);
        self.values.resize(self.values.len() + self.n_fields, 0);
        let serial = self.serials.get_mut(ty as usize).map_or(1, |s| {
            *s += 1;
            *s
        });
        let kind = self.p.things.get(ty as usize).map_or("thing", |t| t.0.as_str());
        self.made.push(format!("{kind} {serial}"));
        // Given values may read the slots the caller has bound.
        self.init_fields(id, ty, given)?;
        self.absent[id as usize] = false;
        Ok(id)
    }
}

/// The value of an expression that reads nothing and rolls nothing: a number, a name, `none`,
/// or arithmetic on them (`-5`, `1 + 2`).
fn constant(e: &Ex) -> Option<i64> {
    match e {
        Ex::Int(v) => Some(*v),
        Ex::Neg(x, _) => constant(x)?.checked_neg(),
        Ex::Bin(op, a, b, _) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                crate::syntax::ast::BinOp::Add => a.checked_add(b),
                crate::syntax::ast::BinOp::Sub => a.checked_sub(b),
                crate::syntax::ast::BinOp::Mul => a.checked_mul(b),
                crate::syntax::ast::BinOp::Div if b != 0 => a.checked_div_euclid(b),
                _ => None,
            }
        }
        _ => None,
    }
}

pub(super) fn too_deep(span: Span) -> Diag {
    Diag::new(
        "run::too_deep",
        format!("actions, hooks and routines nest more than {MAX_CALL_DEPTH} deep, or blocks more than {MAX_RUN_NESTING}"),
    )
    .label(span, "one level too deep here")
    .help("something keeps running itself (a routine, a hook, a reaction): add a condition (a flag, a resource, an argument) that stops it")
}

#[inline]
pub(super) fn checked(v: Option<i64>, span: Span) -> R<i64> {
    match v {
        Some(v) => Ok(v),
        None => Err(overflow(span)),
    }
}

/// `run::overflow` at `span`.
#[cold]
#[inline(never)]
fn overflow(span: Span) -> Box<Diag> {
    Box::new(
        Diag::new("run::overflow", "arithmetic overflow")
            .label(span, "the result does not fit in 64 bits")
            .help("numbers in turnscript are 64-bit integers; check for a runaway value"),
    )
}

impl Machine<'_> {
    /// Counts a destroyed entity against its type's list; drops the destroyed from the list
    /// once they are half of it (only things are destroyed, and they never come back).
    pub(super) fn forget(&mut self, e: EntityId) {
        let Some(&ty) = self.types.get(e as usize) else {
            return;
        };
        let (Some(list), Some(dead)) = (self.of_type.get_mut(ty as usize), self.destroyed.get_mut(ty as usize)) else {
            return;
        };
        *dead += 1;
        if *dead * 2 > list.len() {
            let absent = &self.absent;
            list.retain(|x| !absent.get(*x as usize).copied().unwrap_or(false));
            *dead = 0;
        }
    }
}

/// `run::none`: a value used as an entity names none.
#[cold]
#[inline(never)]
fn none_here(span: Span) -> Box<Diag> {
    Box::new(
        Diag::new("run::none", "this names no entity: it is `none`")
            .label(span, "used here")
            .help("test it first, e.g. `if x != none { ... }`, or filter the loop with `where x != none`"),
    )
}
