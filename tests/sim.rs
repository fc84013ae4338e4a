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
