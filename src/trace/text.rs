//! The GM's text view ([`Text`]): compact, aligned lines, indented by level.

use std::fmt::Write as _;

use super::{Change, DecidedBy, EndReason, Event, Sink, World, anchor_text, reason_text, unit_name};
use crate::compile::ir::*;
use crate::syntax::ast::LevelKind;

/// The GM's view: compact, aligned, one line per event that matters, indented by level.
pub struct Text {
    pub out: String,
    depth: usize,
    width: usize,
}

/// `1 minute`, `10 minutes`: a plain English plural, for the text view only.
fn units(n: i64, unit: &str) -> String {
    if n == 1 {
        format!("{n} {unit}")
    } else {
        format!("{n} {unit}s")
    }
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

    /// Back out of the innermost heading.
    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn line(&mut self, kind: &str, actor: &str, rest: &str) {
        let pad = "  ".repeat(self.depth);
        let line = format!("{pad}{kind:<8} {actor:<w$}  {rest}", w = self.width);
        self.out.push_str(line.trim_end());
        self.out.push('\n');
    }
}

impl Sink for Text {
    /// One line (or heading) per event that matters. The dispatch is long only because it has
    /// one short arm per kind of event; the longer kinds are written by their own methods below.
    fn event(&mut self, p: &World<'_>, e: &Event<'_>) {
        match e {
            Event::EncounterStart { seed } => {
                let _ = writeln!(self.out, "{} · {} · seed {seed}", p.ruleset_name, p.encounter_name);
            }
            Event::EncounterEnd { reason } => {
                self.depth = 0;
                let _ = writeln!(self.out, "end of encounter: {}", reason_text(p, reason));
            }
            Event::LevelStart { level, n } => self.level_start(p, *level, *n),
            Event::LevelEnd { level, reason, .. } => self.level_end(p, *level, *reason),
            Event::Order { ids, .. } => {
                let names: Vec<&str> = ids.iter().map(|i| p.character_name(*i)).collect();
                self.line("order", "", &names.join(", "));
            }
            Event::TurnStart { actor } => self.open(&format!("▸ {}", p.character_name(*actor))),
            Event::TurnEnd { .. } => self.close(),
            Event::Roll {
                actor,
                label,
                dice,
                faces,
                total,
            } => self.roll(p, *actor, (*label, *dice), faces, *total),
            Event::Decision {
                decision,
                chooser,
                options,
                picked,
                by,
            } => self.decision(p, *decision, *chooser, (options, *picked), *by),
            Event::Action { actor, action } => self.line(
                "action",
                p.character_name(*actor),
                &p.actions[*action as usize].name.clone(),
            ),
            Event::Resource {
                change,
                actor,
                field,
                amount,
                left,
            } => self.resource(p, *change, *actor, *field, (*amount, *left)),
            Event::Transfer {
                from,
                to,
                amount,
                left,
                total,
            } => self.transfer(p, *from, *to, (*amount, *left, *total)),
            Event::Trigger { trigger, args } => self.trigger(p, *trigger, args),
            Event::ReactionStart { actor } => self.open(&format!("↳ {} reacts", p.character_name(*actor))),
            Event::ReactionEnd { .. } => self.close(),
            Event::EffectStart {
                effect,
                target,
                count,
                at,
            } => self.effect_start(p, *effect, *target, *count, *at),
            Event::EffectEnd { effect, target } => {
                let rest = format!("{:<10} ends", p.fields[*effect as usize].name);
                self.line("effect", p.character_name(*target), &rest);
            }
            Event::Time { amount, unit, clock } => self.time(p, *amount, *unit, *clock),
            Event::Manual { actor, field, value } => self.manual(p, *actor, *field, *value),
            Event::Forced { rolls } => {
                let rolls: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
                self.line("manual", "", &format!("next dice {}", rolls.join(" ")));
            }
            Event::Reseed { seed } => self.line("manual", "", &format!("seed {seed}")),
            Event::Presence { actor, present } => {
                let what = if *present { "joins" } else { "leaves" };
                self.line(what, p.character_name(*actor), "");
            }
            Event::Create { id, values, .. } => self.create(p, *id, values),
            Event::Destroy { id } => self.line("destroy", p.character_name(*id), ""),
        }
    }
}

impl Text {
    fn level_start(&mut self, p: &World<'_>, level: LevelId, n: u64) {
        let def = &p.levels[level as usize];
        match def.kind {
            LevelKind::Phase => self.open(&def.name),
            _ => self.open(&format!("{} {n}", def.name)),
        }
    }

