//! Parse errors: pest's error as a diagnostic, with human names for "expected ..." messages.

use pest::Parser as _;

use super::names::rule_name;
use super::{Grammar, Rule};
use crate::diag::Diag;
use crate::syntax::ast::*;
use crate::syntax::text::run_start;

/// pest's error `e`, from parsing `src` from byte `offset` on by `rule`, as a diagnostic.
pub(super) fn pest_error(e: pest::error::Error<Rule>, src: &str, offset: usize, file: FileId, rule: Rule) -> Diag {
    use pest::error::ErrorVariant;
    let window = Window {
        src,
        offset,
        rule,
        file,
    };
    let pos = offset + location(&e);
    if let Some(d) = unbalanced(src, pos, file) {
        return d;
    }
    if let Some(d) = non_ascii_name(&window, pos) {
        return d;
    }
    if let Some(d) = spaced_call(&window, pos).or_else(|| glued_call(&window, pos)) {
        return d;
    }
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        if let Some(d) = keyword_as_type(src, pos, positives, file) {
            return d;
        }
        if let Some(d) = keyword_as_name(&window, pos, positives) {
            return d;
        }
    }
    if let Some(d) = missing_parameters(src, pos, file) {
        return d;
    }
    if let Some(d) = super::hints::walk_over_dice(src, pos, file)
        .or_else(|| super::hints::typed_hook(src, pos, file))
        .or_else(|| super::hints::group_without_keyword(src, pos, file))
    {
        return d;
    }
    if let Some(d) = undeferrable(src, pos, file) {
        return d;
    }
    if let Some(d) = missing_punctuation(&window, pos) {
        return d;
    }
    let (found, found_start, found_end) = found_at(src, pos);
    let (message, help) = match e.variant {
        ErrorVariant::ParsingError { positives, negatives } => {
            let mut names: Vec<String> = positives.into_iter().map(rule_name).collect();
            names.sort();
            names.dedup();
            let expected = match names.len() {
                0 => String::new(),
                1 => names[0].clone(),
                n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
            };
            let message = if !expected.is_empty() {
                format!("expected {expected}")
            } else if !negatives.is_empty() {
                let names: Vec<String> = negatives.into_iter().map(rule_name).collect();
                format!("unexpected {}", names.join(", "))
            } else {
                "this text cannot be parsed".to_string()
            };
            let help = if src[pos..].trim().is_empty() {
                "the file ends before what it began is complete: finish it, or take it out".to_string()
            } else {
                "see docs/language.md for the form of each declaration and statement".to_string()
            };
            (message, help)
        }
        ErrorVariant::CustomError { message } => (message, "see docs/language.md".to_string()),
    };
    Diag::new("syntax::parse", message)
        .label(Span::new(file, found_start, found_end), found)
        .help(help)
}

/// Where pest's error is, in the text it parsed.
fn location(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    }
}

/// The label of what was found at `pos` (a word, a string, an operator or one character, or the
/// end of the file), and its span.
fn found_at(src: &str, pos: usize) -> (String, usize, usize) {
    if src[pos..].trim().is_empty() {
        let (start, end) = last_char(src, pos);
        return ("the file ends after this".to_string(), start, end);
    }
    let end = token_at(src, pos);
    let found = &src[pos..end];
    match found.chars().next() {
        Some(c) if crate::diag::is_invisible(c) => {
            let what = if c == super::BOM { " (a byte-order mark)" } else { "" };
            (
                format!("found an invisible character, U+{:04X}{what}: delete it", u32::from(c)),
                pos,
                end,
            )
        }
        _ => (format!("found `{found}`"), pos, end),
    }
}

/// The last character before `pos` that is not a blank or in a comment: where a label goes to say
/// the file ends (one past the last line would not be shown).
fn last_char(src: &str, pos: usize) -> (usize, usize) {
    let end = super::trimmed_len(&src[..pos]);
    (src[..end].char_indices().next_back().map_or(end, |(i, _)| i), end)
}

