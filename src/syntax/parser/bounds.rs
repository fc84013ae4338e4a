//! Bounds that pest's call limit does not give: nesting depth before parsing, and the length
//! of operator chains and prefix runs in an expression.

use pest::iterators::Pairs;

use super::{Builder, R, Rule};
use crate::diag::Diag;
use crate::limits::{MAX_EXPR_OPERATORS, MAX_NESTING, MAX_PREFIX_CHAIN};
use crate::syntax::ast::*;

/// pest's call limit does not bound stack depth: refuse deep nesting before parsing.
pub(super) fn check_nesting(src: &str, file: FileId) -> Result<(), Diag> {
    let bytes = src.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'"' || c == b'\n' {
                in_string = false;
            }
        } else {
            match c {
                b'#' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'"' => in_string = true,
                b'(' | b'{' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Err(Diag::new(
                            "syntax::too_deep",
                            format!("blocks and parentheses nest more than {MAX_NESTING} deep here"),
                        )
                        .label(Span::new(file, i, i + 1), "this one is too deep")
                        .help("flatten the nesting: split the rule into levels, or name a sub-expression as a param"));
                    }
                }
                b')' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        i += 1;
    }
    Ok(())
}

impl Builder {
    /// Bound the shapes of an expression's pairs that would recurse deeply: long operator
    /// chains and prefix runs.
    pub(super) fn check_operators(&self, inner: &Pairs<Rule>) -> R<()> {
        let mut infix = 0usize;
        let mut prefix_run = 0usize;
        for p in inner.clone() {
            match p.as_rule() {
                Rule::op_neg | Rule::op_not => {
                    prefix_run += 1;
                    if prefix_run > MAX_PREFIX_CHAIN {
                        return Err(Diag::new(
                            "syntax::too_deep",
                            format!("more than {MAX_PREFIX_CHAIN} `-` or `not` in a row"),
                        )
                        .label(self.span(&p), "one too many")
                        .help("remove the repeated operators: two of them cancel out"));
                    }
                }
                Rule::op_is | Rule::op_field => {}
                r if is_infix(r) => {
                    infix += 1;
                    prefix_run = 0;
                    if infix > MAX_EXPR_OPERATORS {
                        return Err(Diag::new(
                            "syntax::too_long",
                            format!("this expression has more than {MAX_EXPR_OPERATORS} operators"),
                        )
                        .label(self.span(&p), "one operator too many")
                        .help("split it: give parts of it a name with `param`"));
                    }
                }
                _ => prefix_run = 0,
            }
        }
        Ok(())
    }
}

fn is_infix(r: Rule) -> bool {
    matches!(
        r,
        Rule::op_or
            | Rule::op_and
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_lt
            | Rule::op_le
            | Rule::op_gt
            | Rule::op_ge
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
    )
}
