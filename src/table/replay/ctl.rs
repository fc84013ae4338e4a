//! The control of a replayed run: it applies the log's changes and answers at each decision,
//! makes the attempts queued for moments, then follows the goal, and waits for the REPL where
//! the run would pause.

use super::*;
use crate::runtime::control::Snapshot;

/// Applies the log at each decision, then follows the goal.
pub(super) struct Ctl<'p> {
    pub(super) p: &'p Program,
    /// The log's changes so far, each with the entry it is from.
    pub(super) ops: Vec<(usize, Op)>,
    /// How many entries the log has.
    pub(super) entries: usize,
    pub(super) next: usize,
    pub(super) first_pick: usize,
    /// The policies' streams, each made from the seed when first used.
    pub(super) policies: Vec<(PolicyRef, Policy)>,
    pub(super) seed: u64,
    /// The session's policy (the ruleset's default, else `random`).
    pub(super) policy_ref: PolicyRef,
    pub(super) modes: Modes,
    /// Decisions the goal let the policy answer that were not auto (for `step N`).
    pub(super) asked_made: u32,
    pub(super) goal: Goal,
    pub(super) goal_started: bool,
    pub(super) made: Vec<Op>,
    pub(super) rec: Rc<RefCell<Recorder>>,
    pub(super) divergence: Option<Divergence>,
    pub(super) decisions: usize,
    /// To and from the REPL, while it waits for the run (`None`: told to stop).
    pub(super) link: Option<(Sender<Progress>, Receiver<Resume>)>,
    /// As the run ended: the answers choices still held took, and the picks not counted.
    pub(super) held: (Vec<u32>, u32),
    /// The state the run ended in (for `show` once the encounter is over).
    pub(super) last: Option<Box<Snapshot>>,
    /// The attempts queued for moments (`attempt WHO NAME after X`), in the order queued.
    pub(super) queue: Vec<Queued>,
}

/// An attempt queued for a moment: who makes it, which (an index into `Program::attempts`), the
/// moment and the level's iteration it names (if any), and how `show` says it.
pub(super) struct Queued {
    who: Who,
    attempt: usize,
    moment: Moment,
    levels: Vec<(LevelId, u64)>,
    pub(super) text: String,
}

