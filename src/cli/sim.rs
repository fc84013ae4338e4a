//! `turnscript sim`: its arguments, and reading, printing and exit codes around
//! [`crate::sim::simulate`]; `turnscript sim merge` around [`crate::sim::merge::merge`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use crate::output::{stderr, stderrln};
use crate::project::{Project, Style};
use crate::sim::{Format, Report, Shard, SimError, SimOptions, simulate};

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(subcommand)]
    command: Option<SimCommand>,
    #[arg(required = true)]
    ruleset: Option<PathBuf>,
    /// The cast and starting situation.
    #[arg(long)]
    encounter: Option<PathBuf>,
    /// How many encounters to run.
    #[arg(short = 'n', long = "encounters", required = true, value_parser = clap::value_parser!(u64).range(1..))]
    n: Option<u64>,
    /// Run only the I-th of K parts of the encounters (1 ≤ I ≤ K), each with its seed in the
    /// whole run; `sim merge` adds up the parts' JSON reports (see docs/sim.md).
    #[arg(long, value_name = "I/K", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Seed the encounters' seeds are derived from (see docs/sim.md).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Who decides: `first`, `random`, or a policy of the ruleset (default: the ruleset's).
    #[arg(long)]
    policy: Option<String>,
    /// Worker threads (default: one per core; never more than the cores). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Report format.
    #[arg(long, value_enum, default_value_t = SimFormat::Text)]
    format: SimFormat,
    /// Also draw the distributions (iterations per encounter, measures) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Stop each encounter after the N-th iteration of a level: round=3
    #[arg(long)]
    until: Option<String>,
    /// Step budget of each encounter.
    #[arg(long, default_value_t = crate::limits::DEFAULT_MAX_STEPS)]
    max_steps: u64,
}

#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Add up the JSON reports of `sim --shard I/K` into the report of the whole run.
    ///
    /// Prints exactly what `sim` without `--shard` prints, in any format. Refuses reports of
    /// different runs (program, -n, seed, policy, --until, --max-steps, number of shards), a
    /// shard given twice or missing.
    #[command(
        after_help = "Examples:\n  turnscript sim encounter.turn -n 1000000 --shard 1/2 --format json > part-1.json\n  turnscript sim encounter.turn -n 1000000 --shard 2/2 --format json > part-2.json\n  turnscript sim merge part-*.json\n  turnscript sim merge part-*.json --format csv\n\nSee docs/sim.md."
    )]
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' JSON reports (`sim --shard I/K --format json`), in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = SimFormat::Text)]
    format: SimFormat,
    /// Also draw the distributions (iterations per encounter, measures) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum SimFormat {
    Text,
    Json,
    Csv,
}

/// Runs `turnscript sim`; returns the exit code: 0, 1 when the files do not build or a run
/// failed (the report is printed all the same), 2 for options the ruleset cannot honour.
pub fn main(args: SimArgs, colour: bool) -> i32 {
    if let Some(SimCommand::Merge(m)) = args.command {
        return merge(m, colour);
    }
    // clap requires both without a subcommand.
    let (Some(ruleset), Some(n)) = (args.ruleset.as_deref(), args.n) else {
        stderrln!("error: give the ruleset and -n N (or `sim merge FILE...`)");
        return 2;
    };
    let mut texts = Vec::new();
    // `sim ENCOUNTER`: an encounter that names its ruleset plays under it.
    let (ruleset, encounter, parsed) = super::resolve_pair(ruleset, args.encounter.as_deref());
    for path in std::iter::once(&ruleset).chain(&encounter) {
        match super::read(path) {
            Ok(t) => texts.push((super::shown(path), t)),
            Err(e) => {
                stderr!("{e}");
                return 1;
            }
        }
    }
    let style = Style {
        width: crate::diag::terminal_width(80),
        colour,
    };
    let project = Project::load_with(texts.clone(), parsed);
    let program = match project.compile() {
        Ok(p) => p,
        Err(d) => {
            stderr!("{}", project.render(&d, style));
            return 1;
        }
    };
    if encounter.is_none() {
        stderr!("{}", super::no_cast_warning(&super::shown(&ruleset), &program));
    }
    let opts = SimOptions {
        n,
        seed: args.seed,
        policy: args.policy,
        until: args.until,
        max_steps: args.max_steps,
        threads: args.threads,
        shard: args.shard,
    };
    let range = opts.encounters();
    let n = range.end - range.start;
    if let Some(note) = crate::sim::workers(opts.threads, n).note {
        stderrln!("note: {note}");
    }
    let terminal = std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    let mut show = |done: u64| {
        stderr!("\r{}\x1b[K", progress_line(done, n, started.elapsed().as_secs_f64()));
        let _ = std::io::stderr().flush();
    };
    let progress: Option<&mut dyn FnMut(u64)> = if terminal { Some(&mut show) } else { None };
    let outcome = match simulate(&program, &opts, progress) {
        Ok(o) => o,
        Err(e) => {
            stderr!("{e}");
            return match e {
                SimError::Setup(_) => 2,
                SimError::Threads(_) => 1,
            };
        }
    };
    if terminal {
        stderr!("\r\x1b[K");
    }
    // The first failure is rendered without colour: it is part of the report.
    let mut report = Report::new(&program, &opts, &outcome.stats, |d| {
        project.render(std::slice::from_ref(d), Style::default())
    });
    report.files = texts.iter().map(|t| t.0.clone()).collect();
    if opts.shard.is_some() {
        report.shard_json = Some(crate::sim::shard::document(&texts, &opts, &outcome.stats));
    }
    if let Some(code) = print(&report, args.format, args.plot.as_deref()) {
        return code;
    }
    let secs = outcome.elapsed.as_secs_f64().max(1e-9);
    stderrln!(
        "{} encounters, {} steps in {:.3} s on {} thread{}: {:.0} encounters/s, {:.0} steps/s",
        report.runs,
        report.steps,
        secs,
        outcome.threads,
        if outcome.threads == 1 { "" } else { "s" },
        report.runs as f64 / secs,
        report.steps as f64 / secs
    );
    if report.failed() > 0 { 1 } else { 0 }
}

