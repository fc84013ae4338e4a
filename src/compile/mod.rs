//! Stage 3: lowering a checked AST to the [`Program`] the runtime runs: every name becomes a slot.

pub mod ir;

use std::collections::HashMap;

use crate::check::FieldKind;
use crate::check::{Checked, Decls, Sym};
use crate::syntax::ast::{self, Collection, CountAt, Expr, ExprKind, HookOn, Item, Loop, PlaceTo, Stmt, UnOp};
pub use ir::*;

/// Lowers checked files to a runnable program.
pub fn compile(checked: &Checked) -> Program {
    let d = &checked.decls;
    let mut c = Lower {
        d,
        fields_at: &checked.fields_at,
        scopes: Vec::new(),
        max_locals: 0,
        labels: HashMap::new(),
        default_policy: None,
        p: empty_program(d),
    };
    for (i, name) in d.params.iter().enumerate() {
        let slots: Vec<Slot> = d.param_args[i].iter().map(|a| c.bind(&a.0)).collect();
        let body = c.expr(&d.param_exprs[i]);
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
            body: Vec::new(),
            frame: (0, 0),
            ty: CHARACTER,
        });
    }
    for file in &checked.files {
        for item in &file.items {
            c.item(item);
        }
    }
    c.p.n_locals = c.max_locals;
    c.p.default_policy = c.default_policy.as_deref().and_then(|n| c.p.policy(n));
    c.p
}

