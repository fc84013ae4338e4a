//! The trace: the ordered events a run emits, and its views (JSON lines and the GM's text).
//!
//! Events carry slots, never strings; the views look names up in the [`Program`].

use std::fmt::Write as _;

use crate::compile::ir::*;
use crate::syntax::ast::LevelKind;

/// Why an encounter ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `play` ran to its end.
    Complete,
    /// `end encounter`, with its `because` text.
    Ended(Option<u16>),
    /// `--until LEVEL=N`, or the default limit on the outermost level.
    Until { level: LevelId, n: u64, default: bool },
}

/// How a resource changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Spend,
    Gain,
    Reset,
    Forfeit,
    Set,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Spend => "spend",
            Change::Gain => "gain",
            Change::Reset => "reset",
            Change::Forfeit => "forfeit",
            Change::Set => "set",
        }
    }
}

/// Who answered a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    Answer,
    Policy,
}

/// One event of a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<'a> {
    EncounterStart {
        seed: u64,
    },
    EncounterEnd {
        reason: EndReason,
    },
    LevelStart {
        level: LevelId,
        n: u64,
    },
    /// `reason` is set when an `end` statement ended the level early.
    LevelEnd {
        level: LevelId,
        n: u64,
        reason: Option<Option<u16>>,
    },
    Order {
        order: OrderId,
        ids: &'a [EntityId],
    },
    TurnStart {
        actor: EntityId,
    },
    TurnEnd {
        actor: EntityId,
    },
    Roll {
        actor: Option<EntityId>,
        label: LabelId,
        dice: DiceId,
        faces: &'a [u32],
        total: i64,
    },
    Decision {
        decision: DecisionId,
        chooser: Who,
        options: &'a [OptionKey],
        picked: usize,
        by: DecidedBy,
    },
    Action {
        actor: EntityId,
        action: ActionId,
    },
    Resource {
        change: Change,
        actor: EntityId,
        field: FieldId,
        amount: i64,
        left: i64,
    },
    /// `transfer`: `amount` moved from one character's resource to another's (or the same's).
    Transfer {
        from: (EntityId, FieldId),
        to: (EntityId, FieldId),
        amount: i64,
        /// What the giver has left, and what the receiver now has.
        left: i64,
        total: i64,
    },
    /// `raise`: a trigger with its arguments (characters).
    Trigger {
        trigger: TriggerId,
        args: &'a [i64],
    },
    ReactionStart {
        actor: EntityId,
    },
    ReactionEnd {
        actor: EntityId,
    },
    EffectStart {
        effect: FieldId,
        target: EntityId,
        count: i64,
        at: Anchor,
    },
    EffectEnd {
        effect: FieldId,
        target: EntityId,
    },
    /// `elapse`: the game clock moved on; `clock` is the total, in the base unit.
    Time {
        amount: i64,
        unit: UnitId,
        clock: i64,
    },
    /// A field set by hand (a GM's ruling, in the REPL); `actor` is [`TABLE`] for a global.
    Manual {
        actor: EntityId,
        field: FieldId,
        value: i64,
    },
    /// The next dice forced by hand.
    Forced {
        rolls: &'a [i64],
    },
    /// The dice stream restarted by hand from a new seed.
    Reseed {
        seed: u64,
    },
    /// A character left play (skipped by every loop, choice and order from now on) or joined it.
    Presence {
        actor: EntityId,
        present: bool,
    },
    /// `create`: a thing entered play, with the fields it was given.
    Create {
        id: EntityId,
        ty: TypeId,
        values: &'a [(FieldId, i64)],
    },
    /// `destroy`: an entity left play for good.
    Destroy {
        id: EntityId,
    },
}

/// What the views name entities in: the program, and the names of the things `create` made
/// (ids after the declared entities, in the order they were made).
pub struct World<'a> {
    pub p: &'a Program,
    pub made: &'a [String],
}

impl std::ops::Deref for World<'_> {
    type Target = Program;
    fn deref(&self) -> &Program {
        self.p
    }
}

