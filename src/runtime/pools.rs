//! Dice pools at run time: exploding dice (each extra die from the same stream, in order, so
//! forced rolls address every one) and quantifiers over the faces of one roll.

use super::dice::ImpossibleRoll;
use super::state::{Ctx, Machine, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::{MAX_DICE, MAX_EXPLOSIONS, MAX_POOL_FACES};
use crate::source::Span;
use crate::syntax::ast::Dice;

/// The room the stack of faces being walked starts with: one roll of the most dice, exploded.
const HELD_START: usize = (MAX_DICE + MAX_EXPLOSIONS) as usize;

impl Machine<'_> {
    /// Rolls one die of `dice` into `faces`, and again while it explodes (each extra die counted
    /// in `extra`, at most `MAX_EXPLOSIONS` for the roll).
    pub(super) fn roll_one(&mut self, dice: Dice, listed: Option<&[i64]>, span: Span, extra: &mut u32) -> R<()> {
        loop {
            let rolled = match listed {
                Some(faces) => self.dice.die_of(faces),
                None => self.dice.die(dice.sides).map(i64::from),
            };
            let f = rolled.map_err(|e| impossible(e, listed, dice, span))?;
            self.faces.push(f);
            match dice.explode {
                Some(t) if f >= t => {
                    *extra += 1;
                    if *extra > MAX_EXPLOSIONS {
                        return Err(Box::new(
                            Diag::new(
                                "run::dice",
                                format!("these dice exploded more than {MAX_EXPLOSIONS} times in one roll"),
                            )
                            .label(span, "exploding dice")
                            .help("explode on a higher face, or roll fewer dice (forced rolls may also keep a die exploding)"),
                        ));
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The face computed dice explode on: the highest face for `!`, else `!T`'s value, which must
    /// let them stop (above the lowest face, at most the highest).
    pub(super) fn explode_on(
        &mut self,
        t: Option<&Ex>,
        sides: u32,
        listed: Option<&[i64]>,
        span: Span,
        ctx: Ctx,
    ) -> R<i64> {
        let (lo, hi) = match listed {
            Some(f) => (
                f.iter().copied().min().unwrap_or(0),
                f.iter().copied().max().unwrap_or(0),
            ),
            None => (1, i64::from(sides)),
        };
        let Some(t) = t else {
            if lo == hi {
                return Err(Box::new(
                    Diag::new("run::dice", "dice whose faces are all the same cannot explode")
                        .label(span, "these dice")
                        .help("list different faces, or drop the `!`"),
                ));
            }
            return Ok(hi);
        };
        let v = self.eval(t, ctx)?;
        if v > lo && v <= hi {
            return Ok(v);
        }
        Err(Box::new(
            Diag::new(
                "run::dice",
                format!("dice cannot explode on {v}: from {} to {hi}", lo + 1),
            )
            .label(span, "these dice")
            .help("explode on a face above the lowest (or they would never stop) and at most the highest"),
        ))
    }

    /// Rolls `dice` when it is dice (literal or written with expressions), leaving the faces in
    /// `Machine::faces`; `None` for any other expression.
    fn roll_ex(&mut self, dice: &Ex, ctx: Ctx) -> Option<R<i64>> {
        match dice {
            Ex::Dice(d) => Some(self.roll(*d, ctx)),
            // A pool's or a faces quantifier's dice may be none: an empty pool.
            Ex::DynDice(parts, span) => Some(self.dyn_roll_from(0, parts, *span, ctx)),
            _ => None,
        }
    }

    /// `count f in DICE [where C] [: V]`: rolls the dice once (one `roll` event), then walks their
    /// faces in rolled order, each face a step; the variable is restored after.
    pub(super) fn faces_quant(&mut self, q: &FacesEx, ctx: Ctx) -> R<i64> {
        if self.held.capacity() == 0 {
            self.held.reserve_exact(HELD_START);
        }
        let base = self.held.len();
        match &q.dice {
            // A pool's faces: copied onto the stack walked (expressions change no pool).
            Ex::Local(s) => {
                let (start, len) = unpack(self.locals[*s as usize]);
                let faces = self.pooled.get(start..start + len).unwrap_or(&[]);
                self.held.extend_from_slice(faces);
                let r = self.walk_held(q, base, ctx);
                self.held.truncate(base);
                return r;
            }
            dice => match self.roll_ex(dice, ctx) {
                Some(r) => r?,
                None => {
                    return Err(Box::new(
                        Diag::new("run::dice", "a quantifier over faces without dice")
                            .label(q.span, "here")
                            .help("please report this"),
                    ));
                }
            },
        };
        let faces = std::mem::take(&mut self.faces);
        self.held.extend_from_slice(&faces);
        self.faces = faces;
        let r = self.walk_held(q, base, ctx);
        self.held.truncate(base);
        r
    }

    fn walk_held(&mut self, q: &FacesEx, base: usize, ctx: Ctx) -> R<i64> {
        let var = q.var as usize;
        let saved = self.locals[var];
        let mut fold = super::eval::Fold::new(q.quant);
        // Restored on every path, as `quant` restores its variable.
        let walked = self.fold_held(q, base, &mut fold, ctx);
        self.locals[var] = saved;
        walked.map(|()| fold.value())
    }

    fn fold_held(&mut self, q: &FacesEx, base: usize, fold: &mut super::eval::Fold, ctx: Ctx) -> R<()> {
        let var = q.var as usize;
        for i in base..self.held.len() {
            self.tick(q.span)?;
            self.locals[var] = self.held[i];
            if let Some(f) = &q.filter
                && self.eval(f, ctx)? == 0
            {
                continue;
            }
            let v = match &q.body {
                Some(b) => self.eval(b, ctx)?,
                None => 1,
            };
            if fold.take(v, q.span)? {
                break;
            }
        }
        Ok(())
    }
}

/// A pool's place in `Machine::pooled` as its slot holds it: where its faces start, and how
/// many there are.
fn pack(start: usize, len: usize) -> i64 {
    ((start as i64) << 32) | len as i64
}

pub(super) fn unpack(v: i64) -> (usize, usize) {
    (((v >> 32) & 0xffff_ffff) as usize, (v & 0xffff_ffff) as usize)
}

/// A forced roll that cannot come up on these dice.
fn impossible(e: ImpossibleRoll, listed: Option<&[i64]>, dice: Dice, span: Span) -> Box<Diag> {
    let help = match listed {
        Some(faces) => format!(
            "forced rolls for these dice must be one of their faces: {}",
            faces.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
        None => format!("forced rolls for a d{} must be between 1 and {}", e.sides, e.sides),
    };
    let die = match listed {
        Some(_) => "these dice".to_string(),
        None => format!("a d{}", e.sides),
    };
    Box::new(
        Diag::new(
            "run::impossible_roll",
            format!("the forced roll {} cannot come up on {die}", e.value),
        )
        .label(
            span,
            match listed {
                Some(_) => "these dice took it".to_string(),
                None => format!("this {dice} took it"),
            },
        )
        .help(help),
    )
}

impl Machine<'_> {
    /// `roll DICE as p`, `remove FACE from p`, `for each f in p`.
    pub(super) fn pool_st(&mut self, st: &PoolSt, ctx: Ctx) -> R<Flow> {
        match st {
            PoolSt::RollAs { slot, dice, span } => {
                match self.roll_ex(dice, ctx) {
                    Some(r) => r?,
                    None => self.eval(dice, ctx)?,
                };
                if self.pooled.capacity() == 0 {
                    self.pooled.reserve_exact(MAX_POOL_FACES);
                }
                let (start, len) = (self.pooled.len(), self.faces.len());
                if start + len > MAX_POOL_FACES {
                    return Err(Box::new(
                        Diag::new(
                            "run::pool",
                            format!("the pools held at once would hold more than {MAX_POOL_FACES} dice"),
                        )
                        .label(*span, "this pool")
                        .help("roll fewer dice, or roll pools in inner blocks, which give their dice back as they end"),
                    ));
                }
                let faces = std::mem::take(&mut self.faces);
                self.pooled.extend_from_slice(&faces);
                self.faces = faces;
                self.locals[*slot as usize] = pack(start, len);
                Ok(Flow::Next)
            }
            PoolSt::Remove { slot, face, span } => {
                let v = self.eval(face, ctx)?;
                let (start, len) = unpack(self.locals[*slot as usize]);
                let region = self.pooled.get_mut(start..start + len).unwrap_or_default();
                let Some(at) = region.iter().position(|f| *f == v) else {
                    return Err(Box::new(
                        Diag::new("run::pool", format!("no die in the pool shows {v}"))
                            .label(*span, "takes out a die that is not there")
                            .help("test first: `if any f in p: f == 6 { remove 6 from p }`"),
                    ));
                };
                region.copy_within(at + 1.., at);
                self.locals[*slot as usize] = pack(start, len - 1);
                Ok(Flow::Next)
            }
            PoolSt::ForFaces {
                var,
                pool,
                filter,
                body,
                span,
            } => {
                self.loops.push(*span);
                let flow = self.walk_pool(*var, *pool, filter.as_ref(), body, *span);
                self.loops.pop();
                flow
            }
        }
    }

    /// Each face of the pool in `pool`, in rolled order (the checker keeps the pool unchanged
    /// meanwhile), each a step.
    fn walk_pool(&mut self, var: Slot, pool: Slot, filter: Option<&Ex>, body: &Block, span: Span) -> R<Flow> {
        let (start, len) = unpack(self.locals[pool as usize]);
        for i in start..start + len {
            self.tick(span)?;
            self.locals[var as usize] = self.pooled.get(i).copied().unwrap_or(0);
            if let Some(f) = filter
                && self.eval(f, super::state::NO_CTX)? == 0
            {
                continue;
            }
            match self.block(body)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }
}
