//! The JSON lines view ([`JsonLines`]): the stable machine interface, one object per event.
//!
//! Each event is written as it happens into a [`Line`] (names copied from the run's names
//! written once, [`Quoted`], or else written from the program by
//! [`write_json_str`](super::write_json_str); lists item by item), then handed to the view's
//! writer, at once or a batch at a time. Nothing is allocated per event once the buffer holds the
//! longest line.

use std::io::{self, Write};

use super::line::Line;
use super::names::{List, Quoted};
use super::quote::{int, q, q_with};
use super::{Change, DecidedBy, EndReason, Event, FinalState, Out, Sink, World, unit_name, write_anchor, write_reason};
use crate::compile::ir::*;
use crate::syntax::ast::{Dice, Keep, LevelKind};

/// The JSON lines view: one object per event, keys in a fixed order, written into `W` as each
/// event happens. `JsonLines::default()` writes into memory (read it back with
/// [`JsonLines::out`]); [`JsonLines::new`] writes into any writer; [`JsonLines::buffered`] hands
/// the writer many events at once, as `turnscript run` does to stdout. A failed write stops the
/// view (see [`JsonLines::error`]), never the run.
pub struct JsonLines<W: Write = Vec<u8>> {
    out: Out<W>,
    /// The events not yet handed to `out`: each is written here, piece by piece, then handed to
    /// `out` once `batch` bytes are waiting (at once, with a `batch` of 0). Reused throughout.
    line: Line,
    batch: usize,
    /// The names of the run under way, written once as JSON strings (boxed: six lists).
    names: Box<Quoted>,
}

impl Default for JsonLines {
    fn default() -> Self {
        JsonLines::new(Vec::new())
    }
}

impl<W: Write> JsonLines<W> {
    /// A view that writes each event into `w` as it happens.
    pub fn new(w: W) -> Self {
        JsonLines::buffered(w, 0)
    }

    /// A view that writes events into `w` `batch` bytes or more at once (whole lines): what
    /// a `BufWriter` of that size would do, without copying each line into it. What is still
    /// held goes out with [`JsonLines::flush`]: flush before giving up the view. (Room for up to
    /// 1 MiB of it is made at once; a larger batch grows into it.)
    pub fn buffered(w: W, batch: usize) -> Self {
        JsonLines {
            out: Out::new(w),
            line: Line::with_capacity(batch.min(1 << 20) + 1024),
            batch,
            names: Box::default(),
        }
    }

    /// The first error writing the trace, if a write failed; nothing was written after it.
    pub fn error(&self) -> Option<&io::Error> {
        self.out.error.as_ref()
    }

    /// Writes out what the view holds and flushes the writer; after a failed write, gives back
    /// that error instead.
    pub fn flush(&mut self) -> io::Result<()> {
        self.hand_over();
        self.out.flush()
    }

    /// Hands the events held to the writer.
    fn hand_over(&mut self) {
        let line = &mut self.line;
        if !line.is_empty() {
            self.out.emit(|o| o.write_all(line.as_bytes()));
            line.clear();
        }
    }

    /// The writer (without what a [`JsonLines::buffered`] view holds until it is flushed).
    pub fn get_ref(&self) -> &W {
        &self.out.w
    }

    /// The writer, given up (unflushed: flush first if it buffers).
    pub fn into_inner(self) -> W {
        self.out.w
    }
}

impl JsonLines {
    /// The trace so far, of a view that writes into memory.
    pub fn out(&self) -> &str {
        self.out.text()
    }
}

/// What an event's names are found in: the world it comes with, and the names written once for
/// its run ([`Quoted::of`]: none when the event is not of that run). Reads as the world.
struct P<'w, 'p> {
    w: &'w World<'p>,
    q: &'w Quoted,
}

impl<'p> std::ops::Deref for P<'_, 'p> {
    type Target = World<'p>;
    fn deref(&self) -> &World<'p> {
        self.w
    }
}

/// Name `i` of `list` as the run's names have it, else `name()` written as a JSON string: the
/// same bytes.
#[inline]
fn quoted_or<'a>(w: &mut Line, list: &List, i: usize, name: impl FnOnce() -> &'a str) -> io::Result<()> {
    if list.put(i, w) { Ok(()) } else { q(w, name()) }
}

