//! The AST of issue 26's functions: counted loops (`for each i in 1 to n`). Routines that give
//! a value and `give` are in `Item::Routine` and `Stmt::Give`.

use super::{Block, Expr, Ident, Span};

/// `for each i in FROM [down] to TO { ... }`: `i` takes each whole number from `FROM` to `TO`
/// (up, or down with `down`), both worked out once before the first pass.
#[derive(Clone, Debug)]
pub struct CountLoop {
    pub var: Ident,
    pub from: Expr,
    pub to: Expr,
    /// `down to`: counting down.
    pub down: bool,
    pub body: Block,
    pub span: Span,
}
