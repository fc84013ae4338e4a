//! The table: a session of play, as a GM runs it — the command log, the waiting run, undo and
//! redo, rulings, who is asked and who plays by a policy, save, load and the autosave.
//!
//! [`Table::exec`] runs one command and returns its reply. The front ends drive it and import
//! nothing of each other: the REPL (`crate::repl`: standard input line by line, or rustyline)
//! and the browser table (`crate::serve`). The state is a replay of the session's log
//! (`session.rs`); nothing here knows a ruleset.

// Standard output and error are written through crate::output, which never panics.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod asked;
mod autosave;
mod commands;
mod control;
mod fence;
mod file;
mod help;
mod modes;
mod piles;
mod replay;
mod rulings;
pub mod session;
mod show;
mod sides;
pub mod view;

use crate::files::write_whole;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::diag::Diag;
use crate::source::Sources;
use crate::source::Span;
use autosave::{autosave_path, session_text, too_long_to_load};
use replay::{Went, replay};
use session::{Base, Divergence, End, Entry, Goal, Op, SourceFile, State};

pub use autosave::autosave_for;
pub use commands::{COMMANDS, brace_change, unbalanced};
pub use fence::Fence;

/// How the REPL starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub ruleset: Option<PathBuf>,
    pub encounter: Option<PathBuf>,
    pub seed: u64,
    /// Where every change is kept as it is made (appended, or the file rewritten); `None`: no
    /// autosave.
    pub autosave: Option<PathBuf>,
    /// Colour in diagnostics, views and the prompt: `Some` forced (`--color always|never`),
    /// `None` on a terminal unless `NO_COLOR` is set.
    pub colour: Option<bool>,
    /// The width of a line (the terminal's); 0: 100 columns.
    pub width: usize,
}

/// The reply to one command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub out: String,
    /// The command was refused: nothing changed.
    pub error: bool,
    pub quit: bool,
}

impl Reply {
    fn ok(out: impl Into<String>) -> Self {
        Reply {
            out: out.into(),
            ..Reply::default()
        }
    }
    fn err(out: impl Into<String>) -> Self {
        Reply {
            out: out.into(),
            error: true,
            quit: false,
        }
    }
}

/// A loaded session: its base, its log, the undo cursor and the state at the cursor.
pub struct Session {
    pub base: Base,
    pub log: Vec<Entry>,
    pub cursor: usize,
    pub state: State,
}

/// The REPL's state between commands.
pub struct Table {
    pub session: Option<Session>,
    opts: Options,
    /// When the autosave was last written whole and how long that took, and whether a change
    /// since is not in it yet (a rewrite deferred).
    saved: (Option<(Instant, Duration)>, bool),
    /// What the autosave file holds, when the next command can be appended to it.
    on_disk: Option<autosave::OnDisk>,
    /// The autosave has grown past what `load` reads (said once).
    too_long: bool,
    /// The last autosave failed: the session is not kept, and the end must not say it is.
    unsaved: bool,
    /// Errors to say on stderr after the reply ([`Table::take_errors`]): a failed autosave.
    errors: String,
    /// The files `save`, `load` and a loaded session's files may be: `None`, any the user can
    /// reach (the REPL: the person typing is the user); the browser table fences them.
    fence: Option<Fence>,
}

fn read_source(path: &Path) -> Result<SourceFile, String> {
    if path.as_os_str() == "-" {
        return Err(
            "error: the REPL reads its commands from standard input, so `-` cannot name a ruleset or encounter here: give them as files\n"
                .into(),
        );
    }
    crate::source::read_path(path, crate::limits::MAX_SOURCE_BYTES)
        .map(|text| SourceFile {
            path: path.display().to_string(),
            text,
        })
        .map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))
}

/// Replays `log[..cursor]`; where it no longer fits, stops before the command that diverged.
/// Returns the state, the cursor it reached and the divergence, if any.
fn settle(base: &Base, log: &[Entry], mut cursor: usize) -> Result<(State, usize, Option<Divergence>), String> {
    let mut first: Option<Divergence> = None;
    loop {
        let state = replay(base, &log[..cursor], Goal::Pause).map_err(|(s, d)| s.render_all(&d, 80, false))?;
        match &state.divergence {
            Some(d) if d.entry < cursor => {
                first.get_or_insert_with(|| d.clone());
                cursor = d.entry;
            }
            _ => return Ok((state, cursor, first)),
        }
    }
}

