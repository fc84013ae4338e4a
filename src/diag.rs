//! Diagnostics: plain data in every stage, rendered with miette in one place ([`Sources::render`]).
//! The files and spans they point into live one floor down, in [`crate::source`].

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

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
        let src = file.map(|f| NamedSource::new(sources.name(f), sources.text(f).to_string()));
        let len = file.map(|f| sources.text(f).len()).unwrap_or(0);
        let labels = diag
            .labels
            .iter()
            .filter(|(s, _)| Some(s.file) == file)
            .enumerate()
            .map(|(i, (s, text))| {
                let start = (s.start as usize).min(len);
                let end = (s.end as usize).min(len).max(start);
                let text = if text.is_empty() { None } else { Some(text.clone()) };
                if i == 0 {
                    LabeledSpan::new_primary_with_span(text, (start, end - start))
                } else {
                    LabeledSpan::new_with_span(text, (start, end - start))
                }
            })
            .collect();
        Report {
            code: diag.code,
            message: diag.message.clone(),
            help: diag.help.clone(),
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
