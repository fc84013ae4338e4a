//! pest's grammar → spanned AST. The entry [`parse`], the pest derive, and the helpers every part
//! of the grammar shares. The builder reads the lean read's queue of pairs (`node`), not pest's
//! `Pairs`; pest's parser reads a text the lean read refuses, for its syntax error.

mod bounds;
#[cfg(test)]
pub(crate) mod corpus;
mod deck;
mod errors;
mod expr;
mod functions;
mod hints;
mod items;
mod lean;
mod names;
mod node;
pub(super) mod pools;
mod stmt;
mod timing;

use std::ops::ControlFlow;

use pest::Parser as _;
use pest_derive::Parser;

use super::ast::*;
use crate::diag::Diag;
use crate::limits::MAX_SOURCE_BYTES;
use bounds::check_nesting;
use errors::pest_error;
use names::keyword_text;
use node::{Node as Pair, Nodes as Pairs};

#[derive(Parser)]
#[grammar = "../grammar/turnscript.pest"]
struct Grammar;

type R<T> = Result<T, Diag>;

/// The byte-order mark some editors begin a UTF-8 file with (U+FEFF): skipped where a file begins.
pub const BOM: char = '\u{feff}';

/// Parses one source file into its AST, or returns the syntax error.
pub fn parse(src: &str, file: FileId) -> Result<File, Vec<Diag>> {
    let mut items = Vec::new();
    each_item(src, file, |item| {
        items.push(item);
        ControlFlow::Continue(())
    })?;
    Ok(File { items })
}

/// Parses a file one item at a time, handing each to `f` in order, which may stop the parse early
/// (`ControlFlow::Break`). pest's tokens are held for one item only, so parsing costs no memory
/// beyond the items `f` keeps. A syntax error stops the parse.
pub fn each_item(src: &str, file: FileId, f: impl FnMut(Item) -> ControlFlow<()>) -> Result<(), Vec<Diag>> {
    each_item_read(src, file, true, f)
}

/// [`each_item`], reading each item by the lean read first when `lean` (always but in the test
/// that compares the two reads: `lean::tests`).
fn each_item_read(
    src: &str,
    file: FileId,
    lean: bool,
    mut f: impl FnMut(Item) -> ControlFlow<()>,
) -> Result<(), Vec<Diag>> {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    if src.len() > MAX_SOURCE_BYTES {
        return Err(vec![
            Diag::new(
                "syntax::too_large",
                format!("this file is {} bytes; the limit is {MAX_SOURCE_BYTES}", src.len()),
            )
            .label(Span::new(file, 0, 0), "file starts here")
            .help("split the file, or check that it is the file you meant"),
        ]);
    }
    check_nesting(src, file).map_err(|d| vec![d])?;
    let mut b = Builder {
        file,
        // A byte-order mark, as some editors begin a UTF-8 file with, is no part of the text.
        offset: if src.starts_with(BOM) { BOM.len_utf8() } else { 0 },
        lean,
    };
    // Where the item before this one started.
    let mut previous: Option<usize> = None;
    // Where an action without a body ended, when it is the item before this one.
    let mut bodiless_action: Option<usize> = None;
    // The cards of the decks so far: held to their total as they are written out.
    let mut cards = 0usize;
    loop {
        let rest = &src[b.offset..];
        // Read fast, and lean (pest's generated parser on a state that keeps no record of what it
        // tried); what the lean read refuses is read again plainly by pest, for its syntax error
        // (the plain read is the grammar's definition; the reads give the same pairs).
        let read = match lean {
            true => lean::Lean::parse(Rule::next_item_fast, rest),
            false => Grammar::parse(Rule::next_item_fast, rest).ok().map(node::queue_of),
        };
        let queue = match read {
            Some(queue) => queue,
            None => match Grammar::parse(Rule::next_item, rest) {
                Ok(pairs) => node::queue_of(pairs),
                Err(e) => return Err(vec![error_at(src, file, previous, b.offset, e)]),
            },
        };
        let Some(pair) = Pairs::new(rest, &queue).next().and_then(|top| top.into_inner().next()) else {
            return Ok(());
        };
        let end = pair.as_span().end();
        let start = b.offset + pair.as_span().start();
        if pair.as_rule() == Rule::kind_decl
            && let Some(action_end) = bodiless_action
            && !src[action_end..start].contains('\n')
        {
            return Err(vec![kind_on_action_line(file, start)]);
        }
        bodiless_action = (pair.as_rule() == Rule::action_decl && !pair.as_str().trim_end().ends_with('}'))
            .then(|| start + trimmed_len(pair.as_str()));
        let flow = match pair.as_rule() {
            Rule::EOI => return Ok(()),
            Rule::deck_decl => {
                let items = b.deck_decl(pair).map_err(|d| vec![d])?;
                cards = cards.saturating_add(super::cast::cards_in(&items));
                if cards > crate::limits::MAX_DECK_CARDS_TOTAL {
                    let at = items.iter().rev().find_map(|i| match i {
                        Item::Deck { name, .. } => Some(name.span),
                        _ => None,
                    });
                    return Err(vec![super::cast::too_many_cards(at.unwrap_or_default())]);
                }
                items.into_iter().try_for_each(&mut f)
            }
            _ => f(b.item(pair).map_err(|d| vec![d])?),
        };
        lean::keep(queue);
        if flow.is_break() {
            return Ok(());
        }
        if end == 0 {
            // Every item begins with a word: one that takes no text is a bug in the grammar.
            return Err(vec![internal(Span::new(file, b.offset, b.offset), Rule::next_item)]);
        }
        previous = Some(b.offset);
        b.offset += end;
    }
}