impl Table {
    /// Loads the ruleset and encounter of `opts`; the error is a rendered report.
    pub fn new(mut opts: Options) -> Result<(Table, String), String> {
        let note = match opts.autosave.take() {
            Some(path) => {
                let (path, note) = autosave_path(path)?;
                opts.autosave = Some(path);
                note
            }
            None => String::new(),
        };
        let (repl, out) = Table::start(opts)?;
        Ok((repl, note + &out))
    }

    fn start(opts: Options) -> Result<(Table, String), String> {
        let mut repl = Table {
            session: None,
            opts,
            saved: (None, false),
            on_disk: None,
            too_long: false,
            unsaved: false,
            errors: String::new(),
            fence: None,
        };
        let Some(ruleset) = repl.opts.ruleset.clone() else {
            return Ok((
                repl,
                "no ruleset loaded: `load FILE` opens a saved session; `help` lists the commands\n".into(),
            ));
        };
        let base = Base {
            ruleset: read_source(&ruleset)?,
            encounter: repl.opts.encounter.as_deref().map(read_source).transpose()?,
            seed: repl.opts.seed,
        };
        let state = replay(&base, &[], Goal::Pause).map_err(|(s, d)| s.render_all(&d, repl.width(), repl.colour()))?;
        let mut out = state.rec.out().to_string();
        out.push_str(&show::status(&state));
        repl.session = Some(Session {
            base,
            log: Vec::new(),
            cursor: 0,
            state,
        });
        Ok((repl, out))
    }

    /// From now on `save` and `load` (and the files a loaded session names) must be inside `fence`.
    pub fn fence(&mut self, fence: Fence) {
        self.fence = Some(fence);
    }

    pub(crate) fn colour(&self) -> bool {
        self.opts.colour.unwrap_or(false)
    }

    fn width(&self) -> usize {
        if self.opts.width == 0 { 100 } else { self.opts.width }
    }

    fn look(&self) -> show::Look {
        show::Look {
            width: self.width(),
            colour: self.colour(),
        }
    }

    /// The prompt: where the fight is and who decides, e.g. `round 3 · Mira> `.
    pub fn prompt(&self) -> String {
        match &self.session {
            Some(s) => {
                let at = show::where_short(&s.state);
                if self.colour() {
                    format!("\x1b[1m{at}\x1b[0m> ")
                } else {
                    format!("{at}> ")
                }
            }
            None => "turnscript> ".to_string(),
        }
    }

    /// Renders a diagnostic pointing into the command line.
    fn line_error(&self, line: &str, d: &Diag) -> Reply {
        let mut s = Sources::new();
        s.add("command", line);
        Reply::err(s.render(d, self.width(), self.colour()))
    }

