//! Limits worked out for their owner: `resource stun(c) min 0 max c.max_stun`. Fixed limits are
//! worked out once as the run starts (`Machine::limits`); an owned resource's are worked out at
//! each change of it (and as its start is worked out), with `c` naming the owner, so a change
//! of `max_stun` holds from the next change of `stun` on.

use super::state::{Machine, NO_CTX, R};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::trace::Decimal;

impl Machine<'_> {
    /// The lower and upper limits of field `f` for owner `e`.
    #[inline]
    pub(super) fn bounds(&mut self, e: EntityId, f: FieldId) -> R<(Option<i64>, Option<i64>)> {
        match self.p.fields.get(f as usize) {
            None => Ok((None, None)),
            // Fixed limits, worked out as the run started.
            Some(def) if def.owned.is_none() => Ok(self.limits.get(f as usize).copied().unwrap_or((None, None))),
            Some(_) => self.owned_bounds(e, f),
        }
    }

    /// The limits of an owned resource (`resource NAME(c) ...`), worked out for owner `e` now.
    #[inline(never)]
    fn owned_bounds(&mut self, e: EntityId, f: FieldId) -> R<(Option<i64>, Option<i64>)> {
        let p = self.p;
        let Some(def) = p.fields.get(f as usize) else {
            return Ok((None, None));
        };
        let Some((slot, at)) = def.owned else {
            return Ok(self.limits.get(f as usize).copied().unwrap_or((None, None)));
        };
        // The owner as the limits read it: an entity, or a side by its index.
        let owner = p.side_of_owner(e).map_or(i64::from(e), |s| s as i64);
        let saved = self.locals[slot as usize];
        self.locals[slot as usize] = owner;
        let lo = def.min.as_ref().map(|x| self.eval(x, NO_CTX)).transpose();
        let hi = def.max.as_ref().map(|x| self.eval(x, NO_CTX)).transpose();
        self.locals[slot as usize] = saved;
        let (lo, hi) = (lo?, hi?);
        if let (Some(l), Some(h)) = (lo, hi)
            && l > h
        {
            let d = def.decimals;
            return Err(Box::new(
                Diag::new(
                    "run::limits",
                    format!(
                        "{}'s `{}` has its min {} above its max {}",
                        p.character_name(e),
                        def.name,
                        Decimal(l, d),
                        Decimal(h, d)
                    ),
                )
                .label(at, "its limits are worked out here, for each owner")
                .help("keep the fields the limits read in order (`min` at most `max`), or bound one by the other: `max highest(c.max_stun, 0)`"),
            ));
        }
        Ok((lo, hi))
    }

    /// `x` (an owned resource's default) worked out with the owner slot naming owner `e`.
    pub(super) fn for_owner(&mut self, e: EntityId, f: FieldId, x: &Ex, ctx: super::state::Ctx) -> R<i64> {
        let p = self.p;
        let Some((slot, _)) = p.fields.get(f as usize).and_then(|d| d.owned) else {
            return self.eval(x, ctx);
        };
        let owner = p.side_of_owner(e).map_or(i64::from(e), |s| s as i64);
        let saved = self.locals[slot as usize];
        self.locals[slot as usize] = owner;
        let v = self.eval(x, ctx);
        self.locals[slot as usize] = saved;
        v
    }

    /// `v` kept within field `f`'s limits for owner `e`.
    pub(super) fn clamp_for(&mut self, e: EntityId, f: FieldId, v: i64) -> R<i64> {
        let (lo, hi) = self.bounds(e, f)?;
        let v = hi.map_or(v, |h| v.min(h));
        Ok(lo.map_or(v, |l| v.max(l)))
    }
}
