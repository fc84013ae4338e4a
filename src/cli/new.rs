//! `turnscript new encounter --uses RULESET [--out FILE] [--force]`: reading the ruleset and
//! writing the template [`crate::template::encounter_template`] builds.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::output::{stderr, stderrln};
use crate::project::{Style, check_set};
use crate::template::{encounter_template, relative_path, write_new};

#[derive(Subcommand, Debug)]
pub enum NewWhat {
    /// Write a commented encounter template for a ruleset: `uses`, the sides, one example
    /// character per side with every field it takes (type, default, the ruleset's comment), the
    /// tags, the ruleset's options (params) and a group line. It checks clean and runs as written.
    #[command(
        after_help = "Examples:\n  turnscript new encounter --uses rulesets/library/NAME.turn --out goblins.turn\n  turnscript new encounter --uses rules.turn > fight.turn\n  turnscript new encounter --uses rules.turn --out fight.turn --force\n\nThen: turnscript repl goblins.turn (`auto SIDE` lets the policy play the side the GM plays; `answer` the rest)."
    )]
    Encounter(EncounterArgs),
}

#[derive(Args, Debug)]
pub struct EncounterArgs {
    /// The ruleset the encounter is played under (a file, not `-`).
    #[arg(long)]
    uses: PathBuf,
    /// Where to write the template; `-` or none prints it. The `uses` path is written from the
    /// file's folder (from the current folder when printed).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace FILE when it exists (without it an existing file is never overwritten).
    #[arg(long)]
    force: bool,
}

/// Runs `new`; returns the exit code: 0, 1 when the ruleset cannot be read or has errors or the
/// file cannot be written, 2 for arguments that cannot work.
pub fn main(what: NewWhat, colour: bool) -> i32 {
    let NewWhat::Encounter(args) = what;
    if super::is_stdin(&args.uses) {
        stderrln!("error: --uses names the ruleset's file: the encounter reaches it by its path, so `-` cannot serve");
        return 2;
    }
    let text = match super::read(&args.uses) {
        Ok(t) => t,
        Err(e) => {
            stderr!("{e}");
            return 1;
        }
    };
    let name = args.uses.display().to_string();
    let report = check_set(&[(name.clone(), text.clone())]);
    if !report.is_clean() {
        stderr!(
            "{}",
            report.render(Style {
                colour,
                ..Style::default()
            })
        );
        stderrln!("error: {name} has errors: no template is written");
        return 1;
    }
    let out = args.out.filter(|o| !super::is_stdin(o));
    let folder = match &out {
        Some(o) => o
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
        None => PathBuf::from("."),
    };
    let title = out
        .as_ref()
        .and_then(|o| o.file_stem())
        .map_or_else(|| "New encounter".to_string(), |s| s.to_string_lossy().into_owned());
    let template = match encounter_template(&text, &relative_path(&folder, &args.uses), &title) {
        Ok(t) => t,
        // Checked clean above, so it parses; said all the same rather than assumed.
        Err(diags) => {
            stderrln!("error: {name} does not parse ({} syntax errors)", diags.len());
            return 1;
        }
    };
    match out {
        None => match std::io::stdout().write_all(template.as_bytes()) {
            Ok(()) => 0,
            Err(e) => super::write_failed("to standard output", &e),
        },
        Some(path) => match write_new(&path, &template, args.force) {
            Ok(()) => {
                stderrln!(
                    "wrote {}: try `turnscript check {0}` and `turnscript repl {0}`",
                    path.display()
                );
                0
            }
            Err(e) => {
                stderrln!("error: {e}");
                1
            }
        },
    }
}
