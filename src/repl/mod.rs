//! The REPL: `turnscript repl`. A GM's table companion and a designer's edge-case explorer, in a
//! terminal. What a session is — the commands, the log, undo, rulings, save and load — is the
//! table's ([`crate::table`]); the REPL reads the commands and prints the replies: line by line
//! when standard input is not a terminal ([`run_plain`], deterministic and plain), through
//! rustyline when it is (`line.rs`: completion, hints, history, multiline).

// Standard output and error are written through crate::output, which never panics.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod line;
mod signals;
mod terminal;

pub use crate::table::{COMMANDS, Options, Reply, Table as Repl, autosave_for};
pub use terminal::{Input, main, run_plain, script};
