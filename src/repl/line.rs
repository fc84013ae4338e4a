//! The interactive front end, on rustyline: completion of commands and of the names in the
//! current encounter, hints, persistent history, multiline definitions, Ctrl-C and Ctrl-D.

use std::borrow::Cow;
use std::path::PathBuf;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Config, Context, Editor, Helper};

use crate::check::FieldKind;
use crate::output::{stderr, stderrln};
use crate::syntax::text::run_start;
use crate::table::{COMMANDS, unbalanced};
use crate::table::{Table as Repl, session::End};

/// The names completion offers, taken from the state after each command.
#[derive(Default)]
struct Names {
    characters: Vec<String>,
    fields: Vec<String>,
    globals: Vec<String>,
    levels: Vec<String>,
    options: Vec<String>,
    /// The attempts the rules declare (`attempt`, `forbid`), and who may make one.
    attempts: Vec<String>,
    attempters: Vec<String>,
    /// Sides, roles, characters, `all` and `single`: whom `auto` and `ask` name.
    choosers: Vec<String>,
    policies: Vec<String>,
}

fn names(repl: &Repl) -> Names {
    let Some(s) = &repl.session else {
        return Names::default();
    };
    let p = &s.state.program;
    let field_names = |global: bool| {
        p.fields
            .iter()
            .filter(|f| (f.kind == FieldKind::Global) == global)
            .map(|f| f.name.clone())
            .collect()
    };
    Names {
        characters: p.characters.iter().map(|c| c.name.clone()).collect(),
        fields: field_names(false),
        globals: field_names(true),
        levels: p.levels.iter().map(|l| l.name.clone()).collect(),
        choosers: ["all", "single"]
            .into_iter()
            .map(String::from)
            .chain(p.sides.iter().cloned())
            .chain(p.roles.iter().cloned())
            .chain(p.characters.iter().map(|c| c.name.clone()))
            .collect(),
        policies: ["first", "random"]
            .into_iter()
            .map(String::from)
            .chain(p.policies.iter().map(|x| x.name.clone()))
            .collect(),
        attempts: p.attempts.iter().map(|o| p.option_name(*o).to_string()).collect(),
        attempters: p
            .characters
            .iter()
            .map(|c| c.name.clone())
            .chain(p.roles.iter().cloned())
            .collect(),
        options: match &s.state.end {
            End::Paused(pd) => pd.options.iter().map(|o| p.option_name(*o).to_string()).collect(),
            _ => Vec::new(),
        },
    }
}

struct LineHelper {
    names: Names,
    files: FilenameCompleter,
    colour: bool,
}

fn pairs<'a>(prefix: &str, words: impl IntoIterator<Item = &'a str>) -> Vec<Pair> {
    let mut out: Vec<Pair> = words
        .into_iter()
        .filter(|w| w.starts_with(prefix))
        .map(|w| Pair {
            display: w.to_string(),
            replacement: w.to_string(),
        })
        .collect();
    out.dedup_by(|a, b| a.replacement == b.replacement);
    out
}

impl Completer for LineHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = run_start(before, |c| !c.is_whitespace());
        let word = &before[start..];
        let earlier: Vec<&str> = before[..start].split_whitespace().collect();
        let n = &self.names;
        let found = match earlier.as_slice() {
            [] => pairs(word, COMMANDS.iter().map(|c| c.name)),
            ["help"] => pairs(word, COMMANDS.iter().map(|c| c.name)),
            ["step"] => pairs(
                word,
                ["turn", "end", "level", "until"]
                    .into_iter()
                    .chain(n.levels.iter().map(String::as_str)),
            ),
            ["step", "level"] => pairs(word, n.levels.iter().map(String::as_str)),
            ["step" | "continue", "until"] => {
                let eq: Vec<String> = n.levels.iter().map(|l| format!("{l}=")).collect();
                pairs(word, eq.iter().map(String::as_str))
            }
            ["continue"] => pairs(word, ["until"]),
            ["auto" | "ask"] => pairs(word, n.choosers.iter().map(String::as_str)),
            ["auto", _] => pairs(word, n.policies.iter().map(String::as_str)),
            ["show"] => pairs(
                word,
                std::iter::once("all").chain(n.characters.iter().map(String::as_str)),
            ),
            ["answer"] => pairs(word, n.options.iter().map(String::as_str)),
            ["attempt"] => pairs(word, n.attempters.iter().map(String::as_str)),
            ["attempt", _] => pairs(word, n.attempts.iter().map(String::as_str)),
            ["remove"] => pairs(word, n.characters.iter().map(String::as_str)),
            ["set"] => match word.split_once('.') {
                Some((who, field)) => {
                    let full: Vec<String> = n.fields.iter().map(|f| format!("{who}.{f}")).collect();
                    let _ = field;
                    pairs(word, full.iter().map(String::as_str))
                }
                None => {
                    let dotted: Vec<String> = n.characters.iter().map(|c| format!("{c}.")).collect();
                    pairs(
                        word,
                        dotted
                            .iter()
                            .map(String::as_str)
                            .chain(n.globals.iter().map(String::as_str)),
                    )
                }
            },
            ["save"] | ["load"] => return self.files.complete(line, pos, ctx),
            _ => Vec::new(),
        };
        Ok((start, found))
    }
}

