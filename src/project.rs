//! The library API every front end stands on: the CLI, the REPL, the tests, and the coming
//! simulator and language server. A [`Project`] holds the loaded files (their text and their parsed
//! ASTs) and their syntax errors; [`Project::check`] and [`Project::compile`] take them through the
//! checker and the compiler; [`run`] plays a compiled [`Program`]. [`RunOptions`] turns what a user
//! asks for (a seed, forced dice, answers, a policy, a stop) into a [`RunConfig`] and a decider, and
//! [`check_set`] checks a set of rulesets and encounters the way `turnscript check` does.
//!
//! A run is a function of the compiled [`Program`], not of the `Project`: sinks and deciders borrow
//! the program, and a simulator plays one program many times, on many threads, without its sources.

use std::fmt;
use std::io::Write;

use crate::check::Checked;
use crate::compile::{PolicyRef, Program};
use crate::diag::Diag;
use crate::limits::clip;
use crate::runtime::decide::{Decider, Member, Policy, Scripted};
use crate::runtime::{Outcome, RunConfig};
use crate::source::{FileId, Sources};
use crate::syntax::ast::{File, Item};
use crate::trace::{Event, JsonLines, Sink, Text, World};

mod check_set;
mod paths;
pub use check_set::{CheckReport, Parsed, check_named, check_set, named_ruleset, named_ruleset_parsed};
use paths::NotAFile;
#[cfg(test)]
pub(crate) use paths::canonicalised;
pub use paths::{FileKey, from_folder_of, has_uses, same_file};

/// How diagnostics are rendered: columns and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub width: usize,
    pub colour: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            width: 80,
            colour: false,
        }
    }
}

/// Loaded source files, parsed: a ruleset first, then its encounters and any other files.
#[derive(Clone, Debug, Default)]
pub struct Project {
    sources: Sources,
    /// The files that parsed, in load order, and their ids (apart, so the checker borrows the
    /// ASTs as one slice instead of copying them).
    files: Vec<File>,
    ids: Vec<FileId>,
    /// The syntax errors of the files that did not parse.
    syntax: Vec<Diag>,
    /// The characters no file may hold (control characters, direction overrides, tabs in
    /// strings), of every file loaded.
    characters: Vec<Diag>,
    /// Whether the last of `files` is the cards of the decks made from the cast
    /// (`syntax::cast::cast_decks`), written again as each file is added; and what it refused.
    cast: bool,
    cast_errors: Vec<Diag>,
}

impl Project {
    /// An empty project.
    pub fn new() -> Self {
        Self::default()
    }

    /// Loads and parses files given as `(name, text)`, in order (the ruleset first).
    pub fn load<N: Into<String>, T: Into<String>>(files: impl IntoIterator<Item = (N, T)>) -> Self {
        let mut project = Project::new();
        for (name, text) in files {
            project.add(name, text);
        }
        project
    }

