//! What the REPL prints about the state: `show`, the status line after a change, `log`.

use super::Session;
use super::session::{Divergence, End, Entry, Frame, State};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::runtime::control::Snapshot;
use crate::syntax::ast::LevelKind;
use crate::trace::reason_text;

/// The options of a pending decision, numbered, on one line.
fn options_line(st: &State, options: &[OptionKey]) -> String {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{} {}", i + 1, st.program.option_name(*o)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The candidates the rules refuse at a pending decision, one a line, each with its reasons.
fn refused_lines(st: &State, pd: &crate::runtime::control::Pending, indent: &str) -> String {
    let p = &st.program;
    pd.refused
        .iter()
        .enumerate()
        .map(|(j, o)| {
            let why = pd.reasons.get(j).map(String::as_str).unwrap_or("");
            format!("{indent}refused {}: {why}\n", p.option_name(*o))
        })
        .collect()
}

/// Who the REPL asks and who plays by a policy, when anything was set.
fn modes_line(st: &State) -> String {
    let m = &st.modes;
    if m.named.is_empty() {
        return String::new();
    }
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
    parts.push(if m.single_on() {
        "one-option decisions taken at once".into()
    } else {
        "one-option decisions asked".into()
    });
    format!("control  {}\n", parts.join(" · "))
}

/// One line (or a diagnostic) on where the state stands after a command.
pub fn status(st: &State) -> String {
    let p = &st.program;
    match &st.end {
        End::Paused(pd) => {
            let mut out = format!(
                "decision {}: {} decides {} — {}\n",
                st.decisions + 1,
                p.who_name(pd.chooser),
                p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?"),
                options_line(st, &pd.options)
            );
            out.push_str(&refused_lines(st, pd, "  "));
            out
        }
        End::Finished(r) => format!("the encounter is over ({})\n", reason_text(p, r)),
        End::Failed(d) => {
            let mut out = st.sources.render(d, 80, false);
            out.push_str("the run stopped with this error: `undo` goes back, `reload` runs an edited ruleset\n");
            out
        }
    }
}

pub fn divergence(log: &[Entry], d: &Divergence) -> String {
    let line = log.get(d.entry).map_or("", |e| e.line.as_str());
    format!(
        "the replay diverged at command {} (`{line}`): {}\nstopped before it; `redo` tries it again, `log` lists the commands\n",
        d.entry + 1,
        d.reason
    )
}

fn frame_text(p: &Program, f: &Frame) -> String {
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

fn value_text(kind: FieldKind, v: i64) -> String {
    match kind {
        FieldKind::Flag | FieldKind::Effect => (if v != 0 { "yes" } else { "-" }).to_string(),
        _ => v.to_string(),
    }
}

/// Every character's fields as a table, one row a character.
fn table(p: &Program, snap: &Snapshot) -> String {
    let fields: Vec<(usize, &FieldDef)> = p
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind != FieldKind::Global)
        .collect();
    let name_w = p
        .characters
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (id, _) in p.characters.iter().enumerate() {
        rows.push(
            fields
                .iter()
                .map(|(fi, f)| value_text(f.kind, snap.get(id as EntityId, *fi as FieldId)))
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
    let mut out = format!("  {:<name_w$}", "");
    for ((_, f), w) in fields.iter().zip(&widths) {
        out.push_str(&format!("  {:>w$}", f.name));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for (id, (c, row)) in p.characters.iter().zip(&rows).enumerate() {
        let mut line = format!("  {:<name_w$}", c.name);
        for (v, w) in row.iter().zip(&widths) {
            line.push_str(&format!("  {v:>w$}"));
        }
        if snap.is_absent(id as EntityId) {
            line.push_str("  (out of play)");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `show`: the whole state, and the last `n` events.
pub fn show(s: &Session, n: usize) -> String {
    let st = &s.state;
    let p = &st.program;
    let snap = st.snapshot();
    let mut out = format!(
        "{} · {} · seed {} · decision {} · {} command{} (undo {}, redo {})\n",
        p.encounter_name,
        p.ruleset_name,
        st.seed,
        st.decisions + 1,
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
        out.push_str(&snapshot_text(p, snap));
    }
    out.push_str(&modes_line(st));
    out.push_str(&pending_text(st));
    out.push_str(&last_events(st, n));
    out
}

/// The kept orders, the clock, the globals, the characters' table, effects and flags.
fn snapshot_text(p: &Program, snap: &Snapshot) -> String {
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
        out.push_str(&format!("clock    {} {base}\n", snap.clock));
    }
    let globals: Vec<String> = p
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FieldKind::Global)
        .map(|(i, f)| format!("{} {}", f.name, snap.get(TABLE, i as FieldId)))
        .collect();
    if !globals.is_empty() {
        out.push_str(&format!("globals  {}\n", globals.join(", ")));
    }
    if !p.characters.is_empty() {
        out.push_str(&table(p, snap));
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
        .filter_map(|f| {
            let per = f.per?;
            Some(format!(
                "{} clears as each {} starts",
                f.name, p.levels[per as usize].name
            ))
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
                "pending  {} decides {}\n",
                p.who_name(pd.chooser),
                p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?")
            );
            for (i, o) in pd.options.iter().enumerate() {
                out.push_str(&format!("  {} {}\n", i + 1, p.option_name(*o)));
            }
            out.push_str(&refused_lines(st, pd, "  "));
            out
        }
        _ => status(st),
    }
}

/// The last `n` events of the trace, in the GM's text view.
fn last_events(st: &State, n: usize) -> String {
    let mut out = String::new();
    let total = st.rec.ends.len();
    let from = total.saturating_sub(n);
    if n > 0 && total > 0 {
        out.push_str(&format!(
            "last {} event{}\n",
            total - from,
            if total - from == 1 { "" } else { "s" }
        ));
        for line in st.rec.text_from(from).lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// `log`: the commands, numbered, with the undo cursor.
pub fn log(s: &Session) -> String {
    let mut out = String::new();
    if s.log.is_empty() {
        return "no commands yet\n".into();
    }
    for (i, e) in s.log.iter().enumerate() {
        if i == s.cursor {
            out.push_str("  ── undone (redo brings them back):\n");
        }
        let picks = e
            .ops
            .iter()
            .filter(|o| matches!(o, super::session::Op::Pick { .. }))
            .count();
        let note = if picks > 0 {
            format!("  ({picks} decision{})", if picks == 1 { "" } else { "s" })
        } else {
            String::new()
        };
        out.push_str(&format!("  {:>3}  {}{note}\n", i + 1, e.line.replace('\n', " ")));
    }
    out
}
