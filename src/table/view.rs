//! The table's state as data, for a front end that draws it itself (the browser table): the
//! initiative strip's rows (which `show` also prints), the pending decision, the characters'
//! fields, the last events in the GM's text. Two audiences: the GM sees what `show` shows;
//! the players see what the trace shows, and nothing a GM's command line or a refusal of a
//! secret answer would tell (docs/table.md).

use serde_json::{Value, json};

use super::session::{End, Frame, State};
use super::show::{field_text, frame_text, glance, held_line, key_field, modes_line, readied, status, strip_order};
use super::{Session, Table};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::runtime::control::Snapshot;

/// Who a view is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The GM: everything `show` shows, the command log, who is on `auto`, the seed.
    Gm,
    /// The players' screen: what the trace shows, never a secret choice before its reveal.
    Players,
}

/// Where a member of the strip stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mark {
    /// Reacting inside someone's turn.
    Reacting,
    /// Their turn is in progress.
    Up,
    /// Out of play.
    Out,
    /// Has acted in the level being walked.
    Acted,
    /// Next along the order.
    Next,
    /// Waiting.
    Waiting,
}

impl Mark {
    /// The strip's mark in a terminal.
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Mark::Reacting => "↳",
            Mark::Up => "▸",
            Mark::Out => "×",
            Mark::Acted => "✓",
            Mark::Next => "›",
            Mark::Waiting => " ",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Mark::Reacting => "reacting",
            Mark::Up => "up",
            Mark::Out => "out",
            Mark::Acted => "acted",
            Mark::Next => "next",
            Mark::Waiting => "waiting",
        }
    }
}

/// One member of the initiative strip.
pub(super) struct Row {
    pub e: EntityId,
    pub mark: Mark,
    /// The order's first key, when it is a stat: its name and this member's value.
    pub score: Option<(String, String)>,
    /// Resources, flags set, effects with the counts left, responses armed.
    pub parts: Vec<String>,
}

/// The strip: the order play walks (else the first kept order, else none) and a row for each
/// character in play, in that order, those in no order after it.
pub(super) fn strip_rows(st: &State, snap: &Snapshot) -> (Option<OrderId>, Vec<Row>) {
    let p = &st.program;
    let open = &st.rec.open;
    let now = open.iter().rev().find_map(|f| match f {
        Frame::Turn(a) => Some(*a),
        _ => None,
    });
    let reacting = open.iter().rev().find_map(|f| match f {
        Frame::React(a) => Some(*a),
        _ => None,
    });
    let acted: &[EntityId] = open
        .iter()
        .rev()
        .find_map(|f| match f {
            Frame::Level { acted, .. } => Some(acted.as_slice()),
            _ => None,
        })
        .unwrap_or(&[]);
    let (order, ids, members) = strip_order(st, snap);
    // Who is next is known only along an order (not where a person picks who goes next).
    let ordered = order.is_some();
    let key = order.and_then(|o| key_field(p, o));
    let mut next_marked = false;
    let rows = ids
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let mark = if Some(e) == reacting {
                Mark::Reacting
            } else if Some(e) == now {
                Mark::Up
            } else if snap.is_absent(e) {
                Mark::Out
            } else if acted.contains(&e) {
                Mark::Acted
            } else if !next_marked && (now.is_some() || reacting.is_some()) && ordered {
                next_marked = true;
                Mark::Next
            } else {
                Mark::Waiting
            };
            let score = key.filter(|_| i < members).map(|f| {
                let def = &p.fields[f as usize];
                (def.name.clone(), field_text(p, def, snap.get(e, f)))
            });
            Row {
                e,
                mark,
                score,
                parts: glance(p, snap, e),
            }
        })
        .collect();
    (order, rows)
}

/// The table as data for `who`, with the last `events` lines of the GM's text.
pub fn view(t: &Table, who: Audience, events: usize) -> Value {
    let Some(s) = &t.session else {
        return json!({ "loaded": false });
    };
    let st = &s.state;
    let p = &st.program;
    let gm = who == Audience::Gm;
    let snap = st.snapshot();
    let mut v = json!({
        "loaded": true,
        "encounter": p.encounter_name,
        "ruleset": p.ruleset_name,
        "where": super::show::where_shown(st, gm || st.pending().is_none_or(|pd| !pd.secret)),
        "at": st.rec.open.iter().map(|f| frame_text(p, f)).collect::<Vec<_>>(),
        "decision": st.decisions_shown() + 1,
        "events": last_lines(st, events, gm),
    });
    if let Some(snap) = snap {
        let (order, rows) = strip_rows(st, snap);
        v["order"] = json!(order.and_then(|o| p.orders.get(o as usize)).map(|o| o.name.clone()));
        v["strip"] = rows
            .iter()
            .map(|r| {
                json!({
                    "name": p.character_name(r.e),
                    "mark": r.mark.word(),
                    "score": r.score.as_ref().map(|(n, v)| json!({"name": n, "value": v})),
                    "parts": r.parts,
                })
            })
            .collect();
        if let Some((base, _)) = p.units.first() {
            v["clock"] = json!(crate::trace::units_text(snap.clock, base));
        }
        v["globals"] = p
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == FieldKind::Global)
            .map(|(i, f)| json!({"name": f.name, "value": field_text(p, f, snap.get(TABLE, i as FieldId))}))
            .collect();
        v["sides"] = json!(super::sides::side_lines(p, snap));
        v["piles"] = json!(super::piles::piles_text(p, snap).lines().collect::<Vec<_>>());
        v["characters"] = characters(p, snap);
        v["effects"] = snap
            .effects
            .iter()
            .map(|(f, e, left, at)| {
                json!({
                    "effect": p.fields[*f as usize].name,
                    "on": p.character_name(*e),
                    "left": left,
                    "counted": crate::trace::anchor_text(&crate::trace::World::of(p), *at),
                })
            })
            .collect();
        v["ready"] = json!(readied(st, snap, None));
    }
    v["pending"] = pending(st, gm);
    v["over"] = match &st.end {
        End::Finished(r, _) => json!(crate::trace::reason_text(p, r)),
        _ => Value::Null,
    };
    if gm {
        v["status"] = json!(status(st));
        v["seed"] = json!(st.seed);
        v["control"] = json!(modes_line(st).trim_end().trim_start_matches("control").trim());
        v["held"] = json!(held_line(st).trim_end());
        v["undo"] = json!(s.cursor);
        v["redo"] = json!(s.log.len() - s.cursor);
        v["log"] = log_rows(s);
        v["choosers"] = choosers(p);
        v["effect_names"] = p
            .fields
            .iter()
            .filter(|f| f.kind == FieldKind::Effect)
            .map(|f| f.name.as_str())
            .collect();
        if let Some(snap) = snap {
            v["kept"] = snap
                .ranked
                .iter()
                .enumerate()
                .filter(|(_, ids)| !ids.is_empty())
                .map(|(o, ids)| {
                    json!({
                        "order": p.orders[o].name,
                        "members": ids.iter().map(|e| p.character_name(*e)).collect::<Vec<_>>(),
                    })
                })
                .collect();
        }
    } else if let End::Failed(_) = &st.end {
        v["stopped"] = json!(true);
    }
    v
}

