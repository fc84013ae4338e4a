//! Property tests (proptest, on stable, a fixed seed so every run checks the same cases):
//! - mutations of every bundled ruleset never panic, and every diagnostic, from the parser, the
//!   checker or a run, points inside the files it is about;
//! - random sequences of REPL commands never panic, and a refused command leaves the session
//!   byte for byte as it was (its saved file before and after), and the state a session goes on
//!   to is the one loading its saved log reaches.

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use turnscript::repl::Repl;
use turnscript::runtime::on_run_stack;
use turnscript::trace::NullSink;
use turnscript::{Diag, Project, RunOptions};

const BUNDLED: &[(&str, &str)] = &[
    (
        include_str!("../rulesets/crisis-mode.turn"),
        include_str!("../rulesets/encounters/crisis-mode.turn"),
    ),
    (
        include_str!("../rulesets/flow-of-time.turn"),
        include_str!("../rulesets/encounters/flow-of-time.turn"),
    ),
    (
        include_str!("../rulesets/legacy.turn"),
        include_str!("../rulesets/encounters/legacy.turn"),
    ),
    (
        include_str!("../rulesets/legends.turn"),
        include_str!("../rulesets/encounters/legends.turn"),
    ),
    (
        include_str!("../rulesets/capes.turn"),
        include_str!("../rulesets/encounters/capes.turn"),
    ),
];

/// Pieces a mutation inserts: the language's words and punctuation, and some hostile ones.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "=",
    ":",
    ",",
    ".",
    "#",
    "\"",
    "-",
    "*",
    "/",
    "<",
    ">",
    " and ",
    " or ",
    " not ",
    "0",
    "1",
    "99999999999999999999",
    "d6",
    "2d6",
    "d0",
    "1000d1000000",
    " stat ",
    " resource ",
    " play ",
    " level ",
    " repeat ",
    " while ",
    " until ",
    " for each ",
    " in ",
    " characters ",
    " where ",
    " any ",
    " all ",
    " count ",
    " choose ",
    " option ",
    " turn ",
    " end ",
    " order ",
    " by ",
    " desc ",
    " roll ",
    " settled ",
    " action ",
    " spend ",
    " gain ",
    " reset ",
    " set ",
    " mark ",
    " create ",
    " destroy ",
    " thing ",
    " on ",
    " start ",
    " of ",
    " if ",
    " else ",
    " let ",
    " x ",
    " c ",
    " c.ap ",
    "é",
    "\n",
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..PIECES.len()).prop_map(|(a, p)| Mutation::Insert(a, p)),
        (any::<usize>(), 1usize..200).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
    ]
}

fn floor(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, m: &Mutation) -> String {
    let at = |a: usize| floor(text, a % (text.len() + 1));
    match *m {
        Mutation::Delete(a, n) => {
            let s = at(a);
            let e = floor(text, s + n);
            format!("{}{}", &text[..s], &text[e..])
        }
        Mutation::Insert(a, p) => {
            let s = at(a);
            format!("{}{}{}", &text[..s], PIECES[p], &text[s..])
        }
        Mutation::Duplicate(a, n) => {
            let s = at(a);
            let e = floor(text, s + n);
            format!("{}{}", &text[..e], &text[s..])
        }
    }
}

/// Every label of every diagnostic names a loaded file and a range inside its text.
fn spans_inside(project: &Project, diags: &[Diag]) -> Result<(), TestCaseError> {
    // Rendering never panics either, whatever the spans and lines.
    let report = project.render(diags, turnscript::Style::default());
    prop_assert!(!report.is_empty(), "a diagnostic renders to something");
    let texts: Vec<&str> = project.files().map(|(id, _)| project.sources().text(id)).collect();
    for d in diags {
        for (span, _) in &d.labels {
            let text = project.sources().text(span.file);
            prop_assert!(
                (span.file as usize) < texts.len().max(2),
                "{}: a label in file {}",
                d.code,
                span.file
            );
            prop_assert!(
                span.start <= span.end && span.end as usize <= text.len(),
                "{}: span {}..{} outside a file of {} bytes",
                d.code,
                span.start,
                span.end,
                text.len()
            );
        }
    }
    Ok(())
}

