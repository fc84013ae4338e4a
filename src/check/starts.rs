//! An encounter giving a ruleset's `global` its start (`global doom default 3` in a later file):
//! only the start changes; its type, decimals and limits stay the ruleset's.

use super::checker::Checker;
use super::{Decls, FieldKind};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl<'f> Decls<'f> {
    /// Whether `global NAME` in file `file_index` gives the start of a global an earlier file
    /// declares (else it declares one, and a second in one file is `check::duplicate`).
    pub(super) fn starts_global(&self, name: &Ident, file_index: usize) -> bool {
        file_index > 0
            && matches!(self.field(&name.node), Some((_, FieldKind::Global)))
            && self.declared_at(&name.node).is_some_and(|at| at.file != name.span.file)
    }

    /// Records a later file's start for a ruleset's global; a type, decimals or a limit given
    /// again is `check::global_start` (they are the ruleset's), as is a line with no `default`.
    pub(super) fn declare_global_start(
        &mut self,
        name: &Ident,
        (ty, decimals, limit): (Option<&Ident>, u8, Option<&Expr>),
        default: Option<&Expr>,
        diags: &mut Vec<Diag>,
    ) {
        let Some((i, _)) = self.field(&name.node) else {
            return;
        };
        let again = self
            .global_starts
            .iter()
            .find(|(s, (f, _))| s.file == name.span.file && *f == i);
        if let Some((first, _)) = again {
            diags.push(
                Diag::new(
                    "check::duplicate",
                    format!("the start of `{}` is given twice in this file", name.node),
                )
                .label(name.span, "given again here")
                .label(*first, "first given here")
                .help("keep one"),
            );
            return;
        }
        let first = self.declared_at(&name.node);
        let refuse = |what: String, at: Span, label: &str| {
            let mut d = Diag::new("check::global_start", what).label(at, label.to_string());
            if let Some(first) = first {
                d = d.label(first, "declared in the ruleset here");
            }
            d.help(format!(
                "a later file gives a global its start only: `global {} default VALUE`; its type, decimals and limits are the ruleset's",
                name.node
            ))
        };
        let held = self.field_refers[i as usize];
        let same_type = match ty {
            None => true,
            Some(t) if self.is_truth(Some(t)) => self.truth(i),
            Some(t) => !self.truth(i) && held == Some(self.value_type(t, &mut Vec::new())),
        };
        let ok = same_type && (decimals == self.field_scale[i as usize] || decimals == 0) && limit.is_none();
        if !same_type {
            let t = ty.map_or(name.span, |t| t.span);
            diags.push(refuse(
                format!("`{}` cannot change its type here", name.node),
                t,
                "another type",
            ));
        } else if decimals != self.field_scale[i as usize] && decimals != 0 {
            diags.push(refuse(
                format!("`{}` cannot change its decimals here", name.node),
                name.span,
                "other decimals",
            ));
        } else if let Some(l) = limit {
            diags.push(refuse(
                format!("`{}` cannot change its limits here", name.node),
                l.span,
                "a limit",
            ));
        } else if default.is_none() {
            diags.push(refuse(
                format!("`{}` is declared again without a start", name.node),
                name.span,
                "no `default`",
            ));
        }
        // Refused or not, it is a start: the checker does not take it for a declaration.
        self.global_starts.insert(name.span, (i, ok && default.is_some()));
    }
}

impl Checker<'_> {
    /// A later file's start for a ruleset's global: a value of the global's type.
    pub(super) fn global_start(&mut self, name: &Ident, default: Option<&Expr>) -> bool {
        let Some(&(i, ok)) = self.decls.global_starts.get(&name.span) else {
            return false;
        };
        // A start refused for its type or limits is not checked again (no echoes).
        if let Some(e) = default.filter(|_| ok) {
            let want = self.decls.field_ty(i);
            self.expect(e, want, "a global's start");
        }
        true
    }
}
