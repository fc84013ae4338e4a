//! pest → spanned AST. The only module that sees pest's `Pair`s: the entry [`parse`], the
//! pest derive, and the helpers every part of the grammar shares.

mod bounds;
mod errors;
mod expr;
mod items;
mod stmt;

use std::ops::ControlFlow;

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::PrattParser;
use pest_derive::Parser;

use super::ast::*;
use crate::diag::Diag;
use crate::limits::MAX_SOURCE_BYTES;
use bounds::check_nesting;
use errors::{keyword_text, pest_error};
use expr::pratt;

#[derive(Parser)]
#[grammar = "../grammar/turnscript.pest"]
struct Grammar;

type R<T> = Result<T, Diag>;

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
pub fn each_item(src: &str, file: FileId, mut f: impl FnMut(Item) -> ControlFlow<()>) -> Result<(), Vec<Diag>> {
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
        pratt: pratt(),
        offset: 0,
    };
    loop {
        let rest = &src[b.offset..];
        let mut pairs = Grammar::parse(Rule::next_item, rest).map_err(|e| vec![pest_error(e, src, b.offset, file)])?;
        let Some(pair) = pairs.next().and_then(|top| top.into_inner().next()) else {
            return Ok(());
        };
        let end = pair.as_span().end();
        let flow = match pair.as_rule() {
            Rule::EOI => return Ok(()),
            Rule::deck_decl => b.deck_decl(pair).map_err(|d| vec![d])?.into_iter().try_for_each(&mut f),
            _ => f(b.item(pair).map_err(|d| vec![d])?),
        };
        if flow.is_break() || end == 0 {
            return Ok(());
        }
        b.offset += end;
    }
}

struct Builder {
    file: FileId,
    pratt: PrattParser<Rule>,
    /// Where the text being built starts in its file (non-zero for `{...}` inside a string).
    offset: usize,
}

impl Builder {
    /// The pair's span, without the whitespace and comments pest lets a rule end with.
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        let start = self.offset + s.start();
        Span::new(self.file, start, start + trimmed_len(pair.as_str()))
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Spanned::new(pair.as_str().to_string(), self.span(&pair))
    }

    fn string(&self, pair: Pair<Rule>) -> Spanned<String> {
        let span = self.span(&pair);
        let text = pair
            .into_inner()
            .next()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        Spanned::new(text, span)
    }

    fn ident_list(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    /// A `name` pair: an identifier or a quoted string.
    fn name(&self, pair: Pair<Rule>) -> Ident {
        match pair.clone().into_inner().next() {
            Some(p) if p.as_rule() == Rule::string => self.string(p),
            Some(p) => self.ident(p),
            None => self.ident(pair),
        }
    }

    /// `NAME [: TYPE]` (a `typed` or `param_arg` pair).
    fn typed(&self, pair: Pair<Rule>) -> R<Typed> {
        let span = self.span(&pair);
        let mut it = pair.into_inner().peekable();
        let name = self.ident(next(&mut it, span)?);
        Ok(Typed {
            name,
            ty: self.of_type(&mut it),
        })
    }

    fn typed_list(&self, pair: Pair<Rule>) -> R<Vec<Typed>> {
        pair.into_inner().map(|p| self.typed(p)).collect()
    }

    /// An optional `: TYPE` next in `it`.
    fn of_type<'i>(&self, it: &mut std::iter::Peekable<impl Iterator<Item = Pair<'i, Rule>>>) -> Option<Ident> {
        let p = it.next_if(|p| p.as_rule() == Rule::of_type)?;
        let t = p.into_inner().next()?;
        Some(self.ident(t))
    }

    /// `field = value` (a `char_field` pair).
    fn field_value(&self, pair: Pair<Rule>) -> R<(Ident, Expr)> {
        let span = self.span(&pair);
        let mut pi = pair.into_inner();
        let f = self.ident(next(&mut pi, span)?);
        Ok((f, self.expr(next(&mut pi, span)?)?))
    }

    fn collection(&self, pair: Pair<Rule>) -> Collection {
        match pair.into_inner().find(|p| p.as_rule() == Rule::ident) {
            Some(p) => Collection::Ranked(self.ident(p)),
            None => Collection::Characters,
        }
    }
}

/// The length of `text` without trailing whitespace and trailing `#` comments.
fn trimmed_len(text: &str) -> usize {
    let mut t = text.trim_end();
    loop {
        let line_start = t.rfind('\n').map_or(0, |i| i + 1);
        let line = &t[line_start..];
        let mut in_string = false;
        let comment = line.char_indices().find_map(|(i, c)| match c {
            '"' => {
                in_string = !in_string;
                None
            }
            '#' if !in_string => Some(i),
            _ => None,
        });
        match comment {
            Some(i) => t = t[..line_start + i].trim_end(),
            None => return t.len(),
        }
    }
}

fn too_large(span: Span) -> Diag {
    Diag::new("syntax::number", "this number is too large")
        .label(span, "does not fit in 64 bits")
        .help(format!("numbers go up to {}", i64::MAX))
}

fn next<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>, span: Span) -> R<Pair<'a, Rule>> {
    it.next()
        .ok_or_else(|| Diag::new("internal", "the parser met a shape it does not know").label(span, "here"))
}

fn last_inner(pair: Pair<Rule>, span: Span) -> R<Pair<Rule>> {
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
type Parts<'i> = std::iter::Peekable<std::iter::Filter<Pairs<'i, Rule>, fn(&Pair<'i, Rule>) -> bool>>;

fn parts<'i>(pair: Pair<'i, Rule>) -> Parts<'i> {
    let keep: fn(&Pair<'i, Rule>) -> bool = not_keyword;
    pair.into_inner().filter(keep).peekable()
}

fn not_keyword(p: &Pair<Rule>) -> bool {
    !is_keyword(p.as_rule())
}

fn is_keyword(r: Rule) -> bool {
    keyword_text(r).is_some()
}
