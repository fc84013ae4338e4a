//! turnscript: a declarative language, and its interpreter, for the turn systems of tabletop RPGs.
//!
//! The pipeline, one stage per module, each with one entry point:
//! [`syntax::parse`] (text → spanned AST) → [`check::check`] (names, kinds, all errors at once)
//! → [`compile::compile`] (names → slots) → [`runtime::run`] (the ordered trace of events).

pub mod check;
pub mod cli;
pub mod compile;
pub mod diag;
pub mod limits;
pub mod repl;
pub mod runtime;
pub mod source;
pub mod syntax;
pub mod trace;
