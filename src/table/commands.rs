//! The commands: parsing a command line into a [`Cmd`] or a diagnostic that points into the line
//! (their help is in `help.rs`). Parsing checks names against the state, so a bad command changes
//! nothing.

use super::session::{Goal, Op, State, declared_names};
use super::{Table, span};
use crate::compile::ir::*;
use crate::diag::Diag;

use super::control::{parse_continue, parse_mode};
pub use super::help::{COMMANDS, help};
use super::rulings::{parse_begin, parse_place, parse_rank, parse_stop, set};

/// A parsed command.
pub enum Cmd {
    Help(Option<String>),
    Quit,
    Show(usize),
    ShowAll(usize),
    ShowOne(EntityId),
    Trace,
    Log,
    Change { ops: Vec<Op>, goal: Goal },
    Undo(u32),
    Redo(u32),
    Reload,
    Save(String),
    Load(String),
}

/// Whether a text opens more braces than it closes (a definition continues on the next line).
/// How a line changes the depth of braces (`{` opens, `}` closes, a `#` comment is left out).
pub fn brace_change(line: &str) -> i64 {
    line.split('#')
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}

pub fn unbalanced(text: &str) -> bool {
    let mut depth = 0i64;
    for line in text.lines() {
        for c in line.split('#').next().unwrap_or("").chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
    }
    depth > 0
}

