//! turnscript: a declarative language, and its interpreter, for the turn systems of tabletop RPGs.
//!
//! The pipeline, one stage per module, each with one entry point:
//! [`syntax::parse`] (text → spanned AST) → [`check::check`] (names, kinds, all errors at once)
//! → [`compile::compile`] (names → slots) → [`runtime::run`] (the ordered trace of events).
//!
//! Front ends (the CLI, the REPL, the tests, a simulator, a language server) stand on one API,
//! [`project`]: a [`Project`] loads and parses files, [`Project::check`] and
//! [`Project::compile`] take them through the checker and the compiler, and [`run`] plays the
//! compiled [`Program`], asking a [`Decider`] at each decision and sending each event to a
//! [`Sink`] as it happens.
//!
//! ```
//! use turnscript::{Project, RunOptions, Style, run, trace::JsonLines};
//!
//! let project = Project::load([
//!     ("duel.turn", "ruleset \"Duel\"
//!      stat speed default 0
//!      order fastest(c) { c.speed desc }
//!      play {
//!        round repeat {
//!          for each c in characters by fastest { turn c { } }
//!        }
//!      }"),
//!     ("cast.turn", "character Ann { speed = 2 }  character Bo { speed = 5 }"),
//! ]);
//! let program = project.compile().map_err(|d| project.render(&d, Style::default())).unwrap();
//!
//! // Seed 7, the ruleset's default decisions, stop after the first round.
//! let options = RunOptions { seed: 7, until: Some("round=1".into()), ..RunOptions::default() };
//! let mut prepared = options.prepare(&program).unwrap();
//! let mut trace = JsonLines::default();
//! let outcome = run(&program, &prepared.config, &mut prepared.decider, &mut trace).unwrap();
//!
//! let turns: Vec<&str> = trace.out().lines().filter(|l| l.contains("\"turn_start\"")).collect();
//! assert_eq!(turns.len(), 2);
//! assert!(turns[0].contains("\"Bo\"") && turns[1].contains("\"Ann\""));
//! assert!(outcome.steps > 0);
//! ```

pub mod check;
pub mod cli;
pub mod compile;
pub mod diag;
pub mod files;
pub mod format;
pub mod limits;
pub mod lsp;
pub mod output;
pub mod project;
pub mod repl;
pub mod runtime;
pub mod serve;
pub mod sim;
pub mod source;
pub mod syntax;
pub mod table;
pub mod template;
pub mod trace;

pub use compile::Program;
pub use diag::Diag;
pub use project::{Project, RunOptions, Style, check_set, play, run};
pub use runtime::decide::Decider;
pub use runtime::{Outcome, RunConfig};
pub use trace::{Event, Sink, World};
