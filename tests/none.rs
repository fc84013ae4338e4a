//! `none` and characters that have not joined yet are never read as someone else (issue 24).
//!
//! Every expression form and every statement that takes an entity is tried with `none` and with
//! a never-joined character as its operand. Each either gives the value the docs define for it,
//! or stops the run with `run::none` / `run::not_joined` pointing at the expression that read it.

use turnscript::project::{Failure, RunOptions, Style, View, play};

/// The ruleset every probe runs in: `x` is a global that holds `none`; `A` is in play; `B` has
/// not joined yet, with a plain `speed` and a rolled `hp` and `res`.
const BASE: &str = r#"ruleset "probe"
side heroes, foes
tag big
stat hp default 5
stat speed default 3
stat target: character
resource res min 0
flag marked
effect dazed
trigger poked(a)
on poked(a) { gain 1 a.res }
order o(c) { c.speed desc }
global x: character
routine touch(c) { gain 1 c.res }
param hp_of(c: character) = c.hp
character A { side heroes, tag big, hp = 4, res = 2 }
character B { side foes, absent, speed = 9, hp = d6, res = d4 }
setup { rank o }
"#;

/// What a probe must do.
#[derive(Clone, Debug)]
enum Expect {
    /// The run ends `end of encounter: yes`.
    Yes,
    /// The run stops with this error code, its label on this text of the probe.
    Error(&'static str, &'static str),
}
use Expect::*;