impl Ctl<'_> {
    /// Tells the REPL the run waits at `d`, and waits there for the next command: `true` with its
    /// changes and goal taken in, `false` when the REPL stops waiting.
    fn wait(&mut self, ed: &Editor<'_, '_>, d: &DecisionPoint<'_>) -> bool {
        let Some((to_repl, from_repl)) = &self.link else {
            return false;
        };
        let attempts = std::mem::take(&mut self.rec.borrow_mut().attempts);
        let progress = Progress {
            attempts,
            queued: self.queue.iter().map(|q| q.text.clone()).collect(),
            trace: self.rec.borrow_mut().delta(),
            end: End::Paused(Box::new(Pending::at(ed, d))),
            decisions: self.decisions,
            made: std::mem::take(&mut self.made),
            divergence: None,
            modes: self.modes.clone(),
            alive: true,
            held: (Vec::new(), 0),
        };
        let resumed = match to_repl.send(progress) {
            Ok(()) => from_repl.recv().ok(),
            Err(_) => None,
        };
        let Some(Resume { entry, ops, goal }) = resumed else {
            self.link = None;
            return false;
        };
        self.entries = entry + 1;
        self.ops.extend(ops.into_iter().map(|o| (entry, o)));
        self.goal = goal;
        self.goal_started = false;
        self.asked_made = 0;
        true
    }

    /// The policy `who`'s decisions are answered by when the policy answers them.
    fn policy_ref_for(&self, who: Who) -> PolicyRef {
        self.modes.policy_for(self.p, who, self.policy_ref)
    }

    /// Lets the policy that answers `d`'s chooser pick (each policy keeps its own stream).
    fn policy_pick(&mut self, d: &DecisionPoint<'_>) -> usize {
        let r = self.policy_ref_for(d.chooser);
        let i = match self.policies.iter().position(|(x, _)| *x == r) {
            Some(i) => i,
            None => {
                self.policies.push((r, Policy::new(r, self.seed)));
                self.policies.len() - 1
            }
        };
        self.policies[i].1.pick(self.p, d)
    }

    fn diverge(&mut self, entry: usize, reason: String) -> Verdict {
        self.divergence = Some(Divergence { entry, reason });
        Verdict::Pause
    }

    /// Applies one change; the reason when it no longer fits the program.
    fn apply(&mut self, ed: &mut Editor<'_, '_>, i: usize, op: &Op) -> Result<(), String> {
        let p = self.p;
        let find = |name: &str| p.characters.iter().position(|c| c.name == name).map(|i| i as EntityId);
        match op {
            Op::Pick { .. } => {}
            Op::Roll(r) => ed.force(r),
            Op::Draw(names) => {
                let cards = names
                    .iter()
                    .map(|n| find(n).filter(|e| p.decks.contains(&p.characters[*e as usize].ty)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("the cards {} are not all in a deck any more", names.join(", ")))?;
                ed.force_draws(&cards);
            }
            Op::Seed(_) | Op::Add(_) if i < self.first_pick => {}
            Op::Seed(s) => {
                ed.reseed(*s);
                self.policies.clear();
                self.seed = *s;
            }
            Op::Mode { target, mode } => self.modes.apply(p, self.policy_ref, target, mode)?,
            Op::SetEntity { who, field, entity } => {
                let (e, f) = field_of(p, who.as_deref(), field)?;
                let refers = p.fields[f].refers.unwrap_or(crate::check::CHARACTER);
                let v = match entity {
                    None => NONE,
                    Some(n) => match crate::table::sides::side_or_role(p, refers, n) {
                        Some(v) => v,
                        None if matches!(refers, crate::check::SIDE | crate::check::ROLE) => {
                            return Err(format!("no side or role is called `{n}` now"));
                        }
                        None => find(n).ok_or_else(|| format!("no character is called `{n}` now"))? as i64,
                    },
                };
                ed.set(e, f as FieldId, v);
            }
            Op::Begin { effect, on, count, at } => {
                let f = effect_of(p, effect)?;
                let e = find(on).ok_or_else(|| format!("no character is called `{on}` now"))?;
                let spec = match at {
                    Some(text) => count_at(p, text)?,
                    None => CountAt::TurnEnd(e),
                };
                let anchor = match spec {
                    CountAt::Place(x, o) => {
                        let i = ed.place_of(x, o).ok_or_else(|| {
                            format!(
                                "{} has no place in the order `{}` now",
                                p.character_name(x),
                                p.orders[o as usize].name
                            )
                        })?;
                        Anchor::Place(o, i)
                    }
                    CountAt::TurnStart(x) => Anchor::TurnStart(x),
                    CountAt::TurnEnd(x) => Anchor::TurnEnd(x),
                    CountAt::LevelStart(l) => Anchor::LevelStart(l),
                    CountAt::LevelEnd(l) => Anchor::LevelEnd(l),
                };
                let where_ = match at {
                    Some(t) => t.clone(),
                    None => format!("end of turn({on})"),
                };
                ed.ruling(&format!("begin {effect} on {on} for {count} counted at {where_}"));
                ed.begin(f, e, *count, anchor).map_err(|d| d.message)?;
            }
            Op::Stop { effect, on } => {
                let f = effect_of(p, effect)?;
                let e = find(on).ok_or_else(|| format!("no character is called `{on}` now"))?;
                ed.ruling(&format!("stop {effect} on {on}"));
                ed.stop(f, e).map_err(|d| d.message)?;
            }
            Op::Place { who, to, order } => {
                let e = find(who).ok_or_else(|| format!("no character is called `{who}` now"))?;
                let o = p
                    .orders
                    .iter()
                    .position(|d| d.name == *order)
                    .ok_or_else(|| format!("no order is called `{order}` now"))? as OrderId;
                let dest = match to.split_once(' ') {
                    None if to == "first" => Err(true),
                    None if to == "last" => Err(false),
                    Some((rel @ ("before" | "after"), x)) => {
                        let x = find(x.trim()).ok_or_else(|| format!("no character is called `{x}` now"))?;
                        Ok((x, rel == "after"))
                    }
                    _ => return Err(format!("`{to}` is not first, last, before NAME or after NAME")),
                };
                ed.ruling(&format!("place {who} {to} in {order}"));
                ed.place(e, o, dest)?;
            }
            Op::Rank(order) => {
                let o = p
                    .orders
                    .iter()
                    .position(|d| d.name == *order)
                    .ok_or_else(|| format!("no order is called `{order}` now"))? as OrderId;
                ed.ruling(&format!("rank {order}"));
                ed.rank(o).map_err(|d| d.message)?;
            }
            Op::Set {
                who,
                field,
                value,
                decimals,
            } => {
                let (e, f) = field_of(p, who.as_deref(), field)?;
                let now = p.fields[f].decimals;
                let v = rescale(*value, *decimals, now).ok_or_else(|| {
                    format!(
                        "`{field}` now keeps {now} decimal{}: {} does not fit",
                        if now == 1 { "" } else { "s" },
                        crate::trace::Decimal(*value, *decimals)
                    )
                })?;
                ed.set(e, f as FieldId, v);
            }
            Op::Remove(w) => {
                let e = find(w).ok_or_else(|| format!("no character is called `{w}` now"))?;
                ed.leave(e).map_err(|d| d.message)?;
            }
            Op::Add(text) => {
                for name in declared_names(text) {
                    if let Some(e) = find(&name) {
                        ed.join(e).map_err(|d| d.message)?;
                    }
                    // One who joined ended the encounter: the rest of a group joins no more.
                    if ed.ending() {
                        break;
                    }
                }
            }
            Op::Queue { who, attempt, moment } => {
                let by = self.who_named(who)?;
                let k = p
                    .attempts
                    .iter()
                    .position(|o| p.option_name(*o) == attempt)
                    .ok_or_else(|| format!("no attempt is called `{attempt}` now"))?;
                let (at, level) = parse_moment(p, moment)?;
                self.queue.push(Queued {
                    who: by,
                    attempt: k,
                    moment: at,
                    levels: level.into_iter().collect(),
                    text: format!("{who} {attempt} {}", moment.trim()),
                });
            }
            Op::Unqueue(None) => self.queue.clear(),
            Op::Unqueue(Some((who, attempt))) => {
                let i = self
                    .queue
                    .iter()
                    .position(|q| p.who_name(q.who) == who && p.option_name(p.attempts[q.attempt]) == attempt)
                    .ok_or_else(|| format!("no attempt `{attempt}` by {who} is waiting now"))?;
                self.queue.remove(i);
            }
        }
        Ok(())
    }

    fn pick_by_name(&self, d: &DecisionPoint<'_>, op: &Op) -> Result<(usize, DecidedBy), String> {
        let p = self.p;
        let Op::Pick {
            decision,
            chooser,
            option,
            by,
            attempter: _,
        } = op
        else {
            return Err("not a decision".into());
        };
        let now = p.decisions.get(d.decision as usize).map(String::as_str).unwrap_or("?");
        let who = p.who_name(d.chooser);
        if now != decision || who != chooser {
            return Err(format!(
                "the decision here is now `{now}` by {who}, where it was `{decision}` by {chooser}"
            ));
        }
        // An attempt the rules refused (a refused option, or one a `forbid` names) is replayed
        // as one: refused again, and asked again.
        match (0..d.answerable()).find(|i| d.key(*i).is_some_and(|o| p.option_name(o) == option)) {
            Some(i) => Ok((i, *by)),
            None => {
                let names: Vec<&str> = d.options.iter().map(|o| p.option_name(*o)).collect();
                Err(format!(
                    "`{option}` is no longer an option of `{decision}` for {chooser} (the options are: {})",
                    names.join(", ")
                ))
            }
        }
    }

    /// A character or role by name, for an attempt replayed from the log.
    fn who_named(&self, name: &str) -> Result<Who, String> {
        let p = self.p;
        p.characters
            .iter()
            .position(|c| c.name == name)
            .map(|e| Who::Character(e as EntityId))
            .or_else(|| p.roles.iter().position(|r| r == name).map(|r| Who::Role(r as u16)))
            .ok_or_else(|| format!("no character or role is called `{name}` now"))
    }

    /// An attempt made at `d` by `who` (`attempt WHO NAME`): logged, never a decision made.
    fn record_attempt(&mut self, d: &DecisionPoint<'_>, i: usize, who: Who) -> Verdict {
        let p = self.p;
        self.made.push(Op::Pick {
            decision: p.decisions.get(d.decision as usize).cloned().unwrap_or_default(),
            chooser: p.who_name(d.chooser).to_string(),
            option: d.key(i).map(|o| p.option_name(o).to_string()).unwrap_or_default(),
            by: DecidedBy::Answer,
            attempter: Some(p.who_name(who).to_string()),
        });
        Verdict::Attempt(i, who)
    }

    fn record(&mut self, d: &DecisionPoint<'_>, i: usize, by: DecidedBy) -> Verdict {
        let p = self.p;
        self.made.push(Op::Pick {
            decision: p.decisions.get(d.decision as usize).cloned().unwrap_or_default(),
            chooser: p.who_name(d.chooser).to_string(),
            option: d.key(i).map(|o| p.option_name(o).to_string()).unwrap_or_default(),
            by,
            attempter: None,
        });
        // A refused attempt is not a decision made: the same decision is asked again.
        if i < d.options.len() {
            self.decisions += 1;
        }
        Verdict::Pick(i, by)
    }
}

