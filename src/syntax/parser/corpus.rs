//! The texts the parser's equivalence tests read: the project's own files, and each broken in
//! the ways an editor breaks them (cut short, a byte taken out, a word taken out).

use std::path::Path;

/// The text of every file under each of `dirs` (relative to the crate's root), or of every
/// `.turn` file only when `turn_only`.
pub(crate) fn files(dirs: &[&str], turn_only: bool) -> Vec<String> {
    fn walk(dir: &Path, turn_only: bool, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, turn_only, out);
            } else if (!turn_only || path.extension().is_some_and(|e| e == "turn"))
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                out.push(text);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in dirs {
        walk(&root.join(dir), turn_only, &mut out);
    }
    out
}

/// Each of `texts`, after it the text cut short, with a byte taken out and with a word taken
/// out, every `every` bytes.
pub(crate) fn broken(texts: Vec<String>, every: usize) -> Vec<String> {
    let mut out = Vec::new();
    for text in texts {
        for at in (0..text.len()).step_by(every).filter(|i| text.is_char_boundary(*i)) {
            out.push(text[..at].to_string());
            let next = (at + 1..=text.len())
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(text.len());
            out.push(format!("{}{}", &text[..at], &text[next..]));
            let word = text[at..]
                .find(|c: char| c.is_whitespace())
                .map_or(text.len(), |i| at + i);
            out.push(format!("{}{}", &text[..at], &text[word..]));
        }
        out.push(text);
    }
    out
}
