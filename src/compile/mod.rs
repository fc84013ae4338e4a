//! Stage 3: lowering a checked AST to the [`Program`] the runtime runs: every name becomes a slot.
//!
//! `compile` sets up the [`Program`] and lowers params; the `Lower` walker and its slots live
//! here. Items are lowered in `items.rs`, statements in `stmt.rs`, expressions in `expr.rs`; the
//! program's types are in [`ir`].

mod expr;
pub mod fixed;
mod functions;
pub mod ir;
mod items;
pub mod moments;
mod pools;
mod sides;
mod stmt;

use std::collections::HashMap;

use crate::check::{At, Checked, Decls};
use crate::syntax::ast::{self, Expr};
pub use fixed::Fixed;
pub use ir::*;
pub use moments::{ActionMatch, Moments, Point, ReadyDef, ReadyOn};

/// Lowers checked files to a runnable program.
pub fn compile(checked: &Checked) -> Program {
    let d = &checked.decls;
    let mut c = Lower {
        d,
        fields_at: &checked.fields_at,
        numbers_at: &checked.numbers_at,
        widen_at: &checked.widen_at,
        site: ast::Span::default(),
        decimals_at: &checked.decimals_at,
        reads_picks: &checked.reads_picks,
        pools_at: &checked.pools_at,
        role_choosers: &checked.role_choosers,
        side_slots: std::collections::HashSet::new(),
        scopes: Vec::new(),
        max_locals: 0,
        labels: HashMap::new(),
        default_policy: None,
        in_tied: false,
        p: empty_program(d),
    };
    for (i, name) in d.params.iter().enumerate() {
        let slots: Vec<Slot> = d.param_args[i].iter().map(|a| c.bind(&a.0)).collect();
        let body = c.expr(d.param_exprs[i]);
        c.scopes.truncate(c.scopes.len() - slots.len());
        c.p.params.push((name.clone(), body));
        c.p.param_slots.push(slots);
    }
    // Routines get their hook ids first, so `do` may come before (or inside) the routine.
    for i in 0..d.routines.len() {
        c.p.routines[i] = c.p.hooks.len() as HookId;
        c.p.hooks.push(HookDef {
            vars: Vec::new(),
            filter: None,
            body: Block::default(),
            frame: (0, 0),
            ty: CHARACTER,
        });
    }
    for file in checked.files {
        for item in &file.items {
            c.item(item);
        }
    }
    c.p.n_locals = c.max_locals;
    // `setup` and `play` are each one block, however many items wrote them.
    c.p.setup.id = c.next_block();
    c.p.play.id = c.next_block();
    c.p.deck_index = DeckIndex::new(&c.p);
    c.p.moments.resolve(&c.p.actions);
    c.p.default_policy = c.default_policy.as_deref().and_then(|n| c.p.policy(n));
    c.p.fixed = Fixed::new(&c.p);
    c.p
}

fn empty_program(d: &Decls<'_>) -> Program {
    Program {
        ruleset_name: d.ruleset_name.clone().unwrap_or_else(|| "ruleset".into()),
        encounter_name: d.encounter_name.clone().unwrap_or_else(|| "encounter".into()),
        fields: d
            .fields
            .iter()
            .enumerate()
            .map(|(i, (n, k))| FieldDef {
                name: n.clone(),
                kind: *k,
                default: None,
                min: None,
                max: None,
                per: Vec::new(),
                owner: d.field_owner[i],
                refers: d.field_refers[i],
                decimals: d.field_scale.get(i).copied().unwrap_or(0),
                truth: d.field_truth.get(i).copied().unwrap_or(false),
                owned: None,
            })
            .collect(),
        params: Vec::new(),
        param_slots: Vec::new(),
        sides: d.sides.clone(),
        things: d.things.clone(),
        decks: d.decks.clone(),
        deck_defs: d.deck_defs.clone(),
        deck_index: DeckIndex::default(),
        stands_for: vec![None; d.things.len()],
        tags: d.tags.clone(),
        actions: Vec::new(),
        orders: Vec::new(),
        levels: d
            .levels
            .iter()
            .map(|(n, k)| LevelDef {
                name: n.clone(),
                kind: *k,
                clears: Vec::new(),
                on_start: Vec::new(),
                on_end: Vec::new(),
                counting: false,
                statements: 0,
            })
            .collect(),
        decisions: d.decisions.clone(),
        options: d.options.clone(),
        policies: Vec::new(),
        default_policy: None,
        characters: Vec::new(),
        labels: Vec::new(),
        dice: Vec::new(),
        reasons: Vec::new(),
        setup: Block::default(),
        play: Block::default(),
        n_blocks: 0,
        code: CodeCell::default(),
        n_locals: 0,
        roles: d.roles.clone(),
        triggers: d
            .triggers
            .iter()
            .map(|(n, tys)| TriggerDef {
                name: n.clone(),
                args: tys.iter().map(|t| functions::arg_kind(*t)).collect(),
                hooks: Vec::new(),
            })
            .collect(),
        units: d.units.clone(),
        kinds: d.kinds.clone(),
        hooks: Vec::new(),
        routines: vec![0; d.routines.len()],
        turn_start: Vec::new(),
        turn_end: Vec::new(),
        turn_clears: Vec::new(),
        any_turn_clears: Vec::new(),
        turn_after: Vec::new(),
        join_hooks: Vec::new(),
        leave_hooks: Vec::new(),
        encounter_start: Vec::new(),
        encounter_end: Vec::new(),
        measures: d.measures.clone(),
        measure_decimals: vec![0; d.measures.len()],
        bodies: Vec::new(),
        forbids: Vec::new(),
        attempts: Vec::new(),
        attempt_defs: Vec::new(),
        faces: Vec::new(),
        moments: Moments::default(),
        fixed: Fixed::default(),
    }
}