    /// Adds one file and parses it; returns its id. A syntax error is kept, not returned.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.add_parsed(name, text, crate::syntax::parse)
    }

    /// Adds one file with the parse `parse` gives of its text as the file id it takes here: a
    /// front end that parsed the text already with that id (the language server, as the text
    /// changed) hands that parse over instead of parsing again.
    pub fn add_parsed(
        &mut self,
        name: impl Into<String>,
        text: impl Into<String>,
        parse: impl FnOnce(&str, FileId) -> Result<File, Vec<Diag>>,
    ) -> FileId {
        let id = self.sources.add(name, text);
        let found = crate::syntax::text::unsafe_characters(self.sources.text(id), id);
        self.characters.extend(crate::diag::cap_per_file(
            found,
            crate::limits::MAX_DIAGNOSTICS_PER_FILE,
        ));
        if std::mem::take(&mut self.cast) {
            self.files.pop();
            self.ids.pop();
        }
        match parse(self.sources.text(id), id) {
            Ok(file) => {
                self.files.push(file);
                self.ids.push(id);
            }
            Err(d) => self.syntax.extend(d),
        }
        let (cast, errors) = crate::syntax::cast::cast_decks(&self.files);
        self.cast_errors = errors;
        if let (Some(file), Some(last)) = (cast, self.ids.last().copied()) {
            self.files.push(file);
            self.ids.push(last);
            self.cast = true;
        }
        id
    }

    /// The loaded files' names and text, for rendering diagnostics.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The loaded files, given up: for a caller that keeps only what it needs to render.
    pub fn into_sources(self) -> Sources {
        self.sources
    }

    /// The files that parsed, with their ids.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &File)> {
        self.ids.iter().copied().zip(&self.files)
    }

    /// The syntax errors of the files that did not parse.
    pub fn syntax_errors(&self) -> &[Diag] {
        &self.syntax
    }

    /// Whether the first file is an encounter: it has characters or an `encounter` line and no
    /// `play`, `setup` or `ruleset` line.
    pub fn is_encounter(&self) -> bool {
        self.files.first().is_some_and(is_encounter)
    }

    /// Checks every file together: the characters no file may hold, then all syntax errors, or
    /// else an encounter that names itself as its ruleset, or else all errors of the checker.
    pub fn check(&self) -> Result<Checked<'_>, Vec<Diag>> {
        // Characters no file may hold come first: a control character may be why a file does not
        // parse.
        let mut errors = self.characters.clone();
        if !self.syntax.is_empty() || !self.cast_errors.is_empty() {
            errors.extend(self.syntax.iter().cloned());
            errors.extend(self.cast_errors.iter().cloned());
            return Err(errors);
        }
        let own = self.bad_uses();
        if !own.is_empty() {
            errors.extend(own);
            return Err(errors);
        }
        match crate::check::check(&self.files) {
            Ok(checked) if errors.is_empty() => Ok(checked),
            Ok(_) => Err(errors),
            Err(d) => {
                errors.extend(d);
                Err(errors)
            }
        }
    }

    /// An encounter whose `uses "PATH"` names no file it can be played under: its own file
    /// (played under itself, its cast would be declared twice), nothing (an empty path) or a
    /// folder. Once per file name (`turnscript run` loads a file naming itself twice).
    fn bad_uses(&self) -> Vec<Diag> {
        let mut out: Vec<Diag> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (id, file) in self.files() {
            let name = self.sources.name(id);
            for item in &file.items {
                let Item::Encounter { uses: Some(u), .. } = item else {
                    continue;
                };
                if seen.contains(&name) {
                    continue;
                }
                let d = match paths::not_a_file(name, &u.node) {
                    Some(NotAFile::Empty) => Diag::new(
                        "check::uses",
                        "this encounter names no file as its ruleset: the path is empty",
                    )
                    .label(u.span, "an empty path"),
                    Some(NotAFile::Folder) => Diag::new(
                        "check::uses",
                        "this encounter names a folder as its ruleset, not a file",
                    )
                    .label(u.span, "a folder"),
                    None if same_file(&from_folder_of(name, &u.node), name) => {
                        Diag::new("check::uses", "this encounter names its own file as its ruleset")
                            .label(u.span, "this file itself")
                    }
                    None => continue,
                };
                seen.push(name);
                out.push(d.help("name the ruleset's file, a path from this file's folder: `uses \"../RULESET.turn\"`; a file with its own rules and cast needs no `uses`"));
            }
        }
        out
    }

    /// Checks, then compiles to a runnable [`Program`].
    pub fn compile(&self) -> Result<Program, Vec<Diag>> {
        Ok(crate::compile::compile(&self.check()?))
    }

    /// Renders diagnostics about these files, one after another.
    pub fn render(&self, diags: &[Diag], style: Style) -> String {
        self.sources.render_all(diags, style.width, style.colour)
    }
}

fn is_encounter(f: &File) -> bool {
    !f.items
        .iter()
        .any(|i| matches!(i, Item::Play(_) | Item::Setup(_) | Item::Ruleset(_)))
        && f.items
            .iter()
            .any(|i| matches!(i, Item::Character(_) | Item::Encounter { .. }))
}

/// Plays a compiled program: asks `decider` at each decision and sends each event to `sink` as it
/// happens. Runs on a thread of its own, with a stack that the interpreter's nesting bounds fit
/// in; a caller already on such a thread (a simulator's workers) may call [`crate::runtime::run`].
pub fn run(
    program: &Program,
    config: &RunConfig,
    decider: &mut (dyn Decider + Send),
    sink: &mut (dyn Sink + Send),
) -> Result<Outcome, Diag> {
    crate::runtime::try_on_run_stack(|| crate::runtime::run(program, config, decider, sink)).unwrap_or_else(|e| {
        Err(Diag::new("run::thread", format!("cannot start the run thread: {e}")).help(no_run_stack_help()))
    })
}

/// What to do when the run thread cannot be made.
fn no_run_stack_help() -> String {
    format!(
        "free memory: a run reserves {} MiB of stack",
        crate::limits::RUN_STACK_BYTES >> 20
    )
}

/// One scripted answer: the text of the answer and where it came from (`answers.txt:3`).
pub type Answer = (String, String);

