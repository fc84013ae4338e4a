//! The command line: `turnscript check`, `turnscript run` and `turnscript repl`. Argument parsing,
//! reading files and printing only: everything else is the library API in [`crate::project`].

use std::io::{BufWriter, ErrorKind, IsTerminal, Stdout, Write};
use std::path::{Path, PathBuf};

mod fmt;
mod sim;

use clap::{Parser, Subcommand, ValueEnum};

use crate::project::{RunOptions, Style, View, check_set, parse_answers, play};
use crate::trace::{Event, Sink, World};

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
    /// Encounter files (files with characters and no `play`) are checked with the ruleset they
    /// name (`encounter "..." uses "PATH"`), else with the ruleset of the same file name, else
    /// with every ruleset given on the same command line.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run an encounter under a ruleset and print its trace. `run ENCOUNTER` runs an encounter
    /// that names its ruleset (`uses "PATH"`) under it.
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
        /// Force the next cards drawn, in order, by name: "Q hearts,joker 1"
        #[arg(long, value_delimiter = ',')]
        draws: Vec<String>,
        /// Answers to the decisions, one per line, by option name; `round 3, Mira, act: attack`
        /// answers only that decision (see docs/language.md).
        #[arg(long)]
        answers: Option<PathBuf>,
        /// Who decides when the answers run out: `first`, `random`, or a policy of the ruleset.
        /// `SIDE=NAME` or `ROLE=NAME` (repeatable): that policy answers that side's or role's
        /// choosers, and the answers go to the others: `--policy foes=aggressive`.
        #[arg(long)]
        policy: Vec<String>,
        /// Stop after the N-th iteration of a level: turn=3 (or inside others: battle=2,round=3)
        #[arg(long)]
        until: Option<String>,
        /// Trace format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Step budget of the run.
        #[arg(long, default_value_t = crate::limits::DEFAULT_MAX_STEPS)]
        max_steps: u64,
        /// Stop on an answer the rules refuse (run::refused), instead of tracing it and asking again.
        #[arg(long)]
        stop_on_refusal: bool,
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
    /// Run many encounters under a policy, on every core, and report statistics.
    ///
    /// Iterations of each level, turns and actions per character, places in each order,
    /// resources forfeited and left, how levels and encounters end. See docs/sim.md.
    Sim(sim::SimArgs),
    /// Format rulesets and encounters in place, in the one canonical layout; every comment kept.
    ///
    /// `--check` changes nothing and exits 1 naming the files that would change. A file that
    /// does not parse is reported and left alone.
    Fmt(fmt::FmtArgs),
    /// A language server over standard input and output, for editors (see docs/editors.md).
    Lsp,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Jsonl,
}

/// What `turnscript repl` was given. The binary hands it to the REPL: the CLI, a front end, does
/// not import another front end.
#[derive(Clone, Debug)]
pub struct ReplArgs {
    pub ruleset: Option<PathBuf>,
    pub encounter: Option<PathBuf>,
    pub seed: u64,
    /// `None`: no autosave.
    pub autosave: Option<PathBuf>,
}

/// Runs the command line; `repl` starts the REPL and `lsp` the language server (front ends the
/// binary hands in). Returns the process exit code.
pub fn main(repl: impl FnOnce(ReplArgs) -> i32, lsp: impl FnOnce() -> i32) -> i32 {
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
        } => {
            // `repl ENCOUNTER`: an encounter that names its ruleset opens under it.
            let (ruleset, encounter) = match ruleset {
                Some(r) => {
                    let (r, e) = resolve_pair(&r, encounter.as_deref());
                    (Some(r), e)
                }
                None => (None, encounter),
            };
            repl(ReplArgs {
                ruleset,
                encounter,
                seed,
                autosave: (!no_autosave).then_some(autosave),
            })
        }
        Command::Run {
            ruleset,
            encounter,
            seed,
            rolls,
            draws,
            answers,
            policy,
            until,
            format,
            max_steps,
            stop_on_refusal,
        } => {
            // `--policy NAME` (once) and `--policy SIDE=NAME` (for a side or a role).
            let (by_side, plain): (Vec<String>, Vec<String>) = policy.into_iter().partition(|p| p.contains('='));
            if plain.len() > 1 {
                eprintln!(
                    "error: --policy NAME was given {} times ({}); give it once, and SIDE=NAME for a side's or role's policy",
                    plain.len(),
                    plain.join(", ")
                );
                return 2;
            }
            let side_policies = by_side
                .iter()
                .filter_map(|p| p.split_once('='))
                .map(|(w, n)| (w.trim().to_string(), n.trim().to_string()))
                .collect();
            let opts = Opts {
                run: RunOptions {
                    seed,
                    rolls,
                    answers: Vec::new(),
                    policy: plain.into_iter().next(),
                    until,
                    max_steps,
                    stop_on_refusal,
                    side_policies,
                    draws,
                },
                answers,
                jsonl: format == Format::Jsonl,
            };
            run_files(&ruleset, encounter.as_deref(), opts, colour)
        }
        Command::Sim(args) => sim::main(args, colour),
        Command::Fmt(args) => fmt::main(args, colour),
        Command::Lsp => lsp(),
    }
}