    /// Runs one command line (which may span lines, for `add`).
    pub fn exec(&mut self, line: &str) -> Reply {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Reply::default();
        }
        match commands::parse(self, line) {
            Ok(cmd) => {
                let mut reply = self.run(line, cmd);
                if self.colour() && !reply.error {
                    reply.out = paint(&reply.out);
                }
                reply
            }
            Err(d) => self.line_error(line, &d),
        }
    }

    fn session(&self) -> Result<&Session, Reply> {
        self.session.as_ref().ok_or_else(no_session)
    }

    fn run(&mut self, line: &str, cmd: commands::Cmd) -> Reply {
        use commands::Cmd;
        let r = match cmd {
            Cmd::Help(topic) => Ok(Reply::ok(commands::help(topic.as_deref(), self.width()))),
            Cmd::Quit => Ok(Reply {
                out: self.autosave_note(),
                quit: true,
                error: false,
            }),
            Cmd::Show(n) => self.session().map(|s| Reply::ok(show::strip(s, n, self.look()))),
            Cmd::ShowAll(n) => self.session().map(|s| Reply::ok(show::show(s, n, self.width()))),
            Cmd::ShowOne(e) => self.session().map(|s| Reply::ok(show::one(s, e, self.look()))),
            Cmd::Trace => self.session().map(|s| Reply::ok(s.state.rec.out().to_string())),
            Cmd::Log => self.session().map(|s| Reply::ok(show::log(s))),
            Cmd::Change { ops, goal } => self.change(line, ops, goal),
            Cmd::Undo(n) => self.undo(-(n as i64)),
            Cmd::Redo(n) => self.undo(n as i64),
            Cmd::Reload => self.reload(),
            Cmd::Save(path) => self.save(&path),
            Cmd::Load(path) => self.load(&path),
        };
        r.unwrap_or_else(|e| e)
    }

    /// A command that changes the state: the waiting run goes on with it (or, where it cannot,
    /// the log is replayed with it); kept only if the run goes on.
    fn change(&mut self, line: &str, ops: Vec<Op>, goal: Goal) -> Result<Reply, Reply> {
        let (colour, width) = (self.colour(), self.width());
        let Some(s) = self.session.as_mut() else {
            return Err(no_session());
        };
        let line = line.trim().to_string();
        // An answer refused at a secret choice is traced at the reveal: only whoever answers
        // hears now that it was refused, and why.
        let refused = match (&s.state.end, goal) {
            (End::Paused(pd), Goal::Answer(i) | Goal::Attempt(i, _)) if pd.secret => {
                show::refused_in_secret(&s.state, pd, i)
            }
            _ => String::new(),
        };
        // What an attempt made at the decision did, for `log` (the first attempt traced after it;
        // at a secret choice its refusal waits for the reveal, so nothing is said).
        let (made_before, secret) = (
            s.state.attempts.len(),
            matches!(&s.state.end, End::Paused(pd) if pd.secret),
        );
        let mut out = match replay::go_on(&mut s.state, s.cursor, &ops, goal) {
            Some(Went::On(out)) => out,
            Some(Went::Failed(d)) => return Err(stopped_by(&s.state, &d, width, colour)),
            Some(Went::Diverged(d)) => return Err(Reply::err(format!("error: {}; nothing changed\n", d.reason))),
            None => {
                let mut log = s.log[..s.cursor].to_vec();
                log.push(Entry {
                    line: line.clone(),
                    ops: ops.clone(),
                    note: None,
                });
                let state = match replay(&s.base, &log, goal) {
                    Ok(st) => st,
                    Err((sources, d)) => return Err(Reply::err(sources.render_all(&d, width, colour))),
                };
                if let End::Failed(d) = &state.end {
                    return Err(stopped_by(&state, d, width, colour));
                }
                if let Some(d) = &state.divergence {
                    return Err(Reply::err(format!("error: {}; nothing changed\n", d.reason)));
                }
                let out = trace_since(&s.state, &state);
                s.state = state;
                out
            }
        };
        // The command is kept, with the picks its goal made.
        s.log.truncate(s.cursor);
        let ops = ops.into_iter().chain(s.state.made.iter().cloned()).collect();
        let note = match goal {
            Goal::Attempt(..) if !secret => match s.state.attempts.get(made_before) {
                Some(true) => Some("attempt carried out"),
                Some(false) => Some("attempt refused"),
                None => None,
            },
            _ => None,
        };
        s.log.push(Entry { line, ops, note });
        s.cursor = s.log.len();
        out.push_str(&refused);
        out.push_str(&joiners_unplaced(&s.state, &s.log));
        out.push_str(&show::status(&s.state));
        out.push_str(&self.autosave());
        Ok(Reply::ok(out))
    }

    fn undo(&mut self, by: i64) -> Result<Reply, Reply> {
        let s = self.session()?;
        let target = (s.cursor as i64 + by).clamp(0, s.log.len() as i64) as usize;
        if target == s.cursor {
            return Err(Reply::err(if by < 0 {
                "error: nothing to undo\n"
            } else {
                "error: nothing to redo\n"
            }));
        }
        let (state, cursor, div) = settle(&s.base, &s.log, target).map_err(Reply::err)?;
        // An answer a secret choice not yet revealed holds (before the undo, or after the redo)
        // is named without its answer.
        let moved: Vec<String> = if target < s.cursor {
            let hidden = show::hidden_entries(&s.log[..s.cursor], &s.state);
            (target..s.cursor)
                .map(|i| {
                    format!(
                        "`{}`",
                        show::line_shown(&s.log[i], hidden.get(i).copied().unwrap_or(false))
                    )
                })
                .collect()
        } else {
            let hidden = show::hidden_entries(&s.log[..cursor], &state);
            (s.cursor..cursor)
                .map(|i| {
                    format!(
                        "`{}`",
                        show::line_shown(&s.log[i], hidden.get(i).copied().unwrap_or(false))
                    )
                })
                .collect()
        };
        let mut out = if by < 0 {
            format!("undid {}\n", moved.join(", "))
        } else {
            let mut o = trace_since(&s.state, &state);
            o.push_str(&format!("redid {}\n", moved.join(", ")));
            o
        };
        if let Some(d) = &div {
            out.push_str(&show::divergence(&s.log, d, &state));
        }
        out.push_str(&show::status(&state));
        if let Some(s) = self.session.as_mut() {
            s.cursor = cursor;
            s.state = state;
        }
        out.push_str(&self.rewrite_autosave());
        Ok(Reply::ok(out))
    }

    fn reload(&mut self) -> Result<Reply, Reply> {
        let s = self.session()?;
        self.fenced(Path::new(&s.base.ruleset.path))?;
        if let Some(e) = &s.base.encounter {
            self.fenced(Path::new(&e.path))?;
        }
        let mut base = s.base.clone();
        base.ruleset = read_source(Path::new(&s.base.ruleset.path)).map_err(Reply::err)?;
        if let Some(e) = &s.base.encounter {
            base.encounter = Some(read_source(Path::new(&e.path)).map_err(Reply::err)?);
        }
        let (state, cursor, div) = settle(&base, &s.log, s.cursor).map_err(|e| {
            let mut e = e;
            e.push_str("the reload was refused: the session stays on the files it had\n");
            Reply::err(e)
        })?;
        let changed = base.ruleset.text != s.base.ruleset.text
            || base.encounter.as_ref().map(|e| &e.text) != s.base.encounter.as_ref().map(|e| &e.text);
        let mut out = format!(
            "reloaded {}{}\n",
            base.ruleset.path,
            if changed { "" } else { " (unchanged)" }
        );
        match &div {
            Some(d) => out.push_str(&show::divergence(&s.log, d, &state)),
            None => out.push_str(&format!(
                "replayed {} command{} to the same point (decision {})\n",
                cursor,
                if cursor == 1 { "" } else { "s" },
                state.decisions_shown() + 1
            )),
        }
        out.push_str(&show::status(&state));
        if let Some(s) = self.session.as_mut() {
            s.base = base;
            s.cursor = cursor;
            s.state = state;
        }
        out.push_str(&self.rewrite_autosave());
        Ok(Reply::ok(out))
    }

    /// Refused when the table is fenced and `path` is outside the fence.
    fn fenced(&self, path: &Path) -> Result<(), Reply> {
        match &self.fence {
            Some(f) => f.allows(path).map_err(Reply::err),
            None => Ok(()),
        }
    }

    fn save(&mut self, path: &str) -> Result<Reply, Reply> {
        self.fenced(Path::new(path))?;
        if self.fence.is_some() {
            replaceable(Path::new(path)).map_err(Reply::err)?;
        }
        let s = self.session()?;
        let text = session_text(s);
        write_whole(Path::new(path), &text).map_err(|e| Reply::err(format!("error: cannot write {path}: {e}\n")))?;
        let undone = match s.log.len() - s.cursor {
            0 => String::new(),
            n => format!(" and {n} undone (`redo` after `load` replays them)"),
        };
        let mut out = format!(
            "saved {} command{}{undone} to {path}\n{}",
            s.cursor,
            if s.cursor == 1 { "" } else { "s" },
            too_long_to_load(text.len())
        );
        // The autosave is compacted too: written whole, to the disk.
        out.push_str(&self.write_autosave());
        Ok(Reply::ok(out))
    }

    fn load(&mut self, path: &str) -> Result<Reply, Reply> {
        self.fenced(Path::new(path))?;
        let text = crate::source::read_path_cut_at_end(Path::new(path), crate::limits::MAX_SESSION_BYTES)
            .map_err(|e| Reply::err(format!("error: cannot read {path}: {e}\n")))?;
        let saved = file::read(&text).map_err(|e| Reply::err(self.unreadable(path, &text, &e)))?;
        let dir = Path::new(path).parent().unwrap_or(Path::new(""));
        let find = |p: &str| -> Result<SourceFile, Reply> {
            let direct = Path::new(p);
            let found = if direct.exists() {
                direct.to_path_buf()
            } else {
                dir.join(p)
            };
            self.fenced(&found)?;
            read_source(&found)
                .map(|mut f| {
                    f.path = p.to_string();
                    f
                })
                .map_err(Reply::err)
        };
        let base = Base {
            ruleset: find(&saved.ruleset.0)?,
            encounter: saved.encounter.as_ref().map(|(p, _)| find(p)).transpose()?,
            seed: saved.seed,
        };
        let mut out = String::new();
        if let Some(torn) = &saved.torn {
            out.push_str(&torn_warning(path, torn));
        }
        let pairs = std::iter::once((&base.ruleset, &saved.ruleset.1))
            .chain(base.encounter.iter().zip(saved.encounter.iter().map(|(_, h)| h)));
        for (f, h) in pairs {
            if session::hash(&f.text) != *h {
                out.push_str(&format!("note: {} has changed since the session was saved\n", f.path));
            }
        }
        let (state, cursor, div) = settle(&base, &saved.log, saved.cursor).map_err(Reply::err)?;
        let undone = match saved.log.len() - saved.cursor {
            0 => String::new(),
            n => format!(" (and {n} undone: `redo` replays them)"),
        };
        out.push_str(&format!(
            "loaded {path}: {} command{}{undone}\n",
            cursor,
            if cursor == 1 { "" } else { "s" }
        ));
        if let Some(d) = &div {
            out.push_str(&show::divergence(&saved.log, d, &state));
        }
        out.push_str(&show::status(&state));
        self.session = Some(Session {
            base,
            log: saved.log,
            cursor,
            state,
        });
        out.push_str(&self.rewrite_autosave());
        Ok(Reply::ok(out))
    }
}

