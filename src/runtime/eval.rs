//! Expression evaluation: `eval` and its longer kinds (arithmetic and comparison, functions,
//! quantifiers), dice rolls, and the arguments of triggers, routines and params.

use super::code::Filter;
use super::state::{Ctx, Machine, NO_CTX, R, checked};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::{MAX_DICE, MAX_SIDES, MAX_TRIGGER_ARGS};
use crate::source::Span;
use crate::syntax::ast::{BinOp, Dice, Keep, Presence, Quant};
use crate::trace::Event;

impl Machine<'_> {
    /// Evaluates an expression giving an entity.
    #[inline]
    pub(super) fn entity(&mut self, e: &Ex, span: Span) -> R<EntityId> {
        let v = self.operand(e, NO_CTX)?;
        self.id(v, span)
    }

    /// Dice written with expressions: the parts are evaluated (in order: count, sides, kept),
    /// held to the limits of literal dice, then rolled.
    pub(super) fn dyn_roll(&mut self, parts: &DynDiceEx, span: Span, ctx: Ctx) -> R<i64> {
        self.dyn_roll_from(1, parts, span, ctx)
    }

    /// As [`Machine::dyn_roll`], with at least `fewest` dice: 0 for the dice of a pool or of a
    /// quantifier over faces, whose faces are read (none is an empty pool), 1 where the total
    /// stands for a number rolled.
    pub(super) fn dyn_roll_from(&mut self, fewest: u32, parts: &DynDiceEx, span: Span, ctx: Ctx) -> R<i64> {
        let count = self.eval(&parts.count, ctx)?;
        let sides = self.eval(&parts.sides, ctx)?;
        let keep = match &parts.keep {
            Some((k, x)) => Some((*k, self.eval(x, ctx)?)),
            None => None,
        };
        let bad = |what: String, help: &str| {
            Box::new(
                Diag::new("run::dice", what)
                    .label(span, "these dice")
                    .help(help.to_string()),
            )
        };
        let in_range = |v: i64, lo: u32, hi: u32| u32::try_from(v).ok().filter(|v| (lo..=hi).contains(v));
        let Some(count) = in_range(count, fewest, MAX_DICE) else {
            return Err(bad(
                format!("{count} dice cannot be rolled: from {fewest} to {MAX_DICE}"),
                "guard the roll, e.g. `if c.pool > 0 { ... }`, or roll at least one: `(highest(c.pool, 1))d6`",
            ));
        };
        let Some(sides) = in_range(sides, if parts.faces.is_some() { 1 } else { 2 }, MAX_SIDES) else {
            return Err(bad(
                format!("a die of {sides} sides cannot be rolled: from 2 to {MAX_SIDES}"),
                "check the value that gives the die's size",
            ));
        };
        let p = self.p;
        let listed = parts.faces.and_then(|i| p.faces.get(i as usize));
        let explode = match &parts.explode {
            None => None,
            Some(t) => Some(self.explode_on(t.as_ref(), sides, listed.map(Vec::as_slice), span, ctx)?),
        };
        let keep = match keep {
            None => None,
            Some((k, n)) => match in_range(n, 1, count) {
                Some(n) => Some((k, n)),
                None => {
                    return Err(bad(
                        format!("{n} of {count} dice cannot be kept: from 1 to {count}"),
                        "keep at least one die and no more than are rolled",
                    ));
                }
            },
        };
        self.roll_dice(
            Dice {
                count,
                sides,
                keep,
                faces: parts.faces,
                explode,
            },
            span,
            ctx,
        )
    }

    pub(super) fn roll(&mut self, d: DiceId, ctx: Ctx) -> R<i64> {
        let (dice, span) = self.p.dice[d as usize];
        self.roll_dice(dice, span, ctx)
    }

    /// Rolls `dice` (forced values first), traces the roll and gives its total.
    fn roll_dice(&mut self, dice: Dice, span: Span, ctx: Ctx) -> R<i64> {
        let p = self.p;
        let listed = dice.faces.and_then(|i| p.faces.get(i as usize)).map(Vec::as_slice);
        self.faces.clear();
        let mut extra = 0;
        for _ in 0..dice.count {
            self.roll_one(dice, listed, span, &mut extra)?;
        }
        fn sum<'f>(mut faces: impl Iterator<Item = &'f i64>) -> Option<i64> {
            faces.try_fold(0i64, |a, f| a.checked_add(*f))
        }
        let total = match dice.keep {
            None => sum(self.faces.iter()),
            Some((keep, k)) => {
                let sorted = &mut self.sorted;
                sorted.clear();
                sorted.extend_from_slice(&self.faces);
                sorted.sort_unstable();
                let k = k as usize;
                match keep {
                    Keep::Highest => sum(sorted.iter().rev().take(k)),
                    Keep::Lowest => sum(sorted.iter().take(k)),
                }
            }
        };
        let total = checked(total, span)?;
        let faces = std::mem::take(&mut self.faces);
        self.emit(Event::Roll {
            actor: ctx.actor.or_else(|| self.acting.last().copied()),
            label: ctx.label,
            dice,
            faces: &faces,
            total,
        });
        self.faces = faces;
        Ok(total)
    }

    /// Evaluates the arguments of a trigger, routine or param (at most `MAX_TRIGGER_ARGS`, checked).
    pub(super) fn eval_args(&mut self, args: &[Ex], ctx: Ctx) -> R<([i64; MAX_TRIGGER_ARGS], usize)> {
        let mut vals = [0i64; MAX_TRIGGER_ARGS];
        for (v, a) in vals.iter_mut().zip(args) {
            *v = self.eval(a, ctx)?;
        }
        Ok((vals, args.len().min(MAX_TRIGGER_ARGS)))
    }

    /// Evaluates an expression. The kinds a run meets at almost every step (numbers, locals,
    /// params, fields, operators) are worked out here, in a small function whose operands are
    /// read in place when they are a number or a local (no call for them); the others, and the
    /// longer kinds (functions, quantifiers, dice), in [`Machine::eval_rest`].
    pub(super) fn eval(&mut self, e: &Ex, ctx: Ctx) -> R<i64> {
        match e {
            Ex::Int(i) => Ok(*i),
            Ex::Local(s) => Ok(self.locals[*s as usize]),
            Ex::Param(i) => {
                let p = self.p;
                self.operand(&p.params[*i as usize].1, ctx)
            }
            Ex::Field(base, f, span) => {
                let v = self.operand(base, ctx)?;
                self.field_of(v, *f, *span)
            }
            Ex::Bin(op, l, r, span) => self.binary(op, l, r, *span, ctx),
            Ex::Not(x) => Ok((self.operand(x, ctx)? == 0) as i64),
            _ => self.eval_rest(e, ctx),
        }
    }

    /// An operand: a number, a local or a local's field (`c.speed`) read in place, anything else
    /// evaluated.
    #[inline(always)]
    fn operand(&mut self, e: &Ex, ctx: Ctx) -> R<i64> {
        match e {
            Ex::Int(i) => Ok(*i),
            Ex::Local(s) => Ok(self.locals[*s as usize]),
            Ex::Field(base, f, span) if let Ex::Local(s) = **base => self.field_of(self.locals[s as usize], *f, *span),
            _ => self.eval(e, ctx),
        }
    }

    /// Field `f` of the entity (or side's owner, or the table) `v` names.
    #[inline(always)]
    pub(super) fn field_of(&self, v: i64, f: FieldId, span: Span) -> R<i64> {
        // An entity (ids below the entities' count: never the table nor a side's owner, which
        // count down from the top), with every value set: read in place.
        if v >= 0 && (v as usize) < self.types.len() && self.all_set() {
            return Ok(self
                .values
                .get(v as usize * self.n_fields + f as usize)
                .copied()
                .unwrap_or(0));
        }
        let id = if v == TABLE as i64 {
            TABLE
        } else {
            self.owner_id(v, span)?
        };
        self.read(id, f, span)
    }

    /// The kinds of expression [`Machine::eval`] leaves: each worked out here.
    #[inline(never)]
    fn eval_rest(&mut self, e: &Ex, ctx: Ctx) -> R<i64> {
        Ok(match e {
            Ex::Int(i) => *i,
            Ex::Local(s) => self.locals[*s as usize],
            Ex::Param(i) => {
                let p = self.p;
                self.eval(&p.params[*i as usize].1, ctx)?
            }
            Ex::Field(base, f, span) => {
                let v = self.eval(base, ctx)?;
                self.field_of(v, *f, *span)?
            }
            Ex::Is(base, m, span) => {
                let v = self.eval(base, ctx)?;
                let id = self.id(v, *span)?;
                // A made thing has no side and no tag.
                self.p.characters.get(id as usize).is_some_and(|ch| match m {
                    Member::Side(s) => ch.side == Some(*s),
                    Member::Tag(t) => ch.tags.contains(t),
                }) as i64
            }
            Ex::Dice(d) => self.roll(*d, ctx)?,
            Ex::DynDice(parts, span) => self.dyn_roll(parts, *span, ctx)?,
            Ex::Faces(q) => self.faces_quant(q, ctx)?,
            Ex::PoolSize(s) => super::pools::unpack(self.locals[*s as usize]).1 as i64,
            Ex::Neg(x, span) => checked(self.eval(x, ctx)?.checked_neg(), *span)?,
            Ex::Not(x) => (self.eval(x, ctx)? == 0) as i64,
            Ex::Bin(op, l, r, span) => self.binary(op, l, r, *span, ctx)?,
            Ex::Call(f, args, span) => self.call(f, args, *span, ctx)?,
            Ex::If(c, a, b) => {
                if self.eval(c, ctx)? != 0 {
                    self.eval(a, ctx)?
                } else {
                    self.eval(b, ctx)?
                }
            }
            Ex::SideOf(base, span) => {
                let v = self.eval(base, ctx)?;
                let id = self.id(v, *span)?;
                self.p
                    .characters
                    .get(id as usize)
                    .and_then(|c| c.side)
                    .map_or(-1, i64::from)
            }
            Ex::SideOwner(base, span) => {
                let v = self.eval(base, ctx)?;
                self.side_owner(v, *span)?
            }
            Ex::InPlay(base, span) => {
                let v = self.eval(base, ctx)?;
                let id = self.id(v, *span)?;
                i64::from(!self.absent.get(id as usize).copied().unwrap_or(true) && !self.is_gone(id))
            }
            Ex::GroupOf(base, span) => {
                let v = self.eval(base, ctx)?;
                let id = self.id(v, *span)?;
                self.group_of(id)
            }
            Ex::LevelNumber(l) => self.counters[*l as usize] as i64,
            Ex::Routine(hook, args, span) => self.routine_value(*hook, args, *span, ctx)?,
            Ex::ParamCall(i, args) => {
                let p = self.p;
                let slots = &p.param_slots[*i as usize];
                let (vals, _) = self.eval_args(args, ctx)?;
                for (s, v) in slots.iter().zip(vals) {
                    self.locals[*s as usize] = v;
                }
                self.eval(&p.params[*i as usize].1, ctx)?
            }
            // The kept orders hold entities only: `none` (or any other value no entity has) is
            // in none of them, and is never compared as an id. Those out of play (gone, not
            // joined) keep their place in the list but are passed over, as quantifiers do.
            Ex::Below(who, o) => {
                let v = self.eval(who, ctx)?;
                let list = &self.ranked[*o as usize];
                let after = list.iter().position(|x| *x as i64 == v).and_then(|i| {
                    list[i + 1..]
                        .iter()
                        .find(|e| !self.absent.get(**e as usize).copied().unwrap_or(false))
                });
                // Itself when last (or not in the order), unless it is out of play: then no one.
                let out = v < 0 || self.absent.get(v as usize).copied().unwrap_or(true);
                after.map_or(if out { NONE } else { v }, |e| *e as i64)
            }
            Ex::Next(who, o, forward) => {
                let v = self.eval(who, ctx)?;
                let list = &self.ranked[*o as usize];
                let n = list.len();
                match list.iter().position(|x| *x as i64 == v) {
                    // Round the table from X's place to the next one in play (X itself, when it
                    // is the only one).
                    Some(i) => (1..=n)
                        .map(|k| if *forward { (i + k) % n } else { (i + n - k % n) % n })
                        .map(|j| list[j])
                        .find(|e| !self.absent.get(*e as usize).copied().unwrap_or(false))
                        .map_or(NONE, |e| e as i64),
                    None => NONE,
                }
            }
            Ex::Position(who, o) => {
                let v = self.eval(who, ctx)?;
                let in_play = |e: &EntityId| !self.absent.get(*e as usize).copied().unwrap_or(false);
                let list = &self.ranked[*o as usize];
                match list.iter().position(|x| *x as i64 == v) {
                    Some(i) if in_play(&list[i]) => list[..i].iter().filter(|e| in_play(e)).count() as i64 + 1,
                    _ => 0,
                }
            }
            Ex::Quant {
                quant,
                var,
                coll,
                presence,
                filter,
                by,
                body,
                span,
            } => self.quant(quant, var, (coll, *presence), filter, (by, body), ctx, *span)?,
        })
    }

    /// A binary operator: `and`/`or` short-circuit; arithmetic is checked; division rounds down
    /// (Euclidean) and refuses 0.
    #[inline(always)]
    fn binary(&mut self, op: &BinOp, l: &Ex, r: &Ex, span: Span, ctx: Ctx) -> R<i64> {
        let a = self.operand(l, ctx)?;
        match op {
            BinOp::And if a == 0 => return Ok(0),
            BinOp::Or if a != 0 => return Ok(1),
            _ => {}
        }
        let b = self.operand(r, ctx)?;
        Ok(match op {
            BinOp::And | BinOp::Or => (b != 0) as i64,
            BinOp::Eq => (a == b) as i64,
            BinOp::Ne => (a != b) as i64,
            BinOp::Lt => (a < b) as i64,
            BinOp::Le => (a <= b) as i64,
            BinOp::Gt => (a > b) as i64,
            BinOp::Ge => (a >= b) as i64,
            BinOp::Add => checked(a.checked_add(b), span)?,
            BinOp::Sub => checked(a.checked_sub(b), span)?,
            BinOp::Mul => checked(a.checked_mul(b), span)?,
            BinOp::Div => {
                if b == 0 {
                    return Err(division_by_zero(span));
                }
                checked(a.checked_div_euclid(b), span)?
            }
        })
    }

    /// A function over its arguments: `highest`, `lowest`, `abs`.
    fn call(&mut self, f: &Func, args: &[Ex], span: Span, ctx: Ctx) -> R<i64> {
        let mut acc: Option<i64> = None;
        for a in args {
            let v = self.eval(a, ctx)?;
            acc = Some(match (f, acc) {
                (Func::Highest, Some(x)) => x.max(v),
                (Func::Lowest, Some(x)) => x.min(v),
                (Func::Abs, _) => checked(v.checked_abs(), span)?,
                (_, None) => v,
            });
        }
        Ok(acc.unwrap_or(0))
    }

    /// A quantifier (`any`, `all`, `count`, `sum`, `max`, `min`, `first`, `last`) over the members
    /// of a collection in play that pass the filter; the variable is restored after.
    #[allow(clippy::too_many_arguments)]
    fn quant(
        &mut self,
        quant: &Quant,
        var: &Slot,
        (coll, presence): (&Coll, Presence),
        filter: &Option<Box<Ex>>,
        (by, body): (&Option<OrderId>, &Option<Box<Ex>>),
        ctx: Ctx,
        span: Span,
    ) -> R<i64> {
        let n = self.members(*coll).len();
        // `tied` is the group being sorted: whom the walk or choice drew, in play or out of it.
        let presence = if *coll == Coll::Tied { Presence::Both } else { presence };
        let saved = self.locals[*var as usize];
        let mut fold = Fold::new(*quant);
        // Only `first` and `last` keep what they find (an empty `Vec` allocates nothing).
        let mut found = if matches!(quant, Quant::First | Quant::Last) {
            self.ids.take()
        } else {
            Vec::new()
        };
        // The walk's `?`s return here: the variable and the list are given back on every path
        // (a routine called in the filter may end the encounter, after which the end hooks run).
        let walked = self.quant_walk(
            (*quant, by.is_some()),
            *var,
            (*coll, presence, n),
            filter.as_deref().map(Filter::Tree),
            body.as_deref().map(Filter::Tree),
            &mut fold,
            &mut found,
            ctx,
            span,
        );
        let sorted = match (walked, by) {
            (Ok(()), Some(o)) => self.sort(*o, &mut found),
            (r, _) => r,
        };
        self.locals[*var as usize] = saved;
        let value = match quant {
            Quant::First => found.first().map_or(NONE, |e| *e as i64),
            Quant::Last => found.last().map_or(NONE, |e| *e as i64),
            _ => fold.value(),
        };
        // Only a list taken is given back: an empty one put on the spares would be the next
        // walk's list, which then allocates anew (each `any` put one, so a `for each` after it
        // grew its list at every round).
        if matches!(quant, Quant::First | Quant::Last) {
            self.ids.put(found);
        }
        sorted.map(|()| value)
    }

    /// The members a quantifier visits, each a step: `found` keeps them for `first` and `last`,
    /// `fold` folds the others' values. The one loop of the walk's quantifiers and the compiled
    /// ones (`code::expr`'s `Quantifier`), their filter and body as written or compiled; inlined
    /// into each, so that the compiled one's `Filter::Code` is known there and costs no test.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(in crate::runtime) fn quant_walk(
        &mut self,
        (quant, sorted): (Quant, bool),
        var: Slot,
        (coll, presence, n): (Coll, Presence, usize),
        filter: Option<Filter<'_>>,
        body: Option<Filter<'_>>,
        fold: &mut Fold,
        found: &mut Vec<EntityId>,
        ctx: Ctx,
        span: Span,
    ) -> R<()> {
        for i in 0..n {
            // Expressions make and destroy nothing, so the lists keep their length meanwhile.
            let Some(id) = self.member(coll, i) else {
                break;
            };
            // Every element visited is a step: a quantifier over a growing collection is work.
            self.tick(span)?;
            // A side is never out of play (its index is no entity's).
            if coll != Coll::Sides && !self.present(id, presence) {
                continue;
            }
            self.locals[var as usize] = id as i64;
            if let Some(f) = filter
                && self.test(f, ctx)? == 0
            {
                continue;
            }
            if matches!(quant, Quant::First | Quant::Last) {
                found.push(id);
                if quant == Quant::First && !sorted {
                    break;
                }
                continue;
            }
            let v = match body {
                Some(b) => self.test(b, ctx)?,
                None => 1,
            };
            if fold.take(v, span)? {
                break;
            }
        }
        Ok(())
    }
}

