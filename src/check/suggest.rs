//! "unknown X `name`" errors, with a did-you-mean when a declared name is close.

use crate::diag::Diag;
use crate::syntax::ast::Span;

/// "unknown X `name`", with a "did you mean" label when a close name exists.
pub fn unknown<'a, I, S>(what: &str, name: &str, span: Span, candidates: I) -> Diag
where
    I: Iterator<Item = S>,
    S: AsRef<str> + 'a,
{
    let best = candidates
        .map(|c| (distance(name, c.as_ref()), c.as_ref().to_string()))
        .filter(|(d, c)| *d <= 2.max(name.len() / 3) && c != name)
        .min();
    let label = match best {
        Some((_, c)) => format!("did you mean `{c}`?"),
        None => format!("no {what} is called this"),
    };
    Diag::new("check::unknown", format!("unknown {what} `{name}`")).label(span, label)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = if ca == *cb { 0 } else { 1 };
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
