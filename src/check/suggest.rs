//! "unknown X `name`" errors, with a did-you-mean when a declared name is close.

use crate::diag::Diag;
use std::cell::Cell;

use crate::limits::{MAX_SUGGEST_NAME_CHARS, MAX_SUGGEST_WORK};
use crate::syntax::ast::Span;

/// "unknown X `name`", with a "did you mean" label when a close name exists.
pub fn unknown<'a, I, S>(what: &str, name: &str, span: Span, candidates: I) -> Diag
where
    I: Iterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let best = suggestion(name, candidates);
    let label = match best {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("no {what} is called this"),
    };
    Diag::new("check::unknown", format!("unknown {what} `{name}`")).label(span, label)
}

/// The closest candidate within an edit distance of `max(2, len / 3)`, if any. Names longer
/// than [`MAX_SUGGEST_NAME_CHARS`] get no suggestion, candidates whose lengths differ by more
/// than the distance allowed are skipped, and at most [`MAX_SUGGEST_CANDIDATES`] are compared,
/// so a suggestion costs a bounded amount of work.
fn suggestion<S: AsRef<str>>(name: &str, candidates: impl Iterator<Item = S>) -> Option<String> {
    let len = name.chars().count();
    if len > MAX_SUGGEST_NAME_CHARS || WORK_LEFT.get() == 0 {
        return None;
    }
    let most = 2.max(name.len() / 3);
    let mut scratch = (Vec::new(), Vec::new());
    candidates
        .take(MAX_SUGGEST_CANDIDATES)
        .filter_map(|c| {
            let c = c.as_ref();
            // Every candidate looked at costs its length; one compared, the product of both.
            let clen = c.len().min(MAX_SUGGEST_NAME_CHARS + 1);
            let left = WORK_LEFT.get().saturating_sub(clen as u64);
            WORK_LEFT.set(left);
            if left == 0 {
                return None;
            }
            let clen = c.chars().count();
            if c == name || clen > MAX_SUGGEST_NAME_CHARS || clen.abs_diff(len) > most {
                return None;
            }
            let cost = (len * clen) as u64;
            let left = WORK_LEFT.get();
            if cost > left {
                WORK_LEFT.set(0);
                return None;
            }
            WORK_LEFT.set(left - cost);
            let d = distance(name, c, &mut scratch);
            (d <= most).then(|| (d, c.to_string()))
        })
        .min()
        .map(|(_, c)| c)
}

thread_local! {
    /// What is left of [`MAX_SUGGEST_WORK`] for the check running on this thread.
    static WORK_LEFT: Cell<u64> = const { Cell::new(MAX_SUGGEST_WORK) };
}

/// Gives the check about to run on this thread the whole of [`MAX_SUGGEST_WORK`] for its
/// suggestions.
pub(super) fn reset_work() {
    WORK_LEFT.set(MAX_SUGGEST_WORK);
}

/// The most candidates one suggestion compares.
const MAX_SUGGEST_CANDIDATES: usize = 10_000;

/// Levenshtein distance of two short names (both at most [`MAX_SUGGEST_NAME_CHARS`]).
fn distance(a: &str, b: &str, (prev, cur): &mut (Vec<usize>, Vec<usize>)) -> usize {
    let b: Vec<char> = b.chars().collect();
    prev.clear();
    prev.extend(0..=b.len());
    for (i, ca) in a.chars().enumerate() {
        cur.clear();
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let cost = if ca == *cb { 0 } else { 1 };
            let next = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            cur.push(next);
        }
        std::mem::swap(prev, cur);
    }
    prev[b.len()]
}
