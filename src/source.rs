//! The bottom floor: loaded source files and the spans that point into them. Both the syntax
//! (every AST node carries a [`Span`]) and the diagnostics (every label is a [`Span`]) stand on
//! this module, and it imports nothing from the crate.

/// Which loaded source file a span points into (an index into the [`Sources`]).
pub type FileId = u16;

/// A byte range in one source file. Ordered by file, start, end (tables of what was found at
/// each place are sorted by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
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

/// Why a file could not be read as source text.
#[derive(Debug)]
pub enum ReadError {
    /// A directory, a FIFO, a socket or a device: refused before reading.
    NotAFile(&'static str),
    /// The file is longer than the bound; the read stopped there.
    TooLarge(usize),
    /// A byte that is not UTF-8, at this 1-based line and 0-based byte offset in the file.
    NotUtf8 {
        line: usize,
        offset: usize,
    },
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAFile(kind) => write!(f, "it is {kind}, not a file"),
            ReadError::TooLarge(max) => write!(f, "it is larger than the limit of {max} bytes"),
            ReadError::NotUtf8 { line, offset } => {
                write!(f, "line {line} is not valid UTF-8 (the byte at offset {offset})")
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Reads a file as text, at most `max` bytes. A directory, a FIFO, a socket or a device is
/// refused by its type, before it is opened (so a FIFO cannot block the read).
pub fn read_path(path: &std::path::Path, max: usize) -> Result<String, ReadError> {
    read_stream(opened(path)?, max)
}

/// The file at `path`, opened; a directory, a FIFO, a socket or a device refused by its type.
fn opened(path: &std::path::Path) -> Result<std::fs::File, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta.file_type())));
    }
    std::fs::File::open(path).map_err(ReadError::Io)
}

fn kind_of(ty: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ty.is_fifo() {
            return "a FIFO";
        }
        if ty.is_socket() {
            return "a socket";
        }
        if ty.is_char_device() || ty.is_block_device() {
            return "a device";
        }
    }
    if ty.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Reads a stream as text, stopping with [`ReadError::TooLarge`] past `max` bytes.
pub fn read_stream(reader: impl std::io::Read, max: usize) -> Result<String, ReadError> {
    text_of(read_bytes(reader, max)?)
}

/// At most `max` bytes of a stream, else [`ReadError::TooLarge`].
fn read_bytes(reader: impl std::io::Read, max: usize) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > max {
        return Err(ReadError::TooLarge(max));
    }
    Ok(bytes)
}

/// [`read_path`] for a file that may have been cut short as it was written (a session's
/// autosave): the bytes of a character cut at the very end are dropped, so what is cut is only
/// the last line. Any other byte that is not UTF-8 is refused as [`read_path`] refuses it.
pub fn read_path_cut_at_end(path: &std::path::Path, max: usize) -> Result<String, ReadError> {
    let mut bytes = read_bytes(opened(path)?, max)?;
    if let Err(e) = std::str::from_utf8(&bytes) {
        // No `error_len`: the bytes end inside a character.
        if e.error_len().is_none() {
            bytes.truncate(e.valid_up_to());
        }
    }
    text_of(bytes)
}

/// Bytes as text, or where the first byte that is not UTF-8 is.
pub fn text_of(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..offset].iter().filter(|b| **b == b'\n').count() + 1;
        ReadError::NotUtf8 { line, offset }
    })
}
