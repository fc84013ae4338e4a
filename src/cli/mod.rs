//! The command line: `turnscript check` and `turnscript run`. The edge: files in, trace out.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::compile::Program;
use crate::diag::Diag;
use crate::runtime::decide::{Policy, Scripted};
use crate::runtime::{RunConfig, run};
use crate::source::Sources;
use crate::syntax::ast::File;
use crate::trace::{JsonLines, Sink, Text};

#[derive(Parser, Debug)]
#[command(
    name = "turnscript",
    version,
    about = "Run the turn systems of tabletop RPGs, written as scripts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rulesets and encounters; exit 0 when every file is clean.
    ///
    /// Encounter files (files with characters and no `play`) are checked against every ruleset
    /// given on the same command line.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run an encounter under a ruleset and print its trace.
    Run {
        ruleset: PathBuf,
        /// The cast and starting situation.
        #[arg(long)]
        encounter: Option<PathBuf>,
        /// Seed of the dice stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Force the next dice, in order, one value per die: 4,2,12
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        rolls: Vec<i64>,
        /// Answers to the decisions, one per line, by option name.
        #[arg(long)]
        answers: Option<PathBuf>,
        /// Who decides when the answers run out: `first`, `random`, or a policy of the ruleset.
        #[arg(long)]
        policy: Option<String>,
        /// Stop after the N-th iteration of a level: turn=3
        #[arg(long)]
        until: Option<String>,
        /// Trace format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Step budget of the run.
        #[arg(long, default_value_t = crate::limits::DEFAULT_MAX_STEPS)]
        max_steps: u64,
    },
    /// Step through an encounter interactively: show, step, answer, force dice, undo, save.
    ///
    /// On a terminal: completion, hints and history. Otherwise commands are read line by line
    /// and the output is plain. `help` inside lists the commands.
    Repl {
        ruleset: Option<PathBuf>,
        /// The cast and starting situation.
        #[arg(long)]
        encounter: Option<PathBuf>,
        /// Seed of the dice stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Where the session is rewritten after every change.
        #[arg(long, default_value = ".turnscript-autosave.tsession")]
        autosave: PathBuf,
        /// Keep no autosave.
        #[arg(long)]
        no_autosave: bool,
    },
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Jsonl,
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let colour = std::io::stderr().is_terminal();
    match cli.command {
        Command::Check { files } => check_files(&files, colour),
        Command::Repl {
            ruleset,
            encounter,
            seed,
            autosave,
            no_autosave,
        } => crate::repl::main(crate::repl::Options {
            ruleset,
            encounter,
            seed,
            autosave: (!no_autosave).then_some(autosave),
            colour: false,
        }),
        Command::Run {
            ruleset,
            encounter,
            seed,
            rolls,
            answers,
            policy,
            until,
            format,
            max_steps,
        } => {
            let opts = RunOptions {
                seed,
                rolls,
                answers,
                policy,
                until,
                jsonl: format == Format::Jsonl,
                max_steps,
            };
            let (out, err, code) = run_files(&ruleset, encounter.as_deref(), &opts, colour);
            let _ = std::io::stdout().write_all(out.as_bytes());
            let _ = std::io::stderr().write_all(err.as_bytes());
            code
        }
    }
}

/// Everything `run` takes besides the files.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub seed: u64,
    pub rolls: Vec<i64>,
    pub answers: Option<PathBuf>,
    pub policy: Option<String>,
    pub until: Option<String>,
    pub jsonl: bool,
    pub max_steps: u64,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))
}

/// Parses files into one [`Sources`]; returns the ASTs or all syntax errors.
pub fn load(sources: &mut Sources, files: &[(String, String)]) -> Result<Vec<File>, Vec<Diag>> {
    let mut asts = Vec::new();
    let mut diags = Vec::new();
    for (name, text) in files {
        let id = sources.add(name.clone(), text.clone());
        match crate::syntax::parse(text, id) {
            Ok(f) => asts.push(f),
            Err(d) => diags.extend(d),
        }
    }
    if diags.is_empty() { Ok(asts) } else { Err(diags) }
}

