//! Files a user keeps, written whole: into a temporary file beside the target, then renamed into
//! place, so a reader (or a crash, or a full disk) never sees half a file and never loses the old
//! one. The session, its autosave, a template, a formatted ruleset and a plot are written so.

use std::path::{Path, PathBuf};

/// A temporary name beside `path`, for writing a file whole before it takes `path`'s place.
pub fn temp_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `text` to `path` whole, replacing what is there; the temporary file is gone either way.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = temp_beside(path);
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Writes a new file whole, never over an existing file unless `force` (without it, a link makes
/// the file only where none is: a file made meanwhile is kept). The error names the file.
pub fn write_new(path: &Path, text: &str, force: bool) -> Result<(), String> {
    let shown = path.display();
    let exists = || format!("{shown} exists: write another file, or add --force to replace it");
    if !force && path.exists() {
        return Err(exists());
    }
    if force {
        return write_whole(path, text).map_err(|e| format!("cannot write {shown}: {e}"));
    }
    let tmp = temp_beside(path);
    if let Err(e) = std::fs::write(&tmp, text) {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {shown}: {e}"));
    }
    let placed = std::fs::hard_link(&tmp, path).or_else(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Err(e),
        _ if path.exists() => Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists)),
        _ => std::fs::rename(&tmp, path),
    });
    let _ = std::fs::remove_file(&tmp);
    placed.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => exists(),
        _ => format!("cannot write {shown}: {e}"),
    })
}