/// Every character with its fields as the language writes them (`–`: worked out when it joins);
/// not the things (a deck's cards), which the command line still reaches.
fn characters(p: &Program, snap: &Snapshot) -> Value {
    p.characters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.ty == crate::check::CHARACTER)
        .map(|(id, c)| {
            let e = id as EntityId;
            let fields: Vec<Value> = p
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.kind != FieldKind::Global && f.owner == c.ty)
                .map(|(fi, f)| {
                    let value = if snap.is_set(e, fi as FieldId) {
                        field_text(p, f, snap.get(e, fi as FieldId))
                    } else {
                        "–".to_string()
                    };
                    json!({"name": f.name, "value": value})
                })
                .collect();
            json!({
                "name": c.name,
                "side": c.side.and_then(|s| p.sides.get(s as usize)),
                "out": snap.is_absent(e),
                "fields": fields,
            })
        })
        .collect()
}

/// The decision waiting, if any. The players see who decides what and the options, or only that a
/// choice is made in secret; never the refusals of an answer (at a secret decision they tell what
/// was answered) nor the attempts open to the GM.
fn pending(st: &State, gm: bool) -> Value {
    let Some(pd) = st.pending() else {
        return Value::Null;
    };
    let p = &st.program;
    // A choice made in secret shows the players only that one is being made: which decision is
    // asked, or of whom, could tell what was picked before (a secret choice asked only after
    // one option of another, with no `secret` event of its own in the trace).
    if pd.secret && !gm {
        return json!({ "secret": true });
    }
    let mut v = json!({
        "chooser": p.who_name(pd.chooser),
        "decision": p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?"),
        "secret": pd.secret,
    });
    if gm || !pd.secret {
        v["options"] = pd
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| json!({"n": i + 1, "name": p.option_name(*o)}))
            .collect();
    }
    if gm {
        v["refused"] = pd
            .refused
            .iter()
            .enumerate()
            .map(|(j, o)| json!({"name": p.option_name(*o), "reason": pd.reasons.get(j).map(String::as_str).unwrap_or("")}))
            .collect();
        v["attempts"] = json!(super::asked::open_attempt_names(st, pd));
        v["waiting"] = json!(st.queued);
    }
    v
}

/// The last `n` lines of the GM's text of the trace (which names no secret before its reveal),
/// found from the end; for the players without the events only the GM sees (the seed, the dice
/// and cards forced for later).
fn last_lines(st: &State, n: usize, gm: bool) -> Vec<&str> {
    let rec = &st.rec;
    let mut out: Vec<&str> = Vec::new();
    let mut i = rec.ends.len();
    while i > 0 && out.len() < n {
        i -= 1;
        if !gm && rec.gm_only.binary_search(&i).is_ok() {
            continue;
        }
        let start = if i == 0 { 0 } else { rec.ends[i - 1] };
        let text = rec.text.get(start..rec.ends[i]).unwrap_or("");
        out.extend(text.lines().rev());
    }
    out.truncate(n);
    out.reverse();
    out
}

/// The commands, numbered, as `log` shows them (a secret answer without what it names), and
/// which are undone.
fn log_rows(s: &Session) -> Value {
    let hidden = super::asked::hidden_entries(&s.log[..s.cursor], &s.state);
    let open = super::asked::secrets_open(&s.state);
    s.log
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let secret = hidden.get(i).copied().unwrap_or(open);
            json!({"n": i + 1, "line": super::asked::line_shown(e, secret), "undone": i >= s.cursor})
        })
        .collect()
}

/// Whom `auto` and `ask` may name: the sides, the roles, the characters.
fn choosers(p: &Program) -> Value {
    json!({
        "sides": p.sides,
        "roles": p.roles,
        "characters": p
            .characters
            .iter()
            .filter(|c| c.ty == crate::check::CHARACTER)
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
    })
}
