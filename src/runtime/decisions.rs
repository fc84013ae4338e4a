//! Decisions: `choose` (its options, the actions affordable now, performing the one picked),
//! `choose ... from` a collection, asking the decider or the control, and refusals.

use super::attempts::AGAIN;
use super::control;
use super::decide::{DecisionPoint, SecretAt};
use super::policy_path::Listed;
use super::state::{Ctx, Machine, NO_CTX, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::MAX_REFUSALS;
use crate::source::Span;
use crate::syntax::ast::Presence;
use crate::trace::{DecidedBy, Event, World};

/// Stands for the way out (`or NAME`) among the refused options of a `choose ... from`.
const WAY_OUT: EntityId = EntityId::MAX;

/// The options a `choose` offers now: each key with the index of the option it came from, and
/// the named options an `unless` refuses now (the option, its index, every rule that refuses it).
struct Offered {
    keys: Vec<OptionKey>,
    sources: Vec<usize>,
    refused: Vec<(OptionKey, usize, Vec<usize>)>,
}

impl Machine<'_> {
    /// `choose`: the options offered now (each `when` holding, no `unless` refusing, and for an
    /// actor the actions of the option's kinds it can afford); the one picked is performed (an
    /// action) and its body runs. `listed`: its options listed when its code was made.
    pub(super) fn choose(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        (options, prefs, written): (&[OptionDef], &[PolicyPrefs], (bool, bool)),
        span: Span,
        listed: Option<&Listed>,
    ) -> R<Flow> {
        // A decision at which an attempt was carried out is offered anew, as it was written.
        let mut tries = 0;
        loop {
            let flow = if self.policy_path(options, written.0) {
                match listed {
                    Some(l) => self.choose_by_list(decision, chooser, l, (options, prefs), span)?,
                    None => self.choose_by_policy(decision, chooser, (options, prefs), span)?,
                }
            } else {
                self.choose_once(decision, chooser, (options, prefs, written), span)?
            };
            if let Some(flow) = self.offered_anew(flow, tries, span)? {
                return Ok(flow);
            }
            tries += 1;
        }
    }

    #[inline(never)]
    fn choose_once(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        (options, prefs, (secret, held)): (&[OptionDef], &[PolicyPrefs], (bool, bool)),
        span: Span,
    ) -> R<Flow> {
        let p = self.p;
        let secret = self.in_secret(secret, held);
        // A secret choice at the head of a secret option is part of that pick: whether it is
        // asked at all tells what was picked, so everything its asking traces is held.
        let nested = self.nested_secret(secret);
        if nested {
            self.hide(None);
        }
        let who = self.who(chooser, span)?;
        let actor = who.character();
        let Offered { keys, sources, refused } = self.offered(options, actor)?;
        if keys.is_empty() {
            return Err(Box::new(no_option(p, who, decision, span)));
        }
        let mut refused_keys = self.keys.take();
        refused_keys.extend(refused.iter().map(|r| r.0));
        // From here what is traced depends on the answers: a secret choice holds it.
        if secret && !nested {
            self.hide(Some(SecretAt {
                chooser: who,
                decision,
                span,
            }));
        }
        // The actions it cannot take now: an answer naming one is refused with why.
        let mut unoffered = self.keys.take();
        unoffered.extend(self.unaffordable.iter().map(|(a, _)| OptionKey::Action(*a)));
        let outer = std::mem::replace(&mut self.outside, unoffered);
        let asked = self.suggest(who, prefs, &keys).and_then(|suggested| {
            self.ask_until_accepted(
                decision,
                who,
                (&keys, &refused_keys, suggested),
                (true, span),
                |m, j| {
                    let (key, oi, rules) = &refused[j];
                    let name = format!("`{}`", p.option_name(*key));
                    let rules: Vec<&RefusalDef> = rules.iter().map(|r| &options[*oi].refusals[*r]).collect();
                    m.explain(&name, &rules, span)
                },
            )
        });
        let unoffered = std::mem::replace(&mut self.outside, outer);
        self.keys.put(unoffered);
        self.keys.put(refused_keys);
        let (picked, _) = asked?;
        if picked == AGAIN {
            self.keys.put(keys);
            self.indices.put(sources);
            return Ok(Flow::Next);
        }
        let (key, option) = (keys[picked], &options[sources[picked]]);
        if secret {
            self.keys.put(keys);
            self.indices.put(sources);
            self.keep_secret(((decision, who), true), option.deferred, (held, false))?;
            return Ok(Flow::Next);
        }
        self.keys.put(keys);
        self.indices.put(sources);
        // A secret choice outside any `together` walk is an ordinary one: its body runs now.
        if let Some(id) = option.deferred {
            return match p.bodies.get(id as usize) {
                Some(body) => self.block(body),
                None => Ok(Flow::Next),
            };
        }
        self.take_picked(key, actor, option.using, &option.body, span)
    }

    /// The options of a `choose` offered now, to `actor` when a character chooses.
    fn offered(&mut self, options: &[OptionDef], actor: Option<EntityId>) -> R<Offered> {
        let p = self.p;
        let (mut keys, mut sources) = (self.keys.take(), self.indices.take());
        // The actions it cannot take now, for an answer that names one (never for a policy).
        let listing = self.control.is_some() || self.decider.names_options();
        self.unaffordable.clear();
        // Named options an `unless` refuses now: (the option, its index, the rules).
        let mut refused: Vec<(OptionKey, usize, Vec<usize>)> = Vec::new();
        for (i, o) in options.iter().enumerate() {
            if let Some(w) = &o.when
                && self.eval(w, Ctx { label: NO_LABEL, actor })? == 0
            {
                continue;
            }
            // Its `unless` rules, for a named option and for `option action` alike.
            let rules = if o.refusals.is_empty() {
                Vec::new()
            } else {
                self.refusing(&o.refusals, Ctx { label: NO_LABEL, actor })?
            };
            match (o.name, actor) {
                (Some(n), _) if !rules.is_empty() => refused.push((OptionKey::Named(n), i, rules)),
                (Some(n), _) => {
                    keys.push(OptionKey::Named(n));
                    sources.push(i);
                }
                (None, Some(e)) => {
                    for (ai, a) in p.actions.iter().enumerate() {
                        let of_kind = o.kinds.is_empty() || a.kinds.iter().any(|k| o.kinds.contains(k));
                        if !of_kind {
                            continue;
                        }
                        if !self.affordable(a, e, o.using)? {
                            let known = self.unaffordable.iter().any(|(x, _)| *x as usize == ai);
                            if listing && !known && !keys.contains(&OptionKey::Action(ai as ActionId)) {
                                self.unaffordable.push((ai as ActionId, o.using));
                            }
                            continue;
                        }
                        // While a rule refuses them, the actions it would offer are refused, each
                        // with the rule's reason.
                        if rules.is_empty() {
                            keys.push(OptionKey::Action(ai as ActionId));
                            sources.push(i);
                        } else {
                            refused.push((OptionKey::Action(ai as ActionId), i, rules.clone()));
                        }
                    }
                }
                (None, None) => {}
            }
        }
        Ok(Offered { keys, sources, refused })
    }

    /// `choose ... from`: the candidates in play that pass the filter and no refusal rule, in the
    /// collection's (or the order's) order; the one picked is bound and the body runs, or the
    /// decline block when the choice is declined.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn st_choose_from(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        var: Slot,
        (coll, presence): (Coll, Presence),
        filter: Option<&Ex>,
        order: Option<OrderId>,
        body: &Block,
        decline: Option<&Decline>,
        (refusals, prefs, deferred): (&[RefusalDef], &[PolicyPrefs], Option<Deferred>),
        (held, bind, reads): (bool, Option<Slot>, bool),
        span: Span,
    ) -> R<Flow> {
        // A decision at which an attempt was carried out is offered anew.
        let mut tries = 0;
        loop {
            let flow = self.choose_from_once(
                decision,
                chooser,
                var,
                (coll, presence),
                filter,
                order,
                body,
                decline,
                (refusals, prefs, deferred),
                (held, bind, reads),
                span,
            )?;
            if let Some(flow) = self.offered_anew(flow, tries, span)? {
                return Ok(flow);
            }
            tries += 1;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn choose_from_once(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        var: Slot,
        (coll, presence): (Coll, Presence),
        filter: Option<&Ex>,
        order: Option<OrderId>,
        body: &Block,
        decline: Option<&Decline>,
        (refusals, prefs, deferred): (&[RefusalDef], &[PolicyPrefs], Option<Deferred>),
        (held, bind, reads): (bool, Option<Slot>, bool),
        span: Span,
    ) -> R<Flow> {
        let secret = self.in_secret(deferred.is_some(), held);
        let nested = self.nested_secret(secret);
        if nested {
            self.hide(None);
        }
        let who = self.who(chooser, span)?;
        let at = SecretAt {
            chooser: who,
            decision,
            span,
        };
        let mut ids = self.ids.take();
        self.gather_present((var, coll), presence, filter, &mut ids, span)?;
        // Candidates a rule refuses are not offered; remember every rule that refused each.
        let mut refused: Vec<(EntityId, Vec<usize>)> = Vec::new();
        if !refusals.is_empty() {
            let mut kept = self.ids.take();
            for &e in &ids {
                self.locals[var as usize] = e as i64;
                let rules = self.refusing(refusals, NO_CTX)?;
                if rules.is_empty() {
                    kept.push(e);
                } else {
                    refused.push((e, rules));
                }
            }
            let all = std::mem::replace(&mut ids, kept);
            self.ids.put(all);
        }
        // The way out, unless a rule refuses it (it is then last among the refused).
        let mut declines = decline.is_some();
        if let Some(d) = decline
            && !d.refusals.is_empty()
        {
            let rules = self.refusing(&d.refusals, NO_CTX)?;
            if !rules.is_empty() {
                declines = false;
                refused.push((WAY_OUT, rules));
            }
        }
        // Nothing to choose: not asked, unless the choice can be declined and some candidate
        // was refused (an answer naming it must hear why).
        if ids.is_empty() && (!declines || refused.is_empty()) {
            self.ids.put(ids);
            // A secret choice holds its `no_choice` too, and keeps its place among the choices
            // revealed (nothing was chosen: no `secret` event).
            if secret && !nested {
                self.hide(Some(at));
            }
            if !refused.is_empty() {
                self.no_choice(decision, who, var, (refusals, decline), &refused, span)?;
            }
            if let Some(b) = bind {
                self.locals[b as usize] = -1;
            }
            if secret {
                self.keep_secret(((decision, who), false), None, (held, reads))?;
            }
            return Ok(Flow::Next);
        }
        if let Some(o) = order {
            self.sort(o, &mut ids)?;
        }
        let mut keys = self.keys.take();
        keys.extend(ids.iter().map(|e| OptionKey::Character(*e)));
        if let Some(d) = decline.filter(|_| declines) {
            keys.push(OptionKey::Named(d.option));
        }
        let option_of = |e: EntityId| match decline {
            Some(d) if e == WAY_OUT => OptionKey::Named(d.option),
            _ => OptionKey::Character(e),
        };
        let mut refused_keys = self.keys.take();
        refused_keys.extend(refused.iter().map(|(e, _)| option_of(*e)));
        if secret && !nested {
            self.hide(Some(at));
        }
        // Members an answer may name that are not candidates for being in or out of play.
        let mut outside = self.keys.take();
        self.outside_of(coll, presence, &mut outside);
        let outer = std::mem::replace(&mut self.outside, outside);
        let asked = self.suggest(who, prefs, &keys).and_then(|suggested| {
            self.ask_until_accepted(
                decision,
                who,
                (&keys, &refused_keys, suggested),
                (true, span),
                |m, j| m.explain_refused(var, (refusals, decline), &refused[j], span),
            )
        });
        self.keys.put(refused_keys);
        let outside = std::mem::replace(&mut self.outside, outer);
        self.keys.put(outside);
        let (picked, _) = match asked {
            Ok(pick) => pick,
            Err(e) => {
                self.keys.put(keys);
                return Err(e);
            }
        };
        if picked == AGAIN {
            self.keys.put(keys);
            self.ids.put(ids);
            return Ok(Flow::Next);
        }
        let chosen = ids.get(picked).copied();
        self.ids.put(ids);
        if let Some(e) = chosen {
            self.locals[var as usize] = e as i64;
        }
        if let Some(b) = bind {
            self.locals[b as usize] = chosen.map_or(-1, i64::from);
        }
        // A secret choice: held for the reveal, its body (or decline block) run then.
        let p = self.p;
        let deferred_body = deferred.and_then(|(body, decline_body)| match chosen {
            Some(_) => Some(body),
            None => decline_body,
        });
        if secret {
            self.keys.put(keys);
            self.keep_secret(((decision, who), true), deferred_body, (held, reads))?;
            return Ok(Flow::Next);
        }
        self.keys.put(keys);
        if deferred.is_some() {
            return match deferred_body.and_then(|id| p.bodies.get(id as usize)) {
                Some(b) => self.block(b),
                None => Ok(Flow::Next),
            };
        }
        match (chosen, decline) {
            (Some(_), _) => self.block(body),
            (None, Some(d)) => self.block(&d.block),
            (None, None) => Ok(Flow::Next),
        }
    }

    /// Why a `choose ... from` option is refused: `(who, rules)` is a refused candidate with the
    /// indices of the rules that refuse it, or `WAY_OUT` for the way out (`or NAME unless ...`).
    fn explain_refused(
        &mut self,
        var: Slot,
        (refusals, decline): (&[RefusalDef], Option<&Decline>),
        (who, rules): &(EntityId, Vec<usize>),
        span: Span,
    ) -> R<(Vec<String>, Diag)> {
        let (name, all) = match decline {
            Some(d) if *who == WAY_OUT => (self.p.options[d.option as usize].clone(), &d.refusals[..]),
            _ => {
                self.locals[var as usize] = *who as i64;
                (self.world().character_name(*who).to_string(), refusals)
            }
        };
        let rules: Vec<&RefusalDef> = rules.iter().filter_map(|r| all.get(*r)).collect();
        self.explain(&name, &rules, span)
    }

    /// Every candidate of a `choose ... from` refused, and the way out too if there is one:
    /// nothing is asked. An answer meant for this decision that names a refused option is used
    /// up and traced as refused (it must hear why); then a `no_choice` event gives every
    /// refused option with its reasons.
    fn no_choice(
        &mut self,
        decision: DecisionId,
        who: Who,
        var: Slot,
        rules: (&[RefusalDef], Option<&Decline>),
        refused: &[(EntityId, Vec<usize>)],
        span: Span,
    ) -> R<()> {
        let option_of = |e: EntityId| match rules.1 {
            Some(d) if e == WAY_OUT => OptionKey::Named(d.option),
            _ => OptionKey::Character(e),
        };
        let keys: Vec<OptionKey> = refused.iter().map(|(e, _)| option_of(*e)).collect();
        let p = self.p;
        let point = DecisionPoint {
            decision,
            chooser: who,
            options: &[],
            refused: &keys,
            attempts: &[],
            outside: &[],
            reasons: &[],
            suggested: None,
            counters: &self.counters,
            running: &self.running,
            span,
            secret: self.secrecy.asking(),
        };
        let w = World {
            p,
            made: &self.made,
            values: &self.values,
            types: &self.types,
        };
        let attempted = match self.control {
            Some(_) => None,
            None => self.decider.attempt(&w, &point),
        };
        if let Some(j) = attempted.filter(|j| *j < refused.len()) {
            self.secrecy.answered(false);
            let (reasons, first) = self.explain_refused(var, rules, &refused[j], span)?;
            if self.stop_on_refusal {
                return Err(Box::new(self.refusal_stop(first)));
            }
            self.emit(Event::Refused {
                decision,
                chooser: who,
                option: keys[j],
                reasons: &reasons,
            });
        }
        let mut all = Vec::with_capacity(refused.len());
        for (k, r) in refused.iter().enumerate() {
            let (reasons, _) = self.explain_refused(var, rules, r, span)?;
            all.push((keys[k], reasons));
        }
        self.emit(Event::NoChoice {
            decision,
            chooser: who,
            refused: &all,
        });
        Ok(())
    }

    /// The option picked, taken: an action is performed by `actor` first (`using` its field),
    /// then the option's body runs, unless the action ended the flow. Every path of `choose`
    /// ends here.
    pub(super) fn take_picked(
        &mut self,
        key: OptionKey,
        actor: Option<EntityId>,
        using: Option<FieldId>,
        body: &Block,
        span: Span,
    ) -> R<Flow> {
        match (key, actor) {
            (OptionKey::Action(a), Some(e)) => match self.perform(a, e, using, span)? {
                Flow::Next => self.block(body),
                other => Ok(other),
            },
            _ => self.block(body),
        }
    }

    pub(super) fn who(&mut self, chooser: &ChooserEx, span: Span) -> R<Who> {
        Ok(match chooser {
            ChooserEx::Role(r) => Who::Role(*r),
            ChooserEx::RoleOf(e, at) => self.role_of(e, *at)?,
            ChooserEx::Character(e) => Who::Character(self.alive(e, span)?),
        })
    }

    /// What the decider's policy would pick here, when it is a declared policy with preferences
    /// compiled here (some have conditions): the first preference offered whose condition holds
    /// (a `where` preference: the first candidate, in the order offered, that meets it), else
    /// the first option. `None`: the decider picks by itself.
    #[inline]
    pub(super) fn suggest(&mut self, who: Who, prefs: &[PolicyPrefs], keys: &[OptionKey]) -> R<Option<usize>> {
        if prefs.is_empty() {
            return Ok(None);
        }
        self.suggest_of(who, prefs, keys)
    }

    /// [`Machine::suggest`] when the decision has conditional preferences.
    #[inline(never)]
    fn suggest_of(&mut self, who: Who, prefs: &[PolicyPrefs], keys: &[OptionKey]) -> R<Option<usize>> {
        let which = match self.control.as_deref() {
            Some(c) => c.policy(who),
            None => self.decider.policy(who),
        };
        let Some(PolicyRef::Declared(i)) = which else {
            return Ok(None);
        };
        let Some(mine) = prefs.iter().find(|p| p.policy == i) else {
            return Ok(None);
        };
        let holds = |m: &mut Self, cond: &Option<Ex>| -> R<bool> {
            Ok(match cond {
                Some(c) => m.eval(c, NO_CTX)? != 0,
                None => true,
            })
        };
        for pref in &mine.prefs {
            match pref.pick {
                Pick::Option(k) => {
                    if let Some(at) = keys.iter().position(|x| *x == k)
                        && holds(self, &pref.cond)?
                    {
                        return Ok(Some(at));
                    }
                }
                Pick::Candidate(slot) => {
                    for (at, k) in keys.iter().enumerate() {
                        if let OptionKey::Character(e) = k {
                            self.locals[slot as usize] = *e as i64;
                            if holds(self, &pref.cond)? {
                                return Ok(Some(at));
                            }
                        }
                    }
                }
            }
        }
        Ok(Some(0))
    }

    /// Asks the decider, with the pick its policy's conditions suggest; `Err(j)` when it named
    /// `refused[j]`, a candidate a rule refuses.
    fn ask_refusing(
        &mut self,
        decision: DecisionId,
        who: Who,
        (keys, refused, suggested): (&[OptionKey], &[OptionKey], Option<usize>),
        reasons: &[String],
        span: Span,
    ) -> R<Result<(usize, DecidedBy), usize>> {
        let p = self.p;
        let secret = self.secrecy.asking();
        let outside = std::mem::take(&mut self.outside);
        let point = |counters, running| DecisionPoint {
            decision,
            chooser: who,
            options: keys,
            refused,
            attempts: &p.attempts,
            outside: &outside,
            reasons,
            suggested,
            counters,
            running,
            span,
            secret,
        };
        let (picked, by) = match self.control.take() {
            // The control answers by itself: the levels' state is not part of its question. Its
            // rulings, made at this point, are traced at once, even while a choice is secret.
            Some(c) => {
                self.secrecy.suspend();
                let answer = control::consult(self, c, &point(&[], &[]));
                self.secrecy.resume();
                self.outside = outside;
                answer?
            }
            None => {
                let w = World {
                    p,
                    made: &self.made,
                    values: &self.values,
                    types: &self.types,
                };
                let answer = self.decider.decide(&w, &point(&self.counters, &self.running));
                self.outside = outside;
                let answer = answer?;
                if answer.0 >= keys.len() + refused.len() {
                    self.attempter = self.decider.attempter();
                }
                answer
            }
        };
        // A ruling at this decision ended the encounter (`consult`): it is left unanswered.
        if picked == AGAIN {
            return Ok(Ok((AGAIN, by)));
        }
        self.secrecy.answered(picked < keys.len());
        if picked >= keys.len() && picked - keys.len() < refused.len() + p.attempts.len() + self.outside.len() {
            return Ok(Err(picked - keys.len()));
        }
        if picked >= keys.len() {
            return Err(no_such_option(span));
        }
        // (A secret choice's decision is held for its reveal.)
        self.emit(Event::Decision {
            decision,
            chooser: who,
            options: keys,
            picked,
            by,
        });
        Ok(Ok((picked, by)))
    }

    /// The indices of the rules of `rules` that refuse now (each is tested: every reason that
    /// applies is given).
    fn refusing(&mut self, rules: &[RefusalDef], ctx: Ctx) -> R<Vec<usize>> {
        let mut out = Vec::new();
        for (r, rule) in rules.iter().enumerate() {
            if self.eval(&rule.cond, ctx)? != 0 {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// Asks until the answer is one offered. An answer naming a refused option (`refused[j]`) is
    /// traced as a `refused` event with every reason `explain(m, j)` gives, and the decision is
    /// asked again; with `stop_on_refusal` the run stops on it instead, with the first reason.
    /// `again`: the caller offers the decision anew after an attempt carried out (it handles
    /// `AGAIN`); otherwise an attempt made here is refused.
    pub(super) fn ask_until_accepted(
        &mut self,
        decision: DecisionId,
        who: Who,
        (keys, refused, suggested): (&[OptionKey], &[OptionKey], Option<usize>),
        (again, span): (bool, Span),
        mut explain: impl FnMut(&mut Self, usize) -> R<(Vec<String>, Diag)>,
    ) -> R<(usize, DecidedBy)> {
        // A control (the REPL) shows why each refused candidate is refused, beside the options.
        // (Explaining may bind the choice's variable: the locals are put back as they were.)
        let reasons: Vec<String> = if self.control.is_some() && !refused.is_empty() {
            let locals = self.locals.clone();
            let reasons = (0..refused.len())
                .map(|j| explain(self, j).map(|(r, _)| r.join("; ")))
                .collect::<R<Vec<String>>>();
            self.locals = locals;
            reasons?
        } else {
            Vec::new()
        };
        // A control reads whether an attempt made here can be carried out (`Pending::reoffered`).
        self.reoffer = again;
        for _ in 0..=MAX_REFUSALS {
            match self.ask_refusing(decision, who, (keys, refused, suggested), &reasons, span)? {
                Ok(pick) => return Ok(pick),
                Err(j) => {
                    let (option, (reasons, first), by) = match refused.get(j) {
                        Some(o) => (*o, explain(self, j)?, who),
                        // An attempt, by the chooser or by whoever the answer names: refused, or
                        // carried out (the decision is then offered anew).
                        // Someone who is not a candidate for being out of play (or in it).
                        None if j >= refused.len() + self.p.attempts.len() => {
                            let m = j - refused.len() - self.p.attempts.len();
                            let key = self.outside[m];
                            (key, self.explain_outside(key, who, span)?, who)
                        }
                        None => {
                            let k = j - refused.len();
                            let by = self.attempter.take().unwrap_or(who);
                            self.reoffer = again;
                            match self.make_attempt(by, k, Moment::Decision(decision, who), span)? {
                                Ok(flow) => {
                                    self.attempt_flow = Some(flow);
                                    return Ok((AGAIN, DecidedBy::Answer));
                                }
                                Err(refusal) => (self.p.attempts[k], refusal, by),
                            }
                        }
                    };
                    if self.stop_on_refusal {
                        return Err(Box::new(self.refusal_stop(first)));
                    }
                    self.emit(Event::Refused {
                        decision,
                        chooser: by,
                        option,
                        reasons: &reasons,
                    });
                }
            }
        }
        Err(Box::new(
            Diag::new(
                "run::refused",
                format!("more than {MAX_REFUSALS} answers in a row were refused"),
            )
            .label(span, "asked again and again here")
            .help("the answers keep naming options the rules refuse; check the answers file"),
        ))
    }

    /// The error of a run that stops on a refused answer (`--stop-on-refusal`): `first`, or, in a
    /// secret choice, one that says no more than the `secret` event does (which answer was
    /// refused, and why, would tell what was attempted).
    fn refusal_stop(&self, first: Diag) -> Diag {
        let Some(at) = self.secrecy.asking() else {
            return first;
        };
        let p = self.p;
        Diag::new(
            "run::refused",
            format!(
                "an answer to {}'s secret choice `{}` was refused",
                p.who_name(at.chooser),
                p.decisions[at.decision as usize]
            ),
        )
        .label(at.span, "chosen in secret here")
        .help(
            "the run stops at the first refused answer (`--stop-on-refusal`); which answer was refused, and why, stays secret until the choice is revealed: without `--stop-on-refusal` the refusal is traced at the reveal",
        )
    }

    /// Every reason `rules` give for refusing `what` (their texts, names filled in), and the
    /// error a run that stops on a refusal reports: the first reason.
    pub(super) fn explain(&mut self, what: &str, rules: &[&RefusalDef], span: Span) -> R<(Vec<String>, Diag)> {
        let reasons: Vec<String> = rules.iter().map(|r| self.reason_text(r)).collect::<R<_>>()?;
        let first = rules.first().map_or(Span::default(), |r| r.span);
        let diag = Diag::new("run::refused", reasons.first().cloned().unwrap_or_default())
            .label(first, "refused by this rule")
            .label(span, "while this was being decided")
            .help(format!("{what} could not be chosen here; the answer was refused"));
        Ok((reasons, diag))
    }

    /// A refusal's text, the names written in it filled in. What it reads is read as anywhere
    /// else: a field of `none` or a division by zero stops the run, never a `?` in the text.
    fn reason_text(&mut self, rule: &RefusalDef) -> R<String> {
        let mut text = String::new();
        for part in &rule.message {
            match part {
                MessagePart::Text(t) => text.push_str(t),
                MessagePart::Number(x, decimals) => {
                    let v = self.eval(x, NO_CTX)?;
                    crate::trace::push_decimal(&mut text, v, *decimals);
                }
                MessagePart::Name(x) => {
                    let v = self.eval(x, NO_CTX)?;
                    text.push_str(self.world().entity_name(v).unwrap_or("none"));
                }
            }
        }
        Ok(text)
    }

    /// Whether `who` may take action `a` now: its `when` holds and every cost can be paid
    /// (from `using`, when the option says so).
    fn affordable(&mut self, a: &ActionDef, who: EntityId, using: Option<FieldId>) -> R<bool> {
        Ok(self.shortfall(a, who, using)?.is_none())
    }
}

/// `run::no_option`: `who` has no option in `decision` here.
pub(super) fn no_option(p: &Program, who: Who, decision: DecisionId, span: Span) -> Diag {
    Diag::new(
        "run::no_option",
        format!(
            "{} has no option in the decision `{}`",
            p.who_name(who),
            p.decisions[decision as usize]
        ),
    )
    .label(span, "nothing could be chosen here")
    .help("add an option without `when`, which is always available, or guard the decision with `if`")
}

/// `run::bad_answer`: a decider picked past the options it was offered (a bug in the decider).
pub(super) fn no_such_option(span: Span) -> Box<Diag> {
    Box::new(
        Diag::new("run::bad_answer", "the decider picked an option that does not exist")
            .label(span, "this decision")
            .help("this is a bug in the decider"),
    )
}

impl Who {
    /// The character choosing, if a character chooses (not a role).
    pub(super) fn character(self) -> Option<EntityId> {
        match self {
            Who::Character(e) => Some(e),
            Who::Role(_) => None,
        }
    }
}
