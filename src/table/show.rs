//! What the REPL prints about the state: `show`, the status line after a change, `log`.

use super::Session;
use super::session::{Divergence, End, Entry, Frame, State};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::runtime::control::Snapshot;
use crate::syntax::ast::LevelKind;
use crate::trace::reason_text;

pub use super::asked::{hidden_entries, line_shown, refused_in_secret};
use super::asked::{in_secret, open_attempts, options_line, refused_lines, secrets_open};

/// Who the REPL asks and who plays by a policy: what was set, and the default for everyone
/// nobody set (asked, unless `auto all`).
pub(super) fn modes_line(st: &State) -> String {
    let m = &st.modes;
    let mut parts: Vec<String> = m
        .named
        .iter()
        .filter(|(n, _)| n != "single")
        .map(|(n, mode)| match mode {
            super::session::Mode::Ask => format!("ask {n}"),
            super::session::Mode::Auto(None) => format!("auto {n}"),
            super::session::Mode::Auto(Some(pol)) => format!("auto {n} ({pol})"),
        })
        .collect();
    if !m.named.iter().any(|(n, _)| n == "all") {
        parts.push(if parts.is_empty() {
            "everyone is asked (the default; `auto WHO` lets the policy play WHO)".into()
        } else {
            "others asked (the default)".into()
        });
    }
    if !m.single_on() {
        parts.push("one-option decisions asked".into());
    }
    format!("control  {}\n", parts.join(" · "))
}

/// One line (or a diagnostic) on where the state stands after a command.
pub fn status(st: &State) -> String {
    let p = &st.program;
    match &st.end {
        End::Paused(pd) => {
            let mut out = format!(
                "decision {}: {} decides {}{} — {}\n",
                st.decisions_shown() + 1,
                p.who_name(pd.chooser),
                p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?"),
                in_secret(pd),
                options_line(st, &pd.options)
            );
            out.push_str(&refused_lines(st, pd, "  "));
            out
        }
        End::Finished(r, _) => {
            let mut out = format!("the encounter is over ({})\n", reason_text(p, r));
            for q in &st.queued {
                out.push_str(&format!("  never made: {q} (its moment never came)\n"));
            }
            out
        }
        End::Failed(d) => {
            let mut out = st.sources.render(d, 80, false);
            out.push_str("the run stopped with this error: `undo` goes back, `reload` runs an edited ruleset\n");
            out
        }
    }
}

/// Where a replay stopped (`st`, the state it reached) because a command no longer fits. An
/// answer it stopped at, at a decision asked in secret, is said without what it names or why it
/// no longer fits: the choice is not revealed.
pub fn divergence(log: &[Entry], d: &Divergence, st: &State) -> String {
    let line = log.get(d.entry).map_or("", |e| e.line.as_str());
    let secret = matches!(&st.end, End::Paused(pd) if pd.secret);
    if secret && line.split_whitespace().next() == Some("answer") {
        return format!(
            "the replay diverged at command {} (an answer given in secret, which the rules no longer take)
stopped before it; `redo` tries it again, `log` lists the commands
",
            d.entry + 1
        );
    }
    format!(
        "the replay diverged at command {} (`{line}`): {}\nstopped before it; `redo` tries it again, `log` lists the commands\n",
        d.entry + 1,
        d.reason
    )
}

pub(super) fn frame_text(p: &Program, f: &Frame) -> String {
    match f {
        Frame::Level { level, n, .. } => {
            let def = &p.levels[*level as usize];
            match def.kind {
                LevelKind::Phase => def.name.clone(),
                _ => format!("{} {n}", def.name),
            }
        }
        Frame::Turn(a) => format!("▸ {}", p.character_name(*a)),
        Frame::React(a) => format!("↳ {} reacts", p.character_name(*a)),
    }
}

