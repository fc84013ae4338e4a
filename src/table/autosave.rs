//! The autosave: where a session autosaves, and writing it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{Session, Table, file};
use crate::files::write_whole;
use crate::limits::MAX_SESSION_BYTES;

/// Where this session autosaves: `path`, unless a file is already there (another session's, which
/// is never replaced: a fresh name is taken, and the note says so and how to resume the other).
/// Refused (an error) when the folder cannot be written.
pub(super) fn autosave_path(path: PathBuf) -> Result<(PathBuf, String), String> {
    let mut chosen = path.clone();
    let mut n = 1;
    while chosen.exists() {
        n += 1;
        if n > 1000 {
            return Err(format!(
                "error: {} and 999 fresh names beside it are taken: give --autosave FILE or --no-autosave\n",
                path.display()
            ));
        }
        let (stem, ext) = stem_ext(&path);
        // A dot, which no encounter's default name holds: `fight.2` is never `fight-2`'s.
        chosen = path.with_file_name(format!("{stem}.{n}{ext}"));
    }
    // What sessions killed while they wrote left behind (theirs only: their process is gone).
    crate::files::remove_stale_temps(&path);
    if chosen != path {
        crate::files::remove_stale_temps(&chosen);
    }
    // Refused now rather than warned about after every change: the folder must take a file.
    crate::files::probe(&chosen).map_err(|e| {
        format!(
            "error: cannot write the autosave {}: {e}\n  help: give --autosave FILE in a folder you can write, or --no-autosave\n",
            chosen.display()
        )
    })?;
    let note = if chosen == path {
        // Said at the start, so a crash before the end (which says it again) leaves it known.
        format!(
            "note: this session autosaves in {} (after a crash, `load {}` resumes it)\n",
            path.display(),
            path.display()
        )
    } else {
        let (last, count) = earlier_autosaves(&path);
        let last = last.unwrap_or_else(|| path.clone());
        let others = if count > 1 {
            format!("{} autosaves of earlier sessions are there", count)
        } else {
            "it is the only earlier one".to_string()
        };
        format!(
            "note: {} holds the latest earlier session (`load {}` resumes it; {others}, and `rm {}` removes \
             them); this one autosaves in {}\n",
            last.display(),
            last.display(),
            autosave_glob(&path),
            chosen.display()
        )
    };
    Ok((chosen, note))
}

/// The autosave name for a session of `file` (the encounter's, else the ruleset's): one name per
/// encounter, `.turnscript-autosave-NAME.tsession` in the current folder, so sessions of different
/// fights never pile up under one name.
pub fn autosave_for(file: &Path) -> PathBuf {
    let stem: String = file
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() {
        PathBuf::from(".turnscript-autosave.tsession")
    } else {
        PathBuf::from(format!(".turnscript-autosave-{stem}.tsession"))
    }
}

/// `path` and the fresh names taken beside it (`NAME.2.EXT`, ...): the most recently written,
/// and how many there are.
fn earlier_autosaves(path: &Path) -> (Option<PathBuf>, usize) {
    let (stem, ext) = stem_ext(path);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return (None, 0);
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(ext.as_str())
                .and_then(|n| n.strip_prefix(stem.as_str()))
                .is_some_and(|n| n.is_empty() || n.strip_prefix('.').is_some_and(|k| k.parse::<u32>().is_ok()))
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, path.with_file_name(e.file_name()))))
        .collect();
    found.sort();
    (found.last().map(|(_, p)| p.clone()), found.len())
}

/// `path` and a shell pattern for the fresh names beside it (`NAME.tsession NAME.*.tsession`),
/// which match no other encounter's autosaves.
fn autosave_glob(path: &Path) -> String {
    let (stem, ext) = stem_ext(path);
    format!(
        "{} {}",
        path.display(),
        path.with_file_name(format!("{stem}.*{ext}")).display()
    )
}

fn stem_ext(path: &Path) -> (String, String) {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    (stem, ext)
}

impl Table {
    /// Writes what the autosave lacks, then says where the session is kept (at the end).
    pub fn autosave_note(&mut self) -> String {
        let mut out = self.flush_autosave();
        if let (Some(p), Some(s)) = (&self.opts.autosave, &self.session)
            && !s.log.is_empty()
            && !self.unsaved
        {
            out.push_str(&format!("the session is autosaved in {}\n", p.display()));
        }
        out
    }

    /// What went wrong since the last call (a failed autosave), for stderr; empty if nothing.
    /// A front end says it after the reply, and ends with status 1 if it ever was not empty.
    pub fn take_errors(&mut self) -> String {
        std::mem::take(&mut self.errors)
    }

    /// After a change: appends the command the log ends in to the autosave file, when the file
    /// holds the log up to it (one write, the command's lines and the blank line that seals it);
    /// otherwise (after an undo, say) writes the file whole at once. Never deferred: the reply to
    /// a change is printed after the file holds it, so a crash (`kill -9`) loses no command
    /// answered. A failure is an error ([`Table::take_errors`]).
    pub(super) fn autosave(&mut self) -> String {
        if let (Some(d), Some(s)) = (self.on_disk, &self.session)
            && d.commands + 1 == s.log.len()
            && s.cursor == s.log.len()
        {
            return self.append_autosave(d);
        }
        self.write_autosave()
    }

