//! Per-owner limits: `resource stun(c) min 0 max c.max_stun`. `c` names the owner (a character,
//! a thing of the type declaring it, or a side); the limits may read it and the state, and are
//! worked out for the owner at each change of the resource (so a change of `max_stun` holds from
//! the next change of `stun` on). No dice.

use super::checker::Checker;
use super::{SIDE, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// The limits of `resource NAME(c)`: numbers at its decimals, no dice, `c` the owner.
    pub(super) fn owned_limits(
        &mut self,
        owner: &Ident,
        limits: [Option<&Expr>; 2],
        default: Option<&Expr>,
        decimals: u8,
    ) {
        let t = match self.field_owner {
            SIDE => Ty::Side,
            o => Ty::Entity(o),
        };
        self.bind(owner, t);
        for e in limits.into_iter().flatten() {
            self.expect(e, Ty::of_scale(decimals), "a resource limit");
            if let Some(span) = self.decls.rolls(e) {
                self.err(
                    Diag::new("check::rolled", "a resource limit cannot roll dice")
                        .label(span, "rolls here")
                        .help("it is worked out at each change of the resource: read a field that holds the roll (`max c.max_stun`)"),
                );
            }
        }
        // The start when the owner gives none, worked out for it: it may read it, and roll.
        if let Some(e) = default {
            self.expect(e, Ty::of_scale(decimals), "a resource's default");
        }
        self.scopes.pop();
    }
}
