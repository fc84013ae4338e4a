//! `turnscript fmt`: one canonical layout for rulesets and encounters.
//!
//! The formatter works on tokens, not on the AST, so that every comment stays exactly where it
//! was written and a file that formats is the same file to the parser. It refuses a file that
//! does not parse (the syntax diagnostic is returned). The layout:
//!
//! - the line breaks are the author's: a statement written on one line stays on one line;
//! - indentation is two spaces per open `{`, plus one level for a line that continues the
//!   statement above it (a line after `and`, `where`, `=`, ..., or one that starts with `where`,
//!   `when`, `unless`, `then`, `else`, ...) and one per `(` left open by earlier lines;
//! - one space between tokens, none inside brackets, before `,` `.` `:` `)` or after a unary `-`;
//!   where a space would change the meaning (`(n)d6`, `d(x)`, a name before `(`) the author's
//!   choice is kept;
//! - blank lines are kept, collapsed to one, and dropped at the start and end of the file, after
//!   a `{` and before a `}`;
//! - trailing comments (the rule IDs beside the lines) are aligned within each paragraph (lines
//!   between blank lines) two spaces after the longest line of code that has one, unless that
//!   line would push the column past [`ALIGN_LIMIT`] or is longer than all the others by more
//!   than [`OUTLIER_GAP`]; such a line keeps its comment two spaces after it.
//! - consecutive top-level declarations of one keyword are lined up as a table after their
//!   heads (`param a   = 1` over `param bcd = 2`, `character Ana   { ... }`), leaving out a head
//!   longer than the others by more than [`TABLE_OUTLIER_GAP`].
//!
//! The result is idempotent: formatting formatted text changes nothing.

pub mod lex;

use crate::diag::Diag;
use crate::source::FileId;
use lex::{Kind, Token, is_keyword, lex};

/// Trailing comments are aligned at most at this column (0-based); a line of code that reaches
/// past it gets its comment two spaces after its end instead.
pub const ALIGN_LIMIT: usize = 64;

/// A line of code that is longer than every other line with a comment of its paragraph by more
/// than this many columns does not set the comments' column: its comment follows it.
pub const OUTLIER_GAP: usize = 24;

/// A declaration's head longer than every other head of its table by more than this many columns
/// stays out of the table (its line keeps one space after the head).
pub const TABLE_OUTLIER_GAP: usize = 12;

/// Formats a ruleset or an encounter. A file that does not parse is refused with its diagnostic.
pub fn format(src: &str, file: FileId) -> Result<String, Vec<Diag>> {
    crate::syntax::parse(src, file)?;
    // A byte-order mark stays where it is, before the laid-out text: the layout is no encoding.
    Ok(match src.strip_prefix(crate::syntax::BOM) {
        Some(rest) => format!("{}{}", crate::syntax::BOM, layout(rest)),
        None => layout(src),
    })
}

/// One line of output before trailing comments are aligned.
struct Line {
    indent: usize,
    code: String,
    comment: Option<String>,
    /// Blank lines written before it in the source.
    blank_before: bool,
    /// A declaration at the top level: its keyword, and where its head (`param NAME`,
    /// `action NAME(c)`, `character NAME`) ends in `code`, when more follows it.
    head: Option<(String, usize)>,
}