impl Control for Ctl<'_> {
    fn moments(&self) -> bool {
        !self.queue.is_empty()
    }

    /// The first attempt queued for this moment, taken off the queue: the run makes it here.
    fn moment(&mut self, m: &MomentPoint<'_>) -> Option<(Who, usize)> {
        let i = self
            .queue
            .iter()
            .position(|q| q.moment == m.moment && within(&q.levels, m.counters, m.running))?;
        let q = self.queue.remove(i);
        Some((q.who, q.attempt))
    }

    fn ended(&mut self, hidden: Vec<u32>, uncounted: u32, last: Snapshot) {
        self.held = (hidden, uncounted);
        self.last = Some(Box::new(last));
    }

    fn policy(&self, who: Who) -> Option<PolicyRef> {
        // The modes as they will be at this decision: an `auto` given here counts already.
        let mut modes = self.modes.clone();
        for (_, op) in self.ops.iter().skip(self.next) {
            match op {
                Op::Pick { .. } => break,
                Op::Mode { target, mode } => {
                    let _ = modes.apply(self.p, self.policy_ref, target, mode);
                }
                _ => {}
            }
        }
        Some(modes.policy_for(self.p, who, self.policy_ref))
    }

    /// Answers `d` as a replay of the log would; where that pauses, waits for the next command
    /// and answers again with it.
    fn decide(&mut self, ed: &mut Editor<'_, '_>, d: &DecisionPoint<'_>) -> Result<Verdict, Diag> {
        loop {
            let v = self.answer(ed, d)?;
            if v != Verdict::Pause || self.divergence.is_some() || !self.wait(ed, d) {
                return Ok(v);
            }
        }
    }
}

