//! The commands: their help, and parsing a command line into a [`Cmd`] or a diagnostic that
//! points into the line. Parsing checks names against the state, so a bad command changes nothing.

use super::session::{Goal, Mode, Op, State, declared_names};
use super::{Repl, span};
use crate::check::FieldKind;
use crate::compile::ir::*;
use crate::diag::Diag;

/// One command's help: name, usage, what it does, an example.
pub struct Help {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
    pub example: &'static str,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Help] = &[
    Help {
        name: "show",
        usage: "show [N] | show all [N] | show NAME",
        about: "The initiative strip, one screen: where play is and the clock; the order, with who \
                is up (▸), who has acted (✓), who is next (›) and who is out (×); each character's \
                resources, flags set and effects with the counts left; the pending decision with its \
                numbered options and refused candidates; the last N events (default 8). `show all`: \
                everything — every field of everyone in a table cut to the screen's width, kept \
                orders, globals, effects and where they are counted, flags and when they clear, who \
                answers. `show NAME`: one character.",
        example: "show Mira",
    },
    Help {
        name: "step",
        usage: "step [N | turn | LEVEL | level LEVEL | until LEVEL=N | end]",
        about: "Let the policy answer: one decision (or N); to the end of the current character's \
                turn; to the end of the current iteration of a level, by the ruleset's own level \
                names (`level LEVEL` when a level is called `turn` or `end`); until iteration N of \
                a level is over; or to the end of the encounter. Stops at the next decision after \
                that (decisions set to `auto` are answered on the way).",
        example: "step turn",
    },
    Help {
        name: "continue",
        usage: "continue [until LEVEL=N]",
        about: "Play on: the policy answers the pending decision and every later one except those \
                of the sides, roles or characters set to `ask`, where it stops; it goes to the end \
                of the encounter (no round limit: the step budget guards a fight that never ends), \
                or until iteration N of LEVEL is over.",
        example: "continue until round=15",
    },
    Help {
        name: "auto",
        usage: "auto WHO [POLICY]",
        about: "Let a policy answer the decisions of WHO by itself from now on, without stopping: \
                WHO is a side, a role, a character or `all` (a character's setting wins over its \
                side's, which wins over `all`); POLICY is `first`, `random` or one the ruleset \
                declares (default: the ruleset's default policy). `auto single` (the default) takes \
                a decision with one option at once. Logged, so undo and save keep it.",
        example: "auto rivals",
    },
    Help {
        name: "ask",
        usage: "ask WHO",
        about: "Stop and ask at the decisions of WHO (a side, a role, a character or `all`): \
                `continue` stops there. `ask single` stops at decisions with one option too.",
        example: "ask party",
    },
    Help {
        name: "answer",
        usage: "answer [N | NAME]",
        about: "Answer the pending decision by the number `show` gives an option, or by its name; \
                with nothing, let the policy answer it.",
        example: "answer 2",
    },
    Help {
        name: "roll",
        usage: "roll N...",
        about: "Force the next dice, one value per die, in the order they are rolled. A value that \
                cannot come up on its die is refused when it is rolled.",
        example: "roll 4 2 12",
    },
    Help {
        name: "draw",
        usage: "draw CARD[, CARD...]",
        about: "Force the next cards drawn from a deck, by name, in the order they are drawn (as \
                `--draws` does for a run). A card not in the draw pile when it is drawn stops the run.",
        example: "draw joker 1, Q hearts",
    },
    Help {
        name: "seed",
        usage: "seed N",
        about: "Restart the dice and the policy from a seed. Before the first decision this is the \
                encounter's seed, from the start.",
        example: "seed 42",
    },
    Help {
        name: "set",
        usage: "set NAME.FIELD = VALUE | set GLOBAL = VALUE",
        about: "Set a character's stat, resource or flag, or a global, by hand. The \
                value is written as the language writes it: a number, `true` or `false` for a flag, \
                a character's name or `none` for a field that holds one. Resources and globals stay \
                within their limits. Traced as a manual change. (An effect is begun and ended with \
                `begin` and `stop`.)",
        example: "set Mira.prone = true",
    },
    Help {
        name: "begin",
        usage: "begin EFFECT on NAME for N [counted at WHERE]",
        about: "Begin an effect on a character by hand, for N counts, counted where \
                the language counts them: `place of NAME in ORDER`, `start of turn(NAME)`, `end of \
                turn(NAME)`, `start of LEVEL`, `end of LEVEL` (default: the end of the character's \
                own turns). It shows among the running effects with the counts left; traced as a \
                manual ruling, then `effect_start`.",
        example: "begin shielded on Mira for 1 counted at end of round",
    },
    Help {
        name: "stop",
        usage: "stop EFFECT on NAME",
        about: "End every instance of an effect on a character now (`end` is the \
                same command). Traced as a manual ruling, then `effect_end`.",
        example: "stop shielded on Mira",
    },
    Help {
        name: "place",
        usage: "place NAME first | last | before NAME | after NAME in ORDER",
        about: "Move a character in a kept order (or put one who is in none into \
                it), as the language's `place` does. Traced as a manual ruling and the new order.",
        example: "place Zed after Mira in initiative",
    },
    Help {
        name: "rank",
        usage: "rank ORDER",
        about: "Rank a kept order again by its keys, as the language's `rank` does \
                (ties are broken anew, with dice where the order rolls). Traced as a manual ruling \
                and the new order.",
        example: "rank initiative",
    },
    Help {
        name: "add",
        usage: "add character NAME { ... }",
        about: "Add characters, written as in an encounter file (side, tags, fields; it may span \
                lines). Before the first decision they are in from the start; later they join play \
                at this point, with their fields set then, and take part from the next order on.",
        example: "add character Zed { side rivals, hp = 5 }",
    },
    Help {
        name: "remove",
        usage: "remove NAME",
        about: "Take a character out of play (a foe falls): every loop, quantifier, choice and kept \
                order skips them from now on. Not the one deciding, nor an option, of the pending \
                decision.",
        example: "remove Zed",
    },
    Help {
        name: "undo",
        usage: "undo [N]",
        about: "Undo the last command that changed the state (or the last N).",
        example: "undo 3",
    },
    Help {
        name: "redo",
        usage: "redo [N]",
        about: "Redo what was undone (one command, or N). A new change drops what could be redone.",
        example: "redo",
    },
    Help {
        name: "reload",
        usage: "reload",
        about: "Read the ruleset and encounter files again and replay the session to the same \
                point; where the replay no longer fits, stop before that command and say why (it \
                stays to redo).",
        example: "reload",
    },
    Help {
        name: "save",
        usage: "save FILE",
        about: "Save the session: the files' paths and hashes, the seed, and every command with \
                the changes it made. `load` replays it to the identical state.",
        example: "save table.tsession",
    },
    Help {
        name: "load",
        usage: "load FILE",
        about: "Load a saved session (or the autosave) and replay it; notes files changed since.",
        example: "load .turnscript-autosave.tsession",
    },
    Help {
        name: "trace",
        usage: "trace",
        about: "The whole trace so far, in the GM's text view.",
        example: "trace",
    },
    Help {
        name: "log",
        usage: "log",
        about: "The commands of the session, numbered, with what undo and redo would move over.",
        example: "log",
    },
    Help {
        name: "help",
        usage: "help [COMMAND]",
        about: "The commands, or one command in full.",
        example: "help step",
    },
    Help {
        name: "quit",
        usage: "quit",
        about: "Leave (so does Ctrl-D). The autosave keeps the session.",
        example: "quit",
    },
];

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