/// Lays out already-parsed text (see the module documentation).
pub fn layout(src: &str) -> String {
    let tokens = lex(src);
    // Split into source lines of tokens; note which were preceded by a blank line.
    let mut rows: Vec<(Vec<Token>, bool)> = Vec::new();
    let mut current = Vec::new();
    let mut breaks = 0;
    for t in &tokens {
        if t.kind == Kind::Newline {
            if current.is_empty() {
                breaks += 1;
            } else {
                rows.push((std::mem::take(&mut current), breaks > 1));
                breaks = 1;
            }
        } else {
            current.push(*t);
        }
    }
    if !current.is_empty() {
        rows.push((current, breaks > 1));
    }

    let mut lines: Vec<Line> = Vec::with_capacity(rows.len());
    let mut braces = 0usize;
    let mut parens = 0usize;
    let mut prev_code: Option<Token> = None; // the last code token so far
    // The first word of the line that opened each enclosing `{`.
    let mut opened: Vec<String> = Vec::new();
    for (row, blank) in &rows {
        let (code, comment) = match row.last() {
            Some(t) if t.kind == Kind::Comment => (&row[..row.len() - 1], Some(t.text.to_string())),
            _ => (&row[..], None),
        };
        let Some(first) = code.first() else {
            // A comment on a line of its own: indented like the code that follows (below).
            lines.push(Line {
                indent: usize::MAX,
                code: String::new(),
                comment,
                blank_before: *blank,
                head: None,
            });
            continue;
        };
        // Closers at the start of the line are dedented with what they close.
        let mut line_braces = braces;
        let mut line_parens = parens;
        for t in code {
            match t.text {
                "}" if t.kind == Kind::Punct => line_braces = line_braces.saturating_sub(1),
                ")" | "]" if t.kind == Kind::Punct => line_parens = line_parens.saturating_sub(1),
                _ => break,
            }
        }
        let in_order = opened.last().is_some_and(|o| o == "order");
        let continues = parens > 0 || continuation(prev_code.as_ref(), first, code.get(1), in_order);
        let indent = line_braces + line_parens + usize::from(continues);
        let head_end = if indent == 0 { head_end(code) } else { None };
        let mut head = None;

        let mut text = String::new();
        for (i, t) in code.iter().enumerate() {
            if i > 0 {
                let prev = &code[i - 1];
                let earlier = if i >= 2 { Some(&code[i - 2]) } else { prev_code.as_ref() };
                if space_between(prev, t, earlier) {
                    text.push(' ');
                }
            }
            text.push_str(t.text);
            if head_end == Some(i + 1) {
                head = Some((first.text.to_string(), text.len()));
            }
            if t.kind == Kind::Punct {
                match t.text {
                    "{" => {
                        braces += 1;
                        opened.push(first.text.to_string());
                    }
                    "}" => {
                        braces = braces.saturating_sub(1);
                        opened.pop();
                    }
                    "(" | "[" => parens += 1,
                    ")" | "]" => parens = parens.saturating_sub(1),
                    _ => {}
                }
            }
        }
        prev_code = code.last().copied();
        lines.push(Line {
            indent,
            code: text,
            comment,
            blank_before: *blank,
            head,
        });
    }

    // A comment line takes the indentation of the code after it (one level in before a `}`).
    let mut next_indent = 0;
    for line in lines.iter_mut().rev() {
        if line.indent == usize::MAX {
            line.indent = next_indent;
        } else {
            next_indent = if line.code.starts_with('}') {
                line.indent + 1
            } else {
                line.indent
            };
        }
    }

    // Blank lines: none at the start, none after `{` or before `}`.
    for i in 0..lines.len() {
        let after_open = i == 0 || lines[i - 1].code.ends_with('{');
        let before_close = lines[i].code.starts_with('}');
        if after_open || before_close {
            lines[i].blank_before = false;
        }
    }

    // Only a declaration written on one line is a row of a table.
    for i in 0..lines.len() {
        let next = lines[i + 1..].iter().find(|l| !l.code.is_empty());
        let ends_open = lines[i].code.ends_with('{') || next.is_some_and(|n| n.indent > 0);
        if ends_open {
            lines[i].head = None;
        }
    }
    align_heads(&mut lines);
    render(&lines)
}

/// Where the head of a top-level declaration ends (a token index), when a spaced token follows
/// it: the keyword, the name, and the name's parameters (`action move(c)`, `param f(x: die)`).
fn head_end(code: &[Token]) -> Option<usize> {
    // A group, `character 3 × NAME` (or `-3 x NAME`, to be refused): the count and sign belong to
    // the head.
    if let [kw, rest @ ..] = code
        && kw.is("character")
    {
        let signed = usize::from(rest.first().is_some_and(|t| t.is("-")));
        if let [count, times, name, next, ..] = &rest[signed..]
            && count.kind == Kind::Word
            && count.text.bytes().all(|b| b.is_ascii_digit())
            && (times.is("×") || times.is("x"))
            && matches!(name.kind, Kind::Word | Kind::Str)
        {
            return space_between(name, next, Some(times)).then_some(signed + 4);
        }
    }
    let [kw, name, ..] = code else { return None };
    if kw.kind != Kind::Word || !matches!(name.kind, Kind::Word | Kind::Str) {
        return None;
    }
    let mut end = 2;
    if code
        .get(2)
        .is_some_and(|t| t.is("(") && !space_between(name, t, Some(kw)))
    {
        let mut depth = 0;
        for (i, t) in code.iter().enumerate().skip(2) {
            match t.text {
                "(" if t.kind == Kind::Punct => depth += 1,
                ")" if t.kind == Kind::Punct => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = i + 1;
                break;
            }
        }
        if depth != 0 {
            return None;
        }
    }
    let next = code.get(end)?;
    space_between(&code[end - 1], next, code.get(end.wrapping_sub(2))).then_some(end)
}