/// Where the token at `at` ends: a word, a string (to its line's end if unclosed), a run of
/// operator characters (`==`), or one other character.
fn token_at(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let is_op = |c: char| "=!<>+-*/".contains(c);
    match rest.chars().next() {
        None => at,
        Some('"') => {
            at + rest[1..]
                .find(['"', '\n'])
                .map_or(rest.len(), |j| j + 1 + usize::from(rest[1 + j..].starts_with('"')))
        }
        Some(c) if is_word(c) => at + rest.find(|c| !is_word(c)).unwrap_or(rest.len()),
        Some(c) if is_op(c) => at + rest.find(|c| !is_op(c)).unwrap_or(rest.len()),
        Some(c) => at + c.len_utf8(),
    }
}

/// Where the next token begins at or after `at`: past blanks and comments.
fn skip_blanks(text: &str, mut at: usize) -> usize {
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if !trimmed.starts_with('#') {
            return at;
        }
        at += trimmed.find('\n').unwrap_or(trimmed.len());
    }
}

/// Serializes the parses made with pest's error detail on: a switch for the whole process.
static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// What pest tried at the furthest point a parse reached: that point, the tokens it expected
/// there (as pest writes them), and the rules that tried them.
struct Furthest {
    at: usize,
    tokens: Vec<String>,
    rules: Vec<Rule>,
}

/// The window parsed again with pest's record of what it tried at the furthest point it reached,
/// tokens included (the error pest gives names rules only, so a missing `{` after a rule that
/// parsed is reported where that rule began). Only on the way to a syntax error: the record costs
/// every parse time.
fn furthest(w: &Window) -> Option<Furthest> {
    let _only = DETAIL.lock().unwrap_or_else(|e| e.into_inner());
    pest::set_error_detail(true);
    let parsed = Grammar::parse(w.rule, &w.src[w.offset..]);
    pest::set_error_detail(false);
    let attempts = parsed.err()?.parse_attempts()?;
    Some(Furthest {
        at: w.offset + attempts.max_position,
        tokens: attempts.expected_tokens().iter().map(|t| t.to_string()).collect(),
        rules: attempts
            .call_stacks()
            .iter()
            .filter_map(|c| c.deepest.get_rule().copied())
            .collect(),
    })
}

