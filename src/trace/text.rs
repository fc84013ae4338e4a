//! The GM's text view ([`Text`]): compact, aligned lines, indented by level.
//!
//! Each event's line is formatted into one buffer the view keeps (a line is trimmed at its end,
//! so it is whole before it is written), then written into the view's writer as it happens.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{
    Change, DecidedBy, Decimal, EndReason, Event, FinalState, Out, Sink, World, unit_name, write_anchor, write_reason,
};
use crate::compile::ir::*;
use crate::syntax::ast::{Dice, Keep, LevelKind};

/// The GM's view: compact, aligned, one line per event that matters, indented by level, written
/// into `W` as each event happens. [`Text::new`] writes into memory (read it back with
/// [`Text::out`]); [`Text::with_writer`] writes into any writer, a `BufWriter` on stdout for
/// `turnscript run`. A failed write stops the view (see [`Text::error`]), never the run.
pub struct Text<W: Write = Vec<u8>> {
    out: Out<W>,
    /// The line being formatted, reused from event to event.
    buf: String,
    depth: usize,
    width: usize,
    /// The width of the column of field, decision and roll names (at least 10), and of the
    /// option picked (at least 8): the longest of the program's, so long names stay in line.
    field_w: usize,
    pick_w: usize,
}

/// `1 minute`, `10 minutes`: a plain English plural, for the text view only.
fn units(b: &mut String, n: i64, unit: &str) {
    b.push_str(&units_text(n, unit));
}

/// `1 minute`, `10 minutes`: a plain English plural, for the text views (the trace, the REPL).
pub fn units_text(n: i64, unit: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {unit}{s}")
}

impl Text {
    /// A view that writes into memory.
    pub fn new(p: &Program) -> Self {
        Text::with_writer(p, Vec::new())
    }

    /// The trace so far, of a view that writes into memory.
    pub fn out(&self) -> &str {
        self.out.text()
    }
}

impl<W: Write> Text<W> {
    /// A view that writes each event into `w`.
    pub fn with_writer(p: &Program, w: W) -> Self {
        let width = p
            .characters
            .iter()
            .filter(|c| !p.decks.contains(&c.ty)) // cards are never in the actor column
            .map(|c| &c.name)
            .chain(p.roles.iter())
            // Sides with fields stand as the actors of their events.
            .chain(p.sides.iter().filter(|_| p.sides_have_fields()))
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let longest = |names: &mut dyn Iterator<Item = &String>, least: usize| {
            names.map(|n| n.chars().count()).max().unwrap_or(0).max(least)
        };
        let field_w = longest(
            &mut p.fields.iter().map(|f| &f.name).chain(&p.decisions).chain(&p.labels),
            10,
        );
        let pick_w = longest(
            &mut p
                .options
                .iter()
                .chain(p.actions.iter().map(|a| &a.name))
                .chain(p.characters.iter().map(|c| &c.name)),
            8,
        );
        Text {
            out: Out::new(w),
            buf: String::new(),
            depth: 0,
            width,
            field_w,
            pick_w,
        }
    }

    /// The first error writing the trace, if a write failed; nothing was written after it.
    pub fn error(&self) -> Option<&io::Error> {
        self.out.error.as_ref()
    }

    /// Flushes the writer; after a failed write, gives back that error instead.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The writer.
    pub fn get_ref(&self) -> &W {
        &self.out.w
    }

    /// The writer, given up (unflushed: flush first if it buffers).
    pub fn into_inner(self) -> W {
        self.out.w
    }

    /// The indentation of the current depth, into the buffer.
    fn pad(&mut self) {
        for _ in 0..self.depth {
            self.buf.push_str("  ");
        }
    }

    /// A heading at the current depth; what follows is indented under it. `heading` writes it.
    fn open(&mut self, heading: impl FnOnce(&mut String)) {
        self.pad();
        heading(&mut self.buf);
        self.buf.push('\n');
        self.depth += 1;
    }

    /// Back out of the innermost heading.
    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// A line `KIND ACTOR  REST`, aligned, without trailing blanks; `rest` writes REST.
    fn line(&mut self, kind: &str, actor: &str, rest: impl FnOnce(&mut String)) {
        self.pad();
        let _ = write!(self.buf, "{kind:<8} {actor:<w$}  ", w = self.width);
        rest(&mut self.buf);
        let end = self.buf.trim_end().len();
        self.buf.truncate(end);
        self.buf.push('\n');
    }
}