/// The help text: every command, or one.
pub fn help(topic: Option<&str>) -> String {
    match topic.and_then(|t| COMMANDS.iter().find(|c| c.name == t)) {
        Some(c) => format!("{}\n  {}\n  example: {}\n", c.usage, c.about, c.example),
        None => {
            let mut out = String::from("commands (`help COMMAND` for more):\n");
            for c in COMMANDS {
                // The first clause of the description, on one line.
                let end = [". ", ": ", "; ", " ("]
                    .iter()
                    .filter_map(|sep| c.about.find(sep))
                    .min()
                    .unwrap_or(c.about.len());
                let first = c.about[..end].trim_end_matches('.');
                if c.usage.chars().count() > 38 {
                    out.push_str(&format!("  {}\n  {:<38} {first}\n", c.usage, ""));
                } else {
                    out.push_str(&format!("  {:<38} {first}\n", c.usage));
                }
            }
            out.push_str("set, begin, stop, place, rank, add and remove are a GM's rulings: traced, undone and saved like any change\n");
            out.push_str("a line with unbalanced braces continues on the next; Ctrl-C cancels a line, Ctrl-D leaves\n");
            out
        }
    }
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
fn words(line: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.len(), &line[s..]));
    }
    out
}

fn closest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
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

fn bad(code: &'static str, msg: impl Into<String>, at: (usize, usize), label: &str) -> Diag {
    Diag::new(code, msg).label(span(at.0, at.1), label)
}

