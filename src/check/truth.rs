//! Truth-valued globals (`global surprise_round: truth [default true|false]`): a truth value of
//! the table, read by its bare name, changed by `set NAME = C`, `mark NAME` and `clear NAME`.
//! It holds no number: limits and decimals on it, the statements that change a number, and a
//! stat written `: truth` (a character's truth value is a flag) are refused here.

use crate::diag::Diag;
use crate::syntax::ast::*;

/// `stat NAME: truth`: a character's truth value is a flag.
pub(super) fn truth_stat(name: &Ident, ty: Option<&Ident>) -> Diag {
    Diag::new(
        "check::type",
        format!(
            "`{}` cannot hold a truth value: a stat holds a number or an entity",
            name.node
        ),
    )
    .label(ty.map_or(name.span, |t| t.span), "a truth value")
    .help(format!(
        "a character's truth value is a flag: `flag {}`; a truth value of the table is `global {}: truth`",
        name.node, name.node
    ))
}

/// `global NAME: truth` with `decimals`, `min` or `max`: a truth value has none.
pub(super) fn truth_clauses(item: &Item, diags: &mut Vec<Diag>) {
    let Item::Global {
        name,
        decimals,
        min,
        max,
        ..
    } = item
    else {
        return;
    };
    if *decimals > 0 {
        diags.push(
            Diag::new(
                "check::type",
                format!("`{}` holds a truth value, which has no decimals", name.node),
            )
            .label(name.span, "declared `: truth` with `decimals`")
            .help("`decimals N` is for numbers; leave it out of a truth global"),
        );
    }
    for limit in min.iter().chain(max.iter()) {
        diags.push(
            Diag::new(
                "check::limits",
                format!("`{}` holds a truth value, which has no limits", name.node),
            )
            .label(limit.span, "a limit")
            .help("`min` and `max` are for numbers; a truth global is true or false: leave them out"),
        );
    }
}
