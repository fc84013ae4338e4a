//! Paths as `check` and `run` compare them: a file named from another's folder (`uses "PATH"`),
//! and whether two paths name one file, decided by a key made once per path.

use std::path::{Path, PathBuf};

/// `path`, read from the folder `file` is in.
pub fn from_folder_of(file: &str, path: &str) -> String {
    let dir = Path::new(file).parent().unwrap_or(Path::new(""));
    normal(&dir.join(path)).display().to_string()
}

/// What a `uses "PATH"` names that is no file: nothing (an empty path), or a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NotAFile {
    Empty,
    Folder,
}

/// Whether `uses "PATH"` in the file at `file` names no file: an empty path, or a folder
/// (written as one, `.`, `..` or a trailing `/`, or a folder on disk).
pub(super) fn not_a_file(file: &str, path: &str) -> Option<NotAFile> {
    use std::path::Component;
    if path.trim().is_empty() {
        return Some(NotAFile::Empty);
    }
    let written = ["/.", "\\.", "/", "\\"].iter().any(|end| path.ends_with(end))
        || matches!(
            Path::new(path).components().next_back(),
            None | Some(Component::CurDir | Component::ParentDir | Component::RootDir)
        );
    let resolved = from_folder_of(file, path);
    (written || resolved.is_empty() || Path::new(&resolved).is_dir()).then_some(NotAFile::Folder)
}

/// A path with `.` and `..` taken out, lexically.
fn normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The file system's name for a path (links followed), counted in tests: each costs a system
/// call per component of the path.
fn canonical(path: &Path) -> std::io::Result<PathBuf> {
    #[cfg(test)]
    CANONICALISED.with(|n| n.set(n.get() + 1));
    std::fs::canonicalize(path)
}

#[cfg(test)]
thread_local! {
    /// How many paths this thread has asked the file system to canonicalise.
    static CANONICALISED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many paths this thread has asked the file system to canonicalise (tests count them).
#[cfg(test)]
pub fn canonicalised() -> usize {
    CANONICALISED.with(|n| n.get())
}

/// What a path names, made once per path so that many paths are compared without asking the file
/// system again: the file on disk (links followed), or, for a path the file system cannot
/// resolve, the path normalized. Two paths have equal keys exactly when [`same_file`] says they
/// name the same file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileKey {
    Disk(PathBuf),
    Lexical(PathBuf),
}

impl FileKey {
    /// The key of `path`: one canonicalisation.
    pub fn of(path: &str) -> FileKey {
        let n = normal(Path::new(path));
        match canonical(&n) {
            Ok(c) => FileKey::Disk(c),
            Err(_) => FileKey::Lexical(n),
        }
    }
}

/// Whether two paths name the same file: the same once normalized, or the same on disk. To
/// compare many paths, make each one's [`FileKey`] once instead.
pub fn same_file(a: &str, b: &str) -> bool {
    let (na, nb) = (normal(Path::new(a)), normal(Path::new(b)));
    if na == nb {
        return true;
    }
    matches!((canonical(&na), canonical(&nb)), (Ok(x), Ok(y)) if x == y)
}

/// Whether the word `uses` is written in `text` outside strings and comments.
pub fn has_uses(text: &str) -> bool {
    if !text.contains("uses") {
        return false;
    }
    // The text with strings and comments blanked out.
    let mut code = String::with_capacity(text.len());
    let (mut in_string, mut in_comment) = (false, false);
    for c in text.chars() {
        match c {
            '\n' => (in_string, in_comment) = (false, false),
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            c => {
                code.push(c);
                continue;
            }
        }
        code.push(' ');
    }
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w == "uses")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 29: `check DIR/*.turn` compared every ruleset with every encounter through the
    /// file system (623,500 `readlink` calls for 250 rulesets and 250 encounters). Each path is
    /// canonicalised once.
    #[test]
    fn keys_are_equal_exactly_when_the_paths_name_one_file() {
        let dir = std::env::temp_dir().join(format!("turnscript-keys-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.turn"), "").unwrap();
        let at = |p: &str| dir.join(p).display().to_string();
        let pairs = [
            (at("a.turn"), at("sub/../a.turn")),
            (at("a.turn"), at("./a.turn")),
            (at("a.turn"), at("b.turn")),
            (at("b.turn"), at("sub/../b.turn")),
            (at("b.turn"), at("c.turn")),
            ("x/../y.turn".to_string(), "y.turn".to_string()),
        ];
        for (a, b) in &pairs {
            assert_eq!(FileKey::of(a) == FileKey::of(b), same_file(a, b), "{a} and {b}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn checking_many_files_canonicalises_each_path_once() {
        let dir = std::env::temp_dir().join(format!("turnscript-paths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let n = 12;
        let mut texts = Vec::new();
        for k in 0..n {
            let r = dir.join(format!("r{k}.turn")).display().to_string();
            std::fs::write(&r, "play { }\n").unwrap();
            texts.push((r, "play { }\n".to_string()));
        }
        for k in 0..n {
            let e = dir.join(format!("e{k}.turn")).display().to_string();
            let text = format!("encounter \"e{k}\" uses \"r{k}.turn\"\ncharacter C {{ }}\n");
            std::fs::write(&e, &text).unwrap();
            texts.push((e, text));
        }
        CANONICALISED.with(|c| c.set(0));
        let report = crate::project::check_set(&texts);
        let calls = CANONICALISED.with(|c| c.get());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(report.is_clean(), "{}", report.render(crate::project::Style::default()));
        assert_eq!(
            report.summary(),
            format!("checked {n} rulesets, {n} encounters: no problems\n")
        );
        // A few per file (its key; an encounter's `uses` compared with its own path), not a few
        // per pair of files: 312 here before.
        assert!(
            calls <= 6 * n,
            "{calls} paths canonicalised for {n} rulesets and {n} encounters"
        );
    }
}