fn pipeline(ruleset: &str, encounter: &str) -> Result<(), TestCaseError> {
    let project = Project::load([("r.turn", ruleset), ("e.turn", encounter)]);
    let program = match project.compile() {
        Ok(p) => p,
        Err(diags) => {
            prop_assert!(!diags.is_empty(), "a failed build says why");
            return spans_inside(&project, &diags);
        }
    };
    let opts = RunOptions {
        max_steps: 5_000,
        ..RunOptions::default()
    };
    let Ok(mut prepared) = opts.prepare(&program) else {
        return Ok(());
    };
    let result = turnscript::runtime::run(&program, &prepared.config, &mut prepared.decider, &mut NullSink);
    if let Err(d) = result {
        spans_inside(&project, std::slice::from_ref(&d))?;
    }
    Ok(())
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(17),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn mutated_rulesets_never_panic_and_point_inside(
        which in 0..BUNDLED.len(),
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let (ruleset, encounter) = BUNDLED[which];
        let text = ms.iter().fold(ruleset.to_string(), |t, m| apply(&t, m));
        on_run_stack(|| pipeline(&text, encounter))?;
    }
}

/// Commands for the Legends example: good ones, refused ones and malformed ones.
const COMMANDS: &[&str] = &[
    "step",
    "step turn",
    "step round",
    "continue until round=2",
    "undo",
    "redo",
    "undo 3",
    "answer stay",
    "answer 1",
    "answer 99",
    "auto foes",
    "ask heroes",
    "auto all",
    "roll 3",
    "roll 13",
    "seed 5",
    "seed 99999999999999999999",
    "set Vey.fatigue = 2",
    "set Vey.nothing = 2",
    "set Nobody.fatigue = 1",
    "begin guarded on Vey for 1 counted at end of round",
    "begin guarded on Vey for -1 counted at end of round",
    "stop guarded on Vey",
    "remove Brute",
    "add character Zed { }",
    "add character Zed {",
    "show",
    "show Vey",
    "log",
    "bogus command",
    "{",
    "",
];

fn legends() -> Repl {
    match Repl::new(common::legends_repl()) {
        Ok((r, _)) => r,
        Err(e) => panic!("{e}"),
    }
}

/// The session as `save` writes it.
fn saved(repl: &mut Repl, path: &std::path::Path) -> String {
    let reply = repl.exec(&format!("save {}", path.display()));
    assert!(!reply.error, "{}", reply.out);
    std::fs::read_to_string(path).expect("the saved session reads")
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn a_refused_repl_command_changes_nothing(
        picks in prop::collection::vec(0..COMMANDS.len(), 1..10),
    ) {
        let path = std::env::temp_dir().join(format!("turnscript-prop-{}.tsession", std::process::id()));
        let outcome = on_run_stack(|| {
            let mut repl = legends();
            for &i in &picks {
                let before = saved(&mut repl, &path);
                let reply = repl.exec(COMMANDS[i]);
                if reply.error {
                    let after = saved(&mut repl, &path);
                    prop_assert_eq!(before, after, "`{}` was refused but changed the session", COMMANDS[i]);
                }
            }
            Ok(())
        });
        let _ = std::fs::remove_file(&path);
        outcome?;
    }

    /// A command goes on from where the run waits, without replaying the log: whatever the
    /// commands, loading the saved log (a replay) reaches the same trace and table.
    #[test]
    fn going_on_reaches_the_state_a_replay_reaches(
        picks in prop::collection::vec(0..COMMANDS.len(), 1..12),
    ) {
        let path = std::env::temp_dir().join(format!("turnscript-prop-live-{}.tsession", std::process::id()));
        let outcome = on_run_stack(|| {
            let mut repl = legends();
            for &i in &picks {
                repl.exec(COMMANDS[i]);
            }
            // The table without its first line, which counts what may be redone (not saved).
            let look = |repl: &mut Repl| {
                let table = repl.exec("show all 200").out.lines().skip(1).collect::<Vec<_>>().join("\n");
                (repl.exec("trace").out, table)
            };
            let live = look(&mut repl);
            saved(&mut repl, &path);
            let reply = repl.exec(&format!("load {}", path.display()));
            prop_assert!(!reply.error, "{}", reply.out);
            let replayed = look(&mut repl);
            prop_assert_eq!(live, replayed, "after {:?}", picks.iter().map(|&i| COMMANDS[i]).collect::<Vec<_>>());
            Ok(())
        });
        let _ = std::fs::remove_file(&path);
        outcome?;
    }
}
