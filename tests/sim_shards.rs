//! Issue 31: `sim --shard I/K` and `sim merge`. The shards of a run, merged, print exactly what the
//! one-machine run prints (text, JSON, CSV), for even and uneven splits, more shards than
//! encounters, failed runs and measures counted in bins; `--shard` out of range is refused; and
//! merge's diagnostics, snapshots driven by the cases in `tests/sim_merge/`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use turnscript::sim::merge::merge;
use turnscript::sim::{Format, Report, Shard, SimOptions, shard, simulate};
use turnscript::{Project, Style};

/// Runs `turnscript ARGS` in `dir`; returns stdout, stderr and the exit code.
fn turnscript_in(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .output()
        .expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    common::scratch("sim-shards", name)
}

/// The whole run's report in `format` and the merge of its `k` shards' JSON reports (given to
/// merge last shard first) in the same format, with their exit codes.
fn whole_and_merged(name: &str, args: &[&str], k: u64, format: &str) -> ((String, i32), (String, i32)) {
    let dir = scratch(name);
    let (whole, err, code) = turnscript_in(root(), &[args, &["--format", format]].concat());
    assert!(code == 0 || code == 1, "{err}");
    let mut files = Vec::new();
    for i in (1..=k).rev() {
        let shard = format!("{i}/{k}");
        let (json, err, c) = turnscript_in(root(), &[args, &["--shard", &shard, "--format", "json"]].concat());
        assert_eq!(c, code, "shard {shard}: {err}");
        let file = dir.join(format!("part-{i}.json"));
        std::fs::write(&file, json).expect("written");
        files.push(file.display().to_string());
    }
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let (merged, err, c) = turnscript_in(root(), &[&["sim", "merge"][..], &files, &["--format", format]].concat());
    assert!(err.is_empty(), "{err}");
    ((whole, code), (merged, c))
}

#[test]
fn merged_shards_print_what_the_whole_run_prints() {
    let crisis = ["sim", "rulesets/encounters/crisis-mode.turn", "--seed", "5"];
    let cases: Vec<(Vec<&str>, u64)> = vec![
        // Even and uneven splits.
        ([&crisis[..], &["-n", "30"]].concat(), 3),
        (
            [&crisis[..], &["-n", "31", "--policy", "random", "--until", "turn=2"]].concat(),
            4,
        ),
        // More shards than encounters: some shards run none.
        ([&crisis[..], &["-n", "3"]].concat(), 5),
        (
            vec![
                "sim",
                "rulesets/encounters/legends.turn",
                "-n",
                "7",
                "--until",
                "round=3",
            ],
            2,
        ),
        (
            vec!["sim", "rulesets/encounters/capes.turn", "-n", "5", "--seed", "2"],
            3,
        ),
        (vec!["sim", "rulesets/encounters/flow-of-time.turn", "-n", "6"], 1),
    ];
    for (n, (args, k)) in cases.iter().enumerate() {
        for format in ["text", "json", "csv"] {
            let ((whole, a), (merged, b)) = whole_and_merged(&format!("even-{n}-{format}"), args, *k, format);
            assert_eq!((a, b), (0, 0), "{args:?}");
            assert!(whole.len() > 100, "{whole}");
            assert_eq!(merged, whole, "{args:?} in {k} shards, {format}");
        }
    }
}

#[test]
fn merged_shards_that_failed_runs_show_the_first_failure_as_the_whole_run() {
    // A step budget too small for some encounters: they fail, and the merge runs the first again.
    let args = [
        "sim",
        "rulesets/encounters/crisis-mode.turn",
        "-n",
        "12",
        "--max-steps",
        "1500",
    ];
    let ((whole, a), (merged, b)) = whole_and_merged("failed", &args, 3, "text");
    assert_eq!((a, b), (1, 1));
    assert!(whole.contains("first failure: encounter"), "{whole}");
    assert_eq!(merged, whole);
}