impl<W: Write> Sink for Text<W> {
    /// One line (or heading) per event that matters, formatted into the buffer, then written.
    fn event(&mut self, p: &World<'_>, e: &Event<'_>) {
        self.buf.clear();
        self.format(p, e);
        if !self.buf.is_empty() {
            let buf = &self.buf;
            self.out.emit(|w| w.write_all(buf.as_bytes()));
        }
    }
}

impl<W: Write> Text<W> {
    /// Formats one event into the buffer. The dispatch is long only because it has one short
    /// arm per kind of event; the longer kinds are formatted by their own methods below.
    fn format(&mut self, p: &World<'_>, e: &Event<'_>) {
        let fw = self.field_w;
        match e {
            Event::EncounterStart { seed } => {
                let _ = writeln!(self.buf, "{} · {} · seed {seed}", p.ruleset_name, p.encounter_name);
            }
            Event::EncounterEnd { reason } => {
                self.depth = 0;
                self.buf.push_str("end of encounter: ");
                let _ = write_reason(&mut self.buf, p, reason);
                self.buf.push('\n');
            }
            Event::LevelStart { level, n } => self.level_start(p, *level, *n),
            Event::LevelEnd { level, reason, .. } => self.level_end(p, *level, *reason),
            Event::Order { ids, .. } => self.line("order", "", |b| {
                for (k, i) in ids.iter().enumerate() {
                    if k > 0 {
                        b.push_str(", ");
                    }
                    b.push_str(p.character_name(*i));
                    if let Some(who) = p.stands_for(*i) {
                        b.push_str(" (");
                        b.push_str(who);
                        b.push(')');
                    }
                }
            }),
            Event::TurnStart { actor } => self.open(|b| {
                b.push_str("▸ ");
                b.push_str(p.character_name(*actor));
            }),
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
            Event::Action { actor, action } => self.line("action", p.character_name(*actor), |b| {
                b.push_str(&p.actions[*action as usize].name)
            }),
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
            Event::ReactionStart { actor } => self.open(|b| {
                let _ = write!(b, "↳ {} reacts", p.character_name(*actor));
            }),
            Event::ReactionEnd { .. } => self.close(),
            Event::EffectStart {
                effect,
                target,
                count,
                at,
            } => self.effect_start(p, *effect, *target, *count, *at),
            Event::EffectTick { effect, target, left } => self.line("effect", p.character_name(*target), |b| {
                let _ = write!(b, "{:<fw$} {left} left", p.fields[*effect as usize].name);
            }),
            Event::Flag { actor, flag, on } => {
                let what = if *on { "mark" } else { "clear" };
                let who = if *actor == TABLE { "" } else { p.character_name(*actor) };
                self.line(what, who, |b| b.push_str(&p.fields[*flag as usize].name));
            }
            Event::EffectEnd { effect, target } => self.line("effect", p.character_name(*target), |b| {
                let _ = write!(b, "{:<fw$} ends", p.fields[*effect as usize].name);
            }),
            Event::Time { amount, unit, clock } => self.time(p, *amount, *unit, *clock),
            Event::Manual { actor, field, value } => self.manual(p, *actor, *field, *value),
            Event::Forced { rolls } => self.line("manual", "", |b| {
                b.push_str("next dice");
                for r in rolls.iter() {
                    let _ = write!(b, " {r}");
                }
            }),
            Event::ForcedDraws { cards } => self.line("manual", "", |b| {
                b.push_str("next cards");
                for (k, c) in cards.iter().enumerate() {
                    b.push_str(if k == 0 { " " } else { ", " });
                    b.push_str(p.character_name(*c));
                }
            }),
            Event::Reseed { seed } => self.line("manual", "", |b| {
                let _ = write!(b, "seed {seed}");
            }),
            Event::Ruling { text } => self.line("manual", "", |b| b.push_str(text)),
            Event::Presence { actor, present } => {
                let what = if *present { "joins" } else { "leaves" };
                self.line(what, p.character_name(*actor), |_| {});
            }
            Event::Create { id, values, .. } => self.create(p, *id, values),
            Event::Destroy { id } => self.line("destroy", p.character_name(*id), |_| {}),
            Event::Shuffle { deck, cards } => self.line("shuffle", "", |b| {
                let s = if *cards == 1 { "" } else { "s" };
                let _ = write!(b, "{:<10} {cards} card{s}", p.deck_defs[*deck as usize].name);
            }),
            Event::Draw { deck, by, card } => {
                let who = by.map_or("", |b| p.character_name(b));
                self.line("draw", who, |b| {
                    let _ = write!(
                        b,
                        "{:<10} {}",
                        p.deck_defs[*deck as usize].name,
                        p.character_name(*card)
                    );
                });
            }
            Event::Pile { deck, card, into } => {
                let what = if *into { "insert" } else { "take" };
                self.line(what, "", |b| {
                    let _ = write!(
                        b,
                        "{:<10} {}",
                        p.deck_defs[*deck as usize].name,
                        p.character_name(*card)
                    );
                });
            }
            Event::Discard { card, returned } => {
                let what = if *returned { "return" } else { "discard" };
                self.line(what, "", |b| b.push_str(p.character_name(*card)));
            }
            Event::NoChoice {
                decision,
                chooser,
                refused,
            } => self.line("no pick", p.who_name(*chooser), |b| {
                let _ = write!(b, "{:<10} ", p.decisions[*decision as usize]);
                for (k, (option, reasons)) in refused.iter().enumerate() {
                    if k > 0 {
                        b.push_str(" | ");
                    }
                    let _ = write!(b, "{}: {}", p.option_name(*option), reasons.join("; "));
                }
            }),
            Event::Refused {
                decision,
                chooser,
                option,
                reasons,
            } => self.line("refused", p.who_name(*chooser), |b| {
                let _ = write!(
                    b,
                    "{:<fw$} {}: ",
                    p.decisions[*decision as usize],
                    p.option_name(*option)
                );
                for (k, r) in reasons.iter().enumerate() {
                    if k > 0 {
                        b.push_str("; ");
                    }
                    b.push_str(r);
                }
            }),
            Event::Attempt { actor, attempt } => self.line("attempt", p.who_name(*actor), |b| {
                b.push_str(p.option_name(*attempt));
            }),
            Event::AttemptRefused {
                actor,
                attempt,
                reasons,
            } => self.line("refused", p.who_name(*actor), |b| {
                let _ = write!(b, "{}: {}", p.option_name(*attempt), reasons.join("; "));
            }),
            Event::TogetherStart { actors } => self.open(|b| {
                // A `together { ... }` block names no one.
                b.push_str("together");
                for (k, a) in actors.iter().enumerate() {
                    b.push_str(if k > 0 { ", " } else { " " });
                    b.push_str(p.character_name(*a));
                }
            }),
            Event::TogetherEnd => self.close(),
            Event::Lapsed { actor, change, field } => self.line("lapsed", p.character_name(*actor), |b| {
                b.push_str(change);
                if let Some(f) = field {
                    b.push(' ');
                    b.push_str(&p.fields[*f as usize].name);
                }
                b.push_str(": destroyed before it was made");
            }),
            Event::Secret { decision, chooser } => self.line("secret", p.who_name(*chooser), |b| {
                let _ = write!(b, "{:<fw$} chosen in secret", p.decisions[*decision as usize]);
            }),
            Event::Measure { measure, about, value } => {
                let who = about.map_or("", |a| p.character_name(a));
                let name = p.measures.get(*measure as usize).map_or("?", String::as_str);
                let d = p.measure_decimals.get(*measure as usize).copied().unwrap_or(0);
                self.line("measure", who, |b| {
                    let _ = write!(b, "{name:<fw$} = {}", Decimal(*value, d));
                });
            }
            Event::Ready { actor, ready, until } => self.line("ready", p.character_name(*actor), |b| {
                let on = p.moments.readies.get(*ready as usize).map_or("?", |r| r.text.as_str());
                let _ = write!(b, "on {on}");
                if let Some(at) = until {
                    b.push_str(" until ");
                    let _ = super::write_anchor(b, p, *at);
                }
            }),
            Event::ReadyEnd { actor, ready, reason } => self.line("unready", p.character_name(*actor), |b| {
                let on = p.moments.readies.get(*ready as usize).map_or("?", |r| r.text.as_str());
                let _ = write!(b, "on {on}: {}", reason.as_str());
            }),
            Event::Cancelled { actor, action } => self.line("cancel", p.character_name(*actor), |b| {
                let what = action.map_or("turn", |a| p.actions[a as usize].name.as_str());
                let _ = write!(b, "{what}: out of play before it began");
            }),
            Event::Final { state } => self.final_state(p, state),
        }
    }