fn number<T: std::str::FromStr>(w: (usize, usize, &str), what: &str) -> Result<T, Diag> {
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

/// A number with at most `d` decimals (`5.75`, `-1.5`, `6`), kept times 10^d as its field keeps it.
fn decimal(w: (usize, usize, &str), d: u8) -> Result<i64, Diag> {
    let (whole, frac) = w.2.split_once('.').unwrap_or((w.2, ""));
    let digits_ok = !frac.is_empty() || !w.2.contains('.');
    let parsed = (digits_ok && frac.len() <= d as usize && frac.bytes().all(|b| b.is_ascii_digit()))
        .then(|| {
            let negative = whole.starts_with('-');
            let whole: i64 = whole.parse().ok()?;
            let frac: i64 = format!("{frac:0<w$}", w = d as usize).parse().ok()?;
            let v = whole.checked_mul(10i64.pow(u32::from(d)))?;
            if negative {
                v.checked_sub(frac)
            } else {
                v.checked_add(frac)
            }
        })
        .flatten();
    parsed.ok_or_else(|| {
        bad(
            "repl::not_a_number",
            format!(
                "`{}` is not a number with at most {d} decimal{}",
                w.2,
                if d == 1 { "" } else { "s" }
            ),
            (w.0, w.1),
            "expected here",
        )
        .help(format!(
            "this field keeps {d} decimals: write e.g. {}",
            crate::trace::Decimal(575 * 10i64.pow(u32::from(d)) / 100, d)
        ))
    })
}

fn too_many(ws: &[(usize, usize, &str)], from: usize, usage: &str) -> Result<(), Diag> {
    match ws.get(from) {
        Some(w) => Err(bad(
            "repl::extra_words",
            "too many words for this command",
            (w.0, ws.last().map_or(w.1, |l| l.1)),
            "not expected",
        )
        .help(format!("usage: {usage}"))),
        None => Ok(()),
    }
}

fn usage(name: &str) -> &'static str {
    COMMANDS.iter().find(|c| c.name == name).map_or("", |c| c.usage)
}

/// The state of a loaded session, or why the command cannot run.
fn state(repl: &Repl, at: (usize, usize)) -> Result<&State, Diag> {
    repl.session.as_ref().map(|s| &s.state).ok_or_else(|| {
        bad("repl::no_session", "no session is loaded", at, "needs a session")
            .help("start with `turnscript repl RULESET [--encounter FILE]`, or `load FILE`")
    })
}

/// The pending decision, or why there is none.
fn pending(st: &State, at: (usize, usize)) -> Result<&crate::runtime::control::Pending, Diag> {
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
fn started(repl: &Repl) -> bool {
    repl.session.as_ref().is_some_and(|s| {
        s.log[..s.cursor]
            .iter()
            .any(|e| e.ops.iter().any(|o| matches!(o, Op::Pick { .. })))
    })
}

/// A word of a line with its byte range: `(start, end, text)`.
type Word<'a> = (usize, usize, &'a str);

