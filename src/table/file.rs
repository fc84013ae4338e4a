//! The session file: the base's paths and hashes, the seed, and the log.
//!
//! ```text
//! turnscript session 1
//! ruleset "rules.turn" "fnv1a64:..."
//! encounter "encounter.turn" "fnv1a64:..."
//! seed 7
//! > "step turn"
//! ["pick","DECISION","CHOOSER","OPTION","policy"]
//! > "set Mira.hp = 3"
//! ["set","Mira","hp",3]
//! ```
//!
//! Each command line (`> ` and the command as a JSON string) is followed by the changes it made,
//! one JSON array a line, so a load replays exactly what happened. Commands undone and not yet
//! replaced follow a line `redo`: a load stops before them, and `redo` replays them.
//!
//! The autosave writes the same lines with a blank line after the head and after each command
//! ([`write_appendable`]), so it can append each command as it is made ([`entry`]), and a load can
//! tell a command cut short by a crash mid-write (no blank line after it yet) from a whole one:
//! that end is left out with a warning ([`Saved::torn`]). Blank lines are skipped by every
//! reader, so a `load` of any version reads either form.

use serde_json::{Value, json};

use super::session::{Entry, Mode, Op, hash};
use crate::trace::DecidedBy;

/// What a session file names: (path, hash) of the ruleset and encounter, the seed, the log.
pub struct Saved {
    pub ruleset: (String, String),
    pub encounter: Option<(String, String)>,
    pub seed: u64,
    pub log: Vec<Entry>,
    /// How many of `log` were in play: the rest were undone (`redo` replays them).
    pub cursor: usize,
    /// The end of an autosave cut short as it was written (the REPL stopped mid-write): left out.
    pub torn: Option<Torn>,
}

/// What a torn end held: the commands it begins (as typed, or cut), and its length in bytes.
pub struct Torn {
    pub commands: Vec<String>,
    pub bytes: usize,
    /// It begins with the `redo` line (whole or cut): what follows it was undone, not in play.
    pub redo: bool,
    /// It ends at a line's end: a file whose final blank line alone was removed (an editor trims
    /// it) looks the same, and its last command may be whole.
    pub at_line_end: bool,
}

impl Torn {
    /// What was left out, for a warning: `` `set Mira.hp = 3` `` (the command, quoted), the bytes
    /// of a command cut in its first line, or the `redo` line and the undone commands after it.
    pub fn said(&self) -> String {
        if self.redo {
            return match self.commands.is_empty() {
                true => "the `redo` line and the undone commands after it (what `redo` would replay)".into(),
                false => format!(
                    "the `redo` line and the undone commands after it ({}: what `redo` would replay)",
                    self.commands.join(", ")
                ),
            };
        }
        if self.commands.is_empty() {
            return format!("{} bytes of a command's changes", self.bytes);
        }
        self.commands.join(", ")
    }
}

pub(super) const MAGIC: &str = "turnscript session 1";

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The session file of `log`, of which the first `cursor` commands are in play.
pub fn write(
    ruleset: (&str, &str),
    encounter: Option<(&str, &str)>,
    seed: u64,
    log: &[Entry],
    cursor: usize,
) -> String {
    write_as(ruleset, encounter, seed, log, cursor, "")
}

/// The autosave's form of the session file ([`write`]'s, a blank line after the head and after
/// each command), which [`entry`] appends to and [`read`] finds a torn end in.
pub fn write_appendable(
    ruleset: (&str, &str),
    encounter: Option<(&str, &str)>,
    seed: u64,
    log: &[Entry],
    cursor: usize,
) -> String {
    write_as(ruleset, encounter, seed, log, cursor, "\n")
}

fn write_as(
    ruleset: (&str, &str),
    encounter: Option<(&str, &str)>,
    seed: u64,
    log: &[Entry],
    cursor: usize,
    seal: &str,
) -> String {
    let mut out = format!("{MAGIC}\n");
    out.push_str(&format!("ruleset {} {}\n", q(ruleset.0), q(&hash(ruleset.1))));
    if let Some((path, text)) = encounter {
        out.push_str(&format!("encounter {} {}\n", q(path), q(&hash(text))));
    }
    out.push_str(&format!("seed {seed}\n"));
    out.push_str(seal);
    for (i, e) in log.iter().enumerate() {
        if i == cursor {
            out.push_str("redo\n");
        }
        write_entry(&mut out, e);
        out.push_str(seal);
    }
    out
}