/// A punctuation mark missing past the point pest's rules report: `deck card, cards for holder {`
/// (`{` expected at `for`), `set c.hp 3` (`=` expected at `3`). Said where it is missing, with
/// the construct it was read as.
fn missing_punctuation(w: &Window, pos: usize) -> Option<Diag> {
    let far = furthest(w)?;
    let at = skip_blanks(w.src, far.at);
    if at <= pos {
        return None;
    }
    let mut marks = Vec::new();
    for token in &far.tokens {
        if [" ", "\t", "\r", "\n", "#"].contains(&token.as_str()) {
            continue;
        }
        if token.is_empty() || token.chars().any(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        marks.push(format!("`{token}`"));
    }
    let expected = match marks.len() {
        0 => return None,
        1 => marks[0].clone(),
        n => format!("{} or {}", marks[..n - 1].join(", "), marks[n - 1]),
    };
    let (found, found_start, found_end) = found_at(w.src, at);
    let read_as: Vec<Rule> = (far.rules.into_iter())
        .filter(|r| !matches!(r, Rule::file | Rule::next_item | Rule::item_pair))
        .collect();
    let help = match read_as.first() {
        Some(r) if read_as.iter().all(|x| x == r) => {
            format!("this is read as {}: see docs/language.md for its form", rule_name(*r))
        }
        _ => "see docs/language.md for the form of each declaration and statement".to_string(),
    };
    Some(
        Diag::new("syntax::parse", format!("expected {expected}"))
            .label(Span::new(w.file, found_start, found_end), found)
            .help(help),
    )
}

/// The braces of a file up to a point: the blocks open there (innermost last), and the first
/// block whose end the indentation shows before its `}`: a line less indented than its body, or a
/// `}` less indented than the statements around the block (which closes an outer block).
struct Braces {
    /// Where each `{` still open is, and the indentation of the first line of its body.
    open: Vec<(usize, Option<usize>)>,
    /// The `{`, and where the indentation shows its block has ended.
    misclosed: Option<(usize, usize)>,
}

/// The braces of `src` up to byte `end`, outside strings and comments.
fn braces(src: &str, end: usize) -> Braces {
    let mut b = Braces {
        open: Vec::new(),
        misclosed: None,
    };
    let bytes = src.as_bytes();
    // The indentation of a line, worked out once, where it begins.
    let indent_at = |line: usize| bytes[line..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    let (mut i, mut line, mut indent, mut in_string) = (0, 0, indent_at(0), false);
    while i < end.min(bytes.len()) {
        let first_on_line = !in_string && line + indent == i;
        match bytes[i] {
            b'\n' => {
                line = i + 1;
                indent = indent_at(line);
                in_string = false;
            }
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'#' => {
                i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'}' => {
                // A `}` first on its line closes a block where the statements of the block around
                // it are written; one less indented closes a block further out.
                let closed = b.open.pop();
                let around = b.open.last().and_then(|o| o.1);
                if let (Some((at, _)), Some(around)) = (closed, around)
                    && b.misclosed.is_none()
                    && first_on_line
                    && indent < around
                {
                    b.misclosed = Some((at, i));
                }
            }
            c if c.is_ascii_whitespace() => {}
            c => {
                // The first line of a block's body sets where its statements are written; a line
                // less indented than that is past the block's end.
                if first_on_line && let Some(top) = b.open.last_mut() {
                    match top.1 {
                        None => top.1 = Some(indent),
                        Some(body) if indent < body && b.misclosed.is_none() => b.misclosed = Some((top.0, i)),
                        Some(_) => {}
                    }
                }
                if c == b'{' {
                    b.open.push((i, None));
                }
            }
        }
        i += 1;
    }
    b
}

/// A syntax error that comes of braces that do not balance: a block never closed, met at the end
/// of the file or at a word beginning a line at the left margin (a declaration read inside the
/// block), or anywhere after a block the indentation shows has ended; or a `}` that closes
/// nothing. Said at the brace (the first block the indentation shows has ended, else the
/// innermost block open there), with where the parse failed.
fn unbalanced(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let line = |at: usize| src[..at].matches('\n').count() + 1;
    if src[pos..].starts_with('}') {
        if !braces(src, pos).open.is_empty() {
            return None;
        }
        return Some(
            Diag::new("syntax::unclosed", "this `}` closes no block")
                .label(Span::new(file, pos, pos + 1), "no block is open here")
                .help("remove it, or open its block with a `{` where the block begins"),
        );
    }
    if braces(src, src.len()).open.is_empty() {
        return None;
    }
    let at_end = src[pos..].trim().is_empty();
    let at_margin = pos == 0 || src[..pos].ends_with('\n');
    let word = src[pos..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    // Up to the token the parse failed at, which may be the line the indentation says is past a
    // block's end.
    let here = braces(src, (pos + 1).min(src.len()));
    if !(at_end || at_margin && word || here.misclosed.is_some()) {
        return None;
    }
    let (open, help) = match here.misclosed {
        Some((open, close)) => (
            open,
            format!(
                "add the `}}` that closes it: by the indentation, its block ends before line {}",
                line(close)
            ),
        ),
        None => (here.open.last()?.0, "add the `}` that closes it".to_string()),
    };
    let (failed, failed_at) = (failed_text(src, pos, at_end), failed_at(src, pos, at_end));
    // Blocks opened on the same line share its indentation: which of them is never closed, the
    // indentation cannot tell, and a `}` added where it points may change what the rules mean.
    let line_start = src[..open].rfind('\n').map_or(0, |n| n + 1);
    let line_end = src[open..].find('\n').map_or(src.len(), |n| open + n);
    let opened_here = braces(src, line_end)
        .open
        .iter()
        .filter(|(at, _)| (line_start..line_end).contains(at))
        .count();
    if opened_here > 1 {
        return Some(
            Diag::new(
                "syntax::unclosed",
                format!("a block opened on line {} is never closed", line(open)),
            )
            .label(
                Span::new(file, open, open + 1),
                format!(
                    "line {} opens {opened_here} blocks; one of them is never closed",
                    line(open)
                ),
            )
            .label(Span::new(file, failed_at.0, failed_at.1), failed)
            .help(format!(
                "line {} opens more than one block, so the indentation cannot tell which one is never closed: \
                 find the `{{` without its `}}` (opened one to a line, blocks show it by their indentation)",
                line(open)
            )),
        );
    }
    Some(
        Diag::new(
            "syntax::unclosed",
            format!("the block opened on line {} is never closed", line(open)),
        )
        .label(Span::new(file, open, open + 1), "this `{` is never closed")
        .label(Span::new(file, failed_at.0, failed_at.1), failed)
        .help(help),
    )
}

/// Where the parse of a file with a block never closed failed: its last character when the file
/// ended inside the block, else the token it failed at.
fn failed_at(src: &str, pos: usize, at_end: bool) -> (usize, usize) {
    if at_end {
        last_char(src, pos)
    } else {
        (pos, token_at(src, pos))
    }
}

/// What [`failed_at`] shows: the file ended inside the block, or the token is read inside it.
fn failed_text(src: &str, pos: usize, at_end: bool) -> String {
    if at_end {
        "the file ends after this, still inside the block".to_string()
    } else {
        format!("so `{}` is read inside it", &src[pos..token_at(src, pos)])
    }
}

/// The text a syntax error was met in: `src[offset..]`, parsed by `rule`, in `file`.
struct Window<'s> {
    src: &'s str,
    offset: usize,
    rule: Rule,
    file: FileId,
}

impl Window<'_> {
    /// Whether the text reads further with the word at `start..end` made an ordinary name: it
    /// parses, or fails only past the token after the word. (A word that fails again at once, as
    /// `in` in `for each in characters`, stands where a name is missing.)
    fn reads_on_as_name(&self, start: usize, end: usize) -> bool {
        let stand_in: String = std::iter::once('_')
            .chain(std::iter::repeat_n('x', end - start - 1))
            .collect();
        let past = token_after(&self.src[self.offset..], end - self.offset);
        self.reads_past(start, end, &stand_in, past + self.offset)
    }

    /// Whether the text, with `start..end` replaced by `stand_in` (of the same length), parses, or
    /// fails only past byte `past` of the file.
    fn reads_past(&self, start: usize, end: usize, stand_in: &str, past: usize) -> bool {
        let mut text = self.src[self.offset..].to_string();
        text.replace_range(start - self.offset..end - self.offset, stand_in);
        match Grammar::parse(self.rule, &text) {
            Ok(_) => true,
            Err(err) => self.offset + location(&err) > past,
        }
    }
}

/// A name, a space and `(` where the parse failed at (or after) the `(`: `highest (a, b)`,
/// `twice (2) (c).ap`. A call's `(` follows its name with no space; with one, the name is a value
/// of its own. Said at the name when the text would read on as a call.
fn spaced_call(w: &Window, pos: usize) -> Option<Diag> {
    let src = w.src;
    let past = token_at(src, pos);
    let mut end = past;
    // The last `NAME (` at or before the failure, after the start of the text parsed.
    let (start, name_end, paren) = loop {
        let paren = src.get(w.offset..end)?.rfind('(')? + w.offset;
        end = paren;
        let name_end = src[..paren].trim_end_matches([' ', '\t']).len();
        if name_end == paren || name_end <= w.offset {
            continue;
        }
        let start = run_start(&src[..name_end], is_name_char);
        let name = &src[start..name_end];
        let plain = start >= w.offset && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if plain && name != "d" && !is_reserved(name) {
            break (start, name_end, paren);
        }
    };
    // `NAME (` read as `NAME(` with the blanks moved inside the parenthesis: it reads on past
    // the call's `)` and the point of failure.
    let stand_in = format!("({}", &src[name_end..paren]);
    let close = closing_paren(src, paren)?;
    if !w.reads_past(name_end, paren + 1, &stand_in, past.max(close + 1)) {
        return None;
    }
    let name = &src[start..name_end];
    Some(
        Diag::new("syntax::parse", format!("a space between `{name}` and its `(`"))
            .label(
                Span::new(w.file, start, paren + 1),
                "read as the name alone, then a `(`",
            )
            .help(format!(
                "a call's `(` follows its name with no space: `{name}(`; a name, a space and a `(` is the \
                 name's value, then a parenthesis"
            )),
    )
}

/// A word with a letter outside ASCII where the parse failed (`character Änä`, `Bjørn`): names
/// are ASCII letters, digits and `_`. Said at the word, with its quoted form where a name in
/// quotes would read on (an entity's name, as a character's), else that it must be ASCII.
fn non_ascii_name(w: &Window, pos: usize) -> Option<Diag> {
    let src = w.src;
    let letter = |at: usize| {
        src[at..]
            .chars()
            .next()
            .filter(|c| !c.is_ascii() && c.is_alphanumeric())
    };
    // At the point of failure, or past it where pest's rules report the word before (`character
    // Bjørn` fails at `ø`, reported at `character`).
    let (pos, c) = match letter(pos) {
        Some(c) => (pos, c),
        None if src[pos..].contains(|c: char| !c.is_ascii()) => {
            let at = skip_blanks(src, furthest(w)?.at);
            (at, letter(at)?)
        }
        None => return None,
    };
    let in_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = run_start(&src[..pos], in_word).max(w.offset);
    let end = src[pos..].find(|c: char| !in_word(c)).map_or(src.len(), |i| pos + i);
    let word = &src[start..end];
    let span = Span::new(w.file, start, end);
    let quoted = format!("\"{}\"", "x".repeat((end - start).saturating_sub(2)));
    let help = if w.reads_past(start, end, &quoted, end) {
        format!(
            "a character's or other entity's name that is not a plain word is written in quotes: `\"{word}\"`; \
             every other name is ASCII letters, digits and `_`"
        )
    } else {
        "only the names of characters and other entities may be written in quotes, with any letters; \
         every other name is ASCII letters, digits and `_`: spell it so"
            .to_string()
    };
    Some(
        Diag::new(
            "syntax::parse",
            format!("`{word}` is not a plain name: names are ASCII letters, digits and `_`"),
        )
        .label(span, format!("`{c}` is not an ASCII letter"))
        .help(help),
    )
}

/// Where the `)` that closes the `(` at `open` is, outside strings and comments.
fn closing_paren(src: &str, open: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut in_comment) = (0usize, false, false);
    for (i, c) in src[open..].char_indices() {
        match c {
            '\n' => (in_string, in_comment) = (false, false),
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `gain half(c).ap`, failing after it: a name and a `(` with no space are a call (`half(c)`),
/// where the amount and then a field reached through a parenthesis were meant. Said at the call
/// when the text would read on with a space before its `(`.
fn glued_call(w: &Window, pos: usize) -> Option<Diag> {
    let src = w.src;
    let past = token_at(src, pos);
    let mut end = pos;
    let (start, paren) = loop {
        let paren = src.get(w.offset..end)?.rfind('(')? + w.offset;
        end = paren;
        let start = run_start(&src[..paren], is_name_char);
        let name = &src[start..paren];
        let plain = start >= w.offset && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if plain && name.len() > 1 && !is_reserved(name) {
            break (start, paren);
        }
    };
    // The call ends before the failure.
    if closing_paren(src, paren).is_none_or(|close| close >= pos) {
        return None;
    }
    // The name, one byte shorter, then a space: the same length.
    let stand_in = format!("_{} ", "x".repeat(paren - start - 2));
    if !w.reads_past(start, paren, &stand_in, past) {
        return None;
    }
    let name = &src[start..paren];
    let (found, found_start, found_end) = found_at(src, pos);
    let found = match found.strip_prefix("found ") {
        Some(token) => format!("so {token} cannot be read here"),
        None => found,
    };
    Some(
        Diag::new("syntax::parse", format!("`{name}(` is read as a call of `{name}`"))
            .label(Span::new(w.file, start, paren + 1), "a call: no space before the `(`")
            .label(Span::new(w.file, found_start, found_end), found)
            .help(format!(
                "if `{name}` is a value on its own and the parenthesis begins what comes next (the owner \
                 of the field in `gain {name} (c).FIELD`), put a space before the `(`: `{name} (`"
            )),
    )
}

/// Whether rules failing at a word mean a name was wanted there (or an expression, which a name
/// may begin). Not where an item may begin: any two words there begin an entity (`player Ann`),
/// so a name is always among what is expected.
fn wants_name(positives: &[Rule]) -> bool {
    let item_start = positives.iter().any(|r| matches!(r, Rule::EOI | Rule::kw_ruleset));
    !item_start
        && positives.iter().any(|r| {
            matches!(
                r,
                Rule::ident
                    | Rule::name
                    | Rule::level_name
                    | Rule::per_level
                    | Rule::ident_list
                    | Rule::typed
                    | Rule::typed_list
                    | Rule::param_arg
                    | Rule::collection
                    | Rule::target
                    | Rule::hook_trigger
                    | Rule::preference
                    | Rule::pref
                    | Rule::deck_rank
                    | Rule::path
                    | Rule::call
                    | Rule::expr
            )
        })
}

/// A keyword where a type was wanted (`c: order`): the types are the words below, `character`
/// and declared things.
fn keyword_as_type(src: &str, pos: usize, positives: &[Rule], file: FileId) -> Option<Diag> {
    if !positives.contains(&Rule::type_name) {
        return None;
    }
    let (start, end) = word_at(src, pos).filter(|&(s, e)| is_reserved(&src[s..e]))?;
    let word = &src[start..end];
    let span = Span::new(file, start, end);
    let types = "the types are `character` and the things declared with `thing NAME, PLURAL`; \
                 an argument may also be a `number`, a `truth` value, a `side` or a `role`";
    Some(
        Diag::new("syntax::keyword", format!("`{word}` is a keyword, not a type"))
            .label(span, "not a type")
            .help(types),
    )
}

/// A reserved word where a name was wanted: `stat order`, `level count { }`, `act: action`; or
/// just before the point of failure, read as the keyword it is (`count.number`, `max(a, b)`,
/// `side = 3` in a character). Said as such, at the word, when the text would read on with a name
/// there; a keyword where a name is missing (`for each in characters`) is said as that.
fn keyword_as_name(w: &Window, pos: usize, positives: &[Rule]) -> Option<Diag> {
    let src = w.src;
    // The word the parse failed in: at its start where a name was wanted, or inside it (`d` of
    // `desc(1)` read as a die).
    let word_start = run_start(&src[..pos], is_name_char).max(w.offset);
    let at = word_at(src, word_start)
        .filter(|&(s, e)| e > pos && is_reserved(&src[s..e]))
        .filter(|&(s, _)| s < pos || wants_name(positives));
    if let Some((start, end)) = at {
        let word = &src[start..end];
        let line_start = src[..start].trim_end_matches([' ', '\t']);
        // `side` then, on the next line, `stat hp`: more likely a name missing before the line.
        let next_line = line_start.is_empty() || line_start.ends_with('\n');
        if next_line || !w.reads_on_as_name(start, end) {
            let before = if next_line { "this line" } else { &format!("`{word}`") };
            return Some(
                Diag::new("syntax::parse", format!("expected a name, found the keyword `{word}`"))
                    .label(Span::new(w.file, start, end), "a keyword, where a name was expected")
                    .help(format!(
                        "is a name missing before {before}? `{word}` is a keyword and cannot be used as a \
                         name; if it was meant as one, {}",
                        another_name(word)
                    )),
            );
        }
        let note = if positives.contains(&Rule::level_name) || positives.contains(&Rule::per_level) {
            " (a level may also be called `turn`, `round` or `phase`)"
        } else {
            ""
        };
        return Some(keyword_diag(w.file, word, start, end, note));
    }
    // The word just before, on the same line, read as the keyword it is when the parse failed at
    // punctuation right after it.
    let next = src[pos..].chars().next()?;
    if next.is_ascii_alphanumeric() || next == '_' {
        return None;
    }
    let end = src[..pos].trim_end_matches([' ', '\t']).len();
    let start = run_start(&src[..end], is_name_char);
    (start < end && start >= w.offset && is_reserved(&src[start..end]) && w.reads_on_as_name(start, end))
        .then(|| keyword_diag(w.file, &src[start..end], start, end, ""))
}

/// `word`, a keyword at `start..end`, used as a name; `note` says more of the place.
fn keyword_diag(file: FileId, word: &str, start: usize, end: usize, note: &str) -> Diag {
    Diag::new(
        "syntax::keyword",
        format!("`{word}` is a keyword and cannot be used as a name"),
    )
    .label(Span::new(file, start, end), "a keyword, not a name")
    .help(format!(
        "{}{note}; docs/language.md lists the keywords",
        another_name(word)
    ))
}

fn another_name(word: &str) -> String {
    format!("pick another name, such as `{word}_` or `my_{word}`")
}

/// The word (letters, digits, `_`) that begins at `pos`, if one does.
fn word_at(src: &str, pos: usize) -> Option<(usize, usize)> {
    let len = src[pos..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(src.len() - pos);
    (len > 0).then_some((pos, pos + len))
}

/// Where the token after byte `at` ends, past blanks and comments.
fn token_after(text: &str, at: usize) -> usize {
    token_at(text, skip_blanks(text, at))
}

/// `action move costs 1 ap`, `routine go { }`: a declaration whose name is not followed by its
/// parameter list, said as such (rather than as what else the parser could have taken).
fn missing_parameters(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let word = |at: usize| -> (usize, usize) {
        let start = at + src[at..].len() - src[at..].trim_start().len();
        let len = src[start..]
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(src.len() - start, |(i, _)| i);
        (start, start + len)
    };
    let (ks, ke) = word(pos);
    let keyword = &src[ks..ke];
    let (what, param) = match keyword {
        "action" => ("an action", "c"),
        "routine" => ("a routine", "c"),
        "trigger" => ("a trigger", "c"),
        "order" => ("an order", "c"),
        _ => return None,
    };
    let (ns, ne) = word(ke);
    if ns == ne || src[ne..].trim_start().starts_with('(') {
        return None;
    }
    let name = &src[ns..ne];
    Some(
        Diag::new("syntax::parse", format!("`{keyword} {name}` needs its parameter list"))
            .label(Span::new(file, ns, ne), "the list goes right after the name")
            .help(format!(
                "{what} is declared with its parameters: `{keyword} {name}({param}) ...`{}",
                if keyword == "routine" {
                    " (or `()` for none)"
                } else {
                    ""
                }
            )),
    )
}

fn is_reserved(word: &str) -> bool {
    let w: String = word
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    Grammar::parse(Rule::keyword, &w)
        .map(|p| p.as_str().len() == w.len())
        .unwrap_or(false)
        && !w.is_empty()
}

/// The changes `at end of moment|LEVEL` may defer (docs/language.md, "Changes made when a moment
/// ends").
const DEFERRABLE: &[&str] = &[
    "spend", "gain", "reset", "forfeit", "set", "mark", "clear", "transfer", "join", "leave", "destroy", "begin",
    "stop",
];

/// `at end of ...` after a statement that cannot wait for it (`create drone { } at end of
/// moment`): said at the clause, naming the statement, with the changes that can.
fn undeferrable(src: &str, pos: usize, file: FileId) -> Option<Diag> {
    let rest = src.get(pos..)?;
    let mut words = rest.split_whitespace();
    if (words.next(), words.next(), words.next()) != (Some("at"), Some("end"), Some("of")) {
        return None;
    }
    // The statement the clause follows: the last statement word on its line before it.
    const STATEMENTS: &[&str] = &[
        "create", "place", "swap", "shuffle", "draw", "discard", "return", "rank", "raise", "do", "elapse", "react",
        "turn", "let", "choose", "if", "ready", "disarm", "reveal", "repeat", "end",
    ];
    let line = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    let word = src[line..pos]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .rfind(|w| STATEMENTS.contains(w) || DEFERRABLE.contains(w))?;
    if !STATEMENTS.contains(&word) {
        return None;
    }
    let of = pos + rest.find("of")? + 2;
    Some(
        Diag::new("syntax::parse", format!("`{word}` cannot wait for the end of a moment"))
            .label(Span::new(file, pos, of), "`at end of` defers only a change")
            .help(format!(
                "these changes may be made when a moment or a level's iteration ends: {}; do the `{word}` \
                 now, or defer the changes it would lead to",
                DEFERRABLE
                    .iter()
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
    )
}

/// A character of a plain ASCII name.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