/// A character's name as a JSON string.
fn name(w: &mut Line, p: &P<'_, '_>, id: EntityId) -> io::Result<()> {
    quoted_or(w, &p.q.entities, id as usize, || p.w.character_name(id))
}

/// Who chose (a character or a role), as a JSON string.
fn who_name(w: &mut Line, p: &P<'_, '_>, who: Who) -> io::Result<()> {
    match who {
        Who::Character(e) => name(w, p, e),
        _ => q(w, p.w.who_name(who)),
    }
}

/// An option of a decision (an action, a named option, a character), as a JSON string.
fn option_name(w: &mut Line, p: &P<'_, '_>, key: OptionKey) -> io::Result<()> {
    let (list, i) = match key {
        OptionKey::Named(i) => (&p.q.options, i as usize),
        OptionKey::Action(i) => (&p.q.actions, i as usize),
        OptionKey::Character(e) => (&p.q.entities, e as usize),
    };
    quoted_or(w, list, i, || p.w.option_name(key))
}

fn decision_name(w: &mut Line, p: &P<'_, '_>, d: DecisionId) -> io::Result<()> {
    quoted_or(w, &p.q.decisions, d as usize, || &p.decisions[d as usize])
}

fn field_name(w: &mut Line, p: &P<'_, '_>, f: FieldId) -> io::Result<()> {
    quoted_or(w, &p.q.fields, f as usize, || &p.fields[f as usize].name)
}

fn action_name(w: &mut Line, p: &P<'_, '_>, a: ActionId) -> io::Result<()> {
    quoted_or(w, &p.q.actions, a as usize, || &p.actions[a as usize].name)
}

/// What a roll was for (its label), as a JSON string.
fn label_name(w: &mut Line, p: &P<'_, '_>, l: LabelId) -> io::Result<()> {
    quoted_or(w, &p.q.labels, l as usize, || {
        p.labels.get(l as usize).map(String::as_str).unwrap_or("roll")
    })
}

/// Items as a JSON list's inside, comma-separated, each written by `item`.
fn list<W: Write, T>(
    w: &mut W,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut W, T) -> io::Result<()>,
) -> io::Result<()> {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        item(w, x)?;
    }
    Ok(())
}

fn level_kind(k: LevelKind) -> &'static str {
    match k {
        LevelKind::Level => "level",
        LevelKind::Phase => "phase",
        LevelKind::Round => "round",
    }
}

/// A field's value as JSON: a number, or a name (or `null`).
fn value(w: &mut Line, p: &P<'_, '_>, field: FieldId, v: i64) -> io::Result<()> {
    let Some(f) = p.p.fields.get(field as usize) else {
        return int(w, v);
    };
    // A truth global: `true` or `false`.
    if f.truth {
        return w.write_all(if v != 0 { b"true" } else { b"false" });
    }
    match f.refers {
        Some(_) if v < 0 => w.write_all(b"null"),
        Some(t @ (crate::check::SIDE | crate::check::ROLE)) => q(w, p.held_name(t, v)),
        Some(_) => name(w, p, v as EntityId),
        None if f.decimals == 0 => int(w, v),
        None => write!(w, "{}", super::Decimal(v, f.decimals)),
    }
}

impl<W: Write> Sink for JsonLines<W> {
    /// One line per event. The dispatch is long only because it has one short arm per kind
    /// of event; each kind's object is written by its own function below.
    fn event(&mut self, w: &World<'_>, e: &Event<'_>) {
        if let Event::EncounterStart { .. } = e {
            self.names.start(w);
        }
        let line = &mut self.line;
        // Writing into a `Line` cannot fail.
        let _ = event(line, &P { w, q: self.names.of(w) }, e);
        line.byte(b'\n');
        if line.len() >= self.batch {
            self.hand_over();
        }
        if let Event::Final { .. } = e {
            self.names.end();
        }
    }
}