    fn level_start(&mut self, p: &World<'_>, level: LevelId, n: u64) {
        let def = &p.levels[level as usize];
        match def.kind {
            LevelKind::Phase => self.open(|b| b.push_str(&def.name)),
            _ => self.open(|b| {
                let _ = write!(b, "{} {n}", def.name);
            }),
        }
    }

    /// The level closes; an `end` statement's reason gets a line first.
    fn level_end(&mut self, p: &World<'_>, level: LevelId, reason: Option<Option<u16>>) {
        if let Some(r) = reason {
            let name = &p.levels[level as usize].name;
            self.line("end", "", |b| {
                let _ = write!(b, "{name}: ");
                let _ = write_reason(b, p, &EndReason::Ended(r));
            });
        }
        self.close();
    }

    fn roll(
        &mut self,
        p: &World<'_>,
        actor: Option<EntityId>,
        (label, dice): (LabelId, Dice),
        faces: &[i64],
        total: i64,
    ) {
        let fw = self.field_w;
        let who = actor.filter(|a| *a != TABLE).map_or("", |a| p.character_name(a));
        self.line("roll", who, |b| {
            let label = p.labels.get(label as usize).map(String::as_str).unwrap_or("roll");
            let _ = write!(b, "{label:<fw$} ");
            let _ = write_dice(b, p, dice);
            b.push_str(" [");
            for (k, f) in faces.iter().enumerate() {
                let sep = if k > 0 { " " } else { "" };
                let _ = write!(b, "{sep}{f}");
            }
            let _ = write!(b, "] = {total}");
        });
    }

