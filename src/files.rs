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
/// A link is followed (the file it names is replaced, the link stays); the file keeps its
/// permissions, and one that may not be written is refused as before; the new text is on the
/// disk before it takes the old one's place. What is not a regular file (a terminal,
/// `/dev/stdout`, a pipe) is written as it is.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let old = std::fs::metadata(&target).ok();
    match &old {
        Some(m) if !m.is_file() => return std::fs::write(&target, text),
        Some(m) if m.permissions().readonly() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "the file is read-only",
            ));
        }
        _ => {}
    }
    let tmp = temp_beside(&target);
    let written = (|| {
        let mut file = create_new(&tmp)?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        if let Some(m) = &old {
            file.set_permissions(m.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Whether a file can be written beside `path`: a temporary file is created there, a little text
/// written to the disk (an empty file would be made even on a full disk) and removed again.
pub fn probe(path: &Path) -> std::io::Result<()> {
    let tmp = temp_beside(path);
    let written = create_new(&tmp).and_then(|mut f| {
        std::io::Write::write_all(&mut f, b"turnscript: can this folder take a file?\n")?;
        f.sync_all()
    });
    let _ = std::fs::remove_file(&tmp);
    written
}

/// Removes the temporary files of `path` (`.NAME.PID.tmp` beside it, exactly, PID a number) that
/// processes no longer running left (a session killed while it wrote); never another file, nor
/// one whose process is alive. Returns how many were removed.
pub fn remove_stale_temps(path: &Path) -> usize {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return 0;
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let prefix = format!(".{name}.");
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(prefix.as_str()))
            .and_then(|f| f.strip_suffix(".tmp"))
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !alive(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether process `pid` is running (or may be: anything but "no such process" says yes).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    use nix::errno::Errno;
    match i32::try_from(pid) {
        // Signal 0 (`None`) sends nothing: it asks whether the process exists.
        Ok(p) if p > 0 => nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), None) != Err(Errno::ESRCH),
        _ => true,
    }
}

/// Elsewhere nothing is known of other processes: every file is kept.
#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

/// A new file at `tmp`, never through a link left there: a leftover of an earlier run is removed
/// first (the link itself, not what it names).
fn create_new(tmp: &Path) -> std::io::Result<std::fs::File> {
    let open = || std::fs::OpenOptions::new().write(true).create_new(true).open(tmp);
    open().or_else(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(tmp)?;
            open()
        }
        _ => Err(e),
    })
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
    let written = create_new(&tmp).and_then(|mut f| {
        std::io::Write::write_all(&mut f, text.as_bytes())?;
        f.sync_all()
    });
    if let Err(e) = written {
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
