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

/// A side's fields start side by side, each in declaration order, after the globals: a start that
/// reads a side's field not worked out yet (a later field, a later side's, or any from a global's
/// start) stops the run with `run::not_set`, never a 0 it does not have. Found reviewing issue
/// 26: `heroes a = 0`, and a resource started below its own `min`.
#[test]
fn a_sides_start_that_reads_a_side_field_not_started_yet_is_not_set() {
    for (src, field) in [
        (
            "side heroes, foes { stat a default foes.b  stat b default 5 }\nplay { }\n",
            "foes's `b`",
        ),
        (
            "side heroes, foes { stat b default 5 }\nglobal g default heroes.b\nplay { }\n",
            "heroes's `b`",
        ),
        (
            "side heroes, foes { resource momentum(s) min s.floor max 10  stat floor default 2 }\nplay { }\n",
            "heroes's `floor`",
        ),
    ] {
        let (out, err, code) = run(src, None);
        assert_ne!(code, 0, "{src}\n{out}");
        assert!(err.contains("run::not_set"), "{src}\n{err}");
        assert!(err.contains(&format!("{field} has no value yet")), "{src}\n{err}");
    }
    // Read in the order they start, they hold their values.
    let (out, err, code) = run(
        "side heroes, foes { stat b default 5  stat a default heroes.b + 1  resource m(s) min s.b max 10 }\nplay { }\n",
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final    heroes  b = 5, a = 6, m = 5"), "{out}");
}