/// The lines of an answers file that are answers: trimmed, without blanks and `#` comments. A name
/// in double quotes, as a ruleset writes one that is not a plain word (`round 1, "Cutthroat A",
/// act: strike`), stands for the name: a `#` inside the quotes starts no comment, and the quotes
/// stay for the decider to read the name whole (a `,` or `:` inside it parts nothing).
pub fn parse_answers(text: &str, origin: &str) -> Vec<Answer> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (answer_text(l), format!("{origin}:{}", i + 1)))
        .filter(|(l, _)| !l.is_empty())
        .collect()
}

/// One line of an answers file without its comment (a `#` outside double quotes), trimmed.
fn answer_text(line: &str) -> String {
    let mut quoted = false;
    let end = line
        .char_indices()
        .find(|&(_, c)| {
            quoted ^= c == '"';
            c == '#' && !quoted
        })
        .map_or(line.len(), |(i, _)| i);
    line[..end].trim().to_string()
}

/// What a user asks of a run besides the files: the seed, forced dice, scripted answers, who
/// decides when the answers run out, where to stop, and the step budget.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub seed: u64,
    pub rolls: Vec<i64>,
    pub answers: Vec<Answer>,
    /// `first`, `random`, or a policy of the ruleset; `None` is the ruleset's default policy.
    pub policy: Option<String>,
    /// `LEVEL=N`: stop after the N-th iteration of a level.
    pub until: Option<String>,
    /// 0 is the default budget.
    pub max_steps: u64,
    /// An answer the rules refuse stops the run (`run::refused`) instead of being traced and
    /// asked again.
    pub stop_on_refusal: bool,
    /// `(SIDE or ROLE, POLICY)`: that policy answers the choosers of that side or role, leaving
    /// the answers in order to the others (the foes play by policy, the table answers).
    pub side_policies: Vec<(String, String)>,
    /// Forced draws, by card name (`--draws "Q hearts,joker"`): the cards the next `draw`
    /// statements take, in order.
    pub draws: Vec<String>,
}

/// A request a program cannot honour (an unknown policy or level, a malformed `--until`):
/// found before the run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// A run ready to start: its configuration and the decider that answers its decisions.
pub struct Prepared {
    pub config: RunConfig,
    pub decider: Scripted,
}

impl RunOptions {
    /// Resolves the options against a program: the policy and the `--until` level by name.
    pub fn prepare(&self, program: &Program) -> Result<Prepared, SetupError> {
        let policy = match &self.policy {
            None => program.default_policy.unwrap_or(PolicyRef::Random),
            Some(name) => policy_named(program, name)?,
        };
        // `--until LEVEL=N`, or `OUTER=N,...,LEVEL=N`: the last stops the run, inside the others.
        let mut until_within = Vec::new();
        let until = match &self.until {
            None => None,
            Some(u) => {
                let mut parts = u
                    .split(',')
                    .map(|part| parse_until(program, part.trim()))
                    .collect::<Result<Vec<_>, _>>()?;
                let last = parts.pop();
                until_within = parts;
                last
            }
        };
        let mut draws = Vec::new();
        for card in &self.draws {
            let found = program
                .characters
                .iter()
                .enumerate()
                .find(|(_, c)| c.name == card.trim() && program.decks.contains(&c.ty));
            match found {
                Some((id, _)) => draws.push(id as crate::compile::EntityId),
                None => {
                    return Err(SetupError(format!(
                        "error: `--draws`: no deck has a card called `{}`{}\n",
                        clip(card.trim()),
                        if program.decks.is_empty() {
                            " (the ruleset declares no deck)"
                        } else {
                            ""
                        }
                    )));
                }
            }
        }
        let config = RunConfig {
            draws,
            seed: self.seed,
            rolls: self.rolls.clone(),
            max_steps: if self.max_steps == 0 {
                crate::limits::DEFAULT_MAX_STEPS
            } else {
                self.max_steps
            },
            until,
            until_within,
            stop_on_refusal: self.stop_on_refusal,
            default_limit: true,
        };
        let mut by_side = Vec::new();
        for (who, name) in &self.side_policies {
            let member = match (
                program.sides.iter().position(|s| s == who),
                program.roles.iter().position(|r| r == who),
            ) {
                (Some(i), _) => Member::Side(i as u16),
                (None, Some(i)) => Member::Role(i as u16),
                (None, None) => {
                    let mut names: Vec<&str> = program.sides.iter().map(String::as_str).collect();
                    names.extend(program.roles.iter().map(String::as_str));
                    let known = if names.is_empty() {
                        "the ruleset declares no side and no role; `--policy NAME` alone gives every decision one policy".to_string()
                    } else {
                        format!("the sides and roles are: {}", names.join(", "))
                    };
                    let (who, name) = (clip(who), clip(name));
                    return Err(SetupError(format!(
                        "error: `--policy {who}={name}`: no side or role is called `{who}`; {known}\n"
                    )));
                }
            };
            by_side.push((member, Policy::new(policy_named(program, name)?, self.seed)));
        }
        let decider = Scripted::new(program, self.answers.clone(), Policy::new(policy, self.seed))
            .map_err(SetupError)?
            .with_side_policies(by_side);
        Ok(Prepared { config, decider })
    }

