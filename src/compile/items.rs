//! Lowering top-level items: fields and their defaults, entities, actions, routines and hooks,
//! orders, policies, `setup` and `play`.

use super::Lower;
use crate::check::Sym;
use crate::compile::ir::*;
use crate::syntax::ast::{self, Expr, HookOn, Item};

impl Lower<'_> {
    /// One top-level item. A dispatch: each arm is one call, a short loop, or one line.
    pub(super) fn item(&mut self, item: &Item) {
        match item {
            // Field declarations: `field_decl` takes each apart.
            Item::Stat {
                name: _,
                ty: _,
                decimals: _,
                default: _,
            }
            | Item::Global {
                name: _,
                ty: _,
                decimals: _,
                default: _,
                min: _,
                max: _,
            }
            | Item::Resource {
                name: _,
                owner: _,
                decimals: _,
                min: _,
                max: _,
                default: _,
            }
            | Item::Flag {
                name: _,
                default: _,
                per: _,
            } => self.field_decl(item, None),
            Item::Thing {
                name,
                // A collection name, resolved by the checker (`Sym::Plural`).
                plural: _,
                fields,
                stands_for,
            } => {
                let t = self.d.thing(&name.node);
                for f in fields {
                    self.field_decl(f, t);
                }
                if let (Some(t), Some(f)) = (t, stands_for) {
                    let field = self.d.field_of(t, &f.node).map(|(i, _)| i);
                    if let Some(slot) = self.p.stands_for.get_mut(t as usize) {
                        *slot = field;
                    }
                }
            }
            Item::Side(_, fields) => {
                for f in fields {
                    self.field_decl(f, Some(crate::check::SIDE));
                }
            }
            Item::Instance { ty, name, fields } => self.instance(ty, name, fields),
            Item::Action(a) => self.action(a),
            Item::Routine {
                name,
                params,
                gives: _,
                body,
            } => self.routine(name, params, body),
            Item::Hook(h) => self.hook(h),
            Item::Measure(m) => self.hook(&m.hook()),
            Item::Order(o) => self.order(o),
            Item::Policy { name, prefs } => self.policy(name, prefs),
            Item::DefaultPolicy(name) => self.default_policy = Some(name.node.clone()),
            Item::Setup(b) => {
                let body = self.block(b);
                self.p.setup.stmts.extend(body.stmts);
            }
            Item::Play(b) => {
                let body = self.block(b);
                self.p.play.stmts.extend(body.stmts);
            }
            Item::Character(ch) => self.character(ch),
            Item::Forbid { name, who, rule } => self.forbid(name, who.as_ref(), rule),
            Item::Attempt(a) => self.attempt(a),
            _ => {}
        }
    }

    /// `TYPE NAME { field = value }`: an entity of a thing, declared in an encounter.
    fn instance(&mut self, ty: &ast::Ident, name: &ast::Ident, fields: &[(ast::Ident, Expr)]) {
        let fields = self.given(fields);
        self.p.characters.push(CharacterDef {
            name: name.node.clone(),
            ty: self.thing_id(ty),
            side: None,
            tags: Vec::new(),
            fields,
            group: None,
            absent: false,
        });
    }

    /// An action: its actor's slot, costs, `when` and body, with the frame of slots it binds.
    fn action(&mut self, a: &ast::ActionDecl) {
        let ast::ActionDecl {
            name,
            actor,
            kinds,
            costs,
            when,
            body,
        } = a;
        let lo = self.max_locals as Slot;
        let actor = self.bind(&actor.node);
        let costs = costs
            .iter()
            .map(|ast::Cost { amount, resource }| (self.expr(amount), self.field_id(&resource.node)))
            .collect();
        let when = when.as_ref().map(|w| self.expr(w));
        let body = self.block(body);
        self.scopes.pop();
        let label = self.label(&name.node);
        let kinds = kinds.iter().filter_map(|k| self.d.kind(&k.node)).collect();
        self.p.actions.push(ActionDef {
            name: name.node.clone(),
            actor,
            kinds,
            costs,
            when,
            body,
            label,
            frame: (lo, self.max_locals as Slot),
        });
    }

    /// A `forbid` line, kept with the others of its name.
    fn forbid(&mut self, name: &ast::Ident, who: Option<&ast::Ident>, rule: &ast::Refusal) {
        let option = OptionKey::Named(self.d.option_names.get(&name.node).copied().unwrap_or(0));
        let slot = who.map(|w| self.bind(&w.node));
        let def = self.refusals(std::slice::from_ref(rule)).pop();
        if slot.is_some() {
            self.scopes.pop();
        }
        let k = self.attempt_index(option);
        if let Some(def) = def {
            self.p.forbids[k].rules.push((slot, def));
        }
    }

    /// The index of an attempt's name among `attempts` (its `forbid` lines, its `attempt`).
    fn attempt_index(&mut self, option: OptionKey) -> usize {
        match self.p.attempts.iter().position(|a| *a == option) {
            Some(k) => k,
            None => {
                self.p.attempts.push(option);
                self.p.forbids.push(ForbidDef { rules: Vec::new() });
                self.p.attempt_defs.push(None);
                self.p.attempts.len() - 1
            }
        }
    }

    /// `attempt NAME [(c)] [at ...] [when C] { ... }`: a hook binding who attempts and whose turn
    /// it is (its filter is the `when`), and the moments it may be made at.
    fn attempt(&mut self, a: &ast::AttemptDecl) {
        let ast::AttemptDecl {
            name,
            who,
            at,
            when,
            body,
            span: _,
        } = a;
        let option = OptionKey::Named(self.d.option_names.get(&name.node).copied().unwrap_or(0));
        let k = self.attempt_index(option);
        let turn_var = at.iter().find_map(|m| match &m.node {
            ast::Moment::BeforeTurn(Some(x)) | ast::Moment::AfterTurn(Some(x)) | ast::Moment::Decision(_, Some(x)) => {
                Some(x.clone())
            }
            _ => None,
        });
        let vars: Vec<ast::Ident> = who.iter().cloned().chain(turn_var.iter().cloned()).collect();
        let def = self.callable(&vars, when.as_ref(), body);
        let (who_slot, turn) = match (who, &turn_var) {
            (Some(_), Some(_)) => (def.vars.first().copied(), def.vars.get(1).copied()),
            (Some(_), None) => (def.vars.first().copied(), None),
            (None, Some(_)) => (None, def.vars.first().copied()),
            (None, None) => (None, None),
        };
        let hook = self.p.hooks.len() as HookId;
        self.p.hooks.push(def);
        let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().unwrap_or(0);
        let moments = at
            .iter()
            .map(|m| match &m.node {
                ast::Moment::BeforeTurn(_) => MomentDef::BeforeTurn,
                ast::Moment::AfterTurn(_) => MomentDef::AfterTurn,
                ast::Moment::LevelStart(l) => MomentDef::LevelStart(level(l)),
                ast::Moment::LevelEnd(l) => MomentDef::LevelEnd(level(l)),
                ast::Moment::Decision(d, _) => {
                    MomentDef::Decision(self.d.decision_names.get(&d.node).copied().unwrap_or(0))
                }
            })
            .collect();
        let texts: Vec<String> = at.iter().map(|m| moment_text(&m.node)).collect();
        let windows = match texts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => texts.concat(),
        };
        if let Some(slot) = self.p.attempt_defs.get_mut(k) {
            *slot = Some(AttemptDef {
                hook,
                who: who_slot,
                turn,
                at: moments,
                windows,
            });
        }
    }

    /// A routine: the hook reserved for it by `compile`, so `do` may come before it.
    fn routine(&mut self, name: &ast::Ident, params: &[ast::Typed], body: &ast::Block) {
        if let Some(Sym::Routine(i)) = self.d.lookup(&name.node) {
            let id = self.p.routines[i as usize];
            let vars: Vec<ast::Ident> = params.iter().map(|p| p.name.clone()).collect();
            let def = self.callable(&vars, None, body);
            self.p.hooks[id as usize] = def;
        }
    }

    /// A hook, and where it answers: a turn's start or end, a level's, or a trigger.
    fn hook(&mut self, h: &ast::HookDecl) {
        let mut def = self.callable(&h.vars, h.filter.as_ref(), &h.body);
        def.ty = h.turn_ty.as_ref().map_or(CHARACTER, |t| self.thing_id(t));
        let id = self.p.hooks.len() as HookId;
        self.p.hooks.push(def);
        if self.moment_hook(&h.on, id) {
            return;
        }
        let level = |l: &ast::Ident| self.d.level_names.get(&l.node).copied().map(usize::from);
        match &h.on {
            HookOn::TurnStart => self.p.turn_start.push(id),
            HookOn::TurnEnd => self.p.turn_end.push(id),
            HookOn::TurnAfter => self.p.turn_after.push(id),
            HookOn::Join => self.p.join_hooks.push(id),
            HookOn::Leave => self.p.leave_hooks.push(id),
            HookOn::EncounterStart => self.p.encounter_start.push(id),
            HookOn::EncounterEnd => self.p.encounter_end.push(id),
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
            // Filed by `moment_hook`.
            HookOn::TurnBefore
            | HookOn::ActionBefore(_)
            | HookOn::ActionAfter(_)
            | HookOn::EffectStart(_)
            | HookOn::EffectEnd(_) => {}
        }
    }

    /// An order: its variable's slot and its keys.
    fn order(&mut self, o: &ast::OrderDecl) {
        let var = self.bind(&o.var.node);
        let keys = o
            .keys
            .iter()
            .map(|k| {
                let ast::OrderKey {
                    value,
                    roll,
                    descending,
                    until_settled,
                    at_most,
                    when,
                    chosen,
                    span,
                } = k;
                self.in_tied = true;
                let when = when.as_ref().map(|w| self.expr(w));
                let decision = self.d.decision_names.get(&o.name.node).copied().unwrap_or(0);
                let chosen = chosen
                    .as_ref()
                    .map(|who| (self.chooser(who), decision, self.prefs_at(&o.name)));
                self.in_tied = false;
                KeyDef {
                    value: self.expr(value),
                    roll: *roll,
                    descending: *descending,
                    until_settled: *until_settled,
                    at_most: at_most.as_ref().map(|n| self.expr(n)),
                    when,
                    chosen,
                    span: *span,
                }
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

    /// A policy: for each decision, the options it prefers, in order.
    fn policy(&mut self, name: &ast::Ident, prefs: &[(ast::Ident, Vec<ast::Pref>)]) {
        let mut table = vec![Vec::new(); self.d.decisions.len()];
        for (decision, options) in prefs {
            let Some(di) = self.d.decision_names.get(&decision.node) else {
                continue;
            };
            // Preferences with conditions are compiled where the decision is made (`prefs_at`).
            table[*di as usize] = options
                .iter()
                .filter(|o| o.cond.is_none())
                .filter_map(|o| self.option_key(&o.name.node))
                .collect();
        }
        self.p.policies.push(PolicyDef {
            name: name.node.clone(),
            prefs: table,
        });
    }

    /// What a policy's preference names: an option, an action or a declared character.
    pub(super) fn option_key(&self, name: &str) -> Option<OptionKey> {
        match self.d.option_names.get(name) {
            Some(i) => Some(OptionKey::Named(*i)),
            None => match self.d.lookup(name) {
                Some(Sym::Action(a)) => Some(OptionKey::Action(a)),
                _ => self.d.entity(name).map(|i| OptionKey::Character(i as EntityId)),
            },
        }
    }

    /// The preferences of every policy that has a condition for `decision`, compiled here, where
    /// it is made: conditions read the names in scope here.
    pub(super) fn prefs_at(&mut self, name: &ast::Ident) -> Vec<PolicyPrefs> {
        let site = std::mem::replace(&mut self.site, name.span);
        let prefs = self.prefs_here(&name.node);
        self.site = site;
        prefs
    }

    fn prefs_here(&mut self, decision: &str) -> Vec<PolicyPrefs> {
        let d = self.d;
        let mut out = Vec::new();
        for (pi, policy) in d.policy_prefs.iter().enumerate() {
            for (dn, options) in policy.iter() {
                if dn.node != decision || options.iter().all(|o| o.cond.is_none()) {
                    continue;
                }
                let prefs = options
                    .iter()
                    .filter_map(|o| match &o.cond {
                        Some((ast::PrefCond::Where, cond)) => {
                            let slot = self.bind(&o.name.node);
                            let cond = self.expr(cond);
                            self.scopes.pop();
                            Some(PrefDef {
                                pick: Pick::Candidate(slot),
                                cond: Some(cond),
                            })
                        }
                        other => self.option_key(&o.name.node).map(|k| PrefDef {
                            pick: Pick::Option(k),
                            cond: other.as_ref().map(|(_, c)| self.expr(c)),
                        }),
                    })
                    .collect();
                out.push(PolicyPrefs {
                    policy: pi as PolicyId,
                    prefs,
                });
            }
        }
        out
    }

    /// `character NAME { ... }`: its side, tags and fields.
    fn character(&mut self, ch: &ast::CharacterDecl) {
        // One side at most (the checker refuses a second).
        let side = ch.sides.first().and_then(|s| match self.d.lookup(&s.node) {
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
        let members = ch.members();
        // A group's members are declared one after the other: their ids follow the first's.
        let group = ch
            .group
            .is_some()
            .then_some((self.p.characters.len() as EntityId, members.len() as u32));
        for m in members {
            self.p.characters.push(CharacterDef {
                ty: CHARACTER,
                name: m.node,
                side,
                tags: Vec::clone(&tags),
                // Each member works out its own fields (a rolled one rolls for each).
                fields: fields.clone(),
                absent: !ch.absent.is_empty(),
                group,
            });
        }
    }

    /// A field declaration's default and limits (`owner`: the thing declaring it, if any).
    pub(super) fn field_decl(&mut self, item: &Item, owner_ty: Option<u16>) {
        let (name, default, min, max) = match item {
            // The type an entity-valued field holds and its decimals are in the field table
            // (`Decls::field_refers`, `field_decimals`), built from the same declarations.
            Item::Stat {
                name,
                ty: _,
                decimals: _,
                default,
            } => (name, default.as_ref(), None, None),
            Item::Global {
                name,
                ty: _,
                decimals: _,
                default,
                min,
                max,
            } => (name, default.as_deref(), min.as_deref(), max.as_deref()),
            Item::Resource {
                name,
                owner: Some(owner),
                decimals: _,
                min,
                max,
                default,
            } => {
                // `resource NAME(c)`: limits (and the default) worked out for the owner, `c`, at
                // each change (as it starts).
                let f = self.thing_field(owner_ty, &name.node) as usize;
                let slot = self.bind(&owner.node);
                self.p.fields[f].min = min.as_deref().map(|e| self.expr(e));
                self.p.fields[f].max = max.as_deref().map(|e| self.expr(e));
                self.p.fields[f].default = default.as_deref().map(|e| self.expr(e));
                self.scopes.pop();
                self.p.fields[f].owned = Some((slot, name.span));
                return;
            }
            Item::Resource {
                name,
                owner: None,
                decimals: _,
                min,
                max,
                default,
            } => (name, default.as_deref(), min.as_deref(), max.as_deref()),
            Item::Flag { name, per, default } => {
                let f = self.thing_field(owner_ty, &name.node);
                self.p.fields[f as usize].default = default.as_ref().map(|d| self.expr(d));
                for per in per {
                    let l = match per {
                        ast::Per::AnyTurn(_) => {
                            self.p.any_turn_clears.push(f);
                            continue;
                        }
                        ast::Per::Level(l) => l,
                    };
                    if let Some(l) = self.d.level_names.get(&l.node) {
                        self.p.levels[*l as usize].clears.push(f);
                        self.p.fields[f as usize].per.push(*l);
                    } else if l.node == "turn" {
                        // No level is named `turn`: the flag is its owner's, turn by turn.
                        self.p.turn_clears.push(f);
                    }
                }
                return;
            }
            _ => return,
        };
        let f = self.thing_field(owner_ty, &name.node) as usize;
        // A later file's start for a ruleset's global: the start alone changes.
        if self.d.global_starts.contains_key(&name.span) {
            self.p.fields[f].default = default.map(|e| self.expr(e));
            return;
        }
        let refers = self.p.fields[f].refers;
        self.p.fields[f].default = match default {
            Some(e) => Some(self.expr(e)),
            // An entity-valued field starts at `none`.
            None if refers.is_some() => Some(Ex::Int(NONE)),
            None => None,
        };
        self.p.fields[f].min = min.map(|e| self.expr(e));
        self.p.fields[f].max = max.map(|e| self.expr(e));
    }

    /// Lowers a hook or a routine: its variables, filter and body, with the frame of slots it binds.
    pub(super) fn callable(&mut self, vars: &[ast::Ident], filter: Option<&Expr>, body: &ast::Block) -> HookDef {
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
}

/// A moment as written in an `attempt`'s `at`, for the reason of a refusal.
fn moment_text(m: &ast::Moment) -> String {
    match m {
        ast::Moment::BeforeTurn(_) => "before a turn".to_string(),
        ast::Moment::AfterTurn(_) => "after a turn".to_string(),
        ast::Moment::LevelStart(l) => format!("at the start of {}", l.node),
        ast::Moment::LevelEnd(l) => format!("at the end of {}", l.node),
        ast::Moment::Decision(d, _) => format!("while {} is asked", d.node),
    }
}