impl Hinter for LineHelper {
    type Hint = String;

    /// The rest of a command being typed and its usage; after a command and a space, its usage.
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() {
            return None;
        }
        match line.split_once(' ') {
            None => {
                let mut found = COMMANDS.iter().filter(|c| c.name.starts_with(line));
                let c = found.next()?;
                if found.next().is_some() {
                    return None;
                }
                let args = c.usage.strip_prefix(c.name).unwrap_or("");
                Some(format!("{}{args}", &c.name[line.len()..]))
            }
            Some((head, "")) => {
                let c = COMMANDS.iter().find(|c| c.name == head)?;
                let args = c.usage.strip_prefix(c.name)?.trim_start();
                (!args.is_empty()).then(|| args.to_string())
            }
            _ => None,
        }
    }
}

impl Highlighter for LineHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.colour {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for LineHelper {
    /// A definition with unbalanced braces continues on the next line.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if unbalanced(ctx.input()) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

impl Helper for LineHelper {}

/// Where the history is kept: `$TURNSCRIPT_HISTORY`, else the user's data directory
/// (`$XDG_DATA_HOME` or `~/.local/share`)`/turnscript/history`, else `.turnscript-history`.
fn history_path() -> PathBuf {
    if let Some(p) = std::env::var_os("TURNSCRIPT_HISTORY") {
        return PathBuf::from(p);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share")));
    match data {
        Some(d) => {
            let dir = d.join("turnscript");
            if std::fs::create_dir_all(&dir).is_ok() {
                dir.join("history")
            } else {
                PathBuf::from(".turnscript-history")
            }
        }
        None => PathBuf::from(".turnscript-history"),
    }
}

/// Reads commands from the terminal until `quit` or Ctrl-D. Returns the exit code.
pub fn interactive(repl: &mut Repl) -> i32 {
    // Tab completes what is common to the candidates and lists them all (as bash does), rather
    // than cycling through them inline.
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(rustyline::CompletionType::List)
        .build();
    let mut rl: Editor<LineHelper, rustyline::history::DefaultHistory> = match Editor::with_config(config) {
        Ok(rl) => rl,
        Err(e) => {
            stderrln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    rl.set_helper(Some(LineHelper {
        names: names(repl),
        files: FilenameCompleter::new(),
        colour: repl.colour(),
    }));
    let history = history_path();
    // A missing history file is a first run.
    let _ = rl.load_history(&history);
    if crate::output::out("`help` lists the commands; Tab completes; Ctrl-D leaves\n").is_err() {
        return 1;
    }
    let mut code = 0;
    loop {
        // Nothing typed is left out of the autosave while the REPL waits for the next line.
        stderr!("{}", repl.flush_autosave());
        code |= say_errors(repl);
        let prompt = repl.prompt();
        match rl.readline(&prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                    let _ = rl.save_history(&history);
                }
                let reply = repl.exec(&line);
                if reply.error {
                    stderr!("{}", reply.out);
                } else if crate::output::out(&reply.out).is_err() {
                    // Said by `out`; nothing more reaches the user: what was done is kept.
                    stderr!("{}", repl.flush_autosave());
                    say_errors(repl);
                    let _ = rl.save_history(&history);
                    return 1;
                }
                if let Some(h) = rl.helper_mut() {
                    h.names = names(repl);
                }
                code |= say_errors(repl);
                if reply.quit {
                    break;
                }
            }
            // Ctrl-C cancels the line.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => {
                let note = repl.autosave_note();
                code |= say_errors(repl);
                if crate::output::out(&note).is_err() {
                    let _ = rl.save_history(&history);
                    return 1;
                }
                break;
            }
            Err(e) => {
                stderrln!("error: {e}");
                let _ = rl.save_history(&history);
                return 1;
            }
        }
    }
    let _ = rl.save_history(&history);
    code
}

/// Says the REPL's errors outside a reply (a failed autosave) on stderr: 1 if there were any.
fn say_errors(repl: &mut Repl) -> i32 {
    let errors = repl.take_errors();
    if errors.is_empty() {
        return 0;
    }
    stderr!("{errors}");
    1
}