/// `run::division_by_zero` at `span`.
#[cold]
#[inline(never)]
pub(super) fn division_by_zero(span: Span) -> Box<Diag> {
    Box::new(
        Diag::new("run::division_by_zero", "division by zero")
            .label(span, "the right-hand side is 0 here")
            .help("guard the division with a condition"),
    )
}

/// What a quantifier that gives a number or a truth value (`any`, `all`, `count`, `sum`, `max`,
/// `min`) has found so far, over characters, things, sides or a roll's faces alike.
pub(super) struct Fold {
    quant: Quant,
    acc: Option<i64>,
    count: i64,
}

impl Fold {
    pub(super) fn new(quant: Quant) -> Self {
        Fold {
            quant,
            acc: None,
            count: 0,
        }
    }

    /// One member's value (its body, or 1 without one). `true`: the result is settled (`any`
    /// found one, `all` found one that fails), so the walk may stop. A sum past 64 bits is
    /// `run::overflow` at `span`.
    pub(super) fn take(&mut self, v: i64, span: Span) -> R<bool> {
        match self.quant {
            Quant::Any if v != 0 => {
                self.acc = Some(1);
                return Ok(true);
            }
            Quant::All if v == 0 => {
                self.acc = Some(0);
                return Ok(true);
            }
            Quant::Count if v != 0 => self.count += 1,
            Quant::Sum => self.acc = Some(checked(self.acc.unwrap_or(0).checked_add(v), span)?),
            Quant::Max => self.acc = Some(self.acc.map_or(v, |a| a.max(v))),
            Quant::Min => self.acc = Some(self.acc.map_or(v, |a| a.min(v))),
            _ => {}
        }
        Ok(false)
    }

    /// The result: `any` of nothing is false, `all` of nothing true, the others 0.
    pub(super) fn value(&self) -> i64 {
        match self.quant {
            Quant::Any => self.acc.unwrap_or(0),
            Quant::All => self.acc.unwrap_or(1),
            Quant::Count => self.count,
            _ => self.acc.unwrap_or(0),
        }
    }
}
