// A global's start (issue 26, family 4): worked out in declaration order, an encounter's start
// where the ruleset declares the global. A start that reads a global with no start yet (itself,
// or one declared later) stops the run with `run::not_set`, never a 0 it does not have.

use crate::common::run_texts;
use turnscript::RunOptions;

fn run(ruleset: &str, encounter: Option<&str>) -> (String, String, i32) {
    let mut files = vec![("g.turn".to_string(), ruleset.to_string())];
    if let Some(e) = encounter {
        files.push(("e.turn".to_string(), e.to_string()));
    }
    run_texts(&files, Vec::new(), &RunOptions::default(), false)
}

const RULES: &str = "ruleset \"g\"\nglobal doom default 2 max 10\nglobal dread default doom * 2\nplay { }\n";

#[test]
fn a_globals_start_reads_the_globals_declared_before_it() {
    let (out, err, code) = run(RULES, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          doom = 2, dread = 4"), "{out}");
    let (out, err, code) = run(RULES, Some("encounter \"e\" uses \"g\"\nglobal doom default 3\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          doom = 3, dread = 6"), "{out}");
}

#[test]
fn an_encounters_start_that_reads_its_own_global_is_not_set() {
    let (out, err, code) = run(
        RULES,
        Some("encounter \"e\" uses \"g\"\nglobal doom default doom + 1\n"),
    );
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::not_set"), "{err}");
    assert!(err.contains("`doom` has no value yet"), "{err}");
}

#[test]
fn a_globals_start_that_reads_a_later_global_is_not_set() {
    let (out, err, code) = run(
        "ruleset \"g\"\nglobal a default b + 1\nglobal b default 5\nplay { }\n",
        None,
    );
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::not_set"), "{err}");
    assert!(err.contains("`b` has no value yet"), "{err}");
    // A global with no `default` is 0 from the start, and may be read.
    let (out, err, code) = run("ruleset \"g\"\nglobal a default b + 1\nglobal b\nplay { }\n", None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          a = 1, b = 0"), "{out}");
}