/// Parses a command line. The dispatch has one arm per command, each a short call.
pub fn parse(repl: &Repl, line: &str) -> Result<Cmd, Diag> {
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
fn change(ops: Vec<Op>) -> Cmd {
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

fn parse_show(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
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
            Ok(Cmd::ShowOne(character(st, w)?))
        }
        _ => Ok(Cmd::Show(events(1)?)),
    }
}

fn parse_undo_redo(repl: &Repl, ws: &[Word], head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
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
fn parse_save_load(repl: &Repl, line: &str, head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
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

fn parse_step(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
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
fn word<'a>(ws: &[Word<'a>], i: usize, cmd: &str, what: &str, head: (usize, usize)) -> Result<Word<'a>, Diag> {
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
fn keyword(ws: &[Word], i: usize, kw: &str, cmd: &str, head: (usize, usize)) -> Result<(), Diag> {
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

fn effect(st: &State, w: Word) -> Result<String, Diag> {
    let p = &st.program;
    let effects: Vec<&str> = p
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::Effect)
        .map(|f| f.name.as_str())
        .collect();
    if effects.contains(&w.2) {
        return Ok(w.2.to_string());
    }
    let d = bad(
        "repl::unknown_effect",
        format!("no effect is called `{}`", w.2),
        (w.0, w.1),
        "not an effect",
    );
    let list = if effects.is_empty() {
        "none".to_string()
    } else {
        effects.join(", ")
    };
    Err(match closest(w.2, effects.iter().copied()) {
        Some(c) => d.help(format!("did you mean `{c}`? the effects are: {list}")),
        None => d.help(format!("the effects are: {list}")),
    })
}

fn order_named(st: &State, w: Word) -> Result<OrderId, Diag> {
    let p = &st.program;
    let names: Vec<&str> = p.orders.iter().map(|o| o.name.as_str()).collect();
    match names.iter().position(|n| *n == w.2) {
        Some(i) => Ok(i as OrderId),
        None => {
            let d = bad(
                "repl::unknown_order",
                format!("no order is called `{}`", w.2),
                (w.0, w.1),
                "not an order",
            );
            Err(match closest(w.2, names.iter().copied()) {
                Some(c) => d.help(format!("did you mean `{c}`? the orders are: {}", names.join(", "))),
                None => d.help(format!(
                    "the orders are: {}",
                    list(&p.orders.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
                )),
            })
        }
    }
}

/// `begin EFFECT on NAME for N [counted at WHERE]`.
fn parse_begin(repl: &Repl, line: &str, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let fx = effect(st, word(ws, 1, "begin", "an effect", head)?)?;
    keyword(ws, 2, "on", "begin", head)?;
    let on = word(ws, 3, "begin", "a character", head)?;
    character(st, on)?;
    keyword(ws, 4, "for", "begin", head)?;
    let count: i64 = number(word(ws, 5, "begin", "a count", head)?, "a count (a whole number)")?;
    let at = match ws.get(6).copied() {
        None => None,
        Some(_) => {
            keyword(ws, 6, "counted", "begin", head)?;
            keyword(ws, 7, "at", "begin", head)?;
            let w = word(ws, 8, "begin", "where it is counted", head)?;
            let text = line[w.0..].trim().to_string();
            let spec = super::session::count_at(&st.program, &text).map_err(|e| {
                bad("repl::bad_count_at", e, (w.0, line.trim_end().len()), "counted where?")
                    .help("e.g. place of Mira in initiative, start of turn(Mira), end of round")
            })?;
            if let super::session::CountAt::Place(x, o) = spec
                && !pd.snapshot.ranked.get(o as usize).is_some_and(|r| r.contains(&x))
            {
                return Err(bad(
                    "repl::not_ranked",
                    format!(
                        "{} has no place in the order `{}`",
                        st.program.character_name(x),
                        st.program.orders[o as usize].name
                    ),
                    (w.0, line.trim_end().len()),
                    "no such place",
                )
                .help("`rank` the order or `place` them in it first"));
            }
            Some(text)
        }
    };
    Ok(change(vec![Op::Begin {
        effect: fx,
        on: on.2.to_string(),
        count,
        at,
    }]))
}

/// `stop EFFECT on NAME` (or `end`).
fn parse_stop(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let fx = effect(st, word(ws, 1, "stop", "an effect", head)?)?;
    keyword(ws, 2, "on", "stop", head)?;
    let on = word(ws, 3, "stop", "a character", head)?;
    character(st, on)?;
    too_many(ws, 4, usage("stop"))?;
    Ok(change(vec![Op::Stop {
        effect: fx,
        on: on.2.to_string(),
    }]))
}

/// `place NAME first|last|before X|after X in ORDER`.
fn parse_place(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let who = word(ws, 1, "place", "a character", head)?;
    let e = character(st, who)?;
    let rel = word(ws, 2, "place", "first, last, before NAME or after NAME", head)?;
    let (to, next) = match rel.2 {
        "first" | "last" => (rel.2.to_string(), 3),
        "before" | "after" => {
            let x = word(ws, 3, "place", "a character", head)?;
            character(st, x)?;
            (format!("{} {}", rel.2, x.2), 4)
        }
        _ => {
            return Err(bad(
                "repl::expected_word",
                format!("expected first, last, before or after, found `{}`", rel.2),
                (rel.0, rel.1),
                "where to?",
            )
            .help(format!("usage: {}", usage("place"))));
        }
    };
    keyword(ws, next, "in", "place", head)?;
    let ow = word(ws, next + 1, "place", "a kept order", head)?;
    let o = order_named(st, ow)?;
    too_many(ws, next + 2, usage("place"))?;
    if pd.snapshot.is_absent(e) {
        return Err(bad(
            "repl::absent",
            format!("{} is out of play", who.2),
            (who.0, who.1),
            "out of play",
        ));
    }
    if let Some(x) = to.split_once(' ').map(|(_, x)| x)
        && !pd
            .snapshot
            .ranked
            .get(o as usize)
            .is_some_and(|r| r.iter().any(|id| st.program.character_name(*id) == x))
    {
        return Err(bad(
            "repl::not_ranked",
            format!("{x} is not in the order `{}`", ow.2),
            (ws[3].0, ws[3].1),
            "not in that order",
        )
        .help("place next to someone who is in the order, or first or last"));
    }
    Ok(change(vec![Op::Place {
        who: who.2.to_string(),
        to,
        order: ow.2.to_string(),
    }]))
}

/// `rank ORDER`.
fn parse_rank(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let ow = word(ws, 1, "rank", "a kept order", head)?;
    order_named(st, ow)?;
    too_many(ws, 2, usage("rank"))?;
    Ok(change(vec![Op::Rank(ow.2.to_string())]))
}

fn parse_continue(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    pending(st, head)?;
    let (goal, used) = match ws.get(1).copied() {
        None => (Goal::Continue(None), 1),
        Some(w) if w.2 == "until" => (Goal::Continue(Some(until(st, ws, w, "continue")?)), 3),
        Some(w) => {
            return Err(bad(
                "repl::bad_continue",
                format!("`continue {}` is not a way to go on", w.2),
                (w.0, w.1),
                "expected `until`",
            )
            .help(format!("usage: {}", usage("continue"))));
        }
    };
    too_many(ws, used, usage("continue"))?;
    Ok(Cmd::Change { ops: Vec::new(), goal })
}

/// `until LEVEL=N` (the word after `until` in `ws`): the level and its iteration.
fn until(st: &State, ws: &[Word], at: Word, cmd: &str) -> Result<(LevelId, u64), Diag> {
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

/// `auto WHO [POLICY]` or `ask WHO`.
fn parse_mode(repl: &Repl, ws: &[Word], head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let p = &st.program;
    let Some(w) = ws.get(1).copied() else {
        return Err(bad(
            "repl::missing_value",
            format!("`{name}` needs a side, role or character"),
            head,
            "whose decisions?",
        )
        .help(format!(
            "usage: {}; the sides are: {}; the roles: {}",
            usage(name),
            list(&p.sides),
            list(&p.roles)
        )));
    };
    let known = matches!(w.2, "all" | "single")
        || p.sides.iter().any(|s| s == w.2)
        || p.roles.iter().any(|r| r == w.2)
        || st.character(w.2).is_some();
    if !known {
        let mut names: Vec<&str> = vec!["all", "single"];
        names.extend(p.sides.iter().map(String::as_str));
        names.extend(p.roles.iter().map(String::as_str));
        names.extend(p.characters.iter().map(|c| c.name.as_str()));
        let d = bad(
            "repl::unknown_chooser",
            format!("no side, role or character is called `{}`", w.2),
            (w.0, w.1),
            "not a chooser here",
        );
        let all = format!(
            "the sides are: {}; the roles: {}; or a character, `all`, `single`",
            list(&p.sides),
            list(&p.roles)
        );
        return Err(match closest(w.2, names) {
            Some(c) => d.help(format!("did you mean `{c}`? {all}")),
            None => d.help(all),
        });
    }
    let mode = if name == "ask" {
        too_many(ws, 2, usage(name))?;
        Mode::Ask
    } else {
        too_many(ws, 3, usage(name))?;
        match ws.get(2).copied() {
            None => Mode::Auto(None),
            Some(pw) => {
                if p.policy(pw.2).is_none() {
                    let mut names: Vec<&str> = vec!["first", "random"];
                    names.extend(p.policies.iter().map(|x| x.name.as_str()));
                    return Err(bad(
                        "repl::unknown_policy",
                        format!("no policy is called `{}`", pw.2),
                        (pw.0, pw.1),
                        "not a policy",
                    )
                    .help(format!("the policies are: {}", names.join(", "))));
                }
                Mode::Auto(Some(pw.2.to_string()))
            }
        }
    };
    if started(repl) || st.pending().is_some() {
        pending(st, head)?;
    }
    Ok(change(vec![Op::Mode {
        target: w.2.to_string(),
        mode,
    }]))
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

fn parse_answer(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    too_many(ws, 2, usage("answer"))?;
    let goal = match ws.get(1).copied() {
        None => Goal::Decisions(1),
        Some(w) => Goal::Answer(option(st, pd, w)?),
    };
    Ok(Cmd::Change { ops: Vec::new(), goal })
}

fn parse_draw(repl: &Repl, line: &str, head: (usize, usize)) -> Result<Cmd, Diag> {
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
                "name cards as the trace does: `Q hearts`, `joker 1`, `7`".to_string()
            }));
        }
    }
    Ok(change(vec![Op::Draw(names.iter().map(|n| n.to_string()).collect())]))
}