/// A decision's head, `choose NAME by WHO`: what its errors point at, not the whole block.
fn head(stmt: ast::Span, chooser: ast::Span) -> ast::Span {
    ast::Span {
        file: stmt.file,
        start: stmt.start,
        end: chooser.end.max(stmt.start),
    }
}

struct Lower<'a> {
    d: &'a Decls<'a>,
    /// The field each `x.FIELD` names, by the span of its name (see [`Checked::fields_at`]).
    fields_at: &'a At<ast::Span, u16>,
    /// Refusal text parts that are numbers (see [`Checked::numbers_at`]).
    numbers_at: &'a At<ast::Span, ()>,
    /// Numbers widened to more decimals (see [`Checked::widen_at`]).
    widen_at: &'a At<(ast::Span, ast::Span), i64>,
    /// Where the expressions being lowered are compiled (see `Checker::site`).
    site: ast::Span,
    /// The decimals of numbers the trace shows (see [`Checked::decimals_at`]).
    decimals_at: &'a At<ast::Span, u8>,
    /// Secret choices that read an earlier secret pick (see [`Checked::reads_picks`]).
    reads_picks: &'a At<ast::Span, ()>,
    /// The names that read a dice pool (see [`Checked::pools_at`]).
    pools_at: &'a At<ast::Span, ()>,
    /// Choosers that are computed roles (see [`Checked::role_choosers`]).
    role_choosers: &'a At<ast::Span, ()>,
    /// The slots of `for each s in sides` walks: they hold a side's index, not an entity.
    side_slots: std::collections::HashSet<Slot>,
    scopes: Vec<(String, Slot)>,
    max_locals: usize,
    labels: HashMap<String, LabelId>,
    default_policy: Option<String>,
    /// Compiling an ordering key's `when`: `tied` is the group being sorted.
    in_tied: bool,
    p: Program,
}

impl Lower<'_> {
    fn label(&mut self, text: &str) -> LabelId {
        if let Some(l) = self.labels.get(text) {
            return *l;
        }
        let id = self.p.labels.len() as LabelId;
        self.p.labels.push(text.to_string());
        self.labels.insert(text.to_string(), id);
        id
    }

    /// Every binder gets its own slot: an action's or an order's variable never shares a slot
    /// with the loop it is used inside. Actions and hooks can nest (a reaction inside an action),
    /// so each records its frame of slots, which the runtime saves and restores around it.
    fn bind(&mut self, name: &str) -> Slot {
        self.scopes.push((name.to_string(), self.max_locals as Slot));
        self.max_locals += 1;
        (self.max_locals - 1) as Slot
    }

    fn local(&self, name: &str) -> Option<Slot> {
        self.scopes.iter().rev().find(|s| s.0 == name).map(|s| s.1)
    }

    fn field_id(&self, name: &str) -> FieldId {
        self.d.field(name).map(|f| f.0).unwrap_or(0)
    }

    /// The field a written name resolved to (a thing's fields through the checker's types).
    fn field_at(&self, f: &ast::Ident) -> FieldId {
        self.fields_at
            .get(&f.span)
            .copied()
            .unwrap_or_else(|| self.field_id(&f.node))
    }

    /// Fields given to a new or declared entity.
    fn given(&mut self, fields: &[(ast::Ident, Expr)]) -> Vec<(FieldId, Ex)> {
        fields.iter().map(|(f, e)| (self.field_at(f), self.expr(e))).collect()
    }

    fn thing_field(&self, owner: Option<u16>, name: &str) -> FieldId {
        match owner {
            Some(t) => self.d.field_of(t, name).map_or(0, |f| f.0),
            None => self.field_id(name),
        }
    }

    fn thing_id(&self, name: &ast::Ident) -> TypeId {
        self.d.thing(&name.node).unwrap_or(CHARACTER)
    }
}
