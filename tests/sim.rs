//! The simulator: every bundled ruleset runs clean, results do not depend on the number of
//! threads, seeds matter, one encounter agrees with `play`, and snapshots of the report.

use std::process::Command;

use turnscript::project::{RunOptions, play};
use turnscript::sim::{Format, Report, SimOptions, Stats, encounter_seed, simulate};
use turnscript::trace::JsonLines;
use turnscript::{Program, Project, Style};

/// Every bundled example ends by itself under its default policy (Capes after the Scenes its
/// table agrees to play), so the simulations run without `--until`.
const RULESETS: [&str; 5] = ["capes", "crisis-mode", "flow-of-time", "legacy", "legends"];

fn files(name: &str) -> Vec<(String, String)> {
    [
        format!("rulesets/{name}.turn"),
        format!("rulesets/encounters/{name}.turn"),
    ]
    .into_iter()
    .map(|p| {
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        (p, t)
    })
    .collect()
}

fn compile(name: &str) -> (Project, Program) {
    let project = Project::load(files(name));
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    (project, program)
}

fn sim(name: &str, n: u64, seed: u64, threads: usize) -> (Project, Program, Stats, SimOptions) {
    let (project, program) = compile(name);
    let opts = SimOptions {
        n,
        seed,
        threads,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    (project, program, stats, opts)
}

fn report(name: &str, n: u64, seed: u64, threads: usize, format: Format) -> String {
    let (project, program, stats, opts) = sim(name, n, seed, threads);
    Report::new(&program, &opts, &stats, |d| {
        project.render(std::slice::from_ref(d), Style::default())
    })
    .render(format)
}

#[test]
fn every_bundled_ruleset_simulates_without_error() {
    for name in RULESETS {
        let (_, _, stats, _) = sim(name, 20, 1, 2);
        assert_eq!(stats.runs, 20, "{name}");
        assert_eq!(stats.finished, 20, "{name}: {:?}", stats.first_error);
        assert!(stats.errors.is_empty(), "{name}");
        assert!(stats.sum.turns.iter().sum::<u64>() > 0, "{name}: no turns");
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    for name in ["crisis-mode", "flow-of-time", "legends"] {
        let one = report(name, 30, 7, 1, Format::Json);
        for t in [2, 3] {
            assert_eq!(one, report(name, 30, 7, t, Format::Json), "{name} with {t} threads");
        }
        assert_eq!(report(name, 30, 7, 1, Format::Csv), report(name, 30, 7, 3, Format::Csv));
    }
}

#[test]
fn different_seeds_give_different_results() {
    let a = report("crisis-mode", 30, 1, 2, Format::Json);
    let b = report("crisis-mode", 30, 2, 2, Format::Json);
    assert_ne!(a, b);
    assert_ne!(encounter_seed(1, 0), encounter_seed(2, 0));
    assert_ne!(encounter_seed(1, 0), encounter_seed(1, 1));
}

#[test]
fn one_encounter_agrees_with_play() {
    for name in RULESETS {
        let seed = 11;
        let (_, program, stats, _) = sim(name, 1, seed, 1);
        let opts = RunOptions {
            seed: encounter_seed(seed, 0),
            ..RunOptions::default()
        };
        let (trace, result) = play(&files(name), &opts, |_| JsonLines::default());
        let (outcome, _) = result.unwrap_or_else(|f| panic!("{}", f.render(Style::default())));
        let trace = trace.expect("a trace").out().to_string();
        let count = |kind: &str| {
            trace
                .lines()
                .filter(|l| l.contains(&format!("\"event\":\"{kind}\"")))
                .count() as u64
        };
        let turns: u64 = stats.sum.turns.iter().sum();
        assert_eq!(turns, count("turn_start"), "{name}: turns");
        let actions: u64 = stats.sum.actions.iter().sum();
        assert_eq!(actions, count("action"), "{name}: actions");
        assert_eq!(stats.steps, outcome.steps as u128, "{name}: steps");
        // Iterations of each level: the start events of its kind naming it.
        for (l, def) in program.levels.iter().enumerate() {
            let starts = trace
                .lines()
                .filter(|line| {
                    line.contains("_start\"")
                        && (line.contains(&format!("\"level\":\"{}\"", def.name))
                            || line.contains(&format!("\"phase\":\"{}\"", def.name)))
                })
                .count() as u64;
            assert_eq!(stats.sum.iters[l], starts, "{name}: iterations of {}", def.name);
        }
    }
}

#[test]
fn crisis_mode_report_snapshots() {
    insta::assert_snapshot!("crisis_mode_text", report("crisis-mode", 40, 3, 2, Format::Text));
    insta::assert_snapshot!("crisis_mode_json", report("crisis-mode", 40, 3, 2, Format::Json));
    insta::assert_snapshot!("crisis_mode_random_csv", {
        let (project, program) = compile("crisis-mode");
        let opts = SimOptions {
            n: 10,
            seed: 3,
            policy: Some("random".into()),
            until: Some("turn=2".into()),
            ..SimOptions::default()
        };
        let stats = simulate(&program, &opts, None).expect("runs").stats;
        Report::new(&program, &opts, &stats, |d| {
            project.render(std::slice::from_ref(d), Style::default())
        })
        .csv()
    });
}

#[test]
fn a_failing_run_is_counted_and_shown() {
    let (project, program) = compile("crisis-mode");
    let opts = SimOptions {
        n: 5,
        seed: 1,
        max_steps: 50,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).expect("runs").stats;
    assert_eq!(stats.finished, 0);
    assert_eq!(stats.errors.iter().map(|e| e.1).sum::<u64>(), 5);
    let text = Report::new(&program, &opts, &stats, |d| {
        project.render(std::slice::from_ref(d), Style::default())
    })
    .text();
    assert!(text.contains("first failure: encounter 0"), "{text}");
    assert!(text.contains("run::"), "{text}");
}

fn cli(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Issue 24: `--threads 100000` started a thread per encounter block (8,000 after nine minutes
/// on a 2-core machine). Workers are held to the cores and `Limits::sim_threads`, with a note.
#[test]
fn sim_threads_are_bounded_by_the_cores() {
    use turnscript::sim::workers_on;
    let w = workers_on(100_000, 1_000_000_000, 2);
    assert_eq!(w.count, 2);
    let note = w.note.expect("a clamped --threads gives a note");
    assert!(
        note.contains("--threads 100000 clamped to 2") && note.contains("2 cores"),
        "{note}"
    );
    assert_eq!(
        workers_on(0, 1000, 2),
        turnscript::sim::Workers { count: 2, note: None }
    );
    assert_eq!(workers_on(2, 1, 2).count, 1, "never more than the encounters");
    assert_eq!(
        workers_on(1, 1000, 2),
        turnscript::sim::Workers { count: 1, note: None }
    );
    let big = workers_on(1000, 1_000_000, 512);
    assert_eq!(big.count, turnscript::limits::MAX_SIM_THREADS);
    assert!(big.note.expect("clamped").contains("Limits::sim_threads"));
    // From the command line: the note, and the run on no more threads than cores.
    let r = "rulesets/crisis-mode.turn";
    let e = "--encounter=rulesets/encounters/crisis-mode.turn";
    let (_, err, code) = cli(&["sim", r, e, "-n", "50", "--threads", "100000", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        err.contains(&format!("note: --threads 100000 clamped to {cores}")),
        "{err}"
    );
    assert!(err.contains(&format!("on {cores} thread")), "{err}");
}

#[test]
fn command_line_exit_codes() {
    let r = "rulesets/crisis-mode.turn";
    let e = "--encounter=rulesets/encounters/crisis-mode.turn";
    let (out, err, code) = cli(&["sim", r, e, "-n", "3", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("section,name,item,stat,value\n"), "{out}");
    assert!(err.contains("encounters/s"), "{err}");
    let (_, err, code) = cli(&["sim", r, e, "-n", "3", "--policy", "nobody"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no policy is called `nobody`"), "{err}");
    let (_, err, code) = cli(&["sim", r, e, "-n", "3", "--until", "nowhere=2"]);
    assert_eq!(code, 2, "{err}");
    let (_, _, code) = cli(&["sim", r, e, "-n", "0"]);
    assert_eq!(code, 2);
    let (_, err, code) = cli(&["sim", "tests/no-such-file.turn", "-n", "3"]);
    assert_eq!(code, 1, "{err}");
    let (out, _, code) = cli(&["sim", r, e, "-n", "2", "--max-steps", "10"]);
    assert_eq!(code, 1);
    assert!(out.contains("failed runs"), "{out}");
}

#[test]
fn measures_are_reported_with_their_values_and_by_character() {
    let src = "resource ap min 0\ncharacter A { ap = 3 }\ncharacter B { ap = 1 }\n\
               play {\n  round repeat while any c in characters: c.ap > 0 {\n\
               for each c in characters where c.ap > 0 { turn c { spend 1 c.ap } }\n  }\n}\n\
               measure left = count c in characters: c.ap > 0 at end of round\n\
               measure after = c.ap at end of turn(c)\n";
    let project = Project::load(vec![("m.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 10,
        threads: 2,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |_| String::new());
    let left = &report.measures[0];
    // Three rounds an encounter: after them 1, 1 and 0 characters have AP left.
    assert_eq!((left.name.as_str(), left.samples, left.total), ("left", 3.0, 2.0));
    assert_eq!((left.min, left.max), (0, 1));
    assert_eq!(left.hist, vec![(0, 0, 10), (1, 1, 20)]);
    assert!(left.about.is_empty());
    let after = &report.measures[1];
    // A's turns leave it 2, 1, 0; B's leaves it 0.
    assert_eq!((after.samples, after.total, after.mean), (4.0, 3.0, 0.75));
    assert_eq!(
        after.about,
        vec![("A".to_string(), 3.0, 1.0), ("B".to_string(), 1.0, 0.0)]
    );
    let text = report.render(Format::Text);
    assert!(text.contains("after by character"), "{text}");
    let csv = report.render(Format::Csv);
    assert!(csv.contains("measure_by,after,A,mean,1\n"), "{csv}");
    // The plot: one panel per measure whose values differ, one bar per bucket, tallest on top.
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("measure left") && svg.contains("measure after"), "{svg}");
    let bars: Vec<&str> = svg.lines().filter(|l| l.contains(r##"fill="#466EAA""##)).collect();
    assert_eq!(bars.len(), left.hist.len() + after.hist.len(), "{svg}");
    let height = |bar: &str| {
        let h = bar.split("height=\"").nth(1).and_then(|r| r.split('"').next());
        h.and_then(|h| h.parse::<u32>().ok()).unwrap_or(0)
    };
    // `left`: 10 zeros, 20 ones.
    assert!(height(bars[1]) > height(bars[0]), "{svg}");
}

#[test]
fn a_measure_of_any_range_plots() {
    let src = "global g\nmeasure m = g at end of encounter\n\
               play { set g = if d2 == 1 then 0 - 9223372036854775807 else 9223372036854775807 }\n";
    let project = Project::load(vec![("big.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 20,
        threads: 1,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |_| String::new());
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    assert!(svg.contains("measure m"), "{svg}");
    let bars = svg.lines().filter(|l| l.contains(r##"fill="#466EAA""##)).count();
    assert_eq!(bars, report.measures[0].hist.len());
}

#[test]
fn readied_responses_and_cancellations_are_counted_per_character() {
    // Each encounter: A readies twice (the second replaces the first) and fires once when B
    // moves; B readies until the end of the round and it expires; C flees before its turn (its
    // turn is cancelled), and its response is disarmed as it leaves.
    let src = "trigger moves(m)\ncharacter A { }\ncharacter B { }\ncharacter C { }\n\
               on before turn(c) where c == C { leave c }\n\
               play {\n  round repeat until round.number == 1 {\n\
               ready A on moves(m) { }\n    ready A on moves(m) where m == B { }\n\
               ready B on moves(m) where m == C until end of round { }\n    ready C on moves(m) where m == A { }\n\
               raise moves(B)\n    for each c in characters { turn c { } }\n  }\n}\n";
    let project = Project::load(vec![("r.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 4,
        threads: 2,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |_| String::new());
    let rows: Vec<(String, [f64; 5])> = report
        .responses
        .iter()
        .map(|r| {
            (
                r.character.clone(),
                [r.armed, r.fired, r.expired, r.disarmed, r.cancelled],
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("A".to_string(), [2.0, 1.0, 0.0, 1.0, 0.0]),
            ("B".to_string(), [1.0, 0.0, 1.0, 0.0, 0.0]),
            ("C".to_string(), [1.0, 0.0, 0.0, 1.0, 1.0]),
        ]
    );
    let text = report.render(Format::Text);
    assert!(
        text.contains("readied responses and cancelled turns or actions"),
        "{text}"
    );
    let csv = report.render(Format::Csv);
    assert!(csv.contains("responses,A,,fired,1\n"), "{csv}");
    let json = report.render(Format::Json);
    assert!(json.contains("\"responses\""), "{json}");
}

/// Changes deferred to the end of a moment whose entity was destroyed first (`lapsed`) are
/// counted, and shown only when some lapsed: every encounter here makes one drone, defers a
/// change to it, and destroys it before the moment ends.
#[test]
fn lapsed_deferred_changes_are_counted() {
    let src = "thing drone, drones { resource hull min 0 }\n\
               play {\n  round counting from 1 to 3 {\n    together {\n      create drone { hull = 2 } as d\n\
               spend 1 d.hull at end of moment\n      destroy d\n    }\n  }\n}\n";
    let project = Project::load(vec![("l.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 4,
        threads: 2,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |_| String::new());
    assert_eq!(report.lapsed, 12);
    let text = report.render(Format::Text);
    assert!(
        text.contains("lapsed: 12 deferred changes not made (their entity destroyed first), 3.00 per encounter"),
        "{text}"
    );
    assert!(report.render(Format::Csv).contains("run,,,lapsed,12\n"));
    // A ruleset with nothing lapsed shows no such line.
    let (_, _, stats, opts) = sim("crisis-mode", 3, 1, 1);
    let (_, program) = compile("crisis-mode");
    let quiet = Report::new(&program, &opts, &stats, |_| String::new()).render(Format::Text);
    assert!(!quiet.contains("lapsed"), "{quiet}");
}

/// Compiles one ruleset text and simulates it: the report.
fn report_of(src: &str, n: u64) -> Report {
    let project = Project::load(vec![("t.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n,
        threads: 2,
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    Report::new(&program, &opts, &stats, |_| String::new())
}

/// A global or a stat that holds a character, a side or a role is reported by what it held (how
/// often each), never as a mean of ids.
#[test]
fn fields_holding_a_character_side_or_role_are_reported_by_name() {
    let src = "side heroes, foes\ncharacter A { }\ncharacter B { }\ncharacter C { }\n\
               stat rival: character\nglobal up: character\nglobal first: side\nglobal nobody: character\n\
               play {\n  set up = if d2 == 1 then A else B\n  set first = if d3 == 1 then foes else heroes\n\
               set A.rival = C\n}\n";
    let report = report_of(src, 40);
    let held = |e: &str, f: &str| {
        report
            .held
            .iter()
            .find(|r| r.entity == e && r.field == f)
            .unwrap_or_else(|| panic!("no row for {e}.{f}: {:?}", report.held))
            .values
            .clone()
    };
    let up = held("table", "up");
    assert_eq!(up.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["A", "B"]);
    assert_eq!(up.iter().map(|v| v.1).sum::<u64>(), 40);
    let first = held("table", "first");
    assert_eq!(
        first.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(),
        ["heroes", "foes"]
    );
    assert_eq!(held("table", "nobody"), vec![("none".to_string(), 40)]);
    assert_eq!(held("A", "rival"), vec![("C".to_string(), 40)]);
    assert_eq!(held("B", "rival"), vec![("none".to_string(), 40)]);
    // No mean of ids anywhere.
    assert!(
        !report
            .finals
            .iter()
            .any(|r| ["up", "first", "nobody", "rival"].contains(&r.field.as_str()))
    );
    let text = report.render(Format::Text);
    let at = text.find("  entity field held").unwrap_or_else(|| panic!("{text}"));
    let lines: Vec<&str> = text[at..].lines().collect();
    assert!(
        lines[1].starts_with("  table  up    A ") && lines[2].starts_with("               B "),
        "{text}"
    );
    assert!(lines[3].starts_with("  table  first heroes "), "{text}");
    // Fields that held the same in every encounter are counted, not listed.
    assert!(
        text.contains("(4 fields ended with the same value in every encounter"),
        "{text}"
    );
    let csv = report.render(Format::Csv);
    assert!(csv.contains("final_held,table,nobody,none,40\n"), "{csv}");
    assert!(csv.contains("final_held,A,rival,C,40\n"), "{csv}");
    let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap_or_default();
    assert_eq!(
        json["held"][2],
        serde_json::json!({"entity": "table", "field": "nobody", "values": [{"value": null, "count": 40}]})
    );
}

/// A measure that never fired prints `-` for what it has no values for, and gets no histogram;
/// a column that is 0 in every row (no actions in a ruleset without any) is left out, and said.
#[test]
fn a_measure_that_never_fired_and_empty_columns() {
    let src = "resource ap min 0\ncharacter A { ap = 2 }\n\
               play {\n  round counting from 1 to 2 { for each c in characters { turn c { spend 1 c.ap } } }\n}\n\
               measure never = c.ap for each c in characters where c.ap > 5 at end of encounter\n";
    let report = report_of(src, 6);
    let m = &report.measures[0];
    assert_eq!((m.recorded, m.samples), (0, 0.0));
    let text = report.render(Format::Text);
    let row = text
        .lines()
        .find(|l| l.starts_with("  never"))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["never", "0.00", "-", "-", "-", "-", "-"],
        "{text}"
    );
    assert!(!text.contains("never: values"), "{text}");
    // No actions: the per-character table has no `actions` column; nothing gained or forfeited.
    assert!(
        text.contains("  character  turns\n  A           2.00\n  (0 in every encounter, not shown: actions)\n"),
        "{text}"
    );
    assert!(text.contains("  resource  spent\n  ap         2.00\n  (0 in every encounter, not shown: gained, forfeited, forfeits, left at end)\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&report.render(Format::Json)).unwrap_or_default();
    let never = &json["measures"][0];
    assert_eq!(
        (never["mean"].is_null(), never["min"].is_null(), never["max"].is_null()),
        (true, true, true),
        "{never}"
    );
    assert!(report.render(Format::Csv).contains("measure,never,,mean,\n"));
    // The plot says a measure never recorded, and draws no panel for it.
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    assert!(svg.contains("never recorded: never"), "{svg}");
}

/// The plot says what was simulated (ruleset, encounter, encounters, seed, policy, until), its
/// panels say what they count, a measure with one value still gets a panel, and what has no
/// panel is named in the footer; only light horizontal gridlines.
#[test]
fn the_plot_says_what_was_simulated_and_what_each_panel_counts() {
    let (project, program) = compile("crisis-mode");
    let opts = SimOptions {
        n: 30,
        seed: 5,
        threads: 2,
        policy: Some("random".into()),
        until: Some("turn=2".into()),
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    let report = Report::new(&program, &opts, &stats, |d| {
        project.render(std::slice::from_ref(d), Style::default())
    });
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    let texts: Vec<String> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            t.split_once('>')
                .and_then(|(_, r)| r.split_once("</text>"))
                .map(|(t, _)| t.trim().to_string())
        })
        .collect();
    let has = |s: &str| texts.iter().any(|t| t == s);
    assert!(has("Crisis Mode Turn Sequence · Rooftop standoff"), "{texts:?}");
    assert!(
        has("30 encounters · seed 5 · policy random · until turn=2"),
        "{texts:?}"
    );
    assert!(has("round: iterations per encounter"), "{texts:?}");
    assert!(
        has("iterations of round in one encounter") && has("encounters"),
        "{texts:?}"
    );
    assert!(
        has("iterations the same in every encounter: turn 2 · action_phase 2 · reset_phase 2"),
        "{texts:?}"
    );
    // No minor gridlines: every line drawn is an axis, a tick or a light major gridline.
    let strokes: std::collections::BTreeSet<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polyline") || l.starts_with("<line"))
        .filter_map(|l| l.split("stroke=\"").nth(1).and_then(|r| r.split('"').next()))
        .collect();
    assert!(
        strokes.iter().all(|s| ["#E4E4E4", "#5A5A5A"].contains(s)),
        "{strokes:?}"
    );

    // One value only: a panel all the same, one bar among its empty neighbours.
    let report = report_of(
        "character A { }\nplay { round counting from 1 to 2 { turn A { } } }\n\
         measure acted = 1 at end of turn(c)\n",
        4,
    );
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    assert!(svg.contains("measure acted: its values"), "{svg}");
    assert!(
        svg.contains("values recorded") && svg.contains(">\n8\n</text>"),
        "{svg}"
    );
    assert!(svg.contains("iterations the same in every encounter: round 2"), "{svg}");
}

/// Issue 29: a histogram kept a count per distinct value, so a measure whose values rarely repeat
/// grew with `-n` (2.2 GB at `-n 100` in one case). Its values are counted in bins that widen as
/// needed: the kept entries stay bounded, the tallies exact and independent of the threads.
#[test]
fn a_measure_whose_values_rarely_repeat_keeps_a_bounded_histogram() {
    let src = "global g\nmeasure m = g at end of round\nplay { level round repeat { set g = d1000000 } }\n";
    let project = Project::load(vec![("m.turn".to_string(), src.to_string())]);
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let run = |n: u64, threads: usize| {
        let opts = SimOptions {
            n,
            threads,
            until: Some("round=50".to_string()),
            ..SimOptions::default()
        };
        let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
        let report = Report::new(&program, &opts, &stats, |_| String::new());
        (stats.sum.measures[0].hist.clone(), report)
    };
    // 1,000 values: each distinct value kept, exactly.
    let (few, _) = run(20, 1);
    assert!(few.len() > 900, "{} entries for 1,000 values", few.len());
    // 20,000 values: at most 4,096 entries, whatever the threads.
    let (many, report) = run(400, 1);
    assert!(many.len() <= 4096, "{} entries kept for 20,000 values", many.len());
    let (again, report2) = run(400, 2);
    assert_eq!(many, again);
    assert_eq!(report, report2);
    let m = &report.measures[0];
    assert_eq!(m.hist.iter().map(|h| h.2).sum::<u64>(), 20_000);
    assert_eq!(
        (m.hist.first().map(|h| h.0), m.hist.last().map(|h| h.1)),
        (Some(m.min), Some(m.max))
    );
    // The report and the plot say the values were counted in bins.
    assert!(m.bin > 1 && m.bin.is_power_of_two(), "{}", m.bin);
    let text = report.render(Format::Text);
    assert!(text.contains(&format!("counted in bins of {}", m.bin)), "{text}");
    assert!(
        report
            .render(Format::Csv)
            .contains(&format!("measure,m,,bin,{}\n", m.bin))
    );
    assert!(report.render(Format::Json).contains(&format!("\"bin\": {}", m.bin)));
    let svg = turnscript::sim::plot::svg(&report).unwrap_or_else(|e| panic!("{e}"));
    assert!(svg.contains(&format!("in bins of {}", m.bin)), "{svg}");
    // Exact where few values came up: no bins.
    assert_eq!(run(20, 1).1.measures[0].bin, 1);
}

/// Issue 31's review: the first failure's hint (`turnscript run --seed N`) left out the files and
/// the options, so it ran without failing. It is a whole command: run, it fails the same way.
#[test]
fn the_first_failure_hint_is_a_command_that_fails_the_same_way() {
    for args in [
        vec![
            "sim",
            "rulesets/encounters/crisis-mode.turn",
            "-n",
            "3",
            "--max-steps",
            "1500",
        ],
        vec![
            "sim",
            "rulesets/crisis-mode.turn",
            "--encounter",
            "rulesets/encounters/crisis-mode.turn",
            "-n",
            "3",
            "--seed",
            "7",
            "--policy",
            "first",
            "--until",
            "turn=9",
            "--max-steps",
            "1200",
        ],
    ] {
        let (out, err, code) = cli(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        let line = out
            .lines()
            .find(|l| l.starts_with("first failure: encounter"))
            .unwrap_or_else(|| panic!("no first failure in {out}"));
        let command = line
            .split_once('(')
            .and_then(|(_, c)| c.strip_suffix("):"))
            .unwrap_or_else(|| panic!("no command in {line}"));
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[..2], ["turnscript", "run"], "{line}");
        let (_, run_err, run_code) = cli(&words[1..]);
        assert_eq!(run_code, 1, "{line}: {run_err}");
        let code_of = |text: &str| {
            text.split(|c: char| c.is_whitespace() || c == '×')
                .find(|w| w.starts_with("run::"))
                .map(str::to_string)
        };
        let failure = out.split_once(line).map(|(_, rest)| rest).unwrap_or("");
        assert!(code_of(failure).is_some(), "{out}");
        assert_eq!(code_of(&run_err), code_of(failure), "{line}\n{run_err}");
    }
}