impl World<'_> {
    /// A world with nothing made yet.
    pub fn of(p: &Program) -> World<'_> {
        World { p, made: &[] }
    }

    pub fn character_name(&self, id: EntityId) -> &str {
        let n = self.p.characters.len();
        match (id as usize).checked_sub(n) {
            Some(k) if id != TABLE => self.made.get(k).map_or("?", String::as_str),
            _ => self.p.character_name(id),
        }
    }

    pub fn option_name(&self, key: OptionKey) -> &str {
        match key {
            OptionKey::Character(e) => self.character_name(e),
            k => self.p.option_name(k),
        }
    }

    pub fn who_name(&self, who: Who) -> &str {
        match who {
            Who::Character(e) => self.character_name(e),
            w => self.p.who_name(w),
        }
    }

    /// The type name of an entity (`character`, or a declared thing).
    pub fn type_name(&self, ty: TypeId) -> &str {
        self.p.things.get(ty as usize).map_or("thing", |t| t.0.as_str())
    }

    /// A field's value as text: a number, or for an entity-valued field a name (or `none`).
    pub fn value_text(&self, field: FieldId, v: i64) -> String {
        match self.p.fields.get(field as usize).and_then(|f| f.refers) {
            Some(_) if v < 0 => "none".into(),
            Some(_) => self.character_name(v as EntityId).to_string(),
            None => v.to_string(),
        }
    }

    /// A field's value as JSON: a number, or a name (or `null`).
    fn value_json(&self, field: FieldId, v: i64) -> String {
        match self.p.fields.get(field as usize).and_then(|f| f.refers) {
            Some(_) if v < 0 => "null".into(),
            Some(_) => q(self.character_name(v as EntityId)),
            None => v.to_string(),
        }
    }
}

/// Receives the events of a run, in order.
pub trait Sink {
    fn event(&mut self, world: &World<'_>, event: &Event<'_>);
}

/// Collects nothing: for runs whose result is all that matters.
pub struct NullSink;

impl Sink for NullSink {
    fn event(&mut self, _: &World<'_>, _: &Event<'_>) {}
}

/// The JSON lines view: one object per event, keys in a fixed order.
#[derive(Default)]
pub struct JsonLines {
    pub out: String,
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn level_kind(k: LevelKind) -> &'static str {
    match k {
        LevelKind::Level => "level",
        LevelKind::Phase => "phase",
        LevelKind::Round => "round",
    }
}

/// Where a duration is counted, in words: `place 2 of ORDER`, `start of NAME's turn`.
pub fn anchor_text(p: &World<'_>, a: Anchor) -> String {
    let level = |l: LevelId| p.levels.get(l as usize).map(|l| l.name.as_str()).unwrap_or("?");
    match a {
        Anchor::Place(o, i) => format!(
            "place {} of {}",
            i + 1,
            p.orders.get(o as usize).map_or("?", |o| o.name.as_str())
        ),
        Anchor::TurnStart(e) => format!("start of {}'s turn", p.character_name(e)),
        Anchor::TurnEnd(e) => format!("end of {}'s turn", p.character_name(e)),
        Anchor::LevelStart(l) => format!("start of {}", level(l)),
        Anchor::LevelEnd(l) => format!("end of {}", level(l)),
    }
}

