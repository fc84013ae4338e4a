//! The JSON lines view ([`JsonLines`]): the stable machine interface, one object per event.

use std::fmt::Write as _;

use super::{Change, DecidedBy, EndReason, Event, Sink, World, anchor_text, reason_text, unit_name};
use crate::compile::ir::*;
use crate::syntax::ast::LevelKind;

/// The JSON lines view: one object per event, keys in a fixed order.
#[derive(Default)]
pub struct JsonLines {
    pub out: String,
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A character's name as a JSON string.
fn name(p: &World<'_>, id: EntityId) -> String {
    q(p.character_name(id))
}

fn level_kind(k: LevelKind) -> &'static str {
    match k {
        LevelKind::Level => "level",
        LevelKind::Phase => "phase",
        LevelKind::Round => "round",
    }
}

impl World<'_> {
    /// A field's value as JSON: a number, or a name (or `null`).
    fn value_json(&self, field: FieldId, v: i64) -> String {
        match self.p.fields.get(field as usize).and_then(|f| f.refers) {
            Some(_) if v < 0 => "null".into(),
            Some(_) => q(self.character_name(v as EntityId)),
            None => v.to_string(),
        }
    }
}

impl Sink for JsonLines {
    /// One line per event. The dispatch is long only because it has one short arm per kind
    /// of event; each kind's object is written by its own function below.
    fn event(&mut self, p: &World<'_>, e: &Event<'_>) {
        let o = &mut self.out;
        match e {
            Event::EncounterStart { seed } => encounter_start(o, p, *seed),
            Event::EncounterEnd { reason } => encounter_end(o, p, reason),
            Event::LevelStart { level, n } => level_edge(o, p, (*level, *n), "start", None),
            Event::LevelEnd { level, n, reason } => level_edge(o, p, (*level, *n), "end", *reason),
            Event::Order { order, ids } => order_event(o, p, *order, ids),
            Event::TurnStart { actor } => actor_event(o, p, "turn_start", *actor),
            Event::TurnEnd { actor } => actor_event(o, p, "turn_end", *actor),
            Event::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => roll(o, p, *actor, *label, *dice, faces, *total),
            Event::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => decision_event(o, p, *decision, *chooser, options, *picked, *by),
            Event::Action { actor, action } => action_event(o, p, *actor, *action),
            Event::Resource {
                change,
                actor,
                field,
                amount,
                left,
            } => resource(o, p, *change, *actor, *field, (*amount, *left)),
            Event::Transfer {
                from,
                to,
                amount,
                left,
                total,
            } => transfer(o, p, *from, *to, (*amount, *left, *total)),
            Event::Trigger { trigger, args } => trigger_event(o, p, *trigger, args),
            Event::ReactionStart { actor } => actor_event(o, p, "reaction_start", *actor),
            Event::EffectStart {
                effect,
                target,
                count,
                at,
            } => effect_start(o, p, *effect, *target, *count, *at),
            Event::EffectEnd { effect, target } => effect_end(o, p, *effect, *target),
            Event::ReactionEnd { actor } => actor_event(o, p, "reaction_end", *actor),
            Event::Time { amount, unit, clock } => time(o, p, *amount, *unit, *clock),
            Event::Manual { actor, field, value } => manual(o, p, *actor, *field, *value),
            Event::Forced { rolls } => {
                let rolls: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
                let _ = write!(o, r#"{{"event":"manual","rolls":[{}]}}"#, rolls.join(","));
            }
            Event::Reseed { seed } => {
                let _ = write!(o, r#"{{"event":"manual","seed":{seed}}}"#);
            }
            Event::Presence { actor, present } => {
                let what = if *present { "join" } else { "leave" };
                actor_event(o, p, what, *actor);
            }
            Event::Create { id, ty, values } => create(o, p, *id, *ty, values),
            Event::Destroy { id } => {
                let _ = write!(o, r#"{{"event":"destroy","name":{}}}"#, name(p, *id));
            }
        }
        o.push('\n');
    }
}

fn encounter_start(o: &mut String, p: &World<'_>, seed: u64) {
    let _ = write!(
        o,
        r#"{{"event":"encounter_start","ruleset":{},"encounter":{},"seed":{seed}}}"#,
        q(&p.ruleset_name),
        q(&p.encounter_name)
    );
}

fn encounter_end(o: &mut String, p: &World<'_>, reason: &EndReason) {
    let _ = write!(
        o,
        r#"{{"event":"encounter_end","reason":{}}}"#,
        q(&reason_text(p, reason))
    );
}

/// `{"event":KIND,"actor":NAME}`: the events that carry only who they are about.
fn actor_event(o: &mut String, p: &World<'_>, kind: &str, actor: EntityId) {
    let _ = write!(o, r#"{{"event":"{kind}","actor":{}}}"#, name(p, actor));
}

/// A level's `start` or `end` edge (`level_*`, `phase_*` or `round_*`), with the reason
/// an `end` statement gave.
fn level_edge(o: &mut String, p: &World<'_>, (level, n): (LevelId, u64), edge: &str, reason: Option<Option<u16>>) {
    let def = &p.levels[level as usize];
    let kind = level_kind(def.kind);
    let _ = match def.kind {
        LevelKind::Phase => write!(o, r#"{{"event":"phase_{edge}","phase":{},"n":{n}"#, q(&def.name)),
        LevelKind::Round => write!(o, r#"{{"event":"round_{edge}","round":{n},"level":{}"#, q(&def.name)),
        LevelKind::Level => write!(o, r#"{{"event":"{kind}_{edge}","level":{},"n":{n}"#, q(&def.name)),
    };
    if let Some(r) = reason {
        let text = reason_text(p, &EndReason::Ended(r));
        let _ = write!(o, r#","reason":{}"#, q(&text));
    }
    o.push('}');
}

fn order_event(o: &mut String, p: &World<'_>, order: OrderId, ids: &[EntityId]) {
    let names: Vec<String> = ids.iter().map(|i| name(p, *i)).collect();
    let _ = write!(
        o,
        r#"{{"event":"order","by":{},"order":[{}]}}"#,
        q(&p.orders[order as usize].name),
        names.join(",")
    );
}

fn action_event(o: &mut String, p: &World<'_>, actor: EntityId, action: ActionId) {
    let _ = write!(
        o,
        r#"{{"event":"action","actor":{},"action":{}}}"#,
        name(p, actor),
        q(&p.actions[action as usize].name)
    );
}

fn roll(
    o: &mut String,
    p: &World<'_>,
    actor: Option<EntityId>,
    label: LabelId,
    dice: DiceId,
    faces: &[u32],
    total: i64,
) {
    o.push_str(r#"{"event":"roll""#);
    if let Some(a) = actor {
        let _ = write!(o, r#","actor":{}"#, name(p, a));
    }
    let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    let _ = write!(
        o,
        r#","for":{},"dice":{},"faces":[{}],"total":{total}}}"#,
        q(p.labels.get(label as usize).map(String::as_str).unwrap_or("roll")),
        q(&p.dice[dice as usize].0.to_string()),
        faces.join(",")
    );
}

fn decision_event(
    o: &mut String,
    p: &World<'_>,
    decision: DecisionId,
    chooser: Who,
    options: &[OptionKey],
    picked: usize,
    by: DecidedBy,
) {
    let opts: Vec<String> = options.iter().map(|k| q(p.option_name(*k))).collect();
    let picked = options.get(picked).map(|k| p.option_name(*k)).unwrap_or("?");
    let by = if by == DecidedBy::Answer { "answer" } else { "policy" };
    let who = q(p.who_name(chooser));
    let _ = write!(
        o,
        r#"{{"event":"decision","actor":{who},"decision":{},"chooser":{who},"options":[{}],"picked":{},"by":"{by}"}}"#,
        q(&p.decisions[decision as usize]),
        opts.join(","),
        q(picked)
    );
}

/// `spend`, `gain`, `reset`, `forfeit` or `set` of one field; `(amount, left)`.
fn resource(
    o: &mut String,
    p: &World<'_>,
    change: Change,
    actor: EntityId,
    field: FieldId,
    (amount, left): (i64, i64),
) {
    let key = if change == Change::Set { "stat" } else { "resource" };
    let _ = write!(o, r#"{{"event":"{}","#, change.name());
    // A global belongs to the table: no actor.
    if actor != TABLE {
        let _ = write!(o, r#""actor":{},"#, name(p, actor));
    }
    let _ = write!(
        o,
        r#""{key}":{},"amount":{},"left":{}}}"#,
        q(&p.fields[field as usize].name),
        p.value_json(field, amount),
        p.value_json(field, left)
    );
}

/// `transfer`; `(amount, left, total)`.
fn transfer(
    o: &mut String,
    p: &World<'_>,
    from: (EntityId, FieldId),
    to: (EntityId, FieldId),
    (amount, left, total): (i64, i64, i64),
) {
    let _ = write!(
        o,
        r#"{{"event":"transfer","actor":{},"resource":{},"amount":{amount},"left":{left},"to":{},"to_resource":{},"to_left":{total}}}"#,
        name(p, from.0),
        q(&p.fields[from.1 as usize].name),
        name(p, to.0),
        q(&p.fields[to.1 as usize].name)
    );
}

fn trigger_event(o: &mut String, p: &World<'_>, trigger: TriggerId, args: &[i64]) {
    let names: Vec<String> = args.iter().map(|a| name(p, *a as EntityId)).collect();
    let _ = write!(
        o,
        r#"{{"event":"trigger","trigger":{},"args":[{}]}}"#,
        q(&p.triggers[trigger as usize].name),
        names.join(",")
    );
}

fn effect_start(o: &mut String, p: &World<'_>, effect: FieldId, target: EntityId, count: i64, at: Anchor) {
    let _ = write!(
        o,
        r#"{{"event":"effect_start","actor":{},"effect":{},"for":{count},"counted_at":{}}}"#,
        name(p, target),
        q(&p.fields[effect as usize].name),
        q(&anchor_text(p, at))
    );
}

fn effect_end(o: &mut String, p: &World<'_>, effect: FieldId, target: EntityId) {
    let _ = write!(
        o,
        r#"{{"event":"effect_end","actor":{},"effect":{}}}"#,
        name(p, target),
        q(&p.fields[effect as usize].name)
    );
}

fn time(o: &mut String, p: &World<'_>, amount: i64, unit: UnitId, clock: i64) {
    let _ = write!(
        o,
        r#"{{"event":"time","amount":{amount},"unit":{},"clock":{clock},"clock_unit":{}}}"#,
        q(unit_name(p, unit)),
        q(unit_name(p, 0))
    );
}

fn manual(o: &mut String, p: &World<'_>, actor: EntityId, field: FieldId, value: i64) {
    o.push_str(r#"{"event":"manual","#);
    if actor != TABLE {
        let _ = write!(o, r#""actor":{},"#, name(p, actor));
    }
    let _ = write!(o, r#""field":{},"value":{value}}}"#, q(&p.fields[field as usize].name));
}

fn create(o: &mut String, p: &World<'_>, id: EntityId, ty: TypeId, values: &[(FieldId, i64)]) {
    let fields: Vec<String> = values
        .iter()
        .map(|(f, v)| format!("{}:{}", q(&p.fields[*f as usize].name), p.value_json(*f, *v)))
        .collect();
    let _ = write!(
        o,
        r#"{{"event":"create","thing":{},"name":{},"fields":{{{}}}}}"#,
        q(p.type_name(ty)),
        name(p, id),
        fields.join(",")
    );
}