/// Prints the report in `format` and draws its plot; `Some(1)` when either fails.
fn print(report: &Report, format: SimFormat, plot: Option<&std::path::Path>) -> Option<i32> {
    let format = match format {
        SimFormat::Text => Format::Text,
        SimFormat::Json => Format::Json,
        SimFormat::Csv => Format::Csv,
    };
    // The report is what was asked for: a failed write of it is an error (a closed pipe, as in
    // `sim ... | head`, is not).
    let written = std::io::stdout()
        .lock()
        .write_all(report.render(format).as_bytes())
        .and_then(|()| std::io::stdout().flush());
    if let Err(e) = written
        && super::write_failed("the report", &e) != 0
    {
        return Some(1);
    }
    if let Some(path) = plot {
        let written = crate::sim::plot::svg(report).and_then(|svg| {
            crate::files::write_whole(path, &svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        if let Err(e) = written {
            stderrln!("error: {e}");
            return Some(1);
        }
    }
    None
}

/// Runs `turnscript sim merge`: 0, or 1 when a report cannot be read or merged, or a run failed
/// (the report is printed all the same).
fn merge(args: MergeArgs, colour: bool) -> i32 {
    let mut texts = Vec::new();
    for path in &args.files {
        match super::read_up_to(path, crate::limits::MAX_SIM_REPORT_BYTES) {
            Ok(t) => texts.push((super::shown(path), t)),
            Err(e) => {
                stderr!("{e}");
                return 1;
            }
        }
    }
    let style = Style {
        width: crate::diag::terminal_width(80),
        colour,
    };
    let merged = match crate::sim::merge::merge(texts) {
        Ok(m) => m,
        Err(e) => {
            stderr!("{}", e.render(style));
            return 1;
        }
    };
    let mut report = Report::new(&merged.program, &merged.opts, &merged.stats, |d| {
        merged.project.render(std::slice::from_ref(d), Style::default())
    });
    // The files as shard 1 named them.
    report.files = merged.files.clone();
    if let Some(code) = print(&report, args.format, args.plot.as_deref()) {
        return code;
    }
    if report.failed() > 0 { 1 } else { 0 }
}

/// The progress bar on a terminal: `[#####-----] 734/1000 encounters · 2851/s · 0:03 left`.
fn progress_line(done: u64, n: u64, secs: f64) -> String {
    const WIDTH: u64 = 30;
    let filled = (done.min(n) * WIDTH).checked_div(n).unwrap_or(0) as usize;
    let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH as usize - filled));
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let left = if done == 0 || rate <= 0.0 {
        "--:--".to_string()
    } else {
        let s = ((n - done.min(n)) as f64 / rate).ceil() as u64;
        format!("{}:{:02}", s / 60, s % 60)
    };
    format!("[{bar}] {done}/{n} encounters · {rate:.0}/s · {left} left")
}

#[cfg(test)]
mod tests {
    use super::progress_line;

    #[test]
    fn the_progress_line_shows_the_share_done_the_rate_and_the_time_left() {
        assert_eq!(
            progress_line(0, 1000, 0.0),
            format!("[{}] 0/1000 encounters · 0/s · --:-- left", "-".repeat(30))
        );
        // 250 in 2 s: 125/s, 750 to go: 6 s.
        assert_eq!(
            progress_line(250, 1000, 2.0),
            format!(
                "[{}{}] 250/1000 encounters · 125/s · 0:06 left",
                "#".repeat(7),
                "-".repeat(23)
            )
        );
        assert_eq!(
            progress_line(1000, 1000, 125.0),
            format!("[{}] 1000/1000 encounters · 8/s · 0:00 left", "#".repeat(30))
        );
    }
}