impl Table {
    /// Why `load` refused `path` (a session file, `text`, that does not read): a diagnostic at the
    /// file's line saying what is wrong there and what to do, then that the session is unchanged.
    fn unreadable(&self, path: &str, text: &str, e: &file::Unreadable) -> String {
        let unchanged = if self.session.is_some() {
            "the session is unchanged\n"
        } else {
            "the table is unchanged (no session)\n"
        };
        let Some(n) = e.line else {
            return format!(
                "error: {path}: {}\n  help: `load` reads a file `save` or the autosave wrote\n{unchanged}",
                e.what
            );
        };
        // The line's bytes, without its newline.
        let mut at = 0;
        let mut range = (0, 0);
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == n {
                range = (at, at + l.trim_end().len());
                break;
            }
            at += l.len();
        }
        let help = if n == 1 {
            "`load` reads a file `save` or the autosave wrote".to_string()
        } else {
            let kept = match e.before {
                1 => "the 1 whole command before it".to_string(),
                k => format!("the {k} whole commands before it"),
            };
            format!(
                "a crash cuts only the end of a session file, so this line was damaged since; {kept} \
                 load from a copy cut there (`head -n {} {path} > kept.tsession`, then `load \
                 kept.tsession`), or mend the line",
                n - 1
            )
        };
        let d = Diag::new("repl::damaged_session", format!("line {n} of {path} does not read"))
            .label(span(range.0, range.1), e.what.clone())
            .help(help);
        let mut s = Sources::new();
        s.add(path, text);
        let mut out = s.render(&d, self.width(), self.colour());
        out.push_str(unchanged);
        out
    }
}