/// Issue 29's binned histograms: the shards' bins, merged, are exactly the whole run's.
#[test]
fn measures_counted_in_bins_merge_exactly() {
    let src = "global g\nmeasure m = g at end of round\nplay { level round repeat { set g = d1000000 } }\n";
    let files = vec![("m.turn".to_string(), src.to_string())];
    let project = Project::load(files.clone());
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 301,
        until: Some("round=50".to_string()),
        threads: 2,
        ..SimOptions::default()
    };
    let json = |opts: &SimOptions| {
        let stats = simulate(&program, opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
        let mut report = Report::new(&program, opts, &stats, |_| String::new());
        if opts.shard.is_some() {
            report.shard_json = Some(shard::document(&files, opts, &stats));
        }
        (report, stats)
    };
    let (whole, stats) = json(&opts);
    assert!(whole.measures[0].bin > 1, "the values must be counted in bins");
    let mut texts = Vec::new();
    for index in 1..=4 {
        let part = SimOptions {
            shard: Shard::new(index, 4),
            ..opts.clone()
        };
        let (report, shard_stats) = json(&part);
        // Each shard alone is binned at its own width, no wider than the whole's.
        assert!(shard_stats.sum.measures[0].hist.width() <= stats.sum.measures[0].hist.width());
        texts.push((format!("{index}.json"), report.render(Format::Json)));
    }
    let merged = merge(texts).unwrap_or_else(|e| panic!("{}", e.render(Style::default())));
    assert_eq!(merged.stats.sum.measures[0].hist, stats.sum.measures[0].hist);
    let report = Report::new(&merged.program, &merged.opts, &merged.stats, |_| String::new());
    for f in [Format::Text, Format::Json, Format::Csv] {
        assert_eq!(report.render(f), whole.render(f));
    }
    // And the plot (`sim merge --plot`) is the whole run's.
    let svg = |r: &Report| turnscript::sim::plot::svg(r).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(svg(&report), svg(&whole));
}