/// One command as the autosave appends it: its lines, then a blank line that says it is whole.
pub fn entry(e: &Entry) -> String {
    let mut out = String::new();
    write_entry(&mut out, e);
    out.push('\n');
    out
}

fn write_entry(out: &mut String, e: &Entry) {
    out.push_str(&format!("> {}\n", q(&e.line)));
    for op in &e.ops {
        let v = match op {
            Op::Pick {
                decision,
                chooser,
                option,
                by,
                attempter: None,
            } => {
                let by = if *by == DecidedBy::Answer { "answer" } else { "policy" };
                json!(["pick", decision, chooser, option, by])
            }
            Op::Pick {
                decision,
                chooser,
                option,
                attempter: Some(who),
                ..
            } => match e.note {
                // What it did, for `log` after a load.
                Some(note) => json!(["pick", decision, chooser, option, "answer", who, note]),
                None => json!(["pick", decision, chooser, option, "answer", who]),
            },
            Op::Roll(r) => {
                let mut v = vec![json!("roll")];
                v.extend(r.iter().map(|x| json!(x)));
                Value::Array(v)
            }
            Op::Draw(cards) => {
                let mut v = vec![json!("draw")];
                v.extend(cards.iter().map(|c| json!(c)));
                Value::Array(v)
            }
            Op::Seed(s) => json!(["seed", s]),
            Op::Set {
                who,
                field,
                value,
                decimals: 0,
            } => json!(["set", who, field, value]),
            Op::Set {
                who,
                field,
                value,
                decimals,
            } => json!(["set", who, field, value, decimals]),
            Op::Remove(w) => json!(["remove", w]),
            Op::Add(t) => json!(["add", t]),
            Op::SetEntity { who, field, entity } => json!(["set-entity", who, field, entity]),
            Op::Begin { effect, on, count, at } => json!(["begin", effect, on, count, at]),
            Op::Stop { effect, on } => json!(["stop", effect, on]),
            Op::Place { who, to, order } => json!(["place", who, to, order]),
            Op::Rank(o) => json!(["rank", o]),
            Op::Queue { who, attempt, moment } => json!(["queue", who, attempt, moment]),
            Op::Unqueue(None) => json!(["unqueue"]),
            Op::Unqueue(Some((who, attempt))) => json!(["unqueue", who, attempt]),
            Op::Mode { target, mode } => match mode {
                Mode::Ask => json!(["mode", target, "ask"]),
                Mode::Auto(None) => json!(["mode", target, "auto"]),
                Mode::Auto(Some(p)) => json!(["mode", target, "auto", p]),
            },
        };
        out.push_str(&v.to_string());
        out.push('\n');
    }
}

fn string(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected a string, found {v}"))
}

