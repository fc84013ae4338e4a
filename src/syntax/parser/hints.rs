//! Syntax errors said in the words of issue 26's constructs, where pest's list of expected tokens
//! would not tell a designer what to write: a `for each` over dice rolled in place (a walk takes a
//! pool), a hook that repeats its trigger's argument types, and a group of characters written
//! without `character`.

use crate::diag::Diag;
use crate::source::{FileId, Span};

/// `for each f in 3d6 { ... }` (or `(n)d6`, `d[0,1]`): a walk over dice rolled in place. A walk
/// takes a pool, rolled first with `roll ... as`; a quantifier reads dice in place.
pub(super) fn walk_over_dice(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let line = src.get(..pos)?.rfind('\n').map_or(0, |i| i + 1);
    let head = src.get(line..pos)?;
    let at = head.rfind("for each ")?;
    let mut words = head.get(at + "for each ".len()..)?.splitn(3, char::is_whitespace);
    let var = words.next()?;
    if words.next()? != "in" {
        return None;
    }
    let dice = words.next()?.trim();
    if !is_dice(dice) {
        return None;
    }
    let start = line + at + head.get(at..)?.find(dice)?;
    Some(
        Diag::new(
            "syntax::faces",
            "a `for each` walks a pool: roll the dice into one first",
        )
        .label(Span::new(file, start, start + dice.len()), "dice rolled in place")
        .help(format!(
            "roll them, then walk their faces: `roll {dice} as p` and `for each {var} in p {{ ... }}`; \
                 or read them in place with a quantifier: `count {var} in {dice} where ...`"
        )),
    )
}

/// Whether `text` is written as dice: `[N | (EXPR)]d(S | (EXPR) | [F, ...])...`.
fn is_dice(text: &str) -> bool {
    let rest = match text.strip_prefix('(') {
        Some(r) => match close(r) {
            Some(i) => &r[i + 1..],
            None => return false,
        },
        None => text.trim_start_matches(|c: char| c.is_ascii_digit()),
    };
    let Some(sides) = rest.strip_prefix('d') else {
        return false;
    };
    // The die's size: a number, or one in parentheses or a list of faces, closed.
    match sides.chars().next() {
        Some(c) if c.is_ascii_digit() => true,
        Some('(') => close(&sides[1..]).is_some(),
        Some('[') => sides.contains(']'),
        _ => false,
    }
}

/// The index of the `)` closing an already opened `(` in `text`.
fn close(text: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `on hit(c, amount: number) { ... }`: a hook's variables take their types from the trigger,
/// which declares them.
pub(super) fn typed_hook(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let line = src.get(..pos)?.rfind('\n').map_or(0, |i| i + 1);
    let text = src.get(line..)?;
    let end = text.find('\n').unwrap_or(text.len());
    let text = text.get(..end)?;
    let rest = text.trim_start().strip_prefix("on ")?.trim_start();
    let open = rest.find('(')?;
    let name = rest.get(..open)?.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let args = rest.get(open + 1..)?;
    let args = args.get(..args.find(')')?)?;
    let colon = args.find(':')?;
    let at = line + (text.len() - rest.len()) + open + 1 + colon;
    let plain: Vec<&str> = args
        .split(',')
        .map(|a| a.split(':').next().unwrap_or("").trim())
        .collect();
    Some(
        Diag::new("syntax::parse", "a hook's variables take their types from its trigger")
            .label(Span::new(file, at, at + 1), "a type written in a hook")
            .help(format!(
                "the trigger declares the types (`trigger {name}(...)`); name the variables only: `on {name}({}) {{ ... }}`",
                plain.join(", ")
            )),
    )
}

/// `3 × Goblin { ... }` at the start of a line: a group is declared like a character, after
/// `character`.
pub(super) fn group_without_keyword(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let line = src.get(..pos)?.rfind('\n').map_or(0, |i| i + 1);
    if !src.get(line..pos)?.trim().is_empty() {
        return None;
    }
    let text = src.get(pos..)?;
    let text = text.get(..text.find('\n').unwrap_or(text.len()))?;
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = text.get(digits..)?.trim_start();
    if digits == 0 || !(rest.starts_with('×') || rest.starts_with("x ")) {
        return None;
    }
    let group = text.get(..text.find('{').unwrap_or(text.len()))?.trim_end();
    Some(
        Diag::new("syntax::parse", "a group of characters is declared after `character`")
            .label(Span::new(file, pos, pos + group.len()), "a group without `character`")
            .help(format!(
                "write `character {group} {{ ... }}`: its members are named `NAME 1` to `NAME N`"
            )),
    )
}
