//! The command line: `turnscript check`, `turnscript run` and `turnscript repl`. Argument parsing,
//! reading files and printing only: everything else is the library API in [`crate::project`].

// Standard output and error are written through crate::output, which never panics.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufWriter, ErrorKind, IsTerminal, Stdout, Write};
use std::path::{Path, PathBuf};

mod fmt;
mod new;
mod sim;

use clap::{Parser, Subcommand, ValueEnum};

use crate::limits::{MAX_ANSWER_LINES, MAX_ANSWERS_BYTES, MAX_SOURCE_BYTES};
use crate::output::{stderr, stderrln};
use crate::project::{Parsed, RunOptions, Style, parse_answers, play_with};
use crate::source::{read_path, read_stream};
use crate::trace::{Event, JsonLines, Sink, Text, World};

#[derive(Parser, Debug)]
#[command(
    name = "turnscript",
    version,
    about = "Run the turn systems of tabletop RPGs, written as scripts",
    after_help = "Examples:\n  turnscript check rules.turn encounters/*.turn\n  turnscript run encounter.turn --seed 1 --until round=2\n  turnscript repl rules.turn --encounter encounter.turn\n  turnscript sim rules.turn --encounter encounter.turn -n 1000\n\nA FILE of `-` is standard input. Colour follows --color and NO_COLOR; diagnostics are as wide as\nthe terminal (or $COLUMNS). Exit codes: 0 success, 1 diagnostics, 2 bad arguments."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour: `auto` on a terminal unless NO_COLOR is set; `always`; `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    fn forced(self) -> Option<bool> {
        match self {
            ColorChoice::Auto => None,
            ColorChoice::Always => Some(true),
            ColorChoice::Never => Some(false),
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rulesets and encounters; exit 0 when every file is clean.
    ///
    /// Encounter files (files with characters and no `play`) are checked with the ruleset they
    /// name (`encounter "..." uses "PATH"`, read from disk if not given), else with the ruleset
    /// of the same file name when one is given, else with every ruleset given on the same
    /// command line.
    #[command(
        after_help = "Examples:\n  turnscript check rules.turn\n  turnscript check rulesets/*.turn rulesets/encounters/*.turn\n  cat rules.turn | turnscript check -"
    )]
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Say nothing on success, even on a terminal (diagnostics are still printed).
        #[arg(short, long)]
        quiet: bool,
    },
    /// Run an encounter under a ruleset and print its trace. `run ENCOUNTER` runs an encounter
    /// that names its ruleset (`uses "PATH"`) under it.
    #[command(
        after_help = "Examples:\n  turnscript run encounter.turn --seed 1 --until round=2\n  turnscript run rules.turn --encounter encounter.turn --format jsonl\n  turnscript run rules.turn --encounter encounter.turn --answers - --policy rivals=first < answers.txt\n\nWithout an encounter (and with a ruleset that declares no one) the run plays with an empty cast:\na warning says so on stderr, and the exit code is 0."
    )]
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
        /// answers only that decision; `round 2, after Cap, Ilse: interrupt` makes an attempt at
        /// a moment (see docs/language.md).
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
    #[command(
        after_help = "Examples:\n  turnscript repl rules.turn --encounter encounter.turn --seed 1\n  turnscript repl encounter.turn --color never\n  printf 'auto rivals\\ncontinue until round=3\\nshow\\n' | turnscript repl encounter.turn --no-autosave\n\nInside: `help` lists the commands; docs/repl.md has a whole fight."
    )]
    Repl {
        ruleset: Option<PathBuf>,
        /// The cast and starting situation.
        #[arg(long)]
        encounter: Option<PathBuf>,
        /// Seed of the dice stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Where every change is kept as it is made (by default
        /// `.turnscript-autosave-NAME.tsession` here, NAME the encounter's).
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// Keep no autosave.
        #[arg(long)]
        no_autosave: bool,
    },
    /// The table in a browser: the GM's page and a players' screen, on a local web server.
    ///
    /// The GM answers decisions with buttons, forces dice, makes rulings, undoes and saves, as
    /// at the REPL (the same commands, the same session files); the players' screen follows
    /// live and shows what the trace shows. Listens on 127.0.0.1 unless --host is given.
    #[command(
        after_help = "Examples:\n  turnscript serve rules.turn --encounter encounter.turn\n  turnscript serve encounter.turn --port 8080\n  turnscript serve encounter.turn --host 0.0.0.0   # phones on the table's network; the GM's URL carries a key\n\nSee docs/table.md."
    )]
    Serve {
        ruleset: Option<PathBuf>,
        /// The cast and starting situation.
        #[arg(long)]
        encounter: Option<PathBuf>,
        /// Seed of the dice stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The port (0: a free one).
        #[arg(long, default_value_t = 7878)]
        port: u16,
        /// The address to listen on (default 127.0.0.1, this machine only). Beyond loopback the
        /// GM's page needs the key its URL carries.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Where every change is kept as it is made (by default
        /// `.turnscript-autosave-NAME.tsession` here, NAME the encounter's).
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// Keep no autosave.
        #[arg(long)]
        no_autosave: bool,
    },
    /// Run many encounters under a policy, on every core, and report statistics.
    ///
    /// Iterations of each level, turns and actions per character, places in each order,
    /// resources forfeited and left, how levels and encounters end. See docs/sim.md.
    #[command(
        args_conflicts_with_subcommands = true,
        subcommand_negates_reqs = true,
        disable_help_subcommand = true,
        after_help = "Examples:\n  turnscript sim rules.turn --encounter encounter.turn -n 1000\n  turnscript sim encounter.turn -n 500 --until round=5 --format csv\n  turnscript sim encounter.turn -n 200 --plot rounds.svg\n  turnscript sim encounter.turn -n 1000000 --shard 3/16 --format json > part-3.json\n  turnscript sim merge part-*.json"
    )]
    Sim(sim::SimArgs),
    /// Print a shell completion script for turnscript to standard output.
    #[command(
        after_help = "Examples:\n  turnscript completions bash > ~/.local/share/bash-completion/completions/turnscript\n  turnscript completions zsh > ~/.zfunc/_turnscript\n  turnscript completions fish > ~/.config/fish/completions/turnscript.fish"
    )]
    Completions {
        /// The shell: bash, elvish, fish, powershell or zsh.
        shell: clap_complete::Shell,
    },
    /// Print the man page, turnscript(1), in roff to standard output.
    #[command(
        after_help = "Examples:\n  turnscript man > turnscript.1 && man ./turnscript.1\n  turnscript man | man -l -"
    )]
    Man,
    /// Format rulesets and encounters in place, in the one canonical layout; every comment kept.
    ///
    /// `--check` changes nothing and exits 1 naming the files that would change. A file that
    /// does not parse is reported and left alone.
    Fmt(fmt::FmtArgs),
    /// Write a new file from the rules: `new encounter --uses RULESET [--out FILE]`, a commented
    /// encounter template listing what each character takes under that ruleset.
    #[command(subcommand)]
    New(new::NewWhat),
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
    /// `--color`: `Some` forced, `None` auto (the REPL looks at its terminal and `NO_COLOR`).
    pub colour: Option<bool>,
}

/// What `turnscript serve` starts with (the binary hands it to the browser table).
#[derive(Debug)]
pub struct ServeArgs {
    pub ruleset: Option<PathBuf>,
    pub encounter: Option<PathBuf>,
    pub seed: u64,
    pub autosave: Option<PathBuf>,
    pub host: std::net::IpAddr,
    pub port: u16,
}

/// The front ends the binary hands in: the REPL, the language server and the browser table.
pub struct FrontEnds<R, L, S> {
    pub repl: R,
    pub lsp: L,
    pub serve: S,
}

/// Runs the command line with the front ends the binary hands in. Returns the process exit code:
/// never 0 after a failed write to standard output or error ([`crate::output`]).
pub fn main<R, L, S>(front: FrontEnds<R, L, S>) -> i32
where
    R: FnOnce(ReplArgs) -> i32,
    L: FnOnce() -> i32,
    S: FnOnce(ServeArgs) -> i32,
{
    crate::output::exit_code(command(front))
}

fn command<R, L, S>(front: FrontEnds<R, L, S>) -> i32
where
    R: FnOnce(ReplArgs) -> i32,
    L: FnOnce() -> i32,
    S: FnOnce(ServeArgs) -> i32,
{
    let FrontEnds { repl, lsp, serve } = front;
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let e = clipped(e);
            // Help and the version go to stdout (exit 0), errors to stderr (exit 2).
            return match (e.print(), e.use_stderr()) {
                (_, true) => 2,
                (Ok(()), false) => 0,
                (Err(e), false) => write_failed("to standard output", &e),
            };
        }
    };
    let colour = crate::diag::use_colour(cli.color.forced(), std::io::stderr().is_terminal());
    match cli.command {
        Command::Check { files, quiet } => {
            if let Err(e) = one_stdin(files.iter().map(PathBuf::as_path)) {
                stderr!("{e}");
                return 2;
            }
            // What was checked, on a terminal only: a script or a pipe gets the exit code alone.
            let summary = !quiet && std::io::stderr().is_terminal();
            check_files(&files, colour, summary)
        }
        Command::Repl {
            ruleset,
            encounter,
            seed,
            autosave,
            no_autosave,
        } => {
            let (ruleset, encounter, autosave) = session_files(ruleset, encounter, autosave, no_autosave);
            repl(ReplArgs {
                ruleset,
                encounter,
                seed,
                autosave,
                colour: cli.color.forced(),
            })
        }
        Command::Serve {
            ruleset,
            encounter,
            seed,
            port,
            host,
            autosave,
            no_autosave,
        } => {
            let (ruleset, encounter, autosave) = session_files(ruleset, encounter, autosave, no_autosave);
            serve(ServeArgs {
                ruleset,
                encounter,
                seed,
                autosave,
                host,
                port,
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
                stderrln!(
                    "error: --policy NAME was given {} times ({}); give it once, and SIDE=NAME for a side's or role's policy",
                    plain.len(),
                    plain
                        .iter()
                        .map(|p| crate::limits::clip(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                return 2;
            }
            let side_policies = by_side
                .iter()
                .filter_map(|p| p.split_once('='))
                .map(|(w, n)| (w.trim().to_string(), n.trim().to_string()))
                .collect();
            let given = [Some(ruleset.as_path()), encounter.as_deref(), answers.as_deref()];
            if let Err(e) = one_stdin(given.into_iter().flatten()) {
                stderr!("{e}");
                return 2;
            }
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
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            // Made in memory: clap_complete panics on a failed write.
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "turnscript", &mut out);
            match std::io::stdout().write_all(&out) {
                Ok(()) => 0,
                Err(e) => write_failed("to standard output", &e),
            }
        }
        Command::Man => {
            use clap::CommandFactory;
            let man = clap_mangen::Man::new(Cli::command());
            let mut out = Vec::new();
            match man.render(&mut out) {
                Ok(()) => match std::io::stdout().write_all(&out) {
                    Ok(()) => 0,
                    Err(e) => write_failed("to standard output", &e),
                },
                Err(e) => {
                    stderrln!("error: cannot write the man page: {e}");
                    1
                }
            }
        }
        Command::Fmt(args) => fmt::main(args, colour),
        Command::New(what) => new::main(what, colour),
        Command::Lsp => lsp(),
    }
}

/// A command-line error with the user's text it quotes (a value, an argument) cut to
/// `limits::quoted_chars`, as every quoted user text is.
fn clipped(mut e: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let context: Vec<_> = e.context().map(|(k, v)| (k, v.clone())).collect();
    for (kind, value) in context {
        let cut = match value {
            ContextValue::String(s) => ContextValue::String(crate::limits::clip(&s).into_owned()),
            ContextValue::Strings(v) => {
                ContextValue::Strings(v.iter().map(|s| crate::limits::clip(s).into_owned()).collect())
            }
            other => other,
        };
        e.insert(kind, cut);
    }
    e
}

/// `run`'s options: the library's, plus the answers file and the format.
struct Opts {
    run: RunOptions,
    answers: Option<PathBuf>,
    jsonl: bool,
}

/// Whether a path is `-`: standard input.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads a file, or standard input for `-` (read once, the same text each time it is asked for),
/// as a stream stopped at the size limit; a directory or a FIFO is refused by its type.
fn read(path: &Path) -> Result<String, String> {
    read_up_to(path, MAX_SOURCE_BYTES)
}

/// A file (or standard input, for `-`), read as a stream up to `limit` bytes. Standard input is
/// read once, up to the larger limit (an answers file's): a source read from it is then held to
/// its own limit by the parser (`syntax::too_large`).
fn read_up_to(path: &Path, limit: usize) -> Result<String, String> {
    static STDIN: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    if is_stdin(path) {
        return STDIN
            .get_or_init(|| {
                read_stream(std::io::stdin().lock(), MAX_SOURCE_BYTES.max(MAX_ANSWERS_BYTES))
                    .map_err(|e| format!("error: cannot read standard input: {e}\n"))
            })
            .clone();
    }
    read_path(path, limit).map_err(|e| format!("error: cannot read {}: {e}\n", path.display()))
}

/// The name a file has in diagnostics: its path, or `<stdin>` for `-`.
fn shown(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// `-` may stand for one file only: standard input is read once. An error (exit 2) otherwise.
fn one_stdin<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<(), String> {
    let n = paths.into_iter().filter(|p| is_stdin(p)).count();
    if n > 1 {
        return Err(format!(
            "error: `-` (standard input) was given {n} times; it can stand for one file only\n"
        ));
    }
    Ok(())
}

fn read_all(paths: &[&Path]) -> Result<Vec<(String, String)>, String> {
    paths.iter().map(|p| read(p).map(|t| (shown(p), t))).collect()
}

fn check_files(paths: &[PathBuf], colour: bool, summary: bool) -> i32 {
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let texts = match read_all(&paths) {
        Ok(t) => t,
        Err(e) => {
            stderr!("{e}");
            return 1;
        }
    };
    // The rulesets the encounters name are read in too when they were not given.
    let report = match crate::project::check_named(texts, |p| read(Path::new(p))) {
        Ok(r) => r,
        Err(e) => {
            stderr!("{e}");
            return 1;
        }
    };
    stderr!(
        "{}",
        report.render(Style {
            width: crate::diag::terminal_width(80),
            colour
        })
    );
    if summary {
        stderr!("{}", report.summary());
    }
    if report.is_clean() { 0 } else { 1 }
}

/// The ruleset and encounter a command runs: as given; or, given only an encounter that names its
/// ruleset (`uses "PATH"`), that ruleset and the encounter. With both given, a note when the
/// encounter names another ruleset than the one given (the one given is used). The encounter's
/// parse, when it was parsed to find the ruleset it names, is handed on for the command's
/// project ([`crate::project::Project::load_with`]): each file is parsed once.
pub(crate) fn resolve_pair(first: &Path, encounter: Option<&Path>) -> (PathBuf, Option<PathBuf>, Option<Parsed>) {
    find_pair(first, encounter, crate::project::named_ruleset_parsed)
}

/// [`resolve_pair`] with `named` to find the ruleset a file `(path, text)` names (and its parse).
fn find_pair(
    first: &Path,
    encounter: Option<&Path>,
    named: impl Fn(&str, &str) -> (Option<String>, Option<Parsed>),
) -> (PathBuf, Option<PathBuf>, Option<Parsed>) {
    let named = |p: &Path| match read(p) {
        Ok(t) => named(&p.display().to_string(), &t),
        Err(_) => (None, None),
    };
    match encounter {
        None => match named(first) {
            (Some(r), parsed) => (PathBuf::from(r), Some(first.to_path_buf()), parsed),
            (None, parsed) => (first.to_path_buf(), None, parsed),
        },
        Some(e) => {
            let (r, parsed) = named(e);
            if let Some(r) = r
                && !is_stdin(first)
                && !crate::project::same_file(&r, &first.display().to_string())
            {
                stderrln!(
                    "note: {} names {r} as its ruleset; playing it under {} as given",
                    e.display(),
                    first.display()
                );
            }
            (first.to_path_buf(), Some(e.to_path_buf()), parsed)
        }
    }
}

fn run_files(ruleset: &Path, encounter: Option<&Path>, mut opts: Opts, colour: bool) -> i32 {
    // `run ENCOUNTER`: an encounter that names its ruleset runs under it.
    let (ruleset, encounter, parsed) = resolve_pair(ruleset, encounter);
    let paths: Vec<&Path> = std::iter::once(ruleset.as_path()).chain(encounter.as_deref()).collect();
    let read_answers = |p: &PathBuf| {
        let text = read_up_to(p, MAX_ANSWERS_BYTES)?;
        // Counted before they are built: a file of many short lines costs no memory per line.
        let count = text
            .lines()
            .filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty())
            .count();
        if count > MAX_ANSWER_LINES {
            return Err(format!(
                "error: {} has {count} answers; the limit is {MAX_ANSWER_LINES}\n",
                shown(p)
            ));
        }
        Ok(parse_answers(&text, &shown(p)))
    };
    let texts = match read_all(&paths) {
        Ok(t) => t,
        Err(e) => {
            stderr!("{e}");
            return 1;
        }
    };
    if let Some(p) = &opts.answers {
        match read_answers(p) {
            Ok(a) => opts.run.answers = a,
            Err(e) => {
                stderr!("{e}");
                return 1;
            }
        }
    }
    // Without an encounter, a ruleset that declares no one is warned of as its run starts.
    let alone = encounter.is_none().then(|| shown(&ruleset));
    let (view, result) = play_with(&texts, parsed, &opts.run, |p| {
        if let Some(ruleset) = &alone {
            stderr!("{}", no_cast_warning(ruleset, p));
        }
        if opts.jsonl {
            Streamed::Json(JsonLines::buffered(std::io::stdout(), OUT_BUFFER))
        } else {
            Streamed::Text(Text::with_writer(
                p,
                BufWriter::with_capacity(OUT_BUFFER, std::io::stdout()),
            ))
        }
    });
    // The trace so far goes out before any error about the run.
    let written = view.map_or(Ok(()), |mut v| v.flush());
    if let Err(e) = written {
        return write_failed("the trace", &e);
    }
    let (err, code) = match result {
        Ok((_, warnings)) => (warnings, 0),
        Err(f) => (
            f.render(Style {
                width: crate::diag::terminal_width(80),
                colour,
            }),
            f.exit_code(),
        ),
    };
    stderr!("{err}");
    code
}

/// A warning when a run has no encounter and its ruleset declares no one: it plays its levels
/// with an empty cast (and so, usually, to the default round limit). The run goes on (exit 0).
/// Worked out from the built program, so a file that does not build gets its diagnostics alone
/// (a syntax error says nothing of the cast the file declares).
pub(crate) fn no_cast_warning(ruleset: &str, program: &crate::Program) -> String {
    if program.characters.iter().any(|c| c.ty == crate::check::CHARACTER) {
        return String::new();
    }
    format!(
        "warning: no encounter was given and {ruleset} declares no one: the run plays with an empty cast\n  \
         help: give the cast with --encounter FILE, or run an encounter file that names its ruleset (`uses \"PATH\"`)\n"
    )
}