fn parse_roll(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
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

fn parse_seed(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
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

fn parse_remove(repl: &Repl, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
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
fn parse_add(repl: &Repl, line: &str, head: (usize, usize)) -> Result<Cmd, Diag> {
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

fn character(st: &State, w: (usize, usize, &str)) -> Result<EntityId, Diag> {
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

/// `set NAME.FIELD = VALUE` or `set GLOBAL = VALUE`, from byte `from` of the line. The value is
/// written as the language writes it: a number, `true`/`false` for a flag, a character's name or
/// `none` for a field that holds one.
fn set(st: &State, line: &str, from: usize) -> Result<Op, Diag> {
    let rest = &line[from..];
    let Some(eq) = rest.find('=') else {
        return Err(bad(
            "repl::bad_set",
            "`set` needs `= VALUE`",
            (from, line.len()),
            "no `=` here",
        )
        .help(format!("usage: {}", usage("set"))));
    };
    let target = rest[..eq].trim();
    let t0 = from + rest[..eq].find(target).unwrap_or(0);
    let value_text = rest[eq + 1..].trim();
    let v0 = from + eq + 1 + rest[eq + 1..].find(value_text).unwrap_or(0);
    let vspan = (v0, v0 + value_text.len().max(1));
    if target.is_empty() {
        return Err(bad(
            "repl::bad_set",
            "`set` needs a target",
            (from, from + eq),
            "what to set?",
        )
        .help(format!("usage: {}", usage("set"))));
    }
    let p = &st.program;
    let field_err = |name: &str, at: (usize, usize), global: bool| {
        let names: Vec<&str> = p
            .fields
            .iter()
            .filter(|f| (f.kind == FieldKind::Global) == global)
            .map(|f| f.name.as_str())
            .collect();
        let what = if global { "global" } else { "field of a character" };
        let d = bad(
            "repl::unknown_field",
            format!("no {what} is called `{name}`"),
            at,
            format!("not a {what}").as_str(),
        );
        let list = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        match closest(name, names.iter().copied()) {
            Some(c) => d.help(format!("did you mean `{c}`? they are: {list}")),
            None => d.help(format!("they are: {list}")),
        }
    };
    let (who, field, f) = match target.split_once('.') {
        Some((who, field)) => {
            character(st, (t0, t0 + who.len(), who))?;
            let f0 = t0 + who.len() + 1;
            match st.field(field) {
                Some(f) if p.fields[f as usize].kind != FieldKind::Global => (Some(who.to_string()), field, f),
                _ => return Err(field_err(field, (f0, f0 + field.len()), false)),
            }
        }
        None => match st.field(target) {
            Some(f) if p.fields[f as usize].kind == FieldKind::Global => (None, target, f),
            _ => {
                return Err(field_err(target, (t0, t0 + target.len()), true)
                    .help("a character's field is set as NAME.FIELD, e.g. set Mira.hp = 3"));
            }
        },
    };
    let def = &p.fields[f as usize];
    let field = field.to_string();
    let on = who.clone().unwrap_or_default();
    if def.kind == FieldKind::Effect {
        return Err(bad(
            "repl::set_effect",
            format!("`{field}` is an effect: it runs for a count, not set"),
            (t0, t0 + target.len()),
            "an effect",
        )
        .help(format!(
            "begin it with `begin {field} on {on} for N`, end it with `stop {field} on {on}`"
        )));
    }
    if let Some(ty) = def.refers {
        let entity = match value_text {
            "none" => None,
            name => Some(character(st, (vspan.0, vspan.1, name))?),
        };
        if let Some(e) = entity
            && p.characters[e as usize].ty != ty
        {
            let kind = p.things.get(ty as usize).map_or("entity", |t| t.0.as_str());
            return Err(bad(
                "repl::wrong_type",
                format!("`{field}` holds a {kind}; {value_text} is not one"),
                vspan,
                format!("not a {kind}").as_str(),
            )
            .help(format!("name a {kind}, or write none")));
        }
        return Ok(Op::SetEntity {
            who,
            field,
            entity: entity.map(|e| p.character_name(e).to_string()),
        });
    }
    let value = match (value_text, def.kind) {
        ("true", FieldKind::Flag) => 1,
        ("false", FieldKind::Flag) => 0,
        ("true" | "false", _) => {
            return Err(bad(
                "repl::not_a_number",
                format!("`{value_text}` is a truth value; `{field}` holds a number"),
                vspan,
                "expected a number",
            )
            .help("true and false are for flags; write a whole number here, e.g. 3"));
        }
        (_, FieldKind::Flag) => match value_text.parse::<i64>() {
            Ok(v @ (0 | 1)) => v,
            _ => {
                return Err(bad(
                    "repl::not_a_truth",
                    format!("`{value_text}` is not a truth value"),
                    vspan,
                    "expected true or false",
                )
                .help(format!("`{field}` is a flag: set it to true or false")));
            }
        },
        _ if def.decimals > 0 => decimal((vspan.0, vspan.1, value_text), def.decimals)?,
        _ => number((vspan.0, vspan.1, value_text), "a whole number")?,
    };
    Ok(Op::Set {
        who,
        field,
        value,
        decimals: def.decimals,
    })
}