/// `1 minute`, `10 minutes`: a plain English plural, for the text view only.
fn units(n: i64, unit: &str) -> String {
    if n == 1 {
        format!("{n} {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

fn unit_name(p: &Program, u: UnitId) -> &str {
    p.units.get(u as usize).map(|u| u.0.as_str()).unwrap_or("time")
}

pub fn reason_text(p: &Program, r: &EndReason) -> String {
    match r {
        EndReason::Complete => "complete".into(),
        EndReason::Ended(Some(i)) => p.reasons.get(*i as usize).cloned().unwrap_or_default(),
        EndReason::Ended(None) => "ended".into(),
        EndReason::Until { level, n, default } => {
            let name = p.levels.get(*level as usize).map(|l| l.name.as_str()).unwrap_or("?");
            if *default {
                format!("limit {name}={n}")
            } else {
                format!("until {name}={n}")
            }
        }
    }
}

impl Sink for JsonLines {
    fn event(&mut self, p: &World<'_>, e: &Event<'_>) {
        let o = &mut self.out;
        let name = |id: EntityId| q(p.character_name(id));
        match e {
            Event::EncounterStart { seed } => {
                let _ = write!(
                    o,
                    r#"{{"event":"encounter_start","ruleset":{},"encounter":{},"seed":{seed}}}"#,
                    q(&p.ruleset_name),
                    q(&p.encounter_name)
                );
            }
            Event::EncounterEnd { reason } => {
                let _ = write!(
                    o,
                    r#"{{"event":"encounter_end","reason":{}}}"#,
                    q(&reason_text(p, reason))
                );
            }
            Event::LevelStart { level, n } | Event::LevelEnd { level, n, .. } => {
                let def = &p.levels[*level as usize];
                let kind = level_kind(def.kind);
                let edge = if matches!(e, Event::LevelStart { .. }) {
                    "start"
                } else {
                    "end"
                };
                let _ = match def.kind {
                    LevelKind::Phase => write!(o, r#"{{"event":"phase_{edge}","phase":{},"n":{n}"#, q(&def.name)),
                    LevelKind::Round => write!(o, r#"{{"event":"round_{edge}","round":{n},"level":{}"#, q(&def.name)),
                    LevelKind::Level => write!(o, r#"{{"event":"{kind}_{edge}","level":{},"n":{n}"#, q(&def.name)),
                };
                if let Event::LevelEnd { reason: Some(r), .. } = e {
                    let text = reason_text(p, &EndReason::Ended(*r));
                    let _ = write!(o, r#","reason":{}"#, q(&text));
                }
                o.push('}');
            }
            Event::Order { order, ids } => {
                let names: Vec<String> = ids.iter().map(|i| name(*i)).collect();
                let _ = write!(
                    o,
                    r#"{{"event":"order","by":{},"order":[{}]}}"#,
                    q(&p.orders[*order as usize].name),
                    names.join(",")
                );
            }
            Event::TurnStart { actor } => {
                let _ = write!(o, r#"{{"event":"turn_start","actor":{}}}"#, name(*actor));
            }
            Event::TurnEnd { actor } => {
                let _ = write!(o, r#"{{"event":"turn_end","actor":{}}}"#, name(*actor));
            }
            Event::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => {
                o.push_str(r#"{"event":"roll""#);
                if let Some(a) = actor {
                    let _ = write!(o, r#","actor":{}"#, name(*a));
                }
                let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
                let _ = write!(
                    o,
                    r#","for":{},"dice":{},"faces":[{}],"total":{total}}}"#,
                    q(p.labels.get(*label as usize).map(String::as_str).unwrap_or("roll")),
                    q(&p.dice[*dice as usize].0.to_string()),
                    faces.join(",")
                );
            }
            Event::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => {
                let opts: Vec<String> = options.iter().map(|k| q(p.option_name(*k))).collect();
                let picked = options.get(*picked).map(|k| p.option_name(*k)).unwrap_or("?");
                let by = if *by == DecidedBy::Answer { "answer" } else { "policy" };
                let who = q(p.who_name(*chooser));
                let _ = write!(
                    o,
                    r#"{{"event":"decision","actor":{who},"decision":{},"chooser":{who},"options":[{}],"picked":{},"by":"{by}"}}"#,
                    q(&p.decisions[*decision as usize]),
                    opts.join(","),
                    q(picked)
                );
            }
            Event::Action { actor, action } => {
                let _ = write!(
                    o,
                    r#"{{"event":"action","actor":{},"action":{}}}"#,
                    name(*actor),
                    q(&p.actions[*action as usize].name)
                );
            }
            Event::Resource {
                change,
                actor,
                field,
                amount,
                left,
            } => {
                let key = if *change == Change::Set { "stat" } else { "resource" };
                let _ = write!(o, r#"{{"event":"{}","#, change.name());
                // A global belongs to the table: no actor.
                if *actor != TABLE {
                    let _ = write!(o, r#""actor":{},"#, name(*actor));
                }
                let _ = write!(
                    o,
                    r#""{key}":{},"amount":{},"left":{}}}"#,
                    q(&p.fields[*field as usize].name),
                    p.value_json(*field, *amount),
                    p.value_json(*field, *left)
                );
            }
            Event::Transfer {
                from,
                to,
                amount,
                left,
                total,
            } => {
                let _ = write!(
                    o,
                    r#"{{"event":"transfer","actor":{},"resource":{},"amount":{amount},"left":{left},"to":{},"to_resource":{},"to_left":{total}}}"#,
                    name(from.0),
                    q(&p.fields[from.1 as usize].name),
                    name(to.0),
                    q(&p.fields[to.1 as usize].name)
                );
            }
            Event::Trigger { trigger, args } => {
                let names: Vec<String> = args.iter().map(|a| name(*a as EntityId)).collect();
                let _ = write!(
                    o,
                    r#"{{"event":"trigger","trigger":{},"args":[{}]}}"#,
                    q(&p.triggers[*trigger as usize].name),
                    names.join(",")
                );
            }
            Event::ReactionStart { actor } => {
                let _ = write!(o, r#"{{"event":"reaction_start","actor":{}}}"#, name(*actor));
            }
            Event::EffectStart {
                effect,
                target,
                count,
                at,
            } => {
                let _ = write!(
                    o,
                    r#"{{"event":"effect_start","actor":{},"effect":{},"for":{count},"counted_at":{}}}"#,
                    name(*target),
                    q(&p.fields[*effect as usize].name),
                    q(&anchor_text(p, *at))
                );
            }
            Event::EffectEnd { effect, target } => {
                let _ = write!(
                    o,
                    r#"{{"event":"effect_end","actor":{},"effect":{}}}"#,
                    name(*target),
                    q(&p.fields[*effect as usize].name)
                );
            }
            Event::ReactionEnd { actor } => {
                let _ = write!(o, r#"{{"event":"reaction_end","actor":{}}}"#, name(*actor));
            }
            Event::Time { amount, unit, clock } => {
                let _ = write!(
                    o,
                    r#"{{"event":"time","amount":{amount},"unit":{},"clock":{clock},"clock_unit":{}}}"#,
                    q(unit_name(p, *unit)),
                    q(unit_name(p, 0))
                );
            }
            Event::Manual { actor, field, value } => {
                o.push_str(r#"{"event":"manual","#);
                if *actor != TABLE {
                    let _ = write!(o, r#""actor":{},"#, name(*actor));
                }
                let _ = write!(o, r#""field":{},"value":{value}}}"#, q(&p.fields[*field as usize].name));
            }
            Event::Forced { rolls } => {
                let rolls: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
                let _ = write!(o, r#"{{"event":"manual","rolls":[{}]}}"#, rolls.join(","));
            }
            Event::Reseed { seed } => {
                let _ = write!(o, r#"{{"event":"manual","seed":{seed}}}"#);
            }
            Event::Presence { actor, present } => {
                let what = if *present { "join" } else { "leave" };
                let _ = write!(o, r#"{{"event":"{what}","actor":{}}}"#, name(*actor));
            }
            Event::Create { id, ty, values } => {
                let fields: Vec<String> = values
                    .iter()
                    .map(|(f, v)| format!("{}:{}", q(&p.fields[*f as usize].name), p.value_json(*f, *v)))
                    .collect();
                let _ = write!(
                    o,
                    r#"{{"event":"create","thing":{},"name":{},"fields":{{{}}}}}"#,
                    q(p.type_name(*ty)),
                    name(*id),
                    fields.join(",")
                );
            }
            Event::Destroy { id } => {
                let _ = write!(o, r#"{{"event":"destroy","name":{}}}"#, name(*id));
            }
        }
        o.push('\n');
    }
}

/// The GM's view: compact, aligned, one line per event that matters, indented by level.
pub struct Text {
    pub out: String,
    depth: usize,
    width: usize,
}

impl Text {
    pub fn new(p: &Program) -> Self {
        let width = p
            .characters
            .iter()
            .map(|c| &c.name)
            .chain(p.roles.iter())
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        Text {
            out: String::new(),
            depth: 0,
            width,
        }
    }

    /// A heading at the current depth; what follows is indented under it.
    fn open(&mut self, heading: &str) {
        let pad = "  ".repeat(self.depth);
        let _ = writeln!(self.out, "{pad}{heading}");
        self.depth += 1;
    }

    fn line(&mut self, kind: &str, actor: &str, rest: &str) {
        let pad = "  ".repeat(self.depth);
        let line = format!("{pad}{kind:<8} {actor:<w$}  {rest}", w = self.width);
        self.out.push_str(line.trim_end());
        self.out.push('\n');
    }
}

impl Sink for Text {
    fn event(&mut self, p: &World<'_>, e: &Event<'_>) {
        match e {
            Event::EncounterStart { seed } => {
                let _ = writeln!(self.out, "{} · {} · seed {seed}", p.ruleset_name, p.encounter_name);
            }
            Event::EncounterEnd { reason } => {
                self.depth = 0;
                let _ = writeln!(self.out, "end of encounter: {}", reason_text(p, reason));
            }
            Event::LevelStart { level, n } => {
                let def = &p.levels[*level as usize];
                match def.kind {
                    LevelKind::Phase => self.open(&def.name),
                    _ => self.open(&format!("{} {n}", def.name)),
                }
            }
            Event::LevelEnd { level, reason, .. } => {
                if let Some(r) = reason {
                    let text = reason_text(p, &EndReason::Ended(*r));
                    let name = p.levels[*level as usize].name.clone();
                    self.line("end", "", &format!("{name}: {text}"));
                }
                self.depth = self.depth.saturating_sub(1);
            }
            Event::Order { ids, .. } => {
                let names: Vec<&str> = ids.iter().map(|i| p.character_name(*i)).collect();
                self.line("order", "", &names.join(", "));
            }
            Event::TurnStart { actor } => self.open(&format!("▸ {}", p.character_name(*actor))),
            Event::TurnEnd { .. } => self.depth = self.depth.saturating_sub(1),
            Event::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => {
                let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
                let who = actor.map(|a| p.character_name(a)).unwrap_or("");
                let rest = format!(
                    "{:<10} {} [{}] = {total}",
                    p.labels.get(*label as usize).map(String::as_str).unwrap_or("roll"),
                    p.dice[*dice as usize].0,
                    faces.join(" ")
                );
                self.line("roll", who, &rest);
            }
            Event::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => {
                let opts: Vec<&str> = options.iter().map(|k| p.option_name(*k)).collect();
                let picked = options.get(*picked).map(|k| p.option_name(*k)).unwrap_or("?");
                let by = if *by == DecidedBy::Policy { " (policy)" } else { "" };
                let rest = format!(
                    "{:<10} {picked:<8} of {}{by}",
                    p.decisions[*decision as usize],
                    opts.join("|")
                );
                self.line("choose", p.who_name(*chooser), &rest);
            }
            Event::Action { actor, action } => {
                self.line(
                    "action",
                    p.character_name(*actor),
                    &p.actions[*action as usize].name.clone(),
                );
            }
            Event::Resource {
                change,
                actor,
                field,
                amount,
                left,
            } => {
                let f = &p.fields[*field as usize].name;
                let rest = match change {
                    Change::Spend => format!("{f:<10} -{amount} → {left}"),
                    Change::Gain => format!("{f:<10} +{amount} → {left}"),
                    Change::Forfeit => format!("{f:<10} {amount} lost → {left}"),
                    Change::Reset | Change::Set => format!("{f:<10} = {}", p.value_text(*field, *left)),
                };
                let who = if *actor == TABLE { "" } else { p.character_name(*actor) };
                self.line(change.name(), who, &rest);
            }
            Event::Transfer {
                from,
                to,
                amount,
                left,
                total,
            } => {
                let f = &p.fields[from.1 as usize].name;
                let t = &p.fields[to.1 as usize].name;
                let rest = if from.0 == to.0 {
                    format!("{f:<10} -{amount} → {left}, {t} +{amount} → {total}")
                } else {
                    let other = p.character_name(to.0);
                    format!("{f:<10} -{amount} → {left}, {other}'s {t} +{amount} → {total}")
                };
                self.line("transfer", p.character_name(from.0), &rest);
            }
            Event::Trigger { trigger, args } => {
                let names: Vec<&str> = args.iter().map(|a| p.character_name(*a as EntityId)).collect();
                let who = names.first().copied().unwrap_or("");
                let rest = format!("{}({})", p.triggers[*trigger as usize].name, names.join(", "));
                self.line("trigger", who, &rest);
            }
            Event::ReactionStart { actor } => self.open(&format!("↳ {} reacts", p.character_name(*actor))),
            Event::ReactionEnd { .. } => self.depth = self.depth.saturating_sub(1),
            Event::EffectStart {
                effect,
                target,
                count,
                at,
            } => {
                let rest = format!(
                    "{:<10} for {count}, counted at {}",
                    p.fields[*effect as usize].name,
                    anchor_text(p, *at)
                );
                self.line("effect", p.character_name(*target), &rest);
            }
            Event::EffectEnd { effect, target } => {
                let rest = format!("{:<10} ends", p.fields[*effect as usize].name);
                self.line("effect", p.character_name(*target), &rest);
            }
            Event::Time { amount, unit, clock } => {
                let rest = format!(
                    "+{} → {}",
                    units(*amount, unit_name(p, *unit)),
                    units(*clock, unit_name(p, 0))
                );
                self.line("time", "", &rest);
            }
            Event::Manual { actor, field, value } => {
                let f = &p.fields[*field as usize].name;
                let who = if *actor == TABLE { "" } else { p.character_name(*actor) };
                self.line("manual", who, &format!("{f:<10} = {value}"));
            }
            Event::Forced { rolls } => {
                let rolls: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
                self.line("manual", "", &format!("next dice {}", rolls.join(" ")));
            }
            Event::Reseed { seed } => self.line("manual", "", &format!("seed {seed}")),
            Event::Presence { actor, present } => {
                let what = if *present { "joins" } else { "leaves" };
                self.line(what, p.character_name(*actor), "");
            }
            Event::Create { id, values, .. } => {
                let fields: Vec<String> = values
                    .iter()
                    .map(|(f, v)| format!("{} = {}", p.fields[*f as usize].name, p.value_text(*f, *v)))
                    .collect();
                self.line("create", p.character_name(*id), &fields.join(", "));
            }
            Event::Destroy { id } => self.line("destroy", p.character_name(*id), ""),
        }
    }
}