fn op(v: &Value) -> Result<Op, String> {
    let a = v.as_array().ok_or("expected a JSON array")?;
    let kind = a
        .first()
        .and_then(Value::as_str)
        .ok_or("expected the kind of change first")?;
    let at = |i: usize| a.get(i).ok_or_else(|| format!("`{kind}` is missing a value"));
    Ok(match kind {
        "pick" => Op::Pick {
            decision: string(at(1)?)?,
            chooser: string(at(2)?)?,
            option: string(at(3)?)?,
            by: if string(at(4)?)? == "answer" {
                DecidedBy::Answer
            } else {
                DecidedBy::Policy
            },
            attempter: a.get(5).map(string).transpose()?,
        },
        "draw" => Op::Draw(a[1..].iter().map(string).collect::<Result<_, _>>()?),
        "roll" => Op::Roll(
            a[1..]
                .iter()
                .map(|x| x.as_i64().ok_or_else(|| format!("expected a number, found {x}")))
                .collect::<Result<_, _>>()?,
        ),
        "seed" => Op::Seed(at(1)?.as_u64().ok_or("expected a seed")?),
        "set" => Op::Set {
            who: at(1)?.as_str().map(str::to_string),
            field: string(at(2)?)?,
            value: at(3)?.as_i64().ok_or("expected a number")?,
            // Older sessions wrote whole numbers only.
            decimals: match a.get(4) {
                None => 0,
                Some(d) => d
                    .as_u64()
                    .and_then(|d| u8::try_from(d).ok())
                    .filter(|d| *d <= crate::limits::MAX_DECIMALS)
                    .ok_or_else(|| {
                        format!(
                            "expected a number of decimals from 0 to {} (the most the language keeps), found {d}",
                            crate::limits::MAX_DECIMALS
                        )
                    })?,
            },
        },
        "remove" => Op::Remove(string(at(1)?)?),
        "add" => Op::Add(string(at(1)?)?),
        "set-entity" => Op::SetEntity {
            who: at(1)?.as_str().map(str::to_string),
            field: string(at(2)?)?,
            entity: at(3)?.as_str().map(str::to_string),
        },
        "begin" => Op::Begin {
            effect: string(at(1)?)?,
            on: string(at(2)?)?,
            count: at(3)?.as_i64().ok_or("expected a number")?,
            at: a.get(4).and_then(Value::as_str).map(str::to_string),
        },
        "stop" => Op::Stop {
            effect: string(at(1)?)?,
            on: string(at(2)?)?,
        },
        "place" => Op::Place {
            who: string(at(1)?)?,
            to: string(at(2)?)?,
            order: string(at(3)?)?,
        },
        "rank" => Op::Rank(string(at(1)?)?),
        "queue" => Op::Queue {
            who: string(at(1)?)?,
            attempt: string(at(2)?)?,
            moment: string(at(3)?)?,
        },
        "unqueue" if a.len() == 1 => Op::Unqueue(None),
        "unqueue" => Op::Unqueue(Some((string(at(1)?)?, string(at(2)?)?))),
        "mode" => Op::Mode {
            target: string(at(1)?)?,
            mode: match string(at(2)?)?.as_str() {
                "ask" => Mode::Ask,
                "auto" => Mode::Auto(a.get(3).map(string).transpose()?),
                other => return Err(format!("unknown mode `{other}`")),
            },
        },
        other => return Err(format!("unknown change `{other}`")),
    })
}

fn path_and_hash(rest: &str) -> Result<(String, String), String> {
    let mut it = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let path = it.next().and_then(Result::ok).ok_or("expected a quoted path")?;
    let hash = it.next().and_then(Result::ok).ok_or("expected a quoted hash")?;
    Ok((string(&path)?, string(&hash)?))
}

/// The autosave's form (a blank line after the head) ends in a blank line after each whole
/// command: `text` up to the last blank line, and what follows it when that is more than blank —
/// a command cut short as it was appended. Any other text is whole.
fn split_torn(text: &str) -> (&str, Option<Torn>) {
    let mut lines = text.split_inclusive('\n');
    let mut offset = lines.next().map_or(0, str::len);
    let mut sealed = None;
    for line in lines {
        offset += line.len();
        let t = line.trim();
        if sealed.is_none() {
            if t.is_empty() {
                sealed = Some(offset);
            } else if t.starts_with('>') || t == "redo" {
                // The head ended without a blank line: written whole, by `save` or an older autosave.
                return (text, None);
            }
        } else if t.is_empty() && line.ends_with('\n') {
            sealed = Some(offset);
        }
    }
    let Some(end) = sealed else {
        return (text, None);
    };
    let tail = &text[end..];
    // An append writes one command: a tail of more than one was written whole (by hand, or by
    // another tool), not cut short.
    let commands_in_tail = tail.lines().filter(|l| l.trim_start().starts_with('>')).count();
    if tail.trim().is_empty() || commands_in_tail > 1 {
        return (text, None);
    }
    let commands = tail
        .lines()
        .filter_map(|l| l.trim().strip_prefix('>'))
        .map(|rest| {
            let whole = serde_json::from_str::<String>(rest.trim());
            let shown = whole.as_deref().unwrap_or(rest.trim().trim_start_matches('"'));
            // What an answer named may have been asked in secret: `log` hides it until the
            // reveal, and so does this warning (its changes, cut short too, cannot tell).
            if shown.split_whitespace().next() == Some("answer") {
                "`answer` (what it named is not shown: it may have been asked in secret)".to_string()
            } else if whole.is_ok() {
                format!("`{}`", crate::limits::clip(shown))
            } else {
                format!("`{}` (cut in its line)", crate::limits::clip(shown))
            }
        })
        .collect();
    (
        &text[..end],
        Some(Torn {
            commands,
            bytes: tail.len(),
            redo: tail
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .is_some_and(|l| "redo".starts_with(l)),
            at_line_end: tail.ends_with('\n'),
        }),
    )
}

