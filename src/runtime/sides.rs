//! Sides and roles as values: the sides' fields (owned by each side's owner id,
//! [`Program::side_owner`], stored in `Machine::side_values`), their start values, and a chooser
//! computed as a role.

use super::code::Filter;
use super::state::{Machine, NO_CTX, R};
use crate::check::{FieldKind, SIDE};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::source::Span;

impl Machine<'_> {
    /// The owner of a field read or changed through a value: an entity, or a side's owner id
    /// (which only `Ex::SideOwner` gives). Anything else is `run::none`.
    #[inline]
    pub(super) fn owner_id(&self, v: i64, span: Span) -> R<EntityId> {
        if let Ok(id) = EntityId::try_from(v)
            && self.p.side_of_owner(id).is_some()
        {
            return Ok(id);
        }
        self.id(v, span)
    }

    /// The owner id of the side `v` names: `none` (a character on no side, a field holding no
    /// side) is `run::none`, never another side.
    pub(super) fn side_owner(&self, v: i64, span: Span) -> R<i64> {
        match usize::try_from(v) {
            Ok(s) if s < self.p.sides.len() => Ok(i64::from(Program::side_owner(s))),
            _ => Err(Box::new(
                Diag::new("run::none", "this names no side: it is `none`")
                    .label(span, "a side's field read here")
                    .help("test it first, e.g. `if c.side != none { ... }`"),
            )),
        }
    }

    /// The role a computed chooser gives (`choose X by c.side.controller`): `none` is
    /// `run::none`, never another role.
    pub(super) fn role_of(&mut self, e: &Ex, span: Span) -> R<Who> {
        let v = self.eval(e, NO_CTX)?;
        match u16::try_from(v) {
            Ok(r) if (r as usize) < self.p.roles.len() => Ok(Who::Role(r)),
            _ => Err(Box::new(
                Diag::new("run::none", "this chooser names no role: it is `none`")
                    .label(span, "the chooser")
                    .help("give the field a role first, or test it: `if x != none { ... }`"),
            )),
        }
    }

    /// Every side's fields get their start values, side by side, each in declaration order:
    /// its `default` (a flag's too), else a resource's 0 within its limits, a stat's 0, or
    /// `none` for one holding a side, role or entity.
    pub(super) fn init_sides(&mut self) -> R<()> {
        if self.side_values.is_empty() {
            return Ok(());
        }
        let p = self.p;
        for s in 0..p.sides.len() {
            let owner = Program::side_owner(s);
            for (fi, f) in p.fields.iter().enumerate() {
                if f.owner != SIDE {
                    continue;
                }
                let v = match &f.default {
                    Some(e) => self.for_owner(owner, fi as FieldId, e, NO_CTX)?,
                    None => 0,
                };
                let v = if f.kind == FieldKind::Resource {
                    self.clamp_for(owner, fi as FieldId, v)?
                } else {
                    v
                };
                self.put(owner, fi as FieldId, v);
                if let Some(u) = self.sides_unset.get_mut(s * self.n_fields + fi) {
                    *u = false;
                }
            }
        }
        Ok(())
    }

    /// The sides' fields whose start must be worked out (a `default`, or a resource clamped into
    /// its limits), side-major: read before then, they are `run::not_set`. A field with neither
    /// holds its 0 (or `none`) from the start. Empty when sides have no fields.
    pub(super) fn sides_to_start(&self) -> Vec<bool> {
        if self.side_values.is_empty() {
            return Vec::new();
        }
        let p = self.p;
        (0..p.sides.len())
            .flat_map(|_| p.fields.iter())
            .map(|f| f.owner == SIDE && (f.default.is_some() || f.kind == FieldKind::Resource))
            .collect()
    }

    /// Reading side `s`'s field `f` before its start is worked out.
    pub(super) fn side_unset(&self, s: usize, f: FieldId, span: Span) -> Box<Diag> {
        let (side, field) = (&self.p.sides[s], &self.p.fields[f as usize].name);
        Box::new(
            Diag::new(
                "run::not_set",
                format!("{side}'s `{field}` has no value yet: the sides' fields start after the globals, side by side, each in the order declared"),
            )
            .label(span, format!("{side}'s `{field}` read here"))
            .help(format!(
                "a side's start may read the globals, and the fields of the sides before it and its own declared before `{field}`; a global's start reads no side's field: set it in `setup`"
            )),
        )
    }
}

impl Machine<'_> {
    /// `for each s in sides [backwards] [where C] [by ORDER] { ... }`: the sides that pass the
    /// filter, in declaration order or sorted by an order of sides (by values only: the checker
    /// refuses the rest), with an `order` event naming them; each is asked the filter again as it
    /// is reached. The variable is restored after.
    pub(super) fn walk_sides(
        &mut self,
        (var, order): (Slot, Option<OrderId>),
        backwards: bool,
        filter: Option<Filter<'_>>,
        body: &Block,
        span: Span,
    ) -> R<super::stmt::Flow> {
        let saved = self.locals[var as usize];
        let mut ids = self.ids.take();
        let flow = self.walk_sides_in(&mut ids, (var, order), backwards, filter, body, span);
        self.ids.put(ids);
        self.locals[var as usize] = saved;
        flow
    }

    fn walk_sides_in(
        &mut self,
        ids: &mut Vec<EntityId>,
        (var, order): (Slot, Option<OrderId>),
        backwards: bool,
        filter: Option<Filter<'_>>,
        body: &Block,
        span: Span,
    ) -> R<super::stmt::Flow> {
        for s in 0..self.p.sides.len() {
            self.tick(span)?;
            self.locals[var as usize] = s as i64;
            if filter.map(|f| self.test(f, NO_CTX)).transpose()?.is_none_or(|v| v != 0) {
                ids.push(s as EntityId);
            }
        }
        if let Some(o) = order
            && !ids.is_empty()
        {
            self.sort(o, ids)?;
            // The `order` event names the sides by their owner ids.
            let mut owners = self.ids.take();
            owners.extend(ids.iter().map(|s| Program::side_owner(*s as usize)));
            self.emit(super::super::trace::Event::Order { order: o, ids: &owners });
            self.ids.put(owners);
        }
        if backwards {
            ids.reverse();
        }
        self.loops.push(span);
        let mut flow = Ok(super::stmt::Flow::Next);
        for &s in ids.iter() {
            flow = self.visit_side(s as usize, var, filter, body, span);
            if !matches!(flow, Ok(super::stmt::Flow::Next)) {
                break;
            }
        }
        self.loops.pop();
        flow
    }

    fn visit_side(
        &mut self,
        s: usize,
        var: Slot,
        filter: Option<Filter<'_>>,
        body: &Block,
        span: Span,
    ) -> R<super::stmt::Flow> {
        self.tick(span)?;
        self.locals[var as usize] = s as i64;
        if let Some(f) = filter
            && self.test(f, NO_CTX)? == 0
        {
            return Ok(super::stmt::Flow::Next);
        }
        self.block(body)
    }
}
