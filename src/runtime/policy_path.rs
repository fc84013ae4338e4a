//! The policy fast path of `choose` (issue 31): a decision answered by a policy alone, with
//! nothing that could be refused, attempted or held secret, is worked out in one pass: the
//! options offered, the policy's pick, the `decision` event, then the pick performed. The general
//! path (`decisions.rs`) does the same with the machinery for refusals, attempts, answers naming
//! options the chooser cannot take, secret choices and controls; here none of it can apply, so
//! none of it is set up. The trace, the step count and the dice drawn are the general path's:
//! `tests/policy_path.rs` runs every bundled ruleset both ways and compares the traces.
//!
//! A `choose` whose options are fixed has them listed once, when its code is made ([`Listed`]),
//! so a decision tests only its actions' costs; a decider that is one policy is asked for its
//! pick with no [`DecisionPoint`] built (`tests/compiled.rs` compares that with the walk).

use super::afford::affords;
use super::decide::DecisionPoint;
use super::decisions::no_such_option;
use super::state::{Ctx, Machine, NO_LABEL, R};
use super::stmt::Flow;
use crate::compile::ir::*;
use crate::source::Span;
use crate::trace::{DecidedBy, Event, World};

impl Machine<'_> {
    /// Whether `choose` may take the fast path here: no control, a decider that is a policy and
    /// nothing else (no answers that could name an option), a program without attempts, a
    /// choice that is not secret, and no option with an `unless`.
    pub(super) fn policy_path(&self, options: &[OptionDef], secret: bool) -> bool {
        !secret
            && self.control.is_none()
            && self.p.attempts.is_empty()
            && self.decider.policy_only()
            && options.iter().all(|o| o.refusals.is_empty())
    }

    /// `choose` on the fast path ([`Machine::policy_path`] holds): what the general path does
    /// when nothing is refused, attempted or secret, in the same order.
    pub(super) fn choose_by_policy(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        (options, prefs): (&[OptionDef], &[PolicyPrefs]),
        span: Span,
    ) -> R<Flow> {
        let who = self.who(chooser, span)?;
        let actor = who.character();
        let (mut keys, mut sources) = (self.keys.take(), self.indices.take());
        let offered = self.offer_plain(options, actor, &mut keys, &mut sources);
        let picked = offered.and_then(|()| self.pick_by_policy(decision, who, &keys, prefs, span));
        let picked = match picked {
            Ok(i) => i,
            Err(e) => {
                self.keys.put(keys);
                self.indices.put(sources);
                return Err(e);
            }
        };
        let (key, option) = (keys[picked], &options[sources[picked]]);
        self.keys.put(keys);
        self.indices.put(sources);
        self.take_picked(key, actor, option.using, &option.body, span)
    }

    /// The options offered now, as `offered` in `decisions.rs` finds them when no option has
    /// an `unless` and no action need be listed as unaffordable.
    fn offer_plain(
        &mut self,
        options: &[OptionDef],
        actor: Option<EntityId>,
        keys: &mut Vec<OptionKey>,
        sources: &mut Vec<usize>,
    ) -> R<()> {
        let p = self.p;
        self.unaffordable.clear();
        let ctx = Ctx { label: NO_LABEL, actor };
        for (i, o) in options.iter().enumerate() {
            if let Some(w) = &o.when
                && self.eval(w, ctx)? == 0
            {
                continue;
            }
            match (o.name, actor) {
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
                        // A cost the compiler fixed is tested as it is (`Fixed::costs`).
                        let open = match p.fixed.costs.get(ai).copied().flatten() {
                            Some((f, cost)) => self.covers(e, o.using.unwrap_or(f), cost)?,
                            None => self.shortfall(a, e, o.using)?.is_none(),
                        };
                        if open {
                            keys.push(OptionKey::Action(ai as ActionId));
                            sources.push(i);
                        }
                    }
                }
                (None, None) => {}
            }
        }
        Ok(())
    }

    /// The policy's pick among `keys` (its conditional preferences worked out first), traced as
    /// the `decision` event.
    fn pick_by_policy(
        &mut self,
        decision: DecisionId,
        who: Who,
        keys: &[OptionKey],
        prefs: &[PolicyPrefs],
        span: Span,
    ) -> R<usize> {
        let p = self.p;
        if keys.is_empty() {
            return Err(Box::new(super::decisions::no_option(p, who, decision, span)));
        }
        let suggested = self.suggest(who, prefs, keys)?;
        // As `ask_until_accepted` leaves it: an attempt made here could be carried out.
        self.reoffer = true;
        // A decider that is one policy gives its pick straight, as its `decide` would.
        if let Some(policy) = self.decider.sole_policy() {
            let picked = policy.pick_among(p, decision, keys, suggested);
            return self.picked(decision, who, keys, (picked, DecidedBy::Policy), span);
        }
        let point = DecisionPoint {
            decision,
            chooser: who,
            options: keys,
            refused: &[],
            attempts: &p.attempts,
            outside: &[],
            reasons: &[],
            suggested,
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
        let answer = self.decider.decide(&w, &point).map_err(Box::new)?;
        self.picked(decision, who, keys, answer, span)
    }

    /// The decider's answer taken: counted, checked and traced as the `decision` event.
    #[inline]
    fn picked(
        &mut self,
        decision: DecisionId,
        who: Who,
        keys: &[OptionKey],
        (picked, by): (usize, DecidedBy),
        span: Span,
    ) -> R<usize> {
        self.secrecy.answered(picked < keys.len());
        if picked >= keys.len() {
            return Err(no_such_option(span));
        }
        self.emit(Event::Decision {
            decision,
            chooser: who,
            options: keys,
            picked,
            by,
        });
        Ok(picked)
    }
}