/// The warning that `load` left out the torn end of `path`, saying what was in it.
fn torn_warning(path: &str, torn: &file::Torn) -> String {
    if torn.redo {
        return format!(
            "warning: {path} ends cut short in its `redo` line: {} left out; the commands before it \
             (all those in play) are loaded\n",
            torn.said()
        );
    }
    let mut out = format!(
        "warning: {path} ends in a command cut short as it was written (the session stopped \
         mid-write): {} left out; the commands before it are loaded\n",
        torn.said()
    );
    if torn.at_line_end {
        out.push_str(&format!(
            "  help: a file whose final blank line alone was removed (an editor trims it) looks \
             the same, and then that command is whole: `echo >> {path}` puts the blank line back; \
             load it again\n"
        ));
    }
    out
}

/// A warning for each character the last command added during play who is in no kept order that
/// others are ranked in (the ruleset has no `on join` rule placing them): they would take no turn
/// there. It says how to place them.
fn joiners_unplaced(state: &State, log: &[Entry]) -> String {
    let Some(last) = log.last().filter(|e| e.ops.iter().any(|o| matches!(o, Op::Add(_)))) else {
        return String::new();
    };
    // Characters added before the first decision are in the encounter from the start.
    let started = log[..log.len() - 1]
        .iter()
        .any(|e| e.ops.iter().any(|o| matches!(o, Op::Pick { .. })));
    let (Some(snap), true) = (state.snapshot(), started) else {
        return String::new();
    };
    let p = &state.program;
    let mut out = String::new();
    for op in &last.ops {
        let Op::Add(text) = op else { continue };
        for name in session::declared_names(text) {
            let Some(e) = state.character(&name) else { continue };
            for (o, ids) in snap.ranked.iter().enumerate() {
                if ids.is_empty() || ids.contains(&e) {
                    continue;
                }
                let order = &p.orders[o].name;
                out.push_str(&format!(
                    "warning: {name} is in no place of the kept order `{order}`{}, so takes no turn where it is walked: `place {name} last in {order}` (or first, before NAME, after NAME) puts them in, `rank {order}` ranks everyone again\n",
                    if p.join_hooks.is_empty() { " (the ruleset has no `on join` rule)" } else { "" }
                ));
            }
        }
    }
    out
}