/// Consecutive top-level declarations of the same keyword line up what follows their heads, as
/// a table (`param a   = 1` over `param bcd = 2`; `character Ana   { ... }`). A blank line, a
/// declaration of another keyword or a line of a longer one ends the table; comments do not.
fn align_heads(lines: &mut [Line]) {
    let mut start = 0;
    while start < lines.len() {
        let Some((kw, _)) = lines[start].head.clone() else {
            start += 1;
            continue;
        };
        let mut end = start + 1;
        while end < lines.len() {
            let l = &lines[end];
            let same = l.code.is_empty() && l.comment.is_some()
                || l.indent == 0 && l.code.split(' ').next() == Some(kw.as_str());
            if l.blank_before || !same {
                break;
            }
            end += 1;
        }
        let mut widths: Vec<usize> = lines[start..end]
            .iter()
            .filter_map(|l| l.head.as_ref().map(|h| l.code[..h.1].chars().count()))
            .collect();
        widths.sort_unstable();
        // A head much longer than the others stays out of the table.
        while let [.., a, b] = widths[..] {
            if b - a <= TABLE_OUTLIER_GAP {
                break;
            }
            widths.pop();
        }
        let width = widths.last().copied().unwrap_or(0);
        for l in &mut lines[start..end] {
            if let Some((_, at)) = &l.head {
                let pad = width.saturating_sub(l.code[..*at].chars().count());
                l.code.insert_str(*at, &" ".repeat(pad));
            }
        }
        start = end;
    }
}

/// Whether a line starting with `first` continues the statement whose last token is `prev`.
/// `second` is the token after `first`; `in_order` says the line is in an `order` block, whose
/// keys may be separated by commas at the ends of lines.
fn continuation(prev: Option<&Token>, first: &Token, second: Option<&Token>, in_order: bool) -> bool {
    if first.is("{") || first.is("}") {
        return false;
    }
    let Some(prev) = prev else { return false };
    if prev.is("{") {
        return false;
    }
    // After a comma, a new field (`NAME = ...`) or a new key of an order; else a list goes on
    // (names, costs, a policy's preferences).
    if prev.is(",") {
        let field = first.kind == Kind::Word && second.is_some_and(|t| t.is("="));
        return !(field || in_order);
    }
    let ends_open = match prev.kind {
        Kind::Punct => matches!(
            prev.text,
            "=" | "==" | "!=" | "<" | ">" | "<=" | ">=" | "+" | "-" | "*" | "/" | "(" | "[" | "." | ":"
        ),
        Kind::Word => matches!(
            prev.text,
            "and"
                | "or"
                | "not"
                | "where"
                | "by"
                | "in"
                | "if"
                | "then"
                | "else"
                | "when"
                | "unless"
                | "because"
                | "from"
                | "to"
                | "of"
                | "at"
                | "is"
                | "each"
                | "counted"
                | "costs"
                | "using"
                | "uses"
                | "as"
                | "per"
                | "within"
                | "most"
        ),
        _ => false,
    };
    if ends_open {
        return true;
    }
    let after_block = prev.is("}");
    match first.kind {
        Kind::Punct => matches!(
            first.text,
            "==" | "!=" | "<" | ">" | "<=" | ">=" | "+" | "*" | "/" | "." | ":" | ")" | "]"
        ),
        Kind::Word => match first.text {
            "else" | "or" => !after_block,
            "and" | "where" | "by" | "then" | "when" | "unless" | "because" | "from" | "to" | "in" | "of" | "at"
            | "is" | "counted" | "costs" | "using" | "uses" | "as" | "per" | "until" | "while" | "counting"
            | "within" | "down" | "settled" | "anew" | "backwards" => true,
            _ => false,
        },
        _ => false,
    }
}

/// Whether a `-` after `before` is a sign rather than a subtraction.
fn is_sign(before: Option<&Token>) -> bool {
    match before {
        None => true,
        Some(t) => match t.kind {
            Kind::Punct => !matches!(t.text, ")" | "]"),
            Kind::Word => is_keyword(t.text) && !matches!(t.text, "true" | "false" | "none" | "characters"),
            Kind::Str => false,
            Kind::Comment | Kind::Newline => true,
        },
    }
}