#[cfg(test)]
thread_local! {
    /// How many parses this thread has begun (`each_item` calls): for the tests of "one parse per
    /// file per command".
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `action a(c) costs 1 ap kind x`: a `kind` after an action's costs or condition, or a second
/// `kind` (`kind x kind y`), is a declaration of kinds of its own, which the action does not have.
/// On the action's line it is refused rather than read so.
fn kind_on_action_line(file: FileId, at: usize) -> Diag {
    Diag::new(
        "syntax::parse",
        "this `kind` declares kinds of its own, not the action's",
    )
    .label(
        Span::new(file, at, at + "kind".len()),
        "a declaration of kinds, after the action",
    )
    .help(
        "an action's kinds are one list right after its parameters: `action NAME(c) kind K, L costs ...`; \
         a declaration of kinds begins a line of its own",
    )
}

/// The syntax error `e` met parsing the item at `at`, reported as a parse of the whole file
/// would: from the item before (at `previous`) and this one parsed together, since the item before
/// may have stopped short of a tail that went wrong further on.
fn error_at(src: &str, file: FileId, previous: Option<usize>, at: usize, e: pest::error::Error<Rule>) -> Diag {
    if let Some(p) = previous
        && let Err(both) = Grammar::parse(Rule::item_pair, &src[p..])
    {
        return pest_error(both, src, p, file, Rule::item_pair);
    }
    pest_error(e, src, at, file, Rule::next_item)
}

struct Builder {
    file: FileId,
    /// Where the text being built starts in its file (non-zero for `{...}` inside a string).
    offset: usize,
    /// Whether the lean read reads the `{...}` of a message (always but in the tests that
    /// compare it with pest's read).
    lean: bool,
}

impl Builder {
    /// The pair's span, without the whitespace and comments pest lets a rule end with.
    fn span(&self, pair: &Pair) -> Span {
        let s = pair.as_span();
        let start = self.offset + s.start();
        Span::new(self.file, start, start + trimmed_len(pair.as_str()))
    }

    fn ident(&self, pair: Pair) -> Ident {
        Spanned::new(pair.as_str().to_string(), self.span(&pair))
    }

    fn string(&self, pair: Pair) -> Spanned<String> {
        let span = self.span(&pair);
        let text = pair
            .into_inner()
            .next()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        Spanned::new(text, span)
    }

    fn ident_list(&self, pair: Pair) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    /// A `name` pair: an identifier or a quoted string.
    fn name(&self, pair: Pair) -> Ident {
        match pair.clone().into_inner().next() {
            Some(p) if p.as_rule() == Rule::string => self.string(p),
            Some(p) => self.ident(p),
            None => self.ident(pair),
        }
    }

    /// `NAME [: TYPE]` (a `typed` or `param_arg` pair).
    fn typed(&self, pair: Pair) -> R<Typed> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().peekable();
        let name = self.ident(next(&mut it, span)?);
        Ok(Typed {
            name,
            ty: self.of_type(&mut it),
        })
    }

    fn typed_list(&self, pair: Pair) -> R<Vec<Typed>> {
        pair.into_inner().map(|p| self.typed(p)).collect()
    }

    /// An optional `: TYPE` next in `it`.
    fn of_type<'i>(&self, it: &mut std::iter::Peekable<impl Iterator<Item = Pair<'i>>>) -> Option<Ident> {
        let p = it.next_if(|p| p.as_rule() == Rule::of_type)?;
        let t = p.into_inner().next()?;
        Some(self.ident(t))
    }

    /// `field = value` (a `char_field` pair).
    fn field_value(&self, pair: Pair) -> R<(Ident, Expr)> {
        let span = self.span(&pair);
        let mut pi = pair.into_inner();
        let f = self.ident(next(&mut pi, span)?);
        Ok((f, self.expr(next(&mut pi, span)?)?))
    }

    fn collection(&self, pair: Pair) -> R<Collection> {
        let pile = pair.clone().into_inner().find(|p| p.as_rule() == Rule::pile_of);
        if let Some(pile) = pile {
            let mut inner = pile.into_inner();
            let discard = inner.clone().any(|p| p.as_rule() == Rule::pile_discard);
            if let Some(deck) = inner.find(|p| p.as_rule() == Rule::deck_ref) {
                return Ok(Collection::Pile(self.deck_ref(deck)?, discard));
            }
        }
        match pair.into_inner().find(|p| p.as_rule() == Rule::ident) {
            Some(p) => Ok(Collection::Ranked(self.ident(p))),
            None => Ok(Collection::Characters),
        }
    }

    /// `out of play`, `including out of play` (a `presence` pair): whom a walk draws from.
    fn presence(pair: Pair) -> Presence {
        match pair.into_inner().next().map(|q| q.as_rule()) {
            Some(Rule::presence_both) => Presence::Both,
            _ => Presence::OutOfPlay,
        }
    }
}