/// Parse, check and compile a ruleset with its encounter files.
pub fn build(sources: &mut Sources, files: &[(String, String)]) -> Result<Program, Vec<Diag>> {
    let asts = load(sources, files)?;
    let checked = crate::check::check(asts)?;
    Ok(crate::compile::compile(&checked))
}

fn is_encounter(f: &File) -> bool {
    use crate::syntax::ast::Item;
    !f.items.iter().any(|i| matches!(i, Item::Play(_) | Item::Setup(_)))
        && f.items
            .iter()
            .any(|i| matches!(i, Item::Character(_) | Item::Encounter(_)))
}

fn check_files(paths: &[PathBuf], colour: bool) -> i32 {
    let mut texts = Vec::new();
    for p in paths {
        match read(p) {
            Ok(t) => texts.push((p.display().to_string(), t)),
            Err(e) => {
                eprint!("{e}");
                return 1;
            }
        }
    }
    let (report, ok) = check_texts(&texts, colour);
    eprint!("{report}");
    if ok { 0 } else { 1 }
}

/// Checks files as `turnscript check` does; returns the rendered report and whether all are clean.
pub fn check_texts(texts: &[(String, String)], colour: bool) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    // First parse each file alone to tell rulesets from encounters.
    let mut rulesets = Vec::new();
    let mut encounters = Vec::new();
    for t in texts {
        let mut s = Sources::new();
        match load(&mut s, std::slice::from_ref(t)) {
            Err(d) => {
                out.push_str(&s.render_all(&d, 80, colour));
                ok = false;
            }
            Ok(asts) => {
                if asts.first().is_some_and(is_encounter) {
                    encounters.push(t.clone())
                } else {
                    rulesets.push(t.clone())
                }
            }
        }
    }
    for r in &rulesets {
        let mut s = Sources::new();
        if let Err(d) = build(&mut s, std::slice::from_ref(r)) {
            out.push_str(&s.render_all(&d, 80, colour));
            ok = false;
            continue;
        }
        // An encounter is checked with the ruleset of the same file name when one is given
        // (`encounters/NAME.turn` with `NAME.turn`), else with every ruleset given.
        for e in encounters.iter().filter(|e| pairs(r, e, &rulesets)) {
            let mut s = Sources::new();
            if let Err(d) = build(&mut s, &[r.clone(), e.clone()]) {
                out.push_str(&s.render_all(&d, 80, colour));
                ok = false;
            }
        }
    }
    if rulesets.is_empty() {
        for e in &encounters {
            out.push_str(&format!(
                "note: {} is an encounter and was only parsed: give its ruleset too to check it\n",
                e.0
            ));
        }
    }
    (out, ok)
}

fn stem(path: &str) -> &str {
    Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or(path)
}

/// Whether encounter `e` is checked with ruleset `r`.
fn pairs(r: &(String, String), e: &(String, String), rulesets: &[(String, String)]) -> bool {
    let named = rulesets.iter().any(|x| stem(&x.0) == stem(&e.0));
    !named || stem(&r.0) == stem(&e.0)
}

/// Runs as `turnscript run` does: returns (stdout, stderr, exit code).
pub fn run_files(ruleset: &Path, encounter: Option<&Path>, opts: &RunOptions, colour: bool) -> (String, String, i32) {
    let mut texts = Vec::new();
    for p in std::iter::once(ruleset).chain(encounter) {
        match read(p) {
            Ok(t) => texts.push((p.display().to_string(), t)),
            Err(e) => return (String::new(), e, 1),
        }
    }
    let answers = match &opts.answers {
        None => Vec::new(),
        Some(p) => match read(p) {
            Ok(t) => parse_answers(&t, &p.display().to_string()),
            Err(e) => return (String::new(), e, 1),
        },
    };
    run_texts(&texts, answers, opts, colour)
}

/// The lines of an answers file that are answers: trimmed, without blanks and `#` comments.
pub fn parse_answers(text: &str, origin: &str) -> Vec<(String, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            (
                l.split('#').next().unwrap_or("").trim().to_string(),
                format!("{origin}:{}", i + 1),
            )
        })
        .filter(|(l, _)| !l.is_empty())
        .collect()
}