/// A word that continues dice written right after `)` or `]`: `(n)d6`, `d(s)kh(k)`, `d[..]kh1`.
fn dice_tail(word: &str) -> bool {
    let rest = word.strip_prefix('d').map(|r| {
        let r = r.trim_start_matches(|c: char| c.is_ascii_digit());
        r.strip_prefix("kh").or_else(|| r.strip_prefix("kl")).unwrap_or(r)
    });
    let keep = word
        .strip_prefix("kh")
        .or_else(|| word.strip_prefix("kl"))
        .map(|r| r.chars().all(|c| c.is_ascii_digit()));
    matches!(rest, Some(r) if r.chars().all(|c| c.is_ascii_digit())) || keep == Some(true)
}

/// Whether one space goes between `a` and `b`; `before` is the token before `a`.
fn space_between(a: &Token, b: &Token, before: Option<&Token>) -> bool {
    let adjacent = a.end() == b.start;
    let punct = |t: &Token, set: &[&str]| t.kind == Kind::Punct && set.contains(&t.text);
    if punct(b, &[",", ")", "]", ".", ":"]) || punct(a, &["(", "[", "."]) {
        return false;
    }
    // Exploding dice (`d6!`, `d10!9`, `(n)d(s)!(t)`): a lone `!` is only ever written inside dice.
    if adjacent && (punct(a, &["!"]) || punct(b, &["!"])) {
        return false;
    }
    if a.is("-") && a.kind == Kind::Punct && is_sign(before) {
        return false;
    }
    if punct(b, &["("]) {
        return match a.kind {
            // A name before `(` is a call (`f(x)`), or an expression followed by a parenthesis
            // (`spend n (x).ap`); a keyword may be a name too (`param on(a, b)`), and `turn(c)`
            // is written both ways: keep the author's choice. So for dice (`d(x)`, `2d(s)`).
            Kind::Word => !adjacent,
            _ => true,
        };
    }
    if punct(b, &["["]) {
        return a.kind != Kind::Word;
    }
    if punct(a, &[")", "]"]) && b.kind == Kind::Word {
        return !(adjacent && dice_tail(b.text));
    }
    true
}

fn render(lines: &[Line]) -> String {
    let mut out = String::new();
    let width = |l: &Line| 2 * l.indent + l.code.chars().count();
    let mut start = 0;
    while start < lines.len() {
        // A paragraph: up to the next blank line.
        let mut end = start + 1;
        while end < lines.len() && !lines[end].blank_before {
            end += 1;
        }
        let paragraph = &lines[start..end];
        let mut widths: Vec<usize> = paragraph
            .iter()
            .filter(|l| l.comment.is_some() && !l.code.is_empty())
            .map(width)
            .filter(|w| w + 2 <= ALIGN_LIMIT)
            .collect();
        widths.sort_unstable();
        // A line much longer than the others keeps its comment to itself.
        while let [.., a, b] = widths[..] {
            if b - a <= OUTLIER_GAP {
                break;
            }
            widths.pop();
        }
        let column = widths.last().map(|w| w + 2);
        if start > 0 {
            out.push('\n');
        }
        for l in paragraph {
            let w = width(l);
            out.extend(std::iter::repeat_n(' ', 2 * l.indent));
            out.push_str(&l.code);
            if let Some(c) = &l.comment {
                if !l.code.is_empty() {
                    let pad = match column {
                        Some(col) if col >= w + 2 => col - w,
                        _ => 2,
                    };
                    out.extend(std::iter::repeat_n(' ', pad));
                }
                out.push_str(c);
            }
            out.push('\n');
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_tails() {
        for w in ["d6", "d", "d12kh1", "kh", "kl2"] {
            assert!(dice_tail(w), "{w}");
        }
        for w in ["desc", "and", "dx", "kh1a"] {
            assert!(!dice_tail(w), "{w}");
        }
    }

    #[test]
    fn spacing_that_carries_meaning_is_kept() {
        let src = "param a = (2)d6 + d(3) + 2d[ -1 ,0 ]kh1\nparam b = (a) + f (2)\n";
        assert_eq!(
            layout(src),
            "param a = (2)d6 + d(3) + 2d[-1, 0]kh1\nparam b = (a) + f (2)\n"
        );
    }

    #[test]
    fn exploding_dice_stay_one_word_and_not_equal_stays_an_operator() {
        let src = "param a = d6! + 2d10!9 + (n)d(s)!(t) + (n)d[0,1]!\nparam b = d6! >= 5 and d6!=3\n";
        assert_eq!(
            layout(src),
            "param a = d6! + 2d10!9 + (n)d(s)!(t) + (n)d[0, 1]!\nparam b = d6! >= 5 and d6 != 3\n"
        );
    }
}
