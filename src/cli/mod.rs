//! The command line: `turnscript check`, `turnscript run` and `turnscript repl`. Argument parsing,
//! reading files and printing only: everything else is the library API in [`crate::project`].

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::project::{RunOptions, Style, View, check_set, parse_answers, play};

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
    /// Run many encounters under a policy, on every core, and report statistics.
    ///
    /// Iterations of each level, turns and actions per character, places in each order,
    /// resources forfeited and left, how levels and encounters end. See docs/sim.md.
    Sim(crate::sim::cli::SimArgs),
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
            let opts = Opts {
                run: RunOptions {
                    seed,
                    rolls,
                    answers: Vec::new(),
                    policy,
                    until,
                    max_steps,
                },
                answers,
                jsonl: format == Format::Jsonl,
            };
            run_files(&ruleset, encounter.as_deref(), opts, colour)
        }
        Command::Sim(args) => crate::sim::cli::main(args, colour),
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
    let report = check_set(&texts);
    eprint!("{}", report.render(Style { width: 80, colour }));
    if report.is_clean() { 0 } else { 1 }
}

fn run_files(ruleset: &Path, encounter: Option<&Path>, mut opts: Opts, colour: bool) -> i32 {
    let paths: Vec<&Path> = std::iter::once(ruleset).chain(encounter).collect();
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
    let (view, result) = play(&texts, &opts.run, |p| View::new(opts.jsonl, p));
    if let Some(v) = view {
        let _ = std::io::stdout().write_all(v.out().as_bytes());
    }
    let (err, code) = match result {
        Ok((_, warnings)) => (warnings, 0),
        Err(f) => (f.render(Style { width: 80, colour }), f.exit_code()),
    };
    let _ = std::io::stderr().write_all(err.as_bytes());
    code
}