/// Runs `play { BODY }` under [`BASE`] with forced rolls: the text trace, or the failure.
fn probe(body: &str, rolls: &[i64]) -> (String, Result<(), (String, String, String)>) {
    let src = format!("{BASE}play {{\n{body}\n}}\n");
    let files = vec![("probe.turn".to_string(), src.clone())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    let (view, result) = play(&files, &opts, |p| View::new(false, p));
    let out = view.map(|v| v.out().to_string()).unwrap_or_default();
    match result {
        Ok(_) => (out, Ok(())),
        Err(Failure::Run(project, d)) => {
            let span = d.span().expect("a run error points somewhere");
            let at = src
                .get(span.start as usize..span.end as usize)
                .unwrap_or("?")
                .to_string();
            let report = project.render(std::slice::from_ref(&d), Style::default());
            (out, Err((d.code.to_string(), at, report)))
        }
        Err(f) => panic!("probe `{body}` did not build:\n{}", f.render(Style::default())),
    }
}

/// What is wrong with a probe's outcome, if anything.
fn wrong(body: &str, rolls: &[i64], expect: &Expect) -> Option<String> {
    let (out, result) = probe(body, rolls);
    match (expect, result) {
        (Yes, Ok(())) if out.contains("end of encounter: yes\n") => None,
        (Error(code, text), Err((c, at, report))) if (c.as_str(), at.as_str()) == (*code, *text) => {
            (!report.contains("help:")).then(|| format!("`{body}`: no help\n{report}"))
        }
        (_, Err((c, at, report))) => Some(format!("`{body}` should be {expect:?}, was {c} at `{at}`\n{report}")),
        (_, Ok(())) => Some(format!("`{body}` should be {expect:?}, ran:\n{out}")),
    }
}

/// Every probe of a table, all reported at once.
fn assert_all(cases: &[(String, Expect)], rolls: &[i64]) {
    let wrongs: Vec<String> = cases.iter().filter_map(|(b, e)| wrong(b, rolls, e)).collect();
    assert!(
        wrongs.is_empty(),
        "{} of {} probes wrong:\n{}",
        wrongs.len(),
        cases.len(),
        wrongs.join("\n")
    );
}

fn assert_probe(body: &str, rolls: &[i64], expect: &Expect) {
    if let Some(w) = wrong(body, rolls, expect) {
        panic!("{w}");
    }
}

/// An expression as a condition: the run ends "yes" when it holds, "no" when it does not.
fn cond(e: &str) -> String {
    format!("if {e} {{ end encounter because \"yes\" }}\nend encounter because \"no\"")
}

#[test]
fn none_is_a_side_is_an_error_not_the_first_character() {
    // Issue 24, item 1: with no cast this panicked (index out of bounds); with a cast `none is
    // heroes` read the first character.
    let src = "ruleset \"none is\"\nside heroes, foes\nglobal up: character\nplay {\n  if up is heroes { end encounter because \"none counted as a hero\" }\n  end encounter because \"none is not a hero\"\n}\n";
    for cast in ["", "character Ana { side heroes }\n"] {
        let files = vec![("r.turn".to_string(), format!("{src}{cast}"))];
        let (_, result) = play(&files, &RunOptions::default(), |p| View::new(false, p));
        match result {
            Err(Failure::Run(_, d)) => assert_eq!(d.code, "run::none", "cast {cast:?}"),
            Err(f) => panic!("{}", f.render(Style::default())),
            Ok(_) => panic!("`none is heroes` must not be read as a character (cast {cast:?})"),
        }
    }
}

#[test]
fn every_expression_form_with_none() {
    let cases: &[(&str, Expect)] = &[
        ("x.hp > 0", Error("run::none", "x.hp")),
        ("(x).hp > 0", Error("run::none", "(x).hp")),
        ("x.target == none", Error("run::none", "x.target")),
        ("x.marked", Error("run::none", "x.marked")),
        ("x.dazed", Error("run::none", "x.dazed")),
        ("x.side == heroes", Error("run::none", "x.side")),
        ("x is heroes", Error("run::none", "x is heroes")),
        ("x is big", Error("run::none", "x is big")),
        ("not (x is big)", Error("run::none", "(x is big)")),
        ("hp_of(x) > 0", Error("run::none", "c.hp")),
        ("x == none", Yes),
        ("x != A", Yes),
        ("not (x == A)", Yes),
        ("below(x, o) == none", Yes),
        ("position(x, o) == 0", Yes),
        ("next(x, o) == none", Yes),
        ("previous(x, o) == none", Yes),
        ("(if x == none then 1 else x.hp) == 1", Yes),
        ("x == none or x.hp > 0", Yes),
        ("not (any c in characters: c == x)", Yes),
        ("(first c in characters where c == x) == none", Yes),
        ("(last c in characters where c == x) == none", Yes),
        ("(count c in characters where c.target == x) == 1", Yes),
        (
            "(first c in characters where c == x).hp > 0",
            Error("run::none", "(first c in characters where c == x).hp"),
        ),
        ("below(x, o).hp > 0", Error("run::none", "below(x, o).hp")),
        ("next(x, o).side == heroes", Error("run::none", "next(x, o).side")),
    ];
    let cases: Vec<(String, Expect)> = cases.iter().map(|(e, x)| (cond(e), x.clone())).collect();
    assert_all(&cases, &[]);
}

#[test]
fn every_statement_that_takes_an_entity_with_none() {
    let cases: &[(&str, Expect)] = &[
        ("turn x { }", Error("run::none", "turn x { }")),
        ("react x { }", Error("run::none", "x")),
        ("gain 1 x.res", Error("run::none", "gain 1 x.res")),
        ("spend 1 x.res", Error("run::none", "spend 1 x.res")),
        ("spend all x.res", Error("run::none", "spend all x.res")),
        ("reset x.res to 1", Error("run::none", "reset x.res to 1")),
        ("forfeit x.res", Error("run::none", "x.res")),
        ("set x.hp = 1", Error("run::none", "set x.hp = 1")),
        ("mark x.marked", Error("run::none", "x.marked")),
        ("clear x.marked", Error("run::none", "x.marked")),
        (
            "transfer 1 from A.res to x.res",
            Error("run::none", "transfer 1 from A.res to x.res"),
        ),
        (
            "transfer 1 from x.res to A.res",
            Error("run::none", "transfer 1 from x.res to A.res"),
        ),
        (
            "begin dazed on x for 1 counted at start of turn(A)",
            Error("run::none", "begin dazed on x for 1 counted at start of turn(A)"),
        ),
        (
            "begin dazed on A for 1 counted at start of turn(x)",
            Error("run::none", "begin dazed on A for 1 counted at start of turn(x)"),
        ),
        (
            "begin dazed on A for 1 counted at end of turn(x)",
            Error("run::none", "begin dazed on A for 1 counted at end of turn(x)"),
        ),
        (
            "begin dazed on A for 1 counted at place of x in o",
            Error("run::none", "begin dazed on A for 1 counted at place of x in o"),
        ),
        ("stop dazed on x", Error("run::none", "stop dazed on x")),
        ("place x first in o", Error("run::none", "place x first in o")),
        ("place A after x in o", Error("run::none", "place A after x in o")),
        ("swap x with A in o", Error("run::none", "swap x with A in o")),
        ("swap A with x in o", Error("run::none", "swap A with x in o")),
        ("join x", Error("run::none", "join x")),
        ("leave x", Error("run::none", "leave x")),
        ("raise poked(x)", Error("run::none", "gain 1 a.res")),
        ("do touch(x)", Error("run::none", "gain 1 c.res")),
        (
            "choose pick by x { option one }",
            Error("run::none", "choose pick by x"),
        ),
        (
            "for each c in o from x { }",
            Error("run::none", "for each c in o from x { }"),
        ),
        // Binding `none` is no read: a let or a routine's argument may hold it.
        ("let y = x\nif y == none { end encounter because \"yes\" }", Yes),
    ];
    let cases: Vec<(String, Expect)> = cases
        .iter()
        .map(|(s, x)| (format!("{s}\nend encounter because \"ran on\""), x.clone()))
        .collect();
    assert_all(&cases, &[]);
}

#[test]
fn a_character_not_yet_joined_holds_its_plain_values() {
    // Issue 24, item 2: `B.speed` read 0 and `B.target` the first character.
    let cases: &[(&str, Expect)] = &[
        ("B.speed == 9", Yes),
        ("B.target == none", Yes),
        ("B is foes", Yes),
        ("B.side == foes", Yes),
        ("not B.marked", Yes),
        ("B.hp > 0", Error("run::not_joined", "B.hp")),
        ("(any c in characters: c == B) == false", Yes),
        ("position(B, o) == 0", Yes),
    ];
    let mut all: Vec<(String, Expect)> = cases.iter().map(|(e, x)| (cond(e), x.clone())).collect();
    let statements: &[(&str, Expect)] = &[
        ("gain 1 B.res", Error("run::not_joined", "gain 1 B.res")),
        ("spend 1 B.res", Error("run::not_joined", "spend 1 B.res")),
        ("spend all B.res", Error("run::not_joined", "B.res")),
        ("forfeit B.res", Error("run::not_joined", "B.res")),
        (
            "transfer 1 from B.res to A.res",
            Error("run::not_joined", "transfer 1 from B.res to A.res"),
        ),
        (
            "transfer 1 from A.res to B.res",
            Error("run::not_joined", "transfer 1 from A.res to B.res"),
        ),
    ];
    all.extend(statements.iter().map(|(s, x)| (s.to_string(), x.clone())));
    assert_all(&all, &[]);
}

#[test]
fn joining_works_out_the_pending_fields_and_keeps_what_rules_set() {
    // The rolled fields are rolled at the join, in declaration order (hp, then res).
    assert_probe(
        &format!("join B\n{}", cond("B.hp == 4 and B.res == 3 and B.speed == 9")),
        &[4, 3],
        &Yes,
    );
    // A value a rule set before the join is kept: nothing is rolled for it.
    let (out, r) = probe(
        &format!(
            "set B.hp = 2\nreset B.res to 1\njoin B\n{}",
            cond("B.hp == 2 and B.res == 1")
        ),
        &[],
    );
    assert_eq!(r, Ok(()));
    assert!(out.contains("end of encounter: yes\n"), "{out}");
    assert!(!out.contains("roll "), "nothing left to roll at the join:\n{out}");
}

#[test]
fn the_final_state_leaves_out_what_a_never_joined_character_has_not_got() {
    let (out, r) = probe("end encounter because \"over\"", &[]);
    assert_eq!(r, Ok(()));
    let finals: Vec<&str> = out.lines().filter(|l| l.starts_with("final")).collect();
    assert_eq!(
        finals,
        vec![
            "final          x = none",
            "final    A     hp = 4, speed = 3, target = none, res = 2, marked = 0, dazed = 0",
            "final    B     (out of play) speed = 9, target = none, marked = 0, dazed = 0",
        ],
        "{out}"
    );
}

#[test]
fn a_trigger_raised_with_none_is_traced_with_none_not_the_table() {
    // Explorer's F7: `raise moved(none)` was traced `moved(the table)`, as a character of that
    // name would be.
    let src = "trigger moved(m)\nflag f\ncharacter \"the table\" { }\non moved(m) where m != none { mark m.f }\n\
               play { raise moved(first c in characters where c.f) }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    for jsonl in [false, true] {
        let (view, result) = play(&files, &RunOptions::default(), |p| View::new(jsonl, p));
        assert!(result.is_ok());
        let out = view.map(|v| v.out().to_string()).unwrap_or_default();
        let line = out
            .lines()
            .find(|l| l.contains("trigger"))
            .unwrap_or_default()
            .to_string();
        let want = if jsonl {
            r#"{"event":"trigger","trigger":"moved","args":[null]}"#
        } else {
            "trigger             moved(none)"
        };
        assert_eq!(line, want, "{out}");
        assert!(!out.contains("mark"), "the hook's filter saw none:\n{out}");
    }
}

