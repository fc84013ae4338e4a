//! Top-level declarations: ruleset, stats, resources, actions, orders, characters, hooks...

use super::Pair;

use super::{Builder, Parts, R, Rule, internal, is_keyword, last_inner, next, parts, too_large};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Builder {
    pub(super) fn item(&self, pair: Pair) -> R<Item> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut it = parts(pair);
        // One arm per declaration: each is a one-line call or a one-line constructor.
        Ok(match rule {
            Rule::ruleset_decl => Item::Ruleset(self.string(next(&mut it, span)?)),
            Rule::encounter_decl => Item::Encounter {
                name: self.string(next(&mut it, span)?),
                uses: it.next().map(|u| self.string(u)),
            },
            Rule::param_decl => self.param_decl(it, span)?,
            Rule::stat_decl => self.stat_decl(it, span)?,
            Rule::thing_decl => self.thing_decl(it, span)?,
            Rule::instance_decl => self.instance_decl(it, span)?,
            Rule::resource_decl => self.resource_decl(it, span)?,
            Rule::flag_decl => self.flag_decl(it, span)?,
            Rule::side_decl => Item::Side(
                self.ident_list(next(&mut it, span)?),
                it.map(|p| self.item(p)).collect::<R<Vec<_>>>()?,
            ),
            Rule::tag_decl => Item::Tag(not_absent(self.ident_list(next(&mut it, span)?), false)?),
            Rule::action_decl => self.action_decl(it, span)?,
            Rule::order_decl => self.order_decl(it, span)?,
            Rule::policy_decl => self.policy_decl(it, span)?,
            Rule::default_policy => Item::DefaultPolicy(self.ident(next(&mut it, span)?)),
            Rule::setup_decl => Item::Setup(self.block(next(&mut it, span)?)?),
            Rule::play_decl => Item::Play(self.block(next(&mut it, span)?)?),
            Rule::character_decl => self.character_decl(it, span)?,
            Rule::unit_decl => self.unit_decl(it, span)?,
            Rule::role_decl => Item::Role(self.ident_list(next(&mut it, span)?)),
            Rule::effect_decl => Item::Effect(self.ident_list(next(&mut it, span)?)),
            Rule::routine_decl => self.routine_decl(it, span)?,
            Rule::global_decl => self.global_decl(it, span)?,
            Rule::trigger_decl => self.trigger_decl(it, span)?,
            Rule::hook_decl => self.hook_decl(it, span)?,
            Rule::measure_decl => self.measure_decl(it, span)?,
            Rule::kind_decl => Item::Kind(self.ident_list(next(&mut it, span)?)),
            Rule::forbid_decl => self.forbid_decl(it, span)?,
            Rule::attempt_decl => self.attempt_decl(it, span)?,
            _ => return Err(internal(span, rule)),
        })
    }

    fn param_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let mut args = Vec::new();
        while it.peek().is_some_and(|p| p.as_rule() == Rule::param_arg) {
            let t = self.typed(next(&mut it, span)?)?;
            args.push((t.name, t.ty));
        }
        Ok(Item::Param {
            name,
            args,
            value: self.expr(next(&mut it, span)?)?,
        })
    }

    fn forbid_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let mut who = None;
        let mut cond = None;
        loop {
            let p = next(&mut it, span)?;
            match p.as_rule() {
                Rule::ident => who = Some(self.ident(p)),
                Rule::expr => cond = Some(self.expr(p)?),
                _ => {
                    let cond = cond.unwrap_or(Expr {
                        node: ExprKind::Bool(true),
                        span: name.span,
                    });
                    let rule = self.reason(cond, p, span)?;
                    return Ok(Item::Forbid {
                        name,
                        who,
                        rule: Box::new(rule),
                    });
                }
            }
        }
    }

    fn attempt_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let (mut who, mut at, mut when, mut body) = (None, Vec::new(), None, Block::default());
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::ident => who = Some(self.ident(p)),
                Rule::attempt_at => {
                    for m in parts(p) {
                        at.push(self.moment(m)?);
                    }
                }
                Rule::attempt_when => when = Some(self.expr(last_inner(p, pspan)?)?),
                Rule::block => body = self.block(p)?,
                r => return Err(internal(pspan, r)),
            }
        }
        Ok(Item::Attempt(Box::new(AttemptDecl {
            name,
            who,
            at,
            when,
            body,
            span,
        })))
    }

    /// One moment of an attempt's `at`.
    fn moment(&self, m: Pair) -> R<Spanned<Moment>> {
        let mspan = self.span(&m);
        let inner = last_inner(m, mspan)?;
        let mut wi = parts(inner.clone());
        let node = match inner.as_rule() {
            Rule::moment_turn => {
                let before = next(&mut wi, mspan)?.as_rule() == Rule::moment_before;
                let var = wi.next().map(|p| self.ident(p));
                if before {
                    Moment::BeforeTurn(var)
                } else {
                    Moment::AfterTurn(var)
                }
            }
            Rule::moment_edge => {
                let start = next(&mut wi, mspan)?.as_rule() == Rule::hook_start;
                let level = self.ident(next(&mut wi, mspan)?);
                if start {
                    Moment::LevelStart(level)
                } else {
                    Moment::LevelEnd(level)
                }
            }
            _ => {
                let name = self.ident(next(&mut wi, mspan)?);
                Moment::Decision(name, wi.next().map(|p| self.ident(p)))
            }
        };
        Ok(Spanned::new(node, mspan))
    }

    fn stat_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let c = self.clauses(it)?;
        Ok(Item::Stat {
            name,
            ty: c.ty.map(|t| t.0),
            decimals: c.decimals.map_or(0, |d| d.0),
            default: c.default.map(|d| d.0),
        })
    }

    /// The clauses of a stat, resource, flag or global after its name, in any order, each given
    /// at most once (the grammar says which a declaration may have).
    fn clauses(&self, it: Parts<'_>) -> R<Clauses> {
        let mut c = Clauses::default();
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::of_type | Rule::of_field_type => {
                    // `side` and `role` (keywords) are kept as the type's name.
                    let t = next(&mut p.into_inner(), pspan)?;
                    once(&mut c.ty, self.ident(t), "`: TYPE`", pspan)?;
                }
                Rule::decimals => once(&mut c.decimals, self.decimals(p)?, "`decimals`", pspan)?,
                Rule::res_default | Rule::flag_default => {
                    once(&mut c.default, self.expr(last_inner(p, pspan)?)?, "`default`", pspan)?
                }
                Rule::res_min => once(&mut c.min, self.expr(last_inner(p, pspan)?)?, "`min`", pspan)?,
                Rule::res_max => once(&mut c.max, self.expr(last_inner(p, pspan)?)?, "`max`", pspan)?,
                Rule::flag_per => {
                    let levels = p.into_inner().filter(|q| q.as_rule() == Rule::per_level);
                    let per = levels.map(|q| self.per_level(q)).collect::<R<Vec<_>>>()?;
                    once(&mut c.per, per, "`per`", pspan)?
                }
                r => return Err(internal(pspan, r)),
            }
        }
        Ok(c)
    }

    /// One level of `per LEVEL, ...`: a level's name, or `any turn`.
    fn per_level(&self, q: Pair) -> R<Per> {
        let qspan = self.span(&q);
        let inner = next(&mut q.into_inner(), qspan)?;
        Ok(match inner.as_rule() {
            Rule::per_any_turn => Per::AnyTurn(qspan),
            _ => Per::Level(self.ident(inner)),
        })
    }

    /// `decimals N`: N from 1 to 6 (`syntax::number` otherwise).
    fn decimals(&self, d: Pair) -> R<u8> {
        let dspan = self.span(&d);
        let n = last_inner(d, dspan)?;
        match n.as_str().parse::<u8>() {
            Ok(k) if (1..=crate::limits::MAX_DECIMALS).contains(&k) => Ok(k),
            _ => Err(
                Diag::new("syntax::number", format!("`decimals {}` is out of range", n.as_str()))
                    .label(dspan, "here")
                    .help(format!(
                        "a number keeps 1 to {} decimals; leave `decimals` out for whole numbers",
                        crate::limits::MAX_DECIMALS
                    )),
            ),
        }
    }

    fn thing_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let plural = self.ident(next(&mut it, span)?);
        let stands_for = it.next_if(|p| p.as_rule() == Rule::ident).map(|p| self.ident(p));
        let fields = it.map(|p| self.item(p)).collect::<R<Vec<_>>>()?;
        Ok(Item::Thing {
            name,
            plural,
            stands_for,
            fields,
        })
    }

    fn instance_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let ty = self.ident(next(&mut it, span)?);
        let name = self.name(next(&mut it, span)?);
        let fields = it.map(|p| self.field_value(p)).collect::<R<Vec<_>>>()?;
        Ok(Item::Instance { ty, name, fields })
    }

    fn resource_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let owner = match it.next_if(|p| p.as_rule() == Rule::res_owner) {
            Some(p) => Some(self.ident(last_inner(p, span)?)),
            None => None,
        };
        let c = self.clauses(it)?;
        Ok(Item::Resource {
            name,
            owner,
            decimals: c.decimals.map_or(0, |d| d.0),
            min: c.min.map(|m| Box::new(m.0)),
            max: c.max.map(|m| Box::new(m.0)),
            default: c.default.map(|d| Box::new(d.0)),
        })
    }

    fn flag_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let c = self.clauses(it)?;
        Ok(Item::Flag {
            name,
            default: c.default.map(|d| d.0),
            per: c.per.map(|p| p.0).unwrap_or_default(),
        })
    }

    fn action_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let actor = self.ident(next(&mut it, span)?);
        let mut decl = ActionDecl {
            name,
            actor,
            kinds: Vec::new(),
            costs: Vec::new(),
            when: None,
            body: Block { stmts: vec![], span },
        };
        let (mut costs, mut when) = (None, None);
        for p in it {
            let pspan = self.span(&p);
            match p.as_rule() {
                Rule::costs => {
                    // Every cost in one list: a second `costs` would read as more of them, or as
                    // replacing them.
                    once(&mut costs, (), "`costs`", pspan)
                        .map_err(|d| d.help("list every cost after one `costs`: `costs 1 ap, 2 mp`"))?;
                    for c in p.into_inner().filter(|p| p.as_rule() == Rule::cost) {
                        let cspan = self.span(&c);
                        let mut ci = c.into_inner();
                        let amount = self.expr(next(&mut ci, cspan)?)?;
                        let resource = self.ident(next(&mut ci, cspan)?);
                        decl.costs.push(Cost { amount, resource });
                    }
                }
                Rule::kinds => {
                    let pspan = self.span(&p);
                    let list = last_inner(p, pspan)?;
                    decl.kinds = self.ident_list(list);
                }
                Rule::block => decl.body = self.block(p)?,
                _ => once(&mut when, self.expr(last_inner(p, pspan)?)?, "`when`", pspan)
                    .map_err(|d| d.help("keep one `when`: join the conditions with `and` (`when A and B`)"))?,
            }
        }
        decl.when = when.map(|w| w.0);
        Ok(Item::Action(Box::new(decl)))
    }

    fn order_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let var_pair = next(&mut it, span)?;
        let Typed { name: var, ty } = if var_pair.as_rule() == Rule::order_side {
            // `s: side`: the type's name is the keyword.
            let mut inner = var_pair.into_inner();
            let var = self.ident(next(&mut inner, span)?);
            Typed {
                name: var,
                ty: Some(self.ident(next(&mut inner, span)?)),
            }
        } else {
            self.typed(var_pair)?
        };
        let mut keys = Vec::new();
        for k in it {
            let kspan = self.span(&k);
            let Some(inner) = k.into_inner().next() else { continue };
            if inner.as_rule() == Rule::chosen_key {
                keys.push(self.chosen_key(inner, kspan)?);
                continue;
            }
            let roll = inner.as_rule() == Rule::roll_key;
            let mut ki = inner.into_inner().filter(|p| !is_keyword(p.as_rule()));
            let value = self.expr(next(&mut ki, kspan)?)?;
            let dir = next(&mut ki, kspan)?;
            let descending = dir.as_str().trim() == "desc";
            let (mut until_settled, mut at_most, mut when) = (false, None, None);
            for part in ki {
                let pspan = self.span(&part);
                match part.as_rule() {
                    Rule::settled => {
                        until_settled = true;
                        if let Some(most) = part.into_inner().find(|p| p.as_rule() == Rule::settled_most) {
                            let mspan = self.span(&most);
                            at_most = Some(self.expr(last_inner(most, mspan)?)?);
                        }
                    }
                    _ => when = Some(self.expr(last_inner(part, pspan)?)?),
                }
            }
            keys.push(OrderKey {
                value,
                roll,
                descending,
                until_settled,
                at_most,
                when,
                chosen: None,
                span: kspan,
            });
        }
        Ok(Item::Order(OrderDecl { name, var, ty, keys }))
    }

    /// `chosen by WHO [when COND]`.
    fn chosen_key(&self, pair: Pair, span: Span) -> R<OrderKey> {
        let mut it = parts(pair);
        let who = self.expr(next(&mut it, span)?)?;
        let when = match it.next() {
            Some(w) => {
                let wspan = self.span(&w);
                Some(self.expr(last_inner(w, wspan)?)?)
            }
            None => None,
        };
        Ok(OrderKey {
            value: Spanned::new(ExprKind::Int(0), span),
            roll: false,
            descending: false,
            until_settled: false,
            at_most: None,
            when,
            chosen: Some(who),
            span,
        })
    }

    fn policy_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let mut prefs = Vec::new();
        for p in it {
            let pspan = self.span(&p);
            let mut pi = p.into_inner();
            let decision = self.ident(next(&mut pi, pspan)?);
            let mut options = Vec::new();
            for pref in pi {
                let fspan = self.span(&pref);
                let mut fi = pref.into_inner();
                let name = self.ident(next(&mut fi, fspan)?);
                let cond = match fi.next() {
                    Some(c) => {
                        let kind = if c.as_rule() == Rule::pref_where {
                            PrefCond::Where
                        } else {
                            PrefCond::When
                        };
                        let cspan = self.span(&c);
                        Some((kind, self.expr(last_inner(c, cspan)?)?))
                    }
                    None => None,
                };
                options.push(Pref { name, cond });
            }
            prefs.push((decision, options));
        }
        Ok(Item::Policy { name, prefs })
    }

    fn character_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let mut first = next(&mut it, span)?;
        let mut group = None;
        if first.as_rule() == Rule::char_group {
            let count = next(&mut first.into_inner(), span)?;
            // A count past any number is read as the largest, to be refused as too many.
            let n = count
                .as_str()
                .parse::<i64>()
                .unwrap_or(if count.as_str().starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                });
            group = Some(Box::new(Spanned::new(n, self.span(&count))));
            first = next(&mut it, span)?;
        }
        let name = self.name(first);
        let mut decl = CharacterDecl {
            name,
            group,
            sides: Vec::new(),
            tags: Vec::new(),
            fields: Vec::new(),
            absent: Vec::new(),
        };
        for p in it {
            let pspan = self.span(&p);
            let r = p.as_rule();
            let mut pi = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
            match r {
                Rule::char_side => decl.sides.push(self.ident(next(&mut pi, pspan)?)),
                Rule::char_tag => decl.tags.extend(not_absent(pi.map(|p| self.ident(p)).collect(), true)?),
                Rule::char_absent => decl.absent.push(pspan),
                _ => {
                    let f = self.ident(next(&mut pi, pspan)?);
                    let e = self.expr(next(&mut pi, pspan)?)?;
                    decl.fields.push((f, e));
                }
            }
        }
        Ok(Item::Character(decl))
    }

    fn unit_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let of = match it.next() {
            None => None,
            Some(n) => {
                let nspan = self.span(&n);
                let factor = n.as_str().parse::<i64>().map_err(|_| too_large(nspan))?;
                Some((factor, self.ident(next(&mut it, span)?)))
            }
        };
        Ok(Item::Unit { name, of })
    }

    fn routine_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let params = match it.peek() {
            Some(p) if p.as_rule() == Rule::typed_list => self.typed_list(next(&mut it, span)?)?,
            _ => Vec::new(),
        };
        let gives = self.routine_gives(&mut it);
        Ok(Item::Routine {
            name,
            params,
            gives,
            body: self.block(next(&mut it, span)?)?,
        })
    }

    fn global_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let c = self.clauses(it)?;
        Ok(Item::Global {
            name,
            ty: c.ty.map(|t| t.0),
            decimals: c.decimals.map_or(0, |d| d.0),
            default: c.default.map(|d| Box::new(d.0)),
            min: c.min.map(|m| Box::new(m.0)),
            max: c.max.map(|m| Box::new(m.0)),
        })
    }

    fn trigger_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        Ok(Item::Trigger {
            name,
            params: self.typed_list(next(&mut it, span)?)?,
        })
    }

    fn hook_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let (on, vars, turn_ty) = self.hook_point(next(&mut it, span)?)?;
        let mut filter = None;
        let mut body = Block::default();
        for p in it {
            match p.as_rule() {
                Rule::block => body = self.block(p)?,
                _ => filter = Some(self.expr(p)?),
            }
        }
        Ok(Item::Hook(Box::new(HookDecl {
            on,
            vars,
            turn_ty,
            filter,
            body,
            span,
        })))
    }

    /// Where a hook runs or a measure is taken: `start of`/`end of` a turn, a level or the
    /// encounter, or a trigger; with the variables bound there and a turn's type of entity.
    fn hook_point(&self, what: Pair) -> R<(HookOn, Vec<Ident>, Option<Ident>)> {
        let wspan = self.span(&what);
        if what.as_rule() != Rule::hook_edge {
            let mut wi = what.into_inner();
            let trigger = self.ident(next(&mut wi, wspan)?);
            let vars = self.ident_list(next(&mut wi, wspan)?);
            // `join(c)` and `leave(c)` are the moments a character comes into play or goes out.
            let on = match trigger.node.as_str() {
                "join" => HookOn::Join,
                "leave" => HookOn::Leave,
                _ => HookOn::Trigger(trigger),
            };
            return Ok((on, vars, None));
        }
        let mut wi = what.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let edge = next(&mut wi, wspan)?.as_rule();
        let start = edge == Rule::hook_start;
        if matches!(edge, Rule::hook_after | Rule::hook_before) {
            let target = next(&mut wi, wspan)?;
            let tspan = self.span(&target);
            if target.as_rule() == Rule::hook_action {
                let (sel, var) = self.hook_action(target)?;
                let on = if edge == Rule::hook_after {
                    HookOn::ActionAfter(sel)
                } else {
                    HookOn::ActionBefore(sel)
                };
                return Ok((on, vec![var], None));
            }
            let t = self.typed(last_inner(target, tspan)?)?;
            let on = if edge == Rule::hook_after {
                HookOn::TurnAfter
            } else {
                HookOn::TurnBefore
            };
            return Ok((on, vec![t.name], t.ty));
        }
        let target = next(&mut wi, wspan)?;
        if target.as_rule() == Rule::hook_effect {
            let tspan = self.span(&target);
            let mut ti = target.into_inner();
            let effect = self.ident(next(&mut ti, tspan)?);
            let var = self.ident(next(&mut ti, tspan)?);
            let on = if start {
                HookOn::EffectStart(effect)
            } else {
                HookOn::EffectEnd(effect)
            };
            return Ok((on, vec![var], None));
        }
        Ok(match target.as_rule() {
            Rule::hook_turn => {
                let tspan = self.span(&target);
                let t = self.typed(last_inner(target, tspan)?)?;
                let on = if start { HookOn::TurnStart } else { HookOn::TurnEnd };
                (on, vec![t.name], t.ty)
            }
            Rule::hook_encounter if start => (HookOn::EncounterStart, Vec::new(), None),
            Rule::hook_encounter => (HookOn::EncounterEnd, Vec::new(), None),
            _ => {
                let level = self.ident(target);
                let on = if start {
                    HookOn::LevelStart(level)
                } else {
                    HookOn::LevelEnd(level)
                };
                (on, Vec::new(), None)
            }
        })
    }

    /// `action(c)`, `action of kind K, ...(c)` or `NAME(c)` after `before`/`after`: which
    /// actions, and the variable bound to the actor.
    pub(super) fn hook_action(&self, pair: Pair) -> R<(ActionSel, Ident)> {
        let span = self.span(&pair);
        let mut any = false;
        let mut sel = None;
        let mut var = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_action => any = true,
                Rule::of_kind => sel = Some(self.of_kind(p)?),
                Rule::ident if !any && sel.is_none() => sel = Some(ActionSel::Named(self.ident(p))),
                Rule::ident => var = Some(self.ident(p)),
                _ => {}
            }
        }
        let var = var.ok_or_else(|| internal(span, Rule::hook_action))?;
        Ok((sel.unwrap_or(ActionSel::Any), var))
    }

    /// `of kind K, ...`: the actions of those kinds.
    pub(super) fn of_kind(&self, p: Pair) -> R<ActionSel> {
        let kspan = self.span(&p);
        let list = p.into_inner().find(|k| k.as_rule() == Rule::ident_list);
        let list = list.ok_or_else(|| internal(kspan, Rule::of_kind))?;
        Ok(ActionSel::Kinds(self.ident_list(list)))
    }

    fn measure_decl(&self, mut it: Parts<'_>, span: Span) -> R<Item> {
        let name = self.ident(next(&mut it, span)?);
        let value = self.expr(next(&mut it, span)?)?;
        let mut point = next(&mut it, span)?;
        let (mut each, mut each_presence) = (None, Presence::InPlay);
        if point.as_rule() == Rule::measure_each {
            let espan = self.span(&point);
            let mut ei = parts(point);
            let var = self.ident(next(&mut ei, espan)?);
            let coll = self.collection(next(&mut ei, espan)?)?;
            let mut ei = ei.peekable();
            if let Some(p) = ei.next_if(|p| p.as_rule() == Rule::presence) {
                each_presence = Self::presence(p);
            }
            let filter = ei.next().map(|p| self.expr(p)).transpose()?;
            each = Some((var, coll, filter));
            point = next(&mut it, span)?;
        }
        let (at, vars, turn_ty) = self.hook_point(point)?;
        Ok(Item::Measure(Box::new(MeasureDecl {
            name,
            value,
            each,
            each_presence,
            at,
            vars,
            turn_ty,
            span,
        })))
    }
}

