//! What the REPL shows of a decision being asked: its options, the refusals of the last
//! answer, the attempts open at it, and what stays hidden while a secret choice is open.

use super::session::{End, Entry, Op, State};
use crate::compile::ir::*;

/// The options of a pending decision, numbered, on one line.
pub(super) fn options_line(st: &State, options: &[OptionKey]) -> String {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{} {}", i + 1, st.program.option_name(*o)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The candidates the rules refuse at a pending decision, one a line, each with its reasons.
pub(super) fn refused_lines(st: &State, pd: &crate::runtime::control::Pending, indent: &str) -> String {
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

/// The attempts that may be made at the pending decision (`attempt` with no `at`, or one naming
/// this decision), as `attempt WHO NAME` makes them: whether one is carried out or refused is
/// worked out when it is made (its `when`, its `forbid` lines, who makes it).
pub(super) fn open_attempts(st: &State, pd: &crate::runtime::control::Pending) -> String {
    let open = open_attempt_names(st, pd);
    if open.is_empty() {
        return String::new();
    }
    format!("  attempts open here: {} (`attempt WHO NAME`)\n", open.join(", "))
}

/// The names of the attempts open at the pending decision (see [`open_attempts`]).
pub(super) fn open_attempt_names<'a>(st: &'a State, pd: &crate::runtime::control::Pending) -> Vec<&'a str> {
    use crate::compile::ir::MomentDef;
    let p = &st.program;
    // At a tie broken by a person nothing can be carried out: every attempt is refused there.
    if !pd.reoffered {
        return Vec::new();
    }
    p.attempts
        .iter()
        .zip(&p.attempt_defs)
        .filter_map(|(o, def)| {
            let def = def.as_ref()?;
            let here = def.at.is_empty() || def.at.contains(&MomentDef::Decision(pd.decision));
            here.then(|| p.option_name(*o))
        })
        .collect()
}

/// ` in secret` after a decision asked in secret.
pub(super) fn in_secret(pd: &crate::runtime::control::Pending) -> &'static str {
    if pd.secret { " in secret" } else { "" }
}

/// Which of `log`'s entries (those `st` has applied) took an answer that a secret choice not yet
/// revealed holds: the views show them without it.
pub fn hidden_entries(log: &[Entry], st: &State) -> Vec<bool> {
    let hidden: &[u32] = match &st.end {
        End::Paused(pd) => &pd.hidden,
        _ => &st.held.0,
    };
    let mut taken = 0u32;
    log.iter()
        .map(|e| {
            let from = taken;
            let picks = e.ops.iter().filter(|o| matches!(o, Op::Pick { .. })).count();
            taken = taken.saturating_add(picks as u32);
            (from..taken).any(|k| hidden.binary_search(&k).is_ok())
        })
        .collect()
}

/// A command line as the views show it: an `answer` whose answer is secret (`hidden`) without
/// what it names.
pub fn line_shown(e: &Entry, hidden: bool) -> String {
    let line = e.line.replace('\n', " ");
    match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["answer", _] if hidden => "answer (secret until the reveal)".into(),
        _ => line,
    }
}

/// The reply to an answer (`i`) at a decision asked in secret that the rules refuse: what was
/// refused, and why, for whoever answers; the trace keeps it until the reveal.
pub fn refused_in_secret(st: &State, pd: &crate::runtime::control::Pending, i: usize) -> String {
    let p = &st.program;
    let Some(j) = i.checked_sub(pd.options.len()) else {
        return String::new();
    };
    match pd.refused.get(j) {
        Some(o) => format!(
            "refused in secret: {}: {} (traced at the reveal)\n",
            p.option_name(*o),
            pd.reasons.get(j).map(String::as_str).unwrap_or("")
        ),
        None => match p.attempts.get(j - pd.refused.len()) {
            Some(o) => format!(
                "refused in secret: {} (traced at the reveal, with its reasons)\n",
                p.option_name(*o)
            ),
            None => String::new(),
        },
    }
}

/// Whether a secret choice is being made or held at the pending decision: the answers an undone
/// command would give again may be secret.
pub(super) fn secrets_open(st: &State) -> bool {
    matches!(&st.end, End::Paused(pd) if pd.secret || !pd.hidden.is_empty()) || !st.held.0.is_empty()
}
