//! The lean read: the parser pest_derive generates from `grammar/turnscript.pest` (by build.rs,
//! with pest's own generator), run on [`State`], a parser state that does what pest's
//! `ParserState` does to the text and the pairs, and nothing else: no record of the rules and
//! tokens tried (pest keeps it at every rule for the message of a syntax error), no call counter
//! (pest's limit is not set here), no stack snapshots (the grammar only pushes, once, at the
//! start of a fast read: a failed sequence truncates the stack instead). A text the lean read
//! refuses is read again by pest (`next_item`), whose error is the one reported; a text it reads
//! gives the pairs pest gives (`the_lean_read_reads_what_pest_reads`, in `parser`'s tests).
//!
//! The grammar stays the language's definition: the rules, their order and what each matches
//! are pest's generated code; only the state under them is this file.

use pest::{Atomicity, Lookahead, MatchDir, ParseResult};

use super::Rule;

pub(super) use generated::Lean;

/// pest's generated code, as pest_derive would put it in place (where clippy does not read it).
#[allow(clippy::all)]
mod generated {
    use super::Rule;

    /// The generated parser of the grammar's rules; `Lean::parse(rule, text)` gives the queue of
    /// the pairs read, or `None` where pest's parser fails.
    pub(in crate::syntax::parser) struct Lean;

    include!(concat!(env!("OUT_DIR"), "/lean.rs"));
}

/// One end of a pair being read, as pest queues them: a `Start` knows where its `End` is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Token<R> {
    Start { end: usize, pos: usize },
    End { rule: R, pos: usize },
}

/// The pairs of a read, as pest queues them (each pair its `Start`, its children's tokens, its
/// `End`; positions are bytes of the text read): what `node::Nodes` reads.
pub(in crate::syntax::parser) type Queue = Vec<Token<Rule>>;

/// The parser state under the generated code: its position in the text, the pairs read so far (as
/// pest queues them), whether inside a lookahead or an atomic rule, and the stack of `PUSH`.
pub struct State<'i, R> {
    input: &'i str,
    pos: usize,
    queue: Vec<Token<R>>,
    lookahead: Lookahead,
    atomicity: Atomicity,
    stack: Vec<&'i str>,
}