    /// The level closes; an `end` statement's reason gets a line first.
    fn level_end(&mut self, p: &World<'_>, level: LevelId, reason: Option<Option<u16>>) {
        if let Some(r) = reason {
            let text = reason_text(p, &EndReason::Ended(r));
            let name = p.levels[level as usize].name.clone();
            self.line("end", "", &format!("{name}: {text}"));
        }
        self.close();
    }

    fn roll(
        &mut self,
        p: &World<'_>,
        actor: Option<EntityId>,
        (label, dice): (LabelId, DiceId),
        faces: &[u32],
        total: i64,
    ) {
        let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
        let who = actor.map(|a| p.character_name(a)).unwrap_or("");
        let rest = format!(
            "{:<10} {} [{}] = {total}",
            p.labels.get(label as usize).map(String::as_str).unwrap_or("roll"),
            p.dice[dice as usize].0,
            faces.join(" ")
        );
        self.line("roll", who, &rest);
    }

    fn decision(
        &mut self,
        p: &World<'_>,
        decision: DecisionId,
        chooser: Who,
        (options, picked): (&[OptionKey], usize),
        by: DecidedBy,
    ) {
        let opts: Vec<&str> = options.iter().map(|k| p.option_name(*k)).collect();
        let picked = options.get(picked).map(|k| p.option_name(*k)).unwrap_or("?");
        let by = if by == DecidedBy::Policy { " (policy)" } else { "" };
        let rest = format!(
            "{:<10} {picked:<8} of {}{by}",
            p.decisions[decision as usize],
            opts.join("|")
        );
        self.line("choose", p.who_name(chooser), &rest);
    }

    /// `spend`, `gain`, `reset`, `forfeit` or `set` of one field; `(amount, left)`.
    fn resource(&mut self, p: &World<'_>, change: Change, actor: EntityId, field: FieldId, (amount, left): (i64, i64)) {
        let f = &p.fields[field as usize].name;
        let rest = match change {
            Change::Spend => format!("{f:<10} -{amount} → {left}"),
            Change::Gain => format!("{f:<10} +{amount} → {left}"),
            Change::Forfeit => format!("{f:<10} {amount} lost → {left}"),
            Change::Reset | Change::Set => format!("{f:<10} = {}", p.value_text(field, left)),
        };
        let who = if actor == TABLE { "" } else { p.character_name(actor) };
        self.line(change.name(), who, &rest);
    }

    /// `transfer`; `(amount, left, total)`.
    fn transfer(
        &mut self,
        p: &World<'_>,
        from: (EntityId, FieldId),
        to: (EntityId, FieldId),
        (amount, left, total): (i64, i64, i64),
    ) {
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

    fn trigger(&mut self, p: &World<'_>, trigger: TriggerId, args: &[i64]) {
        let names: Vec<&str> = args.iter().map(|a| p.character_name(*a as EntityId)).collect();
        let who = names.first().copied().unwrap_or("");
        let rest = format!("{}({})", p.triggers[trigger as usize].name, names.join(", "));
        self.line("trigger", who, &rest);
    }

    fn effect_start(&mut self, p: &World<'_>, effect: FieldId, target: EntityId, count: i64, at: Anchor) {
        let rest = format!(
            "{:<10} for {count}, counted at {}",
            p.fields[effect as usize].name,
            anchor_text(p, at)
        );
        self.line("effect", p.character_name(target), &rest);
    }

    fn time(&mut self, p: &World<'_>, amount: i64, unit: UnitId, clock: i64) {
        let rest = format!(
            "+{} → {}",
            units(amount, unit_name(p, unit)),
            units(clock, unit_name(p, 0))
        );
        self.line("time", "", &rest);
    }

    fn manual(&mut self, p: &World<'_>, actor: EntityId, field: FieldId, value: i64) {
        let f = &p.fields[field as usize].name;
        let who = if actor == TABLE { "" } else { p.character_name(actor) };
        self.line("manual", who, &format!("{f:<10} = {value}"));
    }

    fn create(&mut self, p: &World<'_>, id: EntityId, values: &[(FieldId, i64)]) {
        let fields: Vec<String> = values
            .iter()
            .map(|(f, v)| format!("{} = {}", p.fields[*f as usize].name, p.value_text(*f, *v)))
            .collect();
        self.line("create", p.character_name(id), &fields.join(", "));
    }
}