    fn decision(
        &mut self,
        p: &World<'_>,
        decision: DecisionId,
        chooser: Who,
        (options, picked): (&[OptionKey], usize),
        by: DecidedBy,
    ) {
        let fw = self.field_w;
        let pw = self.pick_w;
        let picked = options.get(picked).map(|k| p.option_name(*k)).unwrap_or("?");
        let by = if by == DecidedBy::Policy { " (policy)" } else { "" };
        self.line("choose", p.who_name(chooser), |b| {
            let _ = write!(b, "{:<fw$} {picked:<pw$} of ", p.decisions[decision as usize]);
            for (k, o) in options.iter().enumerate() {
                if k > 0 {
                    b.push('|');
                }
                b.push_str(p.option_name(*o));
            }
            b.push_str(by);
        });
    }

    /// `spend`, `gain`, `reset`, `forfeit` or `set` of one field; `(amount, left)`.
    fn resource(&mut self, p: &World<'_>, change: Change, actor: EntityId, field: FieldId, (amount, left): (i64, i64)) {
        let fw = self.field_w;
        let f = &p.fields[field as usize].name;
        let who = if actor == TABLE { "" } else { p.character_name(actor) };
        let d = p.decimals(field);
        let (amount, left_n) = (Decimal(amount, d), Decimal(left, d));
        self.line(change.name(), who, |b| {
            let _ = match change {
                Change::Spend => write!(b, "{f:<fw$} -{amount} → {left_n}"),
                Change::Gain => write!(b, "{f:<fw$} +{amount} → {left_n}"),
                Change::Forfeit => write!(b, "{f:<fw$} {amount} lost → {left_n}"),
                Change::Reset | Change::Set => {
                    let _ = write!(b, "{f:<fw$} = ");
                    p.write_value(b, field, left)
                }
            };
        });
    }

    /// `transfer`; `(amount, left, total)`.
    fn transfer(
        &mut self,
        p: &World<'_>,
        from: (EntityId, FieldId),
        to: (EntityId, FieldId),
        (amount, left, total): (i64, i64, i64),
    ) {
        let fw = self.field_w;
        let f = &p.fields[from.1 as usize].name;
        let t = &p.fields[to.1 as usize].name;
        let d = p.decimals(from.1);
        let (amount, left, total) = (Decimal(amount, d), Decimal(left, d), Decimal(total, d));
        self.line("transfer", p.character_name(from.0), |b| {
            let _ = if from.0 == to.0 {
                write!(b, "{f:<fw$} -{amount} → {left}, {t} +{amount} → {total}")
            } else {
                let other = p.character_name(to.0);
                write!(b, "{f:<fw$} -{amount} → {left}, {other}'s {t} +{amount} → {total}")
            };
        });
    }

