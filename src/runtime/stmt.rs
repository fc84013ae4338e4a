//! Statements: blocks, the dispatch over statement kinds, the `Flow` by which `end`, `end repeat`
//! and `--until` unwind, and the general statements (`let`, `if`, `elapse`, `create`, `destroy`).

use super::code::{Filter, StFn};
use super::state::{Ctx, Machine, NO_CTX, NO_LABEL, R, checked, too_deep};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::MAX_RUN_NESTING;
use crate::source::Span;
use crate::syntax::ast::Presence;
use crate::trace::{EndReason, Event};

/// How a statement finished.
pub(super) enum Flow {
    Next,
    /// `end LEVEL` (or `end encounter` with `None`), with the `because` text.
    End(Option<LevelId>, Option<u16>),
    /// `--until` or the default limit was reached.
    Stop(EndReason),
    /// `end repeat`: leave the innermost `repeat` loop.
    EndRepeat,
    /// `give EXPR`: the routine running returns its value (`Machine::given`).
    Give,
}

impl Flow {
    /// What goes on after this flow, when an end hook then gives `hook`: the hook's, unless the
    /// encounter is already ending (an `end encounter` keeps its reason, as in the encounter's
    /// own end hooks).
    pub(super) fn then(self, hook: Flow) -> Flow {
        match self {
            Flow::End(None, _) | Flow::Stop(_) => self,
            _ => hook,
        }
    }
}