/// The innermost level's order, with who has acted, who is up and who is next.
fn order_line(st: &State, snap: Option<&Snapshot>) -> Option<String> {
    let p = &st.program;
    let open = &st.rec.open;
    let (order, acted) = open.iter().rev().find_map(|f| match f {
        Frame::Level { order, acted, .. } => Some((order, acted)),
        _ => None,
    })?;
    let now = open.iter().rev().find_map(|f| match f {
        Frame::Turn(a) => Some(*a),
        _ => None,
    });
    let absent = |e: EntityId| snap.is_some_and(|s| s.is_absent(e));
    match order {
        Some((o, ids)) => {
            let mut next_marked = false;
            let names: Vec<String> = ids
                .iter()
                .map(|e| {
                    let name = p.character_name(*e);
                    if absent(*e) {
                        format!("{name} (out)")
                    } else if Some(*e) == now {
                        format!("{name} (up)")
                    } else if acted.contains(e) {
                        format!("{name} (acted)")
                    } else if !next_marked {
                        next_marked = true;
                        format!("{name} (next)")
                    } else {
                        name.to_string()
                    }
                })
                .collect();
            Some(format!(
                "order    {}: {}\n",
                p.orders[*o as usize].name,
                names.join(", ")
            ))
        }
        None if !acted.is_empty() => {
            let names: Vec<String> = acted
                .iter()
                .map(|e| {
                    let name = p.character_name(*e);
                    if Some(*e) == now {
                        format!("{name} (up)")
                    } else {
                        name.to_string()
                    }
                })
                .collect();
            Some(format!("turns    {}\n", names.join(", ")))
        }
        None => None,
    }
}

/// A field's value as the language writes it: a name (or `none`) for a field holding an entity.
pub(super) fn field_text(p: &Program, f: &FieldDef, v: i64) -> String {
    match f.refers {
        Some(t @ (crate::check::SIDE | crate::check::ROLE)) if v >= 0 => p.held(t, v).unwrap_or("?").to_string(),
        Some(_) if v >= 0 && (v as usize) < p.characters.len() => p.character_name(v as EntityId).to_string(),
        Some(_) => "none".to_string(),
        None => value_text(f, v),
    }
}

fn value_text(f: &FieldDef, v: i64) -> String {
    match f.kind {
        // A truth global (`global NAME: truth`).
        FieldKind::Global if f.truth => (if v != 0 { "true" } else { "false" }).to_string(),
        FieldKind::Flag | FieldKind::Effect => (if v != 0 { "yes" } else { "-" }).to_string(),
        _ => crate::trace::Decimal(v, f.decimals).to_string(),
    }
}

