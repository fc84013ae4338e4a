//! Numbers with a fixed number of decimals: exact arithmetic (widened to the most decimals in
//! use), ordering keys, the trace and the simulator's report written with their decimals, and the
//! checker refusing decimals where whole numbers are needed or digits would be lost.

mod common;

use common::{check_texts, run_texts};
use turnscript::sim::{Format, Report, SimOptions, simulate};
use turnscript::{Project, RunOptions, Style};

fn run(src: &str, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("round=1".to_string()),
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, jsonl)
}

fn lines<'a>(out: &'a str, kinds: &[&str]) -> Vec<&'a str> {
    out.lines()
        .map(str::trim_start)
        .filter(|l| kinds.iter().any(|k| l.starts_with(k)))
        .collect()
}

const PACE: &str = "param bonus = 0.25\nstat speed decimals 2\nresource move decimals 1 min 0 max 9.5\n\
    global drift decimals 2 default 1.5\norder fast(c) { c.speed desc }\n\
    play { round repeat { for each c in characters by fast { turn c {\n\
      set c.speed = c.speed + bonus - 0.5 * 1\n\
      gain 1.5 c.move\n\
      spend 1 c.move\n\
      if c.speed / 2 > 2.8 { gain 1 drift }\n\
    } } } }\n\
    character A { speed = 5.75 }\ncharacter B { speed = 5.8 move = 2 }\ncharacter C { speed = 6 }\n";

#[test]
fn decimals_are_exact_and_order_as_written() {
    let (out, err, code) = run(PACE, false);
    assert_eq!(code, 0, "{err}");
    // C 6, B 5.80, A 5.75; each loses 0.25; speed / 2 (5.75 / 2 = 2.87, cut as whole numbers
    // are) beats 2.8 for C only.
    assert_eq!(
        lines(&out, &["order", "set", "gain", "spend"]),
        vec![
            "order          C, B, A",
            "set      C     speed      = 5.75",
            "gain     C     move       +1.5 → 1.5",
            "spend    C     move       -1.0 → 0.5",
            "gain           drift      +1.00 → 2.50",
            "set      B     speed      = 5.55",
            "gain     B     move       +1.5 → 3.5",
            "spend    B     move       -1.0 → 2.5",
            "set      A     speed      = 5.50",
            "gain     A     move       +1.5 → 1.5",
            "spend    A     move       -1.0 → 0.5",
        ]
    );
    assert!(out.ends_with("final          drift = 2.50\nfinal    A     speed = 5.50, move = 0.5\nfinal    B     speed = 5.55, move = 2.5\nfinal    C     speed = 5.75, move = 0.5\n"), "{out}");
}