    fn trigger(&mut self, p: &World<'_>, trigger: TriggerId, args: &[i64]) {
        let kinds = &p.triggers[trigger as usize].args;
        let kind = |k: usize| kinds.get(k).copied().unwrap_or(ArgKind::Entity);
        let who = match kind(0) {
            ArgKind::Entity => args.first().and_then(|a| p.entity_name(*a)).unwrap_or(""),
            _ => "",
        };
        self.line("trigger", who, |b| {
            let _ = write!(b, "{}(", p.triggers[trigger as usize].name);
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    b.push_str(", ");
                }
                match kind(k) {
                    ArgKind::Entity => b.push_str(p.entity_name(*a).unwrap_or("none")),
                    ArgKind::Number => {
                        let _ = write!(b, "{a}");
                    }
                    ArgKind::Truth => b.push_str(if *a != 0 { "true" } else { "false" }),
                    ArgKind::Side => b.push_str(p.held(crate::check::SIDE, *a).unwrap_or("none")),
                }
            }
            b.push(')');
        });
    }

    fn effect_start(&mut self, p: &World<'_>, effect: FieldId, target: EntityId, count: i64, at: Anchor) {
        let fw = self.field_w;
        self.line("effect", p.character_name(target), |b| {
            let _ = write!(b, "{:<fw$} for {count}, counted at ", p.fields[effect as usize].name);
            let _ = write_anchor(b, p, at);
        });
    }

    fn time(&mut self, p: &World<'_>, amount: i64, unit: UnitId, clock: i64) {
        self.line("time", "", |b| {
            b.push('+');
            units(b, amount, unit_name(p, unit));
            b.push_str(" → ");
            units(b, clock, unit_name(p, 0));
        });
    }

    fn manual(&mut self, p: &World<'_>, actor: EntityId, field: FieldId, value: i64) {
        let fw = self.field_w;
        let f = &p.fields[field as usize].name;
        let who = if actor == TABLE { "" } else { p.character_name(actor) };
        self.line("manual", who, |b| {
            let _ = write!(b, "{f:<fw$} = ");
            // A field holding an entity is written with its name, as everywhere in the view.
            let _ = p.write_value(b, field, value);
        });
    }

    fn create(&mut self, p: &World<'_>, id: EntityId, values: &[(FieldId, i64)]) {
        self.line("create", p.character_name(id), |b| fields(b, p, values.iter().copied()));
    }

    /// The state the run ended in: the clock (when the ruleset keeps time), the globals, then
    /// one line per entity shown, each marked when it is out of play.
    fn final_state(&mut self, p: &World<'_>, s: &FinalState<'_>) {
        if let Some((base, _)) = p.units.first() {
            self.line("final", "", |b| {
                b.push_str("clock ");
                units(b, s.clock, base);
            });
        }
        if s.globals(p.p).next().is_some() {
            self.line("final", "", |b| fields(b, p, s.globals(p.p)));
        }
        if !s.sides.is_empty() {
            for (side, name) in p.p.sides.iter().enumerate() {
                self.line("final", name, |b| fields(b, p, s.side_fields(p.p, side)));
            }
        }
        for (id, in_play) in s.entities(p.p) {
            self.line("final", p.character_name(id), |b| {
                if !in_play {
                    b.push_str("(out of play) ");
                }
                fields(b, p, s.fields(p.p, id));
            });
        }
    }
}

/// `name = value, ...`: fields and their values.
fn fields(b: &mut String, p: &World<'_>, fields: impl Iterator<Item = (FieldId, i64)>) {
    for (k, (f, v)) in fields.enumerate() {
        if k > 0 {
            b.push_str(", ");
        }
        let _ = write!(b, "{} = ", p.fields[f as usize].name);
        let _ = p.write_value(b, f, v);
    }
}

/// Dice as written: `4d6kh3`, or with their listed faces, `4d[-1,0,1]`.
fn write_dice(b: &mut String, p: &World<'_>, d: Dice) -> std::fmt::Result {
    match d.faces.and_then(|i| p.faces.get(i as usize)) {
        None => write!(b, "{d}"),
        Some(faces) => {
            if d.count != 1 {
                write!(b, "{}", d.count)?;
            }
            b.push_str("d[");
            for (k, f) in faces.iter().enumerate() {
                if k > 0 {
                    b.push(',');
                }
                write!(b, "{f}")?;
            }
            b.push(']');
            match d.keep {
                Some((Keep::Highest, k)) => write!(b, "kh{k}"),
                Some((Keep::Lowest, k)) => write!(b, "kl{k}"),
                None => Ok(()),
            }?;
            match super::explode_mark(&d, faces) {
                Some(Some(t)) => write!(b, "!{t}"),
                Some(None) => write!(b, "!"),
                None => Ok(()),
            }
        }
    }
}
