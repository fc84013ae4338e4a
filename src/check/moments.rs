//! Checking moments: `together { ... }` blocks, walks whose ties act together (`by ORDER ties
//! together`), walks that pick again (`repeat for first ...`), and changes deferred `at end of
//! moment` / `at end of LEVEL`.

use super::checker::Checker;
use super::suggest::unknown;
use crate::diag::Diag;
use crate::syntax::ast::*;

/// Where the statement being checked stands, for the changes it defers.
#[derive(Default, Clone)]
pub(super) struct Scope {
    /// How many moments enclose it in its own block: `together` blocks, `together` walks and the
    /// bodies of `ties together` walks.
    pub depth: usize,
    /// Written in `setup` or `play` (not in an action, a hook or a routine, which run wherever
    /// they are performed, called or fired: there, a change deferred with no moment open is a
    /// run error instead).
    pub play: bool,
    /// The decision whose options are being checked (set as a `choose` is checked).
    pub choice: Option<Ident>,
    /// Inside the block of an option held `until revealed`: its decision, and how many levels
    /// enclosed the block (those entered inside it are open as it runs).
    pub held: Option<(Ident, usize)>,
}

/// A held option's block runs where a `reveal` shows it, so the changes it defers to the end
/// of a moment or of a level outside it wait for one open at each `reveal` of its decision.
#[derive(Default)]
pub(super) struct HeldMoments {
    /// The decision, the level (`None`: the moment) and where the change is deferred.
    defers: Vec<(Ident, Option<Ident>, Span)>,
    /// Each `reveal` in `setup` or `play` (where what is open is known): the decision, how many
    /// moments enclose it and the levels that do.
    sites: Vec<(Ident, usize, Vec<String>)>,
}

impl Checker<'_> {
    /// `setup { ... }` and `play { ... }`: what encloses each statement is known here.
    pub(super) fn play_block(&mut self, b: &Block) {
        let outer = std::mem::replace(
            &mut self.moments,
            Scope {
                play: true,
                ..Scope::default()
            },
        );
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

    /// Entering the block of an option chosen in secret: when it is held, no moment written
    /// around it is open as it runs (at a `reveal`). Returns the scope to restore after it.
    pub(super) fn held_block(&mut self, held: bool) -> Scope {
        let outer = self.moments.clone();
        if let (true, Some(choice)) = (held, outer.choice.clone()) {
            self.moments.depth = 0;
            self.moments.held = Some((choice, self.levels.len()));
        }
        outer
    }

    /// `reveal DECISION of WHO` in `setup` or `play`: the held blocks it runs defer to what is
    /// open here (see `held_deferrals`).
    pub(super) fn reveal_site(&mut self, decision: &Ident) {
        if self.moments.play && self.moments.held.is_none() {
            let levels = self.levels.iter().map(|l| l.node.clone()).collect();
            self.held_moments
                .sites
                .push((decision.clone(), self.moments.depth, levels));
        }
    }

    /// Every change a held option's block defers has its moment or level open at each `reveal`
    /// of its decision in `setup` or `play` (elsewhere, where it runs is known only as it runs:
    /// `run::no_moment`).
    pub(super) fn held_deferrals(&mut self) {
        let HeldMoments { defers, sites } = std::mem::take(&mut self.held_moments);
        for (choice, level, at) in &defers {
            let closed = sites.iter().find(|(d, depth, levels)| {
                d.node == choice.node
                    && match level {
                        None => *depth == 0,
                        Some(l) => !levels.contains(&l.node),
                    }
            });
            let Some((site, _, _)) = closed else { continue };
            let d = match level {
                None => Diag::new(
                    "check::no_moment",
                    format!("this change waits for the end of a moment, but `{}` is revealed where no moment is open", choice.node),
                )
                .label(*at, "deferred to the end of the moment")
                .label(site.span, "the held block runs here, in no moment")
                .help("reveal it inside `together { ... }` (`together { reveal ... }`), or defer the change to a level running where it is revealed: `at end of LEVEL`"),
                Some(l) => Diag::new(
                    "check::no_moment",
                    format!("this change waits for the end of `{}`, but `{}` is revealed outside it", l.node, choice.node),
                )
                .label(*at, "deferred to the end of the level's iteration")
                .label(site.span, format!("the held block runs here, outside `{}`", l.node))
                .help("a held option's block runs where it is revealed: defer the change to a level running there, or to the end of a moment open there"),
            };
            self.err(d);
        }
    }

    /// `CHANGE at end of moment` / `CHANGE at end of LEVEL`: the change is checked as written;
    /// in `setup` and `play`, a moment (or the level) must enclose it.
    pub(super) fn deferred(&mut self, d: &Deferred) {
        self.stmt(&d.stmt);
        // In a held option's block: what is open where it is revealed decides.
        if let Some((choice, base)) = &self.moments.held {
            let outside = match &d.level {
                None => (self.moments.depth == 0).then_some(d.at),
                Some(l) => (self.decls.level_names.contains_key(&l.node)
                    && !self.levels[(*base).min(self.levels.len())..]
                        .iter()
                        .any(|n| n.node == l.node))
                .then_some(l.span),
            };
            if let Some(at) = outside {
                self.held_moments.defers.push((choice.clone(), d.level.clone(), at));
                return;
            }
        }
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