/// Why a session file does not read: the line (1-based; none when the file as a whole is wrong),
/// what is wrong there, and how many whole commands come before it.
pub struct Unreadable {
    pub line: Option<usize>,
    pub what: String,
    pub before: usize,
}

/// What serde says is wrong with a line's JSON, without its "at line 1 column N" (the line is
/// one of the file's, named once by the caller).
fn json_error(e: &serde_json::Error) -> String {
    let said = e.to_string();
    let said = said.rsplit_once(" at line ").map_or(said.as_str(), |(s, _)| s);
    if e.is_eof() {
        format!("it is cut short ({said})")
    } else {
        said.to_string()
    }
}

/// Reads a session file; the error names the line. An autosave's last command cut short as it was
/// written is left out ([`Saved::torn`]); a line before it that does not parse is an error.
pub fn read(text: &str) -> Result<Saved, Unreadable> {
    let (text, torn) = split_torn(text);
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim() == MAGIC => {}
        _ => {
            return Err(Unreadable {
                line: Some(1),
                what: format!("not a session file (expected `{MAGIC}`)"),
                before: 0,
            });
        }
    }
    let mut saved = Saved {
        ruleset: (String::new(), String::new()),
        encounter: None,
        seed: 0,
        log: Vec::new(),
        cursor: usize::MAX,
        torn,
    };
    for (i, line) in lines {
        // A change's line belongs to the command before it: that command is not whole.
        let before = saved.log.len() - usize::from(!line.trim_start().starts_with('>') && !saved.log.is_empty());
        let err = |what: String| Unreadable {
            line: Some(i + 1),
            what,
            before,
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "redo" {
            if saved.cursor != usize::MAX {
                return Err(err("a second `redo` line".into()));
            }
            saved.cursor = saved.log.len();
            continue;
        }
        if let Some(rest) = line.strip_prefix("ruleset ") {
            saved.ruleset = path_and_hash(rest).map_err(err)?;
        } else if let Some(rest) = line.strip_prefix("encounter ") {
            saved.encounter = Some(path_and_hash(rest).map_err(err)?);
        } else if let Some(rest) = line.strip_prefix("seed ") {
            saved.seed = rest.trim().parse().map_err(|_| err("expected a seed".into()))?;
        } else if let Some(rest) = line.strip_prefix("> ") {
            let cmd: String = serde_json::from_str(rest)
                .map_err(|e| err(format!("not a whole command (a JSON string): {}", json_error(&e))))?;
            saved.log.push(Entry {
                line: cmd,
                ops: Vec::new(),
                note: None,
            });
        } else {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| err(format!("not a whole change (a JSON array): {}", json_error(&e))))?;
            let op = op(&v).map_err(err)?;
            // An attempt's note (`attempt refused`), after who made it.
            let note = match v.get(6).and_then(Value::as_str) {
                Some("attempt refused") => Some("attempt refused"),
                Some("attempt carried out") => Some("attempt carried out"),
                _ => None,
            };
            match saved.log.last_mut() {
                Some(e) => {
                    e.ops.push(op);
                    e.note = e.note.or(note);
                }
                None => return Err(err("a change before any command".into())),
            }
        }
    }
    if saved.ruleset.0.is_empty() {
        return Err(Unreadable {
            line: None,
            what: "the session names no ruleset".into(),
            before: saved.log.len(),
        });
    }
    saved.cursor = saved.cursor.min(saved.log.len());
    Ok(saved)
}
