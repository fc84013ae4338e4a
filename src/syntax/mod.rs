//! Stage 1: source text → spanned AST ([`parse`]).

pub mod ast;
pub mod cast;
mod parser;
pub mod text;

#[cfg(test)]
pub(crate) use parser::PARSES;
pub use parser::pools::explode_ends;
pub use parser::{BOM, each_item, parse};