/// Runs already-read files: returns (stdout, stderr, exit code).
pub fn run_texts(
    texts: &[(String, String)],
    answers: Vec<(String, String)>,
    opts: &RunOptions,
    colour: bool,
) -> (String, String, i32) {
    crate::runtime::on_run_stack(|| run_texts_here(texts, answers, opts, colour))
}

fn run_texts_here(
    texts: &[(String, String)],
    answers: Vec<(String, String)>,
    opts: &RunOptions,
    colour: bool,
) -> (String, String, i32) {
    let mut sources = Sources::new();
    let program = match build(&mut sources, texts) {
        Ok(p) => p,
        Err(d) => return (String::new(), sources.render_all(&d, 80, colour), 1),
    };
    let policy = match &opts.policy {
        None => program.default_policy.unwrap_or(crate::compile::PolicyRef::Random),
        Some(name) => match program.policy(name) {
            Some(p) => p,
            None => {
                let mut names: Vec<&str> = vec!["first", "random"];
                names.extend(program.policies.iter().map(|p| p.name.as_str()));
                return (
                    String::new(),
                    format!(
                        "error: no policy is called `{name}`; the policies are: {}\n",
                        names.join(", ")
                    ),
                    2,
                );
            }
        },
    };
    let until = match &opts.until {
        None => None,
        Some(u) => match parse_until(&program, u) {
            Ok(u) => Some(u),
            Err(e) => return (String::new(), e, 2),
        },
    };
    let cfg = RunConfig {
        seed: opts.seed,
        rolls: opts.rolls.clone(),
        max_steps: if opts.max_steps == 0 {
            crate::limits::DEFAULT_MAX_STEPS
        } else {
            opts.max_steps
        },
        until,
    };
    let mut decider = Scripted::new(&program, answers, Policy::new(policy, opts.seed));
    let mut json = JsonLines::default();
    let mut text = Text::new(&program);
    let sink: &mut dyn Sink = if opts.jsonl { &mut json } else { &mut text };
    let result = run(&program, &cfg, &mut decider, sink);
    let out = if opts.jsonl { json.out } else { text.out };
    match result {
        Ok(o) => {
            let mut note = String::new();
            if o.unused_rolls > 0 {
                let used = opts.rolls.len() - o.unused_rolls.min(opts.rolls.len());
                let left: Vec<String> = opts.rolls[used..].iter().map(|r| r.to_string()).collect();
                note.push_str(&format!(
                    "warning: {} forced roll{} never used: {} (the run rolled fewer dice)\n",
                    o.unused_rolls,
                    if o.unused_rolls == 1 { " was" } else { "s were" },
                    left.join(",")
                ));
            }
            if decider.used() < decider.len() {
                note.push_str(&format!(
                    "warning: {} answer{} never used (the run asked fewer decisions)\n",
                    decider.len() - decider.used(),
                    if decider.len() - decider.used() == 1 {
                        " was"
                    } else {
                        "s were"
                    }
                ));
            }
            (out, note, 0)
        }
        Err(d) => (out, sources.render(&d, 80, colour), 1),
    }
}

fn parse_until(p: &Program, text: &str) -> Result<(u16, u64), String> {
    let levels: Vec<&str> = p.levels.iter().map(|l| l.name.as_str()).collect();
    let Some((name, n)) = text.split_once('=') else {
        return Err(format!(
            "error: --until takes LEVEL=N, e.g. --until {}=3\n",
            levels.first().unwrap_or(&"round")
        ));
    };
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("error: --until {text}: `{n}` is not a whole number\n"))?;
    if n == 0 {
        return Err(format!(
            "error: --until {text}: iterations count from 1, so {name}=0 never comes\n"
        ));
    }
    let level = p.level_id(name.trim()).ok_or_else(|| {
        format!(
            "error: --until {text}: no level is called `{name}`; the levels are: {}\n",
            levels.join(", ")
        )
    })?;
    Ok((level, n))
}