/// Tags, none called `absent`: in a character, `absent` says it starts out of play (`{ tag big,
/// absent }`), so a tag of that name could not be given (and declaring one would silently put
/// such a character in play). `in_character`: the list is a character's `tag ...`.
fn not_absent(tags: Vec<Ident>, in_character: bool) -> R<Vec<Ident>> {
    let Some(t) = tags.iter().find(|t| t.node == "absent") else {
        return Ok(tags);
    };
    let d = Diag::new("syntax::keyword", "a tag cannot be called `absent`")
        .label(t.span, "`absent` says a character starts out of play");
    Err(if in_character {
        d.help("to have the character start out of play, write `absent` on its own, not after `tag`: `{ side foes, absent }`")
    } else {
        d.help(
            "in a character, `absent` after a tag list ends it (`{ tag big, absent }`): pick another name for the tag, \
             such as `absent_` or `missing`",
        )
    })
}

/// The clauses of a stat, resource, flag or global after its name, with where each was given.
#[derive(Default)]
struct Clauses {
    ty: Option<(Ident, Span)>,
    decimals: Option<(u8, Span)>,
    default: Option<(Expr, Span)>,
    min: Option<(Expr, Span)>,
    max: Option<(Expr, Span)>,
    per: Option<(Vec<Per>, Span)>,
}

/// A clause of a declaration (`word`, as written, at `span`), given once: a second would silently
/// replace the first.
pub(super) fn once<T>(slot: &mut Option<(T, Span)>, value: T, word: &str, span: Span) -> R<()> {
    if let Some((_, first)) = slot {
        return Err(Diag::new("syntax::parse", format!("{word} is given twice"))
            .label(span, "given again here")
            .label(*first, "first given here")
            .help(format!("keep one {word}")));
    }
    *slot = Some((value, span));
    Ok(())
}