#[test]
fn json_lines_write_decimals_as_numbers() {
    let (out, err, code) = run(PACE, true);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(r#"{"event":"set","actor":"C","stat":"speed","amount":5.75,"left":5.75}"#),
        "{out}"
    );
    assert!(
        out.contains(r#"{"event":"spend","actor":"C","resource":"move","amount":1.0,"left":0.5}"#),
        "{out}"
    );
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

#[test]
fn a_resource_limit_holds_in_its_decimals() {
    let src = "resource move decimals 1 min 0 max 2.5\ncharacter A { move = 2 }\nplay { for each c in characters { gain 0.75 * 2 c.move } }\n";
    // 0.75 * 2 keeps 2 decimals, more than `move` keeps: refused before the run.
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(
        !clean && report.contains("an amount must be a number with 1 decimal, but this is a number with 2"),
        "{report}"
    );
    let src = "resource move decimals 1 min 0 max 2.5\ncharacter A { move = 2 }\nplay { for each c in characters { gain 0.4 c.move\ngain 0.4 c.move } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    // `gain` stops at `max`, in tenths as the resource keeps them.
    assert_eq!(
        lines(&out, &["gain", "final"]),
        vec![
            "gain     A     move       +0.4 → 2.4",
            "gain     A     move       +0.1 → 2.5",
            "final    A     move = 2.5"
        ]
    );
}

#[test]
fn numbers_in_refusal_texts_keep_their_decimals() {
    let src = "global drift decimals 2 default 1.5\ncharacter A { }\n\
               play { choose stop by A { option go option halt unless drift < 3 because \"drift is {drift}, not 3.00\" } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let answers = vec![
        ("halt".to_string(), "a".to_string()),
        ("go".to_string(), "a".to_string()),
    ];
    let (out, err, code) = run_texts(&files, answers, &RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused  A     stop       halt: drift is 1.50, not 3.00"),
        "{out}"
    );
}

#[test]
fn widening_that_overflows_stops_the_run() {
    let src = "global big default 9000000000000000000\nglobal x decimals 2\nplay { set x = big }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (_, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 1);
    assert!(err.contains("run::overflow"), "{err}");
}

#[test]
fn the_checker_keeps_decimals_where_they_belong() {
    let cases = [
        (
            "play { for each c in characters { let n = (1.5)d6 } }\n",
            "a number of dice must be a number, but this is a number with 1 decimal",
        ),
        (
            "stat hp decimals 1\nstat whole\ncharacter A { }\nplay { set A.whole = A.hp }\n",
            "a stat's new value must be a number, but this is a number with 1 decimal",
        ),
        (
            "stat a decimals 4\nstat b decimals 4\ncharacter A { }\nplay { set A.a = A.a * A.b }\n",
            "this product keeps 8 decimals, more than 6",
        ),
        ("stat a decimals 7\n", "`decimals 7` is out of range"),
        (
            "resource a decimals 1\nresource b\ncharacter A { }\nplay { transfer 1 from A.a to A.b }\n",
            "`transfer` moves a number with 1 decimal into a number",
        ),
        (
            "stat who: character decimals 2\n",
            "holds an entity, which has no decimals",
        ),
        ("param x = 1.1234567\n", "has more than 6 decimals"),
    ];
    for (src, want) in cases {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(!clean && report.contains(want), "{src}\n{report}");
    }
}

#[test]
fn the_simulator_reports_measures_and_final_fields_in_their_decimals() {
    let src = format!("{PACE}measure pace = c.speed * 2 for each c in characters at end of round\n");
    let project = Project::load(vec![("t.turn".to_string(), src)]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 10,
        until: Some("round=1".to_string()),
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |d| {
        project.render(std::slice::from_ref(d), Style::default())
    });
    let text = report.render(Format::Text);
    // Every encounter is the same: pace is 11.50, 11.10 and 11.00 (mean 11.20).
    assert!(
        text.contains("\n  pace       3.00  33.60  11.20  0.22  11.00  11.50\n"),
        "{text}"
    );
    assert!(text.contains("\n  11.48-11.50 │"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap_or_else(|e| panic!("{e}"));
    let pace = &json["measures"][0];
    assert_eq!(
        (pace["min"].as_f64(), pace["max"].as_f64()),
        (Some(11.0), Some(11.5)),
        "{pace}"
    );
    let speed_c = json["final"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["entity"] == "C" && r["field"] == "speed"))
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(
        (speed_c["mean"].as_f64(), speed_c["min"].as_f64()),
        (Some(5.75), Some(5.75)),
        "{speed_c}"
    );
}

#[test]
fn a_die_of_computed_size_is_one_die_when_decimals_are_added_to_it() {
    let src = "stat v decimals 1 default 0\nstat size default 6\ncharacter Ana { }\n\
               play { for each c in characters { set c.v = d(c.size) + 0.5 } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: vec![3],
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out, &["roll", "set"]),
        vec![
            "roll     Ana   v          d6 [3] = 3",
            "set      Ana   v          = 3.5"
        ],
        "{out}"
    );
}

#[test]
fn a_policy_condition_is_widened_where_each_choice_is_made() {
    // `x` keeps 1 decimal at the first choice and none at the second: `x > 1` holds at both.
    let src = "stat speed decimals 2 default 0\npolicy pol { act: fast when x > 1, slow }\ndefault policy pol\n\
               character Ana { }\n\
               play {\n\
                 for each c in characters { let x = 1.5\n choose act by c { option fast { set c.speed = 1 } option slow { set c.speed = 2 } } }\n\
                 for each c in characters { let x = 2\n choose act by c { option fast { set c.speed = 3 } option slow { set c.speed = 4 } } }\n\
               }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out, &["set"]),
        vec!["set      Ana   speed      = 1.00", "set      Ana   speed      = 3.00"],
        "{out}"
    );
}

#[test]
fn errors_write_numbers_with_their_decimals() {
    let src = "resource r decimals 2 min 0.5 max 3\ncharacter Ana { }\n\
               play { for each c in characters { gain 10 c.r\nspend 2.6 c.r } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (_, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 1);
    assert!(err.contains("Ana cannot spend 2.60 r: they have 3.00"), "{err}");
    let src = "resource mv decimals 1 min 0 max 2\ncharacter A { mv = 2 }\ncharacter B { mv = 1 }\n\
               play { for each c in characters where c.mv == 2 { transfer 1.5 from c.mv to (first d in characters where d != c).mv } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (_, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 1);
    assert!(
        err.contains("B cannot take 1.5 more mv: they have 1.0 and the most is 2.0"),
        "{err}"
    );
}

#[test]
fn a_division_that_needs_too_many_decimals_says_so() {
    let src = "global g decimals 4 default 1\nglobal h decimals 3 default 2\nplay { set g = g / h }\n";
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(
        !clean && report.contains("this division is worked out at 7 decimals"),
        "{report}"
    );
}

/// A `sum` quantifier that passes 64 bits stops the run at the quantifier, with its span (it was
/// reported with no place in the file).
#[test]
fn a_sum_that_overflows_stops_the_run_at_the_quantifier() {
    let src = "stat big default 9000000000000000000\nglobal x\nplay { set x = sum c in characters: c.big }\ncharacter A { }\ncharacter B { }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (_, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 1);
    assert!(err.contains("run::overflow"), "{err}");
    assert!(err.contains("t.turn:3:16"), "the quantifier's place: {err}");
}