impl Machine<'_> {
    /// Runs a block: by its compiled code (`code/`) when it is a numbered block that has some
    /// and the run is compiled, else by walking its statements.
    pub(super) fn block<B: Stmts + ?Sized>(&mut self, b: &B) -> R<Flow> {
        let (stmts, id) = b.parts();
        // An empty block (an action without a body, an option without one) does nothing.
        if stmts.is_empty() {
            return Ok(Flow::Next);
        }
        self.nesting += 1;
        // The pools rolled in this block end with it.
        let pooled = self.pooled.len();
        let flow = match self.code.and_then(|c| c.block(id)) {
            Some(ops) => self.block_compiled(ops, stmts),
            None => self.block_inner(stmts),
        };
        self.pooled.truncate(pooled);
        self.nesting -= 1;
        flow
    }

    fn block_inner(&mut self, stmts: &[St]) -> R<Flow> {
        for s in stmts {
            if self.nesting > MAX_RUN_NESTING
                && let Some(span) = stmt_span(s)
            {
                return Err(Box::new(too_deep(span)));
            }
            match self.stmt(s)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// [`Machine::block_inner`] by the block's compiled statements (`ops[i]` for `stmts[i]`,
    /// `None` for one walked): the same nesting check, step and unwinding for each.
    fn block_compiled(&mut self, ops: &[Option<StFn>], stmts: &[St]) -> R<Flow> {
        for (op, s) in ops.iter().zip(stmts) {
            if self.nesting > MAX_RUN_NESTING
                && let Some(span) = stmt_span(s)
            {
                return Err(Box::new(too_deep(span)));
            }
            let r = match op {
                Some(f) => {
                    self.steps += 1;
                    f(self, s)
                }
                None => self.stmt_kind(s),
            };
            match if self.unwind.is_some() { self.unwound(r) } else { r }? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    /// Runs one statement, charging it one step. This dispatch over the statement kinds is long
    /// only because there are many kinds: every arm is one call to the method for its kind.
    fn stmt(&mut self, s: &St) -> R<Flow> {
        let r = self.stmt_kind(s);
        if self.unwind.is_some() { self.unwound(r) } else { r }
    }

    /// The kinds of statement met at almost every step, dispatched in a small function; the
    /// others in [`Machine::stmt_rest`].
    fn stmt_kind(&mut self, s: &St) -> R<Flow> {
        self.steps += 1;
        match s {
            St::If { cond, then, otherwise } => self.st_if(cond, then, otherwise),
            St::Choose {
                decision,
                chooser,
                options,
                prefs,
                span,
                secret,
                held,
            } => self.choose(*decision, chooser, (options, prefs, (*secret, *held)), *span, None),
            St::Turn { actor, body, span } => self.st_turn(actor, body, *span),
            St::End { level, reason } => Ok(Flow::End(*level, *reason)),
            _ => self.stmt_rest(s),
        }
    }

    /// Every kind of statement but the step's charge, which [`Machine::stmt_kind`] has made.
    #[inline(never)]
    pub(super) fn stmt_rest(&mut self, s: &St) -> R<Flow> {
        match s {
            St::Level {
                level,
                repeat,
                counting,
                body,
                span,
            } => self.level(*level, (repeat, counting.as_deref()), body, *span),
            St::Turn { actor, body, span } => self.st_turn(actor, body, *span),
            St::ForEach {
                together,
                anew,
                ties,
                again,
                var,
                coll,
                presence,
                backwards,
                from,
                filter,
                order,
                body,
                span,
            } => self.drawing_from(*presence, |m| {
                m.st_for_each(
                    *var,
                    *coll,
                    (*backwards, *together, *anew, *ties, *again),
                    from.as_ref(),
                    filter.as_ref().map(Filter::Tree),
                    *order,
                    body,
                    *span,
                )
            }),
            St::Create {
                thing,
                fields,
                bind,
                span,
            } => self.st_create(*thing, fields, *bind, *span),
            St::Destroy { what, span } => self.st_destroy(what, *span),
            St::Cards { act, span } => self.st_cards(act, *span),
            St::Let { slot, value } => self.st_let(*slot, value),
            St::Pool(p) => self.pool_st(p, super::state::NO_CTX),
            St::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => self.st_begin(*effect, target, count, at, *span),
            St::Stop { effect, target, span } => self.st_stop(*effect, target, *span),
            St::Place { who, to, order, span } => self.st_place(who, to, *order, *span),
            St::ChooseFrom {
                decision,
                chooser,
                var,
                coll,
                presence,
                filter,
                order,
                body,
                decline,
                refusals,
                prefs,
                deferred,
                held,
                bind,
                reads,
                span,
                secret: _,
            } => self.st_choose_from(
                *decision,
                chooser,
                *var,
                (*coll, *presence),
                filter.as_ref(),
                *order,
                body,
                decline.as_ref(),
                (refusals, prefs, *deferred),
                (*held, *bind, *reads),
                *span,
            ),
            St::Reveal {
                decision,
                chooser,
                all,
                span,
            } => {
                let who = self.who(chooser, *span)?;
                self.reveal_held(*decision, who, *all)
            }
            St::Repeat { repeat, body, span } => self.repeat(repeat, body, *span),
            St::EndRepeat => Ok(Flow::EndRepeat),
            St::Rank { order, filter } => self.drawing_from(Presence::InPlay, |m| m.st_rank(*order, filter.as_ref())),
            St::Transfer { amount, from, to, span } => self.st_transfer(amount.as_ref(), from, to, *span),
            St::Raise { trigger, args, span } => self.st_raise(*trigger, args, *span),
            St::Do { hook, args, span } => self.st_do(*hook, args, *span),
            St::Count {
                var,
                from,
                to,
                down,
                body,
                span,
            } => self.st_count(*var, (from, to, *down), body, *span),
            St::Give { value } => self.st_give(value),
            St::React { actor, body, span } => self.st_react(actor, body, *span),
            St::Ready {
                ready,
                owner,
                until,
                span,
            } => self.st_ready(*ready, owner, until.as_ref(), *span),
            St::Disarm { owner, on, span } => self.st_disarm(owner, on.as_ref(), *span),
            St::Elapse { amount, unit, span } => self.st_elapse(amount, *unit, *span),
            St::If { cond, then, otherwise } => self.st_if(cond, then, otherwise),
            St::Choose {
                decision,
                chooser,
                options,
                prefs,
                span,
                secret,
                held,
            } => self.choose(*decision, chooser, (options, prefs, (*secret, *held)), *span, None),
            St::End { level, reason } => Ok(Flow::End(*level, *reason)),
            St::Spend { amount, target, span } => self.st_spend(amount.as_ref(), target, *span),
            St::Gain { amount, target, span } => self.st_gain(amount, target, *span),
            St::Reset { target, value, span } => self.st_reset(target, value, *span),
            St::Forfeit { target } => self.st_forfeit(target),
            St::Set { target, value, span } => self.st_set(target, value, *span),
            St::Mark { target, on } => self.st_mark(target, *on),
            St::Record {
                measure,
                value,
                about,
                side,
            } => self.st_record(*measure, value, *about, *side),
            St::Moment { body, span } => self.st_moment(body, *span),
            St::Deferred {
                change,
                level,
                at,
                span,
            } => self.st_deferred(change, *level, *at, *span),
            St::Presence { who, join, span } => {
                let e = self.entity(who, *span)?;
                self.presence(e, *join, *span)
            }
        }
    }

    /// A measure's value (a truth value as 1 or 0), traced with the entity it is about (a side
    /// as its owner id, which the trace names as the side).
    fn st_record(&mut self, measure: MeasureId, value: &Ex, about: Option<Slot>, side: bool) -> R<Flow> {
        let value = self.eval(value, NO_CTX)?;
        let about = about.map(|s| {
            let v = self.locals[s as usize];
            if side {
                Program::side_owner(v as usize)
            } else {
                v as EntityId
            }
        });
        self.emit(Event::Measure { measure, about, value });
        Ok(Flow::Next)
    }

    /// `let`: binds a slot to a value.
    fn st_let(&mut self, slot: Slot, value: &Ex) -> R<Flow> {
        self.locals[slot as usize] = self.eval(value, NO_CTX)?;
        Ok(Flow::Next)
    }

    fn st_if(&mut self, cond: &Ex, then: &Block, otherwise: &Block) -> R<Flow> {
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

    /// `elapse`: the game clock runs forward (never backwards), in the base unit.
    fn st_elapse(&mut self, amount: &Ex, unit: UnitId, span: Span) -> R<Flow> {
        let n = self.eval(amount, NO_CTX)?;
        let size = self.p.units.get(unit as usize).map_or(1, |u| u.1);
        let base = checked(n.checked_mul(size), span)?;
        if base < 0 {
            return Err(Box::new(
                Diag::new("run::negative_time", format!("time cannot run backwards ({n})"))
                    .label(span, "a negative amount")
                    .help("elapse a zero or positive amount"),
            ));
        }
        self.clock = checked(self.clock.checked_add(base), span)?;
        self.emit(Event::Time {
            amount: n,
            unit,
            clock: self.clock,
        });
        Ok(Flow::Next)
    }

    /// `create`: makes the thing, binds it, and traces every field it starts with.
    fn st_create(&mut self, thing: TypeId, fields: &[(FieldId, Ex)], bind: Option<Slot>, span: Span) -> R<Flow> {
        let id = self.create(thing, fields, span)?;
        if let Some(slot) = bind {
            self.locals[slot as usize] = id as i64;
        }
        // Every field of the new thing, given or defaulted, in declaration order.
        let p = self.p;
        let values: Vec<(FieldId, i64)> = (0..p.fields.len())
            .filter(|f| p.fields[*f].owner == thing && p.fields[*f].kind != FieldKind::Global)
            .map(|f| (f as FieldId, self.get(id, f as FieldId)))
            .collect();
        self.emit(Event::Create {
            id,
            ty: thing,
            values: &values,
        });
        Ok(Flow::Next)
    }

    /// `destroy`: out of play for good; its effects end silently and it leaves every kept order.
    fn st_destroy(&mut self, what: &Ex, span: Span) -> R<Flow> {
        let e = self.alive(what, span)?;
        self.destroy(e);
        Ok(Flow::Next)
    }

    /// Takes `e` out of play for good (it has not been destroyed yet).
    pub(super) fn destroy(&mut self, e: EntityId) {
        if self.gone.len() <= e as usize {
            self.gone.resize(self.types.len(), false);
        }
        self.gone[e as usize] = true;
        if !self.absent[e as usize] {
            self.emit(Event::Destroy { id: e });
            self.absent[e as usize] = true;
            self.forget(e);
            self.forget_card(e);
            self.effects.retain(|fx| fx.target != e);
            for list in &mut self.ranked {
                list.retain(|x| *x != e);
            }
        }
    }
}

/// What a block is run from: a numbered [`Block`] (which may have compiled code), or a slice of
/// one's statements (walked: the statements of a secret choice's body after its leading ones).
pub(super) trait Stmts {
    fn parts(&self) -> (&[St], BlockId);
}

impl Stmts for Block {
    #[inline(always)]
    fn parts(&self) -> (&[St], BlockId) {
        (&self.stmts, self.id)
    }
}

impl Stmts for [St] {
    #[inline(always)]
    fn parts(&self) -> (&[St], BlockId) {
        (self, NO_BLOCK)
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
        | St::Count { span, .. }
        | St::Place { span, .. }
        | St::Begin { span, .. }
        | St::Elapse { span, .. }
        | St::Spend { span, .. }
        | St::Gain { span, .. }
        | St::Reset { span, .. }
        | St::Set { span, .. }
        | St::Moment { span, .. }
        | St::Deferred { span, .. } => Some(*span),
        _ => None,
    }
}