fn event(o: &mut Line, p: &P<'_, '_>, e: &Event<'_>) -> io::Result<()> {
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
        Event::EffectTick { effect, target, left } => {
            o.write_all(br#"{"event":"effect_tick","actor":"#)?;
            name(o, p, *target)?;
            o.write_all(br#","effect":"#)?;
            field_name(o, p, *effect)?;
            o.write_all(br#","left":"#)?;
            int(o, *left)?;
            o.write_all(b"}")
        }
        Event::Flag { actor, flag, on } => {
            o.write_all(if *on {
                br#"{"event":"mark","#
            } else {
                br#"{"event":"clear","#
            })?;
            // A truth global belongs to the table: no actor.
            if *actor != TABLE {
                o.write_all(br#""actor":"#)?;
                name(o, p, *actor)?;
                o.write_all(b",")?;
            }
            o.write_all(br#""flag":"#)?;
            field_name(o, p, *flag)?;
            o.write_all(b"}")
        }
        Event::ReactionEnd { actor } => actor_event(o, p, "reaction_end", *actor),
        Event::Time { amount, unit, clock } => time(o, p, *amount, *unit, *clock),
        Event::Manual { actor, field, value } => manual(o, p, *actor, *field, *value),
        Event::Forced { rolls } => {
            o.write_all(br#"{"event":"manual","rolls":["#)?;
            list(o, rolls.iter(), |o, r| write!(o, "{r}"))?;
            o.write_all(b"]}")
        }
        Event::ForcedDraws { cards } => {
            o.write_all(br#"{"event":"manual","draws":["#)?;
            list(o, cards.iter(), |o, c| name(o, p, *c))?;
            o.write_all(b"]}")
        }
        Event::Reseed { seed } => write!(o, r#"{{"event":"manual","seed":{seed}}}"#),
        Event::Ruling { text } => {
            o.write_all(br#"{"event":"manual","ruling":"#)?;
            q(o, text)?;
            o.write_all(b"}")
        }
        Event::Presence { actor, present } => {
            let what = if *present { "join" } else { "leave" };
            actor_event(o, p, what, *actor)
        }
        Event::Create { id, ty, values } => create(o, p, *id, *ty, values),
        Event::Shuffle { deck, cards } => {
            o.write_all(br#"{"event":"shuffle","deck":"#)?;
            q(o, &p.deck_defs[*deck as usize].name)?;
            o.write_all(br#","cards":"#)?;
            int(o, *cards as i64)?;
            o.write_all(b"}")
        }
        Event::Draw { deck, by, card } => {
            o.write_all(br#"{"event":"draw","deck":"#)?;
            q(o, &p.deck_defs[*deck as usize].name)?;
            if let Some(by) = by {
                o.write_all(br#","actor":"#)?;
                name(o, p, *by)?;
            }
            o.write_all(br#","card":"#)?;
            name(o, p, *card)?;
            o.write_all(b"}")
        }
        Event::Pile { deck, card, into } => {
            o.write_all(if *into {
                br#"{"event":"insert","deck":"#
            } else {
                br#"{"event":"take","deck":"#
            })?;
            q(o, &p.deck_defs[*deck as usize].name)?;
            o.write_all(br#","card":"#)?;
            name(o, p, *card)?;
            o.write_all(b"}")
        }
        Event::Discard { card, returned } => {
            o.write_all(if *returned {
                br#"{"event":"return","card":"#
            } else {
                br#"{"event":"discard","card":"#
            })?;
            name(o, p, *card)?;
            o.write_all(b"}")
        }
        Event::Destroy { id } => {
            o.write_all(br#"{"event":"destroy","name":"#)?;
            name(o, p, *id)?;
            o.write_all(b"}")
        }
        Event::NoChoice {
            decision,
            chooser,
            refused,
        } => {
            o.write_all(br#"{"event":"no_choice","actor":"#)?;
            who_name(o, p, *chooser)?;
            o.write_all(br#","decision":"#)?;
            decision_name(o, p, *decision)?;
            o.write_all(br#","refused":["#)?;
            list(o, refused.iter(), |o, (option, reasons)| {
                o.write_all(br#"{"option":"#)?;
                option_name(o, p, *option)?;
                o.write_all(br#","reasons":["#)?;
                list(o, reasons.iter(), |o, r| q(o, r))?;
                o.write_all(b"]}")
            })?;
            o.write_all(b"]}")
        }
        Event::Refused {
            decision,
            chooser,
            option,
            reasons,
        } => {
            o.write_all(br#"{"event":"refused","actor":"#)?;
            who_name(o, p, *chooser)?;
            o.write_all(br#","decision":"#)?;
            decision_name(o, p, *decision)?;
            o.write_all(br#","option":"#)?;
            option_name(o, p, *option)?;
            o.write_all(br#","reasons":["#)?;
            list(o, reasons.iter(), |o, r| q(o, r))?;
            o.write_all(b"]}")
        }
        Event::Attempt { actor, attempt } => {
            o.write_all(br#"{"event":"attempt","actor":"#)?;
            who_name(o, p, *actor)?;
            o.write_all(br#","attempt":"#)?;
            option_name(o, p, *attempt)?;
            o.write_all(b"}")
        }
        Event::AttemptRefused {
            actor,
            attempt,
            reasons,
        } => {
            o.write_all(br#"{"event":"attempt_refused","actor":"#)?;
            who_name(o, p, *actor)?;
            o.write_all(br#","attempt":"#)?;
            option_name(o, p, *attempt)?;
            o.write_all(br#","reasons":["#)?;
            list(o, reasons.iter(), |o, r| q(o, r))?;
            o.write_all(b"]}")
        }
        Event::TogetherStart { actors } => {
            o.write_all(br#"{"event":"together_start","actors":["#)?;
            list(o, actors.iter(), |o, a| name(o, p, *a))?;
            o.write_all(b"]}")
        }
        Event::TogetherEnd => o.write_all(br#"{"event":"together_end"}"#),
        Event::Lapsed { actor, change, field } => {
            o.write_all(br#"{"event":"lapsed","actor":"#)?;
            name(o, p, *actor)?;
            o.write_all(br#","change":"#)?;
            q(o, change)?;
            o.write_all(br#","field":"#)?;
            match field {
                Some(f) => field_name(o, p, *f)?,
                None => o.write_all(b"null")?,
            }
            o.write_all(b"}")
        }
        Event::Secret { decision, chooser } => {
            o.write_all(br#"{"event":"secret","actor":"#)?;
            who_name(o, p, *chooser)?;
            o.write_all(br#","decision":"#)?;
            decision_name(o, p, *decision)?;
            o.write_all(b"}")
        }
        Event::Measure { measure, about, value } => {
            o.write_all(br#"{"event":"measure","measure":"#)?;
            q(o, p.measures.get(*measure as usize).map_or("?", String::as_str))?;
            if let Some(a) = about {
                o.write_all(br#","actor":"#)?;
                name(o, p, *a)?;
            }
            let d = p.measure_decimals.get(*measure as usize).copied().unwrap_or(0);
            write!(o, r#","value":{}}}"#, super::Decimal(*value, d))
        }
        Event::Ready { actor, ready, until } => {
            o.write_all(br#"{"event":"ready","actor":"#)?;
            name(o, p, *actor)?;
            o.write_all(br#","trigger":"#)?;
            q(
                o,
                p.moments.readies.get(*ready as usize).map_or("?", |r| r.text.as_str()),
            )?;
            if let Some(at) = until {
                o.write_all(br#","until":"#)?;
                q_with(o, |e| write_anchor(e, p, *at))?;
            }
            o.write_all(b"}")
        }
        Event::ReadyEnd { actor, ready, reason } => {
            o.write_all(br#"{"event":"ready_end","actor":"#)?;
            name(o, p, *actor)?;
            o.write_all(br#","trigger":"#)?;
            q(
                o,
                p.moments.readies.get(*ready as usize).map_or("?", |r| r.text.as_str()),
            )?;
            o.write_all(br#","reason":"#)?;
            q(o, reason.as_str())?;
            o.write_all(b"}")
        }
        Event::Cancelled { actor, action } => {
            o.write_all(br#"{"event":"cancelled","actor":"#)?;
            name(o, p, *actor)?;
            o.write_all(br#","what":"#)?;
            q(o, action.map_or("turn", |a| p.actions[a as usize].name.as_str()))?;
            o.write_all(b"}")
        }
        Event::Final { state } => final_state(o, p, state),
    }
}

/// The fields of one entity or of the table, as a JSON object's inside.
fn fields(o: &mut Line, p: &P<'_, '_>, fields: impl Iterator<Item = (FieldId, i64)>) -> io::Result<()> {
    list(o, fields, |o, (f, v)| {
        field_name(o, p, f)?;
        o.write_all(b":")?;
        value(o, p, f, v)
    })
}

/// `final`: the clock, the globals, and every entity shown with its type, whether it is in
/// play, and its fields.
fn final_state(o: &mut Line, p: &P<'_, '_>, s: &FinalState<'_>) -> io::Result<()> {
    write!(o, r#"{{"event":"final","clock":{},"globals":{{"#, s.clock)?;
    fields(o, p, s.globals(p.p))?;
    // The sides' fields, only when sides have fields (`side NAME, ... { FIELDS }`).
    if !s.sides.is_empty() {
        o.write_all(br#"},"sides":["#)?;
        list(o, 0..p.p.sides.len(), |o, side| {
            o.write_all(br#"{"name":"#)?;
            q(o, &p.p.sides[side])?;
            o.write_all(br#","fields":{"#)?;
            fields(o, p, s.side_fields(p.p, side))?;
            o.write_all(b"}}")
        })?;
        o.write_all(b"]")?;
    } else {
        o.write_all(b"}")?;
    }
    o.write_all(br#","entities":["#)?;
    list(o, s.entities(p.p), |o, (id, in_play)| {
        o.write_all(br#"{"name":"#)?;
        name(o, p, id)?;
        o.write_all(br#","type":"#)?;
        q(o, p.type_name(s.types.get(id as usize).copied().unwrap_or(0)))?;
        write!(o, r#","in_play":{in_play},"fields":{{"#)?;
        fields(o, p, s.fields(p.p, id))?;
        o.write_all(b"}}")
    })?;
    o.write_all(b"]}")
}

fn encounter_start(o: &mut Line, p: &P<'_, '_>, seed: u64) -> io::Result<()> {
    o.write_all(br#"{"event":"encounter_start","ruleset":"#)?;
    q(o, &p.ruleset_name)?;
    o.write_all(br#","encounter":"#)?;
    q(o, &p.encounter_name)?;
    write!(o, r#","seed":{seed}}}"#)
}

fn encounter_end(o: &mut Line, p: &P<'_, '_>, reason: &EndReason) -> io::Result<()> {
    o.write_all(br#"{"event":"encounter_end","reason":"#)?;
    q_with(o, |e| write_reason(e, p, reason))?;
    o.write_all(b"}")
}

/// `{"event":KIND,"actor":NAME}`: the events that carry only who they are about.
fn actor_event(o: &mut Line, p: &P<'_, '_>, kind: &str, actor: EntityId) -> io::Result<()> {
    o.write_all(br#"{"event":""#)?;
    o.write_all(kind.as_bytes())?;
    o.write_all(br#"","actor":"#)?;
    name(o, p, actor)?;
    o.write_all(b"}")
}

/// A level's `start` or `end` edge (`level_*`, `phase_*` or `round_*`), with the reason
/// an `end` statement gave.
fn level_edge(
    o: &mut Line,
    p: &P<'_, '_>,
    (level, n): (LevelId, u64),
    edge: &str,
    reason: Option<Option<u16>>,
) -> io::Result<()> {
    let def = &p.levels[level as usize];
    let kind = level_kind(def.kind);
    match def.kind {
        LevelKind::Phase => {
            o.write_all(br#"{"event":"phase_"#)?;
            o.write_all(edge.as_bytes())?;
            o.write_all(br#"","phase":"#)?;
            q(o, &def.name)?;
            o.write_all(br#","n":"#)?;
            int(o, n)?;
        }
        LevelKind::Round => {
            o.write_all(br#"{"event":"round_"#)?;
            o.write_all(edge.as_bytes())?;
            o.write_all(br#"","round":"#)?;
            int(o, n)?;
            o.write_all(br#","level":"#)?;
            q(o, &def.name)?;
        }
        LevelKind::Level => {
            write!(o, r#"{{"event":"{kind}_{edge}","level":"#)?;
            q(o, &def.name)?;
            write!(o, r#","n":{n}"#)?;
        }
    }
    if let Some(r) = reason {
        o.write_all(br#","reason":"#)?;
        q_with(o, |e| write_reason(e, p, &EndReason::Ended(r)))?;
    }
    o.write_all(b"}")
}

fn order_event(o: &mut Line, p: &P<'_, '_>, order: OrderId, ids: &[EntityId]) -> io::Result<()> {
    o.write_all(br#"{"event":"order","by":"#)?;
    q(o, &p.orders[order as usize].name)?;
    o.write_all(br#","order":["#)?;
    list(o, ids, |o, i| name(o, p, *i))?;
    // Things that stand for someone: who, place by place (`null` where a field holds none).
    if ids.iter().any(|i| p.stands(*i)) {
        o.write_all(br#"],"for":["#)?;
        list(o, ids, |o, i| match p.stands_for(*i) {
            Some(n) => q(o, n),
            None => o.write_all(b"null"),
        })?;
    }
    o.write_all(b"]}")
}

fn action_event(o: &mut Line, p: &P<'_, '_>, actor: EntityId, action: ActionId) -> io::Result<()> {
    o.write_all(br#"{"event":"action","actor":"#)?;
    name(o, p, actor)?;
    o.write_all(br#","action":"#)?;
    action_name(o, p, action)?;
    o.write_all(b"}")
}

fn roll(
    o: &mut Line,
    p: &P<'_, '_>,
    actor: Option<EntityId>,
    label: LabelId,
    d: Dice,
    faces: &[i64],
    total: i64,
) -> io::Result<()> {
    o.write_all(br#"{"event":"roll""#)?;
    // A roll for a global belongs to the table: no actor, as for the global's own events.
    if let Some(a) = actor.filter(|a| *a != TABLE) {
        o.write_all(br#","actor":"#)?;
        name(o, p, a)?;
    }
    o.write_all(br#","for":"#)?;
    label_name(o, p, label)?;
    o.write_all(br#","dice":""#)?;
    if d.count != 1 {
        int(o, d.count)?;
    }
    o.write_all(b"d")?;
    match d.faces.and_then(|i| p.faces.get(i as usize)) {
        Some(faces) => {
            o.write_all(b"[")?;
            list(o, faces, |o, f| int(o, *f))?;
            o.write_all(b"]")?;
        }
        None => int(o, d.sides)?,
    }
    if let Some((keep, k)) = d.keep {
        o.write_all(if keep == Keep::Highest { b"kh" } else { b"kl" })?;
        int(o, k)?;
    }
    let listed = d
        .faces
        .and_then(|i| p.faces.get(i as usize))
        .map_or(&[][..], Vec::as_slice);
    match super::explode_mark(&d, listed) {
        Some(Some(t)) => {
            o.write_all(b"!")?;
            int(o, t)?;
        }
        Some(None) => o.write_all(b"!")?,
        None => {}
    }
    o.write_all(br#"","faces":["#)?;
    list(o, faces, |o, f| int(o, *f))?;
    o.write_all(br#"],"total":"#)?;
    int(o, total)?;
    o.write_all(b"}")
}

fn decision_event(
    o: &mut Line,
    p: &P<'_, '_>,
    decision: DecisionId,
    chooser: Who,
    options: &[OptionKey],
    picked: usize,
    by: DecidedBy,
) -> io::Result<()> {
    o.write_all(br#"{"event":"decision","actor":"#)?;
    who_name(o, p, chooser)?;
    o.write_all(br#","decision":"#)?;
    decision_name(o, p, decision)?;
    o.write_all(br#","chooser":"#)?;
    who_name(o, p, chooser)?;
    o.write_all(br#","options":["#)?;
    list(o, options, |o, k| option_name(o, p, *k))?;
    o.write_all(br#"],"picked":"#)?;
    match options.get(picked) {
        Some(k) => option_name(o, p, *k)?,
        None => q(o, "?")?,
    }
    o.write_all(if by == DecidedBy::Answer {
        br#","by":"answer"}"#
    } else {
        br#","by":"policy"}"#
    })
}

/// `spend`, `gain`, `reset`, `forfeit` or `set` of one field; `(amount, left)`.
fn resource(
    o: &mut Line,
    p: &P<'_, '_>,
    change: Change,
    actor: EntityId,
    field: FieldId,
    (amount, left): (i64, i64),
) -> io::Result<()> {
    let key = if change == Change::Set { "stat" } else { "resource" };
    o.write_all(br#"{"event":""#)?;
    o.write_all(change.name().as_bytes())?;
    o.write_all(br#"","#)?;
    // A global belongs to the table: no actor.
    if actor != TABLE {
        o.write_all(br#""actor":"#)?;
        name(o, p, actor)?;
        o.write_all(b",")?;
    }
    o.write_all(b"\"")?;
    o.write_all(key.as_bytes())?;
    o.write_all(br#"":"#)?;
    field_name(o, p, field)?;
    o.write_all(br#","amount":"#)?;
    value(o, p, field, amount)?;
    o.write_all(br#","left":"#)?;
    value(o, p, field, left)?;
    o.write_all(b"}")
}

/// `transfer`; `(amount, left, total)`.
fn transfer(
    o: &mut Line,
    p: &P<'_, '_>,
    from: (EntityId, FieldId),
    to: (EntityId, FieldId),
    (amount, left, total): (i64, i64, i64),
) -> io::Result<()> {
    o.write_all(br#"{"event":"transfer","actor":"#)?;
    name(o, p, from.0)?;
    o.write_all(br#","resource":"#)?;
    field_name(o, p, from.1)?;
    let d = p.decimals(from.1);
    let (amount, left, total) = (
        super::Decimal(amount, d),
        super::Decimal(left, d),
        super::Decimal(total, d),
    );
    write!(o, r#","amount":{amount},"left":{left},"to":"#)?;
    name(o, p, to.0)?;
    o.write_all(br#","to_resource":"#)?;
    field_name(o, p, to.1)?;
    write!(o, r#","to_left":{total}}}"#)
}

fn trigger_event(o: &mut Line, p: &P<'_, '_>, trigger: TriggerId, args: &[i64]) -> io::Result<()> {
    o.write_all(br#"{"event":"trigger","trigger":"#)?;
    q(o, &p.triggers[trigger as usize].name)?;
    o.write_all(br#","args":["#)?;
    let kinds = &p.triggers[trigger as usize].args;
    list(o, args.iter().enumerate(), |o, (k, a)| {
        match kinds.get(k).copied().unwrap_or(ArgKind::Entity) {
            ArgKind::Entity => match p.entity_name(*a) {
                Some(_) => name(o, p, *a as EntityId),
                None => o.write_all(b"null"),
            },
            ArgKind::Number => write!(o, "{a}"),
            ArgKind::Truth => o.write_all(if *a != 0 { b"true" } else { b"false" }),
            ArgKind::Side => match p.held(crate::check::SIDE, *a) {
                Some(s) => q(o, s),
                None => o.write_all(b"null"),
            },
        }
    })?;
    o.write_all(b"]}")
}

fn effect_start(
    o: &mut Line,
    p: &P<'_, '_>,
    effect: FieldId,
    target: EntityId,
    count: i64,
    at: Anchor,
) -> io::Result<()> {
    o.write_all(br#"{"event":"effect_start","actor":"#)?;
    name(o, p, target)?;
    o.write_all(br#","effect":"#)?;
    field_name(o, p, effect)?;
    write!(o, r#","for":{count},"counted_at":"#)?;
    q_with(o, |e| write_anchor(e, p, at))?;
    o.write_all(b"}")
}

fn effect_end(o: &mut Line, p: &P<'_, '_>, effect: FieldId, target: EntityId) -> io::Result<()> {
    o.write_all(br#"{"event":"effect_end","actor":"#)?;
    name(o, p, target)?;
    o.write_all(br#","effect":"#)?;
    field_name(o, p, effect)?;
    o.write_all(b"}")
}

fn time(o: &mut Line, p: &P<'_, '_>, amount: i64, unit: UnitId, clock: i64) -> io::Result<()> {
    write!(o, r#"{{"event":"time","amount":{amount},"unit":"#)?;
    q(o, unit_name(p, unit))?;
    write!(o, r#","clock":{clock},"clock_unit":"#)?;
    q(o, unit_name(p, 0))?;
    o.write_all(b"}")
}

fn manual(o: &mut Line, p: &P<'_, '_>, actor: EntityId, field: FieldId, value: i64) -> io::Result<()> {
    o.write_all(br#"{"event":"manual","#)?;
    if actor != TABLE {
        o.write_all(br#""actor":"#)?;
        name(o, p, actor)?;
        o.write_all(b",")?;
    }
    o.write_all(br#""field":"#)?;
    field_name(o, p, field)?;
    write!(o, r#","value":{}}}"#, super::Decimal(value, p.decimals(field)))
}

fn create(o: &mut Line, p: &P<'_, '_>, id: EntityId, ty: TypeId, values: &[(FieldId, i64)]) -> io::Result<()> {
    o.write_all(br#"{"event":"create","thing":"#)?;
    q(o, p.type_name(ty))?;
    o.write_all(br#","name":"#)?;
    name(o, p, id)?;
    o.write_all(br#","fields":{"#)?;
    fields(o, p, values.iter().copied())?;
    o.write_all(b"}}")
}