/// The length of `text` without trailing whitespace and trailing `#` comments.
fn trimmed_len(text: &str) -> usize {
    let mut t = trim_end(text);
    // Most pairs hold no `#` at all, so no comment: one search, not a line's.
    if !t.as_bytes().contains(&b'#') {
        return t.len();
    }
    loop {
        let line_start = t.rfind('\n').map_or(0, |i| i + 1);
        // `"` and `#` are ASCII: the line is read by bytes (and most lines hold neither).
        let line = &t.as_bytes()[line_start..];
        let mut in_string = false;
        let comment = line.iter().position(|&b| match b {
            b'"' => {
                in_string = !in_string;
                false
            }
            b'#' => !in_string,
            _ => false,
        });
        match comment {
            Some(i) => t = trim_end(&t[..line_start + i]),
            None => return t.len(),
        }
    }
}

/// `text.trim_end()`, the ASCII blanks a pair most often ends with taken byte by byte.
fn trim_end(text: &str) -> &str {
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    // The ASCII characters `char::is_whitespace` holds.
    while end > 0 && matches!(bytes[end - 1], b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') {
        end -= 1;
    }
    match bytes.get(end.wrapping_sub(1)) {
        // Unicode's blanks are not ASCII: what is left may end with one.
        Some(b) if !b.is_ascii() => text[..end].trim_end(),
        _ => &text[..end],
    }
}

fn too_large(span: Span) -> Diag {
    Diag::new("syntax::number", "this number is too large")
        .label(span, "does not fit in 64 bits")
        .help(format!("numbers go up to {}", i64::MAX))
}

fn next<'a>(it: &mut impl Iterator<Item = Pair<'a>>, span: Span) -> R<Pair<'a>> {
    it.next()
        .ok_or_else(|| Diag::new("internal", "the parser met a shape it does not know").label(span, "here"))
}

fn last_inner(pair: Pair, span: Span) -> R<Pair> {
    pair.into_inner()
        .filter(|p| !is_keyword(p.as_rule()))
        .last()
        .ok_or_else(|| internal(span, Rule::expr))
}