/// The second pass's N1: a refusal's text that read a field of `none` (or divided by zero)
/// printed `?` in the reason, where any other read stops the run.
#[test]
fn a_refusal_text_reads_none_as_any_expression_does() {
    let src = "resource hp min 0\nstat foe: character\ncharacter Ana { hp = 3 }\n\
               play { for each c in characters { choose plan by c {\n\
               option strike\n option guard unless c.hp < 5 because \"{c.foe} has {c.foe.hp} hp\"\n} } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        answers: vec![
            ("guard".to_string(), "answers:1".to_string()),
            ("strike".to_string(), "answers:2".to_string()),
        ],
        ..RunOptions::default()
    };
    let (view, result) = play(&files, &opts, |p| View::new(false, p));
    let out = view.map(|v| v.out().to_string()).unwrap_or_default();
    match result {
        Err(Failure::Run(_, d)) => {
            let span = d.span().expect("a span");
            assert_eq!(
                (d.code, &src[span.start as usize..span.end as usize]),
                ("run::none", "c.foe.hp"),
                "{out}"
            );
        }
        _ => panic!("the refusal's text must stop at `none`:\n{out}"),
    }
    assert!(!out.contains('?'), "{out}");
}

/// The second pass's N17 and N18: a start value that read a field worked out later read 0; a
/// plain `-5` or `1 + 2` counted as worked out.
#[test]
fn start_values_read_only_what_has_a_value() {
    let run_src = |src: &str, rolls: &[i64]| {
        let files = vec![("t.turn".to_string(), src.to_string())];
        let opts = RunOptions {
            rolls: rolls.to_vec(),
            ..RunOptions::default()
        };
        let (view, result) = play(&files, &opts, |p| View::new(false, p));
        (view.map(|v| v.out().to_string()).unwrap_or_default(), result)
    };
    // A plain value of a later character is there from the start.
    let plain = "stat speed default 0\nresource hp min 0 max 10\ncharacter Ana { speed = (Bo).hp }\ncharacter Bo { hp = 7 }\nplay { }\n";
    let (out, r) = run_src(plain, &[]);
    assert!(r.is_ok() && out.contains("final    Ana   speed = 7"), "{out}");
    // A worked-out value of a later character has none yet.
    let rolled = plain.replace("hp = 7", "hp = d8");
    let (out, r) = run_src(&rolled, &[5]);
    match r {
        Err(Failure::Run(_, d)) => {
            assert_eq!(d.code, "run::not_set", "{out}");
            let span = d.span().expect("a span");
            assert_eq!(&rolled[span.start as usize..span.end as usize], "(Bo).hp");
        }
        _ => panic!("Bo's rolled hp is read before it is rolled:\n{out}"),
    }
    // ... and one before it has.
    let earlier = "stat speed default 0\nresource hp min 0 max 10\ncharacter Bo { hp = d8 }\ncharacter Ana { speed = (Bo).hp }\nplay { }\n";
    let (out, r) = run_src(earlier, &[5]);
    assert!(r.is_ok() && out.contains("final    Ana   speed = 5"), "{out}");
    // Arithmetic on plain values is plain: held by one not yet joined.
    let neg = "stat temp default 0\nstat t2 default 1 + 2\ncharacter Ana { }\ncharacter Bo { absent, temp = -5 }\n\
               play { if Bo.temp == -5 and Bo.t2 == 3 { end encounter because \"held\" } }\n";
    let (out, r) = run_src(neg, &[]);
    assert!(r.is_ok() && out.contains("end of encounter: held"), "{out}");
}
