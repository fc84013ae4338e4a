//! The front ends' driver: commands read line by line from standard input when it is not a
//! terminal ([`run_plain`], [`script`]), or through rustyline (`line.rs`) when it is ([`main`]).

use std::io::{BufRead, Write};

use super::line;
use crate::limits::{MAX_REPL_DEFINITION_BYTES, MAX_REPL_LINE_BYTES};
use crate::output::stderr;
use crate::table::{Options, Table as Repl, brace_change};

/// Reads commands line by line (standard input not a terminal): each is echoed after `> `, then
/// its reply, plain. A definition spanning lines is read until its braces balance. Returns the
/// exit code: 1 if any command was refused.
pub fn run_plain(repl: &mut Repl, mut input: impl Input, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut code = 0;
    let mut pending = String::new();
    // The depth of braces in `pending`, kept line by line so a long definition is not scanned
    // again on every line.
    let mut depth = 0i64;
    let mut number = 0usize;
    let mut bytes = Vec::new();
    loop {
        // About to wait for input (a person typing into a pipe, say): the autosave gets what
        // it was deferring, so nothing done is lost while the REPL waits.
        let wait = input.may_wait();
        if wait {
            let _ = err.write_all(repl.flush_autosave().as_bytes());
            code |= say_errors(repl, err);
        }
        // SIGTERM or SIGHUP: while waiting, the process ends at once (all is written).
        if let Some(status) = super::signals::idle(wait) {
            return stopped(repl, out, err, status);
        }
        let read = read_line(&mut input, &mut bytes, MAX_REPL_LINE_BYTES);
        if let Some(status) = super::signals::idle(false) {
            return stopped(repl, out, err, status);
        }
        let line = match read {
            Ok(false) => break,
            Ok(true) => {
                number += 1;
                std::str::from_utf8(&bytes).map_err(|e| {
                    format!(
                        "error: input line {number} is not valid UTF-8 (the byte at offset {} of the line); the line is skipped\n",
                        e.valid_up_to()
                    )
                })
            }
            Err(Long(n)) => {
                number += 1;
                Err(format!(
                    "error: input line {number} is {n} bytes long; the limit is {MAX_REPL_LINE_BYTES}; the line is skipped\n"
                ))
            }
        };
        let line = match line {
            Ok(l) => l.strip_suffix('\r').unwrap_or(l),
            Err(e) => {
                code = 1;
                let _ = err.write_all(e.as_bytes());
                continue;
            }
        };
        if pending.len() + line.len() > MAX_REPL_DEFINITION_BYTES {
            code = 1;
            let _ = writeln!(
                err,
                "error: the definition ending at input line {number} is longer than {MAX_REPL_DEFINITION_BYTES} bytes; it is dropped"
            );
            pending.clear();
            depth = 0;
            continue;
        }
        if !pending.is_empty() {
            pending.push('\n');
        }
        pending.push_str(line);
        depth += brace_change(line);
        if depth > 0 {
            continue;
        }
        depth = 0;
        let cmd = std::mem::take(&mut pending);
        if cmd.trim().is_empty() {
            continue;
        }
        // The command is echoed before it runs, so a reader that is gone stops the REPL before
        // it takes a command nobody will see answered.
        if let Err(e) = writeln!(out, "> {}", cmd.replace('\n', "\n. ")).and_then(|()| out.flush()) {
            return out_failed(repl, err, &e);
        }
        let reply = repl.exec(&cmd);
        if reply.error {
            code = 1;
            let _ = err.write_all(reply.out.as_bytes());
        }
        code |= say_errors(repl, err);
        let written = if reply.error {
            Ok(())
        } else {
            out.write_all(reply.out.as_bytes())
        };
        if let Err(e) = written.and_then(|()| out.flush()) {
            return out_failed(repl, err, &e);
        }
        if reply.quit {
            return code;
        }
        if let Some(status) = super::signals::received() {
            return stopped(repl, out, err, status);
        }
    }
    if !pending.trim().is_empty() {
        let _ = writeln!(err, "error: the input ended inside a definition (unbalanced braces)");
        code = 1;
    }
    let note = repl.autosave_note();
    code |= say_errors(repl, err);
    if let Err(e) = out.write_all(note.as_bytes()).and_then(|()| out.flush()) {
        let _ = writeln!(err, "error: cannot write to standard output: {e}");
        return 1;
    }
    code
}

