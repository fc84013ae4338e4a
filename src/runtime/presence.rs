//! Characters out of play walked: `x in COLL out of play` (only those out of play), `including
//! out of play` (both) after the collection of a `choose ... from`, a quantifier or a `for each`,
//! tested by one function (`present`); and the members a choice does not offer for being
//! out of play (or in it, or destroyed): an answer naming one is refused with why, and the
//! decision asked again.

use super::code::Filter;
use super::state::{Machine, R};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;
use crate::syntax::ast::Presence;

impl Machine<'_> {
    /// Whether `e` is drawn by a walk, quantifier or choice with this presence: in play (the
    /// default), out of play (`out of play`), or either (`including out of play`); a destroyed
    /// entity never. The one test every collection walk makes.
    pub(super) fn present(&self, e: EntityId, presence: Presence) -> bool {
        let absent = self.absent.get(e as usize).copied().unwrap_or(false);
        !self.is_gone(e)
            && match presence {
                Presence::InPlay => !absent,
                Presence::OutOfPlay => absent,
                Presence::Both => true,
            }
    }

    /// Runs `f` with the walks it makes drawing from `presence` (what `gather` and a walk's
    /// re-check of each member read), then restores the walk under way's, however `f` ended.
    pub(super) fn drawing_from<T>(&mut self, presence: Presence, f: impl FnOnce(&mut Self) -> T) -> T {
        let outer = std::mem::replace(&mut self.drawing, presence);
        let out = f(self);
        self.drawing = outer;
        out
    }

    /// The candidates of a `choose ... from`: the members of the collection in play, out of it,
    /// or both (never a destroyed thing) that pass the filter, in the collection's order.
    pub(super) fn gather_present(
        &mut self,
        (var, coll): (Slot, Coll),
        presence: Presence,
        filter: Option<&Ex>,
        out: &mut Vec<EntityId>,
        span: Span,
    ) -> R<()> {
        self.drawing_from(presence, |m| m.gather((var, coll), filter.map(Filter::Tree), out, span))
    }

    /// The members of the collection a `choose ... from` cannot offer for where they are: out of
    /// play (or, with `out of play`, in it), or destroyed.
    pub(super) fn outside_of(&mut self, coll: Coll, presence: Presence, out: &mut Vec<OptionKey>) {
        let mut i = 0;
        while let Some(e) = self.member(coll, i) {
            i += 1;
            if !self.present(e, presence) {
                out.push(OptionKey::Character(e));
            }
        }
    }

    /// Why a member named by an answer is not a candidate: it is gone, out of play, or in play.
    pub(super) fn explain_outside(&mut self, key: OptionKey, who: Who, span: Span) -> R<(Vec<String>, Diag)> {
        let e = match (key, who) {
            (OptionKey::Character(e), _) => e,
            (OptionKey::Action(a), Who::Character(actor)) => return self.explain_unaffordable(a, actor, span),
            _ => return Ok((Vec::new(), Diag::new("run::refused", "refused").label(span, "here"))),
        };
        let name = self.world().character_name(e).to_string();
        let text = if self.is_gone(e) {
            format!("{name} is gone")
        } else if self.absent.get(e as usize).copied().unwrap_or(false) {
            format!("{name} is out of play")
        } else {
            format!("{name} is in play")
        };
        let diag = Diag::new("run::refused", text.clone())
            .label(span, "while this was being decided")
            .help(format!("{name} could not be chosen here; the answer was refused"));
        Ok((vec![text], diag))
    }

    /// `c.group`: the first member of `e`'s group in play, in declaration order; the first member
    /// when none is; `e` itself for an entity declared alone (a group of one).
    pub(super) fn group_of(&self, e: EntityId) -> i64 {
        let Some((first, n)) = self.p.characters.get(e as usize).and_then(|c| c.group) else {
            return i64::from(e);
        };
        let in_play = (first..first.saturating_add(n)).find(|m| self.present(*m, Presence::InPlay));
        i64::from(in_play.unwrap_or(first))
    }

    /// Whether `destroy` took `e` out for good.
    pub(super) fn is_gone(&self, e: EntityId) -> bool {
        self.gone.get(e as usize).copied().unwrap_or(false)
    }
}