fn internal(span: Span, rule: Rule) -> Diag {
    Diag::new(
        "internal",
        format!("the parser met a shape it does not know ({rule:?})"),
    )
    .label(span, "here")
    .help("this is a bug in turnscript; please report it with this file")
}

/// A pair's children without its keywords: what every declaration and statement is read from.
type Parts<'i> = std::iter::Peekable<std::iter::Filter<Pairs<'i>, fn(&Pair<'i>) -> bool>>;

fn parts<'i>(pair: Pair<'i>) -> Parts<'i> {
    let keep: fn(&Pair<'i>) -> bool = not_keyword;
    pair.into_inner().filter(keep).peekable()
}

fn not_keyword(p: &Pair) -> bool {
    !is_keyword(p.as_rule())
}

fn is_keyword(r: Rule) -> bool {
    keyword_text(r).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first error of a parse of the whole file at once (`file = { SOI ~ item* ~ EOI }`,
    /// then every item built), as files were parsed before they were parsed item by item.
    fn whole(src: &str) -> Option<Diag> {
        if let Err(d) = check_nesting(src, 0) {
            return Some(d);
        }
        let top = match Grammar::parse(Rule::file, src) {
            Err(e) => return Some(pest_error(e, src, 0, 0, Rule::file)),
            Ok(mut pairs) => pairs.next()?,
        };
        let b = Builder {
            file: 0,
            offset: 0,
            lean: false,
        };
        let queue = node::queue_of(top.into_inner());
        Pairs::new(src, &queue).find_map(|pair| match pair.as_rule() {
            Rule::EOI => None,
            Rule::deck_decl => b.deck_decl(pair).err(),
            _ => b.item(pair).err(),
        })
    }

    /// The bundled files, by path.
    fn bundled() -> Vec<(String, String)> {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut files = Vec::new();
        for dir in ["rulesets", "rulesets/encounters"] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
                continue;
            };
            for entry in entries.flatten() {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    files.push((entry.path().display().to_string(), text));
                }
            }
        }
        files
    }

    /// A `}` that begins its line, taken out of a bundled file, is reported at the `{` of the
    /// block it closed: the block never closed.
    #[test]
    fn a_missing_brace_is_reported_at_its_block() {
        let mut cases = 0;
        for (path, text) in bundled() {
            // Each `{` and the `}` that closes it, outside strings and comments.
            let (mut open, mut pairs, mut in_string, mut in_comment) = (Vec::new(), Vec::new(), false, false);
            for (i, c) in text.char_indices() {
                match c {
                    '\n' => (in_string, in_comment) = (false, false),
                    _ if in_comment => {}
                    '"' => in_string = !in_string,
                    _ if in_string => {}
                    '#' => in_comment = true,
                    '{' => open.push(i),
                    '}' => pairs.extend(open.pop().map(|o| (o, i))),
                    _ => {}
                }
            }
            for (o, c) in pairs {
                let line_start = text[..c].rfind('\n').map_or(0, |i| i + 1);
                if !text[line_start..c].trim().is_empty() {
                    continue;
                }
                cases += 1;
                let cut = format!("{}{}", &text[..c], &text[c + 1..]);
                let d = parse(&cut, 0).err().and_then(|d| d.into_iter().next());
                let at = d
                    .as_ref()
                    .map(|d| (d.code, d.labels.first().map(|l| l.0.start as usize)));
                let line = |at: usize| text[..at].matches('\n').count() + 1;
                assert_eq!(
                    at,
                    Some(("syntax::unclosed", Some(o))),
                    "{path} without the `}}` of line {}, closing line {}: {d:?}",
                    line(c),
                    line(o)
                );
            }
        }
        assert!(cases > 100, "{cases} cases");
    }

    /// `trim_end` is `str::trim_end`: ASCII blanks, Unicode's, both, none, a text of blanks only.
    #[test]
    fn trim_end_is_strs() {
        let texts = [
            "",
            " ",
            "a",
            "a \t\r\n",
            "a\x0b\x0c",
            "a\u{a0}",
            "a \u{2003}\n ",
            "a\u{85}",
            "é",
            "é \n",
            "\u{3000}",
            " \u{a0} ",
            "a # b\n",
            "\u{feff}",
        ];
        for t in texts {
            assert_eq!(trim_end(t), t.trim_end(), "{t:?}");
        }
    }

    fn shown(d: &Diag) -> (String, Vec<(Span, String)>) {
        (d.message.clone(), d.labels.clone())
    }

    /// A file is parsed one item at a time, yet every syntax error is the one, at the place, that
    /// a parse of the whole file gives: for text cut short and bytes taken out of every bundled
    /// file, and for items whose optional tails go wrong further on.
    #[test]
    fn errors_are_where_a_whole_file_parse_puts_them() {
        let mut texts: Vec<String> = [
            "ruleset \"r\"\nflag ready per 5\n",
            "ruleset \"r\"\nstat h default\nstat k\n",
            "ruleset \"r\"\nstat h default 1 +\nside a\n",
            "ruleset \"r\"\nparam x = 1\n  garbage here\n",
            "ruleset \"r\"\naction act(c) costs 1 r when\nside a\n",
            "ruleset \"r\"\nresource r min\nside a\n",
            "ruleset \"r\"\nside a, ",
            "ruleset \"r\"\nsetup {\n  let x = 1 +\n}\n",
            "ruleset \"r\"\nside a\norder o(c) { c.k }\nstat k\nside b,\n",
        ]
        .map(str::to_string)
        .to_vec();
        let root = env!("CARGO_MANIFEST_DIR");
        for dir in ["rulesets", "rulesets/encounters"] {
            let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(text) = std::fs::read_to_string(entry.path()) else {
                    continue;
                };
                for at in (0..text.len()).step_by(151).filter(|i| text.is_char_boundary(*i)) {
                    texts.push(text[..at].to_string());
                    let next = (at + 1..=text.len())
                        .find(|i| text.is_char_boundary(*i))
                        .unwrap_or(text.len());
                    texts.push(format!("{}{}", &text[..at], &text[next..]));
                }
            }
        }
        assert!(texts.len() > 500, "{} texts", texts.len());
        for text in &texts {
            let mine = parse(text, 0).err().and_then(|d| d.into_iter().next());
            match (whole(text), mine) {
                (None, None) => {}
                (Some(w), Some(m)) => assert_eq!(shown(&w), shown(&m), "for:\n{text}"),
                (w, m) => panic!("whole file: {w:?}, item by item: {m:?}, for:\n{text}"),
            }
        }
    }

    /// Every bundled file (`rulesets/` and below), and each cut short, with a byte taken out and
    /// with a word taken out, every 307 bytes.
    fn bundled_and_broken() -> Vec<String> {
        super::corpus::broken(super::corpus::files(&["rulesets"], false), 307)
    }

    /// The fast read (`next_item_fast`) reads, item by item, the same pairs as the plain read
    /// (`next_item`, the grammar as written), and refuses what it refuses: its quick tests only
    /// pass over alternatives that cannot match.
    #[test]
    fn the_fast_read_reads_what_the_plain_read_reads() {
        let shape = |pairs: pest::iterators::Pairs<Rule>| -> Vec<(Rule, usize, usize)> {
            let top = pairs.into_iter().next().map(|p| p.into_inner().flatten());
            top.into_iter()
                .flatten()
                .map(|p| (p.as_rule(), p.as_span().start(), p.as_span().end()))
                .collect()
        };
        let texts = bundled_and_broken();
        assert!(texts.len() > 1000, "{} texts", texts.len());
        let mut items = 0;
        for text in &texts {
            let mut at = 0;
            loop {
                let rest = &text[at..];
                let (plain, fast) = (
                    Grammar::parse(Rule::next_item, rest),
                    Grammar::parse(Rule::next_item_fast, rest),
                );
                let (plain, fast) = match (plain, fast) {
                    (Ok(plain), Ok(fast)) => (shape(plain), shape(fast)),
                    (Err(_), Err(_)) => break,
                    (plain, fast) => panic!(
                        "plain read: {}, fast read: {}, at byte {at} of:\n{text}",
                        plain.is_ok(),
                        fast.is_ok()
                    ),
                };
                assert_eq!(plain, fast, "at byte {at} of:\n{text}");
                items += 1;
                match plain.first() {
                    Some(&(rule, _, end)) if rule != Rule::EOI && end > 0 => at += end,
                    _ => break,
                }
            }
        }
        assert!(items > 10_000, "{items} items");
    }
}