    /// Warnings about what a finished run left unused: forced rolls and answers.
    pub fn leftovers(&self, outcome: &Outcome, decider: &Scripted) -> String {
        let mut note = String::new();
        if outcome.unused_rolls > 0 {
            let used = self.rolls.len() - outcome.unused_rolls.min(self.rolls.len());
            let left: Vec<String> = self.rolls[used..].iter().map(|r| r.to_string()).collect();
            note.push_str(&format!(
                "warning: {} forced roll{} never used: {} (the run rolled fewer dice)\n",
                outcome.unused_rolls,
                plural_was(outcome.unused_rolls),
                left.join(",")
            ));
        }
        if outcome.unused_draws > 0 {
            let used = self.draws.len() - outcome.unused_draws.min(self.draws.len());
            note.push_str(&format!(
                "warning: {} forced draw{} never used: {} (the run drew fewer cards)\n",
                outcome.unused_draws,
                plural_was(outcome.unused_draws),
                self.draws[used..].join(",")
            ));
        }
        for (origin, text, moment) in decider.unused_addressed() {
            let why = if moment {
                "the moment it addresses never came"
            } else {
                "no decision it addresses was asked"
            };
            note.push_str(&format!(
                "warning: the answer `{}` ({origin}) was never used: {why}\n",
                clip(text)
            ));
        }
        let addressed = decider.unused_addressed().len();
        let unused = decider.len() - decider.used().min(decider.len()) - addressed;
        if unused > 0 {
            note.push_str(&format!(
                "warning: {unused} answer{} never used (the run asked fewer decisions)\n",
                plural_was(unused)
            ));
        }
        note
    }
}

/// A policy by name: `first`, `random`, or one the program declares.
fn policy_named(program: &Program, name: &str) -> Result<PolicyRef, SetupError> {
    program.policy(name).ok_or_else(|| {
        let mut names: Vec<&str> = vec!["first", "random"];
        names.extend(program.policies.iter().map(|p| p.name.as_str()));
        SetupError(format!(
            "error: no policy is called `{}`; the policies are: {}\n",
            clip(name),
            names.join(", ")
        ))
    })
}

fn plural_was(n: usize) -> &'static str {
    if n == 1 { " was" } else { "s were" }
}

fn parse_until(p: &Program, whole: &str) -> Result<(u16, u64), SetupError> {
    let levels: Vec<&str> = p.levels.iter().map(|l| l.name.as_str()).collect();
    // The argument as the errors quote it: cut, as all quoted user text is.
    let text = &*clip(whole);
    let Some((name, n)) = whole.split_once('=') else {
        return Err(SetupError(format!(
            "error: --until takes LEVEL=N, e.g. --until {}=3\n",
            levels.first().unwrap_or(&"round")
        )));
    };
    let n: u64 = n.trim().parse().map_err(|_| {
        let large = crate::limits::too_many_digits(n.trim()) && !n.trim().starts_with('-');
        let n = clip(n.trim());
        SetupError(if large {
            format!(
                "error: --until {text}: `{n}` is too large (the largest is {})\n",
                u64::MAX
            )
        } else {
            format!("error: --until {text}: `{n}` is not a whole number\n")
        })
    })?;
    let level = p.level_id(name.trim()).ok_or_else(|| {
        SetupError(format!(
            "error: --until {text}: no level is called `{}`; the levels are: {}\n",
            clip(name),
            levels.join(", ")
        ))
    })?;
    // A level numbered the game's way may count from 0; the others count from 1.
    if n == 0 && !p.levels[level as usize].counting {
        return Err(SetupError(format!(
            "error: --until {text}: iterations count from 1, so {}=0 never comes\n",
            clip(name)
        )));
    }
    Ok((level, n))
}

/// Why a run of files did not finish: the files do not build, the options do not fit the
/// program, the run stopped with an error (after some of its trace went to the sink), or its
/// thread could not be started (no memory for the run stack: the message).
#[derive(Debug)]
pub enum Failure {
    Build(Project, Vec<Diag>),
    Setup(SetupError),
    Run(Project, Diag),
    Thread(String),
}

