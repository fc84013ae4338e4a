//! The REPL's view of the sides' fields (`side NAME, ... { FIELDS }`): one line per side in
//! `show` and `show all`.

use crate::compile::ir::{FieldId, Program};
use crate::runtime::control::Snapshot;

/// One line per side with its fields (`side heroes: init 4, momentum 1`), when sides have fields.
pub(super) fn side_lines(p: &Program, snap: &Snapshot) -> Vec<String> {
    if snap.sides.is_empty() {
        return Vec::new();
    }
    (0..p.sides.len())
        .map(|s| {
            let owner = Program::side_owner(s);
            let fields: Vec<String> = (p.fields.iter().enumerate())
                .filter(|(_, f)| f.owner == crate::check::SIDE)
                .map(|(i, f)| {
                    format!(
                        "{} {}",
                        f.name,
                        super::show::field_text(p, f, snap.get(owner, i as FieldId))
                    )
                })
                .collect();
            format!("side     {}: {}", p.sides[s], fields.join(", "))
        })
        .collect()
}
