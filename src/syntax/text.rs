//! Characters a source file may not hold: control characters and text-direction overrides,
//! anywhere (in strings, comments and between tokens), and tabs inside strings.
//!
//! Strings are the names and texts the trace, the REPL and diagnostics print. A control character
//! in one would reach the GM's terminal as it is (ESC begins the sequences that recolour, move
//! the cursor or clear the screen); a direction override makes text read otherwise than it is
//! ("Trojan Source"); a tab in a name breaks the text view's columns. As TOML does for strings
//! and comments and rustc for direction overrides, they are refused rather than printed escaped:
//! a name must be something an answer can write and a table can read. Newlines end lines (a
//! carriage return only before one), and tabs are whitespace between tokens.

use crate::diag::{Diag, is_direction, is_unsafe};
use crate::source::{FileId, Span};

/// The byte where the run of characters that `keep` accepts and that ends `text` begins: just
/// past the last character it refuses, or 0. A character refused may be wider than a byte
/// (`é`, `\u{a0}`, `　`), so this is the safe way to find a word's start by searching back.
pub fn run_start(text: &str, keep: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !keep(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The code of these diagnostics.
pub const CODE: &str = "syntax::character";

/// Every character of `text` that a source file may not hold, one diagnostic each (the caller
/// caps them per file).
pub fn unsafe_characters(text: &str, file: FileId) -> Vec<Diag> {
    #[derive(PartialEq)]
    enum In {
        Code,
        String,
        Comment,
    }
    let mut out = Vec::new();
    let mut state = In::Code;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // A printable ASCII character is never refused, and only `"` and `#` change the state:
        // passed over a byte at a time (most of a file), the rest decoded as characters.
        let b = bytes[at];
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'#' {
            at += 1;
            continue;
        }
        let Some(c) = text[at..].chars().next() else {
            break;
        };
        let span = Span::new(file, at, at + c.len_utf8());
        let lone_return = c == '\r' && bytes.get(at + 1) != Some(&b'\n');
        // A byte-order mark that begins the file is no part of its text (the parser skips it).
        let leading_bom = at == 0 && c == crate::syntax::BOM;
        if (is_unsafe(c) && !leading_bom) || lone_return {
            out.push(refusal(c, span));
        } else if c == '\t' && state == In::String {
            out.push(
                Diag::new(CODE, "a tab inside a string")
                    .label(span, "a tab")
                    .help("strings are names and messages the trace shows in aligned columns: write spaces instead"),
            );
        }
        state = match (state, c) {
            (_, '\n') => In::Code,
            (In::Code, '"') => In::String,
            (In::Code, '#') => In::Comment,
            (In::String, '"') => In::Code,
            (s, _) => s,
        };
        at += c.len_utf8();
    }
    out
}

fn refusal(c: char, span: Span) -> Diag {
    let code = format!("U+{:04X}", u32::from(c));
    if is_direction(c) {
        return Diag::new(CODE, format!("a text-direction override ({code}) in this file"))
            .label(span, "an invisible character")
            .help("it makes the text around it read otherwise than it is: delete it");
    }
    if crate::diag::is_invisible(c) {
        return Diag::new(CODE, format!("an invisible character ({code}) in this file"))
            .label(span, "an invisible character")
            .help("it makes a name look like another, or like none, or breaks a line where none ends: delete it");
    }
    if c == '\r' {
        return Diag::new(CODE, "a carriage return not followed by a newline")
            .label(span, "an invisible character")
            .help("a line ends with a newline (or a carriage return and a newline): delete it, or end the line there");
    }
    Diag::new(CODE, format!("a control character ({code}) in this file"))
        .label(span, "an invisible character")
        .help("names and texts reach the terminal as they are, where control characters can recolour or clear it: delete it")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The second pass's N16: a name of a zero-width space passed, and printed like no name.
    #[test]
    fn refuses_invisible_characters() {
        let text = "character \"\u{200B}\" { }\ncharacter \"Ana\u{2028}\" { }\n";
        let found: Vec<String> = unsafe_characters(text, 0).into_iter().map(|d| d.message).collect();
        assert_eq!(
            found,
            vec![
                "an invisible character (U+200B) in this file",
                "an invisible character (U+2028) in this file"
            ]
        );
    }

    /// A byte-order mark that begins a file is skipped; one anywhere else (`"Ana\u{FEFF}"` looks
    /// like `"Ana"`) is an invisible character.
    #[test]
    fn a_byte_order_mark_is_refused_except_where_the_file_begins() {
        let text = "\u{FEFF}character \"Ana\u{FEFF}\" { }\n";
        let found: Vec<(String, u32)> = unsafe_characters(text, 0)
            .into_iter()
            .map(|d| (d.message, d.labels[0].0.start))
            .collect();
        assert_eq!(
            found,
            vec![("an invisible character (U+FEFF) in this file".to_string(), 17)]
        );
    }

    #[test]
    fn refuses_controls_anywhere_and_tabs_in_strings_only() {
        let text = "ruleset \"a\u{1b}[2J\"\t# \u{202E}note\r\nstat\ts default 1 # a\ttab \"in\tcomment\"\nx\ry";
        let found: Vec<(String, u32)> = unsafe_characters(text, 0)
            .into_iter()
            .map(|d| (d.message, d.labels[0].0.start))
            .collect();
        assert_eq!(
            found,
            vec![
                ("a control character (U+001B) in this file".to_string(), 10),
                ("a text-direction override (U+202E) in this file".to_string(), 18),
                ("a carriage return not followed by a newline".to_string(), 66),
            ]
        );
        let tab = unsafe_characters("character \"A\tB\" { }", 0);
        assert_eq!(tab.len(), 1);
        assert_eq!(tab[0].message, "a tab inside a string");
    }
}