/// Colours a reply for a terminal, line by line, by what the line is: who is up (bold), a refusal
/// (red), a ruling or a warning (yellow), the decision waiting (bold), the end (bold). Lines
/// already coloured (the strip) are left alone.
fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let t = body.trim_start();
        let style = if body.contains('\x1b') {
            None
        } else if t.starts_with("▸ ") || t.starts_with("↳ ") || body.starts_with("decision ") {
            Some("1")
        } else if t.starts_with("refused ") {
            Some("31")
        } else if t.starts_with("manual ") || body.starts_with("warning:") {
            Some("33")
        } else if t.starts_with("end of encounter") || body.starts_with("the encounter is over") {
            Some("1")
        } else {
            None
        };
        match style {
            Some(code) => {
                let indent = &body[..body.len() - t.len()];
                out.push_str(&format!("{indent}\x1b[{code}m{t}\x1b[0m"));
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The session file of the log up to the cursor.
/// saved session. Not a FIFO or a device (a write there waits for a reader, holding the table),
/// and not some other file of the folder (`save Cargo.toml` would replace it).
fn replaceable(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let shown = crate::limits::clip(&path.display().to_string()).into_owned();
    if !meta.is_file() {
        return Err(format!(
            "error: {shown} is not a regular file: a session is saved to a file\n"
        ));
    }
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    if head[..n].starts_with(file::MAGIC.as_bytes()) {
        Ok(())
    } else {
        Err(format!(
            "error: {shown} is there and is not a saved session: save under another name\n"
        ))
    }
}

fn no_session() -> Reply {
    Reply::err("error: no session is loaded: start with `turnscript repl RULESET`, or `load FILE`\n")
}

/// A command refused because the run would stop with error `d` (rendered with `state`'s files).
fn stopped_by(state: &State, d: &Diag, width: usize, colour: bool) -> Reply {
    // Everyone answers by themselves and the rules never end the fight: said in a line, with
    // the fix, rather than as the loop the budget ran out in.
    if d.code == "run::step_budget" {
        let (level, n) = show::level_now(state);
        let line = format!(
            "error: nothing changed: the rules never end this encounter by themselves, and with no one \
             asked it ran past the step budget ({}): `continue until {level}={}` plays to a point, `ask WHO` \
             stops at WHO's decisions",
            d.code,
            n + 5
        );
        return Reply::err(help::wrap(&line, width, "", "  ") + "\n");
    }
    let mut out = state.sources.render(d, width, colour);
    out.push_str("nothing changed: the command would stop the run with this error\n");
    Reply::err(out)
}

/// The trace the new state adds to the old, or all of it, noted, when the start changed.
fn trace_since(old: &State, new: &State) -> String {
    let (o, n) = (old.rec.out(), new.rec.out());
    match n.strip_prefix(o) {
        Some(rest) => rest.to_string(),
        None => format!("(the encounter starts over)\n{n}"),
    }
}

/// A span of the command line.
fn span(start: usize, end: usize) -> Span {
    Span::new(0, start, end)
}