/// `run`'s options: the library's, plus the answers file and the format.
struct Opts {
    run: RunOptions,
    answers: Option<PathBuf>,
    jsonl: bool,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))
}

fn read_all(paths: &[&Path]) -> Result<Vec<(String, String)>, String> {
    paths
        .iter()
        .map(|p| read(p).map(|t| (p.display().to_string(), t)))
        .collect()
}

fn check_files(paths: &[PathBuf], colour: bool) -> i32 {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let texts = match read_all(&paths) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{e}");
            return 1;
        }
    };
    let texts = match with_named_rulesets(texts) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{e}");
            return 1;
        }
    };
    let report = check_set(&texts);
    eprint!("{}", report.render(Style { width: 80, colour }));
    if report.is_clean() { 0 } else { 1 }
}

/// The ruleset and encounter a command runs: as given; or, given only an encounter that names its
/// ruleset (`uses "PATH"`), that ruleset and the encounter. With both given, a note when the
/// encounter names another ruleset than the one given (the one given is used).
pub(crate) fn resolve_pair(first: &Path, encounter: Option<&Path>) -> (PathBuf, Option<PathBuf>) {
    let named = |p: &Path| {
        read(p)
            .ok()
            .and_then(|t| crate::project::named_ruleset(&p.display().to_string(), &t))
    };
    match encounter {
        None => match named(first) {
            Some(r) => (PathBuf::from(r), Some(first.to_path_buf())),
            None => (first.to_path_buf(), None),
        },
        Some(e) => {
            if let Some(r) = named(e)
                && !crate::project::same_file(&r, &first.display().to_string())
            {
                eprintln!(
                    "note: {} names {r} as its ruleset; playing it under {} as given",
                    e.display(),
                    first.display()
                );
            }
            (first.to_path_buf(), Some(e.to_path_buf()))
        }
    }
}

/// The files, with the rulesets their encounters name (`uses "PATH"`) read in too when they were
/// not given.
fn with_named_rulesets(mut texts: Vec<(String, String)>) -> Result<Vec<(String, String)>, String> {
    let named: Vec<String> = texts
        .iter()
        .filter_map(|(path, text)| crate::project::named_ruleset(path, text))
        .collect();
    for path in named {
        let given = texts.iter().any(|(p, _)| crate::project::same_file(p, &path));
        if !given {
            let text = read(Path::new(&path))?;
            texts.insert(0, (path, text));
        }
    }
    Ok(texts)
}

fn run_files(ruleset: &Path, encounter: Option<&Path>, mut opts: Opts, colour: bool) -> i32 {
    // `run ENCOUNTER`: an encounter that names its ruleset runs under it.
    let (ruleset, encounter) = resolve_pair(ruleset, encounter);
    let paths: Vec<&Path> = std::iter::once(ruleset.as_path()).chain(encounter.as_deref()).collect();
    let read_answers = |p: &PathBuf| read(p).map(|t| parse_answers(&t, &p.display().to_string()));
    let texts = match read_all(&paths) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{e}");
            return 1;
        }
    };
    if let Some(p) = &opts.answers {
        match read_answers(p) {
            Ok(a) => opts.run.answers = a,
            Err(e) => {
                eprint!("{e}");
                return 1;
            }
        }
    }
    let stdout = BufWriter::with_capacity(OUT_BUFFER, std::io::stdout());
    let (view, result) = play(&texts, &opts.run, |p| {
        Streamed(View::with_writer(opts.jsonl, p, stdout))
    });
    // The trace so far goes out before any error about the run.
    let written = view.map_or(Ok(()), |mut v| v.0.flush());
    if let Err(e) = written {
        return write_failed(&e);
    }
    let (err, code) = match result {
        Ok((_, warnings)) => (warnings, 0),
        Err(f) => (f.render(Style { width: 80, colour }), f.exit_code()),
    };
    let _ = std::io::stderr().write_all(err.as_bytes());
    code
}

/// The buffer of the trace on stdout: what a killed run may not have printed.
const OUT_BUFFER: usize = 64 * 1024;

/// The view `run` streams to stdout. The first failed write ends the process at once (the run
/// would go on with nowhere to write): quietly, as `0`, when the reader is gone (`run ... | head`),
/// else with the error, as `1`. It holds `Stdout`, not a `StdoutLock`: the view goes to the run's
/// thread and back, which a lock guard cannot; the `BufWriter` takes the lock once per buffer.
struct Streamed(View<BufWriter<Stdout>>);

impl Sink for Streamed {
    fn event(&mut self, world: &World<'_>, event: &Event<'_>) {
        self.0.event(world, event);
        if let Some(e) = self.0.error() {
            std::process::exit(write_failed(e));
        }
    }
}

/// Reports a failed write of the trace (a closed pipe is no error); returns the exit code.
fn write_failed(e: &std::io::Error) -> i32 {
    if e.kind() == ErrorKind::BrokenPipe {
        return 0;
    }
    let _ = writeln!(std::io::stderr(), "error: cannot write the trace: {e}");
    1
}
