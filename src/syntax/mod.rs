//! Stage 1: source text → spanned AST ([`parse`]).

pub mod ast;
mod parser;
pub mod text;

pub use parser::{each_item, parse};
