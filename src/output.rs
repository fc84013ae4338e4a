//! Standard output and standard error, written without panicking. `print!` and `eprint!` panic
//! when a write fails (a full disk, a closed pipe): every front end writes through [`out`] and
//! [`err`] instead (`clippy::print_stdout` and `clippy::print_stderr` are denied in them). A
//! failed write is remembered, so the process never ends with status 0 after one
//! ([`exit_code`]); a failed write to standard output is also said on standard error, while that
//! still takes it: `error: cannot write to standard output: ...`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// A write to standard output or standard error has failed in this process.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to standard output and flushes it. A failure is said on standard error and
/// remembered; the caller decides whether to go on.
pub fn out(text: &str) -> std::io::Result<()> {
    let written = {
        let mut o = std::io::stdout().lock();
        o.write_all(text.as_bytes()).and_then(|()| o.flush())
    };
    if let Err(e) = &written {
        failed("to standard output", e);
    }
    written
}

/// Writes `text` to standard error. A failure is remembered (there is nowhere left to say it).
pub fn err(text: &str) -> std::io::Result<()> {
    let written = std::io::stderr().lock().write_all(text.as_bytes());
    if written.is_err() {
        FAILED.store(true, Ordering::Relaxed);
    }
    written
}

/// Says on standard error that writing `what` failed (`error: cannot write WHAT: E`), and
/// remembers it. Returns the exit code, 1.
pub fn failed(what: &str, e: &std::io::Error) -> i32 {
    FAILED.store(true, Ordering::Relaxed);
    let _ = writeln!(std::io::stderr().lock(), "error: cannot write {what}: {e}");
    1
}

/// The process's exit code: `code`, or 1 where it would be 0 but a write has failed.
pub fn exit_code(code: i32) -> i32 {
    if code == 0 && FAILED.load(Ordering::Relaxed) {
        1
    } else {
        code
    }
}

/// `eprint!` that never panics: the text goes to [`err`], and a failure is remembered.
macro_rules! stderr {
    ($($t:tt)*) => {
        let _ = $crate::output::err(&format!($($t)*));
    };
}

/// `eprintln!` that never panics: the line goes to [`err`], and a failure is remembered.
macro_rules! stderrln {
    ($($t:tt)*) => {
        let _ = $crate::output::err(&format!("{}\n", format_args!($($t)*)));
    };
}

pub(crate) use {stderr, stderrln};

/// Standard error as a writer that never panics: a failed write is remembered, as by [`err`].
pub struct Stderr;

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = std::io::stderr().lock().write_all(buf);
        if written.is_err() {
            FAILED.store(true, Ordering::Relaxed);
        }
        written.map(|()| buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
