//! Checking moments: `together { ... }` blocks, walks whose ties act together (`by ORDER ties
//! together`), walks that pick again (`repeat for first ...`), and changes deferred `at end of
//! moment` / `at end of LEVEL`.

use super::checker::Checker;
use super::suggest::unknown;
use crate::diag::Diag;
use crate::syntax::ast::*;

/// Where the statement being checked stands, for the changes it defers.
#[derive(Default, Clone, Copy)]
pub(super) struct Scope {
    /// How many moments enclose it in its own block: `together` blocks, `together` walks and the
    /// bodies of `ties together` walks.
    pub depth: usize,
    /// Written in `setup` or `play` (not in an action, a hook or a routine, which run wherever
    /// they are performed, called or fired: there, a change deferred with no moment open is a
    /// run error instead).
    pub play: bool,
}

impl Checker<'_> {
    /// `setup { ... }` and `play { ... }`: what encloses each statement is known here.
    pub(super) fn play_block(&mut self, b: &Block) {
        let outer = std::mem::replace(&mut self.moments, Scope { depth: 0, play: true });
        self.block(b);
        self.moments = outer;
    }

    /// A block run as a moment (`together { ... }`, a `together` walk's body, the body of a
    /// `ties together` walk): `together` says whether secret choices may be made in it.
    pub(super) fn moment_body(&mut self, body: &Block, together: bool) {
        self.moments.depth += 1;
        if together {
            self.together += 1;
            self.walks.push((self.levels.len(), self.repeats));
        }
        self.block(body);
        if together {
            self.walks.pop();
            self.together -= 1;
        }
        self.moments.depth -= 1;
    }

    /// The words that cannot go with `ties together` (an `anew` walk may tie) or with a walk that
    /// picks again, and an order with no value key to tie on.
    pub(super) fn walk_words(&mut self, f: &ForEach) {
        if f.ties && (f.together || f.backwards || f.from.is_some()) {
            self.err(
                Diag::new(
                    "check::wrong_kind",
                    "a walk whose ties act together cannot also be `together`, `backwards` or `from` a place",
                )
                .label(f.span, "this walk")
                .help(
                    "`ties together` makes a moment of each tied group in the order's own order; drop the other word",
                ),
            );
        }
        if let (true, Some(o)) = (f.ties, &f.order)
            && let Some(at) = self.decls.order_tiebreak_first.get(&o.node).copied()
        {
            self.err(
                Diag::new(
                    "check::ties",
                    format!("`{}` begins with a tie-breaker: nothing ties its members for `ties together`", o.node),
                )
                .label(o.span, "walked with `ties together`")
                .label(at, "its first key rolls off or asks")
                .help("members act together when they are tied on the order's value keys written before its first `roll` or `chosen by` key: put the value keys (`c.init desc`) first"),
            );
        }
    }

    /// `CHANGE at end of moment` / `CHANGE at end of LEVEL`: the change is checked as written;
    /// in `setup` and `play`, a moment (or the level) must enclose it.
    pub(super) fn deferred(&mut self, d: &Deferred) {
        self.stmt(&d.stmt);
        match &d.level {
            None if self.moments.play && self.moments.depth == 0 => self.err(
                Diag::new("check::no_moment", "this change waits for the end of a moment, but no moment encloses it")
                    .label(d.at, "deferred to the end of the moment")
                    .help("put it inside `together { ... }`, a `together for each` walk or a `... ties together` walk; or defer it to a level: `at end of LEVEL`"),
            ),
            None => {}
            Some(l) if !self.decls.level_names.contains_key(&l.node) => {
                let names: Vec<&str> = self.decls.levels.iter().map(|(n, _)| n.as_str()).collect();
                self.err(unknown("level", &l.node, l.span, names.iter()));
            }
            Some(l) if self.moments.play && !self.levels.iter().any(|n| n.node == l.node) => {
                let d = Diag::new(
                    "check::no_moment",
                    format!("this change waits for the end of `{}`, but it is not inside a level of that name", l.node),
                )
                .label(l.span, "no enclosing level has this name");
                let names: Vec<&str> = self.levels.iter().map(|n| n.node.as_str()).collect();
                self.err(if names.is_empty() {
                    d.help("defer it to a level it is inside, or to the end of the moment: `at end of moment`")
                } else {
                    d.help(format!("the enclosing levels here are: {}", names.join(", ")))
                });
            }
            Some(_) => {}
        }
    }
}
