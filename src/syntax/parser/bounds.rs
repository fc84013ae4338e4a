//! Bounds that pest does not give: nesting depth before parsing, and the length
//! of operator chains and prefix runs in an expression.

use super::Pairs;

use super::expr::is_infix;
use super::{Builder, R, Rule};
use crate::diag::Diag;
use crate::limits::{MAX_EXPR_OPERATORS, MAX_NESTING, MAX_PREFIX_CHAIN};
use crate::syntax::ast::*;

/// What a word does to the nesting counted by [`check_nesting`].
#[derive(PartialEq)]
enum Word {
    /// `if`, or a word a quantifier begins with: what the grammar nests without brackets (`if a
    /// then 1 else if b then 2 else ...`, `any x in characters: all y in characters: ...`, `if a {
    /// } else if b { } else ...`).
    Nests,
    /// A reserved word that begins an item or a statement: none is read inside an expression or
    /// between the links of an `if ... else if` chain, so every `if` and quantifier before one has
    /// ended.
    Ends,
    Other,
}

fn word(w: &[u8]) -> Word {
    match w {
        b"if" | b"any" | b"all" | b"count" | b"sum" | b"max" | b"min" | b"first" | b"last" => Word::Nests,
        b"param" | b"stat" | b"resource" | b"flag" | b"ruleset" | b"setup" | b"policy" | b"order" | b"action"
        | b"set" | b"spend" | b"gain" | b"reset" | b"mark" | b"clear" | b"forfeit" | b"choose" | b"repeat"
        | b"option" => Word::Ends,
        _ => Word::Other,
    }
}

/// Where the next word after `at` begins and ends, past blanks and comments.
fn next_word(bytes: &[u8], mut at: usize) -> (usize, usize) {
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => at += 1,
            Some(b'#') => {
                while bytes.get(at).is_some_and(|b| *b != b'\n') {
                    at += 1;
                }
            }
            _ => break,
        }
    }
    let end = bytes[at.min(bytes.len())..]
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .map_or(bytes.len(), |n| at + n);
    (at, end)
}

/// Whether a quantifier word ending at `at` begins a quantifier: `NAME in` follows it.
fn quantifies(bytes: &[u8], at: usize) -> bool {
    let (start, end) = next_word(bytes, at);
    if start == end {
        return false;
    }
    let (start, end) = next_word(bytes, end);
    &bytes[start..end] == b"in"
}

/// Whether a `let` ending at `at` binds: `NAME =` (not `==`) follows it.
fn binds(bytes: &[u8], at: usize) -> bool {
    let (start, end) = next_word(bytes, at);
    if start == end {
        return false;
    }
    let (eq, _) = next_word(bytes, end);
    bytes.get(eq) == Some(&b'=') && bytes.get(eq + 1) != Some(&b'=')
}

/// Refuses, before parsing, what would nest the parser (and the AST built from it) deeper than
/// [`MAX_NESTING`]: `{}` and `()` (outside strings and comments), and `if`s and quantifiers inside
/// one another. Each bracket level counts the `if`s and quantifiers (a quantifier word followed by
/// `NAME in`) written in it since the last reserved word that begins an item or a statement, or a
/// `let NAME =` ([`Word::Ends`]), or the last `}` not followed by `else` (a bracket closed ends what was
/// opened inside it); more than [`MAX_NESTING`] of them open at once is refused. This counts at
/// least as many as the parser can be inside of at any point, so the parser's depth is bounded
/// without its own stack probe (which pest makes on every rule it enters: see docs/performance.md).
pub(super) fn check_nesting(src: &str, file: FileId) -> Result<(), Diag> {
    check_nesting_at(src, file, 0)
}

