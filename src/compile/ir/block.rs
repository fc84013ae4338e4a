//! Blocks of statements, numbered for the runtime's compiled code, and the cell that code is
//! kept in.

use super::St;

/// A block's number in the program, by which the runtime finds its compiled code.
pub type BlockId = u32;
/// The number of a block the compiler did not number (an empty block left where a secret
/// choice's body was taken aside): it has no compiled code and is walked.
pub const NO_BLOCK: BlockId = BlockId::MAX;

/// Where the runtime keeps the compiled form of a program's blocks (`runtime::code::Code`,
/// a type this stage does not know): made once, at the first run, and shared by every run and
/// thread after it. A clone of the program starts with an empty cell and makes its own at its
/// first run, so that code never outlives the blocks it was made from.
#[derive(Default)]
pub struct CodeCell(pub std::sync::OnceLock<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl Clone for CodeCell {
    fn clone(&self) -> Self {
        CodeCell::default()
    }
}

impl std::fmt::Debug for CodeCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "CodeCell(made)"
        } else {
            "CodeCell(not made)"
        })
    }
}

/// A block of statements and its number (`Program::n_blocks` of them are numbered, from 0):
/// read as the slice of its statements.
#[derive(Debug, Clone)]
pub struct Block {
    pub id: BlockId,
    pub stmts: Vec<St>,
}

impl Default for Block {
    fn default() -> Self {
        Block {
            id: NO_BLOCK,
            stmts: Vec::new(),
        }
    }
}

impl std::ops::Deref for Block {
    type Target = [St];
    fn deref(&self) -> &[St] {
        &self.stmts
    }
}

impl<'b> IntoIterator for &'b Block {
    type Item = &'b St;
    type IntoIter = std::slice::Iter<'b, St>;
    fn into_iter(self) -> Self::IntoIter {
        self.stmts.iter()
    }
}