/// What the generated `parse` calls, in place of `pest::state`: runs `f` from the start of
/// `input`, and gives the queue of the pairs it read, or `None` when it failed (the plain read
/// says why). The queue is the one [`keep`] kept, when there is one.
pub fn state<'i, F>(input: &'i str, f: F) -> Option<Queue>
where
    F: FnOnce(Box<State<'i, Rule>>) -> ParseResult<Box<State<'i, Rule>>>,
{
    let start = Box::new(State {
        input,
        pos: 0,
        // The queue of the item before, emptied: a file's items are read one after another.
        queue: QUEUE.take(),
        lookahead: Lookahead::None,
        atomicity: Atomicity::NonAtomic,
        stack: Vec::new(),
    });
    match f(start) {
        Ok(s) => Some(s.queue),
        Err(s) => {
            keep(s.queue);
            None
        }
    }
}

/// Keeps `queue` for the next read, emptied, when it holds a usual item's pairs (a few hundred),
/// not an outsized one's.
pub(super) fn keep(mut queue: Queue) {
    if queue.capacity() <= KEPT_QUEUE {
        queue.clear();
        QUEUE.set(queue);
    }
}

/// The most pairs' ends a kept queue holds room for (96 KiB).
const KEPT_QUEUE: usize = 4096;

thread_local! {
    /// The queue of the last read, kept for the next (it grew to an item's size once).
    static QUEUE: std::cell::Cell<Queue> = const { std::cell::Cell::new(Vec::new()) };
}

/// The combinators pest's generated code calls, each doing to the position, the pairs and the
/// stack what `pest::ParserState`'s method of that name does.
impl<'i, R: Copy> State<'i, R> {
    pub fn atomicity(&self) -> Atomicity {
        self.atomicity
    }

    /// pest checks the native stack here, with its `std` feature (off in this crate, whose parser
    /// bounds its own nesting: `bounds::check_nesting`).
    #[inline]
    pub fn check_stack_limit(self: Box<Self>) -> ParseResult<Box<Self>> {
        Ok(self)
    }

    #[inline]
    pub fn rule<F>(mut self: Box<Self>, rule: R, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let index = self.queue.len();
        let queued = self.lookahead == Lookahead::None && self.atomicity != Atomicity::Atomic;
        if queued {
            self.queue.push(Token::Start { end: 0, pos: self.pos });
        }
        match f(self) {
            Ok(mut s) => {
                if queued {
                    let end = s.queue.len();
                    if let Some(Token::Start { end: e, .. }) = s.queue.get_mut(index) {
                        *e = end;
                    }
                    let pos = s.pos;
                    s.queue.push(Token::End { rule, pos });
                }
                Ok(s)
            }
            Err(mut s) => {
                if queued {
                    s.queue.truncate(index);
                }
                Err(s)
            }
        }
    }

    #[inline]
    pub fn sequence<F>(self: Box<Self>, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let (pos, queued, pushed) = (self.pos, self.queue.len(), self.stack.len());
        f(self).map_err(|mut s| {
            s.pos = pos;
            s.queue.truncate(queued);
            s.stack.truncate(pushed);
            s
        })
    }

    #[inline]
    pub fn repeat<F>(self: Box<Self>, mut f: F) -> ParseResult<Box<Self>>
    where
        F: FnMut(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let mut result = f(self);
        loop {
            match result {
                Ok(s) => result = f(s),
                Err(s) => return Ok(s),
            }
        }
    }

    #[inline]
    pub fn optional<F>(self: Box<Self>, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        match f(self) {
            Ok(s) | Err(s) => Ok(s),
        }
    }

    #[inline]
    pub fn atomic<F>(mut self: Box<Self>, atomicity: Atomicity, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let before = self.atomicity;
        self.atomicity = atomicity;
        match f(self) {
            Ok(mut s) => {
                s.atomicity = before;
                Ok(s)
            }
            Err(mut s) => {
                s.atomicity = before;
                Err(s)
            }
        }
    }

    #[inline]
    pub fn lookahead<F>(mut self: Box<Self>, is_positive: bool, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let before = self.lookahead;
        self.lookahead = match (is_positive, before) {
            (true, Lookahead::Negative) | (false, Lookahead::None | Lookahead::Positive) => Lookahead::Negative,
            _ => Lookahead::Positive,
        };
        let (pos, pushed) = (self.pos, self.stack.len());
        let (matched, mut s) = match f(self) {
            Ok(s) => (true, s),
            Err(s) => (false, s),
        };
        s.pos = pos;
        s.lookahead = before;
        s.stack.truncate(pushed);
        if matched == is_positive { Ok(s) } else { Err(s) }
    }

    #[inline]
    pub fn match_string(mut self: Box<Self>, string: &str) -> ParseResult<Box<Self>> {
        let to = self.pos + string.len();
        if self.input.as_bytes().get(self.pos..to) == Some(string.as_bytes()) {
            self.pos = to;
            Ok(self)
        } else {
            Err(self)
        }
    }

    /// A character from `range.start` to `range.end`, both included (as pest reads a range).
    #[inline]
    pub fn match_range(mut self: Box<Self>, range: std::ops::Range<char>) -> ParseResult<Box<Self>> {
        let next = match self.input.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.input.get(self.pos..).and_then(|t| t.chars().next()),
            None => None,
        };
        match next {
            Some(c) if range.start <= c && c <= range.end => {
                self.pos += c.len_utf8();
                Ok(self)
            }
            _ => Err(self),
        }
    }

    /// `n` characters (`ANY` is one).
    #[inline]
    pub fn skip(mut self: Box<Self>, n: usize) -> ParseResult<Box<Self>> {
        let mut chars = self.input.get(self.pos..).unwrap_or("").chars();
        let mut len = 0;
        for _ in 0..n {
            match chars.next() {
                Some(c) => len += c.len_utf8(),
                None => return Err(self),
            }
        }
        self.pos += len;
        Ok(self)
    }

    /// To the first of `strings` found, or to the end of the text.
    #[inline]
    pub fn skip_until(mut self: Box<Self>, strings: &[&str]) -> ParseResult<Box<Self>> {
        let rest = self.input.get(self.pos..).unwrap_or("");
        let found = match strings {
            [one] => rest.find(one),
            _ => strings.iter().filter_map(|s| rest.find(s)).min(),
        };
        self.pos += found.unwrap_or(rest.len());
        Ok(self)
    }

    #[inline]
    pub fn start_of_input(self: Box<Self>) -> ParseResult<Box<Self>> {
        if self.pos == 0 { Ok(self) } else { Err(self) }
    }

    #[inline]
    pub fn end_of_input(self: Box<Self>) -> ParseResult<Box<Self>> {
        if self.pos == self.input.len() {
            Ok(self)
        } else {
            Err(self)
        }
    }

    /// `PUSH(X)`: the text X matched goes on the stack.
    #[inline]
    pub fn stack_push<F>(self: Box<Self>, f: F) -> ParseResult<Box<Self>>
    where
        F: FnOnce(Box<Self>) -> ParseResult<Box<Self>>,
    {
        let start = self.pos;
        let mut s = f(self)?;
        let text = s.input.get(start..s.pos).unwrap_or("");
        s.stack.push(text);
        Ok(s)
    }

    /// `PEEK[start..end]`: the texts on the stack from `start` to `end`, matched in turn.
    #[inline]
    pub fn stack_match_peek_slice(
        mut self: Box<Self>,
        start: i32,
        end: Option<i32>,
        dir: MatchDir,
    ) -> ParseResult<Box<Self>> {
        let len = self.stack.len();
        let range = match (index(start, len), end.map_or(Some(len), |e| index(e, len))) {
            (Some(a), Some(b)) => a..b,
            _ => return Err(self),
        };
        if range.end <= range.start {
            return Ok(self);
        }
        let mut pos = self.pos;
        let bytes = self.input.as_bytes();
        let mut one = |text: &&str| {
            let to = pos + text.len();
            let hit = bytes.get(pos..to) == Some(text.as_bytes());
            if hit {
                pos = to;
            }
            hit
        };
        let all = match (dir, self.stack.get(range)) {
            (_, None) => false,
            (MatchDir::BottomToTop, Some(texts)) => texts.iter().all(&mut one),
            (MatchDir::TopToBottom, Some(texts)) => texts.iter().rev().all(&mut one),
        };
        if all {
            self.pos = pos;
            Ok(self)
        } else {
            Err(self)
        }
    }
}

