//! What the checker refuses, and what a later file may replace: each through small inline files,
//! on the library API `turnscript check` and `turnscript run` stand on.

mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

fn file(name: &str, text: &str) -> (String, String) {
    (name.to_string(), text.to_string())
}

/// Runs files as `turnscript run` does (text view): (stdout, stderr, exit code).
fn run(files: &[(String, String)]) -> (String, String, i32) {
    run_texts(files, Vec::new(), &RunOptions::default(), false)
}

#[test]
fn an_encounter_replaces_the_rulesets_default_policy() {
    let ruleset = file(
        "r.turn",
        "policy pa { act: a }\npolicy pb { act: b }\ndefault policy pa\n\
         play { for each c in characters { choose act by c { option a  option b } } }\n",
    );
    let encounter = file("e.turn", "encounter \"e\"\ncharacter Ana { }\ndefault policy pb\n");
    let (out, err, code) = run(&[ruleset.clone(), encounter]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("choose   Ana   act        b        of a|b (policy)"), "{out}");
    // Twice in one file is refused, pointing at both.
    let twice = file("e.turn", "encounter \"e\"\ncharacter Ana { }\ndefault policy pb\ndefault policy pa\n");
    let (report, clean) = check_texts(&[ruleset, twice]);
    assert!(!clean);
    assert!(report.contains("`default policy` is given twice in this file"), "{report}");
}
