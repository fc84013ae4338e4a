//! Positions as an editor counts them (lines and UTF-16 columns) and the bytes the library
//! counts; file paths and `file://` URIs; the word under the cursor.

use lsp_types::{Position, Range, Uri};

use crate::format::lex::{Kind, Token, lex};

/// The starts of a text's lines, to turn byte offsets into positions and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let start = self.starts[line];
        let col: usize = self
            .text
            .get(start..offset)
            .unwrap_or("")
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, col as u32)
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of a position (clamped to its line and to the text).
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(self.text.len(), |e| e.saturating_sub(1));
        let mut col = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if col >= pos.character as usize {
                return start + i;
            }
            col += c.len_utf16();
        }
        end
    }

    /// The range of the whole text.
    pub fn all(&self) -> Range {
        self.range(0, self.text.len())
    }
}

/// The path a `file://` URI names (percent-encoded bytes decoded); other schemes give the URI itself.
pub fn uri_path(uri: &Uri) -> String {
    let s = uri.as_str();
    let Some(rest) = s.strip_prefix("file://") else {
        return s.to_string();
    };
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `file://` URI of a path (made absolute from the working folder if it is relative).
pub fn path_uri(path: &str) -> Option<Uri> {
    let p = std::path::Path::new(path);
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(p)
    };
    let mut s = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s.parse().ok()
}

/// The word at or just before a byte offset, and whether a `.` comes right before it.
pub fn word_at(text: &str, offset: usize) -> Option<(Token<'_>, bool)> {
    let tokens = lex(text);
    let i = tokens
        .iter()
        .position(|t| t.kind == Kind::Word && t.start <= offset && offset <= t.end())?;
    let after_dot = i > 0 && tokens[i - 1].is(".") && tokens[i - 1].end() == tokens[i].start;
    Some((tokens[i], after_dot))
}

/// Every word of a text that is `name`, with whether a `.` comes right before it.
pub fn words_named<'t>(text: &'t str, name: &str) -> Vec<(Token<'t>, bool)> {
    let tokens = lex(text);
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Word && t.text == name {
            let after_dot = i > 0 && tokens[i - 1].is(".") && tokens[i - 1].end() == t.start;
            out.push((*t, after_dot));
        }
    }
    out
}
