//! The bottom floor: loaded source files and the spans that point into them. Both the syntax
//! (every AST node carries a [`Span`]) and the diagnostics (every label is a [`Span`]) stand on
//! this module, and it imports nothing from the crate.

/// Which loaded source file a span points into (an index into the [`Sources`]).
pub type FileId = u16;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The source files a run has loaded, by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((name.into(), text.into()));
        (self.files.len() - 1) as FileId
    }

    pub fn name(&self, id: FileId) -> &str {
        self.files.get(id as usize).map(|f| f.0.as_str()).unwrap_or("<unknown>")
    }

    pub fn text(&self, id: FileId) -> &str {
        self.files.get(id as usize).map(|f| f.1.as_str()).unwrap_or("")
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.text(span.file)
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// 1-based line number of a span's start.
    pub fn line_of(&self, span: Span) -> usize {
        let text = self.text(span.file);
        let end = (span.start as usize).min(text.len());
        text.as_bytes()[..end].iter().filter(|b| **b == b'\n').count() + 1
    }
}
