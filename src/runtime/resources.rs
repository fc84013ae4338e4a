//! Resources and fields: `spend`, `gain`, `reset`, `forfeit`, `set`, `mark` and `transfer`, kept
//! within the resources' limits.

use super::state::{Ctx, Machine, R, checked};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::trace::{Change, Decimal, Event};

impl Machine<'_> {
    /// An expression's value for `e`'s field: evaluated with `e` as the actor, under the
    /// target's label.
    pub(super) fn value_for(&mut self, x: &Ex, e: EntityId, target: &Target) -> R<i64> {
        self.eval(
            x,
            Ctx {
                label: target.label,
                actor: Some(e),
            },
        )
    }

    /// Puts a resource's new value (`left`) and traces the change.
    pub(super) fn put_traced(&mut self, change: Change, e: EntityId, f: FieldId, amount: i64, left: i64) {
        self.put(e, f, left);
        self.emit(Event::Resource {
            change,
            actor: e,
            field: f,
            amount,
            left,
        });
    }

    /// What is left after taking `amount` from a resource, or the error if it cannot be taken.
    /// Inlined into `spend` and `transfer`, its errors out of line: a payment's hot path.
    #[inline(always)]
    pub(super) fn take(&mut self, e: EntityId, f: FieldId, amount: i64, span: Span) -> R<i64> {
        let have = self.read(e, f, span)?;
        if amount < 0 {
            return Err(self.negative_spend(e, f, amount, span));
        }
        let left = checked(have.checked_sub(amount), span)?;
        let floor = self.bounds(e, f)?.0;
        if floor.is_some_and(|lo| left < lo) {
            return Err(self.overspend(e, f, amount, have, span));
        }
        Ok(left)
    }

    /// `run::overspend`: a negative amount spent.
    #[cold]
    #[inline(never)]
    fn negative_spend(&self, e: EntityId, f: FieldId, amount: i64, span: Span) -> Box<Diag> {
        let p = self.p;
        let amount = Decimal(amount, p.fields[f as usize].decimals);
        Box::new(
            Diag::new(
                "run::overspend",
                format!(
                    "{} cannot spend {amount} {}: an amount spent is never below 0",
                    p.character_name(e),
                    p.fields[f as usize].name
                ),
            )
            .label(span, "a negative amount here")
            .help("to add to a resource, `gain` it; guard a computed amount with `highest(AMOUNT, 0)` or a condition"),
        )
    }

    /// `run::overspend`: more spent than the resource has above its floor.
    #[cold]
    #[inline(never)]
    fn overspend(&self, e: EntityId, f: FieldId, amount: i64, have: i64, span: Span) -> Box<Diag> {
        let p = self.p;
        let d = p.fields[f as usize].decimals;
        let (amount, have) = (Decimal(amount, d), Decimal(have, d));
        Box::new(Diag::new(
            "run::overspend",
            format!("{} cannot spend {amount} {}: they have {have}", p.character_name(e), p.fields[f as usize].name),
        )
        .label(span, "spent here")
        .help("guard the spend with a condition, or make it the cost of an action so it is offered only when affordable"))
    }

    /// How much `spend`/`transfer` takes from `e`'s resource: the amount written, or with `all`,
    /// everything above the resource's floor.
    pub(super) fn amount(&mut self, amount: Option<&Ex>, e: EntityId, target: &Target) -> R<i64> {
        match amount {
            Some(x) => self.value_for(x, e, target),
            None => {
                let have = self.read(e, target.field, target.span)?;
                Ok(have - self.bounds(e, target.field)?.0.unwrap_or(0).min(have))
            }
        }
    }

    pub(super) fn spend(&mut self, e: EntityId, f: FieldId, amount: i64, span: Span) -> R<()> {
        let left = self.take(e, f, amount, span)?;
        self.put_traced(Change::Spend, e, f, amount, left);
        Ok(())
    }

    fn transfer(&mut self, amount: Option<&Ex>, from: &Target, to: &Target, span: Span) -> R<()> {
        let a = self.owner(from, span)?;
        let b = self.owner(to, span)?;
        let amount = self.amount(amount, a, from)?;
        self.move_amount((a, from.field), (b, to.field), amount, span)
    }

    /// Moves `amount` from one resource to another, within both resources' limits.
    pub(super) fn move_amount(
        &mut self,
        (a, from): (EntityId, FieldId),
        (b, to): (EntityId, FieldId),
        amount: i64,
        span: Span,
    ) -> R<()> {
        let have = self.read(a, from, span)?;
        let left = self.take(a, from, amount, span)?;
        self.put(a, from, left);
        let had = self.read(b, to, span)?;
        let got = checked(had.checked_add(amount), span)?;
        let hi = match self.bounds(b, to) {
            Ok(l) => l.1,
            Err(err) => {
                self.put(a, from, have);
                return Err(err);
            }
        };
        if let Some(hi) = hi
            && got > hi
        {
            self.put(a, from, have);
            let p = self.p;
            let d = p.fields[to as usize].decimals;
            let (amount, had, hi) = (Decimal(amount, d), Decimal(had, d), Decimal(hi, d));
            return Err(Box::new(
                Diag::new(
                    "run::overfill",
                    format!(
                        "{} cannot take {amount} more {}: they have {had} and the most is {hi}",
                        p.character_name(b),
                        p.fields[to as usize].name
                    ),
                )
                .label(span, "transferred here")
                .help("guard the transfer with a condition on what the receiver already has"),
            ));
        }
        self.put(b, to, got);
        self.emit(Event::Transfer {
            from: (a, from),
            to: (b, to),
            amount,
            left,
            total: got,
        });
        Ok(())
    }

    /// `transfer`: from one resource to another.
    pub(super) fn st_transfer(&mut self, amount: Option<&Ex>, from: &Target, to: &Target, span: Span) -> R<Flow> {
        self.transfer(amount, from, to, span)?;
        Ok(Flow::Next)
    }

    /// `spend`: the amount written, or with `all` everything above the floor.
    pub(super) fn st_spend(&mut self, amount: Option<&Ex>, target: &Target, span: Span) -> R<Flow> {
        let e = self.owner(target, span)?;
        let amount = self.amount(amount, e, target)?;
        self.spend(e, target.field, amount, span)?;
        Ok(Flow::Next)
    }

    /// `gain`: added, then kept within the resource's limits.
    pub(super) fn st_gain(&mut self, amount: &Ex, target: &Target, span: Span) -> R<Flow> {
        let e = self.owner(target, span)?;
        let amount = self.value_for(amount, e, target)?;
        let have = self.read(e, target.field, span)?;
        let new = self.clamp_for(e, target.field, checked(have.checked_add(amount), span)?)?;
        self.put_traced(Change::Gain, e, target.field, new - have, new);
        Ok(Flow::Next)
    }

    /// `reset`: set to a value, kept within the resource's limits.
    pub(super) fn st_reset(&mut self, target: &Target, value: &Ex, span: Span) -> R<Flow> {
        let e = self.owner(target, span)?;
        let v = self.value_for(value, e, target)?;
        let v = self.clamp_for(e, target.field, v)?;
        self.put_traced(Change::Reset, e, target.field, v, v);
        Ok(Flow::Next)
    }

    /// `forfeit`: down to the resource's floor (0 within its limits); traced only if it changed.
    pub(super) fn st_forfeit(&mut self, target: &Target) -> R<Flow> {
        let e = self.owner(target, target.span)?;
        self.forfeit(e, target.field, target.span)?;
        Ok(Flow::Next)
    }

    /// A resource down to its floor (0 within its limits); traced only if it changed.
    pub(super) fn forfeit(&mut self, e: EntityId, f: FieldId, span: Span) -> R<()> {
        let have = self.read(e, f, span)?;
        let floor = self.clamp_for(e, f, 0)?;
        if have != floor {
            self.put_traced(Change::Forfeit, e, f, have - floor, floor);
        }
        Ok(())
    }

    /// `set`: a field set to a value, as written (no limits).
    pub(super) fn st_set(&mut self, target: &Target, value: &Ex, span: Span) -> R<Flow> {
        let e = self.owner(target, span)?;
        let v = self.value_for(value, e, target)?;
        self.put_traced(Change::Set, e, target.field, v, v);
        Ok(Flow::Next)
    }

    /// `mark`/`unmark`: a flag set on or off, untraced. (No span of its own, as `forfeit`.)
    /// `mark` / `clear`: sets or clears a flag, and traces it.
    pub(super) fn st_mark(&mut self, target: &Target, on: bool) -> R<Flow> {
        let e = self.owner(target, target.span)?;
        let was = self.get(e, target.field) != 0;
        self.put(e, target.field, on as i64);
        if on {
            self.mark_in_reaction(e, target.field, was);
        }
        self.emit(Event::Flag {
            actor: e,
            flag: target.field,
            on,
        });
        Ok(Flow::Next)
    }
}