/// The buffer of the trace on stdout: what a killed run may not have printed.
const OUT_BUFFER: usize = 64 * 1024;

/// The view `run` streams to stdout, [`OUT_BUFFER`] bytes at a time: JSON lines gathered by the
/// view itself (a line is not copied again into a `BufWriter`), or the GM's text through a
/// `BufWriter`. The first failed write ends the process at once (the run would go on with nowhere
/// to write): quietly, as `0`, when the reader is gone (`run ... | head`), else with the error,
/// as `1`. It holds `Stdout`, not a `StdoutLock`: the view goes to the run's thread and back,
/// which a lock guard cannot; the lock is taken once per buffer.
enum Streamed {
    Json(JsonLines<Stdout>),
    Text(Text<BufWriter<Stdout>>),
}

impl Streamed {
    /// Writes out what the view holds and flushes stdout; after a failed write, that error.
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Streamed::Json(v) => v.flush(),
            Streamed::Text(v) => v.flush(),
        }
    }
}

impl Sink for Streamed {
    fn event(&mut self, world: &World<'_>, event: &Event<'_>) {
        let error = match self {
            Streamed::Json(v) => {
                v.event(world, event);
                v.error()
            }
            Streamed::Text(v) => {
                v.event(world, event);
                v.error()
            }
        };
        if let Some(e) = error {
            std::process::exit(crate::output::exit_code(write_failed("the trace", e)));
        }
    }
}