/// Every character's fields as a table, one row a character.
fn table(p: &Program, snap: &Snapshot, width: usize) -> String {
    let fields: Vec<(usize, &FieldDef)> = p
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind != FieldKind::Global && f.owner != crate::check::SIDE)
        .collect();
    let name_w = p
        .characters
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut rows: Vec<Vec<String>> = Vec::new();
    // A field of another type of entity than the row's is `·`.
    for (id, c) in p.characters.iter().enumerate() {
        rows.push(
            fields
                .iter()
                .map(|(fi, f)| {
                    if f.owner == c.ty && !snap.is_set(id as EntityId, *fi as FieldId) {
                        // Worked out when the character joins.
                        "–".to_string()
                    } else if f.owner == c.ty {
                        field_text(p, f, snap.get(id as EntityId, *fi as FieldId))
                    } else {
                        "·".to_string()
                    }
                })
                .collect(),
        );
    }
    let widths: Vec<usize> = fields
        .iter()
        .enumerate()
        .map(|(i, (_, f))| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([f.name.chars().count()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    // Columns in blocks that fit the width: a wide ruleset's table does not wrap.
    let mut blocks: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    let mut used = 2 + name_w;
    for (i, w) in widths.iter().enumerate() {
        if i > start && used + 2 + w > width.max(40) {
            blocks.push(start..i);
            start = i;
            used = 2 + name_w;
        }
        used += 2 + w;
    }
    blocks.push(start..widths.len());
    let mut out = String::new();
    for block in blocks {
        let mut head = format!("  {:<name_w$}", "");
        for i in block.clone() {
            head.push_str(&format!("  {:>w$}", fields[i].1.name, w = widths[i]));
        }
        out.push_str(head.trim_end());
        out.push('\n');
        for (id, (c, row)) in p.characters.iter().zip(&rows).enumerate() {
            let mut line = format!("  {:<name_w$}", c.name);
            for i in block.clone() {
                line.push_str(&format!("  {:>w$}", row[i], w = widths[i]));
            }
            if snap.is_absent(id as EntityId) {
                line.push_str("  (out of play)");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// `show`: the whole state, and the last `n` events.
pub fn show(s: &Session, n: usize, width: usize) -> String {
    let st = &s.state;
    let p = &st.program;
    let snap = st.snapshot();
    let mut out = format!(
        "{} · {} · seed {} · decision {} · {} command{} (undo {}, redo {})\n",
        p.encounter_name,
        p.ruleset_name,
        st.seed,
        st.decisions_shown() + 1,
        s.cursor,
        if s.cursor == 1 { "" } else { "s" },
        s.cursor,
        s.log.len() - s.cursor
    );
    if !st.rec.open.is_empty() {
        let at: Vec<String> = st.rec.open.iter().map(|f| frame_text(p, f)).collect();
        out.push_str(&format!("at       {}\n", at.join(" › ")));
    }
    if let Some(line) = order_line(st, snap) {
        out.push_str(&line);
    }
    if let Some(snap) = snap {
        out.push_str(&snapshot_text(p, snap, width));
        out.push_str(&super::piles::piles_text(p, snap));
        let armed = readied(st, snap, None);
        if !armed.is_empty() {
            out.push_str(&format!("ready    {}\n", armed.join("; ")));
        }
    }
    out.push_str(&modes_line(st));
    out.push_str(&held_line(st));
    out.push_str(&pending_text(st));
    out.push_str(&last_events(st, n));
    out
}

/// The choices held until revealed, who holds each and of which decision, never what was
/// chosen (docs/repl.md#secret-choices).
pub(super) fn held_line(st: &State) -> String {
    let Some(pd) = st.pending() else {
        return String::new();
    };
    if pd.held.is_empty() {
        return String::new();
    }
    let p = &st.program;
    let held: Vec<String> = pd
        .held
        .iter()
        .map(|(who, d)| {
            let d = p.decisions.get(*d as usize).map(String::as_str).unwrap_or("?");
            format!("{} {d}", p.who_name(*who))
        })
        .collect();
    format!("held     {} (in secret until revealed)\n", held.join(", "))
}

/// The responses armed by `ready` (of one owner, or everyone's with the owner's name): the
/// point, the condition as written, and the edge it expires at.
pub(super) fn readied(st: &State, snap: &Snapshot, owner: Option<EntityId>) -> Vec<String> {
    let p = &st.program;
    snap.armed
        .iter()
        .filter(|(_, o, _)| owner.is_none_or(|e| e == *o))
        .filter_map(|(r, o, until)| {
            let def = p.moments.readies.get(*r as usize)?;
            let mut text = match owner {
                Some(_) => format!("on {}", def.text),
                None => format!("{} on {}", p.character_name(*o), def.text),
            };
            if let Some(span) = def.filter_span {
                text.push_str(&format!(" where {}", st.sources.slice(span)));
            }
            if let Some(at) = until {
                let w = crate::trace::World::of(p);
                text.push_str(&format!(", until {}", crate::trace::anchor_text(&w, *at)));
            }
            Some(text)
        })
        .collect()
}

/// The kept orders, the clock, the globals, the characters' table, effects and flags.
fn snapshot_text(p: &Program, snap: &Snapshot, width: usize) -> String {
    let mut out = String::new();
    for (o, ids) in snap.ranked.iter().enumerate() {
        if ids.is_empty() {
            continue;
        }
        let names: Vec<String> = ids
            .iter()
            .map(|e| {
                let name = p.character_name(*e);
                if snap.is_absent(*e) {
                    format!("{name} (out)")
                } else {
                    name.to_string()
                }
            })
            .collect();
        out.push_str(&format!("kept     {}: {}\n", p.orders[o].name, names.join(", ")));
    }
    if let Some((base, _)) = p.units.first() {
        out.push_str(&format!("clock    {}\n", crate::trace::units_text(snap.clock, base)));
    }
    let globals: Vec<String> = p
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FieldKind::Global)
        .map(|(i, f)| format!("{} {}", f.name, field_text(p, f, snap.get(TABLE, i as FieldId))))
        .collect();
    if !globals.is_empty() {
        out.push_str(&format!("globals  {}\n", globals.join(", ")));
    }
    for line in super::sides::side_lines(p, snap) {
        out.push_str(&format!("{line}\n"));
    }
    if !p.characters.is_empty() {
        out.push_str(&table(p, snap, width));
    }
    out.push_str(&effects_and_flags(p, snap));
    out
}

/// The running effects and when they end; the flags and when they clear.
fn effects_and_flags(p: &Program, snap: &Snapshot) -> String {
    let mut out = String::new();
    let effects: Vec<String> = snap
        .effects
        .iter()
        .map(|(f, e, left, at)| {
            format!(
                "{} on {}: {left} more, counted at {}",
                p.fields[*f as usize].name,
                p.character_name(*e),
                crate::trace::anchor_text(&crate::trace::World::of(p), *at)
            )
        })
        .collect();
    if !effects.is_empty() {
        out.push_str(&format!("effects  {}\n", effects.join("; ")));
    }
    let flags: Vec<String> = p
        .fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let mut per: Vec<String> = f
                .per
                .iter()
                .map(|l| format!("each {}", p.levels[*l as usize].name))
                .collect();
            if p.turn_clears.contains(&(i as FieldId)) {
                per.push("its owner's turn".into());
            }
            if p.any_turn_clears.contains(&(i as FieldId)) {
                per.push("any turn".into());
            }
            (!per.is_empty()).then(|| format!("{} clears as {} starts", f.name, per.join(" or ")))
        })
        .collect();
    if !flags.is_empty() {
        out.push_str(&format!("flags    {}\n", flags.join("; ")));
    }
    out
}

/// The pending decision with its numbered options, or the status line.
fn pending_text(st: &State) -> String {
    let p = &st.program;
    match &st.end {
        End::Paused(pd) => {
            let mut out = format!(
                "pending  {} decides {}{}\n",
                p.who_name(pd.chooser),
                p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?"),
                in_secret(pd)
            );
            for (i, o) in pd.options.iter().enumerate() {
                out.push_str(&format!("  {} {}\n", i + 1, p.option_name(*o)));
            }
            out.push_str(&refused_lines(st, pd, "  "));
            out.push_str(&open_attempts(st, pd));
            for q in &st.queued {
                out.push_str(&format!("  waiting: {q}\n"));
            }
            out
        }
        _ => status(st),
    }
}

/// The last `n` events of the trace, in the GM's text view.
fn last_events(st: &State, n: usize) -> String {
    let mut out = String::new();
    // The last `n` events that have a line in the text view (some have none).
    let ends = &st.rec.ends;
    let has_line = |i: usize| ends[i] > if i == 0 { 0 } else { ends[i - 1] };
    let (mut from, mut shown) = (ends.len(), 0);
    while from > 0 && shown < n {
        from -= 1;
        shown += usize::from(has_line(from));
    }
    if shown > 0 {
        out.push_str(&format!("last {shown} event{}\n", if shown == 1 { "" } else { "s" }));
        for line in st.rec.text_from(from).lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// `log`: the commands, numbered, with the undo cursor. An `answer` that a secret choice not
/// yet revealed holds is shown without its answer; so is an undone one while secret choices are
/// being made (redo would give it again, maybe to one of them).
pub fn log(s: &Session) -> String {
    let mut out = String::new();
    if s.log.is_empty() {
        return "no commands yet\n".into();
    }
    let hidden = hidden_entries(&s.log[..s.cursor], &s.state);
    let open = secrets_open(&s.state);
    for (i, e) in s.log.iter().enumerate() {
        if i == s.cursor {
            out.push_str("  ── undone (redo brings them back):\n");
        }
        let picks = e
            .ops
            .iter()
            .filter(|o| matches!(o, super::session::Op::Pick { .. }))
            .count();
        let secret = hidden.get(i).copied().unwrap_or(open);
        let queues = e.ops.iter().any(|o| matches!(o, super::session::Op::Queue { .. }));
        let attempt = e
            .ops
            .iter()
            .any(|o| matches!(o, super::session::Op::Pick { attempter: Some(_), .. }));
        let note = if queues {
            "  (queued)".to_string()
        } else if e.ops.iter().any(|o| matches!(o, super::session::Op::Unqueue(_))) {
            "  (cancelled)".to_string()
        } else if attempt && !secret {
            format!("  ({})", e.note.unwrap_or("attempt"))
        } else if picks > 0 && !secret {
            format!("  ({picks} decision{})", if picks == 1 { "" } else { "s" })
        } else {
            String::new()
        };
        out.push_str(&format!("  {:>3}  {}{note}\n", i + 1, line_shown(e, secret)));
    }
    out
}

/// How the REPL prints: the width of a line and whether to colour.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub width: usize,
    pub colour: bool,
}

impl Look {
    pub(super) fn bold(&self, s: &str) -> String {
        if self.colour {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    fn dim(&self, s: &str) -> String {
        if self.colour {
            format!("\x1b[2m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// Where the fight is, as the prompt says it: the innermost numbered level and who decides
/// (`round 3 · Mira`); `over` when the encounter is over.
/// The outermost numbered level open (not a phase) and its iteration; before any, the first
/// such level the ruleset has, at 0 (`round`, when it has none).
pub fn level_now(st: &State) -> (String, u64) {
    let p = &st.program;
    let named = |l: LevelId| p.levels.get(l as usize).filter(|d| d.kind != LevelKind::Phase);
    st.rec
        .open
        .iter()
        .find_map(|f| match f {
            Frame::Level { level, n, .. } => named(*level).map(|d| (d.name.clone(), *n)),
            _ => None,
        })
        .or_else(|| {
            p.levels
                .iter()
                .find(|d| d.kind != LevelKind::Phase)
                .map(|d| (d.name.clone(), 0))
        })
        .unwrap_or_else(|| ("round".to_string(), 0))
}

pub fn where_short(st: &State) -> String {
    where_shown(st, true)
}

/// [`where_short`], naming who decides only when `chooser` (not while a choice is made in secret,
/// on the players' screen).
pub fn where_shown(st: &State, chooser: bool) -> String {
    let p = &st.program;
    let level = st.rec.open.iter().rev().find_map(|f| match f {
        Frame::Level { level, n, .. } if p.levels[*level as usize].kind != LevelKind::Phase => {
            Some(format!("{} {n}", p.levels[*level as usize].name))
        }
        _ => None,
    });
    let who = match &st.end {
        End::Paused(_) if !chooser => None,
        End::Paused(pd) => Some(p.who_name(pd.chooser).to_string()),
        End::Finished(..) => Some("over".to_string()),
        End::Failed(_) => Some("stopped".to_string()),
    };
    [level, who].into_iter().flatten().collect::<Vec<_>>().join(" · ")
}

/// The characters in the order play is walking (else the first kept order, else as declared),
/// and the name of that order.
pub(super) fn strip_order(st: &State, snap: &Snapshot) -> (Option<OrderId>, Vec<EntityId>, usize) {
    let p = &st.program;
    let walking = st.rec.open.iter().rev().find_map(|f| match f {
        Frame::Level {
            order: Some((o, ids)), ..
        } => Some((*o, ids.clone())),
        _ => None,
    });
    let (order, mut ids) = match walking {
        Some((o, ids)) => (Some(o), ids),
        None => match snap.ranked.iter().enumerate().find(|(_, r)| !r.is_empty()) {
            Some((o, r)) => (Some(o as OrderId), r.clone()),
            None => (None, Vec::new()),
        },
    };
    // Characters in play but in no order come after, as declared.
    let members = ids.len();
    for (id, c) in p.characters.iter().enumerate() {
        let id = id as EntityId;
        if c.ty == 0 && !ids.contains(&id) && !snap.is_absent(id) {
            ids.push(id);
        }
    }
    (order, ids, members)
}

/// The field an order's first key reads of each member (`by initiative desc`: `initiative`), when
/// it is a number the strip does not show already (a stat, not a resource or a flag).
pub(super) fn key_field(p: &Program, o: OrderId) -> Option<FieldId> {
    let order = p.orders.get(o as usize)?;
    match &order.keys.first()?.value {
        Ex::Field(of, f, _) if matches!(**of, Ex::Local(s) if s == order.var) => {
            let kind = p.fields.get(*f as usize)?.kind;
            matches!(kind, FieldKind::Stat).then_some(*f)
        }
        _ => None,
    }
}

/// One character's counts at a glance: resources, flags set, effects with the counts left.
pub(super) fn glance(p: &Program, snap: &Snapshot, e: EntityId) -> Vec<String> {
    let mut parts = Vec::new();
    for (fi, f) in p.fields.iter().enumerate() {
        let v = snap.get(e, fi as FieldId);
        match f.kind {
            FieldKind::Resource if f.owner == p.characters[e as usize].ty => {
                parts.push(format!("{} {}", f.name, crate::trace::Decimal(v, f.decimals)));
            }
            FieldKind::Flag if v != 0 && f.owner == p.characters[e as usize].ty => parts.push(f.name.clone()),
            _ => {}
        }
    }
    for (f, target, left, _) in &snap.effects {
        if *target == e {
            parts.push(format!("{} ({left} left)", p.fields[*f as usize].name));
        }
    }
    for (r, owner, _) in &snap.armed {
        if let (true, Some(def)) = (*owner == e, p.moments.readies.get(*r as usize)) {
            parts.push(format!("ready on {}", def.text));
        }
    }
    parts
}

/// `show`: the initiative strip — where play is and the clock, the order with who is up, who
/// has acted and who is next, each character's counts and effects; then the pending decision
/// and the last `n` events. One screen.
pub fn strip(s: &Session, n: usize, look: Look) -> String {
    let st = &s.state;
    let p = &st.program;
    let mut out = String::new();
    let mut head: Vec<String> = st.rec.open.iter().map(|f| frame_text(p, f)).collect();
    if head.is_empty() {
        head.push(format!("{} · {}", p.encounter_name, p.ruleset_name));
    }
    let snap = st.snapshot();
    if let (Some(snap), Some((base, _))) = (snap, p.units.first()) {
        head.push(format!("clock {}", crate::trace::units_text(snap.clock, base)));
    }
    out.push_str(&format!("{}\n", look.bold(&head.join(" › "))));
    if let Some(snap) = snap {
        let (order, rows) = super::view::strip_rows(st, snap);
        if let Some(o) = order.and_then(|o| p.orders.get(o as usize)) {
            out.push_str(&format!("{}\n", look.dim(&format!("order {}", o.name))));
        }
        let name_w = rows
            .iter()
            .map(|r| p.character_name(r.e).chars().count())
            .max()
            .unwrap_or(0);
        for r in rows {
            let mut parts = r.parts;
            // Each one's score in the order's first key (an initiative), first on the line.
            if let Some((name, score)) = r.score {
                parts.insert(0, format!("{name} {score}"));
            }
            if r.mark == super::view::Mark::Out {
                parts.insert(0, "out of play".into());
            }
            let name = format!("{:<name_w$}", p.character_name(r.e));
            let name = if matches!(r.mark, super::view::Mark::Up | super::view::Mark::Reacting) {
                look.bold(&name)
            } else {
                name
            };
            let line = format!("  {} {name}  {}", r.mark.symbol(), parts.join(" · "));
            out.push_str(&fit(line.trim_end(), look.width));
            out.push('\n');
        }
    }
    let globals: Vec<String> = match snap {
        Some(snap) => p
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == FieldKind::Global)
            .map(|(i, f)| format!("{} {}", f.name, field_text(p, f, snap.get(TABLE, i as FieldId))))
            .collect(),
        None => Vec::new(),
    };
    if !globals.is_empty() {
        out.push_str(&fit(&format!("globals  {}", globals.join(", ")), look.width));
        out.push('\n');
    }
    for line in snap.map(|s| super::sides::side_lines(p, s)).unwrap_or_default() {
        out.push_str(&fit(&line, look.width));
        out.push('\n');
    }
    if let Some(snap) = snap {
        for line in super::piles::piles_text(p, snap).lines() {
            out.push_str(&fit(line, look.width));
            out.push('\n');
        }
    }
    let held = held_line(st);
    if !held.is_empty() {
        out.push_str(&fit(held.trim_end(), look.width));
        out.push('\n');
    }
    out.push_str(&fit(modes_line(st).trim_end(), look.width));
    out.push('\n');
    out.push_str(&pending_text(st));
    out.push_str(&last_events(st, n));
    out
}

/// A line cut to `width` columns, with `…` where it was cut.
fn fit(line: &str, width: usize) -> String {
    if width == 0 || line.chars().count() <= width {
        return line.to_string();
    }
    let mut s: String = line.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// `show NAME`: one character: side, tags, where they stand in the orders, every field, the
/// effects on them.
pub fn one(s: &Session, e: EntityId, look: Look) -> String {
    let st = &s.state;
    let p = &st.program;
    if let Some(side) = p.side_of_owner(e) {
        return super::sides::one(s, side, look);
    }
    let c = &p.characters[e as usize];
    let mut head = vec![c.name.clone()];
    if let Some(side) = c.side {
        head.push(format!("side {}", p.sides[side as usize]));
    }
    let tags: Vec<&str> = c.tags.iter().map(|t| p.tags[*t as usize].as_str()).collect();
    if !tags.is_empty() {
        head.push(format!("tags {}", tags.join(", ")));
    }
    let Some(snap) = st.snapshot() else {
        head.push("(the encounter is over: `undo` goes back)".into());
        return format!("{}\n", head.join(" · "));
    };
    if snap.is_absent(e) {
        head.push("out of play".into());
    }
    let mut out = format!("{}\n", look.bold(&head.join(" · ")));
    for (o, ids) in snap.ranked.iter().enumerate() {
        if let Some(i) = ids.iter().position(|x| *x == e) {
            out.push_str(&format!("  place {} of {} in {}\n", i + 1, ids.len(), p.orders[o].name));
        }
    }
    let mut line = String::from(" ");
    for (fi, f) in p.fields.iter().enumerate() {
        if f.kind == FieldKind::Global || f.owner != c.ty {
            continue;
        }
        let text = if snap.is_set(e, fi as FieldId) {
            field_text(p, f, snap.get(e, fi as FieldId))
        } else {
            "(when it joins)".to_string()
        };
        let item = format!(" {} {text}", f.name);
        if line.chars().count() + item.chars().count() + 1 > look.width.max(40) {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(" ");
        }
        line.push_str(&item);
        line.push(' ');
    }
    if !line.trim().is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for (f, target, left, at) in &snap.effects {
        if *target == e {
            out.push_str(&format!(
                "  effect {}: {left} more, counted at {}\n",
                p.fields[*f as usize].name,
                crate::trace::anchor_text(&crate::trace::World::of(p), *at)
            ));
        }
    }
    for r in readied(st, snap, Some(e)) {
        out.push_str(&format!("  ready {r}\n"));
    }
    out
}
