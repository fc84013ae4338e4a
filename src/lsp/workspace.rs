//! The encounters of a ruleset that rename and references must reach: the open documents whose
//! `uses` names it, then the `.turn` files of the workspace (the folder the client gave, else the
//! ruleset's own) that are not open and name it. The folders are walked in name order, hidden
//! folders and `target` skipped, symbolic links not followed, and at most
//! [`MAX_WORKSPACE_ENTRIES`] entries looked at.

use std::path::{Path, PathBuf};

use super::analysis::Doc;
use super::text::path_uri;
use crate::limits::{MAX_SOURCE_BYTES, MAX_WORKSPACE_ENTRIES};
use crate::project::same_file;

/// Whether `doc` is an encounter whose `uses` names the ruleset at `ruleset`.
pub fn uses(doc: &Doc, ruleset: &str) -> bool {
    doc.uses.as_ref().is_some_and(|(p, _)| same_file(p, ruleset))
}

/// The encounters of the ruleset at `ruleset`: those of `open` that name it, then those under
/// `root` (or the ruleset's folder) that name it and are neither open nor in `skip`.
pub fn encounters_of(ruleset: &str, open: &[&Doc], skip: &[&Doc], root: Option<&Path>) -> Vec<Doc> {
    let mut out: Vec<Doc> = Vec::new();
    let known = |path: &str, out: &[Doc]| {
        open.iter().chain(skip).any(|d| same_file(&d.path, path)) || out.iter().any(|d| same_file(&d.path, path))
    };
    for d in open {
        if !skip.iter().any(|s| s.uri == d.uri) && !same_file(&d.path, ruleset) && uses(d, ruleset) {
            out.push((*d).clone());
        }
    }
    let folder = Path::new(ruleset).parent().map(Path::to_path_buf);
    let Some(root) = root.map(Path::to_path_buf).or(folder) else {
        return out;
    };
    for path in turn_files(&root) {
        let name = path.to_string_lossy().into_owned();
        if known(&name, &out) || same_file(&name, ruleset) {
            continue;
        }
        let Ok(text) = crate::source::read_path(&path, MAX_SOURCE_BYTES) else {
            continue;
        };
        let Some(uri) = path_uri(&name) else {
            continue;
        };
        let doc = Doc::new(name, uri, text, None);
        if uses(&doc, ruleset) {
            out.push(doc);
        }
    }
    out
}

/// The `.turn` files under `root`, in name order, depth first; hidden folders, `target` and
/// symbolic links left out; at most [`MAX_WORKSPACE_ENTRIES`] entries looked at.
pub fn turn_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut looked = 0usize;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        let mut folders = Vec::new();
        for e in entries {
            looked += 1;
            if looked > MAX_WORKSPACE_ENTRIES {
                return out;
            }
            let Ok(kind) = e.file_type() else {
                continue;
            };
            let name = e.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() && !name.starts_with('.') && name != "target" {
                folders.push(e.path());
            } else if kind.is_file() && name.ends_with(".turn") {
                out.push(e.path());
            }
        }
        // Popped in name order.
        stack.extend(folders.into_iter().rev());
    }
    out
}