/// A signal came (SIGTERM, SIGHUP): what the autosave lacks is written, and the REPL ends with
/// `status`.
fn stopped(repl: &mut Repl, out: &mut dyn Write, err: &mut dyn Write, status: i32) -> i32 {
    let note = repl.autosave_note();
    say_errors(repl, err);
    let _ = out.write_all(note.as_bytes()).and_then(|()| out.flush());
    let _ = writeln!(err, "note: stopped by signal {}", status - 128);
    status
}

/// Says the REPL's errors outside a reply (a failed autosave) on `err`: 1 if there were any.
fn say_errors(repl: &mut Repl, err: &mut dyn Write) -> i32 {
    let errors = repl.take_errors();
    if errors.is_empty() {
        return 0;
    }
    let _ = err.write_all(errors.as_bytes());
    1
}

/// Standard output failed (a full disk, a reader gone): what the autosave lacks is written, the
/// error said on `err`, and the REPL ends with 1.
fn out_failed(repl: &mut Repl, err: &mut dyn Write, e: &std::io::Error) -> i32 {
    let _ = err.write_all(repl.flush_autosave().as_bytes());
    say_errors(repl, err);
    let _ = writeln!(err, "error: cannot write to standard output: {e}");
    1
}

/// Input read line by line that can tell whether the next line may keep the REPL waiting.
pub trait Input: BufRead {
    /// No whole line is buffered: reading the next one may wait for more input.
    fn may_wait(&self) -> bool;
}

/// Text in memory never waits.
impl Input for &[u8] {
    fn may_wait(&self) -> bool {
        false
    }
}

impl<R: std::io::Read> Input for std::io::BufReader<R> {
    fn may_wait(&self) -> bool {
        !self.buffer().contains(&b'\n')
    }
}

/// A line of input longer than the limit: how long it was.
struct Long(usize);

/// Reads one line into `buf` (without its `\n`), keeping at most `max` bytes of it; the rest of a
/// longer line is read and dropped. `Ok(false)` at the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> Result<bool, Long> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        len += part.len();
        if buf.len() < max {
            let room = max - buf.len();
            buf.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if len > max {
        return Err(Long(len));
    }
    Ok(any)
}

/// Runs a whole script as [`run_plain`] does, with replies and errors in one transcript; the exit
/// code is the last line. Call it on the run stack ([`crate::runtime::try_on_run_stack`]).
pub fn script(repl: &mut Repl, input: &str) -> String {
    // One buffer for both streams, so errors stay in order with the replies.
    let buf = Shared::default();
    let code = run_plain(repl, input.as_bytes(), &mut buf.clone(), &mut buf.clone());
    let mut s = String::from_utf8_lossy(&buf.0.borrow()).into_owned();
    s.push_str(&format!("exit {code}\n"));
    s
}

/// A byte buffer several writers append to, in order.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `turnscript repl`: interactive on a terminal, plain otherwise. Returns the exit code.
pub fn main(opts: Options) -> i32 {
    use std::io::IsTerminal;
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    // Piped: SIGTERM and SIGHUP stop the REPL after what it answered is written. (On a terminal
    // the autosave is written before each prompt, and rustyline holds the terminal.)
    if !interactive {
        super::signals::watch();
    }
    let ran = crate::runtime::try_on_run_stack(move || {
        let mut opts = opts;
        opts.colour = Some(crate::diag::use_colour(opts.colour, interactive));
        if opts.width == 0 {
            opts.width = crate::diag::terminal_width(100);
        }
        let (mut repl, start) = match Repl::new(opts) {
            Ok(r) => r,
            Err(e) => {
                stderr!("{e}");
                return 1;
            }
        };
        if crate::output::out(&start).is_err() {
            return 1;
        }
        if interactive {
            line::interactive(&mut repl)
        } else {
            // A buffer of its own (not stdin's), so the loop can see when it would wait.
            let stdin = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
            run_plain(&mut repl, stdin, &mut std::io::stdout(), &mut crate::output::Stderr)
        }
    });
    ran.unwrap_or_else(|e| {
        stderr!("error: cannot start the run thread: {e}\n  help: free memory; the REPL reserves {} MiB of stack for the run\n", crate::limits::RUN_STACK_BYTES >> 20);
        1
    })
}