impl Failure {
    /// The report a user reads.
    pub fn render(&self, style: Style) -> String {
        match self {
            Failure::Build(p, d) => p.render(d, style),
            Failure::Setup(e) => e.0.clone(),
            Failure::Run(p, d) => p.render(std::slice::from_ref(d), style),
            Failure::Thread(e) => e.clone(),
        }
    }

    /// The process exit code the CLI gives it: 2 for a request that does not fit, else 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Setup(_) => 2,
            _ => 1,
        }
    }
}

/// Loads, compiles and plays files (a ruleset, then encounters) under `opts`, sending the trace
/// to the sink that `sink` makes for the program. On success, returns the outcome and the
/// warnings about unused rolls and answers.
pub fn play<S: Sink + Send>(
    files: &[(String, String)],
    opts: &RunOptions,
    sink: impl FnOnce(&Program) -> S + Send,
) -> (Option<S>, Result<(Outcome, String), Failure>) {
    play_with(files, None, opts, sink)
}

/// [`play`], with a file already parsed to find the ruleset it names
/// ([`named_ruleset_parsed`]): the file of the same text is not parsed again.
pub fn play_with<S: Sink + Send>(
    files: &[(String, String)],
    parsed: Option<Parsed>,
    opts: &RunOptions,
    sink: impl FnOnce(&Program) -> S + Send,
) -> (Option<S>, Result<(Outcome, String), Failure>) {
    crate::runtime::try_on_run_stack(|| play_here(files, parsed, opts, sink)).unwrap_or_else(|e| {
        (
            None,
            Err(Failure::Thread(format!(
                "error: cannot start the run thread: {e}\n  help: {}\n",
                no_run_stack_help()
            ))),
        )
    })
}

fn play_here<S: Sink>(
    files: &[(String, String)],
    parsed: Option<Parsed>,
    opts: &RunOptions,
    sink: impl FnOnce(&Program) -> S,
) -> (Option<S>, Result<(Outcome, String), Failure>) {
    let project = Project::load_with(files.iter().cloned(), parsed);
    let program = match project.compile() {
        Ok(p) => p,
        Err(d) => return (None, Err(Failure::Build(project, d))),
    };
    let mut prepared = match opts.prepare(&program) {
        Ok(p) => p,
        Err(e) => return (None, Err(Failure::Setup(e))),
    };
    let mut sink = sink(&program);
    let result = crate::runtime::run(&program, &prepared.config, &mut prepared.decider, &mut sink);
    let result = match result {
        Ok(outcome) => {
            let warnings = opts.leftovers(&outcome, &prepared.decider);
            Ok((outcome, warnings))
        }
        Err(d) => Err(Failure::Run(project, d)),
    };
    (Some(sink), result)
}

/// The trace in one of its two views, chosen at run time: JSON lines or the GM's text, written
/// into `W` as each event happens. [`View::new`] writes into memory (read it back with
/// [`View::out`]); [`View::with_writer`] writes into any writer, as `turnscript run` does into a
/// `BufWriter` on stdout. A failed write stops the view, never the run: ask [`View::error`].
pub enum View<W: Write = Vec<u8>> {
    Json(JsonLines<W>),
    Text(Text<W>),
}

impl<W: Write> Sink for View<W> {
    fn event(&mut self, world: &World<'_>, event: &Event<'_>) {
        match self {
            View::Json(s) => s.event(world, event),
            View::Text(s) => s.event(world, event),
        }
    }
}

impl View {
    /// A view that writes into memory.
    pub fn new(jsonl: bool, p: &Program) -> Self {
        View::with_writer(jsonl, p, Vec::new())
    }

    /// The trace so far.
    pub fn out(&self) -> &str {
        match self {
            View::Json(s) => s.out(),
            View::Text(s) => s.out(),
        }
    }
}

impl<W: Write> View<W> {
    /// A view that writes each event into `w`.
    pub fn with_writer(jsonl: bool, p: &Program, w: W) -> Self {
        if jsonl {
            View::Json(JsonLines::new(w))
        } else {
            View::Text(Text::with_writer(p, w))
        }
    }

    /// The first error writing the trace, if a write failed; nothing was written after it.
    pub fn error(&self) -> Option<&std::io::Error> {
        match self {
            View::Json(s) => s.error(),
            View::Text(s) => s.error(),
        }
    }

    /// Flushes the writer; after a failed write, gives back that error instead.
    pub fn flush(&mut self) -> std::io::Result<()> {
        match self {
            View::Json(s) => s.flush(),
            View::Text(s) => s.flush(),
        }
    }
}