/// At most this many keys are listed for a `choose` (each place in the list is a byte).
const MAX_LISTED: usize = 64;

/// A `choose`'s options listed once for the program, when its code is made (`code/stmt.rs`),
/// where what it can offer does not depend on the run: no option has a `when`, an `unless` or a
/// secret body. Each named option is one key, each `option action` the actions of its kinds, in
/// the order the options offer them; at a decision on the fast path only the actions' costs are
/// tested (a fixed cost as it is, `Fixed::costs`), and a list of named options alone is offered
/// whole, as it stands.
pub(in crate::runtime) struct Listed {
    /// Every key the choice can offer, in the order offered.
    keys: Box<[OptionKey]>,
    /// For each key, the option it comes from.
    entries: Box<[Entry]>,
    /// Every option is named: every key is offered at every decision.
    named: bool,
}

/// One key of a [`Listed`] choice: the option it comes from, and for an action, the resource its
/// cost is paid from (`using`) and its fixed cost when it has one, already paid from `using`.
#[derive(Clone, Copy)]
struct Entry {
    option: u16,
    using: Option<FieldId>,
    cost: Option<Cost>,
}

/// A fixed cost: the resource, the amount, and whether the resource's limits are fixed for the
/// run (not `resource NAME(c) min ...`): reading them then evaluates nothing, so the chooser's
/// amount and lower limit, once read, serve the actions after it paid from the same resource
/// (the last resource read is kept; a cost worked out forgets it).
#[derive(Clone, Copy)]
struct Cost {
    field: FieldId,
    amount: i64,
    fixed_limits: bool,
}

impl Listed {
    /// The options of a `choose` listed, or `None` where what they offer depends on the run (or
    /// they would list more than [`MAX_LISTED`] keys): that `choose` is walked.
    pub(in crate::runtime) fn new(p: &Program, options: &[OptionDef]) -> Option<Listed> {
        let (mut keys, mut entries) = (Vec::new(), Vec::new());
        for (i, o) in options.iter().enumerate() {
            if o.when.is_some() || !o.refusals.is_empty() || o.deferred.is_some() {
                return None;
            }
            let option = u16::try_from(i).ok()?;
            let Some(n) = o.name else {
                for (ai, a) in p.actions.iter().enumerate() {
                    if o.kinds.is_empty() || a.kinds.iter().any(|k| o.kinds.contains(k)) {
                        keys.push(OptionKey::Action(ActionId::try_from(ai).ok()?));
                        let cost = p.fixed.costs.get(ai).copied().flatten().map(|(f, amount)| {
                            let field = o.using.unwrap_or(f);
                            let fixed_limits = p.fields.get(field as usize).is_some_and(|d| d.owned.is_none());
                            Cost {
                                field,
                                amount,
                                fixed_limits,
                            }
                        });
                        entries.push(Entry {
                            option,
                            using: o.using,
                            cost,
                        });
                    }
                }
                continue;
            };
            keys.push(OptionKey::Named(n));
            entries.push(Entry {
                option,
                using: None,
                cost: None,
            });
        }
        (keys.len() <= MAX_LISTED).then(|| Listed {
            keys: keys.into(),
            entries: entries.into(),
            named: options.iter().all(|o| o.name.is_some()),
        })
    }
}

