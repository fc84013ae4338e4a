//! Lowering sides and roles as values: a side's field is owned by the side an expression gives
//! (`Ex::SideOwner`), and a chooser computed as a role is asked as that role.

use super::Lower;
use crate::compile::ir::*;
use crate::syntax::ast::Expr;

impl Lower<'_> {
    /// Whether field `f` is one of the sides' fields (`side NAME, ... { FIELDS }`).
    pub(super) fn is_side_field(&self, f: FieldId) -> bool {
        self.p
            .fields
            .get(f as usize)
            .is_some_and(|d| d.owner == crate::check::SIDE)
    }

    /// The owner of field `f` given by `base`: for a side's field, the side `base` gives, as
    /// its owner (`none` stops the run there); else `base` itself.
    pub(super) fn side_owner(&self, f: FieldId, base: Box<Ex>, span: crate::source::Span) -> Box<Ex> {
        if self.is_side_field(f) {
            Box::new(Ex::SideOwner(base, span))
        } else {
            base
        }
    }

    /// A chooser the checker found to be a computed role (`Checked::role_choosers`).
    pub(super) fn role_chooser(&mut self, e: &Expr) -> Option<ChooserEx> {
        self.role_choosers
            .contains(&e.span)
            .then(|| ChooserEx::RoleOf(self.expr(e), e.span))
    }
}