fn empty_program(d: &Decls) -> Program {
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
                per: None,
                owner: d.field_owner[i],
                refers: d.field_refers[i],
            })
            .collect(),
        params: Vec::new(),
        param_slots: Vec::new(),
        sides: d.sides.clone(),
        things: d.things.clone(),
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
        setup: Vec::new(),
        play: Vec::new(),
        n_locals: 0,
        roles: d.roles.clone(),
        triggers: d
            .triggers
            .iter()
            .map(|(n, _)| TriggerDef {
                name: n.clone(),
                hooks: Vec::new(),
            })
            .collect(),
        units: d.units.clone(),
        kinds: d.kinds.clone(),
        hooks: Vec::new(),
        routines: vec![0; d.routines.len()],
        turn_start: Vec::new(),
        turn_end: Vec::new(),
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
    d: &'a Decls,
    /// The field each `x.FIELD` names, by the span of its name (see [`Checked::fields_at`]).
    fields_at: &'a HashMap<ast::Span, u16>,
    scopes: Vec<(String, Slot)>,
    max_locals: usize,
    labels: HashMap<String, LabelId>,
    default_policy: Option<String>,
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

    /// A field declaration's default and limits (`owner`: the thing declaring it, if any).
    fn field_decl(&mut self, item: &Item, owner: Option<u16>) {
        let (name, default, min, max) = match item {
            Item::Stat { name, default, .. } => (name, default, &None, &None),
            Item::Global {
                name,
                default,
                min,
                max,
                ..
            } => (name, default, min, max),
            Item::Resource { name, min, max } => (name, &None, min, max),
            Item::Flag { name, per } => {
                let f = self.thing_field(owner, &name.node);
                if let Some(l) = per.as_ref().and_then(|l| self.d.level_names.get(&l.node)) {
                    self.p.levels[*l as usize].clears.push(f);
                    self.p.fields[f as usize].per = Some(*l);
                }
                return;
            }
            _ => return,
        };
        let f = self.thing_field(owner, &name.node) as usize;
        let refers = self.p.fields[f].refers;
        self.p.fields[f].default = match default {
            Some(e) => Some(self.expr(e)),
            // An entity-valued field starts at `none`.
            None if refers.is_some() => Some(Ex::Int(NONE)),
            None => None,
        };
        self.p.fields[f].min = min.as_ref().map(|e| self.expr(e));
        self.p.fields[f].max = max.as_ref().map(|e| self.expr(e));
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

    fn item(&mut self, item: &Item) {
        match item {
            Item::Stat { .. } | Item::Global { .. } | Item::Resource { .. } | Item::Flag { .. } => {
                self.field_decl(item, None);
            }
            Item::Thing { name, fields, .. } => {
                let t = self.d.thing(&name.node);
                for f in fields {
                    self.field_decl(f, t);
                }
            }
            Item::Instance { ty, name, fields } => {
                let fields = self.given(fields);
                self.p.characters.push(CharacterDef {
                    name: name.node.clone(),
                    ty: self.thing_id(ty),
                    side: None,
                    tags: Vec::new(),
                    fields,
                });
            }
            Item::Action(a) => {
                let lo = self.max_locals as Slot;
                let actor = self.bind(&a.actor.node);
                let costs = a
                    .costs
                    .iter()
                    .map(|c| (self.expr(&c.amount), self.field_id(&c.resource.node)))
                    .collect();
                let when = a.when.as_ref().map(|w| self.expr(w));
                let body = self.block(&a.body);
                self.scopes.pop();
                let label = self.label(&a.name.node);
                let kinds = a.kinds.iter().filter_map(|k| self.d.kind(&k.node)).collect();
                self.p.actions.push(ActionDef {
                    name: a.name.node.clone(),
                    actor,
                    kinds,
                    costs,
                    when,
                    body,
                    label,
                    frame: (lo, self.max_locals as Slot),
                });
            }
            Item::Routine { name, params, body } => {
                if let Some(Sym::Routine(i)) = self.d.lookup(&name.node) {
                    let id = self.p.routines[i as usize];
                    let vars: Vec<ast::Ident> = params.iter().map(|p| p.name.clone()).collect();
                    let def = self.callable(&vars, None, body);
                    self.p.hooks[id as usize] = def;
                }
            }
            Item::Hook(h) => {
                let mut def = self.callable(&h.vars, h.filter.as_ref(), &h.body);
                def.ty = h.turn_ty.as_ref().map_or(CHARACTER, |t| self.thing_id(t));
                let id = self.p.hooks.len() as HookId;
                self.p.hooks.push(def);
                let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().map(usize::from);
                match &h.on {
                    HookOn::TurnStart => self.p.turn_start.push(id),
                    HookOn::TurnEnd => self.p.turn_end.push(id),
                    HookOn::LevelStart(l) => {
                        if let Some(l) = level(l) {
                            self.p.levels[l].on_start.push(id);
                        }
                    }
                    HookOn::LevelEnd(l) => {
                        if let Some(l) = level(l) {
                            self.p.levels[l].on_end.push(id);
                        }
                    }
                    HookOn::Trigger(t) => {
                        if let Some(Sym::Trigger(i)) = self.d.lookup(&t.node) {
                            self.p.triggers[i as usize].hooks.push(id);
                        }
                    }
                }
            }
            Item::Order(o) => {
                let var = self.bind(&o.var.node);
                let keys = o
                    .keys
                    .iter()
                    .map(|k| KeyDef {
                        value: self.expr(&k.value),
                        roll: k.roll,
                        descending: k.descending,
                        until_settled: k.until_settled,
                        span: k.span,
                    })
                    .collect();
                self.scopes.pop();
                let label = self.label(&o.name.node);
                self.p.orders.push(OrderDef {
                    ty: o.ty.as_ref().map_or(CHARACTER, |t| self.thing_id(t)),
                    name: o.name.node.clone(),
                    var,
                    keys,
                    label,
                });
            }
            Item::Policy { name, prefs } => {
                let mut table = vec![Vec::new(); self.d.decisions.len()];
                for (decision, options) in prefs {
                    let Some(di) = self.d.decision_names.get(&decision.node) else {
                        continue;
                    };
                    table[*di as usize] = options
                        .iter()
                        .filter_map(|o| match self.d.option_names.get(&o.node) {
                            Some(i) => Some(OptionKey::Named(*i)),
                            None => match self.d.lookup(&o.node) {
                                Some(Sym::Action(a)) => Some(OptionKey::Action(a)),
                                _ => self
                                    .d
                                    .character_names
                                    .iter()
                                    .position(|c| *c == o.node)
                                    .map(|i| OptionKey::Character(i as EntityId)),
                            },
                        })
                        .collect();
                }
                self.p.policies.push(PolicyDef {
                    name: name.node.clone(),
                    prefs: table,
                });
            }
            Item::DefaultPolicy(name) => self.default_policy = Some(name.node.clone()),
            Item::Setup(b) => {
                let body = self.block(b);
                self.p.setup.extend(body);
            }
            Item::Play(b) => {
                let body = self.block(b);
                self.p.play.extend(body);
            }
            Item::Character(ch) => {
                let side = ch.side.as_ref().and_then(|s| match self.d.lookup(&s.node) {
                    Some(Sym::Side(i)) => Some(i),
                    _ => None,
                });
                let tags = ch
                    .tags
                    .iter()
                    .filter_map(|t| match self.d.lookup(&t.node) {
                        Some(Sym::Tag(i)) => Some(i),
                        _ => None,
                    })
                    .collect();
                let fields = self.given(&ch.fields);
                self.p.characters.push(CharacterDef {
                    ty: CHARACTER,
                    name: ch.name.node.clone(),
                    side,
                    tags,
                    fields,
                });
            }
            _ => {}
        }
    }
}