/// A stack index as pest reads one: negative from the top, `None` beyond the stack.
fn index(i: i32, len: usize) -> Option<usize> {
    let len = i32::try_from(len).ok()?;
    if i > len {
        None
    } else if i >= 0 {
        usize::try_from(i).ok()
    } else {
        usize::try_from(len + i).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parser::node::Nodes;
    use crate::syntax::parser::{Grammar, each_item_read};
    use pest::Parser as _;
    use pest::iterators::Pairs;
    use std::ops::ControlFlow;

    /// Every `.turn` file of `rulesets/` and `tests/`, and each cut short, with a byte taken out
    /// and with a word taken out, every 499 bytes.
    fn texts() -> Vec<String> {
        crate::syntax::parser::corpus::broken(crate::syntax::parser::corpus::files(&["rulesets", "tests"], true), 499)
    }

    /// Every pair of pest's read, each before its children: its rule, span and depth.
    fn shape(pairs: Pairs<Rule>) -> Vec<(Rule, usize, usize, usize)> {
        fn walk(pairs: Pairs<Rule>, depth: usize, out: &mut Vec<(Rule, usize, usize, usize)>) {
            for p in pairs {
                out.push((p.as_rule(), p.as_span().start(), p.as_span().end(), depth));
                walk(p.into_inner(), depth + 1, out);
            }
        }
        let mut out = Vec::new();
        walk(pairs, 0, &mut out);
        out
    }

    /// The same of the lean read, as the AST builder reads it (`node`), whose `flatten`, `len`,
    /// `peek` and `as_str` agree with its walk.
    fn lean_shape(text: &str, queue: &Queue) -> Vec<(Rule, usize, usize, usize)> {
        fn walk(text: &str, pairs: Nodes, depth: usize, out: &mut Vec<(Rule, usize, usize, usize)>) {
            let (len, first) = (pairs.len(), pairs.peek().map(|p| p.as_span().start()));
            let before = out.len();
            for p in pairs {
                let (start, end) = (p.as_span().start(), p.as_span().end());
                assert_eq!(p.as_str(), &text[start..end]);
                out.push((p.as_rule(), start, end, depth));
                walk(text, p.into_inner(), depth + 1, out);
            }
            let mine: Vec<_> = out[before..].iter().filter(|s| s.3 == depth).collect();
            assert_eq!((mine.len(), mine.first().map(|s| s.1)), (len, first));
        }
        let mut out = Vec::new();
        walk(text, Nodes::new(text, queue), 0, &mut out);
        let flat: Vec<_> = Nodes::new(text, queue)
            .flatten()
            .map(|p| (p.as_rule(), p.as_span().start(), p.as_span().end()))
            .collect();
        assert_eq!(flat, out.iter().map(|s| (s.0, s.1, s.2)).collect::<Vec<_>>());
        out
    }

    /// The lean read gives the pairs pest gives, or refuses what pest refuses: the whole file
    /// (`file`), and item by item as `parse` reads (`next_item_fast`), over every `.turn`
    /// file of the crate and the same broken; and `parse` builds the same tree (spans included)
    /// and the same syntax errors with it and without it.
    #[test]
    fn the_lean_read_reads_what_pest_reads() {
        let texts = texts();
        assert!(texts.len() > 1000, "{} texts", texts.len());
        let (mut items, mut refused, mut trees) = (0, 0, 0);
        for text in &texts {
            for rule in [Rule::file, Rule::next_item_fast] {
                let mut at = 0;
                loop {
                    let rest = &text[at..];
                    let (lean, pest) = match (Lean::parse(rule, rest), Grammar::parse(rule, rest)) {
                        (Some(lean), Ok(pest)) => (lean_shape(rest, &lean), shape(pest)),
                        (None, Err(_)) => {
                            refused += 1;
                            break;
                        }
                        (lean, pest) => panic!(
                            "{rule:?}: lean read {}, pest {}, at byte {at} of:\n{text}",
                            lean.is_some(),
                            pest.is_ok()
                        ),
                    };
                    assert_eq!(lean, pest, "{rule:?} at byte {at} of:\n{text}");
                    items += 1;
                    // The item read (the child of `next_item`), or the end.
                    match lean.get(1) {
                        Some(&(r, _, end, _)) if rule != Rule::file && r != Rule::EOI && end > 0 => {
                            at += lean.first().map_or(end, |p| p.2)
                        }
                        _ => break,
                    }
                }
            }
            let read = |lean: bool| {
                let mut items = Vec::new();
                let result = each_item_read(text, 0, lean, |item| {
                    items.push(item);
                    ControlFlow::Continue(())
                });
                format!("{items:?} {result:?}")
            };
            assert_eq!(read(true), read(false), "for:\n{text}");
            trees += 1;
        }
        assert!(
            items > 20_000 && refused > 1000 && trees == texts.len(),
            "{items} {refused} {trees}"
        );
    }
}