impl Ctl<'_> {
    /// Answers `d` from the log, then the goal, or pauses.
    fn answer(&mut self, ed: &mut Editor<'_, '_>, d: &DecisionPoint<'_>) -> Result<Verdict, Diag> {
        // The log first: its changes at this decision, then its answer.
        while let Some((entry, op)) = self.ops.get(self.next).cloned() {
            if let Op::Pick { by, .. } = &op {
                self.next += 1;
                if *by == DecidedBy::Policy {
                    // Keep the policy's stream where it was when this was first picked.
                    self.policy_pick(d);
                }
                let attempter = match &op {
                    Op::Pick {
                        attempter: Some(name), ..
                    } => Some(self.who_named(name)),
                    _ => None,
                };
                return Ok(match (self.pick_by_name(d, &op), attempter) {
                    (Ok((i, _)), Some(Ok(who))) => Verdict::Attempt(i, who),
                    (Ok(_), Some(Err(reason))) => {
                        self.next -= 1;
                        self.diverge(entry, reason)
                    }
                    (Ok((i, by)), None) => {
                        if i < d.options.len() {
                            self.decisions += 1;
                        }
                        Verdict::Pick(i, by)
                    }
                    (Err(reason), _) => {
                        self.next -= 1;
                        self.diverge(entry, reason)
                    }
                });
            }
            self.next += 1;
            if let Err(reason) = self.apply(ed, self.next - 1, &op) {
                return Ok(self.diverge(entry, reason));
            }
            // The ruling ended the encounter (an `on leave` hook's `end encounter`): the run
            // leaves this decision unanswered and ends (the pick is not taken).
            if ed.ending() {
                return Ok(Verdict::Pick(0, DecidedBy::Answer));
            }
        }
        // Then the goal. The first decision is the one the REPL showed as pending: the goal
        // decides it (`Pause` stops there, even at a decision that would answer itself). Later
        // ones that answer themselves (auto, or one option) are answered on the way.
        let first = !self.goal_started;
        self.goal_started = true;
        if first {
            self.rec.borrow_mut().start_watch(self.goal);
        }
        if self.goal == Goal::Pause {
            return Ok(Verdict::Pause);
        }
        // Past the point a goal plays to, the run stops at the next decision, whoever's.
        let hit = self.rec.borrow().hit;
        if !first && !hit && self.modes.auto(self.p, d, self.policy_ref).is_some() {
            let i = self.policy_pick(d);
            return Ok(self.record(d, i, DecidedBy::Policy));
        }
        let policy = |s: &mut Self| {
            let i = s.policy_pick(d);
            s.record(d, i, DecidedBy::Policy)
        };
        Ok(match self.goal {
            Goal::Pause => Verdict::Pause,
            Goal::Answer(i) if first && i < d.answerable() => self.record(d, i, DecidedBy::Answer),
            Goal::Answer(_) => Verdict::Pause,
            Goal::Attempt(i, who) if first && i < d.answerable() => self.record_attempt(d, i, who),
            Goal::Attempt(..) => Verdict::Pause,
            Goal::Decisions(n) if self.asked_made < n => {
                self.asked_made += 1;
                policy(self)
            }
            Goal::Decisions(_) => Verdict::Pause,
            Goal::End => policy(self),
            Goal::Turn | Goal::Level(_) | Goal::Until(..) => {
                if first || !hit {
                    policy(self)
                } else {
                    Verdict::Pause
                }
            }
            // Only decisions that answer themselves: the pending one too (never answered behind
            // the back of whoever it waits for; `continue` refuses at one that does not).
            Goal::Continue(_) => {
                if first && self.modes.auto(self.p, d, self.policy_ref).is_some() {
                    policy(self)
                } else {
                    Verdict::Pause
                }
            }
        })
    }
}