    /// Rewrites the autosave whole: after an undo, redo, reload or load. A long log takes a while
    /// to write, so a rewrite that comes sooner after the last than ten times what that one took
    /// waits for the next write: a burst of undos costs at most a tenth of the time, however long
    /// the session. Whatever waits is written by the next change (before its reply), before the
    /// REPL waits for input (at the prompt, or when no whole line of piped input is there yet),
    /// and when it ends: a crash in a burst can lose the undos and redos answered since the last
    /// write, never a change.
    pub(super) fn rewrite_autosave(&mut self) -> String {
        // The file may not hold the log any more: no command is appended to it until it is
        // written whole.
        self.on_disk = None;
        if let (Some((at, took)), _) = self.saved
            && at.elapsed() < took * 10
        {
            self.saved.1 = true;
            return String::new();
        }
        self.write_autosave()
    }

    /// Writes the changes the autosave does not have yet, if any.
    pub fn flush_autosave(&mut self) -> String {
        if self.saved.1 {
            self.write_autosave()
        } else {
            String::new()
        }
    }

    /// Appends the last command of the log to the autosave, which holds the log before it and is
    /// `d.bytes` long. A file changed meanwhile (removed, or written by something else) is
    /// rewritten whole; a write that fails (a full disk) is cut back off, so the file ends in
    /// its last whole command, and is an error.
    fn append_autosave(&mut self, d: OnDisk) -> String {
        let (Some(path), Some(s)) = (&self.opts.autosave, &self.session) else {
            return String::new();
        };
        let Some(last) = s.log.last() else {
            return self.write_autosave();
        };
        let text = file::entry(last);
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .and_then(|f| Ok((f.metadata()?.len(), f)));
        let mut file = match file {
            Ok((len, f)) if len == d.bytes => f,
            _ => return self.write_autosave(),
        };
        // One write call: the command's lines and the blank line that says they are whole.
        match std::io::Write::write_all(&mut file, text.as_bytes()) {
            Ok(()) => {
                let bytes = d.bytes + text.len() as u64;
                self.on_disk = Some(OnDisk {
                    commands: d.commands + 1,
                    bytes,
                });
                self.saved.1 = false;
                self.unsaved = false;
                self.said_too_long(bytes)
            }
            Err(e) => {
                // What part of the command was written is cut off; if even that fails, a load
                // leaves the torn end out with a warning.
                let _ = file.set_len(d.bytes);
                self.on_disk = None;
                self.unsaved = true;
                self.errors.push_str(&format!(
                    "error: cannot write the autosave {}: {e}\n  help: `save FILE` keeps the session in another file\n",
                    path.display()
                ));
                String::new()
            }
        }
    }

    /// Writes the autosave whole, in the form commands are appended to.
    pub(super) fn write_autosave(&mut self) -> String {
        let (Some(path), Some(s)) = (&self.opts.autosave, &self.session) else {
            return String::new();
        };
        let start = Instant::now();
        let text = file::write_appendable(
            (&s.base.ruleset.path, &s.base.ruleset.text),
            s.base.encounter.as_ref().map(|e| (e.path.as_str(), e.text.as_str())),
            s.base.seed,
            &s.log,
            s.cursor,
        );
        let written = write_whole(path, &text);
        self.saved = (Some((Instant::now(), start.elapsed())), false);
        self.unsaved = written.is_err();
        // Commands are appended only to a file with none undone in it (no `redo` line).
        self.on_disk = (written.is_ok() && s.cursor == s.log.len()).then_some(OnDisk {
            commands: s.log.len(),
            bytes: text.len() as u64,
        });
        match written {
            Ok(()) => self.said_too_long(text.len() as u64),
            Err(e) => {
                self.errors.push_str(&format!(
                    "error: cannot write the autosave {}: {e}\n  help: `save FILE` keeps the session in another file\n",
                    path.display()
                ));
                String::new()
            }
        }
    }

    /// The warning that the autosave of `bytes` is past what `load` reads, once, as it first is.
    fn said_too_long(&mut self, bytes: u64) -> String {
        if bytes as usize > MAX_SESSION_BYTES && !self.too_long {
            self.too_long = true;
            return too_long_to_load(bytes as usize);
        }
        String::new()
    }
}

/// What the autosave file holds when commands can be appended to it: the log's first `commands`
/// (none undone), in `bytes`.
#[derive(Clone, Copy, Debug)]
pub(super) struct OnDisk {
    pub commands: usize,
    pub bytes: u64,
}

/// The session file of the log up to the cursor.
pub(super) fn session_text(s: &Session) -> String {
    file::write(
        (&s.base.ruleset.path, &s.base.ruleset.text),
        s.base.encounter.as_ref().map(|e| (e.path.as_str(), e.text.as_str())),
        s.base.seed,
        &s.log,
        s.cursor,
    )
}

/// A warning when a session's text is past what `load` reads.
pub(super) fn too_long_to_load(len: usize) -> String {
    if len <= MAX_SESSION_BYTES {
        return String::new();
    }
    format!(
        "warning: the session is {} bytes, past the {MAX_SESSION_BYTES} that `load` reads: save the \
         commands worth keeping in a new session (`undo` back, then `save`)\n",
        len
    )
}