impl Machine<'_> {
    /// `choose`, compiled with its options listed ([`Listed`]): the walk's `choose`, taking the
    /// list on the fast path.
    pub(in crate::runtime) fn choose_listed(&mut self, listed: &Listed, s: &St) -> R<Flow> {
        let St::Choose {
            secret,
            held,
            decision,
            chooser,
            options,
            prefs,
            span,
        } = s
        else {
            // Never: the code is called with the statement it was made from.
            return self.stmt_rest(s);
        };
        self.choose(
            *decision,
            chooser,
            (options, prefs, (*secret, *held)),
            *span,
            Some(listed),
        )
    }

    /// [`Machine::choose_by_policy`] with the options listed: the same keys offered, picked and
    /// performed, in the same order.
    pub(super) fn choose_by_list(
        &mut self,
        decision: DecisionId,
        chooser: &ChooserEx,
        listed: &Listed,
        (options, prefs): (&[OptionDef], &[PolicyPrefs]),
        span: Span,
    ) -> R<Flow> {
        let who = self.who(chooser, span)?;
        let actor = who.character();
        self.unaffordable.clear();
        if listed.named {
            let picked = self.pick_by_policy(decision, who, &listed.keys, prefs, span)?;
            return self.block(&options[listed.entries[picked].option as usize].body);
        }
        let mut keys = self.keys.take();
        // The place in the list of each key offered.
        let mut places = [0u8; MAX_LISTED];
        let offered = self.offer_listed(listed, actor, &mut keys, &mut places);
        let picked = offered.and_then(|()| self.pick_by_policy(decision, who, &keys, prefs, span));
        let picked = match picked {
            Ok(i) => i,
            Err(e) => {
                self.keys.put(keys);
                return Err(e);
            }
        };
        let key = keys[picked];
        self.keys.put(keys);
        let entry = listed.entries[places[picked] as usize];
        let option = &options[entry.option as usize];
        self.take_picked(key, actor, entry.using, &option.body, span)
    }

    /// The keys of `listed` offered now, as [`Machine::offer_plain`] finds them, each with its
    /// place in the list (`places[i]`: the place of `keys[i]`).
    fn offer_listed(
        &mut self,
        listed: &Listed,
        actor: Option<EntityId>,
        keys: &mut Vec<OptionKey>,
        places: &mut [u8; MAX_LISTED],
    ) -> R<()> {
        let p = self.p;
        // The last resource with fixed limits read: its amount and lower limit for the chooser.
        let mut read: Option<(FieldId, i64, Option<i64>)> = None;
        for (at, (&key, entry)) in listed.keys.iter().zip(listed.entries.iter()).enumerate() {
            let open = match (key, actor) {
                (OptionKey::Action(_), Some(e))
                    if let Some(c) = entry.cost
                        && c.fixed_limits =>
                {
                    // What `covers` finds: nothing it reads changes between the actions.
                    let (has, lo) = match read {
                        Some((f, has, lo)) if f == c.field => (has, lo),
                        _ => {
                            let (has, lo) = (self.get(e, c.field), self.bounds(e, c.field)?.0);
                            read = Some((c.field, has, lo));
                            (has, lo)
                        }
                    };
                    affords(has, lo, c.amount)
                }
                (OptionKey::Action(a), Some(e)) => {
                    // A cost worked out may read anything: nothing read before is kept.
                    read = None;
                    match entry.cost {
                        Some(c) => self.covers(e, c.field, c.amount)?,
                        None => self.shortfall(&p.actions[a as usize], e, entry.using)?.is_none(),
                    }
                }
                // An action is offered only to a character.
                (OptionKey::Action(_), None) => false,
                _ => true,
            };
            if open && let Some(place) = places.get_mut(keys.len()) {
                *place = at as u8;
                keys.push(key);
            }
        }
        Ok(())
    }
}