/// [`check_nesting`] of `src` found at byte `base` of its file (a `{...}` inside a string).
pub(super) fn check_nesting_at(src: &str, file: FileId, base: usize) -> Result<(), Diag> {
    let bytes = src.as_bytes();
    // The `if`s and quantifiers counted at each bracket level open now (the file's own first), and
    // their sum.
    let mut levels: Vec<usize> = vec![0];
    let mut open = 0usize;
    // A `}` was the last token: the count of the level it returned to ends unless `else` follows.
    let mut after_block = false;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'"' || c == b'\n' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        let word_end = bytes[i..]
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(bytes.len(), |n| i + n);
        let word = &bytes[i..word_end];
        if std::mem::take(&mut after_block) && word != b"else" {
            open -= std::mem::take(levels.last_mut().unwrap_or(&mut 0));
        }
        if !word.is_empty() {
            // A word right after a `.` is a field's name, whatever it spells.
            let kind = if i > 0 && bytes[i - 1] == b'.' {
                Word::Other
            } else {
                match self::word(word) {
                    // A quantifier is `WORD NAME in ...`; `min 0` and `max 10` bound a field, and
                    // `max(a, b)` is a call: neither nests.
                    Word::Nests if word != b"if" && !quantifies(bytes, word_end) => Word::Other,
                    // `let NAME = ...` begins a statement: no expression holds a lone `=`, so the
                    // `if`s and quantifiers before it have ended (or the parse fails here).
                    Word::Other if word == b"let" && binds(bytes, word_end) => Word::Ends,
                    kind => kind,
                }
            };
            if kind == Word::Nests {
                if let Some(n) = levels.last_mut() {
                    *n += 1;
                }
                open += 1;
                if open > MAX_NESTING {
                    return Err(Diag::new(
                        "syntax::too_deep",
                        format!("`if`s and quantifiers nest more than {MAX_NESTING} deep here"),
                    )
                    .label(Span::new(file, base + i, base + word_end), "this one is too deep")
                    .help(
                        "flatten the nesting: name a part with `param` or a routine, or begin a statement \
                         for each case",
                    ));
                }
            } else if kind == Word::Ends {
                open -= std::mem::take(levels.last_mut().unwrap_or(&mut 0));
            }
            i = word_end;
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'(' | b'{' => {
                levels.push(0);
                if levels.len() - 1 > MAX_NESTING {
                    return Err(Diag::new(
                        "syntax::too_deep",
                        format!("blocks and parentheses nest more than {MAX_NESTING} deep here"),
                    )
                    .label(Span::new(file, base + i, base + i + 1), "this one is too deep")
                    .help("flatten the nesting: split the rule into levels, or name a sub-expression as a param"));
                }
            }
            b')' | b'}' => {
                if levels.len() > 1 {
                    open -= levels.pop().unwrap_or(0);
                }
                after_block = c == b'}';
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

impl Builder {
    /// Bound the shapes of an expression's pairs that would recurse deeply: long operator
    /// chains and prefix runs.
    pub(super) fn check_operators(&self, inner: &Pairs) -> R<()> {
        let mut infix = 0usize;
        let mut prefix_run = 0usize;
        for p in inner.clone() {
            match p.as_rule() {
                Rule::op_neg | Rule::op_not => {
                    prefix_run += 1;
                    if prefix_run > MAX_PREFIX_CHAIN {
                        return Err(Diag::new(
                            "syntax::too_deep",
                            format!("more than {MAX_PREFIX_CHAIN} `-` or `not` in a row"),
                        )
                        .label(self.span(&p), "one too many")
                        .help("remove the repeated operators: two of them cancel out"));
                    }
                }
                Rule::op_is | Rule::op_field => {}
                r if is_infix(r) => {
                    infix += 1;
                    prefix_run = 0;
                    if infix > MAX_EXPR_OPERATORS {
                        return Err(Diag::new(
                            "syntax::too_long",
                            format!("this expression has more than {MAX_EXPR_OPERATORS} operators"),
                        )
                        .label(self.span(&p), "one operator too many")
                        .help("split it: give parts of it a name with `param`"));
                    }
                }
                _ => prefix_run = 0,
            }
        }
        Ok(())
    }
}
