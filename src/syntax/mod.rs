//! Stage 1: source text → spanned AST ([`parse`]).

pub mod ast;
pub mod cast;
mod parser;
pub mod text;

pub use parser::pools::explode_ends;
pub use parser::{BOM, each_item, parse};