/// Words of a line with their byte ranges.
/// A name may be quoted, as rulesets write it (`show "Big Bob"`): spaces inside quotes do not
/// split a word, and a word that is all one quoted name is given without its quotes (its range
/// keeps them).
pub(super) fn words(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quoted = false;
    let mut push = |s: usize, e: usize| {
        let w = &line[s..e];
        let inner = w
            .strip_prefix('"')
            .and_then(|x| x.strip_suffix('"'))
            .filter(|x| !x.contains('"'));
        out.push((s, e, inner.unwrap_or(w)));
    };
    for (i, c) in line.char_indices() {
        if c == '"' {
            quoted = !quoted;
        }
        match (c.is_whitespace() && !quoted, start) {
            (true, Some(s)) => {
                push(s, i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        push(s, line.len());
    }
    out
}

pub(super) fn closest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    names
        .into_iter()
        .map(|n| (distance(word, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + (ca != *cb) as usize).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

pub(super) fn bad(code: &'static str, msg: impl Into<String>, at: (usize, usize), label: &str) -> Diag {
    Diag::new(code, msg).label(span(at.0, at.1), label)
}

pub(super) fn number<T: std::str::FromStr>(w: (usize, usize, &str), what: &str) -> Result<T, Diag> {
    w.2.parse().map_err(|_| {
        // Digits that parse as a wider number above zero, or not at all: too large, not malformed.
        let too_large =
            w.2.parse::<i128>()
                .map_or(crate::limits::too_many_digits(w.2), |v| v > 0);
        if too_large {
            return bad(
                "repl::too_large",
                format!("`{}` is too large for {what}", crate::limits::clip(w.2)),
                (w.0, w.1),
                "too large",
            )
            .help(format!("write {what} here with fewer digits, e.g. 3"));
        }
        bad(
            "repl::not_a_number",
            format!("`{}` is not {what}", w.2),
            (w.0, w.1),
            "expected here",
        )
        .help(format!("write {what} here, e.g. 3"))
    })
}

pub(super) fn too_many(ws: &[(usize, usize, &str)], from: usize, usage: &str) -> Result<(), Diag> {
    match ws.get(from) {
        Some(w) => {
            // `answer Goblin 2`: a name of several words (a group's member) is written in quotes.
            let words = |r: std::ops::Range<usize>| ws[r].iter().map(|w| w.2).collect::<Vec<_>>().join(" ");
            let quote = match from >= 2 && usage.contains("NAME") {
                true => format!(
                    "; a name of several words is written in quotes: `{} \"{}\"`",
                    words(0..from - 1),
                    words(from - 1..ws.len())
                ),
                false => String::new(),
            };
            Err(bad(
                "repl::extra_words",
                "too many words for this command",
                (w.0, ws.last().map_or(w.1, |l| l.1)),
                "not expected",
            )
            .help(format!("usage: {usage}{quote}")))
        }
        None => Ok(()),
    }
}

pub(super) fn usage(name: &str) -> &'static str {
    COMMANDS.iter().find(|c| c.name == name).map_or("", |c| c.usage)
}

/// The state of a loaded session, or why the command cannot run.
pub(super) fn state(repl: &Table, at: (usize, usize)) -> Result<&State, Diag> {
    repl.session.as_ref().map(|s| &s.state).ok_or_else(|| {
        bad("repl::no_session", "no session is loaded", at, "needs a session")
            .help("start with `turnscript repl RULESET [--encounter FILE]`, or `load FILE`")
    })
}

/// The pending decision, or why there is none.
pub(super) fn pending(st: &State, at: (usize, usize)) -> Result<&crate::runtime::control::Pending, Diag> {
    st.pending().ok_or_else(|| {
        let why = match &st.end {
            super::session::End::Failed(_) => "the run stopped with an error",
            _ => "the encounter is over",
        };
        bad(
            "repl::no_decision",
            format!("there is no pending decision: {why}"),
            at,
            "needs a decision",
        )
        .help("`undo` goes back; `reload` runs an edited ruleset again")
    })
}

/// Whether the log so far has answered any decision (changes before that hold from the start).
pub(super) fn started(repl: &Table) -> bool {
    repl.session.as_ref().is_some_and(|s| {
        s.log[..s.cursor]
            .iter()
            .any(|e| e.ops.iter().any(|o| matches!(o, Op::Pick { .. })))
    })
}

/// A word of a line with its byte range: `(start, end, text)`.
pub(super) type Word<'a> = (usize, usize, &'a str);

/// Parses a command line. The dispatch has one arm per command, each a short call.
pub fn parse(repl: &Table, line: &str) -> Result<Cmd, Diag> {
    let ws = words(line);
    let Some(&(s0, e0, name)) = ws.first() else {
        return Ok(Cmd::Show(8));
    };
    let head = (s0, e0);
    match name {
        "help" | "?" => parse_help(&ws),
        "quit" | "exit" => Ok(Cmd::Quit),
        "show" => parse_show(repl, &ws, head),
        "trace" | "log" => {
            state(repl, head)?;
            too_many(&ws, 1, usage(name))?;
            Ok(if name == "trace" { Cmd::Trace } else { Cmd::Log })
        }
        "undo" | "redo" => parse_undo_redo(repl, &ws, head, name),
        "reload" => {
            state(repl, head)?;
            too_many(&ws, 1, usage("reload"))?;
            Ok(Cmd::Reload)
        }
        "save" | "load" => parse_save_load(repl, line, head, name),
        "step" => parse_step(repl, &ws, head),
        "continue" => parse_continue(repl, &ws, head),
        "auto" | "ask" => parse_mode(repl, &ws, head, name),
        "answer" => parse_answer(repl, &ws, head),
        "attempt" => parse_attempt(repl, line, &ws, head),
        "roll" => parse_roll(repl, &ws, head),
        "draw" => parse_draw(repl, line, head),
        "seed" => parse_seed(repl, &ws, head),
        "set" => {
            let st = state(repl, head)?;
            pending(st, head)?;
            Ok(change(vec![set(st, line, e0)?]))
        }
        "remove" => parse_remove(repl, &ws, head),
        "begin" => parse_begin(repl, line, &ws, head),
        "stop" | "end" => parse_stop(repl, &ws, head),
        "place" => parse_place(repl, &ws, head),
        "rank" => parse_rank(repl, &ws, head),
        "add" => parse_add(repl, line, head),
        _ => Err(unknown((s0, e0, name), "")),
    }
}

/// A change to the state that pauses at the next decision.
pub(super) fn change(ops: Vec<Op>) -> Cmd {
    Cmd::Change { ops, goal: Goal::Pause }
}

fn parse_help(ws: &[Word]) -> Result<Cmd, Diag> {
    let arg = |i: usize| ws.get(i).copied();
    if let Some(w) = arg(1)
        && !COMMANDS.iter().any(|c| c.name == w.2)
    {
        return Err(unknown(w, "help"));
    }
    too_many(ws, 2, usage("help"))?;
    Ok(Cmd::Help(arg(1).map(|w| w.2.to_string())))
}

fn parse_show(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let events = |i: usize| -> Result<usize, Diag> {
        too_many(ws, i + 1, usage("show"))?;
        Ok(ws
            .get(i)
            .map(|w| number(*w, "a number of events"))
            .transpose()?
            .unwrap_or(8))
    };
    match ws.get(1).copied() {
        Some(w) if w.2 == "all" => Ok(Cmd::ShowAll(events(2)?)),
        Some(w) if !w.2.starts_with(|c: char| c.is_ascii_digit()) => {
            too_many(ws, 2, usage("show"))?;
            // An entity, else a side (`show heroes`: its fields and members).
            match super::sides::owner_named(&st.program, w.2) {
                Some((e, _)) => Ok(Cmd::ShowOne(e)),
                None => Ok(Cmd::ShowOne(character(st, w)?)),
            }
        }
        _ => Ok(Cmd::Show(events(1)?)),
    }
}

fn parse_undo_redo(repl: &Table, ws: &[Word], head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
    state(repl, head)?;
    too_many(ws, 2, usage(name))?;
    let n = ws
        .get(1)
        .map(|w| number(*w, "a number of commands"))
        .transpose()?
        .unwrap_or(1);
    Ok(if name == "undo" { Cmd::Undo(n) } else { Cmd::Redo(n) })
}

/// `save FILE` or `load FILE`: the file is the rest of the line, spaces and all.
fn parse_save_load(repl: &Table, line: &str, head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
    if name == "save" {
        state(repl, head)?;
    }
    let rest = line[head.1..].trim();
    if rest.is_empty() {
        return Err(bad(
            "repl::missing_file",
            format!("`{name}` needs a file"),
            head,
            "which file?",
        )
        .help(format!("usage: {}", usage(name))));
    }
    Ok(if name == "save" {
        Cmd::Save(rest.to_string())
    } else {
        Cmd::Load(rest.to_string())
    })
}

fn parse_step(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let arg = |i: usize| ws.get(i).copied();
    let st = state(repl, head)?;
    pending(st, head)?;
    let (goal, used) = match arg(1) {
        None => (Goal::Decisions(1), 1),
        Some(w) if w.2 == "level" => match arg(2) {
            Some(l) => (level(st, l)?, 3),
            None => {
                return Err(bad(
                    "repl::missing_value",
                    "`step level` needs a level",
                    (w.0, w.1),
                    "which level?",
                )
                .help(format!("usage: {}", usage("step"))));
            }
        },
        Some(w) if w.2 == "turn" => (Goal::Turn, 2),
        Some(w) if w.2 == "until" => {
            let (l, n) = until(st, ws, w, "step")?;
            (Goal::Until(l, n), 3)
        }
        Some(w) if w.2 == "end" => (Goal::End, 2),
        Some(w) if w.2.starts_with(|c: char| c.is_ascii_digit()) => {
            (Goal::Decisions(number(w, "a number of decisions")?), 2)
        }
        Some(w) => (level(st, w)?, 2),
    };
    too_many(ws, used, usage("step"))?;
    Ok(Cmd::Change { ops: Vec::new(), goal })
}

/// The word `i` of a command, or a diagnostic asking for what should be there.
pub(super) fn word<'a>(
    ws: &[Word<'a>],
    i: usize,
    cmd: &str,
    what: &str,
    head: (usize, usize),
) -> Result<Word<'a>, Diag> {
    ws.get(i).copied().ok_or_else(|| {
        let at = ws.last().map_or(head, |w| (w.0, w.1));
        bad(
            "repl::missing_value",
            format!("`{cmd}` needs {what}"),
            at,
            "more is needed after this",
        )
        .help(format!("usage: {}", usage(cmd)))
    })
}

/// Word `i` must be the keyword `kw`.
pub(super) fn keyword(ws: &[Word], i: usize, kw: &str, cmd: &str, head: (usize, usize)) -> Result<(), Diag> {
    let w = word(ws, i, cmd, &format!("`{kw}`"), head)?;
    if w.2 == kw {
        Ok(())
    } else {
        Err(bad(
            "repl::expected_word",
            format!("expected `{kw}`, found `{}`", w.2),
            (w.0, w.1),
            "here",
        )
        .help(format!("usage: {}", usage(cmd))))
    }
}

/// `until LEVEL=N` (the word after `until` in `ws`): the level and its iteration.
pub(super) fn until(st: &State, ws: &[Word], at: Word, cmd: &str) -> Result<(LevelId, u64), Diag> {
    let Some(w) = ws.iter().copied().find(|x| x.0 > at.0) else {
        return Err(bad(
            "repl::missing_value",
            format!("`{cmd} until` needs LEVEL=N"),
            (at.0, at.1),
            "until when?",
        )
        .help(format!("usage: {}, e.g. {cmd} until round=3", usage(cmd))));
    };
    let Some((name, n)) = w.2.split_once('=') else {
        return Err(bad(
            "repl::bad_until",
            format!("`{}` is not LEVEL=N", w.2),
            (w.0, w.1),
            "expected LEVEL=N",
        )
        .help(format!("e.g. {cmd} until round=3 (after the third round is over)")));
    };
    let goal = level(st, (w.0, w.0 + name.len(), name))?;
    let n0 = w.0 + name.len() + 1;
    let n: u64 = number((n0, w.1.max(n0 + 1), n), "an iteration (a whole number)")?;
    match goal {
        Goal::Level(l) => Ok((l, n)),
        _ => Err(bad("repl::unknown_level", "not a level", (w.0, w.1), "not a level")),
    }
}

pub(super) fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

fn parse_answer(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    too_many(ws, 2, usage("answer"))?;
    let goal = match ws.get(1).copied() {
        None => Goal::Decisions(1),
        Some(w) => Goal::Answer(option(st, pd, w)?),
    };
    Ok(Cmd::Change { ops: Vec::new(), goal })
}

/// `attempt WHO NAME`: WHO (a character or a role, anyone) makes the attempt NAME now, at the
/// pending decision: refused with every reason, or carried out; the decision is asked again.
/// `attempt WHO NAME MOMENT` (`after Cap`, `start of round 3`, as an answers file writes it)
/// queues it for that moment; `attempt cancel [WHO NAME]` takes queued ones back.
fn parse_attempt(repl: &Table, line: &str, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    if ws.get(1).is_some_and(|w| w.2 == "cancel") && character(st, ws[1]).is_err() {
        return parse_cancel(st, ws, head);
    }
    let (Some(w), Some(a)) = (ws.get(1).copied(), ws.get(2).copied()) else {
        return Err(bad(
            "repl::missing_value",
            "`attempt` needs who attempts and what",
            head,
            "who, and what?",
        )
        .help(format!("usage: {}", usage("attempt"))));
    };
    let p = &st.program;
    let who = match p.roles.iter().position(|r| r == w.2) {
        Some(r) => Who::Role(r as u16),
        None => Who::Character(character(st, w)?),
    };
    // Attempts are made by characters and roles, never by a thing.
    if let Who::Character(e) = who
        && let Some(c) = p.characters.get(e as usize).filter(|c| c.ty != 0)
    {
        return Err(bad(
            "repl::unknown_character",
            format!(
                "`{}` is a {}, not a character or a role",
                c.name,
                p.things.get(c.ty as usize).map_or("thing", |t| t.0.as_str())
            ),
            (w.0, w.1),
            "not who makes an attempt",
        )
        .help("attempts are made by characters and roles"));
    }
    let names: Vec<&str> = p.attempts.iter().map(|o| p.option_name(*o)).collect();
    let Some(k) = names.iter().position(|n| *n == a.2) else {
        let d = bad(
            "repl::no_such_option",
            format!("no attempt is called `{}`", a.2),
            (a.0, a.1),
            "not an attempt",
        );
        return Err(if names.is_empty() {
            d.help("the rules declare no attempt (`attempt NAME { ... }` or `forbid NAME because ...`)")
        } else {
            match closest(a.2, names.iter().copied()) {
                Some(c) => d.help(format!("did you mean `{c}`? the attempts are: {}", names.join(", "))),
                None => d.help(format!("the attempts are: {}", names.join(", "))),
            }
        });
    };
    if let Some(m) = ws.get(3) {
        let text = line.get(m.0..).unwrap_or("").trim();
        crate::runtime::decide::parse_moment(p, text).map_err(|e| {
            bad("repl::bad_moment", e, (m.0, line.len()), "not a moment")
                .help("a queued attempt names its moment as an answers file does: `attempt Ilse interrupt after Cap`")
        })?;
        return Ok(change(vec![Op::Queue {
            who: p.who_name(who).to_string(),
            attempt: a.2.to_string(),
            moment: text.to_string(),
        }]));
    }
    let i = pd.options.len() + pd.refused.len() + k;
    Ok(Cmd::Change {
        ops: Vec::new(),
        goal: Goal::Attempt(i, who),
    })
}

/// `attempt cancel`: every queued attempt taken back; `attempt cancel WHO NAME`: the first of
/// WHO's NAME.
fn parse_cancel(st: &State, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    too_many(ws, 4, usage("attempt"))?;
    if st.queued.is_empty() {
        return Err(bad(
            "repl::no_such_option",
            "no attempt is waiting for a moment",
            head,
            "nothing to cancel",
        )
        .help("`attempt WHO NAME after X` queues one; `show` lists those waiting"));
    }
    let Some((w, a)) = ws.get(2).zip(ws.get(3)) else {
        if let Some(w) = ws.get(2) {
            return Err(bad(
                "repl::missing_value",
                "`attempt cancel` needs who and what, or nothing",
                (w.0, w.1),
                "who, and what?",
            )
            .help("`attempt cancel` takes back every queued attempt; `attempt cancel WHO NAME` one"));
        }
        return Ok(change(vec![Op::Unqueue(None)]));
    };
    let p = &st.program;
    let who = match p.roles.iter().position(|r| r == w.2) {
        Some(r) => Who::Role(r as u16),
        None => Who::Character(character(st, *w)?),
    };
    let prefix = format!("{} {} ", p.who_name(who), a.2);
    if !st.queued.iter().any(|q| q.starts_with(&prefix)) {
        return Err(bad(
            "repl::no_such_option",
            format!("no attempt `{}` by {} is waiting", a.2, p.who_name(who)),
            (w.0, a.1),
            "not queued",
        )
        .help(format!("waiting: {}", st.queued.join("; "))));
    }
    Ok(change(vec![Op::Unqueue(Some((
        p.who_name(who).to_string(),
        a.2.to_string(),
    )))]))
}

fn parse_draw(repl: &Table, line: &str, head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let rest = line.get(head.1..).unwrap_or("");
    let names: Vec<&str> = rest.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err(bad(
            "repl::missing_value",
            "`draw` needs at least one card",
            head,
            "which cards?",
        )
        .help(format!("usage: {}", usage("draw"))));
    }
    let p = &st.program;
    for n in &names {
        let card = p.characters.iter().any(|c| c.name == *n && p.decks.contains(&c.ty));
        if !card {
            let at = rest.find(n).map_or(head.1, |i| head.1 + i);
            return Err(bad(
                "repl::unknown_card",
                format!("no deck has a card called `{n}`"),
                (at, at + n.len()),
                "not a card",
            )
            .help(if p.decks.is_empty() {
                "this ruleset declares no deck".to_string()
            } else {
                "name cards as the trace does: `Q hearts`, `joker 1`, `7`; a card of one of several decks of a make, or of an entity's deck, ends with whose it is: `Q hearts of gm`".to_string()
            }));
        }
    }
    Ok(change(vec![Op::Draw(names.iter().map(|n| n.to_string()).collect())]))
}

fn parse_roll(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    if ws.len() < 2 {
        return Err(bad(
            "repl::missing_value",
            "`roll` needs at least one value",
            head,
            "which values?",
        )
        .help(format!("usage: {}", usage("roll"))));
    }
    let rolls = ws[1..]
        .iter()
        .map(|w| number(*w, "a die's value"))
        .collect::<Result<_, _>>()?;
    Ok(change(vec![Op::Roll(rolls)]))
}

fn parse_seed(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let Some(w) = ws.get(1).copied() else {
        return Err(bad("repl::missing_value", "`seed` needs a number", head, "which seed?")
            .help(format!("usage: {}", usage("seed"))));
    };
    too_many(ws, 2, usage("seed"))?;
    let seed = number(w, "a seed (a whole number from 0)")?;
    if started(repl) {
        pending(st, head)?;
    }
    Ok(change(vec![Op::Seed(seed)]))
}

fn parse_remove(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let Some(w) = ws.get(1).copied() else {
        return Err(bad("repl::missing_value", "`remove` needs a character", head, "who?")
            .help(format!("usage: {}", usage("remove"))));
    };
    too_many(ws, 2, usage("remove"))?;
    let e = character(st, w)?;
    if pd.snapshot.is_absent(e) {
        return Err(bad(
            "repl::absent",
            format!("{} is already out of play", w.2),
            (w.0, w.1),
            "already out",
        ));
    }
    let deciding = pd.chooser == Who::Character(e);
    if deciding || pd.options.contains(&OptionKey::Character(e)) {
        return Err(bad(
            "repl::busy",
            format!(
                "{} is {} the pending decision",
                w.2,
                if deciding { "making" } else { "an option of" }
            ),
            (w.0, w.1),
            "cannot leave now",
        )
        .help("answer or step past the decision first, then remove them"));
    }
    Ok(change(vec![Op::Remove(w.2.to_string())]))
}

/// `add character NAME { ... }`: the definition is the rest of the line.
fn parse_add(repl: &Table, line: &str, head: (usize, usize)) -> Result<Cmd, Diag> {
    let e0 = head.1;
    let st = state(repl, head)?;
    let text = line[e0..].trim();
    if text.is_empty() {
        return Err(bad("repl::missing_value", "`add` needs a definition", head, "what?")
            .help(format!("usage: {}", usage("add"))));
    }
    if declared_names(text).is_empty() {
        let at = (e0 + line[e0..].find(text).unwrap_or(0), line.len());
        return Err(bad(
            "repl::no_character",
            "this adds no character",
            at,
            "expected `character NAME { ... }`",
        )
        .help("write it as in an encounter file: add character Zed { side rivals, hp = 5 }"));
    }
    if started(repl) {
        pending(st, head)?;
    }
    Ok(change(vec![Op::Add(text.to_string())]))
}

fn unknown(w: (usize, usize, &str), after: &str) -> Diag {
    let names = COMMANDS.iter().map(|c| c.name);
    let d = bad(
        "repl::unknown_command",
        format!("there is no command `{}`", w.2),
        (w.0, w.1),
        if after.is_empty() {
            "not a command"
        } else {
            "not a command to help with"
        },
    );
    match closest(w.2, names) {
        Some(c) => d.help(format!("did you mean `{c}`? `help` lists the commands")),
        None => d.help("`help` lists the commands"),
    }
}

fn level(st: &State, w: (usize, usize, &str)) -> Result<Goal, Diag> {
    match st.program.level_id(w.2) {
        Some(l) => Ok(Goal::Level(l)),
        None => {
            let names: Vec<&str> = st.program.levels.iter().map(|l| l.name.as_str()).collect();
            let d = bad(
                "repl::unknown_level",
                format!("no level is called `{}`", w.2),
                (w.0, w.1),
                "not a level of this ruleset",
            );
            Err(match closest(w.2, names.iter().copied()) {
                Some(c) => d.help(format!(
                    "did you mean `{c}`? the levels are: {}; or N, turn, end",
                    names.join(", ")
                )),
                None => d.help(format!("the levels are: {}; or N, turn, end", names.join(", "))),
            })
        }
    }
}

fn option(st: &State, pd: &crate::runtime::control::Pending, w: (usize, usize, &str)) -> Result<usize, Diag> {
    let p = &st.program;
    let names: Vec<&str> = pd.options.iter().map(|o| p.option_name(*o)).collect();
    let listed = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{} {n}", i + 1))
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(n) = w.2.parse::<usize>() {
        if n >= 1 && n <= names.len() {
            return Ok(n - 1);
        }
        return Err(bad(
            "repl::no_such_option",
            format!("there is no option {n}"),
            (w.0, w.1),
            format!("the options are numbered 1 to {}", names.len()).as_str(),
        )
        .help(format!("the options are: {listed}")));
    }
    if let Some(i) = names.iter().position(|n| *n == w.2) {
        return Ok(i);
    }
    // An option the rules refuse now is answered like any other: the run traces the refusal,
    // with its reasons, and asks again.
    if let Some(j) = pd.refused.iter().position(|o| p.option_name(*o) == w.2) {
        return Ok(names.len() + j);
    }
    // So is an attempt a `forbid` names: refused with its reasons, and asked again.
    if let Some(k) = p.attempts.iter().position(|o| p.option_name(*o) == w.2) {
        return Ok(names.len() + pd.refused.len() + k);
    }
    // And someone the choice does not offer for being out of play (or in it): refused with why.
    if let Some(m) = pd.outside.iter().position(|o| p.option_name(*o) == w.2) {
        return Ok(names.len() + pd.refused.len() + p.attempts.len() + m);
    }
    let d = bad(
        "repl::no_such_option",
        format!(
            "`{}` is not an option of `{}` for {}",
            w.2,
            p.decisions.get(pd.decision as usize).map(String::as_str).unwrap_or("?"),
            p.who_name(pd.chooser)
        ),
        (w.0, w.1),
        "not offered now",
    );
    Err(match closest(w.2, names.iter().copied()) {
        Some(c) => d.help(format!("did you mean `{c}`? the options are: {listed}")),
        None => d.help(format!("the options are: {listed}")),
    })
}

pub(super) fn character(st: &State, w: (usize, usize, &str)) -> Result<EntityId, Diag> {
    st.character(w.2).ok_or_else(|| {
        let names: Vec<&str> = st.program.characters.iter().map(|c| c.name.as_str()).collect();
        let d = bad(
            "repl::unknown_character",
            format!("no character is called `{}`", w.2),
            (w.0, w.1),
            "not in this encounter",
        );
        match closest(w.2, names.iter().copied()) {
            Some(c) => d.help(format!("did you mean `{c}`? the characters are: {}", names.join(", "))),
            None => d.help(format!("the characters are: {}", names.join(", "))),
        }
    })
}
