//! Stage 1: source text → spanned AST ([`parse`]).

pub mod ast;
mod parser;

pub use parser::{each_item, parse};
