//! `turnscript fmt [--check] FILE...|DIR|-`: reading and writing files around
//! [`crate::format::format`].

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::limits::MAX_SOURCE_BYTES;
use crate::output::{stderr, stderrln};
use crate::source::{Sources, read_path, read_stream};

#[derive(Args, Debug)]
pub struct FmtArgs {
    /// Change nothing: exit 1 and name the files that are not formatted.
    #[arg(long)]
    check: bool,
    /// Files, folders (their `.turn` files, not those of subfolders) or `-` (standard input,
    /// written formatted to standard output).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Formats the files; returns the exit code: 0, or 1 when a file could not be read or parsed
/// or, with `--check`, is not formatted.
pub fn main(args: FmtArgs, colour: bool) -> i32 {
    let mut files = Vec::new();
    for p in &args.paths {
        if p.is_dir() {
            match turn_files(p) {
                Ok(mut f) => files.append(&mut f),
                Err(e) => {
                    stderrln!("error: cannot read the folder {}: {e}", p.display());
                    return 1;
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    let mut code = 0;
    let mut unformatted = 0;
    for path in &files {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        // The read `check` does: bounded by the source limit, a device or FIFO refused by type.
        let text = if stdin {
            read_stream(std::io::stdin().lock(), MAX_SOURCE_BYTES)
        } else {
            read_path(path, MAX_SOURCE_BYTES)
        };
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                stderrln!("error: cannot read {name}: {e}");
                code = 1;
                continue;
            }
        };
        let formatted = match crate::format::format(&text, 0) {
            Ok(f) => f,
            Err(diags) => {
                let mut sources = Sources::new();
                sources.add(name.as_str(), text.as_str());
                stderr!("{}", sources.render_all(&diags, 80, colour));
                stderrln!("error: {name} does not parse; it was not formatted");
                code = 1;
                continue;
            }
        };
        if args.check {
            if formatted != text {
                stderrln!("would reformat {name}");
                unformatted += 1;
                code = 1;
            }
        } else if stdin {
            if let Err(e) = std::io::stdout().write_all(formatted.as_bytes()) {
                stderrln!("error: cannot write the formatted text: {e}");
                code = 1;
            }
        } else if formatted != text
            && let Err(e) = crate::files::write_whole(path, &formatted)
        {
            stderrln!("error: cannot write {name}: {e}");
            code = 1;
        }
    }
    if args.check && unformatted > 0 {
        stderrln!(
            "{unformatted} of {} files would be reformatted (run `turnscript fmt`)",
            files.len()
        );
    }
    code
}

/// The `.turn` files of a folder, sorted by name.
fn turn_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "turn") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}
