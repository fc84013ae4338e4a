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
    assert!(
        out.contains("choose   Ana   act        b        of a|b (policy)"),
        "{out}"
    );
    // Twice in one file is refused, pointing at both.
    let twice = file(
        "e.turn",
        "encounter \"e\"\ncharacter Ana { }\ndefault policy pb\ndefault policy pa\n",
    );
    let (report, clean) = check_texts(&[ruleset, twice]);
    assert!(!clean);
    assert!(
        report.contains("`default policy` is given twice in this file"),
        "{report}"
    );
}

#[test]
fn no_variable_takes_a_declared_name() {
    let head = "global doom default 0\nparam bonus = 5\nstat hp default 1\nside heroes\ntag big\n\
                order quick(c) { c.hp desc }\ntrigger hit(c)\ncharacter Ana { }\nsetup { }\n";
    let bodies = [
        ("let", "play { let doom = 7 }"),
        ("for each", "play { for each bonus in characters { } }"),
        ("quantifier", "play { if any hp in characters: hp.hp > 0 { } }"),
        (
            "choose from",
            "play { choose pick by (Ana) from heroes in characters { } }",
        ),
        ("create as", "thing die, dice { }\nplay { create die as big }"),
        ("hook", "on hit(quick) { }"),
        ("routine", "routine r(Ana) { }"),
        ("action", "action act(doom) costs 0 hp"),
        ("order", "order slow(bonus) { bonus.hp asc }"),
        ("forbid", "forbid jump(heroes) because \"no\""),
    ];
    for (what, body) in bodies {
        let (report, clean) = check_texts(&[file("t.turn", &format!("{head}{body}\n"))]);
        assert!(!clean, "{what}: accepted");
        assert!(report.contains("check::shadow"), "{what}: {report}");
    }
    // A variable may hide another, and a param's arguments may take any name.
    let fine = format!(
        "{head}param plus(bonus) = bonus + 1\n\
         play {{ for each c in characters {{ for each c in characters {{ set c.hp = plus(1) }} }} }}\n"
    );
    let (report, clean) = check_texts(&[file("t.turn", &fine)]);
    assert!(clean, "{report}");
}

#[test]
fn a_let_named_like_a_global_was_read_as_the_let_but_changed_the_global() {
    let src = "global doom default 0\nstat seen default 0\ncharacter Ana { }\n\
               play { let doom = 7  gain 1 doom  set (Ana).seen = doom }\n";
    let (_, err, code) = run(&[file("t.turn", src)]);
    assert_eq!(code, 1);
    assert!(err.contains("the variable `doom` takes the name of a global"), "{err}");
}

/// `turnscript check` and `turnscript run` agree: what `run` refuses, `check` refuses with the
/// same diagnostic.
#[test]
fn a_file_with_a_ruleset_line_is_checked_as_a_ruleset_even_without_play() {
    let src = "ruleset \"decimals\"\nresource move decimals 1 min 0 max 9.5\ncharacter Ana { move = 9.99 }\n";
    let files = [file("t.turn", src)];
    let (_, err, code) = run(&files);
    assert_eq!(code, 1);
    let (report, clean) = check_texts(&files);
    assert!(!clean, "{report}");
    assert!(err.contains(&report), "run:\n{err}\ncheck:\n{report}");
    // Without the `ruleset` line (and without `play`) it is still an encounter, only parsed.
    let encounter = [file("t.turn", &src.replace("ruleset \"decimals\"\n", ""))];
    let (report, clean) = check_texts(&encounter);
    assert!(clean && report.contains("only parsed"), "{report}");
}

#[test]
fn an_encounter_that_uses_itself_is_refused_by_check_as_by_run() {
    let src = "encounter \"self\" uses \"self.turn\"\ncharacter Ana { }\n";
    let (report, clean) = check_texts(&[file("cases/self.turn", src)]);
    assert!(!clean, "{report}");
    assert!(report.contains("check::uses"), "{report}");
    assert!(
        report.contains("this encounter names its own file as its ruleset"),
        "{report}"
    );
    // `turnscript run cases/self.turn` loads it as its own ruleset, then as the encounter.
    let twice = [file("cases/self.turn", src), file("cases/self.turn", src)];
    let (_, err, code) = run(&twice);
    assert_eq!(code, 1);
    assert_eq!(err, report, "run and check say the same");
    // A `uses` naming another file is not this error.
    let other = src.replace("self.turn\"", "rules.turn\"");
    let (report, _) = check_texts(&[file("cases/self.turn", &other)]);
    assert!(!report.contains("check::uses"), "{report}");
}

#[test]
fn limits_are_worked_out_by_the_checker_with_the_params_in_force() {
    let ruleset = file(
        "r.turn",
        "param hard = false\nparam top = if hard then 2 else 6\nparam floor = 3\n\
         resource ap decimals 1 min highest(floor, 1) / 2 max top - 0.5\n\
         play { for each c in characters { gain 9 c.ap } }\n",
    );
    let cast = file("e.turn", "encounter \"e\"\ncharacter Ana { ap = 2 }\n");
    let (out, err, code) = run(&[ruleset.clone(), cast.clone()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gain     Ana   ap         +3.5 → 5.5"), "{out}");
    // An encounter that switches `hard` on and raises `floor`: min 2, max 1.5, refused.
    let hard = file(
        "e.turn",
        "encounter \"e\"\nparam hard = true\nparam floor = 4\ncharacter Ana { ap = 2 }\n",
    );
    let (report, clean) = check_texts(&[ruleset.clone(), hard]);
    assert!(!clean);
    assert!(report.contains("`ap` has a `min` above its `max`"), "{report}");
    assert!(report.contains("min 2") && report.contains("max 1.5"), "{report}");
    // A limit that reads the state would be read before anything has its value.
    let reads = file("r.turn", "global g default 5\nresource r min 0 max g\nsetup { }\n");
    let (report, clean) = check_texts(&[reads]);
    assert!(!clean);
    assert!(report.contains("check::limits"), "{report}");
}

#[test]
fn control_characters_are_refused_and_never_printed_raw() {
    let src = "ruleset \"esc\"\ncharacter \"Ana\u{1b}[2J\u{1b}[31mEVIL\" { }\n\
               play { for each c in characters { turn c { } } }\n";
    let files = [file("t.turn", src)];
    let (out, err, code) = run(&files);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("syntax::character") && !err.contains('\u{1b}'), "{err:?}");
    let (report, clean) = check_texts(&files);
    assert!(!clean);
    assert_eq!(report, err, "check and run say the same");
    // An answer is not a source file: one holding an escape is quoted harmlessly.
    let fine = [file(
        "t.turn",
        "character Ana { }\nplay { choose act by (Ana) { option a  option b } }\n",
    )];
    let answers = vec![("\u{1b}[2Jb".to_string(), "answers:1".to_string())];
    let (_, err, code) = run_texts(&fine, answers, &RunOptions::default(), false);
    assert_eq!(code, 1);
    assert!(err.contains("run::bad_answer") && !err.contains('\u{1b}'), "{err:?}");
}