/// Reports a failed write of `what` to stdout (a trace, a document: a closed pipe, as in
/// `run ... | head`, is no error); returns the exit code.
fn write_failed(what: &str, e: &std::io::Error) -> i32 {
    if e.kind() == ErrorKind::BrokenPipe {
        return 0;
    }
    crate::output::failed(what, e)
}

/// The files a session of the table starts on (`repl` and `serve`): `CMD ENCOUNTER` with an
/// encounter that names its ruleset opens under it; the autosave is `--autosave`, else
/// `.turnscript-autosave-NAME.tsession` here (NAME the encounter's, else the ruleset's), else
/// none with `--no-autosave`.
#[allow(clippy::type_complexity)]
fn session_files(
    ruleset: Option<PathBuf>,
    encounter: Option<PathBuf>,
    autosave: Option<PathBuf>,
    no_autosave: bool,
) -> (Option<PathBuf>, Option<PathBuf>, Option<PathBuf>) {
    let (ruleset, encounter) = match ruleset {
        Some(r) => {
            // The table parses its files itself: only the items up to a `uses` line are read
            // here, none in a file without the word.
            let up_to_uses = |p: &str, t: &str| (crate::project::named_ruleset(p, t), None);
            let (r, e, _) = find_pair(&r, encounter.as_deref(), up_to_uses);
            (Some(r), e)
        }
        None => (None, encounter),
    };
    let autosave = autosave.or_else(|| {
        let named = encounter.as_deref().or(ruleset.as_deref());
        Some(named.map_or_else(
            || PathBuf::from(".turnscript-autosave.tsession"),
            crate::table::autosave_for,
        ))
    });
    (ruleset, encounter, autosave.filter(|_| !no_autosave))
}
