//! Diagnostics: plain data in every stage, rendered with miette in one place ([`Sources::render`]).
//! The files and spans they point into live one floor down, in [`crate::source`].

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use crate::limits::{MAX_QUOTED_CHARS, clip, clip_to};
use crate::source::{Sources, Span};

/// One error found by any stage: a code, a message, labelled spans and a help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub code: &'static str,
    pub message: String,
    /// The first label is the primary one; its file is the file the report shows.
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Diag {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Diag {
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push((span, text.into()));
        self
    }
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }
    /// The span of the primary label, if any.
    pub fn span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.0)
    }
}

/// Whether `c` may not appear in a source file at all: a control character other than tab,
/// newline and carriage return (C0, DEL, C1), or a text-direction embedding, override or isolate.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || is_direction(c) || is_invisible(c)
}

/// Characters that show nothing or break a line where no newline is: zero-width spaces and
/// joiners, the word joiner, the line and paragraph separators, and the zero-width no-break space
/// (U+FEFF, a byte-order mark, which only a file's first character may be). A name holding one
/// looks like another name, or like none.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}'
    )
}

/// The Unicode text-direction embeddings, overrides and isolates (U+202A to U+202E, U+2066 to
/// U+2069).
pub fn is_direction(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character [`is_unsafe`] (and every carriage return not before a newline)
/// replaced by visible ones of the same length in bytes (`?`, or `�` for a 3-byte one), so
/// that spans into it stay valid: what a diagnostic quotes never reaches the terminal raw.
pub fn defang(text: &str) -> std::borrow::Cow<'_, str> {
    let lone_return = |i: usize| text.as_bytes().get(i + 1) != Some(&b'\n');
    // A byte-order mark that begins a file shows nothing and moves nothing: it stays.
    let unsafe_at = |i: usize, c: char| (is_unsafe(c) && !(i == 0 && c == '\u{FEFF}')) || (c == '\r' && lone_return(i));
    if !text.char_indices().any(|(i, c)| unsafe_at(i, c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if unsafe_at(i, c) {
            match c.len_utf8() {
                3 => out.push('\u{FFFD}'),
                n => out.extend(std::iter::repeat_n('?', n)),
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Diagnostics gathered under a bound per file, so that a stage that finds an error on every
/// line of a large file holds only the first `max` of each file: [`Capped::compact`] drops the
/// rest as they come (counting them), [`Capped::finish`] adds the "N more" diagnostic.
#[derive(Debug, Default)]
pub struct Capped {
    /// Per file (of the first label): how many were seen, and the first left out.
    seen: Vec<(Option<crate::source::FileId>, usize, Option<Span>)>,
    /// How many of the diagnostics held have been counted already.
    counted: usize,
}

impl Capped {
    /// Counts the diagnostics added since the last call and drops those past `max` per file.
    /// Cheap when nothing was added: call it after every item.
    pub fn compact(&mut self, diags: &mut Vec<Diag>, max: usize) {
        if diags.len() == self.counted {
            return;
        }
        let fresh: Vec<Diag> = diags.drain(self.counted..).collect();
        for d in fresh {
            let file = d.span().map(|s| s.file);
            let i = match self.seen.iter().position(|s| s.0 == file) {
                Some(i) => i,
                None => {
                    self.seen.push((file, 0, None));
                    self.seen.len() - 1
                }
            };
            self.seen[i].1 += 1;
            if self.seen[i].1 <= max {
                diags.push(d);
            } else if self.seen[i].2.is_none() {
                self.seen[i].2 = Some(d.span().unwrap_or_default());
            }
        }
        self.counted = diags.len();
    }

    /// The diagnostics kept, then one per file that had more, saying how many more.
    pub fn finish(mut self, mut diags: Vec<Diag>, max: usize) -> Vec<Diag> {
        self.compact(&mut diags, max);
        for (_, count, first) in self.seen {
            if let Some(span) = first {
                let more = count - max;
                diags.push(
                    Diag::new(
                        "check::too_many_errors",
                        format!("and {more} more error{} in this file", if more == 1 { "" } else { "s" }),
                    )
                    .label(span, "the next one is here")
                    .help(format!(
                        "only the first {max} errors of a file are shown: fix these and check again"
                    )),
                );
            }
        }
        diags
    }
}

/// Keeps at most `max` diagnostics about each file (by the file of their first label); past it,
/// one more says how many were left out, pointing at the first of them.
pub fn cap_per_file(diags: Vec<Diag>, max: usize) -> Vec<Diag> {
    Capped::default().finish(diags, max)
}

/// The width to render at: `$COLUMNS` when set, else the width of the terminal on standard
/// error or output, else `fallback`.
pub fn terminal_width(fallback: usize) -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        && n > 0
    {
        return n;
    }
    terminal_size::terminal_size_of(std::io::stderr())
        .or_else(|| terminal_size::terminal_size_of(std::io::stdout()))
        .map_or(fallback, |(w, _)| w.0 as usize)
}

/// Whether to colour: `--color always` / `never` (`Some`), else (`auto`) on a terminal unless
/// `NO_COLOR` is set to anything but the empty string (no-color.org).
pub fn use_colour(choice: Option<bool>, terminal: bool) -> bool {
    match choice {
        Some(c) => c,
        None => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

impl Sources {
    /// Renders a diagnostic as miette does, `width` columns wide, with or without colour.
    pub fn render(&self, diag: &Diag, width: usize, colour: bool) -> String {
        let report = Report::new(self, diag);
        let theme = if colour {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme)
            .with_width(width)
            .with_links(false);
        let mut out = String::new();
        if handler.render_report(&mut out, &report).is_err() {
            out = format!("error[{}]: {}\n", diag.code, diag.message);
        }
        out
    }

    /// Renders many diagnostics, one after another.
    pub fn render_all(&self, diags: &[Diag], width: usize, colour: bool) -> String {
        diags
            .iter()
            .map(|d| self.render(d, width, colour))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The miette view of a [`Diag`].
#[derive(Debug)]
struct Report {
    code: &'static str,
    message: String,
    help: Option<String>,
    src: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
}

impl Report {
    fn new(sources: &Sources, diag: &Diag) -> Self {
        let file = diag.span().map(|s| s.file);
        let text = file.map(|f| sources.text(f)).unwrap_or("");
        let anchors: Vec<usize> = diag
            .labels
            .iter()
            .filter(|(s, _)| Some(s.file) == file)
            .map(|(s, _)| s.start as usize)
            .collect();
        // A file with a line too long to show is shown with such lines cut (`Shown`), so a
        // diagnostic never quotes more than a bounded part of any line.
        let shown = Shown::new(text, &anchors);
        // Control characters (refused in source files, but possible in a name given on the
        // command line or an answer quoted in a message) are never written to the terminal raw.
        let src = file.map(|f| NamedSource::new(defang(sources.name(f)), defang(&shown.text).into_owned()));
        let len = text.len();
        let labels = diag
            .labels
            .iter()
            .filter(|(s, _)| Some(s.file) == file)
            .enumerate()
            .map(|(i, (s, text))| {
                let start = (s.start as usize).min(len);
                let end = (s.end as usize).min(len).max(start);
                let (start, end) = (shown.map(start), shown.map(end));
                let end = end.max(start);
                let text = if text.is_empty() {
                    None
                } else {
                    Some(clip_quotes(&defang(text)))
                };
                if i == 0 {
                    LabeledSpan::new_primary_with_span(text, (start, end - start))
                } else {
                    LabeledSpan::new_with_span(text, (start, end - start))
                }
            })
            .collect();
        Report {
            code: diag.code,
            message: clip_quotes(&defang(&diag.message)),
            help: diag.help.as_deref().map(|h| clip_quotes(&defang(h))),
            src,
            labels,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
}

/// The longest line a report shows whole; a longer one is cut to a window of this many bytes
/// around the first label on it.
const SHOWN_LINE_BYTES: usize = 2 * MAX_QUOTED_CHARS;

/// A file's text as a report shows it: lines longer than [`SHOWN_LINE_BYTES`] cut to a window
/// (marked `…`), with the map from offsets in the file to offsets in the shown text.
struct Shown {
    text: String,
    /// `(start, end, shown_start)`: the kept byte ranges of the file, in order, and where each
    /// starts in the shown text. Empty when nothing is cut (offsets are the file's).
    kept: Vec<(usize, usize, usize)>,
}

impl Shown {
    fn new(text: &str, anchors: &[usize]) -> Shown {
        if !text.split('\n').any(|l| l.len() > SHOWN_LINE_BYTES) {
            return Shown {
                text: text.to_string(),
                kept: Vec::new(),
            };
        }
        let mut out = String::new();
        let mut kept = Vec::new();
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let (start, body_end) = (at, at + line.trim_end_matches('\n').len());
            at += line.len();
            if body_end - start <= SHOWN_LINE_BYTES {
                kept.push((start, at, out.len()));
                out.push_str(line);
                continue;
            }
            let anchor = anchors
                .iter()
                .copied()
                .filter(|a| (start..=body_end).contains(a))
                .min()
                .unwrap_or(start);
            let from = floor_char(text, anchor.saturating_sub(SHOWN_LINE_BYTES / 4).max(start));
            let to = floor_char(text, (from + SHOWN_LINE_BYTES).min(body_end));
            if from > start {
                out.push('…');
            }
            kept.push((from, to, out.len()));
            out.push_str(&text[from..to]);
            if to < body_end {
                out.push('…');
            }
            if at > body_end {
                kept.push((body_end, at, out.len()));
                out.push('\n');
            }
        }
        Shown { text: out, kept }
    }

    /// Where an offset of the file is in the shown text (a cut part: the nearest kept end).
    fn map(&self, offset: usize) -> usize {
        if self.kept.is_empty() {
            return offset;
        }
        let i = self.kept.partition_point(|k| k.0 <= offset);
        match i.checked_sub(1).map(|i| self.kept[i]) {
            None => 0,
            Some((start, end, shown)) => shown + offset.min(end) - start,
        }
    }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A message with every `quoted` part longer than [`MAX_QUOTED_CHARS`] clipped.
fn clip_quotes(text: &str) -> String {
    if text.len() <= MAX_QUOTED_CHARS {
        return text.to_string();
    }
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&clip(part));
        } else {
            out.push_str(&clip_to(part, 4 * MAX_QUOTED_CHARS));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defanging_keeps_every_offset() {
        let text = "a\u{1b}b\u{85}c\u{202E}d\r\ne\rf";
        let shown = defang(text);
        assert_eq!(shown.len(), text.len());
        assert_eq!(shown, "a?b??c\u{FFFD}d\r\ne?f");
        assert!(matches!(defang("plain\r\n"), std::borrow::Cow::Borrowed(_)));
    }
}