#[test]
fn a_shard_out_of_range_is_refused() {
    for (shard, says) in [
        ("0/3", "there is no shard 0 of 3"),
        ("4/3", "there is no shard 4 of 3"),
        ("1/0", "K, the number of shards, is at least 1"),
        ("2", "is not I/K"),
        ("a/3", "I and K are whole numbers"),
        // Issue 31's review: a number too large is not "not a whole number".
        ("1/99999999999999999999", "K is too large"),
        ("99999999999999999999/3", "I is too large"),
    ] {
        let (out, err, code) = turnscript_in(
            root(),
            &[
                "sim",
                "rulesets/encounters/crisis-mode.turn",
                "-n",
                "3",
                "--shard",
                shard,
            ],
        );
        assert_eq!(code, 2, "{shard}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(says), "{shard}: {err}");
        assert!(err.contains("help: give the shard as I/K"), "{err}");
    }
}

#[test]
fn a_shard_says_which_part_it_is() {
    let (out, err, code) = turnscript_in(
        root(),
        &[
            "sim",
            "rulesets/encounters/crisis-mode.turn",
            "-n",
            "10",
            "--shard",
            "2/3",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 encounters, seed 0"), "{out}");
    assert!(err.contains("3 encounters, "), "{err}");
    // Issue 31's review: `3..6` read as 4 encounters; numbered from 0, as the docs and the first
    // failure number them.
    assert!(
        out.contains("shard 2/3: encounters 3 to 5 of the 10 (numbered from 0)"),
        "{out}"
    );
    // A shard with none (more shards than encounters) says so.
    let (out, err, code) = turnscript_in(
        root(),
        &[
            "sim",
            "rulesets/encounters/crisis-mode.turn",
            "-n",
            "2",
            "--shard",
            "1/3",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("shard 1/3: none of the 2 encounters"), "{out}");
    assert!(err.contains("0 encounters, "), "{err}");
}

/// One case of `tests/sim_merge/`: lines `sim ARGS...` (a shard's JSON report, the k-th such line
/// written to `k.json`), `text NAME CONTENT` (a file), `edit NAME FROM => TO` (the first FROM in
/// the file replaced), and one `merge FILE...`; the snapshot is the merge's exit code and
/// standard error.
fn merge_case(path: &Path) -> String {
    let name = path.file_stem().and_then(|s| s.to_str()).expect("a case name");
    let dir = scratch(&format!("case-{name}"));
    let text = std::fs::read_to_string(path).expect("the case");
    let mut shards = 0;
    let mut result = None;
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "sim" => {
                shards += 1;
                let args: Vec<&str> = rest.split_whitespace().collect();
                let (json, err, code) = turnscript_in(root(), &[&["sim"][..], &args, &["--format", "json"]].concat());
                assert_eq!(code, 0, "{line}: {err}");
                std::fs::write(dir.join(format!("{shards}.json")), json).expect("written");
            }
            "text" => {
                let (file, content) = rest.split_once(' ').unwrap_or((rest, ""));
                std::fs::write(dir.join(file), format!("{content}\n")).expect("written");
            }
            "edit" => {
                let (file, change) = rest.split_once(' ').expect("edit NAME FROM => TO");
                let (from, to) = change.split_once(" => ").expect("edit NAME FROM => TO");
                let old = std::fs::read_to_string(dir.join(file)).expect("the file to edit");
                assert!(old.contains(from), "{line}: `{from}` is not in {file}");
                std::fs::write(dir.join(file), old.replacen(from, to, 1)).expect("written");
            }
            "merge" => {
                let files: Vec<&str> = rest.split_whitespace().collect();
                let (out, err, code) = turnscript_in(&dir, &[&["sim", "merge"][..], &files].concat());
                assert!(out.is_empty(), "{line}: {out}");
                result = Some(format!("exit code {code}\n{err}"));
            }
            other => panic!("{}: unknown line `{other}`", path.display()),
        }
    }
    result.unwrap_or_else(|| panic!("{}: no merge line", path.display()))
}

#[test]
fn merge_refuses_what_does_not_add_up_to_one_run() {
    insta::glob!("sim_merge/*.case", |path| {
        let out = merge_case(path);
        assert!(out.starts_with("exit code 1\n"), "{out}");
        insta::assert_snapshot!(out);
    });
}

/// Writes the checksum of a `shard` object's tallies anew, as a shard whose tallies say so would
/// have: what a merge reads may still be anything.
fn reseal(shard: &mut serde_json::Value) {
    shard["tallies_checksum"] = serde_json::json!(shard::tallies_checksum(&shard["tallies"]));
}

/// Totals read back from files changed by hand (and their checksum written anew) may be anything: adding them up saturates, never
/// panics (two shards claiming u64::MAX lapsed changes each).
#[test]
fn merging_totals_changed_by_hand_to_the_largest_numbers_does_not_panic() {
    let dir = scratch("largest");
    let mut files = Vec::new();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let (json, err, code) = turnscript_in(
            root(),
            &[
                "sim",
                "rulesets/encounters/crisis-mode.turn",
                "-n",
                "4",
                "--shard",
                &shard,
                "--format",
                "json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        // Changed, and its checksum written anew to match.
        let mut doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        doc["shard"]["tallies"]["sum"]["lapsed"] = serde_json::json!(u64::MAX);
        reseal(&mut doc["shard"]);
        let json = serde_json::to_string_pretty(&doc).expect("JSON");
        let file = dir.join(format!("{i}.json"));
        std::fs::write(&file, json).expect("written");
        files.push(file.display().to_string());
    }
    let (out, err, code) = turnscript_in(root(), &["sim", "merge", &files[0], &files[1]]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("lapsed: {} deferred changes", u64::MAX)), "{out}");
}

/// The first failure is run again for its diagnostic; a shard whose failure does not recur so
/// (written by another build, or changed) is refused with `sim::replay`.
#[test]
fn a_first_failure_that_does_not_recur_is_refused() {
    let files: Vec<(String, String)> = ["rulesets/crisis-mode.turn", "rulesets/encounters/crisis-mode.turn"]
        .iter()
        .map(|p| {
            (
                p.to_string(),
                std::fs::read_to_string(root().join(p)).expect("the example"),
            )
        })
        .collect();
    let project = Project::load(files.clone());
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    let opts = SimOptions {
        n: 6,
        max_steps: 1500,
        shard: Shard::new(1, 1),
        ..SimOptions::default()
    };
    let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
    assert!(stats.first_error.is_some(), "the step budget must stop some encounter");
    let mut report = Report::new(&program, &opts, &stats, |_| String::new());
    report.shard_json = Some(shard::document(&files, &opts, &stats));
    let json = report.render(Format::Json);
    // As written, it merges, and the failure's diagnostic is the run's.
    let merged =
        merge(vec![("1.json".into(), json.clone())]).unwrap_or_else(|e| panic!("{}", e.render(Style::default())));
    assert_eq!(
        merged.stats.first_error.as_ref().map(|f| (f.0, f.1, f.2.code)),
        stats.first_error.as_ref().map(|f| (f.0, f.1, f.2.code))
    );
    // Its failure's code changed: refused.
    let mut doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    doc["shard"]["tallies"]["first_error"][2] = serde_json::json!("run::overflow");
    // Changed by hand, its tallies no longer match their checksum.
    let changed = serde_json::to_string_pretty(&doc).expect("JSON");
    let err = match merge(vec![("1.json".into(), changed)]) {
        Ok(_) => panic!("tallies changed by hand were merged"),
        Err(e) => e.render(Style::default()),
    };
    assert!(err.contains("do not match their checksum"), "{err}");
    // As another build would have written it (the checksum its own): the replay refuses it.
    reseal(&mut doc["shard"]);
    let changed = serde_json::to_string_pretty(&doc).expect("JSON");
    let err = match merge(vec![("1.json".into(), changed)]) {
        Ok(_) => panic!("a failure that does not recur was merged"),
        Err(e) => e.render(Style::default()),
    };
    assert!(err.contains("sim::replay"), "{err}");
    // (The message wraps at the diagnostic's width.)
    assert!(err.contains("failed with run::overflow in its"), "{err}");
}

/// The JSON reports of the `k` shards of `-n n` of the crisis example (`--max-steps max_steps`),
/// written by the library as `sim --shard I/K --format json` writes them.
fn crisis_shards(n: u64, k: u64, max_steps: u64) -> Vec<(String, String)> {
    let files: Vec<(String, String)> = ["rulesets/crisis-mode.turn", "rulesets/encounters/crisis-mode.turn"]
        .iter()
        .map(|p| {
            (
                p.to_string(),
                std::fs::read_to_string(root().join(p)).expect("the example"),
            )
        })
        .collect();
    let project = Project::load(files.clone());
    let program = project
        .compile()
        .unwrap_or_else(|d| panic!("{}", project.render(&d, Style::default())));
    (1..=k)
        .map(|i| {
            let opts = SimOptions {
                n,
                max_steps,
                threads: 1,
                shard: Shard::new(i, k),
                ..SimOptions::default()
            };
            let stats = simulate(&program, &opts, None).unwrap_or_else(|e| panic!("{e}")).stats;
            let mut report = Report::new(&program, &opts, &stats, |_| String::new());
            report.shard_json = Some(shard::document(&files, &opts, &stats));
            (format!("part-{i}.json"), report.render(Format::Json))
        })
        .collect()
}

/// Merges `texts`, which must be refused: the rendered diagnostics (wide: no line wraps).
fn refused(texts: Vec<(String, String)>) -> String {
    match merge(texts) {
        Ok(m) => panic!("merged into a report of {} encounters", m.stats.runs),
        Err(e) => e.render(Style {
            width: 400,
            colour: false,
        }),
    }
}

/// A change to a shard's `shard` object.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// Changes shard 2's JSON report with `edit` of its `shard` object.
fn edited(texts: &[(String, String)], edit: impl Fn(&mut serde_json::Value)) -> Vec<(String, String)> {
    let mut texts = texts.to_vec();
    let mut doc: serde_json::Value = serde_json::from_str(&texts[1].1).expect("JSON");
    edit(&mut doc["shard"]);
    texts[1].1 = serde_json::to_string_pretty(&doc).expect("JSON");
    texts
}

/// A new user's hand edits of a shard's tallies (issue 31's review): each merged silently into a
/// wrong report. The tallies carry their checksum, and a shard whose tallies no longer match it
/// is refused.
#[test]
fn a_shard_whose_tallies_were_changed_by_hand_is_refused() {
    use serde_json::json;
    let texts = crisis_shards(12, 2, 1_000_000);
    assert!(merge(texts.clone()).is_ok(), "as written, the shards merge");
    let edits: [(&str, Edit); 4] = [
        ("steps", Box::new(|s| s["tallies"]["steps"] = json!("999999"))),
        (
            "actions",
            Box::new(|s| s["tallies"]["sum"]["actions"][0] = json!(99999)),
        ),
        ("place", Box::new(|s| s["tallies"]["place"][0] = json!(100))),
        (
            "steps_max",
            Box::new(|s| {
                let min = s["tallies"]["steps_min"].as_u64().expect("steps_min");
                s["tallies"]["steps_max"] = json!(min - 1);
            }),
        ),
    ];
    for (what, edit) in &edits {
        let err = refused(edited(&texts, edit));
        assert!(err.contains("sim::shard_format"), "{what}: {err}");
        assert!(err.contains("do not match their checksum"), "{what}: {err}");
        assert!(err.contains("run shard 2/2 again"), "{what}: {err}");
    }
}

/// Tallies changed by hand with their checksum written anew still have to add up to the
/// encounters the shard ran: the cheap checks of docs/sim.md refuse them, naming the count.
#[test]
fn tallies_that_do_not_add_up_are_refused_even_with_a_matching_checksum() {
    use serde_json::json;
    let texts = crisis_shards(12, 2, 1_000_000);
    let edits: [(&str, Edit); 5] = [
        (
            "`steps` (999999) is not between 6 encounters",
            Box::new(|s| s["tallies"]["steps"] = json!("999999")),
        ),
        (
            "`place` of order 0",
            Box::new(|s| s["tallies"]["place"][0] = json!(100)),
        ),
        (
            "is below `steps_min`",
            Box::new(|s| {
                let min = s["tallies"]["steps_min"].as_u64().expect("steps_min");
                s["tallies"]["steps_max"] = json!(min - 1);
            }),
        ),
        (
            "`runs` counts 7 encounters where the shard ran 6 (encounters 6 to 11)",
            Box::new(|s| s["tallies"]["runs"] = json!(7)),
        ),
        ("`ends` counts", Box::new(|s| s["tallies"]["ends"][0][1] = json!(5))),
    ];
    for (says, edit) in &edits {
        let err = refused(edited(&texts, |s| {
            edit(s);
            reseal(s);
        }));
        assert!(err.contains("sim::shard_format"), "{says}: {err}");
        assert!(err.contains("do not add up"), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
        assert!(err.contains("run shard 2/2 again"), "{says}: {err}");
    }
}

/// A shard killed mid-write (`... > parts/part-2.json`) leaves an empty file or one cut short:
/// the merge says so, that the shard did not finish and is to be run again, and which shard it
/// was (the one the others do not cover, or the one its text names).
#[test]
fn a_shard_report_empty_or_cut_short_says_so_and_which_shard_to_run_again() {
    let texts = crisis_shards(12, 3, 1_000_000);
    let cut = |text: &str, at: usize| -> Vec<(String, String)> {
        let mut t = texts.clone();
        t[1].1 = text[..at].to_string();
        t
    };
    let whole = texts[1].1.clone();
    // Empty, cut in its report, cut in its `shard` object after `index` and `of`.
    let after_of = whole.find("\"policy\": null").expect("the shard's policy");
    for (what, t, says) in [
        ("empty", cut(&whole, 0), "is empty"),
        ("in the report", cut(&whole, whole.len() / 3), "is cut short"),
        ("in the shard object", cut(&whole, after_of), "is cut short"),
    ] {
        let err = refused(t);
        assert!(err.contains("sim::json"), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(err.contains("the shard that wrote it did not finish"), "{what}: {err}");
        assert!(err.contains("shard 2/3"), "{what}: {err}");
        assert!(err.contains("run it again"), "{what}: {err}");
        assert!(!err.contains("EOF while parsing"), "{what}: {err}");
    }
    // With no other shard to tell, it says how to find which.
    let err = refused(vec![("part-9.json".into(), String::new())]);
    assert!(err.contains("is empty"), "{err}");
    assert!(err.contains("\"index\""), "{err}");
    assert!(err.contains("its name suggests shard 9"), "{err}");
}
