//! The REPL's view of the sides' fields (`side NAME, ... { FIELDS }`): one line per side in
//! `show` and `show all`; and the names a ruling gives a side's field or a field holding a side
//! or a role by.

use crate::check::FieldKind;
use crate::compile::ir::{EntityId, FieldId, Program, TypeId};
use crate::runtime::control::Snapshot;

/// Side `s`'s fields as `NAME VALUE`, in declaration order.
fn side_fields(p: &Program, snap: &Snapshot, s: usize) -> Vec<String> {
    let owner = Program::side_owner(s);
    (p.fields.iter().enumerate())
        .filter(|(_, f)| f.owner == crate::check::SIDE)
        .map(|(i, f)| {
            format!(
                "{} {}",
                f.name,
                super::show::field_text(p, f, snap.get(owner, i as FieldId))
            )
        })
        .collect()
}

/// One line per side with its fields (`side heroes: init 4, momentum 1`), when sides have fields.
pub(super) fn side_lines(p: &Program, snap: &Snapshot) -> Vec<String> {
    if snap.sides.is_empty() {
        return Vec::new();
    }
    (0..p.sides.len())
        .map(|s| format!("side     {}: {}", p.sides[s], side_fields(p, snap, s).join(", ")))
        .collect()
}

/// The owner a ruling names (`set NAME.FIELD = ...`): an entity by its name, else a side by its
/// name (its fields' owner id); with the type whose fields it has.
pub(super) fn owner_named(p: &Program, name: &str) -> Option<(EntityId, TypeId)> {
    if let Some(i) = p.characters.iter().position(|c| c.name == name) {
        return Some((i as EntityId, p.characters[i].ty));
    }
    let s = p.sides.iter().position(|s| s == name)?;
    Some((Program::side_owner(s), crate::check::SIDE))
}

/// The field called `name` of an owner of type `owner`, or the global called so (`None`):
/// a side's or a thing's field of the same name as a character's is never taken for it.
pub(super) fn field_owned(p: &Program, name: &str, owner: Option<TypeId>) -> Option<FieldId> {
    p.fields
        .iter()
        .position(|f| {
            f.name == name
                && match owner {
                    None => f.kind == FieldKind::Global,
                    Some(t) => f.kind != FieldKind::Global && f.owner == t,
                }
        })
        .map(|i| i as FieldId)
}

/// The value a field holding a side or a role is set to by name (its index), if it names one.
pub(super) fn side_or_role(p: &Program, refers: TypeId, name: &str) -> Option<i64> {
    let names = match refers {
        crate::check::SIDE => &p.sides,
        crate::check::ROLE => &p.roles,
        _ => return None,
    };
    names.iter().position(|n| n == name).map(|i| i as i64)
}

/// `show SIDE`: the side, its members (in the cast's order) and its fields.
pub(super) fn one(s: &super::Session, side: usize, look: super::show::Look) -> String {
    let p = &s.state.program;
    let members: Vec<&str> = (p.characters.iter())
        .filter(|c| c.side == Some(side as _))
        .map(|c| c.name.as_str())
        .collect();
    let mut out = format!("{}\n", look.bold(&format!("{} · side", p.sides[side])));
    if !members.is_empty() {
        out.push_str(&format!("  members {}\n", members.join(", ")));
    }
    if let Some(snap) = s.state.snapshot() {
        let fields = side_fields(p, snap, side);
        if !fields.is_empty() {
            out.push_str(&format!("  {}\n", fields.join(", ")));
        }
    }
    out
}