impl Lower<'_> {
    /// A block; the names its `let` and `create ... as` bind end with it.
    fn block(&mut self, b: &ast::Block) -> Vec<St> {
        let depth = self.scopes.len();
        let out = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.scopes.truncate(depth);
        out
    }

    fn target(&mut self, t: &ast::Target) -> Target {
        let label = self.label(&t.field.node);
        Target {
            var: t.var.as_ref().map(|v| self.local(&v.node).unwrap_or(0)),
            field: self.field_at(&t.field),
            label,
        }
    }

    fn refusals(&mut self, refusals: &[ast::Refusal]) -> Vec<RefusalDef> {
        refusals
            .iter()
            .map(|r| RefusalDef {
                cond: self.expr(&r.cond),
                message: r
                    .message
                    .iter()
                    .map(|part| match part {
                        ast::Part::Text(t) => Ok(t.clone()),
                        ast::Part::Name(e) => Err(self.expr(e)),
                    })
                    .collect(),
                span: r.span,
            })
            .collect()
    }

    /// Lowers a hook or a routine: its variables, filter and body, with the frame of slots it binds.
    fn callable(&mut self, vars: &[ast::Ident], filter: Option<&Expr>, body: &ast::Block) -> HookDef {
        let lo = self.max_locals as Slot;
        let vars = vars.iter().map(|v| self.bind(&v.node)).collect::<Vec<_>>();
        let filter = filter.map(|f| self.expr(f));
        let body = self.block(body);
        self.scopes.truncate(self.scopes.len() - vars.len());
        HookDef {
            vars,
            filter,
            body,
            frame: (lo, self.max_locals as Slot),
            ty: CHARACTER,
        }
    }

    fn coll(&self, c: &Collection) -> Coll {
        match c {
            Collection::Characters => Coll::All(CHARACTER),
            Collection::Ranked(o) => match self.d.lookup(&o.node) {
                Some(Sym::Plural(t)) => Coll::All(t),
                _ => Coll::Ranked(self.order_id(o)),
            },
        }
    }

    fn order_id(&self, o: &ast::Ident) -> OrderId {
        match self.d.lookup(&o.node) {
            Some(Sym::Order(i)) => i,
            _ => 0,
        }
    }

    fn chooser(&mut self, e: &Expr) -> ChooserEx {
        if let ExprKind::Name(n) = &e.node
            && self.local(n).is_none()
            && let Some(Sym::Role(r)) = self.d.lookup(n)
        {
            return ChooserEx::Role(r);
        }
        ChooserEx::Character(self.expr(e))
    }

    fn repeat(&mut self, r: &Loop) -> Repeat {
        match r {
            Loop::Once => Repeat::Once,
            Loop::Forever => Repeat::Forever,
            Loop::While(e) => Repeat::While(self.expr(e)),
            Loop::Until(e) => Repeat::Until(self.expr(e)),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> St {
        match s {
            Stmt::Level {
                name,
                repeat,
                body,
                span,
                ..
            } => {
                let level = self.d.level_names.get(&name.node).copied().unwrap_or(0);
                St::Level {
                    level,
                    repeat: self.repeat(repeat),
                    body: self.block(body),
                    span: *span,
                }
            }
            Stmt::Turn { actor, body, span } => St::Turn {
                actor: self.expr(actor),
                body: self.block(body),
                span: *span,
            },
            Stmt::ForEach {
                var,
                coll,
                backwards,
                filter,
                order,
                body,
                span,
                from,
            } => {
                let order = order.as_ref().map(|o| self.order_id(o));
                let from = from.as_ref().map(|x| self.expr(x));
                let slot = self.bind(&var.node);
                let filter = filter.as_ref().map(|f| self.expr(f));
                let body = self.block(body);
                self.scopes.pop();
                St::ForEach {
                    var: slot,
                    coll: self.coll(coll),
                    backwards: *backwards,
                    from,
                    filter,
                    order,
                    body,
                    span: *span,
                }
            }
            Stmt::If {
                cond, then, otherwise, ..
            } => St::If {
                cond: self.expr(cond),
                then: self.block(then),
                otherwise: otherwise.as_ref().map(|o| self.block(o)).unwrap_or_default(),
            },
            Stmt::Choose {
                name,
                chooser,
                options,
                span,
            } => St::Choose {
                decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
                chooser: self.chooser(chooser),
                options: options
                    .iter()
                    .map(|o| OptionDef {
                        name: o.name.as_ref().and_then(|n| self.d.option_names.get(&n.node).copied()),
                        kinds: o.kinds.iter().filter_map(|k| self.d.kind(&k.node)).collect(),
                        using: o.using.as_ref().map(|u| self.field_id(&u.node)),
                        when: o.when.as_ref().map(|w| self.expr(w)),
                        refusals: self.refusals(&o.refusals),
                        body: self.block(&o.body),
                    })
                    .collect(),
                span: head(*span, chooser.span),
            },
            Stmt::End { level, reason, .. } => {
                let reason = reason.as_ref().map(|r| {
                    self.p.reasons.push(r.node.clone());
                    (self.p.reasons.len() - 1) as u16
                });
                St::End {
                    level: level.as_ref().and_then(|l| self.d.level_names.get(&l.node).copied()),
                    reason,
                }
            }
            Stmt::Spend { amount, target, span } => St::Spend {
                amount: amount.as_ref().map(|a| self.expr(a)),
                target: self.target(target),
                span: *span,
            },
            Stmt::Gain { amount, target, span } => St::Gain {
                amount: self.expr(amount),
                target: self.target(target),
                span: *span,
            },
            Stmt::Reset { target, value, span } => St::Reset {
                target: self.target(target),
                value: self.expr(value),
                span: *span,
            },
            Stmt::Forfeit { target, .. } => St::Forfeit {
                target: self.target(target),
            },
            Stmt::Set { target, value, span } => St::Set {
                target: self.target(target),
                value: self.expr(value),
                span: *span,
            },
            Stmt::Mark { target, on, .. } => St::Mark {
                target: self.target(target),
                on: *on,
            },
            Stmt::ChooseFrom {
                name,
                chooser,
                var,
                coll,
                filter,
                order,
                body,
                decline,
                refusals,
                span,
            } => {
                let decline = decline.as_deref().map(|(o, b)| {
                    let id = self.d.option_names.get(&o.node).copied().unwrap_or(0);
                    (id, self.block(b))
                });
                let chooser_span = chooser.span;
                let chooser = self.chooser(chooser);
                let slot = self.bind(&var.node);
                let filter = filter.as_ref().map(|f| self.expr(f));
                let refusals = self.refusals(refusals);
                let body = self.block(body);
                self.scopes.pop();
                St::ChooseFrom {
                    refusals,
                    decision: self.d.decision_names.get(&name.node).copied().unwrap_or(0),
                    chooser,
                    var: slot,
                    coll: self.coll(coll),
                    filter,
                    order: order.as_ref().map(|o| self.order_id(o)),
                    body,
                    decline,
                    span: head(*span, chooser_span),
                }
            }
            Stmt::Repeat { repeat, body, span } => St::Repeat {
                repeat: self.repeat(repeat),
                body: self.block(body),
                span: *span,
            },
            Stmt::EndRepeat { .. } => St::EndRepeat,
            Stmt::Create {
                thing,
                fields,
                bind,
                span,
            } => {
                let fields = self.given(fields);
                St::Create {
                    thing: self.thing_id(thing),
                    fields,
                    bind: bind.as_ref().map(|b| self.bind(&b.node)),
                    span: *span,
                }
            }
            Stmt::Destroy { what, span } => St::Destroy {
                what: self.expr(what),
                span: *span,
            },
            Stmt::Let { name, value, .. } => {
                let value = self.expr(value);
                St::Let {
                    slot: self.bind(&name.node),
                    value,
                }
            }
            Stmt::Rank { order, .. } => St::Rank {
                order: self.order_id(order),
            },
            Stmt::Transfer { amount, from, to, span } => St::Transfer {
                amount: amount.as_ref().map(|a| self.expr(a)),
                from: self.target(from),
                to: self.target(to),
                span: *span,
            },
            Stmt::Raise { trigger, args, span } => St::Raise {
                trigger: match self.d.lookup(&trigger.node) {
                    Some(Sym::Trigger(i)) => i,
                    _ => 0,
                },
                args: args.iter().map(|a| self.expr(a)).collect(),
                span: *span,
            },
            Stmt::Begin {
                effect,
                target,
                count,
                at,
                span,
            } => {
                let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().unwrap_or(0);
                let at = match at {
                    CountAt::Place(who, o) => CountEx::Place(self.expr(who), self.order_id(o)),
                    CountAt::TurnStart(who) => CountEx::TurnStart(self.expr(who)),
                    CountAt::TurnEnd(who) => CountEx::TurnEnd(self.expr(who)),
                    CountAt::LevelStart(l) => CountEx::LevelStart(level(l)),
                    CountAt::LevelEnd(l) => CountEx::LevelEnd(level(l)),
                };
                St::Begin {
                    effect: self.field_id(&effect.node),
                    target: self.expr(target),
                    count: self.expr(count),
                    at,
                    span: *span,
                }
            }
            Stmt::Stop { effect, target, .. } => St::Stop {
                effect: self.field_id(&effect.node),
                target: self.expr(target),
            },
            Stmt::Place { who, to, order, span } => St::Place {
                who: self.expr(who),
                to: match to {
                    PlaceTo::First => PlaceAt::First,
                    PlaceTo::Last => PlaceAt::Last,
                    PlaceTo::Before(x) => PlaceAt::Before(self.expr(x)),
                    PlaceTo::After(x) => PlaceAt::After(self.expr(x)),
                },
                order: self.order_id(order),
                span: *span,
            },
            Stmt::Do { routine, args, span } => St::Do {
                hook: match self.d.lookup(&routine.node) {
                    Some(Sym::Routine(i)) => self.p.routines.get(i as usize).copied().unwrap_or(0),
                    _ => 0,
                },
                args: args.iter().map(|a| self.expr(a)).collect(),
                span: *span,
            },
            Stmt::React { actor, body, .. } => St::React {
                actor: self.expr(actor),
                body: self.block(body),
            },
            Stmt::Elapse { amount, unit, span } => St::Elapse {
                amount: self.expr(amount),
                unit: self.d.unit(&unit.node).unwrap_or(0),
                span: *span,
            },
        }
    }

    fn expr(&mut self, e: &Expr) -> Ex {
        match &e.node {
            ExprKind::Int(i) => Ex::Int(*i),
            ExprKind::Bool(b) => Ex::Int(*b as i64),
            ExprKind::None => Ex::Int(NONE),
            ExprKind::Dice(d) => {
                self.p.dice.push((*d, e.span));
                Ex::Dice((self.p.dice.len() - 1) as DiceId)
            }
            ExprKind::Name(n) => match self.local(n) {
                Some(slot) => Ex::Local(slot),
                None => match self.d.lookup(n) {
                    Some(Sym::Param(i)) => Ex::Param(i),
                    Some(Sym::Field(f, _)) => Ex::Field(Box::new(Ex::Int(TABLE as i64)), f, e.span),
                    Some(Sym::Side(i)) => Ex::Int(i as i64),
                    // A declared entity by name.
                    _ => Ex::Int(
                        self.d
                            .character_names
                            .iter()
                            .position(|c| c == n)
                            .map_or(0, |i| i as i64),
                    ),
                },
            },
            ExprKind::Field(base, f) => {
                if let ExprKind::Name(n) = &base.node
                    && self.local(n).is_none()
                    && let Some(l) = self.d.level_names.get(n)
                {
                    return Ex::LevelNumber(*l);
                }
                let b = Box::new(self.expr(base));
                if f.node == "side" {
                    return Ex::SideOf(b);
                }
                let id = self.field_at(f);
                let field = Ex::Field(b, id, e.span);
                // An effect's field counts its active instances: it holds while there is one.
                if self
                    .p
                    .fields
                    .get(id as usize)
                    .is_some_and(|d| d.kind == FieldKind::Effect)
                {
                    return Ex::Bin(ast::BinOp::Gt, Box::new(field), Box::new(Ex::Int(0)), e.span);
                }
                field
            }
            ExprKind::If(c, a, b) => Ex::If(Box::new(self.expr(c)), Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Is(base, name) => {
                let m = match self.d.lookup(&name.node) {
                    Some(Sym::Tag(i)) => Member::Tag(i),
                    Some(Sym::Side(i)) => Member::Side(i),
                    _ => Member::Tag(u16::MAX),
                };
                Ex::Is(Box::new(self.expr(base)), m)
            }
            ExprKind::Unary(UnOp::Neg, x) => Ex::Neg(Box::new(self.expr(x)), e.span),
            ExprKind::Unary(UnOp::Not, x) => Ex::Not(Box::new(self.expr(x))),
            ExprKind::Binary(op, l, r) => Ex::Bin(*op, Box::new(self.expr(l)), Box::new(self.expr(r)), e.span),
            // `below(c, ORDER)` and `position(c, ORDER)`: a character and a kept order.
            ExprKind::Call(name, args) if crate::check::ORDER_QUERIES.contains(&name.node.as_str()) => {
                let order = match args.get(1).map(|a| &a.node) {
                    Some(ExprKind::Name(o)) => match self.d.lookup(o) {
                        Some(Sym::Order(i)) => i,
                        _ => 0,
                    },
                    _ => 0,
                };
                let who = Box::new(args.first().map(|a| self.expr(a)).unwrap_or(Ex::Int(0)));
                match name.node.as_str() {
                    "below" => Ex::Below(who, order),
                    "next" => Ex::Next(who, order, true),
                    "previous" => Ex::Next(who, order, false),
                    _ => Ex::Position(who, order),
                }
            }
            ExprKind::Call(name, args) if matches!(self.d.lookup(&name.node), Some(Sym::Param(_))) => {
                let i = match self.d.lookup(&name.node) {
                    Some(Sym::Param(i)) => i,
                    _ => 0,
                };
                Ex::ParamCall(i, args.iter().map(|a| self.expr(a)).collect())
            }
            ExprKind::Call(name, args) => {
                let f = match name.node.as_str() {
                    "highest" => Func::Highest,
                    "lowest" => Func::Lowest,
                    _ => Func::Abs,
                };
                Ex::Call(f, args.iter().map(|a| self.expr(a)).collect(), e.span)
            }
            ExprKind::Quant {
                quant,
                var,
                coll,
                filter,
                by,
                body,
            } => {
                let slot = self.bind(&var.node);
                let filter = filter.as_ref().map(|f| Box::new(self.expr(f)));
                let body = body.as_ref().map(|b| Box::new(self.expr(b)));
                self.scopes.pop();
                Ex::Quant {
                    quant: *quant,
                    var: slot,
                    coll: self.coll(coll),
                    filter,
                    by: by.as_ref().map(|o| self.order_id(o)),
                    body,
                }
            }
        }
    }
}
